"""Reviewing a finished game: every move's value before and after, and how good it was.

Built only on what every two-player game declares — its rules (a start and the moves
played) and its hint function (``hint_values(state, cancel, time_limit)`` giving every
legal move's :class:`~engine.model.values.MoveValue`) — so one review serves every game,
the GamesmanUni way (its "Visual Value History" and scorecard).

For move *N*, played by ``mover`` in position *P*:

* **before**: the value of *P* for the mover — the value of its best move (the hint's
  values ranked by :meth:`MoveValue.rank`), remoteness counted from *P*;
* **after**: the value, for the same mover, of the position the move led to: the hint's
  value of the move played, its remoteness less the move itself (a win on the spot is
  ``win`` at distance 0). For impartial games both carry the nimber where the
  hints give it (the nimber of the position the move led to; *P*'s own nimber is the one
  the previous move led to, unknown for the first move);
* **grade** (:data:`GRADES`): *best* keeps the best value (the fastest win, the slowest
  loss), *good* keeps the outcome, *mistake* drops a win to a draw or a draw to a loss,
  *blunder* drops a win to a loss — those three on proven values only. Where either
  value is an estimate, a drop of at least :data:`INACCURACY_STEPS` outcome steps
  (an estimated win to an estimated draw, say) is an *inaccuracy*, never a mistake:
  nothing is claimed that was not proven. *unknown*: no value was worked out for the
  position (out of time, or the hint failed).

The work runs on the caller's thread (the review screen hands it to an
:class:`~engine.ai.runner.AIRunner`): it polls ``cancel`` (raising
:class:`~engine.ai.agent.Cancelled`) and reports ``progress(done, total)`` after each
position. A total ``time_limit`` is shared out between the positions still to do, the
last ones first (they are the cheapest to prove and usually decide the game), so a long
game still ends in time, its early moves estimated or unknown.

Only two-player games are reviewed: :func:`unavailable_reason` says so, in the player's
words, for a game of three (max^n values are estimates that no hint function gives).

No pygame here.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai.agent import Cancelled
from engine.core.i18n import N_, Nn_, _, ngettext
from engine.model.rules import GameState, IllegalMove, Move
from engine.model.values import MoveValue, Nimber, best_moves

__all__ = ["GRADES", "INACCURACY_STEPS", "MoveReview", "Review", "SeatSummary",
           "review_game", "seat_summaries", "summary_text", "unavailable_reason",
           "value_code"]

# The grades, best first (the order of a seat's summary).
GRADES: tuple[str, ...] = ("best", "good", "inaccuracy", "mistake", "blunder", "unknown")
# An estimated drop of this many outcome steps (win → draw is one, win → loss two) is an
# inaccuracy; a smaller change of an estimate (a slower estimated win) is still good.
INACCURACY_STEPS = 1
# Seconds one position may take when no total limit is given (as long as a hint).
MOVE_LIMIT = 3.0

_STEP = {"win": 1, "draw": 0, "loss": -1}

HintFunction = Callable[[Any, threading.Event, "float | None"], Mapping[Move, MoveValue]]
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class MoveReview:
    """One move of a reviewed game (see the module's notes for the values and grades).

    ``number`` counts from 1; ``mover`` is the seat that played ``move``; ``values`` are
    every legal move's values in the position before it (empty when unknown) and
    ``best`` the moves of the highest rank among them.
    """

    number: int
    mover: int
    move: Move
    before: MoveValue
    after: MoveValue
    grade: str
    best: tuple[Move, ...] = ()
    values: Mapping[Move, MoveValue] = field(default_factory=dict)

    @property
    def exact(self) -> bool:
        """Whether both values are proven."""
        return self.before.exact and self.after.exact and self.before.outcome != "unknown"

    def first_player_after(self) -> MoveValue:
        """The value after the move from the first seat's side (the value graph's point)."""
        return self.after if self.mover == 0 else flipped(self.after)


@dataclass(frozen=True)
class Review:
    """A reviewed game: one :class:`MoveReview` per move, in order. ``complete`` is False
    when the time limit left some moves ``unknown``."""

    moves: tuple[MoveReview, ...]
    complete: bool = True

    def for_seat(self, seat: int) -> list[MoveReview]:
        """The moves ``seat`` played."""
        return [m for m in self.moves if m.mover == seat]


UNKNOWN = MoveValue("unknown", exact=False)


def flipped(value: MoveValue) -> MoveValue:
    """The same value from the other player's side (a win is their loss)."""
    other = {"win": "loss", "loss": "win"}.get(value.outcome, value.outcome)
    return MoveValue(other, value.remoteness, value.exact,  # type: ignore[arg-type]
                     nimber=value.nimber, note=value.note)


