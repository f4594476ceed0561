"""Running the command line as another tool would: a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, profile: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               ARCADE_PROFILE=str(profile))
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=ROOT)


def launch_until(cmd: list[str], env: dict[str, str], dump: Path,
                 seen: Callable[[dict], bool], timeout: float = 90
                 ) -> tuple[int | None, dict, str]:
    """Start the app (``cmd`` writes its state to ``dump`` with ``--dump-state``), wait until
    ``seen(state)`` holds or the time is up, then stop it with SIGTERM (a clean quit);
    (exit code, last state read, stderr)."""
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    state: dict = {}
    try:
        end = time.monotonic() + timeout
        while time.monotonic() < end and proc.poll() is None:
            try:
                state = json.loads(dump.read_text())
            except (OSError, ValueError):
                state = {}
            if seen(state):
                break
            time.sleep(0.1)
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
    return proc.returncode, state, err
