"""Button Madness's game feel through the real screens: the press ripple, the completion
flash, the last-press marker, sounds, and the layout at four window sizes."""

from __future__ import annotations

import itertools

import pygame
import pytest

from engine.screens.puzzle_scene import FLASH_TRACK, WinOverlay
from engine.ui.animation import FLASH
from engine.ui.widgets import Button
from games.buttons.board import Board, parse_code
from games.buttons.board_view import RIPPLE_REACH, RIPPLE_TRACK
from games.buttons.explorer_scene import ExplorerScene
from games.buttons.scene import ButtonMadnessScene
from games.buttons.scene_layout import INFO_W, TOOLS_W
from games.buttons.timings import RIPPLE
from tests.conftest import click, click_widget, key, near, run_until

CTRL = pygame.KMOD_LCTRL
WINDOWS = [(640, 480), (960, 720), (1920, 1080), (1080, 1920)]
# 4×4 board 12345 and the solved board one press at (1, 2) away from solved.
START = "12345"
ONE_AWAY = parse_code("65535").press(1, 2)


def button(scene: ButtonMadnessScene, row: int, col: int) -> tuple[float, float]:
    """Design point of a button's centre, from the scene's own geometry."""
    return scene.app.viewport.to_design(scene.geometry().cell_center(row, col))


def open_board(app, board: Board | str = START) -> ButtonMadnessScene:
    if isinstance(board, str):
        board = parse_code(board)
    scene = app.push(ButtonMadnessScene(app, board, seed=7))
    app.step([])
    return scene


def mouse_down(app, x: float, y: float) -> None:
    """Only a press (no release), at design point (x, y), and one frame."""
    pos = app.viewport.point(x, y)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])


def button_colour_px(scene: ButtonMadnessScene, cell: tuple[int, int]) -> tuple[int, int]:
    """A pixel inside a button's body, off its ring (between ring and edge)."""
    rect = scene.geometry().cell_rect(*cell)
    return (rect.centerx, rect.y + round(rect.height * 0.2))


def reduce_motion(app) -> None:
    app.settings.set("reduce_motion", True)


# --- (a) the ripple -----------------------------------------------------------------------


def test_a_click_ripples_from_the_button_to_its_four_neighbours(app) -> None:
    scene = open_board(app)
    start = scene.board
    neighbours = [(0, 1), (2, 1), (1, 0), (1, 2)]
    click(app, *button(scene, 1, 1))
    assert scene.board == start.press(1, 1)  # the rules did not wait
    t = scene.anim.progress(RIPPLE_TRACK)
    assert t is not None and t < RIPPLE_REACH
    cell, flipped = scene.anim.data(RIPPLE_TRACK)
    assert cell == (1, 1) and sorted(flipped) == sorted(neighbours)
    p = app.theme.palette
    # Mid-ripple the pressed button shows its new colour, the neighbours still their old.
    for nb in neighbours:
        old = p.bad if start.red(*nb) else p.good
        assert app.screen.get_at(button_colour_px(scene, nb))[:3] == old, nb
    middle = app.screen.copy()
    app.step([], dt=RIPPLE * RIPPLE_REACH)  # the ring has reached them: they flip
    for nb in neighbours:
        new = p.bad if scene.board.red(*nb) else p.good
        assert app.screen.get_at(button_colour_px(scene, nb))[:3] == new, nb
    app.step([], dt=RIPPLE)
    assert scene.anim.progress(RIPPLE_TRACK) is None and not scene.anim.active
    final = app.screen.copy()
    geom = scene.geometry()
    board_area = geom.rect
    differs = [(x, y) for x in range(board_area.left, board_area.right, 3)
               for y in range(board_area.top, board_area.bottom, 3)
               if middle.get_at((x, y)) != final.get_at((x, y))]
    assert differs, "the mid-ripple picture is the final one"


