"""Perfect play for two-player m,n,k tic-tac-toe: solver, move values, the Perfect agent.

All of it is the generic :class:`engine.ai.negamax.Negamax` searching
:class:`~games.tictactoe.search_state.MNKSearchState` (whose hooks supply the
symmetric keys, threat pruning and dead-board draws).

* :func:`solve_mnk` proves an empty-board result in the fast sign-only mode.
* :func:`move_values` gives every legal move its exact value with remoteness
  ("win in 3", "draw", "loss in 4") for the hint overlay; where the budget
  runs out, the position's proven outcome (opening book or
  :func:`engine.ai.win_proof.proven_choice`: "win", "loss" without a
  distance) over estimates from the Hard player's bounded search.
* :class:`PerfectAgent` takes the quickest win, the longest loss, a random one
  of equally good moves; where the exact values take too long it plays a
  move that provably keeps the position's outcome (from the opening book or
  :func:`engine.ai.win_proof.proven_choice`); where neither is possible in
  its budget it plays its fallback (the Hard level) and says so in
  ``last_note``.

Remoteness counts plies (single moves) to the end with best play. A drawn
game ends only when the board is full, so a draw's remoteness is the number
of empty cells.
"""

from __future__ import annotations

import threading
import time

from engine.ai.agent import Agent
from engine.ai.negamax import Negamax, SearchTimeout, Value
from engine.ai.perfect import PerfectAgent as GenericPerfectAgent
from engine.ai.perfect import negamax_values
from engine.ai.win_proof import proven_choice, solve_outcome
from engine.model.rules import GameState
from engine.model.values import MoveValue
from games.tictactoe.opening_book import book_for
from games.tictactoe.rules import EMPTY, TicTacToeState
from games.tictactoe.search_state import MNKSearchState

__all__ = ["MoveValue", "PerfectAgent", "exact_move_values", "move_values", "position_value",
           "solve_mnk"]

# Transposition tables kept between moves are capped (entries, ~150 bytes each).
_TABLE_CAP = 1_000_000


def _check_two_players(state: TicTacToeState) -> None:
    if state.num_players != 2:
        raise ValueError("perfect play here is for two players; three-player boards use max^n")


def _to_move_value(value: Value, empties: int) -> MoveValue:
    """A root-relative negamax Value as a MoveValue (a draw lasts until the board is full)."""
    if value.outcome == 0:
        return MoveValue("draw", empties)
    return MoveValue.from_sign(value.outcome, value.plies)


def solve_mnk(rows: int, cols: int, k: int, time_limit: float | None = None,
              cancel: threading.Event | None = None, max_entries: int | None = None) -> int:
    """+1 if the first player wins the empty rows × cols board with k in a row, 0 draw, −1 loss.

    The exact sign-only negamax and the win prover take turns
    (:func:`engine.ai.win_proof.solve_outcome`): the first proves draws, the
    second the first player's wins on roomy boards (7×7 and 8×8 with k = 4).
    Raises SearchTimeout past ``time_limit`` seconds and Cancelled when
    ``cancel`` is set. ``max_entries`` caps each search's table (None: the
    bounded default).
    """
    state = MNKSearchState.new(rows, cols, k)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    return solve_outcome(state, deadline=deadline, cancel=cancel, max_entries=max_entries)


def position_value(state: TicTacToeState, cancel: threading.Event | None = None,
                   time_limit: float | None = None) -> MoveValue:
    """Exact value of ``state`` for its player to move, with remoteness.

    A finished game is a loss in 0 for the player to move when someone won
    (the last mover), a draw in 0 otherwise.
    """
    _check_two_players(state)
    if state.is_terminal():
        return MoveValue("loss" if state.winner is not None else "draw", 0)
    search = MNKSearchState.from_rules(state)
    value = Negamax(cancel=cancel, time_limit=time_limit).solve(search)
    return _to_move_value(value, search.n_empty)


# Shares of a hint's budget: every move's exact value until EXACT_SHARE of it, the
# position's proven outcome until PROVEN_UNTIL, estimates for the rest.
EXACT_SHARE = 2 / 3
PROVEN_UNTIL = 0.9


def move_values(state: TicTacToeState, cancel: threading.Event | None = None,
                time_limit: float | None = 1.5) -> dict[int, MoveValue]:
    """Value of every legal move for the player to move: exact if solvable in time.

    :func:`exact_or_proven` first; where that leaves moves unproven, the Hard
    player's estimates (``exact=False``) fill them in for the rest of
    ``time_limit``. ``time_limit=None`` waits for the exact answer. Raises
    Cancelled when ``cancel`` is set.
    """
    _check_two_players(state)
    if state.is_terminal():
        return {}
    start = time.monotonic()
    values, complete = exact_or_proven(state, cancel, time_limit)
    if complete:
        return values
    from games.tictactoe.hard_search import estimate_values

    assert time_limit is not None
    left = max(0.05, time_limit - (time.monotonic() - start))
    return {**estimate_values(state, cancel, left), **values}


