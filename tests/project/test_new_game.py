"""tools/new_game.py (issue 27, item 5): a scaffolded game plays at once.

Both kinds are written into a temporary games package (``ARCADE_GAMES_PACKAGE``, as in
tests/engine/model/test_descriptor_contract.py), never into the repository's games/:
discovery finds them with no problem, the conformance suite's checks pass, the launcher
shows their tiles, real clicks play them to the end; bad names are refused with exit
status 2 and nothing written; the generated code is ruff-clean, keeps pygame out of its
rules, marks every text it shows, and ships the hu and cs translations of its texts; the
line counts in docs/adding-a-game.md are the scaffold's.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import itertools
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from engine.model import registry
from engine.model.seats import Seat
from engine.screens.puzzle_scene import WinOverlay
from engine.screens.result_overlay import ResultOverlay
from tests.conftest import click, click_widget, make_app, run_until

ROOT = Path(__file__).resolve().parents[2]
TWO, PUZZLE = "sc_take", "sc_lamps"  # (no word of the engine's: see test_engine_names_no_game)
IDS = {TWO: "sc-take", PUZZLE: "sc-lamps"}


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"tool_{name}", ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


tool = _load("new_game")
_counter = itertools.count()


def new_package(tmp_path: Path) -> Path:
    """An empty games package (a fresh name each time: modules are cached)."""
    folder = tmp_path / "src" / f"scaffolded_games_{next(_counter)}"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("", encoding="utf-8")
    return folder


@pytest.fixture
def games_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Both kinds scaffolded into a temporary games package, as ``ARCADE_GAMES_PACKAGE``."""
    folder = new_package(tmp_path)
    assert tool.main([TWO, "--folder", str(folder), "--title", "Sc Take"]) == 0
    assert tool.main([PUZZLE, "--kind", "puzzle", "--folder", str(folder)]) == 0
    monkeypatch.syspath_prepend(str(folder.parent))
    monkeypatch.setenv("ARCADE_GAMES_PACKAGE", folder.name)
    registry.reset()
    yield folder.name
    registry.reset()
    for name in [m for m in sys.modules if m.startswith(folder.name)]:
        del sys.modules[name]


@contextlib.contextmanager
def running(profile: Path) -> Iterator[Any]:
    app = make_app(profile)
    try:
        yield app
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


def click_cell(app: Any, scene: Any, row: int, col: int) -> None:
    """A real click (posted events, one frame) on a cell of the scene's board."""
    x, y = scene.geometry().cell_rect(row, col).center
    click(app, *app.viewport.to_design((x, y)))


# --- what discovery, the conformance suite and the launcher see ----------------------------

def test_discovery_finds_both_with_no_problems(games_package: str) -> None:
    found = registry.discover_all(games_package)
    assert found.problems == ()
    assert {g.id: g.kind for g in found.games} == {"sc-take": "two-player",
                                                  "sc-lamps": "puzzle"}
    take = registry.find_game("sc-take")
    assert take.title == "Sc Take" and take.levels == ("easy", "perfect")
    assert take.default_kinds == ("human", "computer")
    assert registry.find_game("sc-lamps").title == "Sc Lamps"


def _conformance(game: Any, app: Any) -> None:
    from tests.games import test_conformance as conformance

    checks = [conformance.test_descriptor_keeps_the_contract,
              conformance.test_engine_names_no_game,
              conformance.test_parameters_round_trip_through_game_ids_and_settings,
              conformance.test_random_playouts_keep_the_rules_interface,
              conformance.test_illegal_moves_are_refused,
              conformance.test_undo_redo_round_trips_over_a_playout]
    if game.is_puzzle:
        checks += [conformance.test_puzzles_round_trip_through_the_midend,
                   conformance.test_puzzle_solutions_replayed_from_a_new_game_solve_it]
    else:
        checks += [conformance.test_hint_values_equal_the_generic_negamax_on_small_boards,
                   conformance.test_every_level_plays_legal_moves_to_the_end,
                   conformance.test_perfect_level_never_loses_a_won_or_drawn_start_on_small_boards,
                   conformance.test_version_1_positions_junk_is_refused_with_a_value_error]
    skipped = []
    for check in checks:
        try:
            check(game)
        except pytest.skip.Exception:
            skipped.append(check.__name__)
    # (No parameters: nothing to round-trip; everything else runs.)
    assert skipped == ["test_parameters_round_trip_through_game_ids_and_settings"]
    for check in (conformance.test_each_game_opens_draws_and_closes,
                  conformance.test_every_game_round_trips_a_saved_game,
                  conformance.test_damaged_moves_in_a_save_are_refused_with_a_value_error):
        check(app, game)


