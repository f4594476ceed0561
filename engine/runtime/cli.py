"""Command line: the same for ``python main.py`` and the packaged executable.

Subcommands are laid out so later families add theirs beside ``play``
(``solve``, ``analyze`` and a game's own commands). Bad options get argparse's usage message
on stderr and exit code 2, never a traceback.

Every command's handler runs through :func:`run_command`, which makes the
standard streams safe: a reader that closes the pipe early (``| head``) ends
the command quietly with exit 0; a full or closed standard output gives one
line on stderr and exit 1; a closed or unreadable standard input (see
:func:`read_stdin`) gives one line and exit 2. Numbers on the command line
follow :mod:`engine.core.numbers`: ASCII digits only.

Every numeric option's type states the range it enforces (:func:`stated_range`), and
its --help text is written from that same statement. A usage error a command finds
after parsing (``solve mnk --k 4`` on a 3×3 board) is reported by that command's own
parser, so the usage line names the command: handlers receive it as ``parser``.
``play`` takes every game's id and aliases, listed in --help from the registry.

``main(family=ID)`` is the entry point of a one-family executable
(``arcade-<id>``, built by ``build/build.py --family``): the same global
options, that family's own commands and no ``play``; it opens the family's game
directly, and ``--smoke`` opens only that family's games.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
import tempfile
import textwrap
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from engine import __version__
from engine.core.console import discard, say
from engine.core.numbers import RULE, parse_decimal, parse_whole

if TYPE_CHECKING:
    from engine.model.descriptor import GameDescriptor

PROG = "arcade"
#: The largest --max-table a player may ask for (about 20 GB of memory).
MAX_ENTRIES_LIMIT = 100_000_000
#: --window's range, in pixels each way.
MIN_WINDOW, MAX_WINDOW = 320, 7680
#: The longest time limit in seconds (a day); the shortest is anything more than 0.
MAX_SECONDS = 86400
#: The namespace attribute that holds the parser of the command being run.
COMMAND_PARSER = "command_parser"
NUMBERS_RULE = (f"Numbers are written with {RULE}; seconds may have one decimal point, "
                "e.g. 1.5.")


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout, but never breaking a line inside a hyphenated word:
    hyphenated game names are typed as they are shown."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent,
                             subsequent_indent=indent, break_on_hyphens=False)


class ArgumentParser(argparse.ArgumentParser):
    """argparse with a friendlier error line (still exit 2, usage on stderr) and help
    that keeps hyphenated names whole; subcommands' parsers are of this class too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        """Print this parser's usage and ``message`` on stderr, then exit 2.

        A subcommand's prog is "arcade solve mnk": its usage and its own --help are
        the ones that explain the mistake.
        """
        # Through say(), never print_usage(sys.stderr): with stderr closed sys.stderr is None,
        # and argparse then prints the usage on stdout (and with stdout closed too, writing
        # it failed and the exit was 1, not 2).
        say(self.format_usage().rstrip("\n"))
        say(f"{self.prog}: error: {message}\nTry '{self.prog} --help' for more.")
        raise SystemExit(2)


# --- option types -----------------------------------------------------------------------

_Parse = TypeVar("_Parse", bound=Callable[[str], Any])


def states_range(parse: _Parse, low: float, high: float, text: str | None = None,
                 low_inclusive: bool = True) -> _Parse:
    """Mark the argparse type ``parse`` with the range of numbers it accepts.

    ``low`` and ``high`` are the numbers the type itself enforces (``low`` itself is
    refused when ``low_inclusive`` is False); ``text`` is how --help states the range
    (default "LOW to HIGH"). An option's help is written from :func:`stated_range`, and
    the tests check both that the help says it and that the type enforces it.
    """
    marked: Any = parse
    marked.range_low, marked.range_high = low, high
    marked.range_low_inclusive = low_inclusive
    marked.range_text = text if text is not None else f"{low} to {high}"
    return parse


def stated_range(parse: Any) -> str | None:
    """The range the argparse type ``parse`` enforces, in --help's words (None: it states
    none, so it is not a number type)."""
    return getattr(parse, "range_text", None)


def _dump_file(text: str) -> Path:
    """``--dump-state FILE`` (test-only): a file in a folder that exists, checked before the
    window opens (it was a traceback at the first frame)."""
    path = Path(text)
    folder = path.parent
    try:
        usable = os.path.isdir(folder) and not os.path.isdir(path)
    except ValueError:  # a NUL in the name
        usable = False
    if not usable:
        raise argparse.ArgumentTypeError(
            f"cannot write {text!r}: {os.fspath(folder)!r} is not a folder that exists"
            if not os.path.isdir(folder) else f"cannot write {text!r}: it is a folder")
    return path


def _window_size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    try:
        if len(parts) != 2:
            raise ValueError(text)
        w, h = (parse_whole(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected WIDTHxHEIGHT such as 960x720 ({RULE}), got {text!r}") from None
    if not (MIN_WINDOW <= w <= MAX_WINDOW and MIN_WINDOW <= h <= MAX_WINDOW):
        raise argparse.ArgumentTypeError(
            f"window size must be {MIN_WINDOW}..{MAX_WINDOW} each way, got {text!r}")
    return (w, h)


states_range(_window_size, MIN_WINDOW, MAX_WINDOW, f"{MIN_WINDOW} to {MAX_WINDOW} each way")


def int_in(low: int, high: int, upper: str | None = None) -> Any:
    """An argparse type: a whole number from ``low`` to ``high`` (ASCII digits only).

    ``upper`` names a smaller high end that the command checks after parsing (e.g.
    "the longer side"): --help then states "LOW to UPPER, at most HIGH".
    """

    def parse(text: str) -> int:
        try:
            value = parse_whole(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, got {value}")
        return value

    text = None if upper is None else f"{low} to {upper}, at most {high}"
    return states_range(parse, low, high, text)


def positive_seconds(text: str) -> float:
    """An argparse type: seconds, more than 0 and at most a day ("1.5": one decimal point,
    ASCII digits only; no sign, exponent, inf or nan)."""
    try:
        value = parse_decimal(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds such as 1.5 ({RULE}, at most one decimal point), "
            f"got {text!r}") from None
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"must be more than 0 and at most {MAX_SECONDS}, got {text}")
    return value


#: --help's words for :func:`positive_seconds`'s range.
SECONDS_RANGE = f"more than 0, at most {MAX_SECONDS}"
states_range(positive_seconds, 0, MAX_SECONDS, SECONDS_RANGE, low_inclusive=False)


def add_table_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--max-table ENTRIES``: the search's transposition-table cap (``args.max_table``).

    The default is the search's own bounded default, stated in --help with the
    memory it takes.
    """
    from engine.ai.negamax import BYTES_PER_ENTRY, DEFAULT_MAX_ENTRIES

    megabytes = DEFAULT_MAX_ENTRIES * BYTES_PER_ENTRY / 1e6
    entries = int_in(0, MAX_ENTRIES_LIMIT)
    parser.add_argument(
        "--max-table", type=entries, default=DEFAULT_MAX_ENTRIES,
        metavar="ENTRIES",
        help=f"remember at most this many positions while searching (default "
             f"{DEFAULT_MAX_ENTRIES}, about {megabytes:.0f} MB; {stated_range(entries)}); "
             "more can be faster on a big board, if there is the memory for it")


