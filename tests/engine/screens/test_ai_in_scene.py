"""The AI runner inside the real game scene, with the trivial random agent.

O is a slow random agent, to prove the engine side: the frame loop keeps
running, "thinking…" is shown, and leaving or undoing cancels.
"""

from __future__ import annotations

import threading
import time

import pygame
import pytest

from engine.ai.agent import Cancelled, RandomAgent
from engine.model.seats import Seat
from engine.screens.launcher import LauncherScene
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import click, key, near, run_until
from tests.support.screens import cell_centre


class SlowRandom(RandomAgent):
    """A random agent that records whether it was cancelled."""

    def __init__(self, delay: float) -> None:
        super().__init__(seed=3, delay=delay)
        self.cancelled = threading.Event()

    def choose_move(self, state, cancel):
        try:
            return super().choose_move(state, cancel)
        except Cancelled:
            self.cancelled.set()
            raise


def versus(app, agent: SlowRandom) -> TicTacToeScene:
    """The real tic-tac-toe scene with O played by ``agent`` (the trivial agent)."""
    scene = app.push(TicTacToeScene(app, MNKConfig(), (Seat("human"), Seat("computer", "easy"))))
    scene.agents[1] = agent
    return scene


def wait_thinking(app, scene) -> None:
    run_until(app, lambda: scene.thinking, timeout=2, pause=0)


@pytest.mark.slow
def test_thinking_is_shown_frames_keep_coming_and_the_move_arrives(app) -> None:
    agent = SlowRandom(delay=0.4)
    scene = versus(app, agent)
    click(app, *cell_centre(scene, 1, 1))
    wait_thinking(app, scene)
    assert scene.is_active()
    # The badge is drawn in the status bar, in words and the accent colour.
    box = scene.area("badge")
    badge = (box.right - 12, box.centery)  # the right end of the badge
    assert near(app.screen.get_at(badge), app.theme.palette.accent)
    frames, start = 0, time.monotonic()
    slowest = 0.0
    while scene.thinking and time.monotonic() - start < 5:
        t0 = time.thread_time()
        app.step([])
        slowest = max(slowest, time.thread_time() - t0)
        frames += 1
        time.sleep(1 / 120)
    assert not scene.thinking
    assert frames >= 10, "the frame loop stalled while the agent thought"
    assert slowest < 0.1
    assert scene.state.moves_made == 2 and scene.state.to_move == 0
    app.step([])
    assert not near(app.screen.get_at(badge), app.theme.palette.accent)


@pytest.mark.slow
def test_human_cannot_move_while_the_computer_thinks(app) -> None:
    scene = versus(app, SlowRandom(delay=0.5))
    click(app, *cell_centre(scene, 0, 0))
    wait_thinking(app, scene)
    click(app, *cell_centre(scene, 2, 2))
    assert scene.state.moves_made == 1


def test_leaving_the_scene_cancels_the_computer(app) -> None:
    # A guard wide for a busy machine, well short of the agent's delay (only the
    # cancellation can end its thinking in time).
    agent = SlowRandom(delay=60.0)
    scene = versus(app, agent)
    click(app, *cell_centre(scene, 1, 1))
    wait_thinking(app, scene)
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, LauncherScene)
    assert agent.cancelled.wait(15.0)
    assert not scene.thinking and scene.state.moves_made == 1


@pytest.mark.slow
def test_undo_while_thinking_drops_the_stale_answer(app) -> None:
    scene = versus(app, SlowRandom(delay=0.3))
    click(app, *cell_centre(scene, 1, 1))
    wait_thinking(app, scene)
    scene.undo()  # the position the agent was asked about is gone
    deadline = time.monotonic() + 2
    while scene.thinking and time.monotonic() < deadline:
        app.step([])
        time.sleep(0.01)
    assert scene.state.moves_made == 0


class QuickWithFloor(RandomAgent):
    """Answers at once, but asks the scene to show its move only after ``think_floor``
    seconds (a level set by work that answered sooner than players are used to)."""

    def __init__(self, floor: float) -> None:
        super().__init__(seed=4)
        self.think_floor = floor
        self.answered_at = 0.0

    def choose_move(self, state, cancel):
        move = super().choose_move(state, cancel)
        self.answered_at = time.monotonic()
        return move


def test_a_quick_answer_is_shown_after_the_levels_think_time_and_frames_run_on(app) -> None:
    """Issue 32: a level defined by work may answer sooner than its former clock; the scene
    keeps its move back until the level's think_floor (the think time players know), and
    the frame loop runs on meanwhile ("thinking…" shown, no frame waits)."""
    agent = QuickWithFloor(0.4)
    scene = versus(app, agent)
    click(app, *cell_centre(scene, 1, 1))
    wait_thinking(app, scene)
    asked = time.monotonic() - scene.ai.thinking_seconds  # when the request started
    frames, slowest = 0, 0.0
    while scene.state.moves_made < 2 and time.monotonic() - asked < 5:
        t0 = time.monotonic()
        app.step([])
        slowest = max(slowest, time.monotonic() - t0)
        frames += 1
        time.sleep(1 / 120)
    shown = time.monotonic()
    assert scene.state.moves_made == 2, "the move never came"
    assert agent.answered_at - asked < 0.3  # it answered at once (even on a busy machine)
    assert shown - asked >= 0.4, "shown before the level's think time"
    assert frames >= 10 and slowest < agent.think_floor / 2, "a frame waited for the move"
