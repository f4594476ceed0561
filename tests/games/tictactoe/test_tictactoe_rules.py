"""Rules of classic tic-tac-toe, checked exhaustively against brute force."""

from __future__ import annotations

import itertools

import pytest

from engine.model.rules import GameState, IllegalMove
from games.tictactoe.rules import CLASSIC, EMPTY, MNKConfig, TicTacToeState

LINES_3X3 = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
             (2, 4, 6)]


def brute_winner(board: tuple[int, ...]) -> set[int]:
    """Every player holding a complete line (scanning all eight lines)."""
    return {board[a] for a, b, c in LINES_3X3 if board[a] != EMPTY
            and board[a] == board[b] == board[c]}


def all_reachable() -> dict[tuple[int, ...], TicTacToeState]:
    """Every position reachable from the empty board by legal play."""
    seen: dict[tuple[int, ...], TicTacToeState] = {}
    stack = [TicTacToeState.new()]
    while stack:
        s = stack.pop()
        if s.board in seen:
            continue
        seen[s.board] = s
        stack.extend(s.play(m) for m in s.legal_moves())
    return seen


REACHABLE = all_reachable()


def test_conforms_to_engine_interface() -> None:
    assert isinstance(TicTacToeState.new(), GameState)


def test_reachable_position_count_is_the_known_5478() -> None:
    assert len(REACHABLE) == 5478


def test_x_moves_first_and_turns_alternate() -> None:
    s = TicTacToeState.new()
    assert s.current_player() == 0
    s = s.play(4)
    assert s.current_player() == 1 and s.board[4] == 0
    s = s.play(0)
    assert s.current_player() == 0 and s.board[0] == 1


def test_every_reachable_position_agrees_with_brute_force() -> None:
    for board, s in REACHABLE.items():
        _check_position(board, s)


def _check_position(board: tuple[int, ...], s: TicTacToeState) -> None:
    winners = brute_winner(board)
    assert len(winners) <= 1  # play stops at the first line
    full = EMPTY not in board
    if winners:
        (w,) = winners
        assert s.winner == w and s.is_terminal() and not s.is_draw
        assert s.legal_moves() == []
        assert s.returns() == tuple(1.0 if p == w else -1.0 for p in range(2))
        assert tuple(s.win_line) in LINES_3X3 and all(board[i] == w for i in s.win_line)
    else:
        assert s.winner is None and s.win_line == ()
        assert s.is_draw == full and s.is_terminal() == full
        assert s.legal_moves() == [i for i in range(9) if board[i] == EMPTY]
        assert s.returns() == (0.0, 0.0)


def test_draw_detected_on_full_board() -> None:
    s = TicTacToeState.new()
    for move in (0, 1, 2, 4, 3, 5, 7, 6, 8):  # X O X / X O O / O X X
        s = s.play(move)
    assert s.is_draw and s.is_terminal() and s.winner is None


@pytest.mark.parametrize("move", [-1, 9, "4", None, 4.0])
def test_illegal_moves_rejected(move: object) -> None:
    with pytest.raises(IllegalMove):
        TicTacToeState.new().play(move)  # type: ignore[arg-type]


def test_taken_cell_and_finished_game_rejected() -> None:
    s = TicTacToeState.new().play(0)
    with pytest.raises(IllegalMove):
        s.play(0)
    won = TicTacToeState.from_rows(["XXX", "OO.", "..."])
    with pytest.raises(IllegalMove):
        won.play(8)


def test_states_are_immutable_values() -> None:
    s = TicTacToeState.new()
    t = s.play(4)
    assert s.board == (EMPTY,) * 9 and t is not s
    assert s.play(4) == t and hash(s.play(4)) == hash(t)


def test_from_rows_round_trip_and_validation() -> None:
    s = TicTacToeState.from_rows(["XO.", ".X.", "..O"])
    assert s.to_rows() == ["XO.", ".X.", "..O"] and s.current_player() == 0
    with pytest.raises(ValueError):
        TicTacToeState.from_rows(["XX.", "...", "..."])  # X cannot be two ahead


