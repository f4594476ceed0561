"""Connect Four rules and parameters, checked against an independent naive board.

The naive board here is a list of rows (row 0 at the bottom) filled by hand,
and its winner is found by scanning every window of k cells on the board: no
code is shared with games/connect4/rules.py.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from engine.model.rules import GameState, IllegalMove
from games.connect4.params import PRESETS, SPEC, Connect4Params
from games.connect4.rules import (
    EMPTY,
    MAX_COLS,
    MAX_ROWS,
    MIN_COLS,
    MIN_ROWS,
    Connect4Config,
    Connect4State,
    new_game,
)

CONFIGS = [Connect4Config(4, 4), Connect4Config(7, 6), Connect4Config(9, 8), Connect4Config(5, 7),
           Connect4Config(4, 5, 3), Connect4Config(8, 6, 5), Connect4Config(6, 6, 6)]


# --- an independent reference ---------------------------------------------------------------


class NaiveBoard:
    """A board as ``rows`` lists of ``cols`` owners, row 0 at the bottom."""

    def __init__(self, cfg: Connect4Config) -> None:
        self.cfg = cfg
        self.grid = [[EMPTY] * cfg.cols for _ in range(cfg.rows)]
        self.turn = 0

    def drop(self, col: int) -> int:
        """Drop the mover's disc; return the row (from the bottom) it lands on."""
        for row in range(self.cfg.rows):
            if self.grid[row][col] == EMPTY:
                self.grid[row][col] = self.turn
                self.turn ^= 1
                return row
        raise AssertionError("naive board: full column")

    def winners(self) -> set[int]:
        """Every player owning some window of k cells, scanning the whole board."""
        cfg = self.cfg
        found = set()
        for r in range(cfg.rows):
            for c in range(cfg.cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + i * dr, c + i * dc) for i in range(cfg.k)]
                    if all(0 <= rr < cfg.rows and 0 <= cc < cfg.cols for rr, cc in cells):
                        owners = {self.grid[rr][cc] for rr, cc in cells}
                        if len(owners) == 1 and EMPTY not in owners:
                            found |= owners
        return found

    def open_columns(self) -> list[int]:
        return [c for c in range(self.cfg.cols) if self.grid[self.cfg.rows - 1][c] == EMPTY]


def random_game(cfg: Connect4Config, rng: random.Random) -> list[int]:
    """A random complete game's moves."""
    state = Connect4State.new(cfg)
    while not state.is_terminal():
        state = state.play(rng.choice(state.legal_moves()))
    return list(state.moves)


def check_against_naive(cfg: Connect4Config, moves: list[int]) -> None:
    """Play ``moves`` on both boards, comparing everything after every move."""
    state = Connect4State.new(cfg)
    naive = NaiveBoard(cfg)
    for ply, col in enumerate(moves):
        assert not state.is_terminal()
        assert state.current_player() == ply % 2
        assert state.legal_moves() == naive.open_columns()
        mover = state.current_player()
        row = naive.drop(col)
        before_height = state.height(col)
        state = state.play(col)
        # Gravity: the disc lands on top of the column.
        assert row == before_height and state.height(col) == before_height + 1
        assert state.cell(cfg.rows - 1 - row, col) == mover
        for r in range(cfg.rows):
            for c in range(cfg.cols):
                assert state.cell(cfg.rows - 1 - r, c) == naive.grid[r][c]
        winners = naive.winners()
        assert len(winners) <= 1
        assert state.winner == (winners.pop() if winners else None)
        assert state.last_move == col and state.moves == tuple(moves[:ply + 1])
        full = ply + 1 == cfg.cells
        assert state.is_terminal() == (state.winner is not None or full)
        if state.winner is not None:
            check_win_line(state, naive)
            assert state.returns() == ((1, -1) if state.winner == 0 else (-1, 1))
            assert state.legal_moves() == []
        else:
            assert state.returns() == (0, 0)
            assert state.win_line == ()
            assert state.is_draw == full


