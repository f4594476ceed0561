"""The result panel at the end of a turn-based game: when it comes up, what it says from
the human's side, and what its buttons do (all through real clicks and keys)."""

from __future__ import annotations

import pygame
import pytest

from engine.model.game_settings import load_seats
from engine.model.history import History
from engine.model.seats import Seat
from engine.screens.launcher import LauncherScene
from engine.screens.result_overlay import ResultOverlay, result_headline, swapped
from engine.screens.scene import HelpOverlay
from games.tictactoe.descriptor import GAME
from games.tictactoe.rules import MNKConfig, TicTacToeState
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import make_app, near, run_until

HUMAN = Seat()
EASY = Seat("computer", "easy")
THREE = MNKConfig(4, 4, 3, players=3)
CLASSIC = MNKConfig()


def open_game(app, seats, rows=None, config=CLASSIC) -> TicTacToeScene:
    """A tic-tac-toe game with ``seats``, started from ``rows`` if given."""
    scene = app.push(TicTacToeScene(app, config, seats=seats, seed=3))
    if rows is not None:
        scene.history = History((0, TicTacToeState.from_rows(rows, config)))
        scene._changed()
    app.step([])
    return scene


def click_cell(app, scene, row: int, col: int) -> None:
    pos = tuple(round(v) for v in scene.geometry().cell_center(row, col))
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
              pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])


def click_button(app, name: str) -> None:
    x, y, w, h = app.top.ui.find(name).rect
    pos = app.viewport.point(x + w / 2, y + h / 2)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])


def press(app, keycode: int, mod: int = 0) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=keycode, mod=mod, unicode="", scancode=0),
              pygame.event.Event(pygame.KEYUP, key=keycode, mod=mod, unicode="", scancode=0)])


def advance(app, seconds: float, dt: float = 0.05) -> None:
    for _ in range(round(seconds / dt)):
        app.step([], dt)


def result(app) -> ResultOverlay:
    assert isinstance(app.top, ResultOverlay), type(app.top).__name__
    return app.top


# --- when ------------------------------------------------------------------------------------


def test_you_win_comes_up_after_the_line_has_swept_in(app) -> None:
    scene = open_game(app, (HUMAN, EASY), ["XX.", "OO.", "..."])
    click_cell(app, scene, 0, 2)
    assert scene.state.winner == 0
    advance(app, 0.3)
    assert app.top is scene  # the winning line is still sweeping in
    advance(app, 0.3)
    panel = result(app)
    assert (panel.headline, panel.tone, panel.moves) == ("You win", "win", 1)
    # Drawn over the finished board, framed in the "good" colour.
    rect = app.viewport.map_rect(tuple(panel.panel_rect()))
    assert rect.colliderect(scene.area("board"))
    assert near(app.screen.get_at((rect.x + 1, rect.centery)), app.theme.palette.good)


def test_any_input_shows_it_at_once(app) -> None:
    scene = open_game(app, (HUMAN, HUMAN), ["XX.", "OO.", "..."])
    click_cell(app, scene, 0, 2)
    assert app.top is scene
    click_cell(app, scene, 2, 2)  # a click on the finished board: no move, no waiting
    assert result(app).headline == "X wins"
    assert scene.state.cell(2, 2) != 0


def test_with_reduce_motion_it_comes_up_at_once(app) -> None:
    app.settings.set("reduce_motion", True)
    scene = open_game(app, (HUMAN, HUMAN), ["XX.", "OO.", "..."])
    click_cell(app, scene, 0, 2)
    assert result(app).headline == "X wins"


@pytest.mark.slow
def test_it_waits_for_help_to_close(app) -> None:
    scene = open_game(app, (HUMAN, HUMAN), ["XX.", "OO.", "..."])
    click_cell(app, scene, 0, 2)
    press(app, pygame.K_F1)
    advance(app, 1.0)
    assert isinstance(app.top, HelpOverlay)
    press(app, pygame.K_F1)
    assert result(app).headline == "X wins"


# --- what it says ----------------------------------------------------------------------------


def test_two_humans_played_by_clicks(app) -> None:
    scene = open_game(app, (HUMAN, HUMAN))
    for r, c in [(0, 0), (1, 0), (1, 1), (2, 0), (2, 2)]:
        click_cell(app, scene, r, c)
    advance(app, 0.6)
    panel = result(app)
    assert (panel.headline, panel.moves) == ("X wins", 5)
    assert panel.debug_state()["headline"] == "X wins"


@pytest.mark.slow
def test_the_computer_wins(app) -> None:
    scene = open_game(app, (HUMAN, EASY), ["XX.", "OO.", "X.."])
    run_until(app, lambda: scene.state.is_terminal())
    advance(app, 0.6)
    panel = result(app)
    assert (panel.headline, panel.tone) == ("The computer wins", "loss")
    rect = app.viewport.map_rect(tuple(panel.panel_rect()))
    assert near(app.screen.get_at((rect.x + 1, rect.centery)), app.theme.palette.bad)


def test_draw(app) -> None:
    scene = open_game(app, (HUMAN, EASY), ["XOX", "XOO", "OX."])
    click_cell(app, scene, 2, 2)
    assert scene.state.is_draw
    advance(app, 0.6)
    assert (result(app).headline, result(app).tone) == ("Draw", "draw")


