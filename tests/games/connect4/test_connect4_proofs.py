"""Hard's proofs within a budget of work (issue 32): every outcome
:class:`~games.connect4.solver.OutcomeProver` answers is the independent brute force's,
on the compiled kernel and on the pure-Python search; the budget is kept, the answer is
the same whatever came before, and Hard (:class:`~games.connect4.agents.ProvingAgent`)
plays a proven win and never a column proven to lose while another is open.
"""

from __future__ import annotations

import contextlib
import random
import threading

import pytest

from engine.ai.agent import Cancelled
from games.connect4 import kernel
from games.connect4.agents import HardAgent, ProvingAgent
from games.connect4.book import book_for
from games.connect4.rules import Connect4Config, Connect4State
from games.connect4.solver import OutcomeProver
from tests.support.oracles import brute_move_values, random_play

SMALL = Connect4Config(5, 4)
NO_CANCEL = threading.Event()
# Positions from random play on 5×4, past its book (6 discs), brute-forced in a moment.
SEEDS = range(40)


def _positions(cfg: Connect4Config = SMALL, count: int = 40) -> list[Connect4State]:
    rng = random.Random(7)
    out: list[Connect4State] = []
    while len(out) < count:
        state = random_play(cfg, rng.randrange(6, cfg.cells - 2), rng)
        if not state.is_terminal():
            out.append(state)
    return out


def _backends() -> list[object]:
    """The kernel (where it runs here) and the pure-Python search."""
    cases: list[object] = [pytest.param(kernel.disabled, id="python")]
    if kernel.available():
        cases.insert(0, pytest.param(contextlib.nullcontext, id="kernel"))
    return cases


@pytest.mark.slow  # the brute force of 5×4 positions: seconds (the quick run keeps its own)
@pytest.mark.parametrize("backend", _backends())
@pytest.mark.parametrize("nodes", [0, 300, 100_000])
def test_every_outcome_proven_within_the_budget_is_the_brute_forces(backend, nodes: int) -> None:
    """Whatever the budget, an outcome answered is the true one; with a big budget every
    column is answered until the first proven win (in the order given), and a win is
    answered wherever one exists; the nodes searched stay within the budget (the
    pure-Python search looks every 2,048 nodes)."""
    with backend():
        prover = OutcomeProver(nodes)
        for i, state in enumerate(_positions()):
            truth = {col: value[0] for col, value in brute_move_values(state).items()}
            order = list(truth)
            random.Random(i).shuffle(order)
            found = prover(state, order, NO_CANCEL)
            assert found.items() <= truth.items(), (state, found, truth)
            assert prover.used <= nodes + (0 if backend is contextlib.nullcontext else 2048)
            if nodes == 100_000:
                wins = [col for col in order if truth[col] > 0]
                if wins:
                    assert any(found.get(col) == 1 for col in wins), state
                else:
                    assert found == truth, state
                # Searched in the order given: nothing after the first proven win but
                # what needs no search (a win at once, the book's positions).
                first_win = next((k for k, col in enumerate(order) if found.get(col) == 1),
                                 len(order))
                booked = len(state.moves) + 1 <= book_for(SMALL.cols, SMALL.rows).depth
                for col in order[first_win + 1:]:
                    if col in found:
                        assert booked or state.play(col).winner is not None, (state, col)


@pytest.mark.parametrize("backend", _backends())
def test_the_same_position_gets_the_same_answer_whatever_came_before(backend) -> None:
    """The table is cleared before each call, so a budget that runs out part-way runs out
    at the same column whatever was proven before."""
    with backend():
        states = _positions(Connect4Config(), 12)
        fresh = [OutcomeProver(2_000)(s, s.legal_moves(), NO_CANCEL) for s in states]
        warm = OutcomeProver(2_000)
        for state in reversed(states):
            warm(state, state.legal_moves(), NO_CANCEL)
        again = [warm(s, s.legal_moves(), NO_CANCEL) for s in states]
        assert again == fresh


def test_a_cancelled_proof_stops() -> None:
    cancel = threading.Event()
    cancel.set()
    state = Connect4State.from_moves(Connect4Config(), [3, 3, 2, 4])
    with pytest.raises(Cancelled):
        OutcomeProver(10 ** 9)(state, state.legal_moves(), cancel)


@pytest.mark.slow
@pytest.mark.parametrize("backend", _backends())
def test_hard_plays_a_proven_win_and_never_a_proven_loss_beside_an_open_column(backend) -> None:
    """With a budget big enough to prove 5×4 positions, Hard's column is a win wherever
    one exists; with a small one it never plays a column the brute force says loses where
    the proofs showed it so and another column was not shown to lose."""
    with backend():
        for i, state in enumerate(_positions()):
            truth = {col: value[0] for col, value in brute_move_values(state).items()}
            strong = ProvingAgent(100_000, seed=i,
                                  search=HardAgent(seed=i, max_nodes=500, time_budget=None))
            col = strong.choose_move(state, NO_CANCEL)
            assert truth[col] == max(truth.values()), (state, col, truth)
            assert strong.proved_win == (truth[col] > 0)
            weak = ProvingAgent(300, seed=i,
                                search=HardAgent(seed=i, max_nodes=500, time_budget=None))
            col = weak.choose_move(state, NO_CANCEL)
            order = list(state.legal_moves())
            random.Random(i).shuffle(order)
            shown = OutcomeProver(300)(state, order, NO_CANCEL)
            if any(shown.get(c, 0) >= 0 for c in truth):
                assert shown.get(col, 0) >= 0, (state, col, shown)


def test_hards_budget_is_its_work() -> None:
    """The proofs' budget is read and set as ``max_nodes`` (the tests that shrink every
    search's work find it there), and a budget of work cannot be negative."""
    hard = ProvingAgent(1_234, seed=1)
    assert hard.max_nodes == 1_234
    hard.max_nodes = 99
    assert hard.prover.nodes == 99
    with pytest.raises(ValueError, match="count of nodes"):
        OutcomeProver(-1)
