"""Translations (issue 15, item 3): complete Hungarian and Czech catalogues, compiled and
extracted up to date, fonts that can draw them, no user-visible literal outside them, and
the language setting (system by default, chosen on the settings screen, validated).

The screens themselves are rendered in every language in tests/engine/screens/test_i18n_screens.py.
"""

from __future__ import annotations

import ast
import gettext
import io
import json
import re
from pathlib import Path

import pygame
import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from engine.core import i18n
from engine.core.i18n import N_, _, ngettext, set_language, system_language, translate_filled
from engine.storage.settings import LANGUAGES, SettingsStore

ROOT = Path(__file__).resolve().parents[3]
LOCALE = ROOT / "assets" / "locale"
TRANSLATED = ("hu", "cs")
FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
PLACEHOLDER = re.compile(r"{\w*}")


@pytest.fixture(autouse=True)
def _english_afterwards():
    """Each test leaves the process speaking English, as the other tests expect."""
    yield
    set_language("en")


def catalogue(lang: str):
    """The .po source of ``lang``."""
    with open(LOCALE / lang / "LC_MESSAGES" / "arcade.po", "rb") as handle:
        return read_po(handle, locale=lang)


def template():
    """The extracted template, assets/locale/arcade.pot."""
    with open(LOCALE / "arcade.pot", "rb") as handle:
        return read_po(handle)


def msgids(cat) -> set[object]:
    return {message.id for message in cat if message.id}


def strings(message) -> list[str]:
    """A message's translation(s): one, or one per plural form."""
    value = message.string
    return list(value) if isinstance(value, tuple | list) else [value]


def source_strings(message) -> list[str]:
    return list(message.id) if isinstance(message.id, tuple | list) else [message.id]


# --- the catalogues ---------------------------------------------------------------------
@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(lang: str) -> None:
    cat = catalogue(lang)
    assert not cat.fuzzy, f"{lang}: the catalogue's header is marked fuzzy"
    problems = []
    for message in cat:
        if not message.id:
            continue
        forms = strings(message)
        if not all(form.strip() for form in forms):
            problems.append(f"untranslated: {message.id!r}")
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        if isinstance(message.id, tuple | list) and len(forms) != cat.num_plurals:
            problems.append(f"{len(forms)} plural forms, not {cat.num_plurals}: {message.id!r}")
    obsolete = list(cat.obsolete)
    assert not obsolete, f"{lang}: obsolete entries left: {obsolete[:5]}"
    assert not problems, f"{lang}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_every_placeholder(lang: str) -> None:
    problems = []
    for message in catalogue(lang):
        if not message.id:
            continue
        wanted = {tuple(sorted(set(PLACEHOLDER.findall(s)))) for s in source_strings(message)}
        for form in strings(message):
            found = tuple(sorted(set(PLACEHOLDER.findall(form))))
            # A plural form may leave the count out (Hungarian has one form for all).
            if found not in wanted and tuple(p for p in found if p != "{count}") not in {
                    tuple(p for p in w if p != "{count}") for w in wanted}:
                problems.append(f"{message.id!r}: {form!r}")
    assert not problems, f"{lang}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogue_is_up_to_date(lang: str) -> None:
    """The committed .mo says exactly what compiling the .po now says."""
    buffer = io.BytesIO()
    write_mo(buffer, catalogue(lang))
    buffer.seek(0)
    fresh = gettext.GNUTranslations(buffer)
    with open(LOCALE / lang / "LC_MESSAGES" / "arcade.mo", "rb") as handle:
        committed = gettext.GNUTranslations(handle)
    assert committed._catalog == fresh._catalog, (  # type: ignore[attr-defined]
        f"{lang}: run pybabel compile -d assets/locale -D arcade (see docs/translations.md)")


