"""Tic-tac-toe's difficulty ladder, weakest first (the players: games/tictactoe/agents.py)."""

from __future__ import annotations

from engine.ai.ladder import Rung
from engine.phrase import N_

LADDER = (
    Rung("beginner", N_("Beginner"), N_("plays any empty square")),
    Rung("easy", N_("Easy"), N_("takes a win in one move, else plays anywhere")),
    Rung("medium", N_("Medium"), N_("wins, blocks, else takes the square on most open lines")),
    Rung("strong", N_("Strong"), N_("half its moves a short search's, half Medium's")),
    Rung("hard", N_("Hard"), N_("a timed search that sees threats")),
    Rung("perfect", N_("Perfect"), N_("proven moves where the board can be solved, else Hard")),
)
