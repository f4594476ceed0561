"""Big Button Madness boards as pictures: one screen pixel per button at most.

Boards over the scene's vector limit have buttons of a few pixels or less, so they are
drawn as one 8-bit picture of the board's screen rectangle (each pixel: the colour of
the button under it) and a transparent layer of solution marks. Both are made with
numpy from a per-axis map "screen pixel -> cell", worked out with the cell edges
rounded as :class:`engine.ui.board.geometry.BoardGeometry` rounds them, so the picture,
the marks and clicks agree on which pixel is which button.

The marks layer of a new solution is made on a worker thread (~4 ms alone, but up to
20 ms on the frame loop while the board code's conversion holds the GIL); the marks
show from the frame after it is ready.

A press changes five buttons: the picture then repaints those five cells' pixels
instead of being made again (a new 1000×1000 picture, scaled to the window, took
~10 ms of a frame; five rectangles take microseconds).

State is never told by hue alone (the colour-blind palette's two button colours are
about as light as each other). Given a ``ring`` colour, buttons of at least
:data:`RING_MIN_PX` pixels get the ring small boards draw on buttons still to turn;
smaller ones cannot hold a ring, so done buttons are drawn bright and the others dark
(:func:`tiny_colours`), a difference of lightness every eye sees.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pygame
import pygame.surfarray  # (imported here: first used on a worker thread)

from engine.ai.runner import AIRunner
from engine.core.i18n import _
from engine.ui.board.geometry import BoardGeometry
from games.buttons.board import Board, bits_to_grid

# A change of more buttons than this (a new board, undo of a generate) is drawn afresh.
PATCH_MAX = 64
# Buttons at least this many pixels wide get their ring drawn into the picture.
RING_MIN_PX = 6.0
# Buttons narrower than that: the share of the button colour left in the dark state
# (the rest is the ring colour, i.e. the background) and of white in the bright one.
DARK_SHARE = 0.3
BRIGHT_WHITE = 0.4

Colour = tuple[int, int, int]
# Palette indices of the 8-bit picture.
GOOD_INDEX, BAD_INDEX, RING_INDEX = 0, 1, 2


def shows_rings(cell_size: float) -> bool:
    """Whether buttons of ``cell_size`` pixels are drawn with rings (else bright/dark)."""
    return cell_size >= RING_MIN_PX


def _mix(a: Colour, b: Colour, share: float) -> Colour:
    """``share`` of ``a`` and the rest of ``b``."""
    return tuple(round(x * share + y * (1 - share)) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def tiny_colours(good: Colour, bad: Colour, ring: Colour) -> tuple[Colour, Colour]:
    """(good, bad) as drawn on buttons too small for a ring: dark and bright."""
    return _mix(good, ring, DARK_SHARE), _mix((255, 255, 255), bad, BRIGHT_WHITE)


def luminance(colour: Colour) -> float:
    """Relative luminance 0..1 (WCAG), to compare how light two colours look."""
    def linear(v: int) -> float:
        u = v / 255
        return u / 12.92 if u <= 0.04045 else ((u + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ring_mask(xs: np.ndarray, ys: np.ndarray, width: int, height: int) -> np.ndarray:
    """Per picture pixel [y, x]: whether it lies on its button's ring.

    The ring is the one small boards draw (radius ~0.22 of the button, a band a
    fourteenth of it wide), kept at least about a pixel thick around a hole so it shows
    as a ring, not a blob, on buttons of six pixels.
    """
    def local(edges: np.ndarray, length: int) -> tuple[np.ndarray, np.ndarray]:
        cell = pixel_cells(edges, length)
        low, high = edges[cell], edges[cell + 1]
        return np.arange(length) + 0.5 - (low + high) / 2, (high - low).astype(float)

    lx, wx = local(xs, width)
    ly, wy = local(ys, height)
    side = np.minimum(wy[:, None], wx[None, :])
    dist = np.hypot(ly[:, None], lx[None, :])
    radius = np.maximum(1.5, side * 0.24)
    half = np.maximum(0.75, side / 28)
    return np.abs(dist - radius) <= half


def cell_edges(origin: float, start: int, n: int, size: float) -> np.ndarray:
    """The n + 1 pixel positions, relative to ``start``, where one axis' cells begin
    (the last: where the board ends), rounded as BoardGeometry rounds cell rectangles."""
    return np.array([round(origin + i * size) for i in range(n + 1)]) - start


def pixel_cells(edges: np.ndarray, length: int) -> np.ndarray:
    """For each of ``length`` pixels along an axis, the cell it shows (clipped to the
    board: the rectangle may be a pixel larger than the cells)."""
    pixels = np.arange(length)
    n = len(edges) - 1
    return np.clip(np.searchsorted(edges, pixels, side="right") - 1, 0, n - 1)


class BoardPicture:
    """The buttons of one board as a picture of ``geom.rect``'s size, kept up to date.

    :meth:`surface` returns it for a board and colours, patching only the buttons that
    changed since the board it shows when few did.
    """

    def __init__(self) -> None:
        self._board: Board | None = None
        self._key: tuple[object, ...] | None = None
        self._picture: pygame.Surface | None = None
        self._edges: tuple[np.ndarray, np.ndarray] | None = None
        self._rings: np.ndarray | None = None  # ring_mask of the picture, when drawn

    def surface(self, board: Board, geom: BoardGeometry, good: Colour, bad: Colour,
                ring: Colour | None = None) -> pygame.Surface:
        """The picture of ``board`` in ``geom.rect``: green buttons ``good``, red ``bad``.

        With ``ring`` (the background), green buttons carry a ring of it where they are
        :data:`RING_MIN_PX` wide, and smaller buttons are drawn dark and bright instead
        (:func:`tiny_colours`); without, plain colours.
        """
        rect = geom.rect
        if ring is not None and not shows_rings(geom.cell_size):
            good, bad = tiny_colours(good, bad, ring)
            ring = None
        key = (board.n, tuple(rect), geom.cell_size, good, bad, ring)
        if self._picture is None or self._key != key or self._board is None:
            self._build(board, geom, good, bad, ring)
            self._key = key
        elif self._board is not board:
            changed = self._board.bits ^ board.bits
            if changed.bit_count() > PATCH_MAX:
                self._build(board, geom, good, bad, ring)
            else:
                self._patch(board, changed, good, bad)
        self._board = board
        assert self._picture is not None
        return self._picture

    def _build(self, board: Board, geom: BoardGeometry, good: Colour, bad: Colour,
               ring: Colour | None) -> None:
        n = board.n
        rect = geom.rect
        ox, oy = geom.origin
        xs = cell_edges(ox, rect.x, n, geom.cell_size)
        ys = cell_edges(oy, rect.y, n, geom.cell_size)
        self._edges = (xs, ys)
        # One byte per button (0 green, 1 red), then one per pixel: an 8-bit palette
        # picture, with no RGB pixels to build.
        cells = bits_to_grid(n, board.bits).view(np.uint8)
        pixels = cells[pixel_cells(ys, rect.height)[:, None],
                       pixel_cells(xs, rect.width)[None, :]]
        self._rings = None
        if ring is not None:
            self._rings = ring_mask(xs, ys, rect.width, rect.height)
            pixels = np.where(self._rings & (pixels == GOOD_INDEX), RING_INDEX,
                              pixels).astype(np.uint8)
        picture = pygame.image.frombytes(np.ascontiguousarray(pixels).tobytes(),
                                         rect.size, "P")
        picture.set_palette([good, bad] if ring is None else [good, bad, ring])
        self._picture = picture

    def _patch(self, board: Board, changed: int, good: Colour, bad: Colour) -> None:
        assert self._picture is not None and self._edges is not None
        xs, ys = self._edges
        n = board.n
        while changed:
            low = changed & -changed
            changed ^= low
            r, c = divmod(low.bit_length() - 1, n)
            # The pixels showing button (r, c): exactly those pixel_cells maps to it (a
            # button smaller than a pixel may have none).
            # (pixel_cells clips: the first and last buttons take any pixels beyond.)
            x0 = 0 if c == 0 else int(xs[c])
            y0 = 0 if r == 0 else int(ys[r])
            x1 = self._picture.get_width() if c == n - 1 else int(xs[c + 1])
            y1 = self._picture.get_height() if r == n - 1 else int(ys[r + 1])
            if x1 <= x0 or y1 <= y0:
                continue
            red = board.red(r, c)
            if self._rings is None or red:
                self._picture.fill(bad if red else good, (x0, y0, x1 - x0, y1 - y0))
            else:  # the button and its ring (surfarray is indexed [x, y])
                view = pygame.surfarray.pixels2d(self._picture)
                view[x0:x1, y0:y1] = np.where(self._rings[y0:y1, x0:x1].T, RING_INDEX,
                                              GOOD_INDEX)
                del view  # unlocks the picture


def marks_layer(geom: BoardGeometry, grid: np.ndarray, colour: Colour) -> pygame.Surface:
    """A transparent picture of ``geom.rect``'s size with a frame in each marked cell.

    The frame follows :func:`engine.ui.board.draw.outline_cell`'s: a band ``width`` pixels
    wide inside each marked cell's edge; cells too small to hold a frame are filled.
    """
    n = geom.rows
    rect = geom.rect
    size = geom.cell_size
    width = max(2, round(size / 10))

    def axis(origin: float, start: int,
             length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per screen pixel along one axis: its cell, and whether it is inside the frame
        and inside its hole."""
        edges = cell_edges(origin, start, n, size)
        pixels = np.arange(length)
        cell = pixel_cells(edges, length)
        low, high = edges[cell], edges[cell + 1]
        inside = (pixels >= low + width) & (pixels < high - width)
        hole = (pixels >= low + 2 * width) & (pixels < high - 2 * width)
        # A cell too small to hold the frame at all (outline_cell then draws a blob over
        # it and its neighbours) is filled.
        tiny = high - low <= 2 * width
        return cell, np.where(tiny, True, inside), np.where(tiny, False, hole)

    ox, oy = geom.origin
    cols, in_x, hole_x = axis(ox, rect.x, rect.width)
    rows, in_y, hole_y = axis(oy, rect.y, rect.height)
    frame = in_y[:, None] & in_x[None, :] & ~(hole_y[:, None] & hole_x[None, :])
    shown = grid[rows[:, None], cols[None, :]] & frame  # [y, x]
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    layer.fill((*colour, 0))
    alpha = pygame.surfarray.pixels_alpha(layer)
    alpha[:] = shown.T.astype(np.uint8) * 255  # surfarray is indexed [x, y]
    del alpha  # unlocks the surface
    return layer


