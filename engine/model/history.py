"""Generic undo/redo over immutable states, shared by every game.

As in Simon Tatham's midend, the history is a list of states with a cursor; a
new move cuts the redo tail. Starting a new game is pushed like a move, so one
mis-click on "New game" is undone like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")


class History(Generic[T]):
    """Undo/redo stack of states; ``current`` is the state shown."""

    def __init__(self, initial: T) -> None:
        self._states: list[T] = [initial]
        self._index = 0
        # Counts changes (push, undo, redo): a cheap "has anything changed?" for the
        # saved game's journal (engine.storage.journal), which must not compare histories.
        self.version = 0

    @classmethod
    def restored(cls, entries: Sequence[T], index: int) -> History[T]:
        """A history holding ``entries`` (oldest first) with the cursor at ``index``:
        a saved game's, with what could be redone still redoable."""
        if not entries or not 0 <= index < len(entries):
            raise ValueError(f"cursor {index} is outside a history of {len(entries)}")
        history = cls(entries[0])
        history._states = list(entries)
        history._index = index
        return history

    @property
    def current(self) -> T:
        """The state at the cursor."""
        return self._states[self._index]

    @property
    def can_undo(self) -> bool:
        """Whether there is an earlier state."""
        return self._index > 0

    @property
    def can_redo(self) -> bool:
        """Whether an undone state can be restored."""
        return self._index < len(self._states) - 1

    def __len__(self) -> int:
        return len(self._states)

    @property
    def entries(self) -> tuple[T, ...]:
        """Every state kept, oldest first (the cursor is at :attr:`index`)."""
        return tuple(self._states)

    @property
    def index(self) -> int:
        """Position of the cursor (0 = the first state)."""
        return self._index

    def push(self, state: T) -> None:
        """Make ``state`` current, dropping anything that could be redone."""
        del self._states[self._index + 1:]
        self._states.append(state)
        self._index += 1
        self.version += 1

    def drop_oldest(self, count: int, first: T | None = None) -> None:
        """Forget the ``count`` oldest states (undo then stops at what is left first), the
        cursor staying on the same state; ``first`` replaces the new oldest state (a
        midend that keeps moves, not states, puts the position reached there). Keeps a
        long history's cost bounded: every save and journal line is made from it."""
        if not 0 <= count <= self._index:
            raise ValueError(f"cannot drop {count} states before the cursor at {self._index}")
        if count == 0:
            return
        del self._states[:count]
        if first is not None:
            self._states[0] = first
        self._index -= count
        self.version += 1

    def undo(self, until: Callable[[T], bool] | None = None) -> bool:
        """Step back once, or back to the nearest earlier state satisfying ``until``.

        With ``until``, if no earlier state satisfies it, nothing changes.
        Returns whether the cursor moved.
        """
        if not self.can_undo:
            return False
        if until is None:
            self._index -= 1
            self.version += 1
            return True
        for i in range(self._index - 1, -1, -1):
            if until(self._states[i]):
                self._index = i
                self.version += 1
                return True
        return False

    def redo(self, until: Callable[[T], bool] | None = None) -> bool:
        """Step forward once, or forward to the nearest later state satisfying ``until``
        (or the last state if none does). Returns whether the cursor moved."""
        if not self.can_redo:
            return False
        self.version += 1
        if until is None:
            self._index += 1
            return True
        for i in range(self._index + 1, len(self._states)):
            if until(self._states[i]):
                self._index = i
                return True
        self._index = len(self._states) - 1
        return True
