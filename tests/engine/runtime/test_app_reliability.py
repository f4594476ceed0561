"""The app leaves settings alone unless the player changes them, and survives resize
storms, huge windows and a broken standard error (issue 13 findings 9 and 11)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pygame
import pytest

from tests.conftest import ROOT, make_app
from tests.support.window import sdl_window


def saved_window(profile: Path) -> list[int] | None:
    path = profile / "settings.json"
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8")).get("window_size")


def resize_to(app, size: tuple[int, int]) -> None:
    """What a window manager does: the window gets a new size, SDL sends an event."""
    pygame.display.set_mode(size, pygame.RESIZABLE)
    app.step([pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])])


def test_window_given_for_one_run_is_not_remembered(profile: Path) -> None:
    """Regression: --window WxH ("for this run") became the saved default."""
    profile.mkdir()
    (profile / "settings.json").write_text(json.dumps({"window_size": [1000, 700]}))
    app = make_app(profile, (1280, 960))  # as --window 1280x960 opens it
    app.quit()
    app.stats.close()
    assert saved_window(profile) == [1000, 700]


def test_a_window_the_player_resizes_is_remembered(profile: Path) -> None:
    app = make_app(profile, (1280, 960))
    resize_to(app, (1100, 800))
    app.quit()
    app.stats.close()
    assert saved_window(profile) == [1100, 800]


@pytest.mark.slow
def test_smoke_run_leaves_the_profiles_settings_alone(tmp_path: Path) -> None:
    """Regression: ``--smoke --profile DIR`` rewrote window_size to 960×720."""
    profile = tmp_path / "mine"
    profile.mkdir()
    original = json.dumps({"version": 1, "window_size": [1000, 700], "palette": "colourblind"})
    (profile / "settings.json").write_text(original)
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "--smoke", "--profile",
                             str(profile)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (profile / "settings.json").read_text() == original


@pytest.mark.slow
def test_windows_larger_than_the_cap_are_drawn_at_the_cap(profile: Path) -> None:
    """Regression: an 8000×8000 window (256 MB a frame) stalled the loop for 18-37 s.
    The frame is laid out and drawn at the cap; the window itself is left as the window
    manager made it (re-creating it was issue 29 finding 8: tests/engine/runtime/
    test_window_resize.py)."""
    app = make_app(profile, (960, 720))
    try:
        app.window_cap = (1200, 900)  # as if the largest screen were this size
        resize_to(app, (1600, 1000))
        assert app.screen.get_size() == (1200, 900)
        assert pygame.display.get_surface().get_size() == (1600, 1000)
        resize_to(app, (1000, 1400))
        assert app.screen.get_size() == (1000, 900)
    finally:
        app.quit()
        app.stats.close()


def window_limits() -> tuple[tuple[int, int], tuple[int, int]]:
    """The minimum and maximum size hints the real (dummy-driver) window carries now."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
        return tuple(window.minimum_size), tuple(window.maximum_size)


def test_a_too_small_window_keeps_its_size_limits(profile: Path) -> None:
    """Issue 28: a resize below the minimum re-created the window, which then had no
    minimum size hint any more (and could be shrunk to nothing). Now the window is never
    re-created (issue 29): it keeps its size, its hints, and the view scales down."""
    from engine.ui.viewport import MIN_WINDOW

    app = make_app(profile, (960, 720))
    try:
        assert window_limits() == (MIN_WINDOW, app.window_cap)
        before = sdl_window().id
        app.step([pygame.event.Event(pygame.VIDEORESIZE, size=(500, 300), w=500, h=300)])
        assert sdl_window().id == before  # the same window, not a new one
        assert app.screen.get_size() == pygame.display.get_surface().get_size()
        assert window_limits() == (MIN_WINDOW, app.window_cap)
        # An ordinary resize (the window manager changes the window's size) keeps them.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            pygame.Window.from_display_module().size = (1000, 700)
        app.step([pygame.event.Event(pygame.VIDEORESIZE, size=(1000, 700), w=1000, h=700)])
        assert app.screen.get_size() == (1000, 700)
        assert window_limits() == (MIN_WINDOW, app.window_cap)
    finally:
        app.quit()
        app.stats.close()


def test_the_cap_is_at_least_the_largest_screen() -> None:
    from engine.runtime.app import WINDOW_CAP_FLOOR, window_cap

    cap = window_cap()
    for w, h in pygame.display.get_desktop_sizes():
        assert cap[0] >= w and cap[1] >= h
    assert cap[0] >= WINDOW_CAP_FLOOR[0] and cap[1] >= WINDOW_CAP_FLOOR[1]
    assert cap[0] * cap[1] < 8000 * 8000


def test_a_resize_storm_is_handled_once_per_frame(profile: Path, monkeypatch) -> None:
    app = make_app(profile, (960, 720))
    try:
        calls = []
        real = pygame.display.get_surface
        monkeypatch.setattr(pygame.display, "get_surface", lambda: calls.append(1) or real())
        pygame.display.set_mode((1000, 760), pygame.RESIZABLE)
        storm = [pygame.event.Event(pygame.VIDEORESIZE, size=(900 + i, 700), w=900 + i, h=700)
                 for i in range(200)]
        started = time.thread_time()
        app.step(storm)
        assert len(calls) == 1
        assert time.thread_time() - started < 1.0
        assert app.screen.get_size() == (1000, 760)
    finally:
        app.quit()
        app.stats.close()


class _BrokenStream:
    """A standard error on a full disk (``2>/dev/full``): every write fails."""

    def write(self, text: str) -> int:
        raise OSError(28, "No space left on device")

    def flush(self) -> None:
        raise OSError(28, "No space left on device")


@pytest.mark.parametrize("stream", [None, _BrokenStream()])
def test_notices_survive_a_closed_or_full_standard_error(profile: Path, monkeypatch,
                                                         stream) -> None:
    app = make_app(profile, (960, 720))
    try:
        monkeypatch.setattr(sys, "stderr", stream)
        app.notify("Could not save settings (test)", "warning")
        assert app.notices == ["Could not save settings (test)"]
    finally:
        monkeypatch.undo()
        app.quit()
        app.stats.close()
