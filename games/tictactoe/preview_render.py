"""The tic-tac-toe launcher tile: a 3×3 game X has just won."""

from __future__ import annotations

import pygame

from engine.ui.board.draw import draw_grid, draw_mark, draw_win_line
from engine.ui.board.geometry import BoardGeometry
from engine.ui.theme import Palette


def draw(surface: pygame.Surface, rect: pygame.Rect, palette: Palette) -> None:
    """A 3×3 game that X has just won on the diagonal."""
    geom = BoardGeometry(3, 3, rect)
    draw_grid(surface, geom, palette.board, palette.grid)
    # The line under the marks, as in the game: each X keeps both its strokes.
    draw_win_line(surface, geom, [(0, 0), (1, 1), (2, 2)], palette.win_line, palette.background)
    marks = {(0, 0): 0, (1, 1): 0, (2, 2): 0, (0, 2): 1, (1, 2): 1, (2, 0): 1}
    for (r, c), player in marks.items():
        draw_mark(surface, geom.cell_rect(r, c), player, palette.players[player])