def test_a_click_during_the_ripple_finishes_it_and_presses_the_real_board(app) -> None:
    scene = open_board(app)
    start = scene.board
    click(app, *button(scene, 1, 1))
    assert scene.anim.progress(RIPPLE_TRACK) is not None
    mouse_down(app, *button(scene, 3, 2))  # the second press, mid-ripple
    assert scene.board == start.press(1, 1).press(3, 2)
    assert scene.anim.data(RIPPLE_TRACK)[0] == (3, 2), "the first ripple was not finished"
    # A key finishes it too (and moves the keyboard cursor as usual).
    key(app, pygame.K_LEFT)
    assert not scene.anim.active and scene.pointer.cursor is not None
    assert scene.board == start.press(1, 1).press(3, 2)


def test_with_reduce_motion_no_track_starts(app) -> None:
    reduce_motion(app)
    scene = open_board(app)
    click(app, *button(scene, 1, 1))
    assert scene.board == parse_code(START).press(1, 1)
    assert scene.anim.running() == [] and not scene.anim.active
    p = app.theme.palette
    for nb in [(0, 1), (2, 1), (1, 0), (1, 2)]:  # drawn flipped at once
        new = p.bad if scene.board.red(*nb) else p.good
        assert app.screen.get_at(button_colour_px(scene, nb))[:3] == new, nb


def test_tiny_boards_ripple_only_over_buttons_that_flipped(app) -> None:
    # On 2×2 the left and right neighbour are one button flipped twice: nothing changes
    # there, so nothing ripples there.
    scene = open_board(app, "2x2:15")
    click(app, *button(scene, 0, 0))
    assert scene.anim.data(RIPPLE_TRACK) == ((0, 0), ())
    assert scene.board == Board(2, 15).press(0, 0)


def test_a_big_board_press_draws_a_ring_over_the_picture(app) -> None:
    scene = open_board(app, Board.solved(100))
    click(app, *button(scene, 50, 50))
    assert scene.anim.progress(RIPPLE_TRACK) is not None
    middle = app.screen.copy()
    app.step([], dt=RIPPLE)
    geom = scene.geometry()
    cx, cy = (round(v) for v in geom.cell_center(50, 50))
    around = [(cx + dx, cy + dy) for dx in range(-20, 21) for dy in range(-20, 21)]
    assert any(middle.get_at(p) != app.screen.get_at(p) for p in around)


# --- (a) the completion flash --------------------------------------------------------------


@pytest.mark.slow
def test_solving_flashes_the_board_then_opens_the_win_screen(app) -> None:
    scene = open_board(app, ONE_AWAY)
    before = app.screen.copy()
    click(app, *button(scene, 1, 2))
    assert scene.board.is_solved
    assert scene.anim.progress(FLASH_TRACK) is not None
    assert app.top is scene, "the win screen waits for the flash"
    assert app.stats.best_puzzle("button-madness", "4x4") == (1, pytest.approx(0, abs=1))
    # A bright phase: the board's background and buttons light up.
    p = app.theme.palette
    geom = scene.geometry()
    gap = (geom.rect.x + 2, geom.rect.centery)  # the board between the buttons
    assert app.screen.get_at(gap)[:3] == p.win_line
    assert before.get_at(gap)[:3] == p.board
    red = app.screen.get_at(button_colour_px(scene, (3, 3)))[:3]
    assert red != p.bad and all(a >= b for a, b in zip(red, p.bad, strict=True))
    # A dark phase between the flashes shows the board as it is.
    app.step([], dt=FLASH / 6)
    assert app.screen.get_at(gap)[:3] == p.board
    run_until(app, lambda: isinstance(app.top, WinOverlay), timeout=5, pause=0)
    assert scene.anim.progress(FLASH_TRACK) is None
    assert app.top.presses == 1


def test_a_click_during_the_flash_opens_the_win_screen_at_once(app) -> None:
    scene = open_board(app, ONE_AWAY)
    click(app, *button(scene, 1, 2))
    assert scene.anim.progress(FLASH_TRACK) is not None and app.top is scene
    mouse_down(app, *button(scene, 0, 0))
    assert isinstance(app.top, WinOverlay) and not scene.anim.active
    assert scene.board.is_solved, "the click only skipped the flash: no button was pressed"
    click_widget(app, "Close")
    assert app.top is scene and scene.board.is_solved


def test_with_reduce_motion_the_win_screen_opens_without_a_flash(app) -> None:
    reduce_motion(app)
    scene = open_board(app, ONE_AWAY)
    click(app, *button(scene, 1, 2))
    assert isinstance(app.top, WinOverlay) and not scene.anim.active


