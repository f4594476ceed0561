"""The Connect Four solver, proven against an independent brute-force minimax.

The reference here shares no code with games/connect4/solver.py (nor with the
rules' win detection): a board is a tuple of column tuples, a win is found by
walking the four lines through the disc just dropped, and the value of a
position is plain recursion over every move with a memo. It returns the
outcome for the player to move and the remoteness the way the solver counts
it: plies to the end with best play (quickest win, longest loss), a draw
lasting until the board is full.

Every exact value the solver claims (outcome and remoteness, for every legal
move) is compared with it, on small boards from the empty board and on bigger
boards from positions with some discs already in.
"""

from __future__ import annotations

import random
import sys
import threading
import time

import pytest

from engine.ai.agent import Cancelled
from engine.ai.negamax import SearchTimeout
from engine.model.rules import IllegalMove
from games.connect4 import kernel, solve_pool
from games.connect4.rules import Connect4Config, Connect4State
from games.connect4.solver import (
    C4Search,
    ExactSolver,
    estimate_values,
    exact_values,
    geometry,
    move_values,
    search_state,
    solve_position,
    spots_function,
)
from tests.support.oracles import (
    as_pair,
    brute_move_values,
    random_play,
    random_positions,
    sensible_game,
)

sys.setrecursionlimit(10_000)
OUTCOME = {1: "win", 0: "draw", -1: "loss"}


# --- the independent reference ----------------------------------------------------------------








def check_exact(state: Connect4State) -> None:
    """Every exact answer about ``state`` equals the reference's."""
    expected = brute_move_values(state)
    got = exact_values(state)
    assert set(got) == set(expected) == set(state.legal_moves())
    for col, value in got.items():
        assert value.exact
        assert as_pair(value) == expected[col], (state, col, value, expected[col])
        assert value.outcome == OUTCOME[expected[col][0]]
    assert solve_position(state) == max(o for o, _ in expected.values())








def mirrored(state: Connect4State) -> Connect4State:
    cfg = state.config
    return Connect4State.from_moves(cfg, [cfg.cols - 1 - m for m in state.moves])


# --- bitboard building blocks -------------------------------------------------------------------


def naive_spots(state: Connect4State, owner: int) -> set[tuple[int, int]]:
    """Empty cells (col, height from the bottom), playable or not, where a disc of
    ``owner`` would make k in a row with ``owner``'s discs already there."""
    cfg = state.config
    discs = {(c, h) for c in range(cfg.cols) for h, who in enumerate(state.columns[c])
             if who == owner}
    out = set()
    for c in range(cfg.cols):
        for h in range(state.height(c), cfg.rows):
            for dc, dh in ((1, 0), (0, 1), (1, 1), (1, -1)):
                run = 1
                for sign in (1, -1):
                    step = 1
                    while (c + sign * step * dc, h + sign * step * dh) in discs:
                        run += 1
                        step += 1
                if run >= cfg.k:
                    out.add((c, h))
    return out


@pytest.mark.parametrize("rows,k", [(4, 3), *(pytest.param(*v, marks=pytest.mark.slow) for v in
                                             [(4, 4), (6, 4), (8, 4), (6, 5), (8, 6), (5, 5)])])
def test_winning_spots_match_a_cell_by_cell_check(rows: int, k: int) -> None:
    rng = random.Random(rows * 10 + k)
    cols = 9
    cfg = Connect4Config(cols, rows, k)
    g = geometry(cols, rows, k)
    general = spots_function(rows, k, unrolled=False)
    h1 = rows + 1
    for _ in range(40):
        state = sensible_game(cfg, rng.randrange(cfg.cells), rng)
        search = C4Search.from_rules(state)
        empty = g.board ^ search.mask
        for owner, discs in enumerate(search.discs()):
            spots = g.spots(discs) & empty
            assert spots == general(discs) & empty
            cells = {(c, h) for c in range(cols) for h in range(rows) if spots >> (c * h1 + h) & 1}
            assert cells == naive_spots(state, owner), state


