"""A game's computer levels as the model sees them: the rungs of its difficulty ladder
(weakest first) and "Match me", the level that climbs the ladder as the player wins.

The players behind the rungs are built in engine/ai/ladder.py; a descriptor only needs
the names, labels and help texts here. No pygame here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.phrase import N_

__all__ = ["MATCH", "MATCH_RUNG", "Rung", "level_names", "match_level"]


@dataclass(frozen=True)
class Rung:
    """One level of a ladder: its stored name, what the set-up calls it (an ``N_()``
    text) and what it does, in a few words for the help text."""

    level: str
    label: str
    how: str


# The adaptive level: the set-up offers it after the strongest rung.
MATCH = "match"
MATCH_RUNG = Rung(MATCH, N_("Match me"), N_("starts in the middle of the ladder, a level up "
                                            "after each game you win, down after each loss"))


def match_level(levels: Sequence[str], outcomes: Sequence[str]) -> str:
    """The rung "Match me" plays now: the middle of ``levels`` (weakest first; the lower
    middle of an even count), then one up after each game the player ``"won"``, one down
    after each ``"lost"``, a draw leaving it, never past either end. ``outcomes`` are the
    player's results against "Match me" in the order played."""
    index = (len(levels) - 1) // 2
    for outcome in outcomes:
        step = 1 if outcome == "won" else -1 if outcome == "lost" else 0
        index = min(max(index + step, 0), len(levels) - 1)
    return levels[index]


def level_names(rungs: Sequence[Rung]) -> tuple[str, ...]:
    """The rungs' stored names, weakest first (a descriptor's ``levels``)."""
    return tuple(rung.level for rung in rungs)
