"""Big Button Madness boards drawn as pictures (games.buttons.board_render).

The picture is checked against the board geometry's own cell rectangles (the ones
clicks and small boards use), and a picture patched after presses against one made
afresh; the marks layer is made off the frame loop and only the newest is adopted.
"""

from __future__ import annotations

import random
import time

import numpy as np
import pygame
import pytest

from engine.ui.board.geometry import BoardGeometry
from games.buttons.board import Board, generate
from games.buttons.board_render import (
    PATCH_MAX,
    RING_MIN_PX,
    BoardPicture,
    MarksPicture,
    luminance,
    tiny_colours,
)

GOOD, BAD = (70, 190, 110), (220, 70, 60)


def pixels(surface: pygame.Surface) -> np.ndarray:
    """The picture as RGB, indexed [y, x]."""
    raw = pygame.image.tobytes(surface, "RGB")
    return np.frombuffer(raw, np.uint8).reshape(surface.get_height(), surface.get_width(), 3)


def expected(board: Board, geom: BoardGeometry) -> np.ndarray:
    """Each button's colour over its cell rectangle, from BoardGeometry.cell_rect."""
    rect = geom.rect
    out = np.zeros((rect.height, rect.width, 3), np.uint8)
    n = board.n
    # Cell rectangles are products of a row span and a column span.
    cols = [geom.cell_rect(0, c) for c in range(n)]
    rows = [geom.cell_rect(r, 0) for r in range(n)]
    for r in range(n):
        y0, y1 = rows[r].top - rect.y, rows[r].bottom - rect.y
        if y1 <= y0:
            continue
        for c in range(n):
            x0, x1 = cols[c].left - rect.x, cols[c].right - rect.x
            if x1 > x0:
                out[y0:y1, x0:x1] = BAD if board.red(r, c) else GOOD
    return out


@pytest.mark.parametrize(("n", "area"), [
    (41, pygame.Rect(13, 7, 517, 530)),    # cells of ~12.6 px
    (97, pygame.Rect(0, 0, 300, 300)),     # ~3.1 px
    pytest.param(250, pygame.Rect(21, 40, 611, 600), marks=pytest.mark.slow),  # ~2.4 px
    # under a pixel: some buttons are not shown
    pytest.param(300, pygame.Rect(5, 5, 200, 220), marks=pytest.mark.slow),
])
def test_the_picture_shows_each_button_over_its_cell_rectangle(n: int,
                                                               area: pygame.Rect) -> None:
    board, _ = generate(n, random.Random(n))
    geom = BoardGeometry(n, n, area)
    got = pixels(BoardPicture().surface(board, geom, GOOD, BAD))
    assert got.shape[:2] == (geom.rect.height, geom.rect.width)
    assert np.array_equal(got, expected(board, geom))


@pytest.mark.parametrize(("n", "area"), [
    (41, pygame.Rect(3, 9, 500, 500)),
    pytest.param(333, pygame.Rect(17, 2, 640, 610), marks=pytest.mark.slow),
    pytest.param(1000, pygame.Rect(20, 60, 620, 620), marks=pytest.mark.slow),
])
def test_a_patched_picture_is_the_picture_made_afresh(n: int, area: pygame.Rect) -> None:
    rng = random.Random(n)
    board, _ = generate(n, rng)
    geom = BoardGeometry(n, n, area)
    picture = BoardPicture()
    first = picture.surface(board, geom, GOOD, BAD)
    # Corners and edges wrap round the torus: their flips land on the far side.
    cells = [(0, 0), (n - 1, n - 1), (0, n - 1), (n - 1, 0)] + \
        [(rng.randrange(n), rng.randrange(n)) for _ in range(20)]
    for cell in cells:
        board = board.play(cell)
        patched = picture.surface(board, geom, GOOD, BAD)
        assert patched is first  # patched in place, not made again
        fresh = BoardPicture().surface(board, geom, GOOD, BAD)
        assert np.array_equal(pixels(patched), pixels(fresh)), cell


