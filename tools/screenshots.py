"""Render the screenshots in ``docs/`` from the real screens, headlessly.

Run from the repository root::

    python tools/screenshots.py              # write docs/*.png
    python tools/screenshots.py --out DIR    # somewhere else (the test uses a temporary folder)

Each picture opens a real screen in a throw-away profile under SDL's dummy video
driver, plays a few moves (seeded, so the pictures repeat), lets the computer
answer and every animation finish, and saves the window. Window sizes vary on
purpose: the pictures show the layouts for ordinary, wide and tall windows.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# name: (window size, how to set the screen up)
Shot = tuple[tuple[int, int], Callable[[Any], None]]


def _settle(app: Any, frames: int = 600) -> None:
    """Run frames until the computer has answered and nothing moves."""
    for _ in range(frames):
        app.step([])
        top = app.top
        busy = getattr(top, "thinking", False) or getattr(top, "busy_label", lambda: None)()
        waiting = getattr(top, "computer_to_move", lambda: False)()
        if not busy and not waiting and not top.is_active():
            break
    for scene in app.scenes:
        anim = getattr(scene, "anim", None)
        if anim is not None:
            anim.finish_all()
    app.step([])


def _game(app: Any, game_id: str, moves: int, hints: bool = True, level: str = "medium",
          finish: bool = False) -> Any:
    """Open ``game_id`` against the computer and play ``moves`` seeded human moves."""
    from engine.model.registry import find_game
    from engine.model.seats import Seat

    game = find_game(game_id)
    seats = (Seat("human"), Seat("computer", level)) if game.kind != "puzzle" else None
    options = {"seats": seats, "seed": 7} if seats else {}
    scene = app.push(game.open_scene(app, None, **options))
    rng = random.Random(11)
    if seats is None:  # a puzzle: press a few buttons
        n = scene.board.n
        for _ in range(moves):
            scene.press(rng.randrange(n), rng.randrange(n))
        _settle(app)
        return scene
    scene.show_hints = hints
    played = 0
    while (finish or played < moves) and not scene.state.is_terminal():
        _settle(app)
        if scene.state.is_terminal():
            break
        legal = list(scene.state.legal_moves())
        scene.play_move(rng.choice(legal))
        played += 1
    _settle(app)
    return scene


def _settings(app: Any) -> None:
    from engine.screens.settings_scene import SettingsOverlay

    app.push(SettingsOverlay(app))
    _settle(app)


SHOTS: dict[str, Shot] = {
    "launcher": ((960, 720), lambda app: _settle(app)),
    "tictactoe": ((960, 720), lambda app: _game(app, "tictactoe", 2)),
    "connect4-wide": ((1600, 900), lambda app: _game(app, "connect4", 5)),
    "grundy": ((960, 720), lambda app: _game(app, "grundy", 2)),
    "button-madness-tall": ((720, 1080), lambda app: _game(app, "button-madness", 3)),
    "result": ((960, 720), lambda app: _game(app, "tictactoe", 0, hints=False, level="easy",
                                             finish=True)),
    "settings": ((960, 720), _settings),
}


def render(out: Path, names: list[str] | None = None) -> list[Path]:
    """Render the chosen shots (all by default) into ``out``; returns the files written."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import pygame

    from engine.runtime.app import App
    from engine.screens.launcher import LauncherScene
    from engine.storage.settings import SettingsStore
    from engine.storage.stats import StatsStore

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names or list(SHOTS):
        size, setup = SHOTS[name]
        with tempfile.TemporaryDirectory() as folder:
            profile = Path(folder)
            os.environ["ARCADE_PROFILE"] = str(profile)
            settings = SettingsStore(profile / "settings.json")
            settings.load()
            settings.set("sound", False)
            stats = StatsStore(profile / "statistics.sqlite3")
            stats.open()
            app = App(settings, stats, window_size=size)
            try:
                app.push(LauncherScene(app))
                app.step([])
                setup(app)
                path = out / f"{name}.png"
                pygame.image.save(app.screen, str(path))
                written.append(path)
            finally:
                app.quit()
                stats.close()
                pygame.display.quit()
    return written


def main(argv: list[str] | None = None) -> int:
    """Command line: render every shot into docs/ (or --out)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="folder for the PNGs")
    parser.add_argument("names", nargs="*", choices=[[], *SHOTS], metavar="NAME",
                        help=f"which shots (default: all of {', '.join(SHOTS)})")
    args = parser.parse_args(argv)
    for path in render(args.out, args.names or None):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
