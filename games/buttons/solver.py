"""Solving Button Madness boards (SPEC §6) of every size 1..1000, fewest presses where provable.

A solution is a set of presses x with M·x = g over GF(2), where g is the set of
green buttons and M the n²×n² press matrix (symmetric: a press at p flips q
exactly when a press at q flips p). Solving it densely costs O(n⁶); this module
uses the torus's structure instead.

**Light chasing on the torus** (n ≥ 3). Write row i of the press set as an n-bit
int x_i, i.e. a polynomial in the column shift S, an element of
GF(2)[S]/(Sⁿ − 1), and T = 1 + S + S⁻¹ (a press's effect within its own row).
Row i is cleared exactly when x_{i−1} + T·x_i + x_{i+1} = g_i. Read as
x_{i+1} = g_i + T·x_i + x_{i−1}, this "chases" the lights down: given x_0 and x_1
every later row follows, and with the rows n and n + 1 of the chase (using
g_n = g_0) the two wrap-round equations become x_n = x_0 and x_{n+1} = x_1. By
linearity x_i = P_i·x_1 + Q_i·x_0 + c_i, where P_i and Q_i follow the board-free
recurrence (P_0 = 0, P_1 = 1, Q_0 = 1, Q_1 = 0) and c_i is the chase from
x_0 = x_1 = 0. What is left is a 2n×2n system with circulant blocks:

    (Q_n + 1)·x_0 + P_n·x_1       = c_n
    Q_{n+1}·x_0 + (P_{n+1} + 1)·x_1 = c_{n+1}

Its matrix depends on n only, so the work on it is done once per n and cached.
With a, b, c, d the blocks, they commute (all circulants do), so the system's
determinant is that of the circulant of Δ = a·d + b·c:

* **good n** (Δ a unit of the ring, found by the extended Euclidean algorithm on
  GF(2) polynomials): the inverse is Δ⁻¹·[[d, b], [c, a]] (the adjugate; signs
  vanish in characteristic 2), four ring elements. A board costs two chases
  (O(n) operations on n-bit ints) and four carry-less products. No matrix at all.
* **bad n**: bit-packed Gauss-Jordan elimination of the 2n×2n system in numpy
  (uint64 rows, the pivot row XORed into every row holding the pivot bit in one
  vectorised step) recording the row operations E. A board then costs the two
  chases and E·(c_n, c_{n+1}): it is solvable iff the rows of E beyond the rank
  annihilate it, and a solution reads off the pivots (free unknowns 0).
  Chasing is a bijection between (x_0, x_1) and whole press sets satisfying all
  rows but the last two, so the kernel of the 2n×2n system, chased with g = 0,
  is the null space of M and its dimension is the nullity.

n = 1 and 2 have no three distinct rows to chase with; their 1×1 and 4×4 press
matrices are reduced directly. Measured on the 2-core test machine
(tests/benchmarks/bench_buttons.py): the elimination for n = 1000 takes about
0.2 s once; a good 256×256 board is solved from cold in about 7 ms, a 32×32 in
0.2 ms, against about 60 ms for a dense elimination of its 1,024 × 1,024 system.

**Fewest presses.** With nullity d, the solutions are p ⊕ Σ c_k·v_k over the
null-space basis v_1..v_d. For d ≤ 20 all 2^d are weighed at once: each cell's
press bit is ⟨a_cell, c⟩ ⊕ p_cell, where a_cell holds the cell's bit in each
v_k; with F(a) = Σ over cells of signature a of (−1)^{p_cell}, the number of
presses of combination c is (n² − Ŵ(c))/2, Ŵ the Walsh–Hadamard transform of F,
so one bincount (O(n²)) and one transform (O(d·2^d)) give the exact minimum.
Above 2^20 a good start first: block descent, each step exactly minimising over
the 2^16 combinations of a block of 16 basis vectors (the same transform) with
the rest fixed, sweeping two staggered partitions of the basis until no block
improves (at most half the time limit). Then :mod:`games.buttons.fewest` proves
the minimum (a branch and bound over two sub-lattice classes: every menu size,
20×20 with d = 32 in well under a second) or returns the best found with a
proven lower bound (``minimal=False``, ``lower_bound``), within the time limit
(``time_limit``, default :data:`games.buttons.search_limits.DEFAULT_TIME_LIMIT`)
and memory cap (``memory_mb``).

**The source's method** (:func:`bfs_solve_4x4`) is kept as an oracle and as the
benchmark's reference: the graph of all 2^16 4×4 boards with 16 edges each,
searched breadth-first from the given board to 65535 by the engine's generic
:func:`engine.ai.bfs.bfs_solve`.

No pygame here.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from engine.ai.agent import Cancelled
from engine.ai.bfs import bfs_solve
from engine.core.phrase import N_, Phrase
from games.buttons import fewest
from games.buttons.board import (
    MAX_N,
    Board,
    bits_to_grid,
    check_size,
    grid_to_bits,
    press_mask,
)
from games.buttons.fewest_bounds import ProgressFn, walsh_hadamard_rows

# Exhaustive fewest-press search up to this nullity (2^20 WHT entries, 8 MB).
MAX_EXHAUSTIVE_NULLITY = 20
# The heuristic's blocks: 2^16 combinations weighed exactly per step.
_BLOCK = 16
_MAX_SWEEPS = 6
# The share of the time limit the block descent may take before the search starts.
_DESCENT_SHARE = 0.5
# Systems kept: n = 1000 (bad) takes about 9 MB (E: 0.5 MB, 64 null vectors: 8 MB);
# a good n keeps four ring elements.
_CACHE_SIZE = 12
# GridSolution.cells reads the grid about this many cells (whole rows) at a time.
_CELL_BLOCK = 4096



@dataclass(frozen=True)
class Solution:
    """A solver's answer.

    ``presses``: the buttons to press, row-major, or None when the board has no
    solution; ``minimal``: True when no solution has fewer presses (proved: the
    solution is unique, every one was weighed, or a search proved it); ``method``: how
    it was found, in words; ``nullity``: the dimension of the null space for this n;
    ``lower_bound``: a proven lower bound on every solution's presses (the count
    itself when ``minimal``; None when the board has no solution).
    """

    presses: tuple[tuple[int, int], ...] | None
    minimal: bool
    method: str
    nullity: int
    lower_bound: int | None = None


# --- row arithmetic in GF(2)[S]/(Sⁿ − 1) --------------------------------------


def _times_t(x: int, n: int, full: int) -> int:
    """T·x = x + S·x + S⁻¹·x: a row's own flips, with wrap-round (XOR cancels on tiny n)."""
    return x ^ (((x << 1) & full) | (x >> (n - 1))) ^ ((x >> 1) | ((x & 1) << (n - 1)))


