"""Games on digraphs with cycles: the generalised Grundy labelling against brute force (SPEC §5)."""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine.model.rules import GameState, IllegalMove
from games.grundy.graphs import (
    BUILTIN,
    DRAW,
    DUGO,
    LOSS,
    ROUNDABOUT,
    WHIRLPOOL,
    WIN,
    Digraph,
    GraphState,
    generalized_grundy,
    generalized_grundy_with_counter,
    graph_remoteness,
    label_outcomes,
    retrograde_outcomes,
)
from games.grundy.impartial import ImpartialState

# --- helpers written from the definitions only -------------------------------------


def make_graph(edges: list[list[int]], start: int = 0) -> Digraph:
    n = len(edges)
    layout = tuple(((i + 0.5) / n, (i * 7 % n + 0.5) / n) for i in range(n))
    return Digraph("test", tuple(f"v{i}" for i in range(n)),
                   tuple(tuple(s) for s in edges), layout, start, "")


def mex(values) -> int:
    m = 0
    while m in values:
        m += 1
    return m


def brute_outcomes(graph: Digraph) -> tuple[list[str], list[int | None]]:
    """Outcome and remoteness by iterating "wins / loses within d moves" to a fixed point.

    L_d: every move (if any) goes into W_(d-1); W_d: some move goes into L_(d-1).
    A node's remoteness is the least d that puts it in L_d or W_d; nodes in
    neither for every d are draws.
    """
    n = graph.size
    won: list[int | None] = [None] * n
    lost: list[int | None] = [None] * n
    for u in range(n):
        if not graph.edges[u]:
            lost[u] = 0
    for d in range(1, 2 * n + 3):
        new_won, new_lost = list(won), list(lost)
        for u in range(n):
            succ = graph.edges[u]
            if won[u] is None and any(lost[v] is not None and lost[v] <= d - 1 for v in succ):
                new_won[u] = d
            if lost[u] is None and succ and all(won[v] is not None and won[v] <= d - 1
                                                for v in succ):
                new_lost[u] = d
        won, lost = new_won, new_lost
    outcomes = [WIN if won[u] is not None else LOSS if lost[u] is not None else DRAW
                for u in range(n)]
    return outcomes, [won[u] if won[u] is not None else lost[u] for u in range(n)]


def document_labelling(graph: Digraph, rng: random.Random) -> list[int | None]:
    """The document's §3.4 rule, applied in a random order until nothing changes.

    An unlabelled node gets n = the mex of its labelled successors if every
    unlabelled successor has a successor labelled n.
    """
    n = graph.size
    label: list[int | None] = [None] * n
    changed = True
    while changed:
        changed = False
        order = list(range(n))
        rng.shuffle(order)
        for u in order:
            if label[u] is not None:
                continue
            m = mex({label[v] for v in graph.edges[u] if label[v] is not None})
            if all(any(label[w] == m for w in graph.edges[v])
                   for v in graph.edges[u] if label[v] is None):
                label[u] = m
                changed = True
                break
    return label


def random_cyclic_graphs(count: int, seed: int) -> list[Digraph]:
    rng = random.Random(seed)
    graphs: list[Digraph] = []
    while len(graphs) < count:
        n = rng.randint(5, 12)
        p = rng.uniform(0.08, 0.4)
        edges = [[v for v in range(n) if rng.random() < (p if v != u else p / 4)]
                 for u in range(n)]
        g = make_graph(edges)
        if g.has_cycle():
            graphs.append(g)
    return graphs


RANDOM_GRAPHS = random_cyclic_graphs(320, seed=2024)


def finite_set(labels, succ) -> set[int]:
    return {labels[v] for v in succ if labels[v] is not None}


# --- the labelling ------------------------------------------------------------------


