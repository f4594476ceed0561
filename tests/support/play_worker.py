"""A real arcade that plays moves by itself: the process tests kill or signal mid-game.

Runs the app exactly as ``main.py play connect4 --profile DIR`` does (the real
command line, window, frame loop and signal handling; SDL's dummy video driver), while a
thread posts real mouse clicks into Connect Four's columns, one move at a time. After
each move is on the board (the scene's history moved on) the thread appends
``{"made": n}`` to the ledger and fsyncs it: "the player has made n moves". When every
move is made it writes ``{"done": n}`` and the app idles until the test ends it (a
signal, a kill). A test then reopens the profile and counts the moves that survived.

Usage (from the repository root)::

    python tests/support/play_worker.py PROFILE LEDGER [--moves 7] [--pace 0.05]

Not meant to be run by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ["LANGUAGE"] = "en"

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from engine.runtime import cli  # noqa: E402
from engine.runtime.app import App  # noqa: E402

#: Columns played in turn: no four in a row within two rounds of the 7 columns.
COLUMNS = (0, 1, 2, 3, 4, 5, 6)
GAME = "connect4"


def moves_of(scene: Any) -> int:
    """The moves on the board of the Connect Four scene (its history cursor)."""
    return scene.match.history.index


def record(ledger: Path, entry: dict[str, Any]) -> None:
    """Append ``entry`` to the ledger, durably."""
    fd = os.open(ledger, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
    try:
        os.write(fd, (json.dumps(entry) + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def click(pos: tuple[int, int]) -> None:
    """Post a real press and release at window pixel ``pos`` (SDL's queue is thread-safe)."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def drive(holder: dict[str, App], ledger: Path, moves: int, pace: float) -> None:
    """Play ``moves`` moves by clicking (posting real events from this thread)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        app = holder.get("app")
        top = app.top if app is not None else None
        if top is not None and getattr(getattr(top, "game", None), "id", None) == GAME \
                and app.frames > 2:
            break
        time.sleep(0.01)
    else:
        record(ledger, {"error": "the game never opened"})
        return
    scene = app.top
    start = moves_of(scene)
    record(ledger, {"start": start})
    for n in range(1, moves + 1):
        col = COLUMNS[(start + n - 1) % len(COLUMNS)]
        rect = scene.geometry().cell_rect(1, col)
        pos = (int(rect.centerx), int(rect.centery))
        before = moves_of(scene)
        until = time.monotonic() + 20
        while moves_of(scene) == before and time.monotonic() < until:
            # A click while the last disc still falls may only finish the fall: again.
            click(pos)
            wait = time.monotonic() + 0.5
            while moves_of(scene) == before and time.monotonic() < wait:
                time.sleep(0.002)
        if moves_of(scene) == before:
            record(ledger, {"error": f"move {n} was not taken"})
            return
        record(ledger, {"made": moves_of(scene)})
        time.sleep(pace)
    record(ledger, {"done": moves_of(scene)})


def main() -> int:
    """Run the app on ``PROFILE`` with the driver thread."""
    parser = argparse.ArgumentParser()
    parser.add_argument("profile")
    parser.add_argument("ledger", type=Path)
    parser.add_argument("--moves", type=int, default=7)
    parser.add_argument("--pace", type=float, default=0.05)
    args = parser.parse_args()
    profile = Path(args.profile)
    settings = profile / "settings.json"
    if not settings.exists():
        # Both seats human: every move is the driver's click (no computer reply, no win).
        profile.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps({"version": 1, "seats": {GAME: {}}}), encoding="utf-8")
    holder: dict[str, App] = {}
    original = App.__init__

    def capture(self: App, *a: Any, **k: Any) -> None:
        original(self, *a, **k)
        holder["app"] = self

    App.__init__ = capture  # type: ignore[method-assign]
    threading.Thread(target=drive, args=(holder, args.ledger, args.moves, args.pace),
                     daemon=True).start()
    return cli.main(["--profile", args.profile, "--window", "960x720", "play", GAME])


if __name__ == "__main__":
    sys.exit(main())
