"""The gomoku Hard player (threat-space search + alpha-beta) and its threat board.

Positions are built by hand; the checks are made with the rules (who has five,
which squares win), not with answers taken from the agent.
"""

from __future__ import annotations

import copy
import random
import threading
import time

import pytest

from engine.ai.agent import Cancelled
from games.tictactoe.gomoku_board import ThreatBoard
from games.tictactoe.gomoku_threats import Limits, ThreatSearch
from games.tictactoe.hard_search import HardSearchAgent, uses_threat_search
from games.tictactoe.rules import EMPTY, MNKConfig, TicTacToeState
from tests.support.oracles import _VCF_TWO, _play_out_as_vcf, _state, _transformed, _winning_squares

GOMOKU = MNKConfig(15, 15, 5)






def _double_threat_squares(state: TicTacToeState) -> set[int]:
    """Squares where the player to move would get two winning squares at once."""
    me = state.to_move
    out = set()
    for m in state.legal_moves():
        after = state.play(m)
        if after.winner is None and len(_winning_squares(after, me)) >= 2:
            out.add(m)
    return out








@pytest.mark.slow
@pytest.mark.parametrize("turn,flip", [(0, False), (1, False), (2, True), (3, True)])
def test_finds_a_two_step_vcf(turn: int, flip: bool) -> None:
    state = _state(_transformed(_VCF_TWO, 15, turn, flip))
    assert state.to_move == 0
    # Not a win in one and no single move making two winning squares: it takes a VCF.
    assert not _winning_squares(state, 0)
    assert not _double_threat_squares(state)
    _play_out_as_vcf(state, HardSearchAgent(time_budget=2.0, seed=turn, max_nodes=20_000))


@pytest.mark.slow
def test_finds_a_vcf_for_the_second_player() -> None:
    # The same shape with the colours swapped and one more X far away: O to move.
    marks = {cell: "XO"[ch == "X"] for cell, ch in _VCF_TWO.items()}
    marks[(14, 7)] = "X"
    state = _state(_transformed(marks, 15, 1, True))
    assert state.to_move == 1
    assert not _winning_squares(state, 1)
    assert not _double_threat_squares(state)
    _play_out_as_vcf(state, HardSearchAgent(time_budget=2.0, seed=5, max_nodes=20_000))


def test_vcf_search_agrees_on_who_has_one() -> None:
    """The VCF search finds X's sequence and, with O to move instead, none for O."""
    board = ThreatBoard.from_rules(_state(_VCF_TWO))
    ts = ThreatSearch(board, Limits(time.monotonic() + 5))
    assert ts.vcf() is not None
    line = ts.vcf_line()
    assert len(line) >= 3 and board.stack == ThreatBoard.from_rules(_state(_VCF_TWO)).stack
    board.to_move = 1
    assert ts.vcf() is None


def test_takes_a_win_in_one_in_a_broken_four() -> None:
    # X: X X . X X on row 9 (the gap wins); O threatens nothing of its own.
    state = _state({(9, 3): "X", (9, 4): "X", (9, 6): "X", (9, 7): "X", (9, 2): "O",
                    (9, 8): "O", (3, 3): "O", (12, 12): "O"})
    assert state.to_move == 0
    move = HardSearchAgent(seed=1).choose_move(state, threading.Event())
    assert state.play(move).winner == 0


def test_blocks_a_four_rather_than_building_its_own_three() -> None:
    # O to move. X has a broken four (gap at (6,8)); O has an open three it could extend.
    state = _state({(6, 5): "X", (6, 6): "X", (6, 7): "X", (6, 9): "X", (6, 4): "O",
                    (10, 4): "O", (10, 5): "O", (10, 6): "O", (0, 0): "X"})
    assert state.to_move == 1
    assert _winning_squares(state, 0) == {6 * 15 + 8}
    for seed in range(3):
        assert HardSearchAgent(seed=seed).choose_move(state, threading.Event()) == 6 * 15 + 8


