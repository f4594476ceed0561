"""One negamax / alpha-beta search for every two-player zero-sum game.

Written against the :class:`engine.model.rules.GameState` protocol, plus optional
hooks a state class may define to make the search smarter (see
:class:`SearchHooks`). Any state without them is still searched correctly,
only more slowly.

Scores
------
Scores are integers from the point of view of the player to move, measured
from the *root* of the search (as chess engines count "mate in N"):

* a win that ends ``p`` plies after the root scores ``WIN - p``;
* a loss ``p`` plies after the root scores ``-(WIN - p)``;
* a draw scores 0;
* a heuristic estimate (depth-limited search only) lies strictly between
  ``-HEURISTIC_MAX`` and ``HEURISTIC_MAX``, far from the win/loss region.

So the quickest win and the longest resistance are simply the highest
scores. In *sign-only* mode (``remoteness=False``) every win is ``WIN`` and
every loss ``-WIN``: fewer distinct values means more transposition-table
cut-offs, which is what proving an empty-board result needs.

Transposition table
-------------------
Entries store the score relative to the node (the usual mate-score
adjustment: root-relative ``WIN - p`` becomes ``WIN - (p - ply)``), so a
position reached at another depth reuses it. Each entry is flagged exact,
lower bound or upper bound according to the alpha-beta window it was
searched with. The window is also narrowed by what is known without search
(the hooks' outcome bounds, mate-distance bounds, stored bounds); a result
that meets one of those bounds is exact, which the flag records.

Tests compare every value against plain minimax (tests/engine/ai/test_negamax.py, and the
solver tests of the games that use it).
"""

from __future__ import annotations

import math
import threading
import time
import weakref
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.ai.agent import Cancelled
from engine.model.rules import GameState, Move

__all__ = [
    "BYTES_PER_ENTRY",
    "BudgetExceeded",
    "DEFAULT_MAX_ENTRIES",
    "EXACT",
    "HEURISTIC_MAX",
    "LOWER",
    "MATE_MIN",
    "MAX_PLIES",
    "UPPER",
    "WIN",
    "DeepeningResult",
    "Negamax",
    "SearchClock",
    "SearchHooks",
    "SearchTimeout",
    "Value",
    "score_to_value",
]

WIN = 1_000_000
MAX_PLIES = 10_000
# Every win/loss score has |score| >= MATE_MIN; heuristics stay far below it.
MATE_MIN = WIN - MAX_PLIES
HEURISTIC_MAX = WIN // 2

EXACT, LOWER, UPPER = 0, 1, 2
_INF = WIN + 1

#: The transposition table's cap unless a caller gives another. Unbounded, an
#: exact search that cannot finish (4 in a row on a 4×15 board) grew ~5 MB/s
#: until memory ran out; at this cap it stays near 200 MB and only gets slower.
DEFAULT_MAX_ENTRIES = 1_000_000
#: Measured: a 4×15, k = 4 sign-only search filled 1,000,000 entries in ~200 MB
#: of process memory (int keys, 4-tuples, the dict itself); other games' keys differ.
BYTES_PER_ENTRY = 200


class SearchTimeout(Exception):
    """Raised when a search runs past its deadline."""


class BudgetExceeded(SearchTimeout):
    """Raised when a search used up its budget of work (nodes) before it finished: the
    same on every machine, however fast or busy."""


class SearchClock:
    """When a search must stop: a cancel event and a deadline, shared by every search.

    ``cancel`` (a threading.Event) and ``deadline`` (a ``time.monotonic()``
    instant) may be changed between calls; :meth:`check` raises
    :class:`Cancelled` or :class:`SearchTimeout`.
    """

    cancel: threading.Event | None
    deadline: float | None
    poll_interval: int

    def set_clock(self, cancel: threading.Event | None, deadline: float | None,
                  time_limit: float | None = None, poll_interval: int = 256) -> None:
        """Set the cancel event, and the deadline: the earlier of ``deadline`` and
        ``time_limit`` seconds from now. ``poll_interval`` (nodes between two
        checks) must be a power of two."""
        if poll_interval < 1 or poll_interval & (poll_interval - 1):
            raise ValueError("poll_interval must be a power of two")
        self.cancel = cancel
        if time_limit is not None:
            limit = time.monotonic() + time_limit
            deadline = limit if deadline is None else min(deadline, limit)
        self.deadline = deadline
        self.poll_interval = poll_interval

    def check(self) -> None:
        """Raise Cancelled or SearchTimeout if the search must stop now."""
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchTimeout

    def weak_check(self) -> Callable[[], None]:
        """:meth:`check` for a recursive search closure, holding this object weakly.

        Not the bound method: a closure that calls itself is a reference cycle,
        and holding the search object in it would keep the object (and its
        table) alive until the next full garbage collection.
        """
        owner = weakref.ref(self)

        def check() -> None:
            search = owner()
            if search is not None:
                search.check()

        return check