def check_labelling(graph: Digraph) -> None:
    """Labels, outcomes and remoteness agree with brute force and retrograde analysis."""
    labels = generalized_grundy(graph)
    retro = retrograde_outcomes(graph)
    brute, brute_remote = brute_outcomes(graph)
    assert list(retro) == brute
    assert list(label_outcomes(graph)) == brute
    assert list(graph_remoteness(graph)) == brute_remote
    for u in range(graph.size):
        g = labels[u]
        state = GraphState(graph, u)
        # SPEC §5 reading, refined: 0 ⟺ loss; a finite non-zero label is a win;
        # ∞ is a draw unless a successor is 0.
        assert (g == 0) == (brute[u] == LOSS)
        if g is not None and g > 0:
            assert brute[u] == WIN
        if g is None:
            has_zero = 0 in finite_set(labels, graph.edges[u])
            assert brute[u] == (WIN if has_zero else DRAW)
        # The state's value keeps the protocol's promise: 0 loss, None draw, else win.
        v = state.value()
        assert (v == 0) == (brute[u] == LOSS)
        assert (v is None) == (brute[u] == DRAW)
        assert state.remoteness() == brute_remote[u]
        for move in state.winning_moves():
            assert brute[move] == LOSS


def check_fraenkel_conditions(graph: Digraph) -> None:
    """The defining conditions of the generalised Sprague–Grundy function with counter."""
    labels, counter = generalized_grundy_with_counter(graph)
    for u, g in enumerate(labels):
        succ = graph.edges[u]
        if g is not None:
            # A: the mex of the successors' finite labels.
            assert g == mex(finite_set(labels, succ))
            assert counter[u] is not None
            # B: from any successor labelled higher or ∞ there is a way back to g,
            # to a node labelled earlier.
            for v in succ:
                if labels[v] is None or labels[v] > g:
                    assert any(labels[w] == g and counter[w] < counter[u]
                               for w in graph.edges[v]), (u, v)
        else:
            # C: some ∞ successor cannot reach the mex of u's finite successors.
            m = mex(finite_set(labels, succ))
            assert any(labels[v] is None and m not in finite_set(labels, graph.edges[v])
                       for v in succ), u


@pytest.mark.slow
def test_random_cyclic_graphs_agree_with_brute_force():
    assert len(RANDOM_GRAPHS) >= 300
    draws = infinite_wins = 0
    for graph in RANDOM_GRAPHS:
        check_labelling(graph)
        outcomes = label_outcomes(graph)
        labels = generalized_grundy(graph)
        draws += outcomes.count(DRAW)
        infinite_wins += sum(1 for u in range(graph.size)
                             if labels[u] is None and outcomes[u] == WIN)
    # The sample exercises every case, including ∞ nodes that are wins.
    assert draws > 100 and infinite_wins > 50


def test_random_cyclic_graphs_meet_the_definition():
    for graph in RANDOM_GRAPHS:
        check_fraenkel_conditions(graph)


def test_documents_any_order_rule_gives_the_same_labels():
    rng = random.Random(5)
    for graph in RANDOM_GRAPHS[:150]:
        assert tuple(document_labelling(graph, rng)) == generalized_grundy(graph)


def test_acyclic_graphs_get_the_plain_mex():
    rng = random.Random(11)
    for _ in range(200):
        n = rng.randint(1, 12)
        # Edges only to higher-numbered nodes: acyclic.
        edges = [[v for v in range(u + 1, n) if rng.random() < 0.35] for u in range(n)]
        graph = make_graph(edges)
        assert not graph.has_cycle()

        @cache
        def g(u: int, graph: Digraph = graph) -> int:
            return mex({g(v) for v in graph.edges[u]})

        assert generalized_grundy(graph) == tuple(g(u) for u in range(n))
        check_labelling(graph)


def test_hand_checked_examples():
    # u → t, u → x, x ⇄ y. t is terminal: 0. x and y only reach each other: ∞,
    # draws. u has successors 0 and ∞, and the ∞ one never reaches a 1, so u is
    # ∞ too — but a win: move to t.
    graph = make_graph([[1, 2], [], [3], [2]])
    assert generalized_grundy(graph) == (None, 0, None, None)
    assert label_outcomes(graph) == (WIN, LOSS, DRAW, DRAW)
    assert GraphState(graph, 0).value() == 1 and GraphState(graph, 0).grundy() is None
    assert GraphState(graph, 0).winning_moves() == [1]
    assert "wins" in GraphState(graph, 0).value_explained()
    assert GraphState(graph, 2).value_explained() == (
        "value ∞: a draw with best play (neither player can force a win)")
    # The Roundabout, by hand. Round 0: Home has no moves, 0. North's only move
    # is to East, which reaches Home (0), so North is 0; likewise South via West.
    # Round 1: East → {South 0, Home 0} and West → {North 0, Home 0} are 1.
    # Round 2: Gate → {North 0, West 1} is 2.
    labels = dict(zip(ROUNDABOUT.labels, generalized_grundy(ROUNDABOUT), strict=True))
    assert labels == {"Home": 0, "North": 0, "South": 0, "East": 1, "West": 1, "Gate": 2}


