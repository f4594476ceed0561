"""Checks for saved games' data before any of it is trusted, and the JSON form of moves.

A saved game comes back from a file that a player, another program or a failing disk
may have changed, so every value is checked for its type and range before it is used.
Each check returns the value and raises ValueError with a message naming what is wrong
("seat 2's level: expected one of easy, hard, found 'x'"), which the player reads in a
notice: a :class:`~engine.core.phrase.Phrase`, English to the command line and said in the
player's language where it is shown. What a check is told it checks (``what``) is a
Phrase too ("heap {number}", "the heaps").

Python's JSON has traps these checks close: ``true`` is an int to ``isinstance``, ``1.0 ==
1`` and ``True in [1]`` hold, and a huge number or a deep list would cost a lot to walk.

No pygame here: rules modules use these checks for their own positions.
"""

from __future__ import annotations

import contextlib
import math
import operator
import threading
from collections.abc import Iterable, Iterator
from typing import Any

from engine.core.phrase import N_, Number, Phrase
from engine.model.seats import Seat
from engine.storage.settings import show_value as show

# A turn-based game's saved history holds at most this many positions, and its games are
# numbered below MAX_SERIAL: far more than anyone plays, small enough to check quickly.
MAX_SAVED_ENTRIES = 100_000
MAX_SERIAL = 10**9
# A game's history in play keeps at most this many steps (the oldest games, then the
# oldest moves of a long puzzle attempt, are let go): every save, journal line and replay
# is made from it, so their work stays bounded whatever the board (a move on a
# 1000×1000 board costs ~50 µs to replay). Saves of earlier versions up to
# MAX_SAVED_ENTRIES still load (and are trimmed once open).
MAX_HISTORY = 20_000
# Replay loops report their progress every this many entries.
PROGRESS_EVERY = 512
# Moves are small values (a cell, a column, a (heap, take) pair); deeper data is not a move.
MOVE_MAX_DEPTH = 4
MOVE_MAX_ITEMS = 16

# The JSON names of values' types, for messages.
_KINDS: dict[type, Phrase] = {
    bool: Phrase(N_("true/false")), int: Phrase(N_("a number")), float: Phrase(N_("a number")),
    str: Phrase(N_("text")), list: Phrase(N_("a list")), dict: Phrase(N_("an object")),
    type(None): Phrase(N_("null"))}


class ReplayCancelled(Exception):
    """The player gave up waiting for a saved game's replay (Back while loading)."""


class ReplayProgress:
    """How far the replay of a saved game's moves has come (read by the loading screen
    on the frame loop; written by the thread replaying). :meth:`cancel` stops the replay
    at its next report."""

    def __init__(self) -> None:
        self.done = 0
        self.total = 0
        self.cancelled = False

    def cancel(self) -> None:
        """Stop the replay (it raises :class:`ReplayCancelled` at its next report)."""
        self.cancelled = True


_tracked = threading.local()


@contextlib.contextmanager
def tracking(progress: ReplayProgress) -> Iterator[ReplayProgress]:
    """Report replays run on this thread, inside the block, to ``progress``."""
    before = getattr(_tracked, "progress", None)
    _tracked.progress = progress
    try:
        yield progress
    finally:
        _tracked.progress = before


def replayed(done: int, total: int) -> None:
    """A replay loop's report: ``done`` of ``total`` entries replayed. Raises
    :class:`ReplayCancelled` when the replay was given up."""
    progress: ReplayProgress | None = getattr(_tracked, "progress", None)
    if progress is None:
        return
    progress.done, progress.total = done, total
    if progress.cancelled:
        raise ReplayCancelled


def _kind(value: object) -> str:
    """The JSON name of a value's type, for messages (said in the player's language)."""
    return _KINDS.get(type(value), type(value).__name__)


# Each check says what it expected after what it checked ("heap 2: expected ..."), not
# "heap 2 must be ...": Hungarian and Czech could not inflect ``what`` to fit.


def fields(data: object, what: Phrase, required: Iterable[str]) -> dict[str, Any]:
    """``data`` if it is a JSON object holding every key of ``required``."""
    if not isinstance(data, dict):
        raise ValueError(Phrase(N_("{what}: expected an object, found {kind}"), what=what,
                                kind=_kind(data)))
    missing = [key for key in required if key not in data]
    if missing:
        raise ValueError(Phrase(N_("{what}: missing {keys}"), what=what,
                                keys=", ".join(missing)))
    return data