class MarksPicture:
    """The solution marks layer of a big board, made off the frame loop.

    :meth:`surface` gives the layer for a grid and window, or None while it is being
    made (then :attr:`busy` is true: keep frames coming and call :meth:`poll`).
    """

    def __init__(self) -> None:
        self.worker = AIRunner()
        # (key, grid) the layer shows or is being made for; the grid's identity tells
        # solutions apart (a new solution is a new read-only grid, and comparing grids
        # would cost a pass over n² cells a frame).
        self._layer: tuple[tuple[object, ...], np.ndarray, pygame.Surface] | None = None
        self._wanted: tuple[tuple[object, ...], np.ndarray] | None = None

    @property
    def busy(self) -> bool:
        """Whether a layer is being made."""
        return self.worker.busy

    def surface(self, geom: BoardGeometry, grid: np.ndarray, colour: Colour,
                finish: Callable[[pygame.Surface], None] | None = None
                ) -> pygame.Surface | None:
        """The marks of ``grid`` in ``geom.rect`` drawn in ``colour``; None until made.

        ``finish(layer)`` runs on the frame loop once the new layer arrives (to add what
        needs fonts, say).
        """
        key = (tuple(geom.rect), geom.cell_size, colour)
        layer = self._layer
        if layer is not None and layer[0] == key and layer[1] is grid:
            return layer[2]
        wanted = self._wanted
        if wanted is None or wanted[0] != key or wanted[1] is not grid:
            self._wanted = (key, grid)
            self.worker.submit(lambda _cancel: marks_layer(geom, grid, colour),
                               tag=(key, grid, finish))
        return None

    def shows(self, grid: np.ndarray) -> bool:
        """Whether the layer made last is ``grid``'s (and no newer one is being made)."""
        layer = self._layer
        return layer is not None and layer[1] is grid and not self.busy

    def poll(self) -> str | None:
        """Once a frame: adopt a finished layer if it is still the one wanted; returns
        what went wrong making it, if anything (the marks then stay hidden)."""
        result = self.worker.poll()
        if result is None:
            return None
        if result.error is not None:
            return _("The solution marks could not be drawn: {error}").format(error=result.error)
        key, grid, finish = result.tag
        wanted = self._wanted
        if wanted is not None and wanted[0] == key and wanted[1] is grid:
            if finish is not None:
                finish(result.move)
            self._layer = (key, grid, result.move)
        return None

    def cancel(self) -> None:
        """Stop making a layer (leaving the screen)."""
        self.worker.cancel()
        self._wanted = None
