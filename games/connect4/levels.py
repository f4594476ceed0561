"""Connect Four's difficulty ladder, weakest first (the players: games/connect4/agents.py)."""

from __future__ import annotations

from engine.ai.ladder import Rung
from engine.phrase import N_

LADDER = (
    Rung("beginner", N_("Beginner"), N_("drops a disc in any column")),
    Rung("easy", N_("Easy"), N_("takes a win in one move, else plays anywhere")),
    Rung("medium", N_("Medium"), N_("wins, blocks, never hands over a win, leans to the centre")),
    Rung("strong", N_("Strong"), N_("a search four moves deep")),
    Rung("hard", N_("Hard"), N_("a timed search with a threat-counting evaluation")),
    Rung("perfect", N_("Perfect"), N_("the exact solver where it answers in time, else Hard")),
)
