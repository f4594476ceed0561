"""Notices ("toasts"): short messages stacked in a corner that never hides the game.

Two kinds, told apart by more than hue:

* **info** ("Code copied to the clipboard."): a round ⓘ-style icon and a thin
  border; it goes away by itself after :data:`INFO_SECONDS` of frame time (the
  frame loop's ``dt``, so tests step time instead of sleeping);
* **warning** ("The settings could not be saved: …"): a triangle ⚠-style icon,
  a thick border in the "bad" colour and a ✕; it stays until clicked or
  dismissed with Esc (newest first), because a player must not miss it.

The same text notified again within :data:`REPEAT_SECONDS` shows once (a
repeated info notice stays up a little longer instead).

Toasts stack upward from the bottom-right corner of the window. On a game screen
(any scene whose ``layout()`` names a "toolbar" and a "board") they keep off
both, and off the status bar: below the board, or in the column beside the board
when that holds more. What does not fit waits and is counted ("+2 more").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pygame
from pygame import FRect

from engine.ui.theme import Theme
from engine.ui.viewport import Viewport
from engine.ui.widgets import MIN_TEXT, wrap_text

LEVELS = ("info", "warning")
# Seconds an info notice stays up (counted in frame time).
INFO_SECONDS = 3.0
# The same text again within this many seconds is not shown a second time.
REPEAT_SECONDS = 4.0
# Fade in / out of an info notice (none with "Reduce motion").
FADE_IN = 0.15
FADE_OUT = 0.35
# Design units: widest toast, narrowest column worth using, gaps, padding, icon, text size.
TOAST_W = 380.0
BAND_W = 560.0
NARROW_W = 150.0  # narrowest column beside the board worth using
MIN_TOAST_H = 2 * 10.0 + 22.0  # one notice: its padding and icon (PAD, ICON below)
MARGIN = 8.0
GAP = 6.0
PAD = 10.0
ICON = 22.0
TEXT_SIZE = 15.0
CLOSE_W = 30.0  # the ✕ above, how many more wait (+N) below


@dataclass(eq=False)  # each notice is itself: compared by identity
class Toast:
    """One notice on screen."""

    text: str
    level: str
    age: float = 0.0  # seconds shown (frame time)
    # The last wrapping (font, width, lines): a notice is drawn every frame, and a long
    # path takes far longer to wrap than to draw.
    wrapped: tuple[Any, int, list[str]] | None = field(default=None, repr=False, compare=False)

    @property
    def expires(self) -> bool:
        """Whether it goes away by itself (info) rather than waiting to be dismissed."""
        return self.level == "info"


class Toasts:
    """The live notices, oldest first, and the clock that ages them."""

    def __init__(self, reduce_motion: Callable[[], bool] = lambda: False) -> None:
        self.items: list[Toast] = []
        self._reduce_motion = reduce_motion
        self._clock = 0.0
        # When each text was last shown (clock), for "repeated within a few seconds".
        self._shown_at: dict[str, float] = {}
        # Where the last draw put each toast (screen pixels), for clicks.
        self.placed: list[tuple[Toast, pygame.Rect]] = []
        self.hidden = 0

    # --- the list -----------------------------------------------------------------------
    def add(self, text: str, level: str = "warning") -> bool:
        """Show ``text``; False when it was a repeat and so not shown again."""
        if level not in LEVELS:
            raise ValueError(f"notice level must be one of {LEVELS}, not {level!r}")
        for toast in self.items:
            if toast.text == text:
                # Already up: an info notice starts its time again, a warning just stays.
                if toast.expires and level == "info":
                    toast.age = min(toast.age, FADE_IN)
                toast.level = "warning" if "warning" in (toast.level, level) else "info"
                self._shown_at[text] = self._clock
                return False
        last = self._shown_at.get(text)
        if last is not None and self._clock - last < REPEAT_SECONDS:
            return False  # shown a moment ago (and already gone or dismissed)
        self.items.append(Toast(text, level))
        self._shown_at[text] = self._clock
        return True

    @property
    def texts(self) -> list[str]:
        """The texts of the live notices, oldest first."""
        return [toast.text for toast in self.items]

    def dismiss(self, toast: Toast) -> None:
        """Take ``toast`` away."""
        if toast in self.items:
            self.items.remove(toast)

    def dismiss_newest_warning(self) -> bool:
        """Take the newest warning away (Esc); False when no warning is up."""
        for toast in reversed(self.items):
            if toast.level == "warning":
                self.items.remove(toast)
                return True
        return False

    def keep_newest(self, count: int) -> None:
        """Drop all but the ``count`` newest notices."""
        del self.items[:max(0, len(self.items) - count)]

    def update(self, dt: float) -> None:
        """Age the notices by ``dt`` seconds of frame time; expired info notices go."""
        self._clock += dt
        for toast in self.items:
            toast.age += dt
        self.items = [t for t in self.items if not (t.expires and t.age >= INFO_SECONDS)]
        self._shown_at = {text: when for text, when in self._shown_at.items()
                          if self._clock - when < REPEAT_SECONDS}

    @property
    def active(self) -> bool:
        """Whether frames must keep coming: a notice is counting down, or a repeat is
        being held back (its few seconds are counted in frame time too)."""
        return any(t.expires for t in self.items) or bool(self._shown_at)

    def warning_showing(self) -> bool:
        """Whether a warning is up (Esc then dismisses it instead of reaching the screen)."""
        return any(t.level == "warning" for t in self.items)

    # --- where ----------------------------------------------------------------------------
    def hit(self, pos: tuple[int, int]) -> Toast | None:
        """The toast drawn at screen point ``pos`` (as of the last draw), if any."""
        for toast, rect in self.placed:
            if rect.collidepoint(pos) and toast in self.items:
                return toast
        return None

    def alpha(self, toast: Toast) -> int:
        """Opacity 0..255: info notices fade in and out unless motion is reduced."""
        if not toast.expires or self._reduce_motion():
            return 255
        t = min(toast.age / FADE_IN, (INFO_SECONDS - toast.age) / FADE_OUT, 1.0)
        return max(0, min(255, round(255 * t)))

    def draw(self, surface: pygame.Surface, vp: Viewport, theme: Theme,
             column: FRect) -> None:
        """Draw the newest notices that fit ``column`` (design units), newest at the bottom."""
        self.placed = []
        self.hidden = 0
        if not self.items:
            return
        font = theme.font(TEXT_SIZE * vp.scale)
        text_w = max(1, vp.px(column.w - 3 * PAD - ICON - CLOSE_W))
        line_h = font.get_linesize() / vp.scale
        bottom = column.bottom
        shown: list[tuple[Toast, list[str], FRect]] = []
        for index in range(len(self.items) - 1, -1, -1):
            toast = self.items[index]
            if toast.wrapped is None or toast.wrapped[:2] != (font, text_w):
                toast.wrapped = (font, text_w, _wrap(toast.text, font, text_w))
            lines = list(toast.wrapped[2])
            if not shown:
                # The newest always shows; in a very short column, as many lines as fit.
                room = max(1, int((column.h - 2 * PAD) // line_h))
                if len(lines) > room:
                    lines = lines[:room - 1] + [lines[room - 1] + " …"]
            height = max(ICON, len(lines) * line_h) + 2 * PAD
            widest = max(font.size(line)[0] for line in lines) / vp.scale
            width = min(column.w, widest + 3 * PAD + ICON + CLOSE_W)
            rect = FRect(column.right - width, max(column.top, bottom - height), width, height)
            if shown and bottom - height < column.top:
                self.hidden = index + 1  # these wait for room ("+N more")
                break
            shown.append((toast, lines, rect))
            bottom = rect.top - GAP
        for i, (toast, lines, rect) in enumerate(shown):
            more = self.hidden if i == len(shown) - 1 else 0
            screen_rect = vp.map_rect(tuple(rect))
            self._draw_one(surface, vp, theme, toast, lines, screen_rect, more)
            self.placed.append((toast, screen_rect))

    def _draw_one(self, surface: pygame.Surface, vp: Viewport, theme: Theme, toast: Toast,
                  lines: Sequence[str], rect: pygame.Rect, more: int) -> None:
        p = theme.palette
        warning = toast.level == "warning"
        card = pygame.Surface(rect.size, pygame.SRCALPHA)
        local = card.get_rect()
        radius = vp.px(8)
        pygame.draw.rect(card, p.panel, local, border_radius=radius)
        # Warnings: a thick frame in the "bad" colour; info: a thin neutral one.
        edge, width = (p.bad, vp.px(3)) if warning else (p.panel_edge, vp.px(1))
        pygame.draw.rect(card, edge, local, width, border_radius=radius)
        pad, icon = vp.px(PAD), vp.px(ICON)
        icon_rect = pygame.Rect(pad, pad, icon, icon)
        if warning:
            _warning_icon(card, icon_rect, p.bad, p.panel, theme, vp)
        else:
            _info_icon(card, icon_rect, p.text, p.panel, theme, vp)
        font = theme.font(TEXT_SIZE * vp.scale)
        x = icon_rect.right + pad
        y = pad + max(0, (icon - font.get_linesize() * len(lines)) // 2)
        for line in lines:
            card.blit(font.render(line, True, p.text), (x, y))
            y += font.get_linesize()
        # The right-hand strip: a ✕ on warnings (click or Esc), and how many notices
        # wait for room below this one ("+2").
        strip = pygame.Rect(local.right - vp.px(CLOSE_W), 0, vp.px(CLOSE_W), local.h)
        if warning:
            mark = theme.font(TEXT_SIZE * vp.scale, bold=True).render("✕", True, p.muted)
            card.blit(mark, mark.get_rect(midtop=(strip.centerx - vp.px(2), pad // 2)))
        if more:
            tag = theme.font(MIN_TEXT * vp.scale, bold=True).render(f"+{more}", True, p.text)
            card.blit(tag, tag.get_rect(midbottom=(strip.centerx - vp.px(2),
                                                   local.bottom - vp.px(5))))
        if toast.expires and not self._reduce_motion():
            # How long it has left: a line that shortens along the bottom edge.
            left = max(0.0, 1 - toast.age / INFO_SECONDS)
            y_line = local.bottom - vp.px(3)
            pygame.draw.line(card, p.panel_edge, (radius, y_line),
                             (radius + round((local.w - 2 * radius) * left), y_line),
                             vp.px(2))
        card.set_alpha(self.alpha(toast))
        surface.blit(card, rect)


def _wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Lines of ``text`` that fit ``width`` pixels; a word too long for a line (a file's
    path) is broken between characters rather than run off the toast."""
    lines: list[str] = []
    for line in wrap_text(text, font, width):
        while font.size(line)[0] > width and len(line) > 1:
            # The longest head that fits, by halving: a path of thousands of characters
            # (a profile folder's name) took minutes per frame one character at a time.
            fits, too_long = 1, len(line)
            while too_long - fits > 1:
                middle = (fits + too_long) // 2
                if font.size(line[:middle])[0] > width:
                    too_long = middle
                else:
                    fits = middle
            lines.append(line[:fits])
            line = line[fits:]
        lines.append(line)
    return lines


