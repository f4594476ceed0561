"""The settings overlay, driven by real clicks and keys on the real scene."""

from __future__ import annotations

import itertools
from pathlib import Path

import pygame
import pytest

from engine.screens.settings_scene import SettingsOverlay, settings_layout, stepped, volume_parts
from engine.storage.settings import SettingsStore
from engine.ui.theme import PALETTES
from tests.conftest import click_widget, key, make_app, near


def open_settings(app) -> SettingsOverlay:
    overlay = app.push(SettingsOverlay(app))
    app.step([])
    return overlay


def saved(profile: Path) -> SettingsStore:
    """The settings as a fresh start would read them from the file."""
    store = SettingsStore(profile / "settings.json")
    assert store.load() == []
    return store


def bar_point(app, fraction: float) -> tuple[int, int]:
    """Screen pixel at ``fraction`` of the volume bar's length, on its middle line."""
    bar = volume_parts(settings_layout(app.viewport.area)["volume_controls"])["bar"]
    return app.viewport.point(bar.x + bar.w * fraction, bar.centery)


@pytest.mark.slow
def test_every_change_is_saved_at_once_and_read_back_on_the_next_start(app, profile) -> None:
    open_settings(app)
    click_widget(app, "Sound off")
    assert saved(profile).get("sound") is False and not app.audio.enabled
    for _ in range(3):
        click_widget(app, "volume-")
    assert saved(profile).get("volume") == 40
    click_widget(app, "volume+")
    assert saved(profile).get("volume") == 50
    click_widget(app, "Reduce motion on")
    assert saved(profile).get("reduce_motion") is True
    click_widget(app, "Palette colourblind")
    assert saved(profile).get("palette") == "colourblind"
    assert app.theme.palette.name == "colourblind"
    click_widget(app, "Close")
    assert not isinstance(app.top, SettingsOverlay)
    app.quit()
    app.stats.close()

    again = make_app(profile)
    try:
        overlay = open_settings(again)
        assert overlay.debug_state() == {
            "scene": "SettingsOverlay", "overlay": True, "sound": False, "volume": 50,
            "reduce_motion": True, "palette": "colourblind"}
        # The chosen options show as chosen (a tick and a frame, not colour alone).
        chosen = {w.name for w in overlay.ui.widgets if getattr(w, "selected", False)}
        assert chosen == {"Sound off", "Reduce motion on", "Palette colourblind",
                          "Language system"}
    finally:
        again.quit()
        again.stats.close()


@pytest.mark.slow
def test_volume_steps_by_ten_snaps_to_the_grid_and_stops_at_the_ends(app, profile) -> None:
    assert [stepped(75, 1), stepped(75, -1), stepped(70, 1), stepped(70, -1)] == [80, 70, 80, 60]
    assert stepped(100, 1) == 100 and stepped(0, -1) == 0 and stepped(5, -1) == 0
    open_settings(app)
    for _ in range(5):  # 70 → 80 → 90 → 100, then nothing more
        click_widget(app, "volume+")
    assert saved(profile).get("volume") == 100
    assert near(app.screen.get_at(bar_point(app, 0.97)), app.theme.palette.accent)
    for _ in range(12):
        click_widget(app, "volume-")
    assert saved(profile).get("volume") == 0
    # An empty bar: no accent anywhere along it.
    assert not near(app.screen.get_at(bar_point(app, 0.05)), app.theme.palette.accent)


def test_the_bar_and_number_show_the_volume(app) -> None:
    overlay = open_settings(app)
    accent = app.theme.palette.accent
    assert near(app.screen.get_at(bar_point(app, 0.65)), accent)  # 70%
    assert not near(app.screen.get_at(bar_point(app, 0.75)), accent)
    click_widget(app, "volume-")
    click_widget(app, "volume-")  # 50%
    assert near(app.screen.get_at(bar_point(app, 0.45)), accent)
    assert not near(app.screen.get_at(bar_point(app, 0.55)), accent)
    # The number beside the bar is redrawn: its pixels differ between 50% and 60%.
    stepper = next(w for w in overlay.ui.widgets if getattr(w, "name", "") == "volume")
    number = app.viewport.map_rect(stepper.part("value"))
    before = pygame.image.tobytes(app.screen.subsurface(number), "RGB")
    click_widget(app, "volume+")
    assert pygame.image.tobytes(app.screen.subsurface(number), "RGB") != before
    # Muted, the bar keeps its level but greys out.
    click_widget(app, "Sound off")
    assert not near(app.screen.get_at(bar_point(app, 0.3)), accent)
    assert near(app.screen.get_at(bar_point(app, 0.3)), app.theme.palette.disabled)


