"""The win prover (engine/ai/win_proof.py) and the m,n,k threat-sequence search.

Every claim is checked against the plain minimax of tests/games/tictactoe/test_perfect_solver.py
(which tries every line of play): a proven win within d plies must be a win
whose exact distance is at most d. The published k = 4 values (Uiterwijk,
"Solving Strong and Weak 4-in-a-Row", IEEE CoG 2019) are checked through
``solve_mnk``: the quick boards here, every board from 5×5 to 8×8 in the slow
suite.
"""

from __future__ import annotations

import random
import threading
import time

import pytest

from engine.ai.agent import Cancelled
from engine.ai.negamax import SearchTimeout
from engine.ai.win_proof import WinProver, proven_choice, solve_outcome
from games.tictactoe.perfect import solve_mnk
from games.tictactoe.rules import MNKConfig, TicTacToeState
from games.tictactoe.search_state import MNKSearchState, threat_sequence_win
from tests.support.oracles import minimax


def _positions(config: MNKConfig, count: int, seed: int, min_marks: int,
               max_marks: int) -> list[TicTacToeState]:
    """Distinct unfinished positions from random play, ``min_marks`` to ``max_marks`` marks
    (enough marks that plain minimax finishes quickly)."""
    rng = random.Random(seed)
    seen: dict[tuple, TicTacToeState] = {}
    while len(seen) < count:
        s = TicTacToeState.new(config)
        for _ in range(rng.randint(min_marks, max_marks)):
            if s.is_terminal():
                break
            s = s.play(rng.choice(s.legal_moves()))
        if not s.is_terminal():
            seen.setdefault(s.board, s)
    return list(seen.values())


@pytest.mark.parametrize("rows,cols,k,min_marks,max_marks,count", [
    # A first-player win in 7 plies: proofs at every depth. From two marks in the quick run
    # (the plain minimax of a nearly empty board takes seconds), from none in the full one.
    (4, 3, 3, 2, 6, 40),
    pytest.param(4, 3, 3, 0, 6, 150, marks=pytest.mark.slow),
    # The bigger boards take seconds each: only the full run (python -m pytest) has them.
    pytest.param(4, 4, 3, 6, 8, 60, marks=pytest.mark.slow),
    # a draw: proofs only where a player blundered
    pytest.param(4, 4, 4, 7, 10, 60, marks=pytest.mark.slow),
    pytest.param(5, 4, 4, 10, 12, 30, marks=pytest.mark.slow),
])
def test_every_proof_is_a_win_no_longer_than_its_depth(rows, cols, k, min_marks, max_marks,
                                                      count) -> None:
    proofs = 0
    for s in _positions(MNKConfig(rows, cols, k), count, seed=rows * 31 + k,
                        min_marks=min_marks, max_marks=max_marks):
        outcome, plies = minimax(s)
        search = MNKSearchState.from_rules(s)
        for depth in (1, 3, 5, 7, 9):
            prover = WinProver(time_limit=30)
            if prover.proves_win(search, depth, start_plies=depth):
                assert outcome == "win" and plies <= depth, (s.to_rows(), depth)
                proofs += 1
        if outcome == "win" and plies <= 3:
            # A win in two moves makes a line one short twice: that move lies within two
            # cells of a mark, so the attacker's tries always include it.
            assert WinProver().proves_win(search, plies), s.to_rows()
    assert proofs > count // 4  # the check had something to check


