"""The side of a turn-based screen: a card per seat (whose turn, the winner), the layout,
and the Pause, Step and Speed controls of a game the computer plays alone.

A mixin of :class:`engine.screens.turn_scene.TurnBasedScene`, kept apart so the screen's own
module stays about input and play: the card's glow and pulse when a human's turn begins,
its name, human or computer, the computer's level, and "Your turn", "thinking…" or
"winner".
"""

from __future__ import annotations

import math
from typing import Any

import pygame
from pygame import FRect

from engine.core.i18n import N_, _
from engine.model.levels import MATCH
from engine.ui.game_layout import BUTTON_H, EXTRAS_W, GAP, split_body
from engine.ui.widgets import MIN_TEXT, Button, Label, ellipsize

# Seconds between moves when the computer plays the computer, so people can follow,
# at each speed the player can choose.
CVC_DELAYS = {"slow": 1.5, "normal": 0.6, "fast": 0.15}
SPEED_NAMES = (N_("slow"), N_("normal"), N_("fast"))  # the Speed button shows them
# Where a computer seat's level is written on its card (design units from the card's
# top left; the width is the card's less both margins): two lines, under the badge.
CARD_LEVEL_X, CARD_LEVEL_Y, CARD_LEVEL_H = 8.0, 74.0, 26.0
# A player's name on its card: right of the badge, in bold, shrunk as far as
# CARD_NAME_MIN to fit the card (design units).
CARD_NAME_X, CARD_NAME_SIZE, CARD_NAME_MIN = 80.0, 20, MIN_TEXT
# Seconds the mover's card pulses when a human's turn begins (then it glows steadily).
TURN_CUE = 1.8
TURN_CUE_PULSES = 3


