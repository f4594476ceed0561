"""A window manager that ignores the size hints, played under the dummy driver (issue 29
finding 8): shared by the resize and layout tests."""

from __future__ import annotations

import warnings

import pygame

from engine.runtime.app import App

# The events SDL sends when a window's size changes.
RESIZE_TYPES = (pygame.VIDEORESIZE, pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED)


def sdl_window() -> pygame.Window:
    """The app's OS window."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pygame.Window.from_display_module()


def wm_resize(app: App, size: tuple[int, int]) -> None:
    """What a window manager that ignores the size hints does: the window takes ``size``
    and SDL tells the app (VIDEORESIZE and WINDOWRESIZED); then one frame."""
    window = sdl_window()
    window.minimum_size = (1, 1)
    window.maximum_size = (10_000, 10_000)
    window.size = size
    pygame.event.clear(RESIZE_TYPES)  # only the events a window manager's resize sends
    for kind in (pygame.VIDEORESIZE, pygame.WINDOWRESIZED):
        pygame.event.post(pygame.event.Event(kind, size=size, w=size[0], h=size[1],
                                             x=size[0], y=size[1]))
    app.step()