def _chase(n: int, green: list[int], x0: int, x1: int) -> list[int]:
    """Rows x_0 .. x_{n+1} of the light chase x_{i+1} = g_i + T·x_i + x_{i−1} (g_n = g_0)."""
    full = (1 << n) - 1
    rows = [x0, x1]
    prev, cur = x0, x1
    for i in range(1, n + 1):
        prev, cur = cur, green[i % n] ^ _times_t(cur, n, full) ^ prev
        rows.append(cur)
    return rows


def _ring_mul(a: int, b: int, n: int) -> int:
    """a·b in GF(2)[S]/(Sⁿ − 1): carry-less product, then fold Sⁿ onto 1."""
    if a.bit_count() < b.bit_count():
        a, b = b, a
    product = 0
    while b:
        low = b & -b
        product ^= a << (low.bit_length() - 1)
        b ^= low
    return (product & ((1 << n) - 1)) ^ (product >> n)


def _ring_inverse(a: int, n: int) -> int | None:
    """The inverse of a in GF(2)[S]/(Sⁿ − 1), or None when gcd(a, Sⁿ − 1) ≠ 1.

    Extended Euclid on GF(2) polynomials held in ints (bit i = coefficient of S^i).
    """
    r0, r1 = (1 << n) | 1, a  # Sⁿ − 1 = Sⁿ + 1 over GF(2)
    s0, s1 = 0, 1
    while r1:
        # r0 ← r0 mod r1, tracking the Bézout coefficient of a.
        d1 = r1.bit_length()
        while r0.bit_length() >= d1:
            shift = r0.bit_length() - d1
            r0 ^= r1 << shift
            s0 ^= s1 << shift
        r0, r1, s0, s1 = r1, r0, s1, s0
    if r0 != 1:
        return None
    return _ring_mul(s0, 1, n)  # reduce mod Sⁿ − 1 (Bézout degrees stay below n anyway)


# --- bit-packed Gauss-Jordan elimination ---------------------------------------


