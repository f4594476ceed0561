"""A record pasted on the launcher (Ctrl+V, engine.screens.review_scene): its game opens as
the launcher opens it, the record is played there as a new game and reviewed, and nothing
of the game left there is lost; a bad record, or one of another board, changes nothing."""

from __future__ import annotations

import pygame

from engine.model.registry import find_game
from engine.screens.launcher import LauncherScene
from engine.screens.review_scene import ReviewScene
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import hot_seat, key, run_until


def paste(app, text: str) -> None:
    pygame.scrap.put_text(text)
    key(app, pygame.K_v, pygame.KMOD_CTRL)


def test_a_record_pasted_on_the_launcher_opens_its_game_and_its_review(app) -> None:
    hot_seat(app)
    paste(app, "tictactoe 3x3:k3 b2 a1 c3")
    review = app.top
    assert isinstance(review, ReviewScene) and review.moves == (4, 6, 2)
    run_until(app, lambda: review.review is not None, timeout=20)
    key(app, pygame.K_ESCAPE)
    scene = app.top
    assert isinstance(scene, TicTacToeScene)
    assert scene.match.game_record()[1] == (4, 6, 2)


def test_the_game_left_there_stays_in_undo(app) -> None:
    hot_seat(app)
    app.top.open_family(find_game("tictactoe"))  # what a click on its tile does
    scene = app.top
    assert isinstance(scene, TicTacToeScene)
    scene.play_move(0)
    scene.play_move(8)
    left = scene.state
    key(app, pygame.K_ESCAPE)  # kept: saved when left
    assert isinstance(app.top, LauncherScene)
    paste(app, "ttt 3x3:k3 b2")
    review = app.top
    assert isinstance(review, ReviewScene)
    key(app, pygame.K_ESCAPE)
    scene = app.top
    assert scene.match.game_record()[1] == (4,)
    for _ in range(2):
        key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.state == left


def test_a_bad_record_on_the_launcher_says_where_and_opens_nothing(app) -> None:
    paste(app, "tictactoe 3x3:k3 b2 b2")
    assert isinstance(app.top, LauncherScene)
    assert any("word 4: move 2 (b2) is not a legal move there" in text
               for text in app.toasts.texts)


def test_a_record_of_another_board_opens_the_game_and_says_so(app) -> None:
    hot_seat(app)
    paste(app, "tictactoe 4x4:k4 a1")
    scene = app.top
    assert isinstance(scene, TicTacToeScene) and len(scene.history.entries) == 1
    assert any("That record is a game of Tic-tac-toe" in text for text in app.toasts.texts)


def test_statistics_opens_a_typed_or_pasted_record_for_review(app) -> None:
    from engine.screens.overlays import TextEntryDialog
    from engine.screens.stats_scene import StatsScene
    from tests.conftest import click_widget, type_text

    hot_seat(app)
    app.push(StatsScene(app))
    app.step([])
    pygame.scrap.put_text("not a record at all")
    click_widget(app, "Open a record")
    dialog = app.top
    assert isinstance(dialog, TextEntryDialog) and dialog.text == ""  # only records offered
    type_text(app, "tictactoe 3x3:k3 b2 b2")
    click_widget(app, "OK")
    assert app.top is dialog and "word 4" in (dialog.error or "")
    key(app, pygame.K_ESCAPE)
    pygame.scrap.put_text("tictactoe 3x3:k3 b2 a1")
    click_widget(app, "Open a record")
    assert app.top.text == "tictactoe 3x3:k3 b2 a1"  # the clipboard's record, ready
    click_widget(app, "OK")
    review = app.top
    assert isinstance(review, ReviewScene) and review.moves == (4, 6)
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, StatsScene)
