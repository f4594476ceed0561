"""Connect Four's move notation: a move is its column, numbered from 1 at the left, as in
``solve connect4`` and Pons' move strings (``4453``: the middle column of 7 twice, …).

No pygame here.
"""

from __future__ import annotations

from typing import Any


def move_text(state: Any, move: int) -> str:
    """Column ``move`` (0 at the left) as its number from 1."""
    return str(move + 1)


def parse_move(state: Any, text: str) -> int:
    """The column numbered ``text`` on ``state``'s board; ValueError saying what is wrong."""
    cols = state.config.cols
    digit = text.strip()
    # ASCII digits only, as on the command line ("٣" is no column).
    if not (len(digit) == 1 and "1" <= digit <= "9" and int(digit) <= cols):
        raise ValueError(f"{text!r} is not a column: a number from 1 to {cols}")
    return int(digit) - 1
