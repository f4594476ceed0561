"""Finished reviews (engine.ai.review) as JSON, kept with the game in its save.

A review is kept under its game's record — the start and the moves — so it is shown at
once when the game is reviewed again, also after a restart. Only reviews of games that
start at the fresh start are kept (the save writes no other start for them), at most
:data:`MAX_REVIEWS` of them and :data:`MAX_VALUES` move values in all, so a review never
makes a save big. Reading is lenient by design: a review is only a cache, so one that is
damaged, or does not fit its game any more, is dropped (and worked out again when asked
for) and never costs the game it belongs to.

No pygame here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.ai.review import GRADES, MoveReview, Review
from engine.model.values import OUTCOMES, Infinite, MoveValue
from engine.storage.saved_data import move_from_data, move_to_data

__all__ = ["MAX_REVIEWS", "MAX_VALUES", "reviews_from_data", "reviews_to_data"]

MAX_REVIEWS = 8
MAX_VALUES = 6_000  # about 150 KB of JSON: a save with reviews stays small


def _value_to_data(value: MoveValue) -> list[Any]:
    nimber: Any = value.nimber
    if isinstance(nimber, Infinite):  # ∞(K) as {"K": [...]} (JSON has no such number)
        nimber = {"K": sorted(nimber.k)}
    return [value.outcome, value.remoteness, value.exact, nimber]


def _value_from_data(data: object) -> MoveValue:
    if not isinstance(data, list) or len(data) != 4:
        raise ValueError("not a value")
    outcome, remoteness, exact, nimber = data
    if outcome not in OUTCOMES or not isinstance(exact, bool):
        raise ValueError("not a value")
    if isinstance(nimber, dict):
        members = nimber.get("K")
        if set(nimber) != {"K"} or not isinstance(members, list) or len(members) > 1_000:
            raise ValueError("not a value")
        _check_numbers(members, 0)
        nimber = Infinite(members)
    else:
        _check_numbers([nimber], 0)
    _check_numbers([remoteness], -1)
    return MoveValue(outcome, remoteness, exact, nimber)


def _check_numbers(numbers: list[Any], lowest: int) -> None:
    """ValueError unless each is None or a whole number from ``lowest`` to a million."""
    for number in numbers:
        if number is not None and (isinstance(number, bool) or not isinstance(number, int)
                                   or not lowest <= number <= 1_000_000):
            raise ValueError("not a value")


def reviews_to_data(reviews: Mapping[Any, Review], fresh: Any) -> list[dict[str, Any]]:
    """The newest reviews of games from ``fresh`` that fit the limits, as JSON."""
    out: list[dict[str, Any]] = []
    budget = MAX_VALUES
    for (start, moves), review in reversed(list(reviews.items())):
        if len(out) >= MAX_REVIEWS or start != fresh:
            continue
        size = sum(len(m.values) for m in review.moves)
        if size > budget:
            continue
        try:
            entry = {"moves": [move_to_data(m) for m in moves],
                     "complete": review.complete,
                     "review": [{"before": _value_to_data(m.before),
                                 "after": _value_to_data(m.after), "grade": m.grade,
                                 "values": [[move_to_data(k), _value_to_data(v)]
                                            for k, v in m.values.items()]}
                                for m in review.moves]}
        except ValueError:
            continue  # a move that cannot be saved: the review stays in memory only
        budget -= size
        out.append(entry)
    out.reverse()
    return out


def reviews_from_data(data: object, fresh: Any) -> dict[Any, Review]:
    """The reviews read back (see the module's notes: what does not fit is dropped)."""
    found: dict[Any, Review] = {}
    if not isinstance(data, list):
        return found
    for entry in data[:MAX_REVIEWS]:
        try:
            key, review = _review_from_data(entry, fresh)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            continue
        found[key] = review
    return found


def _review_from_data(entry: object, fresh: Any) -> tuple[Any, Review]:
    if not isinstance(entry, dict):
        raise ValueError("not a review")
    raw_moves, raw_review = entry["moves"], entry["review"]
    if not isinstance(raw_moves, list) or not isinstance(raw_review, list) \
            or len(raw_moves) != len(raw_review) or not isinstance(entry["complete"], bool):
        raise ValueError("not a review")
    moves = tuple(move_from_data(m) for m in raw_moves)
    state = fresh
    reviewed: list[MoveReview] = []
    for number, (move, raw) in enumerate(zip(moves, raw_review, strict=True), 1):
        legal = list(state.legal_moves()) if not state.is_terminal() else []
        if move not in legal or raw["grade"] not in GRADES:
            raise ValueError("not this game's review")
        values: dict[Any, MoveValue] = {}
        for pair in raw["values"]:
            key, value = move_from_data(pair[0]), _value_from_data(pair[1])
            if key not in legal:
                raise ValueError("not this game's review")
            values[key] = value
        best: tuple[Any, ...] = ()
        if values:
            top = max(v.rank() for v in values.values())
            best = tuple(m for m, v in values.items() if v.rank() == top)
        reviewed.append(MoveReview(number, state.current_player(), move,
                                   _value_from_data(raw["before"]),
                                   _value_from_data(raw["after"]), raw["grade"], best,
                                   values))
        state = state.play(move)
    return (fresh, moves), Review(tuple(reviewed), entry["complete"])
