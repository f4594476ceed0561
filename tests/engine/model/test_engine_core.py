"""History, AI runner, geometry, viewport and asset paths."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pygame
import pytest

from engine.ai.agent import Cancelled, RandomAgent
from engine.ai.runner import AIRunner, WorkerPool
from engine.core import assets
from engine.model.history import History
from engine.ui.board.geometry import BoardGeometry
from engine.ui.viewport import MIN_AREA, MIN_SCALE, MIN_WINDOW, Viewport
from games.tictactoe.rules import TicTacToeState

# --- history ---------------------------------------------------------------------


def test_history_undo_redo_and_cut_redo_tail() -> None:
    h = History(0)
    assert not h.can_undo and not h.can_redo
    for v in (1, 2, 3):
        h.push(v)
    assert h.current == 3 and len(h) == 4
    assert h.undo() and h.undo() and h.current == 1
    assert h.can_redo and h.redo() and h.current == 2
    h.push(9)  # a new move drops the undone 3
    assert h.current == 9 and not h.can_redo and len(h) == 4
    while h.undo():
        pass
    assert h.current == 0 and not h.undo()


def test_history_undo_until_predicate() -> None:
    h = History(0)
    for v in range(1, 8):
        h.push(v)
    assert h.undo(until=lambda v: v % 3 == 0) and h.current == 6
    assert h.undo(until=lambda v: v % 3 == 0) and h.current == 3
    assert not h.undo(until=lambda v: v > 100) and h.current == 3  # nothing matches: no change
    assert h.redo(until=lambda v: v % 3 == 0) and h.current == 6
    assert h.redo(until=lambda v: v > 100) and h.current == 7  # falls through to the end


# --- AI runner -----------------------------------------------------------------------


def _wait_result(runner: AIRunner, timeout: float = 5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = runner.poll()
        if result is not None:
            return result
        time.sleep(0.005)
    raise AssertionError("no result in time")


def test_runner_returns_a_legal_move_off_the_calling_thread() -> None:
    seen_threads: list[str] = []

    class Spy(RandomAgent):
        def choose_move(self, state, cancel):
            seen_threads.append(threading.current_thread().name)
            return super().choose_move(state, cancel)

    runner = AIRunner()
    state = TicTacToeState.new().play(4)
    runner.start(Spy(seed=1, delay=0.05), state, tag="t")
    assert runner.busy and runner.poll() is None
    result = _wait_result(runner)
    assert result.move in state.legal_moves() and result.error is None and result.tag == "t"
    assert seen_threads and seen_threads[0] != threading.current_thread().name
    assert not runner.busy and runner.poll() is None  # collected once only


def test_runner_cancel_drops_the_answer_and_stops_the_agent() -> None:
    runner = AIRunner()
    stopped = threading.Event()

    class Slow(RandomAgent):
        def choose_move(self, state, cancel):
            try:
                return super().choose_move(state, cancel)
            except Cancelled:
                stopped.set()
                raise

    # The wait is a guard, not a speed claim: wide for a busy machine, and still well
    # short of the agent's own delay, so only the cancellation can end it in time.
    runner.start(Slow(delay=60.0), TicTacToeState.new())
    assert runner.busy
    runner.cancel()
    assert not runner.busy
    assert stopped.wait(15.0), "the agent did not see the cancellation"
    runner.join(15.0)
    assert runner.poll() is None


@pytest.mark.slow
def test_runner_newer_request_supersedes_older() -> None:
    runner = AIRunner()
    runner.start(RandomAgent(delay=0.3), TicTacToeState.new(), tag="old")
    runner.start(RandomAgent(delay=0.0), TicTacToeState.new(), tag="new")
    assert _wait_result(runner).tag == "new"
    time.sleep(0.4)
    assert runner.poll() is None  # the superseded answer never arrives


def test_runner_reports_agent_errors() -> None:
    runner = AIRunner()
    finished = TicTacToeState.from_rows(["XXX", "OO.", "..."])
    runner.start(RandomAgent(), finished)
    result = _wait_result(runner)
    assert result.move is None and isinstance(result.error, ValueError)


def _workers() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == "ai-worker"}


@pytest.mark.slow
def test_requests_reuse_idle_worker_threads() -> None:
    """Starting a thread waits for it to run (~8 ms while a search holds the GIL): a
    request goes to a waiting worker instead, so a run of requests starts no threads."""
    runner = AIRunner()
    runner.submit(lambda cancel: 0)
    runner.join(5)
    assert _wait_result(runner).move == 0
    before = _workers()
    for i in range(20):
        runner.submit(lambda cancel, i=i: i * i)
        result = _wait_result(runner)
        assert result.move == i * i
        runner.join(5)
    assert _workers() <= before  # no new thread for any of them


def test_a_worker_still_in_a_cancelled_job_does_not_hold_up_the_next_request() -> None:
    pool = WorkerPool(keep=1)
    release = threading.Event()
    started = threading.Event()
    done: list[str] = []

    def stubborn() -> None:  # ignores cancellation, as a long C call would
        started.set()
        release.wait(10)
        done.append("stubborn")

    pool.run(stubborn)
    assert started.wait(5)
    second = threading.Event()
    pool.run(lambda: (done.append("second"), second.set()))
    assert second.wait(5), "the second job waited for the first"
    assert not pool.wait_idle(0.05)  # the first still runs
    release.set()
    assert pool.wait_idle(5) and sorted(done) == ["second", "stubborn"]
    assert len(pool._idle) == 1  # keep=1: the other worker ended


def test_a_worker_whose_job_raised_is_not_handed_more_work() -> None:
    pool = WorkerPool()
    ran: list[str] = []

    def bad() -> None:
        raise RuntimeError("a bug outside AIRunner's reporting")

    hook, threading.excepthook = threading.excepthook, lambda args: ran.append("hook")
    try:
        pool.run(bad)
        assert pool.wait_idle(5)
        for _ in range(3):
            done = threading.Event()
            pool.run(lambda done=done: (ran.append("job"), done.set()))
            assert done.wait(5), "a job was handed to the worker that had died"
    finally:
        threading.excepthook = hook
    assert ran.count("job") == 3


def test_a_failing_job_does_not_stop_the_pool() -> None:
    runner = AIRunner()

    def boom(cancel: threading.Event) -> None:
        raise RuntimeError("bug")

    runner.submit(boom)
    assert isinstance(_wait_result(runner).error, RuntimeError)
    runner.submit(lambda cancel: "fine")
    assert _wait_result(runner).move == "fine"


# --- geometry and viewport -------------------------------------------------------------


@pytest.mark.parametrize("rows,cols,area", [
    (3, 3, (0, 0, 300, 300)), (3, 3, (10, 20, 500, 300)), (6, 7, (0, 0, 701, 333)),
    (15, 15, (5, 5, 451, 600)), (1, 32, (0, 0, 320, 320)),
])
def test_geometry_round_trips_and_letterboxes(rows, cols, area) -> None:
    geom = BoardGeometry(rows, cols, pygame.Rect(area))
    box = geom.rect
    assert pygame.Rect(area).contains(box)
    # centred: equal margins (within a pixel) on the letterboxed axis
    assert abs((box.left - area[0]) - (area[0] + area[2] - box.right)) <= 1
    assert abs((box.top - area[1]) - (area[1] + area[3] - box.bottom)) <= 1
    for r in range(rows):
        for c in range(cols):
            cell = geom.cell_rect(r, c)
            assert geom.cell_at(cell.center) == (r, c)
            if c + 1 < cols:
                assert geom.cell_rect(r, c + 1).left == cell.right  # no gaps or overlaps
    assert geom.cell_at((box.left - 1, box.top)) is None
    assert geom.cell_at((box.right + 1, box.centery)) is None


def test_geometry_rejects_bad_cells() -> None:
    geom = BoardGeometry(3, 3, pygame.Rect(0, 0, 90, 90))
    with pytest.raises(IndexError):
        geom.cell_rect(3, 0)
    with pytest.raises(ValueError):
        BoardGeometry(0, 3, pygame.Rect(0, 0, 90, 90))


@pytest.mark.parametrize("size", [(960, 720), (1920, 1080), (800, 900), (640, 480),
                                  (321, 400)])
def test_viewport_scales_and_centres(size) -> None:
    vp = Viewport.fit(size)
    content = vp.content
    assert abs(content.left - (size[0] - content.right)) <= 1
    assert abs(content.top - (size[1] - content.bottom)) <= 1
    if vp.scale > MIN_SCALE:
        assert content.width <= size[0] and content.height <= size[1]
        assert min(abs(content.width - size[0]), abs(content.height - size[1])) <= 1  # fills one
    elif size[0] >= MIN_WINDOW[0] and size[1] >= MIN_WINDOW[1]:
        assert vp.scale == MIN_SCALE  # never smaller: the area shown shrinks instead
    else:
        # A window forced below the minimum size (issue 29 finding 8): the minimum
        # area, scaled down to fit, rather than cropped.
        assert vp.scale < MIN_SCALE
        assert size[0] / vp.scale >= MIN_AREA[0] - 1 and size[1] / vp.scale >= MIN_AREA[1] - 1
    area = vp.area  # the design rectangle the window shows, centred on the design space
    # The window's size in design units, never under the minimum area.
    assert abs(area.w - max(size[0] / vp.scale, MIN_AREA[0])) < 1
    assert abs(area.h - max(size[1] / vp.scale, MIN_AREA[1])) < 1
    # Centred to the pixel: half a pixel of rounding is 1/scale design units, over 1
    # in a window scaled below the minimum.
    slack = max(1.0, 0.5 / vp.scale)
    assert abs(area.centerx - 480) < slack and abs(area.centery - 360) < slack
    x, y = vp.to_design(vp.point(123, 456))
    tol = 0.5 / vp.scale + 1e-9  # one rounded screen pixel, in design units
    assert abs(x - 123) <= tol and abs(y - 456) <= tol


@pytest.mark.parametrize("asked", [(420, 320), (100, 900), (900, 100), (640, 480)])
def test_the_window_is_never_smaller_than_the_minimum(profile: Path, asked) -> None:
    """Asking for a window under 640×480 gets the minimum on that side; the design area
    shown is then never under 800×600 units."""
    from engine.ui.viewport import MIN_AREA, MIN_WINDOW
    from tests.conftest import make_app

    app = make_app(profile, asked)
    try:
        width, height = app.screen.get_size()
        assert (width, height) == (max(asked[0], MIN_WINDOW[0]), max(asked[1], MIN_WINDOW[1]))
        area = app.viewport.area
        assert area.w >= MIN_AREA[0] - 1e-6 and area.h >= MIN_AREA[1] - 1e-6
        assert app.viewport.scale >= MIN_SCALE
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


# --- assets ------------------------------------------------------------------------------


def test_asset_path_from_source_and_from_bundle(monkeypatch, tmp_path: Path) -> None:
    font = assets.asset_path("fonts", "DejaVuSans.ttf")
    assert font.is_file()
    bundle = tmp_path / "bundle"
    (bundle / "assets" / "fonts").mkdir(parents=True)
    (bundle / "assets" / "fonts" / "DejaVuSans.ttf").write_bytes(b"x")
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    assert assets.asset_path("fonts", "DejaVuSans.ttf") == bundle / "assets/fonts/DejaVuSans.ttf"
    with pytest.raises(FileNotFoundError, match="nothing.png"):
        assets.asset_path("nothing.png")


def test_no_system_font_is_used(monkeypatch) -> None:
    """The theme loads fonts only by path from assets (never SysFont / default font)."""
    from engine.ui.theme import Theme

    calls: list[object] = []
    real_font = pygame.font.Font

    def spy(path, size):
        calls.append(path)
        return real_font(path, size)

    monkeypatch.setattr(pygame.font, "Font", spy)
    monkeypatch.setattr(pygame.font, "SysFont", lambda *a, **k: pytest.fail("SysFont used"))
    pygame.font.init()
    Theme().font(20)
    Theme().font(20, bold=True)
    assert calls and all(isinstance(p, str) and "assets" in p for p in calls)


def test_a_restored_history_is_the_one_that_was_saved() -> None:
    played = History("a")
    for state in "bcde":
        played.push(state)
    played.undo()
    played.undo()
    again = History.restored(played.entries, played.index)
    assert again.entries == played.entries and again.current == "c"
    assert again.redo() and again.current == "d"  # what could be redone still can
    again.undo()
    again.undo()
    assert again.current == "b" and again.can_undo
    for index in (-1, 5):
        with pytest.raises(ValueError):
            History.restored(played.entries, index)
    with pytest.raises(ValueError):
        History.restored([], 0)
