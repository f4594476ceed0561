"""Every screen at every window shape: nothing off screen, nothing on top of anything else.

Each case opens one screen for real through a headless app (tiles and buttons
clicked, keys pressed, games opened with their descriptor's ``open_scene``) at
640×480 (the smallest window: 800×600 design units), 960×720, 1920×1080 and
1080×1920, and checks:

* every visible widget of the screen on top lies inside the window, and no two of
  them overlap (touching edges is fine);
* on a game screen, the drawn regions of its layout ("board", the player cards,
  the computer-against-computer "controls" when shown, "extras", "toolbar",
  "status_bar") lie inside the window and do not overlap one another; a widget
  that overlaps a region lies wholly inside it (the toolbar's buttons in the
  toolbar, the status in the status bar, Pause / Step / Speed in the controls),
  and no widget overlaps the board.

Failures name the screen, the window size and the two offenders.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pygame
import pytest

from engine.model.registry import all_games
from engine.runtime.app import App
from engine.screens.game_scene import GameScene
from engine.screens.scene import Overlay, Scene
from engine.ui.stepper import Stepper
from engine.ui.widgets import Button, Label, Widget
from tests.conftest import click_widget
from tests.support.screen_cases import (
    CASES,
    Case,
    app_at,
    open_game,
)
from tests.support.window import sdl_window, wm_resize

SIZES = [(640, 480), (960, 720), (1920, 1080), (1080, 1920)]
# The layout regions of a game screen that are drawn (the cards as "card0", "card1", …).
REGIONS = ("board", "controls", "extras", "toolbar", "status_bar", "moves")


# --- what is checked ----------------------------------------------------------------
def describe(widget: Widget) -> str:
    """A widget's name for a failure message: a button's name, a label's text."""
    if isinstance(widget, Button):
        return f"button {widget.name!r}"
    if isinstance(widget, Label):
        text = widget.text
        return f"label {text[:40] + ('…' if len(text) > 40 else '')!r}"
    return type(widget).__name__


def widget_rects(scene: Scene, app: App) -> list[tuple[str, pygame.Rect]]:
    """The screen rectangles of the scene's visible widgets, with their names."""
    vp = app.viewport
    return [(describe(w), vp.map_rect(w.rect)) for w in scene.ui.widgets if w.visible]


def region_rects(scene: GameScene, app: App) -> list[tuple[str, pygame.Rect]]:
    """The drawn layout regions of a game screen, on screen."""
    layout = scene.layout()
    names = [n for n in REGIONS if n in layout]
    names += sorted(n for n in layout if n.startswith("card") and n[4:].isdigit()
                    and int(n[4:]) < len(getattr(scene, "seats", ())))
    if "controls" in names and not controls_shown(scene):
        names.remove("controls")
    return [(f"region {n!r}", app.viewport.map_rect(tuple(layout[n]))) for n in names]


def controls_shown(scene: Scene) -> bool:
    """Whether the computer-against-computer controls are on screen."""
    try:
        return scene.ui.find("Pause").visible
    except KeyError:
        return False


