"""Fuzz: the settings file and the statistics database, damaged at scale.

Release requirement: with a truncated, random, mistyped, newer or otherwise
damaged settings file or statistics database the game starts, says what
happened once, keeps the player's file aside byte for byte, and never loses
a setting or a result that could still be read.

``ARCADE_FUZZ_COUNT`` (default 20000, shared with the other fuzz tests) sets
the scale: half of it in settings files (10,000 take about 10 s of CPU; the
full count would take over 20 s) and a fiftieth of it in statistics databases
(each case is real SQLite work). ``ARCADE_FUZZ_SEED`` (default 5) picks
another sequence. Every case draws from its own ``random.Random``, so the
seed and case number in a failure message are enough to rebuild the input.

Thousands of saves mean thousands of fsyncs, so the cases run in a folder on
tmpfs (/dev/shm) where there is one; elsewhere the counts are cut tenfold to
keep the suite fast.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import os
import random
import re
import shutil
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.storage import settings as settings_module
from engine.storage.settings import DEFAULTS, SettingsStore
from engine.storage.stats import GameSummary, PuzzleSummary, StatsStore
from engine.storage.stats_health import KNOWN_VERSIONS

# Fuzz: thousands of damaged settings files and databases take half a minute or more,
# so the quick run (python -m pytest -m "not slow") leaves it out; the full suite runs it.
pytestmark = pytest.mark.slow

COUNT = int(os.environ.get("ARCADE_FUZZ_COUNT", "20000"))
SEED = int(os.environ.get("ARCADE_FUZZ_SEED", "5"))
_TMPFS = Path("/dev/shm")
_FAST_DISK = _TMPFS.is_dir() and os.access(_TMPFS, os.W_OK)
SETTINGS_CASES = max(1, COUNT // 2) if _FAST_DISK else max(1, COUNT // 20)
STATS_CASES = max(1, COUNT // 50) if _FAST_DISK else max(1, COUNT // 500)

SIDE_SUFFIXES = ("-journal", "-wal", "-shm")


@pytest.fixture
def scratch(tmp_path: Path) -> Iterator[Path]:
    """An empty folder for the cases, on tmpfs when available (fsync is free there)."""
    if not _FAST_DISK:
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="arcade-fuzz-", dir=_TMPFS))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def aside_files(path: Path) -> list[Path]:
    """Files kept aside for ``path`` (``<name>.corrupt-*``), without SQLite side files."""
    prefix = path.name + ".corrupt-"
    return [path.parent / name for name in sorted(os.listdir(path.parent))
            if name.startswith(prefix) and not name.endswith(SIDE_SUFFIXES)]


def empty_folder(folder: Path) -> None:
    """Remove everything in ``folder`` (faster than a new folder per case)."""
    for entry in os.scandir(folder):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path)
        else:
            os.unlink(entry.path)


def assert_readable_messages(messages: object, where: str) -> None:
    """Each message is one short, printable, non-empty line, and none is repeated."""
    assert isinstance(messages, list), where
    assert len(messages) == len(set(messages)), f"{where}: repeated message {messages}"
    for message in messages:
        assert isinstance(message, str) and message.strip(), f"{where}: {message!r}"
        assert message.isprintable(), f"{where}: unprintable message {message!r}"
        assert len(message) <= 1000, f"{where}: {len(message)}-character message"


def case_rng(case: int) -> random.Random:
    return random.Random(f"{SEED}-{case}")


# =============================================================================
# Settings
# =============================================================================


class Raw(str):
    """JSON text to be written as it is (tokens Python cannot produce)."""


class Obj(list):
    """A JSON object as a list of (key, value) pairs, so keys can repeat."""


def to_json(node: Any, ascii_only: bool) -> str:
    """Serialise ``node`` (with Raw and Obj) to JSON text."""
    if isinstance(node, Raw):
        return str(node)
    if isinstance(node, Obj | dict):
        pairs = node if isinstance(node, Obj) else list(node.items())
        return "{" + ", ".join(f"{to_json(k, ascii_only)}: {to_json(v, ascii_only)}"
                               for k, v in pairs) + "}"
    if isinstance(node, list):
        return "[" + ", ".join(to_json(v, ascii_only) for v in node) + "]"
    return json.dumps(node, ensure_ascii=ascii_only)


TEXTS = ["", "human", "computer", "default", "colourblind", "hard", "easy", "queen", " ",
         "ünïcødé", "🙂", "\u202e", "\x00", "\u200b", "a" * 201, "line\nbreak", "\\", '"',
         "x" * 10_000, "Default", "COMPUTER"]
INTS = [0, 1, -1, 2, 319, 320, 7680, 7681, 1000, 1001, 10**6, 10**6 + 1, -(10**6) - 1,
        2**31, 2**63, -(2**63), 10**30]
FLOATS = [0.5, -0.0, 960.0, 1e308, 1e-300, 3.0]
RAW_TOKENS = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1E2", "-0", "0.0e0",
              '"\\ud800"', '"a\\udfff"', '"\\ud83d\\ude00"', '"\\u0000"', '"\\uFEFF"']
GAME_IDS = ["tictactoe", "grundy", "button-madness", "gomoku", "", "🙂", "x" * 300]


def deep(rng: random.Random) -> Raw:
    """A nested list or object; the depths straddle the store's limit for unknown keys
    and also exceed what the JSON parser takes (the range near Python's recursion
    limit, where the outcome depends on the stack, is avoided)."""
    depth = rng.choice([2, 20, 31, 32, 33, 40, 200, 5000, 100_000])
    if rng.random() < 0.5:
        return Raw("[" * depth + "]" * depth)
    return Raw('{"a": ' * depth + "1" + "}" * depth)


def random_value(rng: random.Random, level: int = 0) -> Any:
    """Any JSON value, biased towards what breaks settings."""
    kind = rng.randrange(16 if level < 3 else 9)
    if kind == 0:
        return rng.choice(TEXTS)
    if kind == 1:
        return rng.choice(INTS)
    if kind == 2:
        return rng.randint(-(10**9), 10**9)
    if kind == 3:
        return rng.choice(FLOATS)
    if kind == 4:
        return rng.random() < 0.5
    if kind == 5:
        return None
    if kind == 6:
        return Raw(rng.choice(RAW_TOKENS))
    if kind == 7:  # too long for Python's int() (4300 digits), or just within it
        return Raw(rng.choice(["", "-"]) + "9" * rng.choice([4300, 4301, 5000, 50_000]))
    if kind == 8:
        return Raw(json.dumps("".join(chr(rng.randrange(0x20, 0x3000))
                                      for _ in range(rng.randint(0, 30)))))
    if kind == 9:
        return [random_value(rng, level + 1) for _ in range(rng.randint(0, 4))]
    if kind == 10:
        return Obj((rng.choice(TEXTS[:8] + GAME_IDS), random_value(rng, level + 1))
                   for _ in range(rng.randint(0, 4)))
    if kind == 11:
        return deep(rng)
    if kind == 12:
        return [rng.choice(INTS), rng.choice(INTS)]
    if kind == 13:  # shaped like the nested settings, with any leaves
        return Obj((rng.choice(GAME_IDS), Obj((rng.choice(["X", "O", "1", "2", "rows", "k"]),
                                               random_value(rng, level + 2))
                                              for _ in range(rng.randint(0, 3))))
                   for _ in range(rng.randint(0, 3)))
    if kind == 14:
        return valid_value(rng, rng.choice(sorted(settings_module._VALIDATORS)))
    return "".join(chr(rng.randrange(0, 0x40)) for _ in range(rng.randint(1, 8)))


def valid_value(rng: random.Random, key: str) -> Any:
    """A value the store must accept for ``key``."""
    game = rng.choice(GAME_IDS[:4])
    if key == "palette":
        return rng.choice(["default", "colourblind"])
    if key == "window_size":
        return [rng.randint(320, 7680), rng.randint(320, 7680)]
    if key in ("show_hints", "sound", "reduce_motion"):
        return rng.random() < 0.5
    if key == "volume":
        return rng.randint(0, 100)
    if key == "cvc_speed":
        return rng.choice(["slow", "normal", "fast"])
    if key == "language":
        return rng.choice(["system", "en", "hu", "cs"])
    if key == "seats":
        return {game: {"X": rng.choice(["human", "computer"])}}
    if key == "ai_levels":
        return {game: {"O": rng.choice(TEXTS[:12])}}
    return {game: {"v": rng.choice([rng.randint(-(10**6), 10**6), "queen", "é" * 200])}}


def base_settings(folder: Path) -> tuple[bytes, dict[str, Any]]:
    """A valid file written by SettingsStore with non-default values almost everywhere."""
    path = folder / "settings.json"
    store = SettingsStore(path)
    assert store.load() == []
    store.set("palette", "colourblind")
    store.set("window_size", [1280, 800])
    store.set("show_hints", True)
    store.set("seats", {"tictactoe": {"X": "human", "O": "computer"},
                        "grundy": {"1": "computer", "2": "human"}})
    store.set("ai_levels", {"tictactoe": {"O": "hard"}, "grundy": {"1": "perfect"}})
    store.set("variants", {"grundy": {"game": "queen", "rows": 12},
                           "button-madness": {"size": 5, "name": "Ünïcode ♛"},
                           "gomoku": {"rows": 15, "cols": 15, "k": 5},
                           "tictactoe": {"rows": 3, "cols": 3, "k": 3}})
    store.set("sound", False)
    store.set("volume", 35)
    store.set("reduce_motion", True)
    store.set("cvc_speed", "fast")
    store.set("language", "cs")
    assert store.save() is None
    # A key from a "newer version", which must survive too.
    data = json.loads(path.read_text(encoding="utf-8"))
    data["future_option"] = {"nested": [1, 2.5, "x", None, True], "flag": False}
    path.write_text(json.dumps(data), encoding="utf-8")
    store = SettingsStore(path)
    assert store.load() == []
    path.unlink()
    assert store.save() is None
    raw = path.read_bytes()
    path.unlink()
    return raw, json.loads(raw)


def mutate_settings(rng: random.Random, raw: bytes, base: dict[str, Any]) -> tuple[str, bytes]:
    """One damaged settings file: ``(kind, bytes)``."""
    roll = rng.random()
    data = bytearray(raw)
    if roll < 0.08:
        return "truncated", raw[: rng.randrange(len(raw))]
    if roll < 0.16:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return "bits flipped", bytes(data)
    if roll < 0.22:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return "bytes replaced", bytes(data)
    if roll < 0.28:
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(len(data) + 1)
            data[pos:pos] = rng.randbytes(rng.randint(1, 16))
        return "bytes inserted", bytes(data)
    if roll < 0.32:
        start = rng.randrange(len(data))
        del data[start:start + rng.randint(1, 40)]
        return "bytes deleted", bytes(data)
    if roll < 0.35:
        return "random bytes", rng.randbytes(rng.choice([0, 1, 2, 10, 500, 5000]))
    if roll < 0.40:
        bad = [b"\xff", b"\xc3(", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80", b"\xe2\x82",
               b"\xc0\xaf", b"\xf4\x90\x80\x80"]
        for _ in range(rng.randint(1, 3)):
            pos = rng.randrange(len(data) + 1)
            data[pos:pos] = rng.choice(bad)
        return "invalid UTF-8", bytes(data)
    if roll < 0.44:
        bom = b"\xef\xbb\xbf"
        variants = [bom + raw, bom + bom + raw, raw[:1] + bom + raw[1:],
                    raw.decode().encode("utf-16"), raw.decode().encode("utf-32-le"),
                    b"  \n\t" + raw + b"\n\n", raw.replace(b"\n", b"\r\n")]
        return "encoding", rng.choice(variants)
    if roll < 0.48:
        top = rng.choice([random_value(rng), [], "", 0, None, Raw("1" * 5000), deep(rng),
                          Raw(""), Raw("   "), Raw("{}"), Raw('{"version": 1}')])
        return "whole document", to_json(top, rng.random() < 0.5).encode()
    return "structure", mutate_structure(rng, base)


def mutate_structure(rng: random.Random, base: dict[str, Any]) -> bytes:
    """Valid (or nearly valid) JSON with wrong types, odd values, repeated keys."""
    pairs = Obj(copy.deepcopy(list(base.items())))
    nested = ["seats", "ai_levels", "variants"]
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(9)
        if op == 0 and pairs:  # any top-level value
            i = rng.randrange(len(pairs))
            pairs[i] = (pairs[i][0], random_value(rng))
        elif op == 1:  # a leaf or an entry inside the nested settings
            for i, (key, value) in enumerate(pairs):
                if key in nested and isinstance(value, dict) and value and rng.random() < 0.5:
                    game = rng.choice(sorted(value))
                    inner = value[game]
                    if isinstance(inner, dict) and inner and rng.random() < 0.7:
                        inner[rng.choice(sorted(inner))] = random_value(rng)
                    else:
                        value[game] = random_value(rng)
                    pairs[i] = (key, value)
        elif op == 2 and pairs:
            del pairs[rng.randrange(len(pairs))]
        elif op == 3:  # an unknown key, maybe with an odd name
            name = rng.choice(["extra", "", "🙂", "\u0000", Raw('"\\udc00"'), "x" * 500,
                               "Palette", "palette ", "VERSION"])
            pairs.append((name, random_value(rng)))
        elif op == 4 and pairs:  # the same key twice
            key, value = rng.choice(pairs)
            pairs.insert(rng.randrange(len(pairs) + 1),
                         (key, rng.choice([value, random_value(rng)])))
        elif op == 5:
            version = rng.choice([1, 0, 2, -1, "1", True, 1.0, None, 10**30, Raw("9" * 5000)])
            pairs = Obj([p for p in pairs if p[0] != "version"] + [("version", version)])
        elif op == 6:
            key = rng.choice(sorted(settings_module._VALIDATORS))
            pairs = Obj([p for p in pairs if p[0] != key] + [(key, valid_value(rng, key))])
        elif op == 7:
            rng.shuffle(pairs)
        else:
            key = rng.choice(nested)
            pairs = Obj([p for p in pairs if p[0] != key] + [(key, random_value(rng))])
    return to_json(pairs, rng.random() < 0.5).encode("utf-8")


class Huge:
    """The oracle's stand-in for a JSON integer too long for int()."""