def value_code(value: MoveValue) -> str:
    """The value as the command line writes it: ``win``, ``win:D``, ``draw``, ``loss``,
    ``loss:D`` or ``unknown`` (an estimate is ``unknown``: only proven values are given)."""
    if value.outcome == "unknown" or not value.exact:
        return "unknown"
    if value.outcome in ("win", "loss") and value.remoteness is not None:
        return f"{value.outcome}:{value.remoteness}"
    return value.outcome


def unavailable_reason(state: GameState, hints: Any) -> str | None:
    """Why a game starting at ``state`` cannot be reviewed, in the player's language (None:
    it can). ``hints`` is the descriptor's hint function (None where it has none)."""
    if state.num_players != 2:
        return _("Review is not available for games of three or more players: their "
                 "values are estimates of every player's chances, not proven results.")
    if hints is None:
        return _("Review is not available: this game has no hints to explain its moves.")
    return None


def grade(before: MoveValue, after: MoveValue, best: bool) -> str:
    """The grade of a move that turned the mover's ``before`` into ``after`` (``best``:
    the move is among the best ones the values show). See the module's notes."""
    if before.outcome == "unknown" or after.outcome == "unknown":
        return "unknown"
    if best or after.rank() >= before.rank():
        return "best"
    drop = _STEP[before.outcome] - _STEP[after.outcome]
    if drop <= 0:
        return "good"
    if not (before.exact and after.exact):
        return "inaccuracy" if drop >= INACCURACY_STEPS else "good"
    return "blunder" if drop >= 2 else "mistake"


def _after_value(value: MoveValue) -> MoveValue:
    """A move's hint value as the value of the position it led to (its own ply taken off)."""
    remote = None if value.remoteness is None else max(0, value.remoteness - 1)
    return MoveValue(value.outcome, remote, value.exact, nimber=value.nimber, note=value.note)


def _review_move(number: int, state: GameState, move: Move,
                 values: Mapping[Move, MoveValue], nimber: Nimber | None) -> MoveReview:
    mover = state.current_player()
    played = values.get(move)
    if played is None or not values:
        return MoveReview(number, mover, move, UNKNOWN, UNKNOWN, "unknown", (), dict(values))
    best = tuple(best_moves(values))
    top = values[best[0]]
    before = MoveValue(top.outcome, top.remoteness, top.exact, nimber=nimber)
    after = _after_value(played)
    return MoveReview(number, mover, move, before, after,
                      grade(before, played, move in best), best, dict(values))


def positions(start: GameState, moves: Sequence[Move]) -> list[GameState]:
    """The positions before each move (and the last one after), every move checked legal:
    :class:`~engine.model.rules.IllegalMove` names the first move that is not."""
    states = [start]
    for number, move in enumerate(moves, 1):
        state = states[-1]
        if state.is_terminal() or move not in state.legal_moves():
            raise IllegalMove(f"move {number} ({move!r}) is not legal there")
        states.append(state.play(move))
    return states


