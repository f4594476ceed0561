"""The whole Grundy table of a piece and board as a heatmap with numbers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame
from pygame import FRect

from engine.core.i18n import N_, _
from engine.screens.scene import Overlay
from engine.ui.board.draw import hatch
from engine.ui.board.geometry import BoardGeometry
from engine.ui.widgets import Button, Label
from games.grundy.colour_render import text_colour, value_colour
from games.grundy.panel_render import NoteFlow
from games.grundy.variants import GAME_LABELS

if TYPE_CHECKING:
    from engine.runtime.app import App

# The largest panel (design units): a bigger window shows a bigger heatmap up to this.
MAX_PANEL = (1120.0, 880.0)
LEGEND_W = 240.0
LEGEND_TALL_H = 380.0  # the legend's height when it goes under the heatmap
NOTES = {
    "king": N_("The king's table repeats in 2×2 blocks away from the diagonal: 0 where both "
            "coordinates are even, 2 where both are odd."),
    "rook": N_("The rook is two Nim heaps (the distances to the top and left edges): "
            "g(i, j) = i ⊕ j."),
    "queen": N_("Wythoff's game: the 0s lie on two lines through the corner, at the pairs "
             "(⌊kφ⌋, ⌊kφ²⌋) with φ the golden ratio."),
    "knight": N_("The knight's jumps lower row + column by 1 or 3; its table shows stripes "
              "along the anti-diagonals."),
}


class TableView(Overlay):
    """Heatmap of g(row, col): lighter is larger; value 0 striped; numbers where they fit.

    The panel takes the room the window gives (up to :data:`MAX_PANEL`), centred in it;
    the heatmap fills what the title, the legend column and the Close row leave.
    """

    panel = (92.0, 72.0, 776.0, 576.0)  # as designed: fits the smallest window
    help_title = N_("Grundy table")
    help_text = N_("Each square shows the Grundy value of a token standing there. Lighter "
                   "colours are larger values; value 0 (striped) is a loss for the player to "
                   "move. Esc or Close returns to the game.")

    def __init__(self, app: App, piece: str, rows: int, cols: int) -> None:
        super().__init__(app)
        from games.grundy.tables import grundy_table

        self.piece, self.rows, self.cols = piece, rows, cols
        self.table = grundy_table(piece, rows, cols)
        self.ui.add(Label(lambda: self._part("title"), self._title(), size=24, bold=True,
                          role="accent", fit_lines=1, min_size=16))
        self.ui.add(Button(lambda: self._part("close"), N_("Close"), self.close, name="Close"))

    # --- layout (design units) ---------------------------------------------------------------
    def panel_rect(self) -> FRect:
        """As large as the window allows up to :data:`MAX_PANEL` (taller in a tall window,
        where the legend goes under the heatmap), centred in its area."""
        room = self.room()
        w = min(room.w, MAX_PANEL[0])
        if room.h > room.w + LEGEND_TALL_H:
            # Tall: a square heatmap as wide as the panel, the legend and Close under it.
            h = min(room.h, 64 + (w - 48) + 16 + LEGEND_TALL_H + 84)
        else:
            h = min(room.h, MAX_PANEL[1])
        rect = FRect(0, 0, w, h)
        rect.center = room.center
        return rect

    def _part(self, name: str) -> tuple[float, float, float, float]:
        return tuple(self.parts()[name])  # type: ignore[return-value]

    def parts(self) -> dict[str, FRect]:
        """Title, heatmap, legend column and Close button inside the panel."""
        panel = self.panel_rect()
        pad = 24.0
        title = FRect(panel.x + pad, panel.y + 12, panel.w - 2 * pad, 40)
        close = FRect(panel.right - pad - 120, panel.bottom - 16 - 40, 120, 40)
        top = title.bottom + 12
        beside = min(panel.w - 3 * pad - LEGEND_W, panel.bottom - 16 - top)
        below = min(panel.w - 2 * pad, close.top - 28 - LEGEND_TALL_H - top)
        if below > beside:
            # A tall panel: the heatmap as wide as the panel, the legend under it.
            heat = FRect(panel.x + pad, top, panel.w - 2 * pad,
                         min(panel.w - 2 * pad, close.top - 12 - LEGEND_TALL_H - top))
            legend = FRect(panel.x + pad, heat.bottom + 16, panel.w - 2 * pad,
                           close.top - 12 - heat.bottom - 16)
        else:
            legend = FRect(panel.right - pad - LEGEND_W, top, LEGEND_W, close.top - 12 - top)
            heat = FRect(panel.x + pad, top, legend.left - pad - (panel.x + pad),
                         panel.bottom - 16 - top)
        return {"title": title, "close": close, "legend": legend, "heatmap": heat}

    def _title(self) -> str:
        return _("Grundy values: {piece} on {cols}×{rows}").format(
            piece=_(GAME_LABELS[self.piece]), cols=self.cols, rows=self.rows)

    # --- input and drawing -------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_t:
            self.close()
            return
        super().handle_event(event)

    def draw_body(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        vp, theme = self.app.viewport, self.app.theme
        parts = self.parts()
        geom = BoardGeometry(self.rows, self.cols, vp.map_rect(parts["heatmap"]))
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
        self._draw_legend(surface, parts["legend"], top)

    def _draw_legend(self, surface: pygame.Surface, box: FRect, top: int) -> None:
        """The ramp from 0 to the largest value, what the stripes mean and the piece's note."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        small = theme.font(14 * vp.scale)
        lx, ly = box.x, box.y
        surface.blit(small.render(_("value"), True, p.text), vp.point(lx, ly))
        steps = min(top, 12)
        # Rows as tall as fit with room for the note under them (22 to 26 units).
        row = max(20.0, min(26.0, (box.h - 24 - 90) / (steps + 1)))
        for i in range(steps + 1):
            value = round(i * top / steps) if steps else 0
            sample = vp.rect(lx, ly + 24 + i * row, 30, row - 4)
            pygame.draw.rect(surface, value_colour(value, top), sample)
            if value == 0:
                hatch(surface, sample, (240, 240, 240), step=vp.px(6))
            surface.blit(small.render(str(value), True, p.text),
                         vp.point(lx + 38, ly + 24 + i * row + (row - 4) / 2 - 8))
        note_y = ly + 24 + (steps + 1) * row + 12
        notes = FRect(lx, note_y, box.w, box.bottom - note_y)
        if box.w >= 2 * LEGEND_W:  # a wide legend (under the heatmap): notes beside the ramp
            notes = FRect(lx + LEGEND_W, ly, box.w - LEGEND_W, box.h)
        flow = NoteFlow(surface, vp, theme, notes)
        flow.text(_("Striped: value 0, the player to move loses."), p.muted, size=14,
                  min_size=12)
        flow.text(_(NOTES[self.piece]), p.muted, size=14, min_size=12)

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "TableView", "overlay": True, "piece": self.piece,
                "size": [self.rows, self.cols], "max": int(self.table.max())}
