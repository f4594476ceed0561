"""Perfect tic-tac-toe: the solver against plain minimax, published results, the agent."""

from __future__ import annotations

import random
import threading
import time

import pytest

from engine.ai.agent import Cancelled
from engine.ai.negamax import SearchTimeout
from games.tictactoe.bitboard import layout
from games.tictactoe.perfect import (
    MoveValue,
    PerfectAgent,
    move_values,
    position_value,
    solve_mnk,
)
from games.tictactoe.rules import MNKConfig, TicTacToeState
from games.tictactoe.search_state import MNKSearchState
from tests.support.oracles import minimax, reachable

# --- plain exhaustive minimax with remoteness ---------------------------------------------

RANK = {"win": 2, "draw": 1, "loss": 0}


def rank(outcome: str, plies: int) -> tuple[int, int]:
    """Larger is better for the mover: quickest win, then draw, then longest loss."""
    return (RANK[outcome], -plies if outcome == "win" else plies if outcome == "loss" else 0)


ALL_3X3 = sorted(reachable(MNKConfig()), key=lambda s: s.board)


def move_value_by_minimax(state: TicTacToeState, move: int) -> tuple[str, int]:
    outcome, plies = minimax(state.play(move))
    return {"win": "loss", "loss": "win", "draw": "draw"}[outcome], plies + 1


# --- exhaustive agreement on 3×3 -------------------------------------------------------------


def test_position_values_agree_with_minimax_on_every_reachable_3x3_position() -> None:
    assert len(ALL_3X3) == 5478
    outcomes = set()
    for s in ALL_3X3:
        value = position_value(s)
        assert (value.outcome, value.remoteness) == minimax(s), s.to_rows()
        assert value.exact
        outcomes.add((value.outcome, value.remoteness))
    # The check is not vacuous: every kind of result occurs, at many distances.
    assert {o for o, _ in outcomes} == {"win", "draw", "loss"}
    assert len(outcomes) > 12


@pytest.mark.parametrize("rows,cols,k", [(1, 1, 1), (2, 2, 1), (2, 2, 2), (1, 5, 3), (2, 3, 2),
                                         (3, 2, 3), pytest.param(2, 4, 3, marks=pytest.mark.slow),
                                         pytest.param(3, 3, 2, marks=pytest.mark.slow),
                                         pytest.param(1, 7, 3, marks=pytest.mark.slow)])
def test_every_position_of_small_odd_shapes_agrees_with_minimax(rows, cols, k) -> None:
    for s in reachable(MNKConfig(rows, cols, k)):
        value = position_value(s)
        assert (value.outcome, value.remoteness) == minimax(s), s.to_rows()
        if not s.is_terminal():
            for move, v in move_values(s, time_limit=None).items():
                assert (v.outcome, v.remoteness) == move_value_by_minimax(s, move)


@pytest.mark.slow
def test_move_values_agree_with_minimax_for_every_move_of_every_3x3_position() -> None:
    for s in ALL_3X3:
        values = move_values(s, time_limit=None)
        if s.is_terminal():
            assert values == {}
            continue
        assert set(values) == set(s.legal_moves())
        for move, value in values.items():
            assert (value.outcome, value.remoteness) == move_value_by_minimax(s, move), \
                (s.to_rows(), move)
            assert value.exact


@pytest.mark.slow
def test_search_state_hooks_never_claim_anything_false_on_3x3() -> None:
    """forced_outcome, outcome_bounds and the pruned move list, checked against minimax."""
    for s in ALL_3X3:
        if s.is_terminal():
            continue
        search = MNKSearchState.from_rules(s)
        outcome, plies = minimax(s)
        sign = RANK[outcome] - 1
        forced = search.forced_outcome()
        if forced is not None:
            assert forced == (sign, plies)
        lo, hi = search.outcome_bounds()
        assert lo <= sign <= hi
        kept = search.ordered_moves()
        best = max(rank(*move_value_by_minimax(s, m)) for m in s.legal_moves())
        assert max(rank(*move_value_by_minimax(s, m)) for m in kept) == best


