"""A resize never re-creates the window (issue 29 finding 8).

``set_mode`` in answer to a size out of range made a new OS window each time (the window
id changed 25 times in a session, its size hints lost) and, with a tiling window manager
that always gives 600×400, re-created it 87 times in 20 s. The tests play that window
manager under the dummy driver: they lift the window's size hints (as such a manager
ignores them), give the window a size out of range and post the events SDL sends, many
times over, then check that the app never calls ``set_mode``, keeps its window, lays every
screen out within the visible part, and answers a resize without causing another.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pygame
import pytest

from engine.runtime.app import App, window_cap
from engine.screens.launcher import LauncherScene
from engine.ui.viewport import MIN_AREA, MIN_WINDOW, Viewport, visible_design_rect
from tests.conftest import click, click_widget, make_app
from tests.support.window import RESIZE_TYPES, sdl_window, wm_resize

CAP = (1200, 900)  # a small cap, as if the largest screen were this size
# Below the minimum (a tiling manager's 600×400, and smaller), past the cap each way and
# both, and back in range.
SIZES = [(600, 400), (320, 240), (639, 900), (1600, 1000), (1000, 1400), (2000, 1600),
         (700, 500), (960, 720)]


@pytest.fixture
def counted(profile: Path, monkeypatch: pytest.MonkeyPatch):
    """(app, calls): an app with a CAP-sized cap, and every set_mode call made after its
    start."""
    app = make_app(profile, (960, 720))
    app.window_cap = CAP
    calls: list[tuple] = []
    real = pygame.display.set_mode

    def set_mode(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    yield app, calls
    monkeypatch.undo()
    app.quit()
    app.stats.close()
    pygame.display.quit()


def assert_on_screen(app: App) -> None:
    """Every visible widget of the top screen is inside the part of the window drawn."""
    window = app.screen.get_rect()
    vp = app.viewport
    for widget in app.top.ui.widgets:
        if widget.visible:
            rect = vp.map_rect(widget.rect)
            assert rect.width > 0 and rect.height > 0, widget
            assert window.contains(rect), (
                f"{getattr(widget, 'name', widget)} at {rect} is outside {window.size}")


def test_the_size_hints_are_set_at_the_start(counted) -> None:
    window = sdl_window()
    assert window.minimum_size == MIN_WINDOW
    assert window.maximum_size == window_cap()  # the cap the app started with


def test_resizes_out_of_range_never_recreate_the_window(counted) -> None:
    app, calls = counted
    window_id = sdl_window().id
    for size in SIZES * 4:
        wm_resize(app, size)
        # The window keeps the size it was given: the app neither re-creates it nor asks
        # for another size (which a tiling manager would answer with a new resize).
        assert pygame.display.get_surface().get_size() == size
        assert sdl_window().size == size
        assert not pygame.event.peek(RESIZE_TYPES), "a resize was answered with a resize"
        assert sdl_window().id == window_id
        drawn = app.screen.get_size()
        assert drawn == (min(size[0], CAP[0]), min(size[1], CAP[1]))
        assert isinstance(app.top, LauncherScene)
        assert_on_screen(app)
    assert calls == []


def test_a_tiling_manager_giving_600_by_400_causes_no_loop(counted) -> None:
    """The 87 re-creations in 20 s: the same small size, again and again, is handled
    once each time, and a quiet queue stays quiet."""
    app, calls = counted
    for _ in range(30):
        wm_resize(app, (600, 400))
    for _ in range(10):
        app.step()
        assert not pygame.event.peek(RESIZE_TYPES)
    assert calls == []
    assert app.screen.get_size() == (600, 400)


def test_below_the_minimum_the_view_scales_down_and_clicks_still_land(counted) -> None:
    app, calls = counted
    wm_resize(app, (600, 400))
    vp = app.viewport
    assert vp.scale < 0.8  # scaled down, not cropped
    x, y, w, h = visible_design_rect(vp)
    assert w >= MIN_AREA[0] - 1e-6 and h >= MIN_AREA[1] - 1e-6  # laid out as at the minimum
    # The whole of that area is in the window.
    area = vp.rect(x, y, MIN_AREA[0], MIN_AREA[1])
    assert pygame.Rect(0, 0, 600, 400).inflate(2, 2).contains(area)
    assert_on_screen(app)
    # A game opens with a click at the scaled-down position, and lays out on screen.
    click_widget(app, "tictactoe")
    assert not isinstance(app.top, LauncherScene)
    board = app.top.geometry().rect
    assert app.screen.get_rect().contains(board)
    wm_resize(app, (320, 240))
    board = app.top.geometry().rect
    assert app.screen.get_rect().contains(board)
    click(app, *_first_cell(app))
    assert calls == []


def _first_cell(app: App) -> tuple[float, float]:
    """The design-space centre of the top-left cell of the tic-tac-toe board."""
    geom = app.top.geometry()
    cell = geom.cell_rect(0, 0)
    return app.viewport.to_design(cell.center)


def test_past_the_cap_the_frame_is_drawn_at_the_top_left(counted) -> None:
    """A window stretched past the cap (an 8000×8000 window stalled the loop for half a
    minute) is not shrunk: the frame is laid out and drawn at the cap, top-left, and the
    rest of the window stays black."""
    app, calls = counted
    wm_resize(app, (1600, 1000))
    assert app.screen.get_size() == CAP
    window = pygame.display.get_surface()
    assert window.get_size() == (1600, 1000)
    background = app.theme.palette.background
    assert window.get_at((5, 5))[:3] == app.screen.get_at((5, 5))[:3]
    assert tuple(window.get_at((1500, 950))[:3]) == (0, 0, 0)
    assert tuple(app.screen.get_at((5, 5))[:3]) == tuple(background)[:3]
    assert calls == []


@pytest.mark.parametrize("size", [(1, 1), (100, 80), (320, 240), (600, 400), (639, 479)])
def test_the_viewport_below_the_minimum_shows_the_whole_minimum_area(size) -> None:
    vp = Viewport.fit(size)
    x, y, w, h = visible_design_rect(vp)
    assert w >= MIN_AREA[0] - 1e-6 and h >= MIN_AREA[1] - 1e-6
    # The crop guard never bites: the window shows at least the area laid out.
    assert size[0] / vp.scale >= MIN_AREA[0] - 1e-6
    assert size[1] / vp.scale >= MIN_AREA[1] - 1e-6


@pytest.mark.parametrize("size", [(640, 480), (800, 600), (960, 720), (1920, 1080)])
def test_the_viewport_in_range_is_unchanged(size) -> None:
    vp = Viewport.fit(size)
    assert vp.scale == max(0.8, min(size[0] / 960, size[1] / 720))


def test_every_size_pair_in_a_row_is_handled(counted) -> None:
    app, calls = counted
    for a, b in itertools.pairwise(SIZES):
        wm_resize(app, a)
        wm_resize(app, b)
        assert app.screen.get_size() == (min(b[0], CAP[0]), min(b[1], CAP[1]))
    assert calls == []
