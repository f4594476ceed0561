"""Keyboard focus and "selected" look different by shape, not only by colour, in every
palette: focus is a dashed ring outside the button, selected a tinted fill with a bold
frame and a tick. Driven with real keys on the real settings overlay."""

from __future__ import annotations

import itertools

import pygame
import pytest

from engine.screens.settings_scene import SettingsOverlay
from engine.ui.theme import PALETTES
from tests.conftest import key

MARGIN = 14  # screen pixels around the button that the snapshot takes in (the ring)


def snapshot(app, button) -> tuple[pygame.Rect, bytes]:
    rect = app.viewport.map_rect(button.rect)
    area = rect.inflate(2 * MARGIN, 2 * MARGIN)
    return rect, pygame.image.tobytes(app.screen.subsurface(area), "RGB")


def tab_to(app, overlay, name: str) -> None:
    for _ in range(20):
        if getattr(overlay.ui.focused, "name", None) == name:
            return
        key(app, pygame.K_TAB)
    raise AssertionError(f"Tab never reached {name}")


def pixels(app, points) -> list[tuple[int, int, int]]:
    return [tuple(app.screen.get_at(p))[:3] for p in points]


@pytest.mark.parametrize("palette", list(PALETTES))
def test_focused_selected_both_and_plain_all_look_different(app, palette) -> None:
    app.set_palette(palette)
    app.settings.set("sound", True)
    overlay = app.push(SettingsOverlay(app))
    app.step([])
    button = overlay.ui.find("Sound off")
    assert not button.selected and overlay.ui.focused is None
    rect, plain = snapshot(app, button)
    ring_row = rect.top - 5  # in the focus ring's band, above the button
    ring_points = [(x, ring_row) for x in range(rect.left, rect.right)]
    fill_points = [(rect.left + 6, rect.centery), (rect.right - 6, rect.centery)]
    plain_ring, plain_fill = pixels(app, ring_points), pixels(app, fill_points)

    tab_to(app, overlay, "Sound off")
    _, focused = snapshot(app, button)
    # Focus: a ring outside the button, dashed (focus colour and gaps along one row);
    # the button itself is drawn as before.
    focus_ring = pixels(app, ring_points)
    colour = app.theme.palette.focus
    assert colour in focus_ring and any(c != colour for c in focus_ring)
    assert focus_ring != plain_ring and pixels(app, fill_points) == plain_fill

    key(app, pygame.K_RETURN)  # choose it: focused and selected
    assert button.selected and overlay.ui.focused is button
    _, both = snapshot(app, button)
    assert pixels(app, ring_points) == focus_ring  # the same ring on a chosen button

    key(app, pygame.K_TAB)  # focus moves on: selected only
    assert overlay.ui.focused is not button
    _, selected = snapshot(app, button)
    # Selected: no ring outside, but the inside is filled differently (tinted, bold frame).
    assert pixels(app, ring_points) == plain_ring
    assert pixels(app, fill_points) != plain_fill
    assert pixels(app, fill_points)[0] == app.theme.palette.selected

    looks = {"plain": plain, "focused": focused, "selected": selected, "both": both}
    for (a, pa), (b, pb) in itertools.combinations(looks.items(), 2):
        assert pa != pb, f"{a} and {b} look the same in the {palette} palette"


def test_a_disabled_button_is_drawn_flat(app) -> None:
    app.settings.set("volume", 100)
    overlay = app.push(SettingsOverlay(app))
    app.step([])
    plus, minus = overlay.ui.find("volume+"), overlay.ui.find("volume-")
    assert not plus.enabled and minus.enabled
    p = app.theme.palette
    for button, fill in ((plus, p.panel), (minus, p.button)):
        rect = app.viewport.map_rect(button.rect)
        assert tuple(app.screen.get_at((rect.left + 5, rect.top + 6)))[:3] == fill
