"""Command line: the same for ``python main.py`` and the packaged executable.

Subcommands are laid out so later families add theirs beside ``play``
(``solve``, ``grundy``, ``analyze``). Bad options get argparse's usage message
on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine import __version__

PROG = "arcade"


class ArgumentParser(argparse.ArgumentParser):
    """argparse with a friendlier error line (still exit 2, usage on stderr)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\nTry '{PROG} --help' for more.\n")


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


def build_parser() -> ArgumentParser:
    """The argument parser (exposed for tests and for later subcommands)."""
    from engine.registry import FAMILIES

    parser = ArgumentParser(
        prog=PROG,
        description="Arcade of Strategy: tic-tac-toe, Grundy games and Button Madness.",
        epilog="With no command the launcher opens. Settings and statistics live in your "
               "per-user folders unless --profile (or ARCADE_PROFILE) names another.",
    )
    parser.add_argument("--version", action="version", version=f"Arcade of Strategy {__version__}")
    parser.add_argument("--profile", metavar="DIR",
                        help="keep settings and statistics in DIR (env: ARCADE_PROFILE)")
    parser.add_argument("--smoke", action="store_true",
                        help="open every game headlessly, draw a few frames, exit 0 if all is well")
    parser.add_argument("--window", metavar="WxH", type=_window_size,
                        help="window size for this run, e.g. 1280x960")
    # Test-only: write the scene stack's state as JSON after every frame.
    parser.add_argument("--dump-state", metavar="FILE", type=Path, help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    play = sub.add_parser("play", help="open one game directly",
                          description="Open one game directly, skipping the launcher.")
    names = [f.id for f in FAMILIES] + [a for f in FAMILIES for a in f.aliases]
    play.add_argument("game", metavar="GAME", choices=names,
                      help="one of: " + ", ".join(f.id for f in FAMILIES))
    solve = sub.add_parser("solve", help="solve a game or puzzle and print the answer",
                           description="Solve a game or puzzle and print the answer.")
    analyze = sub.add_parser("analyze", help="print facts about a game's sizes",
                             description="Print facts about a game's board sizes.")
    groups = {"solve": solve.add_subparsers(dest="puzzle", metavar="WHAT", required=True),
              "analyze": analyze.add_subparsers(dest="analysis", metavar="WHAT",
                                                required=True)}
    for family in FAMILIES:
        family.add_cli(sub, groups)  # each family adds its own commands
    return parser


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


def main(argv: Sequence[str] | None = None) -> int:
    """Parse arguments and run; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "play":
        from engine.registry import find_family

        family = find_family(args.game)
        if not family.available:
            parser.error(f"{family.title} is coming soon and cannot be played yet")
    if getattr(args, "handler", None) is not None:
        return int(args.handler(parser, args))
    if args.smoke:
        return run_smoke(args.profile)
    return run_app(args)


def run_app(args: argparse.Namespace) -> int:
    """Open the window with the launcher (or the game named by ``play``)."""
    settings, stats, notices = _open_stores(args.profile)
    from engine.app import App
    from engine.launcher import LauncherScene
    from engine.registry import find_family

    app = App(settings, stats, notices, window_size=args.window,  # type: ignore[arg-type]
              dump_state=args.dump_state)
    app.push(LauncherScene(app))
    if args.command == "play":
        app.push(find_family(args.game).scene_class()(app))
    try:
        app.run()
    finally:
        stats.close()  # type: ignore[attr-defined]
        import pygame

        pygame.quit()
    return 0


def run_smoke(profile: str | None) -> int:
    """Open every available game headlessly and draw frames; 0 when all went well."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    with tempfile.TemporaryDirectory(prefix="arcade-smoke-") as tmp:
        # A smoke run never touches the player's own settings or statistics.
        settings, stats, notices = _open_stores(profile or tmp)
        try:
            from engine.smoke import smoke_all

            opened = smoke_all(settings, stats, notices)
        except Exception as exc:
            traceback.print_exc()
            print(f"smoke: FAILED: {exc}", file=sys.stderr)
            return 1
        finally:
            stats.close()  # type: ignore[attr-defined]
    print(f"smoke: ok ({', '.join(opened)})")
    return 0
