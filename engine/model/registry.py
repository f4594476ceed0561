"""Finds the games: every ``games/<package>/descriptor.py`` and its ``DESCRIPTORS``.

Nothing here names a game. Discovery walks the game package (``games`` by
default, ``ARCADE_GAMES_PACKAGE`` to point elsewhere) with :mod:`pkgutil`, which
also works inside a PyInstaller bundle; a one-game executable simply bundles
one game package. Tests may :func:`override` the list (the launcher is tested
with 4, 6 and 9 descriptors).

The games' own modules (scenes, numpy tables) load in the background after the
launcher's first frame (:func:`prefetch`), not at discovery.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pkgutil
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence

from engine.model.descriptor import GameDescriptor

DESCRIPTOR_MODULE = "descriptor"
_found: tuple[GameDescriptor, ...] | None = None
_override: tuple[GameDescriptor, ...] | None = None
_lock = threading.Lock()


def games_package() -> str:
    """The package whose sub-packages are games."""
    return os.environ.get("ARCADE_GAMES_PACKAGE", "games")


def discover(package: str | None = None) -> tuple[GameDescriptor, ...]:
    """Import ``<package>.<each sub-package>.descriptor`` and collect their ``DESCRIPTORS``,
    in launcher order. A package without a descriptor module is not a game and is skipped;
    a descriptor module that fails to import is an error (a broken game must be seen)."""
    root = importlib.import_module(package or games_package())
    found: list[GameDescriptor] = []
    for info in sorted(pkgutil.iter_modules(root.__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        name = f"{root.__name__}.{info.name}.{DESCRIPTOR_MODULE}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        found.extend(getattr(module, "DESCRIPTORS", ()))
    ids = [d.id for d in found]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"two games declare the id(s) {', '.join(sorted(dup))}")
    return tuple(sorted(found, key=lambda d: (d.order, d.title)))


def all_games() -> tuple[GameDescriptor, ...]:
    """Every registered game, in launcher order (discovered once)."""
    global _found
    if _override is not None:
        return _override
    with _lock:
        if _found is None:
            _found = discover()
        return _found


@contextlib.contextmanager
def override(descriptors: Sequence[GameDescriptor]) -> Iterator[None]:
    """Register exactly ``descriptors`` for the duration of a ``with`` block (tests)."""
    global _override
    before = _override
    _override = tuple(descriptors)
    try:
        yield
    finally:
        _override = before


def find_game(name: str) -> GameDescriptor:
    """The game with id or alias ``name`` (case-insensitive); KeyError lists the choices."""
    key = name.strip().lower()
    for game in all_games():
        if key == game.id or key in game.aliases:
            return game
    choices = ", ".join(g.id for g in all_games())
    raise KeyError(f"unknown game {name!r}; choose one of: {choices}")


def prefetch(games: Sequence[GameDescriptor], ready: Callable[[], bool],
             poll_seconds: float = 0.02) -> threading.Thread:
    """Import the games' modules in a background thread once ``ready()`` holds.

    Opening a game imports its code (and numpy) on the first click: a third of a
    second with the window frozen. Done here after the launcher's first frame, that
    wait is gone before the player picks a game. A module that fails to import is
    left alone: the click imports it again and reports the error where it is seen.
    """

    def work() -> None:
        while not ready():
            time.sleep(poll_seconds)
        for game in games:
            for name in game.modules():
                if name in sys.modules:
                    continue
                try:
                    importlib.import_module(name)
                except Exception:  # noqa: BLE001 - reported when the game is opened
                    continue

    thread = threading.Thread(target=work, name="prefetch-games", daemon=True)
    thread.start()
    return thread
