"""Exact Connect Four: a bitboard position with the generic negamax's search hooks.

Two searches prove values here, both after Pascal Pons's tutorial solver
(http://blog.gamesolver.org). Every move's exact value with its remoteness
(:func:`exact_values`, :class:`ExactSolver`, :func:`column_values`, the hints and
the Perfect player) comes from the shipped opening book where it reaches
(:mod:`games.connect4.book`), else from null-window probes of Pons's score: the
compiled kernel (:mod:`games.connect4.kernel`, ``c4kernel.c``) where it runs,
else the same search in Python (:mod:`games.connect4.score_search`, the fallback
and the tests' oracle). The sign-only
:func:`solve_position` (``solve connect4``), the Hard player and the estimates
use :class:`engine.ai.negamax.Negamax` searching :class:`C4Search`, a position
built for speed:

* **Bitboards, the Pons layout.** Column ``c`` occupies bits ``c * (rows + 1)``
  to ``c * (rows + 1) + rows``, bottom cell first; the extra bit on top of each
  column (the *sentinel*) is never set, so shifting a bitboard by 1 (up),
  ``rows + 1`` (across) or ``rows + 1 ± 1`` (diagonals) can never run a line
  from one column into the next. A position is two ints: ``cur``, the discs of
  the player to move, and ``mask``, all discs. The disc a move drops is
  ``(mask + bottom of its column) & its column``; the player swap after a
  move is ``cur ^ mask``.
* **Winning spots.** :func:`spots_function` gives, with a dozen shifts, every
  cell that would complete ``k`` in a row for a set of discs. Everything
  below is built on it.
* ``forced_outcome``: a win in 1 ply when the mover can complete a line now;
  a loss in 2 when the opponent has two playable winning spots, or when every
  move the mover may make either leaves a playable spot unblocked or lands
  directly below an opponent spot (the opponent then plays on top of it).
  Both are exact remoteness too: nothing wins sooner, and the loser cannot
  last longer.
* ``ordered_moves``: only the moves that do not lose in 2 (the one block when
  the opponent has a single playable spot), ordered by how many winning spots
  the move gives the mover (Pons's score), centre columns first among equals.
  The moves left out lose in 2, which no kept move can be worse than, so the
  pruning is exact in remoteness mode as well.
* ``search_key``: ``cur + mask`` (unique per position, as Pons shows: each
  column reads as its discs plus one bit above them), canonical under the
  left-right mirror (the smaller of the key and the mirrored key, both kept up
  to date move by move).
* ``max_remaining_plies``: the empty cells.

The transposition table is bounded (``max_entries``) and every entry point has
a time limit by default. Tests compare every value (outcome and remoteness)
with an independent brute-force minimax (tests/games/connect4/test_connect4_solver.py).

No pygame here.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from operator import itemgetter

from engine.ai.agent import Cancelled
from engine.ai.negamax import MATE_MIN, WIN, BudgetExceeded, Negamax, SearchTimeout
from engine.core.memory import on_release
from engine.model.rules import IllegalMove
from engine.model.values import MoveValue
from games.connect4 import solve_pool
from games.connect4.book import WIN_UNKNOWN_DISTANCE, Book, book_for
from games.connect4.geometry import Geometry, geometry, spots_function
from games.connect4.kernel import DEFAULT_TABLE_BYTES, Kernel, enabled, kernel_for
from games.connect4.rules import Connect4State
from games.connect4.score_search import ScoreSearch, value_of_score

__all__ = [
    "DEFAULT_SOLVE_LIMIT",
    "DEFAULT_TABLE_CAP",
    "HINT_LIMIT",
    "C4Search",
    "ExactSolver",
    "OutcomeProver",
    "column_values",
    "Geometry",
    "estimate_values",
    "exact_values",
    "fast_search_available",
    "geometry",
    "move_values",
    "search_state",
    "solve_position",
    "spots_function",
]

# Transposition-table entries at most (~200 bytes each with their keys: ~200 MB).
DEFAULT_TABLE_CAP = 1_000_000
# Seconds a solve may take unless told otherwise (never an endless run).
DEFAULT_SOLVE_LIMIT = 60.0
# Seconds the hint overlay waits for every move's value.
HINT_LIMIT = 2.0
# On boards of at most this many cells (7×6 and the smaller presets), with the compiled
# kernel, proofs are patient: a hint proves every column's outcome even where that takes
# longer than its time limit (on 7×6 about one position in ten of 8 discs takes 2–4 s,
# after the book's depth), for up to HINT_PATIENCE seconds, never an estimate there; and
# Perfect does not give up (games/connect4/agents.py).
PATIENT_CELLS = 42
HINT_PATIENCE = 30.0
# The share of a hint's time the exact search may take before estimates take over (they
# need a little time to see a few moves deep).
EXACT_SHARE = 0.8
# An estimated score beyond this margin reads as "good" (~W) or "bad" (~L) for the mover.
ESTIMATE_MARGIN = 40

_WIN_NOW = (1, 1)
_LOSS_IN_TWO = (-1, 2)
_first = itemgetter(0)


# --- the search position ---------------------------------------------------------------------


class C4Search:
    """An immutable Connect Four position for the negamax, with its search hooks.

    Moves are columns (0-based). Build one with :meth:`new` or
    :func:`search_state`. The private slots cache what ``forced_outcome``
    and ``ordered_moves`` work out, for the moves that follow (the search
    calls them in that order on each node, and then plays the children).
    """

    __slots__ = ("g", "cur", "mask", "mcur", "mmask", "n", "won",
                 "_mine", "_theirs", "_nonlosing", "_child")

    num_players = 2

    g: Geometry
    cur: int
    mask: int
    mcur: int
    mmask: int
    n: int
    won: bool
    _mine: int | None
    _theirs: int | None
    _nonlosing: int | None
    _child: list[int | None] | None

    @classmethod
    def new(cls, cols: int = 7, rows: int = 6, k: int = 4) -> C4Search:
        """The empty board, first player to move."""
        return cls._make(geometry(cols, rows, k), 0, 0, 0, 0, 0, False)

    @classmethod
    def _make(cls, g: Geometry, cur: int, mask: int, mcur: int, mmask: int, n: int,
              won: bool) -> C4Search:
        s = object.__new__(cls)
        s.g = g
        s.cur, s.mask, s.mcur, s.mmask = cur, mask, mcur, mmask
        s.n = n
        s.won = won
        s._mine = s._theirs = s._nonlosing = None
        s._child = None
        return s

    @classmethod
    def from_rules(cls, state: Connect4State) -> C4Search:
        """The search position of a rules state (same board, same player to move)."""
        cfg = state.config
        g = geometry(cfg.cols, cfg.rows, cfg.k)
        h1 = cfg.rows + 1
        first = second = mask = 0
        for c, discs in enumerate(state.columns):
            for h, owner in enumerate(discs):
                bit = 1 << (c * h1 + h)
                mask |= bit
                if owner == 0:
                    first |= bit
                else:
                    second |= bit
        n = len(state.moves)
        cur = first if n % 2 == 0 else second
        mirror_cur = _mirror(g, cur)
        mirror_mask = _mirror(g, mask)
        # The last mover (the other player) has a line exactly when the game was won.
        return cls._make(g, cur, mask, mirror_cur, mirror_mask, n, g.aligned(cur ^ mask))

    # --- GameState --------------------------------------------------------------------

    def current_player(self) -> int:
        """0 for the first player, 1 for the second."""
        return self.n & 1

    def legal_moves(self) -> list[int]:
        """Columns that are not full, left to right; none once someone has won."""
        if self.won:
            return []
        g = self.g
        free = (self.mask + g.bottom) & g.board
        return [c for c in range(g.cols) if free & g.col_mask[c]]

    def play(self, col: int) -> C4Search:
        """The position after the mover drops a disc into column ``col``."""
        g = self.g
        if self.won or not 0 <= col < g.cols:
            raise IllegalMove(f"column {col!r} is not a legal move here")
        mask = self.mask
        bit = (mask + g.bottom_col[col]) & g.col_mask[col]
        if not bit:
            raise IllegalMove(f"column {col} is full")
        mine = self.cur | bit
        new_mask = mask | bit
        m = g.mirror[col]
        mmask = self.mmask
        mbit = (mmask + g.bottom_col[m]) & g.col_mask[m]
        new_mmask = mmask | mbit
        # Did the mover just complete a line? Free when forced_outcome already knows the spots.
        spots = self._mine
        won = g.aligned(mine) if spots is None else bool(spots & bit)
        s = object.__new__(self.__class__)
        s.g = g
        s.cur = mine ^ new_mask
        s.mask = new_mask
        s.mcur = (self.mcur | mbit) ^ new_mmask
        s.mmask = new_mmask
        s.n = self.n + 1
        s.won = won
        # The opponent's discs did not change: their spots are the child's mover's,
        # less the cell just filled.
        theirs = self._theirs
        s._mine = None if theirs is None else theirs & ~bit
        s._nonlosing = None
        s._child = None
        child = self._child
        # ordered_moves worked out the mover's spots after each move: the child's "theirs".
        s._theirs = None if child is None else child[col]
        return s

    def is_terminal(self) -> bool:
        """Over when the last mover completed a line or the board is full."""
        return self.won or self.n == self.g.size

    def returns(self) -> tuple[float, float]:
        """(1, -1) or (-1, 1) when someone has won, (0, 0) otherwise."""
        if not self.won:
            return (0.0, 0.0)
        # The last mover won: the player not to move.
        return (-1.0, 1.0) if self.n & 1 == 0 else (1.0, -1.0)

    # --- search hooks ---------------------------------------------------------------------

    def search_key(self) -> int:
        """``cur + mask``, the smaller of it and its mirror image."""
        a = self.cur + self.mask
        b = self.mcur + self.mmask
        return a if a < b else b

    def forced_outcome(self) -> tuple[int, int] | None:
        """Win in 1 when the mover can complete a line; loss in 2 when every move the
        mover may make lets the opponent complete one (module docstring)."""
        g = self.g
        mask = self.mask
        board = g.board
        empty = board ^ mask
        possible = (mask + g.bottom) & board
        mine = self._mine
        if mine is None:
            mine = self._mine = g.spots(self.cur) & empty
        if mine & possible:
            return _WIN_NOW
        theirs = self._theirs
        if theirs is None:
            theirs = self._theirs = g.spots(self.cur ^ mask) & empty
        forced = theirs & possible
        if forced:
            if forced & (forced - 1):
                self._nonlosing = 0
                return _LOSS_IN_TWO
            possible = forced
        # Never play directly below an opponent's spot: they would play on top and win.
        nonlosing = possible & ~(theirs >> 1)
        self._nonlosing = nonlosing
        if not nonlosing:
            return _LOSS_IN_TWO
        return None

    def ordered_moves(self) -> list[int]:
        """The moves that do not lose at once, those creating most winning spots first.

        Where the mover can win at once: the winning columns. Where every move
        loses at once: all legal moves (they are all equally lost).
        """
        nonlosing = self._nonlosing
        if nonlosing is None:
            self.forced_outcome()
            nonlosing = self._nonlosing
        g = self.g
        mask = self.mask
        possible = (mask + g.bottom) & g.board
        mine = self._mine
        assert mine is not None
        if mine & possible:
            return [c for c in g.order if mine & possible & g.col_mask[c]]
        if not nonlosing:
            return [c for c in g.order if possible & g.col_mask[c]]
        spots = g.spots
        col_mask = g.col_mask
        board = g.board
        cur = self.cur
        child: list[int | None] = [None] * g.cols
        scored = []
        for col in g.order:
            bit = nonlosing & col_mask[col]
            if bit:
                after = spots(cur | bit) & (board ^ (mask | bit))
                child[col] = after
                scored.append((after.bit_count(), col))
        self._child = child
        if len(scored) > 1:
            # Stable: equal scores keep the centre-first order.
            scored.sort(key=_first, reverse=True)
        return [c for _, c in scored]

    def spots_after(self, col: int) -> int:
        """How many empty cells would complete a line for the mover after playing ``col``
        (the move-ordering score; reuses what ``ordered_moves`` worked out)."""
        child = self._child
        known = None if child is None else child[col]
        if known is None:
            g = self.g
            bit = (self.mask + g.bottom_col[col]) & g.col_mask[col]
            known = g.spots(self.cur | bit) & (g.board ^ (self.mask | bit))
        return known.bit_count()

    def max_remaining_plies(self) -> int:
        """Empty cells: no game lasts longer."""
        return self.g.size - self.n

    def heuristic(self) -> int:
        """Estimate for the mover, for depth-limited search (the Hard player, estimates).

        Called after ``forced_outcome`` (so neither side can win at once). Counts:

        * winning spots (cells completing k in a row), 16 each, mover's minus
          opponent's — the threats that decide most games;
        * 4 more for a spot on a row of the owner's parity (rows 1, 3, 5, …
          from the bottom for the first player, 2, 4, … for the second): by the
          zugzwang argument (Allis) those are the threats that can be cashed in
          at the end, when the columns fill up;
        * discs near the centre (they lie on more lines), 1 per column nearer.
        """
        g = self.g
        mask = self.mask
        empty = g.board ^ mask
        mine = self._mine
        if mine is None:
            mine = self._mine = g.spots(self.cur) & empty
        theirs = self._theirs
        if theirs is None:
            theirs = self._theirs = g.spots(self.cur ^ mask) & empty
        odd = g.odd_rows
        if self.n & 1:  # the second player moves: theirs are the first player's
            good_mine, good_theirs = mine & ~odd, theirs & odd
        else:
            good_mine, good_theirs = mine & odd, theirs & ~odd
        score = 16 * (mine.bit_count() - theirs.bit_count())
        score += 4 * (good_mine.bit_count() - good_theirs.bit_count())
        cur = self.cur
        opp = cur ^ mask
        for centre in g.centre_masks:
            score += (cur & centre).bit_count() - (opp & centre).bit_count()
        return score

    # --- helpers ---------------------------------------------------------------------------

    def discs(self) -> tuple[int, int]:
        """The first and the second player's discs."""
        other = self.cur ^ self.mask
        return (self.cur, other) if self.n % 2 == 0 else (other, self.cur)

    def __repr__(self) -> str:
        g = self.g
        first, second = self.discs()
        h1 = g.rows + 1
        rows = []
        for r in reversed(range(g.rows)):
            rows.append("".join("X" if first >> (c * h1 + r) & 1 else
                                "O" if second >> (c * h1 + r) & 1 else "."
                                for c in range(g.cols)))
        return f"C4Search({'/'.join(rows)}, k={g.k})"


