"""The Grundy games' launcher tile: a king heading for the corner."""

from __future__ import annotations

import pygame

from engine.ui.board.draw import draw_grid, fill_cell
from engine.ui.board.geometry import BoardGeometry
from engine.ui.theme import Palette


def draw(surface: pygame.Surface, rect: pygame.Rect, palette: Palette) -> None:
    """A king on a small chessboard with arrows towards the top-left corner."""
    n = 5
    geom = BoardGeometry(n, n, rect)
    draw_grid(surface, geom, palette.board, palette.grid)
    for r in range(n):
        for c in range(n):
            if (r + c) % 2:
                fill_cell(surface, geom, (r, c), palette.hover)
    fill_cell(surface, geom, (0, 0), palette.good)
    king = geom.cell_rect(3, 3)
    cx, cy = king.center
    s = king.width * 0.3
    crown = [(cx - s, cy + s * 0.6), (cx - s, cy - s * 0.4), (cx - s / 2, cy),
             (cx, cy - s * 0.7), (cx + s / 2, cy), (cx + s, cy - s * 0.4), (cx + s, cy + s * 0.6)]
    pygame.draw.polygon(surface, palette.accent, crown)
    pygame.draw.polygon(surface, palette.background, crown, 2)
    for target in ((2, 3), (3, 2), (2, 2)):
        t = geom.cell_rect(*target)
        pygame.draw.circle(surface, palette.accent, t.center, max(2, t.width // 8))
