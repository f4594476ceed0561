"""Seed 001's rule-based 3×3 player: every rule, the opening book, and never losing."""

from __future__ import annotations

import threading
from functools import cache

import pytest

from engine.ai.agent import Cancelled
from games.tictactoe.ai_rules3 import (
    CENTRE,
    CORNERS,
    EDGES,
    LINES,
    LINES_THROUGH,
    RULE_TEXT,
    RuleAgent,
    classify_lines,
    rule_candidates,
)
from games.tictactoe.rules import MNKConfig, TicTacToeState

NO_CANCEL = threading.Event()


def pos(*rows: str) -> TicTacToeState:
    return TicTacToeState.from_rows(list(rows))


@cache
def _solve(board: tuple[int, ...], to_move: int) -> int:
    """Perfect-play value for the player to move: 1 win, 0 draw, −1 loss (plain negamax)."""
    state = TicTacToeState(TicTacToeState.new().config, board, to_move)
    state = TicTacToeState.from_rows(state.to_rows())  # recompute the winner
    if state.winner is not None:
        return 1 if state.winner == to_move else -1
    if state.is_terminal():
        return 0
    return max(-_solve(state.play(m).board, 1 - to_move) for m in state.legal_moves())


def value(state: TicTacToeState) -> int:
    """Perfect-play value of ``state`` for its player to move."""
    return _solve(state.board, state.to_move)


# --- never loses ------------------------------------------------------------------


def walk(state: TicTacToeState, seat: int, repaired: bool, memo: dict, stats: dict) -> bool:
    """Whether the rule player in ``seat`` avoids defeat from ``state`` on every line.

    At the player's turns every tie option is followed; at the opponent's turns
    every legal move.
    """
    if state.board in memo:
        return memo[state.board]
    if state.is_terminal():
        ok = state.winner != 1 - seat
        stats[state.winner] = stats.get(state.winner, 0) + 1
    elif state.to_move == seat:
        cells, rule = rule_candidates(state, repaired=repaired)
        stats.setdefault("rules", set()).add(rule)
        ok = all([walk(state.play(c), seat, repaired, memo, stats) for c in cells])
    else:
        ok = all([walk(state.play(m), seat, repaired, memo, stats)
                  for m in state.legal_moves()])
    memo[state.board] = ok
    return ok


@pytest.mark.parametrize("seat", [0, 1], ids=["as X", "as O"])
def test_never_loses_against_any_opponent_line(seat: int) -> None:
    stats: dict = {}
    assert walk(TicTacToeState.new(), seat, True, {}, stats)
    # The walk really reached wins for the rule player and draws, and met the fork rules.
    assert stats.get(seat, 0) > 0 and stats.get(None, 0) > 0
    assert stats.get(1 - seat, 0) == 0
    assert {"book", "1", "2", "3", "5", "6", "7", "8"} <= stats["rules"]
    if seat == 1:  # only the second player ever faces fork threats: both halves of rule 4 ran
        assert stats["rules"] == set(RULE_TEXT)


def test_the_unrepaired_rule_4a_does_lose() -> None:
    # The document's rule 4a as written, same walk: some opponent line beats it.
    assert not walk(TicTacToeState.new(), 1, False, {}, {})


def test_spec_counter_example_is_handled() -> None:
    # X corner, O centre, X opposite corner; O to move. X threatens forks on 2 and 6.
    state = pos("X..", ".O.", "..X")
    cells, rule = rule_candidates(state)
    assert rule == "4a"
    assert set(cells) == set(EDGES)  # only the edges force safely
    unrepaired, _ = rule_candidates(state, repaired=False)
    assert {2, 6} <= set(unrepaired)  # as written, a corner may be chosen…
    after = state.play(2).play(6)  # …and X's forced block at 6 threatens 3 and 7 at once:
    assert sorted(c for c in after.legal_moves()
                  if TicTacToeState(after.config, after.board, 0).play(c).winner == 0) == [3, 7]
    assert value(state.play(2)) == 1  # X (to move) wins by force
    assert all(value(state.play(c)) == 0 for c in cells)  # the repaired choices hold the draw


def test_forced_block_that_leaves_the_opponent_a_fork_cell_is_unsafe_too() -> None:
    # X edge 1, O adjacent corner 0, X edge 5: X threatens a fork on 4. O forcing
    # with 3 makes X block on 6: no double threat, yet X then has fork cells 2, 4, 7, 8.
    state = pos("OX.", "..X", "...")
    cells, rule = rule_candidates(state)
    assert rule == "4a" and 3 not in cells and cells
    assert value(state.play(3)) == 1  # X, to move, wins by force
    assert all(value(state.play(c)) <= 0 for c in cells)  # O's choices do not lose


def test_agent_moves_are_among_the_rule_candidates() -> None:
    agent = RuleAgent(seed=7)
    state = TicTacToeState.new()
    while not state.is_terminal():
        move, rule = agent.choose_with_reason(state)
        cells, expected_rule = rule_candidates(state)
        assert move in cells and rule == expected_rule and rule in RULE_TEXT
        state = state.play(agent.choose_move(state, NO_CANCEL))
    assert state.is_draw  # self-play between two perfect players draws


