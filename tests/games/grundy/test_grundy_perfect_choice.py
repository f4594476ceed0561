"""Issue 33, part 2, on the Grundy games: Perfect (the generic perfect player on impartial
values) chooses at random among every move of the best value — the quickest win, else a
draw, else the longest loss — as docs/playing.md says; it has no reflexes. Its options are
read off its own random choices; the values come from plain minimax over every position
of small Nim games (normal and misère) and from brute force on random cyclic graphs."""

from __future__ import annotations

import threading
from functools import cache
from itertools import product

from games.grundy.ai import ImpartialAgent
from games.grundy.graphs import GraphState
from games.grundy.heaps import HeapConfig, HeapState
from tests.support.oracles import Options, random_cyclic_digraphs

NO_CANCEL = threading.Event()


def rank(outcome: str, plies: int | None) -> tuple[int, float]:
    """Larger is better for the mover: quickest win, a draw, longest loss."""
    if outcome == "win":
        return (2, -plies)  # type: ignore[operator]
    return (1, 0) if outcome == "draw" else (0, plies)  # type: ignore[return-value]


@cache
def nim(heaps: tuple[int, ...], misere: bool) -> tuple[str, int]:
    """(outcome, plies to the end) for the player to move, by trying every line."""
    if not any(heaps):
        return ("win" if misere else "loss", 0)  # the last taker won (normal) or lost
    best: tuple[str, int] | None = None
    for i, h in enumerate(heaps):
        for left in range(h):
            outcome, plies = nim(heaps[:i] + (left,) + heaps[i + 1:], misere)
            mine = ({"win": "loss", "loss": "win"}[outcome], plies + 1)
            if best is None or rank(*mine) > rank(*best):
                best = mine
    assert best is not None
    return best


def agent_with_options() -> tuple[ImpartialAgent, Options]:
    agent, options = ImpartialAgent(seed=0), Options()
    agent._rng = options  # type: ignore[assignment]
    return agent, options


def test_perfect_chooses_among_every_best_take_in_small_nim_games() -> None:
    agent, options = agent_with_options()
    ties = 0
    for misere in (False, True):
        config = HeapConfig("nim", (3, 4, 5), None, misere=misere)
        for heaps in product(range(4), range(5), range(6)):
            state = HeapState(config, heaps)
            if state.is_terminal():
                continue
            values = {}
            for move in state.legal_moves():
                outcome, plies = nim(state.play(move).heaps, misere)
                values[move] = rank({"win": "loss", "loss": "win"}[outcome], plies + 1)
            top = max(values.values())
            best = {m for m, v in values.items() if v == top}
            options.seen = None
            agent.choose_move(state, NO_CANCEL)
            assert options.seen is not None and set(options.seen) == best, (misere, heaps)
            ties += len(best) > 1
    assert ties > 50, ties


def test_perfect_chooses_among_every_best_move_on_random_cyclic_graphs() -> None:
    from tests.games.grundy.test_grundy_graphs import brute_outcomes

    agent, options = agent_with_options()
    ties = 0
    for graph in random_cyclic_digraphs(150, seed=7):
        outcomes, remote = brute_outcomes(graph)
        for u in range(graph.size):
            if not graph.edges[u]:
                continue
            flip = {"win": "loss", "loss": "win", "draw": "draw"}
            values = {v: rank(flip[outcomes[v]], None if outcomes[v] == "draw"
                              else remote[v] + 1)  # type: ignore[operator]
                      for v in graph.edges[u]}
            top = max(values.values())
            best = {v for v, value in values.items() if value == top}
            options.seen = None
            agent.choose_move(GraphState(graph, u), NO_CANCEL)
            assert options.seen is not None and set(options.seen) == best, (graph.edges, u)
            ties += len(best) > 1
    assert ties > 50, ties
