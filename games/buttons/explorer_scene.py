"""Which board sizes can always be solved? A chart of the null-space dimension, n = 1…64."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import pygame

from engine.ai.agent import Cancelled
from engine.ai.runner import AIRunner
from engine.board.draw import hatch
from engine.scene import Scene
from engine.widgets import Button, Label, draw_text_block

if TYPE_CHECKING:
    from engine.app import App

SIZES = range(1, 65)
CHART = (40.0, 110.0, 600.0, 520.0)
THEOREMS = (
    "n is bad when some n×n board cannot be solved; then the null space (press patterns "
    "that change nothing) has dimension > 0, and a solvable board has 2^dim solutions.\n\n"
    "The source's theorems, visible in the chart:\n\n"
    "• every multiple of a bad n is bad;\n\n"
    "• half of a bad even n is bad;\n\n"
    "• 2^k − 1 is bad for every k except 1 and 3 (3, 15, 31, 63 bad; 1, 7 good);\n\n"
    "• 2^k + 1 is bad for every k > 0 (3, 5, 9, 17, 33 …)."
)


class ExplorerScene(Scene):
    """Bars of the nullity per size; bad sizes striped and labelled, good ones short stubs."""

    closes_on_escape = True
    help_title = "Which sizes are solvable?"
    help_text = ("Each bar is one board size n (1 to 64). Its height is the dimension of the "
                 "null space of the n×n torus: 0 (a small stub marked ✓) means every board has "
                 "exactly one solution; a taller, striped bar means some boards cannot be solved "
                 "and the others have several solutions. Esc or Back returns to the game.")

    def __init__(self, app: App) -> None:
        super().__init__(app)
        # The 64 eliminations take a few hundred milliseconds the first time: they run
        # off the frame loop and the bars appear as they are worked out.
        self.values: dict[int, int] = {}
        self.error: str | None = None
        self.worker = AIRunner()
        self.ui.add(Button((16, 12, 110, 40), "← Back", app.pop, name="Back"))
        self.ui.add(Label((140, 12, 680, 40), "Which sizes are solvable?", size=26, bold=True,
                          role="accent"))
        self.ui.add(Button((890, 12, 54, 40), "?", app.help, name="?"))

    def enter(self) -> None:
        self.worker.submit(self._work_out)

    def leave(self) -> None:
        self.worker.cancel()

    def _work_out(self, cancel: threading.Event) -> None:
        from games.buttons.solver import nullity

        for n in SIZES:
            if cancel.is_set():
                raise Cancelled
            self.values[n] = nullity(n)

    def update(self, dt: float) -> None:
        result = self.worker.poll()
        if result is not None and result.error is not None:
            self.error = f"The chart could not be worked out: {result.error}"
            self.app.notify(self.error)

    def is_active(self) -> bool:
        return self.worker.busy

    def busy_label(self) -> str | None:
        """"working out…" until every bar is known."""
        return "working out…" if self.worker.busy else None

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        x, y, w, h = CHART
        values = dict(self.values)  # the worker may be adding to it
        busy = self.busy_label()
        if busy:
            font = theme.font(16 * vp.scale, bold=True)
            surface.blit(font.render(f"{busy} {len(values)} of {len(SIZES)} sizes", True,
                                     p.accent), vp.point(x, y - 30))
        top = max(values.values(), default=0) or 1
        bar_w = w / len(SIZES)
        small = theme.font(11 * vp.scale)
        base = y + h - 30
        usable = h - 70
        for i, n in enumerate(SIZES):
            value = values.get(n)
            bx = x + i * bar_w
            if value is None:
                pass  # not worked out yet
            elif value == 0:
                rect = vp.rect(bx + 1, base - 6, bar_w - 2, 6)
                pygame.draw.rect(surface, p.good, rect)
            else:
                height = max(10.0, usable * value / top)
                rect = vp.rect(bx + 1, base - height, bar_w - 2, height)
                pygame.draw.rect(surface, p.bad, rect)
                hatch(surface, rect, p.background, vp.px(6), 1)
                label = small.render(str(value), True, p.text)
                surface.blit(label, label.get_rect(midbottom=(rect.centerx, rect.top - 2)))
            if n % 4 == 0 or n == 1:
                label = small.render(str(n), True, p.muted)
                surface.blit(label, label.get_rect(midtop=vp.point(bx + bar_w / 2, base + 4)))
        pygame.draw.line(surface, p.grid, vp.point(x, base), vp.point(x + w, base), 1)
        font = theme.font(14 * vp.scale)
        surface.blit(font.render("board size n →   (bar height: null-space dimension; "
                                 "✓ stub: always solvable)", True, p.muted),
                     vp.point(x, y + h - 6))
        bad = [n for n in SIZES if values.get(n)]
        known = "" if busy else "\n\nBad sizes up to 64: " + ", ".join(map(str, bad))
        draw_text_block(surface, THEOREMS + known, theme.font(14 * vp.scale), p.text,
                        vp.rect(660, 90, 280, 560))

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "ExplorerScene", "busy": self.worker.busy,
                "nullity": {str(n): v for n, v in sorted(self.values.items())}}