@pytest.mark.slow
def test_computer_against_computer_names_the_winner(app) -> None:
    seats = (Seat("computer", "easy"), Seat("computer", "hard"))
    scene = open_game(app, seats, ["XX.", "OO.", "..."])
    run_until(app, lambda: scene.state.is_terminal())
    advance(app, 0.6)
    assert result(app).headline == "X (computer, Easy) wins"


@pytest.mark.parametrize(("rows", "headline", "tone"), [
    (["XX..", "OO..", "△△..", "...."], "You win", "win"),  # X (the human) to move wins
    (["XX..", "OO..", "△△..", "X..."], "O wins", "loss"),  # O (a computer) to move wins
])
def test_three_players_from_the_humans_side(app, rows, headline, tone) -> None:
    scene = open_game(app, (HUMAN, EASY, EASY), rows, THREE)
    if not scene.computer_to_move():
        click_cell(app, scene, 0, 2)
    run_until(app, lambda: scene.state.is_terminal())
    advance(app, 0.6)
    assert (result(app).headline, result(app).tone) == (headline, tone)


def test_headline_rules_without_a_screen() -> None:
    class Fake:
        def __init__(self, seats):
            self.seats = seats

        def player_name(self, player):
            return "XO△"[player]

    won_by_o = TicTacToeState.from_rows(["XX.", "OOO", "X.."])
    assert result_headline(Fake((HUMAN, EASY)), won_by_o) == ("The computer wins", "loss")
    assert result_headline(Fake((EASY, HUMAN)), won_by_o) == ("You win", "win")
    assert result_headline(Fake((HUMAN, HUMAN)), won_by_o) == ("O wins", "win")
    assert swapped((HUMAN, EASY, Seat("computer", "hard"))) == (
        EASY, Seat("computer", "hard"), HUMAN)


# --- what its buttons do ---------------------------------------------------------------------


def finished(app, seats=(HUMAN, EASY)) -> TicTacToeScene:
    scene = open_game(app, seats, ["XX.", "OO.", "..."])
    click_cell(app, scene, 0, 2)
    advance(app, 0.6)
    result(app)
    return scene


def test_play_again(app) -> None:
    scene = finished(app)
    click_button(app, "Play again")
    assert app.top is scene and scene.state == scene.fresh_state()


def test_enter_and_n_play_again(app) -> None:
    scene = finished(app, (HUMAN, HUMAN))
    press(app, pygame.K_RETURN)  # Play again has the focus
    assert app.top is scene and scene.state == scene.fresh_state()


def test_swap_sides_moves_the_players_round_and_remembers_it(app) -> None:
    scene = finished(app)
    click_button(app, "Swap sides")
    new = app.top
    assert isinstance(new, TicTacToeScene) and new is not scene
    assert new.seats == (EASY, HUMAN)
    assert load_seats(app.settings, GAME, 2) == (EASY, HUMAN)
    assert app.scenes[-2] is not scene and isinstance(app.scenes[-2], LauncherScene)


def test_swap_sides_is_off_when_it_would_change_nothing(app) -> None:
    finished(app, (HUMAN, HUMAN))
    assert not app.top.ui.find("Swap sides").enabled


def test_back_goes_to_the_launcher(app) -> None:
    finished(app)
    click_button(app, "Back")
    assert isinstance(app.top, LauncherScene) and len(app.scenes) == 1


@pytest.mark.slow
@pytest.mark.parametrize("close", ["View board", "Esc"])
def test_view_board_then_undo_and_replay_without_a_second_panel(app, close) -> None:
    scene = finished(app)
    if close == "Esc":
        press(app, pygame.K_ESCAPE)
    else:
        click_button(app, "View board")
    assert app.top is scene and scene.state.is_terminal()
    press(app, pygame.K_z, pygame.KMOD_CTRL)  # Undo still works on the finished board
    assert not scene.state.is_terminal()
    click_cell(app, scene, 0, 2)  # the same game won again
    assert scene.state.is_terminal()
    advance(app, 1.0)
    assert app.top is scene  # once per game
    assert app.stats.totals_by_game()["tictactoe"] == (1, 1, 0, 0)  # recorded once


@pytest.mark.slow
def test_a_new_game_gets_its_own_panel(app) -> None:
    scene = finished(app, (HUMAN, HUMAN))
    click_button(app, "Play again")
    for r, c in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]:
        click_cell(app, scene, r, c)
    advance(app, 0.6)
    assert result(app).moves == 5


def test_undo_during_the_delay_cancels_it(app) -> None:
    scene = open_game(app, (HUMAN, HUMAN), ["XX.", "OO.", "..."])
    click_cell(app, scene, 0, 2)
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    advance(app, 1.0)
    assert app.top is scene and not scene.state.is_terminal()


@pytest.mark.parametrize("size", [(640, 480), (1080, 1920)])
def test_panel_fits_small_and_tall_windows(profile, size) -> None:
    app = make_app(profile, size)
    try:
        scene = open_game(app, (HUMAN, HUMAN), ["XX.", "OO.", "..."])
        click_cell(app, scene, 0, 2)
        advance(app, 0.6)
        panel = result(app)
        window = app.screen.get_rect()
        assert window.contains(app.viewport.map_rect(tuple(panel.panel_rect())))
        for name in ("Play again", "Swap sides", "View board", "Back"):
            assert window.contains(panel.ui.find(name).screen_rect(app.viewport))
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()
