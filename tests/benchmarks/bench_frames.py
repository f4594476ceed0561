"""Frame times of the real app while the computer thinks (not part of the test suite).

Runs a computer-versus-computer gomoku game (15×15, five in a row, Hard against
Hard) in the real tic-tac-toe scene under SDL_VIDEODRIVER=dummy, driving the
app's frame loop at 60 fps, and reports frame times while the computer thinks
and while it does not, plus the computer's time per move. Then the same with the
reference level, the previous Hard (alpha-beta only), in the same run, and the
ratio of the frame-interval p95 while thinking.

    python tests/benchmarks/bench_frames.py [--moves N] [--no-reference]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.model.seats import Seat  # noqa: E402
from engine.runtime.app import FPS, App  # noqa: E402
from engine.storage.settings import SettingsStore  # noqa: E402
from engine.storage.stats import StatsStore  # noqa: E402
from games.tictactoe.rules import MNKConfig  # noqa: E402
from games.tictactoe.scene import TicTacToeScene  # noqa: E402
from tests.benchmarks.figures import JSON_HELP, records  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def measure(moves: int, reference: bool) -> dict[str, list[float]]:
    """Play one Hard-against-Hard game in the real scene; the frame and move times (s)."""
    from games.tictactoe import agents
    from games.tictactoe.hard_search import HardSearchAgent

    real_hard = agents._hard_agent
    if reference:
        agents._hard_agent = lambda config, seed: HardSearchAgent(  # type: ignore[assignment]
            time_budget=agents.HARD_BUDGET, seed=seed, alpha_beta_only=True)
    try:
        return _play(moves)
    finally:
        agents._hard_agent = real_hard


def _play(moves: int) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        settings = SettingsStore(Path(tmp) / "settings.json")
        settings.load()
        stats = StatsStore(Path(tmp) / "stats.sqlite3")
        stats.open()
        app = App(settings, stats, window_size=(960, 720))
        hard = Seat("computer", "hard")
        scene = app.push(TicTacToeScene(app, MNKConfig(15, 15, 5), (hard, hard), seed=1))
        thinking: list[float] = []
        idle: list[float] = []
        move_times: list[float] = []
        intervals: list[float] = []
        idle_intervals: list[float] = []
        last_start: list[float] = []
        started: list[float] = []
        real_step = app.step
        limit = time.monotonic() + 600

        def measured_step(events=None, dt=1 / FPS):
            """The app's own step, timed; the app's own run() paces the frames."""
            busy = scene.ai.busy
            if busy and not started:
                started.append(time.perf_counter())
            before = scene.state.moves_made
            t0 = time.perf_counter()
            if last_start:
                (intervals if busy else idle_intervals).append(t0 - last_start[0])
            last_start[:] = [t0]
            real_step(events, dt)
            (thinking if busy else idle).append(time.perf_counter() - t0)
            if scene.state.moves_made != before and started:
                move_times.append(time.perf_counter() - started.pop())
            if (scene.state.moves_made >= moves or scene.state.is_terminal()
                    or time.monotonic() > limit):
                app.running = False

        app.step = measured_step  # type: ignore[method-assign]
        app.run()
        app.quit()
        stats.close()
    return {"frame work while the computer thinks": thinking,
            "frame work while idle": idle,
            "frame-to-frame interval while it thinks": intervals,
            "frame-to-frame interval while idle (clock precision)": idle_intervals,
            "moves": move_times}


def table(title: str, times: dict[str, list[float]]) -> None:
    """Print one run's Markdown table."""
    move_times = times["moves"]
    frames = len(times["frame work while the computer thinks"]) + len(
        times["frame work while idle"])
    print(f"{title}: 15×15 k5, Hard vs Hard, {len(move_times)} computer moves, "
          f"{frames} frames at {FPS} fps target\n")
    print("| measure | n | p50 ms | p95 ms | p99 ms | max ms | budget |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for label, values in times.items():
        if values and label != "moves":
            ms = [v * 1000 for v in values]
            print(f"| {label} | {len(ms)} | {statistics.median(ms):.1f} | "
                  f"{percentile(ms, 95):.1f} | {percentile(ms, 99):.1f} | {max(ms):.1f} | 16.7 |")
    if move_times:
        ms = [v * 1000 for v in move_times]
        print(f"| computer move (think + hand-over) | {len(ms)} | {statistics.median(ms):.0f} | "
              f"{percentile(ms, 95):.0f} | {percentile(ms, 99):.0f} | {max(ms):.0f} | 300 (p95) |")
    print()


@records("frames")
def main() -> int:
    """Play, measure, print Markdown tables: ours, then the reference level's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="computer moves to play")
    parser.add_argument("--no-reference", action="store_true",
                        help="skip the reference level (the previous Hard)")
    parser.add_argument("--json", metavar="FILE", help=JSON_HELP)
    args = parser.parse_args()
    print("Frame work is the time to handle input, update and draw one frame; the interval")
    print("is start to start, so it shows any stall (the target is 16.7 ms at 60 fps).\n")
    ours = measure(args.moves, reference=False)
    table("Hard (threat-space search first)", ours)
    if args.no_reference:
        return 0
    ref = measure(args.moves, reference=True)
    table("Reference, same run: the previous Hard (alpha-beta only)", ref)
    key = "frame-to-frame interval while it thinks"
    if ours[key] and ref[key]:
        a, b = percentile(ours[key], 95) * 1000, percentile(ref[key], 95) * 1000
        print(f"frame interval p95 while thinking: ours {a:.1f} ms, reference {b:.1f} ms, "
              f"ratio {a / b:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
