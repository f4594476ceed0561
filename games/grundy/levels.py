"""The Grundy games' difficulty ladder, weakest first: each rung's recipe per class of
game and, made from those same recipes, what the help says it does (the players:
games/grundy/agents.py).

A rung's text is generated from its recipes, so that "looks up to 3 moves ahead" or "in
45 moves of 100" is true by construction: agents.py builds the players from the same
``RECIPES``. One ladder is shown for every Grundy game, so each text says what the rung
does on the board games and on the heap and graph games, once where they play alike. No
pygame, no search code here (the descriptor imports this module).
"""

from __future__ import annotations

from engine.ai.ladder import Recipe, Rung, classes_phrase, recipe_phrase
from engine.core.phrase import N_, Nn_, Phrase

__all__ = ["CLASSES", "LADDER", "RECIPES", "recipe_text", "rung_text", "skill_text"]

# Each rung's recipe (engine/ai/ladder.py) of the skills "random", "look<n>" (n moves
# ahead) and "perfect", measured by tests/benchmarks/bench_ladder.py so that each rung
# beats the one below in about two games of three. Strong and Hard know the theory but
# some of their moves only look a few ahead (one slip in a won game usually hands it
# over, so few). Heaps and graphs share one set of recipes, the token games on a board
# another (agents.recipe_class).
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
# The classes, in the order a rung's text names them (the help's: board games first),
# with the names it uses.
CLASSES = {"board": N_("board games"), "heaps": N_("heap and graph games")}

_LABELS = {"beginner": N_("Beginner"), "easy": N_("Easy"), "medium": N_("Medium"),
           "strong": N_("Strong"), "hard": N_("Hard"), "perfect": N_("Perfect")}


def skill_text(skill: str) -> Phrase:
    """What one of the family's skills does, in a few words (as agents._skill builds it)."""
    if skill == "random":
        return Phrase(N_("any move at random"))
    if skill.startswith("look"):
        # LookaheadAgent caps the positions it looks at a move: a wide position (a big
        # Nim) is looked at less deep, hence "up to".
        return Phrase(Nn_("looks up to {count} move ahead", "looks up to {count} moves ahead"),
                      count=int(skill[4:]))
    if skill == "perfect":  # TheoryAgent: any winning move, else the longest resistance
        return Phrase(N_("the Sprague–Grundy theory, which never misses a win"))
    raise ValueError(f"no Grundy skill {skill!r}")


def recipe_text(recipe: Recipe) -> Phrase:
    """What a rung playing ``recipe`` does: its skill, and the weaker skill's share
    (engine/ai/ladder.py's wording)."""
    return recipe_phrase(recipe, skill_text)


def rung_text(level: str) -> Phrase:
    """What ``level`` does in every class of game, read from ``RECIPES`` now: "board
    games: …; heap and graph games: …", or one text where both play alike."""
    return classes_phrase({name: recipe_text(RECIPES[name][level]) for name in CLASSES},
                          CLASSES)


LADDER = tuple(Rung(level, _LABELS[level], rung_text(level)) for level in RECIPES["heaps"])