def _mirror(g: Geometry, bits: int) -> int:
    """``bits`` reflected left to right."""
    h1 = g.rows + 1
    out = 0
    for c in range(g.cols):
        column = (bits >> (c * h1)) & ((1 << h1) - 1)
        out |= column << ((g.cols - 1 - c) * h1)
    return out


def search_state(state: Connect4State | C4Search) -> C4Search:
    """The search position of a rules state (a search position is returned as is)."""
    return state if isinstance(state, C4Search) else C4Search.from_rules(state)


# --- solving -------------------------------------------------------------------------------


def solve_position(state: Connect4State | C4Search,
                   time_limit: float | None = DEFAULT_SOLVE_LIMIT,
                   max_entries: int = DEFAULT_TABLE_CAP,
                   cancel: threading.Event | None = None) -> int:
    """+1 if the player to move wins with best play, 0 for a draw, -1 if they lose.

    The opening book where it holds the position, else the compiled kernel (a
    table of ``max_entries`` 16-byte slots) where it runs, else the generic
    negamax. Sign-only search (no remoteness: more cut-offs). A finished game is a
    loss for the player to move when someone won (the last mover), a draw
    otherwise. Raises SearchTimeout past ``time_limit`` seconds (None: no
    limit) and Cancelled when ``cancel`` is set.
    """
    if cancel is not None and cancel.is_set():
        raise Cancelled
    search = search_state(state)
    if search.is_terminal():
        return -1 if search.won else 0
    g = search.g
    book = book_for(g.cols, g.rows, g.k)
    if book is not None and search.n <= book.depth:
        value = book.value(search.cur, search.mask)
        if value is not None:
            return (value > 0) - (value < 0)
    kernel = kernel_for(g.cols, g.rows, g.k, table_bytes=max_entries * 16)
    if kernel is not None:
        deadline = None if time_limit is None else time.monotonic() + time_limit
        return kernel.solve(search.cur, search.mask, search.n, -1, 1, deadline=deadline,
                            cancel=cancel)
    negamax = Negamax(remoteness=False, cancel=cancel, time_limit=time_limit,
                      max_entries=max_entries)
    return negamax.solve(search).outcome