@pytest.mark.slow
def test_meets_an_open_three() -> None:
    # O to move; X's open three (.XXX.) would become an open four. O must stop it now.
    state = _state({(7, 5): "X", (7, 6): "X", (7, 7): "X", (8, 8): "O", (2, 2): "O"})
    move = HardSearchAgent(seed=3).choose_move(state, threading.Event())
    after = state.play(move)
    # Whatever X does next, it gets no square making two winning squares.
    assert not _double_threat_squares(after)


@pytest.mark.slow
def test_stays_within_its_budget_by_a_small_margin() -> None:
    agents = [HardSearchAgent(time_budget=0.15, seed=1),
              HardSearchAgent(0.05, seed=2, alpha_beta_only=True)]
    cancel = threading.Event()
    state = TicTacToeState.new(GOMOKU)
    worst = 0.0
    while not state.is_terminal() and len(state.board) - state.board.count(EMPTY) < 30:
        start = time.process_time()
        move = agents[state.to_move].choose_move(state, cancel)
        if state.to_move == 0:
            worst = max(worst, time.process_time() - start)
        state = state.play(move)
    assert worst < 0.15 + 0.1  # slack for a busy machine; the search stops at 88 %


def test_cancel_stops_a_long_think() -> None:
    cancel = threading.Event()
    state = _state({(7, 7): "X", (7, 8): "O", (8, 8): "X", (6, 6): "O"})
    timer = threading.Timer(0.05, cancel.set)
    timer.start()
    start = time.process_time()
    with pytest.raises(Cancelled):
        HardSearchAgent(time_budget=10).choose_move(state, cancel)
    assert time.process_time() - start < 0.5
    timer.cancel()


@pytest.mark.slow
def test_the_same_seed_and_node_limit_give_the_same_moves() -> None:
    state = TicTacToeState.new(GOMOKU)
    for m in (112, 96, 114, 128, 98):
        state = state.play(m)
    moves = set()
    for _ in range(2):
        agent = HardSearchAgent(time_budget=30, seed=7, max_nodes=3000)
        s = state
        played = []
        for _ in range(4):
            m = agent.choose_move(s, threading.Event())
            played.append(m)
            s = s.play(m)
        moves.add(tuple(played))
    assert len(moves) == 1


@pytest.mark.slow
def test_plays_legal_moves_on_other_big_boards() -> None:
    rng = random.Random(4)
    for config in (MNKConfig(9, 9, 5), MNKConfig(10, 8, 4), MNKConfig(12, 15, 6)):
        assert uses_threat_search(config)
        state = TicTacToeState.new(config)
        agent = HardSearchAgent(time_budget=0.05, seed=1)
        while not state.is_terminal():
            if state.to_move == 0:
                move = agent.choose_move(state, threading.Event())
            else:
                move = rng.choice(state.legal_moves())
            assert move in state.legal_moves()
            state = state.play(move)
        assert state.winner != 1  # a random player never beats it
    assert not uses_threat_search(MNKConfig(7, 6, 4))


def test_the_reference_level_searches_with_alpha_beta_alone() -> None:
    """``alpha_beta_only`` is the previous Hard: on gomoku it never reports a threat-space
    reason, while the default Hard does find a VCF where there is one."""
    state = _state({(7, 4): "X", (7, 5): "X", (7, 6): "X", (6, 7): "X", (5, 7): "X",
                    (0, 0): "O", (0, 14): "O", (14, 0): "O", (14, 14): "O", (2, 2): "O"})
    new = HardSearchAgent(time_budget=1.0, seed=1)
    new.choose_move(state, threading.Event())
    old = HardSearchAgent(time_budget=0.3, seed=1, alpha_beta_only=True)
    old.choose_move(state, threading.Event())
    assert new.last_reason in ("vcf", "vct", "win") and old.last_reason == "search"


