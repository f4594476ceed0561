"""Issue 33: every impartial hint carries the theory's label of the position a move leads
to — a Grundy value, or ∞ with its set K on graphs with cycles — never the outcome
convention of ``value()`` (which says 1 for a won ∞ node). Checked against labels
worked out independently from sums with nim heaps (tests/support/oracles.py)."""

from __future__ import annotations

import threading
from functools import reduce
from operator import xor

from engine.model.values import Infinite, MoveValue, nimber_text
from games.grundy.ai import ImpartialAgent, hint_values, move_values
from games.grundy.board import BoardConfig, TokenState
from games.grundy.descriptor import GAME
from games.grundy.graphs import BUILTIN, WHIRLPOOL, Digraph, GraphState
from games.grundy.heaps import HeapConfig, HeapState
from tests.support.oracles import labels_by_sums, random_cyclic_digraphs

NO_CANCEL = threading.Event()


def as_oracle(nimber: object) -> object:
    """A MoveValue's nimber in the oracle's terms: the number, or ("∞", K)."""
    return ("∞", nimber.k) if isinstance(nimber, Infinite) else nimber


def expected_outcome(label: object) -> str:
    """The mover's outcome of a move to a node labelled ``label`` (the opponent moves
    next): a 0 wins; any other number loses; ∞(K) loses if 0 ∈ K, else draws."""
    if label == 0:
        return "win"
    if isinstance(label, int):
        return "loss"
    assert isinstance(label, tuple)
    return "loss" if 0 in label[1] else "draw"


def test_every_graph_hint_carries_the_independent_label_over_random_cyclic_graphs() -> None:
    hints = GAME.hint_function()
    assert hints is hint_values
    graphs = random_cyclic_digraphs(300, seed=33) + list(BUILTIN)
    moves = into_won_infinity = into_drawn_infinity_with_k = 0
    for graph in graphs:
        labels = labels_by_sums(graph)
        for u in range(graph.size):
            state = GraphState(graph, u)
            if state.is_terminal():
                continue
            values = hints(state, None, 1.0)
            assert list(values) == list(graph.edges[u])
            for v, value in values.items():
                assert isinstance(value, MoveValue) and value.exact
                assert as_oracle(value.nimber) == labels[v], (graph.edges, u, v, value)
                assert value.outcome == expected_outcome(labels[v]), (graph.edges, u, v)
                moves += 1
                if isinstance(value.nimber, Infinite):
                    # The case of the issue: the outcome convention said 1 here.
                    into_won_infinity += 0 in value.nimber.k
                    into_drawn_infinity_with_k += bool(value.nimber.k) and (
                        0 not in value.nimber.k)
            # The perfect player's values (only the best, with distances) carry the same.
            for v, value in move_values(state, only_best=True).items():
                assert as_oracle(value.nimber) == labels[v]
    # The sample has every kind of move, the many times over.
    assert moves > 3000 and into_won_infinity > 300 and into_drawn_infinity_with_k > 20, (
        moves, into_won_infinity, into_drawn_infinity_with_k)


def test_infinite_labels_are_written_in_smiths_notation() -> None:
    assert nimber_text(Infinite({2, 0})) == "∞₀,₂" == str(Infinite([0, 2]))
    assert nimber_text(Infinite({0, 11})) == "∞₀,₁₁"
    assert nimber_text(Infinite()) == "∞"  # K empty: no subscripts
    assert nimber_text(Infinite({0, 2}), short=True) == "∞"  # no room: K stays in the data
    assert nimber_text(0) == "0" and nimber_text(7) == "7"
    assert Infinite({1}) != 1 and Infinite({0}) != Infinite({1})


def test_whirlpool_hints_match_the_labels_the_graph_screen_draws() -> None:
    # The Start is ∞ with K = {0, 1} (Pool 0, Weir 1; the Rapids are ∞): a win, by the Pool.
    start = GraphState.start(WHIRLPOOL)
    assert start.value() == 1  # the outcome convention, for the perfect player
    assert start.nimber() == Infinite({0, 1})
    assert start.value_explained().startswith("value ∞₀,₁: no Grundy number")
    names = WHIRLPOOL.labels
    eddy = names.index("Eddy")
    values = hint_values(GraphState(WHIRLPOOL, names.index("Weir")))
    # Weir → Eddy: Eddy is ∞ with a 0 among its successors, not "Grundy value 1".
    assert values[eddy].nimber == Infinite({0, 1}) and values[eddy].outcome == "loss"
    w1 = names.index("W1")
    drawn = GraphState(WHIRLPOOL, w1)
    assert drawn.nimber() == Infinite() and drawn.value_explained() == (
        "value ∞: a draw with best play (neither player can force a win)")


def test_a_move_that_ends_the_game_by_repetition_has_no_label() -> None:
    # Roundabout-like ring a → b → a: the third visit of (a, player 0) ends in a draw.
    graph = Digraph("ring", ("a", "b", "t"), ((1,), (0, 2), ()),
                    ((0.1, 0.1), (0.5, 0.5), (0.9, 0.9)))
    # From b with (a, player 0) seen twice, moving to a repeats it a third time.
    position = GraphState(graph, 0).play(1).play(0).play(1)
    value = hint_values(position)[0]
    assert position.play(0).drawn_by_repetition()
    assert value.outcome == "draw" and value.nimber is None


def test_misere_heaps_carry_no_nimber_and_normal_heaps_their_nim_sum() -> None:
    misere = HeapState(HeapConfig("nim", (3, 5, 7), None, misere=True), (3, 5, 7))
    for move, value in hint_values(misere).items():
        assert value.nimber is None, move  # value() would say 0 or 1: an outcome
        assert value.outcome in ("win", "loss")
    normal = HeapState(HeapConfig("nim", (3, 5, 7), None), (3, 5, 7))
    for move, value in hint_values(normal).items():
        after = normal.play(move)
        assert value.nimber == reduce(xor, after.heaps, 0)
        assert (value.nimber == 0) == (value.outcome == "win")


def test_board_hints_carry_the_tokens_nim_sum() -> None:
    state = TokenState.start(BoardConfig("queen", 5, 5, 2), [(4, 4), (2, 3)])
    for move, value in hint_values(state).items():
        assert value.nimber == state.move_value(move)
        assert (value.nimber == 0) == (value.outcome == "win")
    assert ImpartialAgent(seed=1).choose_move(state, NO_CANCEL) in hint_values(state)