def test_many_changes_or_new_colours_or_sizes_make_the_picture_afresh() -> None:
    n = 60
    board, _ = generate(n, random.Random(1))
    geom = BoardGeometry(n, n, pygame.Rect(0, 0, 240, 240))
    picture = BoardPicture()
    first = picture.surface(board, geom, GOOD, BAD)
    other = board
    for k in range(PATCH_MAX // 5 + 2):  # more than PATCH_MAX buttons flipped
        other = other.play((k, (3 * k) % n))
    assert (board.bits ^ other.bits).bit_count() > PATCH_MAX
    again = picture.surface(other, geom, GOOD, BAD)
    assert again is not first
    assert np.array_equal(pixels(again), expected(other, geom))
    recoloured = picture.surface(other, geom, (0, 0, 255), BAD)
    assert recoloured is not again and recoloured.get_at((0, 0))[:3] in ((0, 0, 255), BAD)
    bigger = BoardGeometry(n, n, pygame.Rect(0, 0, 300, 300))
    resized = picture.surface(other, bigger, GOOD, BAD)
    assert resized.get_size() == (300, 300)
    assert np.array_equal(pixels(resized), expected(other, bigger))


RING = (28, 32, 44)


@pytest.mark.slow
@pytest.mark.parametrize(("n", "area"), [(41, pygame.Rect(3, 9, 500, 500)),   # ~12 px
                                         (64, pygame.Rect(0, 0, 520, 520)),   # ~8 px
                                         (90, pygame.Rect(7, 4, 560, 555))])  # ~6.2 px
def test_buttons_big_enough_carry_their_ring_and_patches_keep_it(n: int,
                                                                  area: pygame.Rect) -> None:
    """With a ring colour, green buttons of RING_MIN_PX and more show a ring (a shape,
    not only a hue); red ones stay solid; a patched picture is the one made afresh."""
    rng = random.Random(n)
    board, _ = generate(n, rng)
    geom = BoardGeometry(n, n, area)
    assert geom.cell_size >= RING_MIN_PX
    picture = BoardPicture()
    first = picture.surface(board, geom, GOOD, BAD, RING)
    got = pixels(first)
    plain = expected(board, geom)
    # Only green buttons' pixels changed, and only to the ring colour.
    changed = np.any(got != plain, axis=2)
    assert np.all(np.all(plain[changed] == GOOD, axis=1))
    assert np.all(np.all(got[changed] == RING, axis=1))
    rect = geom.rect
    for r, c in [(r, c) for r in range(0, n, 5) for c in range(0, n, 5)]:
        cell = geom.cell_rect(r, c).move(-rect.x, -rect.y)
        inside = got[cell.top:cell.bottom, cell.left:cell.right].reshape(-1, 3)
        has_ring = np.any(np.all(inside == RING, axis=1))
        assert has_ring == (not board.red(r, c)), (r, c)
        if not board.red(r, c):  # a ring round a hole of the button's colour
            centre = got[cell.centery, cell.centerx]
            assert tuple(centre) == GOOD or cell.width < 7, (r, c)
    for cell in [(0, 0), (n - 1, n - 1)] + [(rng.randrange(n), rng.randrange(n))
                                            for _ in range(10)]:
        board = board.play(cell)
        patched = picture.surface(board, geom, GOOD, BAD, RING)
        assert patched is first
        fresh = BoardPicture().surface(board, geom, GOOD, BAD, RING)
        assert np.array_equal(pixels(patched), pixels(fresh)), cell


@pytest.mark.slow
@pytest.mark.parametrize(("good", "bad"), [(GOOD, BAD), ((0, 158, 115), (213, 94, 0))])
def test_buttons_too_small_for_a_ring_are_dark_or_bright(good, bad) -> None:
    n = 300
    board, _ = generate(n, random.Random(2))
    geom = BoardGeometry(n, n, pygame.Rect(0, 0, 620, 620))
    assert geom.cell_size < RING_MIN_PX
    dark, bright = tiny_colours(good, bad, RING)
    assert (luminance(bright) + 0.05) / (luminance(dark) + 0.05) >= 3.0
    picture = BoardPicture()
    first = picture.surface(board, geom, good, bad, RING)
    got = pixels(first)
    colours = {tuple(px) for px in got.reshape(-1, 3)}
    assert colours == {dark, bright}
    board = board.play((5, 7))
    assert picture.surface(board, geom, good, bad, RING) is first
    assert np.array_equal(pixels(first),
                          pixels(BoardPicture().surface(board, geom, good, bad, RING)))


@pytest.mark.parametrize(("n", "side"), [(64, 520),
                                         pytest.param(1000, 620, marks=pytest.mark.slow)])
def test_a_press_patches_the_picture_in_a_few_milliseconds(n: int, side: int) -> None:
    board, _ = generate(n, random.Random(4))
    geom = BoardGeometry(n, n, pygame.Rect(0, 0, side, side))
    picture = BoardPicture()
    picture.surface(board, geom, GOOD, BAD, RING)
    times = []
    for k in range(20):
        board = board.play((k * 7 % n, k * 13 % n))
        start = time.thread_time()
        picture.surface(board, geom, GOOD, BAD, RING)
        times.append(time.thread_time() - start)
    # Measured ~0.05 ms (1000×1000) and ~0.2 ms (64×64, rings); generous for slow CI.
    assert sorted(times)[len(times) // 2] < 0.005


def _wait_layer(marks: MarksPicture, geom: BoardGeometry, grid: np.ndarray
                ) -> pygame.Surface:
    deadline = time.monotonic() + 10
    while True:
        assert marks.poll() is None
        layer = marks.surface(geom, grid, (255, 196, 64))
        if layer is not None:
            return layer
        assert time.monotonic() < deadline, "the marks layer never came"
        time.sleep(0.002)


def test_the_marks_layer_is_made_off_the_frame_loop_and_only_the_newest_is_kept() -> None:
    n = 80
    geom = BoardGeometry(n, n, pygame.Rect(0, 0, 400, 400))
    rng = np.random.default_rng(2)
    first = rng.random((n, n)) < 0.5
    second = rng.random((n, n)) < 0.5
    marks = MarksPicture()
    assert marks.surface(geom, first, (255, 196, 64)) is None and marks.busy
    assert not marks.shows(first)
    # A newer solution before the first layer is adopted: the first is never shown.
    layer = _wait_layer(marks, geom, second)
    assert marks.shows(second) and not marks.shows(first)
    alpha = pygame.surfarray.array_alpha(layer)  # [x, y]
    # A marked cell's frame is opaque along its edge band, an unmarked cell clear.
    size = geom.cell_size
    marked = tuple(np.argwhere(second)[0])
    plain = tuple(np.argwhere(~second)[0])
    for (r, c), want in ((marked, 255), (plain, 0)):
        x = int(c * size + max(2, round(size / 10)))  # inside the band's left edge
        y = int((r + 0.5) * size)
        assert alpha[x, y] == want, (r, c)
    assert marks.surface(geom, second, (255, 196, 64)) is layer  # kept, not made again


def test_leaving_stops_a_layer_being_made() -> None:
    n = 80
    geom = BoardGeometry(n, n, pygame.Rect(0, 0, 400, 400))
    grid = np.ones((n, n), bool)
    marks = MarksPicture()
    marks.surface(geom, grid, (255, 196, 64))
    marks.cancel()
    marks.worker.join(5)
    assert marks.poll() is None and not marks.shows(grid) and not marks.busy
