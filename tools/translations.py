"""Keep the translations in step with the sources: one command for what README
"Translations" lists as three Babel commands, plus a report of what is left to translate.

    python tools/translations.py            # extract, update hu and cs, report, compile
    python tools/translations.py --check    # change nothing; exit 1 if anything is stale

Steps (the same Babel commands, run through Babel's own command-line front end):

1. extract every marked text into the template ``assets/locale/arcade.pot``
   (``pybabel extract -F babel.cfg -k N_ --no-location --sort-output …``);
2. update each language's ``arcade.po`` from it (``pybabel update … -N --ignore-obsolete
   -w 100``): new texts arrive empty, texts no longer in the sources are dropped;
3. report, per language, the texts still missing a translation or marked fuzzy (a new
   game's titles, blurbs and rules land here: translate them in the ``.po`` files);
4. compile each ``arcade.po`` to ``arcade.mo`` (``pybabel compile``), which the game and
   the executable read.

``--check`` (CI): the same steps on a copy; exit status 1 if the committed template,
catalogues or compiled files differ from what the steps make, or if any text is missing
or fuzzy, with a line saying which. Exit 0: everything is up to date.

Run it from anywhere; ``--root`` names another checkout (tests use a copy).
"""

from __future__ import annotations

import argparse
import gettext
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOMAIN = "arcade"
PROJECT = "Arcade of Strategy"


@dataclass
class Report:
    """What a run found: per language the msgids still untranslated and those fuzzy, and
    the files whose committed content is out of date (``--check``)."""

    missing: dict[str, list[str]] = field(default_factory=dict)
    fuzzy: dict[str, list[str]] = field(default_factory=dict)
    stale: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Nothing left to translate and nothing out of date."""
        return not self.stale and not any(self.missing.values()) \
            and not any(self.fuzzy.values())

    def lines(self) -> list[str]:
        """The report as lines for a person."""
        out = [f"out of date: {name}" for name in self.stale]
        for lang in sorted(set(self.missing) | set(self.fuzzy)):
            for kind, table in (("missing", self.missing), ("fuzzy", self.fuzzy)):
                for msgid in table.get(lang, ()):
                    out.append(f"{lang}: {kind}: {msgid}")
            count = len(self.missing.get(lang, ())) + len(self.fuzzy.get(lang, ()))
            out.append(f"{lang}: {count} to translate" if count else f"{lang}: complete")
        return out


def locale_dir(root: Path) -> Path:
    """Where the catalogues live under ``root``."""
    return root / "assets" / "locale"


def languages(root: Path) -> list[str]:
    """The languages with a catalogue (``assets/locale/<lang>/LC_MESSAGES/arcade.po``)."""
    return sorted(p.parent.parent.name
                  for p in locale_dir(root).glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def _pybabel(*args: str) -> None:
    """Run one ``pybabel`` command through Babel's own front end (quiet)."""
    from babel.messages.frontend import CommandLineInterface

    CommandLineInterface().run(["pybabel", "-q", *args])


def extract(root: Path, pot: Path) -> None:
    """Step 1: the template of every marked text under ``root``."""
    _pybabel("extract", "-F", str(root / "babel.cfg"), "-k", "N_", "-k", "Nn_:1,2",
             "--no-location",
             "--sort-output", "--project", PROJECT, "-o", str(pot), str(root))


def update(pot: Path, locale: Path) -> None:
    """Step 2: every catalogue under ``locale`` follows the template ``pot``."""
    _pybabel("update", "-i", str(pot), "-d", str(locale), "-D", DOMAIN, "-N",
             "--ignore-obsolete", "-w", "100")


def unfinished(locale: Path, lang: str) -> tuple[list[str], list[str]]:
    """Step 3: the msgids of ``lang`` still untranslated, and those marked fuzzy."""
    from babel.messages.pofile import read_po

    with open(locale / lang / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as handle:
        catalogue = read_po(handle, locale=lang)
    missing, fuzzy = [], []
    for message in catalogue:
        if not message.id:
            continue
        text = message.id if isinstance(message.id, str) else message.id[0]
        forms = message.string if isinstance(message.string, (tuple, list)) \
            else [message.string]
        if not all(form and form.strip() for form in forms):
            missing.append(text)
        elif message.fuzzy:
            fuzzy.append(text)
    return missing, fuzzy


def compile_all(locale: Path) -> None:
    """Step 4: every ``arcade.po`` compiled to ``arcade.mo`` (fuzzy entries left out)."""
    _pybabel("compile", "-d", str(locale), "-D", DOMAIN)


def _template_body(path: Path) -> list[str]:
    """A template's or catalogue's lines without the one that changes at every extraction
    (the template's date, which ``update`` copies into each catalogue)."""
    if not path.exists():
        return []
    return [line for line in path.read_text(encoding="utf-8").splitlines()
            if not line.startswith('"POT-Creation-Date:')]


def _mo_catalog(path: Path) -> dict[object, object] | None:
    """What a compiled catalogue says (its bytes also hold a date), or None if unreadable."""
    try:
        with open(path, "rb") as handle:
            catalog = dict(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]
    except (OSError, gettext.error):
        return None
    catalog.pop("", None)  # the header, with the template's date
    return catalog


def run(root: Path = ROOT, check: bool = False) -> Report:
    """The four steps on ``root`` (on a copy of its catalogues when ``check``)."""
    report = Report()
    real = locale_dir(root)
    with tempfile.TemporaryDirectory() as scratch:
        locale = Path(scratch) / "locale" if check else real
        if check:
            shutil.copytree(real, locale)
        pot = locale / f"{DOMAIN}.pot"
        extract(root, pot)
        update(pot, locale)
        for lang in languages(root):
            report.missing[lang], report.fuzzy[lang] = unfinished(locale, lang)
        compile_all(locale)
        if check:
            if _template_body(pot) != _template_body(real / pot.name):
                report.stale.append(str(real.relative_to(root) / pot.name))
            for lang in languages(root):
                for name in (f"{DOMAIN}.po", f"{DOMAIN}.mo"):
                    made = locale / lang / "LC_MESSAGES" / name
                    kept = real / lang / "LC_MESSAGES" / name
                    same = (_mo_catalog(made) == _mo_catalog(kept)) if name.endswith(".mo") \
                        else _template_body(made) == _template_body(kept)
                    if not same:
                        report.stale.append(str(kept.relative_to(root)))
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(
        prog="tools/translations.py",
        description="Extract the marked texts, update the hu and cs catalogues, report "
                    "what is missing or fuzzy, compile them.")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if anything is out of date or "
                             "untranslated")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    report = run(args.root.resolve(), check=args.check)
    for line in report.lines():
        print(line)
    if not report.ok:
        if not args.check:
            print("Translate the entries above in assets/locale/<lang>/LC_MESSAGES/arcade.po, "
                  "then run this again.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
