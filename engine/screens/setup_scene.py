"""What every family's set-up overlay shares: a row of choices per seat, Start and Cancel.

Each seat row has the seat's title, Human / Computer, the computer's levels and its
mistake rate. The buttons are named ``"<tag> human"``, ``"<tag> computer"``,
``"<tag> <level>"`` and ``"<tag> mistakes"`` (tests and the soak harness find them so).

Everything is placed in the frame of the declared ``panel`` (880×660 design units,
centred on the design space). In a window that shows less than that (a 640×480
one shows 800×600 units) :class:`~engine.screens.scene.Overlay` shrinks the panel to
fit, centred, and every fixed place with it, so the whole set-up stays on screen
with the same arrangement; captions that no longer fit shrink a little or end
with "…" (see :mod:`engine.ui.widgets`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import pygame

from engine.core.i18n import N_, _, error_text, localize
from engine.model.descriptor import GameDescriptor
from engine.model.seats import Seat
from engine.screens.scene import Overlay
from engine.ui.stepper import Stepper
from engine.ui.widgets import Button, Label, SizeGroup

KINDS = ("human", "computer")
KIND_NAMES = (N_("Human"), N_("Computer"))  # the buttons show the kinds capitalised


@dataclass(frozen=True)
class SeatRowLayout:
    """Where a family's seat rows put their widgets, as x offsets from the panel's edge."""

    title_width: float  # the seat's name, at 24
    title_size: int  # its font size
    kind_x: float  # Human, then Computer: 118 wide, 124 apart
    level_x: float  # the levels, ``level_step - 6`` wide
    level_step: float
    mistakes_x: float  # the mistake-rate button
    mistakes_width: float


class SeatSetupOverlay(Overlay):
    """A set-up overlay with seat rows: nothing changes until Start (Enter); Esc cancels.

    A subclass fills ``self.seats`` before :meth:`add_seat_rows` and defines :meth:`start`.
    """

    seats: list[Seat]

    def add_seat_rows(self, tags: Sequence[str], titles: Sequence[str], game: GameDescriptor,
                      layout: SeatRowLayout,
                      seat_shown: Callable[[int], bool] | None = None) -> None:
        """The "Players" heading and a row per seat (one per tag), in rows 62 apart: each
        computer seat's level steps through ``game``'s levels, named as the game names
        them (:meth:`GameDescriptor.level_title`). ``seat_shown(seat)``, where given, says
        whether a seat's row is shown now.
        """
        levels = game.levels
        # No computer player: the seats are named but offer no choice. One level or none:
        # no level to choose.
        computer = game.agents is not None
        choose_level = computer and len(levels) > 1
        x0, y0, _w, _h = self.panel
        ui = self.ui
        ui.add(Label((x0 + 24, y0 + 262, 300, 26), N_("Players"), size=18, bold=True))
        # Each column of the rows at one text size ("0% mistakes" as big as "10% mistakes").
        names, kinds, steppers, rates = SizeGroup(), SizeGroup(), SizeGroup(), SizeGroup()
        for seat, (tag, title) in enumerate(zip(tags, titles, strict=True)):
            sy = y0 + 296 + seat * 62
            visible = partial(seat_shown, seat) if seat_shown is not None else True
            ui.add(names.add(Label((x0 + 24, sy, layout.title_width, 44), title,
                                   size=layout.title_size, bold=True, visible=visible)))
            for j, kind in enumerate(KINDS if computer else ()):
                ui.add(kinds.add(Button((x0 + layout.kind_x + j * 124, sy, 118, 44),
                                        kind.capitalize(),
                                        lambda s=seat, kd=kind: self.set_seat(s, kind=kd),
                                        size=16,
                                        selected=lambda s=seat, kd=kind: self.seats[s].kind == kd,
                                        visible=visible, name=f"{tag} {kind}")))
            # The level: a stepper through the ladder, weakest first (one Tab stop; its
            # − and + are "<tag> level-" and "<tag> level+").
            ui.add(steppers.add(Stepper(
                (x0 + layout.level_x, sy, layout.mistakes_x - layout.level_x - 6, 44),
                lambda s=seat: game.level_title(self.seats[s].level),
                lambda sign, s=seat: self.step_level(s, levels, sign),
                lambda sign, s=seat: self._can_step(levels, s, sign),
                name=f"{tag} level", size=15, min_size=11,
                enabled=lambda s=seat: self.seats[s].is_computer,
                visible=visible if choose_level else False), "value"))
            ui.add(rates.add(Button((x0 + layout.mistakes_x, sy, layout.mistakes_width, 44),
                                    lambda s=seat: _("{percent}% mistakes").format(
                                        percent=round(self.seats[s].mistakes * 100)),
                                    lambda s=seat: self.next_mistakes(s), size=15, max_lines=1,
                                    enabled=lambda s=seat: self.seats[s].is_computer,
                                    visible=visible if computer else False,
                                    name=f"{tag} mistakes")))

    def add_footer(self, message: str | Callable[[], str], size: int) -> None:
        """A muted message above the Start and Cancel buttons at the panel's foot."""
        x0, y0, w, h = self.panel
        ui = self.ui
        ui.add(Label((x0 + 24, y0 + h - 130, w - 48, 50), message, size=size, role="muted"))
        ui.add(Button((x0 + w - 340, y0 + h - 64, 150, 46), N_("Start"), self.start, name="Start"))
        ui.add(Button((x0 + w - 176, y0 + h - 64, 150, 46), N_("Cancel"), self.close,
                      name="Cancel"))

    # --- choices -------------------------------------------------------------------------
    def set_seat(self, seat: int, **changes: Any) -> None:
        """Change a seat's kind, level or mistake rate."""
        self.seats[seat] = dataclasses.replace(self.seats[seat], **changes)

    def step_level(self, seat: int, levels: Sequence[str], step: int) -> None:
        """Move a computer seat ``step`` rungs along ``levels`` (weakest first), no
        further than either end."""
        current = self.seats[seat].level
        index = levels.index(current) if current in levels else 0
        self.set_seat(seat, level=levels[min(max(index + step, 0), len(levels) - 1)])

    def _can_step(self, levels: Sequence[str], seat: int, step: int) -> bool:
        """Whether a computer seat has a rung ``step`` away."""
        current = self.seats[seat].level
        index = levels.index(current) if current in levels else 0
        return 0 <= index + step < len(levels)

    def next_mistakes(self, seat: int) -> None:
        """Step a computer seat's mistake rate through 0, 10, 20, 30, 50 %."""
        self.seats[seat] = self.seats[seat].next_mistakes()

    def start(self) -> None:
        """Begin the game of this set-up (each family's own)."""
        raise NotImplementedError

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.ui.focused is None:
                self.start()
                return
        super().handle_event(event)