def _eliminate(matrix: np.ndarray, cancel: threading.Event | None,
               progress: ProgressFn | None) -> tuple[list[int], list[int], list[int]]:
    """Reduce a square GF(2) matrix (bool, m×m) to reduced row echelon form R = E·A.

    Returns (the first rank rows of R, all m rows of E, the pivot columns),
    rows as Python ints (bit j = column j). The matrix and an identity beside it
    are packed 64 columns to a uint64 word; each pivot is XORed into all other
    rows with that bit in one numpy step, from the pivot's word on (rows below
    the rank are zero left of the current column, so earlier words are unchanged
    in the system part).
    """
    m = matrix.shape[0]
    words = (m + 63) // 64
    packed = np.zeros((m, 2 * words), dtype=np.uint64)
    pad = words * 64
    left = np.zeros((m, pad), dtype=bool)
    left[:, :m] = matrix
    packed[:, :words] = np.packbits(left, axis=1, bitorder="little").view(np.uint64)
    right = np.zeros((m, pad), dtype=bool)
    right[np.arange(m), np.arange(m)] = True
    packed[:, words:] = np.packbits(right, axis=1, bitorder="little").view(np.uint64)

    pivots: list[int] = []
    rank = 0
    for col in range(m):
        if col % 32 == 0:
            if cancel is not None and cancel.is_set():
                raise Cancelled
            if progress is not None:
                progress(col / m)
        word = col >> 6
        bit = np.uint64(1 << (col & 63))
        hits = (packed[:, word] & bit) != 0
        below = np.flatnonzero(hits[rank:])
        if below.size == 0:
            continue
        pivot = rank + int(below[0])
        if pivot != rank:
            packed[[rank, pivot]] = packed[[pivot, rank]]
            hits[[rank, pivot]] = hits[[pivot, rank]]
        hits[rank] = False
        others = np.flatnonzero(hits)
        if others.size:
            packed[others, word:] ^= packed[rank, word:]
        pivots.append(col)
        rank += 1

    def as_int(row: np.ndarray) -> int:
        return int.from_bytes(row.tobytes(), "little")

    reduced = [as_int(packed[r, :words]) for r in range(rank)]
    transform = [as_int(packed[r, words:]) for r in range(m)]
    return reduced, transform, pivots


def _kernel(size: int, reduced: list[int], pivots: list[int]) -> list[int]:
    """A basis of the kernel of a matrix in reduced row echelon form, one vector per free column."""
    pivot_set = set(pivots)
    basis = []
    for free in range(size):
        if free in pivot_set:
            continue
        vec = 1 << free
        for row, col in zip(reduced, pivots, strict=True):
            if row >> free & 1:
                vec |= 1 << col
        basis.append(vec)
    return basis


# --- the per-n system -----------------------------------------------------------


@dataclass
class _System:
    """Everything about one n that no board changes: the reduced system and the null space."""

    n: int
    chase: bool  # False: the n ≤ 2 dense system (unknowns = the press bits themselves)
    transform: list[int]  # E: row r of E·A is reduced; rows from the rank on are checks
    pivots: list[int]
    kernel_rows: list[list[int]]  # null-space press patterns, each as n row ints
    # Good n ≥ 3: the 2×2 inverse over GF(2)[S]/(Sⁿ − 1), row-major; no elimination then.
    inverse: tuple[int, int, int, int] | None = None

    @property
    def nullity(self) -> int:
        return len(self.kernel_rows)


# Per-cell signatures of groups of null-space vectors, LRU within a byte budget
# (a 1000×1000 board's 16-vector block is 2 MB; the heuristic uses ~10 blocks).
_SIGNATURES: OrderedDict[tuple[int, tuple[int, ...]], np.ndarray] = OrderedDict()
_SIGNATURE_BUDGET = 96 * 2**20
_SIGNATURES_LOCK = threading.Lock()


def _signatures(system: _System, members: tuple[int, ...]) -> np.ndarray:
    """Per cell (row-major), bit j = the cell's bit in null-space vector ``members[j]``."""
    key = (system.n, members)
    with _SIGNATURES_LOCK:
        cached = _SIGNATURES.get(key)
        if cached is not None:
            _SIGNATURES.move_to_end(key)
            return cached
    n = system.n
    dtype = np.uint16 if len(members) <= 16 else np.uint32
    sig = np.zeros(n * n, dtype=dtype)
    for j, k in enumerate(members):
        sig |= _rows_to_grid(n, system.kernel_rows[k]).ravel().astype(dtype) << dtype(j)
    with _SIGNATURES_LOCK:
        _SIGNATURES[key] = sig
        while sum(a.nbytes for a in _SIGNATURES.values()) > _SIGNATURE_BUDGET:
            _SIGNATURES.popitem(last=False)
    return sig


