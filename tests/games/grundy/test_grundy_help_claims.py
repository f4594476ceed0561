"""Issue 28: every value, move and fact the Grundy games' help states is true, checked here
against brute force that shares no code with the rules (or computed into the text by the
rules when it is built: the Bachet list and the Nim example, checked here in every language
and on the real screen). The old Nim example ("3 ⊕ 5 = 6, so from heaps 3, 5 and 7 take 6
from the 7") left a nim-sum of 7.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, reduce
from itertools import combinations_with_replacement, product
from operator import xor

import pygame
import pytest

from engine.core.i18n import set_language
from engine.screens.scene import HelpOverlay
from games.grundy import help_text
from games.grundy.board import MAX_TOKENS, BoardConfig, TokenState, targets
from games.grundy.graphs import BUILTIN, REPETITIONS_FOR_DRAW, GraphState, generalized_grundy
from games.grundy.heaps import DEFAULT_BACHET_HEAP, DEFAULT_BACHET_TAKE, DEFAULT_NIM_HEAPS
from games.grundy.variants import MAX_SIDE, MIN_SIDE, GrundySetup
from tests.conftest import key
from tests.support.oracles import retrograde

LANGUAGES = ("en", "hu", "cs")


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    yield
    set_language("en")


def mex(values) -> int:
    seen = set(values)
    n = 0
    while n in seen:
        n += 1
    return n


# --- heaps: brute force over heap tuples, independent of games.grundy.heaps --------------------


def heap_children(heaps: tuple[int, ...], k: int | None) -> list[tuple[tuple[int, int], tuple]]:
    return [((i, t), heaps[:i] + (h - t,) + heaps[i + 1:])
            for i, h in enumerate(heaps) for t in range(1, (h if k is None else min(h, k)) + 1)]


@cache
def heap_value(heaps: tuple[int, ...], k: int | None) -> int:
    return mex(heap_value(child, k) for _, child in heap_children(heaps, k))


@cache
def misere_lost(heaps: tuple[int, ...]) -> bool:
    if not any(heaps):
        return False  # the opponent took the last pebble
    return all(not misere_lost(child) for _, child in heap_children(heaps, None))


def test_bachet_values_and_the_listed_zeros() -> None:
    """"A heap of n has Grundy value n mod (k + 1)"; the listed value-0 heaps for the
    traditional k = 10 and 100 pebbles are the brute-force zeros."""
    for k in range(1, 7):
        for n in range(40):
            assert heap_value((n,), k) == n % (k + 1), (n, k)
    assert (DEFAULT_BACHET_HEAP, DEFAULT_BACHET_TAKE) == (100, 10)  # "traditionally"
    zeros = [n for n in range(100, -1, -1) if heap_value((n,), 10) == 0]
    assert help_text.bachet_zeros() == f"{zeros[0]}, {zeros[1]}, …, {zeros[-2]}, {zeros[-1]}"
    for language in LANGUAGES:
        set_language(language)
        assert "99, 88, …, 11, 0" in help_text.heap_rules()


def test_nim_heap_values_and_the_strategy() -> None:
    """"A heap of n has Grundy value n, and a position has the nim-sum of its heaps";
    from a non-zero nim-sum some move makes it 0, taking from a heap with a 1 in the
    nim-sum's leftmost column; from 0 none does."""
    for heaps in product(range(8), repeat=3):
        total = reduce(xor, heaps)
        assert heap_value(heaps, None) == total, heaps
        zeroing = [(i, t) for (i, t), child in heap_children(heaps, None)
                   if reduce(xor, child) == 0]
        if total == 0:
            assert not zeroing
        else:
            top = 1 << (total.bit_length() - 1)
            assert zeroing and all(heaps[i] & top for i, _ in zeroing), heaps
            assert {i for i in range(3) if heaps[i] & top} == {i for i, _ in zeroing}


def test_misere_nim_strategy() -> None:
    """"Play exactly as in Nim until your move would leave only heaps of 0 or 1 pebbles;
    then leave an odd number of 1-pebble heaps": the lost positions are those."""
    for heaps in product(range(6), repeat=3):
        if max(heaps) <= 1:
            lost = sum(heaps) % 2 == 1
        else:
            lost = reduce(xor, heaps) == 0
        assert misere_lost(heaps) == lost, heaps


