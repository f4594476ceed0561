"""What every Grundy screen shares: seats, the perfect computer, set-up, player cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from engine.seats import Seat
from engine.turn_scene import TurnBasedScene
from games.grundy.descriptor import GAME
from games.grundy.variants import GAME_LABELS, GrundySetup

if TYPE_CHECKING:
    from engine.app import App


class GrundyScene(TurnBasedScene):
    """Base of the board, heap and graph screens."""

    def __init__(self, app: App, setup: GrundySetup, state: Any,
                 seats: tuple[Seat, ...] | None = None, seed: int | None = None) -> None:
        self.setup = setup
        super().__init__(app, GAME, setup, state, seats, seed)
        self.title = GAME_LABELS[setup.game]

    def player_name(self, player: int) -> str:
        return f"Player {player + 1}"

    def draw_player_badge(self, surface: pygame.Surface, rect: pygame.Rect, player: int) -> None:
        p = self.app.theme.palette
        colour = p.players[player]
        r = min(rect.width, rect.height) // 2 - 4
        pygame.draw.circle(surface, colour, rect.center, r)
        font = self.app.theme.font(r * 1.2, bold=True)
        label = font.render(str(player + 1), True, p.background)
        surface.blit(label, label.get_rect(center=rect.center))

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
