"""The graph game's colours and legend (issue 12, items 9 and 10), through the real scene.

Every node's fill on screen must be in the legend, on a row whose meaning agrees with an
independent analysis of the graph; no fill means two things; a legal move's mark (a double
ring) looks like no value, in the default and the colour-blind palette, on every built-in
graph. Pixels are read off the screen: nothing here asks the scene what it meant to draw.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pygame
import pytest

from engine.model.seats import Seat
from engine.ui.theme import PALETTES
from games.grundy.colour_render import node_look, win_colour
from games.grundy.graphs import BUILTIN
from games.grundy.scene_graph import GraphScene
from games.grundy.scenes import scene_for
from games.grundy.variants import GrundySetup
from tests.conftest import key, make_app, near, wait_hints
from tests.support.oracles import retrograde

Colour = tuple[int, int, int]
MOVE_TEXT = "you can move here"
# Two colours closer than this (largest channel difference) would be taken for each other.
DISTINCT = 60


def open_graph(app, graph: int, palette: str, hints: bool = True) -> GraphScene:
    """The graph game on built-in ``graph`` between two humans, hints on (H) if asked."""
    app.theme.set_palette(palette)
    scene = app.push(scene_for(app, GrundySetup(game="graph", graph=graph), (Seat(), Seat()),
                               seed=1))
    app.step([])
    if hints:
        if not scene.show_hints:  # the setting outlives a scene: H only when it is off
            key(app, pygame.K_h)
        wait_hints(app, scene)
    return scene


def disc_mode(app, centre: tuple[int, int], radius: float) -> Colour:
    """The commonest screen colour within 0.85 ``radius`` of ``centre`` (a fill under its
    text, stripes and badges)."""
    cx, cy = centre
    reach = int(radius * 0.85)
    rect = pygame.Rect(cx - reach, cy - reach, 2 * reach + 1, 2 * reach + 1)
    rect = rect.clip(app.screen.get_rect())
    pix = pygame.surfarray.array3d(app.screen.subsurface(rect)).astype(int)
    xs, ys = np.meshgrid(np.arange(rect.w) + rect.x - cx, np.arange(rect.h) + rect.y - cy,
                         indexing="ij")
    inside = xs ** 2 + ys ** 2 <= reach ** 2
    counts = Counter(map(tuple, pix[inside].tolist()))
    return counts.most_common(1)[0][0]


def rect_mode(app, rect: pygame.Rect) -> Colour:
    """The commonest screen colour in ``rect`` shrunk away from its rounded ends."""
    inner = rect.inflate(-rect.h // 2, -rect.h // 3)
    pix = pygame.surfarray.array3d(app.screen.subsurface(inner)).astype(int)
    return Counter(map(tuple, pix.reshape(-1, 3).tolist())).most_common(1)[0][0]


def count_near(app, centre: tuple[int, int], radius: float, colour: Colour) -> int:
    """How many pixels within ``radius`` of ``centre`` are near ``colour``."""
    cx, cy = centre
    r = int(radius)
    n = 0
    for x in range(cx - r, cx + r + 1):
        for y in range(cy - r, cy + r + 1):
            if (x - cx) ** 2 + (y - cy) ** 2 <= r * r and near(app.screen.get_at((x, y)),
                                                               colour, 20):
                n += 1
    return n


def ring_runs(app, centre: tuple[int, int], start: float, reach: float, colour: Colour,
              count: int = 72) -> list[int]:
    """For each of ``count`` directions, how many separate runs of ``colour`` a ray from
    ``start`` to ``reach`` pixels out of ``centre`` crosses (2 for a double ring)."""
    out = []
    for i in range(count):
        a = 2 * math.pi * i / count
        runs, inside = 0, False
        for d in range(round(start), round(reach) + 1):
            pos = (round(centre[0] + d * math.cos(a)), round(centre[1] + d * math.sin(a)))
            hit = (app.screen.get_rect().collidepoint(pos)
                   and near(app.screen.get_at(pos), colour, 20))
            runs += hit and not inside
            inside = hit
        out.append(runs)
    return out


def distinct(a: Colour, b: Colour) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) > DISTINCT


def agrees(meaning: str, outcome: str) -> bool:
    """Whether a legend row's words say ``outcome`` for the player to move."""
    return {"loss": "loses" in meaning, "win": "wins" in meaning,
            "draw": "draw" in meaning and "wins" not in meaning}[outcome]


