"""The documentation's generated parts are current, and its links lead somewhere.

``python tools/make_docs.py`` writes the blocks between its markers (``docs/cli.md`` from
``--help``, the benchmark tables from ``docs/results/*.json``, the family lists from the
registry); these tests fail when a block differs from what the tool writes now, when a
result file lacks what a table needs, and when a relative link in README.md, build/README.md
or ``docs/*.md`` names a missing file or heading. They do not read the prose.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import make_docs  # noqa: E402

sys.path.remove(str(ROOT / "tools"))

from tests.benchmarks import figures  # noqa: E402

LINKED = [ROOT / "README.md", ROOT / "build" / "README.md",
          *sorted((ROOT / "docs").glob("*.md"))]
RESULT_FILES = sorted(make_docs.RESULTS.glob("*.json"))


# --- generated blocks ----------------------------------------------------------------------


@pytest.mark.parametrize("doc", make_docs.documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_generated_block_is_current(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    _, stale = make_docs.regenerate(text, doc)
    assert not stale, f"{doc.relative_to(ROOT)}: {stale} stale: run python tools/make_docs.py"


def test_the_pages_that_need_generated_blocks_have_them() -> None:
    keys = {(doc.relative_to(ROOT).as_posix(), match["key"].split()[0])
            for doc in make_docs.documents()
            for match in make_docs.BLOCK.finditer(doc.read_text(encoding="utf-8"))}
    assert ("docs/cli.md", "cli") in keys
    assert ("docs/performance.md", "table") in keys
    assert ("build/README.md", "families") in keys
    assert (".github/workflows/release.yml", "family-options") in keys


def test_check_names_a_stale_block_and_regenerate_mends_it(tmp_path: Path) -> None:
    doc = ROOT / "docs" / "performance.md"
    text = doc.read_text(encoding="utf-8")
    broken = text.replace("| 5×5 | draw |", "| 5×5 | first player wins |", 1)
    assert broken != text
    mended, stale = make_docs.regenerate(broken, doc)
    assert stale == ["table bench_k4:boards"]
    assert mended == text


def test_the_cli_page_holds_every_commands_help() -> None:
    from engine.runtime import cli

    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for path, _parser in make_docs._parsers(cli.build_parser()):
        assert f"### `{' '.join((cli.PROG, *path))} --help`" in page, path


# --- result files and the tables made from them ---------------------------------------------


@pytest.mark.parametrize("path", RESULT_FILES, ids=lambda p: p.name)
def test_result_file_schema(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["benchmark"] == path.stem
    assert isinstance(data["source"], str) and data["source"]
    assert data["tables"]
    for name, table in data["tables"].items():
        assert set(table) == {"date", "machine", "command", "columns", "rows"}, name
        assert table["date"] and table["machine"], name
        assert table["command"] is None or table["command"].startswith("python "), name
        assert all(len(row) == len(table["columns"]) for row in table["rows"]), name


def _generated_tables() -> list[tuple[Path, str, list[list[str]]]]:
    """(document, key, rows as shown) of every generated results table."""
    found = []
    for doc in make_docs.documents():
        for match in make_docs.BLOCK.finditer(doc.read_text(encoding="utf-8")):
            if match["key"].startswith("table "):
                rows = [[cell.strip() for cell in line.strip()[1:-1].split("|")]
                        for line in match["body"].splitlines() if line.startswith("|")]
                found.append((doc, match["key"], rows))
    return found


def test_the_tables_shown_are_the_result_files_figures() -> None:
    shown = set()
    for doc, key, rows in _generated_tables():
        want: list[list[str]] = []
        for part in key.split()[1:]:
            name, _, table = part.partition(":")
            data = json.loads((make_docs.RESULTS / f"{name}.json").read_text(encoding="utf-8"))
            if not want:
                want.append(data["tables"][table]["columns"])
            want += data["tables"][table]["rows"]
            shown.add(part)
        assert [rows[0], *rows[2:]] == want, f"{doc.relative_to(ROOT)} ({key})"
    every = {f"{p.stem}:{t}" for p in RESULT_FILES
             for t in json.loads(p.read_text(encoding="utf-8"))["tables"]}
    assert every == shown, "every result table is shown once somewhere"


def test_a_benchmark_writes_a_result_file_from_the_tables_it_prints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "bench.json"
    monkeypatch.setattr(sys, "argv", ["bench_demo.py", "--quick", "--json", str(out)])

    @figures.records("boards")
    def main() -> int:
        print("| board | time |\n| --- | --- |\n| 5×5 | 0.5 s |\n\nnot a table\n")
        print("| a | b |\n|---|---|\n| 1 | 2 |")
        return 0

    assert main() == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert set(data["tables"]) == {"boards", "2"}
    boards = data["tables"]["boards"]
    assert boards["columns"] == ["board", "time"] and boards["rows"] == [["5×5", "0.5 s"]]
    assert boards["command"] == "python tests/benchmarks/test_docs_generated.py --quick"
    assert data["tables"]["2"]["rows"] == [["1", "2"]]


def test_an_update_replaces_only_the_tables_it_prints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``records(..., update=True)`` (e.g. bench_connect4.py --kernel --hints): the tables
    printed are replaced, the file's others kept with their own dates and commands."""
    out = tmp_path / "bench.json"
    monkeypatch.setattr(sys, "argv", ["bench_demo.py", "--json", str(out)])

    @figures.records("boards", "speed")
    def everything() -> int:
        print("| board | time |\n| --- | --- |\n| 5×5 | 0.5 s |\n")
        print("| a | b |\n|---|---|\n| 1 | 2 |")
        return 0

    assert everything() == 0
    kept = json.loads(out.read_text(encoding="utf-8"))["tables"]["speed"]
    monkeypatch.setattr(sys, "argv", ["bench_demo.py", "--hints", "--json", str(out)])

    @figures.records("boards", update=True)
    def boards_only() -> int:
        print("| board | time |\n| --- | --- |\n| 7×6 | 0.2 s |\n")
        return 0

    assert boards_only() == 0
    tables = json.loads(out.read_text(encoding="utf-8"))["tables"]
    assert tables["speed"] == kept
    assert tables["boards"]["rows"] == [["7×6", "0.2 s"]]
    assert tables["boards"]["command"].endswith("--hints")


