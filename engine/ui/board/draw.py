"""Anti-aliased vector drawing for boards: grid, highlights, marks, lines, text.

Everything is drawn from the geometry each frame, so it scales with the window.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

import pygame

from engine.ui.board.geometry import BoardGeometry, Cell
from engine.ui.theme import Colour

# The shapes that tell players apart without colour: X, O, triangle.
MARK_SHAPES = ("x", "o", "triangle")


def draw_grid(surface: pygame.Surface, geom: BoardGeometry, board: Colour, grid: Colour) -> None:
    """Fill the board and draw its inner and outer grid lines."""
    outer = geom.rect
    pygame.draw.rect(surface, board, outer)
    width = max(1, round(geom.cell_size / 40))
    for r in range(1, geom.rows):
        y = geom.cell_rect(r, 0).top
        pygame.draw.line(surface, grid, (outer.left, y), (outer.right - 1, y), width)
    for c in range(1, geom.cols):
        x = geom.cell_rect(0, c).left
        pygame.draw.line(surface, grid, (x, outer.top), (x, outer.bottom - 1), width)
    pygame.draw.rect(surface, grid, outer, width + 1)


def fill_cell(
    surface: pygame.Surface, geom: BoardGeometry, cell: Cell, colour: Colour, alpha: int = 255
) -> None:
    """Fill one cell (inset by a pixel so the grid stays visible)."""
    rect = geom.cell_rect(*cell).inflate(-2, -2)
    if rect.width <= 0 or rect.height <= 0:
        return  # a cell of a pixel or two: nothing to fill
    if alpha >= 255:
        pygame.draw.rect(surface, colour, rect)
        return
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    layer.fill((*colour, alpha))
    surface.blit(layer, rect)


def outline_cell(
    surface: pygame.Surface, geom: BoardGeometry, cell: Cell, colour: Colour, width: int = 3
) -> None:
    """Draw a frame inside one cell (used for the keyboard cursor and targets)."""
    rect = geom.cell_rect(*cell).inflate(-2 * width, -2 * width)
    pygame.draw.rect(surface, colour, rect, width, border_radius=max(2, width))


def draw_mark(surface: pygame.Surface, rect: pygame.Rect, player: int, colour: Colour) -> None:
    """Draw player ``player``'s mark (0: X, 1: O, 2: triangle) inside ``rect``."""
    shape = MARK_SHAPES[player % len(MARK_SHAPES)]
    size = min(rect.width, rect.height)
    pad = size * 0.2
    width = max(2, round(size * 0.1))
    cx, cy = rect.center
    half = size / 2 - pad
    if shape == "x":
        # One picture per size and colour, blitted centred: every X is pixel for pixel the
        # same (thick aalines cut their ends square to x or y depending on the exact slope,
        # so Xs drawn in place came out of different shapes from cell to cell).
        sprite = _x_sprite(size, tuple(pygame.Color(colour)))
        surface.blit(sprite, sprite.get_rect(center=rect.center))
    elif shape == "o":
        pygame.draw.aacircle(surface, colour, (cx, cy), half, width)
    else:
        pts = [
            (cx + half * math.cos(a), cy + half * math.sin(a) + half * 0.15)
            for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6)
        ]
        for i in range(3):
            pygame.draw.aaline(surface, colour, pts[i], pts[(i + 1) % 3], width)
        for p in pts:  # round the corners so the thick outline closes cleanly
            pygame.draw.aacircle(surface, colour, p, width / 2)


# The X picture is drawn this many times larger, then scaled down: smooth edges and
# round caps from plain filled shapes.
_X_SUPERSAMPLE = 4


@lru_cache(maxsize=64)
def _x_sprite(size: int, colour: tuple[int, ...]) -> pygame.Surface:
    """An X of two round-capped strokes of equal width, centred in a ``size``-pixel square
    (transparent elsewhere), anti-aliased by drawing it large and scaling it down."""
    ss = _X_SUPERSAMPLE
    big = size * ss
    layer = pygame.Surface((big, big), pygame.SRCALPHA)
    # Transparent pixels of the ink's own colour, so scaling down does not darken the edges.
    layer.fill((*colour[:3], 0))
    ink = (*colour[:3], 255)
    centre = big / 2
    half = (size / 2 - size * 0.2) * ss
    radius = max(2, round(size * 0.1)) * ss / 2
    for sx in (-1, 1):
        a = (centre - half, centre - sx * half)
        b = (centre + half, centre + sx * half)
        # The stroke's rectangle: the centre line pushed out by the radius on both sides.
        nx, ny = sx * radius / math.sqrt(2), radius / math.sqrt(2)
        pygame.draw.polygon(layer, ink, [(a[0] + nx, a[1] - ny), (b[0] + nx, b[1] - ny),
                                         (b[0] - nx, b[1] + ny), (a[0] - nx, a[1] + ny)])
        for end in (a, b):
            pygame.draw.circle(layer, ink, end, radius)
    sprite = pygame.transform.smoothscale(layer, (size, size))
    # Filling rules round the two strokes' edges a little differently: the X is the union of
    # its mirror images and quarter turns, so both strokes (and all four arms) are alike.
    base = sprite.copy()
    for turn in (0, 90, 180, 270):
        turned = pygame.transform.rotate(base, turn)
        for image in (turned, pygame.transform.flip(turned, True, False)):
            sprite.blit(image, (0, 0), special_flags=pygame.BLEND_RGBA_MAX)
    if len(colour) > 3 and colour[3] < 255:
        sprite.set_alpha(colour[3])
    return sprite


