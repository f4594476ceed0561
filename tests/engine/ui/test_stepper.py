"""The one stepper widget (label, −, value, +) on the real set-up and settings screens."""

from __future__ import annotations

import pygame
import pytest

from engine.model.seats import Seat
from engine.screens.scene import Overlay
from engine.screens.settings_scene import SettingsOverlay
from engine.ui.stepper import Stepper, int_stepper
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import click_widget, hover, key, make_app, near

SIZES = [(640, 480), (960, 720), (1920, 1080), (1080, 1920)]


def stepper(scene, name: str) -> Stepper:
    return next(w for w in scene.ui.widgets if isinstance(w, Stepper) and w.name == name)


def open_tictactoe_setup(app, config: MNKConfig | None = None):
    app.push(TicTacToeScene(app, config or MNKConfig(), (Seat(), Seat())))
    app.step([])
    key(app, pygame.K_s)
    return app.top


def inside_point(app, button) -> tuple[int, int]:
    """A pixel inside a button's frame, clear of its caption and its edge."""
    rect = app.viewport.map_rect(button.rect)
    return rect.x + max(3, rect.w // 8), rect.y + max(4, rect.h // 5)


@pytest.mark.slow
def test_minus_and_plus_are_disabled_at_the_limits_and_clicks_there_change_nothing(app) -> None:
    overlay = open_tictactoe_setup(app)  # 3×3: rows and columns are at their minimum
    minus, plus = overlay.ui.find("rows-"), overlay.ui.find("rows+")
    assert not minus.enabled and plus.enabled
    p = app.theme.palette
    # Disabled is drawn flat (the panel's colour), enabled as a raised button.
    assert near(app.screen.get_at(inside_point(app, minus)), p.panel, 4)
    assert near(app.screen.get_at(inside_point(app, plus)), p.button, 4)
    click_widget(app, "rows-")
    assert overlay.rows == 3
    for _ in range(14):
        click_widget(app, "rows+")
    assert overlay.rows == 15 and not plus.enabled and minus.enabled
    click_widget(app, "rows+")
    assert overlay.rows == 15
    assert near(app.screen.get_at(inside_point(app, plus)), p.panel, 4)
    # k's upper limit is the shorter side (3): its + is disabled too.
    assert overlay.k == 3 and not overlay.ui.find("k+").enabled
    click_widget(app, "k+")
    assert overlay.k == 3


def test_keyboard_one_tab_stop_arrows_step_home_end_jump_and_focus_stays(app) -> None:
    overlay = open_tictactoe_setup(app)
    for _ in range(40):
        key(app, pygame.K_TAB)
        if getattr(overlay.ui.focused, "name", None) == "rows":
            break
    rows = stepper(overlay, "rows")
    assert overlay.ui.focused is rows
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_UP)
    assert overlay.rows == 5
    key(app, pygame.K_LEFT)
    assert overlay.rows == 4
    key(app, pygame.K_END)
    assert overlay.rows == 15 and overlay.ui.focused is rows  # still focused at the limit
    key(app, pygame.K_RIGHT)
    assert overlay.rows == 15
    key(app, pygame.K_HOME)
    assert overlay.rows == 3 and overlay.ui.focused is rows
    # − / + keys too; Enter still does not start while a widget has the focus.
    key(app, pygame.K_EQUALS, unicode="=")
    assert overlay.rows == 4
    key(app, pygame.K_TAB)  # the next stop is past this stepper, not a part of it
    assert overlay.ui.focused not in (rows, rows.minus, rows.plus, None)
    assert overlay.ui.focused is not stepper(overlay, "cols")  # columns come before rows


def test_focus_ring_is_drawn_around_the_stepper(app) -> None:
    overlay = open_tictactoe_setup(app)
    rows = stepper(overlay, "rows")
    vp = app.viewport
    left = vp.map_rect(rows.minus.rect)
    probe = (left.x - vp.px(5), left.centery)  # in the focus ring, left of −
    before = app.screen.get_at(probe)
    while overlay.ui.focused is not rows:
        key(app, pygame.K_TAB)
    after = app.screen.get_at(probe)
    assert before != after


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_value_keeps_clear_of_minus_and_plus_at_every_size(profile, size) -> None:
    app = make_app(profile, size)
    try:
        overlay = open_tictactoe_setup(app, MNKConfig(15, 15, 5))
        vp = app.viewport
        for name in ("rows", "cols", "k"):
            widget = stepper(overlay, name)
            drawn = widget.value_drawn
            assert drawn is not None and widget.text in ("15", "5")
            minus, plus = vp.map_rect(widget.minus.rect), vp.map_rect(widget.plus.rect)
            assert drawn.left - minus.right >= vp.px(6), (name, drawn, minus)
            assert plus.left - drawn.right >= vp.px(6), (name, drawn, plus)
            # And really drawn there: text pixels inside the value's room, none in the gaps.
            room = vp.map_rect(widget.part("value"))
            assert room.contains(drawn)
    finally:
        app.quit()
        app.stats.close()


