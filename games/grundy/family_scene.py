"""What every Grundy screen shares: seats, the perfect computer, set-up, player cards, the
extras panel's layout and which moves the board marks as "last"."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame
from pygame import FRect

from engine.core.i18n import _
from engine.model.seats import Seat
from engine.screens.turn_scene import TurnBasedScene
from engine.ui.game_layout import CARD_W, GAP, MARGIN
from games.grundy.descriptor import GAME
from games.grundy.variants import GAME_LABELS, GrundySetup

if TYPE_CHECKING:
    from engine.runtime.app import App

# The extras column beside the board: never narrower than the standard column, and in a
# wide window as wide as this when the board is already as tall as the window allows.
EXTRAS_MIN_W, EXTRAS_MAX_W = 150.0, 300.0
# An extras box at least this wide (the strip below the board in a tall window) puts its
# widgets in a column of their own, WIDGET_COLUMN_W wide, with the notes beside them.
WIDE_EXTRAS, WIDGET_COLUMN_W = 380.0, 200.0
VARIANT_H = 56.0  # three lines of MIN_TEXT: "Bachet: 100 kamínků, bere se 1–10"


class GrundyScene(TurnBasedScene):
    """Base of the board, heap and graph screens."""

    def __init__(self, app: App, setup: GrundySetup, state: Any,
                 seats: tuple[Seat, ...] | None = None, seed: int | None = None) -> None:
        self.setup = setup
        super().__init__(app, GAME, setup, state, seats, seed)
        self.title = GAME_LABELS[setup.game]

    def player_name(self, player: int) -> str:
        return _("Player {number}").format(number=player + 1)

    # --- layout ------------------------------------------------------------------------------
    def extras_width(self, body: FRect) -> float:
        """Beside the board, the extras take the width the board cannot use (the board is a
        square as tall as the body), between :data:`EXTRAS_MIN_W` and :data:`EXTRAS_MAX_W`:
        the long notes (graph descriptions, the nim-sum) read better in a wider column."""
        spare = body.w - CARD_W - 4 * MARGIN - (body.h - 2 * MARGIN)
        return max(EXTRAS_MIN_W, min(EXTRAS_MAX_W, spare))

    def extras_slots(self) -> list[tuple[str, float]]:
        """The widgets of the extras panel, top-down: (layout entry, design height)."""
        return [("variant", VARIANT_H)]

    def layout_body(self, body: FRect) -> dict[str, FRect]:
        """The turn-based layout, plus the extras panel's widget slots and its "notes" box."""
        rects = super().layout_body(body)
        rects.update(self.layout_extras(rects["extras"]))
        return rects

    def layout_extras(self, extras: FRect) -> dict[str, FRect]:
        """Slots of :meth:`extras_slots` stacked at the top of ``extras`` and a "notes" box
        for the drawn text: below the slots in a narrow column, beside them in a wide strip."""
        wide = extras.w >= WIDE_EXTRAS
        column = FRect(extras.x, extras.y, WIDGET_COLUMN_W if wide else extras.w, extras.h)
        rects: dict[str, FRect] = {}
        y = column.y
        for name, height in self.extras_slots():
            rects[name] = FRect(column.x, y, column.w, height)
            y += height + GAP
        if wide:
            left = column.right + MARGIN
            rects["notes"] = FRect(left, extras.y, extras.right - left, extras.h)
        else:
            top = y + GAP if rects else y
            rects["notes"] = FRect(extras.x, top, extras.w, max(0.0, extras.bottom - top))
        return rects

    # --- last moves ----------------------------------------------------------------------------
    def marked_moves(self) -> list[tuple[int, Any, Any]]:
        """The moves the board marks as last, oldest first: ``(player, before, after)``.

        Always the move that led to the position on screen (whoever made it); when several
        computers play, also each other computer seat's last move, so every computer's
        latest choice can be followed (from :meth:`TurnBasedScene.last_moves`).
        """
        step = self.last_step()
        if step is None:
            return []
        newest = (step[0].current_player(), step[0], step[1])
        if sum(s.is_computer for s in self.seats) < 2:
            return [newest]
        older = [(player, before, after) for player, (before, after) in self.last_moves().items()
                 if after is not step[1] and self.seats[player].is_computer]
        return [*older, newest]

    def draw_player_badge(self, surface: pygame.Surface, rect: pygame.Rect, player: int) -> None:
        p = self.app.theme.palette
        colour = p.players[player]
        r = min(rect.width, rect.height) // 2 - 4
        pygame.draw.circle(surface, colour, rect.center, r)
        font = self.app.theme.font(r * 1.2, bold=True)
        label = font.render(str(player + 1), True, p.background)
        surface.blit(label, label.get_rect(center=rect.center))

    def start_codec(self) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
        """A position set by hand starts a game (the board's Place): saved as the
        position's tokens, heaps or node (games.grundy.variants)."""
        from games.grundy.variants import load_state, save_state

        return save_state, lambda data: load_state(self.params, data)

    def open_setup(self) -> None:
        """Choose the game, its size and the seats (Start replaces this screen)."""
        from games.grundy.setup_scene import GrundySetupOverlay

        self.app.push(GrundySetupOverlay(self.app, self))

    def hint_view(self, shown_only: bool = True) -> dict[str, Any]:
        """The hint as the family's screens draw it: the extra (table, heap or node values,
        arithmetic) plus ``winning`` and ``draws``, the moves whose MoveValue is a win or a
        draw. Empty while hints are hidden (unless ``shown_only`` is False) or not ready."""
        if shown_only and not self.show_hints:
            return {}
        view = dict(self.hint_extra_value or {})
        if self.hints:
            view["winning"] = [m for m, v in self.hints.items() if v.outcome == "win"]
            view["draws"] = [m for m, v in self.hints.items() if v.outcome == "draw"]
        return view
