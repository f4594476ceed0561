"""Scenes: the launcher, each game, each dialog. The app keeps them on a stack.

Here: the :class:`Scene` base, the :class:`Overlay` base of every modal panel, and the
:class:`HelpOverlay` that F1 opens over any screen (one module, so that every screen can
open its help without an import cycle).

An overlay declares its panel as a rectangle of the 960×720 design space, centred
on it, and places its widgets in that frame. In any window the panel stays centred
in the part of the design space the window shows (:attr:`Viewport.area`); where
the declared panel does not fit there (a 640×480 window shows 800×600 units) it
shrinks to what does, and its fixed widget places shrink with it, so a dialog is
never larger than the window and nothing of it is cut off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame
from pygame import FRect

from engine.core.i18n import N_, _
from engine.ui.widgets import (
    Button,
    Label,
    Rect,
    WidgetGroup,
    ellipsize,
    scroll_step,
    wrap_text,
)

if TYPE_CHECKING:
    from engine.runtime.app import App


# Room kept between an overlay's panel and the window's edges (design units).
PANEL_MARGIN = 12.0


class Scene:
    """Base class: override what you need.

    ``overlay`` scenes (help, dialogs) are drawn over the scene beneath them
    and take all input while open (they are modal).
    """

    overlay = False
    # Screens with nothing to lose (statistics, charts) close on Esc.
    closes_on_escape = False
    # Marked with N_ and translated when shown (see engine/core/i18n.py).
    help_title = N_("Help")
    help_text = N_("No help for this screen.")

    def __init__(self, app: App) -> None:
        self.app = app
        self.ui = WidgetGroup()

    # lifecycle -------------------------------------------------------------
    def enter(self) -> None:
        """Called when pushed (or swapped in) onto the stack."""

    def leave(self) -> None:
        """Called when popped or replaced; stop background work here."""

    def resume(self) -> None:
        """Called when the scene above this one was popped."""

    def covered(self) -> None:
        """Called when another scene (a dialog, the help, a screen) is pushed above this one.

        The scene stays on the stack but is no longer the one receiving input: a puzzle
        stops its clock here. :meth:`uncovered` follows once this scene is on top again.
        """

    def uncovered(self) -> None:
        """Called when this scene is on top again after :meth:`covered` (just before
        :meth:`resume`)."""

    # frame -----------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        """Route an input event: Esc closes the screen if it says so, else the widgets get it."""
        if (self.closes_on_escape and event.type == pygame.KEYDOWN
                and event.key == pygame.K_ESCAPE):
            self.app.pop()
            return
        self.ui.handle_event(event, self.app.viewport)

    def update(self, dt: float) -> None:
        """Advance time-based state by ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene; the default draws the widgets on the background."""
        surface.fill(self.app.theme.palette.background)
        self.ui.draw(surface, self.app.viewport, self.app.theme)

    def toggle_help(self) -> None:
        """F1 or a Help button: open this screen's help over it (the help closes itself)."""
        self.app.push(HelpOverlay(self.app, self.help_title, self.help_text))

    def is_active(self) -> bool:
        """True while animating or thinking, so the app keeps drawing frames."""
        return False

    def debug_state(self) -> dict[str, Any]:
        """A JSON-friendly summary for tests (the --dump-state option)."""
        return {"scene": type(self).__name__}


