"""A statistics file another program holds (issue 29 finding 4): the frame loop never
waits on it, the player is told, and nothing says "no games" while it is merely busy.

Another process holds ``BEGIN EXCLUSIVE`` on the file, as a ``sqlite3`` shell or a
database browser does. Frames are timed by what they wait, not what they compute: a
step's wall time less its CPU time. The store waits ``BUSY`` seconds for a lock, so a
frame that touched the file would wait that long; a frame that does not waits nothing
(the bound below is a fraction of ``BUSY``, wide enough for a loaded machine).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.model.registry import find_game
from engine.model.seats import Seat
from engine.runtime.app import App
from engine.screens.launcher import LauncherScene
from engine.screens.stats_scene import StatsScene
from engine.storage.settings import SettingsStore
from engine.storage.stats import StatsStore
from tests.conftest import click_widget, run_until

BUSY = 3.0
HOLD = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
conn.execute("SELECT COUNT(*) FROM games").fetchone()
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
"""


class Holder:
    """Another process holding the statistics file in an exclusive transaction."""

    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", HOLD, str(path)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)
        assert self.process.stdout is not None
        assert self.process.stdout.readline().strip() == "locked"

    def release(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.write("\n")
            self.process.stdin.flush()
            self.process.wait(10)


def waited(app: App, waits: list[float]) -> None:
    """One frame, adding what it waited (wall time less CPU time) to ``waits``."""
    wall, cpu = time.perf_counter(), time.thread_time()
    app.step([])
    waits.append((time.perf_counter() - wall) - (time.thread_time() - cpu))


def frames_until(app: App, waits: list[float], predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        waited(app, waits)
        time.sleep(0.005)


@pytest.mark.slow
def test_a_busy_file_never_freezes_a_frame_nor_says_no_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: with the file held, opening Connect Four against Match me froze the
    frame loop for 10.1 s, then played Medium instead of Hard with no notice; the
    Statistics screen froze for 15 s, then said "No games of yours recorded yet"."""
    monkeypatch.setattr(StatsStore, "busy_timeout", BUSY)
    profile = tmp_path / "profile"
    profile.mkdir()
    stats = StatsStore(profile / "statistics.sqlite3")
    assert stats.open() == []
    c4 = find_game("connect4")
    for _ in range(2):  # Medium → Strong → Hard
        assert stats.record_game("connect4", "7x6", "human-computer", "match", "won") is None
    settings = SettingsStore(profile / "settings.json")
    holder = Holder(stats.path)
    try:
        app = App(settings, stats, settings.load(), window_size=(960, 720))
        app.push(LauncherScene(app))
        waits: list[float] = []
        # The app reads Match me's results as it starts: they meet the busy file.
        frames_until(app, waits, lambda: app.stats.match_outcomes_now("connect4")[1])
        # Connect Four against Match me while the file is held: it starts at once, and
        # says which level it plays and why.
        scene = app.push(c4.open_scene(app, seats=(Seat(), Seat("computer", "match"))))
        for _ in range(5):
            waited(app, waits)
        assert scene.match_rung == c4.match_level([])
        assert any("Match me plays at" in n and "busy" in n for n in app.notices), app.notices
        app.pop()
        # The Statistics screen: "loading…", then that the file is busy, never "no games".
        click_widget(app, "Statistics")
        stats_scene = app.top
        assert isinstance(stats_scene, StatsScene)
        shown: list[str] = []

        def lines() -> list[str]:
            texts = [entry.text for entry in stats_scene.entries]
            shown.extend(texts)
            return texts

        frames_until(app, waits, lambda: any("busy" in n for n in app.notices))
        frames_until(app, waits, lambda: any("busy" in t for t in lines()))
        assert not stats_scene.loaded
        for _ in range(5):
            waited(app, waits)
            lines()
        assert not any("No games" in text for text in shown), shown
        # No frame waited on the file.
        print(f"frames: {len(waits)}, longest wait {max(waits) * 1000:.1f} ms")
        assert max(waits) < BUSY / 3, sorted(waits)[-5:]
    finally:
        holder.release()
    try:
        # Released: the screen shows the rows at its next try.
        frames_until(app, waits, lambda: stats_scene.loaded)
        assert any("Connect Four" in text for text in lines()), lines()
        assert stats_scene.totals["connect4"][0] == 2
        # And Match me follows the results again.
        run_until(app, lambda: app.stats.match_outcomes_now("connect4")[0] is not None)
        scene = app.push(c4.open_scene(app, seats=(Seat(), Seat("computer", "match"))))
        app.step([])
        assert scene.match_rung == "hard"
    finally:
        app.quit()
        app.stats.close()


def test_the_frame_loop_never_uses_the_statistics_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every screen that shows or records statistics, run frame by frame: no use of the
    statistics connection is made on the frame loop's thread (each use goes through
    ``_require_open``), yet the results are recorded and shown."""
    import threading

    from engine.model.registry import all_games

    profile = tmp_path / "profile"
    profile.mkdir()
    stats = StatsStore(profile / "statistics.sqlite3")
    assert stats.open() == []
    settings = SettingsStore(profile / "settings.json")
    app = App(settings, stats, settings.load(), window_size=(960, 720))
    app.push(LauncherScene(app))
    in_frame = threading.Event()
    uses: list[str] = []
    original = StatsStore._require_open

    def watched(store: StatsStore):
        if in_frame.is_set() and threading.current_thread() is threading.main_thread():
            uses.append(type(app.top).__name__)
        return original(store)
    monkeypatch.setattr(StatsStore, "_require_open", watched)

    def frames(count: int = 3) -> None:
        for _ in range(count):
            in_frame.set()
            try:
                app.step([])
            finally:
                in_frame.clear()

    try:
        for family in all_games():
            seats = (Seat(), Seat("computer", "match")) if family.ladder else None
            scene = app.push(family.open_scene(app, seats=seats) if seats
                             else family.open_scene(app))
            frames()
            if hasattr(scene, "_record") and family.kind == "two-player":
                scene._record(type("Result", (), {"seats": scene.seats,
                                                  "outcome": "won"})())
                frames()
            app.pop()
        click_widget(app, "Statistics")
        in_frame.set()
        try:
            run_until(app, lambda: app.top.loaded)
        finally:
            in_frame.clear()
        assert uses == []
        assert app.top.totals  # the results recorded above are shown
    finally:
        app.quit()
        app.stats.close()


@pytest.mark.slow
def test_the_window_opens_at_once_while_another_program_holds_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression (finding 4, start-up): the statistics file was opened before the window,
    so a file held by another program delayed the start by the store's busy wait. Now
    the app's worker opens it: frames are drawn while the file is still held (the opening
    has not finished), and what the opening found arrives as a notice afterwards."""
    from engine.runtime import cli

    monkeypatch.setattr(StatsStore, "busy_timeout", BUSY)
    profile = tmp_path / "profile"
    settings, stats, notices = cli._open_stores(str(profile))
    assert stats.record_game("connect4", "7x6", "human-computer", "match", "won") is None
    path = stats.path
    stats.close()
    holder = Holder(path)
    try:
        settings, stats, notices = cli._open_stores(str(profile), stats_later=True)
        assert stats.closed  # not opened on the caller's thread
        app = App(settings, stats, notices, window_size=(960, 720))
        app.push(LauncherScene(app))
        waits: list[float] = []
        for _ in range(5):
            waited(app, waits)
        # Five frames drawn, and the worker is still waiting for the held file: the
        # frames did not wait for it.
        assert not app.stats.opened.is_set()
        assert max(waits) < BUSY / 3, sorted(waits)[-5:]
    finally:
        holder.release()
    try:
        frames_until(app, waits, app.stats.opened.is_set)
        # Once open, the results are there and the frame loop still never waited.
        run_until(app, lambda: app.stats.match_outcomes_now("connect4")[0] == ["won"])
        assert max(waits) < BUSY / 3, sorted(waits)[-5:]
    finally:
        app.quit()
        app.stats.close()
