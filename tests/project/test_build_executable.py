"""The packaged executables: build them with build/build.py and run the frozen programs.

Slow (two PyInstaller builds, under a minute each on a warm machine), but run in
CI: it is the only test that catches a missing asset or package-data file in a
bundle. The whole arcade is built, and one family's own executable
(``--family tictactoe``: its smoke run is the quickest, and its bundle also tests
leaving other families and numpy out). Everything is built into pytest's
temporary folders, not the repository. Sizes, build and start-up times are
printed (visible with ``-s``) and written to
``tests/.artifacts/build-executable.txt`` (ignored by git).
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

ROOT = Path(__file__).resolve().parents[2]
BUILD_SCRIPT = ROOT / "build" / "build.py"
REPORT = ROOT / "tests" / ".artifacts" / "build-executable.txt"
BUILD_TIMEOUT = 900  # seconds; a cold build on a 2-core machine takes about a minute
RUN_TIMEOUT = 120  # a one-file start unpacks ~70 MB to a temporary folder first
FAMILY = "tictactoe"  # the family executable built here (see the module docstring)

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


def _build(out: Path, family: str | None = None) -> tuple[Path, float]:
    """Run build/build.py (for ``family``, default all) into ``out``; return the
    one-file executable and the build time."""
    distpath, workpath = out / "dist", out / "work"
    options = [] if family is None else ["--family", family]
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, str(BUILD_SCRIPT), "--quiet", *options,
         "--distpath", str(distpath), "--workpath", str(workpath)],
        cwd=out, capture_output=True, text=True, timeout=BUILD_TIMEOUT,
    )
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        pytest.fail(f"build/build.py exited {result.returncode}\n--- stdout ---\n"
                    f"{result.stdout[-6000:]}\n--- stderr ---\n{result.stderr[-6000:]}")
    build = _build_module()
    exe = build.executable_path(distpath, name=build.executable_name(family))
    assert exe.is_file(), f"build reported success but {exe} is missing\n{result.stdout}"
    assert "build: executable" in result.stdout and "build: size" in result.stdout
    assert f"build: executable {exe}" in result.stdout
    return exe, elapsed


@pytest.fixture(scope="module")
def executable(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the one-file executable once for this module; return its path."""
    exe, elapsed = _build(tmp_path_factory.mktemp("frozen"))
    _record("build time", f"{elapsed:.1f} s")
    _record("executable", str(exe.name))
    _record("executable size", f"{exe.stat().st_size / 1e6:.1f} MB")
    return exe


@pytest.fixture(scope="module")
def family_executable(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build ``--family tictactoe`` once for this module; return its path."""
    exe, elapsed = _build(tmp_path_factory.mktemp("frozen-family"), FAMILY)
    assert exe.stem == f"arcade-{FAMILY}"
    _record(f"{exe.name} build time", f"{elapsed:.1f} s")
    _record(f"{exe.name} size", f"{exe.stat().st_size / 1e6:.1f} MB")
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


# --- one family's own executable ----------------------------------------------------------


def test_frozen_family_version(family_executable: Path, tmp_path: Path) -> None:
    result, _elapsed = _run(family_executable, "--version", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"Arcade of Strategy {__version__} (Tic-tac-toe)"


def test_frozen_family_smoke_opens_only_its_family(family_executable: Path,
                                                   tmp_path: Path) -> None:
    result, elapsed = _run(family_executable, "--smoke", cwd=tmp_path)
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert "Traceback" not in result.stderr
    opened = smoke_opened(result.stdout)
    assert FAMILY in opened and "text entry" in opened
    others = [name for name in opened if name not in ("launcher", "statistics", "text entry")
              and name.split("/")[0] != FAMILY]
    assert not others, f"the {FAMILY} executable opened other games: {others}"
    _record(f"{family_executable.name} --smoke run", f"{elapsed:.2f} s")


def test_frozen_family_bundles_only_its_family(family_executable: Path) -> None:
    """The other families' code and numpy (which tic-tac-toe does not use) stay out."""
    from PyInstaller.archive.readers import CArchiveReader

    modules = set(CArchiveReader(str(family_executable)).open_embedded_archive("PYZ.pyz").toc)
    assert f"games.{FAMILY}.scene" in modules and "engine.runtime.cli" in modules
    assert not {m for m in modules if m.startswith(("games.grundy", "games.buttons"))}
    assert not {m for m in modules if m == "numpy" or m.startswith("numpy.")}


def test_frozen_family_bad_option_is_a_usage_error(family_executable: Path,
                                                   tmp_path: Path) -> None:
    # A family executable has no "play": its game opens anyway.
    result, _elapsed = _run(family_executable, "play", "grundy", cwd=tmp_path)
    assert result.returncode == 2
    assert f"usage: arcade-{FAMILY}" in result.stderr
    assert "Traceback" not in result.stderr


def smoke_opened(stdout: str) -> list[str]:
    """The screens a ``smoke: ok (a, b, …)`` line names."""
    line = next(line for line in stdout.splitlines() if line.startswith("smoke: ok ("))
    return line[len("smoke: ok ("):-1].split(", ")
