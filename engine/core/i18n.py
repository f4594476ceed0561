"""Translations: which language the game speaks, and looking text up in its catalogue.

English is the source language; the catalogues are ``assets/locale/<lang>/LC_MESSAGES/
arcade.mo`` (gettext, compiled with Babel: see README "Translations"), found through
:func:`engine.core.assets.asset_path`. :func:`set_language` installs one: a language code from
:data:`LANGUAGES`, or ``"system"`` for the system's language (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``, then :func:`locale.getlocale`); anything unknown, or a missing
catalogue, falls back to English without a word.

How text is marked (one rule everywhere, so that ``pybabel extract`` finds every msgid):

* ``_("...")`` translates now. Use it where text is made for the screen: drawing code,
  status texts, notices, the callables that widgets call for live text.
* ``N_("...")`` only marks text defined ahead of its display (class attributes, module
  constants, game titles and blurbs in descriptors, help texts, preset and level
  labels); it returns the English text unchanged, and whoever shows it calls ``_()`` on
  it. :class:`engine.ui.widgets.Label` and :class:`engine.ui.widgets.Button` do that when they
  draw, so they take ``N_()``-marked text (or a callable that calls ``_()``), and a
  change of language shows at the next frame.
* Functions that build a text to show (a status line, a board's name, a position's value
  explained) call ``_()`` as they build it, so what they return is in the current
  language. Words that pure modules make and the command line prints too (a game's
  hint reasons) stay English where they are made; their templates are marked with
  ``N_()`` and :func:`translate_filled` translates them where they are shown.
* Text made where no language is known yet, or printed in English by the command line
  too (the stores' notices, the rules' error messages), is a :class:`engine.core.phrase.Phrase`:
  English to everything that compares or prints it, its template marked with ``N_()``;
  where it is shown, :func:`localize` says it in the current language (a plain
  ``N_()``-marked message too). Raising one: ``ValueError(Phrase(N_("... {n}"), n=n))``;
  showing it: ``localize(error_text(exc))``. Data inside (paths, the operating system's
  reason) stays as it is.
* Values go in by name: ``_("{name} wins").format(name=who)``, never an f-string (its
  text could not be looked up); counts with :func:`ngettext`.

The command line (``engine/runtime/cli.py``, ``games/*/cli.py``) stays English: other tools
parse what it prints, and it never installs a language, so every ``_()`` it reaches
returns the English text.
"""

from __future__ import annotations

import functools
import gettext
import locale
import os
import re
from collections.abc import Iterable
from typing import Any

from engine.core.assets import asset_path, report_problem
from engine.core.languages import CHOICES, LANGUAGES
from engine.core.phrase import N_, Nn_, Number, Phrase, error_text, written

DOMAIN = "arcade"
# Each choice as the settings screen names it: a language by its own name, so a player
# who cannot read the current one still finds theirs.
ENDONYMS = {"en": "English", "hu": "Magyar", "cs": "Čeština"}
SYSTEM = "system"
# How each language writes a number: its decimal mark and its thousands separator (the
# CLDR's symbols, which tests/engine/core/test_i18n.py checks against Babel's copy; a no-break space
# keeps "1 024" on one line).
NUMBER_SYMBOLS = {"en": (".", ","), "hu": (",", "\u00a0"), "cs": (",", "\u00a0")}
__all__ = ["CHOICES", "DOMAIN", "ENDONYMS", "LANGUAGES", "N_", "NUMBER_SYMBOLS", "SYSTEM",
           "Nn_", "Number", "Phrase", "_", "choice_label", "current_language", "error_text",
           "gettext_", "language_problem", "localize", "ngettext", "number_text", "pgettext",
           "set_language",
           "translate_filled", "system_language"]

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"
_problem: str | None = None


def _match(name: str | None) -> str | None:
    """The supported language a locale name such as ``hu_HU.UTF-8`` or ``cs`` means."""
    if not name:
        return None
    code = name.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def system_language() -> str:
    """The system's language, if one with a catalogue (else ``"en"``).

    ``LANGUAGE`` (a colon-separated list of preferences) comes first, as in gettext, then
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``; the C or POSIX locale means English, and
    without any of them :func:`locale.getlocale` decides.
    """
    for name in os.environ.get("LANGUAGE", "").split(":"):
        if (code := _match(name)) is not None:
            return code
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if value:
            return _match(value) or "en"
    try:
        name = locale.getlocale()[0]
    except (ValueError, TypeError):
        name = None
    return _match(name) or "en"


