"""The --smoke run: every screen opened, drawn and exercised headlessly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pygame

if TYPE_CHECKING:
    from engine.descriptor import GameDescriptor


def smoke_all(settings: Any, stats: Any, notices: list[str], frames: int = 5,
              families: Sequence[GameDescriptor] | None = None) -> list[str]:
    """Open the launcher, every available game, help and statistics; return what opened.

    ``families`` limits the run to those families (a one-family executable opens
    only its own games, which its bundle may be all it holds); default: all.
    Raises on the first failure (the caller reports it and exits non-zero).
    """
    from engine.app import App
    from engine.launcher import LauncherScene
    from engine.overlays import TextEntryDialog
    from engine.registry import all_games
    from engine.stats_scene import StatsScene

    app = App(settings, stats, notices, window_size=(960, 720))
    opened: list[str] = []
    try:
        launcher = app.push(LauncherScene(app, families))
        _frames(app, frames)
        opened.append("launcher")
        for family in all_games() if families is None else families:
            scene = app.push(family.open_scene(app))
            _frames(app, frames)
            # A click in the middle of the window and a key press exercise input paths.
            centre = app.screen.get_rect().center
            _frames(app, 1, [
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=centre, button=1),
            ])
            app.help()
            _frames(app, frames)
            app.pop_to(type(scene))
            app.pop()
            assert app.top is launcher, f"{family.id} did not return to the launcher"
            opened.append(family.id)
            for name in family.smoke_variants(app, lambda n: _frames(app, n)):
                assert app.top is launcher, f"{family.id} {name} did not return to the launcher"
                opened.append(f"{family.id}/{name}")
        app.push(StatsScene(app))
        _frames(app, frames)
        app.pop()
        opened.append("statistics")
        app.push(TextEntryDialog(app, "Smoke test", lambda _text: None))
        _frames(app, frames)
        app.pop()
        opened.append("text entry")
    finally:
        app.quit()
        pygame.quit()
    return opened


def _frames(app: Any, count: int, events: list[pygame.event.Event] | None = None) -> None:
    for i in range(count):
        app.step(events if i == 0 and events else [])
