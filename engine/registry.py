"""The one place where the engine learns which games exist (for the launcher and CLI).

Entries name their scene and preview by import path, so the engine imports a
game's code only when that game is opened or drawn.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


def _load(path: str) -> Any:
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


@dataclass(frozen=True)
class GameFamily:
    """A launcher tile: a family of games, playable or announced."""

    id: str
    title: str
    description: str
    preview: str
    scene: str | None = None
    aliases: tuple[str, ...] = field(default=())
    # Module with ``add_commands(subparsers)`` and/or ``add_solve_parsers(subparsers)``
    # for command-line subcommands (each sets a ``handler`` default).
    cli: str | None = None
    # ``smoke(app, frames)`` opening each variant for --smoke; returns their names.
    smoke: str | None = None

    @property
    def available(self) -> bool:
        """Whether the family can be opened yet (otherwise it is "coming soon")."""
        return self.scene is not None

    def scene_class(self) -> Any:
        """The scene class that plays this family."""
        if self.scene is None:
            raise LookupError(f"{self.title} is coming soon and cannot be opened yet")
        return _load(self.scene)

    def add_cli(self, commands: Any, groups: dict[str, Any]) -> None:
        """Let the family add its own commands, and subcommands to the shared groups
        (``solve …``, ``analyze …``) through ``add_<group>_parsers`` functions."""
        if self.cli is None:
            return
        module = importlib.import_module(self.cli)
        if hasattr(module, "add_commands"):
            module.add_commands(commands)
        for group, parsers in groups.items():
            adder = getattr(module, f"add_{group}_parsers", None)
            if adder is not None:
                adder(parsers)

    def smoke_variants(self, app: Any, frames: Any) -> list[str]:
        """Open the family's variants for ``--smoke`` (none beyond the default if no hook)."""
        return _load(self.smoke)(app, frames) if self.smoke else []

    def preview_painter(self) -> Any:
        """``draw(surface, rect, palette)`` for the launcher tile's picture."""
        return _load(self.preview)

    def modules(self) -> tuple[str, ...]:
        """The modules this entry imports by name (scene, preview, CLI, smoke), in order.

        The build's import scan cannot see these string imports, so a one-family
        executable lists them (and their packages) as hidden imports.
        """
        paths = (self.scene, self.preview, self.cli, self.smoke)
        names = [path.partition(":")[0] for path in paths if path is not None]
        return tuple(dict.fromkeys(names))


FAMILIES: tuple[GameFamily, ...] = (
    GameFamily(
        id="tictactoe",
        title="Tic-tac-toe",
        description="Classic 3×3, bigger boards with k in a row, gomoku and three players; "
                    "human or computer in every seat, with hints.",
        preview="games.previews:draw_tictactoe",
        scene="games.tictactoe.scene:TicTacToeScene",
        aliases=("tic-tac-toe", "ttt"),
        cli="games.tictactoe.cli",
        smoke="games.tictactoe.scene:smoke_variants",
    ),
    GameFamily(
        id="grundy",
        title="Grundy games",
        description="King, Rook, Queen, Knight, Nim, Bachet and games with cycles; "
                    "the hint shows every position's Grundy value.",
        preview="games.previews:draw_grundy",
        scene="games.grundy.scenes:open_last",
        cli="games.grundy.cli",
        smoke="games.grundy.scenes:smoke_variants",
    ),
    GameFamily(
        id="button-madness",
        title="Button Madness",
        description="Lights Out on a torus: each press flips a button and its four "
                    "neighbours. Turn every button red.",
        preview="games.previews:draw_button_madness",
        scene="games.buttons.scene:ButtonMadnessScene",
        cli="games.buttons.cli",
        smoke="games.buttons.scene:smoke_variants",
        aliases=("buttons", "lights-out"),
    ),
)


def find_family(name: str) -> GameFamily:
    """The family with id or alias ``name`` (case-insensitive); KeyError lists the choices."""
    key = name.strip().lower()
    for family in FAMILIES:
        if key == family.id or key in family.aliases:
            return family
    raise KeyError(f"unknown game {name!r}; choose one of: {', '.join(f.id for f in FAMILIES)}")


def prefetch(families: Sequence[GameFamily], ready: Callable[[], bool],
             poll_seconds: float = 0.02) -> threading.Thread:
    """Import the families' modules in a background thread once ``ready()`` holds.

    Opening a game imports its code (and numpy) on the first click: a third of a
    second with the window frozen. Done here after the launcher's first frame, that
    wait is gone before the player picks a game. A module that fails to import is
    left alone: the click imports it again and reports the error where it is seen.
    """

    def work() -> None:
        while not ready():
            time.sleep(poll_seconds)
        for family in families:
            for name in family.modules():
                try:
                    importlib.import_module(name)
                except Exception:  # noqa: BLE001 - reported when the game is opened
                    continue

    thread = threading.Thread(target=work, name="prefetch-games", daemon=True)
    thread.start()
    return thread
