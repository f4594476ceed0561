"""Fewest presses on boards with a big null space: a proven minimum, or proven bounds.

The solutions of a board are the coset s ⊕ C, with s any one solution and C the null
space of the press matrix (dimension d, see :mod:`games.buttons.solver`); the fewest
presses is the minimum weight of that coset. The solver weighs all 2^d combinations at
once for d ≤ 20; this module takes over above that, from the solver's best start.

The building block (:mod:`games.buttons.fewest_bounds`): cut the board into the classes
of a sub-lattice aZ × bZ; C restricted to a class has a small rank r, so one transform of
size 2^r gives a table f of the class's presses for each of its 2^r codewords, and every
solution's presses are the sum over the classes of f at the solution's coordinates.

* **Branch and bound over two classes** (exact). For even n the 2×2 classes often have
  r = d/2, and two of them together name every solution: their 2r pivot cells' null-space
  signatures are independent, so a solution ↔ (u_A, u_B), and the other two classes'
  coordinates are linear in (u_A, u_B) (XORs of two 2^r tables). Its presses are
  f_A(u_A) + f_B(u_B) + f_C(·) + f_D(·) ≥ f_A(u_A) + f_B(u_B) + min f_C + min f_D. Pairs
  are weighed exactly (four table look-ups each), in rounds of increasing level
  L = f_A + f_B; once L + min f_C + min f_D reaches the best found, no pair left can
  beat it: the best is the minimum. Stopped early, every pair up to the last finished
  round's level has been weighed, so min(best, L + 1 + min f_C + min f_D) is a proven
  lower bound, rising as the search goes. 20×20 (d = 32) takes ~0.1-0.5 s.
* **Exhaustive in slices** (exact), when there are no such classes and d is in the
  mid-twenties: the 2^d combinations weighed 2^20 at a time, one transform over 20 basis
  vectors per combination of the others (Gray code order: one XOR between slices);
  started only if it can finish in the time left.
* **Bounds** otherwise: the best of the sub-lattices' bounds (sum of each class table's
  minimum) and the plus bound, with the best solution found.

Bounded: a time limit (the best found and the best bound are returned when it runs out;
a search predicted not to finish in the time left is not started, or abandoned once it
has run a tenth of the limit), a memory cap (tables that would not fit are not built; the
pair search's ~64 bytes per table entry is the largest user) and a cancel event (checked
between steps of at most ~2^20 pairs or one transform). No pygame here.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from engine.core.phrase import N_, Number, Phrase
from games.buttons.fewest_bounds import (
    BOUND_BYTES_PER_ENTRY,
    MAX_TABLE_BITS,
    SECONDS_PER_BUTTERFLY,
    SECONDS_PER_CELL,
    Budget,
    Lattice,
    NullSpace,
    ProgressFn,
    lattices,
    plus_bound,
    walsh_hadamard_rows,
)
from games.buttons.fewest_bounds import clear_cache as _clear_lattices
from games.buttons.search_limits import DEFAULT_MEMORY_MB, DEFAULT_TIME_LIMIT

# The exhaustive slices' transform (2^20 entries: a few 4 MB buffers, ~15 ms).
SLICE_BITS = 20
# Pairs weighed per numpy step in the branch and bound (a few 4 MB temporaries).
_CHUNK = 1 << 20
# Bytes per table entry the pair search holds at its peak (four int32 tables, four uint32
# coordinate tables, two int32 orders and a sorted copy, one class's transform buffers),
# and what its steps add (a chunk's index and press temporaries).
_PAIR_BYTES_PER_ENTRY = 64
_PAIR_FIXED_BYTES = 32 * 2**20
# Pairs per second assumed before the first measurement (measured ~6·10^7).
_PAIR_RATE = 3e7


@dataclass(frozen=True)
class Fewest:
    """The search's answer: ``grid`` the presses (n×n bool), ``count`` how many,
    ``lower_bound`` a proven lower bound on every solution's presses (``count`` when the
    minimum is proven), ``method`` how, in words."""

    grid: np.ndarray
    count: int
    lower_bound: int
    method: str

    @property
    def proven(self) -> bool:
        """Whether no solution has fewer presses."""
        return self.lower_bound >= self.count


# --- small GF(2) helpers on Python ints -----------------------------------------------


def _inverse(rows: list[int], size: int) -> list[int] | None:
    """The inverse of a size×size GF(2) matrix (row i: bit j = entry (i, j)), or None."""
    work = [row | 1 << (size + i) for i, row in enumerate(rows)]
    for col in range(size):
        pivot = next((i for i in range(col, size) if work[i] >> col & 1), None)
        if pivot is None:
            return None
        work[col], work[pivot] = work[pivot], work[col]
        for i in range(size):
            if i != col and work[i] >> col & 1:
                work[i] ^= work[col]
    return [row >> size for row in work]


def _parity(x: int) -> int:
    return x.bit_count() & 1


def _span_table(columns: list[int]) -> np.ndarray:
    """For every u < 2^len(columns): the XOR of the columns named by u's bits (uint32)."""
    table = np.zeros(1, dtype=np.uint32)
    for col in columns:
        table = np.concatenate((table, table ^ np.uint32(col)))
    return table