def test_the_template_is_up_to_date_and_every_catalogue_follows_it() -> None:
    """Extracting the sources now gives the template's msgids (nobody forgot to re-extract),
    and every catalogue holds exactly those (nobody forgot to update)."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    keywords = {**DEFAULT_KEYWORDS, "N_": None, "Nn_": (1, 2)}
    extracted = {message if isinstance(message, str) else tuple(message)
                 for _file, _line, message, _comments, _context in
                 extract_from_dir(str(ROOT), method_map, options_map, keywords)}
    pot = msgids(template())
    assert extracted - pot == set(), (
        "not in arcade.pot: run pybabel extract (see docs/translations.md)")
    assert pot - extracted == set(), "no longer in the sources: run pybabel extract"
    for lang in TRANSLATED:
        assert msgids(catalogue(lang)) == pot, (
            f"{lang}: run pybabel update (see docs/translations.md)")


@pytest.mark.parametrize("font_name", FONTS)
def test_the_bundled_fonts_draw_every_character_of_every_translation(font_name: str) -> None:
    pygame.font.init()
    font = pygame.font.Font(str(ROOT / "assets" / "fonts" / font_name), 16)
    missing: dict[str, str] = {}
    for lang in TRANSLATED:
        for message in catalogue(lang):
            for text in [*strings(message), *source_strings(message)] if message.id else []:
                for char in set(text) - {"\n"}:
                    if font.metrics(char)[0] is None:
                        missing[char] = text
    assert not missing, f"{font_name} lacks {sorted(missing)}: e.g. in {missing}"


# --- looking up --------------------------------------------------------------------------
def test_lookups_in_each_language() -> None:
    assert set_language("hu") == "hu"
    assert _("Settings") == "Beállítások"
    assert _("Player {number}").format(number=2) == "2. játékos"
    assert set_language("cs") == "cs"
    assert _("Settings") == "Nastavení"
    assert [ngettext("{count} press", "{count} presses", n).format(count=n)
            for n in (1, 3, 5)] == ["1 stisk", "3 stisky", "5 stisků"]
    said = translate_filled("stops them making four", ["stops them making {four}"])
    assert said == "nedovolí jim vytvořit řadu čtyř"
    assert set_language("en") == "en"
    assert _("Settings") == "Settings" and N_("Settings") == "Settings"
    assert _("") == "", "the empty string is not the catalogue's header"
    assert _("text with no translation") == "text with no translation"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_each_language_writes_numbers_with_its_own_symbols(lang: str) -> None:
    """The decimal mark and thousands separator are the CLDR's (Babel's copy), and every
    way a number reaches the screen uses them: number_text, and a Number inside a Phrase
    made in English before the language was known, which stays English as text."""
    from babel.numbers import format_decimal, get_decimal_symbol, get_group_symbol

    from engine.core.i18n import NUMBER_SYMBOLS, localize, number_text
    from engine.core.phrase import Number, Phrase
    from engine.storage.settings import size_text

    assert NUMBER_SYMBOLS[lang] == (get_decimal_symbol(lang), get_group_symbol(lang))
    late = Phrase(N_("the {limit} s time limit was reached"), limit=Number(2.5))
    size = size_text(4300)
    assert late == "the 2.5 s time limit was reached" and size == "4.2 KB"
    set_language(lang)
    for value, decimals, pattern in ((2.5, None, "#,##0.###"), (1234567, None, "#,##0"),
                                     (1234.25, 1, "#,##0.0"), (3.0, 0, "#,##0")):
        assert number_text(value, decimals) == format_decimal(value, pattern, locale=lang)
    assert number_text(2.0) == "2" and number_text(0.25) == format_decimal(0.25, locale=lang)
    point = get_decimal_symbol(lang)
    assert localize(late) == _("the {limit} s time limit was reached").format(
        limit=f"2{point}5")
    assert localize(size) == _("{size} KB").format(size=f"4{point}2")
    assert late == "the 2.5 s time limit was reached", "the text itself stays English"


def test_a_filled_text_is_read_with_the_template_that_says_most() -> None:
    """"stops them making a fork" is a template itself, and "stops them making {four}"
    with "a fork" (and "stops them making an open three" is "stops them making an open
    {three}", and the same with "an open three"): the template with the most words of its
    own is the one meant, so no English word is left in the translation."""
    from games.tictactoe.threats import REASONS

    set_language("hu")
    assert translate_filled("stops them making a fork", REASONS) == "villa építését gátolja"
    assert translate_filled("stops them making an open three", REASONS) == (
        "nyitott hármas építését gátolja")
    assert translate_filled("stops them making four", REASONS) == "négyes sor kirakását gátolja"
    assert translate_filled("stops their open three", REASONS) == "nyitott hármast gátol"
    set_language("cs")
    assert translate_filled("stops them making a fork", REASONS) == (
        "nedovolí jim vytvořit vidličku")
    set_language("en")
    assert translate_filled("stops them making a fork", REASONS) == "stops them making a fork"


def test_the_system_language_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "hu_HU.UTF-8")
    assert system_language() == "hu"
    monkeypatch.setenv("LANGUAGE", "de:cs_CZ")  # the first with a catalogue
    assert system_language() == "cs"
    monkeypatch.setenv("LANGUAGE", "")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    assert system_language() == "en"
    monkeypatch.delenv("LC_ALL")
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert system_language() == "en"
    assert set_language("system") == "en"
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    assert set_language("system") == "cs"
    assert set_language("klingon") == "cs", "an unknown choice means the system's language"


def test_a_missing_catalogue_falls_back_to_english(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    monkeypatch.setattr(i18n, "asset_path", lambda *parts: tmp_path / "nowhere")
    assert set_language("hu") == "en"
    assert _("Settings") == "Settings"


def test_the_language_setting_is_validated(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    store = SettingsStore(path)
    assert store.load() == [] and store.get("language") == "system"
    assert set(LANGUAGES) == {i18n.SYSTEM, *i18n.LANGUAGES}
    with pytest.raises(ValueError):
        store.set("language", "de")
    store.set("language", "cs")
    assert store.save() is None
    assert SettingsStore(path).load() == [] and json.loads(path.read_text())["language"] == "cs"
    data = json.loads(path.read_text())
    data["language"] = ["hu"]
    path.write_text(json.dumps(data))
    again = SettingsStore(path)
    warnings = again.load()
    assert again.get("language") == "system", "a bad value falls back to the default"
    assert any("language" in warning for warning in warnings)


def test_choosing_a_language_on_the_settings_screen(app, profile: Path) -> None:
    from engine.screens.settings_scene import SettingsOverlay

    app.top.open_settings()
    overlay = app.top
    assert isinstance(overlay, SettingsOverlay)
    assert [w.label for w in overlay.ui.widgets if getattr(w, "name", "").startswith(
        "Language")] == ["System", "English", "Magyar", "Čeština"]
    overlay.ui.find("Language hu").activate()
    app.step([])
    assert json.loads((profile / "settings.json").read_text())["language"] == "hu"
    assert overlay.ui.find("Close").label == "Bezárás"
    launcher_buttons = [w.label for w in app.scenes[0].ui.widgets if getattr(w, "name", "")
                        in ("Statistics", "Settings", "Quit")]
    assert launcher_buttons == ["Statisztika", "Beállítások", "Kilépés"]
    overlay.ui.find("Language en").activate()
    assert overlay.ui.find("Close").label == "Close"


# --- no user-visible literal outside the catalogues --------------------------------------
# Text-taking calls: the name called, and where its text goes (position, keyword).
TEXT_CALLS = {"Label": (1, "text"), "Button": (1, "label"), "Stepper": (None, "label"),
              "notify": (0, "message"), "render": (0, None), "draw_text_block": (1, "text"),
              "text": (0, None), "TextEntryDialog": (1, "prompt"),
              "ConfirmDialog": (1, "message"), "_draw_fitted": (1, None),
              "draw_pill": (2, None), "draw_value_legend": (None, "title")}
# Functions whose returned text is shown as it is.
TEXT_RETURNS = {"status_text", "busy_label", "turn_text", "card_tag", "_message",
                "_footer_text", "_page_text", "_palette_label", "_title", "cue_text",
                "heap_name", "player_name", "legend_texts", "seat_level_text", "level_text",
                "value_explained", "label", "variant_label", "_graph_label", "help_text",
                "goal", "left", "_summary", "_cut_message"}
# Literals that are not words: marks, symbols and numbers, the same in every language.
ALLOWED = {"X", "O", "T", "?", "i", "−", "+", "×", "✓", "=", "~", "n", "W n", "D", "L n"}
# The command line stays English (other tools parse it); --smoke's dialog is never a
# player's.
SCANNED = [path for folder in ("engine", "games") for path in (ROOT / folder).rglob("*.py")
           if path.name not in ("cli.py", "smoke.py")]


def _words(text: str) -> bool:
    return text not in ALLOWED and re.search(r"[^\W\d_]{2,}", text) is not None


def bare_literals(node: ast.AST) -> list[ast.AST]:
    """String literals with words in ``node`` that are shown as they are: a literal, an
    f-string, either side of ``+`` or of a conditional, a lambda's body. Text passed
    through ``_()``, ``N_()``, ``ngettext()`` or a function of its own is not looked into."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node] if _words(node.value) else []
    if isinstance(node, ast.JoinedStr):
        if any(isinstance(v, ast.Constant) and _words(str(v.value)) for v in node.values):
            return [node]
        return [n for v in node.values if isinstance(v, ast.FormattedValue)
                for n in bare_literals(v.value)]
    if isinstance(node, ast.BinOp):
        return bare_literals(node.left) + bare_literals(node.right)
    if isinstance(node, ast.IfExp):
        return bare_literals(node.body) + bare_literals(node.orelse)
    if isinstance(node, ast.Lambda):
        return bare_literals(node.body)
    if isinstance(node, ast.Tuple | ast.List):
        return [n for element in node.elts for n in bare_literals(element)]
    return []


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else (
        func.attr if isinstance(func, ast.Attribute) else None)


def scan(source: str, where: str) -> list[str]:
    """Where ``source`` shows a bare literal (see :func:`bare_literals`)."""
    found: list[str] = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        texts: list[ast.AST] = []
        if isinstance(node, ast.Call) and _called(node) in TEXT_CALLS:
            position, keyword = TEXT_CALLS[_called(node)]  # type: ignore[index]
            if position is not None and len(node.args) > position:
                texts.append(node.args[position])
            texts += [kw.value for kw in node.keywords if kw.arg == keyword]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
                and node.name in TEXT_RETURNS:
            texts += [n.value for n in ast.walk(node)
                      if isinstance(n, ast.Return) and n.value is not None]
        elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in ("help_title", "help_text", "title",
                                                      "new_game_label", "hint_label")
                or isinstance(t, ast.Attribute) and t.attr in ("help_title", "help_text",
                                                                "title", "error")
                for t in node.targets):
            texts.append(node.value)
        for literal in (n for text in texts for n in bare_literals(text)):
            found.append(f"{where}:{literal.lineno}: {ast.unparse(literal)[:70]}")
    return found


