"""The tic-tac-toe family through the real scene: set-up, seats, computer, undo, stats."""

from __future__ import annotations

import pygame
import pytest

from engine.model.seats import Seat
from engine.screens.launcher import LauncherScene
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import TicTacToeScene
from games.tictactoe.setup_scene import SetupOverlay
from tests.conftest import click, click_widget, key, run_until
from tests.support.screens import cell_centre

CTRL = pygame.KMOD_LCTRL
HUMAN, EASY = Seat("human"), Seat("computer", "easy")


def start(app, config: MNKConfig, seats, seed: int = 1) -> TicTacToeScene:
    return app.push(TicTacToeScene(app, config, tuple(seats), seed=seed))


def test_setup_overlay_starts_a_new_board_and_is_remembered(app, profile) -> None:
    click_widget(app, "tictactoe")
    key(app, pygame.K_s)
    assert isinstance(app.top, SetupOverlay)
    click_widget(app, "4×4, 4 in a row")
    click_widget(app, "O computer")
    for _step in range(3):  # from the default Hard down the ladder: Strong, Medium, Easy
        click_widget(app, "O level-")
    click_widget(app, "Start")
    scene = app.top
    assert isinstance(scene, TicTacToeScene)
    assert scene.config == MNKConfig(4, 4, 4) and scene.seats == (HUMAN, EASY)
    assert len(app.scenes) == 2  # launcher + game: Back still returns to the launcher
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, LauncherScene)
    click_widget(app, "tictactoe")  # the next game opens with the same set-up
    assert app.top.config == MNKConfig(4, 4, 4) and app.top.seats == (HUMAN, EASY)


@pytest.mark.slow
def test_setup_cancel_changes_nothing_and_custom_sizes_clamp(app) -> None:
    scene = start(app, MNKConfig(), [HUMAN, HUMAN])
    click(app, *cell_centre(scene, 0, 0))
    click_widget(app, "Setup")
    overlay = app.top
    for _ in range(20):
        click_widget(app, "rows+")
    click_widget(app, "cols+")
    for _ in range(5):
        click_widget(app, "k+")
    assert overlay.current_tuple() == (15, 4, 4, 2)  # sides stop at 15, k at the shorter side
    key(app, pygame.K_ESCAPE)
    assert app.top is scene and scene.config == MNKConfig() and scene.state.moves_made == 1


def test_human_against_computer_and_undo_back_to_the_human_turn(app, profile) -> None:
    scene = start(app, MNKConfig(), [HUMAN, EASY])
    click(app, *cell_centre(scene, 1, 1))
    assert scene.state.moves_made == 1
    click(app, *cell_centre(scene, 0, 0))  # not the human's turn: ignored
    assert scene.state.moves_made == 1
    run_until(app, lambda: scene.state.moves_made == 2)
    assert scene.state.to_move == 0
    click_widget(app, "Undo")  # skips the computer's reply, back to before the human's move
    assert scene.state.moves_made == 0
    click_widget(app, "Redo")  # forward to the human's next turn
    assert scene.state.moves_made == 2 and scene.state.to_move == 0


def test_computer_plays_first_as_x(app) -> None:
    scene = start(app, MNKConfig(), [EASY, HUMAN])
    run_until(app, lambda: scene.state.moves_made == 1)
    assert scene.state.to_move == 1 and "click an empty square" in scene.status_text()


@pytest.mark.slow
def test_computer_versus_computer_pause_step_and_finish(app) -> None:
    scene = start(app, MNKConfig(), [EASY, Seat("computer", "medium")])
    assert scene.ui.find("Pause").visible
    run_until(app, lambda: scene.state.moves_made >= 1)
    click_widget(app, "Pause")
    assert scene.paused
    made = scene.state.moves_made
    for _ in range(120):  # two seconds of frames: nothing moves while paused
        app.step([])
    assert scene.state.moves_made == made
    click_widget(app, "Step")
    run_until(app, lambda: scene.state.moves_made == made + 1)
    for _ in range(60):
        app.step([])
    assert scene.state.moves_made == made + 1  # exactly one move per step
    click_widget(app, "Pause")  # the same button now reads "Resume"
    assert not scene.paused
    run_until(app, lambda: scene.state.is_terminal(), timeout=20)
    rows = app.stats.game_summary()
    assert [(r.variant, r.mode, r.opponent, r.played) for r in rows] == [
        ("3x3", "computer-computer", "easy vs medium", 1)]


@pytest.mark.slow
def test_computer_moves_are_visible_with_a_delay(app) -> None:
    """Computer against computer waits between moves so people can follow."""
    scene = start(app, MNKConfig(), [EASY, EASY])
    frames = 0
    while scene.state.moves_made < 2:
        app.step([])
        frames += 1
        assert frames < 600
    assert frames >= 30  # at least ~0.5 s of frames (60 fps) between the first two moves


def test_three_players_take_turns_and_a_third_player_can_win(app) -> None:
    scene = start(app, MNKConfig(4, 4, 3, players=3), [HUMAN, HUMAN, HUMAN])
    assert not scene.ui.find("Hint").enabled
    # 1: (0,0) 2: (1,0) 3: (0,3) 1: (3,3) 2: (2,0)... three to move wins on column 3
    for r, c in [(0, 0), (1, 0), (0, 3), (3, 0), (2, 1), (1, 3), (3, 2), (3, 1), (2, 3)]:
        click(app, *cell_centre(scene, r, c))
    assert scene.state.winner == 2 and scene.status_text().startswith("△ wins")
    assert scene.state.win_line == (3, 7, 11)


def test_leaving_cancels_the_computer(app) -> None:
    scene = start(app, MNKConfig(), [HUMAN, EASY])
    click(app, *cell_centre(scene, 1, 1))
    run_until(app, lambda: scene.ai.busy)
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, LauncherScene) and not scene.ai.busy


@pytest.mark.slow
def test_stats_per_variant_mode_and_level(app) -> None:
    scene = start(app, MNKConfig(), [HUMAN, EASY])
    # Play the centre-corner line; whatever Easy does, finish the game.
    while not scene.state.is_terminal():
        if scene.state.to_move == 0:
            move = scene.state.legal_moves()[0]
            click(app, *cell_centre(scene, *divmod(move, 3)))
        else:
            run_until(app, lambda: scene.state.to_move == 0 or scene.state.is_terminal())
    rows = app.stats.game_summary()
    assert len(rows) == 1
    row = rows[0]
    assert (row.game, row.variant, row.mode, row.opponent) == (
        "tictactoe", "3x3", "human-computer", "easy")
    expected = {None: "drawn", 0: "won", 1: "lost"}[scene.state.winner]
    assert (row.won, row.lost, row.drawn) == tuple(int(expected == o)
                                                   for o in ("won", "lost", "drawn"))