# Per (n, a, b): the pair search's plan for classes a and b (None: they do not name every
# solution). Its tables are 16·2^rank bytes (1 MB for 20×20): kept within a byte budget.
# Per n: the 2×2 classes' pivot signatures (4·rank ints of d bits).
_PLANS: OrderedDict[tuple[int, int, int], PairPlan | None] = OrderedDict()
_PIVOTS: OrderedDict[int, list[list[int]]] = OrderedDict()
_PLANS_BUDGET = 64 * 2**20
_PIVOTS_KEPT = 8
_PLANS_LOCK = threading.Lock()


def _plan_bytes(plan: PairPlan | None) -> int:
    return 0 if plan is None else sum(t.nbytes for t in (*plan.low, *plan.high))


def class_tables(lattice: Lattice, grid: np.ndarray) -> list[np.ndarray]:
    """Every class's table for the solution ``grid``, one class at a time (the
    transforms' buffers are freed between classes)."""
    return [lattice.tables(grid, np.array([c]))[0] for c in range(lattice.count)]


def _cached_plan(space: NullSpace, lattice: Lattice, a: int, b: int) -> PairPlan | None:
    """pair_plan, cached per size and pair."""
    key = (space.n, a, b)
    with _PLANS_LOCK:
        if key in _PLANS:
            _PLANS.move_to_end(key)
            return _PLANS[key]
        signatures = _PIVOTS.get(space.n)
    if signatures is None:
        signatures = pivot_signatures(space, lattice)
    plan = pair_plan(space, lattice, a, b, signatures)
    with _PLANS_LOCK:
        _PIVOTS[space.n] = signatures
        while len(_PIVOTS) > _PIVOTS_KEPT:
            _PIVOTS.popitem(last=False)
        _PLANS[key] = plan
        while len(_PLANS) > 1 and sum(_plan_bytes(p) for p in _PLANS.values()) > _PLANS_BUDGET:
            _PLANS.popitem(last=False)
    return plan


def clear_cache() -> None:
    """Forget the per-size sub-lattices and pair plans."""
    _clear_lattices()
    with _PLANS_LOCK:
        _PLANS.clear()
        _PIVOTS.clear()


# --- branch and bound over two classes ----------------------------------------------------


@dataclass(frozen=True)
class PairPlan:
    """Two 2×2 classes ``a`` and ``b`` that name every solution: coordinate maps for the
    other two classes, ``others``.

    ``inverse``: row i = the basis coefficient c_i as a parity of (u_A | u_B << r);
    ``low[o]``/``high[o]``: class ``others[o]``'s coordinates as tables of u_A and u_B
    (XOR the two)."""

    lattice: Lattice
    a: int
    b: int
    others: tuple[int, int]
    inverse: tuple[int, ...]
    low: tuple[np.ndarray, np.ndarray]
    high: tuple[np.ndarray, np.ndarray]


