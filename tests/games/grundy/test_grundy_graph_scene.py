"""Graph games through the real scene: moves along arrows, hints, the computer, repetition."""

from __future__ import annotations

import dataclasses
import math

import pygame
import pytest

import games.grundy.scene_graph as scene_graph
from engine.model.seats import Seat
from engine.model.values import Infinite, nimber_text
from games.grundy.graphs import BUILTIN, Digraph, GraphState, generalized_grundy, infinity_set
from games.grundy.scene_graph import GraphScene, graph_geometry
from games.grundy.scenes import scene_for
from games.grundy.variants import GrundySetup
from tests.conftest import click, click_widget, hover, key, run_until, wait_hints
from tests.support.oracles import retrograde

HUMANS = (Seat(), Seat())
PERFECT = Seat("computer", "perfect")

# a ⇄ b is a cycle with no way out; a → c → d leaves it, but c has value 1 (the
# opponent moves on to d and wins). So from a best play is the draw a → b.
# e → a, e → d: e wins by moving to d. f → e: f is lost.
SMALL = Digraph(name="Small test graph", labels=("a", "b", "c", "d", "e", "f"),
                edges=((1, 2), (0,), (3,), (), (0, 3), (4,)),
                layout=((0.1, 0.1), (0.9, 0.1), (0.1, 0.9), (0.5, 0.5), (0.9, 0.9), (0.5, 0.95)),
                start=0, description="Two nodes in a cycle and a way out.")




def use_graphs(monkeypatch: pytest.MonkeyPatch, *graphs: Digraph) -> None:
    """Make the scene's built-in list these graphs (set-up index 0, 1, …)."""
    monkeypatch.setattr(scene_graph, "BUILTIN", graphs)


def open_graph(app, seats=HUMANS, graph: int = 0, seed: int = 1) -> GraphScene:
    scene = app.push(scene_for(app, GrundySetup(game="graph", graph=graph), seats, seed=seed))
    assert isinstance(scene, GraphScene)
    app.step([])
    return scene


def node(scene: GraphScene, u: int) -> tuple[float, float]:
    """Design-space centre of node ``u``."""
    return scene.geometry()[1][u]


def cyclic_builtin() -> int:
    """Index of a built-in graph where best play from some node is a draw."""
    for i, graph in enumerate(BUILTIN):
        if "draw" in retrograde(graph):
            return i
    pytest.fail("no built-in graph has a drawn node")


# --- moves --------------------------------------------------------------------------------


def test_clicking_a_successor_moves_and_anything_else_does_nothing(app) -> None:
    scene = open_graph(app)  # two heaps of 2 and 3, start p2q3
    graph = scene.graph
    start = graph.start
    assert sorted(scene.targets()) == sorted(graph.edges[start])
    others = [u for u in range(graph.size) if u not in graph.edges[start] and u != start]
    for u in others:
        click(app, *node(scene, u))
    click(app, *node(scene, start))  # the token's own node is not a move either
    board = scene.layout()["board"]
    click(app, board.x + 4, board.bottom - 4)  # empty board
    assert scene.state.node == start and scene.state.current_player() == 0
    target = graph.edges[start][0]
    click(app, *node(scene, target))
    assert scene.state.node == target and scene.state.current_player() == 1
    assert scene.debug_state()["moves"] == 1


def test_keyboard_cycles_through_the_successors(app, monkeypatch) -> None:
    use_graphs(monkeypatch, SMALL)
    scene = open_graph(app)
    key(app, pygame.K_RIGHT)
    assert scene.pointed() == 1
    key(app, pygame.K_RIGHT)
    assert scene.pointed() == 2
    key(app, pygame.K_RIGHT)
    assert scene.pointed() == 1  # wraps round
    key(app, pygame.K_LEFT)
    key(app, pygame.K_RETURN)
    assert scene.state.node == 2


