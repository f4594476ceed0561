"""Every screen the layout tests open, as cases: how to reach it, at every window shape
(shared by the layout and the translated-screens tests)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from engine.model.registry import all_games
from engine.model.seats import Seat
from engine.runtime.app import App
from engine.screens.overlays import ConfirmDialog
from engine.screens.scene import HelpOverlay, Overlay, Scene
from engine.screens.turn_scene import TurnBasedScene
from tests.conftest import click_widget, key, make_app, run_until


def controls_shown(scene: Scene) -> bool:
    """Whether the computer-against-computer controls are on screen."""
    try:
        return scene.ui.find("Pause").visible
    except KeyError:
        return False


# --- opening the screens ------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """A screen to check: how to open it, and why it is skipped (None: it is not)."""

    name: str
    open: Callable[[App], None]
    skip: str | None = None


def _seats(kind: str, levels: tuple[str, ...]) -> tuple[Seat, ...]:
    """Seats for any number of players (the scene takes as many as it has): all humans
    ("hvh"), a human against the computer ("hvc") or all computers ("cvc")."""
    level = levels[0] if levels else "easy"
    if kind == "hvh":
        return (Seat(),) * 4
    if kind == "hvc":
        return (Seat(), *[Seat("computer", level)] * 3)
    return (Seat("computer", level),) * 4


def open_game(game_id: str, seats: str | None = None, params: Any = None,
              **options: Any) -> Callable[[App], None]:
    """Open a registered game with its descriptor's ``open_scene``."""
    def opener(app: App) -> None:
        game = next(g for g in all_games() if g.id == game_id)
        if seats is not None:
            options["seats"] = _seats(seats, game.levels)
        scene = app.push(game.open_scene(app, params, **options))
        app.step([])
        if seats == "cvc":
            assert controls_shown(scene), f"{game_id}: the computer's controls are not shown"
    return opener


def then(*steps: Callable[[App], None]) -> Callable[[App], None]:
    """The steps one after the other."""
    def run(app: App) -> None:
        for step in steps:
            step(app)
    return run


def press(keycode: int, expect: type | str) -> Callable[[App], None]:
    """Press a key (a real KEYDOWN / KEYUP) and check the screen it opens."""
    def run(app: App) -> None:
        key(app, keycode)
        assert _is(app.top, expect), f"the key opened {type(app.top).__name__}, not {expect}"
    return run


def click_button(name: str, expect: type | str) -> Callable[[App], None]:
    """Click a button of the screen on top (real mouse events) and check what it opens."""
    def run(app: App) -> None:
        click_widget(app, name)
        run_until(app, lambda: _is(app.top, expect), timeout=5,
                  message=f"{name!r} did not open {expect}")
        # A screen that reads files off the frame loop (Statistics): until it shows them.
        run_until(app, lambda: getattr(app.top, "loaded", True), timeout=10,
                  message=f"{expect} did not show what it read")
    return run


def _is(scene: Any, expect: type | str) -> bool:
    if isinstance(expect, str):
        return type(scene).__name__ == expect
    return isinstance(scene, expect)


def finish_the_game(app: App) -> None:
    """Play a two-human game to its end (first legal move each turn): the result shows."""
    scene = app.top
    assert isinstance(scene, TurnBasedScene)
    for _ in range(400):
        if scene.state.is_terminal():
            break
        scene.play_move(scene.state.legal_moves()[0])
    assert scene.state.is_terminal(), "the game did not end"
    run_until(app, lambda: type(app.top).__name__ == "ResultOverlay", timeout=5,
              message="no result overlay after the game ended")


def record_some_results(app: App) -> None:
    """Results to fill the statistics table (more rows than a small window shows)."""
    games = [g for g in all_games() if not g.is_puzzle]
    for i in range(30):
        game = games[i % len(games)]
        app.stats.record_game(game.id, f"variant-{i}", "human-computer", "easy",
                              ("won", "lost", "drawn")[i % 3])
    for game in (g for g in all_games() if g.is_puzzle):
        app.stats.record_puzzle(game.id, "4x4", 12, 30.5, False)


