"""Tic-tac-toe's difficulty ladder, weakest first: each rung's recipe per board class and,
made from those same recipes, what the help says it does (the players:
games/tictactoe/agents.py).

A rung's text is generated from its recipes and the budgets here, so that "a search 3 moves
deep" or "a search of 20,000 positions a move" is true by construction: agents.py builds the
players from the same ``RECIPES``, ``HARD_NODES`` and ``LONGER``. One ladder is shown for
every tic-tac-toe board, so each text says what the rung does on each board class (3×3,
the bigger boards, the gomoku-sized ones), once for classes where it does the same. No
pygame, no search code here (the descriptor imports this module).
"""

from __future__ import annotations

from engine.ai.ladder import Recipe, Rung, classes_phrase, recipe_phrase
from engine.core.phrase import N_, Nn_, Number, Phrase

__all__ = ["BOARD_CLASSES", "EDGE_OPENING", "HARD_NODES", "LADDER", "LONGER", "RECIPES",
           "REFLEX_FROM", "REFLEX_FROM_3X3", "THREE_DEPTH", "THREE_NODES", "THREE_PERFECT_TIMES",
           "THREE_PLAYERS", "UPPER", "recipe_text", "reflex_from", "rung_text",
           "search_nodes", "skill_text", "three_player_text"]

# The searches of the levels below Perfect are budgeted in nodes searched per move, not
# seconds, so that a level is as strong on a slow or busy machine as on a fast one (issue
# 32): about what the former 0.25 s budget searched here on an idle core (~50,000 nodes a
# CPU-second on gomoku, ~90,000 on 7×6; measured on Hard against Hard).
HARD_NODES = {"mnk": 20_000, "gomoku": 11_000}
# Where nothing is proven, Perfect searches as Hard does with this many times its nodes
# per board class: a longer search than Hard's makes it the stronger of the two where a
# proof is out of reach. On gomoku, measured over 20 games against Hard
# (tests/benchmarks/bench_ladder.py): 7 times scored 97.5 %, far above a rung's two games
# in three; 5 times 85 %, 4 times 77.5 %. Fewer did worse than Hard itself (2 times:
# 15 %, 3 times: 32.5 %), which is not explained yet.
LONGER = {"mnk": 7, "gomoku": 4}

# Each rung's recipe (engine/ai/ladder.py) per board class (agents.board_class): the
# classic 3×3, the boards between, and the gomoku-sized boards where Hard searches threat
# space first. The shares are measured per class by tests/benchmarks/bench_ladder.py so
# that each rung beats the one below in about two games of three. On 3×3, where best play
# draws, the span from random play to Perfect is narrow: these shares were chosen with
# every pair's exact expected score (tests/support/exact_ladder.py walks every game),
# and give 66.7 % to 68.1 % for each pair, no rung blocking every loss below Hard.
RECIPES: dict[str, dict[str, Recipe]] = {
    "3x3": {"beginner": ("random", None, 0.0), "easy": ("easy", "random", 0.23),
            "medium": ("hard", "easy", 0.7), "strong": ("medium", "easy", 0.3),
            "hard": ("perfect", "medium", 0.84), "perfect": ("perfect", None, 0.0)},
    "mnk": {"beginner": ("medium", None, 0.0), "easy": ("depth1", "medium", 0.5),
            "medium": ("depth1", "medium", 0.25), "strong": ("depth3", "depth1", 0.75),
            "hard": ("hard", None, 0.0), "perfect": ("perfect", None, 0.0)},
    "gomoku": {"beginner": ("depth1", "medium", 0.08), "easy": ("depth2", None, 0.0),
               "medium": ("previous", "depth2", 0.5), "strong": ("hard", "previous", 0.5),
               "hard": ("hard", None, 0.0), "perfect": ("perfect", None, 0.0)},
}
# The board classes, in the order a rung's text names them, with the name it uses.
BOARD_CLASSES = {"3x3": N_("3×3"), "mnk": N_("bigger two-player boards"),
                 "gomoku": N_("gomoku-sized boards")}
# Three players (the 4×4 board, games/tictactoe/ai_three.py) have players of their own:
# each rung's player there, and the max^n search's positions a move for the two that
# search below Perfect (about what 0.3 s and 0.1 s searched here on an idle core, ~66,000
# nodes a CPU-second); their search looks THREE_DEPTH moves ahead, Perfect's to the end
# with THREE_PERFECT_TIMES times Hard's positions. agents._three_player_agent builds the
# players from these, and the texts below are made from them.
THREE_PLAYERS = {"beginner": "random", "easy": "easy", "medium": "medium",
                 "strong": "strong", "hard": "hard", "perfect": "perfect"}
THREE_NODES = {"hard": 20_000, "strong": 6_500}
THREE_DEPTH = 6
THREE_PERFECT_TIMES = 3
# The name a rung's text gives the three-player board, after the two-player classes.
THREE_CLASS = N_("three players")
# The upper half of the ladder, from this rung up, takes a win and blocks a loss in one at
# once, before any search (agents.make_agent wraps those rungs in a ReflexAgent); on 3×3
# only from Hard up: a Strong that never missed a block there would leave too little room
# between it and Perfect for two rungs (every recipe tried, scored exactly, fell short).
REFLEX_FROM = "strong"
REFLEX_FROM_3X3 = "hard"
# The board classes where Hard, when it opens a game, plays its first move on a square of
# the board's edge at random (agents.make_agent wraps it in an OpeningAgent). On 6×7 with
# four in a row the first player wins and Hard kept every start against Perfect, so the
# two could not be ranked; an edge opening often throws the win away against best play
# (Perfect took 25 of 50), while Strong, moving second, still lost 99 of 100 such games
# (tests/benchmarks/bench_ladder.py).
EDGE_OPENING = ("mnk",)