def items(data: object, what: Phrase, low: int = 0, high: int = 1_000_000) -> list[Any]:
    """``data`` if it is a JSON list of ``low`` to ``high`` items."""
    if not isinstance(data, list):
        raise ValueError(Phrase(N_("{what}: expected a list, found {kind}"), what=what,
                                kind=_kind(data)))
    if not low <= len(data) <= high:
        raise ValueError(Phrase(N_("{what}: expected {low} to {high} items, found {count}"),
                                what=what, low=low, high=high, count=len(data)))
    return data


def whole(value: object, what: Phrase, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high`` (not true/false, not 1.0)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(Phrase(N_("{what}: expected a whole number, found {value}"),
                                what=what, value=show(value)))
    if not low <= value <= high:
        raise ValueError(Phrase(N_("{what}: expected {low} to {high}, found {value}"),
                                what=what, low=low, high=high, value=show(value)))
    return value


def flag(value: object, what: Phrase) -> bool:
    """``value`` if it is true or false."""
    if not isinstance(value, bool):
        raise ValueError(Phrase(N_("{what}: expected true or false, found {value}"),
                                what=what, value=show(value)))
    return value


def number(value: object, what: Phrase, low: float, high: float) -> float:
    """``value`` as a float if it is a finite number from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(Phrase(N_("{what}: expected a number, found {value}"), what=what,
                                value=show(value)))
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(Phrase(N_("{what}: expected {low} to {high}, found {value}"),
                                what=what, low=Number(low), high=Number(high),
                                value=show(value)))
    return float(value)


def text(value: object, what: Phrase, longest: int) -> str:
    """``value`` if it is text of at most ``longest`` characters."""
    if not isinstance(value, str):
        raise ValueError(Phrase(N_("{what}: expected text, found {kind}"), what=what,
                                kind=_kind(value)))
    if len(value) > longest:
        raise ValueError(Phrase(N_("{what}: too long ({count} characters; at most {longest})"),
                                what=what, count=len(value), longest=longest))
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
        raise ValueError(Phrase(N_("a move is nested too deeply")))
    if isinstance(data, bool) or data is None or isinstance(data, float | dict):
        raise ValueError(Phrase(N_("{value} is not a move"), value=show(data)))
    if isinstance(data, int | str):
        return data
    if isinstance(data, list):
        if len(data) > MOVE_MAX_ITEMS:
            raise ValueError(Phrase(N_("a move of {count} parts is not a move"),
                                    count=len(data)))
        return tuple(move_from_data(part, depth + 1) for part in data)
    raise ValueError(Phrase(N_("{value} is not a move"), value=show(data)))


# --- seats --------------------------------------------------------------------------------


def seat_to_data(seat: Seat) -> dict[str, Any]:
    """A seat as JSON: ``{"kind": "computer", "level": "hard", "mistakes": 0.1}``."""
    return {"kind": seat.kind, "level": seat.level, "mistakes": seat.mistakes}


def seat_from_data(data: object, seat: int, levels: tuple[str, ...]) -> Seat:
    """Seat number ``seat`` (from 1) from :func:`seat_to_data`'s form; its level must be one
    of ``levels`` (any word where the game declares none).

    The seat's number, not a name for it, comes in: "seat 2's level" is one template, which
    a language can say in its own order.
    """
    name = Phrase(N_("seat {number}"), number=seat)
    record = fields(data, name, ("kind", "level", "mistakes"))
    kind = record["kind"]
    if kind not in ("human", "computer"):
        raise ValueError(Phrase(N_("{what}: expected {choices}, found {value}"), what=name,
                                choices=Phrase(N_('"human" or "computer"')), value=show(kind)))
    what = Phrase(N_("seat {number}'s level"), number=seat)
    level = text(record["level"], what, 40)
    if levels and level not in levels:
        raise ValueError(Phrase(N_("{what}: expected {choices}, found {value}"), what=what,
                                choices=Phrase(N_("one of {levels}"), levels=", ".join(levels)),
                                value=show(level)))
    mistakes = number(record["mistakes"], Phrase(N_("seat {number}'s mistake rate"),
                                                 number=seat), 0.0, 1.0)
    return Seat(kind, level, mistakes)  # its own checks: a level is a word
