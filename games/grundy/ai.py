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

import random
import threading
from dataclasses import dataclass
from typing import Literal

from engine.ai.agent import Cancelled
from engine.rules import Move
from games.grundy.impartial import ImpartialState

Outcome = Literal["win", "draw", "loss"]
_RANK = {"win": 0, "draw": 1, "loss": 2}


@dataclass(frozen=True)
class MoveInfo:
    """What one move leads to, from the mover's point of view (for the agent and hints)."""

    move: Move
    value: int | None  # the resulting position's value (None: ∞)
    outcome: Outcome  # with best play after this move
    remoteness: int | None  # of the resulting position; None if unknown or drawn


def _check(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled


def _outcome(state: ImpartialState, move: Move, value: int | None,
             cancel: threading.Event | None) -> Outcome:
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


def move_infos(state: ImpartialState, cancel: threading.Event | None = None,
               only_best: bool = False) -> list[MoveInfo]:
    """Every legal move with its value, outcome and resulting remoteness (legal order).

    Drawn moves get remoteness None. With ``only_best`` just the moves of the
    best outcome available are returned, and remoteness (possibly a search for
    some games) is asked only for those.
    """
    found = []
    for move in state.legal_moves():
        _check(cancel)
        value = state.move_value(move)
        found.append((move, value, _outcome(state, move, value, cancel)))
    if only_best and found:
        best = min(_RANK[outcome] for _, _, outcome in found)
        found = [f for f in found if _RANK[f[2]] == best]
    out = []
    for move, value, outcome in found:
        _check(cancel)
        remote = None if outcome == "draw" else state.play(move).remoteness()
        out.append(MoveInfo(move, value, outcome, remote))
    return out


def _sort_key(info: MoveInfo) -> tuple[int, float]:
    """Best first: wins before draws before losses; quick wins, slow losses."""
    # Unknown remoteness counts as endless: a last resort for a win, the best stall for a loss.
    r = float("inf") if info.remoteness is None else float(info.remoteness)
    if info.outcome == "win":
        return (0, r)
    if info.outcome == "draw":
        return (1, 0.0)
    return (2, -r)


def move_rank(state: ImpartialState, cancel: threading.Event | None = None) -> list[MoveInfo]:
    """Every legal move, best first (the hint overlay's order); ties keep legal order."""
    return sorted(move_infos(state, cancel), key=_sort_key)


class ImpartialAgent:
    """Perfect play for any ImpartialState (see the module's docstring)."""

    name = "perfect"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_move(self, state: ImpartialState, cancel: threading.Event) -> Move:
        """The best move; among equally good ones a random one. Raises Cancelled if asked."""
        _check(cancel)
        ranked = sorted(move_infos(state, cancel, only_best=True), key=_sort_key)
        if not ranked:
            raise ValueError("no legal move: the game is over")
        best = _sort_key(ranked[0])
        ties = [info.move for info in ranked if _sort_key(info) == best]
        return self._rng.choice(ties)
