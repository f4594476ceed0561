"""Gomoku hints: a win by continuous fours comes first, and it really is one."""

from __future__ import annotations

import pytest

from games.tictactoe.advice import forced_win_by_fours, hint_report
from games.tictactoe.hard_search import HardSearchAgent
from tests.support.oracles import (
    _VCF_TWO,
    _play_out_as_vcf,
    _state,
    _transformed,
    _winning_squares,
)


def test_a_win_by_fours_is_ranked_first_and_holds() -> None:
    """The threat search finds the win by fours; the hint ranks a winning square first,
    proven by the win prover (a bare W) where its share of the budget suffices, else as
    the threat search's forced win."""
    state = _state(_transformed(_VCF_TWO, 15, 2, False))
    found = forced_win_by_fours(state, time_limit=1.0)
    assert found is not None and found[1] >= 3
    _values, candidates = hint_report(state, time_limit=1.0)
    assert candidates is not None
    first = candidates[0]
    assert first.rank == 1 and len(first.cells) == 1
    assert first.value.outcome == "win" and first.value.exact
    assert first.outlook == "proven win" or (
        "fours" in first.reason and first.outlook.startswith("wins within "))
    # The square makes a four (one forced reply) ...
    after = state.play(first.cells[0])
    threats = _winning_squares(after, 0)
    assert len(threats) == 1
    # ... and after the block X still wins by fours alone (checked move by move).
    _play_out_as_vcf(after.play(min(threats)),
                     HardSearchAgent(time_budget=2.0, seed=1, max_nodes=20_000))
    # No other rank repeats the square; at most four ranks.
    assert all(first.cells[0] not in c.cells for c in candidates[1:]) and len(candidates) <= 4


@pytest.mark.slow
def test_no_win_by_fours_on_a_quiet_board() -> None:
    state = _state({(7, 7): "X", (7, 8): "O", (8, 8): "X", (6, 6): "O"})
    assert forced_win_by_fours(state) is None
    _values, candidates = hint_report(state, time_limit=0.6)
    assert candidates and all("fours" not in c.reason for c in candidates)