class ParamsSetupOverlay(SeatSetupOverlay):
    """A game's whole set-up from its descriptor: preset buttons, a stepper per numeric
    parameter (the spec's ``steppers``), a row per seat, Start and Cancel. A game with no
    ParamSpec gets the seat rows alone; one with no agents, seats with no computer choice.

    Start validates the parameters with the game's ParamSpec (a refusal is shown and
    changes nothing) and calls ``scene.restart(params, seats)``. It is what the Setup
    button opens where a scene does not override ``open_setup``
    (:func:`open_default_setup`).
    """

    panel = (40.0, 30.0, 880.0, 660.0)
    help_title = N_("Game set-up")

    def __init__(self, app: Any, scene: Any) -> None:
        super().__init__(app)
        self.scene = scene
        game = scene.game
        self.spec = spec = game.param_spec()
        self.params = scene.params
        self.error: str | None = None
        self.seats = list(scene.seats)
        self.help_text = _("Pick a {game} board: a preset or your own size. For each "
                           "seat choose Human or Computer; for a computer, its level and how "
                           "often it blunders on purpose. Start (Enter) begins a new game; "
                           "Esc cancels and changes nothing.").format(game=_(game.title))
        x0, y0, _w, _h = self.panel
        ui = self.ui
        ui.add(Label((x0 + 24, y0 + 16, 600, 40),
                     lambda: _("{game}: set-up").format(game=_(game.title)), size=26, bold=True,
                     role="accent"))
        if spec is not None and spec.presets:
            ui.add(Label((x0 + 24, y0 + 64, 200, 26), N_("Board"), size=18, bold=True))
        for i, preset in enumerate(spec.presets[:6] if spec is not None else ()):
            bx, by = x0 + 24 + (i % 3) * 280, y0 + 94 + (i // 3) * 50
            ui.add(Button((bx, by, 268, 42), preset.label,
                          lambda p=preset: self.choose(p.params), size=16, name=preset.label,
                          selected=lambda p=preset: self.params == p.params))
        for i, (label, name, low, high) in enumerate(getattr(spec, "steppers", None) or ()):
            self._stepper(x0 + 24 + i * 280, y0 + 206, label, name, low, high)
        titles = [scene.player_name(i) for i in range(len(self.seats))]
        self.add_seat_rows(game.seat_keys[:len(self.seats)], titles, game,
                           SeatRowLayout(title_width=40, title_size=24, kind_x=64, level_x=322,
                                         level_step=98, mistakes_x=718, mistakes_width=138))
        self.add_footer(self._message, size=15)

    def _stepper(self, x: float, y: float, label: str, name: str, low: int, high: int) -> None:
        self.ui.add(Stepper(
            (x, y, 268, 40), lambda: str(getattr(self.params, name)),
            lambda sign: self.bump(name, sign, low, high),
            lambda sign: (getattr(self.params, name) > low if sign < 0
                          else getattr(self.params, name) < high),
            name=name, label=label, label_w=110))

    def _message(self) -> str:
        if self.error:
            return f"⚠ {localize(self.error)}"
        if self.spec is None:
            return _("Start (Enter) begins a new game; Esc changes nothing.")
        return _("{board}. Mistakes: the computer plays a random move that often.").format(
            board=_(self.spec.label(self.params)))

    def choose(self, params: Any) -> None:
        """Take a preset."""
        self.params, self.error = params, None

    def bump(self, name: str, step: int, low: int, high: int) -> None:
        """Change one numeric parameter by ``step`` within [low, high] (an unplayable
        combination is refused with its reason and changes nothing)."""
        value = max(low, min(high, getattr(self.params, name) + step))
        try:
            self.params = self.spec.validate(dataclasses.replace(self.params, **{name: value}))
            self.error = None
        except ValueError as exc:
            self.error = error_text(exc)

    def start(self) -> None:
        """Validate, then replace the game with a new one of this set-up."""
        try:
            params = self.spec.validate(self.params) if self.spec is not None else self.params
        except ValueError as exc:
            self.error = error_text(exc)
            return
        self.close()
        self.scene.restart(params, tuple(self.seats))

    def debug_state(self) -> dict[str, Any]:
        return {"scene": type(self).__name__, "overlay": True,
                "params": self.spec.encode(self.params) if self.spec is not None else None,
                "seats": [s.describe() for s in self.seats], "error": self.error}


def open_default_setup(scene: Any) -> None:
    """The set-up a two-player scene gets when it does not override ``open_setup``: the
    game's presets and steppers (from its ParamSpec, if any) and its seats."""
    scene.app.push(ParamsSetupOverlay(scene.app, scene))
