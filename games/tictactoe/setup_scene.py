"""The set-up overlay: choose the board and who plays each seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from engine.overlays import Overlay
from engine.seats import Seat
from engine.widgets import Button, Label
from games.tictactoe.rules import SYMBOLS
from games.tictactoe.variants import (
    LEVEL_LABELS,
    LEVELS,
    MAX_SIDE,
    MIN_SIDE,
    MISTAKE_STEPS,
    PRESETS,
    validate_config,
)

if TYPE_CHECKING:
    from engine.app import App
    from games.tictactoe.scene import TicTacToeScene

PANEL = (40.0, 30.0, 880.0, 660.0)


class SetupOverlay(Overlay):
    """Board presets or a custom m×n×k, and human/computer, level and mistakes per seat.

    Nothing changes until Start (Enter), which validates first; Esc cancels.
    """

    panel = PANEL
    help_title = "Game set-up"
    help_text = (
        "Pick a board: a preset, or a custom size (3 to 15 rows and columns, k from 3 to the "
        "shorter side). The three-player game is always 4×4 with three in a row.\n\n"
        "For each seat choose Human or Computer; for a computer, its level and how often it "
        "blunders on purpose. Start (Enter) begins a new game; Esc cancels and changes nothing."
    )

    def __init__(self, app: App, game: TicTacToeScene) -> None:
        super().__init__(app)
        self.game = game
        cfg = game.config
        self.rows, self.cols, self.k, self.players = cfg.rows, cfg.cols, cfg.k, cfg.players
        self.seats: list[Seat] = list(game.seats) + [Seat()] * (3 - len(game.seats))
        self.error: str | None = None
        x0, y0, w, h = PANEL
        ui = self.ui
        ui.add(Label((x0 + 24, y0 + 16, 500, 40), "New game set-up", size=26, bold=True,
                     role="accent"))
        ui.add(Label((x0 + 24, y0 + 64, 200, 26), "Board", size=18, bold=True))
        for i, preset in enumerate(PRESETS):
            bx = x0 + 24 + (i % 3) * 280
            by = y0 + 94 + (i // 3) * 50
            ui.add(Button((bx, by, 268, 42), preset.label,
                          lambda p=preset: self.choose_preset(p.config),
                          selected=lambda p=preset: self.current_tuple() == self._tuple(p.config),
                          size=16, name=preset.label))
        y = y0 + 206
        for i, (label, attr) in enumerate((("Rows", "rows"), ("Columns", "cols"),
                                           ("In a row (k)", "k"))):
            bx = x0 + 24 + i * 280
            ui.add(Label((bx, y, 120, 40), label, size=16))
            ui.add(Button((bx + 120, y, 40, 40), "−", lambda a=attr: self.bump(a, -1),
                          enabled=lambda: self.players == 2, name=f"{attr}-"))
            ui.add(Label((bx + 164, y, 50, 40), lambda a=attr: str(getattr(self, a)), size=18,
                         bold=True, align="center"))
            ui.add(Button((bx + 218, y, 40, 40), "+", lambda a=attr: self.bump(a, 1),
                          enabled=lambda: self.players == 2, name=f"{attr}+"))
        ui.add(Label((x0 + 24, y0 + 262, 300, 26), "Players", size=18, bold=True))
        for seat in range(3):
            sy = y0 + 296 + seat * 62
            visible = self._seat_shown(seat)
            ui.add(Label((x0 + 24, sy, 40, 44), SYMBOLS[seat], size=24, bold=True,
                         visible=visible))
            for j, kind in enumerate(("human", "computer")):
                ui.add(Button((x0 + 64 + j * 124, sy, 118, 44), kind.capitalize(),
                              lambda s=seat, kd=kind: self.set_kind(s, kd), size=16,
                              selected=lambda s=seat, kd=kind: self.seats[s].kind == kd,
                              visible=visible, name=f"{SYMBOLS[seat]} {kind}"))
            for j, level in enumerate(LEVELS):
                ui.add(Button((x0 + 322 + j * 104, sy, 98, 44), LEVEL_LABELS[level],
                              lambda s=seat, lv=level: self.set_level(s, lv), size=15,
                              selected=lambda s=seat, lv=level: (self.seats[s].is_computer
                                                                and self.seats[s].level == lv),
                              enabled=lambda s=seat: self.seats[s].is_computer,
                              visible=visible, name=f"{SYMBOLS[seat]} {level}"))
            ui.add(Button((x0 + 742, sy, 114, 44),
                          lambda s=seat: f"{round(self.seats[s].mistakes * 100)}% mistakes",
                          lambda s=seat: self.cycle_mistakes(s), size=15,
                          enabled=lambda s=seat: self.seats[s].is_computer, visible=visible,
                          name=f"{SYMBOLS[seat]} mistakes"))
        ui.add(Label((x0 + 24, y0 + h - 130, w - 48, 50), self._message, size=15,
                     role="muted"))
        ui.add(Button((x0 + w - 340, y0 + h - 64, 150, 46), "Start", self.start, name="Start"))
        ui.add(Button((x0 + w - 176, y0 + h - 64, 150, 46), "Cancel", self.close,
                      name="Cancel"))

    def _seat_shown(self, seat: int) -> Any:
        """A visibility test for the widgets of one seat (seat 3 only with 3 players)."""
        return lambda: seat < self.players

    @staticmethod
    def _tuple(cfg: Any) -> tuple[int, int, int, int]:
        return (cfg.rows, cfg.cols, cfg.k, cfg.players)

    def current_tuple(self) -> tuple[int, int, int, int]:
        """The board chosen so far as (rows, cols, k, players)."""
        return (self.rows, self.cols, self.k, self.players)

    def _message(self) -> str:
        if self.error:
            return f"⚠ {self.error}"
        return ("Mistakes: the computer plays a random move that often. Perfect solves the "
                "board where it can in 2 s, and plays at Hard (and says so) where it cannot.")

    # --- choices ----------------------------------------------------------------------
    def choose_preset(self, cfg: Any) -> None:
        """Take a preset board."""
        self.rows, self.cols, self.k, self.players = self._tuple(cfg)
        self.error = None

    def bump(self, attr: str, step: int) -> None:
        """Change rows, cols or k by one, within the allowed range."""
        value = getattr(self, attr) + step
        limit = min(self.rows, self.cols) if attr == "k" else MAX_SIDE
        setattr(self, attr, max(MIN_SIDE, min(limit, value)))
        self.k = min(self.k, self.rows, self.cols)
        self.error = None

    def set_kind(self, seat: int, kind: str) -> None:
        """Make a seat human or computer."""
        old = self.seats[seat]
        self.seats[seat] = Seat(kind, old.level, old.mistakes)

    def set_level(self, seat: int, level: str) -> None:
        """Choose a computer seat's level."""
        old = self.seats[seat]
        self.seats[seat] = Seat(old.kind, level, old.mistakes)

    def cycle_mistakes(self, seat: int) -> None:
        """Step a computer seat's mistake rate through 0, 10, 20, 30, 50 %."""
        old = self.seats[seat]
        steps = list(MISTAKE_STEPS)
        nxt = steps[(steps.index(old.mistakes) + 1) % len(steps)] if old.mistakes in steps else 0.0
        self.seats[seat] = Seat(old.kind, old.level, nxt)

    def start(self) -> None:
        """Validate, then replace the game with a new one of this set-up."""
        try:
            config = validate_config(self.rows, self.cols, self.k, self.players)
        except ValueError as exc:
            self.error = str(exc)
            return
        self.close()
        self.game.restart(config, tuple(self.seats[:config.players]))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.ui.focused is None:
                self.start()
                return
        super().handle_event(event)

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "SetupOverlay", "overlay": True, "board": list(self.current_tuple()),
                "seats": [s.describe() for s in self.seats[:self.players]],
                "error": self.error}