class _LongValue(Overlay):
    """A test overlay with a narrow stepper whose value is far too long for it."""

    panel = (280.0, 260.0, 400.0, 200.0)

    def __init__(self, app) -> None:
        super().__init__(app)
        self.n = 1000
        self.widget = self.ui.add(int_stepper(
            (300, 300, 200, 40), lambda: self.n, self._set, 2, 1000, name="size",
            show=lambda n: f"{n}×{n} buttons", label="Size", label_w=50))

    def _set(self, value: int) -> None:
        self.n = value


@pytest.mark.parametrize("size", [(640, 480), (960, 720)], ids=["640x480", "960x720"])
def test_a_value_too_long_shrinks_then_ends_with_an_ellipsis_and_tooltip(profile, size) -> None:
    app = make_app(profile, size)
    try:
        overlay = app.push(_LongValue(app))
        app.step([])
        widget, vp = overlay.widget, app.viewport
        assert widget.shortened and widget.value_drawn is not None
        room = vp.map_rect(widget.part("value"))
        assert room.contains(widget.value_drawn)  # never over − or +
        assert not overlay.ui.find("size+").enabled  # at the maximum
        x, y, w, h = widget.part("value")
        hover(app, x + w / 2, y + h / 2)
        assert overlay.ui.tooltip == "Size: 1000×1000 buttons"
        click_widget(app, "size-")
        assert overlay.n == 999 and overlay.ui.find("size+").enabled
    finally:
        app.quit()
        app.stats.close()


@pytest.mark.slow
def test_params_setup_stepper_stops_at_its_limits(app) -> None:
    from games.connect4.params import MAX_COLS

    click_widget(app, "connect4")
    key(app, pygame.K_s)
    overlay = app.top
    for _ in range(20):
        click_widget(app, "cols+")
    assert overlay.params.cols == MAX_COLS and not overlay.ui.find("cols+").enabled
    assert overlay.ui.find("cols-").enabled


@pytest.mark.slow
def test_settings_volume_stepper_disables_at_zero_and_a_hundred(app) -> None:
    app.push(SettingsOverlay(app))
    app.step([])
    for _ in range(3):
        click_widget(app, "volume+")
    assert app.settings.get("volume") == 100 and not app.top.ui.find("volume+").enabled
    heard = len(app.audio.played)
    click_widget(app, "volume+")  # disabled: no change, no preview sound
    assert app.settings.get("volume") == 100 and len(app.audio.played) == heard
    for _ in range(10):
        click_widget(app, "volume-")
    assert app.settings.get("volume") == 0 and not app.top.ui.find("volume-").enabled


@pytest.mark.parametrize("size", [(640, 480), (960, 720)], ids=["640x480", "960x720"])
@pytest.mark.parametrize("game", ["tictactoe", "connect4"])
def test_mistakes_caption_is_one_line_with_a_margin(profile, size, game) -> None:
    app = make_app(profile, size)
    try:
        click_widget(app, game)
        key(app, pygame.K_s)
        overlay = app.top
        # The second seat's tag (the first seat's row comes first).
        tags = [w.name.split()[0] for w in overlay.ui.widgets
                if getattr(w, "name", "").endswith(" computer")]
        tag = tags[1]
        click_widget(app, f"{tag} computer")
        click_widget(app, f"{tag} mistakes")  # 10%
        button = overlay.ui.find(f"{tag} mistakes")
        assert button.label == "10% mistakes"
        vp = app.viewport
        rect, caption = vp.map_rect(button.rect), button.caption_box
        assert button.drawn_lines == ["10% mistakes"]  # one line, whole
        assert caption.left - rect.left >= vp.px(6) and rect.right - caption.right >= vp.px(6)
        assert caption.top - rect.top >= 2 and rect.bottom - caption.bottom >= 2
    finally:
        app.quit()
        app.stats.close()
