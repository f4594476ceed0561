"""Connect Four's feel through the real scene: discs fall with gravity, the four sweeps
in, the last disc is ringed, the screen lays itself out for any window, and sounds play."""

from __future__ import annotations

import math

import pygame
import pytest

from engine.model.registry import find_game
from engine.model.seats import Seat
from engine.ui.theme import PALETTES
from games.connect4.rules import Connect4Config
from games.connect4.scene import DISC, Connect4Scene, fall_time
from tests.conftest import click, click_widget, key, make_app, near, run_until
from tests.support.screens import SIZES, check_screen_layout, count_colour, settle

GAME = find_game("connect4")
HUMAN, EASY = Seat("human"), Seat("computer", "easy")


def open_game(app, config: Connect4Config | None = None, seats=(HUMAN, HUMAN)) -> Connect4Scene:
    scene = app.push(GAME.open_scene(app, config or Connect4Config(7, 6), seats=tuple(seats)))
    app.step([])
    return scene


def drop(app, scene: Connect4Scene, col: int) -> None:
    """A real click on the top cell of column ``col``."""
    x, y = scene.geometry().cell_center(1, col)
    click(app, *app.viewport.to_design((round(x), round(y))))


def hole(scene: Connect4Scene, row: int, col: int) -> pygame.Rect:
    """The screen square of a board cell (row 0 = the board's top row)."""
    return scene.geometry().cell_rect(row + 1, col)


def ring_pixels(app, scene: Connect4Scene, row: int, col: int) -> int:
    """Focus-coloured pixels in the rim of a disc (where the last-disc ring is drawn)."""
    geom = scene.geometry()
    cx, cy = geom.cell_center(row + 1, col)
    r = geom.cell_size * DISC
    focus = app.theme.palette.focus
    hits = 0
    for i in range(72):
        angle = 2 * math.pi * i / 72
        for depth in (0.04, 0.07):
            x = round(cx + (r - geom.cell_size * depth) * math.cos(angle))
            y = round(cy + (r - geom.cell_size * depth) * math.sin(angle))
            hits += near(app.screen.get_at((x, y)), focus)
    return hits


def halo_share(app, scene: Connect4Scene, row: int, col: int) -> float:
    """Share of points just outside the disc, on the board face, in the background colour
    (the dark halo of the last-disc marker)."""
    geom = scene.geometry()
    cx, cy = geom.cell_center(row + 1, col)
    r = geom.cell_size * DISC + geom.cell_size / 24
    dark = app.theme.palette.background
    points = [(round(cx + r * math.cos(a)), round(cy + r * math.sin(a)))
              for a in (2 * math.pi * i / 48 for i in range(48))]
    return sum(near(app.screen.get_at(pt), dark) for pt in points) / len(points)


# --- (a) animation ------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_disc_falls_with_gravity_and_a_click_lands_it_at_once(app) -> None:
    scene = open_game(app)
    drop(app, scene, 3)
    assert scene.state.cell(5, 3) == 0  # the rules did not wait
    fall = scene.anim.progress(("drop", (5, 3)))
    assert fall is not None and 0 < fall < 1
    assert scene.anim.running("bounce")
    x_colour = app.theme.palette.players[0]
    bottom = hole(scene, 5, 3)
    top = hole(scene, 0, 3)
    # Mid-fall the disc is near the top of its column, not yet in the bottom hole.
    assert count_colour(app.screen, bottom, x_colour, 20) < 50
    assert count_colour(app.screen, top.union(scene.geometry().cell_rect(0, 3)), x_colour,
                        20) > 500
    mid = pygame.image.tobytes(app.screen.subsurface(bottom), "RGB")
    # Gravity: it falls faster and faster, and takes the time of a six-row drop.
    ys = []
    while scene.anim.progress(("drop", (5, 3))) is not None:
        ys.append(disc_y(app, scene, 3, x_colour))
        app.step([])
    steps = [b - a for a, b in zip(ys, ys[1:], strict=False)]
    assert len(ys) == pytest.approx(fall_time(6) * 60, abs=2)
    assert steps[-1] > 2 * steps[0] > 0
    settle(app, scene)
    assert count_colour(app.screen, bottom, x_colour, 20) > 1500
    assert pygame.image.tobytes(app.screen.subsurface(bottom), "RGB") != mid
    # A click during the next fall lands that disc at once and acts on the real board.
    drop(app, scene, 3)
    assert scene.anim.running("drop")
    drop(app, scene, 3)
    assert scene.anim.running("drop") == [("drop", (3, 3))]  # only the newest disc falls
    assert scene.state.moves == (3, 3, 3)
    assert scene.state.cell(4, 3) == 1 and scene.state.cell(3, 3) == 0


