"""SPEC §4's three-player 4×4 game (seed 000) and its computer player."""

from __future__ import annotations

import random
import threading
import time

import pytest

from engine.ai.agent import Cancelled
from games.tictactoe.ai_simple import line_windows, winning_moves
from games.tictactoe.ai_three import (
    LEVELS,
    THREE_PLAYER_4X4,
    ThreePlayerAgent,
    evaluate,
    forced_moves,
)
from games.tictactoe.bitboard import layout
from games.tictactoe.rules import EMPTY, MNKConfig, TicTacToeState

NO_CANCEL = threading.Event()
SUB_BOARDS = [(0, 0), (0, 1), (1, 0), (1, 1)]  # top-left corners of the four 3×3 sub-boards


def sub_board_lines() -> set[frozenset[int]]:
    """Every row, column and diagonal of the four 3×3 sub-boards, as 4×4 cell sets."""
    local = [((0, 0), (0, 1), (0, 2)), ((1, 0), (1, 1), (1, 2)), ((2, 0), (2, 1), (2, 2)),
             ((0, 0), (1, 0), (2, 0)), ((0, 1), (1, 1), (2, 1)), ((0, 2), (1, 2), (2, 2)),
             ((0, 0), (1, 1), (2, 2)),
             ((0, 2), (1, 1), (2, 0))]  # s13 = s22 = s31, the corrected anti-diagonal
    return {frozenset((dr + r) * 4 + dc + c for r, c in line)
            for dr, dc in SUB_BOARDS for line in local}


def document_says_over(board: tuple[int, ...]) -> bool:
    """Seed 000's end test: some sub-board has three equal non-empty symbols in a line."""
    return any(len({board[c] for c in line}) == 1 and board[next(iter(line))] != EMPTY
               for line in sub_board_lines())


def play_line(line: tuple[int, ...], player: int) -> TicTacToeState:
    """A legal game in which ``player`` completes ``line`` with their third mark.

    The others fill in cells away from the line, never making a line of their own.
    """
    state = TicTacToeState.new(THREE_PLAYER_4X4)
    todo = list(line)
    while todo:
        if state.to_move == player:
            state = state.play(todo.pop(0))
            continue
        for cell in state.legal_moves():
            if cell in line:
                continue
            after = state.play(cell)
            if after.winner is None:
                state = after
                break
        else:  # pragma: no cover - the 4×4 board always has room
            raise AssertionError("no filler move")
        assert state.winner is None
    return state


# --- the rules ------------------------------------------------------------------


def test_lines_of_three_are_exactly_the_sub_board_lines() -> None:
    expected = sub_board_lines()
    assert len(expected) == 24  # 32 sub-board lines, 8 of them shared by two sub-boards
    assert {frozenset(w) for w in line_windows(4, 4, 3)} == expected
    masks = layout(4, 4, 3).lines
    assert {frozenset(c for c in range(16) if m >> c & 1) for m in masks} == expected


@pytest.mark.parametrize("player", [0, 1, 2], ids=["player 1", "player 2", "player 3"])
def test_every_three_in_a_row_ends_the_game_for_its_player(player: int) -> None:
    for line in sorted(tuple(sorted(x)) for x in sub_board_lines()):
        state = play_line(line, player)
        assert state.winner == player, line
        assert state.win_line == line
        assert state.is_terminal() and state.legal_moves() == []
        assert state.returns() == tuple(1.0 if p == player else -1.0 for p in range(3))
        assert document_says_over(state.board)


@pytest.mark.slow
def test_rules_agree_with_the_document_on_random_games() -> None:
    rng = random.Random(2024)
    for _ in range(300):
        state = TicTacToeState.new(THREE_PLAYER_4X4)
        while True:
            assert (state.winner is not None) == document_says_over(state.board)
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))


def test_turn_order_is_one_two_three_one() -> None:
    state = TicTacToeState.new(THREE_PLAYER_4X4)
    assert state.num_players == 3 and state.to_move == 0 and state.board == (EMPTY,) * 16
    movers = []
    rng = random.Random(5)
    while not state.is_terminal():
        movers.append(state.to_move)
        cell = rng.choice(state.legal_moves())
        after = state.play(cell)
        assert after.board[cell] == state.to_move  # the mover's symbol lands on the cell
        state = after
    assert movers == [i % 3 for i in range(len(movers))]


def full_board_without_lines() -> list[int]:
    """A full 4×4 board with 6, 5, 5 marks of players 1, 2, 3 and no three in a row."""
    lines = [tuple(line) for line in sub_board_lines()]
    board = [EMPTY] * 16
    left = [6, 5, 5]

    def fill(cell: int) -> bool:
        if cell == 16:
            return True
        for p in range(3):
            if not left[p]:
                continue
            board[cell] = p
            if not any(cell in line and all(board[c] == p for c in line) for line in lines):
                left[p] -= 1
                if fill(cell + 1):
                    return True
                left[p] += 1
            board[cell] = EMPTY
        return False

    assert fill(0)
    return board