class PlayerCardsView:
    """The layout of a turn-based screen, its player cards and its computer-against-
    computer controls, mixed into :class:`~engine.screens.turn_scene.TurnBasedScene`."""

    # --- layout: the board, a card per seat, the controls and the extras ---------------
    def extras_height(self) -> float:
        """Design height the game's extras box needs (variant label and hint legend)."""
        return 300.0

    def extras_width(self, body: FRect) -> float:
        """Design width of the extras column when it stands beside the board (override to
        take more of a wide window); the default is the layout's standard column."""
        return EXTRAS_W

    def board_aspect(self) -> float:
        """How many times wider than tall the board is drawn (override for boards that are
        not square, so the layout gives them room of their shape)."""
        return 1.0

    def layout_key(self) -> object:
        return (self.extras_height(), self.all_computers(), self.board_aspect())

    def layout_body(self, body: FRect) -> dict[str, FRect]:
        """Board, a card per seat, the computer-against-computer controls and the extras."""
        lay = split_body(body, len(self.seats), self.extras_height(), self.extras_width(body),
                         controls=self.all_computers(), aspect=self.board_aspect())
        rects = {"board": lay.board, "controls": lay.controls, "extras": lay.extras}
        rects.update({f"card{i}": card for i, card in enumerate(lay.cards)})
        rects.update({f"level{i}": FRect(card.x + CARD_LEVEL_X, card.y + CARD_LEVEL_Y,
                                         card.w - 2 * CARD_LEVEL_X, CARD_LEVEL_H)
                      for i, card in enumerate(lay.cards)})
        c = lay.controls
        half = (c.w - GAP) / 2
        rects.update(pause=FRect(c.x, c.y, half, BUTTON_H),
                     step=FRect(c.x + half + GAP, c.y, half, BUTTON_H),
                     speed=FRect(c.x, c.y + BUTTON_H + GAP, c.w, BUTTON_H))
        return rects

    def add_card_labels(self) -> None:
        """A label per seat for a computer's level on its card."""
        for seat in range(len(self.seats)):
            # A computer's level on its card, with what it really plays where that differs
            # (Perfect standing in as Hard); shortened to fit, whole in the tooltip.
            self.ui.add(Label(self.place(f"level{seat}"), lambda s=seat: self.seat_level_text(s),
                              size=13, role="muted", fit_lines=2, min_size=10,
                              visible=lambda s=seat: self.seats[s].is_computer))

    def _cue_turn(self) -> None:
        """Start the card's pulse when a human's turn begins (once per position)."""
        here = (self.serial, self.history.index)
        if here == self._cue_for:
            return
        self._cue_for = here
        if self.match.human_to_move():
            self.anim.start("turn-cue", TURN_CUE)

    def turn_cue(self) -> float | None:
        """How strongly the mover's card glows now: None when no human is to move, else
        0..1 (pulsing while the turn is new, 1 after it, and 1 with reduce motion)."""
        if not self.match.human_to_move():
            return None
        t = self.anim.progress("turn-cue")
        if t is None:
            return 1.0
        # A few soft pulses that settle on the steady glow.
        return 0.5 + 0.5 * math.cos(2 * math.pi * TURN_CUE_PULSES * t)

    def card_tag(self, player: int) -> str:
        """The line a player's card shows under its name: "Your turn" ("X's turn" when
        several humans share the screen), "thinking…", "to move" or "winner"."""
        state = self.state
        seat = self.seats[player]
        if state.is_terminal():
            return _("winner") if state.returns()[player] > 0 else ""
        if state.current_player() != player:
            return ""
        if seat.is_computer:
            return _("thinking…") if self.ai.busy else _("to move")
        humans = sum(1 for s in self.seats if not s.is_computer)
        if humans == 1:
            return _("Your turn")
        return _("{name}'s turn").format(name=self.player_name(player))

    def seat_level_text(self, player: int) -> str:
        """A computer seat's level as its card shows it: ``Hard, 10% mistakes``, or
        ``Perfect (plays as Hard here: board too big to solve)`` while a Perfect player
        could not solve the board and played its fallback's move."""
        seat = self.seats[player]
        if seat.level == MATCH and self.match_rung is not None:
            return seat.level_text(_("Match me: {level}").format(
                level=self.game.level_title(self.match_rung)))
        agent: Any = self.agents[player] if player < len(self.agents) else None
        while agent is not None and hasattr(agent, "inner"):
            agent = agent.inner  # through a mistake-making wrapper to the player itself
        note = getattr(agent, "card_note", None)
        return f"{seat.level_text()} ({note})" if note else seat.level_text()

    def draw_player_cards(self, surface: pygame.Surface) -> None:
        """A card per seat: symbol, human or computer, whose turn, the winner.

        A human's turn is unmistakable: that card is lit, glows (pulsing for a moment
        when the turn begins) and says "Your turn".
        """
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        state = self.state
        over = state.is_terminal()
        returns = state.returns() if over else None
        cue = self.turn_cue()
        for player, seat in enumerate(self.seats):
            card = self.layout()[f"card{player}"]
            left, top = card.x, card.y
            rect = vp.map_rect(tuple(card))
            to_move = not over and state.current_player() == player
            winner = bool(returns) and returns[player] > 0
            glowing = to_move and cue is not None
            if glowing:
                self._draw_glow(surface, rect, cue)
            pygame.draw.rect(surface, p.hover if glowing else p.panel, rect,
                             border_radius=vp.px(10))
            edge = p.focus if (to_move or winner) else p.panel_edge
            pygame.draw.rect(surface, edge, rect, vp.px(4 if to_move or winner else 1),
                             border_radius=vp.px(10))
            self.draw_player_badge(surface, vp.rect(left + 8, top + 8, 64, 64), player)
            name, size = self.card_name_fit(player, card.w)
            font = theme.font(size * vp.scale, bold=True)
            surface.blit(font.render(name, True, p.text),
                         vp.point(left + CARD_NAME_X, top + 14 + (20 - size) / 2))
            small = theme.font(MIN_TEXT * vp.scale)
            who = _("Human") if not seat.is_computer else _("Computer")
            surface.blit(small.render(who, True, p.muted), vp.point(left + 80, top + 42))
            # A computer's level is the "level{player}" label (a widget: it fits its text
            # and shows the whole of it on hover).
            tag = self.card_tag(player)
            if tag:
                size = 17 if glowing else 14
                label = theme.font(size * vp.scale, bold=True).render(tag, True, p.accent)
                surface.blit(label, vp.point(left + 8, top + (94 if glowing else 101)))

    def card_name_fit(self, player: int, card_w: float) -> tuple[str, float]:
        """A player's name as its card draws it, and the design font size: the name
        shrinks (down to :data:`CARD_NAME_MIN`) to fit between the badge and the card's
        right edge ("1. játékos" in a narrow card), then ends with "…" if it still must."""
        vp, theme = self.app.viewport, self.app.theme
        name = self.player_name(player)
        room = max(1, vp.px(card_w - CARD_NAME_X - CARD_LEVEL_X))
        size = CARD_NAME_SIZE
        while size > CARD_NAME_MIN and theme.font(size * vp.scale, bold=True).size(name)[0] > room:
            size -= 1
        return ellipsize(name, theme.font(size * vp.scale, bold=True), room), size

    def _draw_glow(self, surface: pygame.Surface, rect: pygame.Rect,
                   strength: float) -> None:
        """A halo round a card in the focus colour; ``strength`` 0..1 sets its reach and
        opacity (the steady glow is 1)."""
        vp, p = self.app.viewport, self.app.theme.palette
        reach = vp.px(4 + 6 * strength)
        halo = rect.inflate(2 * reach, 2 * reach)
        layer = pygame.Surface(halo.size, pygame.SRCALPHA)
        radius = vp.px(10) + reach
        for i in range(reach, 0, -max(1, reach // 4)):
            # Rings fading outwards: brightest against the card.
            alpha = round((70 + 150 * strength) * (1 - (i - 1) / reach) ** 0.5)
            ring = layer.get_rect().inflate(-2 * (reach - i), -2 * (reach - i))
            pygame.draw.rect(layer, (*p.focus, alpha), ring, max(1, reach // 4) + 1,
                             border_radius=radius - (reach - i))
        surface.blit(layer, halo)

    # --- computer against computer: Pause, Step and Speed ---------------------------------
    def add_cvc_controls(self) -> None:
        """Pause (Resume), Step and Speed, shown while the computer plays every seat."""
        cvc = self.all_computers
        running = lambda: not self.state.is_terminal()  # noqa: E731
        self.ui.add(Button(self.place("pause"), lambda: _("Resume") if self.paused
                           else _("Pause"), self.toggle_pause, name="Pause", visible=cvc,
                           enabled=running))
        self.ui.add(Button(self.place("step"), N_("Step"), self.step_once, name="Step",
                           visible=cvc, enabled=lambda: self.paused and running()))
        self.ui.add(Button(self.place("speed"),
                           lambda: _("Speed: {speed}").format(speed=_(self.speed)),
                           self.cycle_speed, name="Speed", visible=cvc, size=16))

    @property
    def speed(self) -> str:
        """Pace of computer-against-computer play: slow, normal or fast (remembered)."""
        speed = self.app.settings.get("cvc_speed")
        return speed if speed in CVC_DELAYS else "normal"

    def cycle_speed(self) -> None:
        """Switch to the next speed (slow → normal → fast → slow) and remember it."""
        names = list(CVC_DELAYS)
        chosen = names[(names.index(self.speed) + 1) % len(names)]
        try:
            self.app.settings.set("cvc_speed", chosen)
            self.app.save_settings()
        except ValueError:
            pass
        self._wait = min(self._wait, CVC_DELAYS[chosen])
