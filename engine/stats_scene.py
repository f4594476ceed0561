"""Statistics: a bar chart of results per game, and the detail per mode and level."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from engine.board.draw import hatch
from engine.registry import all_games
from engine.scene import Scene
from engine.widgets import Button, Label

if TYPE_CHECKING:
    from engine.app import App

CHART = (60.0, 120.0, 500.0, 460.0)


class StatsScene(Scene):
    """Games played, won, lost and drawn per game, as a stacked bar chart and a table."""

    closes_on_escape = True
    help_title = "Statistics"
    help_text = (
        "Each bar is one game: its length is the number of games played, split into won "
        "(solid), drawn (striped) and lost (hollow). Results are counted from the first "
        "human player's side; in two-player games at one mouse that is the first player "
        "(X).\n\nThe table on the right lists every mode and computer level you played. "
        "Esc or Back returns to the launcher."
    )

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.ui.add(Button((16, 12, 110, 40), "← Back", app.pop, name="Back"))
        self.ui.add(Label((0, 14, 960, 40), "Statistics", size=30, bold=True, align="center",
                          role="accent"))
        self.ui.add(Button((890, 12, 54, 40), "?", app.help, name="?"))
        self.refresh()

    def refresh(self) -> None:
        """Reload the figures from the statistics store."""
        self.totals = self.app.stats.totals_by_game()
        self.rows = self.app.stats.game_summary()
        self.puzzles = self.app.stats.puzzle_summary()
        # Puzzles count as "played" in the chart: solved alone like a win, with help like
        # a draw, so one chart shows every family.
        for row in self.puzzles:
            played, won, lost, drawn = self.totals.get(row.game, (0, 0, 0, 0))
            self.totals[row.game] = (played + row.solved, won + row.solved - row.helped, lost,
                                     drawn + row.helped)

    def resume(self) -> None:
        self.refresh()

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        self._draw_chart(surface)
        self._draw_table(surface)

    def _draw_chart(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        x, y, w, h = CHART
        font = theme.font(16 * vp.scale)
        small = theme.font(13 * vp.scale)
        surface.blit(theme.font(20 * vp.scale, bold=True).render("Results per game", True, p.text),
                     vp.point(x, y - 40))
        most = max([t[0] for t in self.totals.values()] + [1])
        bar_h = min(70.0, (h - 80) / max(1, len(all_games())) - 20)
        label_w = 150.0
        for i, family in enumerate(all_games()):
            played, won, lost, drawn = self.totals.get(family.id, (0, 0, 0, 0))
            by = y + i * (bar_h + 40)
            surface.blit(font.render(family.title, True, p.text), vp.point(x, by + bar_h / 2 - 10))
            left = x + label_w
            scale = (w - label_w - 60) / most
            segments = ((won, p.good, "solid"), (drawn, p.neutral, "striped"),
                        (lost, p.bad, "hollow"))
            for count, colour, style in segments:
                if count == 0:
                    continue
                rect = vp.rect(left, by, count * scale, bar_h)
                if style == "solid":
                    pygame.draw.rect(surface, colour, rect)
                elif style == "striped":
                    pygame.draw.rect(surface, p.panel, rect)
                    step = vp.px(8)
                    hatch(surface, rect, colour, step, max(1, step // 3))
                    pygame.draw.rect(surface, colour, rect, 1)
                else:
                    pygame.draw.rect(surface, colour, rect, max(2, vp.px(3)))
                left += count * scale
            pygame.draw.line(surface, p.grid, vp.point(x + label_w, by - 4),
                             vp.point(x + label_w, by + bar_h + 4), 1)
            if any(r.game == family.id for r in self.puzzles):
                summary = f"{played} solved · {won} alone · {drawn} with help"
            else:
                summary = (f"{played} played · {won} won · {drawn} drawn · {lost} lost"
                           if played else "not played yet")
            surface.blit(small.render(summary, True, p.muted),
                         vp.point(x + label_w, by + bar_h + 4))
        key_y = y + h - 24
        kx = x
        for label, colour, style in (("won / solved alone", p.good, "solid"),
                                     ("drawn / with help", p.neutral, "striped"),
                                     ("lost", p.bad, "hollow")):
            box = vp.rect(kx, key_y, 18, 18)
            if style == "hollow":
                pygame.draw.rect(surface, colour, box, 2)
            else:
                pygame.draw.rect(surface, colour, box)
                if style == "striped":
                    pygame.draw.line(surface, p.panel, box.bottomleft, box.topright, 3)
            surface.blit(small.render(label, True, p.text), vp.point(kx + 24, key_y))
            kx += 24 + small.size(label)[0] / vp.scale + 24

    def _draw_table(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        x, y = 560.0, 80.0
        head = theme.font(14 * vp.scale, bold=True)
        body = theme.font(14 * vp.scale)
        cols = (("Game / mode / level", 0), ("P", 250), ("W", 290), ("D", 330), ("L", 370))
        for text, dx in cols:
            surface.blit(head.render(text, True, p.text), vp.point(x + dx, y))
        titles = {f.id: f.title for f in all_games()}
        if not self.rows:
            surface.blit(body.render("No games recorded yet.", True, p.muted),
                         vp.point(x, y + 30))
        for i, row in enumerate(self.rows[:18]):
            ry = y + 28 + i * 22
            name = f"{titles.get(row.game, row.game)} {row.variant}"
            mode = row.mode + (f" ({row.opponent})" if row.opponent else "")
            surface.blit(body.render(f"{name}, {mode}"[:30], True, p.text), vp.point(x, ry))
            for value, (_t, dx) in zip((row.played, row.won, row.drawn, row.lost), cols[1:],
                                       strict=True):
                surface.blit(body.render(str(value), True, p.text), vp.point(x + dx, ry))
        py = y + 28 + min(len(self.rows), 18) * 22 + 20
        if self.puzzles:
            surface.blit(head.render("Puzzles: best without help", True, p.text),
                         vp.point(x, py))
        for i, row in enumerate(self.puzzles[:8]):
            best = (f"{row.best_moves} presses, {row.best_seconds:.1f} s"
                    if row.best_moves is not None else "only with help so far")
            text = f"{titles.get(row.game, row.game)} {row.variant}: {best}"
            surface.blit(body.render(text[:48], True, p.text), vp.point(x, py + 24 + i * 22))

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "StatsScene", "totals": {k: list(v) for k, v in self.totals.items()},
                "puzzles": [[r.game, r.variant, r.solved, r.helped, r.best_moves]
                            for r in self.puzzles]}
