"""The game screen's layout arithmetic (engine/ui/game_layout.py), checked over many shapes."""

from __future__ import annotations

import itertools

import pytest
from pygame import FRect

from engine.ui.game_layout import (
    BUTTON_H,
    CARD_H,
    CONTROLS_H,
    STATUS_H,
    TOOLBAR_H,
    Tool,
    bars,
    split_body,
    toolbar,
)
from engine.ui.viewport import MIN_WINDOW, Viewport

WINDOWS = [MIN_WINDOW, (800, 600), (960, 720), (1280, 720), (1920, 1080), (1080, 1920),
           (700, 1400), (2560, 600), (640, 1600)]
TOOLS_RIGHT = [Tool("Setup", 84), Tool("Hint", 80), Tool("New game", 120), Tool("Undo", 80),
               Tool("Redo", 80), Tool("?", 44)]


def inside(inner: FRect, outer: FRect, slack: float = 1e-6) -> bool:
    return (inner.left >= outer.left - slack and inner.top >= outer.top - slack
            and inner.right <= outer.right + slack and inner.bottom <= outer.bottom + slack)


def overlap(a: FRect, b: FRect) -> bool:
    """Strict overlap: sharing an edge is fine."""
    return (min(a.right, b.right) - max(a.left, b.left) > 1e-6
            and min(a.bottom, b.bottom) - max(a.top, b.top) > 1e-6)


@pytest.mark.parametrize("window", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_bars_stack_toolbar_body_status_exactly(window) -> None:
    area = Viewport.fit(window).area
    top, body, status = bars(area)
    assert top.h == TOOLBAR_H and status.h == STATUS_H
    # FRect holds 32-bit floats: equal to within a thousandth of a unit.
    assert top.top == pytest.approx(area.top, abs=1e-3)
    assert status.bottom == pytest.approx(area.bottom, abs=1e-3)
    assert top.bottom == pytest.approx(body.top, abs=1e-3)
    assert body.bottom == pytest.approx(status.top, abs=1e-3)
    assert top.w == body.w == status.w == area.w


@pytest.mark.parametrize("window", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_toolbar_buttons_fit_in_order_without_overlap(window) -> None:
    area = Viewport.fit(window).area
    rects, title = toolbar(area, [Tool("Back", 100)], TOOLS_RIGHT)
    band = bars(area)[0]
    order = ["Back", "title", *(t.name for t in TOOLS_RIGHT)]
    placed = {**rects, "title": title}
    for name in order:
        assert inside(placed[name], band), (name, placed[name], band)
        assert placed[name].h == BUTTON_H
    for a, b in itertools.pairwise(order):
        assert placed[a].right <= placed[b].left + 1e-6, (a, b)  # left to right, no overlap
    # The right group ends at the right edge whatever the width: wide windows use their room.
    assert area.right - placed["?"].right == pytest.approx(16)
    assert title.w >= 90  # the title always keeps readable room


def test_toolbar_narrows_buttons_only_when_the_title_would_be_squeezed() -> None:
    wide = FRect(0, 0, 1280, 720)
    rects, _title = toolbar(wide, [Tool("Back", 100)], TOOLS_RIGHT)
    assert rects["New game"].w == 120  # room enough: preferred widths
    narrow = FRect(0, 0, 700, 600)
    rects, title = toolbar(narrow, [Tool("Back", 100)], TOOLS_RIGHT)
    assert rects["New game"].w < 120
    assert rects["New game"].w >= 0.6 * 120
    assert title.w >= 90


@pytest.mark.parametrize("window", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seats,controls", [(2, False), (2, True), (3, True)])
@pytest.mark.parametrize("extras_h", [60.0, 300.0])
def test_body_parts_stay_inside_and_apart(window, seats, controls, extras_h) -> None:
    body = bars(Viewport.fit(window).area)[1]
    lay = split_body(body, seats, extras_h, controls=controls)
    parts = {"board": lay.board, "extras": lay.extras,
             **{f"card{i}": c for i, c in enumerate(lay.cards)}}
    if controls:
        parts["controls"] = lay.controls
        assert lay.controls.h == CONTROLS_H
    assert lay.board.w == lay.board.h > 200, lay.board  # a square board with real room
    for name, rect in parts.items():
        assert inside(rect, body), (name, rect, body)
    for (a, ra), (b, rb) in itertools.combinations(parts.items(), 2):
        assert not overlap(ra, rb), (a, ra, b, rb)
    assert all(c.h == CARD_H for c in lay.cards)
    assert lay.extras.h >= extras_h - 1e-6


def test_wide_windows_put_the_panel_beside_and_tall_ones_below() -> None:
    wide = bars(Viewport.fit((1920, 1080)).area)[1]
    tall = bars(Viewport.fit((1080, 1920)).area)[1]
    lay_wide = split_body(wide, 2, 300)
    lay_tall = split_body(tall, 2, 300)
    assert lay_wide.beside and not lay_tall.beside
    assert lay_wide.cards[0].right <= lay_wide.board.left <= lay_wide.board.right \
        <= lay_wide.extras.left
    assert lay_tall.board.bottom <= lay_tall.cards[0].top
    # The board takes the room the shape gives: more than the 4:3 picture's 560 units.
    assert lay_tall.board.w > 800
    assert lay_wide.board.h > 550


def test_the_arrangement_chosen_gives_the_bigger_board() -> None:
    chose = set()
    for w, h in itertools.product(range(800, 2400, 160), range(600, 2400, 160)):
        body = bars(FRect(0, 0, w, h))[1]
        auto = split_body(body, 2, 300, controls=True)
        candidates = [split_body(body, 2, 300, controls=True, arrangement=shape)
                      for shape in ("beside", "below")]
        fitting = [c for c in candidates
                   if all(inside(r, body) for r in (c.board, c.extras, c.controls, *c.cards))]
        assert auto.board.w == max(c.board.w for c in fitting), (w, h)
        chose.add(auto.beside)
    assert chose == {True, False}  # both shapes occur over the range


@pytest.mark.parametrize("window", [MIN_WINDOW, (960, 720), (1920, 1080)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_game_toolbar_reads_back_then_game_tools_then_new_undo_redo_help(profile, window) -> None:
    from engine.model.registry import find_game
    from tests.conftest import make_app

    app = make_app(profile, window)
    try:
        scene = app.push(find_game("connect4").open_scene(app, None))
        app.step([])
        order = ["Back", "Setup", "Hint", "New game", "Undo", "Redo", "?"]
        rects = [app.viewport.map_rect(scene.ui.find(name).rect) for name in order]
        assert all(a.right <= b.left for a, b in itertools.pairwise(rects)), order
        assert rects[-1].right <= window[0] and rects[0].left >= 0
    finally:
        app.quit()
        app.stats.close()
