"""Issue 32, finding 3: "Match me" counts every game the player played against it, from
either seat (Swap sides moves the player to the second seat: mode ``computer-human``), in
the order played (by insertion, not by the clock).

Regression: only ``human-computer`` games counted, so four wins from the second seat left
Match me where it was.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engine.model.registry import find_game
from engine.model.seats import Seat, mode_name
from engine.storage import stats as stats_module
from engine.storage.stats import StatsStore
from engine.storage.stats_summaries import MATCH_MODES, is_match_game
from engine.storage.stats_worker import _is_match


def test_match_me_counts_both_seats_in_the_order_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games from the first and the second seat interleave in the order recorded, even
    with the clock running backwards; games Match me did not play against one human (hot
    seat, computer against computer, another level) do not count."""
    start = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
    clock = iter(start - timedelta(minutes=i) for i in range(100))  # runs backwards
    monkeypatch.setattr(stats_module, "now",
                        lambda: next(clock).isoformat(timespec="microseconds"))
    path = tmp_path / "statistics.sqlite3"
    store = StatsStore(path)
    assert store.open() == []
    played = [("human-computer", "match", "won"), ("computer-human", "match", "won"),
              ("computer-human", "match@0.1", "lost"), ("human-human", "", "won"),
              ("computer-computer", "match vs match", "won"),
              ("computer-human", "hard", "lost"), ("human-computer", "match", "drawn"),
              ("computer-human", "match", "won")]
    for mode, opponent, outcome in played:
        assert store.record_game("connect4", "7x6", mode, opponent, outcome) is None
    expected = ["won", "won", "lost", "drawn", "won"]
    assert store.match_outcomes("connect4") == expected
    assert store.all_match_outcomes() == {"connect4": expected}
    store.close()
    store = StatsStore(path)  # read back from the file
    assert store.open() == []
    assert store.match_outcomes("connect4") == expected
    # Medium, +1 +1 -1 0 +1: two rungs up.
    assert find_game("connect4").match_level(expected) == "hard"
    store.close()
    # The worker's count of this session's games agrees with the query's.
    for mode, opponent, _ in played:
        assert _is_match(mode, opponent) == is_match_game(mode, opponent)
    assert [is_match_game(m, o) for m, o, _ in played] == [
        True, True, True, False, False, False, True, True]
    assert mode_name((Seat("computer", "match"), Seat())) in MATCH_MODES


_VALUES: dict[tuple[int, ...], int] = {}


def _value(state: Any) -> int:
    """The mover's game-theoretic value on a small board (1 win, 0 draw, -1 loss)."""
    if state.board not in _VALUES:
        _VALUES[state.board] = (
            round(state.returns()[state.current_player()]) if state.is_terminal()
            else max(-_value(state.play(m)) for m in state.legal_moves()))
    return _VALUES[state.board]


def _best_move(state: Any) -> int:
    """A move keeping the mover's best value (the first such)."""
    return next(m for m in state.legal_moves() if -_value(state.play(m)) == _value(state))


def _play_perfectly(app: Any, scene: Any) -> None:
    """The human seat plays a whole game with perfect moves, clicking the cells."""
    from tests.conftest import click, grid_centre, run_until

    while not scene.state.is_terminal():
        run_until(app, lambda: scene.state.is_terminal() or not scene.computer_to_move(),
                  timeout=30, message="the computer did not answer")
        if scene.state.is_terminal():
            break
        row, col = divmod(_best_move(scene.state), scene.config.cols)
        click(app, *grid_centre(tuple(scene.layout()["board"]), scene.config.rows,
                                scene.config.cols, row, col))


def test_swap_sides_games_move_match_me(app: Any) -> None:
    """Through the real scene: a game against Match me from the first seat, Swap sides, a
    game from the second seat, Swap sides again: both games are counted, in order, and
    the level follows them."""
    from engine.screens.result_overlay import ResultOverlay
    from games.tictactoe.rules import CLASSIC
    from tests.conftest import click_widget, run_until

    game = find_game("tictactoe")
    for _ in range(2):  # two losses recorded earlier: Medium → Easy → Beginner
        app.stats.record_game("tictactoe", "3x3", "human-computer", "match", "lost")
    scene = app.push(game.open_scene(app, CLASSIC, seats=(Seat(), Seat("computer", "match")),
                                     seed=5))
    app.step([])
    assert scene.match_rung == "beginner"
    results = []
    for seat in (0, 1):
        assert not scene.seats[seat].is_computer and scene.seats[1 - seat].level == "match"
        _play_perfectly(app, scene)  # perfect play never loses
        run_until(app, lambda: isinstance(app.top, ResultOverlay), timeout=30,
                  message="no result panel")
        results.append(app.stats.match_outcomes("tictactoe")[-1])
        click_widget(app, "Swap sides")
        run_until(app, lambda old=scene: app.top is not old and hasattr(app.top, "match_rung"))
        scene = app.top
        outcomes = app.stats.match_outcomes("tictactoe")
        assert outcomes == ["lost", "lost", *results]  # the second seat's game counts too
        assert results[-1] in ("won", "drawn")
        assert scene.match_rung == game.match_level(outcomes)
    modes = {row.mode for row in app.stats.game_summary() if row.game == "tictactoe"}
    assert modes == {"human-computer", "computer-human"}
