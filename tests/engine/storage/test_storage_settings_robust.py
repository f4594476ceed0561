"""Issue 13: the settings file under hostile conditions.

Huge but valid files (finding 3), several copies saving at once (7), a
read-only or symlinked file (9), an unwritable profile (10), temporaries a
``kill -9`` left (13), and files that are pipes, devices or link loops.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.storage import atomic, settings
from engine.storage.atomic import (
    TOO_BIG_MARKER,
    ReadOnlyFileError,
    atomic_write_text,
    remove_stale_temporaries,
)
from engine.storage.lock import LOCK_NAME, folder_lock
from engine.storage.settings import DEFAULTS, SETTINGS_MAX_BYTES, SettingsStore

# Robustness: huge files, several processes saving at once, pipes and devices; the quick
# run (python -m pytest -m "not slow") leaves them out and keeps the settings basics of
# tests/engine/storage/test_storage_settings.py. The full suite runs them.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]


def kept_files(path: Path, marker: str) -> list[Path]:
    """Files kept aside for ``path`` with ``marker`` (``.corrupt-`` or ``.too-big-``)."""
    return sorted(path.parent.glob(path.name + marker + "*"))


def corrupt_files(path: Path) -> list[Path]:
    return kept_files(path, ".corrupt-")


def names_in(folder: Path) -> list[str]:
    """What is in ``folder``, but the profile lock's file."""
    return sorted(name for name in os.listdir(folder) if name != LOCK_NAME)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    folder = tmp_path / "profile"
    folder.mkdir()
    return folder / "settings.json"


def run_python(code: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter (the project on its path); return the result."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout)


# =============================================================================
# Finding 3: a huge but valid settings file
# =============================================================================


def test_valid_file_just_over_the_cap_is_kept_aside_unread(path: Path) -> None:
    body = json.dumps({"version": 1, "palette": "colourblind", "future": ""})
    padding = SETTINGS_MAX_BYTES + 1 - len(body)
    raw = body.replace('"future": ""', '"future": "' + "x" * padding + '"').encode()
    assert len(raw) == SETTINGS_MAX_BYTES + 1
    path.write_bytes(raw)

    started = time.process_time()
    store = SettingsStore(path)
    warnings = store.load()
    assert time.process_time() - started < 1.0

    assert store.data == DEFAULTS  # not parsed at all: not even the palette
    kept = kept_files(path, TOO_BIG_MARKER)
    assert len(kept) == 1 and kept[0].read_bytes() == raw
    assert corrupt_files(path) == []  # valid, so not called corrupt
    assert not path.exists()
    assert len(warnings) == 1
    warning = warnings[0]
    assert "1.0 MB" in warning  # its size and the cap (1 MiB + 1 byte rounds to 1.0 MB)
    assert str(kept[0]) in warning and "defaults are used" in warning
    assert "corrupt" not in warning and "unreadable" not in warning

    # The next save writes a fresh file and leaves the kept one alone.
    store.set("show_hints", True)
    assert store.save() is None
    assert json.loads(path.read_text())["show_hints"] is True
    assert kept[0].read_bytes() == raw


def test_a_file_exactly_at_the_cap_is_read(path: Path) -> None:
    body = json.dumps({"version": 1, "palette": "colourblind", "future": ""})
    padding = SETTINGS_MAX_BYTES - len(body)
    path.write_text(body.replace('"future": ""', '"future": "' + "x" * padding + '"'))
    assert path.stat().st_size == SETTINGS_MAX_BYTES
    store = SettingsStore(path)
    assert store.load() == []
    assert store.get("palette") == "colourblind"
    assert len(store.get("future")) == padding
    assert kept_files(path, TOO_BIG_MARKER) == [] and corrupt_files(path) == []


MEASURE = """
    import json, resource, sys, time
    from pathlib import Path
    from engine.storage.settings import SettingsStore

    path = Path(sys.argv[1])
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.process_time()
    store = SettingsStore(path)
    warnings = store.load()
    seconds = time.process_time() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    saved = store.save()
    print(json.dumps({"seconds": seconds, "added_kib": peak - before,
                      "warnings": warnings, "saved": saved}))
"""


def measure_load(path: Path) -> dict[str, object]:
    out = run_python(MEASURE, str(path))
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)
    print(f"{path.name}: load {figures['seconds']:.4f} s, "
          f"+{figures['added_kib'] / 1024:.1f} MB peak RSS")
    return figures


