"""The result of a finished turn-based game: who won, in how many moves, and what next.

Shown once per game by :class:`engine.screens.turn_scene.TurnBasedScene`, a moment after
the last move (so the winning line can sweep in), over the finished board: the
headline said from the first human's side ("You win", "The computer wins",
"Draw"; "X wins" between humans; the winning computer named when the computer
plays itself), the number of moves, and Play again, Swap sides, Review, View board and
Back (Review opens :class:`engine.screens.review_scene.ReviewScene`). Esc or View board
closes it to look at the board (Undo still works there).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import pygame
from pygame import FRect

from engine.core.i18n import N_, _, ngettext
from engine.screens.scene import Overlay
from engine.ui.widgets import Button, draw_text_block

if TYPE_CHECKING:
    from engine.model.seats import Seat
    from engine.runtime.app import App

# Design size of the panel, and of its buttons.
PANEL_W, PANEL_H = 440.0, 318.0
BUTTON_W, BUTTON_H, GAP, PAD = 196.0, 44.0, 12.0, 24.0
# How dark the backdrop is: lighter than other dialogs, so the final board shows through.
SHADE_ALPHA = 110


class MatchScreen(Protocol):
    """What the panel reads off the screen of the game that ended
    (:class:`engine.screens.turn_scene.TurnBasedScene`)."""

    params: Any

    @property
    def seats(self) -> tuple[Seat, ...]: ...
    @property
    def state(self) -> Any: ...
    def player_name(self, player: int) -> str: ...
    def moves_played(self) -> int: ...
    def layout(self) -> dict[str, Any]: ...
    def new_game(self) -> None: ...
    def restart(self, params: Any, seats: tuple[Seat, ...]) -> None: ...
    def back(self) -> None: ...
    def open_review(self) -> None: ...


def result_headline(scene: MatchScreen, state: Any) -> tuple[str, str]:
    """(headline, tone) for a finished ``state``; tone is "win", "loss" or "draw".

    Said from the first human's side: "You win", "The computer wins" (two players),
    "Y wins" (several players), "Draw". With several humans and no "you": "X wins".
    When the computer plays every seat: "X (computer, Hard) wins". The tone follows
    the first human (a computer-only game's winner counts as a win).
    """
    returns = state.returns()
    best = max(returns)
    winners = [i for i, r in enumerate(returns) if r > 0 and r == best]
    if not winners:
        return _("Draw"), "draw"
    winner = winners[0]
    seats = scene.seats
    humans = [i for i, s in enumerate(seats) if not s.is_computer]
    name = scene.player_name(winner)
    if not humans:
        return _("{name} (computer, {level}) wins").format(
            name=name, level=seats[winner].level_text()), "win"
    me = humans[0]
    tone = "win" if winner == me else "loss"
    if len(humans) > 1:
        return _("{name} wins").format(name=name), ("win" if not seats[winner].is_computer
                                                   else "loss")
    if winner == me:
        return _("You win"), tone
    if len(seats) == 2:
        return _("The computer wins"), tone
    return _("{name} wins").format(name=name), tone


def swapped(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """The seats rotated by one: seat 0 gets seat 1's player (kind and level), and so on."""
    return tuple(seats[(i + 1) % len(seats)] for i in range(len(seats)))


class ResultOverlay(Overlay):
    """Modal result panel over a finished game (see the module docstring).

    Keys: Enter plays again (the focused button), N plays again, R reviews, Esc views the board.
    """

    help_title = N_("Game over")
    help_text = N_("The game is over. Play again starts a new game with the same players; "
                   "Swap sides starts one with the players moved round one seat (who went "
                   "second goes first); Review (R) goes through the game move by move with "
                   "every move's value, its mistakes marked; View board (or Esc) closes this "
                   "to look at the final position, where Undo still takes moves back; Back "
                   "returns to the games.")

    def __init__(self, app: App, scene: MatchScreen) -> None:
        super().__init__(app)
        self.scene = scene
        state = scene.state
        self.headline, self.tone = result_headline(scene, state)
        self.moves = scene.moves_played()
        seats = scene.seats
        self.new_seats = swapped(seats)
        ui = self.ui
        ui.add(Button(self._place(0, 0), N_("Play again"), self.play_again, name="Play again"))
        ui.add(Button(self._place(1, 0), N_("Swap sides"), self.swap_sides, name="Swap sides",
                      enabled=self.new_seats != seats))
        ui.add(Button(self._place(0, 1), N_("Review"), self.review, name="Review"))
        ui.add(Button(self._place(1, 1), N_("View board"), self.close, name="View board"))
        ui.add(Button(self._place(0, 2), N_("← Back"), self.back, name="Back"))
        ui.focus_index = 0  # Enter plays again

    # --- layout -----------------------------------------------------------------------
    def panel_rect(self) -> FRect:
        """The panel in design units: centred on the board, kept inside the window."""
        area = self.app.viewport.area
        try:
            board = self.scene.layout()["board"]
            cx, cy = board.center
        except (KeyError, AttributeError):
            cx, cy = area.center
        w, h = min(PANEL_W, area.w - 16), min(PANEL_H, area.h - 16)
        x = min(max(cx - w / 2, area.x + 8), area.right - 8 - w)
        y = min(max(cy - h / 2, area.y + 8), area.bottom - 8 - h)
        return FRect(x, y, w, h)

    def _place(self, col: int, row: int) -> Any:
        def rect() -> tuple[float, float, float, float]:
            panel = self.panel_rect()
            w = (panel.w - 2 * PAD - GAP) / 2
            bottom = panel.bottom - PAD - (2 - row) * (BUTTON_H + GAP)
            return (panel.x + PAD + col * (w + GAP), bottom - BUTTON_H, w, BUTTON_H)
        return rect

    # --- actions ----------------------------------------------------------------------
    def play_again(self) -> None:
        """A new game with the same players."""
        self.close()
        self.scene.new_game()

    def swap_sides(self) -> None:
        """A new game with the players moved round one seat (remembered, as the set-up
        screen would)."""
        self.close()
        self.scene.restart(self.scene.params, self.new_seats)

    def review(self) -> None:
        """Go through the game move by move (or say why this game cannot be reviewed: the
        panel then stays)."""
        from engine.ai.review import unavailable_reason

        scene: Any = self.scene
        start, _moves = scene.match.game_record()
        if unavailable_reason(start, scene.game.hint_function()) is None:
            self.close()
        scene.open_review()

    def back(self) -> None:
        """Leave the game for the launcher."""
        self.close()
        self.scene.back()

    def handle_event(self, event: pygame.event.Event) -> None:
        if (event.type == pygame.KEYDOWN and event.key in (pygame.K_n, pygame.K_r)
                and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)):
            (self.play_again if event.key == pygame.K_n else self.review)()
            return
        super().handle_event(event)

    # --- drawing ----------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((*p.shade[:3], SHADE_ALPHA))
        surface.blit(shade, (0, 0))
        rect = vp.map_rect(tuple(self.panel_rect()))
        colour = {"win": p.good, "loss": p.bad, "draw": p.neutral}[self.tone]
        radius = vp.px(14)
        pygame.draw.rect(surface, p.panel, rect, border_radius=radius)
        pygame.draw.rect(surface, colour, rect, vp.px(3), border_radius=radius)
        self.draw_body(surface, rect)
        self.ui.draw(surface, vp, theme)

    def draw_body(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        pad = vp.px(PAD)
        colour = {"win": p.good, "loss": p.bad, "draw": p.neutral}[self.tone]
        head = pygame.Rect(rect.x + pad, rect.y + pad, rect.w - 2 * pad, vp.px(52))
        size = 34.0
        while size > 18 and theme.font(size * vp.scale, bold=True).size(
                self.headline)[0] > head.w:
            size -= 2  # a long name shrinks the headline rather than wrapping it
        draw_text_block(surface, self.headline, theme.font(size * vp.scale, bold=True), colour,
                        head, "center")
        detail = pygame.Rect(head.x, head.bottom + vp.px(4), head.w, vp.px(30))
        text = ngettext("Game over after {count} move.", "Game over after {count} moves.",
                        self.moves).format(count=self.moves)
        draw_text_block(surface, text, theme.font(18 * vp.scale), p.muted, detail, "center")

    def debug_state(self) -> dict[str, Any]:
        buttons = {w.name: [round(v, 1) for v in w.rect] for w in self.ui.widgets
                   if isinstance(w, Button)}
        return {"scene": "ResultOverlay", "overlay": True, "headline": self.headline,
                "tone": self.tone, "moves": self.moves, "actions": buttons}
