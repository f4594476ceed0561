"""Command line: the same for ``python main.py`` and the packaged executable.

Subcommands are laid out so later families add theirs beside ``play``
(``solve``, ``grundy``, ``analyze``). Bad options get argparse's usage message
on stderr and exit code 2, never a traceback.

``main(family=ID)`` is the entry point of a one-family executable
(``arcade-tictactoe``, built by ``build/build.py --family``): the same global
options, that family's own commands and no ``play``; it opens the family's game
directly, and ``--smoke`` opens only that family's games.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import __version__

if TYPE_CHECKING:
    from engine.descriptor import GameDescriptor

PROG = "arcade"


class ArgumentParser(argparse.ArgumentParser):
    """argparse with a friendlier error line (still exit 2, usage on stderr)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        # A subcommand's prog is "arcade play"; point at the program's own --help.
        program = self.prog.split()[0]
        self.exit(2, f"{self.prog}: error: {message}\nTry '{program} --help' for more.\n")


def _window_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected WIDTHxHEIGHT such as 960x720, got {text!r}") from None
    if not (320 <= w <= 7680 and 320 <= h <= 7680):
        raise argparse.ArgumentTypeError(f"window size must be 320..7680 each way, got {text!r}")
    return (w, h)


def int_in(low: int, high: int) -> Any:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, got {value}")
        return value

    return parse