@pytest.mark.slow
def test_search_state_agrees_with_rules_along_random_games() -> None:
    rng = random.Random(11)
    for cfg in (Connect4Config(4, 4), Connect4Config(7, 6), Connect4Config(9, 8, 5),
                Connect4Config(5, 6, 3)):
        for _ in range(25):
            state = Connect4State.new(cfg)
            search = C4Search.new(cfg.cols, cfg.rows, cfg.k)
            while True:
                fresh = C4Search.from_rules(state)
                for s in (search, fresh):
                    assert s.legal_moves() == state.legal_moves()
                    assert s.is_terminal() == state.is_terminal()
                    assert s.returns() == state.returns()
                    assert s.current_player() == state.current_player()
                    assert s.max_remaining_plies() == cfg.cells - len(state.moves)
                assert (search.cur, search.mask, search.mcur, search.mmask) == (
                    fresh.cur, fresh.mask, fresh.mcur, fresh.mmask)
                assert search.search_key() == fresh.search_key()
                if state.is_terminal():
                    assert search.legal_moves() == []
                    break
                if rng.random() < 0.5:
                    search.forced_outcome()  # exercise the cached paths of play()
                    search.ordered_moves()
                col = rng.choice(state.legal_moves())
                state, search = state.play(col), search.play(col)
            with pytest.raises(IllegalMove):
                search.play(0)


@pytest.mark.slow
def test_keys_are_canonical_under_the_mirror_and_otherwise_distinct() -> None:
    rng = random.Random(5)
    keys: dict[int, set[tuple[tuple[int, ...], ...]]] = {}
    for _ in range(400):
        state = sensible_game(Connect4Config(6, 5), rng.randrange(20), rng)
        key = C4Search.from_rules(state).search_key()
        assert key == C4Search.from_rules(mirrored(state)).search_key()
        keys.setdefault(key, set()).add(state.columns)
    for boards in keys.values():
        # One key: one position or its mirror image, never anything else.
        assert len(boards) <= 2
        if len(boards) == 2:
            a, b = boards
            assert a == tuple(reversed(b))


# --- exactness against the reference --------------------------------------------------------------


@pytest.mark.slow  # seconds of brute force; the quick run keeps the kernel's brute-force checks
def test_empty_4x4_every_move_matches_brute_force() -> None:
    state = Connect4State.new(Connect4Config(4, 4))
    check_exact(state)
    # 4×4 is a draw: every move draws, after 16 plies.
    assert {as_pair(v) for v in exact_values(state).values()} == {(0, 16)}
    assert move_values(state, time_limit=None) == exact_values(state)


@pytest.mark.slow
def test_positions_of_4x4_games_match_brute_force() -> None:
    rng = random.Random(2)
    for _ in range(30):
        state = random_play(Connect4Config(4, 4), rng.randrange(1, 15), rng)
        if not state.is_terminal():
            check_exact(state)


# The shapes marked slow take a tenth of a second or more: the full run has them.
@pytest.mark.parametrize("cols,rows,k,low,high,count", [
    pytest.param(5, 4, 4, 8, 14, 6, marks=pytest.mark.slow),
    pytest.param(4, 5, 4, 8, 14, 6, marks=pytest.mark.slow),
    pytest.param(5, 5, 4, 11, 18, 5, marks=pytest.mark.slow),
    pytest.param(6, 5, 4, 16, 22, 4, marks=pytest.mark.slow),
    pytest.param(7, 6, 4, 26, 32, 4, marks=pytest.mark.slow),
    pytest.param(9, 8, 4, 52, 60, 2, marks=pytest.mark.slow),
    (4, 4, 3, 0, 8, 8),
    pytest.param(6, 5, 3, 12, 20, 4, marks=pytest.mark.slow),
    (5, 5, 5, 15, 20, 3),
    pytest.param(6, 6, 5, 24, 28, 2, marks=pytest.mark.slow),
], ids=lambda v: str(v))
def test_positions_with_discs_match_brute_force(cols, rows, k, low, high, count) -> None:
    cfg = Connect4Config(cols, rows, k)
    for state in random_positions(cfg, low, high, count, seed=cols * rows * k):
        check_exact(state)