@pytest.mark.skipif(sys.platform == "win32", reason="ru_maxrss: POSIX")
def test_200_mb_sparse_file_loads_in_bounded_time_and_memory(path: Path) -> None:
    with open(path, "wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # sparse: costs no disk
    figures = measure_load(path)
    assert figures["seconds"] < 2.0
    assert figures["added_kib"] < 50 * 1024
    assert figures["saved"] is None
    assert "200.0 MB" in figures["warnings"][0]
    kept = kept_files(path, TOO_BIG_MARKER)
    assert len(kept) == 1 and kept[0].stat().st_size == 200 * 1024 * 1024
    assert path.stat().st_size < 1000  # the fresh file, not a rewrite of the big one


@pytest.mark.skipif(sys.platform == "win32", reason="ru_maxrss: POSIX")
def test_200_mb_valid_file_with_one_big_list_loads_in_bounded_time_and_memory(
    path: Path,
) -> None:
    chunk = b"0," * (512 * 1024)  # 1 MiB
    with open(path, "wb") as handle:
        handle.write(b'{"version": 1, "palette": "colourblind", "future": [')
        for _ in range(200):
            handle.write(chunk)
        handle.write(b"0]}")
    size = path.stat().st_size
    figures = measure_load(path)
    assert figures["seconds"] < 2.0
    assert figures["added_kib"] < 50 * 1024
    kept = kept_files(path, TOO_BIG_MARKER)
    assert len(kept) == 1 and kept[0].stat().st_size == size
    assert str(kept[0]) in figures["warnings"][0]


def short_name(number: int) -> str:
    """Base-36 names, so 100,000 keys fit under the cap."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, rest = divmod(number, 36)
        text = digits[rest] + text
        if number == 0:
            return text


def test_100000_unknown_keys_under_the_cap_load_and_save_fast(path: Path) -> None:
    unknown = {short_name(i): i % 10 for i in range(100_000)}
    raw = json.dumps({"version": 1, **unknown}, separators=(",", ":")).encode()
    assert len(raw) < SETTINGS_MAX_BYTES
    path.write_bytes(raw)

    started = time.process_time()
    store = SettingsStore(path)
    assert store.load() == []
    store.set("palette", "colourblind")
    assert store.save() is None
    elapsed = time.process_time() - started
    assert elapsed < 2.0, elapsed

    # Indented it would pass the cap, so it was written compact: no bigger than
    # the original but for the known settings.
    assert path.stat().st_size <= len(raw) + 1024
    again = SettingsStore(path)
    assert again.load() == []
    data = again.data
    assert all(data[key] == value for key, value in unknown.items())
    assert data["palette"] == "colourblind"


def test_save_that_would_pass_the_cap_leaves_unknown_keys_out_and_keeps_them(
    path: Path,
) -> None:
    raw = json.dumps({"version": 1, "future": "y" * (SETTINGS_MAX_BYTES - 100_000)}).encode()
    path.write_bytes(raw)
    store = SettingsStore(path)
    assert store.load() == []
    variants = {f"game{i}": {"name": "v" * 190} for i in range(1000)}  # about 200 KB
    store.set("variants", variants)
    notice = store.save()

    kept = kept_files(path, TOO_BIG_MARKER)
    assert len(kept) == 1 and kept[0].read_bytes() == raw  # the unknown key survives there
    assert notice is not None and "left out" in notice and str(kept[0]) in notice
    assert "1 setting this version does not know" in notice
    assert path.stat().st_size <= SETTINGS_MAX_BYTES  # the next start reads it
    again = SettingsStore(path)
    assert again.load() == []
    assert again.get("variants") == variants
    assert "future" not in again.data
    assert store.save() is None  # said once: the keys are gone from this copy too


def test_settings_too_big_even_without_unknown_keys_are_not_saved(path: Path) -> None:
    store = SettingsStore(path)
    store.load()
    store.set("variants", {f"game{i}": {"name": "v" * 200} for i in range(6000)})
    message = store.save()
    assert message is not None and "not saved" in message and "1.0 MB" in message
    assert not path.exists()
    assert store.save() is None  # once


# =============================================================================
# Finding 7: two copies on one profile
# =============================================================================


def test_two_stores_on_one_file_merge_their_changes(path: Path) -> None:
    first, second = SettingsStore(path), SettingsStore(path)
    assert first.load() == [] and second.load() == []

    first.set("palette", "colourblind")
    first.set("variants", {"grundy": {"game": "queen"}})
    assert first.save() is None

    second.set("volume", 20)
    second.set("variants", {"connect4": {"rows": 7}})  # its table has no grundy entry
    second.set("seats", {"tictactoe": {"X": "computer"}})
    assert second.save() is None  # no "changed by another program"

    first.set("show_hints", True)
    first.set("seats", {"gomoku": {"1": "human"}})  # first never saw tictactoe's seats
    assert first.save() is None

    on_disk = json.loads(path.read_text())
    assert on_disk["palette"] == "colourblind"
    assert on_disk["volume"] == 20
    assert on_disk["show_hints"] is True
    assert on_disk["variants"] == {"grundy": {"game": "queen"}, "connect4": {"rows": 7}}
    assert on_disk["seats"] == {"tictactoe": {"X": "computer"}, "gomoku": {"1": "human"}}
    assert corrupt_files(path) == []
    # Each copy now holds the other's settings too.
    assert first.get("volume") == 20 and second.get("palette") == "colourblind"


def test_the_same_setting_changed_by_both_copies_last_save_wins(path: Path) -> None:
    first, second = SettingsStore(path), SettingsStore(path)
    first.load()
    second.load()
    first.set("cvc_speed", "fast")
    second.set("cvc_speed", "slow")
    assert first.save() is None and second.save() is None
    assert json.loads(path.read_text())["cvc_speed"] == "slow"
    assert corrupt_files(path) == []


def test_a_removed_game_entry_stays_removed_after_a_merge(path: Path) -> None:
    seed = SettingsStore(path)
    seed.load()
    seed.set("variants", {"tictactoe": {"rows": 4}, "gomoku": {"rows": 15}})
    assert seed.save() is None

    first, second = SettingsStore(path), SettingsStore(path)
    first.load()
    second.load()
    first.set("variants", {"gomoku": {"rows": 15}})  # forgets tictactoe's
    second.set("palette", "colourblind")
    assert second.save() is None
    assert first.save() is None
    on_disk = json.loads(path.read_text())
    assert on_disk["variants"] == {"gomoku": {"rows": 15}}
    assert on_disk["palette"] == "colourblind"


def test_a_file_with_bad_keys_another_program_wrote_is_kept_and_its_good_keys_merged(
    path: Path,
) -> None:
    store = SettingsStore(path)
    store.load()
    theirs = json.dumps({"version": 1, "palette": "ultraviolet", "volume": 5}).encode()
    path.write_bytes(theirs)
    store.set("show_hints", True)
    notice = store.save()
    kept = corrupt_files(path)
    assert len(kept) == 1 and kept[0].read_bytes() == theirs
    assert notice is not None and "changed by another program" in notice
    assert str(kept[0]) in notice
    on_disk = json.loads(path.read_text())
    assert on_disk["volume"] == 5 and on_disk["show_hints"] is True
    assert on_disk["palette"] == "default"


def test_an_unknown_key_another_copy_wrote_is_kept(path: Path) -> None:
    store = SettingsStore(path)
    store.load()
    path.write_text(json.dumps({"version": 1, "future": [1, 2]}))
    store.set("sound", False)
    assert store.save() is None
    on_disk = json.loads(path.read_text())
    assert on_disk["future"] == [1, 2] and on_disk["sound"] is False


WRITER = """
    import json, random, sys, time
    from pathlib import Path
    from engine.storage.settings import SettingsStore

    path, me, rounds, start = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    while not Path(start).exists():  # all copies begin together
        time.sleep(0.001)
    store = SettingsStore(path)
    messages = list(store.load())
    mine, interleaved = None, 0
    scalar = {0: ("volume", lambda n: n % 101), 1: ("palette", None),
              2: ("cvc_speed", None), 3: ("show_hints", None)}[me]
    for n in range(rounds):
        store.set("variants", {**store.get("variants"), f"game{me}": {"n": n}})
        seats = store.get("seats")
        seats[f"game{me}"] = {"1": "computer" if n % 2 else "human"}
        store.set("seats", seats)
        key, value = scalar
        if key == "volume":
            store.set(key, value(n))
        elif key == "palette":
            store.set(key, "colourblind" if n % 2 else "default")
        elif key == "cvc_speed":
            store.set(key, ("slow", "normal", "fast")[n % 3])
        else:
            store.set(key, n % 2 == 1)
        # A player's pace: without it one copy would take the lock again and
        # again while the others wait, and no save would meet another's file.
        time.sleep(random.uniform(0, 0.03))
        if path.exists() and path.read_bytes() != mine:
            interleaved += 1  # another copy saved since our last save
        if (message := store.save()) is not None:
            messages.append(message)
        mine = path.read_bytes()
    print(json.dumps({"messages": messages, "interleaved": interleaved}))
"""


def test_several_processes_saving_at_once_lose_nothing(path: Path) -> None:
    rounds, copies = 60, 4
    start = path.parent / "go"
    procs = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(WRITER), str(path),
                               str(me), str(rounds), str(start)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
             for me in range(copies)]
    time.sleep(0.3)  # let them all reach the start line
    start.touch()
    interleaved = 0
    for proc in procs:
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
        report = json.loads(out)
        assert report["messages"] == [], out  # not one notice
        interleaved += report["interleaved"]
    print(f"saves that met another copy's file: {interleaved}")
    assert interleaved >= 20, interleaved  # the copies really met each other's saves
    last = rounds - 1
    on_disk = json.loads(path.read_text())
    for me in range(copies):
        assert on_disk["variants"][f"game{me}"] == {"n": last}
        assert on_disk["seats"][f"game{me}"] == {"1": "computer" if last % 2 else "human"}
    assert on_disk["volume"] == last % 101
    assert on_disk["palette"] == ("colourblind" if last % 2 else "default")
    assert on_disk["cvc_speed"] == ("slow", "normal", "fast")[last % 3]
    assert on_disk["show_hints"] is (last % 2 == 1)
    assert corrupt_files(path) == []
    assert names_in(path.parent) == ["go", "settings.json"]  # no temporaries either


# =============================================================================
# Finding 9: a read-only or symlinked settings file, and permission bits
# =============================================================================


def test_read_only_settings_file_is_not_replaced_and_said_once(path: Path) -> None:
    original = json.dumps({"version": 1, "palette": "colourblind"}).encode()
    path.write_bytes(original)
    path.chmod(0o444)
    try:
        store = SettingsStore(path)
        assert store.load() == []
        assert store.get("palette") == "colourblind"
        store.set("show_hints", True)
        message = store.save()
        assert message is not None and "read-only" in message and str(path) in message
        store.set("volume", 10)
        assert store.save() is None  # said once
        assert path.read_bytes() == original
        assert stat.S_IMODE(path.stat().st_mode) == 0o444
        assert names_in(path.parent) == ["settings.json"]

        # Made writable again: saved, and it keeps the mode the player chose.
        path.chmod(0o640)
        assert store.save() is None
        assert json.loads(path.read_text())["volume"] == 10
        assert stat.S_IMODE(path.stat().st_mode) == 0o640
    finally:
        path.chmod(0o644)


def test_atomic_write_refuses_a_read_only_file(tmp_path: Path) -> None:
    target = tmp_path / "save.json"
    target.write_text("mine")
    target.chmod(0o444)
    try:
        with pytest.raises(ReadOnlyFileError, match="read-only"):
            atomic_write_text(target, "theirs")
        assert target.read_text() == "mine"
        atomic_write_text(target, "theirs", keep_read_only=False)  # a caller may insist
        assert target.read_text() == "theirs"
    finally:
        target.chmod(0o644)


def test_symlinked_settings_file_stays_a_link(path: Path, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "arcade-settings.json"
    real.write_text(json.dumps({"version": 1, "palette": "colourblind"}))
    real.chmod(0o640)
    path.symlink_to(real)

    store = SettingsStore(path)
    assert store.load() == []
    assert store.get("palette") == "colourblind"
    store.set("volume", 33)
    assert store.save() is None
    store.set("volume", 34)
    assert store.save() is None

    assert path.is_symlink() and Path(os.readlink(path)) == real
    assert json.loads(real.read_text())["volume"] == 34
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(os.listdir(dotfiles)) == ["arcade-settings.json"]  # no temporary, no lock
    assert names_in(path.parent) == ["settings.json"]


def test_relative_symlink_in_the_same_folder_stays_a_link(path: Path) -> None:
    real = path.parent / "mine.json"
    real.write_text("{}")
    path.symlink_to("mine.json")
    store = SettingsStore(path)
    assert store.load() == []
    store.set("sound", False)
    assert store.save() is None
    assert path.is_symlink() and os.readlink(path) == "mine.json"
    assert json.loads(real.read_text())["sound"] is False


def test_dangling_symlink_gets_its_target_written(path: Path, tmp_path: Path) -> None:
    real = tmp_path / "elsewhere.json"
    path.symlink_to(real)
    store = SettingsStore(path)
    assert store.load() == []
    store.set("palette", "colourblind")
    assert store.save() is None
    assert path.is_symlink()
    assert json.loads(real.read_text())["palette"] == "colourblind"


def test_symlink_loop_is_left_alone_and_said_once(path: Path) -> None:
    loop = path.parent / "loop.json"
    path.symlink_to(loop)
    loop.symlink_to(path)
    store = SettingsStore(path)
    warnings = store.load()
    assert len(warnings) == 1 and "could not be read" in warnings[0]
    store.set("sound", False)
    assert store.save() is not None
    assert store.save() is None
    assert path.is_symlink() and loop.is_symlink()


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_first_file_gets_the_umask_mode_and_later_ones_keep_theirs(
    path: Path, umask_022: None
) -> None:
    store = SettingsStore(path)
    store.load()
    assert store.save() is None
    assert stat.S_IMODE(path.stat().st_mode) == 0o644  # not mkstemp's 0600
    path.chmod(0o600)  # the player keeps it private
    store.set("sound", False)
    assert store.save() is None
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# =============================================================================
# Finding 10: a failing save is said once
# =============================================================================


def test_failing_saves_are_said_once_until_one_succeeds(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = settings.atomic_write_text
    failing = True

    def maybe_full(target: Path, text: str, **options: object) -> None:
        if failing:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(target, text, **options)

    monkeypatch.setattr(settings, "atomic_write_text", maybe_full)
    store = SettingsStore(path)
    store.load()
    messages = []
    for volume in range(20):
        store.set("volume", volume)
        messages.append(store.save())
    assert messages[0] is not None and "No space left" in messages[0]
    assert messages[1:] == [None] * 19
    assert store.get("volume") == 19

    failing = False
    assert store.save() is None
    assert json.loads(path.read_text())["volume"] == 19
    failing = True
    store.set("volume", 50)
    assert store.save() is not None  # a new failure after a success is said again
    assert store.save() is None


def test_a_file_kept_aside_is_said_even_when_the_save_then_fails(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(target: Path, text: str, **options: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(settings, "atomic_write_text", disk_full)
    store = SettingsStore(path)
    store.load()
    assert store.save() is not None  # the failure, said once
    assert store.save() is None
    theirs = b'{"palette": "colourbl'  # meanwhile another program writes a broken file
    path.write_bytes(theirs)
    message = store.save()
    kept = corrupt_files(path)
    assert len(kept) == 1 and kept[0].read_bytes() == theirs
    assert message is not None and str(kept[0]) in message and "No space left" in message


def test_a_huge_file_written_meanwhile_is_kept_aside_on_save(path: Path) -> None:
    store = SettingsStore(path)
    store.load()
    with open(path, "wb") as handle:
        handle.truncate(SETTINGS_MAX_BYTES * 3)
    store.set("sound", False)
    notice = store.save()
    kept = kept_files(path, TOO_BIG_MARKER)
    assert len(kept) == 1 and kept[0].stat().st_size == SETTINGS_MAX_BYTES * 3
    assert notice is not None and str(kept[0]) in notice and "3.0 MB" in notice
    assert json.loads(path.read_text())["sound"] is False


def test_profile_folder_that_is_a_file_is_said_once_and_clearly(tmp_path: Path) -> None:
    blocker = tmp_path / "profile"
    blocker.write_text("not a folder")
    store = SettingsStore(blocker / "settings.json")
    assert store.load() == []
    message = store.save()
    assert message is not None and f"{blocker} is a file, not a folder" in message
    assert store.save() is None
    assert blocker.read_text() == "not a folder"


# =============================================================================
# Finding 13: temporaries a killed copy left
# =============================================================================


def test_leftover_temporaries_are_removed_on_load(path: Path) -> None:
    folder = path.parent
    path.write_text(json.dumps({"palette": "colourblind"}))
    stale = [folder / ".settings.json.abc123xy.tmp", folder / ".settings.json.q.tmp"]
    for leftover in stale:
        leftover.write_text('{"half a')
    others = [folder / ".other.json.abc.tmp", folder / "settings.json.corrupt-1",
              folder / ".settings.json.tmp"]  # not one of our names
    for other in others:
        other.write_text("keep")
    (folder / ".settings.json.dir.tmp").mkdir()  # we never make folders
    (folder / ".settings.json.link.tmp").symlink_to(path)  # nor links

    store = SettingsStore(path)
    assert store.load() == []
    assert store.get("palette") == "colourblind"
    assert not any(leftover.exists() for leftover in stale)
    assert all(other.read_text() == "keep" for other in others)
    assert (folder / ".settings.json.dir.tmp").is_dir()
    assert (folder / ".settings.json.link.tmp").is_symlink()


HOLDER = """
    import sys, time
    from pathlib import Path
    from engine.storage.atomic import temporary_name
    from engine.storage.lock import folder_lock

    path, ready, hold = Path(sys.argv[1]), Path(sys.argv[2]), float(sys.argv[3])
    with folder_lock(path.parent):
        tmp = path.parent / temporary_name(path.name)
        tmp.write_text('{"version": 1, "palette": "colourblind"}')
        ready.touch()
        time.sleep(hold)  # a slow disk: the write is still in progress
        tmp.replace(path)
"""


def start_holder(path: Path, hold: float) -> subprocess.Popen[str]:
    ready = path.parent.parent / "ready"
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(HOLDER), str(path),
                             str(ready), str(hold)], cwd=ROOT, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + 60
    while not ready.exists():
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline
        time.sleep(0.01)
    return proc


def test_temporary_being_written_by_another_copy_is_left_alone(path: Path) -> None:
    proc = start_holder(path, hold=0.8)
    try:
        # Asked not to wait: the lock is held, so nothing may be deleted.
        assert remove_stale_temporaries(path.parent, path.name, timeout=0.1) == []
        assert len([n for n in os.listdir(path.parent) if n.endswith(".tmp")]) == 1
        # A start meanwhile waits for the write instead of deleting its temporary,
        # then reads what it wrote.
        store = SettingsStore(path)
        assert store.load() == []
        assert store.get("palette") == "colourblind"
    finally:
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err  # its rename found its temporary
    assert names_in(path.parent) == ["settings.json"]


def test_atomic_write_holds_the_folder_lock_while_its_temporary_exists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "settings.json"
    real_replace = os.replace
    seen: list[bool] = []

    def replace_and_probe(src: str, dst: object) -> None:
        assert Path(src).exists()
        with folder_lock(tmp_path, timeout=0) as probe:  # another open file: it must wait
            seen.append(probe.held)
        real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", replace_and_probe)
    atomic_write_text(target, "x")
    monkeypatch.undo()
    assert seen == [False]
    with folder_lock(tmp_path, timeout=0) as after:
        assert after.held  # and released afterwards


# =============================================================================
# Further: files that are not regular files
# =============================================================================


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_named_pipe_does_not_block_the_start_and_is_left_alone(path: Path) -> None:
    os.mkfifo(path)
    result: dict[str, object] = {}

    def load() -> None:
        store = SettingsStore(path)
        result["warnings"] = store.load()
        store.set("sound", False)
        result["saves"] = [store.save(), store.save()]

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(timeout=20)
    if worker.is_alive():  # unblock it so the test run can end
        with open(os.open(path, os.O_WRONLY | os.O_NONBLOCK), "w"):
            pass
        pytest.fail("loading a named pipe blocked")
    warnings = result["warnings"]
    assert isinstance(warnings, list) and len(warnings) == 1
    assert "named pipe" in warnings[0] and "left untouched" in warnings[0]
    saves = result["saves"]
    assert isinstance(saves, list) and saves[0] is not None and saves[1] is None
    assert stat.S_ISFIFO(os.lstat(path).st_mode)
    assert corrupt_files(path) == []


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_link_to_a_device_is_never_read_nor_replaced(path: Path) -> None:
    path.symlink_to("/dev/zero")  # reading it would never end
    store = SettingsStore(path)
    warnings = store.load()
    assert len(warnings) == 1 and "a device" in warnings[0]
    assert store.save() is not None
    assert path.is_symlink() and os.readlink(path) == "/dev/zero"


def test_file_that_grows_past_the_cap_while_read_is_not_parsed(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path.write_text(json.dumps({"palette": "colourblind"}))
    real_open = settings._open_for_reading

    def grow_then_open(target: Path) -> int:
        with open(target, "ab") as handle:  # another program appends meanwhile
            handle.write(b" " * (SETTINGS_MAX_BYTES + 10))
        return real_open(target)

    monkeypatch.setattr(settings, "_open_for_reading", grow_then_open)
    store = SettingsStore(path)
    warnings = store.load()
    assert store.data == DEFAULTS
    assert len(kept_files(path, TOO_BIG_MARKER)) == 1
    assert "not read" in warnings[0]
