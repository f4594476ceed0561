"""Real scenes driven by real pygame events under SDL_VIDEODRIVER=dummy."""

from __future__ import annotations

import json
import time

import pygame
import pytest

from engine.screens.launcher import LauncherScene
from engine.screens.overlays import ConfirmDialog, TextEntryDialog
from engine.screens.scene import HelpOverlay
from engine.screens.stats_scene import StatsScene
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import (
    click,
    click_widget,
    hot_seat,
    key,
    make_app,
    near,
    run_until,
    stats_shown,
    type_text,
)
from tests.support.screens import cell_centre

CTRL = pygame.KMOD_LCTRL




def open_tictactoe(app) -> TicTacToeScene:
    hot_seat(app)  # these tests click for both players
    click_widget(app, "tictactoe")
    assert isinstance(app.top, TicTacToeScene)
    return app.top


def play_cells(app, cells) -> None:
    for r, c in cells:
        click(app, *cell_centre(app.top, r, c))


X_WINS_DIAGONAL = [(0, 0), (1, 0), (1, 1), (2, 0), (2, 2)]


# --- launcher ------------------------------------------------------------------------------


def test_launcher_has_a_tile_per_registered_game_in_order(app) -> None:
    from engine.model.registry import all_games

    ids = [t["id"] for t in app.top.debug_state()["tiles"]]
    assert ids == [g.id for g in all_games()]
    assert {"tictactoe", "grundy"} <= set(ids)  # discovered, not listed anywhere


def test_click_tile_opens_game_and_esc_or_back_returns(app) -> None:
    open_tictactoe(app)
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, LauncherScene)
    open_tictactoe(app)
    click_widget(app, "Back")
    assert isinstance(app.top, LauncherScene) and len(app.scenes) == 1


def test_keyboard_reaches_the_tile(app) -> None:
    key(app, pygame.K_TAB)  # first focusable widget is the first tile
    key(app, pygame.K_RETURN)
    assert isinstance(app.top, TicTacToeScene)


# --- tic-tac-toe -------------------------------------------------------------------------------


def test_x_moves_first_and_clicks_alternate_marks(app) -> None:
    scene = open_tictactoe(app)
    play_cells(app, [(1, 1), (0, 0)])
    assert scene.state.to_rows() == ["O..", ".X.", "..."]
    click(app, *cell_centre(scene, 1, 1))  # taken: nothing changes
    assert scene.state.to_rows() == ["O..", ".X.", "..."]
    assert "X to move" in scene.status_text()


@pytest.mark.slow
def test_winning_line_is_detected_and_highlighted(app) -> None:
    scene = open_tictactoe(app)
    play_cells(app, X_WINS_DIAGONAL)
    assert scene.state.winner == 0 and scene.state.win_line == (0, 4, 8)
    assert scene.status_text().startswith("X wins")
    # The line sweeps in, then the result panel comes up over the board: look past it.
    run_until(app, lambda: app.top is not scene, timeout=3)
    assert scene.anim.progress("sweep") is None
    key(app, pygame.K_ESCAPE)
    assert app.top is scene
    win = app.theme.palette.win_line
    a, b = cell_centre(scene, 0, 0), cell_centre(scene, 1, 1)
    # The highlight frames the centre cell and runs between the marked cells (under the
    # marks, so the X drawn over it keeps both strokes).
    centre = scene.geometry().cell_rect(1, 1)
    frame_at = (centre.left + max(2, round(centre.width / 18)) * 3 // 2, centre.centery)
    assert near(app.screen.get_at(frame_at), win)
    assert near(app.screen.get_at(app.viewport.point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)), win)
    # No highlight on a cell outside the line.
    assert not near(app.screen.get_at(app.viewport.point(*cell_centre(scene, 0, 2))), win)
    click(app, *cell_centre(scene, 0, 2))  # the game is over: clicks do nothing
    assert scene.state.cell(0, 2) == -1


def test_draw_is_detected(app) -> None:
    scene = open_tictactoe(app)
    # X O X / X O O / O X X
    play_cells(app, [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)])
    assert scene.state.is_draw and "Draw" in scene.status_text()


