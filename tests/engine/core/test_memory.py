"""Freed memory goes back to the OS: engine/core/memory.py and the app's use of it."""

from __future__ import annotations

import sys
import threading

import pytest

from engine.core import memory
from engine.model.seats import Seat
from engine.screens.launcher import LauncherScene
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import TicTacToeScene
from tests.support.soak import rss_kb

# Memory: a soak until the settled figures are steady takes about a minute, so the quick
# run (python -m pytest -m "not slow") leaves the module out; the full suite runs it.
pytestmark = pytest.mark.slow

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="malloc_trim is glibc's")


@linux_only
def test_memory_freed_in_a_thread_is_returned() -> None:
    """What a finished search thread leaves in its malloc arena no longer stays resident."""
    held: list[list[bytes]] = []

    def allocate() -> None:
        # 1 kB blocks bypass Python's small-object allocator and land in this
        # thread's glibc arena, as a search's transposition table does.
        held.append([bytes(1024) for _ in range(60_000)])

    worker = threading.Thread(target=allocate)
    worker.start()
    worker.join()
    before_free = rss_kb()
    # Keep one block in 32 alive, as a game keeps a few results of a search: the
    # arena cannot shrink from its top, so free() alone returns next to nothing.
    survivors = held[0][::32]
    held.clear()
    after_free = rss_kb()
    assert memory.release_free_memory(collect=True) is True
    after_release = rss_kb()
    assert len(survivors) == 60_000 // 32
    assert after_free - after_release > 30 * 1024, (before_free, after_free, after_release)


def test_leaving_a_game_releases_memory_but_closing_an_overlay_does_not(
        app, monkeypatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr("engine.runtime.app.release_free_memory",
                        lambda **_: calls.append(1) or True)
    seats = (Seat("human"), Seat("human"))
    app.push(TicTacToeScene(app, MNKConfig(), seats))
    app.help()
    app.pop()  # the help overlay
    assert calls == []
    app.pop()  # the game
    assert calls == [1]
    assert isinstance(app.top, LauncherScene)
    app.replace(TicTacToeScene(app, MNKConfig(), seats))  # the launcher is not an overlay
    assert calls == [1, 1]


@linux_only
def test_arena_limit_is_accepted() -> None:
    """glibc takes the one-arena setting (the app sets it before any search thread)."""
    assert memory.limit_arenas() is True


@linux_only
def test_mmap_threshold_is_accepted() -> None:
    """glibc takes the fixed threshold for blocks mapped on their own (set at start-up)."""
    assert memory.fix_mmap_threshold() is True


def test_soak_settled_figures_count_no_screen_it_left(profile, monkeypatch) -> None:
    """The soak's settled memory figures are taken with only the launcher alive.

    Its loop once kept the frame's top scene in a loop variable, so the screen on top
    at the baseline input (and at the last one), although popped for the measurement,
    stayed alive through it: the memory check then counted whichever screen that was
    (a code dialog's pygame_gui manager alone is 5-10 MB), and failed now and then.
    """
    import gc

    from engine.screens.scene import Scene
    from tests.support import soak

    left_alive: list[list[str]] = []
    real_settled = soak.settled_rss_kb

    def settled(app) -> int:
        kb = real_settled(app)
        gc.collect()
        on_stack = {id(scene) for scene in app.scenes}
        left_alive.append(sorted(type(o).__name__ for o in gc.get_objects()
                                 if isinstance(o, Scene) and getattr(o, "app", None) is app
                                 and id(o) not in on_stack))
        return kb

    def next_events(self: soak.Monkey) -> list:
        # Open tic-tac-toe whenever the launcher is on top, then only let time pass:
        # a game screen is on top at both measured inputs (500 and 1,000).
        top = self.app.top
        if isinstance(top, LauncherScene):
            return self.click(self.app.viewport.map_rect(top.ui.find("tictactoe").rect).center)
        return []

    monkeypatch.setattr(soak, "settled_rss_kb", settled)
    monkeypatch.setattr(soak.Monkey, "next_events", next_events)
    result = soak.run_monkey(1, 1_000, profile, report_every=0)
    assert result.ok, result.summary()
    assert "TicTacToeScene" in result.scenes
    assert left_alive == [[], []], left_alive