def parse_oracle(raw: bytes) -> tuple[object, list[str]] | None:
    """What the bytes are as JSON (value, repeated keys), or None if not JSON at all."""
    repeated: list[str] = []

    def make_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in pairs:
            if key in obj and key not in repeated:
                repeated.append(key)
            obj[key] = value
        return obj

    def parse_int(text: str) -> int | Huge:
        try:
            return int(text)
        except ValueError:
            return Huge()

    try:
        value = json.loads(raw.decode("utf-8-sig"), parse_int=parse_int,
                           object_pairs_hook=make_object)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None
    return value, repeated


def keepable(value: object) -> bool:
    """Whether an unknown key's value can be kept (not too deep, no huge number)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Huge):
            return False
        if isinstance(item, dict | list):
            if depth > settings_module.UNKNOWN_VALUE_MAX_DEPTH:
                return False
            stack.extend((child, depth + 1)
                         for child in (item.values() if isinstance(item, dict) else item))
    return True


def canonical(value: object) -> str:
    """Comparable text for a JSON value (NaN equals NaN here)."""
    return json.dumps(value, sort_keys=True)


# set() is the store's own validation; this store is never loaded or saved.
probe = SettingsStore(Path("never-written.json"))


def is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_settings_case(folder: Path, raw: bytes, where: str) -> str:
    """Load, check, save and reload one settings file; return how it was taken."""
    path = folder / "settings.json"
    path.write_bytes(raw)
    store = SettingsStore(path)
    messages = store.load()
    assert_readable_messages(messages, where)
    assert store.warnings == messages, where
    kept = aside_files(path)

    parsed = parse_oracle(raw)
    whole_file_rejected = (
        parsed is None
        or not isinstance(parsed[0], dict)
        or (is_whole(parsed[0].get("version")) and parsed[0]["version"] > 1)
    )
    if whole_file_rejected:
        outcome = "rejected"
        assert len(messages) == 1, f"{where}: {messages}"
        assert not path.exists(), f"{where}: the unusable file is still in place"
        assert len(kept) == 1 and kept[0].read_bytes() == raw, f"{where}: {kept}"
        assert str(kept[0]) in messages[0], where
        assert store.data == DEFAULTS, where
    else:
        loaded, repeated = parsed
        assert isinstance(loaded, dict)
        must_mention: list[str] = []  # keys each of which a message must name
        problem = bool(repeated)
        version = loaded.get("version", 1)
        if not (is_whole(version) and version == 1):
            must_mention.append("'version'")
        data = store.data
        for key, value in loaded.items():
            if key == "version":
                continue
            if key in settings_module._VALIDATORS:
                try:
                    probe.set(key, value)
                except ValueError:
                    # An unusable value: the default, and a message naming the key.
                    assert data[key] == DEFAULTS[key], f"{where}: {key}={data[key]!r}"
                    must_mention.append(f"'{key}'")
                else:  # a readable value is never lost
                    assert data[key] == probe.get(key), f"{where}: lost {key}={value!r}"
            elif keepable(value):
                assert key in data and canonical(data[key]) == canonical(value), \
                    f"{where}: lost unknown key {key!r}"
            else:
                assert key not in data, f"{where}: kept {key!r}"
                problem = True
        for key in DEFAULTS:
            if key not in loaded:
                assert data[key] == DEFAULTS[key], f"{where}: {key} not default"
        problem = problem or bool(must_mention)
        for name in must_mention:
            assert any(name in m for m in messages), f"{where}: {name} not in {messages}"
        # At most one message per problem: each bad key, repeated keys, an
        # unkeepable key, and the one saying where the original was kept.
        assert len(messages) <= len(loaded) + 2, f"{where}: {messages}"
        assert path.read_bytes() == raw, f"{where}: the file was changed by loading"
        if problem:
            outcome = "merged with problems"
            assert len(kept) == 1 and kept[0].read_bytes() == raw, f"{where}: {kept}"
            assert any(str(kept[0]) in m for m in messages), f"{where}: {messages}"
        else:
            outcome = "clean"
            assert messages == [] and kept == [], f"{where}: {messages} {kept}"

    # Whatever was loaded passes the store's own validation.
    for key in settings_module._VALIDATORS:
        probe.set(key, store.get(key))
    # Saving writes a file the next start reads without a word, and leaves the
    # kept copy alone.
    assert store.save() is None, where
    for copy_kept in kept:
        assert copy_kept.read_bytes() == raw, f"{where}: the kept copy changed on save"
    again = SettingsStore(path)
    assert again.load() == [], f"{where}: the saved file does not load cleanly"
    assert canonical(again.data) == canonical(data if not whole_file_rejected else DEFAULTS), \
        f"{where}: save lost something"
    assert aside_files(path) == kept, where
    return outcome


def test_settings_fuzz(scratch: Path) -> None:
    raw, base = base_settings(scratch)
    outcomes: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for case in range(SETTINGS_CASES):
        rng = case_rng(case)
        kind, mutated = mutate_settings(rng, raw, base)
        where = f"settings seed {SEED} case {case} ({kind}): {mutated[:120]!r}"
        empty_folder(scratch)
        try:
            outcomes[check_settings_case(scratch, mutated, where)] += 1
        except AssertionError:
            raise
        except Exception as exc:  # an unexpected exception is the bug itself
            raise AssertionError(f"{where}: {type(exc).__name__}: {exc}") from exc
        kinds[kind] += 1
    # The fuzz reaches every kind of damage and every outcome (at the default count).
    if SETTINGS_CASES >= 2000:
        assert len(kinds) == 10, kinds
        assert set(outcomes) == {"rejected", "merged with problems", "clean"}, outcomes


# =============================================================================
# Settings regressions found by the fuzz
# =============================================================================


def load_bytes(path: Path, raw: bytes) -> tuple[SettingsStore, list[str]]:
    path.write_bytes(raw)
    store = SettingsStore(path)
    return store, store.load()


def test_huge_integer_resets_only_its_key(tmp_path: Path) -> None:
    """Regression: a 5000-digit number made json.loads raise ValueError out of load()."""
    path = tmp_path / "settings.json"
    raw = b'{"version": 1, "palette": "colourblind", "window_size": ' + b"9" * 5000 + b"}"
    store, messages = load_bytes(path, raw)
    assert store.get("palette") == "colourblind"
    assert store.get("window_size") == DEFAULTS["window_size"]
    assert any("'window_size'" in m and "5000 digits" in m for m in messages)
    assert aside_files(path)[0].read_bytes() == raw
    assert store.save() is None and SettingsStore(path).load() == []


def test_unknown_key_with_huge_integer_is_left_out(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    raw = b'{"show_hints": true, "future": [' + b"1" * 4301 + b"]}"
    store, messages = load_bytes(path, raw)
    assert store.get("show_hints") is True
    assert "future" not in store.data
    assert len(messages) == 2 and "'future'" in messages[0]
    assert aside_files(path)[0].read_bytes() == raw


def test_deeply_nested_unknown_key_is_left_out(tmp_path: Path) -> None:
    """Regression: 900 levels parsed, then copy.deepcopy hit RecursionError in load()."""
    path = tmp_path / "settings.json"
    raw = b'{"palette": "colourblind", "future": ' + b"[" * 900 + b"]" * 900 + b"}"
    store, messages = load_bytes(path, raw)
    assert store.get("palette") == "colourblind"
    assert "future" not in store.data
    assert any("nested more than" in m for m in messages)
    assert aside_files(path)[0].read_bytes() == raw
    store.data  # noqa: B018 - copying the settings must work too
    assert store.save() is None


def test_lone_surrogate_round_trips(tmp_path: Path) -> None:
    """Regression: "\\ud800" loaded fine, then save() raised UnicodeEncodeError."""
    path = tmp_path / "settings.json"
    raw = b'{"ai_levels": {"tictactoe": {"O": "\\ud800"}}, "future\\udc00": "\\udfff x"}'
    store, messages = load_bytes(path, raw)
    assert messages == []
    assert store.save() is None
    again = SettingsStore(path)
    assert again.load() == []
    assert again.get("ai_levels") == {"tictactoe": {"O": "\ud800"}}
    assert again.data["future\udc00"] == "\udfff x"


def test_long_values_give_short_messages(tmp_path: Path) -> None:
    """Regression: a 100,000-character value was quoted whole in the warning."""
    path = tmp_path / "settings.json"
    raw = json.dumps({"palette": "x" * 100_000, "version": "y" * 100_000,
                      "seats": {"z" * 100_000: {"X": "robot"}}}).encode()
    _, messages = load_bytes(path, raw)
    assert len(messages) == 4
    assert_readable_messages(messages, "long values")
    assert all(len(m) < 400 for m in messages)


def test_repeated_keys_are_reported_once_and_the_file_kept(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    raw = b'{"palette": "default", "palette": "colourblind", "show_hints": true}'
    store, messages = load_bytes(path, raw)
    assert store.get("palette") == "colourblind"  # JSON: the last one counts
    assert store.get("show_hints") is True
    assert len(messages) == 2 and "repeats the key 'palette'" in messages[0]
    assert aside_files(path)[0].read_bytes() == raw
    assert path.read_bytes() == raw


def test_blocked_save_is_reported_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that could not be read is never written; saying so once is enough."""
    path = tmp_path / "settings.json"
    path.write_text('{"palette": "colourblind"}')

    def unreadable(path: Path) -> int:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(settings_module, "_open_for_reading", unreadable)
    store = SettingsStore(path)
    assert len(store.load()) == 1
    assert store.save() is not None
    assert store.save() is None and store.save() is None
    monkeypatch.undo()
    assert path.read_text() == '{"palette": "colourblind"}'


