"""Mouse and keyboard on a grid board: hover, click, and an arrow-key cursor with Enter."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from engine.ui.board.geometry import BoardGeometry, Cell

ARROWS = {pygame.K_LEFT: (0, -1), pygame.K_RIGHT: (0, 1), pygame.K_UP: (-1, 0),
          pygame.K_DOWN: (1, 0)}
ACTIVATE = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


class GridPointer:
    """Tracks the hovered cell and a keyboard cursor; reports activated cells.

    A click activates the cell under the mouse (and hides the keyboard cursor);
    the arrows move the cursor, wrapping at the edges, starting from ``start()``;
    Enter or Space activates the cursor's cell.
    """

    def __init__(self) -> None:
        self.hover: Cell | None = None
        self.cursor: Cell | None = None

    def handle(self, event: pygame.event.Event, geom: BoardGeometry,
               activate: Callable[[int, int], object], start: Callable[[], Cell]) -> bool:
        """Handle a board event; returns whether it was used."""
        if event.type == pygame.MOUSEMOTION:
            self.hover = geom.cell_at(event.pos)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            cell = geom.cell_at(event.pos)
            if cell is None:
                return False
            self.cursor = None
            activate(*cell)
            return True
        if event.type == pygame.KEYDOWN and event.key in ARROWS:
            r, c = self.cursor or start()
            dr, dc = ARROWS[event.key]
            self.cursor = ((r + dr) % geom.rows, (c + dc) % geom.cols)
            return True
        if event.type == pygame.KEYDOWN and event.key in ACTIVATE and self.cursor is not None:
            activate(*self.cursor)
            return True
        return False