_LABELS = {"beginner": N_("Beginner"), "easy": N_("Easy"), "medium": N_("Medium"),
           "strong": N_("Strong"), "hard": N_("Hard"), "perfect": N_("Perfect")}
_LEVELS = tuple(RECIPES["3x3"])
UPPER = _LEVELS.index(REFLEX_FROM)


def reflex_from(board_class: str) -> int:
    """The index of the rung from which a win and a block in one are played at once on
    ``board_class``."""
    return _LEVELS.index(REFLEX_FROM_3X3 if board_class == "3x3" else REFLEX_FROM)


def search_nodes(board_class: str, skill: str) -> int:
    """The positions a move the search skill ``skill`` may search on ``board_class`` (the
    budget agents._skill gives it): Hard's, ``LONGER[board_class]`` times Hard's for
    ``longer``."""
    return HARD_NODES[board_class] * (LONGER[board_class] if skill == "longer" else 1)


def skill_text(skill: str, board_class: str) -> Phrase:
    """What one of the family's skills does on ``board_class``, in a few words (from its
    name and budget, as agents._skill builds it)."""
    if skill == "random":
        return Phrase(N_("any empty square at random"))
    if skill == "easy":
        return Phrase(N_("a random square, but it takes a win"))
    if skill == "medium":  # SPEC §2's weight grid: a win, else a block, else open lines
        return Phrase(N_("wins, blocks, else the square on most open lines"))
    if skill == "perfect":
        if board_class == "3x3":  # solved at once: its fallback never plays; traps on
            return Phrase(N_("the exact solver, which among equally good moves plays one "
                             "that leaves the opponent the most losing replies"))
        return Phrase(N_("the exact solver where it answers in time, else Hard's search "
                         "of {nodes} positions"), nodes=Number(search_nodes(board_class, "longer")))
    if board_class == "3x3":  # every search skill is the rule player there
        return Phrase(N_("rules that never lose"))
    if skill.startswith("depth"):
        return Phrase(Nn_("a search {count} move deep", "a search {count} moves deep"),
                      count=int(skill[5:]))
    nodes = Number(search_nodes(board_class, skill))
    if skill in ("hard", "longer") and board_class == "gomoku":  # threat space first
        return Phrase(N_("a search of {nodes} positions a move that looks for forcing "
                         "threats first"), nodes=nodes)
    if skill in ("hard", "longer", "previous"):
        return Phrase(N_("a search of {nodes} positions a move"), nodes=nodes)
    raise ValueError(f"no tic-tac-toe skill {skill!r}")


def recipe_text(recipe: Recipe, board_class: str) -> Phrase:
    """What a rung playing ``recipe`` on ``board_class`` does: its skill, and the weaker
    skill's share (engine/ai/ladder.py's wording)."""
    return recipe_phrase(recipe, lambda skill: skill_text(skill, board_class))


def three_player_text(level: str) -> Phrase:
    """What ``level``'s player does with three players, from ``THREE_PLAYERS`` and the
    budgets above (ai_three's rules: every player but Beginner wins, else blocks the next
    player; from Medium up the third player's line too)."""
    player = THREE_PLAYERS[level]
    if player == "random":
        return skill_text("random", "three")
    if player == "easy":
        return Phrase(N_("wins, else blocks the next player, else any empty square at random"))
    if player == "medium":
        return Phrase(N_("wins, else blocks either opponent, else the square on most "
                         "open lines"))
    if player == "perfect":
        return Phrase(N_("wins, else blocks either opponent, else a search of {nodes} "
                         "positions a move, with no depth limit"),
                      nodes=Number(THREE_NODES["hard"] * THREE_PERFECT_TIMES))
    return Phrase(N_("wins, else blocks either opponent, else a search of {nodes} positions "
                     "a move, at most {depth} moves deep"),
                  depth=THREE_DEPTH, nodes=Number(THREE_NODES[player]))


def rung_text(level: str) -> Phrase | str:
    """What ``level`` does on every board class, read from ``RECIPES`` and
    ``THREE_PLAYERS`` now: "3×3: …; bigger boards: …; gomoku-sized boards: …; three
    players: …", classes where it does the same named together (no class named where it
    does the same on all)."""
    texts = {board_class: recipe_text(RECIPES[board_class][level], board_class)
             for board_class in BOARD_CLASSES}
    if level == "hard":
        for board_class in EDGE_OPENING:
            texts[board_class] = Phrase(N_("{how}, opening a game on a square of the board's "
                                           "edge at random"), how=texts[board_class])
    texts["three"] = three_player_text(level)
    how = classes_phrase(texts, {**BOARD_CLASSES, "three": THREE_CLASS})
    if level == REFLEX_FROM:
        return Phrase(N_("{how}; from here up, it takes a win and blocks a loss at once "
                         "({board}: from {level} up)"), how=how,
                      board=Phrase(BOARD_CLASSES["3x3"]),
                      level=Phrase(_LABELS[REFLEX_FROM_3X3]))
    return how


LADDER = tuple(Rung(level, _LABELS[level], rung_text(level)) for level in _LEVELS)