def test_reaching_a_dead_end_wins(app, monkeypatch) -> None:
    use_graphs(monkeypatch, SMALL)
    scene = open_graph(app)
    click(app, *node(scene, 2))  # Player 1: a → c
    click(app, *node(scene, 3))  # Player 2: c → d, where Player 1 cannot move
    assert scene.state.is_terminal() and scene.state.returns() == (-1.0, 1.0)
    assert scene.status_text().startswith("Player 2 wins: the token is on d")


def test_three_fold_repetition_is_a_draw(app, monkeypatch) -> None:
    use_graphs(monkeypatch, SMALL)
    scene = open_graph(app)
    for u in (1, 0, 1):
        click(app, *node(scene, u))
    assert "once more is a draw" in scene.status_text()
    click(app, *node(scene, 0))  # a with Player 1 to move, for the third time
    state = scene.state
    assert state.is_terminal() and state.returns() == (0.0, 0.0)
    assert scene.status_text().startswith("Draw: the position repeated three times")
    click(app, *node(scene, 1))  # the game is over: nothing moves
    assert scene.state is state
    rows = app.stats.game_summary()
    assert [(r.variant, r.mode, r.drawn) for r in rows] == [("graph-0", "human-human", 1)]


# --- hints --------------------------------------------------------------------------------


def test_hints_on_the_acyclic_builtin_are_nim_sums(app) -> None:
    scene = open_graph(app)
    graph = scene.graph
    key(app, pygame.K_h)
    wait_hints(app, scene)
    debug = scene.debug_state()
    # The labels piqj are two heaps of i and j: value i ⊕ j.
    expected = [int(lab[1]) ^ int(lab[3]) for lab in graph.labels]
    assert debug["hint_values"] == expected
    outcomes = retrograde(graph)
    # The start (heaps of 2 and 3) is won: the hint marks the moves to a 0.
    assert sorted(debug["winning"]) == sorted(scene.state.winning_moves()) == sorted(
        v for v in graph.edges[scene.state.node] if outcomes[v] == "loss")
    assert debug["winning"] and "Player 1 wins" in debug["status"]
    click(app, *node(scene, debug["winning"][0]))
    wait_hints(app, scene)
    debug = scene.debug_state()
    assert debug["winning"] == [] and "loses with best play" in debug["status"]


def test_hints_show_infinity_on_the_draw_nodes_of_a_cyclic_builtin(app) -> None:
    index = cyclic_builtin()
    scene = open_graph(app, graph=index)
    graph = scene.graph
    key(app, pygame.K_h)
    wait_hints(app, scene)
    values = scene.debug_state()["hint_values"]
    outcomes = retrograde(graph)
    for u in range(graph.size):
        if outcomes[u] == "draw":
            assert values[u] == "∞", graph.labels[u]
        elif outcomes[u] == "loss":
            assert values[u] == 0, graph.labels[u]
        else:  # a win: a number, or ∞ with a 0 one move away
            assert values[u] != 0
            assert values[u] != "∞" or any(values[v] == 0 for v in graph.edges[u])
    # The hint function's values carry the same labels the nodes show, ∞ with its K
    # (issue 33: a won ∞ node was "1" there); the summary says the token's own label.
    debug = scene.debug_state()
    labels = generalized_grundy(graph)
    assert debug["hint_nimbers"] == [
        [v, nimber_text(labels[v] if labels[v] is not None
                        else Infinite(infinity_set(graph, v)))]
        for v in graph.edges[scene.state.node]]
    assert debug["nimber"] == nimber_text(GraphState(graph, scene.state.node).nimber())
    assert any(text.startswith("∞₀") for _v, text in debug["hint_nimbers"]) or debug[
        "nimber"].startswith("∞₀")


def test_hints_mark_draw_moves_when_no_move_wins(app, monkeypatch) -> None:
    use_graphs(monkeypatch, SMALL)
    scene = open_graph(app)
    key(app, pygame.K_h)
    wait_hints(app, scene)
    debug = scene.debug_state()
    assert debug["hint_values"] == ["∞", "∞", 1, 0, 1, 0]
    assert debug["winning"] == [] and debug["draws"] == [1]
    assert "a draw with best play" in debug["status"]


