"""The GitHub workflows are valid, and release.yml builds, checks and releases as promised.

Offline: check-jsonschema validates every file in ``.github/workflows/`` against the GitHub
workflow schema it bundles, and a deliberately broken copy must fail that check. The rest
reads release.yml: three desktops, one build command, ``--smoke`` and ``--version`` on the
result, artifacts on every run, a release on a ``v*`` tag. Its list of families, like
build/README.md's, is written from the registry by tools/make_docs.py.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.model.registry import all_games
from tests.support.workflow import (
    RELEASE,
    ROOT,
    Step,
    Workflow,
    check_workflow,
    dump_workflow,
    load_workflow,
    step_index,
    step_named,
    workflow_files,
)

BUILD_README = ROOT / "build" / "README.md"


@pytest.fixture(scope="module")
def workflow() -> Workflow:
    """release.yml, parsed."""
    return load_workflow(RELEASE)


def _steps(workflow: Workflow, job: str) -> list[Step]:
    return workflow["jobs"][job]["steps"]


def _uses(step: Step, action: str) -> bool:
    return str(step.get("uses", "")).startswith(action + "@")


# --- the schema -------------------------------------------------------------------------


def test_the_release_workflow_is_there() -> None:
    assert RELEASE in workflow_files()


@pytest.mark.slow
@pytest.mark.parametrize("path", workflow_files(), ids=lambda p: p.name)
def test_every_workflow_passes_the_github_workflow_schema(path: Path) -> None:
    out = check_workflow(path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "validation done" in out.stdout


def _no_runs_on(data: Workflow) -> None:
    del data["jobs"]["build"]["runs-on"]


def _unknown_trigger(data: Workflow) -> None:
    data["on"]["pushed"] = data["on"].pop("push")


def _step_without_action_or_script(data: Workflow) -> None:
    data["jobs"]["release"]["steps"].append({"name": "does nothing"})


BREAKS: dict[str, Callable[[Workflow], None]] = {
    "no runs-on": _no_runs_on,
    "unknown trigger": _unknown_trigger,
    "step without uses or run": _step_without_action_or_script,
}


@pytest.mark.slow
def test_a_rewritten_but_intact_copy_still_passes(tmp_path: Path) -> None:
    """The broken copies below are written the same way, so their failure is the break's."""
    copy = dump_workflow(load_workflow(RELEASE), tmp_path / "release.yml")
    out = check_workflow(copy)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BREAKS))
def test_a_broken_copy_fails_the_schema_check(name: str, tmp_path: Path) -> None:
    data = load_workflow(RELEASE)
    BREAKS[name](data)
    out = check_workflow(dump_workflow(data, tmp_path / "release.yml"))
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Schema validation errors" in out.stdout


@pytest.mark.slow
def test_the_missing_runs_on_is_named(tmp_path: Path) -> None:
    data = load_workflow(RELEASE)
    _no_runs_on(data)
    out = check_workflow(dump_workflow(data, tmp_path / "release.yml"))
    assert "'runs-on' is a required property" in out.stdout


# --- what release.yml does --------------------------------------------------------------


def test_it_builds_on_linux_windows_and_macos_with_python_3_11(workflow: Workflow) -> None:
    job = workflow["jobs"]["build"]
    systems = job["strategy"]["matrix"]["os"]
    assert sorted(name.split("-")[0] for name in systems) == ["macos", "ubuntu", "windows"]
    assert job["runs-on"] == "${{ matrix.os }}"
    assert job["strategy"]["fail-fast"] is False  # one desktop failing still shows the others
    steps = job["steps"]
    assert any(_uses(step, "actions/checkout") for step in steps)
    setup = steps[step_index(steps, lambda s: _uses(s, "actions/setup-python"))]
    assert setup["with"]["python-version"] == "3.11"  # a string: 3.11 as a number is 3.1
    assert step_named(steps, "Install the requirements")["run"] == (
        "python -m pip install -r requirements.txt")


def test_the_build_is_the_documented_command(workflow: Workflow) -> None:
    steps = _steps(workflow, "build")
    assert step_named(steps, "Build the executable")["run"] == (
        'python build/build.py --family "$FAMILY"')
    assert workflow["env"]["FAMILY"] == "${{ inputs.family || 'all' }}"
    # "Run workflow" can build any family's own executable, and only real families.
    family = workflow["on"]["workflow_dispatch"]["inputs"]["family"]
    assert family["default"] == "all"
    assert family["options"] == ["all", *(game.id for game in all_games())], (
        "run python tools/make_docs.py: it writes the list from the registry")


def test_each_build_checks_version_and_smoke_before_uploading(workflow: Workflow) -> None:
    job = workflow["jobs"]["build"]
    steps = job["steps"]
    build = step_index(steps, lambda s: s.get("name") == "Build the executable")
    version = step_index(steps, lambda s: '"$EXE" --version' in s.get("run", ""))
    smoke = step_index(steps, lambda s: '"$EXE" --smoke' in s.get("run", ""))
    upload = step_index(steps, lambda s: _uses(s, "actions/upload-artifact"))
    assert build < version < upload and build < smoke < upload
    # The runners have no display or sound card.
    assert job["env"]["SDL_VIDEODRIVER"] == "dummy"
    assert job["env"]["SDL_AUDIODRIVER"] in ("dummy", "disk")
    # Artifacts on every run, not only for tags; a missing file is an error.
    assert "if" not in steps[upload]
    assert steps[upload]["with"]["if-no-files-found"] == "error"
    assert steps[upload]["with"]["name"] == "${{ steps.names.outputs.asset }}"


def test_a_version_tag_attaches_the_executables_to_a_release(workflow: Workflow) -> None:
    assert workflow["on"]["push"]["tags"] == ["v*"]
    assert workflow["permissions"] == {"contents": "read"}
    job = workflow["jobs"]["release"]
    assert job["needs"] == "build"
    assert job["if"] == ("github.event_name == 'push' && "
                         "startsWith(github.ref, 'refs/tags/v')")
    assert job["permissions"] == {"contents": "write"}
    steps = job["steps"]
    download = steps[step_index(steps, lambda s: _uses(s, "actions/download-artifact"))]
    assert download["with"] == {"path": "release", "merge-multiple": True}
    upload = step_named(steps, "Create the release (if needed) and upload the executables")
    assert upload["env"]["GH_TOKEN"] == "${{ secrets.GITHUB_TOKEN }}"
    assert 'gh release create "$TAG"' in upload["run"]
    assert 'gh release upload "$TAG" release/*' in upload["run"]


# --- build/README.md --------------------------------------------------------------------


def test_build_readme_links_the_workflow_and_lists_the_families_generated() -> None:
    """No list of game ids is typed by hand: build/README.md's family block and this
    workflow's choice list are written from the registry by tools/make_docs.py (their
    currency is tests/project/test_docs_generated.py's); the link to the workflow resolves."""
    text = BUILD_README.read_text(encoding="utf-8")
    assert "<!-- generated by tools/make_docs.py (families): do not edit -->" in text
    assert "](../.github/workflows/release.yml)" in text
    assert "# generated by tools/make_docs.py (family-options)" in RELEASE.read_text(
        encoding="utf-8")
