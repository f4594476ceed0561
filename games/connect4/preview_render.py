"""Connect Four's launcher tile: a 7×6 board where X has just made four in a row."""

from __future__ import annotations

import pygame

from engine.ui.board.draw import draw_win_line
from engine.ui.board.geometry import BoardGeometry
from engine.ui.theme import Palette

# (row from the top, column) of each side's discs in the picture.
_X = ((5, 2), (5, 3), (4, 3), (3, 4), (5, 4), (2, 5), (5, 1))
_O = ((4, 2), (4, 4), (3, 3), (4, 5), (3, 5), (5, 5))
_WIN = ((5, 2), (4, 3), (3, 4), (2, 5))


def draw(surface: pygame.Surface, rect: pygame.Rect, palette: Palette) -> None:
    """A classic board with a diagonal four for X."""
    geom = BoardGeometry(6, 7, rect)
    pygame.draw.rect(surface, palette.accent, geom.rect, border_radius=max(2, rect.width // 30))
    for r in range(6):
        for c in range(7):
            cell = geom.cell_rect(r, c)
            colour = palette.background
            if (r, c) in _X:
                colour = palette.players[0]
            elif (r, c) in _O:
                colour = palette.players[1]
            pygame.draw.circle(surface, colour, cell.center, cell.width * 0.4)
    # The line alone, outlined as on the board: at a tile's size the cells' frames would
    # clip the winning discs into squares (every disc stays round).
    draw_win_line(surface, geom, _WIN, palette.win_line, palette.background, frames=False)
