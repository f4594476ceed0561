"""Tic-tac-toe's move notation: a cell is its column letter and its row number, the way
chess and gomoku name squares — columns ``a``, ``b``, ``c`` … from the left, rows ``1``,
``2``, ``3`` … from the bottom, so the centre of the classic board is ``b2``. Columns past
``z`` go on ``aa``, ``ab`` … (boards are at most 64 wide). Records read moves back by
matching this text (engine.model.records).

No pygame here.
"""

from __future__ import annotations

from typing import Any


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

