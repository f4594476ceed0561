"""The null-window score search (games/connect4/score_search.py) against brute force.

Every column score it gives is turned back into (outcome, remoteness) and
compared with the independent brute-force minimax of
tests/games/connect4/test_connect4_solver.py, and with the other exact driver in the same run
(the generic negamax's ``move_values`` on :class:`C4Search`), on many
positions of many board shapes. Its table is checked to keep a fixed size and
its limits to be kept.
"""

from __future__ import annotations

import random
import threading
import time

import pytest

from engine.ai.agent import Cancelled
from engine.ai.negamax import Negamax, SearchTimeout
from engine.ai.perfect import negamax_values
from games.connect4.rules import Connect4Config, Connect4State
from games.connect4.score_search import (
    ScoreSearch,
    column_scores,
    score_of,
    value_of_score,
)
from games.connect4.solver import C4Search, exact_values, move_values
from tests.support.oracles import (
    as_pair,
    brute_move_values,
    random_play,
    random_positions,
)


def scores_as_pairs(state: Connect4State, max_entries: int = 100_003) -> dict[int, tuple[int, int]]:
    """Every legal column's (outcome, remoteness) by the score search."""
    search = C4Search.from_rules(state)
    scorer = ScoreSearch(search.g, max_entries)
    scores = column_scores(scorer, search.cur, search.mask, search.n)
    return {c: value_of_score(search.g.size, search.n, s) for c, s in scores.items()}


def test_scores_and_remoteness_convert_both_ways() -> None:
    for cells in (16, 20, 42, 72):
        for discs in range(cells):
            seen = set()
            # Wins end on the mover's plies, losses on the opponent's, draws on a full board.
            for plies in range(1, cells - discs + 1):
                last = discs + plies
                outcome = 1 if plies % 2 else -1
                score = score_of(cells, outcome, last)
                assert value_of_score(cells, discs, score) == (outcome, plies)
                seen.add(score)
            assert len(seen) == cells - discs  # one score per distance
            assert value_of_score(cells, discs, 0) == (0, cells - discs)


# Most shapes take a tenth of a second to seconds: marked slow, so the quick run
# (python -m pytest -m "not slow") keeps one; the full run has them all.
@pytest.mark.parametrize("cols,rows,k,low,high,count", [
    pytest.param(4, 4, 4, 0, 13, 25, marks=pytest.mark.slow),
    pytest.param(5, 4, 4, 4, 16, 12, marks=pytest.mark.slow),
    pytest.param(4, 5, 4, 6, 16, 10, marks=pytest.mark.slow),
    pytest.param(5, 5, 4, 10, 20, 6, marks=pytest.mark.slow),
    pytest.param(6, 5, 4, 14, 24, 5, marks=pytest.mark.slow),
    pytest.param(7, 6, 4, 26, 34, 6, marks=pytest.mark.slow),
    (8, 7, 4, 44, 50, 2),
    pytest.param(4, 4, 3, 0, 10, 15, marks=pytest.mark.slow),
    pytest.param(6, 5, 3, 10, 22, 6, marks=pytest.mark.slow),
    pytest.param(5, 5, 5, 12, 22, 4, marks=pytest.mark.slow),
    pytest.param(9, 8, 4, 58, 64, 2, marks=pytest.mark.slow),
], ids=lambda v: str(v))
def test_every_column_matches_brute_force_and_the_generic_negamax(cols, rows, k, low, high,
                                                                  count) -> None:
    cfg = Connect4Config(cols, rows, k)
    for state in random_positions(cfg, low, high, count, seed=cols * 100 + rows * 10 + k):
        expected = brute_move_values(state)
        assert scores_as_pairs(state) == expected, state
        generic = negamax_values(Negamax(remoteness=True), C4Search.from_rules(state),
                                 draw_remoteness=cfg.cells - len(state.moves))
        assert {c: as_pair(v) for c, v in generic.items()} == expected, state
        values = exact_values(state)
        assert {c: as_pair(v) for c, v in values.items()} == expected
        assert all(v.exact for v in values.values())


