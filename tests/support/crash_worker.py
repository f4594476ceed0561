"""The process that tests/support/crash_harness.py kills: it uses the real stores the way the
app does.

Four commands, each given a throw-away profile folder (never the player's own):

``loop``
    Open the settings and statistics with ``engine.runtime.cli._open_stores`` (exactly as the app
    starts), then record game and puzzle results, change and save settings, and write saved
    games, over and over (or ``--ops`` times). Before each operation a ``try`` line goes to
    the journal; after an operation the store reported as done (no warning), an ``ok`` line
    goes to the journal and the journal is fsynced: that line is the promise "this is
    durable". A warning becomes a ``warn`` line. The harness kills this process with SIGKILL
    at a moment of its choosing, or (``--ops``) lets it finish.
``open``
    Only open the stores (which may rebuild a damaged database), journal the notices, exit.

``--die-at N`` (loop and open) makes the worker SIGKILL itself at its N-th call that changes
the disk (a rename, replace or unlink: :class:`CrashPoints`), before or (``--die-after``)
after it: a kill at an exact step rather than at a random moment.
``check``
    Start the app on the profile in this fresh process (the stores, then the real App with
    SDL's dummy video driver) and write what a player would see as JSON: the notices,
    whether statistics are only in memory, every result in the summaries, every setting,
    and every saved game the harness names.
``busy``
    Run the real App while another process holds the statistics file (``BEGIN
    EXCLUSIVE``): Match me, a queued result and the Statistics screen, then the release;
    the wait of every frame and what the player was told go out as JSON.

Every value a loop writes carries a unique tag (``<worker>.<op>``) so the harness can tell
each result, setting and saved game apart, except one kind of result on purpose: "plain"
wins, alike in every column, which the harness can only count. Run by the harness; not
meant to be run by hand.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.runtime.cli import _open_stores  # noqa: E402
from engine.storage.saved_games import SAVE_FORMAT, SAVE_VERSION, SavedGames  # noqa: E402

GAME = "crash-harness"            # the game name of every recorded game result
PUZZLE = "crash-harness-puzzle"   # ... and of every puzzle result
OUTCOMES = ("won", "lost", "drawn")
PLAIN = "plain"                   # the variant of results that carry no tag
# Settings a lone worker changes (values carry the tag, so each save is recognisable).
LOOP_SETTINGS = ("ai_levels", "variants")
# Saved games a lone worker writes, and their rough sizes in bytes: a small turn-based
# game, a long history, a big puzzle board.
LOOP_SAVES = {"crash-a": 3_000, "crash-b": 40_000, "crash-c": 400_000}
# In a race each copy changes its own setting: whatever the settings store does when two
# copies save at once (merge, or last writer wins per key), a key only one copy touched
# must end with that copy's value.
RACE_SETTINGS = ("ai_levels", "variants", "window_size", "volume")
SHARED_SAVE = "crash-shared"      # written by every copy of a race


class Journal:
    """Append-only JSON lines, written unbuffered: a SIGKILL loses nothing already written.

    ``commit`` also fsyncs, so the line survives even a crash of the machine.
    """

    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def write(self, record: dict[str, Any], durable: bool = False) -> None:
        """Append ``record`` as one line; fsync it when ``durable``."""
        os.write(self.fd, (json.dumps(record, separators=(",", ":")) + "\n").encode())
        if durable:
            os.fsync(self.fd)

    def commit(self, record: dict[str, Any]) -> None:
        """Append ``record`` durably (a promise the harness will check)."""
        self.write(record, durable=True)


def setting_value(key: str, tag: str, number: int) -> Any:
    """The value a worker gives ``key`` at its ``number``-th save (``tag`` names the save).

    Text settings carry the tag itself; numeric ones carry ``number`` (a race copy makes
    fewer than a hundred saves, so the numbers stay unique and within each setting's range).
    """
    if key == "ai_levels":
        return {GAME: {"level": tag}}
    if key == "variants":
        return {GAME: {"last": tag}}
    if key == "window_size":
        return [320 + number % 7000, 480]
    if key == "volume":
        return number % 101
    raise ValueError(f"no harness value for setting {key!r}")


def save_text(game_id: str, tag: str, size: int) -> str:
    """A saved game in the arcade's envelope, about ``size`` bytes, unique to ``tag``.

    Deterministic: the harness makes the same text again to check what was read back.
    """
    rng = random.Random(f"{game_id}/{tag}")
    history = []
    length = 60
    while length < size:
        move = [rng.randrange(100), rng.randrange(100), rng.choice("XO")]
        history.append(move)
        length += 14
    envelope = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": game_id,
                "saved": "2024-05-01T12:00:00+00:00", "params": None,
                "state": {"tag": tag, "history": history, "cursor": len(history)}}
    return json.dumps(envelope, separators=(",", ":"))


def digest(text: str) -> str:
    """A short fingerprint of a saved game's text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def open_profile(profile: str, app: bool) -> tuple[Any, Any, list[str], SavedGames, Any]:
    """Open ``profile`` as the app starts: settings, statistics, notices and saved games.

    ``app``: build the real App as well (its window under SDL's dummy driver), which is
    what a player's start does after opening the stores (e.g. tidying saved games); its
    notices are then the ones the player would see. Returns (settings, stats, notices,
    saved games, app or None).
    """
    settings, stats, notices = _open_stores(profile)
    if not app:
        return settings, stats, list(notices), SavedGames.beside(stats, settings), None
    for name, value in (("SDL_VIDEODRIVER", "dummy"), ("SDL_AUDIODRIVER", "dummy"),
                        ("PYGAME_HIDE_SUPPORT_PROMPT", "1")):
        os.environ.setdefault(name, value)
    from engine.runtime.app import App

    window = App(settings, stats, notices)
    told = list(notices) + [n for n in window.notices if n not in notices]
    return settings, stats, told, window.game_saves, window


def close_profile(stats: Any, window: Any) -> None:
    """Close what :func:`open_profile` opened."""
    stats.close()
    if window is not None:
        import pygame

        pygame.quit()


# The calls that change which names are on disk, as a store makes them (Path.rename, Path.mkdir,
# shutil.move and the rest go through these). SQLite's own writes are transactions: no probe.
CRASH_CALLS = ("rename", "replace", "link", "unlink", "remove", "mkdir", "rmdir")


class CrashPoints:
    """Counts the calls in CRASH_CALLS and, if armed, SIGKILLs this process at one of them.

    ``at`` (1-based) picks the call; ``after`` dies just after it instead of just before.
    The harness thus stops a store between any two steps of a multi-step change, e.g.
    between the two renames of a rebuild, which a random delay would almost never hit.
    Before dying, the call is journalled (a ``crash`` line) so a failure can say where.
    """

    def __init__(self, journal: Journal, at: int = 0, after: bool = False) -> None:
        self.journal = journal
        self.at = at
        self.after = after
        self.calls = 0
        for name in CRASH_CALLS:
            setattr(os, name, self._wrap(name, getattr(os, name)))

    def _wrap(self, name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            here = self.calls == self.at
            if here and not self.after:
                self._die(name, args)
            try:
                return real(*args, **kwargs)
            finally:
                # After it returned or raised (Path.mkdir(exist_ok=True) raises inside).
                if here and self.after:
                    self._die(name, args)

        return call

    def _die(self, name: str, args: tuple[Any, ...]) -> None:
        files = " -> ".join(Path(a).name for a in args[:2] if isinstance(a, str | os.PathLike))
        when = "after" if self.after else "before"
        self.journal.commit({"t": "crash", "call": self.calls,
                             "at": f"{when} os.{name}({files})"})
        os.kill(os.getpid(), signal.SIGKILL)


def _wait_for(path: Path, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > end:
            return False
        time.sleep(0.0005)
    return True


def run_loop(args: argparse.Namespace) -> int:
    """The ``loop`` command (see the module docstring)."""
    journal = Journal(args.journal)
    points = CrashPoints(journal, args.die_at, args.die_after)
    rng = random.Random(args.seed)
    if args.go is not None:
        Path(args.ready).touch()
        if not _wait_for(Path(args.go), 60):
            journal.commit({"t": "error", "text": "the start signal never came"})
            return 3
        if args.start_delay:
            time.sleep(args.start_delay)
    started = time.perf_counter()
    try:
        settings, stats, notices, saves, window = open_profile(args.profile, args.app)
    except Exception:  # noqa: BLE001 - a store must never raise: that is a finding
        journal.commit({"t": "error", "text": traceback.format_exc()})
        return 4
    journal.commit({"t": "open", "notices": [str(n) for n in notices], "app": args.app,
                    "persistent": bool(getattr(stats, "persistent", False)),
                    "seconds": round(time.perf_counter() - started, 4)})
    if args.go is None and args.ready:
        Path(args.ready).touch()
    setting_keys = LOOP_SETTINGS if args.setting is None else (args.setting,)
    save_ids = dict(LOOP_SAVES) if args.saves is None else {
        game_id: 3_000 + 20_000 * (n % 3) for n, game_id in enumerate(args.saves.split(","))}
    deadline = time.monotonic() + args.max_seconds
    settings_saved = 0
    op = 0
    try:
        while (op < args.ops if args.ops else time.monotonic() < deadline):
            tag = f"{args.worker}.{op}"
            roll = rng.random()
            if roll < 0.1:
                # Results alike in every column (the same second too, as quick games or
                # two copies produce): only their number tells them apart.
                record = {"k": "game", "tag": tag, "outcome": "won", "plain": True}
                journal.write({"t": "try", **record})
                warning = stats.record_game(GAME, PLAIN, "human-computer", "harness", "won")
            elif roll < 0.4:
                outcome = rng.choice(OUTCOMES)
                record = {"k": "game", "tag": tag, "outcome": outcome}
                journal.write({"t": "try", **record})
                warning = stats.record_game(GAME, tag, "human-computer", "harness", outcome)
            elif roll < 0.55:
                moves, helped = rng.randrange(1, 200), rng.random() < 0.3
                record = {"k": "puzzle", "tag": tag, "moves": moves, "helped": helped}
                journal.write({"t": "try", **record})
                warning = stats.record_puzzle(PUZZLE, tag, moves, 1.5 + op, helped)
            elif roll < 0.8:
                key = setting_keys[op % len(setting_keys)]
                value = setting_value(key, tag, settings_saved)
                settings_saved += 1
                record = {"k": "setting", "tag": tag, "key": key, "value": value}
                journal.write({"t": "try", **record})
                settings.set(key, value)
                warning = settings.save()
            else:
                game_id = rng.choice(sorted(save_ids))
                text = save_text(game_id, tag, save_ids[game_id])
                record = {"k": "save", "tag": tag, "id": game_id, "sha": digest(text)}
                journal.write({"t": "try", **record})
                warning = saves.write(game_id, game_id, text)
            if warning is None:
                journal.commit({"t": "ok", **record})
            else:
                journal.commit({"t": "warn", **record, "text": str(warning)})
            op += 1
        close_profile(stats, window)
    except Exception:  # noqa: BLE001 - a store must never raise: that is a finding
        journal.commit({"t": "error", "text": traceback.format_exc()})
        return 4
    journal.commit({"t": "done", "ops": op, "calls": points.calls})
    return 0


def run_open(args: argparse.Namespace) -> int:
    """The ``open`` command: open the stores (perhaps rebuilding), journal, exit."""
    journal = Journal(args.journal)
    points = CrashPoints(journal, args.die_at, args.die_after)
    journal.write({"t": "start"}, durable=True)
    started = time.perf_counter()
    try:
        settings, stats, notices = _open_stores(args.profile)
    except Exception:  # noqa: BLE001 - a store must never raise: that is a finding
        journal.commit({"t": "error", "text": traceback.format_exc()})
        return 4
    stats.close()  # type: ignore[attr-defined]
    journal.commit({"t": "open", "notices": [str(n) for n in notices],
                    "persistent": bool(getattr(stats, "persistent", False)),
                    "seconds": round(time.perf_counter() - started, 4), "calls": points.calls})
    return 0


def run_check(args: argparse.Namespace) -> int:
    """The ``check`` command: what a player opening this profile would see, as JSON."""
    started = time.perf_counter()
    result: dict[str, Any] = {}
    try:
        settings, stats, notices, saves, window = open_profile(args.profile, app=True)
        result["open_seconds"] = round(time.perf_counter() - started, 4)
        result["notices"] = [str(n) for n in notices]
        result["persistent"] = bool(getattr(stats, "persistent", False))
        result["games"] = [[s.game, s.variant, s.mode, s.opponent, s.played, s.won, s.lost,
                            s.drawn] for s in stats.game_summary()]
        result["puzzles"] = [[s.game, s.variant, s.solved, s.helped]
                             for s in stats.puzzle_summary()]
        result["read_warnings"] = [str(w) for w in stats.warnings if w not in notices]
        result["settings"] = settings.data
        found: dict[str, Any] = {}
        for game_id in filter(None, (args.saves or "").split(",")):
            got = saves.find(game_id, game_id)
            found[game_id] = {"source": got.source, "problem": got.problem,
                              "notice": got.notice,
                              "sha": None if got.text is None else digest(got.text)}
        result["saves"] = found
        close_profile(stats, window)
    except Exception:  # noqa: BLE001 - a store must never raise: that is a finding
        result["error"] = traceback.format_exc()
    result["seconds"] = round(time.perf_counter() - started, 4)
    Path(args.out).write_text(json.dumps(result), encoding="utf-8")
    return 0


# Another program holding the statistics file (as a sqlite3 shell in BEGIN EXCLUSIVE).
HOLD = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
"""


def run_busy(args: argparse.Namespace) -> int:
    """The ``busy`` command: the real App while another process holds the statistics file.

    Records ``--games`` Match me results, then has another process take the file
    (``BEGIN EXCLUSIVE``) and, while it holds it, opens Connect Four against Match me,
    finishes a game (its result queued), and opens the Statistics screen; then the other
    process lets go and the screen must show every row. Each frame's wait (wall time less
    the thread's CPU time) is measured; the figures go to ``--out`` as JSON.
    """
    import subprocess

    started = time.perf_counter()
    result: dict[str, Any] = {}
    holder = None
    try:
        settings, stats, notices, _saves, app = open_profile(args.profile, app=True)
        from engine.model.registry import find_game
        from engine.model.seats import Seat
        from engine.screens.launcher import LauncherScene
        from engine.screens.stats_scene import StatsScene

        c4 = find_game("connect4")
        for i in range(args.games):
            app.stats.record_game("connect4", "7x6", "human-computer", "match",
                                  ("won", "drawn", "lost")[i % 3])
        app.push(LauncherScene(app))
        waits: list[float] = []
        shown: list[str] = []
        # Every use of the statistics connection goes through _require_open: count those
        # made by the frame loop's thread during a frame (there must be none).
        import threading

        from engine.storage.stats import StatsStore

        in_frame = threading.Event()
        touched: list[str] = []
        original = StatsStore._require_open

        def watched(store: Any) -> Any:
            if in_frame.is_set() and threading.current_thread() is threading.main_thread():
                touched.append("".join(traceback.format_stack(limit=6)))
            return original(store)
        StatsStore._require_open = watched  # type: ignore[method-assign]

        def frame() -> None:
            wall, cpu = time.perf_counter(), time.thread_time()
            in_frame.set()
            try:
                app.step([])
            finally:
                in_frame.clear()
            waits.append((time.perf_counter() - wall) - (time.thread_time() - cpu))
            top = app.top
            if isinstance(top, StatsScene):
                shown.extend(entry.text for entry in top.entries)
            time.sleep(0.005)

        def until(predicate: Any, timeout: float = 60.0) -> bool:
            deadline = time.monotonic() + timeout
            while not predicate():
                if time.monotonic() > deadline:
                    return False
                frame()
            return True

        holder = subprocess.Popen([sys.executable, "-c", HOLD, str(stats.path)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        result["busy_seen"] = until(lambda: app.stats.match_outcomes_now("connect4")[1])
        result.setdefault("frame_at", {})["game"] = len(waits)
        game = app.push(c4.open_scene(app, seats=(Seat(), Seat("computer", "match"))))
        for _ in range(5):
            frame()
        # Read before the file was taken: Match me plays on from that copy (else it says
        # which level it plays and why).
        result["match_rung"] = game.match_rung
        result["match_expected"] = c4.match_level(
            [("won", "drawn", "lost")[i % 3] for i in range(args.games)])
        result["match_said"] = [str(n) for n in app.notices if "Match me plays at" in n]
        app.stats.record_game_later("connect4", "7x6", "human-computer", "match", "won")
        app.pop()
        result.setdefault("frame_at", {})["stats"] = len(waits)
        scene = app.push(StatsScene(app))
        result["busy_said"] = until(lambda: any("busy" in t for t in shown), 30.0)
        for _ in range(20):
            frame()
        result["loaded_while_held"] = scene.loaded
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(30)
        result["loaded_after"] = until(lambda: scene.loaded, 30.0)
        result["played_after"] = scene.totals.get("connect4", (0, 0, 0, 0))[0]
        result["waits"] = [round(w, 5) for w in waits]
        result["longest_at"] = max(range(len(waits)), key=waits.__getitem__) if waits else None
        result["notices"] = [str(n) for n in app.notices]
        result["no_games_said"] = any("No games" in t for t in shown)
        result["file_uses_in_frames"] = len(touched)
        result["first_file_use"] = touched[0] if touched else None
        app.quit()
        result["closing"] = str(app.stats.close() or "")
        close_profile(stats, app)
    except Exception:  # noqa: BLE001 - reported to the harness as a finding
        result["error"] = traceback.format_exc()
    finally:
        if holder is not None and holder.poll() is None:
            holder.kill()
    result["seconds"] = round(time.perf_counter() - started, 4)
    Path(args.out).write_text(json.dumps(result), encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run one worker command; returns its exit code."""
    parser = argparse.ArgumentParser(prog="crash_worker", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    loop = sub.add_parser("loop")
    loop.add_argument("--profile", required=True)
    loop.add_argument("--journal", type=Path, required=True)
    loop.add_argument("--worker", required=True, help="a tag unique within the profile")
    loop.add_argument("--seed", type=int, default=0)
    loop.add_argument("--ready", help="touch this file once ready")
    loop.add_argument("--go", help="wait for this file before opening the stores")
    loop.add_argument("--start-delay", type=float, default=0.0)
    loop.add_argument("--ops", type=int, default=0, help="stop after this many (0: never)")
    loop.add_argument("--max-seconds", type=float, default=60.0)
    loop.add_argument("--setting", choices=RACE_SETTINGS, help="the one setting to change")
    loop.add_argument("--saves", help="comma-separated saved-game ids to write")
    loop.add_argument("--app", action="store_true",
                      help="start the real App too (dummy video), as a player's start does")
    for command in (loop, opener := sub.add_parser("open")):
        command.add_argument("--die-at", type=int, default=0, metavar="N",
                             help="SIGKILL this process at its N-th call of os."
                                  + "/".join(CRASH_CALLS))
        command.add_argument("--die-after", action="store_true",
                             help="... just after that call, not just before it")
    opener.add_argument("--profile", required=True)
    opener.add_argument("--journal", type=Path, required=True)
    check = sub.add_parser("check")
    check.add_argument("--profile", required=True)
    check.add_argument("--out", required=True)
    check.add_argument("--saves", help="comma-separated saved-game ids to look up")
    busy = sub.add_parser("busy")
    busy.add_argument("--profile", required=True)
    busy.add_argument("--out", required=True)
    busy.add_argument("--games", type=int, default=5)
    args = parser.parse_args(argv)
    return {"loop": run_loop, "open": run_open, "check": run_check,
            "busy": run_busy}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