@pytest.mark.parametrize("name", [TWO, PUZZLE])
def test_the_conformance_checks_pass(games_package: str, app: Any, name: str) -> None:
    _conformance(registry.find_game(IDS[name]), app)


def test_the_launcher_shows_both_tiles_and_opens_each(games_package: str,
                                                      profile: Path) -> None:
    with running(profile) as app:
        assert app.notices == [] or not [n for n in app.notices if "could not" in n.lower()]
        assert app.top.debug_state()["tiles"] == [{"id": "sc-lamps"}, {"id": "sc-take"}]
        click_widget(app, "sc-take")
        assert type(app.top).__name__ == "ScTakeScene"
        app.pop()
        click_widget(app, "sc-lamps")
        assert type(app.top).__name__ == "ScLampsScene"


# --- played with real clicks -----------------------------------------------------------------

def test_the_two_player_game_is_played_to_its_end_with_clicks(games_package: str,
                                                               profile: Path) -> None:
    with running(profile) as app:
        game = registry.find_game("sc-take")
        scene = app.push(game.open_scene(app, seats=(Seat("human"), Seat("human"))))
        app.step([])
        click_cell(app, scene, 1, 0)  # the first of 15 counters: too many to take
        assert scene.state.left == 15 and "illegal" in app.audio.played
        click_cell(app, scene, 1, 12)  # the third from the end: takes three
        assert (scene.state.left, scene.state.mover) == (12, 1)
        while not scene.state.is_terminal():
            click_cell(app, scene, 1, scene.state.left - 1)  # take one
        # Three, then twelve ones: the first player took the last counter.
        assert scene.state.returns() == (1.0, -1.0)
        assert "Player 1 took the last counter and wins!" in scene.status_text()
        run_until(app, lambda: isinstance(app.top, ResultOverlay))
        assert not [n for n in app.notices if "could not" in n.lower()], app.notices


def test_the_computer_answers_and_hints_show(games_package: str, profile: Path) -> None:
    with running(profile) as app:
        game = registry.find_game("sc-take")
        scene = app.push(game.open_scene(app, seed=1))  # human against the computer
        assert [s.kind for s in scene.seats] == ["human", "computer"]
        scene.show_hints = True
        run_until(app, lambda: bool(scene.hints))
        # 15 counters: taking three leaves a multiple of four, the only winning move.
        assert {take: v.outcome for take, v in scene.hints.items()} == {
            1: "loss", 2: "loss", 3: "win"}
        click_cell(app, scene, 1, 14)  # the last counter: take one
        run_until(app, lambda: scene.state.mover == 0 and scene.state.left < 14)
        assert scene.state.left in (11, 12, 13)


def test_the_puzzle_is_solved_with_clicks(games_package: str, profile: Path) -> None:
    import threading

    from engine.model.descriptor import load

    with running(profile) as app:
        game = registry.find_game("sc-lamps")
        scene = app.push(game.open_scene(app))
        app.step([])
        start = scene.state
        assert not start.is_terminal()
        click_cell(app, scene, 0, 0)
        assert scene.state == start.play(0) and scene.puzzle.moves == 1
        click_cell(app, scene, 0, 0)  # pressed twice: back to the start
        assert scene.state.lamps == start.lamps
        solution = load(game.solve)(scene.state, threading.Event(), lambda _f: None)
        assert solution
        for lamp in solution:
            click_cell(app, scene, 0, lamp)
        assert scene.state.is_terminal() and scene.puzzle.solved
        run_until(app, lambda: isinstance(app.top, WinOverlay))
        assert app.top.moves == 2 + len(solution)


# --- the command line --------------------------------------------------------------------------