def test_no_user_visible_literal_is_left_outside_the_catalogues() -> None:
    problems = [p for path in SCANNED
                for p in scan(path.read_text(encoding="utf-8"),
                              str(path.relative_to(ROOT)))]
    assert not problems, "wrap these in _() or N_():\n" + "\n".join(problems)


@pytest.mark.parametrize("source", [
    'Label(rect, "Settings")',
    'Button(rect, label="Quit", on_click=f)',
    'app.notify(f"Saved {name}", "info")',
    'font.render("Best moves", True, colour)',
    'Button(rect, lambda: "Resume" if paused else "Pause", f)',
    'def status_text(self):\n    return "Draw: the board is full."',
    'class S:\n    help_text = "Some help."',
])
def test_the_scan_finds_a_bare_literal(source: str) -> None:
    assert scan(source, "example"), source


@pytest.mark.parametrize("source", [
    'Label(rect, N_("Settings"))',
    'Button(rect, "?", f)',
    'app.notify(_("Saved {name}").format(name=name), "info")',
    'font.render(str(rank), True, colour)',
    'Button(rect, "×", f)',
    'def status_text(self):\n    return _("Draw: the board is full.")',
])
def test_the_scan_passes_marked_text_and_symbols(source: str) -> None:
    assert not scan(source, "example"), source