def test_dugo_has_the_documents_labels():
    labels = dict(zip(DUGO.labels, generalized_grundy(DUGO), strict=True))
    # Stated in the text: C = D = K = 0, G = E = A = 1, H = B = 2.
    assert {k: labels[k] for k in "CDKGEAHB"} == {
        "C": 0, "D": 0, "K": 0, "G": 1, "E": 1, "A": 1, "H": 2, "B": 2}
    # The text's facts about the edges it mentions.
    succ = {DUGO.labels[u]: {DUGO.labels[v] for v in DUGO.edges[u]} for u in range(DUGO.size)}
    assert [k for k, s in succ.items() if not s] == ["C"]
    assert succ["D"] == {"B", "E"} and succ["G"] == {"D"} and succ["K"] == {"G"}
    assert {"C", "H"} <= succ["E"] and {"G", "D"} <= succ["H"]
    assert "O" not in DUGO.labels and DUGO.has_cycle()
    assert DRAW not in label_outcomes(DUGO)


# --- built-in graphs -----------------------------------------------------------------


def reachable(graph: Digraph, start: int) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        for v in graph.edges[todo.pop()]:
            if v not in seen:
                seen.add(v)
                todo.append(v)
    return seen


def test_builtin_graphs():
    assert len(BUILTIN) >= 4
    assert len({g.name for g in BUILTIN}) == len(BUILTIN)
    for graph in BUILTIN:
        check_labelling(graph)
        check_fraenkel_conditions(graph)
        assert graph.description
        assert reachable(graph, graph.start) == set(range(graph.size)), graph.name
        assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in graph.layout)
    acyclic = [g for g in BUILTIN if not g.has_cycle()]
    with_draws = [g for g in BUILTIN if g.has_cycle() and DRAW in label_outcomes(g)]
    cyclic_no_draw = [g for g in BUILTIN if g.has_cycle() and DRAW not in label_outcomes(g)]
    assert acyclic and with_draws and cyclic_no_draw
    assert WHIRLPOOL in with_draws and ROUNDABOUT in cyclic_no_draw and DUGO in cyclic_no_draw
    # The Whirlpool shows a won ∞ node and a finite node on a cycle.
    w = dict(zip(WHIRLPOOL.labels, zip(generalized_grundy(WHIRLPOOL),
                                         label_outcomes(WHIRLPOOL), strict=True), strict=True))
    assert w["Eddy"] == (None, WIN) and w["Start"] == (None, WIN) and w["Pool"] == (0, LOSS)
    assert w["Rapids"] == (None, DRAW)


def test_heap_sum_graph_is_nim_addition():
    graph = next(g for g in BUILTIN if not g.has_cycle())
    for label, value in zip(graph.labels, generalized_grundy(graph), strict=True):
        i, j = int(label[1]), int(label[3])
        assert value == i ^ j


# --- the game -------------------------------------------------------------------------


def test_state_protocols_and_moves():
    state = GraphState.start(ROUNDABOUT)
    assert isinstance(state, GameState) and isinstance(state, ImpartialState)
    assert state.node == ROUNDABOUT.start and state.to_move == 0 and state.repetitions == 1
    assert sorted(state.legal_moves()) == sorted(ROUNDABOUT.edges[ROUNDABOUT.start])
    home = ROUNDABOUT.labels.index("Home")
    for bad in [home, -1, 99, "North", True, None]:
        with pytest.raises(IllegalMove):
            state.play(bad)
    north = ROUNDABOUT.labels.index("North")
    after = state.play(north)
    assert after.node == north and after.to_move == 1 and state.node == ROUNDABOUT.start
    assert state.value() == 2 and state.move_value(north) == 0
    assert state.winning_moves() == [north]
    assert state.value_explained().startswith("value 2 (mex of 0, 1): the player to move wins")
    assert "loses" in after.value_explained()