# --- links ---------------------------------------------------------------------------------


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _without_code(text: str) -> str:
    """``text`` without fenced code blocks and inline code."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(doc: Path) -> set[str]:
    """Every anchor GitHub gives the headings of ``doc`` (repeats numbered -1, -2...)."""
    seen: dict[str, int] = {}
    found = set()
    text = re.sub(r"^```.*?^```", "", doc.read_text(encoding="utf-8"), flags=re.S | re.M)
    for match in re.finditer(r"^#{1,6} +(.+?) *#*$", text, flags=re.M):
        base = slug(match[1])
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(doc: Path) -> list[str]:
    """The relative link targets of ``doc`` (pictures included)."""
    targets = re.findall(r"\]\(([^)\s]+)\)", _without_code(doc.read_text(encoding="utf-8")))
    return [t for t in targets if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("doc", LINKED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_code_block_is_closed(doc: Path) -> None:
    fences = re.findall(r"^ *```", doc.read_text(encoding="utf-8"), flags=re.M)
    assert len(fences) % 2 == 0, f"{doc.relative_to(ROOT)}: a ``` fence is left open"


def test_slugs_are_githubs() -> None:
    assert slug("Computer levels: the ladder") == "computer-levels-the-ladder"
    assert slug("`arcade solve mnk --help`") == "arcade-solve-mnk---help"
    assert slug("One game family's own executable") == "one-game-familys-own-executable"


@pytest.mark.parametrize("doc", LINKED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(doc: Path) -> None:
    bad = []
    for target in links(doc):
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists():
            bad.append(f"{target}: no such file")
        elif anchor and (file.suffix != ".md" or anchor not in anchors(file)):
            bad.append(f"{target}: no such heading")
    assert not bad, f"{doc.relative_to(ROOT)}: {bad}"


def test_every_docs_page_is_reachable_from_the_readme() -> None:
    reached = {ROOT / "README.md"}
    todo = [ROOT / "README.md"]
    while todo:
        doc = todo.pop()
        for target in links(doc):
            file = (doc.parent / target.partition("#")[0]).resolve() if target[0] != "#" else doc
            if file.suffix == ".md" and file.exists() and file not in reached:
                reached.add(file)
                todo.append(file)
    pages = set((ROOT / "docs").glob("*.md"))
    assert pages <= reached, sorted(str(p.relative_to(ROOT)) for p in pages - reached)
