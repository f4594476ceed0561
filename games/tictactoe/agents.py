"""Builds the computer player for a seat: level × board × mistake rate."""

from __future__ import annotations

from engine.ai.agent import Agent
from engine.seats import Seat
from games.tictactoe.rules import CLASSIC, MNKConfig

# Time each level may think per move on boards where it searches.
HARD_BUDGET = 0.25
PERFECT_BUDGET = 2.0


def make_agent(config: MNKConfig, seat: Seat, seed: int | None = None) -> Agent:
    """The agent that plays ``seat`` on ``config``.

    Hard is the repaired rule-based player on the classic board and a timed
    threat-aware alpha-beta elsewhere; Perfect solves the board and falls back
    to Hard (saying so) where it cannot within its budget. A mistake rate
    wraps any level in a player that sometimes blunders on purpose.
    """
    agent = _base_agent(config, seat.level, seed)
    if seat.mistakes > 0:
        from engine.ai.agent import MistakeAgent

        agent = MistakeAgent(agent, seat.mistakes, seed=seed)
    return agent


def _base_agent(config: MNKConfig, level: str, seed: int | None) -> Agent:
    if config.players == 3:
        from games.tictactoe.ai_three import ThreePlayerAgent

        return ThreePlayerAgent(level=level, seed=seed)
    if level == "easy":
        from games.tictactoe.ai_simple import EasyAgent

        return EasyAgent(seed=seed)
    if level == "medium":
        from games.tictactoe.ai_simple import MediumAgent

        return MediumAgent(seed=seed)
    hard = _hard_agent(config, seed)
    if level == "hard":
        return hard
    from games.tictactoe.perfect import PerfectAgent

    return PerfectAgent(time_budget=PERFECT_BUDGET, seed=seed, fallback=hard)


def _hard_agent(config: MNKConfig, seed: int | None) -> Agent:
    if config == CLASSIC:
        from games.tictactoe.ai_rules3 import RuleAgent

        return RuleAgent(seed=seed)
    from games.tictactoe.hard_search import HardSearchAgent

    return HardSearchAgent(time_budget=HARD_BUDGET, seed=seed)
