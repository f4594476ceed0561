"""Text is never clipped: it wraps, shrinks a little or ends with "…", and shows whole on hover.

Driven through a real headless app at the smallest window (640×480, which shows
800×600 design units) with real mouse, wheel and key events; what is drawn is
checked on the screen's pixels.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pygame
import pytest

from engine.runtime.app import App
from engine.screens import launcher
from engine.screens.scene import HelpOverlay, Scene
from engine.ui import widgets
from engine.ui.widgets import ELLIPSIS, Button, Label, Widget
from tests.conftest import click_widget, key, make_app, stats_shown

LONG = ("A label whose text goes on and on, far longer than the narrow box it was given "
        "can hold on one line, so it must be shortened")
CAPTION = "A caption far too long for its button"


class TextScene(Scene):
    """A plain screen holding the widgets under test on the background."""

    def __init__(self, app: App, *items: Widget) -> None:
        super().__init__(app)
        for item in items:
            self.ui.add(item)


@contextmanager
def small_app(profile: Path, size: tuple[int, int] = (640, 480)) -> Iterator[App]:
    """A headless app at ``size`` (the smallest window by default)."""
    app = make_app(profile, size)
    try:
        yield app
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


def move_to(app: App, pos: tuple[int, int]) -> None:
    """A real MOUSEMOTION to screen point ``pos``, then a frame."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    app.step()


def drawn_outside(app: App, rect: pygame.Rect) -> int:
    """How many pixels differ from the background outside ``rect``."""
    mask = pygame.mask.from_threshold(app.screen, app.theme.palette.background, (1, 1, 1, 255))
    mask.invert()  # now: every pixel that is not background
    inside = pygame.mask.Mask(app.screen.get_size())
    inside.draw(pygame.mask.Mask(rect.size, fill=True), rect.topleft)
    return mask.count() - mask.overlap_area(inside, (0, 0))


def colour_count(app: App, rect: pygame.Rect, colour: tuple[int, int, int]) -> int:
    """How many pixels of ``rect`` are exactly ``colour``."""
    area = app.screen.subsurface(rect.clip(app.screen.get_rect()))
    return pygame.mask.from_threshold(area, colour, (1, 1, 1, 255)).count()


# --- labels and captions ------------------------------------------------------------------
def test_a_long_label_ends_with_an_ellipsis_fits_its_box_and_shows_whole_on_hover(
        profile: Path) -> None:
    with small_app(profile) as app:
        area = app.viewport.area
        label = Label((area.x + 40, area.y + 100, 220, 30), LONG, size=18)
        app.push(TextScene(app, label))
        app.step([])
        rect = app.viewport.map_rect(label.rect)
        assert label.shortened and label.tooltip == LONG
        assert len(label.drawn_lines) == 1 and label.drawn_lines[0].endswith(ELLIPSIS)
        assert LONG.startswith(label.drawn_lines[0][:-1].rstrip())
        assert drawn_outside(app, rect) == 0  # every pixel of text inside the label's box
        assert app.top.ui.tooltip is None  # no pointer yet: no tooltip

        move_to(app, rect.center)
        ui = app.top.ui
        assert ui.tooltip == LONG
        tip = ui.tooltip_rect
        assert tip is not None and app.screen.get_rect().contains(tip)
        assert not tip.colliderect(rect)  # below the pointer, clear of the label's text
        assert colour_count(app, tip, app.theme.palette.accent) > tip.width  # its frame
        assert colour_count(app, tip, app.theme.palette.text) > 20  # and its words
        assert drawn_outside(app, rect.union(tip)) == 0

        move_to(app, (rect.centerx, app.screen.get_height() - 2))  # away: it goes
        assert ui.tooltip is None
        assert drawn_outside(app, rect) == 0


def test_a_tooltip_near_the_window_corner_stays_inside_the_window(profile: Path) -> None:
    with small_app(profile) as app:
        area = app.viewport.area
        label = Label((area.right - 120, area.bottom - 24, 120, 24), LONG, size=16)
        app.push(TextScene(app, label))
        app.step([])
        rect = app.viewport.map_rect(label.rect)
        move_to(app, (rect.right - 2, rect.bottom - 2))
        tip = app.top.ui.tooltip_rect
        assert app.top.ui.tooltip == LONG and tip is not None
        assert app.screen.get_rect().contains(tip)
        assert tip.bottom <= rect.bottom  # no room below: it goes above the pointer


def test_a_label_wraps_where_its_box_has_room_for_the_lines(profile: Path) -> None:
    with small_app(profile) as app:
        area = app.viewport.area
        text = "Two or three lines of text fit in this taller box"
        label = Label((area.x + 40, area.y + 100, 220, 90), text, size=18)
        app.push(TextScene(app, label))
        app.step([])
        assert not label.shortened and len(label.drawn_lines) >= 2
        assert " ".join(label.drawn_lines) == text
        rect = app.viewport.map_rect(label.rect)
        assert drawn_outside(app, rect) == 0
        move_to(app, rect.center)
        assert app.top.ui.tooltip is None  # nothing was left out: no tooltip


def test_a_label_may_shrink_to_its_smallest_size_before_it_is_shortened(
        profile: Path) -> None:
    with small_app(profile) as app:
        area = app.viewport.area
        text = "Just a bit too long at 24"
        label = Label((area.x + 40, area.y + 100, 240, 30), text, size=24, fit_lines=1,
                      min_size=14)
        app.push(TextScene(app, label))
        app.step([])
        assert not label.shortened and label.drawn_lines == [text]
        assert drawn_outside(app, app.viewport.map_rect(label.rect)) == 0


