"""The interface every game's rules offer to AIs, history, scenes and tests.

Modelled on OpenSpiel's state API: states are immutable values, a move is a
plain hashable value, and ``play`` returns a new state. Rules modules import
no pygame, so they run with no display.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

Move = Hashable
S = TypeVar("S", bound="GameState")


class IllegalMove(ValueError):
    """Raised by ``play`` for a move that is not legal in the state."""


@runtime_checkable
class GameState(Protocol):
    """A position of a finite turn-based game with perfect information."""

    @property
    def num_players(self) -> int:
        """How many players take turns."""
        ...

    def current_player(self) -> int:
        """Index (0-based) of the player to move; meaningless once terminal."""
        ...

    def legal_moves(self) -> Sequence[Move]:
        """The moves the player to move may make (empty when terminal)."""
        ...

    def play(self: S, move: Move) -> S:
        """The state after ``move``; raises IllegalMove if it is not legal."""
        ...

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        ...

    def returns(self) -> tuple[float, ...]:
        """One number per player once terminal: 1 win, -1 loss, 0 draw."""
        ...


def find_move(before: GameState, after: GameState) -> Move | None:
    """The legal move of ``before`` that leads to ``after`` (None if there is none)."""
    if before.is_terminal():
        return None
    for move in before.legal_moves():
        if before.play(move) == after:
            return move
    return None
