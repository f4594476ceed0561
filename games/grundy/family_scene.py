"""What every Grundy screen shares: seats, the perfect computer, set-up, player cards."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import pygame

from engine.ai.agent import Agent, MistakeAgent, RandomAgent
from engine.seats import Seat
from engine.turn_scene import TurnBasedScene
from games.grundy.variants import GAME_ID, GAME_LABELS, GrundySetup, remember, seats_from_settings

if TYPE_CHECKING:
    from engine.app import App


def make_agent(seat: Seat, seed: int | None) -> Agent:
    """Easy plays at random; Perfect moves to value 0 when it can, else resists longest."""
    if seat.level == "easy":
        agent: Agent = RandomAgent(seed=seed)
    else:
        from games.grundy.ai import ImpartialAgent

        agent = ImpartialAgent(seed=seed)
    return MistakeAgent(agent, seat.mistakes, seed=seed) if seat.mistakes else agent


class GrundyScene(TurnBasedScene):
    """Base of the board, heap and graph screens."""

    game_id = GAME_ID

    def __init__(self, app: App, setup: GrundySetup, state: Any,
                 seats: tuple[Seat, ...] | None = None, seed: int | None = None) -> None:
        self.setup = setup
        chosen = seats or seats_from_settings(app.settings)
        rng = random.Random(seed)
        agents = [make_agent(s, rng.randrange(1 << 30)) if s.is_computer else None
                  for s in chosen]
        super().__init__(app, state, chosen, agents, seed)
        self.title = GAME_LABELS[setup.game]

    def variant_id(self) -> str:
        return self.setup.variant_id()

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

    def restart(self, setup: GrundySetup, seats: tuple[Seat, ...]) -> None:
        """Start a fresh game with another set-up."""
        from games.grundy.scenes import scene_for

        remember(self.app, setup, seats)
        self.app.replace(scene_for(self.app, setup, seats))
