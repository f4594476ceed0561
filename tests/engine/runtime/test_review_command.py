"""The ``review`` command's contract (engine.runtime.review_command), run as other tools
run it, and its values against plain negamax on small boards."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.ai.negamax import Negamax, SearchTimeout
from engine.model.records import parse_record, record_text
from engine.model.registry import find_game
from engine.runtime.review_command import review_lines
from tests.support.cli import run

LINE = re.compile(r"(\d+) (\S+) (win|win:\d+|draw|loss|loss:\d+|unknown) "
                  r"(win|win:\d+|draw|loss|loss:\d+|unknown) "
                  r"(best|good|inaccuracy|mistake|blunder|unknown)")


def test_the_example_prints_a_header_and_one_line_per_move(profile: Path) -> None:
    done = run("review", "connect4 4x4 1234", profile=profile)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "review connect4 4x4 1234"
    assert [LINE.fullmatch(line) is not None for line in lines[1:]] == [True] * 4
    assert [line.split()[1] for line in lines[1:]] == ["1", "2", "3", "4"]


def test_a_record_from_standard_input_and_the_time_limit(profile: Path) -> None:
    import os
    import subprocess
    import sys

    from tests.support.cli import ROOT

    env = dict(os.environ, SDL_VIDEODRIVER="dummy", ARCADE_PROFILE=str(profile))
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "review", "-",
                           "--time-limit", "2"], input="tictactoe 3x3:k3 b2 b3 a3\n",
                          capture_output=True, text=True, timeout=60, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["review tictactoe 3x3:k3 b2 b3 a3",
                                        "1 b2 draw draw best",
                                        "2 b3 draw loss:5 mistake",
                                        "3 a3 win:5 win:4 best"]


@pytest.mark.parametrize(("record", "says"), [
    ("connect4 7x6 4458", "word 3, move 4: move 4 (8) is not a legal move there"),
    ("nothing", "no game is called 'nothing'"),
    ("tictactoe 4x4:k3:p3 a1", "three or more players"),
])
def test_a_bad_record_exits_2_with_a_message(profile: Path, record: str, says: str) -> None:
    done = run("review", record, profile=profile)
    assert done.returncode == 2 and done.stdout == ""
    assert says in done.stderr


def _plain(state: object) -> tuple[str, int | None]:
    """(outcome, plies) for the player to move, by plain negamax (SearchTimeout after a
    second: that position is passed over)."""
    values = Negamax(remoteness=True, time_limit=1.0).move_values(state)
    best = max(values.values(), key=lambda v: (v.outcome, -v.plies if v.outcome > 0
                                               else v.plies))
    name = {1: "win", 0: "draw", -1: "loss"}[best.outcome]
    return name, (best.plies if best.outcome else None)


def _code(outcome: str, plies: int | None) -> str:
    return outcome if plies is None or outcome == "draw" else f"{outcome}:{plies}"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["4x4", "5x4"])
def test_connect_four_values_equal_plain_negamax(game_id: str) -> None:
    game = find_game("connect4")
    params = game.param_spec().decode(game_id)
    rng = random.Random(7)
    checked = 0
    for _ in range(3):
        state = start = game.new_game(params, rng)
        moves = []
        while not state.is_terminal() and len(moves) < 12:
            moves.append(rng.choice(state.legal_moves()))
            state = state.play(moves[-1])
        record = parse_record(record_text(game, params, start, moves))
        lines = review_lines(record, None)[1:]
        states = record.positions()
        for line, before, after in zip(lines, states, states[1:], strict=False):
            number, move, got_before, got_after, _grade = line.split()
            try:
                assert got_before == _code(*_plain(before)), line
                if after.is_terminal():
                    continue
                outcome, plies = _plain(after)
            except SearchTimeout:
                continue
            checked += 1
            mine = {"win": "loss", "loss": "win", "draw": "draw"}[outcome]
            assert got_after == _code(mine, plies), line
    assert checked >= 10