class Overlay(Scene):
    """A dimmed backdrop with a centred panel; Esc closes it.

    ``panel`` is the panel as designed (design units); :meth:`panel_rect` is where it
    is in the current window and :meth:`to_panel` maps a rectangle of the designed
    panel there. Fixed widget places are mapped that way (see the module's notes);
    a widget whose place is a callable is placed by it as it is.
    """

    overlay = True
    panel: Rect = (180.0, 110.0, 600.0, 500.0)

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.ui = WidgetGroup(frame=self.to_panel)

    def room(self) -> FRect:
        """The part of the window a panel may use: the visible area less a margin."""
        return self.app.viewport.area.inflate(-2 * PANEL_MARGIN, -2 * PANEL_MARGIN)

    def panel_rect(self) -> FRect:
        """The panel in the current window (design units): as declared where that fits,
        else as large as fits, centred where it was meant to be and kept on screen."""
        declared = FRect(self.panel)
        room = self.room()
        if room.contains(declared):
            return declared
        rect = FRect(0, 0, min(declared.w, room.w), min(declared.h, room.h))
        rect.center = declared.center
        return rect.clamp(room)

    def to_panel(self, rect: Rect) -> Rect:
        """Where a rectangle given in the declared panel's frame is now."""
        x0, y0, w0, h0 = self.panel
        now = self.panel_rect()
        sx, sy = now.w / w0, now.h / h0
        x, y, w, h = rect
        return (now.x + (x - x0) * sx, now.y + (y - y0) * sy, w * sx, h * sy)

    def close(self) -> None:
        """Pop this overlay."""
        if self.app.top is self:
            self.app.pop()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()
            return
        self.ui.handle_event(event, self.app.viewport)

    def draw(self, surface: pygame.Surface) -> None:
        p = self.app.theme.palette
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill(p.shade)
        surface.blit(shade, (0, 0))
        vp = self.app.viewport
        rect = vp.map_rect(self.panel_rect())
        pygame.draw.rect(surface, p.panel, rect, border_radius=vp.px(12))
        pygame.draw.rect(surface, p.panel_edge, rect, vp.px(2), border_radius=vp.px(12))
        self.draw_body(surface, rect)
        self.ui.draw(surface, vp, self.app.theme)

    def draw_body(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """Draw the panel's content (besides widgets)."""

    def debug_state(self) -> dict[str, Any]:
        return {"scene": type(self).__name__, "overlay": True}


class HelpOverlay(Overlay):
    """Shows a title and wrapped text; scrolls with the wheel or the keys.

    The panel is as tall as the text needs, up to the window's height (so a tall
    window shows long rules whole); what does not fit scrolls, with a scroll bar and
    a "scroll for more" line telling which lines are shown.
    """

    help_title = N_("Help")
    help_text = N_("Esc, F1 or Close shuts this help. Scroll with the mouse wheel, the arrow "
                   "keys, Page Up / Page Down, Home and End.")
    panel = (110.0, 40.0, 740.0, 640.0)
    PAD = 24.0
    TITLE_H = 44.0  # the title's row
    FOOT_H = 64.0  # Close and the scroll cue, below the text
    BAR_W = 14.0  # the scroll bar, right of the text
    MIN_H = 300.0
    TEXT_SIZE = 17.0

    def toggle_help(self) -> None:
        """F1 again closes the help."""
        self.app.pop()

    def __init__(self, app: App, title: str, text: str) -> None:
        super().__init__(app)
        # Shown in the current language (a help text is marked with N_ where it is written).
        self.title = title = _(title)
        self.text = _(text)
        self.scroll = 0
        self._wrapped: tuple[tuple[str, int, float], list[str]] | None = None
        # The "scroll for more" line drawn last frame (None: everything fits), for tests.
        self.cue: str | None = None
        self.cue_rect: pygame.Rect | None = None
        self.ui.add(Label(lambda: self._title_rect(), title, size=28, bold=True, role="accent",
                          fit_lines=1, min_size=20))
        self.ui.add(Button(lambda: self._close_rect(), N_("Close"), self.close, name="Close"))

    # --- layout (design units) -------------------------------------------------------------
    def _lines(self, width: float) -> list[str]:
        """The text wrapped to ``width`` design units at the current scale (cached)."""
        vp, theme = self.app.viewport, self.app.theme
        key = (self.text, vp.px(width), vp.scale)
        if self._wrapped is None or self._wrapped[0] != key:
            font = theme.font(self.TEXT_SIZE * vp.scale)
            self._wrapped = (key, wrap_text(self.text, font, vp.px(width)))
        return self._wrapped[1]

    def _line_h(self) -> float:
        vp = self.app.viewport
        return self.app.theme.font(self.TEXT_SIZE * vp.scale).get_linesize() / vp.scale

    def panel_rect(self) -> FRect:
        room = self.room()
        w = min(self.panel[2], room.w)
        text_w = w - 2 * self.PAD - self.BAR_W
        need = (2 * self.PAD + self.TITLE_H + len(self._lines(text_w)) * self._line_h()
                + self.FOOT_H)
        rect = FRect(0, 0, w, max(min(self.MIN_H, room.h), min(need, room.h)))
        rect.center = room.center
        return rect

    def _title_rect(self) -> Rect:
        panel = self.panel_rect()
        return (panel.x + self.PAD, panel.y + self.PAD, panel.w - 2 * self.PAD, 40)

    def _close_rect(self) -> Rect:
        panel = self.panel_rect()
        return (panel.right - self.PAD - 120, panel.bottom - self.PAD - 40, 120, 40)

    def _body(self) -> FRect:
        """Where the text goes (the scroll bar is right of it)."""
        panel = self.panel_rect()
        top = panel.y + self.PAD + self.TITLE_H
        return FRect(panel.x + self.PAD, top, panel.w - 2 * self.PAD - self.BAR_W,
                     panel.bottom - self.FOOT_H - top)

    def metrics(self) -> tuple[int, int]:
        """(how many lines the text has, how many are shown at once) in this window."""
        body = self._body()
        lines = self._lines(body.w)
        return len(lines), max(1, int(body.h // self._line_h()))

    def scroll_by(self, lines: int) -> None:
        """Scroll by ``lines`` (negative: up), within the text."""
        total, shown = self.metrics()
        self.scroll = max(0, min(self.scroll + lines, total - shown))

    # --- events --------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.close()
            return
        step = scroll_step(event, max(1, self.metrics()[1] - 1))
        if step is not None:
            self.scroll_by(step)
            return
        super().handle_event(event)

    # --- drawing -------------------------------------------------------------------------
    def draw_body(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        body = self._body()
        font = theme.font(self.TEXT_SIZE * vp.scale)
        lines = self._lines(body.w)
        total, shown = self.metrics()
        self.scroll = max(0, min(self.scroll, total - shown))  # the window may have grown
        x, y = vp.point(body.x, body.y)
        for line in lines[self.scroll:self.scroll + shown]:
            surface.blit(font.render(line, True, p.text), (x, y))
            y += font.get_linesize()
        self.cue = self.cue_rect = None
        if total <= shown:
            return
        # The scroll bar: the track the text's height, the thumb the part shown.
        track = vp.map_rect((body.right + self.BAR_W / 2 - 3, body.y, 6, body.h))
        pygame.draw.rect(surface, p.panel_edge, track, border_radius=vp.px(3))
        thumb_h = max(vp.px(16), round(track.height * shown / total))
        thumb_y = track.y + round((track.height - thumb_h) * self.scroll / (total - shown))
        pygame.draw.rect(surface, p.accent, (track.x, thumb_y, track.width, thumb_h),
                         border_radius=vp.px(3))
        last = min(total, self.scroll + shown)
        more = _("scroll for more ▼") if last < total else _("▲ scroll up for the start")
        self.cue = _("Lines {first}–{last} of {total} · {more}").format(
            first=self.scroll + 1, last=last, total=total, more=more)
        close = self._close_rect()
        cue_area = vp.map_rect((body.x, close[1], close[0] - 12 - body.x, close[3]))
        small = theme.font(14 * vp.scale)
        text = ellipsize(self.cue, small, cue_area.width)
        image = small.render(text, True, p.accent if last < total else p.muted)
        self.cue_rect = surface.blit(image, image.get_rect(midleft=cue_area.midleft))

    def debug_state(self) -> dict[str, Any]:
        total, shown = self.metrics()
        return {"scene": "HelpOverlay", "overlay": True, "title": self.title,
                "scroll": self.scroll, "lines": total, "shown": shown}