# =============================================================================
# Statistics
# =============================================================================

GAMES_COLUMNS = ("id", "played_at", "game", "variant", "mode", "opponent", "outcome")
PUZZLES_COLUMNS = ("id", "played_at", "game", "variant", "moves", "seconds", "helped")
TABLES = {"games": GAMES_COLUMNS, "puzzles": PUZZLES_COLUMNS}


def lenient(raw: bytes) -> str:
    """How the oracle reads text: never failing on bytes that are not UTF-8."""
    return raw.decode("utf-8", "replace").replace("\x00", "\ufffd")


def make_base_db(path: Path) -> bytes:
    """A genuine statistics database with varied games and puzzles; its bytes."""
    store = StatsStore(path)
    assert store.open() == []
    games = ["tictactoe", "gomoku", "connect4", "grundy", "ünïcode-game"]
    rng = random.Random(SEED)
    for i in range(150):
        assert store.record_game(rng.choice(games), f"{3 + i % 4}x{3 + i % 4}",
                                 rng.choice(["human-computer", "human-human", "computer-human"]),
                                 rng.choice(["", "easy", "hard", "perfect"]),
                                 rng.choice(["won", "lost", "drawn"])) is None
    for i in range(60):
        assert store.record_puzzle("button-madness", f"{3 + i % 5}x{3 + i % 5}", i % 23,
                                   rng.uniform(0, 500), rng.choice([False, True, 3])) is None
    store.close()
    return path.read_bytes()


