"""The import graph shows the architecture: no cycles, and each engine layer imports only
the layers below it (docs/architecture.md draws the same table).

Imports are read from the source with :mod:`ast` (nothing is imported), wherever they
stand: at the top, inside functions, and under ``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What each part of the engine may import, besides itself (run-time imports). Screens may
# also name the runtime's App in annotations (under TYPE_CHECKING): the app holds them.
LAYERS: dict[str, set[str]] = {
    "core": set(),
    "model": {"core"},
    "ai": {"core", "model"},
    "storage": {"core", "model"},
    "midend": {"core", "model", "ai", "storage"},
    "ui": {"core", "model"},
    "screens": {"core", "model", "ai", "storage", "midend", "ui"},
    "runtime": {"core", "model", "ai", "storage", "midend", "ui", "screens"},
}
ANNOTATION_ONLY = {("screens", "runtime")}


def _modules() -> dict[str, Path]:
    found = {}
    for top in ("engine", "games"):
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The module of ours that ``name`` (a module or a name in one) lives in."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def _imports(module: str) -> list[tuple[str, bool]]:
    """(module imported, only for annotations) for every import of ``module``."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = _type_checking_lines(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for target in targets:
            found = _resolve(target)
            # A package's __init__ is not an edge from its own modules (Python runs it first).
            if found and found != module and not module.startswith(found + "."):
                out.append((found, node.lineno in typing_only))
    return out


@functools.cache
def _graph() -> dict[str, list[tuple[str, bool]]]:
    """Every module's imports (read when a test first asks: not while collecting, which
    every worker process does)."""
    return {module: _imports(module) for module in MODULES}


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in edges:
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles_even_in_annotations() -> None:
    edges = {m: {target for target, _typing in _graph()[m]} for m in _graph()}
    assert _cycles(edges) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "engine" and len(parts) > 2 else None


def test_every_engine_module_is_in_a_layer() -> None:
    loose = [m for m in MODULES if m.startswith("engine.") and m.count(".") == 1]
    assert all(m.rsplit(".", 1)[1] in LAYERS for m in loose), loose
    modules = [m for m in MODULES if m.startswith("engine.") and m.count(".") > 1]
    assert {_layer(m) for m in modules} == set(LAYERS)


def test_each_engine_layer_imports_only_the_layers_below() -> None:
    wrong = []
    for module, imports in _graph().items():
        mine = _layer(module)
        if mine is None:
            continue
        for target, typing_only in imports:
            theirs = _layer(target)
            if theirs is None or theirs == mine or theirs in LAYERS[mine]:
                continue
            if typing_only and (mine, theirs) in ANNOTATION_ONLY:
                continue
            wrong.append(f"{module} -> {target}")
    assert wrong == []


def test_the_engine_never_imports_a_game() -> None:
    wrong = [f"{m} -> {t}" for m, imports in _graph().items() if m.startswith("engine")
             for t, _typing in imports if t.startswith("games")]
    assert wrong == []


def test_games_import_each_other_never() -> None:
    wrong = []
    for module, imports in _graph().items():
        if not module.startswith("games."):
            continue
        family = module.split(".")[1]
        wrong += [f"{module} -> {t}" for t, _typing in imports
                  if t.startswith("games.") and t.split(".")[1] != family]
    assert wrong == []
