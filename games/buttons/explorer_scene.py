"""Which board sizes can always be solved? A chart of the null-space dimension, n = 1…64."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame
from pygame import FRect

from engine.ai.agent import Cancelled
from engine.ai.runner import AIRunner
from engine.core.i18n import N_, _
from engine.screens.scene import Scene
from engine.ui.board.draw import hatch
from engine.ui.widgets import MIN_TEXT, Button, Label, wrap_fitting, wrap_text

if TYPE_CHECKING:
    from engine.runtime.app import App

SIZES = range(1, 65)
# The theorems' column beside the chart (wide windows) or the band under it (tall ones).
TEXT_W = 300.0
TOP_H = 64.0  # Back, title and ? across the top
MARGIN = 16.0
# In a tall window the chart never grows taller than this: bars as tall as a whole
# portrait window would only stretch the same 64 values.
CHART_MAX_H = 560.0
THEOREMS = N_(
    "n is bad when some n×n board cannot be solved; then the null space (press patterns "
    "that change nothing) has dimension > 0, and a solvable board has 2^dim solutions.\n\n"
    "Rules you can check in the chart:\n\n"
    "• every multiple of a bad n is bad;\n\n"
    "• half of a bad even n is bad;\n\n"
    "• 2^k − 1 is bad for every k except 1 and 3 (3, 15, 31, 63 bad; 1, 7 good);\n\n"
    "• 2^k + 1 is bad for every k > 0 (3, 5, 9, 17, 33 …)."
)


class ExplorerScene(Scene):
    """Bars of the nullity per size; bad sizes striped and labelled, good ones short stubs."""

    closes_on_escape = True
    help_title = N_("Which sizes are solvable?")
    help_text = N_("Each bar is one board size n (1 to 64). Its height is the dimension of the "
                   "null space of the n×n torus: 0 (a short green stub) means every board has "
                   "exactly one solution; a taller, striped bar means some boards cannot be "
                   "solved and the others have several solutions. Esc or Back returns to the "
                   "game.")

    def __init__(self, app: App) -> None:
        super().__init__(app)
        # The 64 eliminations take a few hundred milliseconds the first time: they run
        # off the frame loop and the bars appear as they are worked out.
        self.values: dict[int, int] = {}
        self.error: str | None = None
        # What the last frame drew, in pixels (for tests): each size's bar, and each label
        # (a bad size's value over its bar, every fourth size under the base line).
        self.bar_rects: dict[int, pygame.Rect] = {}
        self.label_rects: list[tuple[str, pygame.Rect]] = []
        self.worker = AIRunner()
        self.ui.add(Button(self._place("Back"), N_("← Back"), app.pop, name="Back"))
        self.ui.add(Label(self._place("title"), N_("Which sizes are solvable?"), size=26, bold=True,
                          role="accent", fit_lines=1, min_size=16))
        self.ui.add(Button(self._place("?"), "?", app.help, name="?"))

    def _place(self, name: str) -> Callable[[], tuple[float, float, float, float]]:
        """A widget place following the layout entry ``name``."""
        return lambda: tuple(self.layout()[name])  # type: ignore[return-value]

    def layout(self) -> dict[str, FRect]:
        """Design rectangles of the window's area: the top row's widgets, "chart" and
        "text" (the theorems: beside the chart, or under it in a tall window)."""
        area = self.app.viewport.area
        y = area.y + (TOP_H - 40) / 2
        rects = {"Back": FRect(area.x + MARGIN, y, 110, 40),
                 "?": FRect(area.right - MARGIN - 54, y, 54, 40)}
        rects["title"] = FRect(area.x + MARGIN + 124, y, area.w - 2 * MARGIN - 124 - 68, 40)
        top = area.y + TOP_H + MARGIN
        if area.h > area.w:  # tall: the chart across the top, the text under it
            height = min(CHART_MAX_H, (area.bottom - top) * 0.55)
            rects["chart"] = FRect(area.x + MARGIN, top, area.w - 2 * MARGIN, height)
            text_top = top + height + MARGIN
            rects["text"] = FRect(area.x + MARGIN, text_top, area.w - 2 * MARGIN,
                                  area.bottom - MARGIN - text_top)
        else:
            width = area.w - 3 * MARGIN - TEXT_W
            height = area.bottom - MARGIN - top
            rects["chart"] = FRect(area.x + MARGIN, top, width, height)
            rects["text"] = FRect(area.right - MARGIN - TEXT_W, top, TEXT_W,
                                  area.bottom - MARGIN - top)
        return rects

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
            self.error = _("The chart could not be worked out: {error}").format(
                error=result.error)
            self.app.notify(self.error, "warning")

    def is_active(self) -> bool:
        return self.worker.busy

    def busy_label(self) -> str | None:
        """"working out…" until every bar is known."""
        return _("working out…") if self.worker.busy else None

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        rects = self.layout()
        chart = vp.map_rect(tuple(rects["chart"]))
        values = dict(self.values)  # the worker may be adding to it
        busy = self.busy_label()
        font = theme.font(14 * vp.scale)
        line_h = font.get_linesize()
        if busy:
            bold = theme.font(16 * vp.scale, bold=True)
            text = wrap_fitting(_("{busy} {count} of {total} sizes").format(
                busy=busy, count=len(values), total=len(SIZES)), bold, chart.width, 1)[0]
            surface.blit(bold.render(text, True, p.accent), chart.topleft)
        # Bars stand on a base line; under it the sizes and a two-line caption.
        caption = wrap_fitting(_("board size n →   (bar height: null-space dimension; short "
                             "stub: always solvable)"), font, chart.width, 2)
        small = theme.font(MIN_TEXT * vp.scale)
        base = chart.bottom - len(caption) * line_h - small.get_linesize() - vp.px(8)
        usable = base - chart.top - vp.px(30) - small.get_linesize()
        top = max(values.values(), default=0) or 1
        bar_w = chart.width / len(SIZES)
        gap = 1 if bar_w > 3 else 0
        bars: list[pygame.Rect] = []
        self.bar_rects, self.label_rects = {}, []
        for i, n in enumerate(SIZES):
            value = values.get(n)
            bx = chart.x + i * bar_w
            left, right = round(bx) + gap, round(bx + bar_w) - gap
            if value is None:
                pass  # not worked out yet
            elif value == 0:
                stub = vp.px(6)
                self.bar_rects[n] = pygame.Rect(left, base - stub, right - left, stub)
                pygame.draw.rect(surface, p.good, self.bar_rects[n])
            else:
                height = max(vp.px(10), round(usable * value / top))
                rect = pygame.Rect(left, base - height, right - left, height)
                self.bar_rects[n] = rect
                bars.append(rect)
                pygame.draw.rect(surface, p.bad, rect)
                hatch(surface, rect, p.background, vp.px(6), 1)
            if n % 4 == 0 or n == 1:
                label = small.render(str(n), True, p.muted)
                spot = label.get_rect(midtop=(round(bx + bar_w / 2), base + vp.px(4)))
                spot.x = max(chart.x, min(spot.x, chart.right - spot.width))  # 64 at the edge
                surface.blit(label, spot)
                self.label_rects.append((str(n), spot))
        # Each bad size's value over its bar: a label is wider than a bar, so it clears the
        # bars under it and the labels already placed, rising a line at a time (issue 28:
        # the values of neighbouring sizes were drawn over each other).
        placed: list[pygame.Rect] = []
        for rect in bars:
            n = next(k for k, r in self.bar_rects.items() if r is rect)
            label = small.render(str(values[n]), True, p.text)
            spot = label.get_rect(midbottom=(rect.centerx, rect.top - 2))
            spot.x = max(chart.x, min(spot.x, chart.right - spot.width))
            under = [b.top for b in bars if b.left < spot.right and b.right > spot.left]
            spot.bottom = min(under) - 2
            while spot.collidelist(placed) != -1 and spot.top > chart.top:
                spot.bottom = min(r.top for r in placed if r.colliderect(spot)) - 1
            placed.append(spot)
            if spot.bottom < rect.top - 4:
                # Lifted over a neighbour: a thin line down to its own bar says whose it is.
                pygame.draw.line(surface, p.muted, (rect.centerx, spot.bottom),
                                 (rect.centerx, rect.top - 1), 1)
            surface.blit(label, spot)
            self.label_rects.append((str(values[n]), spot))
        pygame.draw.line(surface, p.grid, (chart.x, base), (chart.right, base), 1)
        y = chart.bottom - len(caption) * line_h
        for line in caption:
            surface.blit(font.render(line, True, p.muted), (chart.x, y))
            y += line_h
        bad = [n for n in SIZES if values.get(n)]
        known = "" if busy else "\n\n" + _("Bad sizes up to 64: {sizes}").format(
            sizes=", ".join(map(str, bad)))
        self._draw_text(surface, _(THEOREMS) + known, vp.map_rect(tuple(rects["text"])))

    def _draw_text(self, surface: pygame.Surface, text: str, rect: pygame.Rect) -> None:
        """``text`` in ``rect`` from its top, in the largest size (14 down to 10) that fits;
        if even that does not, the last line that fits ends in "…"."""
        vp, theme = self.app.viewport, self.app.theme
        for size in (14, 13, 12, 11, 10):
            font = theme.font(size * vp.scale)
            lines = wrap_text(text, font, rect.width)
            most = max(1, rect.height // font.get_linesize())
            if len(lines) <= most:
                break
        if len(lines) > most:
            lines = wrap_fitting(text, font, rect.width, most)
        y = rect.y
        for line in lines:
            surface.blit(font.render(line, True, theme.palette.text), (rect.x, y))
            y += font.get_linesize()

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "ExplorerScene", "busy": self.worker.busy,
                "nullity": {str(n): v for n, v in sorted(self.values.items())}}
