"""The Grundy games' difficulty ladder, weakest first (the players: games/grundy/agents.py)."""

from __future__ import annotations

from engine.ai.ladder import Rung
from engine.core.phrase import N_

LADDER = (
    Rung("beginner", N_("Beginner"), N_("any move at random")),
    Rung("easy", N_("Easy"), N_("looks two moves ahead (in the heap games not always)")),
    Rung("medium", N_("Medium"), N_("looks three moves ahead (on a board it often knows the "
                                    "theory)")),
    Rung("strong", N_("Strong"), N_("knows the theory, but often only looks three moves "
                                    "ahead")),
    Rung("hard", N_("Hard"), N_("knows the theory, but now and then only looks two moves "
                                "ahead")),
    Rung("perfect", N_("Perfect"), N_("the Sprague–Grundy theory: never misses a win")),
)
