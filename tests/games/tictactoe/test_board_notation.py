"""Board sizes are columns × rows everywhere, and nothing stored before changes its board
(issue 28, item 5).

Tic-tac-toe said "7×6, 4 in a row" for 7 rows by 6 columns while Connect Four's "7×6" is 7
columns by 6 rows. Now every size a player reads is columns × rows. The fixtures in
tests/data/rows_first/ were made by the code from before (tests/data/make_rows_first.py):
a statistics database and a settings file of a real profile, and saved games, on the
non-square boards 7 rows × 6 columns and 6 rows × 7 columns. They must open on the same
boards, titled columns × rows.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pygame
import pytest

from engine.core.i18n import set_language
from engine.model.registry import find_game
from engine.screens.scene import HelpOverlay
from engine.screens.stats_scene import StatsScene
from engine.storage.saved_games import read_save
from games.tictactoe.rules import MNKConfig
from games.tictactoe.setup_scene import SetupOverlay
from games.tictactoe.variants import PRESETS, SPEC, variant_label
from tests.conftest import click_widget, key, make_app, stats_shown
from tests.support.cli import run

FIXTURES = Path(__file__).resolve().parents[2] / "data" / "rows_first"
TALL = MNKConfig(7, 6, 4)  # 7 rows × 6 columns: "6×7"
WIDE = MNKConfig(6, 7, 4)  # 6 rows × 7 columns: "7×6"


@pytest.fixture(autouse=True)
def english() -> Any:
    set_language("en")
    yield
    set_language("en")


def old_profile(tmp_path: Path) -> Path:
    """A copy of the profile the code from before left (statistics and settings)."""
    profile = tmp_path / "profile"
    shutil.copytree(FIXTURES / "profile", profile)
    return profile


def labels(scene: Any) -> list[str]:
    """The texts of the scene's labels as drawn this frame."""
    return [w.text for w in scene.ui.widgets if type(w).__name__ == "Label"]


def close(app: Any) -> None:
    app.handle(pygame.event.Event(pygame.QUIT))
    app.stats.close()


# --- the stored forms --------------------------------------------------------------------
def test_every_board_round_trips_and_the_older_ids_keep_their_board() -> None:
    for rows in range(3, 16):
        for cols in range(3, 16):
            for k in {3, min(rows, cols)}:
                config = MNKConfig(rows, cols, k)
                game_id = SPEC.encode(config)
                assert game_id == f"{cols}x{rows}:k{k}"
                assert SPEC.decode(game_id) == config
                # The form every save before held: rows first, no colon.
                assert SPEC.decode(f"{rows}x{cols}k{k}") == config
                # Statistics ids stay as recorded (rows first) and name the same board.
                assert SPEC.from_variant_id(SPEC.variant_id(config)) == config
    three = MNKConfig(4, 4, 3, players=3)
    assert SPEC.encode(three) == "4x4:k3:p3"
    assert SPEC.decode("4x4:k3:p3") == SPEC.decode("4x4k3p3") == three
    assert SPEC.variant_id(TALL) == "7x6k4" and SPEC.variant_id(WIDE) == "6x7k4"


def test_the_tall_preset_is_the_same_board_and_says_columns_by_rows() -> None:
    tall = [p for p in PRESETS if p.params == TALL]
    assert [p.label for p in tall] == ["6×7, 4 in a row"]
    assert variant_label(TALL) == "6×7, 4 in a row"
    assert variant_label(WIDE) == "7×6, 4 in a row"
    assert variant_label(MNKConfig(5, 8, 4)) == "8×5, 4 in a row"


def test_saves_made_before_open_on_the_board_they_were_saved_on() -> None:
    game = find_game("tictactoe")
    for name, board in (("tictactoe-7r6c", TALL), ("tictactoe-6r7c", WIDE)):
        text = (FIXTURES / "saved" / f"{name}.json").read_text(encoding="utf-8")
        assert json.loads(text)["params"] == f"{board.rows}x{board.cols}k4"  # rows first
        params, _state = read_save(game, text)
        assert params == board, name


# --- the real scenes ---------------------------------------------------------------------
@pytest.mark.parametrize("name,board,label", [("tictactoe-7r6c", TALL, "6×7, 4 in a row"),
                                              ("tictactoe-6r7c", WIDE, "7×6, 4 in a row")])