@pytest.mark.slow
def test_the_previous_hard_reference_level_still_plays_legal_moves() -> None:
    cancel = threading.Event()
    for config in (GOMOKU, MNKConfig(7, 6, 4)):
        state = TicTacToeState.new(config)
        agents = (HardSearchAgent(0.03, seed=1, alpha_beta_only=True),
                  HardSearchAgent(0.03, seed=2, alpha_beta_only=True))
        for _ in range(12):
            if state.is_terminal():
                break
            move = agents[state.to_move].choose_move(state, cancel)
            assert move in state.legal_moves()
            state = state.play(move)


def test_board_counts_match_a_fresh_board_after_moves_and_undos() -> None:
    rng = random.Random(11)
    for rows, cols, k in ((15, 15, 5), (9, 8, 4)):
        b = ThreatBoard(rows, cols, k)
        for _ in range(60):
            if b.winner is not None or not b.n_empty:
                b.undo()
                continue
            if b.stack and rng.random() < 0.3:
                b.undo()
            else:
                b.make(rng.choice(b.candidates()))
            fresh = ThreatBoard(rows, cols, k)
            xs = b.stack[0::2]
            os_ = b.stack[1::2]
            for i, x in enumerate(xs):
                fresh.make(x)
                if i < len(os_):
                    fresh.make(os_[i])
            for name in ("cell", "cnt", "score", "level", "cv", "near", "hash", "to_move"):
                assert getattr(b, name) == getattr(fresh, name), name


@pytest.mark.slow
def test_three_moves_are_exactly_the_moves_that_make_a_double_threat() -> None:
    rng = random.Random(3)
    for _ in range(40):
        b = ThreatBoard(15, 15, 5)
        for _ in range(rng.randrange(6, 24)):
            b.make(rng.choice(b.candidates()))
            if b.winner is not None:
                b.undo()
                break
        p = b.to_move
        if b.win_cells(0) or b.win_cells(1) or b.double_threats(p):
            continue
        fours = b.four_moves(p)
        brute = set()
        for c in range(225):
            if b.cell[c] < 0 and c not in fours:
                b.make(c)
                if b.double_threats(p):
                    brute.add(c)
                b.undo()
        assert set(b.three_moves(p)) == brute


def test_push_and_pop_keep_windows_levels_score_and_hash_exact() -> None:
    """The cheap push (no per-cell values) leaves every window count, level set, score
    and hash as a full make would, and pop restores the position exactly."""
    rng = random.Random(19)
    for rows, cols, k in ((15, 15, 5), (9, 8, 4)):
        b = ThreatBoard(rows, cols, k)
        for _ in range(12):
            b.make(rng.choice(b.candidates()))
            if b.winner is not None:
                b.undo()
        before = {name: copy.deepcopy(getattr(b, name))
                  for name in ("cell", "cnt", "score", "level", "cv", "near", "hash", "to_move")}
        pushed = 0
        for _ in range(40):
            if b.winner is not None or (pushed and rng.random() < 0.3):
                b.pop()
                pushed -= 1
                continue
            empties = [c for c in range(rows * cols) if b.cell[c] < 0]
            b.push(rng.choice(empties))
            pushed += 1
            fresh = ThreatBoard(rows, cols, k)
            for c in b.stack:
                fresh.make(c)
            for name in ("cell", "cnt", "score", "level", "hash", "to_move", "winner"):
                assert getattr(b, name) == getattr(fresh, name), name
        for _ in range(pushed):
            b.pop()
        for name, value in before.items():
            assert getattr(b, name) == value, name