_SYSTEMS: OrderedDict[int, _System] = OrderedDict()
_NULLITIES: dict[int, int] = {}  # one small int per size ever asked about
_SYSTEMS_LOCK = threading.Lock()


def _circulant(poly: int, n: int) -> np.ndarray:
    """The n×n bool matrix of multiplication by ``poly`` in GF(2)[S]/(Sⁿ − 1).

    (p·x)_k = Σ_j p_{k−j} x_j, so entry (k, j) is bit (k − j) mod n of p.
    """
    coeffs = np.array([poly >> i & 1 for i in range(n)], dtype=bool)
    idx = np.arange(n)
    return coeffs[(idx[:, None] - idx[None, :]) % n]


def _build_system(n: int, cancel: threading.Event | None,
                  progress: ProgressFn | None, algebraic: bool = True) -> _System:
    """The wrap-round system of n: inverted in the ring when possible, else reduced.

    For n ≤ 2 the dense press matrix is reduced instead. ``algebraic=False``
    forces the elimination (tests compare the two).
    """
    if n <= 2:
        size = n * n
        masks = [press_mask(n, r, c) for r in range(n) for c in range(n)]
        matrix = np.array([[masks[j] >> k & 1 for j in range(size)] for k in range(size)],
                          dtype=bool)
        reduced, transform, pivots = _eliminate(matrix, cancel, progress)
        full = (1 << n) - 1
        kernel_rows = [[v >> (n * i) & full for i in range(n)]
                       for v in _kernel(size, reduced, pivots)]
        return _System(n, False, transform, pivots, kernel_rows)

    full = (1 << n) - 1
    p_prev, p_cur = 0, 1  # P_0, P_1
    q_prev, q_cur = 1, 0  # Q_0, Q_1
    for _ in range(1, n + 1):
        p_prev, p_cur = p_cur, _times_t(p_cur, n, full) ^ p_prev
        q_prev, q_cur = q_cur, _times_t(q_cur, n, full) ^ q_prev
    # Now p_prev, p_cur = P_n, P_{n+1} and q_prev, q_cur = Q_n, Q_{n+1}; the system is
    # [[a, b], [c, d]]·(x_0, x_1) = (c_n, c_{n+1}) with commuting circulant blocks:
    a, b, c, d = q_prev ^ 1, p_prev, q_cur, p_cur ^ 1
    if algebraic:
        # Commuting blocks: det = det(circulant of Δ = ad + bc), so the system is
        # invertible iff Δ is a unit of the ring, and then its inverse is
        # Δ⁻¹·[[d, b], [c, a]] (the adjugate; signs vanish in characteristic 2).
        delta_inv = _ring_inverse(_ring_mul(a, d, n) ^ _ring_mul(b, c, n), n)
        if delta_inv is not None:
            u11, u12, u21, u22 = (_ring_mul(delta_inv, e, n) for e in (d, b, c, a))
            return _System(n, True, [], [], [], (u11, u12, u21, u22))
    matrix = np.block([
        [_circulant(a, n), _circulant(b, n)],
        [_circulant(c, n), _circulant(d, n)],
    ])
    reduced, transform, pivots = _eliminate(matrix, cancel, progress)
    zeros = [0] * n
    kernel_rows = [_chase(n, zeros, v & full, v >> n)[:n]
                   for v in _kernel(2 * n, reduced, pivots)]
    return _System(n, True, transform, pivots, kernel_rows)


def _system(n: int, cancel: threading.Event | None = None,
            progress: ProgressFn | None = None) -> _System:
    """The cached system of n, built on first use (cancellable, with progress)."""
    n = check_size(n)
    with _SYSTEMS_LOCK:
        system = _SYSTEMS.get(n)
        if system is not None:
            _SYSTEMS.move_to_end(n)
            return system
    # Built outside the lock: another thread may build the same n meanwhile,
    # which only wastes time; a cancelled build caches nothing.
    system = _build_system(n, cancel, progress)
    with _SYSTEMS_LOCK:
        _SYSTEMS[n] = system
        while len(_SYSTEMS) > _CACHE_SIZE:
            _SYSTEMS.popitem(last=False)
    return system


def clear_cache() -> None:
    """Forget every per-n system, signature table and search plan (for cold-start
    benchmarks)."""
    with _SYSTEMS_LOCK:
        _SYSTEMS.clear()
        _NULLITIES.clear()
    with _SIGNATURES_LOCK:
        _SIGNATURES.clear()
    with _PROVEN_LOCK:
        _PROVEN.clear()
    fewest.clear_cache()