def test_volume_applies_to_the_very_next_effect(app) -> None:
    if not app.audio.available:
        pytest.skip("no mixer even with SDL's dummy driver")
    open_settings(app)
    click_widget(app, "volume+")
    # The new level is played straight away so the player hears it...
    assert app.audio.sounded[-1] == "place"
    assert app.audio.sound("place").get_volume() == pytest.approx(0.8, abs=0.01)
    # ...and any later effect uses it too.
    click_widget(app, "volume-")
    click_widget(app, "volume-")
    app.audio.play("win")
    assert app.audio.sound("win").get_volume() == pytest.approx(0.6, abs=0.01)


def test_sound_off_silences_and_on_gives_a_sound(app) -> None:
    open_settings(app)
    click_widget(app, "Sound off")
    heard = len(app.audio.sounded)
    app.audio.play("win")
    assert app.audio.played[-1] == "win" and len(app.audio.sounded) == heard
    click_widget(app, "volume+")  # adjusting while muted makes no sound either
    assert len(app.audio.sounded) == heard
    click_widget(app, "Sound on")
    assert app.audio.enabled
    if app.audio.available:
        assert app.audio.sounded[heard:] == ["place"]


@pytest.mark.slow
def test_keys_change_the_volume_tab_reaches_every_button_and_esc_closes(app, profile) -> None:
    overlay = open_settings(app)
    key(app, pygame.K_MINUS, unicode="-")
    assert saved(profile).get("volume") == 60
    key(app, pygame.K_EQUALS, unicode="=")
    key(app, pygame.K_KP_PLUS, unicode="+")
    assert saved(profile).get("volume") == 80
    order = []
    for _ in range(13):  # the volume stepper is one Tab stop
        key(app, pygame.K_TAB)
        order.append(overlay.ui.focused.name)
    assert order[:12] == ["Sound on", "Sound off", "volume", "Reduce motion on",
                          "Reduce motion off", "Palette default", "Palette colourblind",
                          "Language system", "Language en", "Language hu", "Language cs",
                          "Close"]
    assert order[12] == "Sound on"  # wraps round
    key(app, pygame.K_TAB)
    key(app, pygame.K_RETURN)  # "Sound off"
    assert saved(profile).get("sound") is False
    key(app, pygame.K_ESCAPE)
    assert not isinstance(app.top, SettingsOverlay)


def test_palette_change_repaints_the_panel(app) -> None:
    overlay = open_settings(app)
    panel = overlay.layout()["panel"]
    inside = app.viewport.point(panel.x + 10, panel.centery)  # panel, no widget
    assert near(app.screen.get_at(inside), PALETTES["default"].panel, tol=2)
    click_widget(app, "Palette colourblind")
    assert near(app.screen.get_at(inside), PALETTES["colourblind"].panel, tol=2)
    click_widget(app, "Palette default")
    assert app.settings.get("palette") == "default"


def test_f1_shows_its_help(app) -> None:
    open_settings(app)
    key(app, pygame.K_F1)
    assert app.top.debug_state().get("title") == "Settings"


SIZES = [(640, 480), (800, 600), (960, 720), (1280, 720), (1920, 1080), (1080, 1920),
         (3840, 2160)]


@pytest.mark.parametrize("size", [pytest.param(s, marks=pytest.mark.slow) if s == (3840, 2160)
                                  else s for s in SIZES], ids=[f"{w}x{h}" for w, h in SIZES])
def test_it_lays_out_inside_the_window_at_any_size(profile, size) -> None:
    app = make_app(profile, size)
    try:
        overlay = open_settings(app)
        # The longest captions chosen (a tick before "Colour-blind safe") must fit too.
        click_widget(app, "Palette colourblind")
        click_widget(app, "Reduce motion on")
        area = app.viewport.area
        panel = overlay.layout()["panel"]
        assert area.contains(panel)
        assert abs(panel.centerx - area.centerx) < 1 and abs(panel.centery - area.centery) < 1
        widgets = overlay.ui.widgets
        rects = [pygame.FRect(w.rect) for w in widgets]
        for widget, rect in zip(widgets, rects, strict=True):
            assert panel.contains(rect), (getattr(widget, "name", widget), rect, panel)
            assert not getattr(widget, "shortened", False), getattr(widget, "name", widget)
        for a, b in itertools.combinations(range(len(rects)), 2):
            assert not rects[a].colliderect(rects[b]), (widgets[a], widgets[b])
        bar = volume_parts(overlay.layout()["volume_controls"])["bar"]
        assert bar.w >= 100 and not any(bar.colliderect(r) for r in rects)
        # The panel is really drawn there, and clicks land on its buttons at this size.
        corner = app.viewport.point(panel.x + 8, panel.bottom - 30)  # left of every widget
        assert near(app.screen.get_at(corner), PALETTES["colourblind"].panel, tol=2)
        click_widget(app, "volume+")
        assert app.settings.get("volume") == 80
    finally:
        app.quit()
        app.stats.close()