@pytest.mark.slow
def test_defender_loses_only_when_every_move_loses() -> None:
    checked = 0
    for s in _positions(MNKConfig(4, 4, 3), 100, seed=7, min_marks=6, max_marks=8):
        search = MNKSearchState.from_rules(s)
        if WinProver().defender_loses(search, 7):
            outcome, plies = minimax(s)
            assert outcome == "loss" and plies <= 7, s.to_rows()
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("rows,cols,k,min_marks", [
    pytest.param(4, 4, 3, 6, marks=pytest.mark.slow),   # seconds each: the full run only
    pytest.param(5, 4, 4, 11, marks=pytest.mark.slow),
    (5, 5, 4, 11),
])
def test_threat_sequences_are_forced_wins(rows, cols, k, min_marks) -> None:
    found = 0
    config = MNKConfig(rows, cols, k)
    for s in _positions(config, 150, seed=rows * 7 + cols, min_marks=min_marks,
                        max_marks=max(min_marks + 2, rows * cols // 2)):
        search = MNKSearchState.from_rules(s)
        plies = threat_sequence_win(search.g, search.me, search.opp)
        if plies is not None:
            outcome, exact = minimax(s) if rows * cols <= 20 else _exact(search)
            assert outcome == "win" and exact <= plies, s.to_rows()
            found += 1
    assert found > 5


def _exact(search: MNKSearchState) -> tuple[str, int]:
    from games.tictactoe.perfect import position_value

    value = position_value(search.to_rules())
    return value.outcome, value.remoteness


@pytest.mark.parametrize("rows,cols,k,expected", [
    (3, 3, 3, 0),
    (4, 4, 3, 1),
    (4, 4, 4, 0),
    pytest.param(5, 5, 4, 0, marks=pytest.mark.slow),   # the bigger boards: the full run only
    pytest.param(6, 5, 4, 1, marks=pytest.mark.slow),
    # the 7×6 preset: proven by the win prover in seconds
    pytest.param(7, 6, 4, 1, marks=pytest.mark.slow),
])
def test_solve_outcome_gives_the_published_values(rows, cols, k, expected) -> None:
    assert solve_outcome(MNKSearchState.new(rows, cols, k), deadline=time.monotonic() + 120) \
        == expected


# Uiterwijk (IEEE CoG 2019) and the thesis of Charatsidis (Maastricht 2017) cite: with
# 4 in a row, 5×5 is a draw and 6×5 a first-player win; a win stays a win on any larger
# board, so every board from 5×5 to 8×8 but 5×5 itself is a first-player win.
K4_BOARDS = [(r, c) for r in range(5, 9) for c in range(5, 9)]


@pytest.mark.slow
@pytest.mark.parametrize("rows,cols", K4_BOARDS)
def test_every_published_k4_value_from_5_to_8(rows, cols) -> None:
    expected = 0 if (rows, cols) == (5, 5) else 1
    # The value, proven within solve_mnk's own time limit (it raises SearchTimeout past
    # it). How fast (the target is 60 s on an idle 2-core machine) is measured by
    # ``python tests/benchmarks/bench_k4.py``, not here: a shared machine stretched it.
    assert solve_mnk(rows, cols, 4, time_limit=180) == expected


@pytest.mark.slow
def test_deadline_cancel_and_table_cap() -> None:
    state = MNKSearchState.new(8, 8, 4)
    start = time.process_time()
    with pytest.raises(SearchTimeout):
        solve_outcome(state, deadline=time.monotonic() + 0.3)
    assert time.process_time() - start < 1.5
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        WinProver(cancel=cancel, poll_interval=1).proves_win(state, 11)
    prover = WinProver(max_entries=500, time_limit=1.0)
    with pytest.raises(SearchTimeout):
        prover.proves_win(state, 11, start_plies=11)
    assert 0 < len(prover.tt) <= 500


def test_a_proof_uses_only_the_rules() -> None:
    """The prover's winning first move really wins: replay it against minimax on 4×3 k3."""
    config = MNKConfig(4, 3, 3)
    state = MNKSearchState.new(4, 3, 3)
    prover = WinProver()
    assert prover.proves_win(state, 7)
    key = state.search_key()
    move = prover.tt[key][1]
    assert move is not None
    after = TicTacToeState.new(config).play(move)
    outcome, plies = minimax(after)
    assert outcome == "loss" and plies <= 6  # the opponent, to move, loses


_OUTCOMES = {"win": 1, "draw": 0, "loss": -1}


@pytest.mark.parametrize("rows,cols,k,min_marks,max_marks,count", [
    (3, 3, 3, 0, 5, 120),
    (4, 3, 3, 0, 6, 120),
    pytest.param(4, 4, 4, 7, 10, 40, marks=pytest.mark.slow),  # seconds each: the full run only
    pytest.param(5, 4, 4, 10, 12, 20, marks=pytest.mark.slow),
])
def test_proven_choice_matches_minimax_and_its_move_keeps_the_outcome(
        rows, cols, k, min_marks, max_marks, count) -> None:
    seen = {-1: 0, 0: 0, 1: 0}
    for s in _positions(MNKConfig(rows, cols, k), count, seed=rows * 7 + cols,
                        min_marks=min_marks, max_marks=max_marks):
        choice = proven_choice(MNKSearchState.from_rules(s), deadline=time.monotonic() + 30)
        expected = _OUTCOMES[minimax(s)[0]]
        assert choice.outcome == expected, s.to_rows()
        seen[expected] += 1
        if expected < 0:
            assert sorted(choice.moves) == sorted(s.legal_moves())
            continue
        (move,) = choice.moves
        child = s.play(move)
        after = (_OUTCOMES[{"win": "loss", "loss": "win"}.get(minimax(child)[0], "draw")]
                 if not child.is_terminal() else (1 if child.winner is not None else 0))
        assert after == expected, (s.to_rows(), move)
    assert min(seen.values()) > 0 or (rows, cols, k) == (3, 3, 3) and seen[1] and seen[0]


@pytest.mark.slow
def test_proven_choice_keeps_its_deadline_and_refuses_a_finished_game() -> None:
    state = MNKSearchState.new(7, 7, 4)
    cpu = time.process_time()  # CPU seconds: a busy machine does not stretch them
    with pytest.raises(SearchTimeout):
        proven_choice(MNKSearchState.new(9, 9, 5), deadline=time.monotonic() + 0.3)
    assert time.process_time() - cpu < 1.5
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        proven_choice(state, cancel=cancel)
    won = TicTacToeState.from_rows(["XXX", "OO.", "..."], MNKConfig(3, 3, 3))
    with pytest.raises(ValueError):
        proven_choice(MNKSearchState.from_rules(won))