# --- conversions between rows, grids and boards -------------------------------------


def _green_rows(board: Board) -> list[int]:
    """The green buttons of each row as n-bit ints."""
    n = board.n
    green = board.green_bits
    full = (1 << n) - 1
    if n <= 64:
        return [green >> (n * i) & full for i in range(n)]
    packed = np.packbits(bits_to_grid(n, green), axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]


def _rows_to_grid(n: int, rows: list[int]) -> np.ndarray:
    """n row ints as an n×n bool array."""
    width = (n + 7) // 8
    raw = np.frombuffer(b"".join(r.to_bytes(width, "little") for r in rows), dtype=np.uint8)
    bits = np.unpackbits(raw.reshape(n, width), axis=1, bitorder="little")
    return bits[:, :n].view(bool)


def _rows_to_presses(n: int, rows: list[int]) -> tuple[tuple[int, int], ...]:
    """The set bits of the rows as (row, column) pairs, row-major."""
    if n <= 64:
        out = []
        for r, row in enumerate(rows):
            while row:
                low = row & -row
                out.append((r, low.bit_length() - 1))
                row ^= low
        return tuple(out)
    rs, cs = np.nonzero(_rows_to_grid(n, rows))
    return tuple(zip(rs.tolist(), cs.tolist(), strict=True))


# --- solving ----------------------------------------------------------------------


def nullity(n: int) -> int:
    """The dimension of the null space of the n²×n² press matrix (0: every board has one solution).

    Zero exactly when the 2n×2n wrap-round system's determinant Δ is a unit (a
    gcd, milliseconds); otherwise the rank deficiency of its elimination (about
    0.2 s for n = 1000 the first time). Cached per n: the number outlives the
    system, whose cache holds only a few sizes (the explorer asks for 64).
    """
    value = _NULLITIES.get(n)
    if value is None:
        value = _NULLITIES[n] = _system(n).nullity
    return value


def null_space_basis(n: int) -> list[int]:
    """A basis of the press patterns that change nothing, each as an n²-bit int (bit n·r + c)."""
    system = _system(n)
    return [grid_to_bits(_rows_to_grid(n, rows)) for rows in system.kernel_rows]


def _particular(board: Board, system: _System) -> list[int] | None:
    """One solution as n row ints (free unknowns 0), or None if the board is unsolvable."""
    n = board.n
    if system.chase:
        green = _green_rows(board)
        chased = _chase(n, green, 0, 0)
        rhs = chased[n] | chased[n + 1] << n
    else:
        green = []
        rhs = board.green_bits
    if system.inverse is not None:
        u11, u12, u21, u22 = system.inverse
        low, high = chased[n], chased[n + 1]
        x0 = _ring_mul(u11, low, n) ^ _ring_mul(u12, high, n)
        x1 = _ring_mul(u21, low, n) ^ _ring_mul(u22, high, n)
        return _chase(n, green, x0, x1)[:n]
    rank = len(system.pivots)
    transform = system.transform
    for row in transform[rank:]:
        if (row & rhs).bit_count() & 1:
            return None
    unknowns = 0
    for row, col in zip(transform, system.pivots, strict=False):
        if (row & rhs).bit_count() & 1:
            unknowns |= 1 << col
    full = (1 << n) - 1
    if system.chase:
        return _chase(n, green, unknowns & full, unknowns >> n)[:n]
    return [unknowns >> (n * i) & full for i in range(n)]


def is_solvable(board: Board) -> bool:
    """True if some set of presses turns the board all red."""
    system = _system(board.n)
    return _particular(board, system) is not None


def _best_combination(system: _System, members: tuple[int, ...],
                      current: np.ndarray) -> tuple[int, int]:
    """Over XORs of the given null-space vectors onto ``current`` (flat bool): the best.

    Returns (combination as a bit mask over members, presses saved against
    ``current``). Ties keep the current solution (index 0 comes first).
    """
    sig = _signatures(system, members)
    signs = np.bincount(sig, weights=np.where(current, -1.0, 1.0), minlength=1 << len(members))
    # Exact: each entry is a count of cells, far below float32's 2^24 (checked there).
    spectrum = walsh_hadamard_rows(np.rint(signs).astype(np.int64)[None, :])[0]
    best = int(np.argmax(spectrum))
    # presses(c) = (n² − spectrum[c]) / 2, so the saving is half the rise.
    return best, int(spectrum[best] - spectrum[0]) // 2


