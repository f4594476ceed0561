"""The command line, run as a player or another tool would: a real subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import __version__
from engine.model.registry import all_games, find_game
from tests.support.cli import run

ROOT = Path(__file__).resolve().parents[3]




@pytest.mark.slow
def test_help_lists_commands_and_options(profile: Path) -> None:
    out = run("--help", profile=profile)
    assert out.returncode == 0
    for word in ("play", "--smoke", "--profile", "--version"):
        assert word in out.stdout
    assert "--dump-state" not in out.stdout  # test-only option stays hidden


def test_version(profile: Path) -> None:
    out = run("--version", profile=profile)
    assert out.returncode == 0 and out.stdout.strip() == f"Arcade of Strategy {__version__}"


@pytest.mark.slow
@pytest.mark.parametrize("args,message", [
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["play"], "the following arguments are required: GAME"),
    (["play", "chess"], "invalid choice: 'chess'"),
    (["--window", "12x12"], "window size must be 320..7680"),
    (["--window", "big"], "expected WIDTHxHEIGHT"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_bad_arguments_give_usage_and_exit_2(profile: Path, args, message) -> None:
    out = run(*args, profile=profile)
    assert out.returncode == 2
    assert "usage:" in out.stderr and message in out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""
    assert not profile.exists(), "a rejected command must not create or change files"


@pytest.mark.slow
def test_smoke_opens_every_game_and_exits_0(profile: Path) -> None:
    out = run("--smoke", profile=profile, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("smoke: ok") and "tictactoe" in out.stdout
    assert "Traceback" not in out.stderr


@pytest.mark.slow
def test_smoke_reports_failure_with_nonzero_exit(profile: Path, tmp_path: Path) -> None:
    """A broken game makes --smoke fail loudly (here: the bundled font is missing)."""
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "sitecustomize.py").write_text(
        "import engine.core.assets as a\n"
        "a._SOURCE_ROOT = a.Path('/nonexistent')\n")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", ARCADE_PROFILE=str(profile),
               PYTHONPATH=os.pathsep.join([str(shadow), str(ROOT)]))
    out = subprocess.run([sys.executable, str(ROOT / "main.py"), "--smoke"], capture_output=True,
                         text=True, timeout=120, env=env, cwd=ROOT)
    assert out.returncode == 1
    assert "smoke: FAILED" in out.stderr and "asset missing" in out.stderr


@pytest.mark.slow
def test_profile_option_beats_environment(tmp_path: Path) -> None:
    chosen = tmp_path / "chosen"
    env_profile = tmp_path / "from-env"
    out = run("--profile", str(chosen), "--smoke", profile=env_profile, timeout=120)
    assert out.returncode == 0, out.stderr
    assert (chosen / "statistics.sqlite3").exists()
    assert not env_profile.exists()


@pytest.mark.slow
def test_play_opens_the_game_directly(profile: Path, monkeypatch) -> None:
    """``play ttt`` starts on the game, with the launcher underneath for Back."""
    from engine.runtime import cli
    from engine.runtime.app import App

    seen: list[list[str]] = []

    def one_frame(self: App, max_frames: int | None = None) -> None:
        self.step([])
        seen.append([type(s).__name__ for s in self.scenes])
        self.quit()

    monkeypatch.setattr(App, "run", one_frame)
    assert cli.main(["--profile", str(profile), "play", "ttt"]) == 0
    assert seen == [["LauncherScene", "TicTacToeScene"]]


@pytest.mark.parametrize("family", [g.id for g in all_games()])
def test_family_entry_opens_its_game_and_back_leads_to_its_own_launcher(
        profile: Path, monkeypatch, family) -> None:
    """A one-family executable (``main(family=…)``) starts in its game; Esc leads to a
    launcher with only that family's tile (statistics, palette and Quit stay reachable)."""
    import pygame

    from engine.runtime import cli
    from engine.runtime.app import App

    seen: list[object] = []

    def play_then_escape(self: App, max_frames: int | None = None) -> None:
        self.step([])
        seen.append([type(self.scenes[0]).__name__, type(self.top).__module__])
        self.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0,
                                      unicode="\x1b", scancode=0)])
        seen.append([type(s).__name__ for s in self.scenes])
        seen.append(self.top.debug_state()["tiles"])
        self.quit()

    monkeypatch.setattr(App, "run", play_then_escape)
    assert cli.main(["--profile", str(profile)], family=family) == 0
    # The game's own screen, from its package, on top of its one-game launcher.
    package = find_game(family).scene.partition(":")[0].rsplit(".", 1)[0]
    assert seen[0][0] == "LauncherScene" and seen[0][1].startswith(package + "."), seen
    assert seen[1:] == [["LauncherScene"], [{"id": family}]]