@pytest.mark.slow
def test_undo_redo_buttons_and_shortcuts_across_game_end(app) -> None:
    scene = open_tictactoe(app)
    play_cells(app, X_WINS_DIAGONAL)
    click_widget(app, "Undo")
    assert scene.state.winner is None and scene.state.moves_made == 4
    key(app, pygame.K_z, CTRL)
    assert scene.state.moves_made == 3
    key(app, pygame.K_y, CTRL)
    click_widget(app, "Redo")
    assert scene.state.winner == 0
    key(app, pygame.K_z, CTRL)
    key(app, pygame.K_z, CTRL | pygame.KMOD_LSHIFT)  # Ctrl+Shift+Z redoes too
    assert scene.state.winner == 0
    # Playing after an undo cuts the redo tail.
    key(app, pygame.K_z, CTRL)
    click(app, *cell_centre(scene, 0, 2))
    assert not scene.can_redo() and scene.state.cell(0, 2) == 0


def test_undo_button_disabled_at_start(app) -> None:
    scene = open_tictactoe(app)
    assert not scene.ui.find("Undo").enabled
    click_widget(app, "Undo")
    assert scene.state.moves_made == 0


def test_new_game_is_undoable(app) -> None:
    scene = open_tictactoe(app)
    play_cells(app, [(0, 0), (1, 1)])
    click_widget(app, "New game")
    assert scene.state.moves_made == 0
    click_widget(app, "Undo")
    assert scene.state.to_rows() == ["X..", ".O.", "..."]
    key(app, pygame.K_n)
    assert scene.state.moves_made == 0


def test_keyboard_play_with_arrows_and_enter(app) -> None:
    scene = open_tictactoe(app)
    key(app, pygame.K_UP)  # cursor starts at the centre, moves up
    key(app, pygame.K_RETURN)
    assert scene.state.cell(0, 1) == 0
    key(app, pygame.K_LEFT)
    key(app, pygame.K_SPACE)
    assert scene.state.cell(0, 0) == 1


@pytest.mark.slow
def test_results_recorded_once_per_game(app, profile) -> None:
    open_tictactoe(app)
    play_cells(app, X_WINS_DIAGONAL)
    key(app, pygame.K_z, CTRL)
    key(app, pygame.K_y, CTRL)  # replaying to the same end is not a second game
    key(app, pygame.K_n)
    play_cells(app, [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)])
    assert app.stats.totals_by_game()["tictactoe"] == (2, 1, 0, 1)
    key(app, pygame.K_ESCAPE)
    click_widget(app, "Statistics")
    assert isinstance(app.top, StatsScene)
    stats_shown(app)
    assert app.top.debug_state()["totals"]["tictactoe"] == [2, 1, 0, 1]


# --- help, overlays, dialogs -----------------------------------------------------------------


def test_f1_and_question_button_show_rules_for_the_current_screen(app) -> None:
    key(app, pygame.K_F1)
    assert isinstance(app.top, HelpOverlay) and app.top.title == "Arcade of Strategy"
    key(app, pygame.K_F1)
    assert isinstance(app.top, LauncherScene)
    open_tictactoe(app)
    click_widget(app, "?")
    assert isinstance(app.top, HelpOverlay) and "complete a line of k marks" in app.top.text
    # Modal: a click on the board underneath does not play.
    click(app, *cell_centre(app.scenes[-2], 1, 1))
    assert app.scenes[-2].state.moves_made == 0
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, TicTacToeScene)


def test_confirm_dialog_yes_and_no(app) -> None:
    answers: list[str] = []
    app.push(ConfirmDialog(app, "Really?", lambda: answers.append("yes")))
    click_widget(app, "No")
    assert answers == [] and isinstance(app.top, LauncherScene)
    app.push(ConfirmDialog(app, "Really?", lambda: answers.append("yes")))
    key(app, pygame.K_RETURN)  # Yes has the focus
    assert answers == ["yes"] and isinstance(app.top, LauncherScene)


@pytest.mark.slow
def test_text_entry_validates_before_acting(app) -> None:
    got: list[str] = []

    def validate(text: str) -> str | None:
        return None if text.isdigit() else f"{text!r} is not a number"

    dialog = app.push(TextEntryDialog(app, "Enter a number", got.append, validate))
    app.step([])
    type_text(app, "12a")
    assert dialog.text == "12a"
    key(app, pygame.K_RETURN)
    assert got == [] and app.top is dialog and "not a number" in dialog.error
    key(app, pygame.K_BACKSPACE)
    assert dialog.text == "12" and dialog.error is None
    click_widget(app, "OK")
    assert got == ["12"] and isinstance(app.top, LauncherScene)
    dialog = app.push(TextEntryDialog(app, "Enter a number", got.append, validate))
    type_text(app, "99")
    key(app, pygame.K_ESCAPE)
    assert got == ["12"] and isinstance(app.top, LauncherScene)


