"""``solve connect4``: every line of its contract (games/connect4/cli.py).

Most tests call the handler through a parser built the way engine/runtime/cli.py
builds the shared ``solve`` group, so they do not depend on the registry.
The last ones run ``python main.py solve connect4`` in a real subprocess, as
another tool would (they need the descriptor that wires the game in).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.runtime.cli import PROG, ArgumentParser
from games.connect4.cli import DEFAULT_TIME_LIMIT, add_solve_parsers
from games.connect4.rules import Connect4Config, Connect4State
from tests.support.oracles import brute_move_values, sensible_game

ROOT = Path(__file__).resolve().parents[3]
ABSOLUTE = {1: "first player wins", 0: "draw", -1: "second player wins"}


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog=PROG)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    solve = sub.add_parser("solve")
    add_solve_parsers(solve.add_subparsers(dest="puzzle", metavar="WHAT", required=True))
    return parser


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``solve connect4 ARGV``, run in-process."""
    parser = build_parser()
    try:
        args = parser.parse_args(["solve", "connect4", *argv])
        code = args.handler(parser, args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def one_line(out: str) -> str:
    assert out.endswith("\n") and out.count("\n") == 1, repr(out)
    return out[:-1]


def digits(moves: tuple[int, ...]) -> str:
    return "".join(str(m + 1) for m in moves)


def expected_result(state: Connect4State) -> str:
    """The absolute result by the brute-force reference."""
    if state.winner is not None:
        return ABSOLUTE[1 if state.winner == 0 else -1]
    if state.is_terminal():
        return "draw"
    best = max(o for o, _ in brute_move_values(state).values())
    return ABSOLUTE[best if state.current_player() == 0 else -best]


# --- results ---------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("cols,rows,answer", [(4, 4, "draw"), (5, 4, "draw"), (4, 5, "draw")])
def test_empty_boards(capsys, cols: int, rows: int, answer: str) -> None:
    code, out, err = run(capsys, "--cols", str(cols), "--rows", str(rows))
    assert (code, one_line(out), err) == (0, answer, "")


@pytest.mark.parametrize("cols,rows,moves,answer", [
    (7, 6, "445566", "first player wins"),        # X wins at once in column 3 or 7
    (7, 6, "4455667", "first player wins"),       # X has just won across the bottom
    (7, 6, "12123232", "second player wins"),     # O has just won up column 2
    (4, 4, "1212212134344343", "draw"),           # full board, no line
])
def test_positions_and_finished_games(capsys, cols, rows, moves, answer) -> None:
    code, out, err = run(capsys, "--cols", str(cols), "--rows", str(rows), "--moves", moves)
    assert (code, one_line(out), err) == (0, answer, "")


@pytest.mark.slow
def test_results_match_brute_force_on_random_positions(capsys) -> None:
    rng = random.Random(12)
    seen = set()
    for cfg in (Connect4Config(4, 4), Connect4Config(5, 4), Connect4Config(4, 5),
                Connect4Config(4, 4, 3)):
        for _ in range(12):
            state = sensible_game(cfg, rng.randrange(6, cfg.cells + 1), rng)
            args = ["--cols", str(cfg.cols), "--rows", str(cfg.rows), "--moves",
                    digits(state.moves)]
            if cfg.k != 4:
                args += ["--k", str(cfg.k)]
            code, out, err = run(capsys, *args)
            answer = expected_result(state)
            assert (code, one_line(out), err) == (0, answer, ""), state
            seen.add(answer)
    assert seen == set(ABSOLUTE.values())


# --- --scores ----------------------------------------------------------------------------------


def score_lines(state: Connect4State) -> list[str]:
    """``--scores``'s lines by the brute force: outcome and plies to the end, per column."""
    values = brute_move_values(state)
    words = {1: "win", 0: "draw", -1: "loss"}
    lines = []
    for col in range(state.config.cols):
        if col not in values:
            lines.append(f"{col + 1} full")
            continue
        outcome, plies = values[col]
        lines.append(f"{col + 1} draw" if outcome == 0 else f"{col + 1} {words[outcome]} {plies}")
    return lines


def test_scores_print_one_line_per_column_in_column_order(capsys) -> None:
    # X to move after 4455 66 on 7×6: 3 and 7 win at once, the others lose to them.
    code, out, err = run(capsys, "--cols", "7", "--rows", "6", "--moves", "445566", "--scores")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == [str(c) for c in range(1, 8)]
    assert lines[2] == "3 win 1" and lines[6] == "7 win 1"
    assert all(line.split()[1] in ("win", "loss", "draw", "full") for line in lines)
    code, out, err = run(capsys, "--cols", "4", "--rows", "4", "--moves", "1111", "--scores")
    assert code == 0 and out.splitlines()[0] == "1 full"


@pytest.mark.slow
def test_scores_match_the_brute_force(capsys) -> None:
    rng = random.Random(30)
    for cfg in (Connect4Config(4, 4), Connect4Config(5, 4)):
        for _ in range(6):
            state = sensible_game(cfg, rng.randrange(4, 12), rng)
            if state.is_terminal():
                continue
            code, out, err = run(capsys, "--cols", str(cfg.cols), "--rows", str(cfg.rows),
                                 "--moves", digits(state.moves), "--scores")
            assert (code, err) == (0, "") and out.splitlines() == score_lines(state), state


def test_scores_of_the_small_presets_come_from_the_book(capsys) -> None:
    # 6×5's empty board: every column a draw, 30 moves to the full board.
    code, out, err = run(capsys, "--cols", "6", "--rows", "5", "--scores")
    assert (code, err) == (0, "")
    assert out.splitlines() == [f"{c} draw" for c in range(1, 7)]


@pytest.mark.slow
def test_scores_time_limit_and_finished_games(capsys) -> None:
    code, out, err = run(capsys, "--cols", "8", "--rows", "7", "--scores", "--time-limit", "0.3")
    assert code == 1 and out == "" and one_line(err).startswith("arcade: could not solve")
    code, out, err = run(capsys, "--cols", "7", "--rows", "6", "--moves", "4455667", "--scores")
    assert (code, one_line(out), err) == (0, "first player wins", "")


def test_the_classic_board_is_a_first_player_win_from_the_book(capsys) -> None:
    from games.connect4.book import book_for

    book = book_for(7, 6)
    if book is None:
        pytest.skip("no 7×6 opening book shipped yet (tools/make_connect4_book.py)")
    start = time.process_time()
    code, out, err = run(capsys, "--cols", "7", "--rows", "6")
    assert (code, one_line(out), err) == (0, "first player wins", "")
    assert time.process_time() - start < 10
    if book.depth < 1:
        return  # the columns' values need the book's first ply
    code, out, err = run(capsys, "--cols", "7", "--rows", "6", "--scores")
    assert code == 0 and out.splitlines()[3].startswith("4 win")
    assert not any(line.split()[1] == "win" for i, line in enumerate(out.splitlines()) if i != 3)


# --- the time limit -----------------------------------------------------------------------------


@pytest.mark.slow
def test_time_limit_prints_one_could_not_solve_line_and_exits_1(capsys) -> None:
    start = time.process_time()
    # 8×7 has no opening book (7×6's may answer its empty board at once).
    code, out, err = run(capsys, "--cols", "8", "--rows", "7", "--time-limit", "0.3")
    assert time.process_time() - start < 1.5
    assert code == 1 and out == ""  # a failure goes to stderr, as solve mnk's
    assert one_line(err).startswith("arcade: could not solve")
    code, out, err = run(capsys, "--cols", "9", "--rows", "8", "--moves", "5", "--time-limit",
                         "0.2")
    assert code == 1 and one_line(err).startswith("arcade: could not solve") and out == ""


def test_default_time_limit_is_stated_and_finite(capsys) -> None:
    parser = build_parser()
    args = parser.parse_args(["solve", "connect4", "--cols", "7", "--rows", "6"])
    assert args.time_limit == DEFAULT_TIME_LIMIT == 60
    with pytest.raises(SystemExit) as exc:
        parser.parse_args(["solve", "connect4", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "default 60" in out and "--moves" in out and "could not solve" in out


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("argv,message", [
    (["--cols", "3", "--rows", "6"], "must be 4 to 9"),
    (["--cols", "10", "--rows", "6"], "must be 4 to 9"),
    (["--cols", "7", "--rows", "3"], "must be 4 to 8"),
    (["--cols", "7", "--rows", "9"], "must be 4 to 8"),
    (["--cols", "seven", "--rows", "6"], "expected a whole number"),
    (["--rows", "6"], "required: --cols"),
    (["--cols", "7"], "required: --rows"),
    (["--cols", "7", "--rows", "6", "--moves", "408"], "move 2 is '0', not a column 1 to 7"),
    (["--cols", "7", "--rows", "6", "--moves", "48"], "move 2 is '8', not a column 1 to 7"),
    (["--cols", "4", "--rows", "4", "--moves", "5"], "move 1 is '5', not a column 1 to 4"),
    (["--cols", "7", "--rows", "6", "--moves", "4a"], "move 2 is 'a'"),
    (["--cols", "7", "--rows", "6", "--moves", "4 4"], "move 2 is ' '"),
    (["--cols", "7", "--rows", "6", "--moves", "4,4"], "move 2 is ','"),
    (["--cols", "7", "--rows", "6", "--moves", "+4"], "move 1 is '+'"),
    (["--cols", "7", "--rows", "6", "--moves", "4\u0663"], "move 2 is"),
    (["--cols", "7", "--rows", "6", "--moves", "4444444"], "move 7 drops a disc into column 4, "
                                                          "which is full"),
    (["--cols", "7", "--rows", "6", "--moves", "44556671"], "move 8 (1) comes after the game "
                                                           "has ended (first player won)"),
    (["--cols", "4", "--rows", "4", "--moves", "12122121343443431"], "move 17 (1) comes after "
                                                                     "the game has ended"),
    (["--cols", "7", "--rows", "6", "--time-limit", "0"], "must be more than 0"),
    (["--cols", "7", "--rows", "6", "--time-limit", "soon"], "expected a number of seconds"),
    (["--cols", "4", "--rows", "4", "--k", "5"], "discs in a row must be 3 to 4"),
])
def test_bad_input_is_a_usage_error(capsys, argv, message) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert "usage:" in err and message in err and "Traceback" not in err


# --- as another tool runs it ----------------------------------------------------------------


def main_py(*args: str, tmp_path: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               ARCADE_PROFILE=str(tmp_path / "profile"))
    return subprocess.run([sys.executable, str(ROOT / "main.py"), "solve", "connect4", *args],
                          capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)


@pytest.mark.slow
def test_main_py_solves(tmp_path: Path) -> None:
    out = main_py("--cols", "4", "--rows", "4", tmp_path=tmp_path)
    assert (out.returncode, out.stdout, out.stderr) == (0, "draw\n", "")
    out = main_py("--cols", "7", "--rows", "6", "--moves", "445566", tmp_path=tmp_path)
    assert (out.returncode, out.stdout) == (0, "first player wins\n")


@pytest.mark.slow
def test_main_py_time_limit_and_bad_input(tmp_path: Path) -> None:
    out = main_py("--cols", "8", "--rows", "7", "--time-limit", "0.5", tmp_path=tmp_path)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith("arcade: could not solve") and out.stderr.count("\n") == 1
    out = main_py("--cols", "7", "--rows", "6", "--moves", "4x", tmp_path=tmp_path)
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert "move 2 is 'x'" in out.stderr
    out = main_py("--help", tmp_path=tmp_path)
    assert out.returncode == 0 and "--time-limit" in out.stdout
