"""The set-up overlay: choose the board and who plays each seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.i18n import N_, _, error_text, localize
from engine.model.seats import Seat
from engine.screens.setup_scene import SeatRowLayout, SeatSetupOverlay
from engine.ui.stepper import int_stepper
from engine.ui.widgets import Button, Label, SizeGroup
from games.tictactoe.descriptor import GAME
from games.tictactoe.rules import SYMBOLS
from games.tictactoe.variants import (
    MAX_SIDE,
    MIN_SIDE,
    PRESETS,
    validate_config,
)

if TYPE_CHECKING:
    from engine.runtime.app import App
    from engine.screens.turn_scene import TurnBasedScene

# Centred on the design space and as big as the smallest window shows (800×600 units,
# less the overlays' margin), so it is never shrunk and fits every window.
PANEL = (92.0, 72.0, 776.0, 576.0)
SEAT_ROWS = SeatRowLayout(title_width=32, title_size=24, kind_x=56, level_x=302, level_step=84,
                          mistakes_x=638, mistakes_width=114)
# Board choices: three presets a row, then the custom size's three steppers.
PRESET_W, PRESET_STEP = 236.0, 246.0
STEPPER_STEP, STEPPER_W, STEPPER_LABEL_W = 244.0, 226.0, 96.0


class SetupOverlay(SeatSetupOverlay):
    """Board presets or a custom m×n×k, and human/computer, level and mistakes per seat.

    Nothing changes until Start (Enter), which validates first; Esc cancels.
    """

    panel = PANEL
    help_title = N_("Game set-up")
    help_text = N_(
        "Pick a board: a preset, or a custom size (3 to 15 columns and rows, k from 3 to the "
        "shorter side). Sizes are columns × rows: 6×7 is 6 columns wide and 7 rows tall. The "
        "three-player game is always 4×4 with three in a row.\n\n"
        "For each seat choose Human or Computer; for a computer, its level and how often it "
        "blunders on purpose. Start (Enter) begins a new game; Esc cancels and changes nothing."
    )

    def __init__(self, app: App, game: TurnBasedScene) -> None:
        super().__init__(app)
        self.game = game
        cfg = game.config
        self.rows, self.cols, self.k, self.players = cfg.rows, cfg.cols, cfg.k, cfg.players
        self.seats: list[Seat] = list(game.seats) + [Seat()] * (3 - len(game.seats))
        self.error: str | None = None
        x0, y0, w, h = PANEL
        ui = self.ui
        ui.add(Label((x0 + 24, y0 + 14, 500, 40), N_("New game set-up"), size=26, bold=True,
                     role="accent"))
        ui.add(Label((x0 + 24, y0 + 60, 200, 26), N_("Board"), size=18, bold=True))
        presets, values, labels = SizeGroup(), SizeGroup(), SizeGroup()  # siblings: one size
        for i, preset in enumerate(PRESETS):
            bx = x0 + 24 + (i % 3) * PRESET_STEP
            by = y0 + 90 + (i // 3) * 50
            ui.add(presets.add(Button(
                (bx, by, PRESET_W, 42), preset.label, lambda p=preset: self.choose_preset(p.params),
                selected=lambda p=preset: self.current_tuple() == self._tuple(p.params),
                size=16, name=preset.label)))
        y = y0 + 202
        # Columns first: a board's size is said columns × rows everywhere.
        for i, (label, attr) in enumerate(((N_("Columns"), "cols"), (N_("Rows"), "rows"),
                                           (N_("In a row (k)"), "k"))):
            stepper = ui.add(int_stepper(
                (x0 + 24 + i * STEPPER_STEP, y, STEPPER_W, 40),
                lambda a=attr: getattr(self, a), lambda v, a=attr: self.set_size(a, v),
                MIN_SIDE, (lambda: min(self.rows, self.cols)) if attr == "k" else MAX_SIDE,
                name=attr, label=label, label_w=STEPPER_LABEL_W, button_w=36,
                enabled=lambda: self.players == 2))
            values.add(stepper, "value")
            labels.add(stepper, "label")
        # The seat rows end 464 units down (three seats); the footer fits under them.
        self.add_seat_rows(SYMBOLS, SYMBOLS, GAME, SEAT_ROWS,
                           seat_shown=lambda seat: seat < self.players)
        ui.add(Label((x0 + 24, y0 + 472, w - 48, 44), self._message, size=15, role="muted",
                     fit_lines=2, min_size=13))
        ui.add(Button((x0 + w - 336, y0 + h - 56, 150, 44), N_("Start"), self.start, name="Start"))
        ui.add(Button((x0 + w - 174, y0 + h - 56, 150, 44), N_("Cancel"), self.close,
                      name="Cancel"))

    @staticmethod
    def _tuple(cfg: Any) -> tuple[int, int, int, int]:
        return (cfg.rows, cfg.cols, cfg.k, cfg.players)

    def current_tuple(self) -> tuple[int, int, int, int]:
        """The board chosen so far as (rows, cols, k, players)."""
        return (self.rows, self.cols, self.k, self.players)

    def _message(self) -> str:
        if self.error:
            return f"⚠ {localize(self.error)}"
        return _("Mistakes: the computer plays a random move that often. Perfect solves the "
                 "board where it can in 2 s, and plays at Hard (and says so) where it cannot.")

    # --- choices ----------------------------------------------------------------------
    def choose_preset(self, cfg: Any) -> None:
        """Take a preset board."""
        self.rows, self.cols, self.k, self.players = self._tuple(cfg)
        self.error = None

    def bump(self, attr: str, step: int) -> None:
        """Change rows, cols or k by ``step``, within the allowed range."""
        self.set_size(attr, getattr(self, attr) + step)

    def set_size(self, attr: str, value: int) -> None:
        """Set rows, cols or k to ``value``, clamped to the allowed range (k at most the
        shorter side, so a smaller board lowers k with it)."""
        limit = min(self.rows, self.cols) if attr == "k" else MAX_SIDE
        setattr(self, attr, max(MIN_SIDE, min(limit, value)))
        self.k = min(self.k, self.rows, self.cols)
        self.error = None

    def start(self) -> None:
        """Validate, then replace the game with a new one of this set-up."""
        try:
            config = validate_config(self.rows, self.cols, self.k, self.players)
        except ValueError as exc:
            self.error = error_text(exc)
            return
        self.close()
        self.game.restart(config, tuple(self.seats[:config.players]))

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "SetupOverlay", "overlay": True, "board": list(self.current_tuple()),
                "seats": [s.describe() for s in self.seats[:self.players]],
                "error": self.error}
