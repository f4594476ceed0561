"""The move list beside the board (engine.screens.move_list_view): a toggle (the Moves
button and M), on at the end of a game, the moves in the game's notation, the value change
once reviewed, in every two-player game, through real clicks and keys."""

from __future__ import annotations

import pygame
import pytest

from engine.model.registry import all_games
from engine.model.seats import Seat
from engine.screens.result_overlay import ResultOverlay
from engine.screens.review_scene import ReviewScene
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import click_widget, key, run_until
from tests.engine.screens.test_review_scene import GAME, click_cell

HUMANS = (Seat(), Seat())


def test_m_and_the_moves_button_toggle_the_list_and_it_is_remembered(app) -> None:
    scene = app.push(TicTacToeScene(app, MNKConfig(), seats=HUMANS, seed=3))
    app.step([])
    board = scene.layout()["board"]
    assert "moves" not in scene.layout()
    key(app, pygame.K_m)
    assert scene.show_moves and "moves" in scene.layout()
    assert scene.ui.find("Moves").selected
    assert scene.layout()["board"] == board  # under the cards: the board keeps its size
    assert app.settings.get("show_moves") is True
    for cell in GAME[:3]:
        click_cell(app, scene, cell)
    assert [row[0] for row in scene.move_rows()] == ["1. X: b2", "2. O: b3", "3. X: a3"]
    # Drawn: the list's panel where the layout puts it.
    rect = scene.area("moves")
    assert app.screen.get_at((rect.right - 3, rect.bottom - 12))[:3] == \
        app.theme.palette.panel
    click_widget(app, "Moves")
    assert not scene.show_moves and "moves" not in scene.layout()
    assert app.settings.get("show_moves") is False
    # A new screen starts as the player left it.
    key(app, pygame.K_m)
    again = TicTacToeScene(app, MNKConfig(), seats=HUMANS, seed=3)
    assert again.show_moves


def test_the_list_is_on_at_the_end_of_a_game_and_shows_the_review(app) -> None:
    scene = app.push(TicTacToeScene(app, MNKConfig(), seats=HUMANS, seed=3))
    app.step([])
    for cell in GAME:
        click_cell(app, scene, cell)
    assert scene.state.is_terminal() and not scene.show_moves
    assert "moves" in scene.layout()
    assert [change for _text, change, _grade in scene.move_rows()] == [""] * len(GAME)
    run_until(app, lambda: isinstance(app.top, ResultOverlay), timeout=5)
    click_widget(app, "Review")
    review = app.top
    assert isinstance(review, ReviewScene)
    run_until(app, lambda: review.review is not None, timeout=20)
    key(app, pygame.K_ESCAPE)
    assert app.top is scene
    rows = scene.move_rows()
    assert rows[1] == ("2. O: b3", "D→L5", "mistake")
    assert rows[0][1] == "D→D"


@pytest.mark.parametrize("game", [g for g in all_games() if g.kind == "two-player"],
                         ids=lambda g: g.id)
def test_every_two_player_game_has_the_list(app, game) -> None:
    scene = app.push(game.open_scene(app, None, seats=(Seat(),) * 4))
    app.step([])
    click_widget(app, "Moves")
    assert "moves" in scene.layout()
    state = scene.state
    scene.play_move(state.legal_moves()[0])
    app.step([])
    (text, change, grade), = scene.move_rows()
    assert text.startswith("1. ") and game.move_text(state, state.legal_moves()[0]) in text
    assert (change, grade) == ("", "")
