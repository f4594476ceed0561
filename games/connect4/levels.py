"""Connect Four's difficulty ladder, weakest first: each rung's recipe and, made from that
same recipe, what the help says it does (the players: games/connect4/agents.py).

A rung's text is generated from its recipe and the budgets here, so that "a search 8 moves
deep" is true by construction: agents.py builds the players from the same ``RECIPES``,
``HARD_NODES`` and ``PERFECT_FALLBACK_NODES``. No pygame, no search code here (the
descriptor imports this module).
"""

from __future__ import annotations

from engine.ai.ladder import Recipe, Rung, recipe_phrase
from engine.core.phrase import N_, Nn_, Number, Phrase

__all__ = ["HARD_NODES", "LADDER", "PERFECT_FALLBACK_NODES", "RECIPES", "skill_text"]

# The work of the searching levels, in positions searched a move (not seconds: a level is
# as strong on a slow or busy machine as on a fast one, issue 32). HARD_NODES is about
# what Hard's former 0.3 s searched here on an idle core (~150,000 positions a
# CPU-second, measured on positions of Hard against Hard); Perfect's fallback, where
# nothing is proven, what its former second did.
HARD_NODES = 40_000
PERFECT_FALLBACK_NODES = 150_000

# Each rung's recipe (engine/ai/ladder.py): searches two, four, six and eight or nine plies deep,
# then Hard's search of HARD_NODES positions (about nine plies at first, deeper as the
# board fills); two plies more win about two games of three. Beginner plays three moves in
# ten as the Medium skill (one move ahead), so each rung beats the one below in about two
# games of three (tests/benchmarks/bench_ladder.py). Medium played a quarter of its moves
# at four plies until issue 32: over 400 games (two samples of 200) it then scored only
# 64.1 % against Easy; six plies throughout scored 67.8 % (71.0 and 64.5 %). Strong at
# eight plies scored only 64 % over Medium (100 games) and Hard 80 % over it (40); nine
# plies were far too strong (86.5 % over Medium in 100 games); nine plies in half its
# moves and eight in the others put both pairs in the band (67.0 % and 71.5 %, 100 games
# each).
RECIPES: dict[str, Recipe] = {
    "beginner": ("depth2", "medium", 0.3), "easy": ("depth4", None, 0.0),
    "medium": ("depth6", None, 0.0), "strong": ("depth9", "depth8", 0.5),
    "hard": ("hard", None, 0.0), "perfect": ("perfect", None, 0.0)}

_LABELS = {"beginner": N_("Beginner"), "easy": N_("Easy"), "medium": N_("Medium"),
           "strong": N_("Strong"), "hard": N_("Hard"), "perfect": N_("Perfect")}


def skill_text(skill: str) -> Phrase:
    """What one of the family's skills does, in a few words (from its name and budget)."""
    if skill.startswith("depth"):
        plies = int(skill[5:])
        return Phrase(Nn_("a search {count} move deep", "a search {count} moves deep"),
                      count=plies)
    if skill == "medium":  # said inside the share's parentheses: none of its own
        return Phrase(N_("one move ahead, so it wins, blocks and never hands over a "
                         "win at once"))
    if skill == "hard":
        return Phrase(N_("a search of {nodes} positions a move with a threat-counting "
                         "evaluation"), nodes=Number(HARD_NODES))
    if skill == "perfect":
        return Phrase(N_("the exact solver where it answers in time, else Hard's search "
                         "of {nodes} positions"), nodes=Number(PERFECT_FALLBACK_NODES))
    raise ValueError(f"no Connect Four skill {skill!r}")


def recipe_text(recipe: Recipe) -> Phrase:
    """What a rung playing ``recipe`` does: its skill, and the weaker skill's share
    (engine/ai/ladder.py's wording)."""
    return recipe_phrase(recipe, skill_text)


LADDER = tuple(Rung(level, _LABELS[level], recipe_text(recipe))
               for level, recipe in RECIPES.items())