def _xor_members(rows: list[int], system: _System, members: tuple[int, ...],
                 combination: int) -> list[int]:
    """rows ⊕ the chosen null-space vectors."""
    out = list(rows)
    for j, k in enumerate(members):
        if combination >> j & 1:
            out = [a ^ b for a, b in zip(out, system.kernel_rows[k], strict=True)]
    return out


def _check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled


def solve(board: Board, cancel: threading.Event | None = None,
          progress: ProgressFn | None = None, *,
          time_limit: float = fewest.DEFAULT_TIME_LIMIT,
          memory_mb: float = fewest.DEFAULT_MEMORY_MB) -> Solution:
    """The presses that turn ``board`` all red: the fewest, proven, when the search
    for them finishes within ``time_limit`` seconds and ``memory_mb`` of tables.

    Raises :class:`engine.ai.agent.Cancelled` if ``cancel`` gets set; calls
    ``progress`` with fractions 0..1 along the way. See the module docstring.
    """
    rows, minimal, method, d, lower = _solve_rows(board, cancel, progress, time_limit,
                                                  memory_mb)
    presses = None if rows is None else _rows_to_presses(board.n, rows)
    return Solution(presses, minimal, method, d, lower)


def solve_moves(board: Board, cancel: threading.Event | None = None,
                progress: ProgressFn | None = None) -> list[tuple[int, int]] | None:
    """The descriptor's ``solve`` hook: the presses that turn ``board`` all red, in
    row-major order (any order does: presses commute), or None if none do."""
    presses = solve(board, cancel, progress).presses
    return None if presses is None else list(presses)


