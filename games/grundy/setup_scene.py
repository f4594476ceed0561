"""The Grundy set-up overlay: which game, its size, and who plays."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from engine.core.i18n import N_, _, error_text
from engine.model.seats import Seat
from engine.screens.setup_scene import SeatRowLayout, SeatSetupOverlay
from engine.ui.stepper import int_stepper
from engine.ui.widgets import Button, Label, SizeGroup
from games.grundy.descriptor import GAME
from games.grundy.variants import (
    BOARD_GAMES,
    GAME_LABELS,
    GAMES,
    MAX_SIDE,
    MIN_SIDE,
    NIM_MAX_HEAPS,
    NIM_MAX_PEBBLES,
    NIM_PRESETS,
    parse_heaps,
)

if TYPE_CHECKING:
    from engine.runtime.app import App
    from engine.screens.turn_scene import TurnBasedScene

# Centred on the design space and small enough for the smallest window's area (800×600
# design units, less the overlay margin), so it never has to shrink to fit.
PANEL = (92.0, 72.0, 776.0, 576.0)
# Number choosers (engine.ui.stepper): label, −, value, +; three of them side by side.
STEPPER_STEP, STEPPER_W, STEPPER_LABEL_W = 248.0, 236.0, 92.0
GAME_STEP = 104.0  # the seven game buttons in one row
SEAT_ROWS = SeatRowLayout(title_width=100, title_size=18, kind_x=130, level_x=390, level_step=110,
                          mistakes_x=620, mistakes_width=130)
# (label, field, lowest, highest, step) of the number choosers each kind of game shows.
STEPPERS = {
    # Columns first: a board's size is said columns × rows everywhere.
    "board": ((N_("Columns"), "cols", MIN_SIDE, MAX_SIDE, 1),
              (N_("Rows"), "rows", MIN_SIDE, MAX_SIDE, 1), (N_("Tokens"), "tokens", 1, 4, 1)),
    # One control for the heap (the "Type" button beside it sets any size at once).
    "bachet": ((N_("Pebbles"), "heap", 1, 1000, 1), None,
               (N_("Take up to"), "max_take", 1, 100, 1)),
}


class GrundySetupOverlay(SeatSetupOverlay):
    """Nothing changes until Start (Enter); Esc cancels."""

    panel = PANEL
    help_title = N_("Grundy set-up")
    help_text = N_(
        "Choose a game. Board games: the board's size (3 to 32 each way, said columns × rows: "
        "6×8 is 6 columns wide and 8 rows tall) and 1 to 4 tokens. "
        "Bachet: the heap (− and +, or Type… for any size) and the most pebbles one move may "
        "take. Nim: the heaps (a preset, or type any sizes), and misère "
        "play (whoever takes the last pebble loses). Graph: a built-in graph, some with cycles "
        "where best play never ends.\n\nEach player is a human or the computer at one of the "
        "levels the game's help (F1) lists. Start (Enter) begins; Esc cancels."
    )

    def __init__(self, app: App, game: TurnBasedScene) -> None:
        super().__init__(app)
        self.game = game
        # The board and its game, never where one game started (a record's start: the set-up
        # chooses new games, and a start would not fit another board).
        self.choice = dataclasses.replace(game.setup, start=())
        self.seats: list[Seat] = list(game.seats)
        x0, y0, _w, _h = PANEL
        ui = self.ui
        ui.add(Label((x0 + 24, y0 + 16, 600, 40), N_("Grundy games: set-up"), size=26, bold=True,
                     role="accent"))
        ui.add(Label((x0 + 24, y0 + 64, 200, 26), N_("Game"), size=18, bold=True))
        games = SizeGroup()  # the row of games at one size
        for i, name in enumerate(GAMES):
            ui.add(games.add(Button((x0 + 24 + i * GAME_STEP, y0 + 94, GAME_STEP - 6, 42),
                                    GAME_LABELS[name], lambda n=name: self.pick(game=n), size=16,
                                    selected=lambda n=name: self.choice.game == n, name=name)))
        for kind, steppers in STEPPERS.items():
            for i, stepper in enumerate(steppers):
                if stepper is not None:
                    self._stepper(kind, i, *stepper)
        bachet = lambda: self.choice.game == "bachet"  # noqa: E731
        ui.add(Button((x0 + 24 + STEPPER_W + 6, y0 + 160, STEPPER_STEP * 2 - STEPPER_W - 18,
                       40), N_("Type…"), self.type_pebbles, visible=bachet, size=16,
                      name="Type pebbles"))
        nim = lambda: self.choice.game == "nim"  # noqa: E731
        ui.add(Button((x0 + 24, y0 + 160, 300, 42),
                      lambda: _("Heaps: {heaps} (type)").format(
                          heaps=", ".join(map(str, self.choice.heaps))),
                      self.type_heaps, visible=nim, name="heaps", size=16))
        ui.add(Button((x0 + 332, y0 + 160, 170, 42), N_("Next preset"), self.next_nim, size=16,
                      visible=nim, name="preset"))
        ui.add(Button((x0 + 510, y0 + 160, 200, 42),
                      lambda: _("Misère: on") if self.choice.misere else _("Misère: off"),
                      lambda: self.pick(misere=not self.choice.misere),
                      selected=lambda: self.choice.misere, visible=nim, name="misere"))
        ui.add(Button((x0 + 24, y0 + 160, 500, 42), self._graph_label, self.next_graph,
                      visible=lambda: self.choice.game == "graph", name="graph"))
        self.add_seat_rows(("1", "2"), (N_("Player 1"), N_("Player 2")), GAME, SEAT_ROWS)
        self.add_footer(lambda: self.choice.label(), size=16)

    def _stepper(self, kind: str, i: int, label: str, field: str, low: int, high: int,
                 step: int) -> None:
        x0, y0, _w, _h = PANEL

        def shown() -> bool:
            return (self.choice.is_board if kind == "board" else self.choice.game == kind)

        self.ui.add(int_stepper(
            (x0 + 24 + i * STEPPER_STEP, y0 + 160, STEPPER_W, 40),
            get=lambda: int(getattr(self.choice, field)),
            set_value=lambda v: self.pick(**{field: v}), low=low, high=high, step=step,
            name=label, label=label, label_w=STEPPER_LABEL_W, visible=shown))

    def _graph_label(self) -> str:
        from games.grundy.graphs import BUILTIN

        return _("Graph: {name} (click for the next)").format(
            name=_(BUILTIN[self.choice.graph % len(BUILTIN)].name))

    # --- choices ---------------------------------------------------------------------------
    def pick(self, **changes: Any) -> None:
        """Change the set-up (always to a valid one)."""
        self.choice = dataclasses.replace(self.choice, **changes)

    def next_nim(self) -> None:
        """The next Nim heap preset (after typed heaps: the first preset)."""
        following = 0 if self.choice.nim_heaps else (self.choice.nim + 1) % len(NIM_PRESETS)
        self.pick(nim=following, nim_heaps=())

    def type_heaps(self) -> None:
        """Ask for any heap sizes, checked before anything changes."""
        from engine.screens.overlays import TextEntryDialog

        self.app.push(TextEntryDialog(
            self.app, _("Nim heaps: 1 to {heaps} sizes of 1 to {pebbles} pebbles, e.g. 3 5 7")
            .format(heaps=NIM_MAX_HEAPS, pebbles=NIM_MAX_PEBBLES),
            lambda text: self.pick(nim_heaps=parse_heaps(text)), _error_of(parse_heaps),
            initial=" ".join(map(str, self.choice.heaps)), max_length=60))

    def type_pebbles(self) -> None:
        """Ask for Bachet's heap size as a number."""
        from engine.screens.overlays import TextEntryDialog

        self.app.push(TextEntryDialog(
            self.app, _("Bachet: pebbles in the heap (1 to 1000)"),
            lambda text: self.pick(heap=_pebbles(text)), _error_of(_pebbles),
            initial=str(self.choice.heap), max_length=12))

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


def _pebbles(text: str) -> int:
    """Bachet's heap from typed text; ValueError in the player's words."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 6:
        raise ValueError(N_("Type a whole number of pebbles, from 1 to 1000."))
    if not 1 <= int(text) <= 1000:
        raise ValueError(N_("The heap holds 1 to 1000 pebbles."))
    return int(text)


def _error_of(parse: Any) -> Any:
    """A TextEntryDialog validator from a parser: its ValueError's message, or None."""

    def validate(text: str) -> str | None:
        try:
            parse(text)
        except ValueError as error:
            return error_text(error)
        return None

    return validate