BAD_NAMES = ["Upper", "1st", "has-dash", "two__under", "trailing_", "class", "all", "play",
             "launcher", "connect4", "c4", "connect_four", "x" * 31, "", "naïve"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_bad_name_is_refused_with_exit_2_and_nothing_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    folder = new_package(tmp_path)
    before = sorted(p.name for p in folder.iterdir())
    assert tool.main([name, "--folder", str(folder)]) == 2
    assert sorted(p.name for p in folder.iterdir()) == before
    err = capsys.readouterr().err
    assert err.startswith("tools/new_game.py: "), err
    assert name[:10] in err or name.replace("_", "-") in err, err


def test_existing_packages_titles_and_force(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    folder = new_package(tmp_path)
    assert tool.main(["first", "--folder", str(folder)]) == 0
    # A game's name is taken by its folder, and its id by any other package.
    assert tool.main(["first", "--folder", str(folder)]) == 2
    assert "exists already" in capsys.readouterr().err
    (folder / "other").mkdir()
    (folder / "other" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "other" / "descriptor.py").write_text(
        "from engine.model.descriptor import GameDescriptor\n"
        "DESCRIPTORS = (GameDescriptor(id='second', title='S', blurb='', scene='a.b:c',"
        " aliases=('third',)),)\n", encoding="utf-8")
    for taken in ("second", "third"):
        assert tool.main([taken, "--folder", str(folder)]) == 2
        assert "already a name of the game second" in capsys.readouterr().err
    assert not (folder / "second").exists() and not (folder / "third").exists()
    # --force replaces a scaffold (of another kind here), never a hand-made package.
    assert tool.main(["first", "--folder", str(folder), "--force", "--kind", "puzzle"]) == 0
    assert not (folder / "first" / "ai.py").exists()
    assert 'kind="puzzle"' in (folder / "first" / "descriptor.py").read_text(encoding="utf-8")
    (folder / "first" / "notes.txt").write_text("mine", encoding="utf-8")
    assert tool.main(["first", "--folder", str(folder), "--force"]) == 2
    assert "files this tool never writes (notes.txt)" in capsys.readouterr().err
    assert (folder / "first" / "notes.txt").exists()
    for title in ("", "T" * 41, "two\nlines"):
        assert tool.main(["fresh", "--folder", str(folder), "--title", title]) == 2
    assert not (folder / "fresh").exists()
    out = capsys.readouterr()
    assert "title must be one line" in out.err


def test_help_names_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        tool.main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    for option in ("NAME", "--kind", "{two-player,puzzle}", "--title", "--folder", "--force",
                   "--count"):
        assert option in text, option
    with pytest.raises(SystemExit) as done:
        tool.main([])  # no name
    assert done.value.code == 2


def test_help_runs_as_a_command() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "new_game.py"), "--help"],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert out.returncode == 0 and "--kind" in out.stdout, out.stderr


# --- the generated code ------------------------------------------------------------------------

def _rendered(tmp_path: Path) -> dict[str, dict[str, str]]:
    """Both kinds rendered as the real games/ package would hold them, with the longest
    name and title allowed (the longest lines)."""
    out = {}
    for kind, name in (("two-player", "t" * tool.MAX_NAME), ("puzzle", "p" * tool.MAX_NAME)):
        out[name] = tool.render(kind, name, "T" * tool.MAX_TITLE)
        folder = tmp_path / "games" / name
        folder.mkdir(parents=True)
        for file, text in out[name].items():
            (folder / file).write_text(text, encoding="utf-8")
    return out


