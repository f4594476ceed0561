"""Button Madness's review (issue 31, item 6), with real events: Review on the win screen
shows the player's presses beside the fewest-press solution and replays either; the
puzzle itself is left as it was. The generic replay is in
tests/engine/midend/test_puzzle_review.py."""

from __future__ import annotations

import pygame

from engine.screens.puzzle_review_scene import PuzzleReviewScene
from engine.screens.puzzle_scene import WinOverlay
from games.buttons.board import Board
from games.buttons.scene import ButtonMadnessScene
from tests.conftest import click, click_widget, key, run_until

START = Board.solved(4).press(0, 0).press(1, 1)  # two presses from solved
PRESSES = [(1, 1), (2, 2), (2, 2), (0, 0)]  # four: two of them cancel out


def solve_by_clicks(app) -> ButtonMadnessScene:
    scene = app.push(ButtonMadnessScene(app, START, seed=7))
    app.step([])
    for cell in PRESSES:
        click(app, *app.viewport.to_design(scene.geometry().cell_center(*cell)))
    assert scene.board.is_solved
    run_until(app, lambda: isinstance(app.top, WinOverlay), timeout=10)
    return scene


def test_review_shows_your_presses_beside_the_fewest_and_replays_either(app) -> None:
    scene = solve_by_clicks(app)
    click_widget(app, "Review")
    review = app.top
    assert isinstance(review, PuzzleReviewScene)
    run_until(app, lambda: review.replay.fewest is not None, timeout=20)
    replay = review.replay
    assert replay.start == START and replay.yours == tuple(PRESSES)
    assert sorted(replay.fewest) == [(0, 0), (1, 1)] and replay.proven
    summary = review.summary()
    assert "Yours: 4 presses." in summary and "Fewest: 2 presses (proven)." in summary
    assert "2 presses more than the solver's." in summary
    # Your line, step by step with keys: the board follows.
    assert replay.line == "yours" and replay.state == START
    key(app, pygame.K_RIGHT)
    assert replay.index == 1 and replay.state == START.press(1, 1)
    assert replay.last_move == (1, 1) and replay.next_move == (2, 2)
    key(app, pygame.K_END)
    assert replay.state.is_solved and review.position_text() == "Move 4 of 4"
    # The fewest line, replayed move by move (Replay, as a click).
    click_widget(app, "Fewest")
    assert replay.line == "fewest" and replay.index == 0 and replay.state == START
    click_widget(app, "Replay")
    assert review.playing
    run_until(app, lambda: not review.playing, timeout=10)
    assert replay.index == 2 and replay.state.is_solved
    # Back (Esc) to the puzzle, as it was: solved, its presses still in Undo.
    key(app, pygame.K_ESCAPE)
    assert app.top is scene and scene.board.is_solved and scene.puzzle.moves == 4


def test_r_on_the_win_screen_opens_the_review_and_a_draw_never_fails(app) -> None:
    solve_by_clicks(app)
    key(app, pygame.K_r)
    review = app.top
    assert isinstance(review, PuzzleReviewScene)
    run_until(app, lambda: review.replay.fewest is not None, timeout=20)
    app.step([])
    # A big board draws as a picture.
    big = Board.solved(60).press(3, 4)
    surface = pygame.Surface((400, 400))
    review.scene.draw_position(surface, big, pygame.Rect(0, 0, 400, 400), (3, 4), None)
    review.scene.draw_position(surface, big, pygame.Rect(0, 0, 400, 400), None, (3, 4))
