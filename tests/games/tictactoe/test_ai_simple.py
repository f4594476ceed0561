"""Easy, Medium (SPEC §2's weight grid) and the mistake wrapper."""

from __future__ import annotations

import math
import random
import threading

import pytest

from engine.ai.agent import Cancelled, MistakeAgent, RandomAgent
from games.tictactoe.ai_simple import (
    EasyAgent,
    MediumAgent,
    best_weighted_cells,
    line_windows,
    weight_grid,
    winning_moves,
)
from games.tictactoe.rules import CLASSIC, EMPTY, MNKConfig, TicTacToeState

NO_CANCEL = threading.Event()


def with_mover(state: TicTacToeState, player: int) -> TicTacToeState:
    """The same board with ``player`` to move (as the blog's "had it been X's turn")."""
    return TicTacToeState(state.config, state.board, player)


def all_classic_positions() -> list[TicTacToeState]:
    """Every position reachable in classic tic-tac-toe, terminal ones included."""
    seen: dict[tuple[int, ...], TicTacToeState] = {}
    stack = [TicTacToeState.new()]
    while stack:
        state = stack.pop()
        if state.board in seen:
            continue
        seen[state.board] = state
        stack.extend(state.play(m) for m in state.legal_moves())
    return list(seen.values())


def random_positions(config: MNKConfig, count: int, seed: int) -> list[TicTacToeState]:
    """Non-terminal positions met along seeded random playouts."""
    rng = random.Random(seed)
    out: list[TicTacToeState] = []
    while len(out) < count:
        state = TicTacToeState.new(config)
        for _ in range(rng.randrange(len(state.board))):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            out.append(state)
    return out


# --- the blog's worked example -------------------------------------------------

BLOG = ["XX.", "...", "O.."]


def test_blog_example_with_o_to_move() -> None:
    state = TicTacToeState.from_rows(BLOG)
    assert state.to_move == 1  # O
    # The blog's final weight grid, every cell of it.
    assert weight_grid(state) == [[0, 0, 11], [0, 3, 0], [0, 2, 2]]


def test_blog_example_had_it_been_x_to_move() -> None:
    grid = weight_grid(with_mover(TicTacToeState.from_rows(BLOG), 0))
    assert grid[0][2] == 101  # (1,3): X's completion cell, (w·h+1)² + 1 potential line
    assert grid[1][1] == 3  # centre
    assert best_weighted_cells(with_mover(TicTacToeState.from_rows(BLOG), 0)) == [2]


def test_empty_lines_and_blocked_lines_add_nothing() -> None:
    assert weight_grid(TicTacToeState.new()) == [[0] * 3] * 3
    # Every line through cell 4 holds both X and O: blocked, so nothing for the centre.
    state = TicTacToeState.from_rows(["XOX", "...", "OXO"])
    assert weight_grid(state)[1][1] == 0


def test_bigger_board_example_by_hand() -> None:
    # 4×4, four in a row: block weight 4·4+1 = 17, win weight 17² = 289.
    cfg = MNKConfig(4, 4, 4)
    state = TicTacToeState.from_rows(["XXX.", "O...", "O...", "...."], cfg)
    assert state.to_move == 1
    # Counted line by line: row 0 is X's completion (block); rows 1 and 2 are O
    # potential lines; columns 1 and 2 and the main diagonal are X potential
    # lines; column 0 is blocked; row 3, column 3 and the anti-diagonal are empty.
    assert weight_grid(state) == [
        [0, 0, 0, 17],
        [0, 3, 2, 1],
        [0, 2, 3, 1],
        [0, 1, 1, 1],
    ]
    assert weight_grid(with_mover(state, 0))[0][3] == 289


def test_three_players_any_single_opponent_is_blocked_mixed_lines_are_dead() -> None:
    cfg = MNKConfig(4, 4, 3, players=3)
    # X to move; X completes (3,0) in column 0; O threatens (0,2) via row 0;
    # △ threatens (0,3) and (3,3) via column 3.
    state = TicTacToeState.from_rows(["OO..", "X..T", "X..T", "...."], cfg)
    assert state.to_move == 0
    grid = weight_grid(state)
    block = 4 * 4 + 1
    assert grid[0][2] >= block and grid[3][3] >= block and grid[0][3] >= block
    assert grid[3][0] >= block * block  # X completes column 0
    mixed = TicTacToeState.from_rows(["XT..", "....", "O...", "...."],
                                     MNKConfig(4, 4, 3, players=3))
    # Lines through (1,0): column window rows 0..2 holds X and O (dead, adds
    # nothing); rows 1..3 holds only O (+1); its row and diagonal are empty.
    assert weight_grid(mixed)[1][0] == 1


