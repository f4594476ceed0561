"""The descriptor contract (issue 27): a game declares itself with a few required fields,
everything else has a default derived from its kind, every field is checked when it is
discovered, and a broken game is left out with one clear error, never taking the launcher
or the other games down.

The games here live in a temporary games package written by the test (what a contributor
following "Adding a game" writes): a minimal two-player game declaring only the required
fields and its rules, a game package that fails to import, one with a bad field, and one
that takes another game's id.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from engine.model import registry
from engine.model.descriptor import DescriptorError, GameDescriptor
from engine.model.sound_names import SOUNDS, default_sounds
from tests.conftest import click_widget, key, make_app

ROOT = Path(__file__).resolve().parents[3]

# A pile of counters: take one or two, whoever takes the last one wins. Pure Python.
RULES = '''
"""Take one or two counters; whoever takes the last one wins."""

from dataclasses import dataclass

from engine.model.rules import IllegalMove


@dataclass(frozen=True)
class Pile:
    left: int
    mover: int = 0
    num_players: int = 2

    def current_player(self):
        return self.mover

    def legal_moves(self):
        return [n for n in (1, 2) if n <= self.left]

    def play(self, move):
        if move not in self.legal_moves():
            raise IllegalMove(move)
        return Pile(self.left - move, 1 - self.mover)

    def is_terminal(self):
        return self.left == 0

    def returns(self):
        if not self.is_terminal():
            return (0, 0)
        winner = 1 - self.mover  # who took the last counter
        return (1, -1) if winner == 0 else (-1, 1)


def new_game(params, rng):
    return Pile(5)
'''

# Its screen: a click anywhere on the board takes one counter.
SCENE = '''
import pygame

from engine.screens.turn_scene import TurnBasedScene

from {package}.pile import descriptor, rules


class PileScene(TurnBasedScene):
    GAME = descriptor.GAME

    def __init__(self, app, params=None, seats=None, seed=None):
        super().__init__(app, self.GAME, params, rules.Pile(5), seats, seed)

    def fresh_state(self):
        return rules.Pile(5)

    def board_event(self, event):
        if event.type == pygame.MOUSEBUTTONDOWN and self.area("board").collidepoint(event.pos):
            self.play_move(1)

    def draw_board(self, surface):
        pygame.draw.rect(surface, self.app.theme.palette.board, self.area("board"))
'''

DESCRIPTOR = '''
from engine.model.descriptor import GameDescriptor

GAME = GameDescriptor(
    id="twostep",
    title="Two Step",
    blurb="Take one or two; the last counter wins.",
    scene="{package}.pile.scene:PileScene",
    rules="{package}.pile.rules:new_game",
)

DESCRIPTORS = (GAME,)
'''

# The same game with a computer player but no ladder (so no level to choose).
DUEL = '''
from engine.ai.agent import RandomAgent
from engine.model.descriptor import GameDescriptor

GAME = GameDescriptor(
    id="duel",
    title="Duel",
    blurb="Two Step against the computer.",
    scene="{package}.duel.descriptor:DuelScene",
    rules="{package}.pile.rules:new_game",
    agents="{package}.duel.descriptor:make_agent",
)

DESCRIPTORS = (GAME,)


def make_agent(params, seat, seed):
    return RandomAgent(seed)


def DuelScene(app, params=None, **options):
    from {package}.pile.scene import PileScene

    class Scene(PileScene):
        pass

    Scene.GAME = GAME
    return Scene(app, params, **options)
'''

BAD_FIELD = '''
from engine.model.descriptor import GameDescriptor

DESCRIPTORS = (GameDescriptor(id="badfield", title="Bad field", blurb="", scene="x.y:z",
                              preview="no path here"),)
'''

TWIN = '''
from engine.model.descriptor import GameDescriptor

DESCRIPTORS = (GameDescriptor(id="twostep", title="Another two step", blurb="", scene="x.y:z"),)
'''

_counter = itertools.count()


def write_games(root: Path, broken: bool = True) -> str:
    """A games package under ``root`` (a fresh name each time: modules are cached) with
    the four game packages described in the module docstring (only the good one without
    ``broken``); returns its name."""
    package = f"contract_games_{next(_counter)}"
    base = root / package
    files = {
        "__init__.py": "",
        "pile/__init__.py": "",
        "pile/rules.py": RULES,
        "pile/scene.py": SCENE.format(package=package),
        "pile/descriptor.py": DESCRIPTOR.format(package=package),
        "duel/__init__.py": "",
        "duel/descriptor.py": DUEL.format(package=package),
        "broken/__init__.py": "",
        "broken/descriptor.py": "import no_such_module_anywhere  # noqa\n",
        "badfield/__init__.py": "",
        "badfield/descriptor.py": BAD_FIELD,
        "twin/__init__.py": "",
        "twin/descriptor.py": TWIN,
        "notagame/__init__.py": "",  # a package with no descriptor is simply not a game
    }
    for name, text in files.items():
        if not broken and not name.startswith(("pile/", "duel/", "__init__")):
            continue
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return package


def _use_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                 broken: bool) -> Iterator[str]:
    root = tmp_path / "src"
    package = write_games(root, broken)
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setenv("ARCADE_GAMES_PACKAGE", package)
    registry.reset()
    yield package
    registry.reset()
    for name in [m for m in sys.modules if m.startswith(package)]:
        del sys.modules[name]


@pytest.fixture
def games_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The temporary games package, broken games and all, as ``ARCADE_GAMES_PACKAGE``."""
    yield from _use_package(tmp_path, monkeypatch, broken=True)


