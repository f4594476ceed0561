"""A seeded "monkey" that drives the real app headlessly and checks it never breaks.

``run_monkey(seed, events, profile)`` builds the app exactly as the tests do
(``SDL_VIDEODRIVER=dummy``, launcher on the stack) and, one input at a time,
feeds it random clicks (half of them aimed at the top scene's buttons or board
cells), mouse motion, shortcut keys, window resizes, text typed into text
dialogs, and time (``dt``) so computer players and animations progress. It
stops at the first failure:

* an exception out of ``App.step`` (or out of a background thread, or a notice
  saying a computer move, hint or solver failed);
* a hung frame: one ``App.step`` taking over 250 ms while no scene shows a busy
  state (frames that imported a module for the first time are exempt: lazy
  imports such as pygame_gui are a one-off start-up cost, not a hang). Where
  Linux reports it, the time the frame's thread spent *waiting for a CPU* (other
  processes had them all: a loaded CI machine) is not counted; time waiting
  for the GIL, a lock or the disk is, since those are the app's own doing;
* the app stopping on its own (the monkey never posts QUIT nor clicks Quit);
* resident memory growing 20 MB or more between input 10,000 and the end
  (between the half-way input and the end for runs under 20,000 inputs, such as
  the suite's 5,000; runs under 1,000 inputs skip it). Both figures are taken in the
  same settled state, so they compare what the app *keeps*, not what it happens to
  be doing: back to the launcher at 960×720, background searches finished, garbage
  collected and free heap pages returned (as the app does whenever a game is left).
  That input therefore also sends the monkey back to the launcher.

Replays: every choice comes from ``random.Random(seed)``, and while the monkey
runs, ``random.Random()`` built without a seed (the scenes' and agents' RNGs)
is seeded from the monkey's seed too. What is *not* reproducible: how far a
computer search gets within its time budget, and on which frame a background
search finishes, since both depend on the machine's speed; Button Madness'
Generate seeds its board from the clock. A failure message names the seed and
the input number, and ``run_monkey(seed, number)`` replays up to it.

Each frame first hands the app the events its own widgets posted (pygame_gui's
text-entry events), as ``App.run`` would, then the monkey's inputs; window
events from ``set_mode`` are dropped (the monkey posts VIDEORESIZE itself).
Text arrives as SDL delivers it: TEXTINPUT chunks of at most 8 characters.

``SOAK_TRACE=1`` dumps every thread's stack when a frame passes the hang limit
(faulthandler's watchdog; it has been seen to crash the interpreter when it
fires during an import, so it is off by default).

Command line (the full soak)::

    python tests/support/soak.py --events 200000 --seed 1
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import random
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from engine.ai.runner import WORKERS  # noqa: E402
from engine.core.memory import release_free_memory  # noqa: E402
from engine.model.registry import all_games, prefetch  # noqa: E402
from engine.runtime.app import App  # noqa: E402
from engine.screens.launcher import LauncherScene  # noqa: E402
from engine.ui.widgets import Button  # noqa: E402
from tests.conftest import make_app  # noqa: E402  (the same headless app the tests use)

HUNG_FRAME_MS = 250.0
MEMORY_LIMIT_MB = 20.0
MEMORY_FROM = 10_000
# Notices that mean something went wrong inside the app (a swallowed exception).
FAILURE_NOTICES = ("could not move", "could not be worked out", "solver failed",
                   "Could not remember")
# Each registered game and the package its scenes live in (from the registry, not a list).
FAMILY_MODULES = {game.id: ".".join(game.scene.partition(":")[0].split(".")[:2])
                  for game in all_games()}

KEYS = [
    pygame.K_ESCAPE, pygame.K_F1, pygame.K_h, pygame.K_s, pygame.K_n, pygame.K_p, pygame.K_t,
    pygame.K_g, pygame.K_r, pygame.K_e, pygame.K_c, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP,
    pygame.K_DOWN, pygame.K_RETURN, pygame.K_SPACE, pygame.K_TAB, pygame.K_0, pygame.K_1,
    pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5, pygame.K_9, pygame.K_MINUS,
    pygame.K_EQUALS, pygame.K_BACKSPACE, pygame.K_PAGEDOWN,
]
TEXTS = ["", "0", "1234", "abc", "ÄÖü ß", "🙂🎲", "日本語のテキスト", "-", " ", "\t",
         "0" * 120, "x" * 200, "10101 01010", "ff" * 40, "%s%n{}", "\\", "0101", "5x5"]


@dataclass
class SoakResult:
    """What a monkey run saw; ``ok`` when nothing failed."""

    seed: int
    events: int = 0
    seconds: float = 0.0
    failure: str | None = None
    failed_at: int | None = None
    scenes: set[str] = field(default_factory=set)
    families: set[str] = field(default_factory=set)
    max_frame_ms: float = 0.0          # slowest frame outside busy states
    max_busy_frame_ms: float = 0.0     # slowest frame while something was busy
    max_wall_frame_ms: float = 0.0     # slowest frame by the clock, waits for a CPU included
    cpu_wait_ms: float = 0.0           # how long frames waited for a CPU, in all
    rss_start_kb: int = 0
    rss_baseline_kb: int | None = None
    rss_end_kb: int = 0
    rss_peak_kb: int | None = None
    memory_from: int = MEMORY_FROM
    steps: int = 0

    @property
    def ok(self) -> bool:
        return self.failure is None

    def summary(self) -> str:
        def mb(kb: int | None) -> str:
            return "n/a" if kb is None else f"{kb / 1024:.1f} MB"

        lines = [
            f"seed {self.seed}: {self.events} inputs in {self.seconds:.1f} s "
            f"({self.steps} frames)",
            f"  families visited: {', '.join(sorted(self.families)) or 'none'}",
            f"  scenes visited: {', '.join(sorted(self.scenes))}",
            f"  max frame outside busy states: {self.max_frame_ms:.1f} ms "
            f"(while busy: {self.max_busy_frame_ms:.1f} ms; by the clock, including "
            f"{self.cpu_wait_ms / 1000:.1f} s spent waiting for a CPU in all: "
            f"{self.max_wall_frame_ms:.1f} ms)",
            f"  RSS: start {mb(self.rss_start_kb)}, settled at input {self.memory_from}: "
            f"{mb(self.rss_baseline_kb)}, at the end: {mb(self.rss_end_kb)}, "
            f"peak {mb(self.rss_peak_kb)}",
            "  result: " + ("OK" if self.ok else f"FAILED at input {self.failed_at}"),
        ]
        if self.failure:
            lines.append(self.failure)
        return "\n".join(lines)


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def cpu_wait_ms() -> float:
    """Milliseconds this thread has spent runnable but waiting for a CPU (0 if unknown).

    The second field of /proc/thread-self/schedstat: the scheduler's run-queue
    delay, which only other work on the machine causes, never a lock or I/O.
    """
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as handle:
            return int(handle.read().split()[1]) / 1e6
    except (OSError, IndexError, ValueError):
        return 0.0


def rss_kb() -> int:
    """Resident memory of this process in kB (VmRSS; ru_maxrss where /proc is missing)."""
    value = _status_kb("VmRSS")
    if value is not None:
        return value
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


# Threads that wait for the next job and never end, by the start of their names: a settled
# figure waits for their work, not for them (joining one only ran out its 30 s, twice a
# soak). Connect Four's proving threads work only for an AI worker's job (solve_pool).
IDLE_WORKERS = ("ai-worker", "statistics", "game-journal", "c4-proof")
# The threads alive when the current run began (run_monkey).
_OLDER_THREADS: set[threading.Thread] = set()


def settled_rss_kb(app: App) -> int:
    """Resident memory in a state that can be compared: see the module docstring."""
    app.pop_to(LauncherScene)
    size = (960, 720)
    pygame.display.set_mode(size, pygame.RESIZABLE)
    app.handle(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    deadline = time.monotonic() + 30
    WORKERS.wait_idle(30)
    # The statistics worker is idle once a job queued now has run; the journal's writer
    # once its queue is written (neither thread ends).
    app.stats.submit(lambda store: None, read=False).ready.wait(30)
    app.game_saves.writer.drain()
    for thread in threading.enumerate():
        # (idle workers wait for the next job: they never end; threads older than the
        # run are not its own: a test process may hold other apps' idle workers)
        if thread is not threading.current_thread() and thread.daemon \
                and not thread.name.startswith(IDLE_WORKERS) and thread not in _OLDER_THREADS:
            thread.join(max(0.0, deadline - time.monotonic()))
    app.step([], 1 / 60)
    release_free_memory(collect=True)
    return rss_kb()


class _SeededRandoms:
    """While active, ``random.Random()`` without a seed is seeded from the monkey's seed."""

    def __init__(self, seed: int) -> None:
        self.source = random.Random(seed ^ 0x5EED)
        self.lock = threading.Lock()
        self.original = random.Random

    def __enter__(self) -> _SeededRandoms:
        original, source, lock = self.original, self.source, self.lock

        class SeededRandom(original):  # type: ignore[misc,valid-type]
            def __init__(self, x: object = None) -> None:
                if x is None:
                    with lock:
                        x = source.getrandbits(64)
                super().__init__(x)

        random.Random = SeededRandom  # type: ignore[misc]
        return self

    def __exit__(self, *exc: object) -> None:
        random.Random = self.original  # type: ignore[misc]