def read_rows(conn: sqlite3.Connection) -> dict[str, list[tuple]]:
    """Every row of our two tables read straight from the tables (rowid first)."""
    rows = {}
    for table, columns in TABLES.items():
        rows[table] = conn.execute(
            f"SELECT rowid, {', '.join(columns[1:])} FROM {table} NOT INDEXED ORDER BY rowid"
        ).fetchall()
    return rows


def readable_records(path: Path, work: Path) -> dict[str, list[tuple]] | None:
    """The records a damaged file still yields, or None if it is not readable as ours.

    Readable means: statistics version 1, both our tables with our columns, and
    every row of both tables comes back from SQLite without an error. (It is
    read from a copy, so that the case's file is untouched.)
    """
    if not path.exists() or path.stat().st_size == 0:
        return None
    copy_path = work / "oracle.sqlite3"
    shutil.copyfile(path, copy_path)
    conn = sqlite3.connect(copy_path, isolation_level=None)
    conn.text_factory = lenient
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] not in KNOWN_VERSIONS:
            return None
        for table, columns in TABLES.items():
            found = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
            kind = conn.execute("SELECT type FROM sqlite_master WHERE name = ? COLLATE NOCASE",
                                (table,)).fetchone()
            if not set(columns) <= found or (kind is not None and kind[0] != "table"):
                return None
        return read_rows(conn)
    except (sqlite3.Error, UnicodeDecodeError):
        return None
    finally:
        conn.close()
        for leftover in work.glob("oracle.sqlite3*"):
            leftover.unlink()


