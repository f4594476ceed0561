"""Shared fixtures: a headless app in a throw-away profile, and event, wait and grid helpers.

Every test runs with ARCADE_PROFILE pointing at its own temporary folder, so no
test can touch the real per-user settings or statistics.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
# The app speaks the system's language by default (engine/core/i18n.py); the tests read its
# English, whatever language the machine running them speaks.
os.environ["LANGUAGE"] = "en"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from engine.runtime.app import App  # noqa: E402
from engine.screens.launcher import LauncherScene  # noqa: E402
from engine.storage.settings import SettingsStore  # noqa: E402
from engine.storage.stats import StatsStore  # noqa: E402


@pytest.fixture(autouse=True)
def _isolated_profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    profile = tmp_path / "profile"
    monkeypatch.setenv("ARCADE_PROFILE", str(profile))
    return profile


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """Every test ends in English, whatever language it chose (a screen test that sets
    Czech must not leave the next test's texts in Czech)."""
    yield
    from engine.core.i18n import set_language

    set_language("en")


@pytest.fixture
def profile(_isolated_profile: Path) -> Path:
    """This test's profile folder (settings and statistics)."""
    return _isolated_profile


def make_app(profile: Path, size: tuple[int, int] = (960, 720)) -> App:
    """A headless App on ``profile`` with the launcher on its stack."""
    settings = SettingsStore(profile / "settings.json")
    notices = settings.load()
    stats = StatsStore(profile / "statistics.sqlite3")
    notices += stats.open()
    app = App(settings, stats, notices, window_size=size)
    app.push(LauncherScene(app))
    app.step([])
    return app


def hot_seat(app: App, game_id: str = "tictactoe") -> None:
    """Store every seat of ``game_id`` as human, as a player who chose "hot seat" would:
    for tests where one pair of hands clicks both sides (a two-player game with computer
    players starts human against the computer by default)."""
    from engine.model.registry import find_game

    game = find_game(game_id)
    seats = app.settings.get("seats")
    seats[game_id] = {key: "human" for key in game.seat_keys}
    app.settings.set("seats", seats)


@pytest.fixture
def app(profile: Path):
    """A running headless app showing the launcher."""
    application = make_app(profile)
    yield application
    application.quit()
    application.stats.close()
    pygame.display.quit()


@pytest.fixture
def sized(profile: Path) -> Iterator:
    """make(size): a headless app with a window of that size (closed afterwards)."""
    apps = []

    def make(size: tuple[int, int]):
        app = make_app(profile, size)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.quit()
        app.stats.close()
    pygame.display.quit()


def screen_pos(app: App, x: float, y: float) -> tuple[int, int]:
    """Window pixel of a design-space point."""
    return app.viewport.point(x, y)


def _post_motion(pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                         buttons=(0, 0, 0)))


def hover(app: App, x: float, y: float) -> None:
    """Move the pointer to design point (x, y) and run one frame."""
    _post_motion(screen_pos(app, x, y))
    app.step()


def click(app: App, x: float, y: float, button: int = 1) -> None:
    """Post a real press + release at design point (x, y) and run one frame."""
    pos = screen_pos(app, x, y)
    _post_motion(pos)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    app.step()


def click_widget(app: App, name: str) -> None:
    """Click the centre of the top scene's button called ``name``."""
    widget = app.top.ui.find(name)
    x, y, w, h = widget.rect
    click(app, x + w / 2, y + h / 2)


def key(app: App, keycode: int, mod: int = 0, unicode: str = "") -> None:
    """Post a real key press + release and run one frame."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=keycode, mod=mod, unicode=unicode,
                                         scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=keycode, mod=mod, unicode=unicode,
                                         scancode=0))
    app.step()


def type_text(app: App, text: str) -> None:
    """Type ``text`` a character per TEXTINPUT event and run one frame."""
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    app.step()


def run_until(app: App, predicate: Callable[[], Any], timeout: float = 10.0, *,
              pause: float = 0.002, message: str = "timed out") -> None:
    """Run frames without input (``pause`` seconds apart) until ``predicate()`` holds.

    Fails with ``message`` once ``timeout`` seconds have passed.
    """
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, message
        app.step([])
        if pause:
            time.sleep(pause)


def stats_shown(app: App) -> Any:
    """Run frames until the Statistics screen on top shows the figures read from the file
    (it reads them off the frame loop); returns it."""
    run_until(app, lambda: getattr(app.top, "loaded", False), message="statistics not shown")
    return app.top


def wait_hints(app: App, scene: Any) -> None:
    """Run frames until ``scene`` has its hints, then one more to draw them."""
    run_until(app, lambda: bool(scene.hints))
    app.step([])


def grid_centre(area: tuple[float, float, float, float], rows: int, cols: int, row: int,
                col: int) -> tuple[float, float]:
    """Design-space centre of a cell of a rows × cols grid of square cells centred in ``area``."""
    x, y, w, h = area
    size = min(w / cols, h / rows)
    ox, oy = x + (w - size * cols) / 2, y + (h - size * rows) / 2
    return (ox + size * (col + 0.5), oy + size * (row + 0.5))


def near(colour: Any, target: Any, tol: int = 12) -> bool:
    """Whether ``colour`` is within ``tol`` of ``target`` in each of red, green and blue."""
    return all(abs(a - b) <= tol for a, b in zip(colour[:3], target, strict=True))
