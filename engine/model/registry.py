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
from dataclasses import dataclass

from engine.core.i18n import N_, Phrase
from engine.model.descriptor import DescriptorError, GameDescriptor

DESCRIPTOR_MODULE = "descriptor"
_found: tuple[GameDescriptor, ...] | None = None
_problems: tuple[LoadProblem, ...] = ()
_override: tuple[GameDescriptor, ...] | None = None
_lock = threading.Lock()


@dataclass(frozen=True)
class LoadProblem:
    """A game that could not be loaded: ``game`` (its id, else its package), the
    descriptor ``field`` at fault (None when the package itself failed) and what is wrong."""

    game: str
    field: str | None
    problem: str

    @property
    def detail(self) -> str:
        """What is wrong, with the field: ``field 'preview': must be …``."""
        return f"field {self.field!r}: {self.problem}" if self.field else self.problem

    @property
    def text(self) -> str:
        """The whole message, in English (stderr, logs)."""
        return f"Game {self.game} could not be loaded: {self.detail}"

    def phrase(self) -> Phrase:
        """The message for a notice, in the player's language (the detail is the
        developer's English)."""
        return Phrase(N_("Game {game} could not be loaded: {problem}"), game=self.game,
                      problem=self.detail)


@dataclass(frozen=True)
class Discovery:
    """The games found (launcher order) and the ones that could not be loaded."""

    games: tuple[GameDescriptor, ...]
    problems: tuple[LoadProblem, ...]


def games_package() -> str:
    """The package whose sub-packages are games."""
    return os.environ.get("ARCADE_GAMES_PACKAGE", "games")


def _failure(package: str, exc: BaseException) -> LoadProblem:
    """The problem of a game package whose descriptor module raised ``exc``."""
    if isinstance(exc, DescriptorError):
        return LoadProblem(exc.game, exc.field, exc.problem)
    return LoadProblem(package, None, f"{type(exc).__name__}: {str(exc)[:300]}")


def discover_all(package: str | None = None) -> Discovery:
    """Import ``<package>.<each sub-package>.descriptor`` and collect their ``DESCRIPTORS``.

    A package without a descriptor module is not a game and is skipped. A game that breaks
    the contract never takes the others down: a descriptor module that fails to import (a
    :class:`~engine.model.descriptor.DescriptorError` names the game and the field), a
    ``DESCRIPTORS`` that is not a tuple of descriptors, or an id or alias another game
    already has, is left out and kept as a :class:`LoadProblem`.
    """
    root = importlib.import_module(package or games_package())
    found: list[GameDescriptor] = []
    problems: list[LoadProblem] = []
    taken: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(root.__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        name = f"{root.__name__}.{info.name}.{DESCRIPTOR_MODULE}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            problems.append(_failure(info.name, exc))
            continue
        except Exception as exc:  # noqa: BLE001 - any mistake in a game is that game's
            problems.append(_failure(info.name, exc))
            continue
        declared = getattr(module, "DESCRIPTORS", None)
        if not isinstance(declared, (tuple, list)) or not all(
                isinstance(d, GameDescriptor) for d in declared):
            problems.append(LoadProblem(info.name, "DESCRIPTORS", "must be a tuple of "
                                        f"GameDescriptor, not {declared!r:.80}"))
            continue
        for game in declared:
            clash = next((n for n in (game.id, *game.aliases) if n in taken), None)
            if clash is not None:
                problems.append(LoadProblem(game.id, "id" if clash == game.id else "aliases",
                                            f"{clash!r} is already a name of {taken[clash]}"))
                continue
            taken.update(dict.fromkeys((game.id, *game.aliases), game.id))
            found.append(game)
    return Discovery(tuple(sorted(found, key=lambda d: (d.order, d.title))), tuple(problems))


def discover(package: str | None = None) -> tuple[GameDescriptor, ...]:
    """The games of :func:`discover_all`, in launcher order (the broken ones left out)."""
    return discover_all(package).games


def all_games() -> tuple[GameDescriptor, ...]:
    """Every registered game, in launcher order (discovered once)."""
    global _found, _problems
    if _override is not None:
        return _override
    with _lock:
        if _found is None:
            found = discover_all()
            _found, _problems = found.games, found.problems
        return _found


def problems() -> tuple[LoadProblem, ...]:
    """The games :func:`all_games` had to leave out, and why (none under :func:`override`)."""
    if _override is not None:
        return ()
    all_games()
    return _problems


def reset() -> None:
    """Forget the discovered games, so the next :func:`all_games` discovers again (tests
    pointing ``ARCADE_GAMES_PACKAGE`` elsewhere)."""
    global _found, _problems
    with _lock:
        _found, _problems = None, ()


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
