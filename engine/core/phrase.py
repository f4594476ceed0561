"""Text made in English that can still be said in the player's language.

The stores (``engine/storage``) and the rules' checks make their notices and error
messages where no language is known yet (the settings file says which language, and is
read before any is installed), and the command line prints the same messages in English.
So they make a :class:`Phrase`: a ``str`` holding the English text, which everything that
compares or prints it sees, that also keeps its template (marked with ``N_()`` for the
catalogue) and its values. ``localize`` (engine/core/i18n.py), called where the text is
shown, says it in the current language: the template translated, filled with the
values, each value that is a Phrase itself translated too; a plain value (a path, a
number, the operating system's reason) is data and stays as it is.
"""

from __future__ import annotations

from typing import Any

__all__ = ["N_", "Nn_", "Number", "Phrase", "error_text", "joined", "written"]


def N_(message: str) -> str:  # noqa: N802 (the usual name of the marker)
    """Mark ``message`` for the catalogue without translating it (see engine/core/i18n.py)."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 (like N_)
    """Mark a singular and plural template for the catalogue (one ``ngettext`` entry, so
    each language writes all its plural forms: cs has three) without translating them;
    a :class:`Phrase` made from the pair chooses by its count."""
    return singular, plural


class Phrase(str):
    """English text from ``template`` (marked with ``N_()``) filled with ``values``
    (by name, as ``str.format`` takes them). A count that changes the words: ``template``
    is an :func:`Nn_` pair and ``count_key`` names the value that is the count (the
    English text takes the singular for 1; ``localize`` asks ``ngettext`` for the
    language's own form)."""

    template: str
    values: dict[str, Any]
    plural: str | None = None
    count_key: str = "count"

    def __new__(cls, template: str | tuple[str, str], count_key: str = "count",
                **values: Any) -> Phrase:
        plural = None
        if isinstance(template, tuple):
            template, plural = template
            english = template if _count(values[count_key]) == 1 else plural
        else:
            english = template
        self = super().__new__(cls, english.format(**values))
        self.template, self.values = template, values
        self.plural, self.count_key = plural, count_key
        return self


def written(value: float, decimals: int | None = None, point: str = ".",
            group: str = ",") -> str:
    """``value`` written with ``point`` as its decimal mark and thousands grouped by
    ``group``: ``decimals`` places, or as few as it needs (like ``:g``) when None."""
    if decimals is None and not isinstance(value, int):
        english = f"{value:g}"
    else:
        english = f"{value:,}" if decimals is None else f"{value:,.{decimals}f}"
    return english.translate({ord("."): point, ord(","): group})


def _count(value: Any) -> int:
    """A Phrase's count as a whole number (a :class:`Number` by its value)."""
    return int(getattr(value, "number", value))


class Number(Phrase):
    """A number written the English way ("2.5", "1,024") to everything that compares or
    prints it, that :func:`localize` writes the player's way ("2,5", "1 024")."""

    number: float
    decimals: int | None

    def __new__(cls, value: float, decimals: int | None = None) -> Number:
        self = str.__new__(cls, written(value, decimals))
        self.template, self.values = "{number}", {"number": value}
        self.number, self.decimals = value, decimals
        return self


def joined(parts: list[Any], separator: str = " ") -> str:
    """``parts`` joined with ``separator`` (English), each part said in the current
    language by :func:`localize`: a Phrase when a part is one, plain text otherwise."""
    if not any(isinstance(part, Phrase) for part in parts):
        return separator.join(parts)
    self = Phrase("{text}", text=separator.join(parts))
    self.template, self.values = "", {"parts": list(parts), "separator": separator}
    return self


def error_text(exc: BaseException) -> str:
    """The message of ``exc`` kept as made (a :class:`Phrase` stays one, for
    :func:`localize` where it is shown); ``str(exc)`` otherwise."""
    if len(exc.args) == 1 and isinstance(exc.args[0], Phrase):
        return exc.args[0]
    return str(exc)