def set_language(choice: str) -> str:
    """Install the catalogue for ``choice`` (a code, or ``"system"``); return the code used.

    An unknown choice means the system's language; a catalogue that is missing, unreadable
    or damaged (truncated, a ``Plural-Forms`` rule that fails for some count) means English,
    and :func:`language_problem` then says why. Never raises.
    """
    global _translation, _language, _problem
    code = choice if choice in LANGUAGES else system_language()
    translation: gettext.NullTranslations = gettext.NullTranslations()
    _problem = None
    if code != "en":
        try:
            folder = asset_path("locale")
            translation = gettext.translation(DOMAIN, localedir=str(folder),
                                              languages=[code], fallback=True)
            _check_plural(translation)
        # Anything: gettext's parser raises struct.error, IndexError, UnicodeDecodeError,
        # OverflowError... on a damaged file, and the rule ZeroDivisionError when used.
        except Exception:  # noqa: BLE001 - a damaged shipped file must not stop the app
            translation = gettext.NullTranslations()
            _problem = Phrase(N_("The translation into {language} is damaged, so the arcade "
                                 "is shown in English."), language=ENDONYMS.get(code, code))
            report_problem(_problem)  # the app shows it as a notice
        if type(translation) is gettext.NullTranslations:
            code = "en"  # no catalogue for it: the source language
    _translation, _language = translation, code
    return code


def _check_plural(translation: gettext.NullTranslations) -> None:
    """Raise unless the catalogue's plural rule gives a form for every count tried (a rule
    that divides by zero for some count would otherwise fail when that count is shown)."""
    rule = getattr(translation, "plural", None)
    if rule is None:
        return
    counts = [*range(0, 1001), *(10 ** power for power in range(4, 19))]
    for count in counts:
        form = rule(count)
        if not isinstance(form, int) or form < 0:
            raise ValueError(f"plural rule gives {form!r} for {count}")


def language_problem() -> str | None:
    """Why the last :func:`set_language` fell back to English (a
    :class:`~engine.core.phrase.Phrase` for a notice), or None when it did not."""
    return _problem


def current_language() -> str:
    """The code of the language installed now (``"en"`` until :func:`set_language`)."""
    return _language


def number_text(value: float, decimals: int | None = None) -> str:
    """``value`` as the current language writes it: ``decimals`` places (as few as it
    needs when None, like ``:g``), thousands grouped ("1,024.5"; "1 024,5" in Czech)."""
    point, group = NUMBER_SYMBOLS.get(_language, NUMBER_SYMBOLS["en"])
    return written(value, decimals, point, group)


def gettext_(message: str) -> str:
    """``message`` in the current language (unchanged if it has no translation)."""
    if not message:
        return message  # gettext("") is the catalogue's header
    return _translation.gettext(message)


_ = gettext_


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, as meant in ``context`` (a word that means
    something else elsewhere: a graph's node "Start", not the button)."""
    return _translation.pgettext(context, message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message for ``count`` (Czech has three, Hungarian one, English two)."""
    try:
        return _translation.ngettext(singular, plural, count)
    except Exception:  # noqa: BLE001 - a plural rule that fails for a count not tried at load
        return singular if count == 1 else plural


def translate_filled(text: str, templates: Iterable[str]) -> str:
    """``text``, made in English from one of ``templates`` (``"stops their {what}"``, each
    marked with N_), in the current language: the template that matches is translated and
    filled with what it matched, each part translated too. Text no template matches is
    returned as it is. For words that pure modules build (and the command line prints in
    English), translated where they are shown. Where several match ("stops their fork"
    is a template itself, and "stops their {four}" with "fork"), the one with the most
    words of its own wins."""
    best: tuple[int, str, re.Match[str]] | None = None
    for template in templates:
        pattern, own = _template_pattern(template)
        found = pattern.fullmatch(text)
        if found is not None and (best is None or own > best[0]):
            best = (own, template, found)
    if best is not None:
        _own, template, found = best
        return _(template).format(**{name: _(value) for name, value in
                                     found.groupdict().items()})
    return _(text)


@functools.lru_cache(maxsize=256)
def _template_pattern(template: str) -> tuple[re.Pattern[str], int]:
    """``template`` as a pattern (each ``{name}`` a named group) and how many characters
    of its own it has. Cached: the ranked legend asks on every frame it draws."""
    pattern = "".join(f"(?P<{part[1:-1]}>.+?)" if re.fullmatch(r"{\w+}", part)
                      else re.escape(part)
                      for part in re.split(r"({\w+})", template) if part)
    return re.compile(pattern), len(re.sub(r"{\w+}", "", template))


def choice_label(choice: str) -> str:
    """How the language setting's ``choice`` is shown: "System" translated, a language
    by its own name."""
    if choice == SYSTEM:
        return _("System")
    return ENDONYMS.get(choice, choice)


def localize(text: Any) -> Any:
    """``text`` in the current language: a :class:`Phrase` said again from its
    translated template, any other text looked up whole (a message marked with ``N_()``);
    None stays None."""
    if isinstance(text, Number):
        return number_text(text.number, text.decimals)
    if isinstance(text, Phrase) and getattr(text, "template", None) == "":
        return text.values["separator"].join(str(localize(part)) for part in
                                             text.values["parts"])
    if isinstance(text, Phrase) and hasattr(text, "template"):
        values = {name: localize(value) if isinstance(value, Phrase) else value
                  for name, value in text.values.items()}
        if getattr(text, "plural", None):
            count = text.values[text.count_key]
            return ngettext(text.template, text.plural,
                            int(getattr(count, "number", count))).format(**values)
        return _(text.template).format(**values)
    if isinstance(text, str):
        return _(text)
    return text
