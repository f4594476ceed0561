"""Issue 32: every level below Perfect is defined by work (depth, nodes), not by the clock,
so it plays the same moves on any machine, however slow or busy; and the games between
the same two levels vary. Discovered over the registry: every game with a ladder, on each
of its ``ladder_variants``, every level (and every adjacent pair) below Perfect.

Small counts here; the ladder benchmark (tests/benchmarks/bench_ladder.py) plays the full
40 games a pair and more, with and without load (``--load N``).
"""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from engine.model.registry import all_games
from engine.model.seats import Seat
from tests.support.agent_parts import parts
from tests.support.agent_parts import shrink as shrink_work

# Dozens of games per pairing over every ladder board: minutes, so the full suite's.
pytestmark = pytest.mark.slow

NO_CANCEL = threading.Event()
LADDERED = [g for g in all_games() if g.ladder]
# Each ladder variant of each game: (game, variant id).
BOARDS = [(g, variant) for g in LADDERED for variant in g.ladder_variants]
# Plies of each game played (the first moves: where the search is widest).
PLIES = 4
# Plies compared by the variety test where a player searches: past Connect Four's opening
# book, which Strong and Hard both follow (over 16 plies 8 of 10 of their games differed,
# over 24 all 10, as over whole games).
VARIETY_PLIES = 24


def _below_perfect(game: Any) -> list[str]:
    return [rung.level for rung in game.ladder if rung.level != "perfect"]


def _play(game: Any, variant: str, levels: tuple[str, str], seed: int,
          plies: int | None, shrink: bool = False) -> tuple[Any, ...]:
    """The start of one game and its moves (its first ``plies``; None: all), the start
    dealt as the game screen deals one for two computers, ``levels[0]`` moving first,
    the deal and each side seeded from ``seed``; ``shrink``: every search given a hundredth of
    its work and Perfect a tenth of a second (the variety test: the choice among
    near-best moves is the same at any budget)."""
    params = game.param_spec().from_variant_id(variant)
    players = [game.make_agent(params, Seat("computer", level), seed=seed * 10 + side)
               for side, level in enumerate(levels)]
    if shrink:
        for player in players:
            shrink_work(player)
    # As the game screen starts a game between two computers: dealt, where the game deals.
    state = game.deal_start(params, random.Random(seed))
    moves: list[Any] = [state]
    while not state.is_terminal() and (plies is None or len(moves) <= plies):
        move = players[state.current_player()].choose_move(state, NO_CANCEL)
        moves.append(move)
        state = state.play(move)
    return tuple(moves)


@contextlib.contextmanager
def _busy(count: int = 2) -> Iterator[None]:
    """``count`` processes that spin on a core each while the block runs (each stopped
    by its own handle afterwards)."""
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        time.sleep(0.2)  # let them start spinning
        yield
    finally:
        for process in busy:
            process.kill()
        for process in busy:
            process.wait(10)


@pytest.mark.parametrize(("game", "variant"), BOARDS,
                         ids=[f"{g.id}-{v}" for g, v in BOARDS])
def test_a_levels_moves_are_the_same_with_and_without_load(game: Any, variant: str) -> None:
    """Same seed, same depth and nodes: same moves, with two busy processes beside the
    game as without them."""
    idle = {level: _play(game, variant, (level, level), 7, PLIES)
            for level in _below_perfect(game)}
    with _busy():
        loaded = {level: _play(game, variant, (level, level), 7, PLIES) for level in idle}
    assert loaded == idle, (game.id, variant)


@pytest.mark.parametrize(("game", "variant"), BOARDS,
                         ids=[f"{g.id}-{v}" for g, v in BOARDS])