def same_value(expected: object, actual: object) -> bool:
    """Equal, allowing the type change a copy into our schema makes (affinity)."""
    if expected == actual or (expected != expected and actual != actual):  # NaN
        return True
    try:
        return math.isclose(float(expected), float(actual))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False


def missing_rows(expected: list[tuple], actual: list[tuple]) -> list[tuple]:
    """Expected rows (matched by rowid) that are absent or changed in ``actual``."""
    by_id = {row[0]: row for row in actual}
    return [row for row in expected
            if row[0] not in by_id
            or not all(same_value(a, b) for a, b in zip(row, by_id[row[0]], strict=True))]


def store_rows(store: StatsStore) -> dict[str, list[tuple]]:
    conn = store._conn  # the open connection, on disk or in memory
    assert conn is not None
    rows = read_rows(conn)
    assert rows is not None
    return rows


def check_store_works(store: StatsStore, where: str) -> None:
    """Recording and every summary work, with the types the screens expect."""
    before = len(store.warnings)
    assert store.record_game("fuzz-game", "1x1", "human-human", "", "drawn") is None, where
    assert store.record_puzzle("fuzz-puzzle", "1x1", 1, 0.5, False) is None, where
    totals = store.totals_by_game()
    assert totals["fuzz-game"][0] >= 1, where
    assert all(isinstance(g, str) and all(isinstance(n, int) for n in t)
               for g, t in totals.items()), f"{where}: {totals}"
    for row in store.game_summary():
        assert isinstance(row, GameSummary)
        assert all(isinstance(getattr(row, f), str) for f in ("game", "variant", "mode",
                                                               "opponent")), f"{where}: {row}"
        assert all(isinstance(getattr(row, f), int) for f in ("played", "won", "lost",
                                                               "drawn")), f"{where}: {row}"
    for puzzle in store.puzzle_summary():
        assert isinstance(puzzle, PuzzleSummary)
        assert isinstance(puzzle.game, str) and isinstance(puzzle.variant, str), where
        assert isinstance(puzzle.solved, int) and isinstance(puzzle.helped, int), where
        assert puzzle.best_moves is None or isinstance(puzzle.best_moves, int), where
        assert puzzle.best_seconds is None or isinstance(puzzle.best_seconds, float), where
        f"{puzzle.best_seconds or 0:.0f}"  # what the Button Madness screen does
    assert store.best_puzzle("fuzz-puzzle", "1x1") == (1, 0.5), where
    assert store.warnings[before:] == [], f"{where}: read errors {store.warnings[before:]}"


def check_stats_case(folder: Path, work: Path, raw: bytes | None, where: str) -> str:
    """Open one damaged database and check the requirement; return what happened."""
    path = folder / "statistics.sqlite3"
    if raw is None:
        raw = path.read_bytes()  # already written (structural cases)
    else:
        path.write_bytes(raw)
    expected = readable_records(path, work)

    store = StatsStore(path)
    messages = store.open()
    try:
        assert_readable_messages(messages, where)
        assert store.warnings == messages, where
        assert len(messages) <= 2, f"{where}: {messages}"
        # The folder is writable: whatever was wrong with the file, the game
        # goes on saving results.
        assert store.persistent, f"{where}: not saving to disk: {messages}"
        kept = aside_files(path)
        assert len(kept) <= 1, f"{where}: {kept}"
        if kept:
            assert kept[0].read_bytes() == raw, f"{where}: the kept copy differs"
            assert any(str(kept[0]) in m for m in messages), f"{where}: {messages}"
        else:
            assert not any("kept as" in m for m in messages), where
        if messages:
            assert messages and str(path) in messages[0], where

        if expected is not None:
            # Nothing readable is lost; rows our schema refuses are counted.
            actual = store_rows(store)
            left_out = re.search(r"\((\d+) with invalid values (?:was|were) left out\)",
                                 " ".join(messages))
            lost = sum(len(missing_rows(expected[t], actual[t])) for t in TABLES)
            allowed = int(left_out.group(1)) if left_out else 0
            assert lost == allowed, f"{where}: {lost} readable records lost: {messages}"
        check_store_works(store, where)
    finally:
        store.close()

    if kept:
        outcome = "rebuilt" if "new file was made" in messages[-1] else "kept aside, new file"
    else:
        outcome = "repaired in place" if messages else "used as it was"
    # The next start says nothing more, and keeps what this one recorded.
    again = StatsStore(path)
    try:
        assert again.open() == [], f"{where}: the problem is reported again"
        assert again.totals_by_game()["fuzz-game"][0] >= 1, where
        if expected is not None:
            actual = store_rows(again)
            lost = sum(len(missing_rows(expected[t], actual[t])) for t in TABLES)
            assert lost == allowed, f"{where}: records lost between starts"
    finally:
        again.close()
    assert aside_files(path) == kept, f"{where}: more files kept aside on the second start"
    return outcome


def mutate_stats_bytes(rng: random.Random, raw: bytes) -> tuple[str, bytes]:
    """A byte-level damage of a good database: ``(kind, bytes)``."""
    data = bytearray(raw)
    page = int.from_bytes(raw[16:18], "big")
    pages = len(raw) // page
    roll = rng.random()
    if roll < 0.15:
        return "truncated", raw[: rng.randrange(len(raw))]
    if roll < 0.2:
        return "truncated at a page", raw[: page * rng.randrange(pages)]
    if roll < 0.35:
        for _ in range(rng.randint(1, 3)):
            data[rng.randrange(100)] ^= 1 << rng.randrange(8)
        return "header bits flipped", bytes(data)
    if roll < 0.6:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(100, len(data))] ^= 1 << rng.randrange(8)
        return "body bits flipped", bytes(data)
    if roll < 0.7:
        start = rng.randrange(len(data))
        size = rng.randint(1, 64)
        data[start:start + size] = rng.randbytes(size)
        return "bytes replaced", bytes(data[: len(raw)])
    if roll < 0.75:
        n = rng.randrange(pages)
        data[n * page:(n + 1) * page] = bytes(page)
        return "page zeroed", bytes(data)
    if roll < 0.8:
        a, b = rng.randrange(pages), rng.randrange(pages)
        pa, pb = raw[a * page:(a + 1) * page], raw[b * page:(b + 1) * page]
        data[a * page:(a + 1) * page], data[b * page:(b + 1) * page] = pb, pa
        return "pages swapped", bytes(data)
    if roll < 0.85:
        return "garbage appended", raw + rng.randbytes(rng.randint(1, 3 * page))
    if roll < 0.9:
        body = rng.randbytes(rng.choice([0, 1, 15, 100, 4096, 20_000]))
        return "random bytes", rng.choice([body, b"SQLite format 3\x00" + body])
    if roll < 0.95:
        return "zero-length", b""
    return "random page-sized bytes with a valid first page", raw[:page] + rng.randbytes(page * 3)