# --- proven values: the book, the compiled kernel, the pure-Python search --------------------

# A child's proven value: (sign for the mover, Pons score or None when only the sign is known).
_Proven = tuple[int, int | None]

# Each thread's compiled kernels by board (their tables help the next hint of the same
# game; a kernel is not shared between threads), dropped when a game is left (their
# tables are 64 MB each: engine.core.memory.release_free_memory).
_kernels: dict[tuple[int, int, int, int], Kernel | None] = {}
_kernels_lock = threading.Lock()


def _thread_kernel(g: Geometry) -> Kernel | None:
    """This thread's kernel for the board (None: not supported or no library)."""
    if not enabled():
        return None
    key = (threading.get_ident(), g.cols, g.rows, g.k)
    with _kernels_lock:
        if key in _kernels:
            return _kernels[key]
    kernel = kernel_for(g.cols, g.rows, g.k)
    with _kernels_lock:
        _kernels[key] = kernel
    return kernel


@on_release
def _drop_kernels() -> None:
    """Let go of every thread's kernel (a search still running keeps its own until done)."""
    with _kernels_lock:
        _kernels.clear()


def fast_search_available(cols: int, rows: int, k: int = 4) -> bool:
    """Whether the compiled kernel searches this board here (may compile it: call off the
    frame loop)."""
    return _thread_kernel(geometry(cols, rows, k)) is not None