def test_the_generated_code_is_ruff_clean(tmp_path: Path) -> None:
    ruff = Path(sys.executable).with_name("ruff")
    if not ruff.exists():
        pytest.skip("ruff is not installed in this environment")
    _rendered(tmp_path)
    out = subprocess.run([str(ruff), "check", "--config", str(ROOT / "pyproject.toml"),
                          str(tmp_path / "games")], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_generated_imports_keep_the_rules(tmp_path: Path) -> None:
    """Rules and AI import no pygame and only modules below them (no cycle); only a module
    named scene imports pygame; every shown text is marked for translation."""
    from tests.engine.core.test_i18n import scan

    for name, files in _rendered(tmp_path).items():
        mine: dict[str, set[str]] = {}
        for file, text in files.items():
            imported = set()
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.Import):
                    imported |= {a.name for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module:
                    imported.add(node.module)
            module = file.removesuffix(".py")
            assert ("pygame" in imported) == (module == "scene"), (name, file)
            mine[module] = {m.rsplit(".", 1)[1] for m in imported
                            if m.startswith(f"games.{name}.")}
            assert scan(text, f"{name}/{file}") == []
        assert mine["descriptor"] == mine["rules"] == mine["__init__"] == set()
        assert mine["scene"] == {"descriptor", "rules"}
        assert mine.get("ai", {"rules"}) == {"rules"}


# --- translations and line counts ----------------------------------------------------------------

@pytest.mark.parametrize("kind", tool.KINDS)
def test_the_new_texts_arrive_translated_in_hu_and_cs(tmp_path: Path, kind: str) -> None:
    """On a copy of the project's catalogues: the scaffold's texts get hu and cs entries,
    the title its own until someone translates it; nothing is left missing or fuzzy."""
    root = tmp_path / "project"
    root.mkdir()
    shutil.copy(ROOT / "babel.cfg", root / "babel.cfg")
    shutil.copytree(ROOT / "assets" / "locale", root / "assets" / "locale")
    (root / "games").mkdir()
    (root / "games" / "__init__.py").write_text("", encoding="utf-8")
    for file, text in tool.render(kind, "fresh_game", "Fresh Game").items():
        path = root / "games" / "fresh_game" / file
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    lines = tool.add_translations(root, kind, "Fresh Game")
    assert "hu: complete" in lines and "cs: complete" in lines, lines
    from babel.messages.pofile import read_po

    for lang in ("hu", "cs"):
        with open(root / "assets" / "locale" / lang / "LC_MESSAGES" / "arcade.po", "rb") as f:
            catalogue = {m.id: m.string for m in read_po(f, locale=lang) if m.id}
        assert catalogue["Fresh Game"] == "Fresh Game"
        for key in tool.KIND_TEXTS[kind]:
            english, hu, cs = tool.TEXTS[key]
            assert catalogue[english] == {"hu": hu, "cs": cs}[lang]


def test_every_translation_keeps_the_placeholders() -> None:
    import re

    for key, (english, hu, cs) in tool.TEXTS.items():
        wanted = sorted(re.findall(r"{\w*}", english))
        assert sorted(re.findall(r"{\w*}", hu)) == wanted == sorted(re.findall(r"{\w*}", cs)), key


def test_line_counts_count_code_without_comments_and_docstrings() -> None:
    text = '"""Doc\nstring."""\n\n# a comment\nX = 1  # counted\n\n\ndef f():\n    """Doc."""\n' \
           '    return """two\nlines"""\n'
    assert tool.count_lines(text) == (8, 4)


def test_the_documented_line_counts_are_current() -> None:
    make_docs = _load("make_docs")
    doc = ROOT / "docs" / "adding-a-game.md"
    blocks = {m["key"]: m["body"] for m in make_docs.BLOCK.finditer(doc.read_text("utf-8"))}
    assert blocks["scaffold-lines"] == make_docs.render("scaffold-lines", doc, "")
    table = tool.count_table()
    assert blocks["scaffold-lines"] == table
    for kind, rows in tool.line_counts().items():
        total = sum(code for *_f, code in rows)
        assert f"| **{kind}** | **all {len(rows)} files** |" in table and f"**{total}**" in table


def test_the_checklist_lists_every_descriptor_field_and_the_readme_links_it() -> None:
    import dataclasses

    from engine.model.descriptor import REQUIRED_FIELDS, GameDescriptor

    text = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip().strip("`"): line.split("|")[2].strip()
            for line in text.splitlines() if line.startswith("| `")}
    fields = {f.name for f in dataclasses.fields(GameDescriptor)}
    assert fields <= set(rows), fields - set(rows)
    assert {name for name in fields if rows[name].startswith("yes")} == set(REQUIRED_FIELDS)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/adding-a-game.md)" in readme and len(readme.splitlines()) <= 200
    assert "(adding-a-game.md)" in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_scaffolded_into_a_copy_of_the_project_the_suite_passes(tmp_path: Path) -> None:
    """The real thing, on a copy of the project (never the repository's games/): both
    kinds written into games/, the translations and docs refreshed by the tool, then the
    translation, conformance, docs and project-rule tests pass with them."""
    copy = tmp_path / "project"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
        ".git", "__pycache__", ".pytest_cache", ".ruff_cache", "dist", ".pyinstaller-work"))
    for args in (["take_away", "--title", "Take Away"], ["lamp_row", "--kind", "puzzle"]):
        out = subprocess.run([sys.executable, "tools/new_game.py", *args], cwd=copy,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stdout + out.stderr
        assert "cs: complete" in out.stdout and "hu: complete" in out.stdout, out.stdout
    tests = ["tests/engine/core/test_i18n.py", "tests/project/test_docs_generated.py",
             "tests/project/test_project_rules.py", "tests/games/test_conformance.py",
             "tests/project/test_import_graph.py::test_no_import_cycles_even_in_annotations",
             "tests/project/test_import_graph.py::test_games_import_each_other_never"]
    out = subprocess.run([sys.executable, "-m", "pytest", *tests, "-q", "-m", "not slow",
                          "-p", "no:cacheprovider", "-n", "0"], cwd=copy, capture_output=True,
                         text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "take-away" in (copy / "build" / "README.md").read_text(encoding="utf-8")
