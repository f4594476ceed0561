"""tools/translations.py: one command that extracts, updates hu and cs, reports what is
missing or fuzzy and compiles; ``--check`` changes nothing and fails on anything stale.
Run on a small temporary project (its own babel.cfg, sources and catalogues)."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("translations_tool",
                                                  ROOT / "tools" / "translations.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module  # (its dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


tool = _tool()


def project(tmp_path: Path) -> Path:
    """A project with one marked text and empty hu and cs catalogues."""
    root = tmp_path / "project"
    (root / "engine").mkdir(parents=True)
    shutil.copy(ROOT / "babel.cfg", root / "babel.cfg")
    (root / "engine" / "words.py").write_text(
        'from engine.core.i18n import N_\n\nHELLO = N_("Hello")\n', encoding="utf-8")
    locale = root / "assets" / "locale"
    locale.mkdir(parents=True)
    tool.extract(root, locale / "arcade.pot")
    for lang in ("hu", "cs"):
        CommandLineInterface().run(["pybabel", "-q", "init", "-i", str(locale / "arcade.pot"),
                                    "-d", str(locale), "-D", "arcade", "-l", lang])
    return root


def translate(root: Path, lang: str, table: dict[str, str], fuzzy: bool = False) -> None:
    path = root / "assets" / "locale" / lang / "LC_MESSAGES" / "arcade.po"
    with open(path, "rb") as handle:
        catalogue = read_po(handle, locale=lang)
    for message in catalogue:
        if message.id in table:
            message.string = table[message.id]
            if fuzzy:
                message.flags.add("fuzzy")
    with open(path, "wb") as handle:
        write_po(handle, catalogue, width=100)


def test_a_new_text_is_reported_until_translated_then_compiled(tmp_path: Path) -> None:
    root = project(tmp_path)
    first = tool.run(root)
    assert first.missing == {"cs": ["Hello"], "hu": ["Hello"]} and not first.ok
    assert "hu: missing: Hello" in first.lines()
    translate(root, "hu", {"Hello": "Szia"})
    translate(root, "cs", {"Hello": "Ahoj"}, fuzzy=True)
    second = tool.run(root)
    assert second.missing == {"cs": [], "hu": []} and second.fuzzy == {"cs": ["Hello"], "hu": []}
    translate(root, "cs", {"Hello": "Ahoj"})
    path = root / "assets" / "locale" / "cs" / "LC_MESSAGES" / "arcade.po"
    path.write_text(path.read_text(encoding="utf-8").replace("#, fuzzy\n", ""),
                    encoding="utf-8")
    assert tool.run(root).ok
    assert tool.main(["--check", "--root", str(root)]) == 0
    mo = root / "assets" / "locale" / "hu" / "LC_MESSAGES" / "arcade.mo"
    assert tool._mo_catalog(mo) == {"Hello": "Szia"}


def test_check_changes_nothing_and_fails_on_a_stale_template(tmp_path: Path, capsys) -> None:
    root = project(tmp_path)
    translate(root, "hu", {"Hello": "Szia"})
    translate(root, "cs", {"Hello": "Ahoj"})
    tool.run(root)
    assert tool.run(root, check=True).ok
    (root / "engine" / "more.py").write_text(
        'from engine.core.i18n import _\n\ndef f():\n    return _("Goodbye")\n', encoding="utf-8")
    files = sorted((root / "assets").rglob("*"))
    before = {p: p.read_bytes() for p in files if p.is_file()}
    report = tool.run(root, check=True)
    assert {p: p.read_bytes() for p in files if p.is_file()} == before, "--check wrote files"
    assert "assets/locale/arcade.pot" in report.stale
    assert report.missing == {"cs": ["Goodbye"], "hu": ["Goodbye"]}
    assert tool.main(["--check", "--root", str(root)]) == 1
    assert "hu: missing: Goodbye" in capsys.readouterr().out


def test_the_repository_is_up_to_date() -> None:
    """What CI runs: every marked text extracted, translated in hu and cs, and compiled."""
    report = tool.run(ROOT, check=True)
    assert report.ok, "\n".join(report.lines())
