"""How the Grundy screens feel: motion, last-move marks, layout at any window size, sounds.

Everything goes through the real app: real mouse and key events, real frames, pixels
read back from the screen.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pygame
import pytest

from engine.model.seats import Seat
from games.grundy.scene_board import GrundyBoardScene
from games.grundy.scene_graph import GraphScene, edge_path, point_along
from games.grundy.scenes import scene_for
from games.grundy.setup_scene import GrundySetupOverlay
from games.grundy.table_view import TableView
from games.grundy.variants import GrundySetup
from tests.conftest import click, click_widget, grid_centre, key, make_app, near, run_until

HUMANS = (Seat(), Seat())
PERFECT = Seat("computer", "perfect")
COMPUTERS = (Seat("computer", "perfect"), Seat("computer", "easy"))
SIZES = ((640, 480), (960, 720), (1920, 1080), (1080, 1920))
PALETTES = ("default", "colourblind")


def open_game(app, seats=HUMANS, **setup):
    scene = app.push(scene_for(app, GrundySetup(**setup), seats, seed=3))
    app.step([])
    return scene


def square(scene: GrundyBoardScene, row: int, col: int) -> tuple[float, float]:
    """Design-space centre of a board square, from the scene's layout."""
    return grid_centre(tuple(scene.layout()["board"]), scene.config.rows, scene.config.cols,
                       row, col)


def settle(app, scene) -> None:
    """Run frames until every animation has played out, then draw once more."""
    for _ in range(100):
        if not scene.anim.active:
            break
        app.step([], dt=0.05)
    assert not scene.anim.active
    app.step([], dt=0.0)


def finish(app, scene) -> None:
    """End the animations and draw a frame without letting time pass (so a computer
    seat does not answer yet)."""
    scene.anim.finish_all()
    app.step([], dt=0.0)


def pixels(app, rect: pygame.Rect) -> np.ndarray:
    """The screen's RGB pixels in ``rect`` (columns first, as pygame stores them)."""
    rect = rect.clip(app.screen.get_rect())
    return pygame.surfarray.array3d(app.screen.subsurface(rect)).astype(int)


def colour_count(app, rect: pygame.Rect, colour, tol: int = 14) -> int:
    """How many pixels in ``rect`` are within ``tol`` of ``colour``."""
    diff = np.abs(pixels(app, rect) - np.array(colour)).max(axis=2)
    return int((diff <= tol).sum())


def ring_samples(app, centre, radius: float, colour, count: int = 72,
                 band: int = 6) -> list[bool]:
    """Whether each of ``count`` directions from ``centre`` meets ``colour`` within ``band``
    pixels inside ``radius`` (a ring's pattern: all True solid, alternating dashed)."""
    out = []
    for i in range(count):
        a = 2 * math.pi * i / count
        hit = False
        for r in range(max(1, round(radius) - band), round(radius) + 1):
            pos = (round(centre[0] + r * math.cos(a)), round(centre[1] + r * math.sin(a)))
            hit = hit or near(app.screen.get_at(pos), colour, 14)
        out.append(hit)
    return out


