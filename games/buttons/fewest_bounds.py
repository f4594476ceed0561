"""Fewest presses: the tables and lower bounds of sub-lattice classes (see
:mod:`games.buttons.fewest` for the whole search and the ideas).

The null space C of a size is invariant under the torus's translations. Cut the board
into the translates ("classes") of the sub-lattice aZ × bZ (a and b divide n): class (s, t)
holds the cells (s + a·i, t + b·j). Every class sees the same restricted code C|class (a
translate of a null-space vector is one too), of some rank r, often far below the nullity
d: the 2×2 classes of a 20×20 board have r = 16 of d = 32, the 4×4 classes of 1000×1000
r = 16 of 64. On one class a solution's presses are s|class ⊕ one of 2^r codewords; a
codeword is named by its bits u at r pivot cells (the reduced basis has a 1 at its own
pivot and 0 at the others), and one Walsh–Hadamard transform of size 2^r weighs them all:
a table f(u) of the class's presses. Summed over the classes they give every solution's
presses; the sum of the tables' minima is a lower bound on all of them.

Also here: the plus bound (needs no null space), the search's budget (time limit, cancel,
progress) and the null-space view it reads. No pygame here.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.ai.agent import Cancelled
from engine.core.phrase import N_, Phrase

# Tables of more than 2^22 entries are never built, whatever the memory cap: one
# transform of that size already takes ~0.2 s, and the searches they would feed could not
# finish in any reasonable time.
MAX_TABLE_BITS = 22
# Seconds per butterfly of a transform and per board cell of a bincount, for planning
# (measured: a 2^20 transform, 20 levels, ~15 ms; a bincount ~10 ns a cell).
SECONDS_PER_BUTTERFLY = 1e-9
SECONDS_PER_CELL = 2e-8
# Bytes a bound's step holds per cell (int64 index, float64 sign) and per table entry
# (float64 count, two float32 buffers of the transform, the int32 spectrum).
BOUND_BYTES_PER_CELL = 17
BOUND_BYTES_PER_ENTRY = 24
# Classes up to this many cells get the exact estimate of their bound (big-int binomials).
_EXACT_ESTIMATE_CELLS = 2000

ProgressFn = Callable[[float], None]


@dataclass(frozen=True)
class NullSpace:
    """What the search needs of one size's null space: ``vector(k)`` is basis vector k
    (0 ≤ k < d) as an n×n bool grid, True where it presses."""

    n: int
    d: int
    vector: Callable[[int], np.ndarray]


class Budget:
    """The time limit, the cancel event and the progress callback of one search.

    Every step of the search asks :meth:`left` (and stops or plans by it) and calls
    :meth:`check` (raising Cancelled); tests may override :meth:`left`."""

    def __init__(self, time_limit: float, cancel: threading.Event | None,
                 progress: ProgressFn | None, started: float | None = None) -> None:
        """``time_limit`` seconds from ``started`` (a time.monotonic() value; default
        now)."""
        self.limit = time_limit
        self.deadline = (time.monotonic() if started is None else started) + time_limit
        self.cancel = cancel
        self._progress = progress
        self._reported = 0.0

    def check(self) -> None:
        """Raise Cancelled if the cancel event is set."""
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled

    def left(self) -> float:
        """Seconds until the time limit (negative once past it)."""
        return self.deadline - time.monotonic()

    def progress(self, fraction: float) -> None:
        """Report progress 0..1, never backwards (the searches' estimates of the work left
        change as they go)."""
        fraction = min(1.0, max(self._reported, fraction))
        if self._progress is not None and fraction > self._reported:
            self._reported = fraction
            self._progress(fraction)


# --- small GF(2) helpers on Python ints -----------------------------------------------


def _reduced_basis(vectors: list[int], cap: int) -> list[int] | None:
    """The reduced row echelon basis of the span of ``vectors`` (each row's top bit is its
    pivot, and no other row has that bit), or None once the rank passes ``cap``."""
    by_top: dict[int, int] = {}
    for v in vectors:
        while v:
            top = v.bit_length() - 1
            row = by_top.get(top)
            if row is None:
                by_top[top] = v
                if len(by_top) > cap:
                    return None
                break
            v ^= row
    rows = [by_top[top] for top in sorted(by_top)]
    # Clear each pivot from the rows above it (only rows with a higher top bit can hold it).
    for i, row in enumerate(rows):
        pivot = 1 << (row.bit_length() - 1)
        for j in range(i + 1, len(rows)):
            if rows[j] & pivot:
                rows[j] ^= row
    return rows


# The first levels of a transform are one matrix product with this Hadamard matrix
# (BLAS); the rest are butterflies on contiguous halves. ~3× faster than butterflies only.
_BASE_BITS = 6
_HADAMARD: dict[int, np.ndarray] = {}
# float32 holds every integer below 2^24 exactly: a transform's partial sums stay within
# the row's absolute sum, a class's cell count (at most 10^6 cells on the biggest board).
_EXACT_FLOAT32 = 1 << 24


def _hadamard(bits: int) -> np.ndarray:
    """The 2^bits × 2^bits Hadamard matrix (Sylvester's order), float32, cached."""
    matrix = _HADAMARD.get(bits)
    if matrix is None:
        matrix = np.ones((1, 1), dtype=np.float32)
        for _ in range(bits):
            matrix = np.block([[matrix, matrix], [matrix, -matrix]])
        _HADAMARD[bits] = matrix
    return matrix


def walsh_hadamard_rows(values: np.ndarray) -> np.ndarray:
    """Each row of a (rows, 2^r) array of integers → its Walsh–Hadamard transform,
    out[u] = Σ_a values[a]·(−1)^⟨a, u⟩, as int32.

    Exact in float32 while each row's absolute sum is below 2^24 (checked).
    """
    rows, size = values.shape
    if float(np.abs(values).sum(axis=1, dtype=np.float64).max(initial=0)) >= _EXACT_FLOAT32:
        raise ValueError("row sums too large for an exact float32 transform")
    bits = size.bit_length() - 1
    base = min(_BASE_BITS, bits)
    x = values.astype(np.float32).reshape(-1, 1 << base) @ _hadamard(base)
    x = x.reshape(rows, size)
    y = np.empty_like(x)
    half = 1 << base
    while half < size:
        a, b = x.reshape(rows, -1, 2, half), y.reshape(rows, -1, 2, half)
        np.add(a[:, :, 0], a[:, :, 1], out=b[:, :, 0])
        np.subtract(a[:, :, 0], a[:, :, 1], out=b[:, :, 1])
        x, y = y, x
        half *= 2
    return x.astype(np.int32)


# --- sub-lattices and their class tables -------------------------------------------------


@dataclass(frozen=True)
class Lattice:
    """The classes of the sub-lattice aZ × bZ: class (s, t) (index s·b + t) holds the cells
    (s + a·i, t + b·j), in order i·(n/b) + j. ``rank``: of the null space restricted to a
    class; ``signature``: per cell of a class, its bits in the reduced basis rows (bit j:
    row j), so a codeword u presses the cells whose ⟨signature, u⟩ is odd; ``pivots``:
    the class positions of the rows' pivots (u's bit j = the codeword at pivot j)."""

    n: int
    a: int
    b: int
    rank: int
    signature: np.ndarray
    pivots: tuple[int, ...]

    @property
    def count(self) -> int:
        """The number of classes."""
        return self.a * self.b

    @property
    def size(self) -> int:
        """Cells per class."""
        return (self.n // self.a) * (self.n // self.b)

    def classes(self, grid: np.ndarray) -> np.ndarray:
        """``grid`` (n×n) as a (classes, cells per class) array."""
        n, a, b = self.n, self.a, self.b
        return grid.reshape(n // a, a, n // b, b).transpose(1, 3, 0, 2).reshape(a * b, -1)

    def cell(self, index: int, position: int) -> tuple[int, int]:
        """The board cell of class ``index`` at ``position``."""
        s, t = divmod(index, self.b)
        i, j = divmod(position, self.n // self.b)
        return s + self.a * i, t + self.b * j

    def describe(self) -> str:
        """In words, e.g. "2×2 sub-lattice" or "rows"."""
        if self.a == self.n and self.b == 1:
            return Phrase(N_("rows"))
        if self.a == 1 and self.b == self.n:
            return Phrase(N_("columns"))
        return Phrase(N_("{a}×{b} sub-lattice"), a=self.a, b=self.b)

    def tables(self, grid: np.ndarray, members: np.ndarray | None = None) -> np.ndarray:
        """f(u) for the classes ``members`` (default all) of the solution ``grid``:
        a (len(members), 2^rank) int32 array of the presses in the class for each u."""
        cls = self.classes(grid)
        if members is not None:
            cls = cls[members]
        k = cls.shape[0]
        width = 1 << self.rank
        index = (np.arange(k, dtype=np.int64)[:, None] << self.rank) + self.signature[None, :]
        signs = np.bincount(index.ravel(), weights=np.where(cls, -1.0, 1.0).ravel(),
                            minlength=k * width)
        spectrum = walsh_hadamard_rows(signs.reshape(k, width))
        # Each cell counts +1 unpressed, −1 pressed: presses = (cells − spectrum) / 2.
        np.subtract(self.size, spectrum, out=spectrum)
        spectrum //= 2
        return spectrum

    def bound(self, grid: np.ndarray, budget: Budget, memory: int) -> int:
        """The sum over the classes of each table's minimum: a lower bound on every
        solution's presses (``grid`` is one). Tables are built as many classes at a time
        as ``memory`` bytes hold (at least one)."""
        per_class = (self.size * BOUND_BYTES_PER_CELL
                     + (1 << self.rank) * BOUND_BYTES_PER_ENTRY)
        per_step = max(1, memory // per_class)
        total = 0
        for first in range(0, self.count, per_step):
            budget.check()
            members = np.arange(first, min(self.count, first + per_step))
            total += int(self.tables(grid, members).min(axis=1).sum())
        return total

    def expected_bound(self) -> float:
        """Roughly the bound a random board gets (to rank the sub-lattices before paying
        for them): the classes times the expected least of 2^rank independent
        Binomial(size, 1/2) draws (a class's codeword translates, taken as random)."""
        return self.count * _expected_minimum(self.size, self.rank)

    def cost(self) -> float:
        """Seconds one bound is expected to take (for planning)."""
        return (self.count * (1 << self.rank) * max(1, self.rank) * SECONDS_PER_BUTTERFLY
                + self.n * self.n * SECONDS_PER_CELL)


def _expected_minimum(size: int, rank: int) -> float:
    """E[min of 2^rank independent Binomial(size, 1/2) draws] = Σ_w P(draw > w)^(2^rank);
    the binomial's distribution exact up to _EXACT_ESTIMATE_CELLS, normal beyond."""
    if rank >= size:
        return 0.0  # every pattern of the class is a codeword's translate: minimum 0
    draws = float(1 << rank)
    if size <= _EXACT_ESTIMATE_CELLS:
        cdf, term, total = [], 1, 0
        for w in range(size + 1):
            total += term
            cdf.append(total / 2**size)
            term = term * (size - w) // (w + 1)
        first = 0
    else:
        sigma = math.sqrt(size) / 2
        first = max(0, int(size / 2 - 12 * sigma))
        last = min(size, int(size / 2 + 12 * sigma))
        cdf = [0.5 * math.erfc(-(w + 0.5 - size / 2) / (sigma * math.sqrt(2)))
               for w in range(first, last + 1)]
    # Below ``first`` every draw is above w with probability ~1.
    return first + sum(math.exp(draws * math.log1p(-f)) if f < 1 else 0.0 for f in cdf)


def _candidates(n: int) -> list[tuple[int, int]]:
    """The sub-lattices tried: square ones (q | n, q ≥ 2), rows and columns."""
    out = [(q, q) for q in range(2, n + 1) if n % q == 0]
    if n > 1:
        out += [(n, 1), (1, n)]
    return out


def _restrict(grid: np.ndarray, a: int, b: int) -> int:
    """Class (0, 0) of the sub-lattice aZ × bZ of ``grid``, as an int (bit = position)."""
    n = grid.shape[0]
    bits = grid.reshape(n // a, a, n // b, b)[:, 0, :, 0].ravel()
    return int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")


def _lattice(n: int, a: int, b: int, rows: list[int]) -> Lattice:
    size = (n // a) * (n // b)
    signature = np.zeros(size, dtype=np.uint32)
    pivots = []
    for j, row in enumerate(rows):
        raw = np.frombuffer(row.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
        bits = np.unpackbits(raw, count=size, bitorder="little")
        signature |= bits.astype(np.uint32) << np.uint32(j)
        pivots.append(row.bit_length() - 1)
    return Lattice(n, a, b, len(rows), signature, tuple(pivots))


# Per n (and the table cap they were computed with): the sub-lattices whose classes have
# rank within the cap. A few sizes' worth; λ arrays are 4 bytes a cell at most.
_LATTICES: OrderedDict[tuple[int, int], list[Lattice]] = OrderedDict()
_CACHE_SIZE = 6
_LOCK = threading.Lock()


def clear_cache() -> None:
    """Forget the per-size sub-lattices."""
    with _LOCK:
        _LATTICES.clear()


def _remember(cache: OrderedDict, key: tuple[int, int], value: object) -> None:
    with _LOCK:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > _CACHE_SIZE:
            cache.popitem(last=False)


def lattices(space: NullSpace, cap: int, budget: Budget | None = None) -> list[Lattice]:
    """The sub-lattices of ``space``'s size whose classes have rank at most ``cap``.

    One pass over the basis vectors (each built once); a candidate is dropped as soon as
    its rank passes the cap. Cached per size; raises Cancelled, and returns what it has
    (uncached) if the time limit runs out.
    """
    key = (space.n, cap)
    with _LOCK:
        found = _LATTICES.get(key)
    if found is not None:
        return found
    n = space.n
    alive: dict[tuple[int, int], dict[int, int]] = {ab: {} for ab in _candidates(n)}
    complete = True
    for k in range(space.d):
        if budget is not None:
            budget.check()
            if budget.left() <= 0:
                complete = False
                break
        grid = space.vector(k)
        for ab in list(alive):
            v = _restrict(grid, *ab)
            by_top = alive[ab]
            while v:
                top = v.bit_length() - 1
                row = by_top.get(top)
                if row is None:
                    by_top[top] = v
                    break
                v ^= row
            if len(by_top) > cap:
                del alive[ab]
    out = []
    for (a, b), by_top in alive.items():
        rows = _reduced_basis(list(by_top.values()), cap)
        assert rows is not None
        out.append(_lattice(n, a, b, rows))
    if complete:
        _remember(_LATTICES, key, out)
        return out
    return []  # an incomplete pass proves no rank


# --- a bound for every size: disjoint pluses -----------------------------------------------


def plus_bound(solution: np.ndarray) -> int:
    """A lower bound on every solution's presses from one, for n ≥ 3 (0 below).

    A button flips once per press on its plus (itself and its four neighbours), so every
    solution presses an odd number of buttons on the plus of each button that must flip,
    at least one. Pluses centred on (i, j) with i + 2j ≡ k (mod 5) are disjoint (their
    centres are 3 or more steps apart); away from the edges, unless 5 divides n, so that
    none wraps round onto another. The best k counts. Weak (about a tenth of the board)
    but it needs no null space: the fallback when no sub-lattice has a small rank.
    """
    n = solution.shape[0]
    if n < 3:
        return 0
    flips = solution.copy()
    for shift, axis in ((1, 0), (-1, 0), (1, 1), (-1, 1)):
        flips ^= np.roll(solution, shift, axis=axis)
    i, j = np.indices((n, n))
    inside = np.ones((n, n), dtype=bool) if n % 5 == 0 else \
        (i >= 1) & (i <= n - 2) & (j >= 1) & (j <= n - 2)
    lattice = (i + 2 * j) % 5
    return max(int(np.count_nonzero(flips & inside & (lattice == k))) for k in range(5))