class SearchHooks(Protocol):
    """Optional methods a state class may define; the search uses any it finds.

    Hooks are looked up once on the class of the root state, so every state a
    search reaches must be of that class. All of them describe the position
    from the point of view of the player to move.
    """

    def search_key(self) -> Hashable:
        """Transposition-table key: equal for positions with equal values.

        It may be canonical under the board's symmetries. Without this hook
        the state itself is the key (states must then be hashable).
        """
        ...

    def ordered_moves(self) -> Sequence[Move]:
        """The moves to search, most promising first.

        May leave out moves that provably cannot be better than some move it
        keeps (e.g. only the block when the opponent threatens to win), and
        in depth-limited search may restrict to candidates. Without it:
        ``legal_moves()``.
        """
        ...

    def forced_outcome(self) -> tuple[int, int] | None:
        """``(outcome, plies)`` when known without search, else None.

        ``outcome`` is +1 (the mover wins), 0 (draw) or -1, and ``plies`` the
        number of plies to the end of the game with best play, e.g. ``(1, 1)``
        for a win on the next move, ``(-1, 2)`` when the opponent has two
        threats the mover cannot both stop.
        """
        ...

    def outcome_bounds(self) -> tuple[int, int]:
        """``(lowest, highest)`` outcome still possible for the mover, each -1/0/+1.

        E.g. ``(-1, 0)`` when the mover can no longer complete any line.
        ``(0, 0)`` declares a draw.
        """
        ...

    def heuristic(self) -> int:
        """Estimate for the mover, used at the depth limit; clamped to ±HEURISTIC_MAX."""
        ...

    def max_remaining_plies(self) -> int:
        """An upper bound on the plies left in the game.

        Iterative deepening stops once its depth reaches it: that search saw
        every line of play to its end, so deeper ones would repeat it.
        """
        ...


@dataclass(frozen=True)
class Value:
    """A search result for the player to move at the root of the search.

    ``outcome`` is +1 win, 0 draw, -1 loss, or for an estimate the sign of
    the score; ``plies`` is the number of plies to the end for a proven win or
    loss in remoteness mode (None for draws, sign-only wins and estimates);
    ``exact`` is False for heuristic estimates.
    """

    outcome: int
    plies: int | None
    exact: bool
    score: int


def score_to_value(score: int, exact: bool = True, remoteness: bool = True) -> Value:
    """Describe a root-relative score as a :class:`Value`."""
    if score >= MATE_MIN:
        return Value(1, WIN - score if remoteness else None, True, score)
    if score <= -MATE_MIN:
        return Value(-1, WIN + score if remoteness else None, True, score)
    if exact:
        return Value(0, None, True, score)
    return Value((score > 0) - (score < 0), None, False, score)


@dataclass(frozen=True)
class DeepeningResult:
    """What iterative deepening reached: best move, its score and the depth completed."""

    move: Move
    score: int
    depth: int
    values: dict[Move, int]
    # The moves scoring within the margin asked for of the best (the best among them),
    # for a player who varies its games; just the best move without a margin.
    near: tuple[Move, ...] = ()


def _require_two_players(state: GameState) -> None:
    if state.num_players != 2:
        raise ValueError(f"negamax fits two-player zero-sum games, not {state.num_players} "
                         "players (use a max^n search)")


