"""Grundy boards are said columns × rows, and nothing stored before changes its board
(issue 28, item 5).

The fixtures in tests/data/rows_first/ were made by the code from before, which said and
stored Grundy boards rows first (tests/data/make_rows_first.py): a King board of 8 rows ×
6 columns and a Queen board of 6 rows × 8 columns with two tokens, in statistics, settings
(King, 6 rows × 8 columns) and saved games.
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
from engine.screens.stats_scene import StatsScene
from engine.storage.saved_games import read_save
from games.grundy.setup_scene import GrundySetupOverlay
from games.grundy.variants import SPEC, GrundySetup
from tests.conftest import click_widget, key, make_app, stats_shown
from tests.support.cli import run

FIXTURES = Path(__file__).resolve().parents[2] / "data" / "rows_first"
KING_TALL = GrundySetup(game="king", rows=8, cols=6)  # "King 6×8"
QUEEN_WIDE = GrundySetup(game="queen", rows=6, cols=8, tokens=2)  # "Queen 8×6, 2 tokens"


@pytest.fixture(autouse=True)
def english() -> Any:
    set_language("en")
    yield
    set_language("en")


def old_profile(tmp_path: Path) -> Path:
    profile = tmp_path / "profile"
    shutil.copytree(FIXTURES / "profile", profile)
    return profile


def close(app: Any) -> None:
    app.handle(pygame.event.Event(pygame.QUIT))
    app.stats.close()


def labels(scene: Any) -> list[str]:
    return [w.text for w in scene.ui.widgets if type(w).__name__ == "Label"]


def test_ids_round_trip_and_the_older_rows_first_ids_keep_their_board() -> None:
    for game in ("king", "rook", "queen", "knight"):
        for rows, cols, tokens in ((8, 6, 1), (6, 8, 2), (3, 32, 1), (8, 8, 3)):
            setup = GrundySetup(game=game, rows=rows, cols=cols, tokens=tokens)
            assert SPEC.decode(SPEC.encode(setup)) == setup
            extra = f":{tokens}t" if tokens > 1 else ""
            assert SPEC.decode(f"{game}:{rows}x{cols}{extra}") == setup  # the older form
            assert SPEC.from_variant_id(SPEC.variant_id(setup)) == setup
    assert SPEC.encode(KING_TALL) == "king:6x8:cxr"
    assert SPEC.encode(QUEEN_WIDE) == "queen:8x6:cxr:2t"
    assert SPEC.encode(GrundySetup()) == "king:8x8"  # square: as before
    assert SPEC.variant_id(KING_TALL) == "king-8x6"  # statistics ids: as recorded
    assert KING_TALL.label() == "King 6×8" and QUEEN_WIDE.label() == "Queen 8×6, 2 tokens"


def test_saves_made_before_open_on_their_board() -> None:
    game = find_game("grundy")
    for name, setup in (("grundy-king-8r6c", KING_TALL), ("grundy-queen-6r8c-2t", QUEEN_WIDE)):
        params, _state = read_save(game, (FIXTURES / "saved" / f"{name}.json").read_text())
        assert params == setup, name


def test_an_old_save_resumes_on_its_board_and_is_saved_again_columns_first(
        tmp_path: Path) -> None:
    profile = old_profile(tmp_path)
    (profile / "saved").mkdir()
    shutil.copy(FIXTURES / "saved" / "grundy-king-8r6c.json", profile / "saved" / "grundy.json")
    app = make_app(profile)
    try:
        click_widget(app, "grundy")
        scene = app.top
        assert (scene.config.rows, scene.config.cols) == (8, 6)
        assert "King 6×8" in labels(scene)
    finally:
        close(app)
    saved = json.loads((profile / "saved" / "grundy.json").read_text(encoding="utf-8"))
    assert saved["params"] == "king:6x8:cxr"


def test_old_settings_open_the_same_board_and_the_setup_says_columns_by_rows(
        tmp_path: Path) -> None:
    app = make_app(old_profile(tmp_path))
    try:
        click_widget(app, "grundy")
        scene = app.top
        assert (scene.config.piece, scene.config.rows, scene.config.cols) == ("king", 6, 8)
        assert "King 8×6" in labels(scene)
        key(app, pygame.K_s)
        setup = app.top
        assert isinstance(setup, GrundySetupOverlay)
        steppers = {w.name: w for w in setup.ui.widgets if type(w).__name__ == "Stepper"}
        assert steppers["Columns"].rect[0] < steppers["Rows"].rect[0]
        assert (steppers["Columns"].text, steppers["Rows"].text) == ("8", "6")
        click_widget(app, "Rows+")
        assert "King 8×7" in labels(setup)  # the footer names the choice
        click_widget(app, "Start")
        assert (app.top.config.rows, app.top.config.cols) == (7, 8)
        key(app, pygame.K_t)
        assert app.top.debug_state()["size"] == [7, 8]  # rows, columns
        assert "Grundy values: King on 8×7" in labels(app.top)
    finally:
        close(app)


def test_the_statistics_made_before_title_each_board_columns_by_rows(tmp_path: Path) -> None:
    app = make_app(old_profile(tmp_path))
    try:
        click_widget(app, "Statistics")
        assert isinstance(app.top, StatsScene)
        stats_shown(app)
        variants = [e.text for e in app.top.entries if e.kind == "variant"]
        assert "King 6×8" in variants and "Queen 8×6, 2 tokens" in variants
        assert "King 8×6" not in variants and "Queen 6×8, 2 tokens" not in variants
    finally:
        close(app)


def test_the_grundy_command_lists_columns_first(tmp_path: Path) -> None:
    out = run("grundy", "--help", profile=tmp_path / "p")
    assert out.returncode == 0 and "--cols C --rows R" in out.stdout
    out = run("grundy", "king", "--cols", "5", "--rows", "3", profile=tmp_path / "p")
    lines = out.stdout.splitlines()
    assert len(lines) == 3 and all(len(line.split()) == 5 for line in lines)
