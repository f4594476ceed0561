"""Settings persistence: atomic writes, defaults, recovery from bad files, no data loss."""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.storage import atomic, settings
from engine.storage.atomic import atomic_write_text, copy_aside, move_aside
from engine.storage.lock import LOCK_NAME
from engine.storage.settings import DEFAULTS, SettingsStore

# --- helpers ----------------------------------------------------------------


def aside_files(path: Path) -> list[Path]:
    """Files kept aside for ``path`` (``<name>.corrupt-*``), oldest name first."""
    return sorted(path.parent.glob(path.name + ".corrupt-*"))


def files_in(folder: Path) -> list[str]:
    """The names in ``folder`` but the profile lock's file (which writers create)."""
    return sorted(name for name in os.listdir(folder) if name != LOCK_NAME)


def only_aside(path: Path) -> Path:
    kept = aside_files(path)
    assert len(kept) == 1, kept
    return kept[0]


def write_settings(path: Path, content: dict | list | str | bytes) -> bytes:
    """Write raw settings content and return the exact bytes written."""
    if isinstance(content, dict | list):
        raw = json.dumps(content).encode()
    elif isinstance(content, str):
        raw = content.encode()
    else:
        raw = content
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(raw)
    return raw


@pytest.fixture
def settings_path(tmp_path: Path) -> Path:
    return tmp_path / "profile" / "settings.json"


@pytest.fixture
def read_only_dir(tmp_path: Path) -> Iterator[Path]:
    """A folder we cannot write into; skipped where permissions are not enforced."""
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)  # 0o500
    try:
        probe = folder / "probe"
        try:
            probe.write_text("x")
        except OSError:
            pass
        else:
            probe.unlink()
            pytest.skip("permissions are not enforced here (running as root?)")
        yield folder
    finally:
        folder.chmod(stat.S_IRWXU)  # so tmp_path can be cleaned up


# --- atomic.py --------------------------------------------------------------


