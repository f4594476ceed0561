"""The screenshot command renders real screens (tools/screenshots.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

# Renders real screens in a child process (over ten seconds), so the quick run
# (python -m pytest -m "not slow") leaves it out; the full suite runs it.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]


def test_the_screenshot_command_renders_each_shot_at_its_size(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import screenshots
    finally:
        sys.path.remove(str(ROOT / "tools"))
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "screenshots.py"), "--out",
                          str(tmp_path), "launcher", "connect4-wide"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    for name in ("launcher", "connect4-wide"):
        path = tmp_path / f"{name}.png"
        assert str(path) in out.stdout
        image = pygame.image.load(str(path))
        assert image.get_size() == screenshots.SHOTS[name][0]
        # A real screen, not a blank one: many distinct colours.
        colours = {tuple(image.get_at((x, y)))
                   for x in range(0, image.get_width(), 7) for y in range(0, image.get_height(), 7)}
        assert len(colours) > 20, name
    # Only the shots asked for.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["connect4-wide.png", "launcher.png"]


def test_every_picture_in_docs_is_one_the_command_makes() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import screenshots
    finally:
        sys.path.remove(str(ROOT / "tools"))
    docs = {p.stem for p in (ROOT / "docs").glob("*.png")}
    assert docs == set(screenshots.SHOTS)
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    shown = {m for page in pages
             for m in re.findall(r"!\[[^\]]*\]\((?:docs/)?([\w-]+)\.png\)",
                                 page.read_text(encoding="utf-8"))}
    assert {"launcher"} <= shown, "the README or a docs page shows the launcher"
