"""Bitboards for m×n×k boards: the fast representation searches work on.

A player's marks are one Python int, bit ``row * cols + col`` per cell. For a
board shape, :func:`layout` precomputes every k-window ("line") as a bit
mask, the lines through each cell, and the board's symmetries as cell
permutations, so searches test wins and threats with a few AND operations.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.tictactoe.rules import EMPTY, TicTacToeState


@dataclass(frozen=True)
class Layout:
    """Precomputed masks for one (rows, cols, k)."""

    rows: int
    cols: int
    k: int
    full: int
    lines: tuple[int, ...]
    lines_through: tuple[tuple[int, ...], ...]
    symmetries: tuple[tuple[int, ...], ...]

    @property
    def cells(self) -> int:
        """Number of cells."""
        return self.rows * self.cols

    def wins(self, bits: int, cell: int) -> bool:
        """Whether ``bits`` holds a complete line through ``cell``."""
        for mask in self.lines_through[cell]:
            if bits & mask == mask:
                return True
        return False

    def has_line(self, bits: int) -> bool:
        """Whether ``bits`` holds any complete line."""
        return any(bits & mask == mask for mask in self.lines)

    def winning_cells(self, mine: int, theirs: int) -> int:
        """Mask of empty cells where one more of ``mine`` completes a line."""
        empty = self.full & ~(mine | theirs)
        found = 0
        for mask in self.lines:
            if mask & theirs:
                continue
            missing = mask & ~mine
            if missing & (missing - 1) == 0 and missing & empty:
                found |= missing
        return found

    def live_lines(self, mine: int, theirs: int) -> int:
        """How many lines ``mine`` could still complete (no opposing mark in them)."""
        return sum(1 for mask in self.lines if not mask & theirs)

    def permute(self, bits: int, perm: tuple[int, ...]) -> int:
        """Apply a cell permutation to a bit set."""
        out = 0
        while bits:
            low = bits & -bits
            out |= 1 << perm[low.bit_length() - 1]
            bits ^= low
        return out


@lru_cache(maxsize=16)
def layout(rows: int, cols: int, k: int) -> Layout:
    """The (cached) masks for a rows × cols board with k in a row."""
    lines: list[int] = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    mask = 0
                    for i in range(k):
                        mask |= 1 << ((r + dr * i) * cols + c + dc * i)
                    lines.append(mask)
    through = tuple(tuple(m for m in lines if m >> cell & 1) for cell in range(rows * cols))
    return Layout(rows, cols, k, (1 << rows * cols) - 1, tuple(lines), through,
                  _symmetries(rows, cols))


def _symmetries(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Cell permutations of the board's symmetry group (8 if square, else 4)."""
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
    ]
    if rows == cols:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (cols - 1 - c, r),
            lambda r, c: (c, rows - 1 - r),
            lambda r, c: (cols - 1 - c, rows - 1 - r),
        ]
    perms = []
    for f in maps:
        perm = []
        for cell in range(rows * cols):
            r2, c2 = f(*divmod(cell, cols))
            perm.append(r2 * cols + c2)
        perms.append(tuple(perm))
    return tuple(perms)


def to_bits(state: TicTacToeState) -> tuple[int, ...]:
    """One bit set per player for a rules state."""
    bits = [0] * state.num_players
    for cell, owner in enumerate(state.board):
        if owner != EMPTY:
            bits[owner] |= 1 << cell
    return tuple(bits)