def test_an_old_save_resumes_on_its_board_and_is_saved_again_columns_first(
        tmp_path: Path, name: str, board: MNKConfig, label: str) -> None:
    profile = old_profile(tmp_path)
    (profile / "saved").mkdir()
    shutil.copy(FIXTURES / "saved" / f"{name}.json", profile / "saved" / "tictactoe.json")
    app = make_app(profile)
    try:
        click_widget(app, "tictactoe")
        scene = app.top
        assert scene.config == board
        assert len(scene.state.to_rows()) == board.rows
        assert all(len(line) == board.cols for line in scene.state.to_rows())
        assert sum(line.count("X") + line.count("O") for line in scene.state.to_rows()) == 5
        assert label in labels(scene)
        marks = scene.state.to_rows()
    finally:
        close(app)
    saved = json.loads((profile / "saved" / "tictactoe.json").read_text(encoding="utf-8"))
    assert saved["params"] == f"{board.cols}x{board.rows}:k4"
    app = make_app(profile)
    try:
        click_widget(app, "tictactoe")
        assert app.top.config == board and app.top.state.to_rows() == marks
    finally:
        close(app)


def test_old_settings_open_the_same_board_and_the_setup_says_columns_by_rows(
        tmp_path: Path) -> None:
    profile = old_profile(tmp_path)
    stored = json.loads((profile / "settings.json").read_text(encoding="utf-8"))
    assert stored["variants"]["tictactoe"] == {"rows": 7, "cols": 6, "k": 4, "players": 2}
    app = make_app(profile)
    try:
        click_widget(app, "tictactoe")
        scene = app.top
        assert scene.config == TALL and "6×7, 4 in a row" in labels(scene)
        key(app, pygame.K_s)
        setup = app.top
        assert isinstance(setup, SetupOverlay)
        assert setup.current_tuple() == (7, 6, 4, 2)
        # Columns first, then rows, left to right.
        steppers = {w.name: w for w in setup.ui.widgets if type(w).__name__ == "Stepper"}
        cols, rows = steppers["cols"], steppers["rows"]
        assert cols.rect[0] < rows.rect[0] < steppers["k"].rect[0]
        assert (cols.label, cols.text) == ("Columns", "6") and (rows.label, rows.text) == (
            "Rows", "7")
        assert "6×7, 4 in a row" in [w.label for w in setup.ui.widgets
                                       if type(w).__name__ == "Button"]
        assert "Sizes are columns × rows: 6×7 is 6 columns wide and 7 rows tall" in _(
            setup.help_text)
        # A custom wide board: one more column, two fewer rows.
        click_widget(app, "cols+")
        click_widget(app, "rows-")
        click_widget(app, "rows-")
        click_widget(app, "Start")
        scene = app.top
        assert scene.config == MNKConfig(5, 7, 4)
        assert "7×5, 4 in a row" in labels(scene)
        key(app, pygame.K_F1)
        assert isinstance(app.top, HelpOverlay)
        assert "a size is columns × rows, as in Connect Four: 6×7 is 6 columns wide and 7 " \
               "rows tall" in app.top.text.replace("\n", " ")
    finally:
        close(app)


def _(text: str) -> str:
    from engine.core.i18n import _ as translate

    return translate(text)


def test_the_statistics_made_before_title_each_board_columns_by_rows(tmp_path: Path) -> None:
    app = make_app(old_profile(tmp_path))
    try:
        click_widget(app, "Statistics")
        scene = app.top
        assert isinstance(scene, StatsScene)
        stats_shown(app)
        lines = [(e.kind, e.text) for e in scene.entries]
        at = lines.index(("game", find_game("tictactoe").title))
        boards = [text for kind, text in lines[at + 1:] if kind == "variant"]
        # Two games on 7 rows × 6 columns, one on 6 rows × 7 columns: filed apart, each
        # under its own board's name.
        assert boards[:2] == ["6×7, 4 in a row", "7×6, 4 in a row"]
        figures = {text: [] for text in boards[:2]}
        current = None
        for entry in scene.entries[at + 1:]:
            if entry.kind == "variant":
                current = entry.text
            elif entry.kind == "row" and current in figures:
                figures[current].append(tuple(entry.figures or ()))
        assert sum(f[0] for f in figures["6×7, 4 in a row"]) == 2
        assert sum(f[0] for f in figures["7×6, 4 in a row"]) == 1
    finally:
        close(app)


def test_a_game_played_now_on_the_tall_board_is_filed_with_the_ones_before(
        tmp_path: Path) -> None:
    profile = old_profile(tmp_path)
    app = make_app(profile)
    try:
        click_widget(app, "tictactoe")
        assert app.top.variant_id() == "7x6k4"  # the id the earlier games have
    finally:
        close(app)


# --- the command line ----------------------------------------------------------------------
def test_solve_mnk_help_and_messages_say_columns_by_rows(tmp_path: Path) -> None:
    out = run("solve", "mnk", "--help", profile=tmp_path / "p")
    assert out.returncode == 0
    assert "--cols N --rows M" in out.stdout
    assert "N columns × M rows" in out.stdout
    out = run("solve", "mnk", "--rows", "15", "--cols", "4", "--k", "4", "--time-limit", "0.2",
              profile=tmp_path / "p", timeout=60)
    assert out.returncode == 1, out.stderr
    assert "could not solve 4×15 (columns × rows) with k=4" in out.stderr