@dataclass(frozen=True, eq=False)
class GridSolution:
    """A solver's answer as a grid: what :func:`solve` finds, without a tuple per press.

    ``grid``: an n×n read-only bool array, True where a button is to be pressed, or
    None when the board has no solution; ``count``: how many Trues. ``minimal``,
    ``method``, ``nullity`` and ``lower_bound`` as in :class:`Solution`. A 1000×1000
    solution is about 500,000 presses: 1 MB here, against ~40 MB (and ~0.1-0.2 s to
    free) as tuples.
    """

    grid: np.ndarray | None
    count: int
    minimal: bool
    method: str
    nullity: int
    lower_bound: int | None = None

    def cells(self) -> Iterator[tuple[int, int]]:
        """The presses as (row, column), row-major, read off the grid a block at a time.

        Lazy, so taking the first few (a hint, a capped list) stops early instead of
        listing all ~500,000 presses of a 1000×1000 solution. Nothing when unsolvable.
        """
        grid = self.grid
        if grid is None:
            return
        step = max(1, _CELL_BLOCK // grid.shape[1])
        for top in range(0, grid.shape[0], step):
            rows, cols = np.nonzero(grid[top:top + step])
            yield from zip((rows + top).tolist(), cols.tolist(), strict=True)

    def __contains__(self, cell: object) -> bool:
        """Whether ``cell`` (a (row, column) pair) is one of the presses."""
        grid = self.grid
        if grid is None or not isinstance(cell, tuple) or len(cell) != 2:
            return False
        r, c = cell
        n = grid.shape[0]
        return 0 <= r < n and 0 <= c < n and bool(grid[r, c])


def solve_grid(board: Board, cancel: threading.Event | None = None,
               progress: ProgressFn | None = None, *,
               time_limit: float = fewest.DEFAULT_TIME_LIMIT,
               memory_mb: float = fewest.DEFAULT_MEMORY_MB) -> GridSolution:
    """:func:`solve`'s answer for ``board`` as an n×n bool grid (see :class:`GridSolution`).

    Same presses, same ``minimal``/``method``/``lower_bound``; cancelling, progress and
    limits as in :func:`solve`.
    """
    rows, minimal, method, d, lower = _solve_rows(board, cancel, progress, time_limit,
                                                  memory_mb)
    if rows is None:
        return GridSolution(None, 0, minimal, method, d, lower)
    # A copy of its own: _rows_to_grid's view would keep the padded unpacked bits alive.
    grid = np.ascontiguousarray(_rows_to_grid(board.n, rows))
    # Read-only: a grid is one solution's for good, so holders may cache by its identity.
    grid.flags.writeable = False
    return GridSolution(grid, int(np.count_nonzero(grid)), minimal, method, d, lower)


def _grid_to_rows(grid: np.ndarray) -> list[int]:
    """An n×n bool grid as n row ints (bit c = column c)."""
    packed = np.packbits(grid, axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]


def null_space(n: int) -> fewest.NullSpace:
    """The null space of size n as :mod:`games.buttons.fewest` reads it (vectors built
    on demand from the cached system)."""
    system = _system(n)
    return fewest.NullSpace(n, system.nullity,
                            lambda k: _rows_to_grid(n, system.kernel_rows[k]))


# Recent minima proven by the search (nullity above MAX_EXHAUSTIVE_NULLITY), by board:
# the game asks again after every press, and a press along a proven solution is answered
# at once (see _along_proven). A few boards' rows: at most ~125 kB each (1000×1000).
_PROVEN: OrderedDict[tuple[int, int], list[int]] = OrderedDict()
_PROVEN_KEPT = 4
_PROVEN_LOCK = threading.Lock()


def _along_proven(board: Board) -> list[int] | None:
    """A proven fewest solution of ``board`` if it is a recently proven board after one
    press of that board's solution: the solution without the press.

    Proof: a press changes the fewest presses by at most one (add the press to any
    solution of one board to get a solution of the other), so the new board needs at
    least m − 1, and the old solution less the press is m − 1 presses.
    """
    n = board.n
    if n < 3:
        return None
    with _PROVEN_LOCK:
        recent = [(bits, rows) for (size, bits), rows in _PROVEN.items() if size == n]
    for bits, rows in recent:
        diff = bits ^ board.bits
        if diff.bit_count() != 5:
            continue
        while diff:  # the press is the cell whose five-cell plus is the difference
            low = diff & -diff
            r, c = divmod(low.bit_length() - 1, n)
            if press_mask(n, r, c) == bits ^ board.bits:
                if rows[r] >> c & 1:
                    out = list(rows)
                    out[r] ^= 1 << c
                    return out
                break
            diff ^= low
    return None


def _remember_proven(board: Board, rows: list[int]) -> None:
    with _PROVEN_LOCK:
        _PROVEN[(board.n, board.bits)] = rows
        _PROVEN.move_to_end((board.n, board.bits))
        while len(_PROVEN) > _PROVEN_KEPT:
            _PROVEN.popitem(last=False)


def _solve_rows(board: Board, cancel: threading.Event | None, progress: ProgressFn | None,
                time_limit: float, memory_mb: float
                ) -> tuple[list[int] | None, bool, str, int, int | None]:
    """The solution as n row ints (None: unsolvable), ``minimal``, ``method``, nullity
    and a proven lower bound on the presses (None: unsolvable)."""
    n = board.n

    def report(fraction: float) -> None:
        if progress is not None:
            progress(fraction)

    def scaled(low: float, high: float) -> ProgressFn:
        return lambda f: report(low + (high - low) * f)

    _check_cancel(cancel)
    report(0.0)
    system = _system(n, cancel, scaled(0.0, 0.6) if progress else None)
    d = system.nullity
    _check_cancel(cancel)
    report(0.6)
    rows = _particular(board, system)
    if rows is None:
        report(1.0)
        return None, False, "unsolvable: no set of presses turns this board all red", d, None
    if d == 0:
        report(1.0)
        return (rows, True, Phrase(N_("unique solution")), d,
                sum(row.bit_count() for row in rows))
    report(0.7)
    if d <= MAX_EXHAUSTIVE_NULLITY:
        members = tuple(range(d))
        current = _rows_to_grid(n, rows).ravel()
        combination, _ = _best_combination(system, members, current)
        rows = _xor_members(rows, system, members, combination)
        report(1.0)
        how = Phrase(N_("fewest presses: exhaustive over 2^{d} null-space combinations"), d=d)
        return (rows, True, how, d, sum(row.bit_count() for row in rows))
    along = _along_proven(board)
    if along is not None:
        _remember_proven(board, along)
        report(1.0)
        return (along, True, Phrase(N_("fewest presses: proven (one press along a proven "
                                       "fewest solution of the 2^{d} null-space combinations)"),
                                    d=d), d,
                sum(row.bit_count() for row in along))
    # A good start first (block descent: fast, but given at most half the time limit on
    # the biggest null spaces), then the search proves or bounds it in the time left.
    began = time.monotonic()
    rows, _ = _block_descent(system, rows, cancel, scaled(0.7, 0.75) if progress else None,
                             deadline=began + time_limit * _DESCENT_SHARE)
    if not any(rows):
        report(1.0)
        return rows, True, Phrase(N_("already solved: no presses needed")), d, 0
    space = fewest.NullSpace(n, d, lambda k: _rows_to_grid(n, system.kernel_rows[k]))
    found = fewest.search(space, _rows_to_grid(n, rows), time_limit=time_limit,
                          started=began, memory_mb=memory_mb, cancel=cancel,
                          progress=scaled(0.75, 1.0) if progress else None)
    report(1.0)
    rows = _grid_to_rows(found.grid)
    if found.proven:
        _remember_proven(board, rows)
    return rows, found.proven, found.method, d, found.lower_bound


def _block_descent(system: _System, rows: list[int], cancel: threading.Event | None,
                   progress: ProgressFn | None, deadline: float | None = None
                   ) -> tuple[list[int], int]:
    """Lower the press count by exact minimisation over one block of basis vectors at a time.

    Two partitions of the basis into blocks of 16 (the second shifted by 8, so
    pairs split by one are together in the other) are swept alternately until a
    sweep of both improves nothing (or after a few sweeps, or at ``deadline``, a
    time.monotonic() value: d = 1280 takes ~16 s otherwise). Each step can only
    lower the count. Returns the rows and the number of improving steps.
    """
    n, d = system.n, system.nullity
    partitions = []
    for first in (_BLOCK, _BLOCK // 2):
        edges = [0, *range(first, d, _BLOCK), d]
        partitions.append([tuple(range(a, b)) for a, b in zip(edges, edges[1:], strict=False)])
    current = _rows_to_grid(n, rows).ravel()
    steps = 0
    total = _MAX_SWEEPS * sum(len(p) for p in partitions)
    done = 0
    for _ in range(_MAX_SWEEPS):
        improved = False
        for partition in partitions:
            for members in partition:
                _check_cancel(cancel)
                if deadline is not None and time.monotonic() > deadline:
                    return rows, steps
                combination, saving = _best_combination(system, members, current)
                if saving > 0:
                    rows = _xor_members(rows, system, members, combination)
                    current = _rows_to_grid(n, rows).ravel()
                    improved = True
                    steps += 1
                done += 1
                if progress is not None:
                    progress(done / total)
        if not improved:
            break
    return rows, steps


# --- the source's method: breadth-first search over all 2^16 boards --------------


_FULL_4X4 = (1 << 16) - 1


def build_graph_4x4() -> np.ndarray:
    """The source's graph: for each of the 2^16 4×4 boards, the 16 boards one press away.

    ``graph[s, 4·r + c]`` is board s after pressing (r, c).
    """
    masks = np.array([press_mask(4, r, c) for r in range(4) for c in range(4)], dtype=np.int32)
    return np.arange(1 << 16, dtype=np.int32)[:, None] ^ masks[None, :]


def bfs_solve_4x4(board: Board) -> list[tuple[int, int]]:
    """The source document's solver: BFS in the graph of all 4×4 boards to 65535.

    Builds the graph (each call, as the source's program does) and searches it
    breadth-first from the board with :func:`engine.ai.bfs.bfs_solve`, a board being its
    16-bit code and a move an edge 4·r + c: a shortest list of clicks, in the order found.
    """
    if board.n != 4:
        raise ValueError(f"the BFS solver handles 4×4 boards only, got {board.n}×{board.n}")
    graph = build_graph_4x4().tolist()
    path = bfs_solve(board.bits, successors=lambda state: enumerate(graph[state]),
                     is_goal=lambda state: state == _FULL_4X4, max_states=1 << 16)
    assert path is not None, "4 is a good size: every 4×4 board is solvable"
    return [divmod(edge, 4) for edge in path]


def bfs_distances_4x4() -> np.ndarray:
    """Fewest presses for every 4×4 board (index = code), by one BFS from the solved board.

    Presses are involutions, so the graph is undirected and the distance from
    the solved board to s is the distance from s to the solved board. The search
    goes level by level over the same graph, with numpy. Unreachable: −1.
    """
    graph = build_graph_4x4()
    dist = np.full(1 << 16, -1, dtype=np.int16)
    dist[_FULL_4X4] = 0
    frontier = np.array([_FULL_4X4], dtype=np.int32)
    level = 0
    while frontier.size:
        level += 1
        reached = np.unique(graph[frontier].ravel())
        reached = reached[dist[reached] < 0]
        dist[reached] = level
        frontier = reached
    return dist


__all__ = [
    "MAX_EXHAUSTIVE_NULLITY",
    "MAX_N",
    "GridSolution",
    "Solution",
    "bfs_distances_4x4",
    "bfs_solve_4x4",
    "build_graph_4x4",
    "clear_cache",
    "is_solvable",
    "null_space",
    "null_space_basis",
    "nullity",
    "solve",
    "solve_grid",
]
