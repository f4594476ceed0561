"""Games' modules load in the background once the launcher is drawn
(engine.model.registry.prefetch)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from engine.model.descriptor import GameDescriptor
from engine.model.registry import prefetch


@pytest.fixture
def modules_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in ("prefetch_scene_mod", "prefetch_cli_mod", "prefetch_broken_mod"):
        sys.modules.pop(name, None)


def test_modules_are_imported_only_after_ready(modules_dir: Path) -> None:
    (modules_dir / "prefetch_scene_mod.py").write_text("class Scene: pass\n")
    (modules_dir / "prefetch_cli_mod.py").write_text("VALUE = 1\n")
    # A broken module is skipped without stopping the others.
    (modules_dir / "prefetch_broken_mod.py").write_text("raise RuntimeError('broken')\n")
    broken = GameDescriptor("b", "B", "", preview="prefetch_broken_mod:draw",
                            scene="prefetch_broken_mod:Scene")
    family = GameDescriptor("x", "X", "", preview="prefetch_cli_mod:draw",
                            scene="prefetch_scene_mod:Scene", cli="prefetch_cli_mod")
    go = threading.Event()
    thread = prefetch((broken, family), go.is_set, poll_seconds=0.001)
    thread.join(0.05)
    assert thread.is_alive()
    assert "prefetch_scene_mod" not in sys.modules, "imported before the first frame"
    go.set()
    thread.join(5)
    assert not thread.is_alive()
    assert "prefetch_scene_mod" in sys.modules and "prefetch_cli_mod" in sys.modules
    assert "prefetch_broken_mod" not in sys.modules