# --- the priorities hold in general ----------------------------------------------

SHAPES = [MNKConfig(3, 3, 3), MNKConfig(4, 4, 3), MNKConfig(5, 5, 4), MNKConfig(6, 7, 4),
          MNKConfig(4, 4, 3, players=3), MNKConfig(5, 3, 3)]


@pytest.mark.parametrize("config", SHAPES, ids=lambda c: f"{c.rows}x{c.cols}k{c.k}p{c.players}")
def test_win_outweighs_block_outweighs_potential(config: MNKConfig) -> None:
    wins_seen = blocks_seen = 0
    for state in random_positions(config, 120, seed=config.rows * 100 + config.cols):
        flat = [w for row in weight_grid(state) for w in row]
        me = state.to_move
        wins = set(winning_moves(state))
        blocks = {c for p in range(config.players) if p != me
                  for c in winning_moves(state, p)} - wins
        rest = [c for c in state.legal_moves() if c not in wins and c not in blocks]
        others = [c for c in state.legal_moves() if c not in wins]
        if wins and others:
            assert min(flat[c] for c in wins) > max(flat[c] for c in others)
            wins_seen += 1
        if blocks and rest:
            assert min(flat[c] for c in blocks) > max(flat[c] for c in rest)
            blocks_seen += 1
        for c in range(len(flat)):
            if state.board[c] != EMPTY:
                assert flat[c] == 0
    assert wins_seen > 5 and blocks_seen > 5  # both properties were really exercised


def test_weights_are_safe_on_every_board_shape() -> None:
    # The blog's claim: no number of lower terms can reach one higher term. A cell
    # lies on at most L lines; block + potential terms sum to ≤ L·(wh+1), which
    # must stay below (wh+1)², and L potential terms below (wh+1): both hold iff L ≤ wh.
    for rows in range(1, 8):
        for cols in range(1, 8):
            for k in range(1, max(rows, cols) + 1):
                through = [0] * (rows * cols)
                for window in line_windows(rows, cols, k):
                    for c in window:
                        through[c] += 1
                assert max(through) <= rows * cols, (rows, cols, k)


def test_many_blocks_do_not_beat_one_win() -> None:
    # 5×5, two in a row (w·h+1 = 26): O surrounds the centre on four sides, so the
    # centre blocks four O lines at once (4 × 26); X at a corner wins next to it.
    cfg = MNKConfig(5, 5, 2)
    board = [EMPTY] * 25
    for r, c in ((1, 2), (2, 1), (2, 3), (3, 2)):
        board[r * 5 + c] = 1
    board[0] = 0
    state = TicTacToeState(cfg, tuple(board), 0)
    flat = [w for row in weight_grid(state) for w in row]
    assert flat[12] == 4 * 26
    wins = set(winning_moves(state))
    assert wins == {1, 5, 6}
    assert set(best_weighted_cells(state)) <= wins
    assert min(flat[c] for c in wins) > flat[12]


# --- the agents ------------------------------------------------------------------


@pytest.mark.slow
def test_medium_takes_wins_and_blocks_in_every_classic_position() -> None:
    agent = MediumAgent(seed=3)
    for state in all_classic_positions():
        if state.is_terminal():
            continue
        wins = set(winning_moves(state))
        blocks = set(winning_moves(state, 1 - state.to_move))
        choices = set(best_weighted_cells(state))  # every option Medium may pick
        if wins:
            assert choices <= wins
        elif blocks:
            assert choices <= blocks
        assert agent.choose_move(state, NO_CANCEL) in choices


@pytest.mark.slow
def test_medium_takes_wins_and_blocks_on_bigger_boards() -> None:
    agent = MediumAgent(seed=5)
    for config in (MNKConfig(5, 5, 4), MNKConfig(4, 4, 3, players=3)):
        for state in random_positions(config, 150, seed=11):
            wins = set(winning_moves(state))
            move = agent.choose_move(state, NO_CANCEL)
            if wins:
                assert move in wins
            elif config.players == 2 and winning_moves(state, 1 - state.to_move):
                assert move in winning_moves(state, 1 - state.to_move)