def solve_button_madness(app: App) -> None:
    """Press the one button left to solve a board (a real click): the win screen shows."""
    from games.buttons.board import Board

    open_game("button-madness", board=Board.solved(4).press(0, 0), seed=1)(app)
    scene = app.top
    cell = scene.geometry().cell_rect(0, 0)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=cell.center, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=cell.center, button=1))
    app.step()
    run_until(app, lambda: type(app.top).__name__ == "WinOverlay", timeout=5,
              message="no win screen after solving")


def confirm(app: App) -> None:
    """A confirmation with a long question."""
    app.push(ConfirmDialog(app, "Start a new game? The game on the board is lost: it is not "
                           "over yet, and it will not count in the statistics.", lambda: None))


def text_entry(app: App) -> None:
    """Button Madness's board code dialog (key E)."""
    open_game("button-madness")(app)
    press(pygame.K_e, "TextEntryDialog")(app)


def cases() -> list[Case]:
    """Every screen of the collection."""
    found = [
        Case("launcher", lambda app: None),
        Case("statistics", then(record_some_results, click_button("Statistics", "StatsScene"))),
        Case("launcher help", press(pygame.K_F1, HelpOverlay)),
        Case("confirm dialog", confirm),
    ]
    settings = importlib.util.find_spec("engine.screens.settings_scene") is not None
    found.append(Case("settings", click_button("Settings", "SettingsOverlay"),
                      None if settings else "engine/screens/settings_scene.py is not written yet"))
    result = importlib.util.find_spec("engine.screens.result_overlay") is not None
    for game in all_games():
        if game.is_puzzle:
            found.append(Case(game.id, open_game(game.id)))
            found.append(Case(f"{game.id} help", then(open_game(game.id),
                                                       press(pygame.K_F1, HelpOverlay))))
            continue
        found += [
            Case(f"{game.id} human v computer", open_game(game.id, "hvc")),
            Case(f"{game.id} computer v computer", open_game(game.id, "cvc")),
            Case(f"{game.id} set-up", then(open_game(game.id, "hvc"),
                                           press(pygame.K_s, Overlay))),
            Case(f"{game.id} help", then(open_game(game.id, "hvc"),
                                         press(pygame.K_F1, HelpOverlay))),
            Case(f"{game.id} result", then(open_game(game.id, "hvh"), finish_the_game),
                 None if result else "engine/screens/result_overlay.py is not written yet"),
        ]
        if game.hints is not None:
            # (Its analysis may still run: the layout does not wait for it.)
            found.append(Case(f"{game.id} review", then(open_game(game.id, "hvh"),
                                                        finish_the_game,
                                                        click_button("Review", "ReviewScene"))))
    ids = {g.id for g in all_games()}
    if "grundy" in ids:
        from games.grundy.variants import GrundySetup

        for variant in ("nim", "bachet", "graph"):
            found.append(Case(f"grundy {variant}", open_game(
                "grundy", "hvc", params=GrundySetup(game=variant))))
        found.append(Case("grundy table view", then(
            open_game("grundy", "hvc", params=GrundySetup(game="king")),
            click_button("Table", "TableView"))))
    if "button-madness" in ids:
        found += [
            Case("button-madness win", solve_button_madness),
            Case("button-madness explorer", then(open_game("button-madness"),
                                                 click_button("Which sizes?",
                                                              "ExplorerScene"))),
            Case("button-madness code entry", text_entry),
        ]
    return found


CASES = cases()


@contextmanager
def app_at(profile: Path, size: tuple[int, int]) -> Iterator[App]:
    """A headless app with the launcher, at ``size``, animations off (they change nothing
    in the layout, and a test need not wait for them)."""
    app = make_app(profile, size)
    app.settings.set("reduce_motion", True)
    try:
        assert app.screen.get_size() == size
        yield app
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()
