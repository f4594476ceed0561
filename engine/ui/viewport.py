"""Logical-to-screen mapping in design units.

The 960×720 design space is scaled (never below :data:`MIN_SCALE`, so text stays
readable, except in a window below the minimum size, where :data:`MIN_AREA` is scaled
down to fit) and centred in the window. Screens lay themselves out in
:attr:`Viewport.area`, the part of the design plane the window shows: wider than
960 in a wide window, taller than 720 in a tall one, and as small as
:data:`MIN_AREA` in the smallest window allowed. Fonts are re-rasterised at the
scaled size, so text stays sharp.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

DESIGN_SIZE = (960, 720)
# Smallest scale: below it 13-unit text would fall under ~10 pixels. Windows
# smaller than the design space at this scale show a smaller area instead.
MIN_SCALE = 0.8
# The smallest window the app allows, and the design area it shows.
MIN_WINDOW = (640, 480)
MIN_AREA = (MIN_WINDOW[0] / MIN_SCALE, MIN_WINDOW[1] / MIN_SCALE)


@dataclass(frozen=True)
class Viewport:
    """Maps design-space coordinates to the window's pixels."""

    scale: float
    offset_x: int
    offset_y: int
    window: tuple[int, int]

    @classmethod
    def fit(cls, window_size: tuple[int, int]) -> Viewport:
        """The largest centred copy of the design space that fits the window."""
        w, h = max(1, window_size[0]), max(1, window_size[1])
        # A window below the minimum (a window manager that ignores the size hints: the
        # app never re-creates the window to enforce them) shows MIN_AREA scaled down
        # to fit, so every screen lays out as at the minimum and nothing is cut off.
        floor = min(MIN_SCALE, w / MIN_AREA[0], h / MIN_AREA[1])
        scale = max(floor, min(w / DESIGN_SIZE[0], h / DESIGN_SIZE[1]))
        ox = round((w - DESIGN_SIZE[0] * scale) / 2)
        oy = round((h - DESIGN_SIZE[1] * scale) / 2)
        return cls(scale, ox, oy, (w, h))

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        """Screen rectangle of a design-space rectangle."""
        x0 = round(self.offset_x + x * self.scale)
        y0 = round(self.offset_y + y * self.scale)
        x1 = round(self.offset_x + (x + w) * self.scale)
        y1 = round(self.offset_y + (y + h) * self.scale)
        return pygame.Rect(x0, y0, x1 - x0, y1 - y0)

    def map_rect(self, r: pygame.Rect | tuple[float, float, float, float]) -> pygame.Rect:
        """Screen rectangle of a design-space Rect or (x, y, w, h) tuple."""
        return self.rect(*tuple(r))

    def point(self, x: float, y: float) -> tuple[int, int]:
        """Screen point of a design-space point."""
        return (round(self.offset_x + x * self.scale), round(self.offset_y + y * self.scale))

    def to_design(self, pos: tuple[int, int]) -> tuple[float, float]:
        """Design-space point of a screen point (for hit tests)."""
        return ((pos[0] - self.offset_x) / self.scale, (pos[1] - self.offset_y) / self.scale)

    def px(self, length: float) -> int:
        """A design-space length in pixels, at least 1."""
        return max(1, round(length * self.scale))

    @property
    def area(self) -> pygame.FRect:
        """The design-space rectangle the window shows (see :func:`visible_design_rect`)."""
        return pygame.FRect(visible_design_rect(self))

    @property
    def content(self) -> pygame.Rect:
        """The whole design space on screen."""
        return self.rect(0, 0, *DESIGN_SIZE)


def visible_design_rect(vp: Viewport) -> tuple[float, float, float, float]:
    """The design-space rectangle ``(x, y, w, h)`` that the whole window covers.

    A wide window gives negative x and a width over 960, a tall one negative y and a
    height over 720; a window smaller than the design space at :data:`MIN_SCALE`
    gives a rectangle inside it. Screens that lay themselves out in it use all of
    the window while keeping the design space's units (and so font sizes and line
    widths). It is never smaller than :data:`MIN_AREA`: should a window manager let the
    window shrink below the minimum anyway, :meth:`Viewport.fit` scales the view down
    so that all of MIN_AREA is on screen (the crop below is only a guard).
    """
    w, h = vp.window
    x, y, aw, ah = -vp.offset_x / vp.scale, -vp.offset_y / vp.scale, w / vp.scale, h / vp.scale
    if aw < MIN_AREA[0]:
        x, aw = x - (MIN_AREA[0] - aw) / 2, MIN_AREA[0]
    if ah < MIN_AREA[1]:
        y, ah = y - (MIN_AREA[1] - ah) / 2, MIN_AREA[1]
    return (x, y, aw, ah)