@pytest.mark.slow
def test_forced_outcomes_and_pruned_moves_are_exact() -> None:
    """``forced_outcome`` is the exact value wherever it answers, every move that
    ``ordered_moves`` leaves out loses in 2, and every best move is kept."""
    checked = pruned = 0
    rng = random.Random(9)
    for cfg, low, high in ((Connect4Config(4, 4), 0, 14), (Connect4Config(5, 4), 8, 18)):
        for _ in range(150):
            state = random_play(cfg, rng.randint(low, high), rng)
            if state.is_terminal():
                continue
            values = brute_move_values(state)
            best = max(values.values(), key=lambda v: (v[0], -v[1] if v[0] > 0 else v[1]))
            search = C4Search.from_rules(state)
            known = search.forced_outcome()
            if known is not None:
                assert known == best, state
                checked += 1
            kept = search.ordered_moves()
            assert sorted(kept) == sorted(set(kept)) and set(kept) <= set(values)
            if known is None:
                for col in set(values) - set(kept):
                    assert values[col] == (-1, 2), (state, col)
                    pruned += 1
                assert all(col in kept for col, v in values.items() if v == best)
    assert checked > 10 and pruned > 10


@pytest.mark.slow
def test_mirror_images_have_mirrored_values() -> None:
    for cfg, low, high in ((Connect4Config(5, 4), 6, 12), (Connect4Config(7, 6), 24, 30)):
        for state in random_positions(cfg, low, high, 4, seed=17):
            values = exact_values(state)
            other = exact_values(mirrored(state))
            assert {cfg.cols - 1 - c: v for c, v in values.items()} == other
            assert solve_position(state) == solve_position(mirrored(state))


@pytest.mark.slow
def test_a_tiny_table_changes_nothing() -> None:
    with kernel.disabled():  # the pure-Python search's table (the kernel's is tested apart)
        _tiny_table_changes_nothing()


def _tiny_table_changes_nothing() -> None:
    for state in random_positions(Connect4Config(5, 4), 6, 10, 3, seed=8):
        expected = brute_move_values(state)
        assert solve_position(state, max_entries=64) == max(o for o, _ in expected.values())
        got = exact_values(state, max_entries=64)
        assert {c: as_pair(v) for c, v in got.items()} == expected
        solver = ExactSolver(max_entries=64)
        assert solver(state, None, None) == got
        scorer = solver._backend._scorer
        # The table has a fixed number of slots (a prime no larger than the cap): newer
        # positions overwrite older ones, and the answers stay exact.
        assert scorer is not None and len(scorer.table) == 61
        assert solver(state, None, None) == got and solver._backend._scorer is scorer


@pytest.mark.slow
def test_exact_solver_reuses_its_table_along_a_game() -> None:
    solver = ExactSolver()
    state = random_positions(Connect4Config(7, 6), 24, 24, 1, seed=4)[0]
    while not state.is_terminal():
        values = solver(state, threading.Event(), time.monotonic() + 30)
        assert values == exact_values(state)
        state = state.play(min(values, key=lambda c: values[c].rank()))
    assert solver(state, None, None) == {}


@pytest.mark.parametrize("with_kernel", [True, False])
def test_hints_at_the_books_depth_match_a_search_without_the_book(with_kernel: bool) -> None:
    """At the book's deepest level the position's own booked outcome narrows its columns'
    searches (a lost position: no search; a drawn one: one null window each), on two
    threads with the kernel: every column's value is still the book-free search's."""
    from games.connect4.book import book_for
    from games.connect4.score_search import ScoreSearch, column_scores, value_of_score

    if with_kernel and not kernel.available():
        pytest.skip("no C compiler here")
    cfg = Connect4Config(5, 4)
    book = book_for(5, 4)
    assert book is not None
    rng = random.Random(31)
    seen: set[int] = set()
    while len(seen) < 3:  # until lost, drawn and won positions have all been checked
        state = sensible_game(cfg, book.depth, rng)
        if state.is_terminal() or len(state.moves) != book.depth:
            continue
        search = C4Search.from_rules(state)
        oracle = column_scores(ScoreSearch(search.g, 200_003), search.cur, search.mask, search.n)
        outcome = max((v > 0) - (v < 0) for v in oracle.values())
        seen.add(outcome)
        if with_kernel:
            got = exact_values(state)
        else:
            with kernel.disabled():
                got = exact_values(state)
        expected = {c: value_of_score(search.g.size, search.n, v) for c, v in oracle.items()}
        assert {c: (v.outcome, v.remoteness) for c, v in got.items()} == {
            c: (OUTCOME[o], plies) for c, (o, plies) in expected.items()}, state