def test_help_opened_during_the_flash_keeps_the_win_screen_until_it_closes(app) -> None:
    scene = open_board(app, ONE_AWAY)
    click(app, *button(scene, 1, 2))
    key(app, pygame.K_F1)  # the app opens help over the flashing board
    help_screen = app.top
    app.step([], dt=FLASH)
    assert app.top is help_screen
    key(app, pygame.K_F1)
    assert isinstance(app.top, WinOverlay)


# --- (b) the last-press marker ------------------------------------------------------------


def marker_pixels(scene: ButtonMadnessScene, cell: tuple[int, int]) -> list[tuple[int, int]]:
    """Pixels on the marker's frame: the middle of each edge of the cell, just inside."""
    rect = scene.geometry().cell_rect(*cell)
    return [(rect.x + 1, rect.centery), (rect.right - 2, rect.centery),
            (rect.centerx, rect.y + 1), (rect.centerx, rect.bottom - 2)]


def dot_pixel(scene: ButtonMadnessScene, cell: tuple[int, int]) -> tuple[int, int]:
    """The centre of the marker's corner dot (see games.buttons.board_view.draw_last_marker)."""
    rect = scene.geometry().cell_rect(*cell)
    width = max(2, round(rect.width / 14))
    dot = max(3, round(rect.width * 0.08))
    return (rect.x + width + dot // 2, rect.y + width + dot // 2)


def has_marker(app, scene: ButtonMadnessScene, cell: tuple[int, int]) -> bool:
    focus = app.theme.palette.focus
    return all(near(app.screen.get_at(px), focus, 2) for px in marker_pixels(scene, cell)) \
        and near(app.screen.get_at(dot_pixel(scene, cell)), focus, 2)


@pytest.mark.parametrize("palette", ["default", "colourblind"])
def test_the_last_press_is_marked_by_a_frame_and_a_dot(app, palette: str) -> None:
    app.set_palette(palette)
    scene = open_board(app)
    assert scene.last_press() is None
    cells = [(r, c) for r in range(4) for c in range(4)]
    assert not any(has_marker(app, scene, cell) for cell in cells)
    click(app, *button(scene, 2, 1))
    app.step([], dt=RIPPLE)
    assert scene.last_press() == (2, 1)
    assert [cell for cell in cells if has_marker(app, scene, cell)] == [(2, 1)]
    # Not told by colour alone: the corner dot is there, and the board between buttons
    # elsewhere is the board's colour, so the frame stands out against it.
    board_px = scene.geometry().cell_rect(0, 3)
    assert near(app.screen.get_at((board_px.x + 1, board_px.centery)), app.theme.palette.board, 2)
    click(app, *button(scene, 0, 3))
    app.step([], dt=RIPPLE)
    assert [cell for cell in cells if has_marker(app, scene, cell)] == [(0, 3)]
    key(app, pygame.K_z, CTRL)  # undo: the press before is the last one again
    assert [cell for cell in cells if has_marker(app, scene, cell)] == [(2, 1)]
    key(app, pygame.K_r)  # restart: no press yet
    assert not any(has_marker(app, scene, cell) for cell in cells)


def test_a_keyboard_press_is_marked_and_the_cursor_looks_different(app) -> None:
    scene = open_board(app)
    key(app, pygame.K_RIGHT)  # the cursor appears next to the centre: (2, 3)
    cursor = scene.pointer.cursor
    assert cursor is not None and not has_marker(app, scene, cursor)
    key(app, pygame.K_RETURN)
    app.step([], dt=RIPPLE)
    assert scene.last_press() == cursor and has_marker(app, scene, cursor)


def test_a_big_board_marks_its_last_press_visibly(app) -> None:
    scene = open_board(app, Board.solved(200))
    click(app, *button(scene, 100, 100))
    app.step([], dt=RIPPLE)
    cx, cy = (round(v) for v in scene.geometry().cell_center(*scene.last_press()))
    focus = app.theme.palette.focus
    frame = [(cx + dx, cy + dy) for dx in range(-8, 9) for dy in range(-8, 9)]
    assert sum(near(app.screen.get_at(p), focus, 2) for p in frame) >= 20


# --- (d) sounds -----------------------------------------------------------------------------


@pytest.mark.slow
def test_sounds_of_presses_solves_and_refusals(app) -> None:
    scene = open_board(app, ONE_AWAY)
    played = app.audio.played
    click(app, *button(scene, 0, 0))
    assert played[-1:] == ["flip"]
    click(app, *button(scene, 0, 0))
    assert played[-1:] == ["flip"]
    click(app, *button(scene, 1, 2))  # solved: the chime, not another flip
    assert played[-1:] == ["solved"] and played.count("flip") == 2
    app.step([], dt=FLASH)
    click_widget(app, "Close")
    count = len(played)
    key(app, pygame.K_h)  # nothing left to hint on a solved board
    assert played[count:] == ["illegal"]


def test_a_click_beside_the_board_or_on_a_greyed_button_is_refused(app) -> None:
    scene = open_board(app, "2x2:5")
    played = app.audio.played
    rects = scene.layout()
    board, body = rects["board"], rects["body"]
    # In the body, between the board and the status bar: no button there.
    click(app, board.centerx, (board.bottom + body.bottom) / 2 if board.bottom + 8 < body.bottom
          else body.bottom - 4)
    assert played == ["illegal"] and scene.board == Board(2, 5)
    click_widget(app, "Redo")  # nothing to redo: greyed out
    assert played == ["illegal", "illegal"]
    assert not scene.ui.find("size-").enabled  # 2×2 is the smallest size
    click_widget(app, "size-")
    key(app, pygame.K_MINUS)
    assert played == ["illegal"] * 4 and scene.board.n == 2
    click_widget(app, "size+")  # allowed: no refusal
    assert scene.board.n == 3 and played == ["illegal"] * 4


def test_hint_on_an_unsolvable_board_is_refused(app) -> None:
    scene = open_board(app, Board(3, (1 << 9) - 2))
    click_widget(app, "Show solution")
    run_until(app, lambda: scene.unsolvable)
    key(app, pygame.K_h)
    assert app.audio.played[-1:] == ["illegal"]


# --- (c) the layout at four window sizes ----------------------------------------------------


def overlap(a: pygame.FRect, b: pygame.FRect) -> bool:
    """Strict overlap: sharing an edge is fine."""
    return (min(a.right, b.right) - max(a.left, b.left) > 1e-6
            and min(a.bottom, b.bottom) - max(a.top, b.top) > 1e-6)


def inside(inner: pygame.FRect, outer: pygame.FRect) -> bool:
    return (inner.left >= outer.left - 1e-6 and inner.top >= outer.top - 1e-6
            and inner.right <= outer.right + 1e-6 and inner.bottom <= outer.bottom + 1e-6)


def check_placed(app, rects: dict[str, pygame.FRect]) -> None:
    """Every rectangle inside the window's area; no two of them overlapping."""
    area = app.viewport.area
    for name, rect in rects.items():
        assert inside(rect, area), (name, rect, area)
    for (a, ra), (b, rb) in itertools.combinations(rects.items(), 2):
        assert not overlap(ra, rb), (a, ra, b, rb)


def widget_rects(scene) -> dict[str, pygame.FRect]:
    return {f"{i}:{getattr(w, 'name', type(w).__name__)}": pygame.FRect(w.rect)
            for i, w in enumerate(scene.ui.widgets) if w.visible}


@pytest.mark.parametrize("size", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_game_screen_fits_every_window(sized, size: tuple[int, int]) -> None:
    app = sized(size)
    scene = open_board(app, Board.solved(20).press(3, 3))
    layout = scene.layout()
    regions = {name: layout[name] for name in ("board", "code", "stats", "legend")}
    check_placed(app, {**widget_rects(scene), **regions})
    board = layout["board"]
    area = app.viewport.area
    assert board.w == board.h and board.w >= 360
    assert scene.geometry().rect == scene.area("board")  # drawn where it is laid out
    panel = [layout[name] for name in ("Copy", "Hint", "code", "stats", "legend")]
    if area.h > area.w:  # tall: the panel under the board, the board as wide as it can be
        assert all(rect.top >= board.bottom for rect in panel)
        assert board.w >= area.w - 2 * 16 - 1e-6
    else:  # wide: the panel beside the board
        assert all(rect.right <= board.left or rect.left >= board.right for rect in panel)
        # As big as the body's height, or the width left by the two panel columns, allows.
        body = layout["body"]
        assert board.h >= min(body.h - 2 * 16, body.w - TOOLS_W - INFO_W - 4 * 16) - 1e-6
    # The board is really drawn there: a button's colour at its cell's centre.
    app.step([], dt=RIPPLE)
    centre = scene.geometry().cell_rect(0, 0)
    assert app.screen.get_at((centre.centerx, centre.y + centre.h // 5))[:3] == \
        app.theme.palette.bad


@pytest.mark.parametrize("size", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_win_screen_fits_every_window(sized, size: tuple[int, int]) -> None:
    app = sized(size)
    scene = open_board(app, ONE_AWAY)
    click(app, *button(scene, 1, 2))
    app.step([], dt=FLASH)
    overlay = app.top
    assert isinstance(overlay, WinOverlay)
    panel = pygame.FRect(overlay.panel)
    area = app.viewport.area
    assert inside(panel, area)
    assert abs(panel.centerx - area.centerx) < 1 and abs(panel.centery - area.centery) < 1
    rects = widget_rects(overlay)
    assert all(inside(rect, panel) for rect in rects.values())
    check_placed(app, rects)
    assert [w.name for w in overlay.ui.widgets if isinstance(w, Button)] == [
        "Play again", "Generate", "Review", "Close"]
    click_widget(app, "Play again")  # still works where it now is
    assert app.top is scene and scene.board == ONE_AWAY


@pytest.mark.parametrize("size", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_explorer_fits_every_window(sized, size: tuple[int, int]) -> None:
    app = sized(size)
    explorer = app.push(ExplorerScene(app))
    run_until(app, lambda: not explorer.worker.busy, timeout=30)
    app.step([])
    layout = explorer.layout()
    check_placed(app, {**widget_rects(explorer), "chart": layout["chart"],
                       "text": layout["text"]})
    area = app.viewport.area
    if area.h > area.w:
        assert layout["text"].top >= layout["chart"].bottom
        assert layout["chart"].w >= area.w - 2 * 16 - 1e-6
    else:
        assert layout["text"].left >= layout["chart"].right
    # The bars are drawn inside the chart: a bad size's bar (n = 3) in the bad colour.
    chart = app.viewport.map_rect(tuple(layout["chart"]))
    bad = app.theme.palette.bad
    column = round(chart.x + chart.width / 64 * 2.5)
    assert any(app.screen.get_at((column, y))[:3] == bad for y in range(chart.top, chart.bottom))
    key(app, pygame.K_ESCAPE)


@pytest.mark.parametrize("window", [(640, 480), (800, 600), (1280, 720), (2560, 600), (700, 1400),
                                    (640, 1600), (1920, 1200), (1024, 1024)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_panel_layout_arithmetic_over_many_shapes(window: tuple[int, int]) -> None:
    """The layout alone (no window), over more shapes than the screen tests open."""
    from engine.ui.game_layout import bars
    from engine.ui.viewport import Viewport
    from games.buttons.board_view import CODE_LINES
    from games.buttons.scene_layout import INFO_NAMES, TOOL_NAMES, panel_layout

    _top, body, _status = bars(Viewport.fit(window).area)
    arrangement, rects = panel_layout(body, CODE_LINES)
    assert set(rects) == {"board", *TOOL_NAMES, *INFO_NAMES}
    for name, rect in rects.items():
        assert inside(rect, body), (arrangement, name, rect, body)
    for (a, ra), (b, rb) in itertools.combinations(rects.items(), 2):
        assert not overlap(ra, rb), (arrangement, a, ra, b, rb)
    board = rects["board"]
    if arrangement == "below":
        assert all(r.top >= board.bottom for n, r in rects.items() if n != "board")
    else:
        assert all(r.right <= board.left or r.left >= board.right
                   for n, r in rects.items() if n != "board")
    assert board.w == board.h >= 300  # a square board of playable size in every shape
