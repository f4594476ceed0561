"""Which stream each kind of output takes, with streams closed (issue 29, finding 12).

Real ``python main.py`` processes with real shell redirections, as in
tests/engine/runtime/test_cli_robustness.py: stdout holds only answers; usage errors,
notices and a search that gives up go to stderr, and a usage error is exit 2 whatever
stream is closed.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
MAIN = ROOT / "main.py"
pytestmark = pytest.mark.skipif(os.name != "posix", reason="shell redirections")


def _env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                ARCADE_PROFILE=str(tmp_path / "profile"))


def _shell(tmp_path: Path, args: str, redirect: str) -> tuple[int, str, str]:
    """Run main.py with ``args`` under ``redirect`` (e.g. ``2>&-``); (code, stdout, stderr)
    of what could still be seen (a closed stream shows nothing)."""
    code_file = tmp_path / "code"
    command = (f"{shlex.quote(sys.executable)} {shlex.quote(str(MAIN))} {args} {redirect}; "
               f"echo $? > {shlex.quote(str(code_file))}")
    out = subprocess.run(["sh", "-c", command], capture_output=True, text=True,
                         env=_env(tmp_path), cwd=ROOT, timeout=120)
    return int(code_file.read_text()), out.stdout, out.stderr


def test_with_stderr_closed_the_usage_does_not_go_to_stdout(tmp_path: Path) -> None:
    code, out, _ = _shell(tmp_path, "--bogus", "2>&-")
    assert (code, out) == (2, "")  # was the usage on stdout


def test_with_both_streams_closed_a_usage_error_is_still_exit_2(tmp_path: Path) -> None:
    code, _, _ = _shell(tmp_path, "--bogus", ">&- 2>&-")
    assert code == 2  # was 1: writing the usage to the closed stdout failed
    code, _, _ = _shell(tmp_path, "solve mnk --rows 3 --cols 3 --k 9", ">&- 2>&-")
    assert code == 2


def test_with_stdout_closed_the_usage_still_reaches_stderr(tmp_path: Path) -> None:
    code, _, err = _shell(tmp_path, "--bogus", ">&-")
    assert code == 2 and err.startswith("usage: arcade") and "unrecognized" in err


@pytest.mark.parametrize("args", [
    "solve connect4 --cols 9 --rows 8 --time-limit 0.2",
    "solve mnk --rows 4 --cols 15 --k 4 --time-limit 0.5",
])
def test_a_search_that_gives_up_says_so_on_stderr_for_every_solve(tmp_path: Path,
                                                                   args: str) -> None:
    code, out, err = _shell(tmp_path, args, "")
    assert code == 1 and out == ""  # solve connect4 printed it on stdout
    assert err.startswith("arcade: could not solve") and err.count("\n") == 1, err


def test_dump_state_into_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    target = tmp_path / "no such folder" / "state.json"
    out = subprocess.run([sys.executable, str(MAIN), "--dump-state", str(target)],
                         capture_output=True, text=True, env=_env(tmp_path), cwd=ROOT,
                         timeout=120)
    assert out.returncode == 2 and out.stdout == ""
    assert "Traceback" not in out.stderr
    assert "--dump-state" in out.stderr and "is not a folder that exists" in out.stderr
    assert not (tmp_path / "profile").exists()  # refused before anything was opened