class Negamax(SearchClock):
    """Negamax with alpha-beta and a transposition table, exact or depth-limited.

    ``remoteness``: scores count plies to the end (quickest win, longest
    loss); False gives the faster sign-only mode. ``cancel``: polled every
    ``poll_interval`` nodes, raising :class:`Cancelled`. ``deadline``: a
    ``time.monotonic()`` instant past which :class:`SearchTimeout` is raised
    (or give ``time_limit`` seconds from now). ``max_nodes``: a budget of work, past
    which :class:`SearchTimeout` is raised as for the deadline; unlike the clock it
    stops a search at the same node on any machine, however fast or busy (it is looked
    at every ``poll_interval`` nodes and before each root move, both counted in nodes,
    so a search stops at the same place every time). ``max_entries`` caps the
    table: once full, new positions are no longer stored (old ones stay).
    None means :data:`DEFAULT_MAX_ENTRIES`; a larger cap must be asked for.

    The table persists across calls on one instance; make a new instance
    (or call :meth:`clear`) when the game or the mode changes.
    """

    def __init__(self, *, remoteness: bool = True, cancel: threading.Event | None = None,
                 deadline: float | None = None, time_limit: float | None = None,
                 poll_interval: int = 256, max_entries: int | None = None,
                 max_nodes: int | None = None) -> None:
        self.set_clock(cancel, deadline, time_limit, poll_interval)
        self.max_nodes = max_nodes
        self.remoteness = remoteness
        self.max_entries = DEFAULT_MAX_ENTRIES if max_entries is None else max_entries
        self.nodes = 0
        self.tt: dict[Hashable, tuple[float, int, int, Move]] = {}
        self._searchers: dict[type, Callable[..., int]] = {}
        self._counter = [0]
        self._signs: Negamax | None = None  # sign-only helper of move_values, kept for its table
        # The search closures (_make_search) call themselves, a reference cycle that holds
        # the table: without this, a finished search's table (up to max_entries entries)
        # stays until the next full garbage collection, and they pile up move after move.
        weakref.finalize(self, self.tt.clear)

    # --- public API -------------------------------------------------------------------

    def check(self) -> None:
        """Raise Cancelled or SearchTimeout if the search must stop now: asked to, past
        the deadline, or past ``max_nodes`` (this search's nodes so far, counted the same
        way on every machine)."""
        super().check()
        if self.max_nodes is not None and self.nodes + self._counter[0] > self.max_nodes:
            raise BudgetExceeded

    def clear(self) -> None:
        """Forget the transposition tables (node counts are kept)."""
        self.tt.clear()
        if self._signs is not None:
            self._signs.tt.clear()

    def score(self, state: GameState, depth: float = math.inf, alpha: int = -_INF,
              beta: int = _INF) -> int:
        """Fail-soft score of ``state`` for its mover within the window (alpha, beta).

        ``depth`` = inf solves exactly; a finite depth stops there and asks
        the state's ``heuristic()``. A terminal root is scored for
        ``current_player()``.
        """
        _require_two_players(state)
        if state.is_terminal():
            return self._terminal_score(state, state.current_player(), 0)
        return self._run(state, depth, alpha, beta, 0)

    def solve(self, state: GameState) -> Value:
        """The exact game-theoretic value of ``state`` for the player to move."""
        return score_to_value(self.score(state), True, self.remoteness)

    def move_scores(self, state: GameState, depth: float = math.inf,
                    moves: Sequence[Move] | None = None) -> dict[Move, int]:
        """Exact (or depth-limited) root-relative score of every legal move.

        Each move is searched with a full window, so all values are exact for
        the given depth; the shared table makes the later ones cheap.
        """
        _require_two_players(state)
        me = state.current_player()
        out: dict[Move, int] = {}
        for move in (state.legal_moves() if moves is None else moves):
            out[move] = self._child_score(state, move, me, depth, -_INF, _INF)
        return out

    def move_values(self, state: GameState) -> dict[Move, Value]:
        """Exact :class:`Value` of every legal move for the player to move.

        In remoteness mode this first classifies each move win/draw/loss in
        sign-only mode (cheap: more cut-offs), then measures the distance only
        for wins and losses, with a window that excludes draws.
        """
        _require_two_players(state)
        me = state.current_player()
        moves = list(state.legal_moves())
        if not self.remoteness:
            return {m: score_to_value(s, True, False)
                    for m, s in self.move_scores(state).items()}
        signs = self._signs
        if signs is None:
            signs = self._signs = Negamax(remoteness=False, poll_interval=self.poll_interval,
                                          max_entries=self.max_entries)
        signs.cancel, signs.deadline = self.cancel, self.deadline
        signs.nodes = 0
        try:
            sign = {m: signs._child_score(state, m, me, math.inf, -_INF, _INF) for m in moves}
        finally:
            self.nodes += signs.nodes
        out: dict[Move, Value] = {}
        for move in moves:
            if sign[move] > 0:
                score = self._child_score(state, move, me, math.inf, MATE_MIN - 1, _INF)
            elif sign[move] < 0:
                score = self._child_score(state, move, me, math.inf, -_INF, -MATE_MIN + 1)
            else:
                score = 0
            out[move] = score_to_value(score, True, True)
        return out

    def best_move(self, state: GameState, depth: float = math.inf,
                  moves: Sequence[Move] | None = None) -> tuple[Move, int]:
        """A best move and its score (alpha-beta at the root, no full window per move)."""
        _require_two_players(state)
        me = state.current_player()
        order = list(state.legal_moves() if moves is None else moves)
        if not order:
            raise ValueError("no legal move: the game is over")
        best_move, best = order[0], -_INF
        for move in order:
            score = self._child_score(state, move, me, depth, best, _INF)
            if score > best:
                best_move, best = move, score
        return best_move, best

    def iterative_deepening(self, state: GameState, max_depth: int = 64,
                            moves: Sequence[Move] | None = None,
                            all_values: bool = False, margin: int = 0) -> DeepeningResult:
        """Search depth 1, 2, … until ``max_depth``, a proven result, or the deadline.

        Returns the result of the deepest completed iteration (depth 0 and a
        score of 0 if not even depth 1 finished: the first candidate move).
        With ``all_values`` every root move gets a full-window score at each
        depth (for hint overlays); otherwise only the best move is exact. With a
        ``margin``, every move within ``margin`` of the best score is searched exactly
        too and listed in the result's ``near`` (never a proven loss, and only the best
        move when it is a proven win). Each iteration searches the previous best first.
        """
        _require_two_players(state)
        me = state.current_player()
        order = list(self._root_moves(state) if moves is None else moves)
        if not order:
            raise ValueError("no legal move: the game is over")
        result = DeepeningResult(order[0], 0, 0, {}, (order[0],))
        for depth in range(1, max_depth + 1):
            values: dict[Move, int] = {}
            best_move, best = order[0], -_INF
            try:
                for move in order:
                    # With a margin, any move within it of the best scores above alpha,
                    # so its score is exact; the others fail low, under the margin.
                    alpha = -_INF if all_values else (
                        max(-_INF, best - margin - 1) if margin else best)
                    score = self._child_score(state, move, me, depth, alpha, _INF)
                    values[move] = score
                    if score > best:
                        best_move, best = move, score
            except SearchTimeout:
                break
            near = (best_move,)
            if margin and abs(best) < MATE_MIN:
                near = tuple(m for m, v in values.items()
                             if v >= best - margin and v > -MATE_MIN)
            if not all_values:
                values = {best_move: best}
            result = DeepeningResult(best_move, best, depth, values, near)
            # Stable sort: best first, then by this iteration's scores where known.
            order.sort(key=lambda m: -values.get(m, -_INF))
            order.remove(best_move)
            order.insert(0, best_move)
            if abs(best) >= MATE_MIN:
                break  # proven: a deeper search cannot change a forced result
            if depth >= self._remaining_bound(state):
                break
        return result

    # --- internals ----------------------------------------------------------------------

    @staticmethod
    def _remaining_bound(state: GameState) -> float:
        hint = getattr(state, "max_remaining_plies", None)
        return hint() if callable(hint) else math.inf

    @staticmethod
    def _root_moves(state: GameState) -> Sequence[Move]:
        ordered = getattr(state, "ordered_moves", None)
        return ordered() if callable(ordered) else state.legal_moves()

    def _terminal_score(self, state: GameState, me: int, ply: int) -> int:
        result = state.returns()[me]
        step = 1 if self.remoteness else 0
        if result > 0:
            return WIN - step * ply
        if result < 0:
            return -WIN + step * ply
        return 0

    def _child_score(self, state: GameState, move: Move, me: int, depth: float,
                     alpha: int, beta: int) -> int:
        """Score for ``me`` of playing ``move`` (root-relative, child at ply 1)."""
        self.check()
        child = state.play(move)
        if child.is_terminal():
            return self._terminal_score(child, me, 1)
        if child.current_player() == me:
            return self._run(child, depth - 1, alpha, beta, 1)
        return -self._run(child, depth - 1, -beta, -alpha, 1)

    def _run(self, state: GameState, depth: float, alpha: int, beta: int, ply: int) -> int:
        cls = type(state)
        search = self._searchers.get(cls)
        if search is None:
            search = self._searchers[cls] = self._make_search(cls)
        counter = self._counter
        counter[0] = 0
        try:
            return search(state, depth, alpha, beta, ply)
        finally:
            # Counted once: check() adds the running count to the nodes so far.
            self.nodes += counter[0]
            counter[0] = 0

    def _make_search(self, cls: type) -> Callable[..., int]:
        """Build the recursive search specialised (by closure) for one state class.

        Everything the inner loop touches is a local variable: attribute and
        global look-ups per node cost more than the hooks themselves.
        """
        forced = getattr(cls, "forced_outcome", None)
        bounds = getattr(cls, "outcome_bounds", None)
        key_of = getattr(cls, "search_key", None)
        ordered = getattr(cls, "ordered_moves", None) or cls.legal_moves
        heuristic = getattr(cls, "heuristic", None)
        play = cls.play
        is_terminal = cls.is_terminal
        current = cls.current_player
        returns = cls.returns
        tt = self.tt
        step = 1 if self.remoteness else 0
        mask = self.poll_interval - 1
        check = self.weak_check()
        counter = self._counter
        max_entries = self.max_entries
        win, mate_min, hmax = WIN, MATE_MIN, HEURISTIC_MAX - 1

        def search(state: Any, depth: float, alpha: int, beta: int, ply: int) -> int:
            counter[0] += 1
            if not counter[0] & mask:
                check()
            if forced is not None:
                known = forced(state)
                if known is not None:
                    outcome, plies = known
                    if outcome > 0:
                        return win - step * (ply + plies)
                    if outcome < 0:
                        return -win + step * (ply + plies)
                    return 0
            # What is known without search: the game cannot end before the next ply.
            hi = win - step * (ply + 1)
            lo = -hi
            if bounds is not None:
                b_lo, b_hi = bounds(state)
                if b_lo >= 0:
                    lo = 0 if b_lo == 0 else mate_min
                if b_hi <= 0:
                    hi = 0 if b_hi == 0 else -mate_min
                if lo >= hi:
                    return lo
            key = key_of(state) if key_of is not None else state
            entry = tt.get(key)
            tt_move = None
            if entry is not None:
                e_depth, e_flag, e_val, tt_move = entry
                if e_depth >= depth:
                    if e_val >= mate_min:
                        e_val -= step * ply
                    elif e_val <= -mate_min:
                        e_val += step * ply
                    if e_flag == EXACT:
                        return e_val
                    if e_flag == LOWER:
                        if e_val > lo:
                            lo = e_val
                    elif e_val < hi:
                        hi = e_val
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo >= hi:
                return lo
            if depth <= 0:
                if heuristic is None:
                    raise ValueError(f"{cls.__name__} has no heuristic() for a depth-limited "
                                     "search")
                h = int(heuristic(state))
                h = hmax if h > hmax else -hmax if h < -hmax else h
                return hi if h > hi else lo if h < lo else h
            a = alpha if alpha > lo else lo
            b = beta if beta < hi else hi
            a_start = a
            moves = ordered(state)
            if tt_move is not None and moves and moves[0] != tt_move and tt_move in moves:
                moves = [tt_move, *(m for m in moves if m != tt_move)]
            me = current(state)
            best = -_INF
            best_move = None
            for move in moves:
                child = play(state, move)
                if is_terminal(child):
                    result = returns(child)[me]
                    if result > 0:
                        v = win - step * (ply + 1)
                    elif result < 0:
                        v = -win + step * (ply + 1)
                    else:
                        v = 0
                elif current(child) == me:
                    v = search(child, depth - 1, a, b, ply + 1)
                else:
                    v = -search(child, depth - 1, -b, -a, ply + 1)
                if v > best:
                    best = v
                    best_move = move
                    if v > a:
                        a = v
                        if a >= b:
                            break
            if best_move is None:
                raise ValueError(f"{cls.__name__}: not terminal but no moves to search")
            # Flag against the window actually searched; meeting a known bound is exact.
            if best >= hi:
                best, flag = hi, EXACT
            elif best <= a_start:
                if best <= lo:
                    best, flag = lo, EXACT
                else:
                    flag = UPPER
            elif best >= b:
                flag = LOWER
            else:
                flag = EXACT
            if len(tt) < max_entries or key in tt:
                stored = best
                if stored >= mate_min:
                    stored += step * ply
                elif stored <= -mate_min:
                    stored -= step * ply
                tt[key] = (depth, flag, stored, best_move)
            return best

        return search