def _info_icon(surface: pygame.Surface, rect: pygame.Rect, colour: Any, ink: Any,
               theme: Theme, vp: Viewport) -> None:
    """A filled circle with an "i": information."""
    pygame.draw.circle(surface, colour, rect.center, rect.w // 2)
    glyph = theme.font(rect.h * 0.8, bold=True).render("i", True, ink)
    surface.blit(glyph, glyph.get_rect(center=rect.center))


def _warning_icon(surface: pygame.Surface, rect: pygame.Rect, colour: Any, ink: Any,
                  theme: Theme, vp: Viewport) -> None:
    """A filled triangle with an "!": a warning (a different shape, not just a colour)."""
    pygame.draw.polygon(surface, colour, [(rect.centerx, rect.top), rect.bottomright,
                                          rect.bottomleft])
    glyph = theme.font(rect.h * 0.65, bold=True).render("!", True, ink)
    surface.blit(glyph, glyph.get_rect(midbottom=(rect.centerx, rect.bottom + vp.px(1))))


def toast_column(area: FRect, toolbar: FRect | None = None, board: FRect | None = None,
                 status: FRect | None = None) -> FRect:
    """Where toasts may go (design units): a column in a corner of ``area`` that keeps
    off ``toolbar``, ``board`` and the ``status`` bar (the line a player reads for whose
    turn it is must never be hidden, not even for a moment).

    On a game screen, two candidates, both ending above the status bar: the band under
    the board, right-aligned and up to :data:`BAND_W` wide; and the column beside the
    board on the right (over the game's extras), at least :data:`NARROW_W` wide. Of
    those tall enough for one notice, the one with more room for text wins (the band on
    a tie); when neither is, the taller. Elsewhere: the lower part of the bottom-right
    corner.
    """
    right = area.right - MARGIN
    bottom = (status.top if status is not None else area.bottom) - MARGIN
    ceiling = (toolbar.bottom if toolbar is not None else area.y) + MARGIN
    if board is None:
        top = max(ceiling, area.y + area.h * 0.3)  # screens without a board: the lower part
        width = min(BAND_W, area.w - 2 * MARGIN)
        return FRect(right - width, top, width, max(0.0, bottom - top))
    width = min(BAND_W, area.w - 2 * MARGIN)
    top = ceiling
    if right - width < board.right and right > board.left:
        top = max(ceiling, board.bottom + MARGIN)
    candidates = [FRect(right - width, top, width, max(0.0, bottom - top))]
    beside_w = min(TOAST_W, right - (board.right + MARGIN))
    if beside_w >= NARROW_W:
        candidates.append(FRect(right - beside_w, ceiling, beside_w, max(0.0, bottom - ceiling)))

    def room(column: FRect) -> float:
        """Design area left for text (icon, padding and the ✕ strip taken off)."""
        return column.h * max(0.0, min(column.w, TOAST_W) - 3 * PAD - ICON - CLOSE_W)

    tall = [c for c in candidates if c.h >= MIN_TOAST_H]
    if not tall:
        return max(candidates, key=lambda c: c.h)
    return max(tall, key=room)  # max keeps the first (the band) on a tie


def column_for(scenes: Sequence[Any], vp: Viewport) -> FRect:
    """The toast column for the scene stack: it avoids the toolbar and board of the
    topmost full screen (overlays are drawn over it, so its board is still there)."""
    base = None
    for scene in reversed(scenes):
        if not getattr(scene, "overlay", False):
            base = scene
            break
    rects: Any = {}
    layout = getattr(base, "layout", None)
    if callable(layout):
        try:
            rects = layout()
        except (AttributeError, KeyError, TypeError):
            rects = {}
    if not isinstance(rects, dict):
        rects = {}
    return toast_column(vp.area, rects.get("toolbar"), rects.get("board"),
                        rects.get("status_bar"))
