"""Rules of the token board games (SPEC §5): moves, the end, sums of games, remoteness."""

from __future__ import annotations

import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from engine.model.rules import GameState, IllegalMove
from games.grundy.board import (
    BoardConfig,
    TokenState,
    remoteness_bound,
    sum_remoteness,
    targets,
)
from games.grundy.impartial import ImpartialState
from games.grundy.tables import PIECES, mex


@pytest.mark.parametrize("kwargs", [
    {"piece": "bishop"}, {"piece": "king", "rows": 0}, {"piece": "rook", "cols": 4097},
    {"piece": "queen", "tokens": 0}, {"piece": "knight", "tokens": 5},
    {"piece": "king", "rows": 3.0}, {"piece": "king", "tokens": True},
])
def test_config_is_validated(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        BoardConfig(**kwargs)


def test_config_accepts_the_extremes() -> None:
    assert BoardConfig("rook", 1, 4096, 4).cols == 4096
    assert BoardConfig("knight").rows == 8


def test_targets_by_hand() -> None:
    assert targets("king", 8, 8, 0, 0) == []
    assert sorted(targets("king", 8, 8, 3, 5)) == [(2, 4), (2, 5), (3, 4)]
    assert sorted(targets("rook", 8, 8, 2, 1)) == [(0, 1), (1, 1), (2, 0)]
    assert sorted(targets("queen", 8, 8, 2, 1)) == [(0, 1), (1, 0), (1, 1), (2, 0)]
    assert sorted(targets("knight", 8, 8, 2, 2)) == [(0, 1), (0, 3), (1, 0), (3, 0)]
    # On the bottom row the (+1, −2) step would leave the board.
    assert sorted(targets("knight", 8, 8, 7, 3)) == [(5, 2), (5, 4), (6, 1)]
    # (−2, +1) must stay inside on the right.
    assert sorted(targets("knight", 8, 8, 2, 7)) == [(0, 6), (1, 5), (3, 5)]
    with pytest.raises(ValueError):
        targets("rook", 8, 8, 8, 0)


def test_start_and_protocols() -> None:
    state = TokenState.start(BoardConfig("king", 5, 7, 3))
    assert state.tokens == ((4, 6),) * 3 and state.to_move == 0
    assert isinstance(state, GameState) and isinstance(state, ImpartialState)
    assert state.num_players == 2 and state.current_player() == 0
    placed = TokenState.start(BoardConfig("rook", 4, 4, 2), [(1, 2), (3, 0)])
    assert placed.tokens == ((1, 2), (3, 0))
    with pytest.raises(ValueError):
        TokenState.start(BoardConfig("rook", 4, 4, 2), [(1, 2)])
    with pytest.raises(ValueError):
        TokenState.start(BoardConfig("rook", 4, 4, 1), [(4, 0)])


def test_play_validates_and_is_immutable() -> None:
    state = TokenState.start(BoardConfig("rook", 4, 4, 2))
    after = state.play((1, 3, 0))
    assert after.tokens == ((3, 3), (3, 0)) and after.to_move == 1
    assert state.tokens == ((3, 3), (3, 3)) and state.to_move == 0
    for bad in [(2, 3, 0), (0, 3, 3), (0, 2, 2), (0, 4, 3), (0, 3), "a", (0, 3.0, 0)]:
        with pytest.raises(IllegalMove):
            state.play(bad)
        with pytest.raises(IllegalMove):
            state.move_value(bad)
    assert (1, 3, 0) in state.legal_moves() and (0, 3, 0) in state.legal_moves()


def test_the_end_and_normal_play_returns() -> None:
    state = TokenState.start(BoardConfig("king", 8, 8), [(0, 1)])
    assert not state.is_terminal() and state.returns() == (0.0, 0.0)
    end = state.play((0, 0, 0))
    assert end.is_terminal() and end.legal_moves() == []
    # Player 0 moved into the corner and wins; player 1, to move, has lost.
    assert end.returns() == (1.0, -1.0)
    with pytest.raises(IllegalMove):
        end.play((0, 0, 0))
    # A knight can be stuck away from the corner.
    stuck = TokenState.start(BoardConfig("knight", 1, 8), [(0, 7)])
    assert stuck.is_terminal() and stuck.value() == 0


@pytest.mark.parametrize("piece", PIECES)
def test_random_games_end_and_the_last_mover_wins(piece: str) -> None:
    rng = random.Random(piece)
    for tokens in range(1, 5):
        state = TokenState.start(BoardConfig(piece, 9, 7, tokens))
        last = None
        for _ in range(1000):
            if state.is_terminal():
                break
            last = state.current_player()
            state = state.play(rng.choice(state.legal_moves()))
        assert state.is_terminal()
        if last is not None:
            assert state.returns()[last] == 1.0 and state.returns()[1 - last] == -1.0


def brute_values() -> object:
    """Grundy value of a TokenState by the mex definition over the product game."""
    @cache
    def g(state: TokenState) -> int:
        return mex({g(state.play(m)) for m in state.legal_moves()})
    return g


@pytest.mark.parametrize("piece", [p if p == "knight" else pytest.param(p, marks=pytest.mark.slow)
                                   for p in PIECES])  # the knight's is fast; the rest: full run
def test_sum_values_are_the_nim_sum_of_the_parts(piece: str) -> None:
    g = brute_values()
    rng = random.Random(f"sum-{piece}")
    for _ in range(25):
        rows, cols, k = rng.randint(2, 5), rng.randint(2, 5), rng.choice([2, 3])
        squares = [(rng.randrange(rows), rng.randrange(cols)) for _ in range(k)]
        state = TokenState.start(BoardConfig(piece, rows, cols, k), squares)
        assert state.value() == g(state), (piece, rows, cols, squares)
        for move in state.legal_moves():
            assert state.move_value(move) == state.play(move).value()
        assert state.winning_moves() == [
            m for m in state.legal_moves() if state.play(m).value() == 0]
        # SPEC §5: a non-zero value always has a move to 0; a zero value never does.
        assert bool(state.winning_moves()) == (state.value() != 0)


def brute_remoteness(state: TokenState, memo: dict, g: object) -> int:
    """Smith's remoteness by definition over the product game (brute-force values)."""
    if state.tokens not in memo:
        kids = [state.play(m) for m in state.legal_moves()]
        if not kids:
            memo[state.tokens] = 0
        elif g(state) == 0:
            memo[state.tokens] = 1 + max(brute_remoteness(k, memo, g) for k in kids)
        else:
            memo[state.tokens] = 1 + min(brute_remoteness(k, memo, g) for k in kids
                                         if g(k) == 0)
    return memo[state.tokens]


@pytest.mark.parametrize("piece", PIECES)
def test_remoteness_matches_brute_force(piece: str) -> None:
    rng = random.Random(f"rem-{piece}")
    g = brute_values()
    for _ in range(12):
        rows, cols, k = rng.randint(2, 5), rng.randint(2, 5), rng.choice([1, 2, 3])
        squares = [(rng.randrange(rows), rng.randrange(cols)) for _ in range(k)]
        state = TokenState.start(BoardConfig(piece, rows, cols, k), squares)
        assert state.remoteness_is_exact()
        assert state.remoteness() == brute_remoteness(state, {}, g), (rows, cols, squares)


@pytest.mark.parametrize("piece", PIECES)
def test_the_bound_for_big_sums_is_an_upper_bound_of_the_right_parity(piece: str) -> None:
    rng = random.Random(f"bound-{piece}")
    for _ in range(40):
        rows, cols, k = rng.randint(2, 7), rng.randint(2, 7), rng.choice([2, 3])
        squares = [(rng.randrange(rows), rng.randrange(cols)) for _ in range(k)]
        exact = sum_remoteness(piece, rows, cols, squares)
        assert exact is not None
        bound = remoteness_bound(piece, rows, cols, squares)
        assert bound >= exact and bound % 2 == exact % 2


def test_big_sums_fall_back_to_the_bound() -> None:
    state = TokenState.start(BoardConfig("queen", 32, 32, 4))
    assert not state.remoteness_is_exact()
    r = state.remoteness()
    assert r == remoteness_bound("queen", 32, 32, state.tokens)
    assert r % 2 == (0 if state.value() == 0 else 1)


def test_value_explained() -> None:
    # The document's example: 3 ⊕ 5 = 6, as rook tokens on (0, 3), (1, 4) and the corner.
    state = TokenState.start(BoardConfig("rook", 8, 8, 3), [(0, 3), (1, 4), (0, 0)])
    assert state.token_values() == (3, 5, 0) and state.value() == 6
    assert state.value_explained().startswith("3 ⊕ 5 ⊕ 0 = 6: the player to move wins")
    one = TokenState.start(BoardConfig("rook", 8, 8), [(0, 3)])
    assert one.value_explained() == "value 3: the player to move wins (move to a 0)"
    lost = TokenState.start(BoardConfig("rook", 8, 8), [(2, 2)])
    assert lost.value_explained().startswith("value 0: the player to move loses")
    end = TokenState.start(BoardConfig("rook", 8, 8), [(0, 0)])
    assert "has lost" in end.value_explained()


@pytest.mark.slow
def test_rules_tables_and_ai_do_not_import_pygame() -> None:
    code = ("import sys\n"
            "import games.grundy.tables, games.grundy.board, games.grundy.ai\n"
            "print(','.join(m for m in sys.modules if m.split('.')[0] == 'pygame'))\n")
    root = Path(__file__).resolve().parents[3]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=root, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""
