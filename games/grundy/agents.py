"""The Grundy family's computer players: Easy plays at random, Perfect plays the theory."""

from __future__ import annotations

from typing import Any

from engine.ai.agent import Agent, MistakeAgent, RandomAgent
from engine.seats import Seat


def make_agent(params: Any, seat: Seat, seed: int | None = None) -> Agent:
    """Easy plays at random; Perfect moves to value 0 when it can, else resists longest.

    The same for every game of the family (``params`` does not matter); a mistake rate
    makes either blunder now and then.
    """
    if seat.level == "easy":
        agent: Agent = RandomAgent(seed=seed)
    else:
        from games.grundy.ai import ImpartialAgent

        agent = ImpartialAgent(seed=seed)
    return MistakeAgent(agent, seat.mistakes, seed=seed) if seat.mistakes else agent
