"""Generic n-player game-tree search: max^n with shallow pruning, timed and cancellable.

**Why max^n rather than paranoid.** Paranoid search assumes every other
player gangs up on the searcher; it prunes well, but in a three-player
k-in-a-row game it makes the searcher give up positions that are fine in
practice (any two opponents "cooperating" can always stop one player) and
it says nothing about what the *others* want. Max^n (Luckhardt & Irani,
1986) keeps one value per player at every node and lets each player
maximise their own component, which is how the three players of SPEC §4
actually behave: each of them wants to win, and a win for either other
player is equally bad. Its values are also what a hint overlay can show
("this move is good for X, bad for O and △"). The price is weaker pruning:
only *shallow pruning* (Korf, 1991) is sound, and only when every value is at
least ``min_value`` and the values at a node sum to at most ``max_sum``. The
search depth is kept small and bounded by a time budget, so that is enough.

Shallow pruning: at a node where player *p* moves, once some child gives *p*
the value ``b``, the player *q* who moved into this node can get at most
``max_sum − b − (n − 2)·min_value`` from it (the others take at least
``min_value`` each). If *q* already has that much from an earlier sibling,
the remaining children cannot change *q*'s choice and are skipped.

Values: a terminal state is scored by ``state.returns()`` (optionally
discounted by depth so sooner wins and later losses are preferred); a
non-terminal state at the depth limit by the caller's ``evaluate`` callback,
which must return one number per player within the same bounds. Ties are
broken by move order (the first best move is kept), so the caller controls
tie-breaking by ordering or shuffling ``root_moves``.

The search deepens iteratively from depth 1: when the time budget runs out
the deepest *completed* iteration's move is returned. The cancel event is
polled at every node and raises :class:`Cancelled`. No pygame here.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.ai.agent import Cancelled
from engine.model.rules import GameState, Move

Values = tuple[float, ...]
Evaluate = Callable[[GameState], Sequence[float]]

__all__ = ["MaxnResult", "MaxnSearch", "Values"]


class _OutOfTime(Exception):
    """Internal: the time budget ran out inside an iteration."""


@dataclass(frozen=True)
class MaxnResult:
    """What a search found: the move, its value vector and how hard it looked."""

    move: Move
    values: Values
    depth: int
    nodes: int
    completed: bool  # whether the deepest iteration tried finished (else the budget ran out)


class MaxnSearch:
    """Depth-limited max^n search over any :class:`GameState`.

    ``evaluate`` scores non-terminal leaves, one value per player.
    ``max_depth`` bounds the plies searched; ``time_budget`` (seconds, None for
    no limit) bounds the wall time of :meth:`search`. Give ``min_value`` and
    ``max_sum`` (a lower bound on every value and an upper bound on the sum of
    a value vector, for both ``returns()`` and ``evaluate``) to enable shallow
    pruning. ``discount`` in [0, 1) shrinks terminal values by
    ``(1 − discount)^ply`` so that a quicker win (and a slower loss) scores
    better; shrinking towards 0 keeps ``min_value``/``max_sum`` bounds valid
    when ``min_value ≤ 0 ≤ max_sum``.
    """

    def __init__(self, evaluate: Evaluate, *, max_depth: int = 4,
                 time_budget: float | None = None, min_value: float | None = None,
                 max_sum: float | None = None, discount: float = 0.0,
                 poll_every: int = 64, max_nodes: int | None = None) -> None:
        if max_depth < 1:
            raise ValueError("max_depth must be at least 1")
        if not 0.0 <= discount < 1.0:
            raise ValueError("discount must be in [0, 1)")
        if (min_value is None) != (max_sum is None):
            raise ValueError("give both min_value and max_sum, or neither")
        if discount and min_value is not None and max_sum is not None \
                and not min_value <= 0 <= max_sum:
            raise ValueError("discounting keeps the bounds only if min_value ≤ 0 ≤ max_sum")
        self.evaluate = evaluate
        self.max_depth = max_depth
        self.time_budget = time_budget
        # A budget of work: past it a search stops as at the deadline, at the same node on
        # any machine (looked at every ``poll_every`` nodes); the clock is then a cap.
        self.max_nodes = max_nodes
        self._node_limit: int | None = None
        self.min_value = min_value
        self.max_sum = max_sum
        self.discount = discount
        self.poll_every = max(1, poll_every)
        self.nodes = 0
        self._deadline = math.inf
        self._cancel: threading.Event | None = None
        self._hit_horizon = False

    @property
    def prunes(self) -> bool:
        """Whether shallow pruning is on (both bounds given)."""
        return self.min_value is not None

    def search(self, state: GameState, cancel: threading.Event | None = None,
               root_moves: Sequence[Move] | None = None) -> MaxnResult:
        """The best move for the player to move in ``state``, by iterative deepening.

        ``root_moves`` restricts (and orders) the moves considered at the root;
        by default all legal moves in the state's order. Raises Cancelled if
        ``cancel`` is set, ValueError if there is no move to consider.
        """
        moves = list(state.legal_moves() if root_moves is None else root_moves)
        if not moves or state.is_terminal():
            raise ValueError("no legal move: the game is over")
        self._cancel = cancel
        self.nodes = 0
        start = time.monotonic()
        self._deadline = math.inf if self.time_budget is None else start + self.time_budget
        self._node_limit = self.max_nodes
        self._poll()
        best: MaxnResult | None = None
        timed_out = False
        for depth in range(1, self.max_depth + 1):
            try:
                move, values = self._root(state, moves, depth)
            except _OutOfTime:
                timed_out = True
                break
            best = MaxnResult(move, values, depth, self.nodes, True)
            if not self._hit_horizon:
                break  # every line was followed to its end: deeper sees nothing new
            # Search the previous best first: the best ordering we know of.
            moves.remove(move)
            moves.insert(0, move)
        if best is None:
            # Not even depth 1 finished in time: answer with a one-ply look anyway,
            # ignoring the deadline and the nodes (depth 1 is one evaluation per move).
            self._deadline = math.inf
            self._node_limit = None
            move, values = self._root(state, moves, 1)
            return MaxnResult(move, values, 1, self.nodes, False)
        return MaxnResult(best.move, best.values, best.depth, self.nodes, not timed_out)

    def values(self, state: GameState, depth: int,
               cancel: threading.Event | None = None) -> Values:
        """The max^n value vector of ``state`` searched ``depth`` plies (no time limit)."""
        self._cancel = cancel
        self._deadline = math.inf
        self._node_limit = None
        self.nodes = 0
        self._poll()
        return self._value(state, depth, 0, None)

    # --- the recursion ------------------------------------------------------

    def _root(self, state: GameState, moves: list[Move], depth: int) -> tuple[Move, Values]:
        self._hit_horizon = False
        player = state.current_player()
        best_move: Move = moves[0]
        best_values: Values | None = None
        for move in moves:
            bound = (player, best_values[player]) if best_values is not None else None
            values = self._value(state.play(move), depth - 1, 1, bound)
            if best_values is None or values[player] > best_values[player]:
                best_move, best_values = move, values
        assert best_values is not None
        return best_move, best_values

    def _value(self, state: GameState, depth: int, ply: int,
               parent_bound: tuple[int, float] | None) -> Values:
        """Max^n value; ``parent_bound`` = (parent's player, what they already have)."""
        self.nodes += 1
        if self.nodes % self.poll_every == 0:
            self._poll()
        if state.is_terminal():
            scale = (1.0 - self.discount) ** ply
            return tuple(v * scale for v in state.returns())
        if depth <= 0:
            self._hit_horizon = True
            return tuple(self.evaluate(state))
        player = state.current_player()
        best: Values | None = None
        for move in state.legal_moves():
            values = self._value(state.play(move), depth - 1, ply + 1,
                                 (player, best[player]) if best is not None else None)
            if best is None or values[player] > best[player]:
                best = values
                if parent_bound is not None and self._cut(player, best[player], parent_bound,
                                                          state.num_players):
                    break
        assert best is not None
        return best

    def _cut(self, player: int, mine: float, parent_bound: tuple[int, float], n: int) -> bool:
        """Shallow pruning test (see the module docstring)."""
        if self.min_value is None or self.max_sum is None:
            return False
        parent, parent_has = parent_bound
        if parent == player:
            return False  # the same player moving twice: the bound says nothing
        parent_can_get = self.max_sum - mine - (n - 2) * self.min_value
        return parent_can_get <= parent_has

    def _poll(self) -> None:
        if self._cancel is not None and self._cancel.is_set():
            raise Cancelled
        if time.monotonic() > self._deadline or (
                self._node_limit is not None and self.nodes > self._node_limit):
            raise _OutOfTime