def layout_problems(app: App, screen: str) -> list[str]:
    """Everything wrong with the layout of the screen on top, one message each."""
    app.step([])
    scene = app.top
    assert scene is not None
    where = f"{screen} at {app.screen.get_width()}×{app.screen.get_height()}"
    window = app.screen.get_rect()
    problems: list[str] = []
    widgets = widget_rects(scene, app)
    for name, rect in widgets:
        if rect.width <= 0 or rect.height <= 0:
            problems.append(f"{where}: {name} has no size ({rect})")
        elif not window.contains(rect):
            problems.append(f"{where}: {name} {rect} is not inside the window {window}")
    for (a, ra), (b, rb) in itertools.combinations(widgets, 2):
        if ra.colliderect(rb):
            problems.append(f"{where}: {a} {ra} overlaps {b} {rb}")
    problems += parts_problems(scene, app, where)
    if isinstance(scene, Overlay):
        panel = app.viewport.map_rect(tuple(scene.panel_rect()))
        if not window.contains(panel):
            problems.append(f"{where}: the panel {panel} is not inside the window {window}")
        for name, rect in widgets:
            if not panel.contains(rect):
                problems.append(f"{where}: {name} {rect} is not inside the panel {panel}")
    if isinstance(scene, GameScene):
        regions = region_rects(scene, app)
        for name, rect in regions:
            if rect.width <= 0 or rect.height <= 0:
                problems.append(f"{where}: {name} has no size ({rect})")
            elif not window.contains(rect):
                problems.append(f"{where}: {name} {rect} is not inside the window {window}")
        for (a, ra), (b, rb) in itertools.combinations(regions, 2):
            if ra.colliderect(rb):
                problems.append(f"{where}: {a} {ra} overlaps {b} {rb}")
        for (w, rw), (r, rr) in itertools.product(widgets, regions):
            if not rw.colliderect(rr):
                continue
            if r == "region 'board'":
                problems.append(f"{where}: {w} {rw} overlaps the board {rr}")
            elif not rr.contains(rw):
                problems.append(f"{where}: {w} {rw} sticks out of {r} {rr}")
    return problems


def parts_problems(scene: Scene, app: App, where: str) -> list[str]:
    """A composite widget's parts (a stepper's − and +) lie inside it apart from each
    other, and a stepper's value as drawn keeps a clear gap to its − and +."""
    vp = app.viewport
    problems: list[str] = []
    for widget in scene.ui.widgets:
        if not widget.visible or not widget.parts():
            continue
        whole = vp.map_rect(widget.rect)
        parts = [(describe(p), vp.map_rect(p.rect)) for p in widget.parts()]
        for name, rect in parts:
            if not whole.contains(rect):
                problems.append(f"{where}: {name} {rect} sticks out of its widget {whole}")
        for (a, ra), (b, rb) in itertools.combinations(parts, 2):
            if ra.colliderect(rb):
                problems.append(f"{where}: {a} {ra} overlaps {b} {rb}")
        drawn = getattr(widget, "value_drawn", None)
        if isinstance(widget, Stepper) and drawn is not None:
            gap = max(2, vp.px(4))
            left = drawn.left - vp.map_rect(widget.minus.rect).right
            right = vp.map_rect(widget.plus.rect).left - drawn.right
            if min(left, right) < gap:
                problems.append(f"{where}: stepper {widget.name!r} value {widget.text!r} is "
                                f"{left}/{right} px from its −/+ (at least {gap} wanted)")
    return problems
































# The quick run (python -m pytest -m "not slow") checks every screen at the smallest and the
# portrait window; the default and the wide one add seconds, so they are marked slow.
@pytest.mark.parametrize("size", [s if s in ((640, 480), (1080, 1920)) else
                                  pytest.param(s, marks=pytest.mark.slow) for s in SIZES],
                         ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name.replace(" ", "-"))
def test_every_screen_fits_the_window_and_nothing_overlaps(
        profile: Path, case: Case, size: tuple[int, int]) -> None:
    if case.skip:
        pytest.skip(case.skip)
    with app_at(profile, size) as app:
        case.open(app)
        problems = layout_problems(app, case.name)
        assert not problems, "\n".join(problems)


# --- the harness catches what it should -----------------------------------------------
# A tiling window manager that ignores the minimum size gives 600×400: the app does not
# re-create the window (issue 29 finding 8) but lays every screen out as at 640×480 and
# scales the view down, so the same checks hold in the smaller window.
BELOW_MINIMUM = (600, 400)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name.replace(" ", "-"))
def test_every_screen_fits_a_window_below_the_minimum(profile: Path, case: Case) -> None:
    if case.skip:
        pytest.skip(case.skip)
    with app_at(profile, (640, 480)) as app:
        window_id = sdl_window().id
        wm_resize(app, BELOW_MINIMUM)
        case.open(app)
        app.step([])
        assert app.screen.get_size() == BELOW_MINIMUM and sdl_window().id == window_id
        assert app.viewport.scale < 0.8
        problems = layout_problems(app, case.name)
        assert not problems, "\n".join(problems)