def structural_case(rng: random.Random, path: Path, base: bytes) -> str:
    """Write a database that is sound SQLite but odd as statistics; return its kind."""
    path.write_bytes(base)
    conn = sqlite3.connect(path, isolation_level=None)
    kinds = []
    try:
        for _ in range(rng.randint(1, 2)):
            kind = rng.choice(STRUCTURAL)
            kinds.append(kind.__name__)
            with contextlib.suppress(sqlite3.Error):  # e.g. the table was dropped first
                kind(rng, conn)
    finally:
        conn.close()
    return "+".join(kinds)


def newer_version(rng: random.Random, conn: sqlite3.Connection) -> None:
    conn.execute(f"PRAGMA user_version = {rng.choice([3, 4, 99, 2**31 - 1, 0, -1])}")


def drop_table(rng: random.Random, conn: sqlite3.Connection) -> None:
    for table in rng.sample(["games", "puzzles"], rng.randint(1, 2)):
        conn.execute(f"DROP TABLE IF EXISTS {table}")


def drop_index(rng: random.Random, conn: sqlite3.Connection) -> None:
    conn.execute(f"DROP INDEX IF EXISTS {rng.choice(['games_by_key', 'puzzles_by_key'])}")


def extra_table(rng: random.Random, conn: sqlite3.Connection) -> None:
    name = rng.choice(["write_probe", "recipes", "Write_Probe", "sqlite_stat_x", "\"a b\""])
    with contextlib.suppress(sqlite3.Error):
        conn.execute(f"CREATE TABLE {name} (x)")
        conn.execute(f"INSERT INTO {name} VALUES (1)")


def extra_column(rng: random.Random, conn: sqlite3.Connection) -> None:
    table = rng.choice(["games", "puzzles"])
    with contextlib.suppress(sqlite3.Error):
        conn.execute(f"ALTER TABLE {table} ADD COLUMN note TEXT DEFAULT 'x'")


def odd_values(rng: random.Random, conn: sqlite3.Connection) -> None:
    """Text in number columns, numbers and blobs in text columns, bad UTF-8, NUL."""
    values = ["'text'", "x'ff00fe'", "CAST(x'c328ff' AS TEXT)", "'a' || char(0) || 'b'", "-5",
              "1e308", "9223372036854775807", "''", "'   '", "0.5", "CAST(x'00' AS TEXT)"]
    for _ in range(rng.randint(1, 6)):
        table = rng.choice(["games", "puzzles"])
        column = rng.choice(TABLES[table][1:])
        with contextlib.suppress(sqlite3.Error):
            conn.execute(f"UPDATE {table} SET {column} = {rng.choice(values)} "
                         f"WHERE rowid IN (SELECT rowid FROM {table} ORDER BY random() LIMIT 3)")


def hand_made_tables(rng: random.Random, conn: sqlite3.Connection) -> None:
    """Our column names with other types and constraints (as another program made them)."""
    strict = rng.choice(["", " STRICT"])
    types = rng.choice([("INTEGER", "INTEGER"), ("TEXT", "TEXT"), ("BLOB", "ANY"), ("", "")])
    if strict and "" in types:
        types = ("INTEGER", "ANY")
    conn.execute("DROP TABLE IF EXISTS games")
    conn.execute(f"CREATE TABLE games (id INTEGER PRIMARY KEY, played_at {types[0]}, "
                 f"game {types[1]}, variant {types[1]}, mode {types[1]}, opponent {types[1]}, "
                 f"outcome {types[0]}){strict}")
    for i in range(rng.randint(0, 20)):
        with contextlib.suppress(sqlite3.Error):
            conn.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (i + 1, rng.choice(["2024", 5]), rng.choice(["g", 7, None, b"\xff"]),
                          "v", rng.choice(["m", None]), "", rng.choice(["won", "x", 1, None])))


def view_or_trigger(rng: random.Random, conn: sqlite3.Connection) -> None:
    choice = rng.randrange(3)
    if choice == 0:
        conn.execute("DROP TABLE IF EXISTS puzzles")
        conn.execute("CREATE VIEW puzzles AS SELECT * FROM games")
    elif choice == 1:
        conn.execute("CREATE TRIGGER no_games BEFORE INSERT ON games "
                     "BEGIN SELECT RAISE(ABORT, 'no more games'); END")
    else:
        conn.execute("CREATE TRIGGER wipe AFTER INSERT ON puzzles "
                     "BEGIN SELECT no_such_function(1); END")


def broken_schema_text(rng: random.Random, conn: sqlite3.Connection) -> None:
    """The CHECK or a table name in the stored schema changed (as a flipped bit would)."""
    conn.execute("PRAGMA writable_schema = ON")
    if rng.random() < 0.5:
        conn.execute("UPDATE sqlite_master SET sql = replace(sql, '''won''', '''wXn''') "
                     "WHERE name = 'games'")
    else:
        conn.execute("UPDATE sqlite_master SET name = 'gAmes' WHERE name = 'games'")
    conn.execute("PRAGMA writable_schema = OFF")


def invalid_rows(rng: random.Random, conn: sqlite3.Connection) -> None:
    """Rows breaking the CHECK (written with checks off, as another tool could)."""
    conn.execute("PRAGMA ignore_check_constraints = ON")
    conn.execute("UPDATE games SET outcome = 'banana' WHERE rowid % 7 = 0")
    conn.execute("PRAGMA ignore_check_constraints = OFF")


STRUCTURAL: list[Callable[[random.Random, sqlite3.Connection], None]] = [
    newer_version, drop_table, drop_index, extra_table, extra_column, odd_values,
    hand_made_tables, view_or_trigger, broken_schema_text, invalid_rows,
]


def test_stats_fuzz(scratch: Path) -> None:
    folder = scratch / "profile"
    work = scratch / "work"
    work.mkdir()
    folder.mkdir()
    base = make_base_db(work / "base.sqlite3")
    outcomes: Counter[str] = Counter()
    for case in range(STATS_CASES):
        rng = case_rng(case)
        empty_folder(folder)
        if rng.random() < 0.25:
            kind = structural_case(rng, folder / "statistics.sqlite3", base)
            raw = None
        else:
            kind, raw = mutate_stats_bytes(rng, base)
        where = f"statistics seed {SEED} case {case} ({kind})"
        try:
            outcomes[check_stats_case(folder, work, raw, where)] += 1
        except AssertionError:
            raise
        except Exception as exc:  # an unexpected exception is the bug itself
            raise AssertionError(f"{where}: {type(exc).__name__}: {exc}") from exc
    if STATS_CASES >= 200:
        assert {"rebuilt", "kept aside, new file", "used as it was"} <= set(outcomes), outcomes


