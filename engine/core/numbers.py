"""Numbers a player types on the command line: one rule everywhere.

A whole number is written with the ASCII digits 0-9 only: no sign, no spaces,
no underscores, no other scripts' digits ("٣", "３") and no exponent. Python's
``int()`` and ``float()`` accept all of those, so a command line built on them
took forms that the board codes (``NxN:DIGITS``, a game's move digits,
game IDs such as ``7x6k4``) reject; both now follow this module's rule.

Seconds and other amounts may also have one decimal point ("1.5", ".5");
still no sign, exponent, ``inf`` or ``nan``.
"""

from __future__ import annotations

import re

__all__ = ["MAX_DIGITS", "RULE", "is_whole", "parse_decimal", "parse_whole"]

#: The rule in words, for --help and error messages.
RULE = "digits 0-9 only, with no sign, spaces or underscores"
#: Longer numbers are refused before converting: int() of a huge string is slow
#: (and Python refuses more than 4,300 digits anyway); no option needs more.
MAX_DIGITS = 100

# [0-9], not \d: \d matches every script's decimal digits.
_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")


def _shown(text: str) -> str:
    """The player's text for a message, shortened when long."""
    return repr(text) if len(text) <= 24 else repr(text[:24]) + f"… ({len(text)} characters)"


def is_whole(text: str) -> bool:
    """Whether ``text`` is a whole number by the rule (any length)."""
    return _WHOLE.fullmatch(text) is not None


def parse_whole(text: str) -> int:
    """``text`` as a whole number written with ASCII digits only.

    Raises ValueError with a message a player can act on for anything else:
    an empty text, a sign, spaces, underscores, other digits, more than
    :data:`MAX_DIGITS` digits.
    """
    if not isinstance(text, str) or not is_whole(text):
        raise ValueError(f"expected a whole number ({RULE}), got {_shown(str(text))}")
    if len(text) > MAX_DIGITS:
        raise ValueError(f"the number {_shown(text)} is too long")
    return int(text)


def parse_decimal(text: str) -> float:
    """``text`` as a non-negative number with at most one decimal point ("1.5").

    ASCII digits only as for :func:`parse_whole`; no sign, exponent, ``inf``
    or ``nan``. Raises ValueError saying so.
    """
    if not isinstance(text, str) or _DECIMAL.fullmatch(text) is None:
        raise ValueError(f"expected a number such as 1.5 ({RULE}, at most one decimal "
                         f"point), got {_shown(str(text))}")
    if len(text) > MAX_DIGITS:
        raise ValueError(f"the number {_shown(text)} is too long")
    return float(text)