class _Searcher:
    """One search backend's ``solve(cur, mask, discs, lowest, highest)``: the kernel when
    there is one, else the pure-Python :class:`ScoreSearch`; with the opening book."""

    def __init__(self, g: Geometry, kernel: Kernel | None, scorer: ScoreSearch | None,
                 cancel: threading.Event | None, deadline: float | None,
                 budget: int | None = None) -> None:
        self.g = g
        self.kernel = kernel
        self.scorer = scorer
        self.cancel = cancel
        self.deadline = deadline
        # Nodes left to every search of this searcher together (None: no budget of work).
        # With a budget the columns are searched one after the other (never on two
        # threads), so that the count is the same on every machine.
        self.budget = budget
        self.book: Book | None = book_for(g.cols, g.rows, g.k)

    def solve(self, cur: int, mask: int, discs: int, lowest: int | None,
              highest: int | None) -> int:
        if self.budget is not None and self.budget <= 0:
            raise BudgetExceeded
        search: Kernel | ScoreSearch | None = self.kernel or self.scorer
        assert search is not None
        before = search.nodes
        try:
            if self.kernel is not None:
                return self.kernel.solve(cur, mask, discs, lowest, highest,
                                         deadline=self.deadline, cancel=self.cancel,
                                         budget=self.budget or 0)
            scorer = self.scorer
            assert scorer is not None
            scorer.cancel = self.cancel
            scorer.deadline = self.deadline
            scorer.budget = self.budget
            return scorer.solve(cur, mask, discs, lowest, highest)
        finally:
            if self.budget is not None:
                self.budget -= search.nodes - before

    def booked(self, cur: int, mask: int, discs: int) -> _Proven | None:
        """The book's value of a position (for its mover), when the book holds it."""
        book = self.book
        if book is None or discs > book.depth:
            return None
        value = book.value(cur, mask)
        if value is None:
            return None
        sign = (value > 0) - (value < 0)
        return sign, (None if abs(value) == WIN_UNKNOWN_DISTANCE else value)


