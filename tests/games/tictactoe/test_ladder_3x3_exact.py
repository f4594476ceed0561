"""The 3×3 ladder, proven: every adjacent pair's exact expected score, by walking every game
the two players can play (tests/support/exact_ladder.py), lies in the 65–80 % band; the
walk reads each player as it really plays; Perfect's traps are checked against the
independent minimax of tests/support/oracles.py (issue 32: 3×3's top two rungs were both
perfect, every game between them drawn)."""

from __future__ import annotations

import random
import threading
from collections import Counter

import pytest

from engine.model.seats import Seat
from games.tictactoe.agents import LEVELS, make_agent
from games.tictactoe.levels import LADDER
from games.tictactoe.rules import CLASSIC, TicTacToeState
from tests.support.exact_ladder import expected_score, move_distribution
from tests.support.oracles import best_and_trapped, every_position

# Walks of every 3×3 game (about 8 s in all): the full suite's, so the quick run stays quick.
pytestmark = pytest.mark.slow

NO_CANCEL = threading.Event()
PAIRS = [(LEVELS[i + 1], LEVELS[i]) for i in range(len(LEVELS) - 1)]


def _key(state: TicTacToeState) -> tuple[tuple[int, ...], int]:
    return state.board, state.to_move


def _player(level: str, seed: int = 0) -> object:
    return make_agent(CLASSIC, Seat("computer", level), seed=seed)


@pytest.mark.parametrize(("stronger", "weaker"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_each_rung_beats_the_one_below_in_the_band_exactly(stronger: str, weaker: str) -> None:
    """The exact expected score, the seats alternating as in the benchmark: 65–80 %."""
    average, _first, _second = expected_score(TicTacToeState.new(CLASSIC), _player(stronger),
                                              _player(weaker), key=_key)
    assert 0.65 <= average <= 0.80, (stronger, weaker, average)


def _positions(level: str, count: int) -> list[TicTacToeState]:
    """Positions where ``level`` is to move, from real games against random play."""
    rng = random.Random(level)
    found: dict[tuple[tuple[int, ...], int], TicTacToeState] = {}
    player = _player(level, seed=1)
    while len(found) < count:
        state = TicTacToeState.new(CLASSIC)
        side = rng.randrange(2)
        while not state.is_terminal():
            if state.current_player() == side:
                found.setdefault(_key(state), state)
                move = player.choose_move(state, NO_CANCEL)
            else:
                move = rng.choice(state.legal_moves())
            state = state.play(move)
    return list(found.values())[:count]


@pytest.mark.parametrize("level", LEVELS)
def test_the_walk_reads_each_player_as_it_plays(level: str) -> None:
    """In positions from real games, the player's own moves, drawn 400 times, come only
    from the distribution the walk gives it, each about as often as it says (seeded, so
    the draws are the same on every run; 0.12 is over four standard deviations)."""
    player = _player(level, seed=2)
    for state in _positions(level, 12):
        model = move_distribution(player, state)
        assert abs(sum(model.values()) - 1) < 1e-9
        draws = Counter(player.choose_move(state, NO_CANCEL) for _ in range(400))
        assert set(draws) <= {move for move, p in model.items() if p > 0}, state.board
        for move, p in model.items():
            assert abs(draws[move] / 400 - p) <= 0.12, (level, state.board, move, p)


def test_perfect_sets_traps_on_3x3_and_never_gives_up_value() -> None:
    """Perfect's text on 3×3 ("among equally good moves plays one that leaves the opponent
    the most losing replies"), in every position it can meet from either seat: the exact
    solver's move is the best by the oracle, and among the best that do not win, one with
    the most replies that lose. The rung itself (which also takes a win and blocks a loss
    at once) always plays one of the best moves. From the empty board that is a corner
    (seven of eight replies lose)."""
    perfect_how = next(rung.how for rung in LADDER if rung.level == "perfect")
    assert "leaves the opponent the most losing replies" in perfect_how
    rung = _player("perfect")
    solver = rung.inner  # the rung's player inside its reflex
    assert solver.choose_move(TicTacToeState.new(CLASSIC), NO_CANCEL) in (0, 2, 6, 8)
    positions = every_position(CLASSIC)
    for state in positions:
        best, allowed, _top = best_and_trapped(state)
        assert {m for m, p in move_distribution(solver, state).items() if p > 0} == allowed, \
            state.board
        assert solver.choose_move(state, NO_CANCEL) in allowed
        assert {m for m, p in move_distribution(rung, state).items() if p > 0} <= best
    assert len(positions) == 4520  # every position of 3×3 with a move to make