def test_four_moves_at_and_near_agree_with_four_moves() -> None:
    rng = random.Random(23)
    for _ in range(30):
        b = ThreatBoard(15, 15, 5)
        for _ in range(rng.randrange(8, 30)):
            b.make(rng.choice(b.candidates()))
            if b.winner is not None:
                b.undo()
                break
        for p in (0, 1):
            full = b.four_moves(p)
            assert b.four_moves_at(p, range(225)) == full
            marks = tuple(c for c in b.stack if b.cell[c] == p)[-2:]
            near = b.four_moves_near(p, marks)
            # Exactly the fours with a level-3 window through one of the marks.
            through = {x for m in marks for w in b.t.cell_windows[m]
                       if w in b.level[p][3] for x in b.empties(w)}
            assert near == {c: s for c, s in full.items() if c in through}


def _near_cells(state: TicTacToeState, reach: int = 2) -> list[int]:
    """Empty cells within ``reach`` rows and columns of a mark."""
    cols = state.config.cols
    marks = [i for i, v in enumerate(state.board) if v != EMPTY]
    out = set()
    for m in marks:
        r0, c0 = divmod(m, cols)
        for r in range(max(0, r0 - reach), min(state.config.rows, r0 + reach + 1)):
            for c in range(max(0, c0 - reach), min(cols, c0 + reach + 1)):
                if state.board[r * cols + c] == EMPTY:
                    out.add(r * cols + c)
    return sorted(out)


def _line_cells(c: int, reach: int = 4, n: int = 15) -> list[int]:
    """Cells on the row, column and diagonals through ``c``, at most ``reach`` away."""
    r0, c0 = divmod(c, n)
    out = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for i in range(-reach, reach + 1):
            r, cc = r0 + dr * i, c0 + dc * i
            if i and 0 <= r < n and 0 <= cc < n:
                out.append(r * n + cc)
    return out


def _open_four_makers(state: TicTacToeState, player: int, last: int) -> set[int]:
    """Cells where ``player``, moving, gets two winning squares at once, by the rules,
    among those on the lines through ``last`` (a position whose other lines hold at
    most two of the player's marks per five cells: only lines through ``last`` can
    hold three)."""
    probe = TicTacToeState(state.config, state.board, player, state.last_move, None, (), None)
    out = set()
    for m in _line_cells(last):
        if probe.board[m] != EMPTY:
            continue
        after = probe.play(m)
        if after.winner is not None:
            continue
        again = TicTacToeState(after.config, after.board, player, m, None, (), None)
        wins = {w for w in _line_cells(m) if again.board[w] == EMPTY
                and again.play(w).winner == player}
        if len(wins) >= 2:
            out.add(m)
    return out


def _collinear(cells: set[int], cols: int = 15) -> bool:
    """Whether ``cells`` all lie on one row, column or diagonal."""
    rc = [divmod(c, cols) for c in cells]
    return any(len({key(r, c) for r, c in rc}) <= 1
               for key in (lambda r, c: r, lambda r, c: c, lambda r, c: r - c,
                           lambda r, c: r + c))


@pytest.mark.slow
def test_stops_a_double_three_before_it_is_made() -> None:
    # O to move. X at (7,7) would make two open threes at once (row 7 and column 7):
    # four squares making an open four, on two lines, and one O move stops one line
    # only. O must spoil it now. Checked by the rules: after O's move, no X move
    # leaves X open-four makers on two different lines. (X has only two marks per
    # line before its move, so a square making an open four lies on a line through
    # that move: only those lines are searched.)
    state = _state({(7, 5): "X", (7, 6): "X", (5, 7): "X", (6, 7): "X",
                    (10, 2): "O", (2, 12): "O", (12, 12): "O"})
    assert state.to_move == 1
    x_to_move = TicTacToeState(state.config, state.board, 0, None, None, (), None)
    fork = x_to_move.play(7 * 15 + 7)
    assert not _collinear(_open_four_makers(fork, 0, 7 * 15 + 7))  # the threat is real
    move = HardSearchAgent(seed=2).choose_move(state, threading.Event())
    after = state.play(move)
    for x in _near_cells(after):
        makers = _open_four_makers(after.play(x), 0, x)
        assert _collinear(makers), f"X at {divmod(x, 15)} forks after O at {divmod(move, 15)}"
