"""The status bar shows one line: long texts shrink, then end with "…" at a word, whole
on hover; never a second line with a lone fragment ("0)") under the first."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from engine.model.registry import all_games
from engine.model.seats import Seat
from engine.ui.widgets import ELLIPSIS
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import click_widget, hover, make_app, run_until

SIZES = [(640, 480), (960, 720)]
HUMAN, PERFECT = Seat(), Seat("computer", "perfect")


def grundy(app, **setup: Any):
    from games.grundy.variants import GrundySetup

    game = next(g for g in all_games() if g.id == "grundy")
    return app.push(game.open_scene(app, GrundySetup(**setup), seats=(HUMAN, PERFECT)))


def custom_tictactoe(app):
    return app.push(TicTacToeScene(app, MNKConfig(7, 9, 4), (HUMAN, PERFECT)))


def text_rows(app, scene) -> list[int]:
    """Screen rows of the status bar holding text pixels (anything but the bar's colour)."""
    bar = app.viewport.map_rect(scene.status.rect)
    panel = app.theme.palette.panel
    rows = []
    for y in range(bar.top, bar.bottom):
        if any(app.screen.get_at((x, y))[:3] != panel for x in range(bar.left, bar.right, 2)):
            rows.append(y)
    return rows


def check_one_line(app, scene, tries: int = 3) -> None:
    """The status is drawn on one line, shortened at a word with its whole text in a
    tooltip. Checked again (``tries`` times in all) where the text or its room changed
    meanwhile (on a busy machine the screen can still be settling: seen under load)."""
    status = scene.status
    full = scene.status.text
    app.step([])
    assert len(status.drawn_lines) == 1, status.drawn_lines
    # The pixels agree: every text pixel lies within one line's height.
    rows = text_rows(app, scene)
    font_h = app.theme.font(20 * app.viewport.scale).get_linesize()
    assert rows and rows[-1] - rows[0] < font_h, (rows[0], rows[-1], font_h)
    line = status.drawn_lines[0]
    if status.shortened:
        # Cut at a word: what is shown is the start of the text, ended with "…".
        assert line.endswith(ELLIPSIS)
        shown = line[:-1]
        assert full.startswith(shown) and full[len(shown)] in " ,;:·-—", (line, full)
        x, y, w, h = scene.status.rect
        hover(app, x + w / 2, y + h / 2)
        if (status.text != full or not status.shortened) and tries > 1:
            check_one_line(app, scene, tries - 1)
            return
        assert scene.ui.tooltip == full
    else:
        assert line == full


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("setup", [dict(game="king"), dict(game="rook", tokens=2),
                                   dict(game="knight", rows=20, cols=20, tokens=3)],
                         ids=["king", "rook-2-tokens", "knight-20x20-3-tokens"])
def test_grundy_board_status_is_one_line(profile, size, setup) -> None:
    app = make_app(profile, size)
    try:
        scene = grundy(app, **setup)
        app.step([])
        if not scene.show_hints:
            click_widget(app, "Hint")  # the value explained makes the status longest
        run_until(app, lambda: "value" in scene.status_text().lower() or scene.hints, 10)
        check_one_line(app, scene)
    finally:
        app.quit()
        app.stats.close()


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_custom_tictactoe_status_is_one_line(profile, size) -> None:
    app = make_app(profile, size)
    try:
        scene = custom_tictactoe(app)
        app.step([])
        if not scene.show_hints:
            click_widget(app, "Hint")
        run_until(app, lambda: bool(scene.hints), 20)
        check_one_line(app, scene)
    finally:
        app.quit()
        app.stats.close()


def test_a_status_too_long_for_the_bar_is_shortened_at_a_word_with_the_whole_on_hover(
        profile) -> None:
    app = make_app(profile, (640, 480))
    try:
        scene = custom_tictactoe(app)
        long = ("Your turn — X to move: click an empty square. " * 4
                + "Grundy value 10)")
        scene.status._text = lambda: long
        app.step([])
        assert scene.status.shortened
        check_one_line(app, scene)
        assert not scene.status.drawn_lines[0].endswith(f"0){ELLIPSIS}")
    finally:
        app.quit()
        app.stats.close()


def test_status_shrinks_before_it_is_shortened(profile) -> None:
    """A text a little too long for size 20 is drawn whole at a smaller size."""
    app = make_app(profile, (960, 720))
    try:
        scene = custom_tictactoe(app)
        vp = app.viewport
        width = vp.map_rect(scene.status.rect).width
        font20 = app.theme.font(20 * vp.scale)
        words = []
        while font20.size(" ".join(words))[0] < width * 1.1:
            words.append("move")
        text = " ".join(words)
        scene.status._text = lambda: text
        app.step([])
        assert not scene.status.shortened and scene.status.drawn_lines == [text]
        assert pygame.Rect(text_rows(app, scene)[0], 0, 1, 1)  # drawn
    finally:
        app.quit()
        app.stats.close()