def test_atomic_write_creates_folders_and_writes(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "file.txt"
    atomic_write_text(target, "héllo\n")
    assert target.read_bytes() == "héllo\n".encode()
    assert files_in(target.parent) == ["file.txt"]  # no temporary file left


def test_atomic_write_replaces_existing(tmp_path: Path) -> None:
    target = tmp_path / "file.txt"
    target.write_text("old")
    atomic_write_text(target, "new")
    assert target.read_text() == "new"
    assert files_in(tmp_path) == ["file.txt"]


def test_atomic_write_failure_keeps_original_and_cleans_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "file.txt"
    target.write_text("original")

    def failing_replace(src: object, dst: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", failing_replace)
    with pytest.raises(OSError, match="No space"):
        atomic_write_text(target, "new contents")
    assert target.read_text() == "original"
    assert files_in(tmp_path) == ["file.txt"]


def test_atomic_write_failure_while_writing_cleans_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "file.txt"
    target.write_text("original")

    def failing_fsync(fd: int) -> None:
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(atomic.os, "fsync", failing_fsync)
    with pytest.raises(OSError):
        atomic_write_text(target, "new contents")
    assert target.read_text() == "original"
    assert files_in(tmp_path) == ["file.txt"]


def test_move_aside_never_overwrites(tmp_path: Path) -> None:
    first = tmp_path / "f.json"
    first.write_text("one")
    kept_one = move_aside(first)
    first.write_text("two")
    kept_two = move_aside(first)
    first.write_text("three")
    kept_three = move_aside(first)

    assert not first.exists()
    assert len({kept_one, kept_two, kept_three}) == 3
    assert [p.read_text() for p in (kept_one, kept_two, kept_three)] == ["one", "two", "three"]
    for kept in (kept_one, kept_two, kept_three):
        assert kept.parent == tmp_path
        assert kept.name.startswith("f.json.corrupt-")


def test_move_aside_skips_existing_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "f.json"
    target.write_text("new")
    # Pretend an earlier run (same second) already kept two files.
    stamp_names = [p.name for p in _first_candidates(target, 2)]
    (tmp_path / stamp_names[0]).write_text("earlier 1")
    (tmp_path / stamp_names[1]).write_text("earlier 2")
    kept = move_aside(target)
    assert kept.name.endswith("-3")
    assert (tmp_path / stamp_names[0]).read_text() == "earlier 1"
    assert (tmp_path / stamp_names[1]).read_text() == "earlier 2"
    assert kept.read_text() == "new"


def _first_candidates(path: Path, count: int) -> list[Path]:
    gen = atomic._aside_candidates(path)
    return [next(gen) for _ in range(count)]


def test_move_aside_moves_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "settings.json"
    folder.mkdir()
    (folder / "inside.txt").write_text("keep me")
    kept = move_aside(folder)
    assert not folder.exists()
    assert (kept / "inside.txt").read_text() == "keep me"


def test_copy_aside_keeps_original_and_reuses_identical_copy(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    target.write_bytes(b"content")
    copy1 = copy_aside(target)
    copy2 = copy_aside(target)
    assert target.read_bytes() == b"content"
    assert copy1.read_bytes() == b"content"
    assert copy2 == copy1  # identical content: no pile of duplicates
    target.write_bytes(b"different")
    copy3 = copy_aside(target)
    assert copy3 != copy1
    assert copy3.read_bytes() == b"different"
    assert copy1.read_bytes() == b"content"


# --- loading ----------------------------------------------------------------


def test_missing_file_gives_defaults_without_warning(settings_path: Path) -> None:
    store = SettingsStore(settings_path)
    assert store.load() == []
    assert store.warnings == []
    assert store.data == DEFAULTS
    assert not settings_path.parent.exists()  # loading creates nothing


def test_round_trip(settings_path: Path) -> None:
    store = SettingsStore(settings_path)
    store.load()
    store.set("palette", "colourblind")
    store.set("window_size", (1280, 800))
    store.set("seats", {"tictactoe": {"X": "human", "O": "computer"}})
    store.set("ai_levels", {"tictactoe": {"O": "hard"}})
    store.set("variants", {"gomoku": {"rows": 15, "cols": 15, "k": 5}})
    store.set("show_hints", True)
    assert store.save() is None

    again = SettingsStore(settings_path)
    assert again.load() == []
    assert again.get("palette") == "colourblind"
    assert again.get("window_size") == [1280, 800]
    assert again.get("seats") == {"tictactoe": {"X": "human", "O": "computer"}}
    assert again.get("ai_levels") == {"tictactoe": {"O": "hard"}}
    assert again.get("variants") == {"gomoku": {"rows": 15, "cols": 15, "k": 5}}
    assert again.get("show_hints") is True
    assert again.data == store.data
    assert aside_files(settings_path) == []


def test_saved_file_is_versioned_json(settings_path: Path) -> None:
    store = SettingsStore(settings_path)
    store.load()
    store.save()
    on_disk = json.loads(settings_path.read_text(encoding="utf-8"))
    assert on_disk["version"] == 1
    assert on_disk == DEFAULTS


@pytest.mark.parametrize(
    ("content", "reason_fragment"),
    [
        pytest.param('{"palette": "colourbl', "not valid JSON", id="truncated"),
        pytest.param(bytes(range(256)) * 4, "not UTF-8", id="random-bytes"),
        pytest.param(b"", "not valid JSON", id="empty"),
        pytest.param("[1, 2, 3]", "JSON object", id="list-at-top"),
        pytest.param('"just a string"', "JSON object", id="string-at-top"),
        pytest.param("[" * 100_000, "", id="deeply-nested"),
    ],
)
def test_unreadable_file_is_kept_aside(
    settings_path: Path, content: str | bytes, reason_fragment: str
) -> None:
    original = write_settings(settings_path, content)
    store = SettingsStore(settings_path)
    warnings = store.load()

    kept = only_aside(settings_path)
    assert kept.read_bytes() == original
    assert not settings_path.exists()
    assert store.data == DEFAULTS
    assert len(warnings) == 1
    assert str(settings_path) in warnings[0]
    assert str(kept) in warnings[0]
    assert reason_fragment in warnings[0]
    assert "defaults are used" in warnings[0]
    assert store.warnings == warnings

    # Saving afterwards writes a fresh file and leaves the kept copy alone.
    assert store.save() is None
    assert json.loads(settings_path.read_text()) == DEFAULTS
    assert kept.read_bytes() == original


def test_folder_in_the_way_is_moved_aside(settings_path: Path) -> None:
    settings_path.mkdir(parents=True)
    (settings_path / "precious.txt").write_text("user data")
    store = SettingsStore(settings_path)
    warnings = store.load()

    kept = only_aside(settings_path)
    assert kept.is_dir()
    assert (kept / "precious.txt").read_text() == "user data"
    assert store.data == DEFAULTS
    assert len(warnings) == 1
    assert str(settings_path) in warnings[0] and str(kept) in warnings[0]
    assert store.save() is None
    assert settings_path.is_file()


def test_newer_version_is_kept_aside_and_not_overwritten(settings_path: Path) -> None:
    original = write_settings(settings_path, {"version": 2, "palette": "neon", "new_thing": 1})
    store = SettingsStore(settings_path)
    warnings = store.load()

    kept = only_aside(settings_path)
    assert kept.read_bytes() == original
    assert store.data == DEFAULTS  # nothing from the newer schema leaks in
    assert len(warnings) == 1
    assert "newer version" in warnings[0]
    assert str(settings_path) in warnings[0] and str(kept) in warnings[0]
    store.set("palette", "colourblind")
    assert store.save() is None
    assert kept.read_bytes() == original


def test_bad_key_falls_back_alone_and_original_is_kept(settings_path: Path) -> None:
    content = {
        "version": 1,
        "palette": "ultraviolet",  # bad
        "window_size": [1024, 768],  # good
        "show_hints": "yes",  # bad (must be a bool)
        "seats": {"tictactoe": {"X": "computer"}},  # good
    }
    original = write_settings(settings_path, content)
    store = SettingsStore(settings_path)
    warnings = store.load()

    assert store.get("palette") == "default"
    assert store.get("show_hints") is False
    assert store.get("window_size") == [1024, 768]
    assert store.get("seats") == {"tictactoe": {"X": "computer"}}

    kept = only_aside(settings_path)
    assert kept.read_bytes() == original
    # The original stays in place too, so the good keys survive even if the
    # game never gets to save.
    assert settings_path.read_bytes() == original
    assert any("'palette'" in w for w in warnings)
    assert any("'show_hints'" in w for w in warnings)
    assert not any("'window_size'" in w for w in warnings)
    assert any(str(kept) in w for w in warnings)

    # Loading again (without saving) does not pile up more copies.
    SettingsStore(settings_path).load()
    assert aside_files(settings_path) == [kept]

    assert store.save() is None
    repaired = json.loads(settings_path.read_text())
    assert repaired["palette"] == "default"
    assert repaired["window_size"] == [1024, 768]
    assert kept.read_bytes() == original


@pytest.mark.parametrize(
    ("key", "bad_value"),
    [
        ("palette", 3),
        ("window_size", [100, 720]),
        ("window_size", [960]),
        ("window_size", [960.0, 720]),
        ("window_size", [True, 720]),
        ("window_size", "960x720"),
        ("seats", {"tictactoe": {"X": "robot"}}),
        ("seats", {"tictactoe": "human"}),
        ("seats", []),
        ("ai_levels", {"tictactoe": {"O": 3}}),
        ("variants", {"gomoku": {"rows": [15]}}),
        ("variants", {"gomoku": {"rows": 10**7}}),
        ("variants", {"gomoku": {"rows": None}}),
        ("show_hints", 1),
        ("show_hints", None),
    ],
)
def test_each_bad_key_is_reset_on_load(settings_path: Path, key: str, bad_value: object) -> None:
    # A valid non-default value in another key must survive the bad one.
    good_key, good_value = ("show_hints", True) if key == "palette" else ("palette", "colourblind")
    write_settings(settings_path, {"version": 1, good_key: good_value, key: bad_value})
    store = SettingsStore(settings_path)
    warnings = store.load()
    assert store.get(key) == DEFAULTS[key]
    assert store.get(good_key) == good_value
    assert any(f"'{key}'" in w for w in warnings)
    assert not any(f"'{good_key}'" in w for w in warnings)


def test_wrong_version_value_is_reported_but_keys_kept(settings_path: Path) -> None:
    write_settings(settings_path, {"version": "one", "palette": "colourblind"})
    store = SettingsStore(settings_path)
    warnings = store.load()
    assert store.get("palette") == "colourblind"
    assert any("'version'" in w for w in warnings)
    assert only_aside(settings_path).exists()


def test_missing_version_is_accepted(settings_path: Path) -> None:
    write_settings(settings_path, {"palette": "colourblind"})
    store = SettingsStore(settings_path)
    assert store.load() == []
    assert store.get("palette") == "colourblind"


def test_byte_order_mark_is_tolerated(settings_path: Path) -> None:
    write_settings(settings_path, b'\xef\xbb\xbf{"version": 1, "show_hints": true}')
    store = SettingsStore(settings_path)
    assert store.load() == []
    assert store.get("show_hints") is True


def test_unknown_keys_are_preserved(settings_path: Path) -> None:
    write_settings(
        settings_path,
        {"version": 1, "palette": "colourblind", "future_option": {"nested": [1, 2]}},
    )
    store = SettingsStore(settings_path)
    assert store.load() == []
    store.set("show_hints", True)
    assert store.save() is None
    on_disk = json.loads(settings_path.read_text())
    assert on_disk["future_option"] == {"nested": [1, 2]}
    assert on_disk["show_hints"] is True
    assert on_disk["palette"] == "colourblind"


# --- set / get --------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "bad_value"),
    [
        ("palette", "ultraviolet"),
        ("window_size", (319, 720)),
        ("window_size", (960, 7681)),
        ("window_size", (960, 720, 1)),
        ("seats", {"tictactoe": {"X": "alien"}}),
        ("seats", {1: {"X": "human"}}),
        ("ai_levels", {"tictactoe": {"O": None}}),
        ("variants", {"gomoku": {"k": 2.5}}),
        ("show_hints", "true"),
        ("version", 2),
        ("no_such_setting", 1),
    ],
)
def test_set_rejects_bad_values_and_changes_nothing(
    settings_path: Path, key: str, bad_value: object
) -> None:
    store = SettingsStore(settings_path)
    store.load()
    store.set("palette", "colourblind")
    before = store.data
    with pytest.raises(ValueError, match=key):
        store.set(key, bad_value)
    assert store.data == before


def test_get_and_data_return_copies(settings_path: Path) -> None:
    store = SettingsStore(settings_path)
    store.load()
    store.set("seats", {"tictactoe": {"X": "human"}})
    store.get("seats")["tictactoe"]["X"] = "not validated"
    store.data["seats"]["tictactoe"]["X"] = "not validated"
    assert store.get("seats") == {"tictactoe": {"X": "human"}}


def test_set_copies_its_argument(settings_path: Path) -> None:
    store = SettingsStore(settings_path)
    seats = {"tictactoe": {"X": "human"}}
    store.set("seats", seats)
    seats["tictactoe"]["X"] = "bogus"
    assert store.get("seats") == {"tictactoe": {"X": "human"}}


def test_get_unknown_key_raises_key_error(settings_path: Path) -> None:
    with pytest.raises(KeyError):
        SettingsStore(settings_path).get("nope")


# --- saving problems --------------------------------------------------------


def test_save_failure_returns_warning_and_keeps_value(
    settings_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SettingsStore(settings_path)
    store.load()
    store.set("palette", "colourblind")

    def disk_full(path: Path, text: str, **options: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(settings, "atomic_write_text", disk_full)
    warning = store.save()
    assert warning is not None
    assert "No space left" in warning and str(settings_path) in warning
    assert store.get("palette") == "colourblind"
    assert not settings_path.exists()


def test_save_into_impossible_folder_returns_warning(tmp_path: Path) -> None:
    # A regular file where the profile folder should be: creating it fails
    # with a real OSError on every platform and for every user.
    blocker = tmp_path / "profile"
    blocker.write_text("not a folder")
    store = SettingsStore(blocker / "settings.json")
    assert store.load() == []
    store.set("show_hints", True)
    warning = store.save()
    assert warning is not None and "Could not save settings" in warning
    assert store.get("show_hints") is True
    assert blocker.read_text() == "not a folder"


def test_save_into_read_only_folder_returns_warning(read_only_dir: Path) -> None:
    store = SettingsStore(read_only_dir / "settings.json")
    store.load()
    store.set("palette", "colourblind")
    warning = store.save()
    assert warning is not None
    assert store.get("palette") == "colourblind"
    assert os.listdir(read_only_dir) == []


def test_unreadable_file_is_never_overwritten(
    settings_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = write_settings(settings_path, {"version": 1, "palette": "colourblind"})

    def denied(path: Path) -> int:
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(settings, "_open_for_reading", denied)
    store = SettingsStore(settings_path)
    warnings = store.load()
    assert store.data == DEFAULTS
    assert len(warnings) == 1 and "Permission denied" in warnings[0]

    store.set("show_hints", True)
    warning = store.save()
    assert warning is not None and "not saved" in warning
    monkeypatch.undo()
    assert settings_path.read_bytes() == original
    assert aside_files(settings_path) == []


def test_file_written_by_another_copy_is_merged_on_save(settings_path: Path) -> None:
    # Issue 13 finding 7: a valid file another copy wrote is merged, not called
    # "changed by another program" and copied aside (this test pinned that before).
    store = SettingsStore(settings_path)
    store.load()  # no file yet
    # Meanwhile another copy of the game (or the player) writes one.
    write_settings(settings_path, {"version": 1, "palette": "colourblind"})
    store.set("show_hints", True)
    assert store.save() is None
    assert aside_files(settings_path) == []
    on_disk = json.loads(settings_path.read_text())
    assert on_disk["show_hints"] is True and on_disk["palette"] == "colourblind"
    assert store.get("palette") == "colourblind"  # this copy follows the other one
    # Our own save is not mistaken for someone else's next time.
    store.set("show_hints", False)
    assert store.save() is None
    assert aside_files(settings_path) == []


def test_unreadable_file_written_by_someone_else_is_kept_aside_on_save(
    settings_path: Path,
) -> None:
    store = SettingsStore(settings_path)
    store.load()
    theirs = write_settings(settings_path, '{"palette": "colourbl')
    store.set("show_hints", True)
    notice = store.save()
    assert notice is not None and "changed by another program" in notice
    assert only_aside(settings_path).read_bytes() == theirs
    assert json.loads(settings_path.read_text())["show_hints"] is True
    store.set("show_hints", False)
    assert store.save() is None
    assert len(aside_files(settings_path)) == 1


def test_save_without_load_does_not_clobber_existing_file(settings_path: Path) -> None:
    # Issue 13 finding 7: the file is merged (this test pinned a copy aside before).
    write_settings(settings_path, {"version": 1, "palette": "colourblind"})
    store = SettingsStore(settings_path)  # load() forgotten
    store.set("show_hints", True)
    assert store.save() is None
    on_disk = json.loads(settings_path.read_text())
    assert on_disk["palette"] == "colourblind" and on_disk["show_hints"] is True
    assert aside_files(settings_path) == []


def test_variants_key_accepts_text_and_numbers_only(tmp_path: Path) -> None:
    store = SettingsStore(tmp_path / "settings.json")
    store.load()
    store.set("variants", {"grundy": {"game": "queen", "rows": 12}})
    assert store.get("variants") == {"grundy": {"game": "queen", "rows": 12}}
    for bad in ({"grundy": {"game": ["list"]}}, {"grundy": {"rows": 10**9}},
                {"grundy": {"flag": True}}, {"grundy": "queen"}, ["grundy"]):
        with pytest.raises(ValueError):
            store.set("variants", bad)
    assert store.get("variants") == {"grundy": {"game": "queen", "rows": 12}}


# --- issue 13: an unwritable profile ----------------------------------------


def test_save_into_read_only_folder_is_said_once_until_a_save_works(
    read_only_dir: Path,
) -> None:
    """Finding 10: the same notice came at every save (245 times in one session)."""
    path = read_only_dir / "settings.json"
    store = SettingsStore(path)
    assert store.load() == []
    messages = []
    for volume in range(10):
        store.set("volume", volume)
        messages.append(store.save())
    assert messages[0] is not None and "Could not save settings" in messages[0]
    assert messages[1:] == [None] * 9
    assert files_in(read_only_dir) == []

    read_only_dir.chmod(stat.S_IRWXU)
    assert store.save() is None
    assert json.loads(path.read_text())["volume"] == 9
    read_only_dir.chmod(stat.S_IRUSR | stat.S_IXUSR)
    store.set("volume", 1)
    assert store.save() is not None  # failing again after a success: said again
    assert store.save() is None
    assert json.loads(path.read_text())["volume"] == 9


def test_too_big_file_in_read_only_folder_is_left_untouched(read_only_dir: Path) -> None:
    path = read_only_dir / "settings.json"
    read_only_dir.chmod(stat.S_IRWXU)
    with open(path, "wb") as handle:
        handle.truncate(settings.SETTINGS_MAX_BYTES + 1)
    read_only_dir.chmod(stat.S_IRUSR | stat.S_IXUSR)
    store = SettingsStore(path)
    warnings = store.load()
    assert len(warnings) == 1 and "could not be moved aside" in warnings[0]
    assert store.data == DEFAULTS
    assert store.save() is not None and store.save() is None
    assert path.stat().st_size == settings.SETTINGS_MAX_BYTES + 1
