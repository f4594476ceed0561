"""Recent games (engine.screens.recent_games_scene), with real clicks: a game finished on its
screen is listed in Statistics → Recent games with its record, Review opens the review of
that game, Keep marks it; and a statistics file another program holds never freezes a
frame of it (issue 31, item 5)."""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest

from engine.screens.launcher import LauncherScene
from engine.screens.recent_games_scene import RecentGamesScene
from engine.screens.review_scene import ReviewScene
from engine.screens.stats_scene import StatsScene
from engine.storage.stats import StatsStore
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import click_widget, key, make_app, run_until
from tests.engine.runtime.test_stats_busy import Holder, waited
from tests.engine.screens.test_review_scene import GAME, played

RECORD = "tictactoe 3x3:k3 b2 b3 a3 c1 c3 a1 a2 c2 b1"  # GAME, as its record


def recent_games(app) -> RecentGamesScene:
    """From the launcher: Statistics, then Recent games, read."""
    app.pop_to(LauncherScene)
    click_widget(app, "Statistics")
    assert isinstance(app.top, StatsScene)
    click_widget(app, "Recent games")
    scene = app.top
    assert isinstance(scene, RecentGamesScene)
    run_until(app, lambda: scene.loaded, timeout=10)
    app.step([])
    return scene


def test_a_finished_game_is_listed_and_review_opens_it(app) -> None:
    played(app)
    recent = recent_games(app)
    assert [(r.game, r.variant, r.seats, r.outcome, r.record) for r in recent.records] == [
        ("tictactoe", "3x3", "human-human", "drawn", RECORD)]
    text = recent.line(recent.records[0])
    assert "Tic-tac-toe" in text and "Hot seat, 2 players" in text and "drawn" in text
    assert recent.ui.find("Review 1").visible and recent.ui.find("Review 1").enabled
    assert not recent.ui.find("Review 2").visible
    click_widget(app, "Review 1")
    review = app.top
    assert isinstance(review, ReviewScene)
    assert review.moves == tuple(GAME)
    assert isinstance(app.scenes[-2], TicTacToeScene)
    run_until(app, lambda: review.review is not None, timeout=20)
    # Reviewing it is not a new game: still one record.
    assert len(app.stats.recent_records()) == 1


def test_keep_marks_the_record_and_unmarks_it(app) -> None:
    played(app)
    recent = recent_games(app)
    keep = recent.ui.find("Keep 1")
    assert keep.label == "Keep"
    click_widget(app, "Keep 1")
    assert recent.records[0].kept and keep.label == "Kept ✓"  # shown at once
    run_until(app, lambda: recent._marking is None and recent._pending is None)
    assert [r.kept for r in app.stats.recent_records()] == [True]
    click_widget(app, "Keep 1")
    run_until(app, lambda: recent._marking is None and recent._pending is None)
    assert [r.kept for r in app.stats.recent_records()] == [False]
    assert not recent.records[0].kept


def test_the_list_scrolls_and_a_game_without_a_record_cannot_be_reviewed(app) -> None:
    for index in range(60):
        app.stats.record_game("connect4", "7x6", "human-computer", "easy", "lost",
                              "connect4 7x6 4" if index else "")
    recent = recent_games(app)
    assert len(recent.records) == 60
    shown = recent.shown_rows()
    assert shown < 60
    key(app, pygame.K_END)
    assert recent.scroll == 60 - shown
    last = shown
    assert recent.ui.find(f"Review {last}").visible
    assert not recent.ui.find(f"Review {last}").enabled  # the oldest has no record line
    assert "no record" in recent.line(recent.records[-1])
    key(app, pygame.K_HOME)
    assert recent.scroll == 0


@pytest.mark.slow
def test_a_busy_file_never_freezes_a_frame_of_recording_or_listing(
    profile: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holds the file in BEGIN EXCLUSIVE: finishing a game (its record
    written on the worker) and the Recent games screen never wait on it; the screen says
    the file is busy (never "no games") and shows the game once it is let go."""
    busy = 2.0
    monkeypatch.setattr(StatsStore, "busy_timeout", busy)
    app = make_app(profile)
    try:
        holder = Holder(app.stats.path)
        waits: list[float] = []
        try:
            played(app)
            app.pop_to(LauncherScene)
            click_widget(app, "Statistics")
            click_widget(app, "Recent games")
            recent = app.top
            assert isinstance(recent, RecentGamesScene)
            deadline = time.monotonic() + 30
            while "busy" not in recent.note:
                assert time.monotonic() < deadline, recent.note
                waited(app, waits)
                time.sleep(0.005)
            for _ in range(5):
                waited(app, waits)
            assert not recent.loaded and recent.records == []
            assert max(waits) < busy / 3, sorted(waits)[-5:]
        finally:
            holder.release()
        run_until(app, lambda: recent.loaded and recent.records, timeout=30)
        assert [r.record for r in recent.records] == [RECORD]
    finally:
        app.quit()
        app.stats.close()


def test_the_frame_loop_never_uses_the_statistics_connection(app, monkeypatch) -> None:
    """Finishing a game (its record line made), listing, marking and reviewing: every use
    of the statistics connection is on the worker, none on the frame loop's thread."""
    import threading

    uses: list[str] = []
    original = StatsStore._require_open

    def watched(store: StatsStore):
        if threading.current_thread() is threading.main_thread():
            uses.append(type(app.top).__name__)
        return original(store)
    monkeypatch.setattr(StatsStore, "_require_open", watched)
    played(app)
    recent = recent_games(app)
    click_widget(app, "Keep 1")
    run_until(app, lambda: recent._marking is None and recent._pending is None)
    assert recent.records[0].kept and recent.records[0].record == RECORD
    click_widget(app, "Review 1")
    assert isinstance(app.top, ReviewScene)
    assert uses == []
