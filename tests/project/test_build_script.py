"""build/build.py without building: family names, bad options, and the family entry point.

Fast (no PyInstaller run); tests/project/test_build_executable.py builds for real.
The family entry point is the very script the spec bundles, run here from source.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine import __version__
from engine.model.registry import all_games

ROOT = Path(__file__).resolve().parents[2]
BUILD_SCRIPT = ROOT / "build" / "build.py"


@pytest.fixture(scope="module")
def build() -> ModuleType:
    """build/build.py as a module (the folder is not a package)."""
    spec = importlib.util.spec_from_file_location("arcade_build_script", BUILD_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_family_names_come_from_the_registry(build: ModuleType) -> None:
    assert build.resolve_family("all") is None
    for family in all_games():
        assert build.resolve_family(family.id) == family.id
        for alias in family.aliases:
            assert build.resolve_family(alias.upper()) == family.id
        assert build.executable_name(family.id) == f"arcade-{family.id}"
    assert build.executable_name(None) == "arcade-of-strategy"
    assert build.resolve_family("buttons") == "button-madness"
    exe = ".exe" if sys.platform == "win32" else ""
    dist = Path("dist")
    assert build.executable_path(dist, name="arcade-grundy") == dist / f"arcade-grundy{exe}"
    assert (build.executable_path(dist, onedir=True, name="arcade-grundy")
            == dist / "arcade-grundy" / f"arcade-grundy{exe}")


@pytest.mark.slow
def test_unknown_family_is_a_usage_error_and_builds_nothing(tmp_path: Path) -> None:
    dist, work = tmp_path / "dist", tmp_path / "work"
    out = subprocess.run(
        [sys.executable, str(BUILD_SCRIPT), "--family", "chess",
         "--distpath", str(dist), "--workpath", str(work)],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    assert out.returncode == 2
    assert "usage:" in out.stderr
    assert "unknown game family 'chess'" in out.stderr
    assert "all, " + ", ".join(g.id for g in all_games()) in out.stderr
    assert "Traceback" not in out.stderr and "PyInstaller" not in out.stdout
    assert not dist.exists() and not work.exists()


@pytest.mark.slow
def test_help_lists_the_families(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(BUILD_SCRIPT), "--help"], capture_output=True,
                         text=True, timeout=60, cwd=tmp_path)
    assert out.returncode == 0
    for family in all_games():
        assert family.id in out.stdout


def _run_entry(build: ModuleType, family: str, folder: Path, *args: str,
               timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run the family's generated entry script from source, outside the repository."""
    script = build.write_family_entry(family, folder / "entry")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               ARCADE_PROFILE=str(folder / "profile"), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, str(script), *args], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=folder)


@pytest.mark.slow
def test_family_entry_point_smoke_opens_only_its_family(build: ModuleType,
                                                        tmp_path: Path) -> None:
    out = _run_entry(build, "tictactoe", tmp_path, "--smoke", timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    line = next(line for line in out.stdout.splitlines() if line.startswith("smoke: ok ("))
    opened = line[len("smoke: ok ("):-1].split(", ")
    assert opened[:2] == ["launcher", "tictactoe"] and opened[-2:] == ["statistics",
                                                                       "text entry"]
    assert all(name.startswith("tictactoe/") for name in opened[2:-2]), opened


@pytest.mark.slow
@pytest.mark.parametrize("family", [f.id for f in all_games()])
def test_family_entry_point_version_and_help(build: ModuleType, tmp_path: Path,
                                             family: str) -> None:
    title = next(f.title for f in all_games() if f.id == family)
    out = _run_entry(build, family, tmp_path, "--version")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"Arcade of Strategy {__version__} ({title})"
    out = _run_entry(build, family, tmp_path, "--help")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"usage: arcade-{family} ")
    for option in ("--profile", "--window", "--smoke", "--version"):
        assert option in out.stdout
    assert " play " not in out.stdout
