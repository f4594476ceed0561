"""Tic-tac-toe's difficulty ladder, weakest first (the players: games/tictactoe/agents.py)."""

from __future__ import annotations

from engine.ai.ladder import Rung
from engine.core.phrase import N_

# What each level does, in a player's words (the recipes per board class, measured so that
# each level beats the one below in about two games of three: games/tictactoe/agents.py).
LADDER = (
    Rung("beginner", N_("Beginner"), N_("plays loosely and misses a lot")),
    Rung("easy", N_("Easy"), N_("sees wins, but often misses the opponent's threats")),
    Rung("medium", N_("Medium"), N_("wins, blocks and builds lines; a short search on big "
                                    "boards")),
    Rung("strong", N_("Strong"), N_("a short search; takes a win and blocks a loss at once")),
    Rung("hard", N_("Hard"), N_("a search of a set number of positions a move that sees "
                                "threats (never loses on 3×3)")),
    Rung("perfect", N_("Perfect"), N_("proven moves where the board can be solved, else "
                                      "Hard's search for longer")),
)
