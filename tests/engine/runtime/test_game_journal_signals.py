"""A game in progress survives every way the app can end (issue 29 finding 2): the real
app, in its own process, plays Connect Four by clicks and then gets HUP, INT, QUIT, TERM
or KILL. A signal is a clean quit (exit 0, no traceback, the game saved whole); a kill
loses at most the move being made (the journal holds every other)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.model.registry import find_game
from engine.storage.saved_games import open_game
from tests.conftest import ROOT, make_app

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

WORKER = ROOT / "tests" / "support" / "play_worker.py"


def start(profile: Path, ledger: Path, moves: int = 7, pace: float = 0.05
          ) -> subprocess.Popen[bytes]:
    """The real app on ``profile``, playing ``moves`` moves by itself."""
    return subprocess.Popen([sys.executable, str(WORKER), str(profile), str(ledger),
                             "--moves", str(moves), "--pace", str(pace)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)


def entries(ledger: Path) -> list[dict]:
    """The ledger's whole lines."""
    if not ledger.exists():
        return []
    return [json.loads(line) for line in ledger.read_text().splitlines() if line.strip()]


def made(ledger: Path) -> int:
    """Moves the worker has seen on the board so far."""
    return max([0] + [e["made"] for e in entries(ledger) if "made" in e])


def wait_for(ledger: Path, proc: subprocess.Popen[bytes], what: str, at_least: int = 0,
             timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen = entries(ledger)
        assert not [e for e in seen if "error" in e], seen
        if any(what in e and e[what] >= at_least for e in seen):
            return
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        time.sleep(0.02)
    raise AssertionError(f"no {what} in {timeout} s: {entries(ledger)}")


def reopened(profile: Path) -> tuple[int, list[str]]:
    """The moves on the board of the game reopened on ``profile``, and the notices."""
    app = make_app(profile)
    try:
        scene = open_game(app, find_game("connect4"))
        app.push(scene)
        return scene.match.history.index, list(app.notices)
    finally:
        app.quit()
        app.stats.close()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM"])
def test_a_signal_quits_cleanly_and_keeps_every_move(tmp_path: Path, name: str) -> None:
    """Regression: HUP, INT (with a KeyboardInterrupt traceback) and QUIT lost all 7
    moves; now each is what TERM was: leave every scene, save, exit 0."""
    profile, ledger = tmp_path / "profile", tmp_path / "ledger.jsonl"
    proc = start(profile, ledger)
    wait_for(ledger, proc, "done", 7)
    proc.send_signal(getattr(signal, name))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err, err.decode()
    saved = json.loads((profile / "saved" / "connect4.json").read_text())
    assert saved["state"]["index"] == 7
    assert not (profile / "saved" / "connect4.journal").exists(), "compacted into the save"
    moves, notices = reopened(profile)
    assert moves == 7 and not notices


@pytest.mark.slow
def test_a_kill_after_the_moves_loses_none_and_a_torn_line_is_ignored(tmp_path: Path) -> None:
    """Regression: a kill lost every move since the game was last left."""
    profile, ledger = tmp_path / "profile", tmp_path / "ledger.jsonl"
    proc = start(profile, ledger)
    wait_for(ledger, proc, "done", 7)
    time.sleep(0.3)  # (the writer thread: well within this)
    proc.kill()
    proc.communicate(timeout=60)
    journal = profile / "saved" / "connect4.journal"
    assert journal.exists() and not (profile / "saved" / "connect4.json").exists()
    with open(journal, "ab") as handle:
        handle.write(b'{"n":8,"d":{"k":{"log":{"l":8,"+":[[0,')  # a kill mid-line
    moves, notices = reopened(profile)
    assert moves == 7 and not notices


@pytest.mark.slow
def test_a_kill_during_play_loses_at_most_the_move_being_made(tmp_path: Path) -> None:
    """Killed at a random moment mid-game (here and in the crash harness, many times):
    every move but at most the one being made is there on reopening, and the game goes
    on from there (a second run on the same profile adds to it)."""
    rng = random.Random(29)
    profile = tmp_path / "profile"
    for run in range(2):
        ledger = tmp_path / f"ledger-{run}.jsonl"
        before = made_before(profile)
        proc = start(profile, ledger, moves=12, pace=0.1)
        wait_for(ledger, proc, "made", before + rng.randint(1, 6))
        time.sleep(rng.uniform(0, 0.05))
        proc.kill()
        proc.communicate(timeout=60)
        count = made(ledger)
        moves, notices = reopened(profile)
        assert count - 1 <= moves <= count + 1, (run, count, moves)
        assert not notices


def made_before(profile: Path) -> int:
    """Moves a reopening shows now (0 for a new profile)."""
    if not (profile / "saved").exists():
        return 0
    return reopened(profile)[0]


@pytest.mark.slow
def test_the_worker_really_plays_through_the_real_app(tmp_path: Path) -> None:
    """The oracle is not blind: with the journal switched off (its folder a file), a kill
    loses the moves — the check above would see it."""
    profile, ledger = tmp_path / "profile", tmp_path / "ledger.jsonl"
    (profile / "saved").mkdir(parents=True)
    (profile / "saved" / "connect4.journal").mkdir()  # every journal write fails
    proc = start(profile, ledger)
    wait_for(ledger, proc, "done", 7)
    proc.kill()
    proc.communicate(timeout=60)
    os.rmdir(profile / "saved" / "connect4.journal")
    moves, _ = reopened(profile)
    assert moves == 0


@pytest.mark.slow
def test_two_processes_on_one_game_the_second_never_writes_over_the_first(
        tmp_path: Path) -> None:
    """Regression (issue 29 finding 7): copy A played 6 moves, copy B 2, both left, and
    reopening gave B's game with A's 6 moves gone and no notice. Now B shows A's game,
    says its moves are not saved, and A's game is what reopens, whichever leaves last."""
    profile = tmp_path / "profile"
    first_ledger, second_ledger = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first = start(profile, first_ledger, moves=6)
    wait_for(first_ledger, first, "done", 6)
    time.sleep(0.3)  # (A's journal: written within milliseconds)
    second = start(profile, second_ledger, moves=2)
    wait_for(second_ledger, second, "done", 8)  # A's 6 moves shown, and 2 more made in B
    first.send_signal(signal.SIGTERM)
    assert first.wait(timeout=60) == 0
    second.send_signal(signal.SIGTERM)
    _, err = second.communicate(timeout=60)
    assert second.returncode == 0
    assert b"open in another copy of the arcade" in err, err.decode()
    moves, notices = reopened(profile)
    assert moves == 6 and not notices