def draw_win_line(
    surface: pygame.Surface, geom: BoardGeometry, cells: Iterable[Cell], colour: Colour,
    outline: Colour, progress: float = 1.0, frame_colour: Colour | None = None,
    frames: bool = True,
) -> None:
    """Frame the winning cells and strike a thick line through them.

    The dark outline makes the line readable on any mark colour and tells it
    apart by thickness, not only hue. ``progress`` below 1 draws the line swept
    in that far from the first cell (the winning-line sweep): the line grows
    from one end, and each cell's frame appears as the line reaches it. The
    frames are in ``frame_colour`` (the line's colour unless given: a board the
    colour of the line needs another), or left out with ``frames=False``.
    """
    cells = list(cells)
    if not cells or progress <= 0:
        return
    progress = min(1.0, progress)
    frame = max(2, round(geom.cell_size / 18))
    framing = colour if frame_colour is None else frame_colour
    if len(cells) < 2:
        if frames:
            outline_cell(surface, geom, cells[0], framing, frame)
        return
    start, end = geom.cell_center(*cells[0]), geom.cell_center(*cells[-1])
    # Extend a little past the end cells' centres.
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ext = geom.cell_size * 0.3
    ux, uy = dx / length, dy / length
    total = length + 2 * ext
    reached = progress * total  # how far along the line the sweep has got
    for i, cell in enumerate(cells):
        if frames and (progress >= 1 or reached >= ext + length * i / (len(cells) - 1)):
            outline_cell(surface, geom, cell, framing, frame)
    p0 = (start[0] - ux * ext, start[1] - uy * ext)
    p1 = (p0[0] + ux * reached, p0[1] + uy * reached)
    w = max(3, round(geom.cell_size / 10))
    pygame.draw.line(surface, outline, p0, p1, w + 4)
    pygame.draw.line(surface, colour, p0, p1, w)
    for p in (p0, p1):
        pygame.draw.circle(surface, outline, p, (w + 4) / 2)
        pygame.draw.circle(surface, colour, p, w / 2)


def draw_cell_text(
    surface: pygame.Surface, geom: BoardGeometry, cell: Cell, text: str, font: pygame.font.Font,
    colour: Colour, background: Colour | None = None,
) -> None:
    """Centre a short text in a cell, on an optional backing (for hint overlays)."""
    label = font.render(text, True, colour)
    rect = geom.cell_rect(*cell)
    box = label.get_rect(center=rect.center)
    if background is not None:
        pygame.draw.rect(surface, background, box.inflate(6, 2), border_radius=4)
    surface.blit(label, box)


def dots(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, step: int = 6,
         radius: int = 1) -> None:
    """A grid of dots clipped to ``rect``: a second pattern, told apart from :func:`hatch`'s
    stripes without its colour."""
    clip = surface.get_clip()
    surface.set_clip(rect.clip(clip) if clip else rect)
    step = max(3, step)
    for row, y in enumerate(range(rect.top + step // 2, rect.bottom, step)):
        start = rect.left + step // 2 + (step // 2 if row % 2 else 0)  # staggered rows
        for x in range(start, rect.right, step):
            pygame.draw.circle(surface, colour, (x, y), radius)
    surface.set_clip(clip)


def hatch(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, step: int = 6,
          width: int = 2) -> None:
    """Diagonal stripes clipped to ``rect``: a pattern that marks a state besides its colour."""
    clip = surface.get_clip()
    surface.set_clip(rect.clip(clip) if clip else rect)
    step = max(3, step)
    for x in range(rect.left - rect.height, rect.right, step):
        pygame.draw.line(surface, colour, (x, rect.bottom), (x + rect.height, rect.top), width)
    surface.set_clip(clip)