def test_medium_prefers_cells_on_most_potential_lines() -> None:
    # X corner, O centre, X to move. Potential lines: X's row 0 and column 0, O's
    # row 1, column 1 and anti-diagonal (the main diagonal is blocked, row 2 and
    # column 2 are empty). Cells 1, 2, 3, 6 lie on two of them, 5 and 7 on one, 8 on none.
    state = TicTacToeState.from_rows(["X..", ".O.", "..."])
    assert weight_grid(state) == [[0, 2, 2], [2, 0, 1], [2, 1, 0]]
    assert set(best_weighted_cells(state)) == {1, 2, 3, 6}
    agent = MediumAgent(seed=4)
    assert {agent.choose_move(state, NO_CANCEL) for _ in range(200)} == {1, 2, 3, 6}


@pytest.mark.slow
def test_easy_always_takes_a_win() -> None:
    agent = EasyAgent(seed=1)
    for state in all_classic_positions():
        if state.is_terminal():
            continue
        wins = winning_moves(state)
        move = agent.choose_move(state, NO_CANCEL)
        if wins:
            assert move in wins
            assert state.play(move).winner == state.to_move
        else:
            assert move in state.legal_moves()


def test_easy_is_otherwise_random() -> None:
    agent = EasyAgent(seed=2)
    start = TicTacToeState.new()
    seen = {agent.choose_move(start, NO_CANCEL) for _ in range(300)}
    assert seen == set(range(9))


def test_agents_have_names_and_honour_cancel() -> None:
    cancel = threading.Event()
    cancel.set()
    for agent in (EasyAgent(), MediumAgent(), MistakeAgent(MediumAgent(), 0.5)):
        with pytest.raises(Cancelled):
            agent.choose_move(TicTacToeState.new(), cancel)
    assert EasyAgent().name == "easy" and MediumAgent().name == "medium"


# --- MistakeAgent ---------------------------------------------------------------


class CountingAgent:
    """Always the first legal move; counts how often it is asked."""

    name = "spy"

    def __init__(self) -> None:
        self.calls = 0

    def choose_move(self, state: TicTacToeState, cancel: threading.Event) -> int:
        self.calls += 1
        return state.legal_moves()[0]


def test_mistake_rate_zero_never_deviates() -> None:
    inner = CountingAgent()
    agent = MistakeAgent(inner, 0.0, seed=1)
    state = TicTacToeState.new()
    assert all(agent.choose_move(state, NO_CANCEL) == 0 for _ in range(500))
    assert inner.calls == 500


def test_mistake_rate_one_always_plays_random() -> None:
    inner = CountingAgent()
    agent = MistakeAgent(inner, 1.0, seed=1)
    state = TicTacToeState.new()
    moves = [agent.choose_move(state, NO_CANCEL) for _ in range(900)]
    assert inner.calls == 0
    counts = [moves.count(c) for c in range(9)]
    assert all(60 <= n <= 140 for n in counts), counts  # about 100 each


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mistake_rate_holds_statistically(seed: int) -> None:
    inner = CountingAgent()
    agent = MistakeAgent(inner, 0.3, seed=seed)
    trials = 4000
    state = TicTacToeState.new(CLASSIC)
    for _ in range(trials):
        agent.choose_move(state, NO_CANCEL)
    mistakes = trials - inner.calls
    sigma = math.sqrt(trials * 0.3 * 0.7)
    assert abs(mistakes - 0.3 * trials) < 4 * sigma, mistakes


@pytest.mark.parametrize("bad", [-0.01, 1.01, float("nan"), float("inf")])
def test_mistake_rate_outside_zero_one_is_rejected(bad: float) -> None:
    with pytest.raises(ValueError):
        MistakeAgent(RandomAgent(), bad)


def test_mistake_agent_name() -> None:
    assert MistakeAgent(MediumAgent(), 0.3).name == "medium, 30% mistakes"
    assert MistakeAgent(EasyAgent(), 0.0).name == "easy, 0% mistakes"