# --- window, palette, quitting ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1280, 720), (700, 900), (1920, 1200)])
def test_resize_keeps_board_centred_and_clicks_mapped(app, size) -> None:
    scene = open_tictactoe(app)
    app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    app.step()
    geom = scene.geometry()
    board = geom.rect
    assert app.screen.get_rect().contains(board)
    # Laid out afresh for the window: the board fills its layout square, which takes more
    # room than the old fixed 560-unit picture would have at this scale.
    region = scene.area("board")
    assert abs(board.centerx - region.centerx) <= 2 and abs(board.centery - region.centery) <= 2
    assert board.width == pytest.approx(region.width, abs=2)
    assert board.width >= 560 * app.viewport.scale - 2
    play_cells(app, [(2, 2)])
    assert scene.state.cell(2, 2) == 0
    # The mark is drawn where the cell is on the resized window, once it has popped in.
    run_until(app, lambda: not scene.anim.running("appear"), timeout=3)
    x_colour = app.theme.palette.players[0]
    cell = geom.cell_rect(2, 2)
    assert any(near(app.screen.get_at((x, cell.centery)), x_colour, 40)
               for x in range(cell.left, cell.right))


def test_palette_switch_changes_pixels_and_is_saved(app, profile) -> None:
    before = app.screen.get_at((5, 700))
    click_widget(app, "Palette")
    app.step([])
    assert app.theme.palette.name == "colourblind"
    assert app.screen.get_at((5, 700)) != before
    saved = json.loads((profile / "settings.json").read_text())
    assert saved["palette"] == "colourblind"


@pytest.mark.parametrize("where", ["launcher", "game", "help", "stats"])
def test_window_close_quits_from_any_screen(app, where) -> None:
    if where != "launcher":
        open_tictactoe(app) if where != "stats" else click_widget(app, "Statistics")
    if where == "help":
        key(app, pygame.K_F1)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.step()
    assert not app.running and app.scenes == []


def test_quit_button(app) -> None:
    click_widget(app, "Quit")
    assert not app.running


def test_corrupt_settings_are_reported_on_screen_and_kept(profile, capsys) -> None:
    profile.mkdir(parents=True)
    (profile / "settings.json").write_bytes(b"{not json")
    app = make_app(profile)
    try:
        assert app.notices and "settings" in app.notices[0].lower()
        assert "arcade:" in capsys.readouterr().err
        aside = [p for p in profile.iterdir() if ".corrupt-" in p.name]
        assert aside and aside[0].read_bytes() == b"{not json"
        # It shows as a warning notice (framed in the "bad" colour), and a click on it
        # dismisses it.
        app.step([])
        (_toast, rect), = app.toasts.placed
        assert app.screen.get_at((rect.centerx, rect.bottom - 1))[:3] == app.theme.palette.bad
        click(app, *app.viewport.to_design(rect.center))
        assert not app.notices
    finally:
        app.quit()
        app.stats.close()


@pytest.mark.slow
def test_idle_loop_sleeps_instead_of_spinning(app) -> None:
    """With nothing happening, run() waits for input: few frames, little CPU."""
    app.step([])
    frames = app.frames
    pygame.time.set_timer(pygame.QUIT, 800, loops=1)
    cpu0, t0 = time.process_time(), time.monotonic()
    app.run()
    wall, cpu = time.monotonic() - t0, time.process_time() - cpu0
    assert wall >= 0.7
    assert app.frames - frames <= 8, "redrew while idle"
    assert cpu < 0.4 * wall, f"busy loop: {cpu:.2f}s CPU in {wall:.2f}s"


@pytest.mark.slow
def test_run_keeps_60_fps_when_something_moves(app) -> None:
    """A scene that animates gets frames at about 60 per second, not more."""
    app.top.is_active = lambda: True  # type: ignore[method-assign]
    pygame.time.set_timer(pygame.QUIT, 1000, loops=1)
    start = app.frames
    app.run()
    drawn = app.frames - start
    assert 40 <= drawn <= 65, drawn