# --- text made in English where no language is known, said in the player's --------------
# The stores' notices and the checks' error messages are made before a language is
# installed (the settings file says which) and the command line prints them in English;
# they are Phrases, marked with N_() and said in the player's language where shown.
STORAGE = sorted((ROOT / "engine" / "storage").glob("*.py"))
# Calls whose text becomes a notice or an error shown to the player.
MESSAGE_CALLS = {"ValueError", "CodeError", "Unusable", "_Unusable", "_SaveFailed",
                 "CannotRepair", "OSError", "_block", "_set_aside", "append", "Phrase",
                 "IllegalMove"}
# Keyword arguments that carry a shown message whatever the call (Found(problem=...)), and
# the attributes whose items are such messages (self._blocked[game_id] = ...).
MESSAGE_KEYWORDS = {"problem"}
MESSAGE_TARGETS = {"_blocked"}
# The saved games' checks (engine/storage/saved_data.py): what they check is their second argument,
# named in their messages ("heap 2: expected a whole number, ...").
CHECK_CALLS = {"fields", "items", "whole", "flag", "number", "text"}
# Functions whose messages the set-up's "⚠" line, a text-entry dialog or a saved game's
# notice (why it cannot be resumed: reading the file, the checks of its data, each game's
# restore, its move log's replay and the version-1 readers) shows, by file;
# "*" is every function of the file (the stores).
SHOWN_ERRORS = {
    **{str(path.relative_to(ROOT)): {"*"} for path in STORAGE},
    "engine/storage/saved_games.py": {"find", "_unreadable", "discard", "read_save",
                              "_refuse_constant", "resume"},
    "engine/storage/saved_data.py": {"fields", "items", "whole", "flag", "number", "text",
                             "move_from_data", "seat_from_data"},
    "engine/storage/saved_format.py": {"read_v1_position", "upgrade_v1"},
    "engine/midend/match.py": {"restore", "replay_log"},
    "engine/screens/turn_scene.py": {"restore"},
    "engine/midend/puzzle.py": {"restore"},
    "games/tictactoe/rules.py": {"load_state", "from_rows", "_check_one_winner"},
    "games/tictactoe/variants.py": {"validate_config", "decode"},
    "games/connect4/rules.py": {"__post_init__", "load_state", "play"},
    "games/connect4/params.py": {"decode"},
    "games/buttons/params.py": {"__post_init__", "decode"},
    "games/buttons/board.py": {"parse_code", "_parse_size", "_quote", "_describe_max",
                               "load_state"},
    "games/buttons/scene.py": {"restore_hints"},
    "engine/screens/puzzle_scene.py": {"restore", "restore_hints"},
    "games/grundy/heaps.py": {"load_state"},
    "games/grundy/board.py": {"load_state"},
    "games/grundy/graphs.py": {"load_state"},
    "games/grundy/variants.py": {"parse_heaps", "check_heaps", "__post_init__", "decode"},
    "games/grundy/setup_scene.py": {"_pebbles"},
    "games/buttons/fewest.py": {"search"},
    "games/buttons/fewest_bounds.py": {"describe"},
    "games/buttons/solver.py": {"_solve_rows"},
}
# Functions of the stores whose returned text is a notice.
NOTICE_RETURNS = {"save", "_could_not_save", "_take_in_current_file", "_changed_elsewhere",
                  "_spill_unsaved", "_record", "record_game", "record_puzzle", "size_text",
                  "_kind_of", "_unkeepable", "describe_sources", "_file_bytes", "rebuild",
                  "header_problem", "refuses_rows", "check", "rebuild_file"}
