"""Tic-tac-toe's feel through the real scene: marks pop in, the winning line sweeps in,
the last moves are marked, the screen lays itself out for any window, and sounds play."""

from __future__ import annotations

import itertools

import pygame
import pytest

from engine.model.seats import Seat
from engine.ui.animation import ease_out
from engine.ui.theme import PALETTES
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import TicTacToeScene
from games.tictactoe.setup_scene import SetupOverlay
from tests.conftest import click, click_widget, key, make_app, near, run_until
from tests.support.screens import SIZES, cell_centre, check_screen_layout, count_colour, settle

HUMAN, EASY = Seat("human"), Seat("computer", "easy")






def strictly_overlap(a: pygame.Rect, b: pygame.Rect) -> bool:
    """Whether two screen rectangles share area (touching edges is fine)."""
    return a.clip(b).width > 0 and a.clip(b).height > 0




def open_game(app, config: MNKConfig | None = None, seats=(HUMAN, HUMAN)) -> TicTacToeScene:
    scene = app.push(TicTacToeScene(app, config or MNKConfig(), tuple(seats), seed=1))
    app.step([])
    return scene


def cell_screen_rect(scene: TicTacToeScene, row: int, col: int) -> pygame.Rect:
    return scene.geometry().cell_rect(row, col)


