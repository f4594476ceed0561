"""Perfect play and exact hints on the tic-tac-toe presets short of gomoku.

The Perfect player's moves must never fall back to the Hard level on 3×3,
4×4, 5×5 with 4 in a row (a draw) or 7×6 with 4 in a row (a first-player win):
every move it plays is proven to keep the position's outcome. Whether a move
really keeps it is checked independently (the opening book's entries are
re-proved in tests/engine/ai/test_opening_book.py, proven choices against minimax in
tests/engine/ai/test_win_proof.py); here the games must also end as the published values
say: Perfect never loses 5×5 and wins 7×6 moving first.
"""

from __future__ import annotations

import threading

import pytest

from engine.ui.value_overlay import PROVEN_NOTE, REMOTENESS_NOTE, hint_note
from games.tictactoe.agents import PERFECT_BUDGET
from games.tictactoe.ai_simple import EasyAgent, MediumAgent
from games.tictactoe.hard_search import HardSearchAgent
from games.tictactoe.opening_book import BOOK_PLIES, book_for
from games.tictactoe.perfect import PerfectAgent, move_values
from games.tictactoe.rules import MNKConfig, TicTacToeState
from games.tictactoe.search_state import MNKSearchState


def _play(shape: tuple[int, int, int], side: int, opponent
          ) -> tuple[float, list[TicTacToeState]]:
    """Perfect (the game's budget) on ``side`` against ``opponent``: (Perfect's result,
    the positions where it fell back)."""
    cancel = threading.Event()
    perfect = PerfectAgent(time_budget=PERFECT_BUDGET, seed=side)
    state = TicTacToeState.new(MNKConfig(*shape))
    fell_back = []
    while not state.is_terminal():
        if state.current_player() == side:
            move = perfect.choose_move(state, cancel)
            if perfect.fell_back:
                fell_back.append(state)
        else:
            move = opponent.choose_move(state, cancel)
        state = state.play(move)
    return state.returns()[side], fell_back


@pytest.mark.parametrize("shape", [(3, 3, 3), (4, 4, 4),
                                   pytest.param((5, 5, 4), marks=pytest.mark.slow)])
@pytest.mark.parametrize("side", [0, 1])
def test_perfect_never_falls_back_or_loses_on_the_drawn_presets(shape, side) -> None:
    for opponent in (MediumAgent(seed=3), EasyAgent(seed=4)):
        result, fell_back = _play(shape, side, opponent)
        assert not fell_back and result >= 0, (opponent, fell_back)


@pytest.mark.slow
@pytest.mark.parametrize("opponent", [MediumAgent(seed=5), HardSearchAgent(seed=6)],
                         ids=["medium", "hard"])
def test_perfect_wins_7x6_with_4_in_a_row_moving_first_without_falling_back(opponent) -> None:
    result, fell_back = _play((7, 6, 4), 0, opponent)
    assert result == 1 and not fell_back, fell_back


@pytest.mark.slow
@pytest.mark.parametrize("opponent", [MediumAgent(seed=7), HardSearchAgent(seed=8),
                                      EasyAgent(seed=9)], ids=["medium", "hard", "easy"])
def test_perfect_answers_on_7x6_fall_back_only_where_the_book_records_a_gap(opponent) -> None:
    """Moving second on 7×6, Perfect plays proven moves throughout the book's plies,
    except in a position the book lists as unproven (docs/performance.md counts them)."""
    from engine.ai.opening_book import canonical

    book = book_for(7, 6, 4)
    _result, fell_back = _play((7, 6, 4), 1, opponent)
    # Only the first fall-back can lie in the book's part of the game: after a gap the
    # book has no move, so what follows is off the book, where proofs race the clock.
    if fell_back and fell_back[0].moves_made < BOOK_PLIES:
        state = fell_back[0]
        assert canonical(MNKSearchState.from_rules(state))[0] in book.unproven, \
            state.to_rows()


@pytest.mark.slow
def test_hints_on_the_empty_7x6_board_prove_the_winning_move() -> None:
    state = TicTacToeState.new(MNKConfig(7, 6, 4))
    values = move_values(state, threading.Event(), time_limit=1.0)
    proven = {m: v for m, v in values.items() if v.exact}
    empty = MNKSearchState.new(7, 6, 4)
    book_move = book_for(7, 6, 4).lookup(empty).move
    # The book's move, its mirror image on the symmetric empty board and every other
    # opening the book covers (the board is in EVERY_OPENING), none other.
    _outcome, covered = book_for(7, 6, 4).proven_moves(empty)
    mirror = book_move // 6 * 6 + 5 - book_move % 6
    assert {book_move, mirror} < set(proven) and set(proven) == set(covered)
    for value in proven.values():
        assert value.outcome == "win" and value.remoteness is None and value.label() == "W"
    assert set(values) == set(state.legal_moves())
    assert hint_note(values) == PROVEN_NOTE


@pytest.mark.slow
def test_hints_in_a_lost_position_show_every_move_a_proven_loss() -> None:
    search = MNKSearchState.new(7, 6, 4)
    search = search.play(book_for(7, 6, 4).lookup(search).move)
    state = search.to_rules()
    values = move_values(state, threading.Event(), time_limit=1.0)
    assert set(values) == set(state.legal_moves())
    assert all(v.exact and v.outcome == "loss" and v.remoteness is None
               for v in values.values())
    assert {v.label() for v in values.values()} == {"L"}


def test_the_legend_explains_n_and_bare_values() -> None:
    exact = move_values(TicTacToeState.new(), threading.Event(), time_limit=None)
    assert hint_note(exact) == REMOTENESS_NOTE and "n:" in REMOTENESS_NOTE
    assert "W or L alone: proven" in PROVEN_NOTE
