"""Crash-and-race harness: kill the stores at random moments, race them, and check nothing is lost.

Run from the repository root (POSIX only: it uses SIGKILL)::

    python tests/support/crash_harness.py                 # 10 runs of each scenario
    python tests/support/crash_harness.py --runs 50   # the full run (docs/reliability.md)
    python tests/support/crash_harness.py --quick         # the reduced form the test suite runs
    python tests/support/crash_harness.py --json out.json --seed 7 --scenario kill

Six scenarios, each on its own throw-away profile in a temporary folder (never the
player's own; ``ARCADE_PROFILE`` and the XDG folders of the workers point there too):

kill
    A worker (tests/support/crash_worker.py) opens the profile as the app does (half the time
    building the real App too, under SDL's dummy video driver) and loops: record a game or
    puzzle result, change and save a setting, write a saved game. The harness SIGKILLs it
    at a random moment (a quarter of the time while it is still starting), then starts
    another on the same profile, ``--kills`` times. A fresh process then starts the app on
    the profile and the journals are checked against what it sees (tests/support/crash_checks.py).
rebuild
    A statistics database of ``--rows`` rows with a damaged index, so that opening it
    rebuilds it. A worker opens it and is killed after a random delay within the measured
    rebuild time, or at the n-th change it makes to the folder; ``--rebuild-kills`` times.
    A third of those kills, and a sweep over every step (``--no-sweep`` skips it), come at
    an exact step instead: the worker kills itself just before or just after its n-th
    call that renames, links or removes a file. After each run a normal start must show
    every row exactly once, keep at most one set-aside copy per start, and leave no hidden
    ``.rebuild`` or ``.tmp`` file.
race
    Two to four copies (sometimes one more, a little later) start at the same instant on a
    fresh profile, released by a start file they all wait for, and each records results,
    saves its own setting and writes saved games (one game id shared by all); sometimes one
    copy is killed mid-race. Every result of every copy must be there, no copy may fall
    back to memory, and no notice may speak of corruption or "already exists".

pages
    A statistics file of a few hundred rows with 2 KB of random bytes in one of its pages
    (any but the first). A fresh start must show every row that an independent read,
    looking each id up on its own, can read (it may read more: it also reads past
    damaged pages in order), never more rows than were written, and a notice with the
    numbers kept and lost.
lock
    The real App while another process holds the statistics file in ``BEGIN
    EXCLUSIVE``: Match me, a result queued, the Statistics screen, then the release. The
    frame loop must never use the statistics connection (every use is counted), no frame
    may wait near the store's busy timeout, the player is told the file is busy, nothing
    says "no games" meanwhile, and every row is shown after the release. Each frame's
    wait (wall time less CPU time) is reported: the longest and how many passed 100 ms.
play
    The real app (tests/support/play_worker.py: ``main.py play connect4`` with a thread
    clicking columns) plays Connect Four and is SIGKILLed at a random moment mid-game,
    three times per run on one profile. After each kill a fresh copy reopens the game and
    counts its moves: at most the move being made may be lost (its journal holds every
    other). That copy is then ended by HUP, INT, QUIT or TERM in turn, which must be a clean
    quit (exit 0, no traceback) keeping every move. Then two copies play the same game (A
    two moves, then B one) and quit in a random order: A's moves must reopen, and B must
    have said that its moves are not saved.

The summary gives runs, kills, operations journalled, checks passed and failed, and
timings; ``--json FILE`` writes the same figures. Exit status 1 if any check failed (the
first failures are listed, each with the scenario, run and seed that found it), 0 if all
passed, 2 for bad options.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TOOLS = Path(__file__).resolve().parent  # this folder: the worker and the oracle
ROOT = TOOLS.parents[1]
for _folder in (ROOT, TOOLS):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

import crash_checks as checks  # noqa: E402
from crash_worker import LOOP_SAVES, PLAIN, RACE_SETTINGS, SHARED_SAVE  # noqa: E402

WORKER = TOOLS / "crash_worker.py"
SCENARIOS = ("kill", "race", "rebuild", "pages", "lock", "play")
# The longest a frame may wait on a file (the bound: "no frame over 100 ms").
FRAME_WAIT_LIMIT = 0.1
PLAYER = TOOLS / "play_worker.py"
#: Moves one playing copy makes before it idles: three copies per run stay under the 21
#: moves after which the worker's column order could make four in a row.
PLAY_MOVES = 6
#: Seconds between a move on the board and the next click: faster than any player (a
#: move the journal writer has not yet fsync'd when the next is made can be lost too).
PLAY_PACE = 0.1
#: The signals a playing copy's check ends with, in turn: each must be a clean quit.
PLAY_SIGNALS = ("SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM")
STATS_FILE = "statistics.sqlite3"
# How long a worker may take to start, open the stores or finish a race before the
# harness gives up on it (and reports it as hung).
START_TIMEOUT = 60.0
RACE_TIMEOUT = 180.0
# Failures listed in the summary (the JSON file has them all).
SHOWN_FAILURES = 10


@dataclass(frozen=True)
class Plan:
    """What one harness invocation does."""

    runs: int = 10
    seed: int = 1
    kills: int = 4
    window: float = 1.0
    rows: int = 200_000
    rebuild_runs: int = 2
    rebuild_kills: int = 3
    race_ops: int = 30
    sweep: bool = True
    scenarios: tuple[str, ...] = SCENARIOS


@dataclass
class Figures:
    """The running totals the summary prints (and ``--json`` writes)."""

    runs: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SCENARIOS, 0))
    kills: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SCENARIOS, 0))
    starts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SCENARIOS, 0))
    journalled: dict[str, int] = field(default_factory=dict)
    tried: int = 0
    refused: int = 0
    checks_passed: int = 0
    checks_failed: int = 0
    failures: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SCENARIOS, 0.0))
    open_seconds: dict[str, list[float]] = field(
        default_factory=lambda: {s: [] for s in SCENARIOS})
    check_seconds: list[float] = field(default_factory=list)
    rebuild_seconds: float | None = None
    #: Where the kills landed: "kill/starting", "kill/working", "rebuild/before" (no
    #: temporary yet), "rebuild/during" (a .rebuild file there), "rebuild/after".
    landed: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: pages: rows of the damaged files, rows an independent read could read, rows kept.
    pages_rows: list[tuple[int, int, int]] = field(default_factory=list)
    #: lock: every frame's wait (wall less CPU time) while another process held the file.
    frame_waits: list[float] = field(default_factory=list)
    #: Moves lost per kill during play (play scenario), and the signals that ended a copy.
    moves_lost: list[int] = field(default_factory=list)
    signals: dict[str, int] = field(default_factory=dict)

    def landing(self, where: str) -> None:
        """Count one kill that landed at ``where``."""
        self.landed[where] = self.landed.get(where, 0) + 1

    def add(self, scenario: str, verdict: checks.Verdict, ledger: checks.Ledger | None) -> None:
        """Count one run's checks and operations."""
        self.checks_passed += verdict.passed
        self.checks_failed += verdict.failed
        self.failures += verdict.lines()
        if ledger is None:
            return
        for attempt in ledger.attempts:
            if attempt.state == "ok":
                self.journalled[attempt.kind] = self.journalled.get(attempt.kind, 0) + 1
        self.tried += len(ledger.attempts)
        self.refused += ledger.count("warn")
        self.open_seconds[scenario] += [float(r.get("seconds", 0)) for _, r in ledger.opens]

    def as_dict(self, plan: Plan, total: float) -> dict[str, Any]:
        """The figures as plain JSON data."""
        return {
            "plan": {"runs": plan.runs, "seed": plan.seed, "kills": plan.kills,
                     "rows": plan.rows, "rebuild_runs": plan.rebuild_runs,
                     "rebuild_kills": plan.rebuild_kills, "race_ops": plan.race_ops,
                     "sweep": plan.sweep, "scenarios": list(plan.scenarios)},
            "runs": self.runs, "kills": self.kills, "worker_starts": self.starts,
            "operations_journalled": dict(sorted(self.journalled.items())),
            "operations_journalled_total": sum(self.journalled.values()),
            "operations_tried": self.tried, "writes_refused": self.refused,
            "checks_passed": self.checks_passed, "checks_failed": self.checks_failed,
            "seconds": {"total": round(total, 2),
                        **{k: round(v, 2) for k, v in self.seconds.items()}},
            "worker_open_seconds": {s: _spread(v) for s, v in self.open_seconds.items() if v},
            "next_start_seconds": _spread(self.check_seconds),
            "rebuild_seconds": self.rebuild_seconds,
            "kills_landed": dict(sorted(self.landed.items())),
            "play_moves_lost": _lost(self.moves_lost),
            "play_signals": dict(sorted(self.signals.items())),
            "notes": self.notes,
            "pages": {"files": len(self.pages_rows),
                      "rows": sum(r[0] for r in self.pages_rows),
                      "readable": sum(r[1] for r in self.pages_rows),
                      "kept": sum(r[2] for r in self.pages_rows)},
            "lock": {"frames": len(self.frame_waits),
                     "longest_wait_ms": round(max(self.frame_waits, default=0) * 1000, 1),
                     "over_limit": sum(w > FRAME_WAIT_LIMIT for w in self.frame_waits)},
            "failures": self.failures,
        }


