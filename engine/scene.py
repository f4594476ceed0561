"""Scenes: the launcher, each game, each dialog. The app keeps them on a stack."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from engine.i18n import N_
from engine.widgets import WidgetGroup

if TYPE_CHECKING:
    from engine.app import App


class Scene:
    """Base class: override what you need.

    ``overlay`` scenes (help, dialogs) are drawn over the scene beneath them
    and take all input while open (they are modal).
    """

    overlay = False
    # Screens with nothing to lose (statistics, charts) close on Esc.
    closes_on_escape = False
    # Marked with N_ and translated when shown (see engine/i18n.py).
    help_title = N_("Help")
    help_text = N_("No help for this screen.")

    def __init__(self, app: App) -> None:
        self.app = app
        self.ui = WidgetGroup()

    # lifecycle -------------------------------------------------------------
    def enter(self) -> None:
        """Called when pushed (or swapped in) onto the stack."""

    def leave(self) -> None:
        """Called when popped or replaced; stop background work here."""

    def resume(self) -> None:
        """Called when the scene above this one was popped."""

    def covered(self) -> None:
        """Called when another scene (a dialog, the help, a screen) is pushed above this one.

        The scene stays on the stack but is no longer the one receiving input: a puzzle
        stops its clock here. :meth:`uncovered` follows once this scene is on top again.
        """

    def uncovered(self) -> None:
        """Called when this scene is on top again after :meth:`covered` (just before
        :meth:`resume`)."""

    # frame -----------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        """Route an input event: Esc closes the screen if it says so, else the widgets get it."""
        if (self.closes_on_escape and event.type == pygame.KEYDOWN
                and event.key == pygame.K_ESCAPE):
            self.app.pop()
            return
        self.ui.handle_event(event, self.app.viewport)

    def update(self, dt: float) -> None:
        """Advance time-based state by ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene; the default draws the widgets on the background."""
        surface.fill(self.app.theme.palette.background)
        self.ui.draw(surface, self.app.viewport, self.app.theme)

    def is_active(self) -> bool:
        """True while animating or thinking, so the app keeps drawing frames."""
        return False

    def debug_state(self) -> dict[str, Any]:
        """A JSON-friendly summary for tests (the --dump-state option)."""
        return {"scene": type(self).__name__}