def test_stuck_player_loses():
    roundabout = ROUNDABOUT.labels
    state = GraphState(ROUNDABOUT, roundabout.index("East"), to_move=1)
    end = state.play(roundabout.index("Home"))
    assert end.is_terminal() and end.legal_moves() == []
    assert end.returns() == (-1.0, 1.0)  # player 0 is stuck at Home and loses
    assert end.value() == 0 and end.remoteness() == 0
    assert "lost" in end.value_explained()
    with pytest.raises(IllegalMove):
        end.play(0)
    assert GraphState.start(ROUNDABOUT).returns() == (0.0, 0.0)


def test_repetition_ends_a_cycling_game_in_a_draw():
    labels = WHIRLPOOL.labels
    w1, w2, w3 = (labels.index(x) for x in ("W1", "W2", "W3"))
    state = GraphState(WHIRLPOOL, w1)
    assert state.value() is None and state.remoteness() is None
    # The cycle has 3 nodes, so (W1, player 0) recurs every 6 moves.
    path = [w2, w3, w1] * 4
    seen = []
    for move in path:
        assert not state.is_terminal()
        state = state.play(move)
        seen.append(state.repetitions)
        if state.is_terminal():
            break
    assert state.is_terminal() and state.drawn_by_repetition()
    assert state.node == w1 and state.to_move == 0 and state.repetitions == 3
    assert len(seen) == 12  # the third occurrence of (W1, player 0): after 12 moves
    assert state.returns() == (0.0, 0.0) and state.legal_moves() == []
    assert state.value() is None and state.remoteness() is None
    assert "repeated" in state.value_explained()
    with pytest.raises(IllegalMove):
        state.play(w2)


def test_move_value_sees_a_draw_by_repetition():
    # On the Roundabout ring (4 nodes) a position recurs every 4 moves.
    names = ROUNDABOUT.labels
    north, east, south, west, home = (names.index(x)
                                      for x in ("North", "East", "South", "West", "Home"))
    state = GraphState(ROUNDABOUT, north)
    for node in (east, south, west, north, east, south, west):
        state = state.play(node)
    assert state.node == west and state.to_move == 1
    assert state.visits[2 * north + 0] == 2
    # Going round once more would be the third (North, player 0): a draw.
    assert state.move_value(north) is None
    drawn = state.play(north)
    assert drawn.is_terminal() and drawn.returns() == (0.0, 0.0)
    # The win by going Home is unaffected.
    assert state.value() == 1 and state.winning_moves() == [home]


@pytest.mark.parametrize("kwargs, fragment", [
    ({"labels": ("a", "b"), "edges": ((1,),), "layout": ((0, 0), (1, 1))}, "successor lists"),
    ({"labels": ("a", "b"), "edges": ((2,), ()), "layout": ((0, 0), (1, 1))}, "not a node"),
    ({"labels": ("a", "b"), "edges": ((1, 1), ()), "layout": ((0, 0), (1, 1))}, "twice"),
    ({"labels": ("a", "b"), "edges": ((1,), ()), "layout": ((0, 0), (1.5, 1))}, "unit square"),
    ({"labels": ("a", "b"), "edges": ((1,), ()), "layout": ((0, 0), (1, 1)), "start": 2},
     "start"),
    ({"labels": (), "edges": (), "layout": ()}, "nodes"),
])
def test_digraph_validation(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        Digraph(name="bad", description="", **kwargs)


def test_self_loop_is_a_pass_move():
    # A node with a pass (self-loop) can never be lost: the loop is a draw unless
    # some other move wins.
    only_pass = make_graph([[0]])
    assert label_outcomes(only_pass) == (DRAW,) and generalized_grundy(only_pass) == (None,)
    pass_or_win = make_graph([[0, 1], []])
    assert label_outcomes(pass_or_win) == (WIN, LOSS)
    state = GraphState(only_pass, 0)
    for _ in range(4):
        state = state.play(0)
    assert state.is_terminal() and state.returns() == (0.0, 0.0)
