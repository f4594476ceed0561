"""What every game screen shares: toolbar, status bar, shortcuts and Back."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from engine.ai.agent import Agent
from engine.ai.runner import AIResult, AIRunner
from engine.rules import GameState
from engine.scene import Scene
from engine.widgets import Button, Label

if TYPE_CHECKING:
    from engine.app import App

TOOLBAR_H = 64.0
STATUS_Y = 664.0


class GameScene(Scene):
    """A game screen: Back, title, New game, Undo, Redo, ?, and a status bar.

    Shortcuts: Esc back to the launcher, Ctrl+Z undo, Ctrl+Y or Ctrl+Shift+Z
    redo, N (or F2) new game. Subclasses implement the five actions and
    ``status_text``, and handle board input in ``board_event``.

    Computer moves go through :meth:`think`: the agent runs on the engine's
    :class:`AIRunner` off the frame loop, a "thinking…" badge shows meanwhile,
    the answer arrives in :meth:`on_ai_result`, and leaving the scene cancels it.
    """

    title = "Game"
    new_game_label = "New game"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        ui = self.ui
        ui.add(Button((16, 12, 110, 40), "← Back", self.back, name="Back"))
        # Up to the first game button (Setup at 316, or New game at 520 where there is
        # none): a long title shrinks to one line rather than run under the buttons.
        ui.add(Label((140, 12, 168, 40), lambda: self.title, size=26, bold=True, role="accent",
                     fit_lines=1, min_size=16))
        ui.add(Button((520, 12, 140, 40), self.new_game_label, self.new_game,
                      name=self.new_game_label))
        ui.add(Button((670, 12, 100, 40), "Undo", self.undo, enabled=self.can_undo, name="Undo"))
        ui.add(Button((780, 12, 100, 40), "Redo", self.redo, enabled=self.can_redo, name="Redo"))
        ui.add(Button((890, 12, 54, 40), "?", app.help, name="?"))
        self.status = ui.add(Label((24, STATUS_Y + 8, 912, 40), self.status_text, size=20,
                                   align="center", fit_lines=2, min_size=16))
        self.ai = AIRunner()
        self._spin = 0.0

    # computer moves -----------------------------------------------------------------
    def think(self, agent: Agent, state: GameState, tag: object = None) -> None:
        """Ask ``agent`` for a move in ``state`` without blocking the frame loop."""
        self._spin = 0.0
        self.ai.start(agent, state, tag)

    def on_ai_result(self, result: AIResult) -> None:
        """Receive a finished computer move (override); errors become a notice."""
        if result.error is not None:
            self.app.notify(f"The computer could not move: {result.error}")

    @property
    def thinking(self) -> bool:
        """Whether a computer move is being worked out."""
        return self.ai.busy

    def update(self, dt: float) -> None:
        self._spin += dt
        if self.ai.busy:
            result = self.ai.poll()
            if result is not None:
                self.on_ai_result(result)

    def leave(self) -> None:
        self.ai.cancel()

    def is_active(self) -> bool:
        return self.ai.busy

    # actions for subclasses ------------------------------------------------------
    def new_game(self) -> None:
        """Start a new game (undoable)."""

    def undo(self) -> None:
        """Take back a move."""

    def redo(self) -> None:
        """Replay an undone move."""

    def can_undo(self) -> bool:
        """Whether Undo is possible."""
        return False

    def can_redo(self) -> bool:
        """Whether Redo is possible."""
        return False

    def status_text(self) -> str:
        """The status bar's text: whose turn, or the result."""
        return ""

    def board_event(self, event: pygame.event.Event) -> None:
        """Input the toolbar did not take (clicks on the board, arrow keys)."""

    def back(self) -> None:
        """Return to the launcher."""
        self.app.pop()

    # plumbing -------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            ctrl = event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
            shift = event.mod & pygame.KMOD_SHIFT
            if event.key == pygame.K_ESCAPE:
                self.back()
                return
            if ctrl and event.key == pygame.K_z:
                (self.redo if shift else self.undo)()
                return
            if ctrl and event.key == pygame.K_y:
                self.redo()
                return
            if not ctrl and event.key in (pygame.K_n, pygame.K_F2):
                self.new_game()
                return
        if self.ui.handle_event(event, self.app.viewport):
            return
        self.board_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        vp, p = self.app.viewport, self.app.theme.palette
        surface.fill(p.background)
        pygame.draw.rect(surface, p.panel, vp.rect(0, 0, 960, TOOLBAR_H))
        pygame.draw.rect(surface, p.panel, vp.rect(0, STATUS_Y, 960, 720 - STATUS_Y))
        self.draw_board(surface)
        self.ui.draw(surface, vp, self.app.theme)
        label = self.busy_label()
        if label:
            self._draw_thinking(surface, label)

    def busy_label(self) -> str | None:
        """Text of the busy badge, or None when nothing is being worked out."""
        return "thinking…" if self.ai.busy else None

    def _draw_thinking(self, surface: pygame.Surface, text: str) -> None:
        """A "thinking…" badge with a turning dot, in words as well as motion."""
        import math

        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        rect = vp.rect(780, STATUS_Y + 12, 160, 32)
        pygame.draw.rect(surface, p.accent, rect, border_radius=vp.px(16))
        font = theme.font(16 * vp.scale, bold=True)
        label = font.render(text, True, p.background)
        surface.blit(label, label.get_rect(midleft=(rect.x + vp.px(36), rect.centery)))
        angle = self._spin * 2 * math.pi
        cx, cy = rect.x + vp.px(18), rect.centery
        r = vp.px(8)
        pygame.draw.circle(surface, p.background, (cx, cy), r, max(1, vp.px(2)))
        pygame.draw.circle(surface, p.background,
                           (cx + r * math.cos(angle), cy + r * math.sin(angle)), max(2, vp.px(3)))

    def draw_board(self, surface: pygame.Surface) -> None:
        """Draw the play area between toolbar and status bar."""
