"""The catalogues keep to their glossaries (issue 28): docs/glossary-<lang>.md says, for
each English term, the one translation used; every msgid with the term as a word has a
msgstr with the translation's stem, except the entries the glossary lists (with why).

A term written with a capital (a button's or a screen's name: "Undo", "Play again") is
matched with its case, so the verb ("to play again") is not taken for the button; a term
in lower case is matched in any case, with an English plural ending (s, es). Placeholders
({level}) are not words of the text. Several stems separated by " / " are alternatives
(a word the language inflects beyond one stem: cs "deska, desce, desek").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from engine.core.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[3]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


Table = list[dict[str, str]]


def glossary_tables(lang: str, root: Path = ROOT) -> tuple[Table, Table]:
    """The glossary's terms (english, translation, stems, notes) and its exceptions
    (term, msgid: how the entry begins, why), read from the Markdown tables under the
    headings "## Terms" and "## Exceptions"."""
    text = (root / "docs" / f"glossary-{lang}.md").read_text(encoding="utf-8")
    tables: dict[str, list[list[str]]] = {}
    section = ""
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].strip().lower()
        elif line.startswith("|") and section:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if set("".join(cells)) <= set("-: "):
                continue
            tables.setdefault(section, []).append(cells)
    terms = [dict(zip(("english", "translation", "stems", "notes"), row, strict=False))
             for row in tables.get("terms", [])[1:]]
    exceptions = [dict(zip(("term", "msgid", "why"), row, strict=False))
                  for row in tables.get("exceptions", [])[1:]]
    return terms, exceptions


def _unquote(cell: str) -> str:
    return cell.strip().strip("`").strip()


def term_pattern(term: str) -> re.Pattern[str]:
    """The English term as a word (see the module notes on case and plurals)."""
    words = re.escape(term)
    if term[:1].isupper() or not term[:1].isalpha():
        return re.compile(r"(?<![\w-])" + words + r"(?![\w-])")
    return re.compile(r"(?<![\w-])" + words + r"(s|es)?(?![\w-])", re.IGNORECASE)


def drifted(lang: str, root: Path = ROOT) -> tuple[list[str], list[str]]:
    """The entries that use a term without its translation, and the listed exceptions no
    entry needs any more."""
    terms, exceptions = glossary_tables(lang, root)
    with open(root / "assets" / "locale" / lang / "LC_MESSAGES" / "arcade.po", "rb") as f:
        catalogue = read_po(f)
    excused = {(_unquote(e["term"]), _unquote(e["msgid"])) for e in exceptions}
    used: set[tuple[str, str]] = set()
    problems: list[str] = []
    for term in terms:
        english = _unquote(term["english"])
        stems = [_unquote(s).lower() for s in term["stems"].split(" / ")]
        pattern = term_pattern(english)
        for message in catalogue:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if not pattern.search(re.sub(r"\{[^}]*\}", "", " ".join(ids))):
                continue
            said = " ".join(strings).lower()
            if any(stem in said for stem in stems):
                continue
            key = next(((t, m) for t, m in excused if t == english and ids[0].startswith(m)),
                       None)
            if key is not None:
                used.add(key)
                continue
            problems.append(f"{english!r} → {term['translation']}: {ids[0][:70]!r} is "
                            f"{strings[0][:90]!r}")
    return problems, sorted(f"{t!r}: {m!r}" for t, m in excused - used)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_glossary_is_a_table_of_terms(lang: str) -> None:
    terms, exceptions = glossary_tables(lang)
    assert len(terms) >= 20, f"docs/glossary-{lang}.md has its table of terms"
    for term in terms:
        stems = [_unquote(s).lower() for s in term["stems"].split(" / ")]
        assert all(stems), term
        assert any(stem in term["translation"].lower() for stem in stems) or term.get(
            "notes"), f"{lang}: no stem of {term['english']} in its translation, nor a note"
    assert all(e.get("why") for e in exceptions), "every exception says why"
    assert f"glossary-{lang}.md" in (ROOT / "docs" / "translations.md").read_text(
        encoding="utf-8"), "docs/translations.md links the glossary"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalogue_keeps_to_its_glossary(lang: str) -> None:
    problems, unused = drifted(lang)
    assert not problems, (f"{lang}: a term's translation drifted from "
                          f"docs/glossary-{lang}.md:\n" + "\n".join(problems))
    assert not unused, f"{lang}: exceptions no entry needs now:\n" + "\n".join(unused)


def test_the_check_sees_a_drifted_term(tmp_path: Path) -> None:
    """A catalogue that says "Vissza" for Undo (the old Hungarian) is caught."""
    import shutil

    fake = tmp_path / "root"
    (fake / "docs").mkdir(parents=True)
    (fake / "assets/locale/hu/LC_MESSAGES").mkdir(parents=True)
    shutil.copy(ROOT / "docs/glossary-hu.md", fake / "docs/glossary-hu.md")
    (fake / "assets/locale/hu/LC_MESSAGES/arcade.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Undo"\nmsgstr "Vissza"\n', encoding="utf-8")
    problems, _unused = drifted("hu", fake)
    assert any("'Undo'" in p for p in problems), problems


def test_hungarian_articles_are_resolved() -> None:
    """No "a(z)" is left for the reader to resolve: the article is chosen by the word, or
    the sentence is built so that none is needed before a value filled in at runtime."""
    text = (ROOT / "assets/locale/hu/LC_MESSAGES/arcade.po").read_text(encoding="utf-8")
    msgstrs = re.findall(r'^msgstr(?:\[\d\])? (".*"(?:\n".*")*)', text, re.MULTILINE)
    left = [s[:80] for s in msgstrs if "a(z)" in s.lower()]
    assert not left, left


def test_no_plural_is_made_by_hand() -> None:
    """No English text counts with "(s)": a count that changes the words is ngettext (or an
    Nn_ pair in a Phrase), so Hungarian and Czech write their own forms."""
    pot = (ROOT / "assets/locale/arcade.pot").read_text(encoding="utf-8")
    assert not re.findall(r"\w\((s|es)\)", pot)


# The commands a player gives (buttons and their keys): each has its own word.
COMMANDS = ("Undo", "Redo", "← Back", "Restart", "New game", "Play again", "Swap sides",
            "View board", "Generate", "Show solution", "Solve", "Hint", "Close", "Cancel",
            "Done", "Quit", "Step", "Pause", "Resume", "Copy", "Enter code", "Place")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_command_has_its_own_word(lang: str) -> None:
    """Issue 28, item 6: Hungarian said "Vissza" for both ← Back and Undo. No two commands
    share a caption (arrows and case aside) in any language."""
    with open(ROOT / "assets" / "locale" / lang / "LC_MESSAGES" / "arcade.po", "rb") as f:
        catalogue = read_po(f)
    said: dict[str, str] = {}
    for command in COMMANDS:
        message = catalogue.get(command)
        assert message is not None and message.string, f"{lang}: {command!r} is translated"
        word = message.string.strip("←▸◂ ").lower()
        assert word not in said, f"{lang}: {command!r} and {said[word]!r} both say {word!r}"
        said[word] = command
