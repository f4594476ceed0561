"""Statistics under several copies, full disks and kills (issue 13 findings 1, 2, 5, 7, 13).

Each test drives the real :class:`StatsStore` on a real SQLite file; failures are made
real where SQLite allows (``max_page_count`` gives a genuine SQLITE_FULL, another
connection a genuine lock) and kills are simulated by an exception no handler catches,
raised at the instant under test, so files are left exactly as a kill there leaves them.
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import time
from pathlib import Path

import pytest

from engine.storage import stats_rebuild
from engine.storage.stats import StatsStore
from engine.storage.stats_opening import StatsOpener

# Reliability: several real processes, full disks and simulated kills on real SQLite
# files; the quick run (python -m pytest -m "not slow") leaves them out and keeps the
# statistics basics of tests/engine/storage/test_storage_stats.py. The full suite runs them.
pytestmark = pytest.mark.slow

ROWS = 120


def make_db(path: Path, games: int = ROWS, tag: str = "old") -> None:
    """A genuine statistics database with ``games`` results in variant ``tag``."""
    store = StatsStore(path)
    assert store.open() == []
    for i in range(games):
        assert store.record_game("tictactoe", tag, "human-computer", "easy",
                                 ("won", "lost", "drawn")[i % 3]) is None
    assert store.record_puzzle("button-madness", tag, 7, 12.5, False) is None
    store.close()


def needs_rebuild(path: Path) -> bytes:
    """Damage a header field SQLite reads lazily (write version 3): the file must be
    rebuilt from its rows. Returns the damaged bytes."""
    raw = bytearray(path.read_bytes())
    raw[18] = 3
    path.write_bytes(bytes(raw))
    return bytes(raw)


def live_rows(path: Path) -> tuple[int, int]:
    """(games, puzzles) in the file, read by plain SQLite."""
    conn = sqlite3.connect(path)
    try:
        return (conn.execute("SELECT COUNT(*) FROM games").fetchone()[0],
                conn.execute("SELECT COUNT(*) FROM puzzles").fetchone()[0])
    finally:
        conn.close()


def aside(path: Path) -> list[Path]:
    return sorted(p for p in path.parent.glob(path.name + ".corrupt-*")
                  if not p.name.endswith("-journal"))


def leftovers(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f".{path.name}.*"))


# --- 1. several copies starting at once on a new profile ---------------------------------


def _start_and_record(path: str, start: float, copy: int, queue: multiprocessing.Queue) -> None:
    store = StatsStore(Path(path))
    while time.time() < start:
        pass
    warnings = store.open()
    for _ in range(5):
        warning = store.record_game("nim", f"copy{copy}", "human-computer", "perfect", "won")
        if warning:
            warnings.append(warning)
    queue.put((store.persistent, warnings))
    store.close()


@pytest.mark.parametrize("copies", [2, 4])
def test_copies_starting_together_on_a_new_profile_all_save(tmp_path: Path, copies: int) -> None:
    """Regression: the later copies failed with "table games already exists" and kept
    their statistics in memory for the whole session."""
    context = multiprocessing.get_context("spawn")
    for trial in range(3):
        path = tmp_path / f"trial{trial}" / "statistics.sqlite3"
        queue = context.Queue()
        start = time.time() + 1.5  # every copy is loaded and waiting by then
        workers = [context.Process(target=_start_and_record, args=(str(path), start, i, queue))
                   for i in range(copies)]
        for worker in workers:
            worker.start()
        results = [queue.get(timeout=60) for _ in workers]
        for worker in workers:
            worker.join(60)
        assert all(persistent and not warnings for persistent, warnings in results), results
        assert live_rows(path) == (5 * copies, 0)


@pytest.mark.parametrize("refused", [1, 2])
def test_a_rebuild_counts_the_rows_it_left_out_in_good_english(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refused: int) -> None:
    """Both counts of the rebuild notice agree with their own numbers ("1 with invalid
    values was left out", "2 … were left out"), not only the results copied."""
    path = tmp_path / "statistics.sqlite3"
    make_db(path)
    needs_rebuild(path)
    original = stats_rebuild.copy_rows
    monkeypatch.setattr(stats_rebuild, "copy_rows",
                        lambda new, rows: original(new, rows) - refused)
    store = StatsStore(path)
    warnings = store.open()
    store.close()
    verb = "was" if refused == 1 else "were"
    notice = [w for w in warnings if "new file was made from its" in w]
    assert len(notice) == 1, warnings
    assert f"({refused} with invalid values {verb} left out)" in notice[0], notice


# --- 2. a full disk during a rebuild ---------------------------------------------------


def _fill_disk_during_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the new file of a rebuild meet a real SQLITE_FULL (a disk with no room)."""
    original = stats_rebuild.copy_rows

    def full(new: sqlite3.Connection, rows: dict) -> int:
        if not new.execute("PRAGMA database_list").fetchone()[2]:
            return original(new, rows)  # memory has room
        pages = new.execute("PRAGMA page_count").fetchone()[0]
        new.execute(f"PRAGMA max_page_count = {pages}")
        return original(new, rows)

    monkeypatch.setattr(stats_rebuild, "copy_rows", full)


def test_full_disk_during_a_rebuild_is_not_called_corruption(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the file was moved aside as corrupt ("its rows could not all be read
    (database or disk is full)") and the next start opened an empty database."""
    path = tmp_path / "statistics.sqlite3"
    make_db(path)
    damaged = needs_rebuild(path)
    with monkeypatch.context() as patch:
        _fill_disk_during_copy(patch)
        store = StatsStore(path)
        warnings = store.open()
        assert len(warnings) == 1, warnings
        assert "full" in warnings[0] and "left as it was" in warnings[0]
        assert "could not all be read" not in warnings[0] and "kept as" not in warnings[0]
        assert not store.persistent
        # Its results are still shown, and this session's result is kept.
        assert store.totals_by_game()["tictactoe"][0] == ROWS
        assert store.record_game("nim", "new", "human-computer", "easy", "won") is None
        assert store.totals_by_game()["nim"] == (1, 1, 0, 0)
        message = store.close()
    assert message is not None and "added at the next start" in message
    assert path.read_bytes() == damaged  # untouched
    assert aside(path) == [] and leftovers(path) == []

    # Room again: the next start repairs the file and adds the session's result.
    store = StatsStore(path)
    warnings = store.open()
    assert store.persistent
    assert any("new file was made from its" in w for w in warnings), warnings
    assert any("added back" in w for w in warnings), warnings
    assert store.totals_by_game() == {"nim": (1, 1, 0, 0),
                                      "tictactoe": (ROWS, ROWS // 3, ROWS // 3, ROWS // 3)}
    store.close()
    assert live_rows(path) == (ROWS + 1, 1)
    (kept,) = aside(path)
    assert kept.read_bytes() == damaged
    # And nothing is added twice at a later start.
    store = StatsStore(path)
    assert store.open() == []
    store.close()
    assert live_rows(path) == (ROWS + 1, 1)


# --- 5. a kill at any instant of a rebuild ----------------------------------------------


class Killed(BaseException):
    """Stands in for SIGKILL: nothing catches it, so no clean-up runs after it."""


def _kill_at(monkeypatch: pytest.MonkeyPatch, stage: str) -> None:
    from engine.storage import stats_recovery

    if stage == "copying":
        def copy(new: sqlite3.Connection, rows: dict) -> int:
            raise Killed
        monkeypatch.setattr(stats_rebuild, "copy_rows", copy)
    elif stage == "kept":
        keep = stats_recovery.keep_original

        def kept_then_die(path: Path) -> Path:
            keep(path)
            raise Killed
        monkeypatch.setattr(stats_recovery, "keep_original", kept_then_die)
    elif stage == "before rename":
        def no_rename(src: object, dst: object) -> None:
            raise Killed
        monkeypatch.setattr(stats_rebuild.os, "replace", no_rename)


@pytest.mark.parametrize("stage", ["copying", "kept", "before rename"])
def test_a_kill_during_a_rebuild_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stage: str
) -> None:
    """Regression: a kill between the two renames left an empty database at the next
    start, the data only in ``.corrupt-…`` and a hidden ``.rebuild`` file."""
    path = tmp_path / "statistics.sqlite3"
    make_db(path)
    damaged = needs_rebuild(path)
    with monkeypatch.context() as patch:
        _kill_at(patch, stage)
        with pytest.raises(Killed):
            StatsStore(path).open()
    # However the kill left it, the file in place is the original.
    assert path.read_bytes() == damaged
    for _ in range(2):  # the next start finishes; the one after finds nothing to do
        store = StatsStore(path)
        store.open()
        assert store.persistent
        assert store.totals_by_game()["tictactoe"][0] == ROWS
        store.close()
        assert live_rows(path) == (ROWS, 1)
        assert leftovers(path) == []
        assert len(aside(path)) == 1 and aside(path)[0].read_bytes() == damaged


def test_an_old_versions_interrupted_rebuild_is_recovered(tmp_path: Path) -> None:
    """The previous version moved the original aside, then renamed the new file in: a kill
    between them left no database, the rows in ``.corrupt-…`` and a ``.rebuild`` file."""
    path = tmp_path / "statistics.sqlite3"
    make_db(path)
    rebuilt = path.with_name(f".{path.name}.abc123.rebuild")
    rebuilt.write_bytes(path.read_bytes())
    os.rename(path, path.with_name(path.name + ".corrupt-20261101-120000"))
    store = StatsStore(path)
    warnings = store.open()
    assert store.persistent
    assert any(f"{ROWS + 1} results kept aside earlier" in w for w in warnings), warnings
    assert store.totals_by_game()["tictactoe"][0] == ROWS
    store.close()
    assert leftovers(path) == []  # the stale .rebuild is gone
    assert live_rows(path) == (ROWS, 1)


def test_a_rebuild_in_progress_in_another_copy_is_not_removed(tmp_path: Path) -> None:
    """Temporaries are only stale while this copy holds the profile's lock: another
    copy's rebuild holds it, so a start meanwhile waits instead of deleting its file."""
    from engine.storage.lock import folder_lock

    path = tmp_path / "statistics.sqlite3"
    make_db(path)
    in_progress = path.with_name(f".{path.name}.xyz.rebuild")
    in_progress.write_bytes(b"")
    store = StatsStore(path)
    store.lock_timeout = 0.1
    with folder_lock(path.parent):
        # A different process holds it in real life; flock locks are per open file, so
        # a second open here is refused the same way.
        store.open()
    assert in_progress.exists()
    store.close()
    StatsStore(path).open()
    assert not in_progress.exists()


# --- 7. locked writes wait and retry ----------------------------------------------------


def _writer(path: str, copy: int, count: int) -> None:
    store = StatsStore(Path(path))
    store.busy_timeout = 0.01  # meet the lock often: every result must still arrive
    store.open()
    for _ in range(count):
        store.record_game("connect4", f"copy{copy}", "human-human", "", "won")
    store.close()


def test_open_waits_when_another_copy_commits_while_it_opens(tmp_path: Path,
                                                            monkeypatch) -> None:
    """Regression: "database is locked" from open() itself (seen in CI, three copies).

    The write probe's rollback unloads the connection's schema; when another
    copy committed meanwhile, the start-up merge met the lock (and rightly put
    itself off), and the session tables then had to read the schema again.
    """
    import threading

    path = tmp_path / "statistics.sqlite3"
    StatsStore(path).open()
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    recover = StatsOpener._recover

    def commit_meanwhile(opener: StatsOpener, conn: sqlite3.Connection) -> None:
        holder.execute("BEGIN EXCLUSIVE")  # what a commit holds for its moment
        threading.Timer(0.3, lambda: holder.execute("COMMIT")).start()
        recover(opener, conn)

    monkeypatch.setattr(StatsOpener, "_recover", commit_meanwhile)
    store = StatsStore(path)
    store.busy_timeout = 0.01
    assert store.open() == []
    assert store.persistent
    store.record_game("connect4", "copy", "human-human", "", "won")
    store.close()
    holder.close()
    assert live_rows(path) == (1, 0)


def test_copies_writing_at_once_never_drop_a_result(tmp_path: Path) -> None:
    """Regression: a write that met "database is locked" was dropped (1 in 3,000-6,000)."""
    path = tmp_path / "statistics.sqlite3"
    StatsStore(path).open()
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_writer, args=(str(path), i, 150)) for i in range(3)]
    for worker in workers:
        worker.start()
    # Meanwhile another program keeps taking the write lock for a moment.
    holder = sqlite3.connect(path, isolation_level=None, timeout=10)
    while any(worker.is_alive() for worker in workers):
        holder.execute("BEGIN IMMEDIATE")
        time.sleep(0.05)
        holder.execute("COMMIT")
        time.sleep(0.02)
    for worker in workers:
        worker.join(60)
    holder.close()
    # What could not be written before its copy closed waits beside the file.
    store = StatsStore(path)
    store.open()
    assert store.totals_by_game() == {"connect4": (450, 450, 0, 0)}
    store.close()
    assert live_rows(path) == (450, 0)


