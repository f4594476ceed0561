"""The packaged executable: build it with build/build.py and run the frozen program.

Slow (a PyInstaller build, under a minute on a warm machine), but run in CI:
it is the only test that catches a missing asset or package-data file in the
bundle. Everything is built into pytest's temporary folders, not the repository.
The executable's size and start-up times are printed (visible with ``-s``) and
written to ``tests/.artifacts/build-executable.txt`` (ignored by git).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import __version__

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
BUILD_SCRIPT = ROOT / "build" / "build.py"
REPORT = ROOT / "tests" / ".artifacts" / "build-executable.txt"
BUILD_TIMEOUT = 900  # seconds; a cold build on a 2-core machine takes about a minute
RUN_TIMEOUT = 120  # a one-file start unpacks ~70 MB to a temporary folder first

_measurements: dict[str, str] = {}


def _record(key: str, value: str) -> None:
    _measurements[key] = value
    print(f"[build-executable] {key}: {value}")
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text("".join(f"{k}: {v}\n" for k, v in _measurements.items()),
                      encoding="utf-8")


def _build_module():
    spec = importlib.util.spec_from_file_location("arcade_build_script", BUILD_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def executable(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the one-file executable once for this module; return its path."""
    out = tmp_path_factory.mktemp("frozen")
    distpath, workpath = out / "dist", out / "work"
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, str(BUILD_SCRIPT), "--quiet",
         "--distpath", str(distpath), "--workpath", str(workpath)],
        cwd=out, capture_output=True, text=True, timeout=BUILD_TIMEOUT,
    )
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        pytest.fail(f"build/build.py exited {result.returncode}\n--- stdout ---\n"
                    f"{result.stdout[-6000:]}\n--- stderr ---\n{result.stderr[-6000:]}")
    exe = _build_module().executable_path(distpath)
    assert exe.is_file(), f"build reported success but {exe} is missing\n{result.stdout}"
    assert "build: executable" in result.stdout and "build: size" in result.stdout
    _record("build time", f"{elapsed:.1f} s")
    _record("executable", str(exe.name))
    _record("executable size", f"{exe.stat().st_size / 1e6:.1f} MB")
    return exe


def _run(exe: Path, *args: str, cwd: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    started = time.monotonic()
    # Run from an unrelated folder: the bundle must not lean on the source tree.
    result = subprocess.run([str(exe), *args], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=RUN_TIMEOUT)
    return result, time.monotonic() - started


def test_frozen_version(executable: Path, tmp_path: Path) -> None:
    result, elapsed = _run(executable, "--version", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert __version__ in result.stdout
    assert "Traceback" not in result.stderr
    _record("--version start-up", f"{elapsed:.2f} s")


def test_frozen_smoke(executable: Path, tmp_path: Path) -> None:
    result, elapsed = _run(executable, "--smoke", cwd=tmp_path)
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert "smoke: ok" in result.stdout
    # The text-entry dialog is pygame_gui's: its theme, fonts and translations are bundled.
    assert "text entry" in result.stdout
    assert "Traceback" not in result.stderr
    _record("--smoke run", f"{elapsed:.2f} s")


def test_frozen_bad_option_is_a_usage_error(executable: Path, tmp_path: Path) -> None:
    result, _elapsed = _run(executable, "--no-such-option", cwd=tmp_path)
    assert result.returncode == 2
    assert "usage:" in result.stderr
    assert "Traceback" not in result.stderr
