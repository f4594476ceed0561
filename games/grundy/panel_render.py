"""Drawing shared by the Grundy screens: the extras panel's notes flowing in columns (text
fitted by the widgets' shared helper), the legal-move mark (a double ring) and the last-move
marks (player tags, dashed rings, trails, landing frames, "−n" tags).

Everything takes design-space rectangles and draws through the viewport, so the
screens stay laid out in the window's design area at any size.
"""

from __future__ import annotations

import math
from functools import lru_cache

import pygame
from pygame import FRect

from engine.ui.theme import Colour, Theme
from engine.ui.viewport import Viewport
from engine.ui.widgets import fit_text, wrap_text

# Extras wider than this get more than one column of notes (design units).
NOTE_COLUMN_MIN = 200.0
NOTE_GAP = 12.0


@lru_cache(maxsize=256)
def _line_count(theme: Theme, text: str, size_px: int, bold: bool, width: int) -> int:
    """How many lines ``text`` wraps to (remembered: the notes are drawn every frame)."""
    return len(wrap_text(text, theme.font(size_px, bold), width))


@lru_cache(maxsize=256)
def _fitted(theme: Theme, text: str, box: tuple[int, int], size: float, min_size: float,
            scale: float, bold: bool) -> tuple[float, tuple[str, ...]]:
    """:func:`engine.ui.widgets.fit_text`'s font size and lines, remembered per box."""
    used, lines, _cut = fit_text(theme, text, box, size, min_size, scale, bold)
    return used, tuple(lines)


def draw_lines_down(surface: pygame.Surface, vp: Viewport, font: pygame.font.Font,
                    lines: list[str], colour: Colour, x: float, y: float) -> float:
    """Draw ``lines`` top-down from design point (x, y); returns the design y below them."""
    step = font.get_linesize() / vp.scale
    for line in lines:
        if line:
            surface.blit(font.render(line, True, colour), vp.point(x, y))
        y += step
    return y


