"""The Grundy family's computer players, Beginner to Perfect (games/grundy/levels.py).

The lower rungs count moves ahead (:class:`engine.ai.ladder.LookaheadAgent`); Perfect
plays the theory (games/grundy/ai.py), any winning move at random (:class:`TheoryAgent`:
its games vary, and it never misses a win); Hard plays the theory except that some of its
moves only look two ahead (``RECIPES``, in games/grundy/levels.py with the texts made
from it). Heaps and graphs share one set of recipes, the token games on a board another
(see :func:`recipe_class`).
"""

from __future__ import annotations

import random
import threading
from typing import Any

from engine.ai.agent import Agent, MistakeAgent, RandomAgent, Wrapper, checked_moves
from engine.ai.ladder import LookaheadAgent, blended, level_names
from engine.model.seats import Seat
from games.grundy.levels import LADDER, RECIPES

__all__ = ["LEVELS", "RECIPES", "TheoryAgent", "make_agent", "recipe_class"]

LEVELS = level_names(LADDER)
# RECIPES (each rung's recipe per class, the skills named below) lives with the ladder
# whose texts are made from it; imported here, it stays agents.RECIPES.


def recipe_class(params: Any) -> str:
    """Which recipes ``params``' game uses: ``"board"`` for the token games, else ``"heaps"``."""
    return "board" if getattr(params, "is_board", False) else "heaps"


class TheoryAgent(Wrapper):
    """The theory's player for the ladder: where the mover can win, any winning move at
    random (all of them win: the theory never misses one), else the perfect player's move
    (the longest resistance). Playing only the quickest win made games between the same
    two levels repeat themselves (King's walk Perfect against Hard: 25 distinct games of
    40); any winning move keeps Perfect as strong and its games varied."""

    name = "perfect"

    def __init__(self, seed: int | None = None) -> None:
        from games.grundy.ai import ImpartialAgent

        self.inner = ImpartialAgent(seed=seed)
        self._rng = random.Random(seed)

    def choose_move(self, state: Any, cancel: threading.Event) -> Any:
        """A random winning move if there is one, else the perfect player's move."""
        from games.grundy.ai import move_values

        checked_moves(state, cancel)
        # Outcomes only (no distances): the theory gives them at once.
        best = move_values(state, cancel, only_best=True, distance=False)
        wins = sorted((m for m, v in best.items() if v.outcome == "win"), key=repr)
        if wins:
            return self._rng.choice(wins)
        return self.inner.choose_move(state, cancel)


def _skill(skill: str, seed: int | None) -> Agent:
    if skill == "random":
        return RandomAgent(seed=seed)
    if skill.startswith("look"):
        return LookaheadAgent(int(skill[4:]), skill, seed=seed)
    return TheoryAgent(seed=seed)


def make_agent(params: Any, seat: Seat, seed: int | None = None) -> Agent:
    """The player of ``seat``'s level; a mistake rate makes it blunder now and then."""
    level = seat.level
    recipes = RECIPES[recipe_class(params)]
    if level not in recipes:
        raise ValueError(f"no Grundy level {level!r}: choose one of {', '.join(LEVELS)}")
    agent = blended(recipes[level], lambda skill: _skill(skill, seed), level, seed)
    return MistakeAgent(agent, seat.mistakes, seed=seed) if seat.mistakes else agent