def _busy(app: App) -> bool:
    """Whether any scene shows a busy state (a computer move, hint or solver running)."""
    for scene in app.scenes:
        label = getattr(scene, "busy_label", None)
        if callable(label) and label() is not None:
            return True
        for attr in ("ai", "hint_runner"):
            runner = getattr(scene, attr, None)
            if runner is not None and getattr(runner, "busy", False):
                return True
    return False


def _family_of(scene: object) -> str | None:
    module = type(scene).__module__
    for family, prefix in FAMILY_MODULES.items():
        if module.startswith(prefix):
            return family
    return None


def _note_scenes(result: SoakResult, app: App) -> None:
    """Add the scenes on the stack (and their game families) to what the run visited.

    A function of its own so that no loop variable of ``run_monkey`` outlives the
    frame: one left holding the frame's top scene kept that scene, popped by
    :func:`settled_rss_kb`, alive through the settled measurement, so the figure
    counted whichever screen happened to be on top (a code dialog's pygame_gui
    manager alone is 5-10 MB).
    """
    for scene in app.scenes:
        result.scenes.add(type(scene).__name__)
        family = _family_of(scene)
        if family:
            result.families.add(family)


class Monkey:
    """Chooses inputs for the scene on top; every choice comes from ``self.rng``."""

    def __init__(self, app: App, rng: random.Random) -> None:
        self.app = app
        self.rng = rng
        self.mouse = (0, 0)
        self.pending_text = ""

    # --- targets -----------------------------------------------------------------------
    def buttons(self) -> list[Button]:
        top = self.app.top
        if top is None:
            return []
        # A stepper's − and + are parts of one widget: they are clicked too.
        return [b for w in top.ui.widgets if w.visible for b in (w, *w.parts())
                if isinstance(b, Button) and b.name != "Quit"]

    def _weight(self, button: Button) -> float:
        name = (button.name or "").lower()
        top = self.app.top
        if isinstance(top, LauncherScene):
            # Mostly open games; the statistics and palette now and then.
            return 6.0 if name in FAMILY_MODULES else 1.0
        if "easy" in name or "computer" in name:
            return 4.0
        if name in ("start", "ok"):
            return 3.0
        if "perfect" in name or "hard" in name:
            return 0.4
        if name == "back":
            return 0.6
        return 1.0

    def widget_point(self) -> tuple[int, int] | None:
        buttons = self.buttons()
        if not buttons:
            return None
        button = self.rng.choices(buttons, [self._weight(b) for b in buttons])[0]
        rect = self.app.viewport.map_rect(button.rect)
        return (rect.x + self.rng.randrange(max(1, rect.width)),
                rect.y + self.rng.randrange(max(1, rect.height)))

    def cell_point(self) -> tuple[int, int] | None:
        geometry = getattr(self.app.top, "geometry", None)
        if not callable(geometry):
            return None
        try:
            geom = geometry()
        except Exception:  # noqa: BLE001 - scenes without a grid draw elsewhere
            return None
        if not hasattr(geom, "cell_center"):
            return None
        x, y = geom.cell_center(self.rng.randrange(geom.rows), self.rng.randrange(geom.cols))
        return round(x), round(y)

    def random_point(self) -> tuple[int, int]:
        w, h = self.app.screen.get_size()
        return self.rng.randrange(w), self.rng.randrange(h)

    def _safe(self, pos: tuple[int, int]) -> tuple[int, int]:
        """Move a click off the launcher's Quit button (the monkey never quits)."""
        top = self.app.top
        if isinstance(top, LauncherScene):
            quit_rect = self.app.viewport.map_rect(top.ui.find("Quit").rect)
            if quit_rect.collidepoint(pos):
                return (max(0, quit_rect.x - 40), pos[1])
        return pos

    # --- inputs ----------------------------------------------------------------------
    def click(self, pos: tuple[int, int], button: int = 1) -> list[pygame.event.Event]:
        pos = self._safe(pos)
        self.mouse = pos
        return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)]

    def key(self, keycode: int, mod: int = 0) -> list[pygame.event.Event]:
        top = self.app.top
        if (isinstance(top, LauncherScene) and keycode in (pygame.K_RETURN, pygame.K_SPACE)
                and isinstance(top.ui.focused, Button) and top.ui.focused.name == "Quit"):
            keycode = pygame.K_TAB  # Enter on the focused Quit button would quit
        unicode = ""
        if pygame.K_a <= keycode <= pygame.K_z or pygame.K_0 <= keycode <= pygame.K_9:
            unicode = chr(keycode)
        return [pygame.event.Event(pygame.KEYDOWN, key=keycode, mod=mod, unicode=unicode,
                                   scancode=0),
                pygame.event.Event(pygame.KEYUP, key=keycode, mod=mod, unicode=unicode,
                                   scancode=0)]

    def resize(self) -> list[pygame.event.Event]:
        rng = self.rng
        if rng.random() < 0.3:
            size = rng.choice([(320, 240), (1920, 1080), (960, 720), (320, 1080), (1920, 240)])
        else:
            size = (rng.randint(320, 1920), rng.randint(240, 1080))
        pygame.display.set_mode(size, pygame.RESIZABLE)
        return [pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])]

    def text(self) -> list[pygame.event.Event]:
        """Typed text: one short TEXTINPUT per frame, as SDL delivers typing and IME commits.

        SDL caps a TEXTINPUT at 32 bytes; long strings arrive as successive chunks of up
        to 8 characters (one per frame), so a long string takes several frames to type.
        """
        rng = self.rng
        if not self.pending_text:
            if rng.random() < 0.5:
                self.pending_text = rng.choice(TEXTS)
            else:
                alphabet = "01 xX-,;é€😀\u200b\u0301" + "0123456789abcdef"
                self.pending_text = "".join(rng.choice(alphabet)
                                            for _ in range(rng.randint(1, 60)))
        size = rng.randint(1, 8)
        chunk, self.pending_text = self.pending_text[:size], self.pending_text[size:]
        while len(chunk.encode("utf-8")) > 31:
            chunk = chunk[:-1]
        return [pygame.event.Event(pygame.TEXTINPUT, text=chunk)]

    def next_events(self) -> list[pygame.event.Event]:
        """The inputs of one frame."""
        rng = self.rng
        top = self.app.top
        text_dialog = type(top).__name__ == "TextEntryDialog"
        roll = rng.random()
        if text_dialog and (roll < 0.15 or (self.pending_text and roll < 0.6)):
            return self.text()
        if not text_dialog:
            self.pending_text = ""
        if roll < 0.45:
            r = rng.random()
            pos = None
            if r < 0.55:
                pos = self.widget_point()
            elif r < 0.8:
                pos = self.cell_point()
            if pos is None:
                pos = self.random_point()
            return self.click(pos, 1 if rng.random() < 0.95 else rng.choice([2, 3]))
        if roll < 0.55:
            pos = self.random_point()
            self.mouse = pos
            return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1),
                                       buttons=(0, 0, 0))]
        if roll < 0.57:
            return [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice([-3, -1, 1, 3]),
                                       flipped=False, precise_x=0.0, precise_y=0.0)]
        if roll < 0.80:
            keycode = rng.choice(KEYS)
            if keycode == pygame.K_ESCAPE and rng.random() < 0.6:
                keycode = pygame.K_TAB  # Esc leaves games; keep them open a little longer
            return self.key(keycode, pygame.KMOD_SHIFT if rng.random() < 0.1 else 0)
        if roll < 0.86:
            r = rng.random()
            if r < 0.45:
                return self.key(pygame.K_z, pygame.KMOD_CTRL)
            if r < 0.8:
                return self.key(pygame.K_y, pygame.KMOD_CTRL)
            return self.key(pygame.K_z, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
        if roll < 0.865:
            return self.resize()
        return []  # an idle frame: time passes


def run_monkey(seed: int, events: int, profile: Path | None = None,
               report_every: int = 10_000) -> SoakResult:
    """Post ``events`` random inputs to a fresh app; stop at the first failure."""
    result = SoakResult(seed=seed)
    _OLDER_THREADS.clear()
    _OLDER_THREADS.update(threading.enumerate())
    # Where the memory baseline is taken (see the module docstring); 0: no memory check.
    memory_from = min(MEMORY_FROM, events // 2) if events >= 1_000 else 0
    result.memory_from = memory_from
    rng = random.Random(seed)
    thread_errors: list[str] = []
    old_hook = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        thread_errors.append("".join(traceback.format_exception(
            args.exc_type, args.exc_value, args.exc_traceback)))

    temp = None
    if profile is None:
        temp = tempfile.TemporaryDirectory(prefix="arcade-soak-")
        profile = Path(temp.name) / "profile"
    old_profile = os.environ.get("ARCADE_PROFILE")
    os.environ["ARCADE_PROFILE"] = str(profile)
    threading.excepthook = hook
    start = time.perf_counter()
    # SOAK_TRACE=1: print every thread's stack when a frame runs over the hang limit.
    trace = bool(os.environ.get("SOAK_TRACE"))
    app = None
    try:
        with _SeededRandoms(seed):
            app = make_app(profile)
            # As the real app does (engine/runtime/cli.py run_app): the games' modules load in
            # the background after the first frame.
            prefetch(all_games(), lambda: app.frames > 0)
            monkey = Monkey(app, rng)
            result.rss_start_kb = rss_kb()
            notices: list[str] = []
            real_notify = app.notify

            def notify(message: str, level: str = "warning") -> None:
                notices.append(message)
                real_notify(message, level)

            app.notify = notify  # type: ignore[method-assign]

            def fail(number: int, message: str) -> None:
                result.failure = (f"seed {seed}, input {number}: {message}\n"
                                  f"replay: run_monkey({seed}, {number})")
                result.failed_at = number

            for number in range(1, events + 1):
                result.events = number
                batch = monkey.next_events()
                dt = rng.choice([1 / 60, 1 / 60, 1 / 30, 0.1, 0.7])
                busy_before = _busy(app)
                modules_before = len(sys.modules)
                # The monkey's inputs replace the real queue, except the events the app's
                # own widgets posted (pygame_gui's), which it gets first as in App.run.
                # (Drain with get(): pygame.event.clear() keeps the dicts of cleared user
                # events alive, which leaked a whole pygame_gui UIManager per text dialog.)
                posted = [e for e in pygame.event.get() if e.type >= pygame.USEREVENT]
                batch = posted + batch
                if trace:
                    faulthandler.dump_traceback_later(HUNG_FRAME_MS / 1000, exit=False)
                waited0 = cpu_wait_ms()
                t0 = time.perf_counter()
                try:
                    app.step(batch, dt)
                except Exception:  # noqa: BLE001 - this is what the monkey looks for
                    fail(number, "exception\n" + traceback.format_exc())
                    break
                wall_ms = (time.perf_counter() - t0) * 1000
                waited = cpu_wait_ms() - waited0
                result.max_wall_frame_ms = max(result.max_wall_frame_ms, wall_ms)
                result.cpu_wait_ms += waited
                ms = wall_ms - waited
                if trace:
                    faulthandler.cancel_dump_traceback_later()
                result.steps += 1
                _note_scenes(result, app)
                busy = busy_before or _busy(app)
                if busy:
                    result.max_busy_frame_ms = max(result.max_busy_frame_ms, ms)
                elif len(sys.modules) == modules_before:
                    result.max_frame_ms = max(result.max_frame_ms, ms)
                    if ms > HUNG_FRAME_MS:
                        stack = [type(scene).__name__ for scene in app.scenes]
                        fail(number, f"hung frame: {ms:.0f} ms ({wall_ms:.0f} ms by the clock) "
                                     f"with nothing busy; inputs "
                                     f"{batch}; scenes {stack}")
                        break
                if thread_errors:
                    fail(number, "exception in a background thread\n" + thread_errors[0])
                    break
                for notice in notices:
                    if any(text in notice for text in FAILURE_NOTICES):
                        fail(number, f"failure notice: {notice}")
                        break
                notices.clear()
                if result.failure:
                    break
                if not app.running:
                    fail(number, "the app stopped running (the monkey never quits)")
                    break
                # Keep the notices few, as a player would click them away.
                app.toasts.keep_newest(3)
                if busy and rng.random() < 0.05:
                    time.sleep(0.01)  # let background searches finish now and then
                if number == memory_from:
                    # This frame's events may hold a dialog's widgets (pygame_gui's posted
                    # events name them): drop them, or the settled figure counts them.
                    batch = posted = []
                    result.rss_baseline_kb = settled_rss_kb(app)
                if report_every and number % report_every == 0:
                    print(f"  … {number} inputs, {time.perf_counter() - start:.0f} s, "
                          f"RSS {rss_kb() / 1024:.1f} MB, top {type(app.top).__name__}",
                          file=sys.stderr, flush=True)
            batch = posted = []  # (as for the baseline)
            result.rss_peak_kb = _status_kb("VmHWM")
            result.rss_end_kb = (settled_rss_kb(app) if result.rss_baseline_kb is not None
                                 else rss_kb())
            if (result.ok and result.rss_baseline_kb is not None
                    and result.rss_end_kb - result.rss_baseline_kb >= MEMORY_LIMIT_MB * 1024):
                grown = (result.rss_end_kb - result.rss_baseline_kb) / 1024
                result.failure = (f"seed {seed}: resident memory grew {grown:.1f} MB from input "
                                  f"{memory_from} to {events} (limit {MEMORY_LIMIT_MB} MB)")
                result.failed_at = events
    finally:
        threading.excepthook = old_hook
        if app is not None:
            if app.running:
                app.quit()
            app.stats.close()
        pygame.display.quit()
        if old_profile is None:
            os.environ.pop("ARCADE_PROFILE", None)
        else:
            os.environ["ARCADE_PROFILE"] = old_profile
        if temp is not None:
            temp.cleanup()
    result.seconds = time.perf_counter() - start
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Drive the real app with random input.")
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=Path, default=None,
                        help="profile folder (default: a temporary one)")
    parser.add_argument("--report-every", type=int, default=10_000)
    args = parser.parse_args(argv)
    result = run_monkey(args.seed, args.events, args.profile, args.report_every)
    print(result.summary())
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
