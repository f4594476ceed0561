"""The shared puzzle screen (engine.screens.puzzle_scene) on its own, with a tiny puzzle
defined here.

"Lamps": a row of lamps; pressing lamp i toggles it and the lamp to its right (the last
lamp alone). Goal: every lamp on. Everything is driven by real pygame events under the
dummy video driver (tests/conftest.py), and time by the scene's clock and ``update(dt)``.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame
import pytest

from engine.midend.puzzle import PuzzleMidend
from engine.model.descriptor import GameDescriptor
from engine.model.rules import IllegalMove
from engine.screens.puzzle_scene import FLASH_TRACK, PuzzleScene, WinOverlay
from engine.screens.scene import HelpOverlay, Scene
from tests.conftest import click, click_widget, key, run_until


@dataclass(frozen=True)
class Lamps:
    """The position: which lamps are on."""

    lamps: tuple[bool, ...]

    def num_players(self) -> int:
        return 1

    def current_player(self) -> int:
        return 0

    def legal_moves(self) -> list[int]:
        return list(range(len(self.lamps)))

    def play(self, move: int) -> Lamps:
        if not isinstance(move, int) or not 0 <= move < len(self.lamps):
            raise IllegalMove(f"no lamp {move!r}")
        lamps = list(self.lamps)
        for i in (move, move + 1):
            if i < len(lamps):
                lamps[i] = not lamps[i]
        return Lamps(tuple(lamps))

    def is_terminal(self) -> bool:
        return all(self.lamps)

    def returns(self) -> tuple[float, ...]:
        return (1.0 if self.is_terminal() else 0.0,)


def new_lamps(params: Any, rng: random.Random) -> Lamps:
    """A row of five lamps, not all on (the rules factory)."""
    while True:
        state = Lamps(tuple(rng.random() < 0.5 for _ in range(5)))
        if not state.is_terminal():
            return state


def solve_lamps(state: Lamps, cancel: threading.Event,
                progress: Callable[[float], None]) -> list[int]:
    """The solve hook: left to right, press every lamp that is off."""
    moves = []
    for i in range(len(state.lamps)):
        if not state.lamps[i]:
            moves.append(i)
            state = state.play(i)
        progress((i + 1) / len(state.lamps))
    return moves


def save_lamps(state: Lamps) -> list[int]:
    return [int(lamp) for lamp in state.lamps]


def load_lamps(params: Any, data: Any) -> Lamps:
    if not isinstance(data, list) or not all(bit in (0, 1) for bit in data):
        raise ValueError("not a row of lamps")
    return Lamps(tuple(bool(bit) for bit in data))


GAME = GameDescriptor(id="lamps-test", title="Lamps", blurb="Turn every lamp on.",
                      preview="tests.engine.screens.test_puzzle_scene:new_lamps",
                      scene="tests.engine.screens.test_puzzle_scene:LampsScene", kind="puzzle",
                      rules="tests.engine.screens.test_puzzle_scene:new_lamps",
                      solve="tests.engine.screens.test_puzzle_scene:solve_lamps")
START = Lamps((False, True, False, True, True))  # solved by pressing 0, then 1


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class LampsScene(PuzzleScene):
    """All a puzzle supplies: its drawing, its input (a click -> a move) and its options."""

    game = GAME
    title = "Lamps"
    solve_interval = 0.1

    def __init__(self, app: Any, start: Lamps = START,
                 clock: Callable[[], float] | None = None) -> None:
        super().__init__(app, PuzzleMidend(start, clock=clock or FakeClock()))

    def start_codec(self) -> tuple[Callable[[Lamps], Any], Callable[[Any], Lamps]]:
        """Its starts are chosen by the test, so each is written."""
        return save_lamps, lambda data: load_lamps(None, data)

    def lamp_rect(self, i: int) -> pygame.FRect:
        board = self.layout()["board"]
        width = board.w / 5
        return pygame.FRect(board.x + i * width, board.y, width, min(board.h, width))

    def draw_board(self, surface: pygame.Surface) -> None:
        p = self.app.theme.palette
        for i, on in enumerate(self.state.lamps):
            rect = self.app.viewport.map_rect(tuple(self.lamp_rect(i)))
            pygame.draw.rect(surface, p.win_line if self.flash_on() else
                             (p.good if on else p.bad), rect.inflate(-4, -4))

    def board_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            x, y = self.app.viewport.to_design(event.pos)
            for i in range(len(self.state.lamps)):
                if self.lamp_rect(i).collidepoint(x, y):
                    self.play(i)


def press(app: Any, scene: LampsScene, i: int) -> None:
    """A real click on lamp ``i``."""
    click(app, *scene.lamp_rect(i).center)


def test_the_toolbar_has_the_shared_buttons(app) -> None:
    scene = app.push(LampsScene(app))
    app.step([])
    toolbar = scene.layout()["toolbar"]
    for name in ("New game", "Restart", "Undo", "Redo", "Hint", "Solve", "?", "Back"):
        button = scene.ui.find(name)
        assert toolbar.contains(pygame.FRect(button.rect)), name
    assert not scene.ui.find("Undo").enabled and not scene.ui.find("Redo").enabled


def test_moves_undo_redo_restart_and_new_through_real_events(app) -> None:
    scene = app.push(LampsScene(app))
    app.step([])
    press(app, scene, 2)
    assert scene.state == START.play(2) and scene.puzzle.moves == 1
    assert scene.last_move() == 2 and scene.debug_state()["last_move"] == 2
    assert "flip" not in app.audio.played and "place" in app.audio.played
    click_widget(app, "Undo")
    assert scene.state == START and scene.last_move() is None
    click_widget(app, "Redo")
    assert scene.state == START.play(2) and scene.puzzle.moves == 1
    key(app, pygame.K_z, pygame.KMOD_LCTRL)
    key(app, pygame.K_y, pygame.KMOD_LCTRL)
    assert scene.state == START.play(2)
    click_widget(app, "Restart")
    assert scene.state == START and scene.puzzle.moves == 0
    click_widget(app, "Undo")  # Restart is an undoable step
    assert scene.state == START.play(2)
    click_widget(app, "New game")
    assert scene.puzzle.moves == 0 and not scene.state.is_terminal()
    click_widget(app, "Undo")
    assert scene.state == START.play(2)


def test_a_solve_flashes_then_shows_the_win_screen_and_records_one_result(app) -> None:
    clock = FakeClock()
    scene = app.push(LampsScene(app, clock=clock))
    app.step([])
    press(app, scene, 0)
    clock.advance(4)
    press(app, scene, 1)
    assert scene.puzzle.solved and "solved" in app.audio.played
    if scene.anim.progress(FLASH_TRACK) is not None:  # (none with reduce motion)
        assert app.top is scene, "the win screen waits for the flash"
        run_until(app, lambda: isinstance(app.top, WinOverlay))
    win = app.top
    assert isinstance(win, WinOverlay) and win.moves == 2 and win.seconds == 4
    assert not win.helped and win.debug_state()["moves"] == 2
    assert app.stats.best_puzzle("lamps-test", "") == (2, 4.0)
    click_widget(app, "Close")
    assert app.top is scene
    # Undo and redo back onto the solved position record nothing again.
    click_widget(app, "Undo")
    click_widget(app, "Redo")
    assert app.top is scene
    [summary] = [s for s in app.stats.puzzle_summary() if s.game == "lamps-test"]
    assert summary.solved == 1
    # Play again on a new win screen restarts the puzzle.
    click_widget(app, "Restart")
    press(app, scene, 0)
    press(app, scene, 1)
    run_until(app, lambda: isinstance(app.top, WinOverlay))
    click_widget(app, "Play again")
    assert app.top is scene and scene.state == START and scene.puzzle.moves == 0


def test_the_clock_pauses_while_help_covers_the_screen(app) -> None:
    clock = FakeClock()
    scene = app.push(LampsScene(app, clock=clock))
    app.step([])
    press(app, scene, 4)
    clock.advance(10)
    scene.update(10)
    assert scene.puzzle.elapsed == 10 and scene.puzzle.timing
    app.push(HelpOverlay(app, scene.help_title, scene.help_text))
    # Told by the app at once, not found out on the next frame.
    assert scene.puzzle.paused and not scene.puzzle.timing
    clock.advance(100)
    scene.update(100)
    app.step([])
    assert scene.puzzle.elapsed == 10
    key(app, pygame.K_ESCAPE)  # the help closed
    assert app.top is scene and not scene.puzzle.paused
    clock.advance(5)
    scene.update(5)
    assert scene.puzzle.elapsed == 15
    key(app, pygame.K_F1)  # F1 opens the help too
    clock.advance(50)
    key(app, pygame.K_F1)
    assert scene.puzzle.elapsed == 15
    key(app, pygame.K_ESCAPE)  # back to the launcher: stopped for good
    clock.advance(50)
    assert scene.puzzle.paused and scene.puzzle.elapsed == 15


def test_hint_reveals_a_move_of_the_solution_and_marks_help(app) -> None:
    scene = app.push(LampsScene(app))
    app.step([])
    click_widget(app, "Hint")
    run_until(app, lambda: scene.hinted == {0})
    assert scene.helped
    key(app, pygame.K_h)
    run_until(app, lambda: scene.hinted == {0, 1})
    key(app, pygame.K_h)  # every move hinted: nothing more to tell
    assert app.audio.played[-1] == "illegal" and scene.hinted == {0, 1}


def test_solve_plays_the_solution_move_by_move(app) -> None:
    scene = app.push(LampsScene(app))
    app.step([])
    click_widget(app, "Solve")
    assert scene.helped and scene.solving
    run_until(app, lambda: scene.puzzle.moves == 1, message="the first move is played")
    assert not scene.puzzle.solved and scene.last_move() == 0
    run_until(app, lambda: isinstance(app.top, WinOverlay))
    assert app.top.helped and scene.puzzle.moves == 2 and not scene.solving
    assert app.stats.best_puzzle("lamps-test", "") is None, "a helped solve is no best"


def test_solve_stops_when_the_player_takes_over(app) -> None:
    scene = app.push(LampsScene(app, Lamps((False,) * 5)))
    app.step([])
    key(app, pygame.K_s)
    run_until(app, lambda: scene.puzzle.moves == 1)
    click_widget(app, "Undo")
    assert not scene.solving
    for _ in range(5):
        scene.update(1.0)
    assert scene.puzzle.moves == 0


def test_snapshot_and_restore_keep_the_puzzle_and_the_hints(app) -> None:
    scene = app.push(LampsScene(app))
    app.step([])
    press(app, scene, 3)
    click_widget(app, "Hint")
    run_until(app, lambda: bool(scene.hinted))
    data = scene.snapshot()
    again = LampsScene(app)
    again.restore(data)
    assert again.state == scene.state and again.puzzle.moves == 1 and again.helped
    assert again.hinted == scene.hinted and again.puzzle.paused, "paused until shown"
    app.push(again)
    assert not again.puzzle.paused
    with pytest.raises(ValueError):
        again.restore({**data, "hinted": "x"})
    assert again.state == scene.state


def test_the_app_tells_a_scene_when_it_is_covered_and_uncovered(app) -> None:
    heard: list[str] = []

    class Watcher(Scene):
        def covered(self) -> None:
            heard.append("covered")

        def uncovered(self) -> None:
            heard.append("uncovered")

        def resume(self) -> None:
            heard.append("resume")

    app.push(Watcher(app))
    app.push(Scene(app))
    app.replace(Scene(app))  # still covered: nothing to say
    app.pop()
    assert heard == ["covered", "uncovered", "resume"]
