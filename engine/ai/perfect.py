"""The one perfect player of every two-player game, and exact move values from negamax.

:class:`PerfectAgent` asks a game's value function for the :class:`MoveValue`
of every legal move, plays one of the best (quickest win, else a draw, else the
longest loss), chosen at random among equals with its own seeded generator
(with ``traps``, among those that leave the opponent the most replies that lose),
and where the values cannot be proven within its time budget it plays its
fallback agent (a weaker level) and says so in :attr:`PerfectAgent.last_note` (and,
for the seat's card, :attr:`PerfectAgent.card_note`).

:func:`negamax_values` turns the generic negamax's exact values into
:class:`MoveValue` s, so any game whose rules the negamax can search gets exact
hints and a perfect player for free.

No pygame here.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence

from engine.ai.agent import Agent, Cancelled
from engine.ai.negamax import Negamax, SearchTimeout
from engine.core.i18n import _
from engine.model.rules import GameState, Move
from engine.model.values import MoveValue, best_moves

__all__ = ["PROBE", "PerfectAgent", "ValueFunction", "negamax_values"]

# Seconds Perfect tries to prove a move after its last try ran out of time, before it plays
# its fallback's move (with its note).
PROBE = 0.25

# value_function(state, cancel, deadline) -> every legal move's proven value; raises
# SearchTimeout when the deadline (a time.monotonic() instant, or None) passes first,
# and Cancelled when cancel is set.
ValueFunction = Callable[[GameState, threading.Event, "float | None"], Mapping[Move, MoveValue]]


def negamax_values(negamax: Negamax, state: GameState,
                   draw_remoteness: int | None = None) -> dict[Move, MoveValue]:
    """Exact value of every legal move of ``state`` by ``negamax.move_values``.

    Remoteness counts plies to the end with best play, this move included (in
    sign-only mode it is None). A draw gets ``draw_remoteness`` (for games whose
    draws always end at a known ply, such as a full board), else None.
    """
    out: dict[Move, MoveValue] = {}
    for move, value in negamax.move_values(state).items():
        if value.outcome == 0:
            out[move] = MoveValue("draw", draw_remoteness)
        else:
            out[move] = MoveValue.from_sign(value.outcome, value.plies)
    return out


class PerfectAgent:
    """Plays a best move by proven values; falls back to a weaker agent, with a note.

    ``values(state, cancel, deadline)`` gives every move's exact value (see
    :data:`ValueFunction`). ``remaining(state)``, where given, measures how much
    game is left (e.g. empty cells): once a position proved too big at some
    measure, positions with at least as much left go straight to the fallback,
    since they can only be harder. After a move it could not prove, the next try gets
    only ``probe`` seconds (until one succeeds). ``defence(state, moves, cancel)``, where
    given, chooses among best moves that all lose at a distance not known (so the longest
    defence cannot be told from the values: an opening book of outcomes only), as a
    searching player would; else the choice among best moves is at random. With ``traps``,
    a choice among best moves that do not win is narrowed first to those that leave the
    opponent the most replies proven to lose (a perfect player that also makes a fallible
    opponent's mistakes likeliest), where every such reply's value is proven in time.
    """

    name = "perfect"

    def __init__(self, values: ValueFunction, fallback: Agent | Callable[[], Agent],
                 time_budget: float = 2.0, seed: int | None = None,
                 fallback_label: str = "Hard",
                 remaining: Callable[[GameState], int] | None = None,
                 probe: float = PROBE,
                 defence: Callable[[GameState, Sequence[Move], threading.Event], Move]
                 | None = None, traps: bool = False) -> None:
        self._values = values
        self.traps = traps
        self._defence = defence
        self._fallback = fallback
        self.time_budget = time_budget
        self.fallback_label = fallback_label
        self._remaining = remaining
        self._rng = random.Random(seed)
        self._too_big_at: int | None = None
        self.probe = probe
        # Whether the latest try to prove a move ran out of time (the next one probes).
        self._failed = False
        self.last_note: str | None = None
        # Whether the latest move was the fallback's (the board too big to solve then).
        self.fell_back = False
        self.last_values: Mapping[Move, MoveValue] | None = None

    @property
    def fallback(self) -> Agent:
        """The weaker player used where the values cannot be proven in time."""
        if not hasattr(self._fallback, "choose_move"):
            self._fallback = self._fallback()  # type: ignore[operator]
        return self._fallback  # type: ignore[return-value]

    @property
    def card_note(self) -> str | None:
        """What the seat's card adds to the level while this player stands in for itself
        with the fallback: "plays as Hard here: board too big to solve"; else None."""
        if not self.fell_back:
            return None
        return _("plays as {level} here: board too big to solve").format(
            level=_(self.fallback_label))

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """A random one of the best moves by proven values, or the fallback's move."""
        if cancel.is_set():
            raise Cancelled
        if state.is_terminal():
            raise ValueError("no legal move: the game is over")
        left = self._remaining(state) if self._remaining is not None else None
        values: Mapping[Move, MoveValue] | None = None
        deadline = time.monotonic() + self.time_budget
        if left is None or self._too_big_at is None or left < self._too_big_at:
            # After a move it could not prove, only a short probe: a proof may come within
            # reach as the game goes on, but rarely at once, and a board too big to solve
            # should cost little more per move than the fallback itself.
            budget = min(self.time_budget, self.probe) if self._failed else self.time_budget
            deadline = time.monotonic() + budget
            try:
                values = self._values(state, cancel, deadline)
                self._failed = False
            except SearchTimeout:
                self._failed = True
                if left is not None and budget == self.time_budget:
                    self._too_big_at = left
        self.last_values = values
        self.fell_back = not values
        if not values:
            self.last_note = (f"This game is too large to solve in {self.time_budget:g} s; "
                              f"playing at the {self.fallback_label} level.")
            return self.fallback.choose_move(state, cancel)
        self.last_note = None
        best = _stable(best_moves(values))
        if (self._defence is not None and len(best) > 1
                and all(values[m].outcome == "loss" and values[m].remoteness is None
                        for m in best)):
            return self._defence(state, best, cancel)
        return self._rng.choice(self.choices(state, values, cancel, deadline))

    def choices(self, state: GameState, values: Mapping[Move, MoveValue],
                cancel: threading.Event, deadline: float) -> list[Move]:
        """The moves it chooses among at random, given every move's proven ``values``: the
        best, in a fixed order, narrowed by its traps where it sets them (the defence aside,
        see the class)."""
        best = _stable(best_moves(values))
        if self.traps and len(best) > 1 and values[best[0]].outcome != "win":
            best = self._most_traps(state, best, cancel, deadline)
        return best

    def _most_traps(self, state: GameState, best: list[Move], cancel: threading.Event,
                    deadline: float) -> list[Move]:
        """The moves of ``best`` after which the opponent has the most replies proven to
        lose; ``best`` itself where some reply's value is not proven by ``deadline``."""
        counts: dict[Move, int] = {}
        for move in best:
            after = state.play(move)
            if after.is_terminal():
                counts[move] = 0
                continue
            try:
                replies = self._values(after, cancel, deadline)
            except SearchTimeout:
                return best
            if len(replies) < len(after.legal_moves()):  # some reply not proven
                return best
            counts[move] = sum(value.outcome == "loss" for value in replies.values())
        most = max(counts.values())
        return [move for move in best if counts[move] == most]


def _stable(moves: list[Move]) -> list[Move]:
    """``moves`` in a fixed order (so a seed always picks the same one)."""
    try:
        return sorted(moves)  # type: ignore[type-var]
    except TypeError:
        return sorted(moves, key=repr)
