"""Fuzz: board codes, command-line arguments and dialog input.

Random and mutated inputs (huge numbers, unicode, empty, whitespace, signs,
sizes 0 and 1001, ...) must each get a clean message or a valid result: never
an unexpected exception, never a change of state on rejection.
"""

from __future__ import annotations

import contextlib
import io
import os
import random

import pytest

from engine.screens.overlays import printable
from games.buttons.board import Board, CodeError, format_code, parse_code

# Fuzz: 20,000 inputs per target (ARCADE_FUZZ_COUNT) take minutes, so the quick run
# (python -m pytest -m "not slow") leaves it out; the full suite runs it.
pytestmark = pytest.mark.slow

COUNT = int(os.environ.get("ARCADE_FUZZ_COUNT", "20000"))
PIECES = ["0", "1", "9", "x", "X", "×", ":", "-", "+", " ", "\t", "\n", "٣", "①", "e", ".",
          "4x4", "5x5", "1001x1001", "0x0", "65535", "65536", "99999999999999999999", "",
          "\u200b", "ß", "0x1F", "nan", "1e9", "🙂", ",", "_"]


def fuzz_strings(seed: int, count: int) -> list[str]:
    """Random strings, and mutations of valid codes."""
    rng = random.Random(seed)
    valid = ["0", "12345", "65535", "5x5:33554431", "3x3:0", "20x20:1", " 7 ", "1000x1000:0"]
    out = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.4:
            out.append("".join(rng.choice(PIECES) for _ in range(rng.randint(0, 6))))
        elif kind < 0.8:
            text = list(rng.choice(valid))
            for _ in range(rng.randint(1, 3)):
                op = rng.random()
                pos = rng.randint(0, len(text))
                if op < 0.4 and text:
                    del text[min(pos, len(text) - 1)]
                elif op < 0.8:
                    text.insert(pos, rng.choice(PIECES))
                else:
                    text[min(pos, len(text) - 1):] = list(rng.choice(PIECES))
            out.append("".join(text))
        elif kind < 0.9:
            out.append(str(rng.randint(-10**6, 10**30)))
        else:
            n = rng.choice([0, 1, 2, 4, 999, 1000, 1001, 10**6])
            out.append(f"{n}x{n}:{rng.randint(0, 2**(min(n, 30) ** 2) if n else 5)}")
    return out


def test_board_codes_reject_cleanly_or_round_trip() -> None:
    accepted = 0
    for text in fuzz_strings(1, COUNT):
        try:
            board = parse_code(text)
        except CodeError as exc:
            assert str(exc), f"empty message for {text!r}"
            continue
        accepted += 1
        assert isinstance(board, Board) and 1 <= board.n <= 1000
        assert parse_code(format_code(board)) == board
        assert 0 <= board.bits < 1 << (board.n * board.n)
    assert 0 < accepted < COUNT  # the fuzz reaches both sides


def _parse(parser, argv: list[str]) -> tuple[int | None, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            parser.parse_args(argv)
        except SystemExit as stop:
            return int(stop.code or 0), err.getvalue()
    return None, err.getvalue()


def test_command_line_arguments_get_usage_and_exit_2_or_parse() -> None:
    from engine.runtime.cli import build_parser

    parser = build_parser()  # argparse keeps no state between parses
    rng = random.Random(2)
    heads = [["solve", "mnk"], ["solve", "button-madness"], ["analyze", "button-madness"],
             ["grundy"], ["play"], ["--window"], ["--profile"], [], ["solve"], ["analyze"]]
    options = ["--rows", "--cols", "--k", "--time-limit", "--code", "--sizes", "--bogus", "-h"]
    values = PIECES + ["3", "15", "16", "4096", "4097", "1-64", "64-1", "king", "queen",
                       "tictactoe", "chess", "-1", "0.5", "inf", "1e999"]
    parsed = 0
    for _ in range(COUNT):
        argv = list(rng.choice(heads))
        for _ in range(rng.randint(0, 5)):
            argv.append(rng.choice(options) if rng.random() < 0.5 else rng.choice(values))
        if "-h" in argv or "--help" in argv:
            continue  # help exits 0 by design
        code, err = _parse(parser, argv)
        if code is None:
            parsed += 1
            continue
        assert code == 2, (argv, code, err)
        assert "usage:" in err and "error:" in err and "Traceback" not in err, argv
    assert parsed > 0


@pytest.fixture
def code_dialog(app):
    from games.buttons.scene import ButtonMadnessScene

    scene = app.push(ButtonMadnessScene(app, parse_code("12345")))
    scene.enter_code()
    app.step([])
    return scene, app.top


def test_code_dialog_rejects_without_changing_the_board(app, code_dialog) -> None:
    scene, dialog = code_dialog
    # Each try drives the real pygame_gui entry line (~4 ms): a quarter of the parser's
    # count, whose every input the test above already checks, keeps CI in its time.
    count = COUNT // 4
    loaded = 0
    for text in fuzz_strings(3, count):
        before = (scene.board, scene.history.index)
        if app.top is not dialog:
            scene.enter_code()
            dialog = app.top
        dialog.set_text(text)
        dialog.submit()
        try:
            # The entry line drops invisible characters (what is seen is what is sent).
            expected = parse_code(printable(text)[: dialog.max_length])
        except CodeError:
            assert app.top is dialog and dialog.error, text
            assert (scene.board, scene.history.index) == before, text
            continue
        loaded += 1
        assert app.top is scene and scene.board == expected
    assert loaded > 0


def test_typing_invisible_characters_does_not_crash_the_entry_line(app, code_dialog) -> None:
    """Regression: a zero-width space typed or pasted crashed pygame_gui's entry line."""
    import pygame

    scene, dialog = code_dialog
    for text in ("\u200b", "1\u200b2", "\x00", "\u202e12"):
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
        app.step()
    assert app.top is dialog and dialog.text == "1212"
