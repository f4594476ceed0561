"""Connect Four's difficulty ladder, weakest first: each rung's recipe and, made from that
same recipe, what the help says it does (the players: games/connect4/agents.py).

A rung's text is generated from its recipe and the budgets here, so that "a search 8 moves
deep" is true by construction: agents.py builds the players from the same ``RECIPES``,
``HARD_NODES``, ``PROOF_NODES`` and ``PERFECT_FALLBACK_NODES``. No pygame, no search code
here (the descriptor imports this module).
"""

from __future__ import annotations

from engine.ai.ladder import Recipe, Rung, recipe_phrase
from engine.core.phrase import N_, Nn_, Number, Phrase

__all__ = ["HARD_NODES", "LADDER", "PERFECT_FALLBACK_NODES", "PROOF_NODES", "RECIPES",
           "skill_text"]

# The work of the searching levels, in positions searched a move (not seconds: a level is
# as strong on a slow or busy machine as on a fast one, issue 32). HARD_NODES, Strong's
# search, is about what Hard's former 0.3 s searched here on an idle core (~150,000
# positions a CPU-second, measured on positions of Hard against Hard); PROOF_NODES, Hard's
# proofs, counted by the compiled kernel (a few milliseconds of it; the pure-Python search,
# where no C compiler is found, counts its own positions, about a quarter of a second);
# Perfect's fallback, where nothing is proven, searches what its former second did.
HARD_NODES = 40_000
PROOF_NODES = 60_000
PERFECT_FALLBACK_NODES = 150_000

# Each rung's recipe (engine/ai/ladder.py): searches two, four, and nine or eight plies
# deep, then the opening book before a search of HARD_NODES positions (about nine plies at
# first, deeper as the board fills), then proofs of PROOF_NODES positions before it, and
# Perfect. Beginner plays three moves in ten as the Medium skill (one move ahead).
# Measured with tests/benchmarks/bench_ladder.py, 100 games a pair unless said, so that each
# rung beats the one below in about two games of three (docs/performance.md).
#
# Until issue 32 Hard was the search alone and Perfect beat it in every game (20 of 20): it
# never kept the first player's win against a proven defence. The book and proofs before
# the search keep it in some of Hard's games; how often depends steeply on the proofs'
# budget (Perfect–Hard: the book alone 90 % over 20 games; 20,000 and 30,000 positions
# 81.0 %; 50,000 76.5 %; 60,000 69.5 %; 100,000 58.0 %). Against the same search with the
# book and no proofs, Hard scores 68.0 % (30,000), 70.0 % (50,000) and 73.5 % (100,000).
# So that is Strong (72.5 % over the former Strong), and the former Strong (nine plies in
# half its moves, eight in the others) is Medium: 76.5 % over 200 games against Easy's four
# plies, where seven plies scored 75.5 % but lost 83.5 % against the search, and five
# plies beat Beginner 81.2 %. The former Medium's six plies are no longer a rung.
RECIPES: dict[str, Recipe] = {
    "beginner": ("depth2", "medium", 0.3), "easy": ("depth4", None, 0.0),
    "medium": ("depth9", "depth8", 0.5), "strong": ("book", None, 0.0),
    "hard": ("proof", None, 0.0), "perfect": ("perfect", None, 0.0)}

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
    if skill == "book":
        return Phrase(N_("the opening book where there is one, else a search of {nodes} "
                         "positions a move with a threat-counting evaluation"),
                      nodes=Number(HARD_NODES))
    if skill == "proof":
        return Phrase(N_("the opening book where there is one, then proofs of up to "
                         "{proof} positions a move, else Strong's search"),
                      proof=Number(PROOF_NODES))
    if skill == "perfect":
        return Phrase(N_("the exact solver where it answers in time, else Hard's play "
                         "with a search of {nodes} positions"),
                      nodes=Number(PERFECT_FALLBACK_NODES))
    raise ValueError(f"no Connect Four skill {skill!r}")


def recipe_text(recipe: Recipe) -> Phrase:
    """What a rung playing ``recipe`` does: its skill, and the weaker skill's share
    (engine/ai/ladder.py's wording)."""
    return recipe_phrase(recipe, skill_text)


LADDER = tuple(Rung(level, _LABELS[level], recipe_text(recipe))
               for level, recipe in RECIPES.items())
