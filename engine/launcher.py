"""The launcher: one tile per game family, plus statistics, palette and help."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pygame

from engine.registry import FAMILIES, GameFamily
from engine.scene import Scene
from engine.theme import PALETTES, Theme
from engine.viewport import Viewport
from engine.widgets import Button, Label, draw_text_block

if TYPE_CHECKING:
    from engine.app import App

TILE_W, TILE_H, TILE_GAP, TILE_Y = 280.0, 420.0, 30.0, 130.0
# The button row is at least as wide as three tiles, so it fits under a single tile too.
BUTTON_ROW_W = 3 * TILE_W + 2 * TILE_GAP


class LauncherTile(Button):
    """A large button with the family's picture, name and description."""

    def __init__(self, rect: tuple[float, float, float, float], family: GameFamily,
                 on_click: Callable[[], None]) -> None:
        super().__init__(rect, family.title, on_click, enabled=True, name=family.id)
        self.family = family
        self._painter = family.preview_painter()

    def draw_content(self, surface: pygame.Surface, rect: pygame.Rect, vp: Viewport,
                     theme: Theme) -> None:
        p = theme.palette
        pad = vp.px(18)
        picture = pygame.Rect(rect.x + pad, rect.y + pad, rect.width - 2 * pad,
                              rect.width - 2 * pad)
        self._painter(surface, picture, p)
        title_font = theme.font(24 * vp.scale, bold=True)
        y = picture.bottom + vp.px(12)
        surface.blit(title_font.render(self.family.title, True, p.text), (rect.x + pad, y))
        y += title_font.get_linesize() + vp.px(4)
        desc = pygame.Rect(rect.x + pad, y, rect.width - 2 * pad, rect.bottom - y - vp.px(44))
        draw_text_block(surface, self.family.description, theme.font(15 * vp.scale), p.muted,
                        desc)
        if not self.family.available:
            # Dim the picture and say so in words, not just by greying it out.
            veil = pygame.Surface(picture.size, pygame.SRCALPHA)
            veil.fill(p.shade)
            surface.blit(veil, picture)
            badge_font = theme.font(18 * vp.scale, bold=True)
            badge = badge_font.render("Coming soon", True, p.background)
            box = badge.get_rect(center=picture.center).inflate(vp.px(20), vp.px(10))
            pygame.draw.rect(surface, p.accent, box, border_radius=vp.px(8))
            surface.blit(badge, badge.get_rect(center=box.center))
        action = "Play ▸" if self.family.available else "Not yet playable"
        surface.blit(theme.font(16 * vp.scale, bold=True).render(
            action, True, p.accent if self.family.available else p.disabled),
            (rect.x + pad, rect.bottom - pad - vp.px(18)))


class LauncherScene(Scene):
    """Pick a game; open statistics; switch palette; quit."""

    help_title = "Arcade of Strategy"
    help_text = (
        "Click a game's tile to play it (or Tab to a tile and press Enter). "
        "Tiles marked \"Coming soon\" are games still being built.\n\n"
        "In every game: Esc or Back returns here, F1 or ? shows that game's rules, "
        "Ctrl+Z undoes and Ctrl+Y redoes a move, N starts a new game.\n\n"
        "Statistics shows your results per game. The palette button switches to a "
        "colour-blind-safe palette; players are also told apart by shape.\n\n"
        "Closing the window quits from any screen."
    )

    def __init__(self, app: App, families: Sequence[GameFamily] | None = None) -> None:
        """Tiles for ``families`` (default: every family in the registry).

        A one-family executable passes just its family: the player still gets its
        tile, statistics, palette, help and Quit, but no other game.
        """
        super().__init__(app)
        self.families = tuple(FAMILIES if families is None else families)
        title = "Arcade of Strategy"
        subtitle = "Games of strategy, with AIs that explain themselves"
        if families is not None and len(self.families) == 1:
            title, subtitle = self.families[0].title, "from Arcade of Strategy"
        n = len(self.families)
        x0 = (960 - (n * TILE_W + (n - 1) * TILE_GAP)) / 2
        self.ui.add(Label((0, 36, 960, 50), title, size=40, bold=True, align="center",
                          role="accent"))
        self.ui.add(Label((0, 84, 960, 30), subtitle, size=17, align="center", role="muted"))
        for i, family in enumerate(self.families):
            rect = (x0 + i * (TILE_W + TILE_GAP), TILE_Y, TILE_W, TILE_H)
            self.ui.add(LauncherTile(rect, family, lambda f=family: self.open_family(f)))
        y = 600
        row_w = max(n * TILE_W + (n - 1) * TILE_GAP, BUTTON_ROW_W)
        left = (960 - row_w) / 2
        self.ui.add(Button((left, y, 200, 48), "Statistics", self.open_stats, name="Statistics"))
        self.ui.add(Button((left + 220, y, 270, 48), self._palette_label, self.cycle_palette,
                           name="Palette"))
        right = left + row_w
        self.ui.add(Button((right - 200, y, 60, 48), "?", app.help, name="?"))
        self.ui.add(Button((right - 120, y, 120, 48), "Quit", app.quit, name="Quit"))
        self.ui.add(Label((0, 670, 960, 30), "F1 help · Tab to move between buttons · "
                          "Enter to choose", size=14, align="center", role="muted"))

    def _palette_label(self) -> str:
        return f"Palette: {self.app.theme.palette.label}"

    def cycle_palette(self) -> None:
        """Switch to the next palette and remember the choice."""
        names = list(PALETTES)
        current = names.index(self.app.theme.palette.name)
        self.app.set_palette(names[(current + 1) % len(names)])

    def open_family(self, family: GameFamily) -> None:
        """Open a playable family; a coming-soon one only says so."""
        if not family.available:
            return
        self.app.push(family.scene_class()(self.app))

    def open_stats(self) -> None:
        """Show the statistics screen."""
        from engine.stats_scene import StatsScene

        self.app.push(StatsScene(self.app))

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "LauncherScene", "palette": self.app.theme.palette.name,
                "tiles": [{"id": f.id, "available": f.available} for f in self.families]}
