"""A big saved game opens off the frame loop (issue 29 finding 6): the launcher shows
"Loading…" while a thread replays the moves, frames keep being drawn, and Back gives the
opening up without touching the save."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pygame
import pytest

from engine.model.registry import find_game
from engine.screens.launcher import LauncherScene
from engine.screens.loading_scene import LoadingScene
from engine.storage import saved_games
from engine.storage.saved_data import move_to_data
from engine.storage.saved_games import encode, open_game
from games.connect4.scene import Connect4Scene
from tests.conftest import click_widget, key, make_app

# A save is "big" past saved_games.LARGE_SAVE_BYTES (200 KB, some 25,000 entries, whose
# replay takes minutes on a loaded machine); the tests lower that mark to open a save of
# BIG_BYTES the big saves' way, so the frame loop's part is what they measure. Enough
# entries that replaying them on the loop costs several frames' time (2,000 took 32 ms of
# CPU in one CI run, less than two of its busiest frames).
ENTRIES = 8_000
BIG_BYTES = 10_000


# Each opens a save on a thread while the test draws frames: seconds, not a quick test.
pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def _big_at_ten_kilobytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(saved_games, "LARGE_SAVE_BYTES", BIG_BYTES)


def write_big_save(app, profile: Path) -> int:
    """A Connect Four save of ENTRIES log entries (random games); its last index."""
    game = find_game("connect4")
    scene = game.open_scene(app)
    envelope = json.loads(encode(scene))
    scene.leave()
    fresh = scene.match.state
    rng = random.Random(6)
    log: list[list] = []
    serial = 0
    while len(log) < ENTRIES:
        log.append([serial])
        state = fresh
        while not state.is_terminal() and len(log) < ENTRIES:
            move = rng.choice(list(state.legal_moves()))
            state = state.play(move)
            log.append([serial, move_to_data(move)])
        serial += 1
    envelope["state"].update(log=log, index=len(log) - 1, next_serial=serial, recorded=[])
    text = json.dumps(envelope, separators=(",", ":"))
    assert len(text) > saved_games.LARGE_SAVE_BYTES
    (profile / "saved").mkdir(parents=True, exist_ok=True)
    (profile / "saved" / "connect4.json").write_text(text)
    return len(log) - 1


def frame_cpu(app) -> float:
    """The frame loop thread's CPU time for one frame (the loader's is not counted)."""
    started = time.thread_time()
    app.step()
    return time.thread_time() - started


def test_a_big_save_loads_off_the_frame_loop_while_frames_keep_drawing(profile: Path) -> None:
    """Regression: a 7.9 MB Connect Four save froze the window for 77 s while it opened."""
    app = make_app(profile)
    try:
        last = write_big_save(app, profile)
        # What opening it on the frame loop costs that thread (the old way).
        started = time.thread_time()
        scene = open_game(app, find_game("connect4"))
        on_loop = time.thread_time() - started
        assert scene.history.index == last
        scene.leave()
        app.game_saves.release("connect4")

        click_widget(app, "connect4")
        assert isinstance(app.top, LoadingScene)
        frames: list[float] = []
        deadline = time.monotonic() + 300
        while not isinstance(app.top, Connect4Scene):
            assert time.monotonic() < deadline, "the game never opened"
            frames.append(frame_cpu(app))
        assert app.top.history.index == last and not app.notices
        # The frame loop kept drawing: no frame took what the replay takes, and none took
        # 100 ms of the loop's own time.
        assert len(frames) >= 2
        assert max(frames) < 0.1, max(frames)
        assert max(frames) < on_loop / 2, (max(frames), on_loop)
        # It plays on, and leaves as any game does.
        key(app, pygame.K_ESCAPE)
        assert isinstance(app.top, LauncherScene)
    finally:
        app.quit()
        app.stats.close()


def test_back_while_loading_gives_up_and_leaves_the_save_as_it_was(profile: Path) -> None:
    app = make_app(profile)
    other = None
    try:
        write_big_save(app, profile)
        before = (profile / "saved" / "connect4.json").read_bytes()
        click_widget(app, "connect4")
        assert isinstance(app.top, LoadingScene)
        app.step()
        key(app, pygame.K_ESCAPE)
        assert isinstance(app.top, LauncherScene)
        for _ in range(30):  # (the thread finishes its step, to no one)
            app.step()
            time.sleep(0.01)
        assert (profile / "saved" / "connect4.json").read_bytes() == before
        assert not (profile / "saved" / "connect4.journal").exists()
        other = make_app(profile)
        assert other.game_saves.hold("connect4"), "the game was let go"
        other.game_saves.release("connect4")
        # Opening it again works.
        click_widget(app, "connect4")
        deadline = time.monotonic() + 300
        while not isinstance(app.top, Connect4Scene):
            assert time.monotonic() < deadline
            app.step()
    finally:
        app.quit()
        app.stats.close()
        if other is not None:
            other.quit()
            other.stats.close()


def test_loading_shows_how_far_the_replay_is_and_back_stops_it(
    profile: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loading screen counts the moves replayed ("1,024 of 2,000"), and Back stops the
    replay itself at its next report, not only the screen (finding 6)."""
    import engine.midend.match as match_module
    from engine.storage.saved_data import ReplayCancelled, replayed

    def slow(done: int, total: int) -> None:  # a replay that takes a while (~6 s)
        time.sleep(0.05)
        replayed(done, total)
    monkeypatch.setattr(match_module, "PROGRESS_EVERY", 16)
    monkeypatch.setattr(match_module, "replayed", slow)

    app = make_app(profile)
    try:
        write_big_save(app, profile)
        click_widget(app, "connect4")
        loading = app.top
        assert isinstance(loading, LoadingScene)
        progress = loading.opening.progress
        deadline = time.monotonic() + 120
        while progress.total == 0:
            assert time.monotonic() < deadline, "the replay never reported"
            app.step()
        assert progress.total == ENTRIES
        shown = loading._progress()
        assert f"of {progress.total:,}" in shown or f"of {progress.total}" in shown, shown
        opening = loading.opening
        key(app, pygame.K_ESCAPE)
        assert progress.cancelled and isinstance(app.top, LauncherScene)
        while opening._result is None:  # the thread ends at its next report
            assert time.monotonic() < deadline, "the replay went on"
            time.sleep(0.01)
        value, failure = opening._result
        assert isinstance(failure, ReplayCancelled) and value is None
        assert progress.done < ENTRIES - 16
    finally:
        app.quit()
        app.stats.close()
