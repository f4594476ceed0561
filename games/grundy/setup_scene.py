"""The Grundy set-up overlay: which game, its size, and who plays."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import pygame

from engine.overlays import Overlay
from engine.seats import Seat
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

PANEL = (40.0, 30.0, 880.0, 660.0)
MISTAKES = (0.0, 0.1, 0.2, 0.3, 0.5)
# (label, field, lowest, highest, step) of the number choosers each kind of game shows.
STEPPERS = {
    "board": (("Rows", "rows", MIN_SIDE, MAX_SIDE, 1), ("Columns", "cols", MIN_SIDE, MAX_SIDE, 1),
              ("Tokens", "tokens", 1, 4, 1)),
    "bachet": (("Pebbles", "heap", 1, 1000, 1), ("Pebbles ×10", "heap", 1, 1000, 10),
               ("Take up to", "max_take", 1, 100, 1)),
}


class GrundySetupOverlay(Overlay):
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
        x0, y0, w, h = PANEL
        ui = self.ui
        ui.add(Label((x0 + 24, y0 + 16, 600, 40), "Grundy games: set-up", size=26, bold=True,
                     role="accent"))
        ui.add(Label((x0 + 24, y0 + 64, 200, 26), "Game", size=18, bold=True))
        for i, name in enumerate(GAMES):
            ui.add(Button((x0 + 24 + i * 120, y0 + 94, 112, 42), GAME_LABELS[name],
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
        ui.add(Label((x0 + 24, y0 + 262, 300, 26), "Players", size=18, bold=True))
        for seat in range(2):
            sy = y0 + 296 + seat * 62
            ui.add(Label((x0 + 24, sy, 100, 44), f"Player {seat + 1}", size=18, bold=True))
            for j, kind in enumerate(("human", "computer")):
                ui.add(Button((x0 + 130 + j * 124, sy, 118, 44), kind.capitalize(),
                              lambda s=seat, kd=kind: self.set_seat(s, kind=kd), size=16,
                              selected=lambda s=seat, kd=kind: self.seats[s].kind == kd,
                              name=f"{seat + 1} {kind}"))
            for j, level in enumerate(LEVELS):
                ui.add(Button((x0 + 390 + j * 110, sy, 104, 44), level.capitalize(),
                              lambda s=seat, lv=level: self.set_seat(s, level=lv), size=15,
                              selected=lambda s=seat, lv=level: (self.seats[s].is_computer
                                                                and self.seats[s].level == lv),
                              enabled=lambda s=seat: self.seats[s].is_computer,
                              name=f"{seat + 1} {level}"))
            ui.add(Button((x0 + 620, sy, 130, 44),
                          lambda s=seat: f"{round(self.seats[s].mistakes * 100)}% mistakes",
                          lambda s=seat: self.next_mistakes(s), size=15,
                          enabled=lambda s=seat: self.seats[s].is_computer,
                          name=f"{seat + 1} mistakes"))
        ui.add(Label((x0 + 24, y0 + h - 130, w - 48, 50), lambda: self.choice.label(), size=16,
                     role="muted"))
        ui.add(Button((x0 + w - 340, y0 + h - 64, 150, 46), "Start", self.start, name="Start"))
        ui.add(Button((x0 + w - 176, y0 + h - 64, 150, 46), "Cancel", self.close,
                      name="Cancel"))

    def _stepper(self, kind: str, i: int, label: str, field: str, low: int, high: int,
                 step: int) -> None:
        x0, y0, _w, _h = PANEL
        bx, y = x0 + 24 + i * 280, y0 + 160

        def shown() -> bool:
            return (self.choice.is_board if kind == "board" else self.choice.game == kind)

        def bump(sign: int) -> None:
            value = getattr(self.choice, field) + sign * step
            self.pick(**{field: max(low, min(high, value))})

        self.ui.add(Label((bx, y, 120, 40), label, size=16, visible=shown))
        self.ui.add(Button((bx + 120, y, 40, 40), "−", lambda: bump(-1), visible=shown,
                           name=f"{label}-"))
        self.ui.add(Label((bx + 162, y, 56, 40), lambda: str(getattr(self.choice, field)),
                          size=18, bold=True, align="center", visible=shown))
        self.ui.add(Button((bx + 220, y, 40, 40), "+", lambda: bump(1), visible=shown,
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

    def set_seat(self, seat: int, **changes: Any) -> None:
        """Change a seat's kind or level."""
        self.seats[seat] = dataclasses.replace(self.seats[seat], **changes)

    def next_mistakes(self, seat: int) -> None:
        """Step a computer seat's mistake rate through 0, 10, 20, 30, 50 %."""
        rate = self.seats[seat].mistakes
        nxt = MISTAKES[(MISTAKES.index(rate) + 1) % len(MISTAKES)] if rate in MISTAKES else 0.0
        self.set_seat(seat, mistakes=nxt)

    def start(self) -> None:
        """Replace the game with a new one of this set-up."""
        self.close()
        self.game.restart(self.choice, tuple(self.seats))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.ui.focused is None:
                self.start()
                return
        super().handle_event(event)

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "GrundySetupOverlay", "overlay": True, "setup": self.choice.label(),
                "board_game": self.choice.game in BOARD_GAMES,
                "seats": [s.describe() for s in self.seats]}