def disc_y(app, scene: Connect4Scene, col: int, colour) -> float:
    """The mean screen y of ``colour`` pixels in column ``col``'s lane (the falling disc)."""
    geom = scene.geometry()
    lane = geom.cell_rect(0, col).union(geom.cell_rect(geom.rows - 1, col))
    sub = app.screen.subsurface(lane)
    mask = pygame.mask.from_threshold(sub, (*colour, 255), (21, 21, 21, 255))
    return lane.top + mask.centroid()[1]


@pytest.mark.slow
def test_the_winning_four_sweeps_in_after_the_disc_lands(app) -> None:
    scene = open_game(app)
    for col in (0, 6, 1, 6, 2, 6):
        drop(app, scene, col)
    drop(app, scene, 3)
    assert scene.state.winner == 0
    assert [[(5, 0), (5, 1), (5, 2), (5, 3)]] == scene.win_runs()
    win = app.theme.palette.win_line
    a = app.viewport.to_design(hole(scene, 5, 0).center)
    b = app.viewport.to_design(hole(scene, 5, 1).center)
    first_gap = app.viewport.point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    c, d = hole(scene, 5, 2).center, hole(scene, 5, 3).center
    last_gap = ((c[0] + d[0]) // 2, (c[1] + d[1]) // 2)
    assert scene.anim.progress("sweep") == 0  # waits for the disc to land
    assert not near(app.screen.get_at(first_gap), win)
    run_until(app, lambda: 0.2 < (scene.anim.progress("sweep") or 0) < 0.4, timeout=3)
    assert near(app.screen.get_at(first_gap), win)
    assert not near(app.screen.get_at(last_gap), win)
    key(app, pygame.K_LEFT)  # input shows the whole line at once
    assert scene.anim.progress("sweep") is None
    if app.top is not scene:  # the result panel came up: look past it
        key(app, pygame.K_ESCAPE)
    assert app.top is scene
    assert near(app.screen.get_at(last_gap), win)


@pytest.mark.slow
def test_a_disc_completing_two_lines_gets_two_strokes(app) -> None:
    scene = open_game(app)
    # X ends with a disc at (row 2, col 3) completing row 2 (cols 0-3) and col 3 (rows 2-5).
    for col in (0, 0, 1, 1, 3, 2, 3, 2, 3, 0, 0, 1, 1, 2, 2, 6, 3):
        drop(app, scene, col)
    assert scene.state.winner == 0
    assert scene.win_runs() == [[(2, 0), (2, 1), (2, 2), (2, 3)],
                                [(2, 3), (3, 3), (4, 3), (5, 3)]]
    settle(app, scene)
    if app.top is not scene:
        key(app, pygame.K_ESCAPE)
    win = app.theme.palette.win_line

    def between(a, b):
        (ax, ay), (bx, by) = hole(scene, *a).center, hole(scene, *b).center
        return ((ax + bx) // 2, (ay + by) // 2)

    # Each line is struck, and nothing joins the two runs' far ends across the board.
    assert near(app.screen.get_at(between((2, 0), (2, 1))), win)
    assert near(app.screen.get_at(between((4, 3), (5, 3))), win)
    assert not near(app.screen.get_at(between((3, 1), (4, 2))), win)


@pytest.mark.slow
def test_reduce_motion_starts_no_track(app) -> None:
    app.settings.set("reduce_motion", True)
    scene = open_game(app)
    drop(app, scene, 3)
    assert not scene.anim.active
    # The disc is in its hole on the very first frame.
    assert count_colour(app.screen, hole(scene, 5, 3), app.theme.palette.players[0], 20) > 1500
    for col in (6, 0, 6, 1, 6, 2):
        drop(app, scene, col)
    assert scene.state.winner == 0 and scene.anim.progress("sweep") is None


# --- (b) the last disc ----------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("palette", list(PALETTES))
def test_the_last_disc_is_ringed_for_a_human_and_for_the_computer(app, palette) -> None:
    app.theme.set_palette(palette)
    scene = open_game(app, seats=(HUMAN, EASY))
    drop(app, scene, 3)
    settle(app, scene)
    if scene.state.moves == (3,):
        assert ring_pixels(app, scene, 5, 3) > 100
        assert halo_share(app, scene, 5, 3) > 0.9
    run_until(app, lambda: len(scene.state.moves) == 2)
    settle(app, scene)
    col = scene.state.last_move
    row = scene.config.rows - scene.state.height(col)
    assert ring_pixels(app, scene, row, col) > 100
    assert halo_share(app, scene, row, col) > 0.9
    if (row, col) != (5, 3):  # the human's disc is no longer the last one
        assert ring_pixels(app, scene, 5, 3) == 0
        assert halo_share(app, scene, 5, 3) < 0.2


@pytest.mark.slow
def test_the_ring_stays_when_the_game_is_won(app) -> None:
    scene = open_game(app)
    for col in (0, 6, 1, 6, 2, 6, 3):
        drop(app, scene, col)
    settle(app, scene)
    if app.top is not scene:
        key(app, pygame.K_ESCAPE)
    assert halo_share(app, scene, 5, 3) > 0.4  # the win line crosses part of it


@pytest.mark.slow
def test_computer_against_computer_rings_each_computers_last_disc(app) -> None:
    scene = open_game(app, seats=(EASY, EASY))
    run_until(app, lambda: len(scene.state.moves) >= 3, timeout=10)
    click_widget(app, "Pause")
    settle(app, scene)
    marked = scene.marked_moves()
    assert [latest for _cell, latest in marked] == [True, False]
    (latest, _), (earlier, _) = marked
    state = scene.state
    assert state.cell(*latest) != state.cell(*earlier)  # one disc per seat
    for cell in (latest, earlier):
        assert ring_pixels(app, scene, *cell) > 30, cell
        assert halo_share(app, scene, *cell) > 0.9, cell
    # Told apart by shape: a solid ring round the latest, a dashed one round the other.
    assert ring_pixels(app, scene, *latest) > 1.5 * ring_pixels(app, scene, *earlier)
    # No other disc is ringed.
    for r in range(scene.config.rows):
        for c in range(scene.config.cols):
            if state.cell(r, c) != -1 and (r, c) not in (latest, earlier):
                assert halo_share(app, scene, r, c) < 0.2, (r, c)


# --- (c) layout at four window sizes -------------------------------------------------------
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("config,seats", [
    (Connect4Config(7, 6), (HUMAN, EASY)),
    (Connect4Config(7, 6), (EASY, EASY)),
    (Connect4Config(9, 8), (HUMAN, HUMAN)),
    (Connect4Config(4, 4), (HUMAN, HUMAN)),
], ids=["7x6", "cvc", "9x8", "4x4"])
def test_the_screen_fits_every_window(profile, size, config, seats) -> None:
    app = make_app(profile, size)
    try:
        scene = open_game(app, config, seats)
        key(app, pygame.K_h)  # the legend is shown too
        app.step([])
        board = scene.geometry().rect
        check_screen_layout(app, scene, board, f"{size} {config}")
        region = scene.area("board")
        assert abs(board.width - region.width) <= 2 or abs(board.height - region.height) <= 2
    finally:
        app.quit()
        app.stats.close()


def test_the_ghost_disc_does_not_allocate_a_window_sized_surface(app, monkeypatch) -> None:
    scene = open_game(app)
    x, y = scene.geometry().cell_center(3, 2)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(round(x), round(y)),
                                         rel=(0, 0), buttons=(0, 0, 0)))
    app.step()
    sizes = []
    real = pygame.Surface

    def spy(size, *args, **kwargs):
        sizes.append(tuple(size))
        return real(size, *args, **kwargs)

    monkeypatch.setattr(pygame, "Surface", spy)
    for _ in range(3):
        app.step([])
    monkeypatch.undo()
    window = app.screen.get_size()
    assert scene._active_column() == 2
    assert all(s[0] < window[0] // 2 and s[1] < window[1] // 2 for s in sizes), sizes
    # The ghost shows where the disc would land: faintly, in the bottom hole of column 2.
    landing = hole(scene, 5, 2)
    ghost = app.screen.get_at(landing.center)
    assert not near(ghost, app.theme.palette.background, 8)
    assert not near(ghost, app.theme.palette.players[0], 20)


# --- (d) sounds ------------------------------------------------------------------------------
def test_sounds_drop_computer_and_illegal(app) -> None:
    scene = open_game(app, Connect4Config(4, 4), (HUMAN, EASY))
    app.audio.played.clear()
    drop(app, scene, 0)
    assert app.audio.played == ["drop"]
    run_until(app, lambda: len(scene.state.moves) == 2)
    assert app.audio.played == ["drop", "computer"]


def test_sounds_for_a_full_column_and_a_win(app) -> None:
    scene = open_game(app, Connect4Config(4, 4))
    for _ in range(4):
        drop(app, scene, 0)
    app.audio.played.clear()
    drop(app, scene, 0)  # full
    assert app.audio.played == ["illegal"] and len(scene.state.moves) == 4
    for col in (1, 2, 1, 2, 1, 2):
        drop(app, scene, col)
    app.audio.played.clear()
    drop(app, scene, 1)  # X: four up column 1
    assert scene.state.winner == 0
    assert app.audio.played == ["drop", "win"]