def _example(text: str) -> tuple[tuple[int, ...], int, list[tuple[int, int]], tuple]:
    """The Nim example's heaps, nim-sum, winning moves (heap → left) and the spelled-out
    one's heaps after, read from the help text in any language."""
    sums = re.findall(r"(\d+(?: ⊕ \d+)+) = (\d+)", text)
    (first, total), (after, zero) = sums[0], sums[1]
    heaps = tuple(int(x) for x in first.split(" ⊕ "))
    moves = [(int(a), int(b)) for a, b in re.findall(r"(\d+) → (\d+)", text)]
    assert zero == "0"
    return heaps, int(total), moves, tuple(int(x) for x in after.split(" ⊕ "))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_nim_example_is_right(language: str) -> None:
    set_language(language)
    text = help_text.heap_rules()
    assert "{" not in text and "}" not in text
    heaps, total, moves, after = _example(text)
    assert heaps == DEFAULT_NIM_HEAPS and total == heap_value(heaps, None) != 0
    listed, spelled = moves[:-1], moves[-1]
    # Exactly the moves to a lost position for the opponent, by brute force.
    winning = sorted((heaps[i], heaps[i] - t) for (i, t), child in heap_children(heaps, None)
                     if heap_value(child, None) == 0)
    assert sorted(listed) == winning and spelled in winning
    index = heaps.index(spelled[0])
    assert after == heaps[:index] + (spelled[1],) + heaps[index + 1:]
    assert heap_value(after, None) == 0
    # Never the old wrong move again.
    assert (7, 1) not in moves and "6 from the 7" not in text


def test_the_heap_screen_help_shows_the_computed_example(app) -> None:
    from games.grundy.scenes import scene_for

    scene = app.push(scene_for(app, GrundySetup(game="nim"), None, seed=1))
    app.step([])
    key(app, pygame.K_F1)
    overlay = app.top
    assert isinstance(overlay, HelpOverlay) and overlay is not scene
    heaps, total, moves, _after = _example(overlay.text)
    assert (heaps, total) == ((3, 5, 7), 1)
    assert sorted(moves[:-1]) == [(3, 2), (5, 4), (7, 6)]
    assert overlay.text.endswith(help_text.GAME.levels_text())


# --- boards: the moves as the help describes them --------------------------------------------


def described(piece: str, rows: int, cols: int, r: int, c: int) -> set[tuple[int, int]]:
    """The destinations as the help's words give them."""
    out: set[tuple[int, int]] = set()
    if piece == "king":
        out = {(r, c - 1), (r - 1, c), (r - 1, c - 1)}
    if piece in ("rook", "queen"):
        out |= {(r, c - d) for d in range(1, c + 1)} | {(r - d, c) for d in range(1, r + 1)}
    if piece == "queen":
        out |= {(r - d, c - d) for d in range(1, min(r, c) + 1)}
    if piece == "knight":  # two up one left, one up two left, two up one right, one down two left
        out = {(r - 2, c - 1), (r - 1, c - 2), (r - 2, c + 1), (r + 1, c - 2)}
    return {(a, b) for a, b in out if 0 <= a < rows and 0 <= b < cols}


@pytest.mark.parametrize("rows,cols", [(8, 8), (5, 7), (3, 3)])
def test_board_moves_and_ends_are_as_the_help_says(rows: int, cols: int) -> None:
    for piece in ("king", "rook", "queen", "knight"):
        stuck = set()
        for r, c in product(range(rows), range(cols)):
            moves = set(targets(piece, rows, cols, r, c))
            assert moves == described(piece, rows, cols, r, c), (piece, r, c)
            if piece == "knight":  # "each of them lowers row + column (by 3 or by 1)"
                assert all((r + c) - (a + b) in (1, 3) for a, b in moves)
            if not moves:
                stuck.add((r, c))
        if piece == "knight":  # the game ends in a corner square
            assert stuck == {(0, 0), (0, 1), (1, 0), (1, 1)}, stuck
        else:  # whoever moves a token into the corner wins: nothing else is stuck
            assert stuck == {(0, 0)}, (piece, stuck)


@cache
def token_value(piece: str, rows: int, cols: int, squares: tuple) -> int:
    """Brute-force mex over positions of several tokens (a move moves one of them)."""
    children = set()
    for i, (r, c) in enumerate(squares):
        for square in described(piece, rows, cols, r, c):
            children.add(tuple(sorted(squares[:i] + (square,) + squares[i + 1:])))
    return mex(token_value(piece, rows, cols, child) for child in children)


