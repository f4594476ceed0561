"""Computer against computer: speed (slow, normal, fast, remembered), Pause / Resume by
button, Space and P, Step for one move, and everything off once the game is over."""

from __future__ import annotations

import json
import time

import pygame
import pytest

from engine.model.seats import Seat
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import run_until

EASY = Seat("computer", "easy")
CLASSIC = MNKConfig()


def open_cvc(app, config=CLASSIC) -> TicTacToeScene:
    scene = app.push(TicTacToeScene(app, config, seats=(EASY, EASY), seed=7))
    app.step([], 0.0)
    return scene


def click_button(app, name: str) -> None:
    x, y, w, h = app.top.ui.find(name).rect
    pos = app.viewport.point(x + w / 2, y + h / 2)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)], 0.0)


def press(app, keycode: int) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=keycode, mod=0, unicode="", scancode=0),
              pygame.event.Event(pygame.KEYUP, key=keycode, mod=0, unicode="", scancode=0)], 0.0)


def play_for(app, scene, seconds: float, dt: float = 0.05) -> None:
    """Run ``seconds`` of stepped frame time; a computer's thinking (real time, in its
    thread) is waited for without counting, so only the chosen pace matters."""
    for _ in range(round(seconds / dt)):
        app.step([], dt)
        deadline = time.monotonic() + 10
        while scene.ai.busy:
            assert time.monotonic() < deadline, "the computer did not answer"
            time.sleep(0.002)
            app.step([], 0.0)


def test_speed_button_cycles_and_is_remembered(app, profile) -> None:
    scene = open_cvc(app)
    assert scene.ui.find("Speed").label == "Speed: normal"
    seen = []
    for _ in range(3):
        click_button(app, "Speed")
        seen.append(scene.speed)
    assert seen == ["fast", "slow", "normal"]
    click_button(app, "Speed")
    assert json.loads((profile / "settings.json").read_text())["cvc_speed"] == "fast"
    again = open_cvc(app)
    assert again.speed == "fast" and again.ui.find("Speed").label == "Speed: fast"


@pytest.mark.slow
def test_fast_plays_faster_than_slow_in_the_same_time(app) -> None:
    config = MNKConfig(5, 5, 5)  # long enough not to end within the time
    moves = {}
    for speed in ("slow", "fast"):
        app.settings.set("cvc_speed", speed)
        scene = open_cvc(app, config)
        play_for(app, scene, 3.0)
        moves[speed] = scene.moves_played()
        app.pop()
    assert moves["slow"] <= 3 and moves["fast"] >= 3 * max(1, moves["slow"]), moves


@pytest.mark.slow
def test_pause_is_reachable_before_a_3x3_game_ends_at_normal_speed(app) -> None:
    scene = open_cvc(app)
    assert scene.speed == "normal"
    play_for(app, scene, 0.3)
    assert scene.moves_played() >= 1 and not scene.state.is_terminal()
    click_button(app, "Pause")
    assert scene.paused
    made = scene.moves_played()
    play_for(app, scene, 5.0)
    assert scene.moves_played() == made and not scene.state.is_terminal()
    assert scene.ui.find("Pause").label == "Resume"


def test_space_and_p_pause_and_resume(app) -> None:
    scene = open_cvc(app)
    press(app, pygame.K_SPACE)
    assert scene.paused
    status = scene.status_text()
    assert status.startswith("Paused: X (Easy) moves next.")
    assert "Space or Resume to go on" in status and "Step for one move" in status
    press(app, pygame.K_SPACE)
    assert not scene.paused
    press(app, pygame.K_p)
    assert scene.paused
    press(app, pygame.K_p)
    assert not scene.paused
    play_for(app, scene, 1.0)
    assert scene.moves_played() >= 1


@pytest.mark.slow
def test_step_makes_exactly_one_move_while_paused(app) -> None:
    scene = open_cvc(app)
    press(app, pygame.K_SPACE)
    assert scene.ui.find("Pause").label == "Resume" and scene.ui.find("Step").enabled
    for expected in (1, 2):
        click_button(app, "Step")
        play_for(app, scene, 2.0)
        assert scene.moves_played() == expected


@pytest.mark.slow
def test_controls_are_off_once_the_game_is_over(app) -> None:
    scene = open_cvc(app)
    press(app, pygame.K_SPACE)
    # Step the game to its end, one move at a time.
    for _ in range(9):
        if scene.state.is_terminal():
            break
        click_button(app, "Step")
        play_for(app, scene, 0.1)
    assert scene.state.is_terminal() and scene.paused
    run_until(app, lambda: type(app.top).__name__ == "ResultOverlay", timeout=3)
    press(app, pygame.K_ESCAPE)  # look at the board
    assert app.top is scene
    assert not scene.ui.find("Pause").enabled and not scene.ui.find("Step").enabled
    press(app, pygame.K_SPACE)
    press(app, pygame.K_p)
    assert scene.paused  # unchanged: nothing to pause or resume
    # The status gives the result, not "Paused".
    assert not scene.status_text().startswith("Paused")
    assert "wins" in scene.status_text() or "Draw" in scene.status_text()


def test_space_presses_a_focused_button_instead(app) -> None:
    scene = open_cvc(app)
    scene.ui.focus_index = [w.name for w in scene.ui.focusables()].index("Speed")
    press(app, pygame.K_SPACE)
    assert not scene.paused and scene.speed == "fast"
