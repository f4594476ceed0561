"""What every impartial game state here offers the perfect player and the hint overlay.

Impartial: both players have the same moves; normal play: the player who cannot
move loses. Each rules module (board pieces, heaps, graphs) implements this on
top of the engine's GameState interface, so one agent and one hint overlay
serve them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from engine.model.rules import GameState, Move
from engine.model.values import Nimber

# Value of a position that is a draw with best play (a game with cycles): ∞.
INFINITE = None


@runtime_checkable
class ImpartialState(GameState, Protocol):
    """A position of a two-player impartial game.

    ``value()`` is the position's Grundy value (for a sum: the nim-sum of its
    parts), or ``None`` (∞) for a draw in a game with cycles. For misère games
    it is 0 for a loss of the player to move and 1 for a win (a misère
    position has no Grundy value of its own); ``value_explained()`` says which.
    So ``value()`` is an outcome convention; ``nimber()`` is the theory's label.
    """

    def nimber(self) -> Nimber | None:
        """The position's generalised Sprague–Grundy label: its Grundy value, or
        :class:`~engine.model.values.Infinite` (∞ with its K) in a game with cycles;
        None where it has none (misère play)."""
        ...

    def value(self) -> int | None:
        """The position's value for the player to move (0: they lose with best play)."""
        ...

    def move_value(self, move: Move) -> int | None:
        """The value of the position after ``move``."""
        ...

    def remoteness(self) -> int | None:
        """Moves to the end with best play (winner quick, loser slow); None if drawn."""
        ...

    def value_explained(self) -> str:
        """The status line's arithmetic, e.g. ``3 ⊕ 5 = 6: the player to move wins``."""
        ...

    def legal_moves(self) -> Sequence[Move]:
        """Moves of the player to move."""
        ...
