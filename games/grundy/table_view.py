"""The whole Grundy table of a piece and board as a heatmap with numbers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from engine.board.draw import hatch
from engine.board.geometry import BoardGeometry
from engine.overlays import Overlay
from engine.widgets import Button, draw_text_block
from games.grundy.colour_render import text_colour, value_colour
from games.grundy.variants import GAME_LABELS

if TYPE_CHECKING:
    from engine.app import App

NOTES = {
    "king": "The king's table repeats in 2×2 blocks away from the diagonal: 0 where both "
            "coordinates are even, 2 where both are odd.",
    "rook": "The rook is two Nim heaps (the distances to the top and left edges): "
            "g(i, j) = i ⊕ j.",
    "queen": "Wythoff's game: the 0s lie on two lines through the corner, at the pairs "
             "(⌊kφ⌋, ⌊kφ²⌋) with φ the golden ratio.",
    "knight": "The knight's jumps lower row + column by 1 or 3; its table shows stripes "
              "along the anti-diagonals.",
}


class TableView(Overlay):
    """Heatmap of g(row, col): lighter is larger; value 0 striped; numbers where they fit."""

    panel = (40.0, 20.0, 880.0, 680.0)
    help_title = "Grundy table"
    help_text = ("Each square shows the Grundy value of a token standing there. Lighter "
                 "colours are larger values; value 0 (striped) is a loss for the player to move. "
                 "Esc or Close returns to the game.")

    def __init__(self, app: App, piece: str, rows: int, cols: int) -> None:
        super().__init__(app)
        from games.grundy.tables import grundy_table

        self.piece, self.rows, self.cols = piece, rows, cols
        self.table = grundy_table(piece, rows, cols)
        x, y, w, h = self.panel
        self.ui.add(Button((x + w - 140, y + h - 56, 120, 40), "Close", self.close,
                           name="Close"))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_t:
            self.close()
            return
        super().handle_event(event)

    def draw_body(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        x, y, w, h = self.panel
        title = f"Grundy values: {GAME_LABELS[self.piece]} on {self.rows}×{self.cols}"
        surface.blit(theme.font(24 * vp.scale, bold=True).render(title, True, p.accent),
                     vp.point(x + 24, y + 16))
        area = vp.rect(x + 24, y + 60, 560, h - 84)
        geom = BoardGeometry(self.rows, self.cols, area)
        top = int(self.table.max())
        size = geom.cell_size
        font = theme.font(max(7.0, size * 0.4), bold=True)
        for r in range(self.rows):
            for c in range(self.cols):
                value = int(self.table[r, c])
                cell = geom.cell_rect(r, c)
                colour = value_colour(value, top)
                pygame.draw.rect(surface, colour, cell)
                if value == 0:
                    hatch(surface, cell, (240, 240, 240), step=max(4, round(size / 4)),
                          width=max(1, round(size / 20)))
                if size >= 16:
                    label = font.render(str(value), True, text_colour(colour))
                    surface.blit(label, label.get_rect(center=cell.center))
        # Legend: the ramp from 0 to the largest value, and what the stripes mean.
        lx, ly = x + 610, y + 70
        small = theme.font(14 * vp.scale)
        surface.blit(small.render("value", True, p.text), vp.point(lx, ly))
        steps = min(top, 12)
        for i in range(steps + 1):
            value = round(i * top / steps) if steps else 0
            box = vp.rect(lx, ly + 24 + i * 26, 30, 22)
            pygame.draw.rect(surface, value_colour(value, top), box)
            if value == 0:
                hatch(surface, box, (240, 240, 240), step=vp.px(6))
            surface.blit(small.render(str(value), True, p.text),
                         vp.point(lx + 38, ly + 26 + i * 26))
        note_y = ly + 40 + (steps + 1) * 26
        draw_text_block(surface, "Striped: value 0, the player to move loses.\n\n"
                        + NOTES[self.piece], small, p.muted,
                        vp.rect(lx, note_y, 240, max(60, y + h - 80 - note_y)))

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "TableView", "overlay": True, "piece": self.piece,
                "size": [self.rows, self.cols], "max": int(self.table.max())}