def run_across(app, cell: pygame.Rect, colour) -> list[int]:
    """Lengths of the runs of ``colour`` met going right along the middle of ``cell``'s
    left third (a frame's left side, before the token)."""
    runs, length = [], 0
    for x in range(cell.left, cell.left + cell.width // 3):
        if near(app.screen.get_at((x, cell.centery)), colour, 14):
            length += 1
        elif length:
            runs.append(length)
            length = 0
    return runs + ([length] if length else [])


def use_palette(app, name: str) -> None:
    app.theme.set_palette(name)
    app.step([])


# --- (a) motion -------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_moved_token_slides_and_a_click_finishes_it_at_once(app) -> None:
    scene = open_game(app, game="rook", rows=8, cols=8)
    final_board = scene.area("board")
    assert scene.state.tokens == ((7, 6),)  # the fair start, next to the lost corner
    click(app, *square(scene, 7, 2))  # the rook slides four squares left
    assert scene.state.tokens == ((7, 2),)
    assert scene.anim.running("slide") == [("slide", 0)]
    assert scene.anim.data(("slide", 0)) == ((7, 6), (7, 2))
    assert 0 < scene.anim.progress(("slide", 0)) < 0.5
    moving = pixels(app, final_board)
    # Mid-slide the rook is between the squares: not yet on its new one.
    settle(app, scene)
    still = pixels(app, final_board)
    assert (moving != still).any(axis=2).sum() > 200
    # A click during a slide finishes it and plays on the real position: Player 2 slides
    # the rook up to (4, 2); while it slides Player 1 moves it on from there to (3, 2).
    click(app, *square(scene, 4, 2))
    assert scene.state.tokens == ((4, 2),) and scene.anim.active
    click(app, *square(scene, 3, 2))
    assert scene.state.tokens == ((3, 2),) and scene.state.current_player() == 1
    assert scene.anim.data(("slide", 0)) == ((4, 2), (3, 2))  # the new slide only
    key(app, pygame.K_RIGHT)  # a key press finishes it too
    assert not scene.anim.active


def test_only_the_token_that_moved_slides(app) -> None:
    scene = open_game(app, game="queen", rows=6, cols=6, tokens=2)
    click(app, *square(scene, 3, 3))  # token 1 (selected) moves diagonally
    assert scene.anim.running("slide") == [("slide", 0)]


@pytest.mark.slow
def test_taken_pebbles_fade_out_in_place(app) -> None:
    scene = open_game(app, game="nim")  # heaps 3, 5, 7
    pile = scene.piles()[2]
    click(app, *pile.centre(4))  # takes the top three of C
    assert scene.state.heaps == (3, 5, 4)
    assert scene.anim.running("fade") == [("fade", 2)]
    assert scene.anim.data(("fade", 2)) == (4, 7)
    vp = app.viewport
    top = vp.point(*pile.centre(6))  # the top pebble (the "−3" tag sits on the middle one)
    fading = tuple(app.screen.get_at(top))[:3]
    settle(app, scene)
    gone = tuple(app.screen.get_at(top))[:3]
    # Mid-fade the pebble is still almost its stone colour; then only its socket is left.
    assert sum(abs(a - b) for a, b in zip(fading, gone, strict=True)) > 120
    assert not near(gone, fading, 40)
    # A click while pebbles fade ends the fade and takes from the real heaps.
    click(app, *scene.piles()[1].centre(3))  # Player 2 takes 2 from B
    assert scene.anim.running("fade") == [("fade", 1)]
    click(app, *scene.piles()[0].centre(0))  # at once Player 1 empties A
    assert scene.state.heaps == (0, 3, 4)
    assert scene.anim.running("fade") == [("fade", 0)]


@pytest.mark.slow
def test_the_graph_token_slides_along_the_arrow(app) -> None:
    scene = open_game(app, game="graph")
    start = scene.state.node
    target = scene.graph.edges[start][0]
    radius, centres = scene.geometry()
    click(app, *centres[target])
    assert scene.state.node == target
    assert scene.anim.data("slide") == (start, target)
    on_the_way = scene.token_point()
    assert math.dist(on_the_way, centres[start]) > 1
    assert math.dist(on_the_way, centres[target]) > radius  # not there yet
    moving = pixels(app, scene.area("board"))
    settle(app, scene)
    assert scene.token_point() == centres[target]
    assert (moving != pixels(app, scene.area("board"))).any(axis=2).sum() > 200
    # A click while the token slides ends the slide and moves on from where it really is.
    after = scene.graph.edges[target][0]
    click(app, *centres[after])
    assert scene.state.node == after and scene.anim.data("slide") == (target, after)
    last = scene.graph.edges[after]
    if last:
        click(app, *centres[last[0]])
        assert scene.state.node == last[0] and scene.anim.data("slide") == (after, last[0])


def test_reduce_motion_starts_no_track(app) -> None:
    app.settings.set("reduce_motion", True)
    board = open_game(app, game="king")
    click(app, *square(board, 6, 6))
    assert board.state.tokens == ((6, 6),) and board.anim.running() == []
    app.pop()
    heaps = open_game(app, game="nim")
    click(app, *heaps.piles()[0].centre(0))
    assert heaps.state.heaps == (0, 5, 7) and heaps.anim.running() == []
    app.pop()
    graph = open_game(app, game="graph")
    click(app, *graph.geometry()[1][graph.graph.edges[graph.state.node][0]])
    assert graph.history.index == 1 and graph.anim.running() == []


# --- (b) last-move marks ------------------------------------------------------------------------


def landing_and_ghost(app, scene: GrundyBoardScene, new, old) -> tuple[list[int], list[bool]]:
    """The frame's runs across the landing square's left side, and the ring pattern on the
    square the token left."""
    focus = app.theme.palette.focus
    geom = scene.geometry()
    ring = ring_samples(app, geom.cell_center(*old), geom.cell_size * 0.36, focus)
    return run_across(app, geom.cell_rect(*new), focus), ring


@pytest.mark.slow
@pytest.mark.parametrize("palette", PALETTES)
def test_a_human_move_is_marked_by_a_frame_and_a_dashed_ghost(app, palette) -> None:
    use_palette(app, palette)
    scene = open_game(app, game="king")
    geom = scene.geometry()
    p = app.theme.palette
    (target,) = run_across(app, geom.cell_rect(6, 6), p.focus)  # a target's thin outline
    assert not any(ring_samples(app, geom.cell_center(7, 7), geom.cell_size * 0.36, p.focus))
    click(app, *square(scene, 6, 6))
    settle(app, scene)
    (framed,), ring = landing_and_ghost(app, scene, (6, 6), (7, 7))
    assert framed >= 2 * target  # a thick frame, not the thin outline of a target
    # ... with a dark edge on both sides, readable on any square.
    cell = geom.cell_rect(6, 6)
    row = [tuple(app.screen.get_at((x, cell.centery)))[:3] for x in range(cell.x, cell.centerx)]
    first = next(i for i, c in enumerate(row) if near(c, p.focus, 14))
    assert near(row[first - 1], p.background, 14) and near(row[first + framed], p.background, 14)
    # The ghost where the king stood is dashed: dashes and gaps round the circle.
    assert 0.25 < sum(ring) / len(ring) < 0.8
    # Whose move: Player 1's number tag, in Player 1's colour, at the frame's corner.
    corner = geom.cell_rect(6, 6)
    corner = pygame.Rect(corner.x, corner.y, corner.w // 3, corner.h // 3)
    assert colour_count(app, corner, app.theme.palette.players[0]) > 20


@pytest.mark.slow
@pytest.mark.parametrize("palette", PALETTES)
def test_the_computers_move_is_marked(app, palette) -> None:
    use_palette(app, palette)
    scene = open_game(app, (Seat(), PERFECT), game="king")
    click(app, *square(scene, 6, 7))
    run_until(app, lambda: scene.state.current_player() == 0)
    settle(app, scene)
    (new,) = scene.state.tokens
    assert scene.last_squares() == [(1, (6, 7), new)]
    (framed,), ring = landing_and_ghost(app, scene, new, (6, 7))
    cell = scene.geometry().cell_rect(*new)
    assert framed >= cell.w / 12  # a thick frame
    assert 0.25 < sum(ring) / len(ring) < 0.8
    corner = pygame.Rect(cell.x, cell.y, cell.w // 3, cell.h // 3)
    assert colour_count(app, corner, app.theme.palette.players[1]) > 20


def cvc_two_moves(app, scene) -> None:
    """Let the computers make two moves, then pause (P) so nothing else moves."""
    run_until(app, lambda: scene.history.index >= 2, timeout=20)
    if not scene.state.is_terminal():
        key(app, pygame.K_p)
        assert scene.paused
    finish(app, scene)
    if app.top is not scene:  # the game ended and its result is shown: look at the board
        key(app, pygame.K_ESCAPE)
    assert app.top is scene


@pytest.mark.slow
def test_each_computers_last_move_is_marked_on_the_board(app) -> None:
    scene = open_game(app, COMPUTERS, game="rook", rows=12, cols=12)
    cvc_two_moves(app, scene)
    marks = scene.last_squares()
    assert [player for player, _old, _new in marks] == [0, 1]
    p = app.theme.palette
    geom = scene.geometry()
    for player, _old, new in marks:
        cell = geom.cell_rect(*new)
        assert colour_count(app, cell, p.focus) > cell.w, (player, new)
        corner = pygame.Rect(cell.x, cell.y, cell.w // 3, cell.h // 3)
        assert colour_count(app, corner, p.players[player]) > 15, (player, new)


@pytest.mark.slow
@pytest.mark.parametrize("palette", PALETTES)
def test_the_last_take_is_marked_on_its_heap(app, palette) -> None:
    use_palette(app, palette)
    scene = open_game(app, (Seat(), PERFECT), game="nim")
    vp, p = app.viewport, app.theme.palette
    piles = scene.piles()
    under = [vp.point(piles[i].left + piles[i].width / 2, piles[i].base + 3) for i in range(3)]
    assert not any(near(app.screen.get_at(u), p.focus, 14) for u in under)
    click(app, *piles[1].centre(2))  # the human takes 3 from B
    finish(app, scene)
    assert scene.taken_marks() == [(0, 1, 2, 5)]
    assert near(app.screen.get_at(under[1]), p.focus, 14)  # the bar under heap B
    # The emptied sockets are ringed, and the "−3" tag stands clear of them, beside the
    # pile (its place: scene.tag_rects, checked against every ring in the playtest tests).
    radius = round(piles[1].cell * 0.44 * vp.scale)
    for j in (2, 3, 4):
        x, y = vp.point(*piles[1].centre(j))
        assert any(near(app.screen.get_at((x + dx, y)), p.focus, 14)
                   for dx in range(round(radius * 0.5), radius + 1)), j
    (tag,) = scene.tag_rects[1]
    assert colour_count(app, tag, p.focus) > 40
    # The computer's answer is marked the same way on its heap.
    run_until(app, lambda: scene.state.current_player() == 0)
    settle(app, scene)
    ((player, heap, first, end),) = scene.taken_marks()
    assert player == 1 and end - first >= 1
    assert near(app.screen.get_at(under[heap]), p.focus, 14)


@pytest.mark.slow
def test_each_computers_last_take_is_marked(app) -> None:
    scene = open_game(app, COMPUTERS, game="nim", nim=4)  # heaps 1, 3, 5, 7, 9
    cvc_two_moves(app, scene)
    marks = scene.taken_marks()
    assert [m[0] for m in marks] == [0, 1]
    vp, p = app.viewport, app.theme.palette
    for player, heap, _first, _end in marks:
        pile = scene.piles()[heap]
        assert near(app.screen.get_at(vp.point(pile.left + pile.width / 2, pile.base + 3)),
                    p.focus, 14)
        # With two marks each "−n" tag carries its player's number in the player's colour.
        assert any(colour_count(app, tag, p.players[player]) > 15
                   for tag in scene.tag_rects[heap]), (player, heap)


def graph_mark_checks(app, scene: GraphScene, player: int, a: int, b: int) -> None:
    """The move a → b is marked: a dashed ring round a and ``player``'s tag on the arrow."""
    vp, p = app.viewport, app.theme.palette
    radius, centres = scene.geometry()
    ring = ring_samples(app, vp.point(*centres[a]), radius * vp.scale + vp.px(8), p.focus)
    assert 0.25 < sum(ring) / len(ring) < 0.8, (a, b)
    path = edge_path(centres[a], centres[b], radius, a in scene.graph.edges[b])
    x, y = vp.point(*point_along(path, 0.5))
    assert colour_count(app, pygame.Rect(x - 6, y - 6, 12, 12), p.players[player]) > 30, (a, b)


@pytest.mark.slow
@pytest.mark.parametrize("palette", PALETTES)
def test_the_graph_marks_the_source_and_the_arrow_travelled(app, palette) -> None:
    use_palette(app, palette)
    scene = open_game(app, (Seat(), PERFECT), game="graph")
    vp, p = app.viewport, app.theme.palette
    radius, centres = scene.geometry()
    start = scene.state.node
    # Before any move the token's ring round the start is solid, not dashed.
    assert all(ring_samples(app, vp.point(*centres[start]), radius * vp.scale + vp.px(8),
                            p.focus))
    target = scene.graph.edges[start][0]
    click(app, *centres[target])
    finish(app, scene)
    graph_mark_checks(app, scene, 0, start, target)
    run_until(app, lambda: scene.history.index == 2 or scene.state.is_terminal())
    finish(app, scene)
    if app.top is not scene:  # the game is over and its result is shown: look at the board
        key(app, pygame.K_ESCAPE)
    assert app.top is scene
    if scene.history.index == 2:  # the computer's move is marked in turn
        _player, a, b = scene.last_move()
        graph_mark_checks(app, scene, 1, a, b)


@pytest.mark.slow
def test_each_computers_last_move_is_marked_on_the_graph(app) -> None:
    scene = open_game(app, COMPUTERS, game="graph")
    cvc_two_moves(app, scene)
    marks = scene.marked_edges()
    assert [m[0] for m in marks] == [0, 1]
    for player, a, b in marks:
        graph_mark_checks(app, scene, player, a, b)


# --- (c) layout at every window size -------------------------------------------------------


def visible_widget_rects(scene) -> list[tuple[str, pygame.Rect]]:
    vp = scene.app.viewport
    return [(getattr(w, "name", type(w).__name__), vp.map_rect(w.rect))
            for w in scene.ui.widgets if w.visible]


def assert_inside_and_apart(app, rects: list[tuple[str, pygame.Rect]], where: str) -> None:
    window = app.screen.get_rect()
    for name, rect in rects:
        assert window.contains(rect), f"{where}: {name} {rect} is outside {window}"
    for (a, ra), (b, rb) in combinations(rects, 2):
        assert not ra.colliderect(rb), f"{where}: {a} {ra} overlaps {b} {rb}"


SCREENS = [dict(game="king"), dict(game="queen", rows=32, cols=32, tokens=4),
           dict(game="bachet"), dict(game="bachet", heap=1000, max_take=100),
           dict(game="nim", nim=4), dict(game="graph", graph=3)]


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_grundy_screen_fits_the_window_without_overlaps(profile, size) -> None:
    app = make_app(profile, size)
    try:
        for setup in SCREENS:
            for seats in (HUMANS, COMPUTERS):
                scene = open_game(app, seats, **setup)
                scene.show_hints = True
                scene.paused = True  # the layout, not the game, is under test
                app.step([])
                where = f"{setup} {size} {'cvc' if seats is COMPUTERS else 'hvh'}"
                lay = scene.layout()
                regions = ["board", "extras", *(f"card{i}" for i in range(2))]
                if scene.all_computers():
                    regions.append("controls")
                region_rects = [(n, scene.area(n)) for n in regions]
                assert_inside_and_apart(app, region_rects, where)
                widgets = visible_widget_rects(scene)
                board = scene.area("board")
                for name, rect in widgets:
                    assert not rect.colliderect(board), f"{where}: {name} covers the board"
                toolbar = [(n, r) for n, r in widgets if scene.area("toolbar").contains(r)]
                assert_inside_and_apart(app, widgets, where)
                assert len(toolbar) >= 6, where  # Back, title, Undo, Redo, ?, Setup, ...
                # The game's own widgets and notes are in its extras box.
                extras = lay["extras"]
                assert extras.contains(lay["notes"]), where
                assert lay["notes"].h > 40, f"{where}: no room for the notes"
                for name in ("variant", "Place", "Table"):
                    if name in lay:
                        assert extras.contains(lay[name]), f"{where}: {name}"
                # Bachet's Take buttons are in a row under the heaps, not on them.
                if "take1" in lay:
                    assert lay["take1"].top >= lay["board"].bottom, where
                # Something was drawn on the board (not a blank window).
                assert colour_count(app, board, app.theme.palette.board, tol=0) > 0
                app.pop()
    finally:
        app.quit()
        app.stats.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_setup_and_table_overlays_fit_and_are_centred(profile, size) -> None:
    app = make_app(profile, size)
    try:
        scene = open_game(app, game="knight", rows=10, cols=12)
        area = app.viewport.area
        for opener, kind in ((lambda: key(app, pygame.K_s), GrundySetupOverlay),
                             (lambda: click_widget(app, "Table"), TableView)):
            opener()
            overlay = app.top
            assert isinstance(overlay, kind)
            panel = overlay.panel_rect()
            assert area.contains(panel), f"{kind.__name__} {size}: {panel} not in {area}"
            assert panel.w <= 800 and panel.h <= 600 or size != (640, 480)
            assert abs(panel.centerx - area.centerx) < 1 and abs(panel.centery - area.centery) < 1
            for game in (("bachet", "nim", "graph", "king") if kind is GrundySetupOverlay
                         else ("",)):
                if game:
                    click_widget(app, game)
                widgets = visible_widget_rects(overlay)
                assert_inside_and_apart(app, widgets, f"{kind.__name__} {game} {size}")
                screen_panel = app.viewport.map_rect(panel)
                for name, rect in widgets:
                    assert screen_panel.contains(rect), f"{kind.__name__} {size}: {name}"
            key(app, pygame.K_ESCAPE)
            assert app.top is scene
        if size == (1080, 1920):
            # The table uses a tall window: its heatmap is wider than in the smallest one.
            click_widget(app, "Table")
            assert app.top.parts()["heatmap"].w > 700
    finally:
        app.quit()
        app.stats.close()


@pytest.mark.slow
def test_the_board_grows_with_the_window(profile) -> None:
    sides = {}
    for size in SIZES:
        app = make_app(profile, size)
        try:
            scene = open_game(app, game="king")
            sides[size] = scene.layout()["board"].w
            # Clicks land on the same squares whatever the window.
            click(app, *square(scene, 6, 6))
            assert scene.state.tokens == ((6, 6),), size
        finally:
            app.quit()
            app.stats.close()
    assert sides[(1080, 1920)] > sides[(960, 720)] > sides[(640, 480)]


# --- (d) sounds ---------------------------------------------------------------------------


def test_each_screen_asks_for_its_sound(app) -> None:
    board = open_game(app, game="king")
    click(app, *square(board, 6, 6))
    assert app.audio.played[-1] == "slide"
    click(app, *square(board, 2, 2))  # not a king move
    assert app.audio.played[-1] == "illegal" and board.state.tokens == ((6, 6),)
    app.pop()
    heaps = open_game(app, game="bachet")
    click_widget(app, "Take 3")
    assert app.audio.played[-1] == "take"
    click(app, *heaps.piles()[0].centre(0))  # all 97: far more than 10
    assert app.audio.played[-1] == "illegal"
    app.pop()
    graph = open_game(app, game="graph")
    click(app, *graph.geometry()[1][graph.graph.edges[graph.state.node][0]])
    assert app.audio.played[-1] == "slide"


def test_the_computers_move_sounds_as_the_computer(app) -> None:
    scene = open_game(app, (Seat(), PERFECT), game="nim")
    click(app, *scene.piles()[2].centre(6))
    assert app.audio.played[-1] == "take"
    run_until(app, lambda: scene.state.current_player() == 0)
    assert app.audio.played[-1] == "computer"


def test_a_won_game_ends_with_the_winners_sound(app) -> None:
    scene = open_game(app, (Seat(), PERFECT), game="bachet", heap=3, max_take=3)
    click_widget(app, "Take 3")
    assert scene.state.is_terminal()
    assert app.audio.played[-2:] == ["take", "win"]
