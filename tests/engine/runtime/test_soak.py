"""The soak monkey (tests/support/soak.py) in the normal suite: 5,000 random inputs, one seed.

It runs in a fresh interpreter, as the game does: its memory check compares the
process's resident size, which in the test process would also hold whatever the
tests before it left behind.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.soak import FAMILY_MODULES

# Soak: 5,000 monkey inputs in a fresh interpreter take half a minute or more, so the
# quick run (python -m pytest -m "not slow") leaves it out; the full suite runs it.
pytestmark = pytest.mark.slow

SEED = 4
EVENTS = 5_000
ROOT = Path(__file__).resolve().parents[3]


def test_monkey_soak(profile: Path) -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "support" / "soak.py"), "--events", str(EVENTS),
         "--seed", str(SEED), "--profile", str(profile), "--report-every", "0"],
        capture_output=True, text=True, timeout=900, cwd=ROOT,
        env=dict(os.environ, SDL_VIDEODRIVER="dummy"))
    summary = run.stdout
    print(summary)
    assert run.returncode == 0, summary + run.stderr[-3000:]
    assert f"{EVENTS} inputs" in summary and "result: OK" in summary, summary
    visited = summary.split("families visited:", 1)[1].splitlines()[0]
    assert all(family in visited for family in FAMILY_MODULES), summary