def test_a_machine_four_times_slower_plays_the_same_moves(
        game: Any, variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock is only a safety cap: with a clock that runs four times fast (a machine
    a quarter as fast, as the searches see it) every level's moves are the same."""
    normal = {level: _play(game, variant, (level, level), 11, PLIES)
              for level in _below_perfect(game)}
    real = time.monotonic
    origin = real()
    monkeypatch.setattr(time, "monotonic", lambda: origin + 4 * (real() - origin))
    for level, moves in normal.items():
        assert _play(game, variant, (level, level), 11, PLIES) == moves, (game.id, variant, level)


def _adjacent_pairs() -> list[Any]:
    """Every adjacent pair of levels (stronger, weaker) on every ladder variant; those
    known to repeat themselves are expected to fail (see KNOWN_REPETITIVE)."""
    cases = []
    for game, variant in BOARDS:
        levels = [rung.level for rung in game.ladder]
        for weaker, stronger in zip(levels, levels[1:], strict=False):
            key = (game.id, variant, stronger, weaker)
            marks = ([pytest.mark.xfail(strict=True, reason="still repeats: "
                                        + KNOWN_REPETITIVE[key] + " different")]
                     if key in KNOWN_REPETITIVE else [])
            cases.append(pytest.param(game, variant, stronger, weaker, marks=marks,
                                      id="-".join(key)))
    return cases


# Pairs whose games still repeat, measured (40 games, full games, each started as the
# game screen starts a game between two computers: the Grundy board and graph games deal
# their start, games.grundy.starts). Strict: a pair that comes to vary fails here until it
# is taken off this list. Not done (issue 32, finding 4): each value is the measured count.
# - graph-0 (two heaps of 2 drawn as a graph, 12 nodes): only 69 different games exist
#   from its 9 won nodes, whoever plays them; 40 drawn even uniformly from 69 give about
#   31 different on average, so 36 of 40 is out of reach on this graph (proven by
#   test_graph_0_has_too_few_games_for_36_of_40 below).
KNOWN_REPETITIVE: dict[tuple[str, str, str, str], str] = {
    ("grundy", "graph-0", "easy", "beginner"): "19 of 40",
    ("grundy", "graph-0", "medium", "easy"): "14 of 40",
    ("grundy", "graph-0", "strong", "medium"): "13 of 40",
    ("grundy", "graph-0", "hard", "strong"): "14 of 40",
    ("grundy", "graph-0", "perfect", "hard"): "13 of 40",
}


@pytest.mark.parametrize(("game", "variant", "stronger", "weaker"), _adjacent_pairs())
def test_games_between_two_adjacent_levels_vary(game: Any, variant: str, stronger: str,
                                                weaker: str) -> None:
    """Every adjacent pair of levels, Perfect included, sides alternating and seeds
    differing: where no player searches with a budget (the Grundy games: cheap) the full
    count, at least 36 of 40 different; where one does, at least 9 of 10,
    each game's first VARIETY_PLIES moves compared (games that begin differently are
    different games) and the searches given a hundredth of their work (the choice among
    near-best moves is the same at any budget); the benchmark counts 40 full games there."""
    def record(i: int, shrink: bool) -> tuple[Any, ...]:
        sides = (stronger, weaker) if i % 2 == 0 else (weaker, stronger)
        return _play(game, variant, sides, 100 + i, None if not shrink else VARIETY_PLIES, shrink)

    params = game.param_spec().from_variant_id(variant)
    if not any(_searches(game.make_agent(params, Seat("computer", level), seed=1))
               for level in (stronger, weaker)):
        records = {record(i, shrink=False) for i in range(40)}
        assert len(records) >= 36, len(records)
    else:
        records = {record(i, shrink=True) for i in range(10)}
        assert len(records) >= 9, len(records)


def _searches(agent: Any) -> bool:
    """Whether a player searches with a budget (a depth, or a clock: then its games are
    dear, and the variety test plays fewer, with less work)."""
    return any(getattr(part, "max_depth", None) is not None
               or getattr(part, "time_budget", float("inf")) < float("inf")
               for part in parts(agent))


def test_graph_0_has_too_few_games_for_36_of_40() -> None:
    """The reason graph-0 is on KNOWN_REPETITIVE, proven: every complete game from every
    start a game between two computers can be dealt (a node won for the first player,
    games.grundy.starts.dealt_node) counted by walking them all; 40 games drawn even
    uniformly from so few average fewer than 36 different ones, whoever plays them."""
    from games.grundy.graphs import GraphState, label_outcomes
    from games.grundy.variants import GrundySetup, new_game

    graph = new_game(GrundySetup(game="graph", graph=0)).graph

    def games_from(state: GraphState, depth: int = 0) -> int:
        assert depth < 100, "graph-0 has no cycle: every game ends"
        if state.is_terminal():
            return 1
        return sum(games_from(state.play(move), depth + 1) for move in state.legal_moves())

    won = [u for u, outcome in enumerate(label_outcomes(graph)) if outcome == "win"]
    assert won  # the deal has starts to choose from
    total = sum(games_from(GraphState(graph, u)) for u in won)
    expected_different = total * (1 - (1 - 1 / total) ** 40)
    assert expected_different < 36, (total, expected_different)
    assert any(key[1] == "graph-0" for key in KNOWN_REPETITIVE)