# Functions whose ValueError is a caller's mistake (a bad argument), never shown.
ARGUMENT_CHECKS = {"_require_text", "record_game", "record_puzzle", "check_game"}
# Phrase templates that are not words for a player: the state "rebuild:<why>" (only its
# why is shown).
INTERNAL_TEMPLATES = {"rebuild:{why}"}


def _message_literals(tree: ast.AST, functions: set[str]) -> list[ast.AST]:
    """Bare literals with words given to a message call (see MESSAGE_CALLS), as a message
    keyword or target, as what a saved game's check checks (CHECK_CALLS), or returned by a
    notice function, inside ``functions`` ("*": anywhere); a Phrase's template must be an
    N_()-marked literal."""
    found: list[ast.AST] = []
    scopes = [tree] if "*" in functions else [
        node for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name in functions]
    checks = {id(call) for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
              and node.name in ARGUMENT_CHECKS for call in ast.walk(node)
              if isinstance(call, ast.Call) and _called(call) == "ValueError"}
    for scope in scopes:
        for node in ast.walk(scope):
            texts: list[ast.AST] = []
            if id(node) in checks:
                continue
            if isinstance(node, ast.Call) and _called(node) in MESSAGE_CALLS:
                texts += [*node.args, *(kw.value for kw in node.keywords)]
                if _called(node) == "Phrase" and node.args:
                    template = node.args[0]
                    marked = isinstance(template, ast.Call) and _called(template) in (
                        "N_", "Nn_") or isinstance(template, ast.IfExp)
                    internal = isinstance(template, ast.Constant) and \
                        template.value in INTERNAL_TEMPLATES
                    if not (marked or internal):
                        found.append(template)
                    texts = texts[1:]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in CHECK_CALLS:
                texts += [*node.args[1:2], *(kw.value for kw in node.keywords
                                             if kw.arg == "what")]
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute)
                    and t.value.attr in MESSAGE_TARGETS for t in node.targets):
                texts.append(node.value)
            elif isinstance(node, ast.FunctionDef) and node.name in NOTICE_RETURNS:
                texts += [n.value for n in ast.walk(node)
                          if isinstance(n, ast.Return) and n.value is not None]
            if isinstance(node, ast.Call):
                texts += [kw.value for kw in node.keywords if kw.arg in MESSAGE_KEYWORDS]
                # A Phrase's count_key names one of its values (not words for a player).
                texts = [t for t in texts if not any(
                    kw.arg == "count_key" and kw.value is t for kw in node.keywords)]
            found += [n for text in texts for n in bare_literals(text)
                      if not (isinstance(n, ast.Constant) and n.value in INTERNAL_TEMPLATES)]
    return found


