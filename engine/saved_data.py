"""Checks for saved games' data before any of it is trusted, and the JSON form of moves.

A saved game comes back from a file that a player, another program or a failing disk
may have changed, so every value is checked for its type and range before it is used.
Each check returns the value and raises ValueError with a message naming what is wrong
("seat 2: level 'x' is not one of easy, hard"), which the player reads in a notice.

Python's JSON has traps these checks close: ``true`` is an int to ``isinstance``, ``1.0 ==
1`` and ``True in [1]`` hold, and a huge number or a deep list would cost a lot to walk.

No pygame here: rules modules use these checks for their own positions.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable
from typing import Any

from engine.seats import Seat
from engine.storage.settings import show_value as show

# A turn-based game's saved history holds at most this many positions, and its games are
# numbered below MAX_SERIAL: far more than anyone plays, small enough to check quickly.
MAX_SAVED_ENTRIES = 100_000
MAX_SERIAL = 10**9
# Moves are small values (a cell, a column, a (heap, take) pair); deeper data is not a move.
MOVE_MAX_DEPTH = 4
MOVE_MAX_ITEMS = 16

def _kind(value: object) -> str:
    """The JSON name of a value's type, for messages."""
    names = {bool: "true/false", int: "a number", float: "a number", str: "text",
             list: "a list", dict: "an object", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def fields(data: object, what: str, required: Iterable[str]) -> dict[str, Any]:
    """``data`` if it is a JSON object holding every key of ``required``."""
    if not isinstance(data, dict):
        raise ValueError(f"{what} must be an object, not {_kind(data)}")
    missing = [key for key in required if key not in data]
    if missing:
        raise ValueError(f"{what} lacks {', '.join(missing)}")
    return data


def items(data: object, what: str, low: int = 0, high: int = 1_000_000) -> list[Any]:
    """``data`` if it is a JSON list of ``low`` to ``high`` items."""
    if not isinstance(data, list):
        raise ValueError(f"{what} must be a list, not {_kind(data)}")
    if not low <= len(data) <= high:
        raise ValueError(f"{what} must have {low} to {high} items, not {len(data)}")
    return data


def whole(value: object, what: str, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high`` (not true/false, not 1.0)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, not {show(value)}")
    if not low <= value <= high:
        raise ValueError(f"{what} must be {low} to {high}, not {show(value)}")
    return value


def flag(value: object, what: str) -> bool:
    """``value`` if it is true or false."""
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, not {show(value)}")
    return value


def number(value: object, what: str, low: float, high: float) -> float:
    """``value`` as a float if it is a finite number from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{what} must be a number, not {show(value)}")
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(f"{what} must be {low:g} to {high:g}, not {show(value)}")
    return float(value)


def text(value: object, what: str, longest: int) -> str:
    """``value`` if it is text of at most ``longest`` characters."""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text, not {_kind(value)}")
    if len(value) > longest:
        raise ValueError(f"{what} has {len(value)} characters; at most {longest} expected")
    return value


# --- moves --------------------------------------------------------------------------------


def move_to_data(move: Any) -> Any:
    """A move as JSON: whole numbers and text as they are, tuples as lists.

    Raises ValueError for anything else (a move of such a game cannot be saved).
    """
    if isinstance(move, tuple | list):
        return [move_to_data(part) for part in move]
    if isinstance(move, str):
        return move
    if not isinstance(move, bool):
        try:
            return operator.index(move)  # an int, or a numpy integer as a plain int
        except TypeError:
            pass
    raise ValueError(f"cannot save the move {show(move)}")


def move_from_data(data: object, depth: int = 0) -> Any:
    """A move from its JSON (lists become tuples); ValueError for anything a move cannot be.

    Only the form is checked here; whether the move is legal is the game's to say.
    """
    if depth > MOVE_MAX_DEPTH:
        raise ValueError("a move is nested too deeply")
    if isinstance(data, bool) or data is None or isinstance(data, float | dict):
        raise ValueError(f"{show(data)} is not a move")
    if isinstance(data, int | str):
        return data
    if isinstance(data, list):
        if len(data) > MOVE_MAX_ITEMS:
            raise ValueError(f"a move of {len(data)} parts is not a move")
        return tuple(move_from_data(part, depth + 1) for part in data)
    raise ValueError(f"{show(data)} is not a move")


# --- seats --------------------------------------------------------------------------------


def seat_to_data(seat: Seat) -> dict[str, Any]:
    """A seat as JSON: ``{"kind": "computer", "level": "hard", "mistakes": 0.1}``."""
    return {"kind": seat.kind, "level": seat.level, "mistakes": seat.mistakes}


def seat_from_data(data: object, what: str, levels: tuple[str, ...]) -> Seat:
    """A seat from :func:`seat_to_data`'s form; its level must be one of ``levels`` (any
    word where the game declares none)."""
    record = fields(data, what, ("kind", "level", "mistakes"))
    kind = record["kind"]
    if kind not in ("human", "computer"):
        raise ValueError(f"{what} must be human or computer, not {show(kind)}")
    level = text(record["level"], f"{what}'s level", 40)
    if levels and level not in levels:
        raise ValueError(f"{what}'s level {show(level)} is not one of {', '.join(levels)}")
    mistakes = number(record["mistakes"], f"{what}'s mistake rate", 0.0, 1.0)
    return Seat(kind, level, mistakes)  # its own checks: a level is a word
