"""Help: the scroll cue tells the truth, and the launcher's help is the launcher as it is,
in a box sized to its text."""

from __future__ import annotations

import re

import pygame
import pytest

from engine.screens.launcher import LauncherScene
from engine.screens.scene import HelpOverlay
from engine.screens.settings_scene import ROW_NAMES
from tests.conftest import click_widget, key, make_app

SIZES = [(640, 480), (960, 720), (1920, 1080), (1080, 1920)]


def wheel(app, y: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False))
    app.step()


def lowest_text_row(app, overlay: HelpOverlay) -> int:
    """The lowest screen row of the text area holding text pixels."""
    body = app.viewport.map_rect(tuple(overlay._body()))
    panel = app.theme.palette.panel
    for y in range(body.bottom - 1, body.top, -1):
        if any(app.screen.get_at((x, y))[:3] != panel for x in range(body.left, body.right, 2)):
            return y
    return body.top


def test_at_the_bottom_the_cue_no_longer_says_there_is_more(profile) -> None:
    app = make_app(profile, (640, 480))
    try:
        click_widget(app, "tictactoe")
        key(app, pygame.K_F1)
        overlay = app.top
        assert isinstance(overlay, HelpOverlay)
        total, shown = overlay.metrics()
        assert total > shown  # long rules in a small window: they scroll
        assert "scroll for more" in overlay.cue
        key(app, pygame.K_END)
        assert overlay.scroll == total - shown
        assert "scroll for more" not in overlay.cue and "▼" not in overlay.cue
        assert re.search(rf"–{total} of {total}\b", overlay.cue), overlay.cue
        # Scrolling down further changes nothing and still says nothing of more below.
        wheel(app, -3)
        assert overlay.scroll == total - shown and "▼" not in overlay.cue
        # One step up from the end: there is more below again.
        wheel(app, 1)
        assert overlay.scroll < total - shown and "scroll for more ▼" in overlay.cue
        key(app, pygame.K_HOME)
        assert overlay.scroll == 0 and "scroll for more ▼" in overlay.cue
    finally:
        app.quit()
        app.stats.close()


def test_launcher_help_describes_the_launcher_as_it_is() -> None:
    text = LauncherScene.help_text
    assert "Coming soon" not in text and "coming soon" not in text.lower()
    # Every button of the launcher's bottom row is explained ...
    for name in ("Statistics", "Palette", "Settings", "?", "Quit"):
        assert name in text, name
    # ... what Settings holds, as the settings overlay has it (no setting it lacks) ...
    lowered = text.lower()
    for row in ROW_NAMES.values():
        assert row.lower().replace("reduce ", "reduced ") in lowered, row
    assert not re.search(r"\bpace\b", lowered)  # computer games' pace is set in the game
    # ... the tiles, and the keyboard.
    for words in ("tile", "arrow keys", "enter", "tab", "page up", "f1", "esc"):
        assert words in lowered, words


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_launcher_help_box_is_sized_to_its_text(profile, size) -> None:
    app = make_app(profile, size)
    try:
        key(app, pygame.K_F1)
        overlay = app.top
        assert isinstance(overlay, HelpOverlay) and overlay.title == "Arcade of Strategy"
        total, shown = overlay.metrics()
        assert total <= shown and overlay.cue is None  # all of it, no scrolling
        # The box ends where the text does: less than two lines of empty space under it.
        body = app.viewport.map_rect(tuple(overlay._body()))
        line = app.theme.font(overlay.TEXT_SIZE * app.viewport.scale).get_linesize()
        assert body.bottom - lowest_text_row(app, overlay) < 2 * line
        # And it is not a mostly empty box: the text fills most of the panel's height.
        panel = app.viewport.map_rect(tuple(overlay.panel_rect()))
        assert total * line > 0.55 * panel.height
    finally:
        app.quit()
        app.stats.close()
