"""Cells ↔ pixels for a rows × cols board fitted into a rectangle."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

Cell = tuple[int, int]


@dataclass(frozen=True)
class BoardGeometry:
    """Square cells as large as fit in ``area``, the board centred (letterboxed).

    Build a new one from the current screen rectangle every frame (it is cheap),
    so the board is right after any window resize.
    """

    rows: int
    cols: int
    area: pygame.Rect

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise ValueError(
                f"board needs at least one row and column, got {self.rows}×{self.cols}")

    @property
    def cell_size(self) -> float:
        """Side of one cell in pixels (may be fractional)."""
        return max(1e-9, min(self.area.width / self.cols, self.area.height / self.rows))

    @property
    def origin(self) -> tuple[float, float]:
        """Top-left pixel of the board (fractional)."""
        s = self.cell_size
        return (
            self.area.x + (self.area.width - s * self.cols) / 2,
            self.area.y + (self.area.height - s * self.rows) / 2,
        )

    @property
    def rect(self) -> pygame.Rect:
        """The board's bounding rectangle on screen."""
        return self._span(0, 0, self.rows, self.cols)

    def _span(self, r0: int, c0: int, r1: int, c1: int) -> pygame.Rect:
        # Rounding both edges (not position + size) keeps neighbouring cells gap-free.
        s = self.cell_size
        ox, oy = self.origin
        x0, y0 = round(ox + c0 * s), round(oy + r0 * s)
        x1, y1 = round(ox + c1 * s), round(oy + r1 * s)
        return pygame.Rect(x0, y0, x1 - x0, y1 - y0)

    def cell_rect(self, row: int, col: int) -> pygame.Rect:
        """Screen rectangle of one cell."""
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise IndexError(f"cell {(row, col)} is outside a {self.rows}×{self.cols} board")
        return self._span(row, col, row + 1, col + 1)

    def cell_center(self, row: int, col: int) -> tuple[float, float]:
        """Centre pixel of one cell."""
        s = self.cell_size
        ox, oy = self.origin
        return (ox + (col + 0.5) * s, oy + (row + 0.5) * s)

    def cell_at(self, pos: tuple[float, float]) -> Cell | None:
        """The (row, col) under a pixel, or None outside the board."""
        s = self.cell_size
        ox, oy = self.origin
        col = int((pos[0] - ox) // s)
        row = int((pos[1] - oy) // s)
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return (row, col)
        return None
