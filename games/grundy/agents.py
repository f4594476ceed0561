"""The Grundy family's computer players, Beginner to Perfect (games/grundy/levels.py).

The lower rungs count moves ahead (:class:`engine.ai.ladder.LookaheadAgent`); Perfect
plays the theory (games/grundy/ai.py); Hard plays the theory except that some of its
moves (``HARD_SLIPS``) are Medium's. The same for every game of the family.
"""

from __future__ import annotations

from typing import Any

from engine.ai.agent import Agent, BlendAgent, MistakeAgent, RandomAgent
from engine.ai.ladder import LookaheadAgent, level_names
from engine.seats import Seat
from games.grundy.levels import LADDER

LEVELS = level_names(LADDER)
# Hard: the share of its moves that only look two moves ahead (one slip in a won game
# usually hands it over, so a few are enough).
HARD_SLIPS = 0.15
# How far each counting level looks.
PLIES = {"easy": 1, "medium": 2, "strong": 4}


def make_agent(params: Any, seat: Seat, seed: int | None = None) -> Agent:
    """The player of ``seat``'s level; a mistake rate makes it blunder now and then."""
    level = seat.level
    if level not in LEVELS:
        raise ValueError(f"no Grundy level {level!r}: choose one of {', '.join(LEVELS)}")
    agent: Agent
    if level == "beginner":
        agent = RandomAgent(seed=seed)
    elif level in PLIES:
        agent = LookaheadAgent(PLIES[level], level, seed=seed)
    else:
        from games.grundy.ai import ImpartialAgent

        agent = ImpartialAgent(seed=seed)
        if level == "hard":
            agent = BlendAgent(agent, LookaheadAgent(PLIES["medium"], "medium", seed=seed),
                               HARD_SLIPS, "hard", seed=seed)
    return MistakeAgent(agent, seat.mistakes, seed=seed) if seat.mistakes else agent
