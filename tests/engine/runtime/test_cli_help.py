"""A command line without surprises (issue 15, item 4).

* ``--help`` and ``play --help`` list every name and alias ``play`` takes, from the
  registry;
* an error a command finds after parsing shows that command's usage, not the program's;
* every numeric option's --help states the range its type enforces (the check walks
  every parser, so a new option cannot slip by), and docs/cli.md, generated from that help
  by tools/make_docs.py, is current;
* ``--profile`` naming a file says so, exit 2, and changes nothing.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.model import registry
from engine.model.descriptor import GameDescriptor
from engine.runtime import cli
from engine.storage.paths import PROFILE_ENV, ProfileError, profile_folder, resolve_profile

ROOT = Path(__file__).resolve().parents[3]
MAIN = ROOT / "main.py"


def flat(text: str) -> str:
    """``text`` with every run of whitespace made one space (help is wrapped)."""
    return " ".join(text.split())


def run(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python main.py ARGS`` in a real process."""
    return subprocess.run([sys.executable, str(MAIN), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd,
                          env=env or dict(os.environ, SDL_VIDEODRIVER="dummy",
                                          SDL_AUDIODRIVER="dummy"))


Parsers = Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]


def parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Parsers:
    """(path, parser) of ``parser`` and every parser below it."""
    yield path, parser
    for action in parser._actions:  # argparse internals, as in test_cli
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, (*path, name))


def every_parser() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """The whole arcade's parsers and every one-family executable's."""
    for family in (None, *registry.all_games()):
        root = cli.build_parser(family)
        for path, parser in parsers(root):
            yield " ".join((root.prog, *path)), parser


def play_names() -> list[str]:
    return [name for game in registry.all_games() for name in (game.id, *game.aliases)]


# --- play: every name and alias, in --help -------------------------------------------------


def _listed(help_text: str, names: list[str]) -> None:
    text = flat(help_text)
    for name in names:
        assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text), (name, text)


@pytest.mark.slow
def test_help_lists_every_play_name_and_alias() -> None:
    names = play_names()
    assert {"tictactoe", "ttt", "tic-tac-toe", "c4", "lights-out"} <= set(names)
    top = run("--help")
    play = run("play", "--help")
    assert top.returncode == play.returncode == 0
    _listed(top.stdout, names)
    _listed(play.stdout, names)
    # A hyphenated name is never broken across lines: it is typed as shown.
    for name in names:
        if "-" in name:
            assert name in top.stdout and name in play.stdout, name


def test_every_listed_name_opens_its_game() -> None:
    parser = cli.build_parser()
    for game in registry.all_games():
        for name in (game.id, *game.aliases):
            args = parser.parse_args(["play", name])
            assert registry.find_game(args.game) is game


def _fake(game_id: str, aliases: tuple[str, ...] = ()) -> GameDescriptor:
    return GameDescriptor(id=game_id, title=game_id.title(), blurb="", preview="x:y",
                          scene="x:y", aliases=aliases)


def test_play_names_come_from_the_registry() -> None:
    """Not a hand-written list: other games, other names."""
    games = [_fake("chess", ("xiangqi-lite",)), _fake("go", ("weiqi", "baduk")), _fake("nim")]
    with registry.override(games):
        parser = cli.build_parser()
        play = next(sub for path, sub in parsers(parser) if path == ("play",))
        assert flat(play.format_help()).count("one of: chess (also xiangqi-lite), go (also "
                                              "weiqi, baduk), nim") == 1
        assert "chess (also xiangqi-lite)" in flat(parser.format_help())
        assert "tictactoe" not in parser.format_help()
        assert parser.parse_args(["play", "baduk"]).game == "baduk"
    assert cli.game_names(games) == "chess (also xiangqi-lite), go (also weiqi, baduk), nim"


# --- errors found after parsing: the command's own usage ----------------------------------


LONG_CODE = "1" * 400_002  # more than games.buttons.cli.MAX_CODE_CHARS


