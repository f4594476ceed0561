"""release.yml's own shell steps, run here with bash against stand-in executables.

The names the executables get on the release, and the ``--version`` and ``--smoke``
checks, are scripts inside the workflow; these tests run exactly those scripts (read
from the file) the way GitHub's ``shell: bash`` does, so a check that could never fail,
or a name that differs from build/README.md, shows here rather than on a tag.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine import __version__
from tests.support.workflow import ROOT, Step, load_workflow, run_step, step_named

pytestmark = pytest.mark.skipif(os.name == "nt", reason="the stand-ins are POSIX shell scripts")


def _step(name: str) -> Step:
    return step_named(load_workflow()["jobs"]["build"]["steps"], name)


def _outputs(file: Path) -> dict[str, str]:
    lines = file.read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if line)


@pytest.mark.parametrize(("runner_os", "arch", "family", "exe", "asset"), [
    ("Linux", "X64", "all", "dist/arcade-of-strategy", "arcade-of-strategy-linux-x64"),
    ("Windows", "X64", "all", "dist/arcade-of-strategy.exe",
     "arcade-of-strategy-windows-x64.exe"),
    ("macOS", "ARM64", "all", "dist/arcade-of-strategy", "arcade-of-strategy-macos-arm64"),
    ("Linux", "X64", "tictactoe", "dist/arcade-tictactoe", "arcade-tictactoe-linux-x64"),
    ("Windows", "X64", "button-madness", "dist/arcade-button-madness.exe",
     "arcade-button-madness-windows-x64.exe"),
])
def test_each_executable_gets_its_platforms_name(runner_os: str, arch: str, family: str,
                                                 exe: str, asset: str, tmp_path: Path) -> None:
    output = tmp_path / "github_output"
    output.touch()
    out = run_step(_step("Name the executable"),
                   {"RUNNER_OS": runner_os, "RUNNER_ARCH": arch, "FAMILY": family,
                    "GITHUB_OUTPUT": str(output)})
    assert out.returncode == 0, out.stderr
    assert _outputs(output) == {"exe": exe, "asset": asset}
    if family == "all":  # the whole arcade's release names are the ones the docs give
        assert asset in (ROOT / "build" / "README.md").read_text(encoding="utf-8")


def _stand_in(tmp_path: Path, output: str, code: int = 0) -> Path:
    """An executable that prints ``output`` and exits with ``code``, whatever it is asked."""
    exe = tmp_path / "arcade-of-strategy"
    exe.write_text(f"#!/bin/sh\nprintf '%s\\n' '{output}'\nexit {code}\n", encoding="utf-8")
    exe.chmod(0o755)
    return exe


VERSION_LINE = f"Arcade of Strategy {__version__}"


@pytest.mark.parametrize(("printed", "code", "ref_type", "ref_name", "passes"), [
    (VERSION_LINE, 0, "branch", "main", True),
    (VERSION_LINE, 0, "tag", f"v{__version__}", True),
    (VERSION_LINE + "\r", 0, "tag", f"v{__version__}", True),  # Windows' line end
    (f"{VERSION_LINE} (Tic-tac-toe)", 0, "branch", "main", True),
    (VERSION_LINE, 0, "tag", "v99.0.0", False),        # the tag and the code disagree
    (VERSION_LINE, 1, "branch", "main", False),        # the exit code counts
    ("Arcade of Strategy 99.0.0", 0, "branch", "main", False),
    ("", 0, "branch", "main", False),
])
def test_the_version_check(printed: str, code: int, ref_type: str, ref_name: str,
                           passes: bool, tmp_path: Path) -> None:
    exe = _stand_in(tmp_path, printed, code)
    out = run_step(_step("Check --version"),
                   {"EXE": str(exe), "GITHUB_REF_TYPE": ref_type, "GITHUB_REF_NAME": ref_name})
    assert (out.returncode == 0) is passes, out.stdout + out.stderr


@pytest.mark.parametrize(("printed", "code", "passes"), [
    ("smoke: ok (launcher, tictactoe)", 0, True),
    ("smoke: FAILED: boom", 1, False),
    ("smoke: ok (launcher)", 1, False),   # the exit code counts even after an ok line
    ("", 0, False),                       # exit 0 without the ok line is not a pass
])
def test_the_smoke_check(printed: str, code: int, passes: bool, tmp_path: Path) -> None:
    exe = _stand_in(tmp_path, printed, code)
    out = run_step(_step("Check --smoke"), {"EXE": str(exe)})
    assert (out.returncode == 0) is passes, out.stdout + out.stderr