def test_full_board_without_a_line_is_a_draw() -> None:
    board = full_board_without_lines()
    queues = {p: [c for c in range(16) if board[c] == p] for p in range(3)}
    state = TicTacToeState.new(THREE_PLAYER_4X4)
    for turn in range(16):
        assert not state.is_terminal()
        state = state.play(queues[turn % 3].pop(0))
    assert state.is_terminal() and state.is_draw and state.winner is None
    assert state.returns() == (0.0, 0.0, 0.0)
    assert not document_says_over(state.board)


# --- the agent -------------------------------------------------------------------


def pos(*rows: str) -> TicTacToeState:
    return TicTacToeState.from_rows(list(rows), THREE_PLAYER_4X4)


def agents(budget: float = 0.05) -> list[ThreePlayerAgent]:
    return [ThreePlayerAgent(level, seed=i, time_budget=budget) for i, level in enumerate(LEVELS)]


def test_takes_an_immediate_win_before_blocking() -> None:
    # X to move: X completes row 0 at (0,2); O threatens (1,2) next.
    state = pos("XX..", "OO..", "T...", "T...")
    assert state.to_move == 0
    for agent in agents():
        assert agent.choose_move(state, NO_CANCEL) == 2


def test_blocks_the_next_player() -> None:
    # X to move, no win; O (next) threatens (1,2).
    state = pos("X...", "OO..", "...X", "T..T")
    assert state.to_move == 0 and not winning_moves(state)
    for agent in agents():
        assert agent.choose_move(state, NO_CANCEL) == 6


def test_prefers_blocking_the_next_player_over_the_third() -> None:
    # X to move; O (next) threatens (1,2), △ (after O) threatens (3,2).
    state = pos("X..X", "OO..", "....", "TT..")
    assert winning_moves(state, 1) == [6] and winning_moves(state, 2) == [14]
    for agent in agents():
        assert agent.choose_move(state, NO_CANCEL) == 6


def test_blocks_the_third_player_when_only_they_threaten() -> None:
    # X to move; only △ threatens, at (3,2). Medium and above block it (documented).
    state = pos("X..X", "O..O", "....", "TT..")
    assert winning_moves(state, 1) == [] and winning_moves(state, 2) == [14]
    for agent in agents()[1:]:
        assert agent.choose_move(state, NO_CANCEL) == 14


DOUBLE_THREAT = pos("OO.X", ".O.X", "T..T", "XT..")


@pytest.mark.slow
def test_next_player_with_two_threats_one_is_blocked() -> None:
    # O threatens 2 (row 0), 9 (column 1) and 10 (diagonal); X can stop only one
    # and must stop one.
    state = DOUBLE_THREAT
    assert state.to_move == 0 and not winning_moves(state)
    threats = set(winning_moves(state, 1))
    assert threats == {2, 9, 10}
    for agent in agents():
        assert agent.choose_move(state, NO_CANCEL) in threats


def random_positions(count: int, seed: int) -> list[TicTacToeState]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = TicTacToeState.new(THREE_PLAYER_4X4)
        for _ in range(rng.randrange(4, 14)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            out.append(state)
    return out


@pytest.mark.slow
def test_property_win_else_block_next_on_random_positions() -> None:
    checked = {"win": 0, "block next": 0}
    players = agents(budget=0.02)
    for state in random_positions(400, seed=99):
        wins = winning_moves(state)
        blocks = winning_moves(state, (state.to_move + 1) % 3)
        if not wins and not blocks:
            continue
        for agent in players:
            move = agent.choose_move(state, NO_CANCEL)
            if wins:
                assert state.play(move).winner == state.to_move
            else:
                assert move in blocks
        checked["win" if wins else "block next"] += 1
    assert checked["win"] > 20 and checked["block next"] > 20


@pytest.mark.slow
def test_free_moves_are_legal_and_hard_stays_in_budget() -> None:
    for state in random_positions(5, seed=3):
        cells, reason = forced_moves(state)
        for agent in agents(budget=0.05):
            start = time.process_time()
            move = agent.choose_move(state, NO_CANCEL)
            assert move in state.legal_moves()
            if reason != "free":
                assert move in cells
            assert time.process_time() - start < 1.0


def test_evaluation_respects_the_search_bounds() -> None:
    for state in random_positions(200, seed=8):
        values = evaluate(state)
        assert len(values) == 3
        assert all(-1.0 <= v <= 1.0 for v in values) and sum(values) <= 1e-9


def test_evaluation_sees_a_double_threat_of_the_next_player() -> None:
    values = evaluate(DOUBLE_THREAT)
    assert values[1] == max(values) and values[1] > 0.5


def test_levels_cancel_and_bad_arguments() -> None:
    cancel = threading.Event()
    cancel.set()
    for agent in agents():
        with pytest.raises(Cancelled):
            agent.choose_move(TicTacToeState.new(THREE_PLAYER_4X4), cancel)
    with pytest.raises(ValueError):
        ThreePlayerAgent("impossible")
    with pytest.raises(ValueError):
        ThreePlayerAgent(time_budget=0)
    assert ThreePlayerAgent().name == "hard"
    assert THREE_PLAYER_4X4 == MNKConfig(4, 4, 3, players=3)