def _mid_game_positions(config: MNKConfig, marks: int, count: int, seed: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = TicTacToeState.new(config)
        for _ in range(marks):
            if s.is_terminal():
                break
            s = s.play(rng.choice(s.legal_moves()))
        if not s.is_terminal():
            out.append(s)
    return out


@pytest.mark.parametrize("rows,cols,k,marks", [pytest.param(4, 4, 4, 7, marks=pytest.mark.slow),
                                               pytest.param(4, 4, 3, 6, marks=pytest.mark.slow),
                                               (4, 3, 3, 4),
                                               pytest.param(5, 4, 4, 10, marks=pytest.mark.slow)])
def test_move_values_agree_with_minimax_on_larger_boards(rows, cols, k, marks) -> None:
    for s in _mid_game_positions(MNKConfig(rows, cols, k), marks, 8, seed=rows * 100 + k):
        values = move_values(s, time_limit=None)
        for move, value in values.items():
            assert (value.outcome, value.remoteness) == move_value_by_minimax(s, move), \
                (s.to_rows(), move)
        assert (position_value(s).outcome, position_value(s).remoteness) == minimax(s)


@pytest.mark.slow
@pytest.mark.parametrize("rows,cols,k,marks", [(4, 4, 4, 7), (5, 4, 4, 11)])
def test_hook_claims_hold_on_larger_boards(rows, cols, k, marks) -> None:
    """The Erdős–Selfridge and reach bounds, and forced results, against minimax."""
    claims = 0
    for s in _mid_game_positions(MNKConfig(rows, cols, k), marks, 15, seed=rows + 10 * k):
        for move in [None, *s.legal_moves()]:
            t = s if move is None else s.play(move)
            if t.is_terminal():
                continue
            search = MNKSearchState.from_rules(t)
            outcome, plies = minimax(t)
            sign = RANK[outcome] - 1
            lo, hi = search.outcome_bounds()
            assert lo <= sign <= hi, t.to_rows()
            claims += (lo, hi) != (-1, 1)
            forced = search.forced_outcome()
            assert forced is None or forced == (sign, plies), t.to_rows()
    assert claims > 30  # the bounds did say something, often


def test_symmetric_positions_share_a_canonical_key() -> None:
    lay = layout(4, 4, 4)
    rng = random.Random(2)
    for _ in range(50):
        s = MNKSearchState.new(4, 4, 4)
        for _ in range(rng.randrange(0, 9)):
            s = s.play(rng.choice(s.legal_moves()))
        x, o = s.xo()
        for perm in lay.symmetries:
            image = MNKSearchState.from_bits(s.g, lay.permute(x, perm), lay.permute(o, perm))
            assert image.search_key() == s.search_key()


@pytest.mark.slow
def test_search_state_round_trips_and_follows_the_rules() -> None:
    rng = random.Random(4)
    for rows, cols, k in ((3, 3, 3), (4, 4, 4), (5, 4, 3), (6, 7, 4)):
        for _ in range(20):
            rules = TicTacToeState.new(MNKConfig(rows, cols, k))
            search = MNKSearchState.from_rules(rules)
            while not rules.is_terminal():
                assert search.legal_moves() == rules.legal_moves()
                assert search.current_player() == rules.to_move
                move = rng.choice(rules.legal_moves())
                rules, search = rules.play(move), search.play(move)
                back = search.to_rules()
                assert (back.board, back.to_move, back.winner, back.last_move) == \
                    (rules.board, rules.to_move, rules.winner, rules.last_move)
                assert search.is_terminal() == rules.is_terminal()
                assert search.returns() == rules.returns()
            assert search.legal_moves() == []


# --- empty-board results (published) ------------------------------------------------------


@pytest.mark.parametrize("rows,cols,k,expected", [
    (3, 3, 3, 0),   # the classic game is a draw
    (4, 3, 3, 1),   # a 4×3 board with 3 in a row is a first-player win
    (3, 4, 3, 1),   # the same board turned over
    (4, 4, 3, 1),
    (4, 4, 4, 0),   # the headline: 4×4 with 4 in a row is a draw
    (5, 4, 4, 0),
    # under a second with the Erdős–Selfridge bound (tests/benchmarks): the full run only
    pytest.param(5, 5, 4, 0, marks=pytest.mark.slow),
])
def test_empty_board_results(rows, cols, k, expected) -> None:
    assert solve_mnk(rows, cols, k) == expected


def test_published_distances_to_the_win() -> None:
    """X's quickest forced win: 4 of its moves on 4×3 (7 plies), 3 on 4×4 with k = 3.

    Published in D. Friedman's table of optimal m,n,k games ("max turns to win"
    for 3,4,3 and 4,4,3), http://dfriedman.org/ramblings/2020/12/31/optimal-mnk.html
    """
    assert position_value(TicTacToeState.new(MNKConfig(4, 3, 3))) == MoveValue("win", 7, True)
    assert position_value(TicTacToeState.new(MNKConfig(3, 4, 3))) == MoveValue("win", 7, True)
    assert position_value(TicTacToeState.new(MNKConfig(4, 4, 3))) == MoveValue("win", 5, True)


def test_three_player_boards_are_refused() -> None:
    three = TicTacToeState.new(MNKConfig(4, 4, 3, players=3))
    with pytest.raises(ValueError):
        move_values(three)
    with pytest.raises(ValueError):
        PerfectAgent().choose_move(three, threading.Event())
    with pytest.raises(ValueError):
        MNKSearchState.from_rules(three)


@pytest.mark.slow
def test_solve_mnk_respects_its_time_limit() -> None:
    start = time.process_time()
    with pytest.raises(SearchTimeout):
        solve_mnk(7, 7, 5, time_limit=0.2)
    assert time.process_time() - start < 1.0


# --- the Perfect agent ------------------------------------------------------------------------


def test_perfect_agent_never_loses_from_either_seat_against_every_line() -> None:
    cancel = threading.Event()
    games = {"won": 0, "drawn": 0}

    def explore(state: TicTacToeState, agent: PerfectAgent, seat: int) -> None:
        if state.is_terminal():
            assert state.winner in (None, seat), state.to_rows()
            games["won" if state.winner == seat else "drawn"] += 1
            return
        if state.to_move == seat:
            move = agent.choose_move(state, cancel)
            # Never gives away value: the move keeps the position's exact outcome.
            assert move_value_by_minimax(state, move)[0] == minimax(state)[0]
            explore(state.play(move), agent, seat)
        else:
            for move in state.legal_moves():
                explore(state.play(move), agent, seat)

    for seat in (0, 1):
        explore(TicTacToeState.new(), PerfectAgent(seed=seat), seat)
    assert games["won"] > 0 and games["drawn"] > 0


@pytest.mark.slow
def test_perfect_agent_picks_a_best_move_in_every_3x3_position() -> None:
    """Quickest win, else draw, else longest loss — checked in all 4,520 live positions."""
    agent = PerfectAgent(seed=0)
    cancel = threading.Event()
    for s in ALL_3X3:
        if s.is_terminal():
            continue
        move = agent.choose_move(s, cancel)
        best = max(rank(*move_value_by_minimax(s, m)) for m in s.legal_moves())
        assert rank(*move_value_by_minimax(s, move)) == best, (s.to_rows(), move)
        assert agent.last_note is None


def test_takes_the_quickest_win_and_delays_a_loss() -> None:
    agent = PerfectAgent(seed=1)
    cancel = threading.Event()
    # X wins at once on cell 2 (right column); cells 0, 3 and 4 win too, but later.
    now = TicTacToeState.from_rows(["...", "..X", "OOX"])
    values = move_values(now, time_limit=None)
    assert {v.outcome for v in values.values()} == {"win"}
    assert sorted(v.remoteness for v in values.values()) == [1, 3, 3, 3, 5]
    assert agent.choose_move(now, cancel) == 2
    # O is lost whatever it does (X makes a fork), but blocking on cell 2 holds out longest.
    lost = TicTacToeState.from_rows(["...", "..X", ".OX"])
    values = move_values(lost, time_limit=None)
    assert {v.outcome for v in values.values()} == {"loss"}
    assert values[2].remoteness == 4 and max(v.remoteness for m, v in values.items() if m != 2) == 2
    assert agent.choose_move(lost, cancel) == 2


def test_varies_among_equally_good_moves() -> None:
    cancel = threading.Event()
    openings = {PerfectAgent(seed=seed).choose_move(TicTacToeState.new(), cancel)
                for seed in range(12)}
    assert len(openings) > 1  # every opening draws, so seeds pick different ones
    again = [PerfectAgent(seed=5).choose_move(TicTacToeState.new(), cancel) for _ in range(3)]
    assert len(set(again)) == 1  # and one seed repeats itself


@pytest.mark.slow
def test_respects_cancel() -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        PerfectAgent().choose_move(TicTacToeState.new(), cancel)
    cancel = threading.Event()
    timer = threading.Timer(0.1, cancel.set)
    timer.start()
    start = time.process_time()
    with pytest.raises(Cancelled):
        PerfectAgent(time_budget=30).choose_move(TicTacToeState.new(MNKConfig(6, 6, 4)), cancel)
    assert time.process_time() - start < 1.0
    timer.cancel()


class _Recorder:
    name = "recorder"

    def __init__(self) -> None:
        self.calls = 0

    def choose_move(self, state, cancel):
        self.calls += 1
        return state.legal_moves()[-1]


@pytest.mark.slow
def test_falls_back_with_a_note_when_the_board_is_too_big() -> None:
    cancel = threading.Event()
    recorder = _Recorder()
    agent = PerfectAgent(time_budget=0.2, fallback=recorder)
    state = TicTacToeState.new(MNKConfig(15, 15, 5)).play(112)
    start = time.process_time()
    move = agent.choose_move(state, cancel)
    assert time.process_time() - start < 1.2
    assert recorder.calls == 1 and move == state.legal_moves()[-1]
    assert agent.last_note and "too large to solve in 0.2 s" in agent.last_note
    assert "Hard" in agent.last_note
    # The default fallback is the Hard search player; the note clears once solvable.
    agent = PerfectAgent(time_budget=0.2, seed=1)
    move = agent.choose_move(state, cancel)
    assert move in state.legal_moves() and agent.last_note
    small = PerfectAgent(time_budget=0.2)
    small.choose_move(TicTacToeState.new(), cancel)
    assert small.last_note is None


@pytest.mark.slow
def test_move_values_fall_back_to_estimates() -> None:
    state = TicTacToeState.new(MNKConfig(9, 9, 5)).play(40).play(41)
    start = time.process_time()
    values = move_values(state, threading.Event(), time_limit=0.3)
    assert time.process_time() - start < 1.0
    assert values and set(values) <= set(state.legal_moves())
    assert all(isinstance(v, MoveValue) and not v.exact for v in values.values())
    assert {v.outcome for v in values.values()} <= {"win", "draw", "loss"}
