"""Perfect play for two-player m,n,k tic-tac-toe: solver, move values, the Perfect agent.

All of it is the generic :class:`engine.ai.negamax.Negamax` searching
:class:`~games.tictactoe.search_state.MNKSearchState` (whose hooks supply the
symmetric keys, threat pruning and dead-board draws).

* :func:`solve_mnk` proves an empty-board result in the fast sign-only mode.
* :func:`move_values` gives every legal move its exact value with remoteness
  ("win in 3", "draw", "loss in 4") for the hint overlay, or an estimate from
  the Hard player's bounded search when the budget runs out.
* :class:`PerfectAgent` takes the quickest win, the longest loss, a random one
  of equally good moves; on a board it cannot solve in its budget it plays
  its fallback (the Hard level) and says so in ``last_note``.

Remoteness counts plies (single moves) to the end with best play. A drawn
game ends only when the board is full, so a draw's remoteness is the number
of empty cells.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import Literal

from engine.ai.agent import Agent, Cancelled
from engine.ai.negamax import Negamax, SearchTimeout, Value
from engine.rules import GameState, Move
from games.tictactoe.rules import TicTacToeState
from games.tictactoe.search_state import MNKSearchState

__all__ = ["MoveValue", "PerfectAgent", "move_values", "position_value", "solve_mnk"]

Outcome = Literal["win", "draw", "loss"]
_OUTCOME: dict[int, Outcome] = {1: "win", 0: "draw", -1: "loss"}
# Transposition tables kept between moves are capped (entries, ~150 bytes each).
_TABLE_CAP = 1_000_000


@dataclass(frozen=True)
class MoveValue:
    """What a move (or a position) is worth to the player to move.

    ``outcome`` with best play; ``plies`` moves to the end with best play
    (for an estimate: the depth looked ahead, or the length of a forced
    sequence found); ``exact`` False for estimates.
    """

    outcome: Outcome
    plies: int
    exact: bool


def _check_two_players(state: TicTacToeState) -> None:
    if state.num_players != 2:
        raise ValueError("perfect play here is for two players; three-player boards use max^n")


def _to_move_value(value: Value, empties: int) -> MoveValue:
    """A root-relative negamax Value as a MoveValue (a draw lasts until the board is full)."""
    if value.outcome == 0:
        return MoveValue("draw", empties, True)
    assert value.plies is not None
    return MoveValue(_OUTCOME[value.outcome], value.plies, True)


def solve_mnk(rows: int, cols: int, k: int, time_limit: float | None = None,
              cancel: threading.Event | None = None) -> int:
    """+1 if the first player wins the empty rows × cols board with k in a row, 0 draw, −1 loss.

    Sign-only search (no remoteness). Raises SearchTimeout past ``time_limit``
    seconds and Cancelled when ``cancel`` is set.
    """
    state = MNKSearchState.new(rows, cols, k)
    return Negamax(remoteness=False, cancel=cancel, time_limit=time_limit).solve(state).outcome


def position_value(state: TicTacToeState, cancel: threading.Event | None = None,
                   time_limit: float | None = None) -> MoveValue:
    """Exact value of ``state`` for its player to move, with remoteness.

    A finished game is a loss in 0 for the player to move when someone won
    (the last mover), a draw in 0 otherwise.
    """
    _check_two_players(state)
    if state.is_terminal():
        return MoveValue("loss" if state.winner is not None else "draw", 0, True)
    search = MNKSearchState.from_rules(state)
    value = Negamax(cancel=cancel, time_limit=time_limit).solve(search)
    return _to_move_value(value, search.n_empty)


def move_values(state: TicTacToeState, cancel: threading.Event | None = None,
                time_limit: float | None = 1.5) -> dict[int, MoveValue]:
    """Value of every legal move for the player to move: exact if solvable in time.

    About two thirds of ``time_limit`` go to the exact search; if it does not
    finish, the rest goes to the Hard player's bounded search and every value
    comes back with ``exact=False``. ``time_limit=None`` waits for the exact
    answer. Raises Cancelled when ``cancel`` is set.
    """
    _check_two_players(state)
    if state.is_terminal():
        return {}
    start = time.monotonic()
    exact_limit = None if time_limit is None else time_limit * 2 / 3
    try:
        return _exact_values(MNKSearchState.from_rules(state), Negamax(
            cancel=cancel, time_limit=exact_limit))
    except SearchTimeout:
        pass
    from games.tictactoe.hard_search import estimate_values

    assert time_limit is not None
    left = max(0.05, time_limit - (time.monotonic() - start))
    return estimate_values(state, cancel, left)


def _exact_values(search: MNKSearchState, negamax: Negamax) -> dict[int, MoveValue]:
    empties = search.n_empty
    return {m: _to_move_value(v, empties) for m, v in negamax.move_values(search).items()}


def _rank(value: MoveValue) -> tuple[int, int]:
    """Sort key, larger is better: wins (quickest first), draws, losses (longest first)."""
    if value.outcome == "win":
        return (2, -value.plies)
    if value.outcome == "draw":
        return (1, 0)
    return (0, value.plies)


class PerfectAgent:
    """Plays perfectly where it can solve the board within ``time_budget`` seconds.

    Among the best moves (quickest win, else a draw, else the longest loss) it
    picks at random with its own seeded generator. Where the exact search
    does not finish in time it asks ``fallback`` (by default a
    :class:`~games.tictactoe.hard_search.HardSearchAgent`) and sets
    :attr:`last_note`; once a board proved too big at some number of empty
    cells, positions with at least as many empty cells go straight to the
    fallback (more empty cells only make the search larger).
    """

    name = "perfect"

    def __init__(self, time_budget: float = 2.0, seed: int | None = None,
                 fallback: Agent | None = None) -> None:
        self.time_budget = time_budget
        self._rng = random.Random(seed)
        self._seed = seed
        self._fallback = fallback
        self.last_note: str | None = None
        self.last_values: dict[int, MoveValue] | None = None
        self._too_big_at: dict[tuple[int, int, int], int] = {}
        # One table per board shape, kept between moves: later moves reuse it.
        self._negamax: dict[tuple[int, int, int], Negamax] = {}

    @property
    def fallback(self) -> Agent:
        """The player used where the board cannot be solved in time."""
        if self._fallback is None:
            from games.tictactoe.hard_search import HardSearchAgent

            self._fallback = HardSearchAgent(seed=self._seed)
        return self._fallback

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """The best move by exact values, or the fallback's move with a note."""
        if not isinstance(state, TicTacToeState):
            raise ValueError("PerfectAgent plays tic-tac-toe states")
        _check_two_players(state)
        if state.is_terminal():
            raise ValueError("no legal move: the game is over")
        if cancel.is_set():
            raise Cancelled
        cfg = state.config
        shape = (cfg.rows, cfg.cols, cfg.k)
        search = MNKSearchState.from_rules(state)
        values = None
        if search.n_empty < self._too_big_at.get(shape, search.n_empty + 1):
            negamax = self._negamax.get(shape)
            if negamax is None or len(negamax.tt) > _TABLE_CAP:
                negamax = self._negamax[shape] = Negamax(max_entries=_TABLE_CAP)
            negamax.cancel = cancel
            negamax.deadline = time.monotonic() + self.time_budget
            try:
                values = _exact_values(search, negamax)
            except SearchTimeout:
                self._too_big_at[shape] = search.n_empty
        self.last_values = values
        if values is None:
            self.last_note = (f"This board is too large to solve in {self.time_budget:g} s; "
                              "playing at the Hard level.")
            return self.fallback.choose_move(state, cancel)
        self.last_note = None
        best = max(_rank(v) for v in values.values())
        choices = sorted(m for m, v in values.items() if _rank(v) == best)
        return self._rng.choice(choices)