def exact_or_proven(state: TicTacToeState, cancel: threading.Event | None,
                    time_limit: float | None) -> tuple[dict[int, MoveValue], bool]:
    """What can be proven about the moves of ``state`` in part of ``time_limit`` seconds:
    ``(values, complete)``, ``complete`` when every legal move has a proven value.

    Two thirds of ``time_limit`` go to every move's exact value with remoteness
    (as much as hints had before proven outcomes: no position loses its exact
    values). If that does not finish, the position's proven outcome and a move
    that achieves it (:func:`proven_values`: the opening book, else a proof until
    nine tenths of the budget): a lost position makes every move a proven
    loss (complete); a won or drawn one gives its proven move alone (no
    distance, see ``MoveValue.remoteness``). Nothing proven in time: ``({}, False)``.
    ``time_limit=None`` waits for the exact values. The game must not be over.
    """
    start = time.monotonic()
    exact_limit = None if time_limit is None else time_limit * EXACT_SHARE
    try:
        return exact_move_values(state, cancel, exact_limit), True
    except SearchTimeout:
        pass
    assert time_limit is not None
    search = MNKSearchState.from_rules(state)
    try:
        proven = proven_values(search, cancel, start + time_limit * PROVEN_UNTIL)
    except SearchTimeout:
        return {}, False
    # A lost position's proven values already list every move (proven_values).
    return proven, next(iter(proven.values())).outcome == "loss"


def exact_move_values(state: TicTacToeState, cancel: threading.Event | None = None,
                      time_limit: float | None = None) -> dict[int, MoveValue]:
    """Exact value of every legal move; raises SearchTimeout past ``time_limit`` seconds
    and Cancelled when ``cancel`` is set."""
    _check_two_players(state)
    return _exact_values(MNKSearchState.from_rules(state), Negamax(
        cancel=cancel, time_limit=time_limit))


def _exact_values(search: MNKSearchState, negamax: Negamax) -> dict[int, MoveValue]:
    return negamax_values(negamax, search, draw_remoteness=search.n_empty)


def proven_values(search: MNKSearchState, cancel: threading.Event | None,
                  deadline: float | None) -> dict[int, MoveValue]:
    """The position's proven outcome as move values, without distances.

    From the board's opening book where it has the position (its move, on a
    symmetric position the move's mirror images, and every other move the book proves as
    good and covers onward: ``OpeningBook.proven_moves``), else from
    :func:`engine.ai.win_proof.proven_choice`: one winning or drawing move,
    or, in a lost position, every move (each a proven loss; the likeliest to
    hold out first). Raises SearchTimeout when nothing is proven by ``deadline``.
    """
    g = search.g
    book = book_for(g.rows, g.cols, g.k)
    found = book.proven_moves(search) if book is not None else None
    if found is not None:
        # The book's move, on a symmetric board its mirror images, and every other move
        # after which the book holds the opponent's loss and each reply (6×7's openings):
        # all as good, and Perfect chooses among them, so its games vary.
        outcome, moves = found
        if outcome < 0:
            moves += [m for m in search.legal_moves() if m not in moves]
    else:
        choice = proven_choice(search, deadline=deadline, cancel=cancel, max_entries=_TABLE_CAP)
        outcome, moves = choice.outcome, list(choice.moves)
    if outcome > 0:
        value = MoveValue("win", None, note="proven win")
    elif outcome < 0:
        value = MoveValue("loss", None, note="proven loss")
    else:
        value = MoveValue("draw", search.n_empty, note="proven draw")
    return {move: value for move in moves}


class PerfectAgent(GenericPerfectAgent):
    """The engine's perfect player on m,n,k boards.

    Its value function keeps one transposition table per board shape between
    moves (capped), so later moves reuse what earlier ones proved. Where every
    move's exact value takes too long (early on 5×5 and 7×6 with 4 in a row),
    it plays a move proven to keep the position's outcome (:func:`proven_values`:
    the opening book, else a proof in the rest of its budget; in a lost position
    the move likeliest to hold out); where nothing is proven either, the
    fallback is the Hard level (by default a
    :class:`~games.tictactoe.hard_search.HardSearchAgent`), with a note. ``traps``: of
    equally good moves that do not win, one that leaves the opponent the most losing
    replies (the engine's ``PerfectAgent``).
    """

    def __init__(self, time_budget: float = 2.0, seed: int | None = None,
                 fallback: Agent | None = None, traps: bool = False) -> None:
        tables: dict[tuple[int, int, int], Negamax] = {}
        # Per board shape, the fewest empty cells at which the exact search ran out of time.
        too_big: dict[tuple[int, int, int], int] = {}

        def values(state: GameState, cancel: threading.Event,
                   deadline: float | None) -> dict[int, MoveValue]:
            if not isinstance(state, TicTacToeState):
                raise ValueError("PerfectAgent plays tic-tac-toe states")
            _check_two_players(state)
            cfg = state.config
            shape = (cfg.rows, cfg.cols, cfg.k)
            negamax = tables.get(shape)
            if negamax is None or len(negamax.tt) > _TABLE_CAP:
                negamax = tables[shape] = Negamax(max_entries=_TABLE_CAP)
            search = MNKSearchState.from_rules(state)
            if deadline is None or search.n_empty < too_big.get(shape, search.n_empty + 1):
                # A third of the budget for every move's exact value with remoteness; the
                # rest for the position's proven outcome and one move that achieves it.
                third = None if deadline is None else time.monotonic() + (
                    deadline - time.monotonic()) / 3
                negamax.cancel, negamax.deadline = cancel, third
                try:
                    return _exact_values(search, negamax)
                except SearchTimeout:
                    too_big[shape] = search.n_empty
            values = proven_values(search, cancel, deadline)
            if next(iter(values.values())).outcome == "loss":
                # Every move loses: the one likeliest to hold out (listed first).
                first = next(iter(values))
                return {first: values[first]}
            return values

        def hard() -> Agent:
            from games.tictactoe.hard_search import HardSearchAgent

            return HardSearchAgent(seed=seed)

        super().__init__(values, fallback or hard, time_budget, seed, fallback_label="Hard",
                         remaining=lambda state: state.board.count(EMPTY), traps=traps)