def frame_band(cell: pygame.Rect) -> list[pygame.Rect]:
    """The four strips along a cell's edge where the last-move frame is drawn."""
    inner = cell.inflate(-cell.width // 3, -cell.height // 3)
    return [pygame.Rect(cell.left, cell.top, cell.width, inner.top - cell.top),
            pygame.Rect(cell.left, inner.bottom, cell.width, cell.bottom - inner.bottom),
            pygame.Rect(cell.left, inner.top, inner.left - cell.left, inner.height),
            pygame.Rect(inner.right, inner.top, cell.right - inner.right, inner.height)]


def marker_pixels(app, scene, row: int, col: int) -> int:
    """Focus-coloured pixels along the edge of a cell (the last-move frame)."""
    focus = app.theme.palette.focus
    return sum(count_colour(app.screen, r, focus) for r in frame_band(
        cell_screen_rect(scene, row, col)))


def solid_share(app, scene, row: int, col: int) -> float:
    """Along the middle of a cell's top edge, the share of pixel columns with the focus
    colour in the edge band: about 1 for a solid frame, about a half for a dashed one."""
    cell = cell_screen_rect(scene, row, col)
    band = pygame.Rect(cell.left + cell.width // 5, cell.top, cell.width * 3 // 5,
                       cell.height // 6)
    focus = app.theme.palette.focus
    hits = sum(1 for x in range(band.left, band.right)
               if any(near(app.screen.get_at((x, y)), focus) for y in range(band.top, band.bottom)))
    return hits / band.width


# --- (a) animation ------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_placed_mark_pops_in_and_a_click_finishes_it_and_acts_on_the_real_board(app) -> None:
    scene = open_game(app)
    click(app, *cell_centre(scene, 1, 1))
    assert scene.state.cell(1, 1) == 0  # the rules did not wait
    t = scene.anim.progress(("appear", 4))
    assert t is not None and 0 < t < 1
    x_colour = app.theme.palette.players[0]
    cell = cell_screen_rect(scene, 1, 1)
    early = count_colour(app.screen, cell, x_colour, 20)
    mid = app.screen.subsurface(cell).copy()
    settle(app, scene)
    final = count_colour(app.screen, cell, x_colour, 20)
    assert final > 200 and early < final / 2, (early, final)  # small and faint at first
    # The pixels mid-animation are not the final picture.
    assert pygame.image.tobytes(mid, "RGB") != pygame.image.tobytes(
        app.screen.subsurface(cell), "RGB")
    # During O's pop-in a click finishes it at once and acts on the real position: the
    # centre is X's even while O's mark is still tiny elsewhere, so a click there is refused.
    click(app, *cell_centre(scene, 0, 0))
    assert scene.anim.progress(("appear", 0)) is not None
    app.audio.played.clear()
    click(app, *cell_centre(scene, 1, 1))
    assert scene.anim.progress(("appear", 0)) is None  # finished by the click
    assert scene.state.to_rows() == ["O..", ".X.", "..."] and app.audio.played == ["illegal"]
    # And a click on a free cell mid-animation plays there at once.
    click(app, *cell_centre(scene, 2, 2))
    assert scene.anim.progress(("appear", 8)) is not None
    click(app, *cell_centre(scene, 0, 2))
    assert scene.anim.progress(("appear", 8)) is None
    assert scene.state.to_rows() == ["O.O", ".X.", "..X"]


@pytest.mark.slow
def test_the_winning_line_sweeps_in_from_one_end(app) -> None:
    scene = open_game(app)
    for r, c in [(0, 0), (1, 0), (1, 1), (2, 0)]:
        click(app, *cell_centre(scene, r, c))
    click(app, *cell_centre(scene, 2, 2))
    assert scene.state.win_line == (0, 4, 8)
    win = app.theme.palette.win_line
    a, b, c = (app.viewport.point(*cell_centre(scene, i, i)) for i in range(3))
    first_half = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    second_half = ((b[0] + c[0]) // 2, (b[1] + c[1]) // 2)
    assert scene.anim.progress("sweep") == 0  # waits for the mark to land
    assert not near(app.screen.get_at(first_half), win)
    # Part way: the line has grown from the first cell but not reached the last.
    run_until(app, lambda: 0.35 < ease_out(scene.anim.progress("sweep") or 0) < 0.65,
              timeout=3)
    assert near(app.screen.get_at(first_half), win)
    assert not near(app.screen.get_at(second_half), win)
    run_until(app, lambda: scene.anim.progress("sweep") is None, timeout=3)
    app.step([])
    if app.top is scene:
        assert near(app.screen.get_at(second_half), win)
    else:  # the result panel is up already: look past it
        key(app, pygame.K_ESCAPE)
        assert app.top is scene and near(app.screen.get_at(second_half), win)


def test_a_key_during_the_sweep_shows_the_whole_line_at_once(app) -> None:
    scene = open_game(app)
    for r, c in [(0, 0), (1, 0), (1, 1), (2, 0), (2, 2)]:
        click(app, *cell_centre(scene, r, c))
    assert scene.anim.progress("sweep") is not None
    key(app, pygame.K_LEFT)  # any input
    assert scene.anim.progress("sweep") is None and not scene.anim.running("appear")


@pytest.mark.slow
def test_reduce_motion_starts_no_track(app) -> None:
    app.settings.set("reduce_motion", True)
    scene = open_game(app)
    click(app, *cell_centre(scene, 1, 1))
    assert not scene.anim.active and scene.anim.progress(("appear", 4)) is None
    # The mark is whole on the very first frame.
    full = count_colour(app.screen, cell_screen_rect(scene, 1, 1), app.theme.palette.players[0],
                        20)
    app.settings.set("reduce_motion", False)
    click(app, *cell_centre(scene, 0, 0))
    settle(app, scene)
    # (the same but for a few edge pixels: the latest-move tint has moved on)
    assert full == pytest.approx(count_colour(app.screen, cell_screen_rect(scene, 1, 1),
                                              app.theme.palette.players[0], 20), rel=0.01)
    app.settings.set("reduce_motion", True)
    for r, c in [(0, 2), (1, 0), (2, 0)]:  # X wins on the anti-diagonal
        click(app, *cell_centre(scene, r, c))
    assert scene.state.winner == 0 and scene.anim.progress("sweep") is None


# --- (b) last-move markers ------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("palette", list(PALETTES))
def test_the_last_move_is_marked_for_a_human_and_for_the_computer(app, palette) -> None:
    app.theme.set_palette(palette)
    p = app.theme.palette
    assert p.focus != p.grid
    scene = open_game(app, seats=(HUMAN, EASY))
    click(app, *cell_centre(scene, 1, 1))
    # The human's move: a frame of focus pixels all round the cell, none round another.
    assert scene.state.moves_made == 1
    assert marker_pixels(app, scene, 1, 1) > 150
    assert marker_pixels(app, scene, 0, 1) == 0
    assert solid_share(app, scene, 1, 1) > 0.95
    run_until(app, lambda: scene.state.moves_made == 2)
    settle(app, scene)
    reply = divmod(scene.state.last_move, 3)
    assert marker_pixels(app, scene, *reply) > 150
    assert solid_share(app, scene, *reply) > 0.95
    # Two players: only the latest move is marked.
    assert marker_pixels(app, scene, 1, 1) == 0


@pytest.mark.slow
def test_the_marker_is_not_the_cursor_and_reads_over_it(app) -> None:
    scene = open_game(app)
    key(app, pygame.K_RETURN)  # nothing yet: the cursor appears with an arrow
    key(app, pygame.K_UP)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)  # X in the centre by keyboard; the cursor stays there
    settle(app, scene)
    assert scene.state.cell(1, 1) == 0 and scene.pointer.cursor == (1, 1)
    p = app.theme.palette
    cell = cell_screen_rect(scene, 1, 1)
    # The cursor's corner brackets are in the text colour, the marker in the focus colour.
    assert count_colour(app.screen, cell, p.text) > 20
    assert marker_pixels(app, scene, 1, 1) > 150


@pytest.mark.slow
def test_computer_against_computer_marks_each_seats_last_move(app) -> None:
    scene = open_game(app, seats=(EASY, EASY))
    run_until(app, lambda: scene.state.moves_made >= 3, timeout=10)
    click_widget(app, "Pause")
    settle(app, scene)
    marks = scene.marked_moves()
    assert len(marks) == 2 and [latest for _m, latest in marks] == [True, False]
    latest, earlier = (divmod(m, 3) for m, _ in marks)
    assert scene.state.cell(*latest) != scene.state.cell(*earlier)  # one per seat
    for cell in (latest, earlier):
        assert marker_pixels(app, scene, *cell) > 80, cell
    # Told apart by shape, not colour: the latest frame is solid, the other one dashed.
    assert solid_share(app, scene, *latest) > 0.95
    assert 0.3 < solid_share(app, scene, *earlier) < 0.7
    # No other cell is framed.
    for r, c in itertools.product(range(3), range(3)):
        if (r, c) not in (latest, earlier):
            assert marker_pixels(app, scene, r, c) == 0, (r, c)


@pytest.mark.slow
def test_three_players_mark_the_moves_since_the_movers_last_turn(app) -> None:
    scene = open_game(app, MNKConfig(4, 4, 3, players=3), (HUMAN, HUMAN, HUMAN))
    for r, c in [(0, 0), (3, 3), (0, 3), (3, 0)]:
        click(app, *cell_centre(scene, r, c))
    settle(app, scene)
    # O is to move: the two moves since O's own, △ at (0,3) and X's latest (3,0), are
    # marked (docs/playing.md); O's own (3,3) and X's first move are not.
    assert sorted(divmod(m, 4) for m, _ in scene.marked_moves()) == [(0, 3), (3, 0)]
    for cell in [(0, 3), (3, 0)]:
        assert marker_pixels(app, scene, *cell) > 40, cell
    for cell in [(0, 0), (3, 3)]:
        assert marker_pixels(app, scene, *cell) == 0, cell


# --- (c) layout at four window sizes -------------------------------------------------------
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("config,seats", [
    (MNKConfig(), (HUMAN, EASY)),
    (MNKConfig(), (EASY, EASY)),
    (MNKConfig(4, 4, 3, players=3), (EASY, EASY, EASY)),
    (MNKConfig(4, 15, 4), (HUMAN, HUMAN)),
], ids=["3x3", "cvc", "three-cvc", "4x15"])
def test_the_screen_fits_every_window(profile, size, config, seats) -> None:
    app = make_app(profile, size)
    try:
        scene = open_game(app, config, seats)
        if scene.hints_available():
            key(app, pygame.K_h)  # the legend is shown too
        app.step([])
        board = scene.geometry().rect
        check_screen_layout(app, scene, board, f"{size} {config}")
        # The board fills its layout box (its shape given to the layout), centred.
        region = scene.area("board")
        assert abs(board.width - region.width) <= 2 or abs(board.height - region.height) <= 2
        assert abs(board.centerx - region.centerx) <= 2
        assert abs(board.centery - region.centery) <= 2
    finally:
        app.quit()
        app.stats.close()


def test_a_long_board_gets_more_room_than_a_square_would(profile) -> None:
    app = make_app(profile, (1920, 1080))
    try:
        scene = open_game(app, MNKConfig(4, 15, 4))
        geom = scene.geometry()
        square_cell = scene.area("body").height / 15  # what a square box would give
        assert geom.cell_size > 1.4 * square_cell
    finally:
        app.quit()
        app.stats.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_setup_overlay_fits_and_is_centred(profile, size) -> None:
    app = make_app(profile, size)
    try:
        scene = open_game(app, MNKConfig(4, 4, 3, players=3), (HUMAN, EASY, EASY))
        key(app, pygame.K_s)
        overlay = app.top
        assert isinstance(overlay, SetupOverlay)
        vp = app.viewport
        panel = vp.map_rect(overlay.panel_rect())
        window = app.screen.get_rect()
        assert window.contains(panel)
        area = vp.map_rect(vp.area)
        assert abs(panel.centerx - area.centerx) <= 2 and abs(panel.centery - area.centery) <= 2
        # Designed for the smallest window: never shrunk.
        assert overlay.panel_rect().size == pytest.approx(overlay.panel[2:])
        widgets = [(getattr(w, "name", ""), w.screen_rect(vp)) for w in overlay.ui.widgets
                   if w.visible]
        names = {name for name, _rect in widgets}
        assert {"X level", "O level", "△ level"} <= names  # three seat rows are shown
        for name, rect in widgets:
            assert panel.contains(rect), (size, name, rect, panel)
        for (a, ra), (b, rb) in itertools.combinations(widgets, 2):
            assert not strictly_overlap(ra, rb), (size, a, ra, b, rb)
        # And it still works: a preset, then Start.
        click_widget(app, "4×4, 4 in a row")
        click_widget(app, "Start")
        assert isinstance(app.top, TicTacToeScene) and app.top is not scene
        assert app.top.config == MNKConfig(4, 4, 4)
    finally:
        app.quit()
        app.stats.close()


# --- (d) sounds ------------------------------------------------------------------------------
@pytest.mark.slow
def test_sounds_place_illegal_computer_and_result(app) -> None:
    scene = open_game(app, seats=(HUMAN, EASY))
    app.audio.played.clear()
    click(app, *cell_centre(scene, 1, 1))
    assert app.audio.played == ["place"]
    run_until(app, lambda: scene.state.moves_made == 2)
    assert app.audio.played == ["place", "computer"]
    click(app, *cell_centre(scene, 1, 1))  # taken
    assert app.audio.played[-1] == "illegal"


def test_a_win_sounds_after_the_place(app) -> None:
    scene = open_game(app)
    for r, c in [(0, 0), (1, 0), (1, 1), (2, 0)]:
        click(app, *cell_centre(scene, r, c))
    app.audio.played.clear()
    click(app, *cell_centre(scene, 2, 2))
    assert app.audio.played == ["place", "win"]
