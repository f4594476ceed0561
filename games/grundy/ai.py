"""The perfect player of every impartial game here (board tokens, heaps, graphs).

It needs only the ImpartialState protocol: each move's resulting value and
remoteness. The Sprague–Grundy theory (SPEC §5) gives the play:

* a won position (value ≠ 0) always has a move to a 0: take one, the quickest
  win first (smallest remoteness of the result), ties at random;
* a lost position (value 0): every move gives the opponent a win, so make the
  game last longest (largest remoteness of the result) and wait for a mistake;
* games with cycles (value ∞, None): a move to a 0 still wins. Otherwise a
  move to an ∞ position is a draw *only if* that position has no move to a 0
  (an ∞ position with a 0 successor is a win for the player who moves there
  next), so such real draws come before moves that hand the opponent a win.

No pygame here.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from engine.ai.agent import Cancelled
from engine.ai.perfect import PerfectAgent
from engine.model.rules import Move
from engine.model.values import MoveValue, ranked
from games.grundy.impartial import ImpartialState

_RANK = {"win": 0, "draw": 1, "loss": 2}


def _check(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled


def _outcome(state: ImpartialState, move: Move, value: int | None,
             cancel: threading.Event | None) -> str:
    """The mover's result with best play after ``move``, which gives ``value``."""
    if value == 0:
        return "win"
    if value is not None:
        return "loss"
    # ∞: a draw unless the opponent can move from there to a 0.
    after = state.play(move)
    for reply in after.legal_moves():
        _check(cancel)
        if after.move_value(reply) == 0:
            return "loss"
    return "draw"


def move_values(state: ImpartialState, cancel: threading.Event | None = None,
                only_best: bool = False, distance: bool = True) -> dict[Move, MoveValue]:
    """Every legal move's :class:`MoveValue` (legal order), with the nimber it leads to.

    The nimber is the resulting position's own label (``nimber()``: a number, ∞(K)
    on graphs with cycles, None in misère play), never the outcome convention of
    ``value()`` (which says 1 for a won ∞ node).

    Remoteness counts plies to the end with best play, this move included (the
    resulting position's remoteness + 1); None for draws, and for every move
    when ``distance`` is False (hints: the outcome is exact, the distance can be
    a search for sums). With ``only_best`` just the moves of the best outcome
    available are returned, and remoteness is asked only for those.
    """
    found = []
    for move in state.legal_moves():
        _check(cancel)
        value = state.move_value(move)
        found.append((move, value, _outcome(state, move, value, cancel)))
    if only_best and found:
        best = min(_RANK[outcome] for _, _, outcome in found)
        found = [f for f in found if _RANK[f[2]] == best]
    out: dict[Move, MoveValue] = {}
    for move, _value, outcome in found:
        _check(cancel)
        after = state.play(move)
        remote = None
        if distance and outcome != "draw":
            far = after.remoteness()
            remote = None if far is None else far + 1
        out[move] = MoveValue(outcome, remote, True,  # type: ignore[arg-type]
                              nimber=after.nimber())
    return out


def hint_values(state: ImpartialState, cancel: threading.Event | None = None,
                time_limit: float | None = None) -> dict[Move, MoveValue]:
    """The hint overlay's values: exact outcomes and nimbers (∞ with its K), no distances."""
    return move_values(state, cancel, distance=False)


def move_rank(state: ImpartialState, cancel: threading.Event | None = None
              ) -> list[tuple[Move, MoveValue]]:
    """Every legal move with its value, best first; ties keep legal order."""
    return ranked(move_values(state, cancel))


class ImpartialAgent(PerfectAgent):
    """Perfect play for any ImpartialState (see the module's docstring): the engine's
    perfect player on exact values, which the Sprague–Grundy theory always gives."""

    def __init__(self, seed: int | None = None) -> None:
        def values(state: ImpartialState, cancel: threading.Event,
                   deadline: float | None) -> Mapping[Move, MoveValue]:
            # Only the best outcome's moves: the others cannot be chosen, and their
            # remoteness may cost a search.
            return move_values(state, cancel, only_best=True)

        def never() -> Any:  # exact values never time out here
            raise AssertionError("the impartial player has no fallback")

        super().__init__(values, never, time_budget=float("inf"), seed=seed)
