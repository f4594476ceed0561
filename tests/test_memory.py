"""Freed memory goes back to the OS: engine/memory.py and the app's use of it."""

from __future__ import annotations

import sys
import threading

import pytest

from engine import memory
from engine.launcher import LauncherScene
from engine.seats import Seat
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import TicTacToeScene
from tests.soak import rss_kb

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
    monkeypatch.setattr("engine.app.release_free_memory", lambda **_: calls.append(1) or True)
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
