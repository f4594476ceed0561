"""Connect Four's board geometry as bitboards: masks, and the functions that find winning
spots and completed lines for a board size (shared by the solver and the score search).

No pygame here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from games.connect4.rules import Connect4Config


@dataclass(frozen=True, eq=False)
class Geometry:
    """Bit masks and functions for one board shape, shared by all its positions."""

    cols: int
    rows: int
    k: int
    size: int
    bottom: int
    board: int
    col_mask: tuple[int, ...]
    bottom_col: tuple[int, ...]
    mirror: tuple[int, ...]
    order: tuple[int, ...]
    spots: Callable[[int], int]
    aligned: Callable[[int], bool]
    centre_masks: tuple[int, ...]
    odd_rows: int


@lru_cache(maxsize=16)
def geometry(cols: int, rows: int, k: int) -> Geometry:
    """The (cached) masks and functions of a ``cols`` × ``rows`` board with ``k`` in a row."""
    Connect4Config(cols, rows, k)  # validates
    h1 = rows + 1
    bottom_col = tuple(1 << (c * h1) for c in range(cols))
    column = (1 << rows) - 1
    col_mask = tuple(column << (c * h1) for c in range(cols))
    bottom = sum(bottom_col)
    board = bottom * column
    # Centre first, then outwards, left before right (Pons's order).
    order = tuple(sorted(range(cols), key=lambda c: (abs(2 * c - (cols - 1)), c)))
    # centre_masks[d]: the cells of columns within d of the centre (heuristic weights).
    centre_masks = tuple(sum(col_mask[c] for c in range(cols) if abs(2 * c - (cols - 1)) <= 2 * d)
                         for d in range((cols + 1) // 2))
    # Rows 1, 3, 5, … counted from 1 at the bottom: bit rows 0, 2, 4, ….
    odd_rows = sum(bottom << r for r in range(0, rows, 2))
    return Geometry(cols, rows, k, cols * rows, bottom, board, col_mask, bottom_col,
                    tuple(cols - 1 - c for c in range(cols)), order, spots_function(rows, k),
                    _aligned_function(rows, k), centre_masks, odd_rows)


def spots_function(rows: int, k: int, unrolled: bool = True) -> Callable[[int], int]:
    """``spots(discs)``: every cell that would complete ``k`` in a row for ``discs``.

    The result is not restricted to empty cells or to the board: callers mask
    it with the empty cells. For k = 4 this is Pons's shift formula, unrolled;
    other k (and ``unrolled=False``, which tests compare with it) use the same
    idea with runs built one shift at a time.
    """
    h1 = rows + 1
    if k == 4 and unrolled:
        a1, a2, a3 = h1, 2 * h1, 3 * h1
        b1, b2, b3 = h1 - 1, 2 * (h1 - 1), 3 * (h1 - 1)
        c1, c2, c3 = h1 + 1, 2 * (h1 + 1), 3 * (h1 + 1)

        def spots4(p: int) -> int:
            # Up: three discs straight below.
            r = (p << 1) & (p << 2) & (p << 3)
            # Each other direction: two discs just before the cell and a third before
            # them or just after it; or two just after and a third after them or just
            # before it.
            lo, hi = p << a1, p >> a1
            r |= (lo & (p << a2) & ((p << a3) | hi)) | (hi & (p >> a2) & ((p >> a3) | lo))
            lo, hi = p << b1, p >> b1
            r |= (lo & (p << b2) & ((p << b3) | hi)) | (hi & (p >> b2) & ((p >> b3) | lo))
            lo, hi = p << c1, p >> c1
            r |= (lo & (p << c2) & ((p << c3) | hi)) | (hi & (p >> c2) & ((p >> c3) | lo))
            return r

        return spots4

    steps = (h1, h1 - 1, h1 + 1)

    def spots(p: int) -> int:
        # Up: k - 1 discs straight below.
        r = p << 1
        for i in range(2, k):
            r &= p << i
        for s in steps:
            # before[j]: j discs in a row just before the cell; after[j]: just after it.
            before = [-1]
            after = [-1]
            for j in range(1, k):
                before.append(before[-1] & (p << (j * s)))
                after.append(after[-1] & (p >> (j * s)))
            for j in range(k):
                r |= before[j] & after[k - 1 - j]
        return r

    return spots


def _aligned_function(rows: int, k: int) -> Callable[[int], bool]:
    """``aligned(discs)``: whether ``discs`` hold k in a row somewhere."""
    steps = (1, rows + 1, rows, rows + 2)
    if k == 4:
        def aligned4(p: int) -> bool:
            for s in steps:
                m = p & (p >> s)
                if m & (m >> (2 * s)):
                    return True
            return False

        return aligned4

    def aligned(p: int) -> bool:
        for s in steps:
            m = p
            for i in range(1, k):
                m &= p >> (i * s)
            if m:
                return True
        return False

    return aligned
