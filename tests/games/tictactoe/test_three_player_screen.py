"""Issue 28's three-player tic-tac-toe findings through the real scene: the Hint toggle it
cannot use shows no tick, pressing H tells why without covering the status line, and the
last-move frames mark the moves since your turn under a legend that says what they mean."""

from __future__ import annotations

import pygame
import pytest

from engine.model.seats import Seat
from engine.ui.toasts import toast_column
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import click, grid_centre, key, make_app, near

THREE = (Seat(), Seat(), Seat())
SIZES = [(640, 480), (800, 600), (960, 720), (1280, 800), (1920, 1080), (1080, 1920)]


def open_three(app, hints_remembered: bool = True) -> TicTacToeScene:
    # Hints switched on in a two-player game are remembered for every game.
    app.settings.set("show_hints", hints_remembered)
    scene = app.push(TicTacToeScene(app, MNKConfig(4, 4, 3, players=3), THREE, seed=1))
    app.step([])
    return scene


def play(app, scene, *cells) -> None:
    for cell in cells:
        click(app, *grid_centre(tuple(scene.layout()["board"]), 4, 4, *cell))
    scene.anim.finish_all()
    app.step([], dt=0.0)


def test_the_hint_toggle_it_cannot_use_shows_no_tick(app) -> None:
    scene = open_three(app)
    assert scene.show_hints  # the remembered choice is still on ...
    hint = scene.ui.find("Hint")
    assert not hint.enabled
    assert not hint.selected  # ... but a disabled toggle does not show as chosen
    # The caption drawn is "Hint", not "✓ Hint", and no chosen-button tint is drawn.
    font_w = hint.caption_box.width
    app.settings.set("show_hints", False)
    app.pop()
    plain = open_three(app, hints_remembered=False)
    assert plain.ui.find("Hint").caption_box.width == font_w
    rect = hint.screen_rect(app.viewport)
    tint = app.theme.palette.selected
    tinted = sum(near(app.screen.get_at((x, rect.centery)), tint, 4)
                 for x in range(rect.left + 4, rect.right - 4))
    assert tinted == 0


@pytest.mark.parametrize("size", SIZES)
def test_pressing_h_tells_why_without_covering_the_status_line(profile, size) -> None:
    app = make_app(profile, size)
    try:
        scene = open_three(app)
        key(app, pygame.K_h)
        app.step([], dt=0.2)
        assert "two-player" in app.notices[-1]
        (_toast, rect), = app.toasts.placed
        for part in ("status_bar", "toolbar", "board"):
            assert not rect.colliderect(scene.area(part)), (part, rect, scene.area(part))
        assert app.screen.get_rect().contains(rect)
        # The status line's text is still drawn in full (its pixels differ from the bar's).
        status = scene.area("status_bar")
        bar = app.theme.palette.panel
        inked = sum(not near(app.screen.get_at((x, status.centery)), bar, 20)
                    for x in range(status.left, status.right))
        assert inked > 20
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


def test_the_toast_column_keeps_off_the_status_bar_however_short_the_band() -> None:
    from pygame import FRect

    area, toolbar = FRect(0, 0, 960, 720), FRect(0, 0, 960, 64)
    status = FRect(0, 664, 960, 56)
    for board_bottom in (500.0, 600.0, 643.0, 660.0):
        board = FRect(220, 85, 558, board_bottom - 85)
        column = toast_column(area, toolbar, board, status)
        assert column.bottom <= status.top and column.h >= 42, (board_bottom, column)
        assert not column.colliderect(board) and not column.colliderect(toolbar)


def focus_hits(app, scene, cell) -> int:
    """Pixels of the focus colour along the left and right edges of ``cell`` (where the
    last-move frame, solid or dashed, is drawn; the mark in the middle is not looked at)."""
    box = scene.geometry().cell_rect(*cell).inflate(-4, -4)
    focus = app.theme.palette.focus
    edge = max(4, box.width // 8)
    return sum(near(app.screen.get_at((x, y)), focus, 20)
               for y in range(box.top, box.bottom)
               for x in (*range(box.left, box.left + edge), *range(box.right - edge, box.right)))


@pytest.mark.parametrize("size", [(640, 480), (960, 720), (1080, 1920)])
def test_the_moves_since_your_turn_are_framed_under_a_legend(profile, size) -> None:
    app = make_app(profile, size)
    try:
        scene = open_three(app, hints_remembered=False)
        # X, O, △, then X again: O is to move; its own move (1, 1) is not framed, △'s
        # (2, 2) is the move before the last (dashed) and X's (3, 0) the last (solid).
        play(app, scene, (0, 0), (1, 1), (2, 2), (3, 0))
        assert scene.state.to_move == 1
        assert focus_hits(app, scene, (1, 1)) == 0
        assert focus_hits(app, scene, (0, 0)) == 0  # X's older move neither
        assert focus_hits(app, scene, (2, 2)) > 0 and focus_hits(app, scene, (3, 0)) > 0
        assert sorted(scene.marked_moves()) == [(10, False), (12, True)]
        # The legend beside or under the board: both samples drawn in the focus colour,
        # inside the window and clear of the board.
        focus = app.theme.palette.focus
        samples = scene.marks_legend_rects
        assert len(samples) == 2
        for sample in samples:
            assert app.screen.get_rect().contains(sample)
            assert not sample.colliderect(scene.area("board"))
            hits = sum(near(app.screen.get_at((x, y)), focus, 20)
                       for x in range(sample.left, sample.right)
                       for y in range(sample.top, sample.bottom))
            assert hits > 0
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()