@pytest.mark.parametrize("argv,stdin,message", [
    (["solve", "mnk", "--rows", "3", "--cols", "3", "--k", "4"], None,
     "--k must be at most the longer side (3)"),
    (["solve", "button-madness", "--code", "abc"], None, "invalid code: "),
    (["solve", "button-madness", "--code", "-"], LONG_CODE,
     "the code read from standard input is longer than 400000 characters"),
    (["solve", "connect4", "--cols", "4", "--rows", "4", "--k", "4", "--moves", "5"], None,
     "--moves: move 1 is '5', not a column 1 to 4"),
    (["solve", "connect4", "--cols", "5", "--rows", "4", "--k", "5"], None,
     "discs in a row must be 3 to 4 on a 5×4 board, not 5"),
], ids=["mnk k too long", "bad code", "code too long", "c4 bad move", "c4 k too long"])
@pytest.mark.parametrize("family", [None, "own"], ids=["arcade", "family executable"])
def test_an_error_after_parsing_shows_the_commands_usage(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        argv: list[str], stdin: str | None, message: str, family: str | None) -> None:
    program = cli.PROG
    if family is not None:  # the family that owns the command, as its own executable
        family = {"mnk": "tictactoe", "button-madness": "button-madness",
                  "connect4": "connect4"}[argv[1]]
        program = f"{cli.PROG}-{family}"
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as stop:  # argparse's exit, as in a real process
        cli.main(argv, family=family)
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    command = f"{program} {argv[0]} {argv[1]}"
    assert out == "" and "Traceback" not in err
    lines = err.splitlines()
    assert lines[0].startswith(f"usage: {command} [-h] "), err
    assert f"{command}: error: {message}" in err
    assert lines[-1] == f"Try '{command} --help' for more."


@pytest.mark.slow
@pytest.mark.parametrize("argv,command,message", [
    (["solve", "mnk", "--rows", "3", "--cols", "3", "--k", "4"], "arcade solve mnk",
     "--k must be at most the longer side (3)"),
    (["solve", "button-madness", "--code", "abc"], "arcade solve button-madness",
     "invalid code: 'abc'"),
])
def test_an_error_after_parsing_in_a_real_process(argv: list[str], command: str,
                                                  message: str) -> None:
    out = run(*argv)
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert out.stderr.startswith(f"usage: {command} ")
    assert f"{command}: error: {message}" in out.stderr


def test_every_command_gets_its_own_parser() -> None:
    """Each handler is handed the parser of its command (a new command too)."""
    commands = 0
    for name, parser in every_parser():
        if parser.get_default("handler") is not None:
            commands += 1
            assert parser.get_default(cli.COMMAND_PARSER) is parser, name
    assert commands >= 5 + 5  # the arcade's five commands, and each family's again


# --- every numeric option states the range it enforces ------------------------------------


# Option types that are not numbers (every other type must state a range).
NOT_NUMBERS = {Path, cli._profile_dir, cli._dump_file}
# How a number is written for an option whose value is not just the number.
WRITTEN = {"--window": "{0}x{0}"}
RANGE_WORDS = re.compile(r"\d+ to (\d+|the )|more than \d+|at least \d+|at most \d+|up to \d+")


def number_options() -> Iterator[tuple[str, argparse.ArgumentParser, argparse.Action]]:
    """(command, parser, action) of every option of every parser that reads a number."""
    for name, parser in every_parser():
        for action in parser._actions:
            if action.type is None or action.type in NOT_NUMBERS:
                continue
            yield name, parser, action


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


def test_every_numeric_option_states_its_range_in_help() -> None:
    seen = set()
    for name, parser, action in number_options():
        option = action.option_strings[0] if action.option_strings else action.dest
        where = f"{name} {option}"
        stated = cli.stated_range(action.type)
        assert stated, f"{where}: its type states no range (use int_in or states_range)"
        assert RANGE_WORDS.search(stated), (where, stated)
        assert stated in flat(action.help or ""), (where, action.help)
        assert stated in flat(parser.format_help()), where
        seen.add((name.split()[0], option))
    assert {("arcade", "--rows"), ("arcade", "--k"), ("arcade", "--time-limit"),
            ("arcade", "--max-table"), ("arcade", "--max-memory"), ("arcade", "--sizes"),
            ("arcade", "--window"), ("arcade-grundy", "--cols")} <= seen


def test_every_numeric_option_enforces_the_range_it_states() -> None:
    """The stated ends are where the type itself accepts and refuses: help and check share
    one statement, so they cannot drift apart."""
    checked = 0
    for name, _parser, action in number_options():
        option = action.option_strings[0]
        kind: Any = action.type
        low, high = kind.range_low, kind.range_high
        written = WRITTEN.get(option, "{0}")

        def accepts(value: float, kind: Any = kind, written: str = written) -> bool:
            try:
                kind(written.format(_number(value)))
            except argparse.ArgumentTypeError:
                return False
            return True

        where = f"{name} {option}"
        assert accepts(high) and not accepts(high + 1), where
        if kind.range_low_inclusive:
            assert accepts(low), where
            assert low == 0 or not accepts(low - 1), where
        else:
            assert not accepts(low) and accepts(low + 0.1), where
        if kind.range_text == f"{low} to {high}":
            continue
        assert _number(high) in kind.range_text, where
        checked += 1
    assert checked  # the words-and-bound forms (k, seconds, window) were seen