def review_game(start: GameState, moves: Sequence[Move], hints: HintFunction, *,
                cancel: threading.Event | None = None, progress: Progress | None = None,
                time_limit: float | None = None, move_limit: float | None = MOVE_LIMIT,
                clock: Callable[[], float] = time.monotonic) -> Review:
    """Review the game played by ``moves`` from ``start`` with the game's hint function.

    ``time_limit`` (seconds, None: none) bounds the whole review; ``move_limit`` bounds
    one position (None: exact, however long). Positions are done from the last to the
    first; those left when the time is up are ``unknown`` and ``complete`` is False.
    Raises :class:`~engine.ai.agent.Cancelled` once ``cancel`` is set, IllegalMove for a
    move the rules refuse, ValueError for a game of more than two players.
    """
    if start.num_players != 2:
        raise ValueError("only two-player games are reviewed")
    cancel = cancel or threading.Event()
    states = positions(start, moves)
    total = len(moves)
    found: dict[int, Mapping[Move, MoveValue]] = {}
    deadline = None if time_limit is None else clock() + time_limit
    complete = True
    for done, index in enumerate(range(total - 1, -1, -1)):
        if cancel.is_set():
            raise Cancelled
        limit = move_limit
        if deadline is not None:
            left = deadline - clock()
            if left <= 0:
                complete = False
                break
            share = left / (index + 1)  # what is left, shared by the positions to do
            limit = share if limit is None else min(limit, share)
        try:
            found[index] = hints(states[index], cancel, limit)
        except Cancelled:
            raise
        except Exception:  # one position's failure leaves that move unknown, not the review
            found[index] = {}
            complete = False
        if progress is not None:
            progress(done + 1, total)
    reviews: list[MoveReview] = []
    for index, move in enumerate(moves):
        values = found.get(index, {})
        # A position's nimber is the one the move before led to (impartial hints give it).
        nimber = None
        if index > 0:
            prior = found.get(index - 1, {}).get(moves[index - 1])
            if prior is not None:
                nimber = prior.nimber  # (∞ with its K too: the theory's label)
        reviews.append(_review_move(index + 1, states[index], move, values, nimber))
    return Review(tuple(reviews), complete)


# --- the summary of a seat ------------------------------------------------------------------
@dataclass(frozen=True)
class SeatSummary:
    """How one seat played: how many moves of each grade, where the outcome slipped
    (``turns``: the move numbers of its mistakes and blunders, with the value before),
    and the first position it had a proven win in (``winning_from``: (move, distance))."""

    seat: int
    counts: Mapping[str, int]
    turns: tuple[MoveReview, ...]
    winning_from: tuple[int, int | None] | None


def seat_summaries(review: Review, seats: Sequence[int]) -> list[SeatSummary]:
    """A :class:`SeatSummary` for each seat of ``seats`` (the human ones, say)."""
    out = []
    for seat in seats:
        mine = review.for_seat(seat)
        counts = {g: sum(1 for m in mine if m.grade == g) for g in GRADES}
        turns = tuple(m for m in mine if m.grade in ("mistake", "blunder"))
        winning = next(((m.number, m.before.remoteness) for m in mine
                        if m.before.outcome == "win" and m.before.exact), None)
        out.append(SeatSummary(seat, counts, turns, winning))
    return out


_GRADE_COUNTS = {
    "best": Nn_("{count} best move", "{count} best moves"),
    "good": Nn_("{count} good move", "{count} good moves"),
    "inaccuracy": Nn_("{count} inaccuracy", "{count} inaccuracies"),
    "mistake": Nn_("{count} mistake", "{count} mistakes"),
    "blunder": Nn_("{count} blunder", "{count} blunders"),
    "unknown": Nn_("{count} move not worked out", "{count} moves not worked out"),
}
_LOST = {("win", "draw"): N_("move {number} gave away a win for a draw"),
         ("win", "loss"): N_("move {number} gave away a win"),
         ("draw", "loss"): N_("move {number} gave away a draw")}


def grade_counts_text(counts: Mapping[str, int]) -> str:
    """"3 best moves, 1 blunder" in the current language (grades with no move left out)."""
    parts = [ngettext(*_GRADE_COUNTS[g], counts[g]).format(count=counts[g])
             for g in GRADES if counts.get(g)]
    return ", ".join(parts) if parts else _("no moves")


def summary_text(summary: SeatSummary) -> str:
    """A seat's summary in the current language: "1 best move, 1 blunder: move 9 gave
    away a win; move 3 was winning in 7"."""
    text = grade_counts_text(summary.counts)
    details = [_(_LOST[(m.before.outcome, m.after.outcome)]).format(number=m.number)
               for m in summary.turns if (m.before.outcome, m.after.outcome) in _LOST]
    if summary.winning_from is not None:
        number, distance = summary.winning_from
        if distance is None:
            details.append(_("move {number} was winning").format(number=number))
        else:
            details.append(ngettext("move {number} was winning in {count} move",
                                    "move {number} was winning in {count} moves", distance)
                           .format(number=number, count=distance))
    return f"{text}: {'; '.join(details)}" if details else text
