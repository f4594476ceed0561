"""Project-wide rules: layering, style, and the README's promises."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Rules and AI must run with no display: nothing but these drawing and screen modules
# may import pygame. Every other module of engine/ and games/ is checked.
UI_MODULES = {"engine.app", "engine.assets", "engine.board.draw", "engine.board.geometry",
              "engine.board.pointer", "engine.toasts", "engine.result_overlay",
              "engine.game_scene", "engine.launcher", "engine.overlays", "engine.scene",
              "engine.smoke", "engine.stats_scene", "engine.theme", "engine.turn_scene",
              "engine.viewport", "engine.widgets", "engine.value_overlay", "engine.game_layout",
              "engine.audio", "engine.settings_scene", "engine.stepper", "engine.win_overlay"}
# Game modules that draw say so in their name (as the before-stop hook expects too).
UI_WORDS = ("scene", "view", "render", "widget")


def _pure_modules() -> list[str]:
    names = []
    for path in sorted([*(ROOT / "engine").rglob("*.py"), *(ROOT / "games").rglob("*.py")]):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        leaf = module.rsplit(".", 1)[-1]
        if module.endswith("__init__") or module in UI_MODULES \
                or any(word in leaf for word in UI_WORDS):
            continue
        names.append(module)
    return names


PURE_MODULES = _pure_modules()


def test_rules_and_ai_do_not_import_pygame() -> None:
    assert {"games.tictactoe.rules", "engine.ai.negamax", "games.grundy.tables",
            "engine.storage.stats"} <= set(PURE_MODULES)
    # Import them one by one and name the first that brings pygame in.
    code = ("import sys\n"
            f"for name in {PURE_MODULES!r}:\n"
            "    __import__(name)\n"
            "    if 'pygame' in sys.modules:\n"
            "        print(name)\n"
            "        break\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"{out.stdout.strip()} imports pygame"


def test_engine_imports_games_only_through_the_registry() -> None:
    offenders = []
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n == "games" or n.startswith("games.") for n in names):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_ruff_clean() -> None:
    ruff = Path(sys.executable).with_name("ruff")
    if not ruff.exists():
        pytest.skip("ruff is not installed in this environment")
    out = subprocess.run([str(ruff), "check", "."], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


LAUNCH = "python -m pip install -r requirements.txt && python main.py"
TEST = "python -m pip install -r requirements.txt && python -m pytest"
VENV = "sudo apt install python3-venv && python3 -m venv .venv && . .venv/bin/activate"


def test_readme_starts_with_the_two_newcomer_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    head = readme[:1500]
    assert LAUNCH in head
    assert TEST in head
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert TEST in ci


def test_readme_says_to_make_a_venv_on_debian_before_the_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    venv = readme.find(VENV)
    assert venv != -1, "the Debian/Ubuntu venv line is missing"
    assert venv < readme.find(LAUNCH) < readme.find(TEST)
    # Short: the venv note sits between the title and the first command, nothing more.
    assert "Debian or Ubuntu" in readme[:venv]
    assert readme[:venv].count("\n") <= 5
    assert "externally-managed-environment" in readme[:readme.find(LAUNCH)]


def test_building_on_linux_needs_objdump_and_ci_installs_it() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    check, _, rest = ci.partition("apt-get install")
    assert "command -v objdump" in check
    assert "binutils" in rest.splitlines()[0]
    for readme in ("README.md", "build/README.md"):
        text = (ROOT / readme).read_text(encoding="utf-8")
        assert "binutils" in text and "objdump" in text, readme


def test_requirements_are_pinned_and_never_plain_pygame() -> None:
    lines = [line.split("#")[0].strip()
             for line in (ROOT / "requirements.txt").read_text().splitlines()]
    reqs = [line for line in lines if line]
    assert reqs and all("==" in r for r in reqs)
    names = {r.split("==")[0].lower() for r in reqs}
    assert "pygame" not in names and "pygame-ce" in names


QUICK = 'python -m pytest -m "not slow"'


def test_readme_documents_the_quick_run_next_to_the_full_one() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("\n## Tests\n")
    end = readme.find("\n## ", start + 1)
    section = readme[start:end if end != -1 else len(readme)]
    # Both commands in one code block of the Tests section: the full one first.
    blocks = section.split("```")[1::2]
    block = next((b for b in blocks if QUICK in b), None)
    assert block is not None, "the Tests section has no code block with the quick command"
    full = [line for line in block.splitlines() if line.split("#")[0].strip() == "python -m pytest"]
    assert full, "the full command is not next to the quick one"
    assert block.index(full[0]) < block.index(QUICK)
    # It says what slow covers, and that CI runs everything.
    for word in ("slow", "fuzz", "soak", "memory", "crash", "build", "solver", "CI"):
        assert word in section, word
    # The newcomer's test command at the top stays the full one, and so does CI's.
    assert QUICK not in readme[:readme.find(TEST) + len(TEST)]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "not slow" not in ci and TEST in ci
    markers = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"slow:' in markers