@pytest.fixture
def pile_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A games package holding only the minimal game, as ``ARCADE_GAMES_PACKAGE``."""
    yield from _use_package(tmp_path, monkeypatch, broken=False)


def base(**fields: Any) -> dict[str, Any]:
    """The required fields of a descriptor, with ``fields`` added or replaced."""
    return {"id": "t", "title": "T", "blurb": "", "scene": "a.b:c", **fields}


# --- discovery -----------------------------------------------------------------------------

def test_broken_games_are_left_out_with_one_error_each(games_package: str) -> None:
    found = registry.discover_all(games_package)
    assert [g.id for g in found.games] == ["duel", "twostep"]
    texts = sorted(p.text for p in found.problems)
    assert len(texts) == 3, texts
    bad, broken, twin = texts
    assert bad.startswith("Game badfield could not be loaded: field 'preview': must be an "
                          "import path 'package.module:name', not 'no path here'")
    assert broken.startswith("Game broken could not be loaded: ModuleNotFoundError")
    assert "no_such_module_anywhere" in broken
    assert twin == ("Game twostep could not be loaded: field 'id': 'twostep' is already a name "
                    "of twostep")
    # The registry's own view (ARCADE_GAMES_PACKAGE) is the same.
    assert [g.id for g in registry.all_games()] == ["duel", "twostep"]
    assert len(registry.problems()) == 3


def test_the_launcher_draws_and_tells_of_each_broken_game(games_package: str,
                                                           profile: Path) -> None:
    app = make_app(profile)
    try:
        app.step([])
        notices = app.notices
        assert any("Game badfield could not be loaded: field 'preview'" in n for n in notices)
        assert any("Game broken could not be loaded" in n for n in notices)
        assert app.top.debug_state()["tiles"] == [{"id": "duel"}, {"id": "twostep"}]
        # The good game's tile (no preview: the launcher's own picture) opens it.
        click_widget(app, "twostep")
        assert type(app.top).__name__ == "PileScene"
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


def test_the_command_line_prints_the_broken_games_on_stderr(games_package: str,
                                                            capsys: pytest.CaptureFixture
                                                            ) -> None:
    from engine.runtime import cli

    with pytest.raises(SystemExit):
        cli.main(["--help"])
    err = capsys.readouterr().err
    assert "Game badfield could not be loaded: field 'preview'" in err


def test_a_preview_that_will_not_load_gets_the_launchers_tile_and_a_notice(
        profile: Path) -> None:
    games = [GameDescriptor(**base(id="lost", title="Lost picture",
                                   preview="no_such_preview_module:draw")),
             GameDescriptor(**base(id="plain", title="Plain"))]
    with registry.override(games):
        app = make_app(profile)
        try:
            app.step([])
            assert any("Game lost could not be loaded: field 'preview': ModuleNotFoundError"
                       in n for n in app.notices), app.notices
            tiles = app.top.tiles
            assert [t.problem is not None for t in tiles] == [True, False]
            before = app.screen.copy()
            app.step([])  # both tiles draw (the launcher's own picture), frame after frame
            assert app.screen.get_size() == before.get_size()
        finally:
            app.quit()
            app.stats.close()
            pygame.display.quit()


def test_smoke_fails_on_a_broken_game_and_names_it(tmp_path: Path) -> None:
    """``--smoke`` (the build's and CI's check) must not pass a bundle with a broken game."""
    import os
    import subprocess

    root = tmp_path / "src"
    package = write_games(root)
    env = {**os.environ, "ARCADE_GAMES_PACKAGE": package, "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy",
           "PYTHONPATH": os.pathsep.join([str(root), str(ROOT)])}
    out = subprocess.run([sys.executable, str(ROOT / "main.py"), "--smoke", "--profile",
                          str(tmp_path / "profile")], capture_output=True, text=True,
                         timeout=120, env=env, cwd=tmp_path)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Game badfield could not be loaded: field 'preview'" in out.stderr


# --- what is optional is optional ------------------------------------------------------------

def test_defaults_follow_the_kind() -> None:
    two = GameDescriptor(**base())
    assert two.preview is None and two.preview_painter() is None
    assert two.default_kinds == ("human", "human"), "no agents: no computer seat"
    assert two.sounds == ("place", "illegal", "win", "loss", "draw")
    assert two.levels == () and two.default_level == ""
    with_ai = GameDescriptor(**base(agents="a.b:make"))
    assert with_ai.default_kinds == ("human", "computer")
    assert "computer" in with_ai.sounds
    puzzle = GameDescriptor(**base(kind="puzzle"))
    assert puzzle.sounds == default_sounds("puzzle", False)
    for kind in ("two-player", "multi-player", "puzzle"):
        assert set(default_sounds(kind, True)) <= set(SOUNDS)


def test_the_minimal_game_opens_plays_and_sets_up_with_the_engine_defaults(
        pile_package: str, profile: Path) -> None:
    app = make_app(profile)
    try:
        game = registry.find_game("twostep")
        scene = app.push(game.open_scene(app))
        app.step([])
        assert [s.kind for s in scene.seats] == ["human", "human"]
        board = scene.area("board").center
        for _ in range(5):
            app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=board, button=1),
                      pygame.event.Event(pygame.MOUSEBUTTONUP, pos=board, button=1)])
        assert scene.state.is_terminal()
        assert set(app.audio.played) <= set(game.sounds)
        assert not [n for n in app.notices if "could not" in n.lower()], app.notices
        # Setup works with no override: seats only (no ParamSpec), and no computer to pick.
        app.pop_to(type(scene))
        click_widget(app, "Setup")
        overlay = app.top
        assert type(overlay).__name__ == "ParamsSetupOverlay"
        names = {getattr(w, "name", None) for w in overlay.ui.widgets
                 if w.visible is True or (callable(w.visible) and w.visible())}
        assert "Start" in names and "1 computer" not in names and "1 mistakes" not in names
        key(app, pygame.K_RETURN)
        assert type(app.top).__name__ == "PileScene" and app.top is not scene
        assert app.top.state.left == 5
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


@pytest.mark.parametrize("game_id", ["twostep", "duel"])
def test_the_minimal_games_pass_the_conformance_checks(pile_package: str, app: Any,
                                                       game_id: str) -> None:
    from tests.games import test_conformance as conformance

    game = registry.find_game(game_id)
    conformance.test_random_playouts_keep_the_rules_interface(game)
    conformance.test_illegal_moves_are_refused(game)
    conformance.test_undo_redo_round_trips_over_a_playout(game)
    conformance.test_every_level_plays_legal_moves_to_the_end(game)
    with contextlib.suppress(pytest.skip.Exception):  # (no hints: nothing to measure by)
        conformance.test_perfect_level_never_loses_a_won_or_drawn_start_on_small_boards(game)
    conformance.test_descriptor_keeps_the_contract(game)
    conformance.test_engine_names_no_game(game)
    conformance.test_each_game_opens_draws_and_closes(app, game)
    state = game.new_game(None, random.Random(0))
    assert state.legal_moves() == [1, 2]


def test_a_computer_without_a_ladder_is_offered_with_no_level_to_choose(
        pile_package: str, profile: Path) -> None:
    app = make_app(profile)
    try:
        game = registry.find_game("duel")
        assert game.default_kinds == ("human", "computer") and game.levels == ()
        scene = app.push(game.open_scene(app, seed=1))
        assert [s.kind for s in scene.seats] == ["human", "computer"]
        board = scene.area("board").center
        app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=board, button=1),
                  pygame.event.Event(pygame.MOUSEBUTTONUP, pos=board, button=1)])
        for _ in range(200):  # the computer answers off the frame loop
            app.step([], dt=0.05)
            if scene.state.left < 4:
                break
        assert scene.state.left < 4, "the computer did not move"
        click_widget(app, "Setup")
        shown = {getattr(w, "name", None) for w in app.top.ui.widgets
                 if w.visible is True or (callable(w.visible) and w.visible())}
        assert {"2 human", "2 computer", "2 mistakes"} <= shown
        assert "2 level" not in shown, "no ladder: no level to choose"
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


# --- every field is checked ------------------------------------------------------------------

BAD_FIELDS = [
    ("id", {"id": "Two Words"}), ("id", {"id": ""}), ("id", {"id": "all"}),
    ("title", {"title": ""}), ("title", {"title": 3}), ("blurb", {"blurb": None}),
    ("scene", {"scene": ""}), ("scene", {"scene": "module.without.attribute"}),
    ("preview", {"preview": "a.b:c:d"}), ("rules", {"rules": 42}),
    ("cli", {"cli": "pkg.mod:attr"}), ("kind", {"kind": "solitaire"}),
    ("aliases", {"aliases": "pile"}), ("aliases", {"aliases": ("t",)}),
    ("seat_keys", {"seat_keys": ()}), ("seat_keys", {"seat_keys": ("X", "X")}),
    ("default_kinds", {"default_kinds": ("human", "robot")}),
    ("default_kinds", {"default_kinds": ("human", "computer")}),  # no agents
    ("default_kinds", {"default_kinds": ("human",) * 3, "agents": "a.b:c"}),
    ("levels", {"levels": ("easy",)}),  # no agents
    ("levels", {"levels": ("easy", "easy"), "agents": "a.b:c", "default_level": "easy"}),
    ("default_level", {"levels": ("easy", "hard"), "agents": "a.b:c",
                       "default_level": "godlike"}),
    ("level_labels", {"level_labels": {"x": "X"}}),
    ("ladder", {"ladder": (object(),), "agents": "a.b:c"}),
    ("small", {"small": ["3x3"]}), ("order", {"order": "first"}), ("order", {"order": True}),
    ("sounds", {"sounds": ("boom",)}), ("sounds", {"sounds": ("win", "win")}),
    ("sounds", {"sounds": "win"}),
]


@pytest.mark.parametrize(("field", "fields"), BAD_FIELDS,
                         ids=[f"{f}-{i}" for i, (f, _) in enumerate(BAD_FIELDS)])
def test_a_bad_field_is_named_in_one_error(field: str, fields: dict[str, Any]) -> None:
    with pytest.raises(DescriptorError) as caught:
        GameDescriptor(**base(**fields))
    assert caught.value.field == field, caught.value
    assert f"field {field!r}: " in str(caught.value)
    assert str(caught.value).startswith("game ")


def test_the_real_games_keep_the_contract() -> None:
    """Discovery of the real games package leaves nothing out."""
    assert registry.discover_all("games").problems == ()
