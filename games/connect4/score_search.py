"""Connect Four's exact scores by null-window search, after Pascal Pons's solver.

:mod:`games.connect4.solver` proves values through the engine's generic
negamax on :class:`~games.connect4.solver.C4Search` objects. That is
correct for every game but pays, per node, for a position object, its hooks
and the generic bookkeeping. This module is the same search, specialised to
Connect Four and written on plain ints, as Pons describes it
(http://blog.gamesolver.org, parts 6 to 12):

* **The score is the remoteness.** A win whose last disc is the board's
  ``m``-th scores ``(cells + 2 - m) // 2`` for the winner and the negation for
  the loser, a draw 0 (:func:`score_of`, :func:`value_of_score`). The
  quickest win and the longest loss are the highest scores, exactly what the
  hints' "W n" / "L n" rank by, and a score belongs to the position, however
  deep in a search it is met: the table needs no ply adjustment.
* **Null windows and a binary search on the score** (:meth:`ScoreSearch.solve`):
  each search only asks "is the score above ``x``?", which cuts far more than
  a full window; the answers narrow ``[lowest, highest]`` until they meet.
* **Bounds before search.** A node is only searched when the mover cannot
  win at once (the caller checks). It is lost in 2 when the opponent has two
  playable winning spots or every move lands below an opponent spot; else
  the mover cannot lose before 4 plies nor win before 3, which bounds the
  window at once.
* **Move ordering** by the winning spots a move creates (centre first among
  equals), and the mover's spots after each move are handed to the child,
  where they are the opponent's.
* **A bounded table that replaces.** A list of fixed length (a prime no
  larger than ``max_entries``) indexed by ``key % length``, each slot one int
  holding the key, a lower and an upper bound; a new position overwrites
  the slot. Memory never grows, and a long search keeps its recent positions.
  The key is ``cur + mask`` (unique per position), plus 1 so that no key
  reads as an empty slot.

:func:`column_scores` gives every legal column its exact score with one
table; :func:`games.connect4.solver.exact_values` turns them into
:class:`~engine.model.values.MoveValue` s. Tests compare every value with an
independent brute force (tests/games/connect4/test_connect4_score_search.py).

No pygame here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from engine.ai.negamax import BudgetExceeded, SearchClock

if TYPE_CHECKING:
    from games.connect4.geometry import Geometry

__all__ = [
    "DEFAULT_ENTRIES",
    "ScoreSearch",
    "column_scores",
    "score_of",
    "value_of_score",
]

#: Table slots unless told otherwise: ~40 bytes each once filled (a list slot and an int).
DEFAULT_ENTRIES = 1_000_003
# Nodes between two looks at the clock and the cancel event.
_POLL = 2047


def score_of(cells: int, outcome: int, last_disc: int) -> int:
    """The score of a game that ends with the board's ``last_disc``-th disc.

    ``outcome`` is +1 (the player it is scored for wins), -1 or 0 (a draw: 0).
    """
    if outcome == 0:
        return 0
    return outcome * ((cells + 2 - last_disc) // 2)


def value_of_score(cells: int, discs: int, score: int) -> tuple[int, int]:
    """``(outcome, remoteness)`` of ``score`` for the player to move with ``discs`` played.

    Remoteness counts plies from now to the end, this move included: the
    mover's wins end on plies ``discs + 1, discs + 3, …``, their losses on
    ``discs + 2, discs + 4, …``, and a draw when the board is full.
    """
    if score == 0:
        return 0, cells - discs
    outcome = 1 if score > 0 else -1
    # The last disc m has the parity of the winner's discs and (cells + 2 - m) // 2 == |score|.
    last = cells + 2 - 2 * abs(score)
    winner_parity = (discs + 1) % 2 if outcome > 0 else discs % 2
    if last % 2 != winner_parity:
        last -= 1
    return outcome, last - discs


@lru_cache(maxsize=8)
def _prime_at_most(n: int) -> int:
    """The largest prime no larger than ``n`` (at least 2)."""
    n = max(2, n)
    while True:
        if n < 4 or (n % 2 and all(n % d for d in range(3, int(n ** 0.5) + 1, 2))):
            return n
        n -= 1


class ScoreSearch(SearchClock):
    """Exact Pons scores of positions on one board shape, with one bounded table.

    ``geometry`` is a :class:`games.connect4.geometry.Geometry`. ``max_entries``
    bounds the table (its length is the largest prime no larger). ``cancel``
    and ``deadline`` (a ``time.monotonic()`` instant) may be changed between
    calls; past the deadline :class:`SearchTimeout` is raised, once cancelled
    :class:`Cancelled`. ``budget`` (None: none), which may be changed between calls too,
    is a budget of work for each call to :meth:`solve`: past that many nodes (looked at
    every 2,048, so the same count on every machine) :class:`BudgetExceeded` is raised.
    The table is kept between calls (positions of one game help each other);
    :meth:`clear` forgets it.
    """

    budget: int | None = None

    def __init__(self, geometry: Geometry, max_entries: int = DEFAULT_ENTRIES,
                 cancel: threading.Event | None = None, deadline: float | None = None) -> None:
        self.g = geometry
        self.set_clock(cancel, deadline)
        self.length = _prime_at_most(max_entries)
        self.table: list[int] = [0] * self.length
        self.nodes = 0
        self._counter = [0]
        self._negamax = self._build()

    def clear(self) -> None:
        """Forget every stored bound."""
        self.table[:] = [0] * self.length

    def check(self) -> None:
        """Raise Cancelled, SearchTimeout or BudgetExceeded if the search must stop now."""
        super().check()
        if self.budget is not None and self._counter[0] >= self.budget:
            raise BudgetExceeded

    # --- one position ------------------------------------------------------------------

    def solve(self, cur: int, mask: int, discs: int, lowest: int | None = None,
              highest: int | None = None) -> int:
        """The exact score of the position for its mover (``cur``: their discs).

        The game must not be over. ``lowest`` / ``highest`` restrict the search
        to that range: the answer is then the score clamped into it (e.g.
        ``lowest=-1, highest=1`` just tells win, draw and loss apart).
        """
        g = self.g
        cells = g.size
        empty = g.board ^ mask
        possible = (mask + g.bottom) & g.board
        if g.spots(cur) & empty & possible:
            return _clamp((cells + 1 - discs) // 2, lowest, highest)
        if discs >= cells - 1:
            return _clamp(0, lowest, highest)  # one cell left, and it wins nothing
        theirs = g.spots(cur ^ mask) & empty
        lo = -((cells - discs) // 2)
        hi = (cells - 1 - discs) // 2
        if lowest is not None:
            lo = max(lo, lowest)
        if highest is not None:
            hi = min(hi, highest)
        return self.bisect(cur, mask, discs, theirs, lo, hi)

    def bisect(self, cur: int, mask: int, discs: int, theirs: int, lo: int, hi: int) -> int:
        """The score clamped into ``[lo, hi]`` by null-window tests (Pons's order of probes:
        halfway, pulled towards the half of the bound on its side of 0)."""
        negamax = self._negamax
        counter = self._counter
        try:
            while lo < hi:
                med = lo + (hi - lo) // 2
                if med <= 0 and _half(lo) < med:
                    med = _half(lo)
                elif med >= 0 and _half(hi) > med:
                    med = _half(hi)
                r = negamax(cur, mask, discs, theirs, med, med + 1)
                if r <= med:
                    hi = r if r > lo else lo
                else:
                    lo = r if r < hi else hi
        finally:
            self.nodes += counter[0]
            counter[0] = 0
        return lo

    # --- the search --------------------------------------------------------------------

    def _build(self) -> Callable[[int, int, int, int, int, int], int]:
        """The recursive null-window search, everything it touches bound to locals."""
        g = self.g
        cells = g.size
        board = g.board
        bottom = g.bottom
        spots = g.spots
        aligned = g.aligned
        # From here on lines are often dead (measured on 7×6: earlier, the test costs more
        # than it saves).
        late = cells // 2
        columns = [g.col_mask[c] for c in g.order]
        table = self.table
        length = self.length
        counter = self._counter
        check = self.weak_check()  # weakly: self holds this closure
        poll = _POLL
        indices = range(len(columns))
        # Slot layout: key << 18 | move << 14 | (lower + 64) << 7 | (upper + 64), where
        # move is the index (in ``columns``) of the best or refuting move, 15 for none;
        # 0 is an empty slot. |score| <= cells // 2 + 1 <= 37 here, well inside ±63.
        none = 15

        def negamax(cur: int, mask: int, n: int, theirs: int, alpha: int, beta: int) -> int:
            """Fail-soft score of the mover (who cannot win at once) within (alpha, beta).

            ``theirs``: the opponent's winning spots among the empty cells.
            """
            counter[0] += 1
            if not counter[0] & poll:
                check()
            possible = (mask + bottom) & board
            forced = possible & theirs
            if forced:
                if forced & (forced - 1):
                    return -((cells - n) // 2)
                possible = forced
            possible &= ~(theirs >> 1)
            if not possible:
                return -((cells - n) // 2)
            if n >= cells - 2:
                return 0
            # Neither side can end the game within the next two plies.
            lo = -((cells - 2 - n) // 2)
            hi = (cells - 1 - n) // 2
            key = cur + mask + 1  # never 0, the empty slot (cur + mask is 0 on an empty board)
            slot = key % length
            entry = table[slot]
            first = none
            if entry >> 18 == key:
                first = (entry >> 14) & 15
                e = ((entry >> 7) & 127) - 64
                if e > lo:
                    lo = e
                e = (entry & 127) - 64
                if e < hi:
                    hi = e
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo >= hi:
                return lo
            empty = board ^ mask
            # A side with no line left free of the other's discs cannot win: where the
            # window lies on one side of a draw, that alone may settle the question.
            if n >= late and alpha >= 0 and hi > 0 and not aligned(cur | empty):
                return 0
            if n >= late and beta <= 0 and lo < 0 and not aligned((cur ^ mask) | empty):
                return 0
            a = alpha if alpha > lo else lo
            b = beta if beta < hi else hi
            a0 = a
            opp = cur ^ mask
            n1 = n + 1
            best = -64
            best_i = none
            if first != none:
                # The move that was best (or refuted) here before: often refutes again,
                # before the others' spots are worked out.
                bit = possible & columns[first]
                best = -negamax(opp, mask | bit, n1, spots(cur | bit) & (empty ^ bit), -b, -a)
                best_i = first
                if best > a:
                    a = best
            if best < b:
                # Most winning spots created first; centre first among equals.
                moves = []
                for i in indices:
                    bit = possible & columns[i]
                    if bit and i != first:
                        after = spots(cur | bit) & (empty ^ bit)
                        moves.append((after.bit_count(), -i, bit, after))
                if len(moves) > 1:
                    moves.sort(reverse=True)
                for _, i, bit, after in moves:
                    v = -negamax(opp, mask | bit, n1, after, -b, -a)
                    if v > best:
                        best = v
                        best_i = -i
                        if v >= b:
                            break
                        if v > a:
                            a = v
            # Every move was searched unless one reached b: best bounds the score from above
            # (a fail-low), below (a cut-off) or both.
            if best >= b:
                lo = best
            elif best > a0:
                lo = hi = best
            else:
                hi = best
            table[slot] = key << 18 | best_i << 14 | (lo + 64) << 7 | (hi + 64)
            return best

        return negamax


def _first(item: tuple[int, int, int]) -> int:
    return item[0]


def _half(x: int) -> int:
    """``x / 2`` rounded towards 0, as C's integer division (Pons's probes)."""
    return -((-x) // 2) if x < 0 else x // 2


def _clamp(x: int, lowest: int | None, highest: int | None) -> int:
    if lowest is not None and x < lowest:
        return lowest
    if highest is not None and x > highest:
        return highest
    return x


def column_scores(search: ScoreSearch, cur: int, mask: int, discs: int) -> dict[int, int]:
    """The exact score, for the mover, of every legal column (0-based) of a game not over."""
    g = search.g
    cells = g.size
    possible = (mask + g.bottom) & g.board
    mine = g.spots(cur) & (g.board ^ mask)
    out: dict[int, int] = {}
    children: dict[int, tuple[int, int]] = {}
    for col in range(g.cols):
        bit = possible & g.col_mask[col]
        if not bit:
            continue
        if bit & mine:
            out[col] = (cells + 1 - discs) // 2
        elif discs + 1 == cells:
            out[col] = 0
        else:
            children[col] = (cur ^ mask, mask | bit)
    # First win, draw or loss for every column (two cheap null windows each at most), then
    # the distance of each win and loss within its sign: the table the first pass filled
    # makes the second cheaper, and a draw needs nothing more.
    signs = {col: -search.solve(c, m, discs + 1, -1, 1) for col, (c, m) in children.items()}
    for col, (c, m) in children.items():
        sign = signs[col]
        if sign == 0:
            out[col] = 0
        elif sign > 0:
            out[col] = -search.solve(c, m, discs + 1, None, -1)
        else:
            out[col] = -search.solve(c, m, discs + 1, 1, None)
    return out