def _check_literals(where: str) -> list[str]:
    path = ROOT / where
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # "ok", "empty", "missing:<table>": states, not words; SQL and file names neither.
    allowed = {"ok", "empty", "rb", "wb"}
    return [f"{where}:{n.lineno}: {ast.unparse(n)[:70]}"
            for n in _message_literals(tree, SHOWN_ERRORS[where])
            if not (isinstance(n, ast.Constant) and (
                n.value in allowed or str(n.value).startswith(("missing:", "PRAGMA"))))
            and not (isinstance(n, ast.JoinedStr) and ast.unparse(n).startswith(
                ("f'missing:", 'f"missing:')))]


def test_no_notice_or_shown_error_is_left_outside_the_catalogues() -> None:
    """Every notice the stores make, every error the set-up or a text-entry dialog
    shows and every solving method the status line names is a Phrase (or an N_()-marked
    text), whatever the language at the time it was made."""
    problems = [p for where in SHOWN_ERRORS for p in _check_literals(where)]
    assert not problems, "make these Phrase(N_(...)) (see engine/core/phrase.py):\n" + \
        "\n".join(problems)


@pytest.mark.parametrize("source", [
    'raise ValueError(f"columns must be {low} to {high}")',
    'self.warnings.append(f"Statistics file {path} could not be used.")',
    'raise _SaveFailed("Settings were not saved.")',
    'x = Phrase("it is damaged: {why}", why=why)',
    'raise IllegalMove(f"column {move} is full")',
    'whole(value, f"heap {i + 1}", 0, 9)',
    'fields(data, "the position", ("heaps", "to_move"))',
    'raise ValueError(Phrase(N_("step {n}: {error}"), n=1, error=f"{exc} at step"))',
    'return Found(source="file", problem="it is not a file")',
    'self._blocked[game_id] = f"{path} could not be read"',
])
def test_the_message_scan_finds_a_bare_message(source: str) -> None:
    assert _message_literals(ast.parse(source), {"*"}), source


@pytest.mark.parametrize("source", [
    'raise ValueError(Phrase(N_("columns must be {low} to {high}"), low=1, high=2))',
    'self.warnings.append(Phrase(N_("Statistics file {path} could not be used."), path=p))',
    'raise ValueError(N_("The heap holds 1 to 1000 pebbles."))',
    'whole(value, Phrase(N_("heap {number}"), number=i + 1), 0, 9)',
    'fields(data, Phrase(N_("the position")), ("heaps", "to_move"))',
    'return Found(raw.decode("utf-8-sig"), "file")',
])
def test_the_message_scan_passes_phrases(source: str) -> None:
    assert not _message_literals(ast.parse(source), {"*"}), source


