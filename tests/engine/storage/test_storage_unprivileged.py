"""Run the read-only-folder storage tests where permissions really apply.

As root (CI runs as root) chmod does not stop writes, so those tests skip
themselves. Here they run again in a child process without the capabilities
that let root ignore file permissions, and must pass without skipping.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="not root: the permission tests already ran unskipped")
def test_permission_tests_pass_without_root_override(tmp_path: Path) -> None:
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("setpriv (util-linux) is not available")
    caps = "-dac_override,-dac_read_search"
    cmd = [setpriv, f"--bounding-set={caps}", f"--inh-caps={caps}", "--",
           sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-n", "0",
           f"--basetemp={tmp_path / 'base'}",
           "tests/engine/storage/test_storage_settings.py",
           "tests/engine/storage/test_storage_stats.py",
           "-k", "read_only or unreadable"]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "skipped" not in out.stdout, out.stdout
    assert " passed" in out.stdout