@pytest.mark.slow
def test_win_scan_on_larger_boards_matches_brute_force() -> None:
    """On m×n×k boards, the local scan from the last move agrees with a full scan."""
    import random

    rng = random.Random(7)
    for rows, cols, k in [(4, 4, 3), (5, 4, 4), (6, 7, 4), (15, 15, 5), (3, 5, 3)]:
        cfg = MNKConfig(rows, cols, k)
        for _ in range(30):
            s = TicTacToeState.new(cfg)
            while not s.is_terminal():
                s = s.play(rng.choice(s.legal_moves()))
                assert (s.winner is not None) == _full_scan(s.board, rows, cols, k, 1 - s.to_move)


def _full_scan(board: tuple[int, ...], rows: int, cols: int, k: int, player: int) -> bool:
    for r, c in itertools.product(range(rows), range(cols)):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(r + i * dr, c + i * dc) for i in range(k)]
            if all(0 <= rr < rows and 0 <= cc < cols and board[rr * cols + cc] == player
                   for rr, cc in cells):
                return True
    return False


def test_config_validation() -> None:
    with pytest.raises(ValueError):
        MNKConfig(3, 3, 4)
    with pytest.raises(ValueError):
        MNKConfig(0, 3, 3)
    with pytest.raises(ValueError):
        MNKConfig(3, 3, 3, players=4)
    assert CLASSIC == MNKConfig()


def test_counter_method_reproduces_the_worked_example_of_spec_3() -> None:
    """Seed 004: X (0,0), O (1,0), X (1,1), O (0,2), X (2,2): X wins on counter 6."""
    s = TicTacToeState.new()
    expected = [  # (X's array, O's array) after each move, as printed in the document
        ([1, 0, 0, 1, 0, 0, 1, 0], [0] * 8),
        ([1, 0, 0, 1, 0, 0, 1, 0], [0, 1, 0, 1, 0, 0, 0, 0]),
        ([1, 1, 0, 1, 1, 0, 2, 1], [0, 1, 0, 1, 0, 0, 0, 0]),
        ([1, 1, 0, 1, 1, 0, 2, 1], [1, 1, 0, 1, 0, 1, 0, 1]),
        ([1, 1, 1, 1, 1, 1, 3, 1], [1, 1, 0, 1, 0, 1, 0, 1]),
    ]
    for (r, c), (x_arr, o_arr) in zip([(0, 0), (1, 0), (1, 1), (0, 2), (2, 2)], expected,
                                      strict=True):
        s = s.play(r * 3 + c)
        assert list(s.counter_array(0)) == x_arr and list(s.counter_array(1)) == o_arr
    assert s.winner == 0 and s.win_line == (0, 4, 8)  # counter 6 = 2n: the main diagonal


@pytest.mark.slow
def test_counters_and_scan_agree_on_random_square_games() -> None:
    """k = n boards use counters; the same games replayed with the scan give the same result."""
    import random

    rng = random.Random(11)
    for n in (3, 4, 5, 7):
        cfg = MNKConfig(n, n, n)
        for _ in range(200):
            s = TicTacToeState.new(cfg)
            assert s.counters is not None
            while not s.is_terminal():
                s = s.play(rng.choice(s.legal_moves()))
            mover = 1 - s.to_move
            scanned = s._line_through(s.last_move, mover)
            assert (s.winner is not None) == bool(scanned) == _full_scan(s.board, n, n, n, mover)
            if s.winner is not None:
                assert set(s.win_line) == set(scanned)
            assert s.counters == TicTacToeState.from_rows(s.to_rows(), cfg).counters


def test_counters_not_used_when_k_is_not_the_side() -> None:
    assert TicTacToeState.new(MNKConfig(4, 4, 3)).counters is None
    with pytest.raises(ValueError):
        TicTacToeState.new(MNKConfig(4, 4, 3)).counter_array(0)