def test_a_phrase_is_english_text_said_in_the_players_language() -> None:
    from engine.core.i18n import localize
    from engine.core.phrase import Phrase, error_text, joined

    inner = Phrase(N_("it is a folder, not a file"))
    notice = Phrase(N_("Statistics file {path} could not be used ({reason}); it was kept as "
                       "{kept}; a new statistics file was started."),
                    path="/p/s.db", reason=inner, kept="/p/s.db.corrupt-1")
    english = ("Statistics file /p/s.db could not be used (it is a folder, not a file); it "
               "was kept as /p/s.db.corrupt-1; a new statistics file was started.")
    assert notice == english and str(notice) == english
    set_language("cs")
    assert notice == english, "the text itself stays English (the command line prints it)"
    said = localize(notice)
    assert said.startswith("Soubor statistik /p/s.db nelze použít (je to složka, ne soubor)")
    assert "/p/s.db.corrupt-1" in said, "data (a path) stays as it is"
    both = joined([notice, Phrase(N_("Settings were not saved: {reason}."), reason="No space")])
    assert both == english + " Settings were not saved: No space."
    assert localize(both).endswith(" Nastavení nebylo uloženo: No space.")
    assert localize(error_text(ValueError(inner))) == "je to složka, ne soubor"
    assert localize("Settings") == "Nastavení" and localize(None) is None


def test_the_command_lines_messages_stay_english_whatever_the_language() -> None:
    from games.buttons.board import CodeError, parse_code

    set_language("hu")
    with pytest.raises(CodeError) as raised:
        parse_code("5x4:1")
    assert str(raised.value) == "5x4 is not square: boards are n×n, such as 5x5"


def test_a_hungarian_set_up_shows_its_error_in_hungarian(app) -> None:
    from tests.support.screen_cases import open_game, press

    app.set_language("hu")
    open_game("tictactoe", "hvc")(app)
    press(pygame.K_s, "SetupOverlay")(app)
    overlay = app.top
    overlay.rows, overlay.cols, overlay.k, overlay.players = 5, 5, 3, 3
    overlay.start()
    assert overlay.error == "the three-player game is played on 4×4 with 3 in a row"
    assert overlay._message() == ("⚠ a háromszemélyes játék 4×4-es táblán, 3 egy sorban "
                                  "szabállyal megy")


def test_the_code_dialog_shows_its_error_in_czech(app, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.screens import overlays
    from tests.support.screen_cases import text_entry

    app.set_language("cs")
    text_entry(app)
    dialog = app.top
    drawn: list[str] = []
    real = overlays.draw_text_block
    monkeypatch.setattr(overlays, "draw_text_block",
                        lambda surface, text, *rest, **kw: drawn.append(text) or real(
                            surface, text, *rest, **kw))
    dialog._entry.set_text("5x4:1")
    dialog.submit()
    app.step([])
    assert "⚠ 5x4 není čtverec: desky jsou n×n, např. 5x5" in drawn


def test_a_storage_notice_is_shown_in_czech(profile: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A settings file that cannot be read: the notice, made before any language was
    installed (the file was to say which), is shown in the system's language."""
    from tests.conftest import make_app

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANGUAGE", "cs")
    profile.mkdir(parents=True, exist_ok=True)
    (profile / "settings.json").write_text("{not json", encoding="utf-8")
    app = make_app(profile)
    try:
        shown = [text for text in app.notices if "settings.json" in text]
        assert shown and shown[0].startswith("Soubor nastavení "), app.notices
        assert "byl nečitelný (neplatný JSON: " in shown[0]
        assert "platí výchozí hodnoty" in shown[0]
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


def test_a_counted_phrase_takes_each_languages_plural_forms() -> None:
    """Issue 28: a notice with a count is one ngettext entry (no "result(s)"): English
    takes the singular for 1, Czech its three forms, chosen where the notice is shown."""
    from engine.core.i18n import Phrase, localize
    from engine.core.phrase import Nn_
    from engine.storage.settings import size_text

    def results(n: int) -> Phrase:
        return Phrase(Nn_("{count} result of this session could not be saved to {path} nor "
                          "beside it ({reason}).",
                          "{count} results of this session could not be saved to {path} nor "
                          "beside it ({reason})."), count=n, path="p", reason="r")

    assert results(1).startswith("1 result of") and results(3).startswith("3 results of")
    assert "(s)" not in (ROOT / "assets/locale/arcade.pot").read_text(encoding="utf-8")
    try:
        set_language("cs")
        assert [localize(results(n)).split(" ")[1] for n in (1, 3, 5)] == [
            "výsledek", "výsledky", "výsledků"]
        assert [localize(size_text(n)) for n in (1, 2, 700)] == ["1 bajt", "2 bajty",
                                                                 "700 bajtů"]
    finally:
        set_language("en")
