"""Connect Four's screen, driven by real pygame events on the real scene."""

from __future__ import annotations

import pygame
import pytest

from engine.model.registry import find_game
from engine.model.seats import Seat
from games.connect4.rules import Connect4Config, Connect4State
from games.connect4.scene import Connect4Scene
from tests.conftest import click, click_widget, grid_centre, key, near, run_until, wait_hints

GAME = find_game("connect4")


def open_game(app, cols: int = 7, rows: int = 6, seats=None) -> Connect4Scene:
    scene = app.push(GAME.open_scene(app, Connect4Config(cols, rows),
                                     seats=seats or (Seat(), Seat())))
    app.step([])
    return scene


def column_point(scene: Connect4Scene, col: int, row: int) -> tuple[float, float]:
    """Design point of a board cell (row 0 = the top row of the board, not the drop row)."""
    cfg = scene.config
    return grid_centre(tuple(scene.layout()["board"]), cfg.rows + 1, cfg.cols, row + 1, col)


def test_the_launcher_tile_opens_connect_four(app) -> None:
    click_widget(app, "connect4")
    assert isinstance(app.top, Connect4Scene)
    assert app.top.config == Connect4Config(7, 6)


def test_a_click_anywhere_in_a_column_drops_a_disc_to_the_bottom(app) -> None:
    scene = open_game(app)
    click(app, *column_point(scene, 3, 0))  # the top cell of column 4
    assert scene.state.moves == (3,)
    assert scene.state.cell(5, 3) == 0 and scene.state.cell(0, 3) == -1
    click(app, *column_point(scene, 3, 5))  # the bottom cell: the disc lands on top
    assert scene.state.cell(4, 3) == 1
    # The disc is drawn where it landed, in the player's colour.
    x, y = app.viewport.point(*column_point(scene, 3, 5))
    assert near(app.screen.get_at((x, y - app.viewport.px(30))), app.theme.palette.players[0],
                40)


def test_the_keyboard_plays_too(app) -> None:
    scene = open_game(app)
    key(app, pygame.K_RIGHT)  # the cursor starts at the middle column and moves right
    key(app, pygame.K_RETURN)
    assert scene.state.moves == (4,)
    key(app, pygame.K_LEFT)
    key(app, pygame.K_DOWN)
    assert scene.state.moves == (4, 3)
    key(app, pygame.K_1, unicode="1")
    assert scene.state.moves == (4, 3, 0)


def test_a_full_column_refuses_more_discs(app) -> None:
    scene = open_game(app, 4, 4)
    for _ in range(4):
        click(app, *column_point(scene, 0, 0))
    assert scene.state.height(0) == 4
    click(app, *column_point(scene, 0, 0))
    assert scene.state.moves == (0, 0, 0, 0)


@pytest.mark.slow
def test_four_in_a_row_wins_and_is_recorded(app) -> None:
    scene = open_game(app)
    for col in (0, 6, 1, 6, 2, 6, 3):
        click(app, *column_point(scene, col, 0))
    state = scene.state
    assert state.winner == 0 and state.is_terminal()
    assert sorted(state.win_line) == [(5, 0), (5, 1), (5, 2), (5, 3)]
    assert "X wins" in scene.status_text()
    assert app.stats.totals_by_game()["connect4"] == (1, 1, 0, 0)
    # The last disc lands, the line sweeps in, then the result panel comes up: look past it.
    run_until(app, lambda: app.top is not scene, timeout=3)
    assert scene.anim.progress("sweep") is None
    key(app, pygame.K_ESCAPE)
    assert app.top is scene
    # The winning line is struck through in the win colour.
    a = app.viewport.point(*column_point(scene, 1, 5))
    b = app.viewport.point(*column_point(scene, 2, 5))
    middle = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    # (within 12: the board face's colour is within 40 of the line's)
    assert near(app.screen.get_at(middle), app.theme.palette.win_line)


@pytest.mark.slow
def test_hints_label_every_column_with_exact_values(app) -> None:
    scene = open_game(app, 4, 4)
    key(app, pygame.K_h)
    wait_hints(app, scene)
    labels = scene.debug_state()["hints"]
    assert set(labels) == {str(c) for c in range(4)}
    assert all(v.exact for v in scene.hints.values())
    # An immediate win is labelled W1 after three discs in a row.
    for col in (0, 0, 1, 1, 2, 2):
        click(app, *column_point(scene, col, 0))
    wait_hints(app, scene)
    assert scene.hints[3].label() == "W1" and scene.hints[3].outcome == "win"
    # Drawn above the column: the drop row's cell is tinted the win colour.
    x, y = app.viewport.point(*column_point(scene, 3, -1))  # the drop row
    assert near(app.screen.get_at((x - app.viewport.px(40), y)), app.theme.palette.good, 90)


def test_against_the_computer_undo_returns_to_the_human_turn(app) -> None:
    scene = open_game(app, seats=(Seat(), Seat("computer", "medium")))
    click(app, *column_point(scene, 3, 0))
    run_until(app, lambda: len(scene.state.moves) == 2)
    key(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert scene.state == Connect4State.new(Connect4Config(7, 6))
    assert scene.state.current_player() == 0


def test_setup_changes_the_board_and_remembers_it(app) -> None:
    scene = open_game(app)
    key(app, pygame.K_s)
    click_widget(app, "6×5")
    click_widget(app, "cols+")
    assert app.top.debug_state()["params"] == "7x5"
    click_widget(app, "Start")
    assert isinstance(app.top, Connect4Scene) and app.top is not scene
    assert app.top.config == Connect4Config(7, 5)
    assert app.settings.get("variants")["connect4"] == {"cols": 7, "rows": 5, "k": 4}