def check_win_line(state: Connect4State, naive: NaiveBoard) -> None:
    """The win line is exactly the naive board's runs of k or more through the last disc."""
    cfg = state.config
    col = state.last_move
    assert col is not None
    row = state.height(col) - 1  # from the bottom
    player = naive.grid[row][col]
    expected = set()
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = [(row, col)]
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < cfg.rows and 0 <= c < cfg.cols and naive.grid[r][c] == player:
                run.append((r, c))
                r, c = r + sign * dr, c + sign * dc
        if len(run) >= cfg.k:
            expected |= {(cfg.rows - 1 - r, c) for r, c in run}
    line = state.win_line
    assert len(line) == len(set(line)) and set(line) == expected
    assert all(state.cell(r, c) == state.winner for r, c in line)


# --- configuration ------------------------------------------------------------------------------


def test_default_is_classic_seven_by_six_four_in_a_row() -> None:
    cfg = Connect4Config()
    assert (cfg.cols, cfg.rows, cfg.k, cfg.cells) == (7, 6, 4, 42)


@pytest.mark.parametrize("kwargs,message", [
    ({"cols": 3}, "columns must be 4 to 9"),
    ({"cols": 10}, "columns must be 4 to 9"),
    ({"rows": 3}, "rows must be 4 to 8"),
    ({"rows": 9}, "rows must be 4 to 8"),
    ({"k": 2}, "discs in a row must be 3 to 6"),
    ({"k": 7}, "discs in a row must be 3 to 6"),
    ({"cols": 4, "rows": 8, "k": 5}, "discs in a row must be 3 to 4 on a 4×8 board"),
    ({"cols": True}, "cols must be a whole number"),
    ({"rows": 6.0}, "rows must be a whole number"),
    ({"k": "4"}, "k must be a whole number"),
])
def test_bad_configs_raise_readable_errors(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        Connect4Config(**kwargs)


def test_every_config_in_range_is_valid() -> None:
    for cols, rows in itertools.product(range(MIN_COLS, MAX_COLS + 1),
                                        range(MIN_ROWS, MAX_ROWS + 1)):
        for k in range(3, min(cols, rows) + 1):
            assert Connect4Config(cols, rows, k).cells == cols * rows


# --- the state --------------------------------------------------------------------------------


def test_new_state_and_factory() -> None:
    cfg = Connect4Config(6, 5)
    state = new_game(cfg, random.Random(1))
    assert isinstance(state, GameState)
    assert state == Connect4State.new(cfg)
    assert state.num_players == 2 and state.current_player() == 0
    assert state.legal_moves() == list(range(6))
    assert not state.is_terminal() and state.winner is None and state.last_move is None
    assert state.to_rows() == ["......"] * 5
    assert all(state.cell(r, c) == EMPTY for r in range(5) for c in range(6))


def test_rows_are_numbered_from_the_top() -> None:
    state = Connect4State.from_moves(Connect4Config(), [3, 3, 0])
    assert state.cell(5, 3) == 0 and state.cell(4, 3) == 1 and state.cell(5, 0) == 0
    assert state.cell(0, 3) == EMPTY
    assert state.to_rows()[-2:] == ["...O...", "X..X..."]
    assert state.height(3) == 2 and state.height(6) == 0
    with pytest.raises(IndexError):
        state.cell(6, 0)


# Boards over 20 cells take a second or more: the full run (python -m pytest) has them.
@pytest.mark.parametrize("cfg", [c if c.cols * c.rows <= 20 else
                                 pytest.param(c, marks=pytest.mark.slow) for c in CONFIGS],
                         ids=lambda c: f"{c.cols}x{c.rows}k{c.k}")
def test_random_playouts_agree_with_naive_board(cfg: Connect4Config) -> None:
    rng = random.Random(cfg.cols * 100 + cfg.rows * 10 + cfg.k)
    for _ in range(60):
        check_against_naive(cfg, random_game(cfg, rng))


def test_playouts_that_fill_the_board_end_in_draws_or_wins() -> None:
    # Filling columns two at a time in this order gives a full 4×4 board with no line.
    cfg = Connect4Config(4, 4)
    moves = [0, 1, 0, 1, 1, 0, 1, 0, 2, 3, 2, 3, 3, 2, 3, 2]
    check_against_naive(cfg, moves)
    state = Connect4State.from_moves(cfg, moves)
    assert state.is_draw and state.is_terminal() and state.returns() == (0, 0)
    assert state.legal_moves() == []


@pytest.mark.slow
def test_every_game_of_up_to_7_plies_on_4x4_agrees_with_naive_board() -> None:
    """Every sequence of up to 7 moves on 4×4 (21,845 positions; the first wins come at
    ply 7), compared with the naive board. Random playouts cover the later plies."""
    cfg = Connect4Config(4, 4)
    count = 0

    def visit(state: Connect4State, grid: list[list[int]]) -> None:
        nonlocal count
        count += 1
        naive = NaiveBoard(cfg)
        naive.grid = grid
        winners = naive.winners()
        assert state.winner == (next(iter(winners)) if winners else None)
        if state.winner is not None:
            check_win_line(state, naive)
            assert state.legal_moves() == [] and state.is_terminal()
            return
        assert state.legal_moves() == naive.open_columns()
        if len(state.moves) == 7:
            return
        for col in range(4):
            h = state.height(col)
            if h == 4:
                with pytest.raises(IllegalMove):
                    state.play(col)
                continue
            child_grid = [list(r) for r in grid]
            child_grid[h][col] = state.current_player()
            visit(state.play(col), child_grid)

    visit(Connect4State.new(cfg), [[EMPTY] * 4 for _ in range(4)])
    assert count > 20_000  # 4^0 + … + 4^7 less the sequences overfilling a column


@pytest.mark.parametrize("moves,line", [
    # Across the bottom row: columns 1-4 for X.
    ([0, 0, 1, 1, 2, 2, 3], [(5, 0), (5, 1), (5, 2), (5, 3)]),
    # Up column 3.
    ([2, 3, 2, 3, 2, 3, 4, 3], [(5, 3), (4, 3), (3, 3), (2, 3)]),
    # Diagonal rising to the right, from the bottom of column 1.
    ([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], [(5, 0), (4, 1), (3, 2), (2, 3)]),
    # Diagonal rising to the left, from the bottom of column 7.
    ([6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3], [(2, 3), (3, 4), (4, 5), (5, 6)]),
])
def test_wins_in_each_direction(moves, line) -> None:
    cfg = Connect4Config()
    check_against_naive(cfg, moves)
    state = Connect4State.from_moves(cfg, moves)
    assert state.winner == (len(moves) - 1) % 2
    assert sorted(state.win_line) == sorted(line)


def test_win_line_holds_every_run_through_the_last_disc() -> None:
    cfg = Connect4Config()
    # X: bottom row 1, 2, 4, 5, then 3 makes five across.
    state = Connect4State.from_moves(cfg, [0, 0, 1, 1, 3, 3, 4, 4, 2])
    assert state.winner == 0
    assert sorted(state.win_line) == [(5, c) for c in range(5)]
    # The last X tops column 1 and ends a diagonal too: both lines, the shared disc once.
    moves = [0, 2, 0, 1, 3, 4, 2, 1, 1, 4, 0, 1, 0]
    check_against_naive(cfg, moves)
    state = Connect4State.from_moves(cfg, moves)
    assert state.winner == 0
    assert set(state.win_line) == {(5, 0), (4, 0), (3, 0), (2, 0), (5, 3), (4, 2), (3, 1)}
    assert len(state.win_line) == 7


def test_illegal_moves() -> None:
    cfg = Connect4Config(4, 4)
    state = Connect4State.from_moves(cfg, [0, 0, 0, 0])
    with pytest.raises(IllegalMove, match="full"):
        state.play(0)
    for bad in (-1, 4, 1.0, "1", True, None):
        with pytest.raises(IllegalMove):
            state.play(bad)  # type: ignore[arg-type]
    won = Connect4State.from_moves(cfg, [0, 1, 0, 1, 0, 1, 0])
    assert won.winner == 0
    with pytest.raises(IllegalMove, match="over"):
        won.play(2)
    with pytest.raises(IllegalMove):
        Connect4State.from_moves(cfg, [0, 1, 0, 1, 0, 1, 0, 1])
    full = Connect4State.from_moves(cfg, [0, 1, 0, 1, 1, 0, 1, 0, 2, 3, 2, 3, 3, 2, 3, 2])
    with pytest.raises(IllegalMove):
        full.play(0)


def test_states_are_immutable_values_equal_by_position() -> None:
    cfg = Connect4Config()
    a = Connect4State.from_moves(cfg, [3, 2, 4, 1])
    b = Connect4State.from_moves(cfg, [4, 1, 3, 2])  # the same position by another order
    c = Connect4State.from_moves(cfg, [3, 2, 4, 5])
    assert a == b and hash(a) == hash(b) and a.moves != b.moves
    assert a != c
    assert len({a, b, c}) == 2
    assert {a: 1}[b] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.winner = 1  # type: ignore[misc]
    # Playing returns a new state and leaves the old one alone.
    d = a.play(0)
    assert a.height(0) == 0 and d.height(0) == 1


def test_from_moves_round_trips() -> None:
    rng = random.Random(3)
    for cfg in CONFIGS:
        for _ in range(20):
            moves = random_game(cfg, rng)
            cut = rng.randrange(len(moves) + 1)
            state = Connect4State.from_moves(cfg, moves[:cut])
            again = Connect4State.from_moves(cfg, state.moves)
            assert again == state and again.moves == state.moves == tuple(moves[:cut])
            assert again.to_rows() == state.to_rows()
            assert repr(state).startswith(f"Connect4State({cfg.cols}x{cfg.rows}k{cfg.k}")


# --- parameters ----------------------------------------------------------------------------------


def test_presets_classic_first() -> None:
    assert Connect4Params is Connect4Config
    assert PRESETS[0].label == "7×6 (classic)" and PRESETS[0].params == Connect4Config(7, 6)
    assert SPEC.default() == Connect4Config(7, 6)
    labels = [p.label for p in PRESETS]
    assert {"6×5", "5×4", "8×7", "9×7"} <= set(labels)
    for preset in PRESETS:
        assert SPEC.label(preset.params) == preset.label
        assert SPEC.validate(preset.params) == preset.params


def test_game_ids() -> None:
    assert SPEC.encode(Connect4Config(7, 6)) == "7x6"
    assert SPEC.encode(Connect4Config(8, 7, 5)) == "8x7k5"
    assert SPEC.decode("7x6") == Connect4Config(7, 6)
    assert SPEC.decode(" 7X6K4 ") == Connect4Config(7, 6, 4)
    assert SPEC.decode("9x8k3") == Connect4Config(9, 8, 3)
    assert SPEC.variant_id(Connect4Config(6, 5)) == "6x5"
    assert SPEC.label(Connect4Config(8, 5)) == "8×5"
    assert SPEC.label(Connect4Config(8, 5, 5)) == "8×5, 5 in a row"


def test_game_id_round_trip_over_every_valid_board() -> None:
    seen = set()
    for cols, rows in itertools.product(range(MIN_COLS, MAX_COLS + 1),
                                        range(MIN_ROWS, MAX_ROWS + 1)):
        for k in range(3, min(cols, rows) + 1):
            params = Connect4Config(cols, rows, k)
            text = SPEC.encode(params)
            assert SPEC.decode(text) == params
            assert SPEC.from_settings(SPEC.to_settings(params)) == params
            seen.add(text)
    assert len(seen) == sum(min(c, r) - 2 for c in range(4, 10) for r in range(4, 9))


@pytest.mark.parametrize("text,message", [
    ("", "expected COLUMNSxROWS"),
    ("7", "expected COLUMNSxROWS"),
    ("7x", "expected COLUMNSxROWS"),
    ("7x6k", "expected COLUMNSxROWS"),
    ("7*6", "expected COLUMNSxROWS"),
    ("-7x6", "expected COLUMNSxROWS"),
    ("7x6x2", "expected COLUMNSxROWS"),
    ("3x6", "columns must be 4 to 9"),
    ("10x6", "columns must be 4 to 9"),
    ("7x9", "rows must be 4 to 8"),
    ("7x6k7", "discs in a row must be 3 to 6"),
    ("7x6k2", "discs in a row must be 3 to 6"),
])
def test_bad_game_ids(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SPEC.decode(text)


def test_settings_fall_back_to_default() -> None:
    assert SPEC.from_settings(None) == Connect4Config()
    assert SPEC.from_settings({"cols": 12}) == Connect4Config()
    assert SPEC.from_settings({"cols": "7"}) == Connect4Config()
    assert SPEC.from_settings({"cols": 5, "rows": 4}) == Connect4Config(5, 4)
    with pytest.raises(ValueError):
        SPEC.validate((7, 6))