@pytest.mark.slow
def test_positions_from_uniformly_random_play() -> None:
    """Random play leaves threats everywhere: forced wins, losses in 2, full columns."""
    rng = random.Random(23)
    checked = 0
    for cfg, low, high in ((Connect4Config(4, 4), 1, 15), (Connect4Config(5, 4), 5, 19),
                           (Connect4Config(4, 4, 3), 1, 12)):
        for _ in range(40):
            state = random_play(cfg, rng.randint(low, high), rng)
            if state.is_terminal():
                continue
            assert scores_as_pairs(state) == brute_move_values(state), state
            checked += 1
    assert checked > 60


@pytest.mark.slow
def test_a_clamped_solve_is_the_clamped_score() -> None:
    for state in random_positions(Connect4Config(5, 4), 6, 12, 6, seed=4):
        search = C4Search.from_rules(state)
        exact = ScoreSearch(search.g).solve(search.cur, search.mask, search.n)
        for lowest, highest in ((-1, 1), (None, -1), (1, None), (-3, 2), (0, 0)):
            got = ScoreSearch(search.g).solve(search.cur, search.mask, search.n, lowest, highest)
            clamped = exact
            if lowest is not None:
                clamped = max(lowest, clamped)
            if highest is not None:
                clamped = min(highest, clamped)
            assert got == clamped, (state, lowest, highest)


@pytest.mark.slow
def test_a_tiny_table_keeps_its_size_and_every_answer() -> None:
    states = random_positions(Connect4Config(6, 5), 14, 18, 3, seed=12)
    for state in states:
        expected = brute_move_values(state)
        search = C4Search.from_rules(state)
        scorer = ScoreSearch(search.g, max_entries=50)
        assert scorer.length == 47 and len(scorer.table) == 47  # the largest prime <= 50
        scores = column_scores(scorer, search.cur, search.mask, search.n)
        assert {c: value_of_score(search.g.size, search.n, s) for c, s in scores.items()} \
            == expected
        assert len(scorer.table) == 47 and scorer.nodes > 47  # overwritten, never grown
        scorer.clear()
        assert not any(scorer.table)


@pytest.mark.slow
def test_the_empty_board_is_not_an_empty_slot() -> None:
    # Its key, cur + mask, is 0: stored as is it would read as a hit in every empty slot.
    search = C4Search.new(4, 4)
    assert ScoreSearch(search.g).solve(search.cur, search.mask, search.n) == 0
    assert scores_as_pairs(Connect4State.new(Connect4Config(4, 4))) == \
        brute_move_values(Connect4State.new(Connect4Config(4, 4)))


@pytest.mark.slow
def test_deadline_and_cancel_stop_the_search() -> None:
    search = C4Search.new()
    scorer = ScoreSearch(search.g, deadline=time.monotonic() + 0.1)
    start = time.process_time()
    with pytest.raises(SearchTimeout):
        scorer.solve(search.cur, search.mask, search.n)
    assert time.process_time() - start < 0.5
    cancel = threading.Event()
    scorer = ScoreSearch(search.g, cancel=cancel)
    threading.Timer(0.1, cancel.set).start()
    start = time.process_time()
    with pytest.raises(Cancelled):
        column_scores(scorer, search.cur, search.mask, search.n)
    assert time.process_time() - start < 0.6


@pytest.mark.slow
def test_7x6_hints_from_20_discs_agree_with_the_generic_negamax() -> None:
    """Deeper than brute force reaches: 20-disc 7×6 positions, every column with its
    distance, by both exact drivers (their timings are the benchmark's)."""
    for state in random_positions(Connect4Config(), 20, 20, 3, seed=77):
        values = move_values(state, time_limit=None)
        assert all(v.exact and v.remoteness is not None for v in values.values())
        generic = negamax_values(Negamax(remoteness=True), C4Search.from_rules(state),
                                 draw_remoteness=42 - len(state.moves))
        assert values == generic
