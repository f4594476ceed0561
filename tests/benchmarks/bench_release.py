"""Release figures: executable size and start-up, memory, frame times per scene.

    python tests/benchmarks/bench_release.py [--seconds 60] [--exe dist/arcade-of-strategy]

* executable size, and launch to first drawn launcher frame (median of 5; the
  executable, or ``python main.py`` if none is built), via the hidden
  --dump-state option that writes a file after the first frame;
* peak resident memory while idle in the launcher and while a computer-vs-computer
  15×15 game runs (each in a fresh process, VmHWM from /proc);
* per game scene, idle and while the computer thinks (Button Madness: the solver on
  a 1000×1000 board, pressed every 2 s with its solution shown), over ``--seconds`` each with
  the app's own frame loop: the 99th percentile of the *frame time* (the work of one
  frame: events, update, draw and flip; the 60 fps budget is 16.7 ms) and of the
  frame-to-frame interval; the reference is a bare pygame loop (fill, flip,
  ``Clock.tick(60)``) measured in the same run, and the ratio compares intervals.

Not part of the test suite (it takes minutes); prints Markdown tables.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHILD = "--child"


def first_frame_seconds(command: list[str], runs: int = 5) -> list[float]:
    """Seconds from launch until the first frame's state dump appears, per run."""
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            dump = Path(tmp) / "state.json"
            env = dict(os.environ, SDL_VIDEODRIVER="dummy")
            t0 = time.perf_counter()
            proc = subprocess.Popen([*command, "--profile", tmp, "--dump-state", str(dump)],
                                    env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                while not dump.exists():
                    if time.perf_counter() - t0 > 60:
                        raise RuntimeError("no frame within 60 s")
                    time.sleep(0.002)
                times.append(time.perf_counter() - t0)
            finally:
                proc.terminate()
                proc.wait(10)
    return times


def child(mode: str, seconds: float) -> None:
    """Runs inside a fresh process: one measurement, printed as JSON."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    sys.path.insert(0, str(ROOT))
    from engine.model.seats import Seat
    from engine.runtime.app import App
    from engine.screens.launcher import LauncherScene
    from engine.storage.settings import SettingsStore
    from engine.storage.stats import StatsStore

    with tempfile.TemporaryDirectory() as tmp:
        settings = SettingsStore(Path(tmp) / "settings.json")
        settings.load()
        stats = StatsStore(Path(tmp) / "stats.sqlite3")
        stats.open()
        app = App(settings, stats, window_size=(960, 720))
        app.push(LauncherScene(app))
        scene = None
        if mode.startswith("scene:"):
            scene = _open_scene(app, mode.split(":", 1)[1], Seat)
        elif mode == "cvc15":
            from games.tictactoe.rules import MNKConfig
            from games.tictactoe.scene import TicTacToeScene

            hard = Seat("computer", "hard")
            scene = app.push(TicTacToeScene(app, MNKConfig(15, 15, 5), (hard, hard), seed=1))
        frames: list[tuple[float, float, bool]] = []
        real_step = app.step
        end = time.monotonic() + seconds

        last_press = [time.monotonic()]

        def step(events=None, dt=1 / 60):
            busy = scene is not None and getattr(scene, "busy_label", lambda: None)() is not None
            if mode == "scene:buttons" and not busy and time.monotonic() - last_press[0] > 2:
                scene.press(len(frames) % 1000, 7)  # the solution must be worked out again
                last_press[0] = time.monotonic()
            t0 = time.perf_counter()
            real_step(events, dt)
            frames.append((t0, time.perf_counter(), busy))
            if time.monotonic() > end:
                app.running = False

        app.step = step  # type: ignore[method-assign]
        # Keep frames coming even in an idle scene, so frame times can be measured.
        app.top.is_active = lambda: True  # type: ignore[method-assign]
        app.run()
        stats.close()
    _report(frames)


def reference(seconds: float) -> None:
    """The bare pygame loop the frame figures are compared with: fill, flip, tick(60)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    pygame.display.init()
    screen = pygame.display.set_mode((960, 720), pygame.RESIZABLE)
    clock = pygame.time.Clock()
    frames: list[tuple[float, float, bool]] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.perf_counter()
        pygame.event.get()
        screen.fill((30, 30, 40))
        pygame.display.flip()
        frames.append((t0, time.perf_counter(), False))
        clock.tick(60)
    _report(frames)


def _report(frames: list[tuple[float, float, bool]]) -> None:
    """Print peak memory, frame times and intervals (idle / busy) as one JSON line."""
    hwm = 0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            hwm = int(line.split()[1]) // 1024
    pairs = list(zip(frames, frames[1:], strict=False))
    print(json.dumps({
        "peak_mb": hwm,
        "idle_work": [t1 - t0 for t0, t1, busy in frames if not busy],
        "busy_work": [t1 - t0 for t0, t1, busy in frames if busy],
        "idle": [b[0] - a[0] for a, b in pairs if not a[2]],
        "busy": [b[0] - a[0] for a, b in pairs if a[2]],
    }))


SCENES = ("tictactoe", "connect4", "king", "nim", "graph", "buttons")


def _open_scene(app, name: str, seat_class):
    if name == "tictactoe":
        from games.tictactoe.rules import MNKConfig
        from games.tictactoe.scene import TicTacToeScene

        seats = (seat_class("computer", "hard"), seat_class("computer", "hard"))
        return app.push(TicTacToeScene(app, MNKConfig(15, 15, 5), seats, seed=1))
    if name == "connect4":
        from games.connect4.rules import Connect4Config
        from games.connect4.scene import Connect4Scene

        seats = (seat_class("computer", "hard"), seat_class("computer", "hard"))
        return app.push(Connect4Scene(app, Connect4Config(7, 6), seats, seed=1))
    if name in ("king", "nim", "graph"):
        from games.grundy.scenes import scene_for
        from games.grundy.variants import GrundySetup

        seats = (seat_class("computer", "perfect"), seat_class("computer", "perfect"))
        return app.push(scene_for(app, GrundySetup(game=name), seats, seed=1))
    import random

    from games.buttons.board import generate
    from games.buttons.scene import ButtonMadnessScene

    # "Thinking" here is the solver: a 1000×1000 board with its solution shown, and a
    # press now and then (see child) so the solver works it out again.
    board, _presses = generate(1000, random.Random(1))
    scene = app.push(ButtonMadnessScene(app, board, seed=1))
    scene.toggle_solution()
    return scene


def measure(mode: str, seconds: float) -> dict:
    """Run one measurement in a fresh interpreter."""
    out = subprocess.run([sys.executable, __file__, CHILD, mode, str(seconds)],
                         capture_output=True, text=True, timeout=seconds * 4 + 120,
                         env=dict(os.environ, SDL_VIDEODRIVER="dummy"))
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def p99_ms(values: list[float]) -> float | None:
    """99th percentile in ms (None without values)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000


def p99(values: list[float]) -> str:
    """99th percentile in ms as text, or a dash."""
    value = p99_ms(values)
    return "—" if value is None else f"{value:.1f}"


def ratio(values: list[float], reference_ms: float) -> str:
    """Our p99 over the reference's, as text."""
    value = p99_ms(values)
    return "—" if value is None else f"{value / reference_ms:.2f}"


def main() -> int:
    """Measure and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="per scene measurement")
    parser.add_argument("--exe", default=str(ROOT / "dist" / "arcade-of-strategy"))
    parser.add_argument("--scenes", nargs="+", default=list(SCENES), choices=SCENES,
                        help="which game scenes to measure (default: all)")
    args = parser.parse_args()
    exe = Path(args.exe)
    rows = []
    if exe.exists():
        rows.append(("executable size", f"{exe.stat().st_size / 1e6:.1f} MB", "< 60 MB"))
        times = first_frame_seconds([str(exe)])
        rows.append(("launch to first launcher frame, executable (median of 5)",
                     f"{statistics.median(times):.2f} s", "< 1.5 s"))
    times = first_frame_seconds([sys.executable, str(ROOT / "main.py")])
    rows.append(("launch to first launcher frame, from source (median of 5)",
                 f"{statistics.median(times):.2f} s", ""))
    idle = measure("launcher", min(args.seconds, 10))
    rows.append(("peak memory, idle in the launcher", f"{idle['peak_mb']} MB", "< 150 MB"))
    cvc = measure("cvc15", min(args.seconds, 60))
    rows.append(("peak memory, computer vs computer 15×15", f"{cvc['peak_mb']} MB", "< 150 MB"))
    print("| measure | value | aim |\n| --- | --- | --- |")
    for row in rows:
        print(f"| {row[0]} | {row[1]} | {row[2]} |")
    bare = measure("reference", args.seconds)
    bare_interval = p99_ms(bare["idle"]) or 1000 / 60
    print("\nFrame time = the work of one frame (budget 16.7 ms at 60 fps); interval = "
          "start to start; ratio = our p99 interval / the bare loop's.\n")
    print("| scene | p99 frame time idle (ms) | p99 frame time, computer thinking (ms) "
          "| p99 interval idle (ms) | p99 interval thinking (ms) | ratio idle | ratio thinking |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print(f"| bare pygame loop (reference) | {p99(bare['idle_work'])} | — "
          f"| {p99(bare['idle'])} | — | 1.00 | — |", flush=True)
    for name in args.scenes:
        result = measure(f"scene:{name}", args.seconds)
        print(f"| {name} | {p99(result['idle_work'])} | {p99(result['busy_work'])} "
              f"| {p99(result['idle'])} | {p99(result['busy'])} "
              f"| {ratio(result['idle'], bare_interval)} "
              f"| {ratio(result['busy'], bare_interval)} |", flush=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == CHILD and sys.argv[2] == "reference":
        reference(float(sys.argv[3]))
    elif len(sys.argv) >= 4 and sys.argv[1] == CHILD:
        child(sys.argv[2], float(sys.argv[3]))
    else:
        sys.exit(main())