def test_the_narrower_ends_checked_after_parsing() -> None:
    """"1 to the longer side" and "3 to the shorter side" hold at both ends."""
    from games.buttons.board import MAX_N
    from games.buttons.cli import MAX_SIZE
    from games.connect4.rules import MAX_COLS, MAX_ROWS

    assert MAX_SIZE == MAX_N
    parser = cli.build_parser()
    assert parser.parse_args(["solve", "mnk", "--rows", "15", "--cols", "2", "--k", "15"]).k == 15
    args = parser.parse_args(["solve", "connect4", "--cols", "9", "--rows", "8", "--k", "8"])
    assert args.k == min(MAX_COLS, MAX_ROWS)


def test_the_cli_page_is_the_help_the_program_prints() -> None:
    """docs/cli.md shows the help verbatim, generated (no list of games typed by hand)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import make_docs
    finally:
        sys.path.remove(str(ROOT / "tools"))
    page = ROOT / "docs" / "cli.md"
    _, stale = make_docs.regenerate(page.read_text(encoding="utf-8"), page)
    assert stale == [], "docs/cli.md differs from --help: run python tools/make_docs.py"


# --- --profile naming a file ----------------------------------------------------------------


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"",
                                         p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*"))}


@pytest.mark.slow
@pytest.mark.parametrize("tail,message", [
    ("", "argument --profile: '{file}' is a file, not a folder"),
    ("/inside/deeper", "argument --profile: cannot use '{file}/inside/deeper': '{file}' is a "
                       "file, not a folder"),
])
def test_profile_that_is_a_file_is_a_usage_error(tmp_path: Path, tail: str,
                                                 message: str) -> None:
    work = tmp_path / "work"
    work.mkdir()
    file = work / "notes.txt"
    file.write_text("not a folder\n")
    before = _snapshot(work)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop(PROFILE_ENV, None)
    for args in ([], ["--smoke"], ["play", "ttt"],
                 ["solve", "mnk", "--rows", "3", "--cols", "3", "--k", "3"]):
        # A refused profile ends at once; an accepted one would open the window (timeout).
        out = run("--profile", f"{file}{tail}", *args, env=env, cwd=work, timeout=30)
        assert out.returncode == 2, out.stderr
        assert out.stdout == "" and "Traceback" not in out.stderr
        assert out.stderr.startswith("usage: arcade ")
        assert f"arcade: error: {message.format(file=file)}\n" in out.stderr
        assert _snapshot(work) == before, "nothing is created or changed"


@pytest.mark.slow
def test_profile_file_relative_to_the_working_folder(tmp_path: Path) -> None:
    (tmp_path / "p").write_text("")
    out = run("--profile", "p", "--smoke", env=dict(os.environ, SDL_VIDEODRIVER="dummy"),
              cwd=tmp_path, timeout=60)
    assert out.returncode == 2 and "'p' is a file, not a folder" in out.stderr
    assert sorted(os.listdir(tmp_path)) == ["p"]


def test_profile_variable_that_is_a_file_names_the_variable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from engine.runtime.app import App

    file = tmp_path / "profile.txt"
    file.write_text("x")
    monkeypatch.setenv(PROFILE_ENV, str(file))
    monkeypatch.setattr(App, "run", lambda self, max_frames=None: self.quit())  # if it opened
    assert cli.main([]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"arcade: error: {PROFILE_ENV}: '{file}' is a file, not a " \
                                "folder\n"
    assert file.read_text() == "x" and sorted(os.listdir(tmp_path)) == ["profile.txt"]


def test_profile_folder_rules(tmp_path: Path) -> None:
    file = tmp_path / "f"
    file.write_text("")
    assert profile_folder(tmp_path) == tmp_path
    assert profile_folder(tmp_path / "new" / "deeper") == tmp_path / "new" / "deeper"
    with pytest.raises(ProfileError, match=r"is a file, not a folder$"):
        profile_folder(file)
    with pytest.raises(ProfileError, match=rf"^cannot use '{re.escape(str(file))}/a': "):
        profile_folder(file / "a")
    with pytest.raises(ProfileError, match="is a file, not a folder"):
        resolve_profile(environ={PROFILE_ENV: str(file)})
    folder_link = tmp_path / "link"
    folder_link.symlink_to(tmp_path / "new-folder-not-yet-there")
    assert profile_folder(folder_link / "x") == folder_link / "x"  # nothing there: fine
    if os.path.exists(os.devnull) and not os.path.isdir(os.devnull):
        with pytest.raises(ProfileError, match="is not a folder"):
            profile_folder(os.devnull)
    assert not (tmp_path / "new").exists()
