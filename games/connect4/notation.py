"""Connect Four's move notation: a move is its column, numbered from 1 at the left, as in
``solve connect4`` and Pons' move strings (``4453``: the middle column of 7 twice, …).
Records read moves back by matching this text (engine.model.records).

No pygame here.
"""

from __future__ import annotations

from typing import Any


def move_text(state: Any, move: int) -> str:
    """Column ``move`` (0 at the left) as its number from 1."""
    return str(move + 1)

