"""Helpers for the tests of the GitHub workflows in ``.github/workflows/``.

The workflows are read with ruamel.yaml (installed with check-jsonschema, which is pinned
in requirements.txt), in YAML 1.2, where a key ``on`` stays the string "on". The schema
check runs check-jsonschema with the GitHub workflow schema that it bundles, so it needs
no network. A step's ``run`` script can be run here with bash the way GitHub runs it.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
RELEASE = WORKFLOWS / "release.yml"

Workflow = dict[str, Any]
Step = dict[str, Any]


def workflow_files() -> list[Path]:
    """Every workflow file of the repository (``*.yml`` and ``*.yaml``), sorted."""
    return sorted([*WORKFLOWS.glob("*.yml"), *WORKFLOWS.glob("*.yaml")])


def load_workflow(path: Path = RELEASE) -> Workflow:
    """The workflow at ``path`` as plain dicts and lists."""
    data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{path} is not a mapping"
    return data


def dump_workflow(data: Workflow, path: Path) -> Path:
    """Write ``data`` to ``path`` as YAML; returns ``path``."""
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    with path.open("w", encoding="utf-8") as stream:
        yaml.dump(data, stream)
    return path


def check_workflow(path: Path) -> subprocess.CompletedProcess[str]:
    """Run ``check-jsonschema --builtin-schema vendor.github-workflows`` on ``path``.

    Fails the test (rather than skipping it) when check-jsonschema is missing: it is a
    pinned requirement, so a missing one is a broken environment.
    """
    if importlib.util.find_spec("check_jsonschema") is None:
        pytest.fail("check-jsonschema is not installed: python -m pip install -r requirements.txt")
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
         str(path)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )


def step_named(steps: list[Step], name: str) -> Step:
    """The one step called ``name``."""
    found = [step for step in steps if step.get("name") == name]
    assert len(found) == 1, f"expected one step named {name!r}, found {len(found)}"
    return found[0]


def step_index(steps: list[Step], predicate: Any) -> int:
    """The index of the only step for which ``predicate(step)`` is true."""
    found = [i for i, step in enumerate(steps) if predicate(step)]
    assert len(found) == 1, f"expected one matching step, found {len(found)}"
    return found[0]


def run_step(step: Step, env: dict[str, str], cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run ``step``'s ``run`` script with bash as GitHub's ``shell: bash`` does
    (``bash --noprofile --norc -eo pipefail``), with ``env`` added to this process's
    environment and this interpreter's folder first on PATH (so ``python`` is this one).
    Skips when there is no bash."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    full = dict(os.environ, **env)
    full["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), full.get("PATH", "")])
    return subprocess.run([bash, "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                          capture_output=True, text=True, timeout=60, cwd=cwd, env=full)