def node_fills(app, scene: GraphScene) -> list[Colour]:
    vp = app.viewport
    radius, centres = scene.geometry()
    return [disc_mode(app, vp.point(*c), radius * vp.scale) for c in centres]


def legend_value_samples(app, scene: GraphScene) -> list[tuple[Colour, str, pygame.Rect]]:
    """(colour on screen, row text, rect) of every value sample the legend drew."""
    out = []
    for rect, look, text in scene.legend_samples:
        if look is None:
            continue
        colour = (disc_mode(app, rect.center, rect.h / 2) if rect.w == rect.h
                  else rect_mode(app, rect))
        out.append((colour, text, rect))
    return out


# --- item 10: the legend matches what is drawn -----------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("palette", list(PALETTES))
@pytest.mark.parametrize("size", [(960, 720), (640, 480)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_node_fill_is_in_the_legend_with_its_true_meaning(profile, palette, size) -> None:
    app = make_app(profile, size)
    try:
        meaning_of: dict[Colour, str] = {}  # across every graph: a fill means one thing
        for index, graph in enumerate(BUILTIN):
            scene = open_graph(app, index, palette)
            outcomes = retrograde(graph)
            fills = node_fills(app, scene)
            samples = legend_value_samples(app, scene)
            assert samples, (graph.name, "no legend drawn")
            for u, fill in enumerate(fills):
                rows = [text for colour, text, _rect in samples if near(colour, fill, 6)]
                assert rows, (graph.name, graph.labels[u], fill, "not in the legend")
                assert all(agrees(text, outcomes[u]) for text in rows), (
                    graph.name, graph.labels[u], outcomes[u], rows)
                for known, meaning in meaning_of.items():
                    if near(known, fill, 6):
                        assert agrees(meaning, outcomes[u]), (graph.name, graph.labels[u])
                meaning_of[fill] = rows[0]
            # Nothing in the legend that no node shows.
            for colour, text, _rect in samples:
                assert any(near(colour, fill, 6) for fill in fills), (graph.name, text)
            # Rows of different meanings never share a fill.
            for (c1, t1, _r1) in samples:
                for (c2, t2, _r2) in samples:
                    if t1 != t2:
                        assert distinct(c1, c2), (graph.name, t1, t2)
            app.pop()
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


@pytest.mark.slow
@pytest.mark.parametrize("palette", list(PALETTES))
def test_lost_nodes_and_their_legend_sample_are_striped(app, palette) -> None:
    """A loss is told by its stripes as well as its fill; nothing else is striped."""
    vp = app.viewport
    for index, graph in enumerate(BUILTIN):
        scene = open_graph(app, index, palette)
        bad = app.theme.palette.bad
        outcomes = retrograde(graph)
        radius, centres = scene.geometry()
        for u, c in enumerate(centres):
            stripes = count_near(app, vp.point(*c), radius * vp.scale * 0.8, bad)
            assert (stripes > 20) == (outcomes[u] == "loss"), (graph.name, graph.labels[u])
        for _colour, text, rect in legend_value_samples(app, scene):
            stripes = count_near(app, rect.center, rect.h / 2 - 1, bad)
            assert (stripes > 3) == ("loses" in text), (graph.name, text)
        app.pop()


def test_the_legend_follows_the_hint_toggle(app) -> None:
    """Without hints the legend explains only the legal-move ring; H adds the values."""
    scene = open_graph(app, 1, "default", hints=False)
    assert [text for _r, _look, text in scene.legend_samples] == [MOVE_TEXT]
    key(app, pygame.K_h)
    wait_hints(app, scene)
    texts = [text for _r, _look, text in scene.legend_samples]
    assert MOVE_TEXT in texts and any("loses" in t for t in texts)
    assert any("draw" in t for t in texts)  # the whirlpool draws
    key(app, pygame.K_h)
    app.step([])
    assert [text for _r, _look, text in scene.legend_samples] == [MOVE_TEXT]


# --- item 9: a legal move looks like no value -------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("palette", list(PALETTES))
def test_the_legal_move_mark_differs_from_every_value_look(app, palette) -> None:
    vp = app.viewport
    for index, graph in enumerate(BUILTIN):
        scene = open_graph(app, index, palette)
        p = app.theme.palette
        radius, centres = scene.geometry()
        r = radius * vp.scale
        targets = set(scene.targets())
        assert targets, graph.name
        fills = node_fills(app, scene)
        for u, c in enumerate(centres):
            runs = ring_runs(app, vp.point(*c), r + 1, r + vp.px(12), p.accent)
            doubled = sum(n >= 2 for n in runs) / len(runs)
            if u in targets:
                # Most directions: the value's tag, the ✓ and arrows cover the rest.
                assert doubled > 0.6, (graph.name, graph.labels[u], doubled)
            else:
                assert doubled < 0.1, (graph.name, graph.labels[u], doubled)
            # The mark's colour is no value's fill.
            assert distinct(fills[u], p.accent), (graph.name, graph.labels[u], fills[u])
        # The legend's sample of the mark is the same double ring in the same colour.
        (rect,) = [rect for rect, look, text in scene.legend_samples if text == MOVE_TEXT]
        sample_r = vp.px(8)
        runs = ring_runs(app, rect.center, sample_r + 1, rect.h / 2 + 1, p.accent)
        assert sum(n >= 2 for n in runs) / len(runs) > 0.7, graph.name
        app.pop()


@pytest.mark.parametrize("palette", list(PALETTES))
@pytest.mark.parametrize("top", range(1, 13))
def test_no_value_fill_is_a_mark_colour(palette, top) -> None:
    """On any graph (largest value ``top``), a value's fill is far from the colours of the
    marks drawn over nodes: legal moves and the token, the ✓, a loss's stripes and the grey
    of ∞; and every value has its own fill."""
    p = PALETTES[palette]
    marks = {"accent": p.accent, "focus": p.focus, "good": p.good, "bad": p.bad,
             "muted": p.muted, "neutral": p.neutral}
    looks = [node_look(v, False, top, p) for v in range(top + 1)]
    looks.append(node_look(None, False, top, p))  # ∞ with a 0 next door: a win
    for look in looks:
        for name, colour in marks.items():
            assert distinct(look.fill, colour), (look.tag, name)
    fills = [look.fill for look in looks]
    assert len(set(fills)) == len(fills)
    # Larger values are lighter, so order reads without hue.
    lightness = [sum(win_colour(v, top)) for v in range(1, top + 1)]
    assert lightness == sorted(lightness)


@pytest.mark.slow
def test_no_move_rings_while_a_computer_is_to_move(app) -> None:
    """The double ring says "you can move here": a paused computer-against-computer game
    shows none, and the same graph with a human to move shows them."""
    vp = app.viewport
    perfect = Seat("computer", "perfect")
    scene = app.push(scene_for(app, GrundySetup(game="graph", graph=1), (perfect, perfect),
                               seed=1))
    key(app, pygame.K_SPACE)  # pause before the computer moves on
    assert scene.paused and scene.computer_to_move()
    app.step([])
    accent = app.theme.palette.accent

    def rings() -> int:
        radius, centres = scene.geometry()
        r = radius * vp.scale
        return sum(sum(n >= 2 for n in ring_runs(app, vp.point(*c), r + 1, r + vp.px(12),
                                                  accent)) > 36 for c in centres)

    assert scene.targets() and rings() == 0
    app.pop()
    scene = open_graph(app, 1, "default", hints=False)
    assert rings() == len(scene.targets()) > 0
