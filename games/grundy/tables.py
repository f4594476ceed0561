"""Whole Grundy and remoteness tables of the chessboard pieces (SPEC §5), with numpy.

A token on a ``rows`` × ``cols`` board moves only towards the top-left corner
(row 0 is the top row, column 0 the left column):

* king: one square left, up, or diagonally up-left (the document's "Király");
* rook: any number of squares left or up (the document's "Bástya": two Nim heaps);
* queen: rook moves plus any distance diagonally up-left (Wythoff's game);
* knight: the steps (−2, −1), (−1, −2), (−2, +1), (+1, −2); each lowers row + col
  (by 3 or by 1), so every play ends; the steps must stay on the board.

Every move lowers ``row + col``, so the cells of one anti-diagonal ``row + col = d``
never depend on each other: the fast tables fill a whole anti-diagonal per numpy
step (or use a closed form), and :func:`mex_table_reference` is the plain per-cell
mex recursion they are tested and benchmarked against.

No pygame here: rules and AI modules run with no display.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

PIECES = ("king", "rook", "queen", "knight")

# Step pieces: (row, col) offsets of a single move.
KING_STEPS = ((0, -1), (-1, 0), (-1, -1))
KNIGHT_STEPS = ((-2, -1), (-1, -2), (-2, 1), (1, -2))
# Slider pieces: directions a token slides any distance along.
ROOK_DIRECTIONS = ((0, -1), (-1, 0))
QUEEN_DIRECTIONS = ((0, -1), (-1, 0), (-1, -1))

# The biggest board side the tables accept (BoardConfig allows the same).
MAX_SIDE = 4096

_ONE = np.uint64(1)


def _check(piece: str, rows: int, cols: int) -> None:
    """Raise ValueError for an unknown piece or a board size out of range."""
    if piece not in PIECES:
        raise ValueError(f"unknown piece {piece!r}; expected one of {', '.join(PIECES)}")
    for name, n in (("rows", rows), ("cols", cols)):
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or not 1 <= n <= MAX_SIDE:
            raise ValueError(f"{name} must be an integer 1..{MAX_SIDE}, got {n!r}")


def successors(piece: str, rows: int, cols: int, r: int, c: int) -> list[tuple[int, int]]:
    """Squares one move of ``piece`` reaches from (r, c): the rules, one cell at a time.

    Sliders list the nearest square first in each direction (left, up, up-left).
    """
    _check(piece, rows, cols)
    if not (0 <= r < rows and 0 <= c < cols):
        raise ValueError(f"square {(r, c)} (row, column) is off the {cols}×{rows} board "
                         "(columns × rows)")
    out: list[tuple[int, int]] = []
    if piece in ("king", "knight"):
        for dr, dc in KING_STEPS if piece == "king" else KNIGHT_STEPS:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols:
                out.append((nr, nc))
        return out
    for dr, dc in ROOK_DIRECTIONS if piece == "rook" else QUEEN_DIRECTIONS:
        nr, nc = r + dr, c + dc
        while nr >= 0 and nc >= 0:
            out.append((nr, nc))
            nr, nc = nr + dr, nc + dc
    return out


# --- the plain recursion (reference) ----------------------------------------


def mex(values: set[int]) -> int:
    """The smallest non-negative integer not in ``values``."""
    m = 0
    while m in values:
        m += 1
    return m


def _memoised_table(piece: str, rows: int, cols: int,
                    combine: Callable[[tuple[int, int], list[tuple[int, int]],
                                       dict[tuple[int, int], int]], int],
                    ) -> np.ndarray:
    """Fill a table cell by cell, each cell from its successors' memoised entries.

    ``combine(cell, successors, memo)`` gives a cell's entry once all its
    successors have one. An explicit stack instead of Python recursion: a path
    can be rows + cols long, deeper than the interpreter's recursion limit.
    """
    memo: dict[tuple[int, int], int] = {}
    for start in ((r, c) for r in range(rows) for c in range(cols)):
        stack = [start]
        while stack:
            cell = stack[-1]
            if cell in memo:
                stack.pop()
                continue
            nexts = successors(piece, rows, cols, *cell)
            missing = [q for q in nexts if q not in memo]
            if missing:
                stack.extend(missing)
                continue
            memo[cell] = combine(cell, nexts, memo)
            stack.pop()
    table = np.zeros((rows, cols), dtype=np.int32)
    for (r, c), v in memo.items():
        table[r, c] = v
    return table


def mex_table_reference(piece: str, rows: int, cols: int) -> np.ndarray:
    """Grundy table by the plain definition: g(p) = mex{g(q) : p → q}, per cell, memoised.

    Slow (linear per cell for sliders, so cubic overall) but obviously right;
    for tests and the benchmark.
    """
    _check(piece, rows, cols)
    return _memoised_table(piece, rows, cols,
                           lambda cell, nexts, memo: mex({memo[q] for q in nexts}))


def remoteness_reference(piece: str, rows: int, cols: int) -> np.ndarray:
    """Smith's remoteness by the plain definition, per cell, memoised (for tests).

    Lost cells are told by the reference Grundy table (g = 0), not the fast one.
    """
    g = mex_table_reference(piece, rows, cols)

    def combine(cell: tuple[int, int], nexts: list[tuple[int, int]],
                memo: dict[tuple[int, int], int]) -> int:
        if not nexts:
            return 0
        if g[cell] == 0:
            return 1 + max(memo[q] for q in nexts)
        return 1 + min(memo[q] for q in nexts if g[q] == 0)

    return _memoised_table(piece, rows, cols, combine)


# --- fast tables -------------------------------------------------------------


def _diagonal(d: int, rows: int, cols: int) -> tuple[int, int]:
    """First and last row of the anti-diagonal row + col = d on the board."""
    return max(0, d - cols + 1), min(rows - 1, d)


def _rook_table(rows: int, cols: int) -> np.ndarray:
    # Two Nim heaps of i and j pebbles: the nim-sum i XOR j (Sprague–Grundy).
    return np.bitwise_xor.outer(np.arange(rows, dtype=np.int32), np.arange(cols, dtype=np.int32))


def _king_table(rows: int, cols: int) -> np.ndarray:
    # Closed form read off the document's 8×8 table: both even → 0, both odd →
    # 2; one odd → 1 if the odd coordinate is the larger, else 3. Why it holds on
    # every board: whether a cell obeys the mex rule depends only on its type
    # (i mod 2, j mod 2, i − j clipped to −2..2, i = 0, j = 0), since that fixes
    # which successors exist and their formula values; every type occurs on a
    # 6×6 board, and the tests check all boards up to 20×20 against the mex
    # recursion (and a 700×900 board against the recurrence).
    i = np.arange(rows, dtype=np.int32)
    j = np.arange(cols, dtype=np.int32)
    i_odd = (i & 1).astype(np.uint8)[:, None]
    j_odd = (j & 1).astype(np.uint8)[None, :]
    # With mixed parity the coordinates differ; "the smaller one is odd" gives 3.
    smaller_odd = np.where(i[:, None] < j[None, :], i_odd, j_odd)
    mixed = i_odd ^ j_odd
    # Whole-board arithmetic in uint8 (values 0..3) keeps 4096×4096 well under a second.
    table = mixed * (1 + 2 * smaller_odd) + (1 - mixed) * (2 * i_odd)
    return table.astype(np.int32)


def _slider_table(rows: int, cols: int, diagonal: bool) -> np.ndarray:
    """Rook (or, with ``diagonal``, queen: Wythoff) values, one anti-diagonal per numpy step.

    For each row, column and diagonal (i − j) a packed bitset (uint64 words)
    holds the values already seen on it; a cell's successors are exactly the
    earlier cells of its row, column (and diagonal), so its value is the lowest
    zero bit of the OR of those bitsets. The three index sequences of one
    anti-diagonal are arithmetic progressions, so they are strided views, not
    fancy-index copies.
    """
    g = np.zeros((rows, cols), dtype=np.int32)
    # A cell (i, j) has i + j (+ min(i, j)) successors, so its mex is at most that.
    most = (rows - 1) + (cols - 1) + (min(rows, cols) - 1 if diagonal else 0)
    words = most // 64 + 1
    row_bits = np.zeros((rows, words), dtype=np.uint64)
    col_bits = np.zeros((cols, words), dtype=np.uint64)
    # Diagonal i − j is stored at index i − j + cols − 1.
    diag_bits = np.zeros((rows + cols - 1 if diagonal else 1, words), dtype=np.uint64)
    for d in range(rows + cols - 1):
        i0, i1 = _diagonal(d, rows, cols)
        n = i1 - i0 + 1
        # Values on this anti-diagonal are at most d (+ min(i, j) ≤ d // 2): only
        # that many words need OR-ing (about halves the work).
        w = min(words, (d + (d // 2 if diagonal else 0)) // 64 + 1)
        rv = row_bits[i0:i1 + 1, :w]
        j0 = d - i0  # columns run from j0 down to d − i1
        cv = col_bits[j0 - n + 1:j0 + 1, :w][::-1]
        seen = rv | cv
        if diagonal:
            k0 = i0 - j0 + cols - 1  # the diagonal index rises by 2 per row
            dv = diag_bits[k0:k0 + 2 * n - 1:2, :w]
            seen |= dv
        free = ~seen
        first = np.argmax(free != 0, axis=1)
        lane = np.arange(n)
        word = free[lane, first]
        low = word & (~word + _ONE)  # the lowest set bit of the free word
        # frexp is exact on powers of two: 2**b = 0.5 * 2**(b + 1).
        bit = np.frexp(low.astype(np.float64))[1] - 1
        ii = np.arange(i0, i1 + 1)
        g[ii, d - ii] = first * 64 + bit
        rv[lane, first] |= low
        cv[lane, first] |= low
        if diagonal:
            dv[lane, first] |= low
    return g


# Lowest set bit (a power of two up to 2**7) → its index, for the step pieces' mex.
_BIT_INDEX = np.zeros(256, dtype=np.int32)
_BIT_INDEX[1 << np.arange(8)] = np.arange(8)
# Marks an off-board square in the step pieces' skewed table; 2**7 is above any value.
_OFF_BOARD = 7


def _step_table(rows: int, cols: int, steps: tuple[tuple[int, int], ...]) -> np.ndarray:
    """Grundy table of a step piece, one anti-diagonal per numpy step.

    Kept skewed while filling: ``skew[d, pad + i]`` is cell (i, d − i), so a
    step (dr, dc) reads the contiguous slice of anti-diagonal d + dr + dc shifted
    by dr rows; squares off the board were never written and hold a sentinel
    above any value. With at most four successors every value is at most 4,
    so the values seen fit in one byte as a bitmask and the mex is its lowest
    zero bit.
    """
    pad = max(0, -min(dr for dr, _ in steps))
    width = pad + rows + max(0, max(dr for dr, _ in steps))
    skew = np.full((rows + cols - 1, width), _OFF_BOARD, dtype=np.uint8)
    diagonals = rows + cols - 1
    for d in range(diagonals):
        i0, i1 = _diagonal(d, rows, cols)
        seen = np.zeros(i1 - i0 + 1, dtype=np.uint8)
        for dr, dc in steps:
            src = d + dr + dc
            if 0 <= src < diagonals:
                seen |= np.left_shift(np.uint8(1), skew[src, pad + i0 + dr:pad + i1 + dr + 1])
        # The lowest zero bit of ``seen`` is the lowest set bit of ~seen.
        free = ~seen
        skew[d, pad + i0:pad + i1 + 1] = _BIT_INDEX[free & (~free + np.uint8(1))]
    i = np.arange(rows)[:, None]
    return skew[i + np.arange(cols)[None, :], pad + i].astype(np.int32)


def compute_grundy_table(piece: str, rows: int, cols: int) -> np.ndarray:
    """The Grundy table of ``piece`` on a rows × cols board, freshly computed (no cache).

    Rook: i XOR j; king: closed form; queen and knight: vectorised recurrences
    over anti-diagonals. Returns a writable int32 array of shape (rows, cols).
    """
    _check(piece, rows, cols)
    if piece == "rook":
        return _rook_table(rows, cols)
    if piece == "king":
        return _king_table(rows, cols)
    if piece == "queen":
        return _slider_table(rows, cols, diagonal=True)
    return _step_table(rows, cols, KNIGHT_STEPS)


def recurrence_table(piece: str, rows: int, cols: int) -> np.ndarray:
    """The Grundy table by the vectorised mex recurrence even where a closed form exists.

    Rook and king otherwise use closed forms; this is the independent check of
    those on boards too big for :func:`mex_table_reference`.
    """
    _check(piece, rows, cols)
    if piece in ("rook", "queen"):
        return _slider_table(rows, cols, diagonal=piece == "queen")
    return _step_table(rows, cols, KING_STEPS if piece == "king" else KNIGHT_STEPS)


@lru_cache(maxsize=16)
def grundy_table(piece: str, rows: int, cols: int) -> np.ndarray:
    """The Grundy table of ``piece`` on a rows × cols board: int32, shape (rows, cols).

    ``table[r, c]`` is the value of a token on row r (0 = top), column c (0 = left).
    Cached per (piece, rows, cols) and read-only, since the UI asks repeatedly.
    """
    table = compute_grundy_table(piece, rows, cols)
    table.flags.writeable = False
    return table


def _step_remoteness(g: np.ndarray, steps: tuple[tuple[int, int], ...]) -> np.ndarray:
    """Remoteness of a step piece, skewed by anti-diagonals like :func:`_step_table`.

    Off-board squares hold remoteness −1 (never the longest) and value
    ``_OFF_BOARD`` (never a 0 to move to).
    """
    rows, cols = g.shape
    pad = max(0, -min(dr for dr, _ in steps))
    width = pad + rows + max(0, max(dr for dr, _ in steps))
    diagonals = rows + cols - 1
    i = np.arange(rows)[:, None]
    d_of = i + np.arange(cols)[None, :]
    skew_g = np.full((diagonals, width), _OFF_BOARD, dtype=np.int32)
    skew_g[d_of, pad + i] = g
    skew_r = np.full((diagonals, width), -1, dtype=np.int32)
    big = np.iinfo(np.int32).max
    for d in range(diagonals):
        i0, i1 = _diagonal(d, rows, cols)
        n = i1 - i0 + 1
        longest = np.full(n, -1, dtype=np.int32)
        quickest = np.full(n, big, dtype=np.int32)
        for dr, dc in steps:
            src = d + dr + dc
            if 0 <= src < diagonals:
                part = slice(pad + i0 + dr, pad + i1 + dr + 1)
                r_child = skew_r[src, part]
                np.maximum(longest, r_child, out=longest)
                np.minimum(quickest, np.where(skew_g[src, part] == 0, r_child, big),
                           out=quickest)
        lost = skew_g[d, pad + i0:pad + i1 + 1] == 0
        # longest = −1: no successor, a terminal cell (remoteness 0).
        skew_r[d, pad + i0:pad + i1 + 1] = np.where(
            longest < 0, 0, np.where(lost, longest + 1, quickest + 1))
    return skew_r[d_of, pad + i]


def compute_remoteness_table(piece: str, rows: int, cols: int) -> np.ndarray:
    """Smith's remoteness of every cell, freshly computed (no cache).

    Remoteness is the number of moves to the end when the winner hurries and the
    loser stalls: 0 for a terminal cell; for a lost cell (g = 0) 1 + the largest
    remoteness of its successors; for a won cell 1 + the smallest remoteness of
    its successors with g = 0. It is even exactly where g = 0.

    Vectorised over anti-diagonals like the Grundy tables: step pieces read
    their few successors as slices of a skewed copy; sliders keep, per row,
    column (and diagonal for the queen), the running maximum of all remoteness
    values seen and the running minimum over the g = 0 cells seen, since a
    slider's successors are exactly the earlier cells of its lines. One numpy
    step per anti-diagonal: 64×64 takes milliseconds, 1024×1024 about 0.2 s.
    """
    g = grundy_table(piece, rows, cols)
    if piece in ("king", "knight"):
        return _step_remoteness(g, KING_STEPS if piece == "king" else KNIGHT_STEPS)
    rem = np.zeros((rows, cols), dtype=np.int32)
    big = np.iinfo(np.int32).max
    directions = 3 if piece == "queen" else 2
    # Accumulators per line: [row i, column j, diagonal i − j + cols − 1].
    sizes = (rows, cols, rows + cols - 1)[:directions]
    longest_in = [np.full(s, -1, dtype=np.int32) for s in sizes]
    quickest_in = [np.full(s, big, dtype=np.int32) for s in sizes]
    for d in range(rows + cols - 1):
        i0, i1 = _diagonal(d, rows, cols)
        i = np.arange(i0, i1 + 1)
        j = d - i
        lines = (i, j, i - j + cols - 1)[:directions]
        longest = np.max([acc[k] for acc, k in zip(longest_in, lines, strict=True)], axis=0)
        quickest = np.min([acc[k] for acc, k in zip(quickest_in, lines, strict=True)], axis=0)
        lost = g[i, j] == 0
        here = np.where(longest < 0, 0, np.where(lost, longest + 1, quickest + 1))
        rem[i, j] = here
        for acc, k in zip(longest_in, lines, strict=True):
            acc[k] = np.maximum(acc[k], here)
        for acc, k in zip(quickest_in, lines, strict=True):
            acc[k[lost]] = np.minimum(acc[k[lost]], here[lost])
    return rem


@lru_cache(maxsize=16)
def remoteness_table(piece: str, rows: int, cols: int) -> np.ndarray:
    """Smith's remoteness of a single token on every cell (cached, read-only, int32).

    See :func:`compute_remoteness_table` for the definition.
    """
    table = compute_remoteness_table(piece, rows, cols)
    table.flags.writeable = False
    return table


def compute_longest_play_table(piece: str, rows: int, cols: int) -> np.ndarray:
    """The most moves a single token can make from each cell before it is stuck (no cache).

    King, rook, queen: row + col (one square left or up per move; no move lowers
    row + col by less than 1). Knight: a longest-path recurrence over
    anti-diagonals, vectorised like its Grundy table.
    """
    _check(piece, rows, cols)
    if piece != "knight":
        return np.add.outer(np.arange(rows, dtype=np.int32), np.arange(cols, dtype=np.int32))
    longest = np.zeros((rows, cols), dtype=np.int32)
    for d in range(1, rows + cols - 1):
        i0, i1 = _diagonal(d, rows, cols)
        i = np.arange(i0, i1 + 1)
        j = d - i
        best = np.full(i.size, -1, dtype=np.int32)
        for dr, dc in KNIGHT_STEPS:
            ni, nj = i + dr, j + dc
            ok = np.flatnonzero((ni >= 0) & (ni < rows) & (nj >= 0) & (nj < cols))
            best[ok] = np.maximum(best[ok], longest[ni[ok], nj[ok]])
        longest[i, j] = best + 1  # −1 + 1 = 0 where the knight is stuck
    return longest


@lru_cache(maxsize=16)
def longest_play_table(piece: str, rows: int, cols: int) -> np.ndarray:
    """Cached, read-only :func:`compute_longest_play_table`."""
    table = compute_longest_play_table(piece, rows, cols)
    table.flags.writeable = False
    return table


def zero_squares(piece: str, rows: int, cols: int) -> list[tuple[int, int]]:
    """The cells of value 0 (lost for the player to move), in row-major order."""
    rs, cs = np.nonzero(grundy_table(piece, rows, cols) == 0)
    return list(zip(rs.tolist(), cs.tolist(), strict=True))
