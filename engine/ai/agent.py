"""What an AI offers the runner: pick a move for a state, stopping when asked."""

from __future__ import annotations

import random
import threading
from typing import Protocol

from engine.rules import GameState, Move


class Cancelled(Exception):
    """Raised inside an agent when its cancel event is set."""


class Agent(Protocol):
    """Chooses moves. Long searches poll ``cancel`` and raise Cancelled."""

    name: str

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """Return a legal move for the player to move in ``state``."""
        ...


class RandomAgent:
    """Plays a uniformly random legal move (the trivial agent).

    ``delay`` seconds of simulated thought, checked against ``cancel`` in small
    steps, lets tests see the runner's thinking state and its cancellation.
    """

    name = "random"

    def __init__(self, seed: int | None = None, delay: float = 0.0) -> None:
        self._rng = random.Random(seed)
        self.delay = delay

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """Wait ``delay`` (cancellable), then return a random legal move."""
        if cancel.wait(self.delay) if self.delay > 0 else cancel.is_set():
            raise Cancelled
        moves = list(state.legal_moves())
        if not moves:
            raise ValueError("no legal move: the game is over")
        return self._rng.choice(moves)
