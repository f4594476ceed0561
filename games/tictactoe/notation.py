"""Tic-tac-toe's move notation: a cell is its column letter and its row number, the way
chess and gomoku name squares — columns ``a``, ``b``, ``c`` … from the left, rows ``1``,
``2``, ``3`` … from the bottom, so the centre of the classic board is ``b2``. Columns past
``z`` go on ``aa``, ``ab`` … (boards are at most 64 wide).

No pygame here.
"""

from __future__ import annotations

import re
from typing import Any

_CELL = re.compile(r"([a-z]+)([0-9]+)")


def column_name(col: int) -> str:
    """``a`` for column 0, ``z`` for 25, ``aa`` for 26 (spreadsheet style)."""
    name = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        name = chr(ord("a") + rest) + name
    return name


def move_text(state: Any, move: int) -> str:
    """Cell ``move`` (row-major, row 0 at the top) of ``state``'s board as ``b2``."""
    rows, cols = state.config.rows, state.config.cols
    row, col = divmod(move, cols)
    return f"{column_name(col)}{rows - row}"


def parse_move(state: Any, text: str) -> int:
    """The cell named ``text`` (as :func:`move_text` writes it) on ``state``'s board;
    ValueError saying what is wrong for a name that is not a cell there."""
    match = _CELL.fullmatch(text.strip().lower())
    if match is None:
        raise ValueError(f"{text!r} is not a cell: a column letter and a row number, as b2")
    letters, number = match.groups()
    col = 0
    for ch in letters:
        col = col * 26 + (ord(ch) - ord("a") + 1)
    col -= 1
    rows, cols = state.config.rows, state.config.cols
    row = int(number)
    if not (0 <= col < cols and 1 <= row <= rows):
        raise ValueError(f"{text!r} is off the {cols}×{rows} board")
    return (rows - row) * cols + col