# =============================================================================
# Statistics regressions found by the fuzz
# =============================================================================


def small_db(path: Path, game: str = "alpha") -> dict[str, list[tuple]]:
    """A database made by StatsStore holding 30 games and 10 puzzles; returns its rows.

    The rows go in as one transaction (record_game commits each one, and 40
    fsyncs on a real disk take most of a second).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    store = StatsStore(path)
    assert store.open() == []
    store.close()
    when = "2024-05-01T12:00:00+00:00"
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.executemany(
                "INSERT INTO games (played_at, game, variant, mode, opponent, outcome) "
                "VALUES (?, ?, '3x3', 'human-computer', 'easy', ?)",
                [(when, game, ("won", "lost", "drawn")[i % 3]) for i in range(30)])
            conn.executemany(
                "INSERT INTO puzzles (played_at, game, variant, moves, seconds, helped) "
                "VALUES (?, ?, '4x4', ?, ?, ?)",
                [(when, game, i + 1, 10.0 + i, int(i % 2 == 0)) for i in range(10)])
        return read_rows(conn)
    finally:
        conn.close()


def patch(path: Path, old: bytes, new: bytes, count: int = 1) -> bytes:
    """Replace the first occurrence of ``old`` in the file, which has ``count`` of them
    (the games table's CHECK comes first: the records table of version 2 has one too);
    return the new bytes."""
    raw = path.read_bytes()
    assert raw.count(old) == count and len(old) == len(new)
    raw = raw.replace(old, new, 1)
    path.write_bytes(raw)
    return raw


def set_bytes(path: Path, offset: int, new: bytes) -> bytes:
    raw = bytearray(path.read_bytes())
    raw[offset:offset + len(new)] = new
    path.write_bytes(bytes(raw))
    return bytes(raw)


def open_store(path: Path) -> tuple[StatsStore, list[str]]:
    store = StatsStore(path)
    messages = store.open()
    assert_readable_messages(messages, str(path))
    assert store.persistent, messages
    return store, messages


def assert_rebuilt_with_everything(path: Path, raw: bytes, rows: dict[str, list[tuple]],
                                   reason: str) -> None:
    """Opening rebuilds the file with every row, keeps the original, and works."""
    store, messages = open_store(path)
    try:
        assert len(messages) == 1 and reason in messages[0], messages
        assert "new file was made from its 40 results" in messages[0]
        kept = aside_files(path)
        assert len(kept) == 1 and kept[0].read_bytes() == raw
        assert store_rows(store) == rows
        check_store_works(store, reason)
    finally:
        store.close()
    again, messages = open_store(path)
    again.close()
    assert messages == []


def damage_index(path: Path) -> tuple[bytes, dict[str, list[tuple]]]:
    """A database whose games index is well-formed but describes other rows."""
    rows = small_db(path)
    other_path = path.with_name("other-" + path.name)
    small_db(other_path, game="omega")  # same layout, other names
    other = other_path.read_bytes()
    other_path.unlink()
    conn = sqlite3.connect(path)
    page_number = conn.execute(
        "SELECT rootpage FROM sqlite_master WHERE name = 'games_by_key'").fetchone()[0]
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    start = (page_number - 1) * page_size
    return set_bytes(path, start, other[start:start + page_size]), rows


def test_damaged_index_is_rebuilt_from_the_rows(tmp_path: Path) -> None:
    """Regression: quick_check passed a damaged index, then every summary failed
    ("database disk image is malformed") and the records were invisible."""
    path = tmp_path / "statistics.sqlite3"
    raw, rows = damage_index(path)
    assert_rebuilt_with_everything(path, raw, rows, "indexes were damaged")


def test_header_forbidding_writes_is_rebuilt(tmp_path: Path) -> None:
    """Regression: a write-version byte above 2 left the file read-only for good."""
    path = tmp_path / "statistics.sqlite3"
    rows = small_db(path)
    raw = set_bytes(path, 18, b"\x03")
    assert_rebuilt_with_everything(path, raw, rows, "forbids writing")


def test_unknown_text_encoding_is_rebuilt(tmp_path: Path) -> None:
    """Regression: text encoding 80 read fine until the first write, then every
    statement failed ("attached databases must use the same text encoding")."""
    path = tmp_path / "statistics.sqlite3"
    rows = small_db(path)
    raw = set_bytes(path, 56, (80).to_bytes(4, "big"))
    assert_rebuilt_with_everything(path, raw, rows, "unknown text encoding")


def test_damaged_check_constraint_is_rebuilt(tmp_path: Path) -> None:
    """A flipped bit in the stored CHECK made every new result fail to save."""
    path = tmp_path / "statistics.sqlite3"
    rows = small_db(path)
    raw = patch(path, b"('won','lost','drawn')", b"('wXn','lost','drawn')", count=2)
    assert_rebuilt_with_everything(path, raw, rows, "refuse new results")


def test_unsupported_file_format_is_kept_aside(tmp_path: Path) -> None:
    """Regression: "unsupported file format" (a damaged schema-format byte) was taken
    for a passing problem: statistics stayed in memory at every start."""
    path = tmp_path / "statistics.sqlite3"
    small_db(path)
    raw = set_bytes(path, 44, (105).to_bytes(4, "big"))
    store, messages = open_store(path)
    store.close()
    assert len(messages) == 1 and "unsupported file format" in messages[0]
    assert aside_files(path)[0].read_bytes() == raw


def test_damaged_table_name_is_still_the_table(tmp_path: Path) -> None:
    """A flipped case bit in the name column ("gAmes") is still the games table:
    SQLite knows a table by its CREATE statement (guards the lookup by name)."""
    path = tmp_path / "statistics.sqlite3"
    rows = small_db(path)
    patch(path, b"tablegamesgames", b"tablegAmesgames")
    store, messages = open_store(path)
    try:
        assert messages == []
        assert store_rows(store) == rows
        check_store_works(store, "damaged name")
    finally:
        store.close()


def test_schema_text_that_is_not_utf8_is_kept_aside(tmp_path: Path) -> None:
    """Regression: SQLite's complaint quoted the bad bytes, sqlite3 could not decode
    it and open() raised UnicodeDecodeError: the game did not start."""
    path = tmp_path / "statistics.sqlite3"
    small_db(path)
    raw = patch(path, b"tablegamesgames", b"table\xffamesgames")
    store, messages = open_store(path)
    try:
        assert len(messages) == 1 and "not UTF-8" in messages[0]
        assert aside_files(path)[0].read_bytes() == raw
        check_store_works(store, "schema not UTF-8")
    finally:
        store.close()


def test_odd_values_reach_the_screens_as_text_and_numbers(tmp_path: Path) -> None:
    """Regression: text that is not UTF-8 made every summary fail; a blob or NULL
    name, a NULL outcome or text seconds reached the screens as such."""
    path = tmp_path / "statistics.sqlite3"
    small_db(path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE games SET game = CAST(x'616cff' AS TEXT) WHERE id = 1")
    conn.execute("UPDATE games SET game = x'00ff' WHERE id = 2")
    conn.execute("UPDATE games SET variant = 'a' || char(0) || 'b' WHERE id = 3")
    conn.execute("UPDATE games SET mode = 42 WHERE id = 4")
    conn.execute("UPDATE puzzles SET seconds = 'fast', moves = 0 WHERE id = 2")  # unhelped
    conn.execute("UPDATE puzzles SET moves = x'01' WHERE id = 4")  # unhelped
    conn.close()
    store, messages = open_store(path)
    try:
        assert messages == []
        check_store_works(store, "odd values")
        summary = store.game_summary()
        assert sum(row.played for row in summary) == 31  # every row still counts
        assert any(row.game == "al\ufffd" for row in summary)
        assert any(row.variant == "a\ufffdb" for row in summary)
        assert store.best_puzzle("alpha", "4x4") == (6, 15.0)  # not 'fast', not a blob
        assert store.warnings == []
    finally:
        store.close()


def test_read_errors_are_reported_once(tmp_path: Path) -> None:
    """A screen reads the statistics every frame; one failure is one warning."""
    path = tmp_path / "statistics.sqlite3"
    small_db(path)
    store, _ = open_store(path)
    try:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("DROP TABLE games")
        other.close()
        for _ in range(5):
            assert store.game_summary() == []
        assert len(store.warnings) == 1 and "no such table" in store.warnings[0]
    finally:
        store.close()


def test_extra_table_called_write_probe_is_not_read_only(tmp_path: Path) -> None:
    path = tmp_path / "statistics.sqlite3"
    small_db(path)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE write_probe (x)")
    conn.commit()
    conn.close()
    store, messages = open_store(path)
    store.close()
    assert messages == []


def test_missing_table_is_added_and_the_other_kept(tmp_path: Path) -> None:
    """A version-1 file with games but no puzzles table was thrown out whole."""
    path = tmp_path / "statistics.sqlite3"
    rows = small_db(path)
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE puzzles")
    conn.commit()
    conn.close()
    store, messages = open_store(path)
    try:
        assert len(messages) == 1 and "no puzzles table" in messages[0]
        assert store_rows(store)["games"] == rows["games"]
        check_store_works(store, "missing table")
    finally:
        store.close()
    again, messages = open_store(path)
    again.close()
    assert messages == [] and aside_files(path) == []


def test_null_in_a_row_does_not_discard_the_file(tmp_path: Path) -> None:
    """A NULL where the schema forbids it (a flipped type byte) spoils one value,
    not the 40 other results: the file is used as it is."""
    path = tmp_path / "statistics.sqlite3"
    rows = small_db(path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = replace(sql, 'mode TEXT NOT NULL', "
                 "'mode TEXT     NULL') WHERE name = 'games'")
    conn.close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE games SET mode = NULL WHERE id = 5")
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = replace(sql, 'mode TEXT     NULL', "
                 "'mode TEXT NOT NULL') WHERE name = 'games'")
    conn.close()
    store, messages = open_store(path)
    try:
        assert messages == [] and aside_files(path) == []
        assert len(store_rows(store)["games"]) == len(rows["games"])
        check_store_works(store, "NULL value")
    finally:
        store.close()


def test_view_in_an_empty_database_is_kept_aside(tmp_path: Path) -> None:
    """Regression: only a view (no table) counted as empty; creating our tables then
    failed and statistics stayed in memory at every start."""
    path = tmp_path / "statistics.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE VIEW games AS SELECT 1 AS x")
    conn.commit()
    conn.close()
    raw = path.read_bytes()
    store, messages = open_store(path)
    store.close()
    assert len(messages) == 1 and aside_files(path)[0].read_bytes() == raw


# =============================================================================
# The app: starts, says it once
# =============================================================================


def _odd_values(path: Path) -> None:
    small_db(path, game="button-madness")
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE puzzles SET seconds = 'fast', moves = 0, helped = 0")
    conn.execute("UPDATE games SET game = CAST(x'ff00' AS TEXT), mode = 7 WHERE id < 5")
    conn.close()


APP_CASES = {
    "truncated settings, random statistics": (
        b'{"version": 1, "palette": "colourbl',
        lambda path: path.write_bytes(random.Random(1).randbytes(5000)),
        2),
    "bad keys, damaged index": (
        b'{"palette": 5, "window_size": [' + b"9" * 5000 + b', 1], "show_hints": true, '
        b'"seats": {"tictactoe": {"X": "robot"}}, "ai_levels": {"t": {"O": "\\ud800"}}}',
        damage_index,
        1 + 3 + 1),  # three bad keys and where the file was kept; the rebuild
    "repeated keys and a BOM, odd values": (
        b'\xef\xbb\xbf{"palette": "default", "palette": "colourblind", "future": '
        + b"[" * 100 + b"]" * 100 + b"}",
        _odd_values,
        3),  # repeated key, unknown key left out, where the file was kept
}


@pytest.mark.parametrize("case", sorted(APP_CASES))
def test_app_starts_and_says_it_once(profile: Path, case: str) -> None:
    import pygame

    from engine.screens.stats_scene import StatsScene
    from games.buttons.scene import ButtonMadnessScene
    from tests.conftest import make_app

    settings_raw, make_stats, expected_notices = APP_CASES[case]
    profile.mkdir(parents=True)
    (profile / "settings.json").write_bytes(settings_raw)
    make_stats(profile / "statistics.sqlite3")
    stats_raw = (profile / "statistics.sqlite3").read_bytes()

    app = make_app(profile)
    try:
        notices = list(app.notices)
        assert len(notices) == expected_notices, notices
        assert_readable_messages(notices, case)
        for _ in range(20):
            app.step([])
        app.set_palette("colourblind")
        app.set_palette("default")
        app.push(StatsScene(app))
        for _ in range(3):
            app.step([])
        app.pop()
        app.push(ButtonMadnessScene(app, seed=1))  # draws the best puzzle every frame
        for _ in range(3):
            app.step([])
        assert app.stats.record_game("tictactoe", "3x3", "human-human", "", "won") is None
        app.save_settings()
        assert app.notices == notices, "a problem was reported again"
        assert app.stats.warnings == [n for n in notices if "Statistics" in n]
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()
    # Each damaged file is kept as the player had it.
    kept = [p.read_bytes() for p in aside_files(profile / "settings.json")]
    assert kept == [settings_raw]
    kept_stats = [p.read_bytes() for p in aside_files(profile / "statistics.sqlite3")]
    assert kept_stats in ([], [stats_raw])
    # The next start has nothing to say.
    app = make_app(profile)
    try:
        assert app.notices == []
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()
