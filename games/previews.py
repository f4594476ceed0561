"""Launcher-tile pictures, drawn as vectors so they scale with the window."""

from __future__ import annotations

import pygame

from engine.board.draw import draw_grid, draw_mark, draw_win_line, fill_cell
from engine.board.geometry import BoardGeometry
from engine.theme import Palette


def draw_tictactoe(surface: pygame.Surface, rect: pygame.Rect, palette: Palette) -> None:
    """A 3×3 game that X has just won on the diagonal."""
    geom = BoardGeometry(3, 3, rect)
    draw_grid(surface, geom, palette.board, palette.grid)
    marks = {(0, 0): 0, (1, 1): 0, (2, 2): 0, (0, 2): 1, (1, 2): 1, (2, 0): 1}
    for (r, c), player in marks.items():
        draw_mark(surface, geom.cell_rect(r, c), player, palette.players[player])
    draw_win_line(surface, geom, [(0, 0), (1, 1), (2, 2)], palette.win_line, palette.background)


def draw_grundy(surface: pygame.Surface, rect: pygame.Rect, palette: Palette) -> None:
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


def draw_button_madness(surface: pygame.Surface, rect: pygame.Rect, palette: Palette) -> None:
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