def pivot_signatures(space: NullSpace, lattice: Lattice) -> list[list[int]]:
    """For each class of ``lattice``, its pivot cells' null-space signatures (bit k: the
    cell's bit in basis vector k): u_j = ⟨signature_j, c⟩ for the solution s ⊕ Σ c_k v_k."""
    grids = [space.vector(k) for k in range(space.d)]
    return [[sum(int(grids[k][lattice.cell(c, p)]) << k for k in range(space.d))
             for p in lattice.pivots] for c in range(lattice.count)]


def pair_plan(space: NullSpace, lattice: Lattice, a: int, b: int,
              signatures: list[list[int]] | None = None) -> PairPlan | None:
    """The plan for classes ``a`` and ``b`` of ``lattice`` (2×2 classes, rank d/2), or
    None if together they do not determine the solution."""
    r, d = lattice.rank, space.d
    sig = pivot_signatures(space, lattice) if signatures is None else signatures
    inverse = _inverse(sig[a] + sig[b], d)
    if inverse is None:
        return None
    others = tuple(c for c in range(4) if c not in (a, b))
    low, high = [], []
    for c in others:
        # Pivot j of class c reads ⟨sig, coefficients⟩ = parity(phi_j & u).
        phis = []
        for s in sig[c]:
            phi = 0
            for i in range(d):
                if s >> i & 1:
                    phi ^= inverse[i]
            phis.append(phi)
        low.append(_span_table([sum((phi >> i & 1) << j for j, phi in enumerate(phis))
                                for i in range(r)]))
        high.append(_span_table([sum((phi >> (r + i) & 1) << j for j, phi in enumerate(phis))
                                 for i in range(r)]))
    return PairPlan(lattice, a, b, (others[0], others[1]), tuple(inverse),
                    (low[0], low[1]), (high[0], high[1]))


def pairs_to_weigh(tables: list[np.ndarray], a: int, b: int, best: int) -> int:
    """How many pairs the search over classes ``a`` and ``b`` weighs at most from a best
    of ``best``: those with f_a + f_b + (the other two tables' minima) < best."""
    rest = sum(int(tables[c].min()) for c in range(4) if c not in (a, b))
    low_a, low_b = int(tables[a].min()), int(tables[b].min())
    goal = best - rest - 1 - low_a - low_b  # levels counted from the lowest pair
    if goal < 0:
        return 0
    # Histograms from each table's minimum (a few σ wide, not the whole 0..size: the
    # convolution is quadratic in their length).
    hist_a = np.bincount(tables[a] - low_a)[:goal + 1]
    hist_b = np.bincount(tables[b] - low_b)[:goal + 1]
    return int(np.convolve(hist_a, hist_b)[:goal + 1].sum())


@dataclass
class _Outcome:
    """A search's result: the best solution found, a proven bound, and whether it finished."""

    grid: np.ndarray
    count: int
    lower_bound: int
    finished: bool