def test_a_file_replaced_by_another_copy_gets_the_results(tmp_path: Path) -> None:
    """A copy whose file was replaced by another copy's repair writes to the new file,
    not to the old one nobody reads any more."""
    path = tmp_path / "statistics.sqlite3"
    make_db(path, games=3)
    first = StatsStore(path)
    assert first.open() == []
    replacement = path.with_name("replacement.sqlite3")
    replacement.write_bytes(path.read_bytes())
    os.replace(replacement, path)  # what a repair by another copy does
    assert first.record_game("nim", "after", "human-human", "", "won") is None
    first.close()
    assert live_rows(path) == (4, 1)


# --- 13. what a kill -9 leaves is cleaned up at the next start ---------------------------


def test_stale_save_temporaries_are_removed_at_start(profile: Path) -> None:
    """Regression: hidden ``.NAME.tmp`` files a kill left were never cleaned up."""
    from engine.storage.saved_games import SAVED_FOLDER
    from tests.conftest import make_app

    saved = profile / SAVED_FOLDER
    saved.mkdir(parents=True)
    stale = saved / ".tictactoe.json.deadbeef.tmp"
    stale.write_text("{half a save")
    save = saved / "tictactoe.json"
    save.write_text("{}")
    other = saved / ".notes.tmp"  # not a name the arcade makes: not ours to delete
    other.write_text("mine")
    app = make_app(profile)
    try:
        assert not stale.exists()
        assert save.read_text() == "{}" and other.read_text() == "mine"
    finally:
        app.quit()
        app.stats.close()


def test_a_pending_files_half_written_temporary_is_removed(tmp_path: Path) -> None:
    path = tmp_path / "statistics.sqlite3"
    make_db(path, games=1)
    half = path.with_name(f".{path.name}.pending-20261123-101010-77.json.0badf00d.tmp")
    half.write_text('{"format": ')
    store = StatsStore(path)
    assert store.open() == []
    store.close()
    assert not half.exists()


def test_a_column_name_in_another_case_is_still_that_column(tmp_path: Path) -> None:
    """A flipped case bit in the stored schema ("outcoMe") names the same column to SQLite;
    the file was set aside as lacking a column, and a new one started."""
    path = tmp_path / "statistics.sqlite3"
    make_db(path, games=6)
    raw = path.read_bytes()
    # The games table's (the first; the records table of version 2 has one too).
    assert raw.count(b"outcome TEXT") == 2
    path.write_bytes(raw.replace(b"outcome TEXT", b"outcoMe TEXT", 1))
    store = StatsStore(path)
    assert store.open() == []
    assert store.totals_by_game() == {"tictactoe": (6, 2, 2, 2)}
    store.close()
    assert aside(path) == []