def test_family_command_line_has_its_own_commands_only() -> None:
    from engine.model.registry import find_game
    from engine.runtime.cli import build_parser

    def commands(parser) -> set[str]:
        sub = next(a for a in parser._actions if a.dest == "command")  # argparse internals
        return set(sub.choices)

    # review: every family with two-player games and hints (engine.runtime.review_command).
    assert commands(build_parser()) == {"play", "solve", "analyze", "review", "grundy"}
    assert commands(build_parser(find_game("connect4"))) == {"solve", "review"}
    assert commands(build_parser(find_game("ttt"))) == {"solve", "review"}
    assert commands(build_parser(find_game("grundy"))) == {"grundy", "review"}
    assert commands(build_parser(find_game("buttons"))) == {"solve", "analyze"}
    parser = build_parser(find_game("grundy"))
    assert parser.prog == "arcade-grundy"
    args = parser.parse_args(["--profile", "p", "--window", "800x600", "--smoke"])
    assert (args.profile, args.window, args.smoke) == ("p", (800, 600), True)


@pytest.mark.slow
@pytest.mark.parametrize("rows,cols,k,answer", [
    (3, 3, 3, "draw"), (4, 3, 3, "first player wins"), (3, 4, 3, "first player wins"),
    (4, 4, 3, "first player wins"), (4, 4, 4, "draw"), (2, 2, 2, "first player wins"),
    (1, 1, 1, "first player wins"), (2, 3, 3, "draw"),
])
def test_solve_mnk_prints_exactly_one_line(profile: Path, rows, cols, k, answer) -> None:
    out = run("solve", "mnk", "--rows", str(rows), "--cols", str(cols), "--k", str(k),
              profile=profile, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout == answer + "\n"
    assert out.stderr == ""


@pytest.mark.slow
@pytest.mark.parametrize("args,message", [
    (["--rows", "0", "--cols", "3", "--k", "3"], "must be 1 to 15"),
    (["--rows", "16", "--cols", "3", "--k", "3"], "must be 1 to 15"),
    (["--rows", "x", "--cols", "3", "--k", "3"], "expected a whole number"),
    (["--rows", "3", "--cols", "3", "--k", "4"], "at most the longer side"),
    (["--rows", "3", "--cols", "3"], "required: --k"),
    (["--rows", "3", "--cols", "3", "--k", "3", "--time-limit", "0"], "more than 0"),
    # Issue 13: "nan" is not a number by the command line's rule (digits 0-9 only).
    (["--rows", "3", "--cols", "3", "--k", "3", "--time-limit", "nan"],
     "expected a number of seconds"),
])
def test_solve_mnk_bad_values_exit_2(profile: Path, args, message) -> None:
    out = run("solve", "mnk", *args, profile=profile)
    assert out.returncode == 2 and message in out.stderr
    assert out.stdout == "" and "Traceback" not in out.stderr


@pytest.mark.slow
def test_solve_mnk_time_limit_gives_up_cleanly(profile: Path) -> None:
    out = run("solve", "mnk", "--rows", "15", "--cols", "15", "--k", "5", "--time-limit", "0.5",
              profile=profile, timeout=60)
    assert out.returncode == 1
    assert out.stdout == "" and "could not solve" in out.stderr and "Traceback" not in out.stderr


KING_8X8 = """0 1 0 1 0 1 0 1
1 2 3 2 3 2 3 2
0 3 0 1 0 1 0 1
1 2 1 2 3 2 3 2
0 3 0 3 0 1 0 1
1 2 1 2 1 2 3 2
0 3 0 3 0 3 0 1
1 2 1 2 1 2 1 2
"""


@pytest.mark.slow
def test_grundy_prints_the_table_rows_top_first(profile: Path) -> None:
    out = run("grundy", "king", "--rows", "8", "--cols", "8", profile=profile)
    assert out.returncode == 0 and out.stdout == KING_8X8 and out.stderr == ""
    out = run("grundy", "rook", "--rows", "3", "--cols", "5", profile=profile)
    assert out.stdout.splitlines() == [" ".join(str(r ^ c) for c in range(5)) for r in range(3)]


@pytest.mark.slow
@pytest.mark.parametrize("args,message", [
    (["bishop", "--rows", "3", "--cols", "3"], "invalid choice: 'bishop'"),
    (["king", "--rows", "0", "--cols", "3"], "must be 1 to 4096"),
    (["king", "--rows", "3"], "required: --cols"),
    (["king", "--rows", "3", "--cols", "many"], "expected a whole number"),
])
def test_grundy_bad_values_exit_2(profile: Path, args, message) -> None:
    out = run("grundy", *args, profile=profile)
    assert out.returncode == 2 and message in out.stderr
    assert out.stdout == "" and "Traceback" not in out.stderr


def _apply_presses(code: str, lines: list[str]) -> bool:
    from games.buttons.board import parse_code

    board = parse_code(code)
    for line in lines:
        r, c = (int(part.split()[1]) - 1 for part in line.split(", "))
        board = board.press(r, c)
    return board.is_solved


@pytest.mark.slow
@pytest.mark.parametrize("code", ["0", "12345", "65534", "5x5:32214732", "7x7:1", "4x4:777"])
def test_solve_button_madness_presses_solve_the_board(profile: Path, code) -> None:
    out = run("solve", "button-madness", "--code", code, profile=profile)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert all(line.startswith("row ") and ", column " in line for line in lines)
    # 1-based and in row-major order
    cells = [tuple(int(p.split()[1]) for p in line.split(", ")) for line in lines]
    assert cells == sorted(cells) and all(1 <= v for cell in cells for v in cell)
    assert _apply_presses(code, lines)


@pytest.mark.slow
def test_solve_button_madness_solved_board_prints_nothing_and_stdin_works(profile: Path) -> None:
    out = run("solve", "button-madness", "--code", "65535", profile=profile)
    assert out.returncode == 0 and out.stdout == ""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", ARCADE_PROFILE=str(profile))
    piped = subprocess.run([sys.executable, str(ROOT / "main.py"), "solve", "button-madness",
                            "--code", "-"], input="  12345\n", capture_output=True, text=True,
                           timeout=60, env=env, cwd=ROOT)
    direct = run("solve", "button-madness", "--code", "12345", profile=profile)
    assert piped.returncode == 0 and piped.stdout == direct.stdout != ""


@pytest.mark.slow
def test_solve_button_madness_unsolvable_board(profile: Path) -> None:
    out = run("solve", "button-madness", "--code", f"3x3:{(1 << 9) - 2}", profile=profile)
    assert out.returncode == 1 and out.stdout == "no solution\n"


@pytest.mark.slow
@pytest.mark.parametrize("code", ["abc", "-1", "65536", "4x5:1", "5x5:", "1001x1001:0", ""])
def test_solve_button_madness_bad_code_exit_2(profile: Path, code) -> None:
    out = run("solve", "button-madness", "--code", code, profile=profile)
    assert out.returncode == 2 and "invalid code" in out.stderr
    assert out.stdout == "" and "Traceback" not in out.stderr


@pytest.mark.slow
def test_analyze_button_madness_sizes(profile: Path) -> None:
    from games.buttons.solver import nullity

    out = run("analyze", "button-madness", "--sizes", "1-12", profile=profile)
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert lines[3] == "4 0" and len(lines) == 12
    assert lines == [f"{n} {nullity(n)}" for n in range(1, 13)]
    assert run("analyze", "button-madness", "--sizes", "7", profile=profile).stdout == "7 0\n"


@pytest.mark.slow
@pytest.mark.parametrize("sizes", ["0-3", "5-2", "1-1001", "a-b", "3-"])
def test_analyze_bad_sizes_exit_2(profile: Path, sizes) -> None:
    out = run("analyze", "button-madness", "--sizes", sizes, profile=profile)
    assert out.returncode == 2 and "Traceback" not in out.stderr and out.stdout == ""