@pytest.mark.skipif(not kernel.available(), reason="no C compiler here")
def test_a_patient_solver_keeps_a_win_when_every_value_takes_too_long() -> None:
    """Perfect's solver (``quick``): past its quick time it looks only for a column proven
    to win (answering with the winning columns it found, each truly a win), or, where
    there is none, proves every column's outcome; never gives up before its deadline."""
    rng = random.Random(30)
    won = other = lost = 0
    while won < 3 or other < 3 or not lost:
        state = sensible_game(Connect4Config(7, 6), rng.randrange(18, 26), rng)
        if state is None or state.is_terminal():
            continue
        truth = exact_values(state)
        winning = {c for c, v in truth.items() if v.outcome == "win"}
        if winning and len(winning) < len(truth) and won < 3:
            won += 1
        elif not winning and (other < 3 or not lost):
            other += 1
        else:
            continue
        # A quick time that is over before the first search: the patient part does it all.
        got = ExactSolver(quick=1e-9)(state, threading.Event(), time.monotonic() + 60)
        if winning:
            assert got and set(got) <= winning, state
            assert all(v.outcome == "win" and v.exact for v in got.values())
        else:
            assert {c: v.outcome for c, v in got.items()} == {
                c: v.outcome for c, v in truth.items()}, state
            assert all(v.exact for v in got.values())
            if all(v.outcome == "loss" for v in truth.values()):
                lost += 1  # the longest defence: every loss's distance, worked out in time
                assert got == truth, state
        # Without patience the same short time is a timeout.
        with pytest.raises(SearchTimeout):
            ExactSolver()(state, threading.Event(), time.monotonic() + 1e-9)
        # Before its first patient position (``patient_from`` discs) the whole deadline
        # goes to every column's value, as without patience.
        early = ExactSolver(quick=1e-9, patient_from=len(state.moves) + 1)
        assert early(state, threading.Event(), time.monotonic() + 60) == truth, state


@pytest.mark.slow
@pytest.mark.skipif(not kernel.available(), reason="no C compiler here")
def test_a_hint_proves_every_outcome_on_7x6_however_long_it_takes(monkeypatch) -> None:
    """On 7×6 and smaller, with the kernel, a hint whose time runs out before every
    column's outcome is proven goes on proving (up to HINT_PATIENCE): every column exact,
    equal to the book-free exact values; on a bigger board the time limit holds, and
    what is not proven is an estimate."""
    import games.connect4.solver as solver_module

    rng = random.Random(8)
    for discs in (12, 15, 18):
        state = sensible_game(Connect4Config(7, 6), discs, rng)
        # A time limit over before the first search: the patient part does it all.
        got = move_values(state, time_limit=1e-9)
        truth = exact_values(state)
        assert {c: v.outcome for c, v in got.items()} == {
            c: v.outcome for c, v in truth.items()}, state
        assert all(v.exact for v in got.values())
    big = Connect4State.from_moves(Connect4Config(8, 7), [3, 4])
    start = time.process_time()  # CPU time (every thread's): a busy machine gives less
    hint = move_values(big, time_limit=0.3)
    # No patience there: 0.3 s on the two proof threads, not HINT_PATIENCE (wide margin).
    assert time.process_time() - start < 5.0
    assert not all(v.exact for v in hint.values())
    # The patience is a bound, not a wait: with none left, an estimate again.
    monkeypatch.setattr(solver_module, "HINT_PATIENCE", 0.0)
    assert not all(v.exact for v in move_values(
        sensible_game(Connect4Config(7, 6), 9, rng), time_limit=1e-9).values())


def test_finished_games() -> None:
    cfg = Connect4Config(4, 4)
    won = Connect4State.from_moves(cfg, [0, 1, 0, 1, 0, 1, 0])
    full = Connect4State.from_moves(cfg, [0, 1, 0, 1, 1, 0, 1, 0, 2, 3, 2, 3, 3, 2, 3, 2])
    assert solve_position(won) == -1 and solve_position(full) == 0
    for state in (won, full):
        assert exact_values(state) == {} and move_values(state) == {}
        assert estimate_values(state) == {}


# --- published results -----------------------------------------------------------------------

# John Tromp's table of Connect Four results by board size (width × height,
# four in a row); 7×6 itself is a first-player win (Allen 1988, Allis 1988),
# out of reach of a Python search in a test. The three fast ones also agree
# with the brute force above (4×4 in a test; 5×4 and 4×5 are minutes of it).
PUBLISHED_FAST = [(4, 4, 0), (5, 4, 0), (4, 5, 0)]
PUBLISHED_SLOW = [(5, 5, 0), (6, 4, -1), (4, 6, 0)]


