"""What the review needs of the midend (engine.midend.match): the game on screen as its start
and moves, and Play from here — a new, undoable game in the same log that keeps the one
reviewed, survives saving, a kill and resuming, and is never recorded again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.midend.match import MatchMidend
from engine.model.rules import IllegalMove
from engine.model.seats import Seat
from engine.screens.review_scene import ReviewScene
from games.tictactoe.rules import MNKConfig, TicTacToeState
from tests.conftest import make_app, run_until
from tests.engine.storage.test_game_journal import killed
from tests.engine.storage.test_saved_games import open_tile

START = TicTacToeState.new(MNKConfig())


HUMANS = (Seat(), Seat())


def midend(seats=HUMANS, results=None) -> MatchMidend:
    return MatchMidend(START, seats, fresh=lambda: START,
                       record=(results.append if results is not None else None))


def test_the_game_record_is_the_game_on_screen_up_to_the_cursor() -> None:
    match = midend()
    for move in (4, 0, 8):
        match.play(move)
    assert match.game_record() == (START, (4, 0, 8))
    match.undo()
    assert match.game_record() == (START, (4, 0))
    match.new_game()
    match.play(2)
    assert match.game_record() == (START, (2,))


def test_play_from_is_a_new_undoable_game_and_the_old_one_stays() -> None:
    results: list = []
    match = midend(results=results)
    finished = [4, 1, 0, 8, 2, 6, 3, 5, 7]
    for move in finished:
        match.play(move)
    assert match.state.is_terminal() and len(results) == 1
    end = match.play_from(START, finished[:3])
    assert end == match.state and match.game_record() == (START, (4, 1, 0))
    assert match.serial == 1  # a game of its own (the reviewed one was game 0)
    for _ in range(4):
        match.undo()
    assert match.game_record() == (START, tuple(finished)) and match.state.is_terminal()
    # Replaying a finished record does not count it again.
    match.redo()
    match.play_from(START, finished)
    assert len(results) == 1


def test_play_from_refuses_an_illegal_move_and_changes_nothing() -> None:
    match = midend()
    match.play(4)
    before = match.history.entries
    with pytest.raises(IllegalMove, match="move 2"):
        match.play_from(START, [0, 0])
    assert match.history.entries == before


def test_the_computer_alone_waits_after_play_from() -> None:
    match = midend(seats=(Seat("computer", "easy"), Seat("computer", "easy")))
    match.play_from(START, [4])
    assert match.paused


def test_play_from_here_survives_a_kill_and_resumes_with_the_reviewed_game(
        profile: Path) -> None:
    app = make_app(profile)
    scene = open_tile(app, "tictactoe")
    for move in [4, 1, 0, 8, 2, 6, 3, 5, 7]:
        scene.play_move(move)
    app.push(ReviewScene(app, scene))
    review = app.top
    run_until(app, lambda: review.review is not None, timeout=20)
    review.select(2)
    review.play_from_here()
    assert app.top is scene
    app.step([])
    killed(app)
    app.stats.close()
    again = make_app(profile)
    try:
        resumed = open_tile(again, "tictactoe")
        assert resumed.match.game_record() == (START, (4, 1))
        for _ in range(3):
            resumed.undo()
        assert resumed.match.game_record()[1] == (4, 1, 0, 8, 2, 6, 3, 5, 7)
    finally:
        again.quit()
        again.stats.close()


# --- reviews kept with the game ----------------------------------------------------------------
def _reviewed_midend() -> tuple[MatchMidend, tuple[int, ...]]:
    from engine.ai.review import review_game
    from engine.model.registry import find_game

    match = midend()
    moves = (4, 1, 0, 8, 2, 6, 3, 5, 7)
    for move in moves:
        match.play(move)
    review = review_game(START, moves, find_game("tictactoe").hint_function())
    match.keep_review((START, moves), review)
    return match, moves


def test_a_review_is_saved_and_restored_with_the_game() -> None:
    import json

    match, moves = _reviewed_midend()
    data = json.loads(json.dumps(match.snapshot()))
    again = midend()
    again.restore(data)
    assert again.reviews[(START, moves)] == match.reviews[(START, moves)]


@pytest.mark.parametrize("damage", [
    lambda r: r.__setitem__("moves", [0, 0]),
    lambda r: r["review"][0].__setitem__("grade", "brilliant"),
    lambda r: r["review"][1]["values"].append([99, ["win", 1, True, None]]),
    lambda r: r["review"][2].__setitem__("before", ["win", -5, True, None]),
    lambda r: r["review"].pop(),
    lambda r: r.clear(),
])
def test_a_damaged_review_is_dropped_and_the_game_kept(damage) -> None:
    import json

    match, moves = _reviewed_midend()
    data = json.loads(json.dumps(match.snapshot()))
    damage(data["reviews"][0])
    again = midend()
    again.restore(data)
    assert again.reviews == {} and again.game_record() == (START, moves)
    data["reviews"] = "not a list"
    again.restore(data)
    assert again.reviews == {} and again.state.is_terminal()


def test_only_the_newest_reviews_are_kept() -> None:
    from engine.ai.review import Review
    from engine.midend.review_data import MAX_REVIEWS

    match = midend()
    for i in range(MAX_REVIEWS + 3):
        match.keep_review((START, (i,)), Review(()))
    assert len(match.reviews) == MAX_REVIEWS
    assert (START, (MAX_REVIEWS + 2,)) in match.reviews and (START, (0,)) not in match.reviews


def test_a_review_is_there_at_once_after_a_restart(profile: Path) -> None:
    import pygame

    from tests.conftest import key

    app = make_app(profile)
    scene = open_tile(app, "tictactoe")
    for move in [4, 1, 0, 8, 2, 6, 3, 5, 7]:
        scene.play_move(move)
    app.push(ReviewScene(app, scene))
    review = app.top
    run_until(app, lambda: review.review is not None, timeout=20)
    app.step([])
    key(app, pygame.K_ESCAPE)
    killed(app)  # the journal has the review
    app.stats.close()
    again = make_app(profile)
    try:
        resumed = open_tile(again, "tictactoe")
        again.push(ReviewScene(again, resumed))
        assert again.top.review is not None and not again.top.busy
        assert again.top.review == review.review
    finally:
        again.quit()
        again.stats.close()


def test_a_kept_review_keeps_infinite_labels_with_their_k() -> None:
    """Issue 33 through the review: a move into an ∞(K) node keeps its label, K and all,
    when the review is saved and read back, and is written in Smith's notation."""
    from engine.midend.review_data import _value_from_data, _value_to_data
    from engine.model.values import Infinite, MoveValue
    from engine.screens.review_scene import long_value, short_value

    for nimber in (Infinite({0, 2}), Infinite(), 3, None):
        value = MoveValue("loss" if nimber == Infinite({0, 2}) else "draw", None, True,
                          nimber=nimber)
        data = json.loads(json.dumps(_value_to_data(value)))
        assert _value_from_data(data) == value
    value = MoveValue("loss", None, True, nimber=Infinite({0, 2}))
    assert short_value(value).endswith("(∞)") and "∞₀,₂" in long_value(value)
    for bad in ({"K": [-1]}, {"K": "0"}, {"K": [0], "x": 1}, True):
        with pytest.raises(ValueError):
            _value_from_data(["draw", None, True, bad])
