"""The Grundy family's computer players, Beginner to Perfect (games/grundy/levels.py).

The lower rungs count moves ahead (:class:`engine.ai.ladder.LookaheadAgent`); Perfect
plays the theory (games/grundy/ai.py); Hard plays the theory except that some of its
moves only look two ahead (``RECIPES``). Heaps and graphs share one set of recipes, the
token games on a board another (see :func:`recipe_class`).
"""

from __future__ import annotations

from typing import Any

from engine.ai.agent import Agent, MistakeAgent, RandomAgent
from engine.ai.ladder import LookaheadAgent, Recipe, blended, level_names
from engine.model.seats import Seat
from games.grundy.levels import LADDER

LEVELS = level_names(LADDER)
# Each rung's recipe (engine/ai/ladder.py) of the skills "random", "look<n>" (n moves
# ahead) and "perfect", measured by tests/benchmarks/bench_ladder.py so that each rung
# beats the one below in about two games of three. Strong and Hard know the theory but
# some of their moves only look a few ahead (one slip in a won game usually hands it
# over, so few).
# On a board (King's walk) a game is short and a turn has few moves, so counting one move
# further ahead gains less than in Nim: the middle rungs there play more of the theory.
RECIPES: dict[str, dict[str, Recipe]] = {
    "heaps": {"beginner": ("random", None, 0.0), "easy": ("look2", "random", 0.2),
              "medium": ("look3", None, 0.0), "strong": ("perfect", "look3", 0.45),
              "hard": ("perfect", "look2", 0.15), "perfect": ("perfect", None, 0.0)},
    "board": {"beginner": ("random", None, 0.0), "easy": ("look2", None, 0.0),
              "medium": ("perfect", "look3", 0.75), "strong": ("perfect", "look3", 0.45),
              "hard": ("perfect", "look2", 0.15), "perfect": ("perfect", None, 0.0)},
}


def recipe_class(params: Any) -> str:
    """Which recipes ``params``' game uses: ``"board"`` for the token games, else ``"heaps"``."""
    return "board" if getattr(params, "is_board", False) else "heaps"


def _skill(skill: str, seed: int | None) -> Agent:
    if skill == "random":
        return RandomAgent(seed=seed)
    if skill.startswith("look"):
        return LookaheadAgent(int(skill[4:]), skill, seed=seed)
    from games.grundy.ai import ImpartialAgent

    return ImpartialAgent(seed=seed)


def make_agent(params: Any, seat: Seat, seed: int | None = None) -> Agent:
    """The player of ``seat``'s level; a mistake rate makes it blunder now and then."""
    level = seat.level
    recipes = RECIPES[recipe_class(params)]
    if level not in recipes:
        raise ValueError(f"no Grundy level {level!r}: choose one of {', '.join(LEVELS)}")
    agent = blended(recipes[level], lambda skill: _skill(skill, seed), level, seed)
    return MistakeAgent(agent, seat.mistakes, seed=seed) if seat.mistakes else agent