def test_a_long_caption_is_shortened_and_the_button_still_works(profile: Path) -> None:
    pressed: list[bool] = []
    with small_app(profile) as app:
        area = app.viewport.area
        button = Button((area.x + 40, area.y + 200, 110, 40), CAPTION,
                        lambda: pressed.append(True), name="long")
        app.push(TextScene(app, button))
        app.step([])
        rect = app.viewport.map_rect(button.rect)
        assert button.shortened and button.drawn_lines[-1].endswith(ELLIPSIS)
        assert drawn_outside(app, rect) == 0
        move_to(app, rect.center)
        assert app.top.ui.tooltip == CAPTION
        click_widget(app, "long")
        assert pressed == [True]
        assert app.top.ui.tooltip is None  # a click hides the tooltip


def test_a_short_caption_is_drawn_whole(profile: Path) -> None:
    with small_app(profile) as app:
        area = app.viewport.area
        button = Button((area.x + 40, area.y + 200, 110, 40), "Start", lambda: None)
        app.push(TextScene(app, button))
        app.step([])
        assert not button.shortened and button.drawn_lines == ["Start"]
        assert button.tooltip is None


def test_one_ellipsis_helper_serves_the_launcher_and_the_widgets() -> None:
    assert launcher.ellipsize is widgets.ellipsize
    assert not hasattr(launcher, "fit_lines") or launcher.fit_lines is widgets.fit_lines


@pytest.mark.parametrize("width", [1, 5, 40, 400])
def test_ellipsize_fits_any_width(width: int) -> None:
    pygame.font.init()
    from engine.ui.theme import Theme

    font = Theme().font(16)
    cut = widgets.ellipsize(LONG, font, width)
    assert cut.endswith(ELLIPSIS)
    assert font.size(cut)[0] <= width or cut == ELLIPSIS
    assert widgets.ellipsize("short", font, 400) == "short"


# --- long texts scroll --------------------------------------------------------------------
HELP = "\n\n".join(f"Paragraph {n}: " + "words that fill the line " * 12 for n in range(12))


def test_long_help_scrolls_with_a_visible_cue(profile: Path) -> None:
    with small_app(profile) as app:
        help_overlay = app.push(HelpOverlay(app, "A long help", HELP))
        app.step([])
        state = help_overlay.debug_state()
        assert state["lines"] > state["shown"] > 5 and state["scroll"] == 0
        assert help_overlay.cue is not None and "scroll for more" in help_overlay.cue
        assert help_overlay.cue.startswith(f"Lines 1–{state['shown']} of {state['lines']}")
        cue = help_overlay.cue_rect
        panel = app.viewport.map_rect(tuple(help_overlay.panel_rect()))
        assert cue is not None and panel.contains(cue)
        assert app.screen.get_rect().contains(panel)
        assert colour_count(app, cue, app.theme.palette.accent) > 20  # the cue is drawn

        key(app, pygame.K_PAGEDOWN)
        assert help_overlay.scroll == state["shown"] - 1
        key(app, pygame.K_END)
        assert help_overlay.scroll == state["lines"] - state["shown"]
        assert "scroll up" in help_overlay.cue
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False,
                                             precise_x=0.0, precise_y=1.0, touch=False))
        app.step()
        assert help_overlay.scroll == state["lines"] - state["shown"] - 3
        key(app, pygame.K_HOME)
        assert help_overlay.scroll == 0


def test_help_uses_the_height_of_a_tall_window(profile: Path) -> None:
    with small_app(profile) as app:
        small = app.push(HelpOverlay(app, "A long help", HELP)).debug_state()
    with small_app(profile, (1080, 1920)) as app:
        tall = app.push(HelpOverlay(app, "A long help", HELP))
        app.step([])
        assert tall.debug_state()["shown"] > 2 * small["shown"]
        panel = app.viewport.map_rect(tuple(tall.panel_rect()))
        assert app.screen.get_rect().contains(panel)


def test_short_help_has_no_scroll_cue(profile: Path) -> None:
    with small_app(profile) as app:
        key(app, pygame.K_F1)
        assert isinstance(app.top, HelpOverlay)
        state = app.top.debug_state()
        assert state["lines"] <= state["shown"] and app.top.cue is None


@pytest.mark.slow
def test_the_statistics_table_scrolls_and_shows_long_names_on_hover(profile: Path) -> None:
    with small_app(profile) as app:
        long_variant = "a variant with a name much too long for the statistics table's column"
        app.stats.record_game("tictactoe", long_variant, "human-computer", "easy", "won")
        for i in range(40):
            app.stats.record_game("tictactoe", f"v{i:02}", "human-computer", "easy", "lost")
        click_widget(app, "Statistics")
        stats = stats_shown(app)
        state = stats.debug_state()
        # 41 boards, each a heading and its "You vs Computer (Easy)" row, under the game's
        # and the section's headings: far more lines than fit.
        total = state["rows"]
        assert total >= 2 * 41 and 5 < state["shown"] < total
        # (An id no preset knows is shown tidied, in sentence case.)
        rows = [w for w in stats.ui.widgets
                if w.visible and "much too long" in getattr(w, "text", "").lower()]
        assert len(rows) == 1 and rows[0].shortened
        move_to(app, app.viewport.map_rect(rows[0].rect).center)
        assert stats.ui.tooltip is not None and "much too long" in stats.ui.tooltip.lower()
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False,
                                             precise_x=0.0, precise_y=-1.0, touch=False))
        app.step()
        assert stats.debug_state()["scroll"] == 3
        key(app, pygame.K_END)
        assert stats.debug_state()["scroll"] == total - state["shown"]