class NoteFlow:
    """Blocks of the extras panel's notes placed top-down, in one or more columns.

    The notes box is split into columns at least :data:`NOTE_COLUMN_MIN` wide (one in
    the narrow column beside the board, two or three in the wide strip below it). A
    block goes where the current column still has room, else at the top of the next
    column; text shrinks or shortens with "…" only when no column has room left.
    """

    def __init__(self, surface: pygame.Surface, vp: Viewport, theme: Theme, box: FRect) -> None:
        self.surface, self.vp, self.theme = surface, vp, theme
        count = max(1, min(3, int((box.w + NOTE_GAP) // (NOTE_COLUMN_MIN + NOTE_GAP))))
        width = (box.w - NOTE_GAP * (count - 1)) / count
        self.columns = [FRect(box.x + i * (width + NOTE_GAP), box.y, width, box.h)
                        for i in range(count)]
        self.index = 0
        self.y = box.y

    @property
    def column(self) -> FRect:
        """The column being filled."""
        return self.columns[self.index]

    @property
    def room(self) -> float:
        """Design height left in the current column."""
        return self.column.bottom - self.y

    def _advance_for(self, height: float) -> bool:
        """Move to a later column if this one lacks ``height`` and a later one has it."""
        if height <= self.room:
            return True
        if self.index + 1 < len(self.columns) and self.y > self.column.y:
            self.index += 1
            self.y = self.column.y
            return height <= self.room
        return False

    def text(self, text: str, colour: Colour, size: float = 14, min_size: float = 12,
             bold: bool = False, gap: float = 8) -> None:
        """A wrapped paragraph (shrunk or shortened with "…" only when room runs out)."""
        if not text:
            return
        font = self.theme.font(size * self.vp.scale, bold)
        lines = _line_count(self.theme, text, max(6, round(size * self.vp.scale)), bold,
                            round(self.column.w * self.vp.scale))
        need = lines * font.get_linesize() / self.vp.scale
        self._advance_for(need)
        smallest = self.theme.font(min_size * self.vp.scale, bold).get_linesize() / self.vp.scale
        if self.room < smallest:
            return  # not even one line fits: leave it out rather than draw past the box
        box = (round(self.column.w * self.vp.scale), round(self.room * self.vp.scale))
        used, fitted = _fitted(self.theme, text, box, size, min_size, self.vp.scale, bold)
        font = self.theme.font(used * self.vp.scale, bold)
        self.y = draw_lines_down(self.surface, self.vp, font, list(fitted), colour,
                                 self.column.x, self.y) + gap

    def block(self, height: float, gap: float = 8) -> FRect | None:
        """Room for a drawing ``height`` tall (a legend, a table), or None if none is left."""
        if not self._advance_for(height):
            return None
        rect = FRect(self.column.x, self.y, self.column.w, height)
        self.y += height + gap
        return rect


# --- last-move marks ------------------------------------------------------------------------
def draw_player_tag(surface: pygame.Surface, theme: Theme, centre: tuple[float, float],
                    radius: float, player: int) -> None:
    """A round tag with the player's number, on the player's colour with a dark rim, so
    whose move a mark shows is told by the number as well as the colour."""
    p = theme.palette
    r = max(5, round(radius))
    pygame.draw.circle(surface, p.background, centre, r + max(1, r // 5))
    pygame.draw.circle(surface, p.players[player], centre, r)
    font = theme.font(r * 1.4, bold=True)
    label = font.render(str(player + 1), True, p.background)
    surface.blit(label, label.get_rect(center=(round(centre[0]), round(centre[1]))))


def draw_dashed_ring(surface: pygame.Surface, colour: Colour, centre: tuple[float, float],
                     radius: float, width: int, dashes: int = 12) -> None:
    """A dashed circle: the ghost of a token that was here (where a move started)."""
    r = max(3.0, radius)
    for i in range(dashes):
        a0 = (i / dashes) * 2 * math.pi
        a1 = a0 + math.pi / dashes  # half of each period is dash, half gap
        rect = pygame.Rect(0, 0, round(2 * r), round(2 * r))
        rect.center = (round(centre[0]), round(centre[1]))
        pygame.draw.arc(surface, colour, rect, a0, a1, max(1, width))


def draw_double_ring(surface: pygame.Surface, colour: Colour, centre: tuple[float, float],
                     radius: float, gap: float, width: int) -> None:
    """Two thin solid rings round a circle of ``radius``, ``gap`` apart: a place the
    player may move to. A shape of its own: a fill never looks like it, the token is one
    thick ring, the last move's start a dashed one."""
    inner = radius + width
    pygame.draw.aacircle(surface, colour, centre, inner, max(1, width))
    pygame.draw.aacircle(surface, colour, centre, inner + gap + width, max(1, width))


def draw_dashed_line(surface: pygame.Surface, colour: Colour, a: tuple[float, float],
                     b: tuple[float, float], width: int, dash: float) -> None:
    """A dashed straight line from ``a`` to ``b`` (a token's trail from its old square)."""
    length = math.dist(a, b)
    if length < 1:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    dash = max(2.0, dash)
    d = 0.0
    while d < length:
        e = min(length, d + dash)
        pygame.draw.line(surface, colour, (a[0] + ux * d, a[1] + uy * d),
                         (a[0] + ux * e, a[1] + uy * e), max(1, width))
        d += 2 * dash


def draw_landing_frame(surface: pygame.Surface, theme: Theme, rect: pygame.Rect,
                       width: int) -> None:
    """A thick frame in the focus colour with a dark edge on both sides, inside ``rect``:
    where the last move landed, readable on light and dark squares alike."""
    p = theme.palette
    edge = max(1, width // 3)
    radius = max(2, rect.width // 8)
    pygame.draw.rect(surface, p.background, rect, width + 2 * edge, border_radius=radius)
    inner = rect.inflate(-2 * edge, -2 * edge)
    pygame.draw.rect(surface, p.focus, inner, width, border_radius=max(2, radius - edge))


def pill_rect(theme: Theme, centre: tuple[float, float], text: str, size: float) -> pygame.Rect:
    """The box :func:`draw_pill` fills for ``text`` centred on ``centre`` (its dark rim is
    2 pixels more on every side), so a caller can find a free place before drawing."""
    img = theme.font(size, bold=True).render(text, True, theme.palette.background)
    box = img.get_rect(center=(round(centre[0]), round(centre[1])))
    return box.inflate(max(6, round(size * 0.6)), max(2, round(size * 0.2)))


def draw_pill(surface: pygame.Surface, theme: Theme, centre: tuple[float, float], text: str,
              size: float) -> pygame.Rect:
    """Text on a rounded tag in the focus colour (what a move took: "−3")."""
    p = theme.palette
    font = theme.font(size, bold=True)
    img = font.render(text, True, p.background)
    box = pill_rect(theme, centre, text, size)
    pygame.draw.rect(surface, p.background, box.inflate(4, 4), border_radius=box.height // 2 + 2)
    pygame.draw.rect(surface, p.focus, box, border_radius=box.height // 2)
    surface.blit(img, img.get_rect(center=box.center))
    return box