def _lost(values: list[int]) -> dict[str, Any] | None:
    """Moves lost per kill: how many kills, the most and the mean, and the histogram."""
    if not values:
        return None
    return {"kills": len(values), "max": max(values),
            "mean": round(sum(values) / len(values), 3),
            "histogram": {str(n): values.count(n) for n in sorted(set(values))}}


def _spread(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    ordered = sorted(values)
    return {"median": round(ordered[len(ordered) // 2], 4), "max": round(ordered[-1], 4),
            "count": len(ordered)}


# --- processes ------------------------------------------------------------------------------


class Workers:
    """Starts workers on throw-away profiles under ``work`` and kills them."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.env = dict(os.environ)
        # The workers name their profile; these only make sure that nothing, not even a
        # mistake in the harness, can reach the player's own folders.
        xdg = work / "xdg"
        self.env.update({"ARCADE_PROFILE": str(work / "no-profile-given"),
                         "XDG_CONFIG_HOME": str(xdg / "config"),
                         "XDG_DATA_HOME": str(xdg / "data"), "PYTHONDONTWRITEBYTECODE": "1"})

    def start(self, command: str, *args: str, log: Path) -> subprocess.Popen[bytes]:
        """Start ``crash_worker.py command args``; its stderr goes to ``log``."""
        with open(log, "ab") as err:
            return subprocess.Popen([sys.executable, str(WORKER), command, *args],
                                    env=self.env, cwd=ROOT, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=err)

    @staticmethod
    def kill(proc: subprocess.Popen[bytes]) -> bool:
        """SIGKILL ``proc``; True if it was still running (a real kill)."""
        if proc.poll() is not None:
            return False
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        return proc.returncode == -signal.SIGKILL

    def check(self, profile: Path, saves: tuple[str, ...] = ()) -> dict[str, Any]:
        """Open ``profile`` as the app does, in a fresh process; what it saw."""
        out = profile.parent / f"seen-{time.monotonic_ns()}.json"
        log = profile.parent / "check.log"
        proc = self.start("check", "--profile", str(profile), "--out", str(out),
                          "--saves", ",".join(saves), log=log)
        try:
            proc.wait(timeout=START_TIMEOUT * 3)
        except subprocess.TimeoutExpired:
            self.kill(proc)
            return {"error": "the checking start hung (killed after "
                             f"{START_TIMEOUT * 3:.0f} s)"}
        try:
            return json.loads(out.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            tail = log.read_text(encoding="utf-8", errors="replace")[-400:] if log.exists() else ""
            return {"error": f"the checking start failed (exit {proc.returncode}): {tail}"}


def _wait_for(path: Path, proc: subprocess.Popen[bytes], timeout: float) -> bool:
    """Wait until ``path`` exists; False if ``proc`` ended first or time ran out."""
    end = time.monotonic() + timeout
    while not path.exists():
        if proc.poll() is not None or time.monotonic() > end:
            return path.exists()
        time.sleep(0.001)
    return True


def _kill_at_change(proc: subprocess.Popen[bytes], folder: Path, changes: int,
                    timeout: float) -> bool:
    """SIGKILL ``proc`` at the ``changes``-th change to ``folder``'s list of files.

    Lands kills on the steps of a rebuild (a temporary file appears, a journal comes and
    goes, a copy is set aside, a file replaces another) whatever their names.
    """
    def listing() -> frozenset[str]:
        try:
            return frozenset(os.listdir(folder))
        except OSError:
            return frozenset()

    before = listing()
    seen = 0
    end = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < end:
        now = listing()
        if now != before:
            seen += 1
            before = now
            if seen >= changes:
                return Workers.kill(proc)
        time.sleep(0.0003)
    return Workers.kill(proc)


def _crashes(ledger: checks.Ledger) -> str:
    """Where the workers of a run killed themselves, for its findings."""
    return "".join(f"; {where}" for where in ledger.crashes)


def _die_at(rng: random.Random, calls: int) -> tuple[str, ...]:
    """Worker options to die at a random one of its first ``calls`` disk-changing calls."""
    return ("--die-at", str(rng.randint(1, calls)),
            *(("--die-after",) if rng.random() < 0.5 else ()))


def _wait_end(proc: subprocess.Popen[bytes], timeout: float) -> None:
    """Wait for ``proc`` to end (it kills itself at its step), at most ``timeout`` seconds."""
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        pass


def _self_killed(proc: subprocess.Popen[bytes]) -> bool:
    """Whether ``proc`` ended by SIGKILL (a worker dying at its ``--die-at`` step)."""
    return proc.poll() == -signal.SIGKILL


def _rebuild_stage(profile: Path) -> str:
    """Where a killed rebuild stopped, judged by the files it left: ``before`` it made its
    temporary copy, ``during`` (a ``.rebuild`` file is there) or ``after`` (the original
    was set aside and no temporary is left)."""
    names = os.listdir(profile)
    if any(".rebuild" in name for name in names):
        return "during"
    if any(checks.set_aside_files(profile)):
        return "after"
    return "before"


def _stderr_findings(logs: list[Path]) -> list[str]:
    """Tracebacks a worker printed (e.g. an import failing): each is a finding."""
    found = []
    for log in logs:
        if log.exists():
            text = log.read_text(encoding="utf-8", errors="replace").strip()
            if "Traceback" in text:
                found.append(f"{log.stem} printed: {checks.last_line(text)}")
    return found


# --- the scenarios --------------------------------------------------------------------------


class Harness:
    """Runs the scenarios of a :class:`Plan` and keeps the :class:`Figures`."""

    def __init__(self, plan: Plan, work: Path, echo: Callable[[str], None] = print) -> None:
        self.plan = plan
        self.work = work
        self.workers = Workers(work)
        self.figures = Figures()
        self.echo = echo
        self._startup = 0.25  # seconds from spawn to stores open (measured as we go)
        self._rebuild_calls = 1  # disk-changing calls of a whole rebuild (calibrated)

    def rng(self, scenario: str, run: int) -> random.Random:
        """The random choices of one run: the same for the same seed, scenario and run."""
        return random.Random(f"{self.plan.seed}/{scenario}/{run}")

    @contextmanager
    def run_folder(self, scenario: str, run: int) -> Iterator[Path]:
        """A fresh folder for one run; kept only while it runs unless it failed."""
        folder = self.work / f"{scenario}-{run:03d}"
        folder.mkdir(parents=True)
        failed_before = self.figures.checks_failed
        yield folder
        if self.figures.checks_failed == failed_before:
            shutil.rmtree(folder, ignore_errors=True)

    def _where(self, scenario: str, run: int | str) -> str:
        return f"{scenario} run {run}, seed {self.plan.seed}"

    def _finish(self, scenario: str, verdict: checks.Verdict, ledger: checks.Ledger | None,
                seen: dict[str, Any]) -> None:
        if "error" in seen:
            verdict.check("next start", [checks.short(seen["error"], 300)])
        if "seconds" in seen:
            self.figures.check_seconds.append(float(seen["seconds"]))
        self.figures.add(scenario, verdict, ledger)

    # --- pages: a damaged page keeps every readable row -----------------------------------

    def pages_run(self, run: int) -> checks.Verdict:
        """A statistics file with 2 KB of random bytes in one of its pages (not the first:
        that one names the tables); a fresh start must keep every row an independent read
        can read, and say how many were kept and lost."""
        from engine.storage.stats import StatsStore

        rng = self.rng("pages", run)
        verdict = checks.Verdict(self._where("pages", run))
        with self.run_folder("pages", run) as folder:
            profile = folder / "profile"
            profile.mkdir()
            path = profile / STATS_FILE
            rows = rng.randrange(200, 1200)
            store = StatsStore(path)  # the app's own schema
            store.open()
            store.close()
            conn = sqlite3.connect(path)
            with conn:  # the rows as the app writes them, in one transaction for speed
                conn.executemany(
                    "INSERT INTO games (played_at, game, variant, mode, opponent, outcome) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [(f"2026-11-27T12:{i // 600:02d}:{i % 60:02d}.{i:06d}+00:00",
                      rng.choice(("connect4", "tictactoe")), f"v{i % 4}", "human-computer",
                      "match", rng.choice(("won", "lost", "drawn"))) for i in range(rows)])
            conn.close()
            raw = bytearray(path.read_bytes())
            size = int.from_bytes(raw[16:18], "big") or 65536
            page = rng.randrange(1, len(raw) // size)  # 0-based: never the first
            at = page * size + rng.randrange(0, size - 2048 + 1)
            raw[at:at + 2048] = rng.randbytes(2048)
            path.write_bytes(bytes(raw))
            expected = readable_games(path, rows)
            seen = self.workers.check(profile)
            kept = sum(row[4] for row in seen.get("games", []))
            self.figures.pages_rows.append((rows, len(expected), kept))
            verdict.check("every readable row kept", [] if kept >= len(expected) else [
                f"{kept} rows shown of {len(expected)} readable ({rows} written; page "
                f"{page + 1} damaged)"])
            verdict.check("no row made up", [] if kept <= rows else [
                f"{kept} rows shown of {rows} written"])
            lost = rows - kept
            said = [n for n in seen.get("notices", []) if "could not be read" in n]
            verdict.check("the counts are said", [] if lost <= 0 or any(
                f"{kept} result" in n and f"{lost} result" in n for n in said) else [
                f"{lost} rows lost, notices: {seen.get('notices')}"])
            self._finish("pages", verdict, None, seen)
        return verdict

    # --- lock: another process holds the file ------------------------------------------------

    def lock_run(self, run: int) -> checks.Verdict:
        """The real App while another process holds the statistics file: no frame waits
        on it, the player is told, nothing says "no games", and the rows come back."""
        verdict = checks.Verdict(self._where("lock", run))
        games = self.rng("lock", run).randrange(3, 30)
        with self.run_folder("lock", run) as folder:
            profile = folder / "profile"
            out = folder / "busy.json"
            proc = self.workers.start("busy", "--profile", str(profile), "--out", str(out),
                                      "--games", str(games), log=folder / "busy.log")
            try:
                proc.wait(timeout=START_TIMEOUT * 3)
            except subprocess.TimeoutExpired:
                self.workers.kill(proc)
            try:
                seen = json.loads(out.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                seen = {"error": "the busy worker wrote nothing"}
            waits = [float(w) for w in seen.get("waits", [])]
            self.figures.frame_waits += waits
            # The frame loop never uses the statistics connection (every use is counted),
            # and no frame waits anywhere near the store's busy timeout (5 s): a frame's
            # wait also holds what the machine's load and other files cost it, so the
            # figures report frames over 100 ms rather than fail on them.
            uses = seen.get("file_uses_in_frames")
            verdict.check("the frame loop never uses the file", [] if uses == 0 else [
                f"{uses} uses, the first: {checks.short(str(seen.get('first_file_use')), 300)}"])
            verdict.check("no frame waits on the file", [] if waits and max(waits) < 1.0 else [
                f"longest frame wait {max(waits, default=0):.3f} s of {len(waits)} frames"])
            notices = seen.get("notices", [])
            verdict.check("the busy file is said", [] if any("busy" in n for n in notices)
                          and seen.get("busy_said") else [f"notices: {notices}"])
            # Match me plays from the results read before the file was taken, or says
            # which level it plays and why.
            verdict.check("Match me at its level or saying why", [] if seen.get("match_said")
                          or seen.get("match_rung") == seen.get("match_expected") else [
                f"played {seen.get('match_rung')}, not {seen.get('match_expected')}, and "
                f"said nothing: {notices}"])
            verdict.check("never \"no games\" while busy", ["it said no games"]
                          if seen.get("no_games_said") or seen.get("loaded_while_held") else [])
            verdict.check("every row after the release", [] if seen.get("loaded_after") and
                          seen.get("played_after") == games + 1 else [
                f"shown {seen.get('played_after')} of {games + 1}"])
            self._finish("lock", verdict, None, seen)
        return verdict

    # --- kill ------------------------------------------------------------------------------

    def kill_run(self, run: int) -> checks.Verdict:
        """Kill a looping worker ``plan.kills`` times on one profile, then check it."""
        rng = self.rng("kill", run)
        with self.run_folder("kill", run) as folder:
            profile = folder / "profile"
            journals, logs = [], []
            for k in range(self.plan.kills):
                journal, ready, log = (folder / f"worker-{k}.jsonl", folder / f"ready-{k}",
                                       folder / f"worker-{k}.log")
                journals.append(journal)
                logs.append(log)
                spawned = time.monotonic()
                app = ("--app",) if rng.random() < 0.5 else ()
                roll = rng.random()
                # A fifth of the kills come at an exact step: the worker's n-th call that
                # renames, links or removes a file, just before or just after it.
                step = _die_at(rng, 60) if roll >= 0.8 else ()
                proc = self.workers.start(
                    "loop", "--profile", str(profile), "--journal", str(journal),
                    "--worker", f"k{k}", "--seed", str(rng.randrange(2**31)),
                    "--ready", str(ready), *app, *step, log=log)
                self.figures.starts["kill"] += 1
                if step:
                    _wait_end(proc, START_TIMEOUT)
                elif roll < 0.2:
                    # While it starts: opening the stores is where clean-up and recovery run.
                    time.sleep(rng.uniform(0, self._startup))
                elif _wait_for(ready, proc, START_TIMEOUT):
                    self._startup = 0.8 * self._startup + 0.2 * (time.monotonic() - spawned)
                    time.sleep(rng.uniform(0, self.plan.window))
                working = ready.exists()
                if self.workers.kill(proc) or (step and _self_killed(proc)):
                    self.figures.kills["kill"] += 1
                    where = "step" if step else ("working" if working else "starting")
                    self.figures.landing(f"kill/{where}")
            seen = self.workers.check(profile, tuple(LOOP_SAVES))
            ledger = checks.load_ledger(journals)
            verdict = judge(self._where("kill", run) + _crashes(ledger), profile, ledger, seen,
                            logs)
            self._finish("kill", verdict, ledger, seen)
        return verdict

    # --- play ------------------------------------------------------------------------------

    def _player(self, profile: Path, ledger: Path, moves: int, log: Path
                ) -> subprocess.Popen[bytes]:
        with open(log, "ab") as err:
            return subprocess.Popen([sys.executable, str(PLAYER), str(profile), str(ledger),
                                     "--moves", str(moves), "--pace", str(PLAY_PACE)],
                                    env=self.workers.env, cwd=ROOT, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=err)

    def _reopen(self, profile: Path, folder: Path, tag: str, sig: str
                ) -> tuple[int | None, list[str]]:
        """A fresh copy reopens the game (no move made), is ended by ``sig``: the moves
        it found, and what went wrong ending it."""
        ledger, log = folder / f"check-{tag}.jsonl", folder / f"check-{tag}.log"
        proc = self._player(profile, ledger, 0, log)
        found = _ledger_value(ledger, proc, "done", START_TIMEOUT)
        problems: list[str] = []
        if found is None:
            self.workers.kill(proc)
            return None, ["the reopening copy never showed the game"]
        proc.send_signal(getattr(signal, sig))
        try:
            proc.wait(timeout=START_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.workers.kill(proc)
            problems.append(f"{sig} did not end the app")
        self.figures.signals[sig] = self.figures.signals.get(sig, 0) + 1
        err = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
        if proc.returncode != 0:
            problems.append(f"{sig} ended the app with {proc.returncode}")
        if "Traceback" in err:
            problems.append(f"{sig}: a traceback: {checks.short(err, 200)}")
        return found, problems

    def _two_copies(self, profile: Path, folder: Path, rng: random.Random) -> list[str]:
        """Copy A plays 2 moves, then copy B opens the same game and plays 1; they quit
        in a random order. A's moves must be what reopens, and B must have said that its
        moves are not saved."""
        start, _ = self._reopen(profile, folder, "copies-before", "SIGTERM")
        if start is None:
            return ["the game could not be reopened before the two copies"]
        ledgers = [folder / "copy-a.jsonl", folder / "copy-b.jsonl"]
        logs = [folder / "copy-a.log", folder / "copy-b.log"]
        first = self._player(profile, ledgers[0], 2, logs[0])
        problems: list[str] = []
        if _ledger_value(ledgers[0], first, "done", START_TIMEOUT) is None:
            self.workers.kill(first)
            return ["copy A never played its moves"]
        time.sleep(0.2)  # (its journal: within milliseconds)
        second = self._player(profile, ledgers[1], 1, logs[1])
        if _ledger_value(ledgers[1], second, "done", START_TIMEOUT) is None:
            problems.append("copy B never played its move")
        order = [first, second] if rng.random() < 0.5 else [second, first]
        for proc in order:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=START_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.workers.kill(proc)
                problems.append("a copy did not quit on SIGTERM")
        told = logs[1].read_text(encoding="utf-8", errors="replace") if logs[1].exists() else ""
        if "open in another copy of the arcade" not in told:
            problems.append("copy B did not say the game is open in another copy")
        found, more = self._reopen(profile, folder, "copies-after", "SIGTERM")
        problems += more
        if found != start + 2:
            problems.append(f"{start} moves before, A played 2, B 1: {found} on reopening")
        return problems

    def play_run(self, run: int) -> checks.Verdict:
        """Kill the playing app three times on one profile; count the moves each kill lost."""
        rng = self.rng("play", run)
        verdict = checks.Verdict(self._where("play", run))
        with self.run_folder("play", run) as folder:
            profile = folder / "profile"
            verdict.profile = profile
            lost: list[str] = []
            ended: list[str] = []
            on_board = 0
            for k in range(3):
                ledger, log = folder / f"play-{k}.jsonl", folder / f"play-{k}.log"
                proc = self._player(profile, ledger, PLAY_MOVES, log)
                self.figures.starts["play"] += 1
                if _ledger_value(ledger, proc, "start", START_TIMEOUT) is None:
                    ended.append(f"copy {k} never showed the game")
                    self.workers.kill(proc)
                    continue
                time.sleep(rng.uniform(0, 0.1 * PLAY_MOVES))
                if self.workers.kill(proc):
                    self.figures.kills["play"] += 1
                made = max([on_board] + [e["made"] for e in _entries(ledger) if "made" in e])
                sig = PLAY_SIGNALS[(run * 3 + k) % len(PLAY_SIGNALS)]
                found, problems = self._reopen(profile, folder, str(k), sig)
                ended += problems
                if found is None:
                    continue
                self.figures.moves_lost.append(max(0, made - found))
                if not made - 1 <= found <= made + 1:
                    lost.append(f"kill {k}: {made} moves made, {found} on reopening")
                # The signal was a clean quit: the next copy finds every move still there.
                on_board = found
            verdict.check("at most the move being made lost to a kill", lost)
            verdict.check("a signal quits cleanly", ended)
            verdict.check("two copies on one game: the first's moves kept",
                          self._two_copies(profile, folder, rng))
            self.figures.add("play", verdict, None)
        return verdict

    # --- race ------------------------------------------------------------------------------

    def race_run(self, run: int) -> checks.Verdict:
        """Start 2-4 copies (and perhaps a late one) at one instant on a fresh profile."""
        rng = self.rng("race", run)
        with self.run_folder("race", run) as folder:
            profile = folder / "profile"
            if rng.random() < 0.5:
                profile.mkdir()  # an empty profile folder, or none at all
            go = folder / "go"
            copies = rng.randint(2, 4) + (1 if rng.random() < 0.4 else 0)
            procs, journals, logs, readies = [], [], [], []
            for c in range(copies):
                late = c == 4 or (c == copies - 1 and copies > 2 and rng.random() < 0.3)
                journal, ready, log = (folder / f"copy-{c}.jsonl", folder / f"ready-{c}",
                                       folder / f"copy-{c}.log")
                journals.append(journal)
                logs.append(log)
                readies.append(ready)
                app = ("--app",) if rng.random() < 0.5 else ()
                procs.append(self.workers.start(
                    "loop", *app, "--profile", str(profile), "--journal", str(journal),
                    "--worker", f"c{c}", "--seed", str(rng.randrange(2**31)),
                    "--ready", str(ready), "--go", str(go), "--ops", str(self.plan.race_ops),
                    "--setting", RACE_SETTINGS[c % len(RACE_SETTINGS)],
                    "--saves", f"{SHARED_SAVE},crash-c{c}",
                    "--start-delay", f"{rng.uniform(0.02, 0.3) if late else 0:.3f}", log=log))
            self.figures.starts["race"] += copies
            ready_all = all(_wait_for(r, p, START_TIMEOUT) for r, p in zip(readies, procs,
                                                                          strict=True))
            go.touch()  # the barrier: every copy is waiting for this file
            # Sometimes one copy dies mid-race: the others must not trip over what it left.
            victim = rng.randrange(copies) if rng.random() < 0.35 else None
            if victim is not None:
                time.sleep(rng.uniform(0, 0.6))
                if self.workers.kill(procs[victim]):
                    self.figures.kills["race"] += 1
                else:
                    victim = None  # it had finished already
            hung = []
            end = time.monotonic() + RACE_TIMEOUT
            for c, proc in enumerate(procs):
                try:
                    proc.wait(timeout=max(0.1, end - time.monotonic()))
                except subprocess.TimeoutExpired:
                    self.workers.kill(proc)
                    hung.append(f"copy-{c} did not finish within {RACE_TIMEOUT:.0f} s")
            saves = (SHARED_SAVE, *(f"crash-c{c}" for c in range(copies)))
            seen = self.workers.check(profile, saves)
            ledger = checks.load_ledger(journals)
            started = [] if ready_all else ["not every copy reached the start line"]
            opened = [f"copy-{c} never opened the stores" for c, j in enumerate(journals)
                      if c != victim
                      and not any(r.get("t") == "open" for r in checks.read_journal(j))]
            killed = "" if victim is None else f", copy-{victim} killed"
            verdict = judge(self._where("race", run) + f", {copies} copies{killed}", profile,
                            ledger, seen, logs, shared=(SHARED_SAVE,),
                            more=hung + started + opened)
            self._finish("race", verdict, ledger, seen)
        return verdict

    # --- rebuild ---------------------------------------------------------------------------

    def template(self) -> Path:
        """The damaged database every rebuild run starts from (made once)."""
        path = self.work / "template" / STATS_FILE
        if not path.exists():
            started = time.monotonic()
            make_damaged_database(path, self.plan.rows)
            self.figures.notes.append(
                f"damaged database of {self.plan.rows:,} rows "
                f"({path.stat().st_size / 1e6:.1f} MB) made in {time.monotonic() - started:.1f} s")
        return path

    def calibrate(self) -> float:
        """Time one uninterrupted rebuild (and check it, as run 0)."""
        if self.figures.rebuild_seconds is not None:
            return self.figures.rebuild_seconds
        with self.run_folder("rebuild", 0) as folder:
            profile = folder / "profile"
            profile.mkdir()
            shutil.copyfile(self.template(), profile / STATS_FILE)
            journal, log = folder / "open-0.jsonl", folder / "open-0.log"
            started = time.monotonic()
            proc = self.workers.start("open", "--profile", str(profile),
                                      "--journal", str(journal), log=log)
            proc.wait()
            self.figures.rebuild_seconds = round(time.monotonic() - started, 3)
            self.figures.starts["rebuild"] += 1
            calls = checks.load_ledger([journal]).calls
            self._rebuild_calls = max(1, calls[0] if calls else 1)
            self.figures.notes.append(
                f"an uninterrupted rebuild makes {self._rebuild_calls} calls that rename, link "
                "or remove files (the steps killed at)")
            self._rebuild_verdict(0, folder, profile, [journal], [log], opens=1)
        return self.figures.rebuild_seconds

    def rebuild_run(self, run: int) -> checks.Verdict:
        """Kill a worker rebuilding the damaged database a few times, then check it."""
        duration = self.calibrate()
        rng = self.rng("rebuild", run)
        with self.run_folder("rebuild", run) as folder:
            profile = folder / "profile"
            profile.mkdir()
            shutil.copyfile(self.template(), profile / STATS_FILE)
            journals, logs = [], []
            for k in range(self.plan.rebuild_kills):
                journal, log = folder / f"open-{k}.jsonl", folder / f"open-{k}.log"
                journals.append(journal)
                logs.append(log)
                # A third of the kills come at an exact step of the rebuild (its n-th call
                # that renames, links or removes a file, before or after it): between two
                # renames too, an instant no random delay hits.
                step = _die_at(rng, self._rebuild_calls) if rng.random() < 0.35 else ()
                proc = self.workers.start("open", "--profile", str(profile),
                                          "--journal", str(journal), *step, log=log)
                self.figures.starts["rebuild"] += 1
                roll = rng.random()
                if step:
                    _wait_end(proc, duration * 3 + START_TIMEOUT)
                    killed = self.workers.kill(proc) or _self_killed(proc)
                elif roll < 0.5:
                    time.sleep(rng.uniform(0, duration * 1.1))
                    killed = self.workers.kill(proc)
                else:
                    killed = _kill_at_change(proc, profile, rng.randint(1, 6), duration * 3)
                if killed:
                    self.figures.kills["rebuild"] += 1
                    stage = "step" if step else _rebuild_stage(profile)
                    self.figures.landing(f"rebuild/{stage}")
            return self._rebuild_verdict(run, folder, profile, journals, logs,
                                         opens=self.plan.rebuild_kills + 1)

    def sweep(self) -> None:
        """Kill a rebuild at each of its steps in turn, just before and just after it.

        Each kill is on a fresh copy of the damaged database, and the next start must
        finish or undo what the killed one began: "recoverable at every instant".
        """
        self.calibrate()
        for step in range(1, self._rebuild_calls + 1):
            for after in (False, True):
                started = time.monotonic()
                name = f"step {step} {'after' if after else 'before'}"
                with self.run_folder("rebuild", 1000 + 2 * step + after) as folder:
                    profile = folder / "profile"
                    profile.mkdir()
                    shutil.copyfile(self.template(), profile / STATS_FILE)
                    journal, log = folder / "open-0.jsonl", folder / "open-0.log"
                    proc = self.workers.start(
                        "open", "--profile", str(profile), "--journal", str(journal),
                        "--die-at", str(step), *(("--die-after",) if after else ()), log=log)
                    self.figures.starts["rebuild"] += 1
                    _wait_end(proc, START_TIMEOUT * 3)
                    if self.workers.kill(proc) or _self_killed(proc):
                        self.figures.kills["rebuild"] += 1
                        self.figures.landing("rebuild/step")
                    verdict = self._rebuild_verdict(name, folder, profile, [journal], [log],
                                                    opens=2)
                self.figures.seconds["rebuild"] += time.monotonic() - started
                self.figures.runs["rebuild"] += 1
                mark = "ok" if not verdict.failed else f"{verdict.failed} check(s) FAILED"
                self.echo(f"  rebuild {name}: {mark}")

    def _rebuild_verdict(self, run: int | str, folder: Path, profile: Path,
                         journals: list[Path], logs: list[Path], opens: int) -> checks.Verdict:
        seen = self.workers.check(profile)
        ledger = checks.load_ledger(journals)
        verdict = checks.Verdict(self._where("rebuild", run)
                                 + (", uninterrupted" if run == 0 else "") + _crashes(ledger),
                                 profile=profile)
        verdict.check("rows", checks.check_rebuilt_rows(seen, self.plan.rows, profile))
        verdict.check("set-aside copies", checks.check_set_aside(profile, opens))
        verdict.check("memory only", checks.check_memory(ledger, seen))
        verdict.check("notices", checks.check_notices(ledger, seen, checks.ABANDONED_WORDS))
        verdict.check("writes", checks.check_writes(ledger) + _stderr_findings(logs))
        verdict.check("leftovers", checks.check_leftovers(profile))
        self._finish("rebuild", verdict, ledger, seen)
        return verdict

    # --- all -------------------------------------------------------------------------------

    def run(self) -> None:
        """Every scenario of the plan, interleaved run by run."""
        plans = {"kill": self.plan.runs, "race": self.plan.runs,
                 "rebuild": self.plan.rebuild_runs, "pages": self.plan.runs,
                 "lock": self.plan.rebuild_runs, "play": self.plan.runs}
        longest = max(plans[s] for s in self.plan.scenarios)
        for run in range(1, longest + 1):
            for scenario in self.plan.scenarios:
                if run > plans[scenario]:
                    continue
                started = time.monotonic()
                verdict = getattr(self, f"{scenario}_run")(run)
                self.figures.seconds[scenario] += time.monotonic() - started
                self.figures.runs[scenario] += 1
                mark = "ok" if not verdict.failed else f"{verdict.failed} check(s) FAILED"
                self.echo(f"  {scenario:7} run {run:3}: {mark}")
        if "rebuild" in self.plan.scenarios and self.plan.sweep:
            self.sweep()
        if "rebuild" in self.plan.scenarios and self.figures.rebuild_seconds is not None:
            self.figures.runs["rebuild"] += 1  # the uninterrupted calibration run


def readable_games(path: Path, last: int) -> list[tuple[Any, ...]]:
    """An independent read of a damaged statistics file: each games row, looked up by its
    id (1 to ``last``) on its own, that reads as a result."""
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    conn.text_factory = lambda raw: raw.decode("utf-8", "replace")
    rows = []
    try:
        for rowid in range(1, last + 1):
            try:
                row = conn.execute("SELECT played_at, game, variant, mode, opponent, outcome "
                                   "FROM games WHERE rowid = ?", (rowid,)).fetchone()
            except sqlite3.DatabaseError:
                continue
            if (row is not None and all(isinstance(v, str) for v in row)
                    and row[-1] in ("won", "lost", "drawn")):
                rows.append(row)
    finally:
        conn.close()
    return rows
def _entries(ledger: Path) -> list[dict[str, Any]]:
    """The whole lines of a playing copy's ledger."""
    try:
        text = ledger.read_text(encoding="utf-8")
    except OSError:
        return []
    out = []
    for line in text.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            break
    return out


def _ledger_value(ledger: Path, proc: subprocess.Popen[bytes], what: str, timeout: float
                  ) -> int | None:
    """Wait for ``what`` in a playing copy's ledger; its value (None: it ended first,
    reported an error, or time ran out)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for entry in _entries(ledger):
            if "error" in entry:
                return None
            if what in entry:
                return int(entry[what])
        if proc.poll() is not None:
            return None
        time.sleep(0.005)
    return None


def judge(where: str, profile: Path, ledger: checks.Ledger, seen: dict[str, Any],
          logs: Sequence[Path] = (), shared: tuple[str, ...] = (),
          more: Sequence[str] = ()) -> checks.Verdict:
    """Check what a fresh start saw in ``profile`` (``seen``) against the journals.

    Used by the kill and race scenarios (and by the test that proves the checks can fail).
    ``shared`` names saved games several copies wrote at once; ``more`` adds findings about
    the workers themselves (hung, never started).
    """
    verdict = checks.Verdict(where, profile=profile)
    verdict.check("results", checks.check_results(ledger, seen))
    verdict.check("settings", checks.check_settings(ledger, seen, _defaults()))
    verdict.check("saved games", checks.check_saves(ledger, seen, shared))
    verdict.check("notices", checks.check_notices(ledger, seen, checks.CORRUPTION_WORDS))
    verdict.check("memory only", checks.check_memory(ledger, seen))
    verdict.check("writes", checks.check_writes(ledger) + _stderr_findings(list(logs))
                  + list(more))
    verdict.check("leftovers", checks.check_leftovers(profile))
    return verdict


def _defaults() -> dict[str, Any]:
    from engine.storage.settings import DEFAULTS

    return DEFAULTS


def make_damaged_database(path: Path, rows: int) -> None:
    """A statistics database of ``rows`` rows with a damaged index.

    The rows: see :func:`crash_checks.rebuild_counts` (distinct games, some alike in every
    column, and puzzles). The schema is the store's own (StatsStore creates it); the games
    index is then declared over its columns in another order (the way a flipped byte in the
    schema would), so its entries no longer match the rows and opening the file rebuilds it
    from the rows, as tests/engine/storage/test_fuzz_storage.py's damaged-index cases do. Raises
    RuntimeError if SQLite does not see the damage.
    """
    from engine.storage.stats import StatsStore

    path.parent.mkdir(parents=True, exist_ok=True)
    store = StatsStore(path)
    warnings = store.open()
    store.close()
    if warnings:
        raise RuntimeError(f"could not create the database: {warnings}")
    distinct, alike, puzzles = checks.rebuild_counts(rows)
    when = "2024-05-01T12:00:00+00:00"
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.executemany(
                "INSERT INTO games (played_at, game, variant, mode, opponent, outcome) "
                "VALUES (?, ?, ?, 'human-computer', 'easy', ?)",
                ((when, checks.REBUILD_GAME, f"r{i:07d}", checks.OUTCOMES[i % 3])
                 for i in range(distinct)))
            conn.executemany(
                "INSERT INTO games (played_at, game, variant, mode, opponent, outcome) "
                "VALUES (?, ?, ?, 'human-computer', 'easy', 'drawn')",
                ((when, checks.REBUILD_GAME, PLAIN) for _ in range(alike)))
            conn.executemany(
                "INSERT INTO puzzles (played_at, game, variant, moves, seconds, helped) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                ((when, checks.REBUILD_PUZZLE, f"p{i:07d}", 1 + i % 50, 1.5 + i, i % 2)
                 for i in range(puzzles)))
        conn.execute("PRAGMA writable_schema = ON")
        with conn:
            changed = conn.execute(
                "UPDATE sqlite_master SET sql = replace(sql, '(game, variant,', '(variant, game,')"
                " WHERE name = 'games_by_key'").rowcount
        conn.execute("PRAGMA writable_schema = OFF")
    finally:
        conn.close()
    conn = sqlite3.connect(path)
    try:
        first = conn.execute("PRAGMA integrity_check(1)").fetchone()[0]
    finally:
        conn.close()
    if changed != 1 or "index" not in first:
        raise RuntimeError(f"the index of {path} could not be damaged ({first!r})")


# --- command line ---------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The harness's options."""
    parser = argparse.ArgumentParser(
        prog="crash_harness",
        description="Kill the arcade's stores at random moments and race several copies; "
                    "check that every committed result, setting and saved game is there.",
        epilog="Exit status: 0 all checks passed, 1 a check failed, 2 bad options.")
    parser.add_argument("--runs", type=int, default=None,
                        help="runs of the kill, race and play scenarios (default 10; quick 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random choices")
    parser.add_argument("--quick", action="store_true",
                        help="the reduced form the test suite runs: few kills, small database")
    parser.add_argument("--kills", type=int, default=None,
                        help="kills per kill run, on one profile (default 4; quick 3)")
    parser.add_argument("--rows", type=int, default=None,
                        help="rows of the damaged database (default 200000; quick 10000)")
    parser.add_argument("--rebuild-runs", type=int, default=None,
                        help="runs of the rebuild scenario (default runs/5, at least 1)")
    parser.add_argument("--rebuild-kills", type=int, default=None,
                        help="kills per rebuild run (default 3; quick 2)")
    parser.add_argument("--race-ops", type=int, default=None,
                        help="operations of each copy in a race (default 30; quick 12)")
    parser.add_argument("--no-sweep", action="store_true",
                        help="skip killing a rebuild at each of its steps in turn")
    parser.add_argument("--scenario", action="append", choices=SCENARIOS,
                        help="run only this scenario (repeatable; default all)")
    parser.add_argument("--json", metavar="FILE", type=Path, help="also write the figures here")
    parser.add_argument("--workdir", metavar="DIR", type=Path,
                        help="keep the profiles here (default: a temporary folder; the "
                             "profiles of failed runs are kept and their folder printed)")
    return parser


def plan_from(args: argparse.Namespace) -> Plan:
    """The :class:`Plan` the options ask for."""
    quick = args.quick
    runs = args.runs if args.runs is not None else (2 if quick else 10)
    values = {
        "runs": runs, "seed": args.seed,
        "kills": args.kills if args.kills is not None else (3 if quick else 4),
        "window": 0.4 if quick else 1.0,
        "rows": args.rows if args.rows is not None else (10_000 if quick else 200_000),
        "rebuild_runs": (args.rebuild_runs if args.rebuild_runs is not None
                         else (1 if quick else max(1, runs // 5))),
        "rebuild_kills": (args.rebuild_kills if args.rebuild_kills is not None
                          else (2 if quick else 3)),
        "race_ops": args.race_ops if args.race_ops is not None else (12 if quick else 30),
        "sweep": not args.no_sweep,
        "scenarios": tuple(args.scenario or SCENARIOS),
    }
    for name in ("runs", "kills", "rows", "rebuild_runs", "rebuild_kills", "race_ops"):
        if values[name] < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1")
    return Plan(**values)


def summary(figures: Figures, plan: Plan, total: float, kept: Path | None) -> list[str]:
    """The summary lines printed at the end."""
    data = figures.as_dict(plan, total)
    ops = data["operations_journalled"]
    runs = {s: f"{s} {figures.runs[s]} runs" for s in plan.scenarios}
    if "rebuild" in runs and figures.rebuild_seconds is not None:
        runs["rebuild"] += " (one of them uninterrupted)"
    lines = [
        f"Crash-and-race harness, seed {plan.seed}: " + ", ".join(runs.values()),
        f"  kills:      {sum(figures.kills.values())} "
        f"({', '.join(f'{s} {n}' for s, n in figures.kills.items() if s in plan.scenarios)}); "
        f"worker starts {sum(figures.starts.values())}",
        f"  journalled: {data['operations_journalled_total']} operations "
        f"({', '.join(f'{k} {v}' for k, v in ops.items()) or 'none'}) of "
        f"{figures.tried} tried; {figures.refused} refused",
        f"  checks:     {figures.checks_passed} passed, {figures.checks_failed} failed",
        f"  time:       {total:.1f} s ("
        + ", ".join(f"{s} {figures.seconds[s]:.1f} s" for s in plan.scenarios) + ")",
    ]
    if figures.landed:
        lines.append("  kills hit:  " + ", ".join(f"{where} {n}" for where, n in
                                                   sorted(figures.landed.items())))
    if data["play_moves_lost"]:
        play = data["play_moves_lost"]
        lines.append(f"  play:       {play['kills']} kills mid-game, moves lost per kill: max "
                     f"{play['max']}, mean {play['mean']} ({play['histogram']}); signals "
                     + ", ".join(f"{k} {v}" for k, v in data["play_signals"].items()))
    for scenario, spread in data["worker_open_seconds"].items():
        lines.append(f"  opening:    {scenario:7} median {spread['median'] * 1000:.0f} ms, "
                     f"max {spread['max'] * 1000:.0f} ms over {spread['count']} starts")
    if figures.pages_rows:
        pages = data["pages"]
        lines.append(f"  pages:      {pages['files']} damaged files, {pages['rows']:,} rows: "
                     f"{pages['readable']:,} readable, {pages['kept']:,} kept")
    if figures.frame_waits:
        lock = data["lock"]
        lines.append(f"  lock:       {lock['frames']} frames while another process held the "
                     f"file and after it let go, longest "
                     f"wait {lock['longest_wait_ms']} ms, {lock['over_limit']} over "
                     f"{FRAME_WAIT_LIMIT * 1000:.0f} ms")
    if figures.rebuild_seconds is not None:
        lines.append(f"  rebuild:    {plan.rows:,} rows, {figures.rebuild_seconds:.2f} s "
                     "uninterrupted (start to exit)")
    lines += [f"  note:       {note}" for note in figures.notes]
    if figures.failures:
        lines.append(f"FAILED: {figures.checks_failed} check(s); the first "
                     f"{min(SHOWN_FAILURES, len(figures.failures))}:")
        lines += [f"  {n}. {text}" for n, text in
                  enumerate(figures.failures[:SHOWN_FAILURES], 1)]
        if kept is not None:
            lines.append(f"The profiles and journals of the failed runs are in {kept}")
        lines.append("Each failure names its scenario, run and seed: to see it again, run "
                     "e.g. --scenario kill --seed S --runs N (timing varies, so it may "
                     "take a few tries).")
    else:
        lines.append("All checks passed.")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the harness; returns the exit status (0 passed, 1 failed, 2 bad options)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        plan = plan_from(args)
    except ValueError as exc:
        parser.error(str(exc))
    if not hasattr(signal, "SIGKILL"):
        print("crash_harness: needs POSIX signals (SIGKILL); skipped on this system.")
        return 0
    started = time.monotonic()
    if args.workdir is not None:
        args.workdir.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix="crash-harness-", dir=args.workdir))
    else:
        work = Path(tempfile.mkdtemp(prefix="crash-harness-"))
    harness = Harness(plan, work)
    try:
        harness.run()
    finally:
        shutil.rmtree(work / "template", ignore_errors=True)
        shutil.rmtree(work / "xdg", ignore_errors=True)
    total = time.monotonic() - started
    failed = harness.figures.checks_failed > 0
    kept = work if failed else None
    if not failed and args.workdir is None:
        shutil.rmtree(work, ignore_errors=True)
    for line in summary(harness.figures, plan, total, kept):
        print(line)
    if args.json is not None:
        args.json.write_text(json.dumps(harness.figures.as_dict(plan, total), indent=2) + "\n",
                             encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
