"""The Hard search player: tactics, time budget, strength, and its incremental evaluation."""

from __future__ import annotations

import random
import threading
import time

import pytest

from engine.ai.agent import Cancelled, RandomAgent
from games.tictactoe.hard_search import HardSearchAgent, HeuristicMNKState, estimate_values
from games.tictactoe.rules import MNKConfig, TicTacToeState

BIG = MNKConfig(15, 15, 5)


def _board(rows: list[str], k: int) -> TicTacToeState:
    return TicTacToeState.from_rows(rows, MNKConfig(len(rows), len(rows[0]), k))


def _blank(n: int) -> list[str]:
    return ["." * n for _ in range(n)]


def _put(rows: list[str], marks: dict[tuple[int, int], str]) -> list[str]:
    grid = [list(r) for r in rows]
    for (r, c), ch in marks.items():
        grid[r][c] = ch
    return ["".join(r) for r in grid]


def test_takes_an_immediate_win_on_every_board() -> None:
    cancel = threading.Event()
    # 15×15: X has four in a row (open at one end only), O has an open three elsewhere.
    rows = _put(_blank(15), {(7, 3): "X", (7, 4): "X", (7, 5): "X", (7, 6): "X", (7, 2): "O",
                             (3, 9): "O", (4, 9): "O", (5, 9): "O"})
    state = TicTacToeState.from_rows(rows, BIG)
    assert state.to_move == 0
    assert HardSearchAgent(seed=1).choose_move(state, cancel) == 7 * 15 + 7
    # 7×6, k = 4: a diagonal win among other plausible moves.
    state = _board(["......", "......", "......", "..X...", ".X.O..", "X..O..", "OX.O.."], 4)
    assert state.to_move == 0  # O threatens the column too, but X moves first
    assert HardSearchAgent(seed=2).choose_move(state, cancel) == 2 * 6 + 3


def test_blocks_an_immediate_loss() -> None:
    cancel = threading.Event()
    # O to move; X threatens to complete five at (7, 7); O has nothing of its own.
    rows = _put(_blank(15), {(7, 3): "X", (7, 4): "X", (7, 5): "X", (7, 6): "X", (7, 2): "O",
                             (0, 0): "O", (14, 14): "O", (14, 0): "O", (10, 3): "X"})
    state = TicTacToeState.from_rows(rows, BIG)
    assert state.to_move == 1
    for seed in range(3):
        assert HardSearchAgent(seed=seed).choose_move(state, cancel) == 7 * 15 + 7
    # 5×5, k = 4, O to move: X threatens the column.
    state = _board(["..X..", "..X..", "..X.O", ".O...", "....."], 4)
    assert HardSearchAgent(seed=0).choose_move(state, cancel) == 3 * 5 + 2


@pytest.mark.slow
def test_blocks_an_open_three_before_it_becomes_unstoppable() -> None:
    # X has an open three (.XXX.) on 15×15; if O ignores it, X makes an open four.
    rows = _put(_blank(15), {(7, 5): "X", (7, 6): "X", (7, 7): "X", (8, 8): "O", (6, 2): "O"})
    state = TicTacToeState.from_rows(rows, BIG)
    move = HardSearchAgent(seed=3).choose_move(state, threading.Event())
    assert move in (7 * 15 + 4, 7 * 15 + 8, 7 * 15 + 3, 7 * 15 + 9)


@pytest.mark.slow
def test_moves_within_the_time_budget_on_15x15() -> None:
    agents = [HardSearchAgent(time_budget=0.1, seed=1), HardSearchAgent(time_budget=0.1, seed=2)]
    cancel = threading.Event()
    state = TicTacToeState.new(BIG)
    worst = 0.0
    for _ in range(16):
        if state.is_terminal():
            break
        start = time.process_time()
        move = agents[state.to_move].choose_move(state, cancel)
        worst = max(worst, time.process_time() - start)
        state = state.play(move)
    assert worst < 0.1 + 0.15  # slack for a busy machine; the search stops at 85 %


def test_respects_cancel() -> None:
    cancel = threading.Event()
    state = TicTacToeState.new(BIG).play(112).play(113)
    timer = threading.Timer(0.05, cancel.set)
    timer.start()
    start = time.process_time()
    with pytest.raises(Cancelled):
        HardSearchAgent(time_budget=10).choose_move(state, cancel)
    assert time.process_time() - start < 0.5
    timer.cancel()


def _play(first, second, config: MNKConfig) -> int | None:
    cancel = threading.Event()
    state = TicTacToeState.new(config)
    agents = (first, second)
    while not state.is_terminal():
        state = state.play(agents[state.to_move].choose_move(state, cancel))
    return state.winner


@pytest.mark.slow
def test_beats_a_random_player_on_7x6_k4() -> None:
    config = MNKConfig(7, 6, 4)
    wins = 0
    for seed in range(6):
        hard = HardSearchAgent(time_budget=0.05, seed=seed)
        rnd = RandomAgent(seed=100 + seed)
        if seed % 2 == 0:
            wins += _play(hard, rnd, config) == 0
        else:
            wins += _play(rnd, hard, config) == 1
    assert wins >= 5


@pytest.mark.slow
def test_estimates_cover_the_legal_moves_and_are_marked_inexact() -> None:
    state = TicTacToeState.new(MNKConfig(9, 9, 5)).play(40).play(41).play(31)
    values = estimate_values(state, threading.Event(), time_limit=0.3)
    assert set(values) == set(state.legal_moves())
    assert all(not v.exact for v in values.values())
    # A winning move is recognised as a (found) win in 1.
    win = TicTacToeState.from_rows(["XXX..", "OO...", "O....", ".....", "....."],
                                   MNKConfig(5, 5, 4))
    values = estimate_values(win, threading.Event(), time_limit=0.3)
    assert values[3].outcome == "win" and values[3].remoteness == 1


@pytest.mark.slow
def test_incremental_evaluation_matches_a_fresh_computation() -> None:
    """Everything play() updates on the lines through one cell equals a full recount."""
    rng = random.Random(9)
    for rows, cols, k in ((15, 15, 5), (7, 6, 4), (4, 4, 4)):
        for _ in range(6):
            s = HeuristicMNKState.from_rules(TicTacToeState.new(MNKConfig(rows, cols, k)))
            while not s.is_terminal():
                x, o = s.xo()
                fresh = HeuristicMNKState.from_bits(s.g, x, o)
                for name in ("me", "opp", "empty", "live_me", "live_opp", "player", "n_empty",
                             "won", "near", "s_me", "s_opp", "cellv"):
                    assert getattr(s, name) == getattr(fresh, name), name
                # t_* may also hold occupied cells; only the empty part matters.
                assert s.t_me & s.empty == fresh.t_me & s.empty
                assert s.t_opp & s.empty == fresh.t_opp & s.empty
                s = s.play(rng.choice(s.legal_moves()))
