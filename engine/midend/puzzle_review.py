"""A solved puzzle's review: the player's moves beside the fewest-move solution, either
replayed move by move (issue 31, item 6).

:class:`PuzzleReplay` holds the attempt's start, the player's moves and, once the
puzzle's solve hook has worked it out, a solution, with whether it is proven to have the
fewest moves. One of the two *lines* is shown at a time, at a move of it; positions are
rebuilt by playing from checkpoints (every :data:`CHECKPOINT` moves), so a long line of a
big board keeps a few positions, not one per move. No pygame here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.model.rules import Move

#: Lines: the player's moves, and the solver's.
YOURS, FEWEST = "yours", "fewest"
#: A position is kept every this many moves of the line shown.
CHECKPOINT = 32


class PuzzleReplay:
    """Two lines of moves from one start, one of them shown at one of its moves.

    ``start``: where the attempt began; ``yours``: the moves the player made from there;
    ``skipped``: earlier moves of the attempt a long history let go (said, not replayed).
    """

    def __init__(self, start: Any, yours: Sequence[Move], skipped: int = 0) -> None:
        self.start = start
        self.yours: tuple[Move, ...] = tuple(yours)
        self.skipped = skipped
        #: The solver's moves (None until worked out, or when it found none).
        self.fewest: tuple[Move, ...] | None = None
        #: Whether :attr:`fewest` is proven to have the fewest moves.
        self.proven = False
        #: True when the solver answered that no moves solve the start.
        self.unsolvable = False
        self.line = YOURS
        #: Moves of the line shown that have been played (0: the start).
        self.index = 0
        self._checkpoints: dict[int, Any] = {0: start}
        self._shown: tuple[int, Any] = (0, start)

    # --- reading -------------------------------------------------------------------------
    def moves(self, line: str | None = None) -> tuple[Move, ...]:
        """The moves of ``line`` (default: the one shown); ``()`` for a solution not known."""
        line = line or self.line
        if line == YOURS:
            return self.yours
        return self.fewest or ()

    @property
    def length(self) -> int:
        """How many moves the line shown has."""
        return len(self.moves())

    @property
    def state(self) -> Any:
        """The position after :attr:`index` moves of the line shown."""
        at, state = self._shown
        if at != self.index:
            state = self._state_at(self.index)
            self._shown = (self.index, state)
        return state

    @property
    def last_move(self) -> Move | None:
        """The move that led to the position shown (None at the start)."""
        return self.moves()[self.index - 1] if self.index else None

    @property
    def next_move(self) -> Move | None:
        """The move the line plays next (None at its end)."""
        moves = self.moves()
        return moves[self.index] if self.index < len(moves) else None

    def _state_at(self, index: int) -> Any:
        base = max(k for k in self._checkpoints if k <= index)
        state = self._checkpoints[base]
        moves = self.moves()
        for i in range(base, index):
            state = state.play(moves[i])
            if (i + 1) % CHECKPOINT == 0:
                self._checkpoints[i + 1] = state
        return state

    # --- changing ------------------------------------------------------------------------
    def set_solution(self, moves: Sequence[Move] | None, proven: bool) -> None:
        """The solver's answer: its moves (None: the start cannot be solved)."""
        self.fewest = None if moves is None else tuple(moves)
        self.proven = proven and moves is not None
        self.unsolvable = moves is None
        if self.line == FEWEST:
            self.choose(FEWEST)

    def choose(self, line: str) -> None:
        """Show ``line`` (YOURS or FEWEST) from its start."""
        if line not in (YOURS, FEWEST):
            raise ValueError(f"no line {line!r}")
        self.line = line
        self.index = 0
        self._checkpoints = {0: self.start}
        self._shown = (0, self.start)

    def go(self, index: int) -> bool:
        """Show the position after ``index`` moves (clamped to the line); whether it moved."""
        index = max(0, min(index, self.length))
        moved = index != self.index
        self.index = index
        return moved

    def step(self, delta: int) -> bool:
        """Move ``delta`` moves along the line shown (clamped); whether it moved."""
        return self.go(self.index + delta)