def test_the_check_reports_overlaps_and_widgets_off_screen(profile: Path) -> None:
    """A widget moved onto another and one pushed off the window are both reported."""
    with app_at(profile, (960, 720)) as app:
        assert layout_problems(app, "launcher") == []
        launcher = app.top
        quit_button = launcher.ui.find("Quit")
        x, y, w, h = launcher.ui.find("?").rect
        quit_button.rect = (x + w / 2, y, w, h)  # half on top of "?"
        problems = layout_problems(app, "launcher")
        assert any("button 'Quit'" in p and "overlaps" in p and "button '?'" in p
                   for p in problems), problems
        area = app.viewport.area
        quit_button.rect = (area.right - 20, area.bottom - 20, 60, 40)
        problems = layout_problems(app, "launcher")
        assert any("button 'Quit'" in p and "not inside the window" in p for p in problems)
        assert all(p.startswith("launcher at 960×720: ") for p in problems)


def test_the_check_reports_a_widget_on_the_board(profile: Path) -> None:
    """On a game screen a widget over the board, or across a region's edge, is reported."""
    game = next(g for g in all_games() if not g.is_puzzle)
    with app_at(profile, (960, 720)) as app:
        open_game(game.id, "hvc")(app)
        scene = app.top
        board = scene.layout()["board"]
        undo = scene.ui.find("Undo")
        undo.rect = (board.centerx, board.centery, 80, 40)
        problems = layout_problems(app, game.id)
        assert any("button 'Undo'" in p and "overlaps the board" in p for p in problems)
        toolbar = scene.layout()["toolbar"]
        undo.rect = (toolbar.x + 300, toolbar.bottom - 20, 80, 40)  # across the toolbar's edge
        problems = layout_problems(app, game.id)
        assert any("button 'Undo'" in p and "sticks out of region 'toolbar'" in p
                   for p in problems), problems



class _BigDialog(Overlay):
    """A dialog designed for the 960×720 design space, bigger than a 640×480 window shows."""

    panel = (40.0, 30.0, 880.0, 660.0)

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.pressed = False
        # In the designed panel's bottom-right corner, 20 units in from each edge.
        self.ui.add(Button((760.0, 626.0, 140.0, 44.0), "Corner", self.press, name="Corner"))

    def press(self) -> None:
        self.pressed = True


@pytest.mark.parametrize("size", [(640, 480), (800, 500)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_dialog_too_big_for_the_window_shrinks_centred_with_its_widgets(
        profile: Path, size: tuple[int, int]) -> None:
    with app_at(profile, size) as app:
        dialog = app.push(_BigDialog(app))
        app.step([])
        area, panel = app.viewport.area, dialog.panel_rect()
        assert panel.w < 880 or panel.h < 660
        assert area.contains(panel)
        assert abs(panel.centerx - area.centerx) < 1 and abs(panel.centery - area.centery) < 1
        x, y, w, h = dialog.ui.find("Corner").rect
        sx, sy = panel.w / 880, panel.h / 660
        assert (panel.right - (x + w), panel.bottom - (y + h)) == pytest.approx((20 * sx, 20 * sy))
        assert layout_problems(app, "big dialog") == []
        click_widget(app, "Corner")  # still where the click lands
        assert dialog.pressed


def test_a_dialog_that_fits_is_drawn_as_designed(profile: Path) -> None:
    with app_at(profile, (1920, 1080)) as app:
        dialog = app.push(_BigDialog(app))
        app.step([])
        assert tuple(dialog.panel_rect()) == dialog.panel
        assert dialog.ui.find("Corner").rect == (760.0, 626.0, 140.0, 44.0)
        panel = app.viewport.map_rect(dialog.panel)
        # The panel is drawn there: its fill just inside its top edge, the shade outside.
        assert app.screen.get_at((panel.centerx, panel.y + 8))[:3] == app.theme.palette.panel
        assert app.screen.get_at((panel.centerx, panel.y - 8))[:3] != app.theme.palette.panel