def test_several_tokens_have_the_nim_sum_of_their_values() -> None:
    for piece in ("king", "rook", "queen", "knight"):
        config = BoardConfig(piece, 4, 5, 2)
        cells = list(product(range(4), range(5)))
        for pair in combinations_with_replacement(cells, 2):
            value = TokenState(config, pair).value()
            single = [token_value(piece, 4, 5, (sq,)) for sq in pair]
            assert value == token_value(piece, 4, 5, tuple(sorted(pair))) == single[0] ^ single[1]


def test_set_up_ranges_are_as_the_set_up_help_says() -> None:
    """"the board's size (3 to 32 each way, ...) and 1 to 4 tokens"."""
    from games.grundy.setup_scene import GrundySetupOverlay

    text = GrundySetupOverlay.help_text
    assert "(3 to 32 each way, said columns × rows" in text and ") and 1 to 4 tokens" in text
    assert (MIN_SIDE, MAX_SIDE, MAX_TOKENS) == (3, 32, 4)


# --- graphs ------------------------------------------------------------------------------------


def test_graph_labels_read_as_the_help_says() -> None:
    """0 is lost, any other number wins, ∞ draws unless an arrow leads to a 0; the first
    player wins exactly when a successor of the start is labelled 0; a draw on the third
    occurrence of a position."""
    assert "for the third time" in help_text.GRAPH_HELP and REPETITIONS_FOR_DRAW == 3
    for graph in BUILTIN:
        labels = generalized_grundy(graph)
        outcomes = retrograde(graph)
        for node, label in enumerate(labels):
            if label == 0:
                expected = "loss"
            elif label is not None:
                expected = "win"
            else:
                expected = ("win" if any(labels[v] == 0 for v in graph.edges[node])
                            else "draw")
            assert outcomes[node] == expected, (graph.name, node)
        first_wins = any(labels[v] == 0 for v in graph.edges[graph.start])
        assert (outcomes[graph.start] == "win") == first_wins, graph.name
        assert GraphState.start(graph).node == graph.start


def test_some_built_in_graphs_have_cycles_where_best_play_never_ends() -> None:
    """The set-up's "a built-in graph, some with cycles where best play never ends"."""
    from games.grundy.setup_scene import GrundySetupOverlay

    assert "some with cycles where best play never ends" in GrundySetupOverlay.help_text
    drawn = [graph.name for graph in BUILTIN if "draw" in retrograde(graph)]
    assert drawn and len(drawn) < len(BUILTIN)


def test_perfect_never_misses_a_win() -> None:
    """The ladder's "Perfect: the Sprague–Grundy theory, which never misses a win": from every
    won position tried, its move leaves the opponent a lost one (brute force)."""
    import random
    import threading

    from engine.model.seats import Seat
    from games.grundy.agents import make_agent
    from games.grundy.heaps import HeapConfig, HeapState
    from games.grundy.levels import LADDER

    assert "never misses a win" in next(r.how for r in LADDER if r.level == "perfect")
    cancel = threading.Event()
    rng = random.Random(5)
    for misere in (False, True):
        setup = GrundySetup(game="nim", misere=misere)
        agent = make_agent(setup, Seat("computer", "perfect"), seed=1)
        for heaps in product(range(5), repeat=3):
            lost = misere_lost(heaps) if misere else heap_value(heaps, None) == 0
            if lost or not any(heaps):
                continue
            state = HeapState(HeapConfig("nim", (3, 5, 7), misere=misere), heaps)
            after = state.play(agent.choose_move(state, cancel)).heaps
            assert (misere_lost(after) if misere else heap_value(after, None) == 0), heaps
    for piece in ("king", "rook", "queen", "knight"):
        setup = GrundySetup(game=piece, rows=6, cols=7)
        agent = make_agent(setup, Seat("computer", "perfect"), seed=1)
        config = BoardConfig(piece, 6, 7, 1)
        for _ in range(30):
            square = (rng.randrange(6), rng.randrange(7))
            if token_value(piece, 6, 7, (square,)) == 0:
                continue
            state = TokenState(config, (square,))
            _index, r, c = agent.choose_move(state, cancel)
            assert token_value(piece, 6, 7, ((r, c),)) == 0, (piece, square)
    for graph_index, graph in enumerate(BUILTIN):
        outcomes = retrograde(graph)
        agent = make_agent(GrundySetup(game="graph", graph=graph_index),
                           Seat("computer", "perfect"), seed=1)
        for node in range(graph.size):
            if outcomes[node] == "win":
                move = agent.choose_move(GraphState(graph, node), cancel)
                target = GraphState(graph, node).play(move).node
                assert outcomes[target] == "loss", (graph.name, node)