# --- each rule fires where it should ------------------------------------------------

RULE_CASES = [
    # rows, expected rule, expected cells
    (("XX.", "OO.", "..."), "1", [2]),  # win beats blocking O's row
    (("XO.", "X..", "..."), "2", [6]),  # O blocks column 0
    (("XOX", "...", "O.."), "3", [8]),  # X's fork: 0-4-8 and 2-5-8 cross on 8
    (("X..", ".O.", "..X"), "4a", [1, 3, 5, 7]),  # O forces with an edge (SPEC §1)
    (("XOX", "...", "..."), "4b", [4, 6, 8]),  # O cannot force safely: takes a crossing
    (("XO.", "...", "..."), "5", [CENTRE]),
    (("O..", ".X.", "..."), "6", [8]),  # opposite O's corner
    (("X..", ".O.", "..."), "7", [2, 6, 8]),
    (("XOX", ".X.", "OXO"), "8", [3, 5]),
]


@pytest.mark.parametrize(("rows", "rule", "cells"), RULE_CASES,
                         ids=[f"rule {case[1]}" for case in RULE_CASES])
def test_each_rule_fires_with_the_expected_cells(rows: tuple[str, ...], rule: str,
                                                 cells: list[int]) -> None:
    state = pos(*rows)
    assert rule_candidates(state) == (cells, rule)
    move, fired = RuleAgent(seed=1).choose_with_reason(state)
    assert fired == rule and move in cells


def test_rule_4b_when_there_is_no_line_to_force_with() -> None:
    # Both O lines are blocked, so 4a cannot apply; X's one-mark lines cross on
    # 6 (column 0 × row 2) and 8 (diagonal × row 2).
    state = pos("XO.", "...", ".X.")
    assert classify_lines(state.board, 1).mine == ()
    assert rule_candidates(state) == ([6, 8], "4b")
    assert all(value(state.play(c)) == 0 for c in (6, 8))


# --- opening book ------------------------------------------------------------------


def test_opening_book() -> None:
    assert rule_candidates(TicTacToeState.new()) == (list(CORNERS), "book")
    for corner in CORNERS:
        assert rule_candidates(TicTacToeState.new().play(corner)) == ([CENTRE], "book")
    assert rule_candidates(TicTacToeState.new().play(CENTRE)) == (list(CORNERS), "book")
    adjacent = {1: {0, 2}, 3: {0, 6}, 5: {2, 8}, 7: {6, 8}}
    opposite = {1: 7, 3: 5, 5: 3, 7: 1}
    for edge in EDGES:
        cells, rule = rule_candidates(TicTacToeState.new().play(edge))
        assert rule == "book"
        assert set(cells) == {CENTRE, *adjacent[edge], opposite[edge]}
    # After the first two moves the book is left behind.
    assert rule_candidates(pos("X..", ".O.", "..."))[1] != "book"


def test_first_move_is_a_corner_and_varies_with_the_seed() -> None:
    firsts = {RuleAgent(seed=s).choose_move(TicTacToeState.new(), NO_CANCEL) for s in range(40)}
    assert firsts == set(CORNERS)


# --- data layout and guards --------------------------------------------------------


def test_lines_know_cells_and_cells_know_lines() -> None:
    assert len(LINES) == 8
    for cell in range(9):
        assert all(cell in LINES[li] for li in LINES_THROUGH[cell])
        assert len(LINES_THROUGH[cell]) == (4 if cell == CENTRE else 3 if cell in CORNERS else 2)


def test_line_groups_partition_the_lines() -> None:
    state = pos("XO.", "...", "..X")  # O to move
    groups = classify_lines(state.board, state.to_move)
    assert sorted(groups.empty + groups.mine + groups.theirs + groups.blocked) == list(range(8))
    assert groups.empty == (1, 7)  # row 1, anti-diagonal
    assert groups.mine == (4,)  # column 1 holds O only
    assert groups.theirs == (2, 3, 5, 6)  # row 2, column 0, column 2, diagonal
    assert groups.blocked == (0,)  # row 0 holds X and O
    # Seen from X the same lines swap sides.
    from_x = classify_lines(state.board, 0)
    assert (from_x.mine, from_x.theirs) == (groups.theirs, groups.mine)


@pytest.mark.parametrize("config", [MNKConfig(4, 4, 3), MNKConfig(3, 3, 3, players=3),
                                    MNKConfig(3, 3, 2)])
def test_other_boards_are_refused(config: MNKConfig) -> None:
    with pytest.raises(ValueError):
        RuleAgent().choose_move(TicTacToeState.new(config), NO_CANCEL)


def test_cancel_is_honoured_and_finished_games_refused() -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        RuleAgent().choose_move(TicTacToeState.new(), cancel)
    with pytest.raises(ValueError):
        rule_candidates(pos("XXX", "OO.", "..."))
    assert RuleAgent().name == "hard"
