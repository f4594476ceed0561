"""What an AI offers the runner: pick a move for a state, stopping when asked."""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

from engine.model.rules import GameState, Move


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


def checked_moves(state: GameState, cancel: threading.Event) -> list[Move]:
    """Raise Cancelled if asked to stop; otherwise the legal moves (never empty)."""
    if cancel.is_set():
        raise Cancelled
    moves = list(state.legal_moves())
    if not moves:
        raise ValueError("no legal move: the game is over")
    return moves


def immediate_wins(state: GameState) -> list[Move]:
    """The moves that win the game at once for the player to move (any game)."""
    me = state.current_player()
    wins = []
    for move in state.legal_moves():
        after = state.play(move)
        if after.is_terminal() and after.returns()[me] > 0:
            wins.append(move)
    return wins


class EasyAgent:
    """A random legal move, except that it always takes a win in one move (every family's
    Easy level). ``wins(state)`` may give the winning moves faster than trying each."""

    name = "easy"

    def __init__(self, seed: int | None = None,
                 wins: Callable[[GameState], Sequence[Move]] = immediate_wins) -> None:
        self._rng = random.Random(seed)
        self._wins = wins

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """A winning move if there is one, else a uniformly random legal move."""
        moves = checked_moves(state, cancel)
        return self._rng.choice(list(self._wins(state)) or moves)


class Wrapper:
    """A player around another one (``self.<delegate>``), which answers what the wrapper
    does not know itself: the seat's card and the status line ask the player inside for
    its notes (a Perfect player's fallback note, a search's depth)."""

    delegate = "inner"

    def __getattr__(self, name: str) -> object:
        inside = self.__dict__.get(type(self).delegate)
        if inside is None:  # not built yet (a copy, a half-made object)
            raise AttributeError(name)
        return getattr(inside, name)


class BlendAgent(Wrapper):
    """Plays like ``strong``, except that with probability ``share`` a move is
    ``weak``'s: the rung between two skills. Only the player whose move is used is
    asked, so a weak move costs no search."""

    delegate = "strong"

    def __init__(self, strong: Agent, weak: Agent, share: float, name: str,
                 seed: int | None = None) -> None:
        if not 0.0 <= share <= 1.0 or math.isnan(share):
            raise ValueError(f"share must be 0 to 1, not {share!r}")
        self.strong, self.weak, self.share, self.name = strong, weak, share, name
        self._rng = random.Random(seed)

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """``weak``'s move with probability ``share``, else ``strong``'s."""
        checked_moves(state, cancel)
        player = self.weak if self._rng.random() < self.share else self.strong
        return player.choose_move(state, cancel)


class MistakeAgent(BlendAgent):
    """Plays like ``inner``, except that with probability ``mistake_rate`` it blunders.

    A blunder is a uniformly random legal move (which may by chance coincide
    with the good one). The inner agent is asked only when no blunder is
    drawn, so a mistake costs no thinking time.
    """

    def __init__(self, inner: Agent, mistake_rate: float, seed: int | None = None) -> None:
        rate = float(mistake_rate)
        if math.isnan(rate) or not 0.0 <= rate <= 1.0:
            raise ValueError(f"mistake_rate must be between 0 and 1, got {mistake_rate!r}")
        rng = random.Random(seed)
        # random() is in [0, 1): rate 0 never blunders and rate 1 always does.
        super().__init__(inner, RandomAgent(rng.randrange(2**32)), rate,
                         f"{inner.name}, {round(rate * 100)}% mistakes", rng.randrange(2**32))
        self.inner = inner
        self.mistake_rate = rate
