"""Button Madness's launcher tile: a 4×4 board with one press shown."""

from __future__ import annotations

import pygame

from engine.ui.board.geometry import BoardGeometry
from engine.ui.theme import Palette


def draw(surface: pygame.Surface, rect: pygame.Rect, palette: Palette) -> None:
    """A 4×4 board of red and green buttons, one press's plus shape in green."""
    n = 4
    geom = BoardGeometry(n, n, rect)
    pygame.draw.rect(surface, palette.board, geom.rect)
    green = {(1, 1), (0, 1), (2, 1), (1, 0), (1, 2)}
    for r in range(n):
        for c in range(n):
            cell = geom.cell_rect(r, c).inflate(-geom.cell_size * 0.14, -geom.cell_size * 0.14)
            colour = palette.good if (r, c) in green else palette.bad
            pygame.draw.rect(surface, colour, cell, border_radius=max(2, cell.width // 5))
            if (r, c) in green:  # a ring as well as a hue, for colour-blind players
                pygame.draw.circle(surface, palette.background, cell.center, cell.width // 5, 2)
