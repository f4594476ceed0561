"""The --smoke run: every screen opened, drawn and exercised headlessly."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pygame

if TYPE_CHECKING:
    from engine.model.descriptor import GameDescriptor


def smoke_all(settings: Any, stats: Any, notices: list[str], frames: int = 5,
              families: Sequence[GameDescriptor] | None = None) -> list[str]:
    """Open the launcher, every available game, help and statistics; return what opened.

    Each family's declared sound effects are played once and checked (``<id>/sounds``).

    ``families`` limits the run to those families (a one-family executable opens
    only its own games, which its bundle may be all it holds); default: all.
    Raises on the first failure (the caller reports it and exits non-zero).
    """
    from engine.model.registry import all_games
    from engine.model.registry import problems as load_problems
    from engine.runtime.app import App
    from engine.screens.launcher import LauncherScene
    from engine.screens.overlays import TextEntryDialog
    from engine.screens.stats_scene import StatsScene
    from engine.storage.saved_games import SavedGames

    app = App(settings, stats, notices, window_size=(960, 720))
    # Saves stay in memory: a smoke run on a player's --profile must not replace their games.
    app.game_saves = SavedGames(None)
    opened: list[str] = []
    try:
        launcher = app.push(LauncherScene(app, families))
        _frames(app, frames)
        opened.append("launcher")
        # A game the registry had to leave out is a failure here (the launcher only tells).
        broken = load_problems() if families is None else ()
        assert not broken, "; ".join(problem.text for problem in broken)
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
            _check_sounds(app, family)
            opened.append(f"{family.id}/sounds")
            for name in family.smoke_variants(app, lambda n: _frames(app, n)):
                assert app.top is launcher, f"{family.id} {name} did not return to the launcher"
                opened.append(f"{family.id}/{name}")
            if family.kind == "two-player" and family.hints is not None:
                _smoke_review(app, family, frames)
                assert app.top is launcher, f"{family.id} review did not return to the launcher"
                opened.append(f"{family.id}/review")
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


def _smoke_review(app: Any, family: GameDescriptor, frames: int) -> None:
    """A game played to its end (each first legal move), reviewed: the review screen (its
    board drawn by the game's own screen, its graph and lists) and the move list drawn for
    a few frames, the analysis left running and cancelled by leaving. The game is replayed
    with Play from here's ``play_from``, which records no result: a smoke run on a player's
    profile adds nothing to their statistics."""
    from engine.model.seats import Seat
    from engine.screens.review_scene import ReviewScene

    scene = app.push(family.open_scene(app, None, seats=(Seat(),) * 4))
    start = state = scene.state
    moves = []
    while not state.is_terminal() and len(moves) < 400:
        moves.append(state.legal_moves()[0])
        state = state.play(moves[-1])
    scene.match.play_from(start, moves)
    scene._changed()
    _frames(app, frames)
    app.push(ReviewScene(app, scene))
    _frames(app, frames)
    app.pop()
    app.pop()


def _check_sounds(app: Any, family: GameDescriptor) -> None:
    """Play each of the family's effects once; fail if one is missing, damaged or silent.

    The files are checked whether or not an audio device exists (a packaging mistake
    that loses them must not hide behind a machine without sound); with a device, or
    SDL's dummy driver that --smoke uses, each effect must also reach the mixer.
    The dummy driver always exists, so under it a mixer that will not open means the
    bundle lost pygame's mixer library: a failure too.
    """
    if os.environ.get("SDL_AUDIODRIVER") == "dummy":
        assert app.audio.available, "the audio mixer did not open, even with SDL's dummy driver"
    problems = app.audio.problems(family.sounds)
    assert not problems, f"{family.id}: " + "; ".join(problems)
    audible = app.audio.enabled and app.audio.volume > 0 and app.audio.available
    before = len(app.audio.sounded)
    for name in family.sounds:
        app.audio.play(name)
    _frames(app, 1)
    if audible:
        missing = [name for name in family.sounds if name not in app.audio.sounded[before:]]
        assert not missing, f"{family.id}: sound(s) {', '.join(missing)} did not play"


def _frames(app: Any, count: int, events: list[pygame.event.Event] | None = None) -> None:
    for i in range(count):
        app.step(events if i == 0 and events else [])
