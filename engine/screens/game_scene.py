"""What every game screen shares: toolbar, status bar, shortcuts and Back."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame
from pygame import FRect

from engine.ai.agent import Agent
from engine.ai.runner import AIResult, AIRunner
from engine.core.i18n import N_, _
from engine.model.rules import GameState
from engine.screens.scene import Scene
from engine.ui.animation import Timeline
from engine.ui.game_layout import Tool, bars, toolbar
from engine.ui.widgets import Button, Label

if TYPE_CHECKING:
    from engine.runtime.app import App

# Width of the busy badge at the right end of the status bar.
BADGE_W = 160.0
# The status line's font size, and the smallest it may shrink to before it is shortened.
STATUS_SIZE, STATUS_MIN_SIZE = 20.0, 14.0


class GameScene(Scene):
    """A game screen: Back, title, New game, Undo, Redo, ?, and a status bar.

    Shortcuts: Esc back to the launcher, Ctrl+Z undo, Ctrl+Y or Ctrl+Shift+Z
    redo, N (or F2) new game. Subclasses implement the five actions and
    ``status_text``, and handle board input in ``board_event``.

    Computer moves go through :meth:`think`: the agent runs on the engine's
    :class:`AIRunner` off the frame loop, a "thinking…" badge shows meanwhile,
    the answer arrives in :meth:`on_ai_result`, and leaving the scene cancels it.
    """

    title = N_("Game")
    new_game_label = N_("New game")

    def __init__(self, app: App) -> None:
        super().__init__(app)
        ui = self.ui
        self._left_tools: list[Tool] = []
        self._right_tools: list[Tool] = []
        self._layout_key: object = None
        self._layout: dict[str, FRect] = {}
        # Animations: input finishes them at once, "Reduce motion" skips them.
        self.anim = Timeline(lambda: bool(app.settings.get("reduce_motion")))
        self.add_tool(Button(self.place("Back"), N_("← Back"), self.back, name="Back"), 100,
                      left=True)
        # Between the two groups of buttons: a long title shrinks, then shortens.
        ui.add(Label(self.place("title"), lambda: self.title, size=26, bold=True,
                     role="accent", fit_lines=1, min_size=16))
        self.add_tool(Button(self.place(self.new_game_label), self.new_game_label, self.new_game,
                             name=self.new_game_label), 120, before="")
        # Undo is wider than Redo: it has its own word in every language (hu
        # "Visszavonás", not the "Vissza" of ← Back).
        self.add_tool(Button(self.place("Undo"), N_("Undo"), self.undo, enabled=self.can_undo,
                             name="Undo"), 108, before="")
        self.add_tool(Button(self.place("Redo"), N_("Redo"), self.redo, enabled=self.can_redo,
                             name="Redo"), 80, before="")
        self.add_tool(Button(self.place("?"), "?", app.help, name="?"), 44, before="")
        # One line, always: a long status shrinks (not below STATUS_MIN_SIZE), then ends
        # with "…" at a word and shows whole in a tooltip; a second line left lone
        # fragments ("0)") under the first.
        self.status = ui.add(Label(self._status_place, self.status_text, size=STATUS_SIZE,
                                   align="center", fit_lines=1, min_size=STATUS_MIN_SIZE))
        self.ai = AIRunner()
        self._spin = 0.0
        # The shortest think time shown for the current request (see think()).
        self._think_floor = 0.0

    # layout -----------------------------------------------------------------------------
    def add_tool(self, button: Button, width: float, left: bool = False,
                 before: str | None = None) -> Button:
        """Put ``button`` on the toolbar (right group unless ``left``), ``width`` design units
        wide; in the right group it goes before the tool named ``before`` (default: before
        New game, so the game's own tools come first; "" puts it at the end)."""
        tools = self._left_tools if left else self._right_tools
        tool = Tool(button.name, width)
        anchor = self.new_game_label if before is None else before
        names = [t.name for t in tools]
        tools.insert(names.index(anchor) if anchor in names else len(tools), tool)
        self._layout_key = None
        self.ui.add(button)
        return button

    def place(self, name: str) -> Callable[[], tuple[float, float, float, float]]:
        """A widget place that follows the layout entry ``name`` (see :meth:`layout`)."""
        return lambda: tuple(self.layout()[name])  # type: ignore[return-value]

    def layout(self) -> dict[str, FRect]:
        """Named design-space rectangles for the current window, worked out once per size."""
        vp = self.app.viewport
        key = (vp.window, self.layout_key(), self.own_layout_key())
        if key != self._layout_key:
            area = vp.area
            top, body, status = bars(area)
            rects, title = toolbar(area, self._left_tools, self._right_tools)
            rects.update(toolbar=top, body=body, status_bar=status, title=title,
                         status=FRect(status.x + 24, status.y + 8, status.w - 48 - BADGE_W, 40),
                         status_wide=FRect(status.x + 24, status.y + 8, status.w - 48, 40),
                         badge=FRect(status.right - 16 - BADGE_W, status.y + 12, BADGE_W, 32))
            rects.update(self.arrange_body(body))
            self._layout, self._layout_key = rects, key
        return self._layout

    def _status_place(self) -> tuple[float, float, float, float]:
        """The status line's place: the whole bar, less the busy badge's room while the
        badge is shown (so a long status is not cut for a badge that is not there)."""
        name = "status" if self.busy_label() else "status_wide"
        return tuple(self.layout()[name])  # type: ignore[return-value]

    def layout_key(self) -> object:
        """What else the layout depends on (override when it changes with the game)."""
        return None

    def own_layout_key(self) -> object:
        """What :meth:`arrange_body` adds to the layout's dependencies (the engine's screens
        override both; games override :meth:`layout_key`)."""
        return None

    def arrange_body(self, body: FRect) -> dict[str, FRect]:
        """The body's rectangles: the game's (:meth:`layout_body`), and any the engine's
        screen places itself (the move list of
        :class:`engine.screens.turn_scene.TurnBasedScene`)."""
        return self.layout_body(body)

    def layout_body(self, body: FRect) -> dict[str, FRect]:
        """Named rectangles inside the body; the default is one "board" filling it."""
        return {"board": body.inflate(-32, -32)}

    def area(self, name: str) -> pygame.Rect:
        """The layout rectangle ``name`` on screen."""
        return self.app.viewport.map_rect(tuple(self.layout()[name]))

    # computer moves -----------------------------------------------------------------
    def think(self, agent: Agent, state: GameState, tag: object = None) -> None:
        """Ask ``agent`` for a move in ``state`` without blocking the frame loop.

        A level whose strength is set by work rather than by the clock may answer sooner
        than the think time players know from it; its ``think_floor`` (seconds, if it has
        one) keeps the answer back until then: frames run on meanwhile."""
        self._spin = 0.0
        floor = getattr(agent, "think_floor", 0.0)
        self._think_floor = float(floor) if isinstance(floor, int | float) else 0.0
        self.ai.start(agent, state, tag)

    def on_ai_result(self, result: AIResult) -> None:
        """Receive a finished computer move (override); errors become a notice."""
        if result.error is not None:
            self.app.notify(_("The computer could not move: {error}").format(error=result.error),
                            "warning")

    @property
    def thinking(self) -> bool:
        """Whether a computer move is being worked out."""
        return self.ai.busy

    def update(self, dt: float) -> None:
        self._spin += dt
        self.anim.update(dt)
        if self.ai.busy and self.ai.thinking_seconds >= self._think_floor:
            result = self.ai.poll()
            if result is not None:
                self.on_ai_result(result)

    def leave(self) -> None:
        self.ai.cancel()

    def is_active(self) -> bool:
        return self.ai.busy or self.anim.active

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
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            self.anim.finish_all()  # input never waits for an animation
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
        p = self.app.theme.palette
        surface.fill(p.background)
        pygame.draw.rect(surface, p.panel, self.area("toolbar"))
        pygame.draw.rect(surface, p.panel, self.area("status_bar"))
        self.draw_board(surface)
        self.ui.draw(surface, self.app.viewport, self.app.theme)
        label = self.busy_label()
        if label:
            self._draw_thinking(surface, label)

    def busy_label(self) -> str | None:
        """Text of the busy badge, or None when nothing is being worked out."""
        return _("thinking…") if self.ai.busy else None

    def _draw_thinking(self, surface: pygame.Surface, text: str) -> None:
        """A "thinking…" badge with a turning dot, in words as well as motion."""
        import math

        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        rect = self.area("badge")
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