def positive_seconds(text: str) -> float:
    """An argparse type: seconds, more than 0 and at most a day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value <= 86400 or value != value:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 86400, got {text}")
    return value


def build_parser(family: GameDescriptor | None = None) -> ArgumentParser:
    """The argument parser (exposed for tests and for later subcommands).

    With ``family``, the parser of that family's own executable: the same global
    options, only that family's commands, and no ``play`` (the game opens anyway).
    """
    from engine.registry import all_games

    games = all_games()
    families = games if family is None else (family,)
    if family is None:
        parser = ArgumentParser(
            prog=PROG,
            description="Arcade of Strategy: " + ", ".join(g.title for g in games) + ".",
            epilog="With no command the launcher opens. Settings and statistics live in your "
                   "per-user folders unless --profile (or ARCADE_PROFILE) names another.",
        )
        version = f"Arcade of Strategy {__version__}"
        smoke_help = "open every game headlessly, draw a few frames, exit 0 if all is well"
    else:
        parser = ArgumentParser(
            prog=f"{PROG}-{family.id}",
            description=f"{family.title}, from Arcade of Strategy. {family.blurb}",
            epilog=f"With no command {family.title} opens; Esc or Back leads to its home "
                   "screen (statistics, palette, Quit). Settings and statistics are shared "
                   "with the full Arcade of Strategy: they live in your per-user folders "
                   "unless --profile (or ARCADE_PROFILE) names another.",
        )
        version = f"Arcade of Strategy {__version__} ({family.title})"
        smoke_help = (f"open every {family.title} game headlessly, draw a few frames, "
                      "exit 0 if all is well")
    parser.add_argument("--version", action="version", version=version)
    parser.add_argument("--profile", metavar="DIR",
                        help="keep settings and statistics in DIR (env: ARCADE_PROFILE)")
    parser.add_argument("--smoke", action="store_true", help=smoke_help)
    parser.add_argument("--window", metavar="WxH", type=_window_size,
                        help="window size for this run, e.g. 1280x960")
    # Test-only: write the scene stack's state as JSON after every frame.
    parser.add_argument("--dump-state", metavar="FILE", type=Path, help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    if family is None:
        play = sub.add_parser("play", help="open one game directly",
                              description="Open one game directly, skipping the launcher.")
        names = [g.id for g in games] + [a for g in games for a in g.aliases]
        play.add_argument("game", metavar="GAME", choices=names,
                          help="one of: " + ", ".join(g.id for g in games))
    groups = {}
    # Shared groups only where a family fills them: an empty "solve" would be a dead end.
    wanted = _shared_groups(families)
    if "solve" in wanted:
        solve = sub.add_parser("solve", help="solve a game or puzzle and print the answer",
                               description="Solve a game or puzzle and print the answer.")
        groups["solve"] = solve.add_subparsers(dest="puzzle", metavar="WHAT", required=True)
    if "analyze" in wanted:
        analyze = sub.add_parser("analyze", help="print facts about a game's sizes",
                                 description="Print facts about a game's board sizes.")
        groups["analyze"] = analyze.add_subparsers(dest="analysis", metavar="WHAT",
                                                   required=True)
    for each in families:
        each.add_cli(sub, groups)  # each family adds its own commands
    return parser


def _shared_groups(families: Sequence[GameDescriptor]) -> set[str]:
    """Which of the shared command groups (``solve``, ``analyze``) ``families`` add to."""
    import importlib

    modules = [importlib.import_module(f.cli) for f in families if f.cli is not None]
    return {group for group in ("solve", "analyze")
            if any(hasattr(module, f"add_{group}_parsers") for module in modules)}


def _open_stores(profile: str | None) -> tuple[object, object, list[str]]:
    from engine.storage.paths import resolve_profile
    from engine.storage.settings import SettingsStore
    from engine.storage.stats import StatsStore

    paths = resolve_profile(profile)
    settings = SettingsStore(paths.settings_file)
    notices = list(settings.load())
    stats = StatsStore(paths.stats_file)
    notices += stats.open()
    return settings, stats, notices


def main(argv: Sequence[str] | None = None, family: str | None = None) -> int:
    """Parse arguments and run; returns the process exit code.

    ``family`` (an id or alias from the registry) makes this the entry point of
    that family's own executable; None is the whole arcade.
    """
    from engine.registry import find_game

    only = None if family is None else find_game(family)
    parser = build_parser(only)
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is not None:
        return int(args.handler(parser, args))
    if args.smoke:
        return run_smoke(args.profile, None if only is None else (only,))
    return run_app(args, only)


def run_app(args: argparse.Namespace, family: GameDescriptor | None = None) -> int:
    """Open the window with the launcher (or the game named by ``play``).

    With ``family`` (a one-family executable) the launcher shows only that family
    and its game opens on top: Esc or Back leads to that small launcher, which
    keeps statistics, palette, help and Quit within reach.
    """
    settings, stats, notices = _open_stores(args.profile)
    import pygame

    from engine.app import TITLE, App
    from engine.launcher import LauncherScene
    from engine.registry import all_games, find_game, prefetch
    from engine.saved_games import open_game

    app = App(settings, stats, notices, window_size=args.window,  # type: ignore[arg-type]
              dump_state=args.dump_state)
    if family is not None:
        pygame.display.set_caption(f"{family.title} · {TITLE}")
        app.push(LauncherScene(app, (family,)))
        app.push(open_game(app, family))  # the game left last time, resumed
    else:
        app.push(LauncherScene(app))
        if args.command == "play":
            app.push(open_game(app, find_game(args.game)))
    # Once the first frame is drawn, the games' modules load in the background.
    prefetch((family,) if family is not None else all_games(), lambda: app.frames > 0)
    try:
        app.run()
    finally:
        stats.close()  # type: ignore[attr-defined]
        pygame.quit()
    return 0


def run_smoke(profile: str | None, families: Sequence[GameDescriptor] | None = None) -> int:
    """Open every available game (of ``families``, default all) headlessly and draw
    frames; 0 when all went well."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    with tempfile.TemporaryDirectory(prefix="arcade-smoke-") as tmp:
        # A smoke run never touches the player's own settings or statistics.
        settings, stats, notices = _open_stores(profile or tmp)
        try:
            from engine.smoke import smoke_all

            opened = smoke_all(settings, stats, notices, families=families)
        except Exception as exc:
            traceback.print_exc()
            print(f"smoke: FAILED: {exc}", file=sys.stderr)
            return 1
        finally:
            stats.close()  # type: ignore[attr-defined]
    print(f"smoke: ok ({', '.join(opened)})")
    return 0
