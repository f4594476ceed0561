"""Connect Four's difficulty ladder, weakest first (the players: games/connect4/agents.py)."""

from __future__ import annotations

from engine.ai.ladder import Rung
from engine.core.phrase import N_

LADDER = (
    Rung("beginner", N_("Beginner"), N_("a search two moves deep, sometimes only one")),
    Rung("easy", N_("Easy"), N_("a search four moves deep")),
    Rung("medium", N_("Medium"), N_("a search six moves deep, sometimes only four")),
    Rung("strong", N_("Strong"), N_("a search eight moves deep")),
    Rung("hard", N_("Hard"), N_("a timed search with a threat-counting evaluation")),
    Rung("perfect", N_("Perfect"), N_("the exact solver where it answers in time, else "
                                      "Hard's search for longer")),
)