@pytest.mark.slow
@pytest.mark.parametrize("cols,rows,result", PUBLISHED_FAST)
def test_published_small_boards(cols: int, rows: int, result: int) -> None:
    assert solve_position(Connect4State.new(Connect4Config(cols, rows))) == result


@pytest.mark.slow
@pytest.mark.parametrize("cols,rows,result", PUBLISHED_SLOW)
def test_published_boards_a_few_seconds_each(cols: int, rows: int, result: int) -> None:
    assert solve_position(Connect4State.new(Connect4Config(cols, rows))) == result


# --- limits --------------------------------------------------------------------------------


@pytest.mark.slow
def test_time_limits_are_kept() -> None:
    empty = Connect4State.new(Connect4Config(8, 7))  # no opening book answers it
    start = time.process_time()
    with pytest.raises(SearchTimeout):
        solve_position(empty, time_limit=0.2)
    assert time.process_time() - start < 0.6
    with pytest.raises(SearchTimeout):
        exact_values(empty, deadline=time.monotonic() + 0.1)
    with pytest.raises(SearchTimeout):
        ExactSolver()(empty, threading.Event(), time.monotonic() + 0.1)


@pytest.mark.slow
def test_cancel_stops_every_search() -> None:
    empty = Connect4State.new(Connect4Config(8, 7))  # no opening book answers it
    cancel = threading.Event()
    cancel.set()
    for call in (lambda: solve_position(empty, cancel=cancel),
                 lambda: exact_values(empty, cancel),
                 lambda: move_values(empty, cancel),
                 lambda: estimate_values(empty, cancel)):
        with pytest.raises(Cancelled):
            call()
    # Set while searching: stops within a poll.
    later = threading.Event()
    timer = threading.Timer(0.2, later.set)
    timer.start()
    start = time.process_time()
    with pytest.raises(Cancelled):
        solve_position(empty, time_limit=30, cancel=later)
    assert time.process_time() - start < 0.8


@pytest.mark.parametrize("limit", [0.01, pytest.param(0.3, marks=pytest.mark.slow),
                                   pytest.param(1.0, marks=pytest.mark.slow)])
def test_hints_fall_back_to_estimates_within_the_limit(limit: float) -> None:
    state = Connect4State.from_moves(Connect4Config(8, 7), [3])  # beyond any book
    start = time.process_time()
    values = move_values(state, time_limit=limit)
    elapsed = time.process_time() - start
    # CPU time (a busy machine does not stretch it), of every thread: the columns are
    # proven on up to solve_pool.WORKERS threads at once until the deadline.
    assert elapsed < solve_pool.WORKERS * limit + 0.15
    assert set(values) == set(state.legal_moves())
    assert all(not v.exact and v.label().startswith("~") for v in values.values())
    assert {v.label() for v in values.values()} <= {"~W", "~D", "~L"}


def test_estimates_see_immediate_wins_and_losses() -> None:
    # X threatens the bottom row on both sides (columns 3 to 5 held): O to move has lost.
    state = Connect4State.from_moves(Connect4Config(), [2, 2, 3, 3, 4])
    values = estimate_values(state, time_limit=0.3)
    assert all(v.outcome == "loss" for v in values.values())
    # X to move can win at once in column 2 or 6.
    won = Connect4State.from_moves(Connect4Config(), [2, 2, 3, 3, 4, 6])
    values = estimate_values(won, time_limit=0.3)
    assert values[1].outcome == values[5].outcome == "win"
    assert values[1].remoteness == 1


@pytest.mark.slow
def test_hints_are_exact_where_the_solver_finishes() -> None:
    state = random_positions(Connect4Config(7, 6), 28, 30, 1, seed=3)[0]
    values = move_values(state, time_limit=5.0)
    assert all(v.exact for v in values.values())
    expected = brute_move_values(state)
    assert {c: as_pair(v) for c, v in values.items()} == expected


def test_search_state_passes_through() -> None:
    search = C4Search.new(4, 4, 4)
    assert search_state(search) is search
    assert solve_position(search) == 0
    assert "C4Search(" in repr(search.play(1))
