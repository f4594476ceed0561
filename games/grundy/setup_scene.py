"""The Grundy set-up overlay: which game, its size, and who plays."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from engine.seats import Seat
from engine.setup_scene import SeatRowLayout, SeatSetupOverlay
from engine.widgets import Button, Label
from games.grundy.variants import (
    BOARD_GAMES,
    GAME_LABELS,
    GAMES,
    LEVELS,
    MAX_SIDE,
    MIN_SIDE,
    NIM_PRESETS,
)

if TYPE_CHECKING:
    from engine.app import App
    from games.grundy.family_scene import GrundyScene

# Centred on the design space and small enough for the smallest window's area (800×600
# design units, less the overlay margin), so it never has to shrink to fit.
PANEL = (92.0, 72.0, 776.0, 576.0)
# Number choosers: label, −, value, +; three of them side by side.
STEPPER_STEP, STEPPER_LABEL_W = 248.0, 108.0
GAME_STEP = 104.0  # the seven game buttons in one row
SEAT_ROWS = SeatRowLayout(title_width=100, title_size=18, kind_x=130, level_x=390, level_step=110,
                          mistakes_x=620, mistakes_width=130)
# (label, field, lowest, highest, step) of the number choosers each kind of game shows.
STEPPERS = {
    "board": (("Rows", "rows", MIN_SIDE, MAX_SIDE, 1), ("Columns", "cols", MIN_SIDE, MAX_SIDE, 1),
              ("Tokens", "tokens", 1, 4, 1)),
    "bachet": (("Pebbles", "heap", 1, 1000, 1), ("Pebbles ×10", "heap", 1, 1000, 10),
               ("Take up to", "max_take", 1, 100, 1)),
}


class GrundySetupOverlay(SeatSetupOverlay):
    """Nothing changes until Start (Enter); Esc cancels."""

    panel = PANEL
    help_title = "Grundy set-up"
    help_text = (
        "Choose a game. Board games: the board's size (3 to 32 each way) and 1 to 4 tokens. "
        "Bachet: the heap and the most pebbles one move may take. Nim: the heaps, and misère "
        "play (whoever takes the last pebble loses). Graph: a built-in graph, some with cycles "
        "where best play never ends.\n\nEach player is a human or the computer: Easy plays at "
        "random, Perfect plays the winning strategy. Start (Enter) begins; Esc cancels."
    )

    def __init__(self, app: App, game: GrundyScene) -> None:
        super().__init__(app)
        self.game = game
        self.choice = game.setup
        self.seats: list[Seat] = list(game.seats)
        x0, y0, _w, _h = PANEL
        ui = self.ui
        ui.add(Label((x0 + 24, y0 + 16, 600, 40), "Grundy games: set-up", size=26, bold=True,
                     role="accent"))
        ui.add(Label((x0 + 24, y0 + 64, 200, 26), "Game", size=18, bold=True))
        for i, name in enumerate(GAMES):
            ui.add(Button((x0 + 24 + i * GAME_STEP, y0 + 94, GAME_STEP - 6, 42), GAME_LABELS[name],
                          lambda n=name: self.pick(game=n), size=16,
                          selected=lambda n=name: self.choice.game == n, name=name))
        for kind, steppers in STEPPERS.items():
            for i, (label, field, low, high, step) in enumerate(steppers):
                self._stepper(kind, i, label, field, low, high, step)
        ui.add(Button((x0 + 24, y0 + 160, 260, 42),
                      lambda: "Heaps: " + ", ".join(map(str, NIM_PRESETS[self.choice.nim])),
                      self.next_nim, visible=lambda: self.choice.game == "nim", name="heaps"))
        ui.add(Button((x0 + 300, y0 + 160, 220, 42),
                      lambda: "Misère: " + ("on" if self.choice.misere else "off"),
                      lambda: self.pick(misere=not self.choice.misere),
                      selected=lambda: self.choice.misere,
                      visible=lambda: self.choice.game == "nim", name="misere"))
        ui.add(Button((x0 + 24, y0 + 160, 500, 42), self._graph_label, self.next_graph,
                      visible=lambda: self.choice.game == "graph", name="graph"))
        self.add_seat_rows(("1", "2"), ("Player 1", "Player 2"), LEVELS, SEAT_ROWS)
        self.add_footer(lambda: self.choice.label(), size=16)

    def _stepper(self, kind: str, i: int, label: str, field: str, low: int, high: int,
                 step: int) -> None:
        x0, y0, _w, _h = PANEL
        bx, y = x0 + 24 + i * STEPPER_STEP, y0 + 160

        def shown() -> bool:
            return (self.choice.is_board if kind == "board" else self.choice.game == kind)

        def bump(sign: int) -> None:
            value = getattr(self.choice, field) + sign * step
            self.pick(**{field: max(low, min(high, value))})

        lw = STEPPER_LABEL_W
        self.ui.add(Label((bx, y, lw - 8, 40), label, size=16, visible=shown, min_size=13))
        self.ui.add(Button((bx + lw, y, 40, 40), "−", lambda: bump(-1), visible=shown,
                           name=f"{label}-"))
        self.ui.add(Label((bx + lw + 42, y, 48, 40), lambda: str(getattr(self.choice, field)),
                          size=18, bold=True, align="center", visible=shown, min_size=14))
        self.ui.add(Button((bx + lw + 92, y, 40, 40), "+", lambda: bump(1), visible=shown,
                           name=f"{label}+"))

    def _graph_label(self) -> str:
        from games.grundy.graphs import BUILTIN

        return f"Graph: {BUILTIN[self.choice.graph % len(BUILTIN)].name} (click for the next)"

    # --- choices ---------------------------------------------------------------------------
    def pick(self, **changes: Any) -> None:
        """Change the set-up (always to a valid one)."""
        self.choice = dataclasses.replace(self.choice, **changes)

    def next_nim(self) -> None:
        """The next Nim heap preset."""
        self.pick(nim=(self.choice.nim + 1) % len(NIM_PRESETS))

    def next_graph(self) -> None:
        """The next built-in graph."""
        from games.grundy.graphs import BUILTIN

        self.pick(graph=(self.choice.graph + 1) % len(BUILTIN))

    def start(self) -> None:
        """Replace the game with a new one of this set-up."""
        self.close()
        self.game.restart(self.choice, tuple(self.seats))

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "GrundySetupOverlay", "overlay": True, "setup": self.choice.label(),
                "board_game": self.choice.game in BOARD_GAMES,
                "seats": [s.describe() for s in self.seats]}