def test_hint_and_token_are_drawn(app, monkeypatch) -> None:
    use_graphs(monkeypatch, SMALL)
    scene = open_graph(app)
    vp, p = app.viewport, app.theme.palette
    radius = scene.geometry()[0]

    def colour(u: int) -> tuple[int, int, int]:
        x, y = node(scene, u)
        return tuple(app.screen.get_at(vp.point(x, y + radius * 0.6)))[:3]

    assert colour(0) == p.accent  # the token's node
    assert colour(1) == p.panel
    key(app, pygame.K_h)
    wait_hints(app, scene)
    assert colour(1) == p.muted  # ∞: the draw colour (and the ∞ text)
    hover(app, *node(scene, 2))
    assert scene.pointed() == 2


# --- the computer ------------------------------------------------------------------------------


@pytest.mark.slow
def test_perfect_computer_moves_to_zero_from_every_winning_node(app, monkeypatch) -> None:
    graphs = [BUILTIN[0], SMALL]
    index = cyclic_builtin()
    if index:
        graphs.append(BUILTIN[index])
    for graph in graphs:
        values = generalized_grundy(graph)
        outcomes = retrograde(graph)
        for u in range(graph.size):
            if outcomes[u] != "win":
                continue
            use_graphs(monkeypatch, dataclasses.replace(graph, start=u))
            scene = open_graph(app, (PERFECT, Seat()), seed=u)
            run_until(app, lambda s=scene: s.state.current_player() == 1)
            assert values[scene.state.node] == 0, (graph.name, graph.labels[u])
            app.pop()


@pytest.mark.slow
def test_perfect_computer_prefers_a_draw_to_losing(app, monkeypatch) -> None:
    use_graphs(monkeypatch, SMALL)
    for seed in range(4):
        scene = open_graph(app, (PERFECT, Seat()), seed=seed)
        run_until(app, lambda s=scene: s.state.current_player() == 1)
        assert scene.state.node == 1  # a → b keeps the draw; a → c loses
        app.pop()
    graph = BUILTIN[cyclic_builtin()]
    outcomes = retrograde(graph)
    drawn = [u for u in range(graph.size) if outcomes[u] == "draw"]
    assert any(any(outcomes[v] == "win" for v in graph.edges[u]) for u in drawn)  # a real choice
    for u in drawn:
        use_graphs(monkeypatch, dataclasses.replace(graph, start=u))
        scene = open_graph(app, (PERFECT, Seat()), seed=u)
        run_until(app, lambda s=scene: s.state.current_player() == 1)
        assert outcomes[scene.state.node] == "draw", (graph.labels[u], scene.debug_state())
        app.pop()


@pytest.mark.slow
def test_undo_returns_to_the_human_turn(app, monkeypatch) -> None:
    use_graphs(monkeypatch, dataclasses.replace(SMALL, start=5))  # f → e, then e → d
    scene = open_graph(app, (Seat(), PERFECT))
    click(app, *node(scene, 4))
    run_until(app, lambda: scene.state.is_terminal())
    assert scene.state.node == 3 and scene.state.returns() == (-1.0, 1.0)
    click_widget(app, "Undo")
    assert scene.state.node == 5 and scene.state.current_player() == 0


@pytest.mark.slow
def test_every_builtin_graph_fits_the_board_without_overlaps(app) -> None:
    for i, graph in enumerate(BUILTIN):
        scene = open_graph(app, graph=i)
        x, y, w, h = board = tuple(scene.layout()["board"])
        radius, centres = graph_geometry(graph, board)
        for cx, cy in centres:
            assert x + radius <= cx <= x + w - radius and y + radius <= cy <= y + h - radius
        for a in range(graph.size):
            for b in range(a + 1, graph.size):
                assert math.dist(centres[a], centres[b]) > 2.4 * radius, (graph.name, a, b)
        scene.show_hints = True
        wait_hints(app, scene)  # draws with hints: no exception, every label shown
        assert len(scene.debug_state()["hint_values"]) == graph.size
        app.pop()