def _proven_columns(search: C4Search, searcher: _Searcher, partial: bool,
                    known: dict[int, _Proven] | None = None,
                    first_win: bool = False, distances: bool = True,
                    order: Sequence[int] | None = None) -> dict[int, _Proven]:
    """Every legal column's proven value for the mover: the book where it reaches, else
    first the outcome of every column (two cheap null windows each at most), then the
    distances (the first pass's table makes them cheaper). Raises SearchTimeout (or
    Cancelled) when an outcome is not proven in time, unless ``partial``: then the
    columns proven so far (an outcome, and its distance where it was worked out in time).
    ``known``: columns proven by an earlier call (not searched again). ``first_win``:
    stop at the first column proven to win (outcomes only, no distances). Not
    ``distances``: the outcomes alone. ``order``: the columns to search in that order
    (None: the centre first).
    """
    if searcher.cancel is not None and searcher.cancel.is_set():
        raise Cancelled  # even where the book would answer at once
    g = search.g
    cells = g.size
    cur, mask, n = search.cur, search.mask, search.n
    mine = g.spots(cur) & (g.board ^ mask)
    out: dict[int, _Proven] = dict(known or {})
    children: dict[int, tuple[int, int]] = {}
    for col, child in _children(search).items():
        if col in out:
            continue
        if (child[1] ^ mask) & mine:  # the disc dropped there completes a line
            out[col] = (1, (cells + 1 - n) // 2)
        elif n + 1 == cells:
            out[col] = (0, 0)
        else:
            known = searcher.booked(child[0], child[1], n + 1)
            if known is not None:
                out[col] = (-known[0], None if known[1] is None else -known[1])
            else:
                children[col] = child
    # On a board that is its own mirror image (the empty board), column c and its mirror
    # image have one value: search one of each pair.
    symmetric = search.cur + search.mask == search.mcur + search.mmask
    twins = {col: g.mirror[col] for col in children
             if symmetric and g.mirror[col] in children and g.mirror[col] != col}
    searched = _searched(children, twins)
    if order is not None:
        searched = {col: searched[col] for col in order if col in searched}
    # The position's own outcome, where the book knows it, narrows its columns: in a lost
    # position every column loses (no search); in a drawn one each is a draw or a loss
    # (one null window).
    parent = searcher.booked(cur, mask, n) if children else None
    if parent is not None and parent[0] < 0:
        outcomes = {col: 1 for col in searched}
    elif first_win:
        outcomes = {}
        for col, (c, m) in searched.items():
            if any(sign > 0 for sign, _ in out.values()):
                break
            try:
                outcomes[col] = searcher.solve(c, m, n + 1, -1, 1)
            except SearchTimeout:
                break
            out[col] = (-outcomes[col], 0 if outcomes[col] == 0 else None)
    else:
        low = 0 if parent is not None and parent[0] == 0 else -1
        outcomes = _solve_all(searcher, {col: (c, m, n + 1, low, 1)
                                         for col, (c, m) in searched.items()})
    for col, score in _per_column(outcomes, children, twins).items():
        out[col] = (-score, 0 if score == 0 else None)
    if first_win or not distances:
        return out
    if not partial and any(col not in out for col in children):
        raise SearchTimeout
    # Then the distances of the proven wins and losses (the first pass's table helps).
    return _with_distances(search, searcher, out, children, twins)


def _with_distances(search: C4Search, searcher: _Searcher, out: dict[int, _Proven],
                    children: dict[int, tuple[int, int]],
                    twins: dict[int, int]) -> dict[int, _Proven]:
    """``out`` with the distance of every proven win and loss among ``children`` (column →
    its position) that is worked out before the searcher's deadline; ``twins``: mirror
    image columns of a symmetric board (one of each pair is searched)."""
    n = search.n
    distances = _solve_all(searcher, {
        col: (c, m, n + 1, None, -1) if out[col][0] > 0 else (c, m, n + 1, 1, None)
        for col, (c, m) in _searched(children, twins).items()
        if col in out and out[col][1] is None})
    for col, score in _per_column(distances, children, twins).items():
        out[col] = (out[col][0], -score)
    return out


def _searched(children: dict[int, tuple[int, int]],
              twins: dict[int, int]) -> dict[int, tuple[int, int]]:
    """The columns to search: of each pair of mirror-image ``twins``, the left one."""
    return {col: child for col, child in children.items()
            if not (col in twins and twins[col] in children and twins[col] < col)}


def _per_column(results: dict[int, int], children: dict[int, tuple[int, int]],
                twins: dict[int, int]) -> dict[int, int]:
    """Every column of ``children`` with a result: its own, else its mirror twin's."""
    out = {}
    for col in children:
        score = results.get(col, results.get(twins.get(col, -1)))
        if score is not None:
            out[col] = score
    return out


def _children(search: C4Search) -> dict[int, tuple[int, int]]:
    """Every legal column's position (the opponent's discs, all discs) after it."""
    g = search.g
    possible = (search.mask + g.bottom) & g.board
    return {col: (search.cur ^ search.mask, search.mask | (possible & g.col_mask[col]))
            for col in g.order if possible & g.col_mask[col]}


def _solve_all(searcher: _Searcher,
               jobs: dict[int, tuple[int, int, int, int | None, int | None]]) -> dict[int, int]:
    """Each column's score, clamped as asked, by column: the ones proven before the
    searcher's deadline (on two threads with the compiled kernel: :mod:`solve_pool`).
    Raises Cancelled when the searcher's cancel event is set."""
    if searcher.kernel is None or solve_pool.WORKERS < 2 or searcher.budget is not None:
        out: dict[int, int] = {}
        for col, (c, m, discs, lowest, highest) in jobs.items():
            try:
                out[col] = searcher.solve(c, m, discs, lowest, highest)
            except SearchTimeout:
                break  # the deadline has passed: the others would stop at once too
        return out
    g, deadline, cancel = searcher.g, searcher.deadline, searcher.cancel

    def job(c: int, m: int, discs: int, lowest: int | None, highest: int | None) -> int:
        kernel = _thread_kernel(g)  # this pool thread's own (the same board: never None)
        assert kernel is not None
        return kernel.solve(c, m, discs, lowest, highest, deadline=deadline, cancel=cancel)

    results = solve_pool.run_all({col: (lambda a=args: job(*a)) for col, args in jobs.items()})
    out = {}
    for col, result in results.items():
        if isinstance(result, SearchTimeout):
            continue
        if isinstance(result, BaseException):
            raise result
        out[col] = result
    return out


def _move_value(search: C4Search, proven: _Proven) -> MoveValue:
    """The :class:`MoveValue` of a column's proven value (remoteness where known)."""
    sign, score = proven
    if score is None:
        return MoveValue.from_sign(sign)
    outcome, plies = value_of_score(search.g.size, search.n, score)
    # A drawn game only ends on a full board: its remoteness is the empty cells.
    return MoveValue("draw", plies) if outcome == 0 else MoveValue.from_sign(outcome, plies)


def _values(search: C4Search, proven: dict[int, _Proven]) -> dict[int, MoveValue]:
    return {col: _move_value(search, proven[col]) for col in sorted(proven)}


def exact_values(state: Connect4State | C4Search, cancel: threading.Event | None = None,
                 deadline: float | None = None,
                 max_entries: int = DEFAULT_TABLE_CAP) -> dict[int, MoveValue]:
    """Proven value of every legal move (an :data:`engine.ai.perfect.ValueFunction`).

    Remoteness counts plies to the end with best play, this move included (a
    draw: the empty cells); it is None only where the opening book knows the
    outcome alone and the time ran out before the search worked it out. The
    search is the compiled kernel (:mod:`games.connect4.kernel`) where it can
    run, else :mod:`games.connect4.score_search`'s (null windows on Pons's score,
    a table of at most ``max_entries`` slots); the shipped opening book answers
    first where it reaches. ``deadline`` is a ``time.monotonic()`` instant; raises
    SearchTimeout when an outcome is not proven before it and Cancelled when
    ``cancel`` is set. A finished game has no moves: ``{}``.
    """
    search = search_state(state)
    if search.is_terminal():
        return {}
    g = search.g
    kernel = _thread_kernel(g)
    scorer = None if kernel is not None else ScoreSearch(g, max_entries)
    searcher = _Searcher(g, kernel, scorer, cancel, deadline)
    return _values(search, _proven_columns(search, searcher, partial=False))


class _Backend:
    """One player's own search, for the board it is asked about: the compiled kernel with
    a table of ``table_bytes`` where it runs, else the pure-Python search with
    ``max_entries`` slots; made anew when the board's shape changes, kept otherwise (its
    table helps the next call). Not shared between threads."""

    def __init__(self, max_entries: int, table_bytes: int = DEFAULT_TABLE_BYTES) -> None:
        self.max_entries = max_entries
        self.table_bytes = table_bytes
        self._g: Geometry | None = None
        self._kernel: Kernel | None = None
        self._scorer: ScoreSearch | None = None

    def searcher(self, g: Geometry, cancel: threading.Event | None, deadline: float | None,
                 budget: int | None = None) -> _Searcher:
        """A :class:`_Searcher` on this backend's search for board ``g``."""
        if self._g is not g:
            self._g = g
            self._kernel = kernel_for(g.cols, g.rows, g.k, self.table_bytes)
            self._scorer = None if self._kernel is not None else ScoreSearch(g, self.max_entries)
        return _Searcher(g, self._kernel, self._scorer, cancel, deadline, budget)

    def clear(self) -> None:
        """Forget every stored bound."""
        for search in (self._kernel, self._scorer):
            if search is not None:
                search.clear()


class ExactSolver:
    """:func:`exact_values` with a table kept between calls.

    For one player (the Perfect agent) or one hint worker: each instance owns
    its table (not shared between threads): the compiled kernel's where it runs,
    else a pure-Python one of ``max_entries`` slots. Newer positions overwrite
    older ones, so it never grows; it is dropped when the board shape changes.
    Every outcome is proven or SearchTimeout is raised; a distance the time did not
    allow is left unknown (None) rather than given up.

    ``quick`` (seconds, None: off) is for a player that must not give a won game away
    (Perfect): every column's value is sought for that long only; past it, up to the
    caller's deadline, the search looks only for a column proven to win (the answer is
    then that column alone, enough to keep the win) or, where there is none, for every
    column's outcome (and, in a lost position, the losses' distances, for the longest
    defence). Only with the compiled kernel, and only in positions of at least
    ``patient_from`` discs (earlier ones are the opening book's, or too big to prove in
    minutes): before them the whole deadline goes to every column's value, and without
    the kernel ``quick`` is the whole budget.
    """

    def __init__(self, max_entries: int = DEFAULT_TABLE_CAP, quick: float | None = None,
                 patient_from: int = 0) -> None:
        self.max_entries = max_entries
        self.quick = quick
        self.patient_from = patient_from
        self._backend = _Backend(max_entries)

    def __call__(self, state: Connect4State | C4Search, cancel: threading.Event | None,
                 deadline: float | None) -> dict[int, MoveValue]:
        """Like :func:`exact_values`, reusing what earlier calls proved."""
        search = search_state(state)
        if search.is_terminal():
            return {}
        searcher = self._backend.searcher(search.g, cancel, deadline)
        kernel = searcher.kernel
        legal = len(search.legal_moves())
        # (Only with the compiled kernel: the pure-Python search would spend the whole
        # patience on an opening it cannot prove.)
        patient = (self.quick is not None and deadline is not None and kernel is not None
                   and search.n >= self.patient_from
                   and deadline - time.monotonic() > self.quick)
        # Patient: ``quick`` first. Without the kernel ``quick`` is the whole budget (never
        # a minute of the pure-Python search on one move); else the whole deadline.
        first = (min(time.monotonic() + self.quick, deadline)
                 if self.quick is not None and deadline is not None
                 and (patient or kernel is None) else deadline)
        searcher.deadline = first
        proven = _proven_columns(search, searcher, partial=True)
        if len(proven) < legal and patient:
            wins = {col: value for col, value in proven.items() if value[0] > 0}
            if not wins:
                searcher.deadline = deadline
                proven = _proven_columns(search, searcher, partial=True, known=proven,
                                         first_win=True)
                wins = {col: value for col, value in proven.items() if value[0] > 0}
            if wins:
                return _values(search, wins)
            if len(proven) == legal and all(sign < 0 for sign, _ in proven.values()):
                # Lost: the longest defence needs the losses' distances (those proven in
                # time count; one not worked out ranks as the longest).
                proven = _with_distances(search, searcher, dict(proven), _children(search), {})
        if len(proven) < legal:
            raise SearchTimeout
        return _values(search, proven)


class OutcomeProver:
    """Columns' outcomes proven within a budget of work: the Hard player's proofs.

    Each call looks in the opening book first, then proves the columns one after the
    other, in the order given, until one is proven to win or ``nodes`` positions have
    been searched in all (the compiled kernel's count where it runs, else the pure-Python
    search's), and answers the outcome of each column proven so far: +1 a win for the
    mover, 0 a draw, -1 a loss. The count is the same on every machine, so the same
    position and order give the same answer however fast or busy the machine is; the
    table (``table_bytes`` for the kernel, ``max_entries`` slots for the pure-Python
    search) is cleared before each call, so the answer does not depend on earlier ones.
    """

    # Smaller tables than the exact solver's: a call searches at most ``nodes`` positions
    # (tens of thousands for Hard) and clears its table first, so a bigger table would
    # only cost more to clear.
    def __init__(self, nodes: int, table_bytes: int = 16 << 20,
                 max_entries: int = 65_537) -> None:
        if nodes < 0:
            raise ValueError(f"a budget of work is a count of nodes, not {nodes!r}")
        self.nodes = nodes
        self._backend = _Backend(max_entries, table_bytes)
        # The nodes the latest call searched.
        self.used = 0

    def __call__(self, state: Connect4State | C4Search, order: Sequence[int],
                 cancel: threading.Event | None = None,
                 deadline: float | None = None) -> dict[int, int]:
        """Each column's proven outcome for the mover (see the class), the columns
        searched in ``order`` (every legal column is looked up in the book and checked
        for a win at once whatever the order); raises Cancelled once ``cancel`` is set.
        ``deadline`` is only a safety cap: past it the columns proven so far."""
        search = search_state(state)
        if search.is_terminal():
            return {}
        searcher = self._backend.searcher(search.g, cancel, deadline, budget=self.nodes)
        self._backend.clear()
        proven = _proven_columns(search, searcher, partial=True, first_win=True,
                                 order=order)
        assert searcher.budget is not None
        self.used = self.nodes - max(0, searcher.budget)
        return {col: sign for col, (sign, _) in proven.items()}


def column_values(state: Connect4State | C4Search, time_limit: float | None = DEFAULT_SOLVE_LIMIT,
                  max_entries: int = DEFAULT_TABLE_CAP,
                  cancel: threading.Event | None = None) -> dict[int, MoveValue]:
    """Every legal column's proven value (``solve connect4 --scores``), within ``time_limit``.

    Every outcome is proven or SearchTimeout is raised; a distance not worked out
    within the limit is left unknown (remoteness None). The book, then the kernel
    (its table ``max_entries`` 16-byte slots), else the pure-Python search.
    """
    search = search_state(state)
    if search.is_terminal():
        return {}
    deadline = None if time_limit is None else time.monotonic() + time_limit
    g = search.g
    kernel = kernel_for(g.cols, g.rows, g.k, table_bytes=max_entries * 16)
    scorer = None if kernel is not None else ScoreSearch(g, max_entries)
    searcher = _Searcher(g, kernel, scorer, cancel, deadline)
    proven = _proven_columns(search, searcher, partial=True)
    if len(proven) < len(search.legal_moves()):
        raise SearchTimeout
    return _values(search, proven)


def move_values(state: Connect4State | C4Search, cancel: threading.Event | None = None,
                time_limit: float | None = HINT_LIMIT) -> dict[int, MoveValue]:
    """Value of every legal move for the hint overlay: proven where it can be, in time.

    The opening book answers where it reaches; then :data:`EXACT_SHARE` of
    ``time_limit`` goes to proving every column's outcome and then its distance
    (compiled kernel where it runs, else the pure-Python search). A column whose
    distance was not worked out in time shows its proven outcome alone (``W``,
    ``L``); the columns whose outcome was not proven get, in the time left, a
    depth-limited estimate (``exact=False``, labels ``~W`` / ``~D`` / ``~L``).
    The whole call stays within ``time_limit`` plus a few milliseconds, except on boards
    of at most :data:`PATIENT_CELLS` cells with the compiled kernel, where every
    outcome is proven, for up to :data:`HINT_PATIENCE` seconds.
    ``time_limit=None`` waits for the exact answer. Raises Cancelled when
    ``cancel`` is set.
    """
    if cancel is not None and cancel.is_set():
        raise Cancelled
    search = search_state(state)
    if search.is_terminal():
        return {}
    if time_limit is None:
        return exact_values(search, cancel, None)
    start = time.monotonic()
    g = search.g
    kernel = _thread_kernel(g)
    scorer = None if kernel is not None else ScoreSearch(g, DEFAULT_TABLE_CAP)
    searcher = _Searcher(g, kernel, scorer, cancel, start + time_limit * EXACT_SHARE)
    proven = _proven_columns(search, searcher, partial=True)
    if (len(proven) < len(search.legal_moves()) and kernel is not None
            and g.size <= PATIENT_CELLS):
        # 7×6 and smaller, after their books: every outcome is proven, taking longer
        # where it must (a few positions of 8 to 9 discs on 7×6), up to HINT_PATIENCE.
        searcher.deadline = start + max(time_limit, HINT_PATIENCE)
        proven = _proven_columns(search, searcher, partial=True, known=proven,
                                 distances=False)
    values = _values(search, proven)
    if len(values) == len(search.legal_moves()):
        return values
    left = time_limit - (time.monotonic() - start)
    estimates = estimate_values(search, cancel, max(0.0, left))
    return {col: values.get(col, estimate) for col, estimate in sorted(estimates.items())}


def estimate_values(state: Connect4State | C4Search, cancel: threading.Event | None = None,
                    time_limit: float = 1.0) -> dict[int, MoveValue]:
    """Estimated value of every legal move (``exact=False``), within ``time_limit`` seconds.

    Every move first gets a one-ply score (so even a very short budget
    answers for all of them), then iterative deepening over all moves with a
    full window each; the deepest completed depth wins. A win or loss the
    search saw through to the end keeps its plies as remoteness; otherwise
    the sign of the score beyond a small margin reads as win (good), draw
    (even) or loss (bad).
    """
    if cancel is not None and cancel.is_set():
        raise Cancelled
    search = search_state(state)
    if search.is_terminal():
        return {}
    legal = search.legal_moves()
    scores: dict[int, int] = {}
    for move in legal:
        scores[move] = _one_ply_score(search, move)
    negamax = Negamax(remoteness=True, cancel=cancel, time_limit=time_limit, poll_interval=64)
    order = [m for m in search.ordered_moves() if m in scores]
    order += [m for m in legal if m not in order]
    if time_limit > 0:
        result = negamax.iterative_deepening(search, max_depth=search.max_remaining_plies(),
                                             moves=order, all_values=True)
        scores.update(result.values)
    return {m: _estimate(scores[m]) for m in legal}


def _one_ply_score(search: C4Search, move: int) -> int:
    """The mover's root-relative score of ``move`` by the opponent's static view."""
    child = search.play(move)
    if child.won:
        return WIN - 1
    if child.is_terminal():
        return 0
    known = child.forced_outcome()
    if known is not None:
        outcome, plies = known
        return -outcome * (WIN - 1 - plies)
    return -child.heuristic()


def _estimate(score: int) -> MoveValue:
    if score >= MATE_MIN:
        return MoveValue("win", WIN - score, exact=False)
    if score <= -MATE_MIN:
        return MoveValue("loss", WIN + score, exact=False)
    if score > ESTIMATE_MARGIN:
        return MoveValue("win", exact=False)
    if score < -ESTIMATE_MARGIN:
        return MoveValue("loss", exact=False)
    return MoveValue("draw", exact=False)