def _profile_dir(text: str) -> str | None:
    """An argparse type for --profile: None for an empty or blank DIR (the default
    folders); a usage error for a ``~user`` that does not exist and for a file (or a
    path through a file) where the folder should be. Nothing is created here."""
    from engine.storage.paths import ProfileError, is_unset, profile_folder

    if is_unset(text):
        return None
    try:
        profile_folder(text)
    except ProfileError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


# --- the parser -------------------------------------------------------------------------


def build_parser(family: GameDescriptor | None = None) -> ArgumentParser:
    """The argument parser (exposed for tests and for later subcommands).

    With ``family``, the parser of that family's own executable: the same global
    options, only that family's commands, and no ``play`` (the game opens anyway).
    """
    from engine.model.registry import all_games

    games = all_games()
    families = games if family is None else (family,)
    if family is None:
        parser = ArgumentParser(
            prog=PROG,
            description="Arcade of Strategy: " + ", ".join(g.title for g in games) + ".",
            epilog="With no command the launcher opens. Settings and statistics live in your "
                   "per-user folders unless --profile (or ARCADE_PROFILE) names another; an "
                   "empty one means the per-user folders. " + NUMBERS_RULE,
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
                   "unless --profile (or ARCADE_PROFILE) names another; an empty one means "
                   "the per-user folders. " + NUMBERS_RULE,
        )
        version = f"Arcade of Strategy {__version__} ({family.title})"
        smoke_help = (f"open every {family.title} game headlessly, draw a few frames, "
                      "exit 0 if all is well")
    parser.add_argument("--version", action="version", version=version)
    parser.add_argument("--profile", metavar="DIR", type=_profile_dir,
                        help="keep settings and statistics in DIR (env: ARCADE_PROFILE); an "
                             "empty DIR means the default folders")
    parser.add_argument("--smoke", action="store_true", help=smoke_help)
    parser.add_argument("--window", metavar="WxH", type=_window_size,
                        help=f"window size for this run, e.g. 1280x960 "
                             f"({stated_range(_window_size)})")
    # Test-only: write the scene stack's state as JSON after every frame.
    parser.add_argument("--dump-state", metavar="FILE", type=_dump_file, help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    if family is None:
        listed = game_names(games)
        play = sub.add_parser("play", help=f"open one game directly; GAME is one of: {listed}",
                              description="Open one game directly, skipping the launcher.")
        names = [g.id for g in games] + [a for g in games for a in g.aliases]
        play.add_argument("game", metavar="GAME", choices=names, help=f"one of: {listed}")
    groups = {}
    # Shared groups only where a family fills them: an empty "solve" would be a dead end.
    wanted = _shared_groups(families)
    if "solve" in wanted:
        solve = sub.add_parser("solve", help="solve a game or puzzle and print the answer",
                               description="Solve a game or puzzle and print the answer.",
                               epilog=NUMBERS_RULE)
        groups["solve"] = solve.add_subparsers(dest="puzzle", metavar="WHAT", required=True)
    if "analyze" in wanted:
        analyze = sub.add_parser("analyze", help="print facts about a game's sizes",
                                 description="Print facts about a game's board sizes.",
                                 epilog=NUMBERS_RULE)
        groups["analyze"] = analyze.add_subparsers(dest="analysis", metavar="WHAT",
                                                   required=True)
    reviewed = [g for g in families if g.kind == "two-player" and g.hints is not None]
    if reviewed:
        from engine.runtime.review_command import add_review_parser

        add_review_parser(sub, reviewed, positive_seconds, SECONDS_RANGE, read_stdin)
    for each in families:
        each.add_cli(sub, groups)  # each family adds its own commands
    _remember_command_parsers(parser)
    return parser


def game_names(games: Sequence[GameDescriptor]) -> str:
    """Every name ``play`` takes, for --help: each game's id with its aliases, e.g.
    "chess (also xiangqi-lite), go"."""
    return ", ".join(f"{g.id} (also {', '.join(g.aliases)})" if g.aliases else g.id
                     for g in games)


def _remember_command_parsers(parser: argparse.ArgumentParser) -> None:
    """Give every command (a parser with a ``handler``) its own parser as a default, so an
    error its handler finds after parsing shows that command's usage, not the program's."""
    for action in parser._actions:  # argparse keeps subcommands here; there is no API
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                if command.get_default("handler") is not None:
                    command.set_defaults(**{COMMAND_PARSER: command})
                _remember_command_parsers(command)


def _shared_groups(families: Sequence[GameDescriptor]) -> set[str]:
    """Which of the shared command groups (``solve``, ``analyze``) ``families`` add to."""
    import importlib

    modules = [importlib.import_module(f.cli) for f in families if f.cli is not None]
    return {group for group in ("solve", "analyze")
            if any(hasattr(module, f"add_{group}_parsers") for module in modules)}


# --- safe standard streams --------------------------------------------------------------


class InputError(Exception):
    """Standard input could not be read (closed, unreadable, not text): exit 2."""


class _OutputFailed(Exception):
    """Writing the answer on standard output failed; ``reason`` says why."""

    def __init__(self, reason: str, broken_pipe: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.broken_pipe = broken_pipe

    @classmethod
    def from_error(cls, exc: OSError) -> _OutputFailed:
        broken = isinstance(exc, BrokenPipeError) or exc.errno == errno.EPIPE
        return cls(exc.strerror or str(exc), broken)


CLOSED_STDOUT = "standard output is closed"


class _GuardedOutput:
    """Stands in for ``sys.stdout`` while a command runs: every failure to write or
    flush becomes :class:`_OutputFailed`, so it is told apart from the command's own
    errors (an OSError reading some file must not be called a failed answer)."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream
        self.wrote = False

    def _real(self) -> TextIO:
        if self._stream is None:  # started with fd 1 closed: Python gives None
            raise _OutputFailed(CLOSED_STDOUT)
        return self._stream

    def write(self, text: str) -> int:
        """Write ``text`` (see the class)."""
        stream = self._real()
        self.wrote = True
        try:
            return stream.write(text)
        except ValueError as exc:  # the stream object itself was closed
            raise _OutputFailed(CLOSED_STDOUT) from exc
        except OSError as exc:
            raise _OutputFailed.from_error(exc) from exc

    def writelines(self, lines: Sequence[str]) -> None:
        """Write each of ``lines``."""
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        """Flush the real stream (see the class)."""
        stream = self._real()
        try:
            stream.flush()
        except ValueError as exc:
            raise _OutputFailed(CLOSED_STDOUT) from exc
        except OSError as exc:
            raise _OutputFailed.from_error(exc) from exc

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)  # hasattr() stays a question, not a failure
        return getattr(self._stream, name)


def read_stdin(what: str, limit: int) -> str:
    """At most ``limit`` characters of standard input, for a command reading ``what``
    (e.g. "the code") from ``-``.

    Raises :class:`InputError` (one line on stderr, exit 2 through :func:`run_command`)
    when standard input is closed, cannot be read or is not text. Reading is bounded,
    so an endless or huge input costs at most ``limit`` characters of memory.
    """
    stream = sys.stdin
    if stream is None:  # started with fd 0 closed
        raise InputError(f"could not read {what}: standard input is closed")
    try:
        return stream.read(limit)
    except UnicodeDecodeError:
        raise InputError(f"could not read {what}: standard input is not text") from None
    except ValueError:  # the stream object was closed
        raise InputError(f"could not read {what}: standard input is closed") from None
    except OSError as exc:
        raise InputError(f"could not read {what} from standard input: "
                         f"{exc.strerror or exc}") from None


def run_command(action: Callable[[], int], answers: bool = True) -> int:
    """Run ``action`` (a command; returns its exit code) with safe standard streams.

    ``answers``: the command's output is its answer, so a closed standard output
    is a failure even when the answer is empty (False: only what was written must
    arrive). The answer is flushed inside, so a failure to deliver it is caught here:
    a closed pipe (the reader had enough, e.g. ``| head -1``) is exit 0 with no
    message; any other write failure (a full disk, a closed stdout) is one line
    on stderr and exit 1; an :class:`InputError` is one line and exit 2; Ctrl+C
    is exit 130 without a traceback. argparse's exits (usage errors, --help) pass
    through with their own code once their text has been flushed.
    """
    real = sys.stdout
    guard = _GuardedOutput(real)
    sys.stdout = guard  # type: ignore[assignment]
    try:
        try:
            code = action()
        except SystemExit as stop:
            if stop.code in (0, None) and guard.wrote:
                guard.flush()  # --help or --version: their text is the answer
            raise
        if answers or guard.wrote:
            guard.flush()  # even an empty answer needs somewhere to go
        return code
    except _OutputFailed as failure:
        discard(real)  # what is still buffered must not fail again at exit
        if failure.broken_pipe:
            return 0
        say(f"{PROG}: could not write the answer: {failure.reason}")
        return 1
    except BrokenPipeError:  # stdout reached around the guard (its buffer, a C library)
        discard(real)
        return 0
    except InputError as exc:
        say(f"{PROG}: {exc}")
        return 2
    except KeyboardInterrupt:
        say(f"{PROG}: interrupted")
        return 130
    finally:
        sys.stdout = real


def _reserve_standard_fds() -> None:
    """Open the null device on any of fds 0-2 that the process started without.

    Otherwise the next file opened (the statistics database, say) takes the
    number, and anything written to "standard output" by a library lands in it.
    Python has already set the matching ``sys.std*`` to None, which is how the
    commands still know the stream was closed.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
            except OSError:
                return
            if null != fd:  # lower numbers are all open, so this only happens on a race
                os.close(null)


# --- running ----------------------------------------------------------------------------


def _open_stores(profile: str | None, stats_later: bool = False
                 ) -> tuple[object, object, list[str]]:
    """The settings and statistics stores of ``profile`` (None: ARCADE_PROFILE, then the
    per-user folders) and the notices the app shows: where the profile is when that is
    surprising, then what was found opening the stores. Raises ProfileError for an
    ARCADE_PROFILE that cannot be used.

    ``stats_later``: the statistics store is returned unopened, for the app's statistics
    worker to open off the frame loop (another program holding the file must not delay
    the window); what the opening finds comes through the worker's notices."""
    from engine.storage.paths import resolve_profile
    from engine.storage.settings import SettingsStore
    from engine.storage.stats import StatsStore

    paths = resolve_profile(profile)
    notices = [paths.notice] if paths.notice else []
    settings = SettingsStore(paths.settings_file)
    notices += settings.load()
    stats = StatsStore(paths.stats_file)
    if not stats_later:
        notices += stats.open()
    return settings, stats, notices


def main(argv: Sequence[str] | None = None, family: str | None = None) -> int:
    """Parse arguments and run; returns the process exit code.

    ``family`` (an id or alias from the registry) makes this the entry point of
    that family's own executable; None is the whole arcade.
    """
    from engine.model.registry import find_game
    from engine.model.registry import problems as registry_problems

    _reserve_standard_fds()
    only = None if family is None else find_game(family)
    parser = build_parser(only)
    parsed: list[argparse.Namespace] = []

    def parse() -> int:
        parsed.append(parser.parse_args(argv))
        return 0

    try:
        code = run_command(parse, answers=False)  # --help and --version write on stdout too
    finally:
        handler = getattr(parsed[0], "handler", None) if parsed else None
        if not parsed or handler is not None:
            # Games left out, on stderr (the launcher and --smoke tell of them themselves).
            for problem in registry_problems():
                say(f"{PROG}: {problem.text}")
    if not parsed:
        return code
    args = parsed[0]
    if handler is not None:
        # The command's own parser: its usage errors show its usage line.
        command = getattr(args, COMMAND_PARSER, parser)
        return run_command(lambda: int(handler(command, args)))
    if args.smoke:
        return run_smoke(args.profile, None if only is None else (only,))
    return run_app(args, only)


def run_app(args: argparse.Namespace, family: GameDescriptor | None = None) -> int:
    """Open the window with the launcher (or the game named by ``play``).

    With ``family`` (a one-family executable) the launcher shows only that family
    and its game opens on top: Esc or Back leads to that small launcher, which
    keeps statistics, palette, help and Quit within reach.
    """
    from engine.storage.paths import PROFILE_ENV, ProfileError

    try:
        settings, stats, notices = _open_stores(args.profile, stats_later=True)
    except ProfileError as exc:  # --profile was checked by the parser: this is the variable
        say(f"{PROG}: error: {PROFILE_ENV}: {exc}")
        return 2
    import pygame

    from engine.model.registry import all_games, find_game, prefetch
    from engine.runtime.app import App
    from engine.screens.launcher import LauncherScene
    from engine.screens.loading_scene import LoadingScene
    from engine.storage.saved_games import is_large, open_game

    def opened(game: GameDescriptor) -> Any:
        """The game left last time, resumed (a big one off the frame loop, "Loading…")."""
        return LoadingScene(app, game) if is_large(app, game) else open_game(app, game)

    app = App(settings, stats, notices, window_size=args.window,  # type: ignore[arg-type]
              dump_state=args.dump_state)
    if family is not None:
        app.show_caption(family.title)  # in the player's language
        app.push(LauncherScene(app, (family,)))
        app.push(opened(family))  # the game left last time, resumed
    else:
        app.push(LauncherScene(app))
        if args.command == "play":
            app.push(opened(find_game(args.game)))
    # Once the first frame is drawn, the games' modules load in the background.
    prefetch((family,) if family is not None else all_games(), lambda: app.frames > 0)
    restore = app.quit_on_signals()  # HUP, INT, QUIT, TERM: the same clean quit
    try:
        app.run()
    finally:
        restore()
        # Results a busy or full file never took are written beside it now: say where.
        # The worker writes what is queued first (engine/storage/stats_worker.py).
        closing = app.stats.close()
        if closing:
            say(f"{PROG}: {closing}")
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
            from engine.runtime.smoke import smoke_all

            opened = smoke_all(settings, stats, notices, families=families)
        except Exception as exc:
            say("".join(traceback.format_exc()).rstrip("\n"))
            say(f"smoke: FAILED: {exc}")
            return 1
        finally:
            stats.close()  # type: ignore[attr-defined]
    def report() -> int:
        print(f"smoke: ok ({', '.join(opened)})")
        return 0

    return run_command(report)