def pair_search(space: NullSpace, plan: PairPlan, start: np.ndarray, budget: Budget,
                tables: list[np.ndarray] | None = None) -> _Outcome:
    """The branch and bound over (u_A, u_B) (see the module docstring) from ``start``.

    Pairs are weighed in rounds: round k weighs every pair whose level f_A + f_B lies in
    (T_{k−1}, T_k], each T chosen so that a round holds about as many pairs as all the
    rounds before it (so the bound rises early, and the Python work per round is one
    contiguous slice of the B values sorted by f_B for each value of f_A). A round is cut
    short when the best found makes its upper levels pointless. ``tables``: the four
    classes' tables for ``start``, if the caller has them.
    """
    lat = plan.lattice
    r = lat.rank
    if tables is None:
        tables = class_tables(lat, start)
    f_a, f_b = tables[plan.a], tables[plan.b]
    f_c, f_d = tables[plan.others[0]], tables[plan.others[1]]
    rest = int(f_c.min()) + int(f_d.min())
    low_c, low_d = plan.low
    high_c, high_d = plan.high
    best = int(np.count_nonzero(start))
    best_pair: tuple[int, int] | None = None

    order_a = np.argsort(f_a, kind="stable").astype(np.int32)
    order_b = np.argsort(f_b, kind="stable").astype(np.int32)
    sorted_b = f_b[order_b]
    top = lat.size + 1  # f values are 0 .. size
    starts_a = np.searchsorted(f_a[order_a], np.arange(top + 1))
    starts_b = np.searchsorted(sorted_b, np.arange(top + 1))
    values_a = np.flatnonzero(np.diff(starts_a))  # the values f_A takes
    values_b = np.flatnonzero(np.diff(starts_b))
    # Pairs with level ≤ base + k: below[k + 1], from the two histograms over the values
    # they take (a few σ wide, not the whole 0..size). The work left is known in advance.
    base = int(values_a[0]) + int(values_b[0])
    hist_a = np.diff(starts_a)[values_a[0]:values_a[-1] + 1]
    hist_b = np.diff(starts_b)[values_b[0]:values_b[-1] + 1]
    below = np.concatenate(([0], np.cumsum(np.convolve(hist_a, hist_b))))

    def pairs_up_to(level: int) -> int:
        return int(below[min(max(level - base + 1, 0), below.size - 1)])

    done = base - 1  # every pair of level ≤ done weighed
    weighed = 0
    began = time.monotonic()
    patience = max(1.0, budget.limit / 10)  # before judging a search hopeless

    def weigh(ia: np.ndarray, ib: np.ndarray, level_b: np.ndarray, s: int) -> None:
        """Weigh ia × ib (A values all s; ib's f_B values level_b), keeping the best."""
        nonlocal best, best_pair, weighed
        presses = f_c[low_c[ia][:, None] ^ high_c[ib][None, :]]
        presses += f_d[low_d[ia][:, None] ^ high_d[ib][None, :]]
        presses += level_b[None, :]
        flat = int(np.argmin(presses))
        if s + int(presses.flat[flat]) < best:
            best = s + int(presses.flat[flat])
            i, j = divmod(flat, ib.size)
            best_pair = (int(ia[i]), int(ib[j]))
        weighed += presses.size

    finished = False
    while True:
        goal = best - rest - 1  # the highest level that can still beat the best
        if done >= goal:
            finished = True
            break
        spent = time.monotonic() - began
        left = budget.left()
        rate = weighed / spent if weighed >= _CHUNK and spent > 0 else _PAIR_RATE
        if left <= 0 or (spent > patience and
                         (pairs_up_to(goal) - pairs_up_to(done)) / rate > left):
            break
        # This round: up to the level where the pairs double (at least a chunk's worth).
        want = pairs_up_to(done) + max(_CHUNK, weighed)
        upto = min(goal, base + int(np.searchsorted(below, want, side="left")) - 1)
        upto = max(upto, done + 1)
        total = pairs_up_to(goal)
        out_of_time = False
        for s in values_a:
            s = int(s)
            if s + int(sorted_b[0]) > min(upto, best - rest - 1):
                break  # values_a ascend: no later s has a pair left in this round
            # B values with done < s + f_B ≤ min(upto, best − rest − 1).
            high = min(upto, best - rest - 1) - s
            low = done - s
            first_b = starts_b[max(0, min(top, low + 1))]
            end_b = starts_b[max(0, min(top, high + 1))]
            if end_b <= first_b:
                continue
            group_a = order_a[starts_a[s]:starts_a[s + 1]]
            rows = max(1, _CHUNK // (end_b - first_b))
            for first in range(0, group_a.size, rows):
                budget.check()
                for lo in range(first_b, end_b, _CHUNK):
                    hi = min(end_b, lo + _CHUNK)
                    weigh(group_a[first:first + rows], order_b[lo:hi], sorted_b[lo:hi], s)
            budget.progress(weighed / max(1, total + weighed - pairs_up_to(done)))
            if budget.left() <= 0:
                out_of_time = True
                break
        if out_of_time:
            break
        done = upto  # every pair of level ≤ upto weighed (or unable to beat the best)
    lower = min(best, done + 1 + rest)
    grid = start
    if best_pair is not None:
        u = best_pair[0] | best_pair[1] << r
        coefficients = [_parity(row & u) for row in plan.inverse]
        grid = start.copy()
        for k, bit in enumerate(coefficients):
            if bit:
                grid ^= space.vector(k)
        if int(np.count_nonzero(grid)) != best:
            raise AssertionError("the pair search's tables disagree with its solution")
    return _Outcome(grid, best, lower, finished)


# --- exhaustive in slices -----------------------------------------------------------------


def slice_search(space: NullSpace, start: np.ndarray, budget: Budget,
                 low_bits: int = SLICE_BITS) -> _Outcome:
    """All 2^d combinations, 2^low_bits at a time (see the module docstring)."""
    d, n = space.d, space.n
    low_bits = min(low_bits, d)
    cells = n * n
    signature = np.zeros(cells, dtype=np.int64)
    for k in range(low_bits):
        signature |= space.vector(k).ravel().astype(np.int64) << k
    current = start.ravel().copy()
    best = int(np.count_nonzero(current))
    best_code: tuple[int, int] | None = None
    gray = 0
    slices = 1 << (d - low_bits)
    for g in range(slices):
        budget.check()
        if g:
            if budget.left() <= 0:
                return _finish_slices(space, start, best, best_code, low_bits, finished=False)
            bit = (g & -g).bit_length() - 1
            gray ^= 1 << bit
            current ^= space.vector(low_bits + bit).ravel()
        signs = np.bincount(signature, weights=np.where(current, -1.0, 1.0),
                            minlength=1 << low_bits)
        spectrum = walsh_hadamard_rows(signs.reshape(1, -1))[0]
        j = int(np.argmax(spectrum))
        presses = (cells - int(spectrum[j])) // 2
        if presses < best:
            best, best_code = presses, (gray, j)
        budget.progress((g + 1) / slices)
    return _finish_slices(space, start, best, best_code, low_bits, finished=True)


def _finish_slices(space: NullSpace, start: np.ndarray, best: int,
                   code: tuple[int, int] | None, low_bits: int, finished: bool) -> _Outcome:
    grid = start
    if code is not None:
        grid = start.copy()
        high, low = code
        for k in range(low_bits):
            if low >> k & 1:
                grid ^= space.vector(k)
        for k in range(space.d - low_bits):
            if high >> k & 1:
                grid ^= space.vector(low_bits + k)
    return _Outcome(grid, best, best if finished else 0, finished)


def slice_seconds(space: NullSpace) -> float:
    """The exhaustive slices' expected time (for planning)."""
    low_bits = min(SLICE_BITS, space.d)
    if space.d - low_bits > 60:
        return math.inf
    per_slice = ((1 << low_bits) * low_bits * SECONDS_PER_BUTTERFLY
                 + space.n * space.n * SECONDS_PER_CELL)
    return (1 << (space.d - low_bits)) * per_slice


# --- the whole search ---------------------------------------------------------------------


def search(space: NullSpace, start: np.ndarray, *, time_limit: float = DEFAULT_TIME_LIMIT,
           memory_mb: float = DEFAULT_MEMORY_MB, cancel: threading.Event | None = None,
           progress: ProgressFn | None = None, started: float | None = None) -> Fewest:
    """The fewest presses among ``start`` ⊕ the null space, proven if the search finishes.

    ``start`` (n×n bool) is a solution, the best known (the search only improves on it).
    Tries, within ``time_limit`` seconds (counted from ``started``, a time.monotonic()
    value, when the caller began earlier) and about ``memory_mb`` of tables: the branch
    and bound over two 2×2 classes, else the exhaustive slices if they can finish in
    time; then, unless proven, the best sub-lattice lower bound. Raises Cancelled if
    ``cancel`` gets set.
    """
    budget = Budget(time_limit, cancel, progress, started)
    d = space.d
    memory = int(memory_mb * 2**20)
    # The largest table one class's bound step can hold (the sub-lattices' rank cap).
    cap = max(0, min(MAX_TABLE_BITS, (memory // BOUND_BYTES_PER_ENTRY).bit_length() - 1))
    grid, best = start, int(np.count_nonzero(start))
    if best == 0:
        return Fewest(grid, 0, 0, Phrase(N_("already solved: no presses needed")))
    lower, how = 0, ""
    why = Phrase(N_("2^{d} combinations are too many to search"), d=d)
    found = lattices(space, cap, budget)
    budget.progress(0.1)

    plan, tables = None, None
    square = next((lat for lat in found if (lat.a, lat.b) == (2, 2)), None)
    if square is not None and 2 * square.rank == d and \
            (1 << square.rank) * _PAIR_BYTES_PER_ENTRY + _PAIR_FIXED_BYTES <= memory:
        # The pair of classes with the least to weigh for this board (a symmetric board
        # can need a thousand times fewer pairs with one pair than with another).
        tables = class_tables(square, start)
        pairs = sorted(itertools.combinations(range(4), 2),
                       key=lambda ab: pairs_to_weigh(tables, ab[0], ab[1], best))
        for a, b in pairs:
            plan = _cached_plan(space, square, a, b)
            if plan is not None:
                break
    if plan is not None:
        outcome = pair_search(space, plan, start, budget, tables)
        how = Phrase(N_("fewest presses: proven by branch and bound over the 2^{d} null-space "
                        "combinations"), d=d)
    elif slice_seconds(space) <= budget.left():
        outcome = slice_search(space, start, budget)
        how = Phrase(N_("fewest presses: exhaustive over 2^{d} null-space combinations"), d=d)
    else:
        outcome = None
    if outcome is not None:
        grid, best, lower = outcome.grid, outcome.count, outcome.lower_bound
        if outcome.finished:
            return Fewest(grid, best, best, how)
        why = Phrase(N_("the search would not finish within the {limit} s time limit"),
                     limit=Number(budget.limit))
    # Not proven: the best bound the pluses and the sub-lattices give, each sub-lattice
    # tried only if it is expected to beat the bound so far (likeliest first).
    lower = max(lower, plus_bound(grid))
    for lat in sorted(found, key=Lattice.expected_bound, reverse=True):
        if lat.expected_bound() <= lower or lat.cost() > budget.left():
            continue  # unlikely to raise the bound, or no time for it
        lower = max(lower, lat.bound(grid, budget, memory))
        if lower >= best:
            return Fewest(grid, best, best,
                          Phrase(N_("fewest presses: proven by a lower bound over the {lattice}"),
                                 lattice=lat.describe()))
    lower = min(lower, best)
    if budget.left() <= 0:
        why = Phrase(N_("the {limit} s time limit was reached"), limit=Number(budget.limit))
    return Fewest(grid, best, lower,
                  Phrase(N_("at most {best}, at least {lower}: fewest presses not proven, {why}"),
                         best=best, lower=lower, why=why))


__all__ = [
    "Budget",
    "DEFAULT_MEMORY_MB",
    "DEFAULT_TIME_LIMIT",
    "MAX_TABLE_BITS",
    "SLICE_BITS",
    "Fewest",
    "Lattice",
    "NullSpace",
    "clear_cache",
    "lattices",
    "PairPlan",
    "class_tables",
    "pair_plan",
    "pair_search",
    "pairs_to_weigh",
    "pivot_signatures",
    "plus_bound",
    "search",
    "slice_search",
    "slice_seconds",
    "walsh_hadamard_rows",
]
