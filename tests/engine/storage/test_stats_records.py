"""Records of finished games in the statistics file (issue 31, item 5): schema version 2,
upgraded in place from version 1; the newest 500 per game plus those marked to keep; and
the records survive each of the file's troubles (docs/reliability.md): a busy file (kept
beside it, merged back), a file set aside (salvaged), a file rebuilt."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine.storage import stats_recovery as recovery
from engine.storage.stats import StatsStore
from engine.storage.stats_health import SCHEMA_VERSION
from engine.storage.stats_schema import RECORDS_PER_GAME

FIXTURE = Path(__file__).parents[2] / "data" / "stats_v1" / "statistics.sqlite3"
LINE = "connect4 7x6 4453"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    folder = tmp_path / "profile"
    folder.mkdir()
    return folder / "statistics.sqlite3"


def open_store(path: Path, **attrs: float) -> StatsStore:
    store = StatsStore(path)
    for name, value in attrs.items():
        setattr(store, name, value)
    store.open()
    return store


def lines(store: StatsStore) -> list[str]:
    return [r.record for r in store.recent_records(1000)]


def test_a_version_1_file_is_upgraded_in_place_keeping_every_result(db_path: Path) -> None:
    """The fixture was written by the code before records (schema 1): it opens with no
    warning, keeps its results, gains the records table and takes a record."""
    shutil.copyfile(FIXTURE, db_path)
    with sqlite3.connect(FIXTURE) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.close()
    store = open_store(db_path)
    assert store.warnings == []
    assert store.persistent
    assert store.totals_by_game() == {"connect4": (1, 1, 0, 0), "tictactoe": (1, 0, 0, 1)}
    assert store.best_puzzle("buttons", "4x4") == (7, 12.5)
    assert store.recent_records() == []
    assert store.record_game("connect4", "7x6", "human-computer", "hard", "lost", LINE) is None
    store.close()
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("SELECT game, seats, levels, outcome, record, kept FROM records"
                            ).fetchall() == [("connect4", "human-computer", "hard", "lost",
                                              LINE, 0)]
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 3
    conn.close()
    # And it opens again as a current file.
    store = open_store(db_path)
    assert store.warnings == [] and lines(store) == [LINE]
    store.close()


def test_a_version_1_file_that_cannot_take_the_upgrade_is_shown_as_it_was(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that refuses the upgrade (read-only: as root a read-only folder cannot be
    made here, so the write's failure is made) is left exactly as it was and shown from
    memory, with the records table there too."""
    from engine.storage import stats_opening

    shutil.copyfile(FIXTURE, db_path)
    before = db_path.read_bytes()

    def refuse(conn: sqlite3.Connection) -> int:
        error = sqlite3.OperationalError("attempt to write a readonly database")
        error.sqlite_errorcode = 8  # SQLITE_READONLY
        raise error
    monkeypatch.setattr(stats_opening, "migrate", refuse)
    store = open_store(db_path)
    assert not store.persistent
    assert any("can be read but not written" in w for w in store.warnings), store.warnings
    assert store.totals_by_game()["connect4"] == (1, 1, 0, 0)
    store.record_game("connect4", "7x6", "human-human", "", "won", LINE)
    assert lines(store) == [LINE]
    store.close()
    assert db_path.read_bytes() == before


def test_the_newest_500_of_each_game_stay_with_every_kept_one(db_path: Path) -> None:
    store = open_store(db_path)
    store.close()
    extra = 7
    with sqlite3.connect(db_path) as conn:
        conn.executemany(
            "INSERT INTO records (played_at, game, variant, seats, levels, outcome, record, "
            "kept) VALUES (?, 'connect4', '7x6', 'human-human', '', 'won', ?, ?)",
            [(f"2026-01-01T00:00:{i:06d}", f"connect4 7x6 {i}", int(i in (0, 3)))
             for i in range(RECORDS_PER_GAME + extra)])
        conn.execute("INSERT INTO records (played_at, game, variant, seats, levels, outcome, "
                     "record, kept) VALUES ('x', 'tictactoe', '3x3:k3', 'human-human', '', "
                     "'drawn', 'tictactoe 3x3:k3 b2', 0)")
    conn.close()
    store = open_store(db_path)
    assert store.record_game("connect4", "7x6", "human-human", "", "won", LINE) is None
    kept = store.recent_records(10_000)
    store.close()
    c4 = [r.record for r in kept if r.game == "connect4"]
    # The newest 500 (this one and 499 of the inserted) and the two kept old ones.
    newest = [LINE] + [f"connect4 7x6 {i}" for i in range(RECORDS_PER_GAME + extra - 1,
                                                            extra, -1)]
    assert len(newest) == RECORDS_PER_GAME
    assert c4 == newest + ["connect4 7x6 3", "connect4 7x6 0"]
    assert [r.kept for r in kept if r.record in ("connect4 7x6 3", "connect4 7x6 0")] == \
        [True, True]
    # Another game's records are not touched.
    assert [r.record for r in kept if r.game == "tictactoe"] == ["tictactoe 3x3:k3 b2"]


def test_marking_keeps_a_record_past_the_newest_and_unmarking_lets_it_go(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.storage import stats_schema

    monkeypatch.setattr(stats_schema, "RECORDS_PER_GAME", 2)
    store = open_store(db_path)
    for i in range(2):
        store.record_game("connect4", "7x6", "human-human", "", "won", f"connect4 7x6 {i + 1}")
    first = store.recent_records()[-1]
    assert first.record == "connect4 7x6 1" and not first.kept
    assert store.set_kept(first.key, True) is None
    for i in range(2, 5):
        store.record_game("connect4", "7x6", "human-human", "", "won", f"connect4 7x6 {i + 1}")
    assert lines(store) == ["connect4 7x6 5", "connect4 7x6 4", "connect4 7x6 1"]
    assert store.set_kept(store.recent_records()[-1].key, False) is None
    store.record_game("connect4", "7x6", "human-human", "", "won", "connect4 7x6 6")
    assert lines(store) == ["connect4 7x6 6", "connect4 7x6 5"]
    store.close()


HOLD = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
"""


def test_records_of_a_busy_session_are_kept_beside_the_file_and_merged_back(
    db_path: Path
) -> None:
    """Another program holds the file the whole session: the result and its record wait in
    the session, are written beside the file at the end, and the next start adds them."""
    open_store(db_path).close()
    store = open_store(db_path, busy_timeout=0.2, closing_timeout=0.2)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db_path)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        warning = store.record_game("connect4", "7x6", "human-computer", "easy", "won", LINE)
        assert warning is not None and "kept" in warning
        assert store.recent_records() == []  # not readable while held (the screen says so)
        assert store.read_error is not None
        message = store.close()
        # Counted as one result: its record goes with it.
        assert message is not None and "added at the next start" in message
        assert message.startswith("1 result of this session"), message
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(10)
    assert len(recovery.pending_files(db_path)) == 1
    store = open_store(db_path)
    merged = store.recent_records()
    assert any(w.startswith("1 result kept aside earlier") for w in store.warnings), \
        store.warnings
    store.close()
    assert [(r.record, r.kept, r.key[0]) for r in merged] == [(LINE, False, 0)]
    assert recovery.pending_files(db_path) == []


def test_records_of_a_set_aside_file_are_salvaged_once(db_path: Path) -> None:
    store = open_store(db_path)
    store.record_game("connect4", "7x6", "human-computer", "easy", "won", LINE)
    store.set_kept(store.recent_records()[0].key, True)
    store.close()
    aside = db_path.with_name(db_path.name + ".corrupt-20260101-000000")
    db_path.rename(aside)
    for _ in range(2):  # merged once: the second start adds nothing
        store = open_store(db_path)
        assert [(r.record, r.kept) for r in store.recent_records()] == [(LINE, True)]
        store.close()


def test_records_survive_a_rebuild(db_path: Path) -> None:
    """A damaged header field (writing forbidden) gets the file rebuilt from its rows:
    the records (and their marks) are among them."""
    store = open_store(db_path)
    store.record_game("tictactoe", "3x3:k3", "human-human", "", "drawn", "tictactoe 3x3:k3 b2")
    store.set_kept(store.recent_records()[0].key, True)
    store.close()
    data = bytearray(db_path.read_bytes())
    data[18] = 3
    db_path.write_bytes(bytes(data))
    store = open_store(db_path)
    assert any("new file was made from its 1 result" in w for w in store.warnings), \
        store.warnings
    assert [(r.record, r.kept) for r in store.recent_records()] == [
        ("tictactoe 3x3:k3 b2", True)]
    store.close()
    store = open_store(db_path)  # the kept original is not merged again
    assert len(store.recent_records()) == 1
    store.close()


def test_a_record_waiting_in_the_session_can_be_marked(db_path: Path) -> None:
    """A record not yet in the file (the file took no write yet) is marked where it
    waits, and written with its mark."""
    store = open_store(db_path)
    store.persistent = False  # as while the file does not take writes: results wait
    store.record_game("connect4", "7x6", "human-human", "", "won", LINE)
    waiting = store.recent_records()
    assert waiting[0].key[0] == 1
    assert store.set_kept(waiting[0].key, True) is None
    store.persistent = True
    store.record_game("connect4", "7x6", "human-human", "", "lost", "connect4 7x6 1")
    assert [(r.record, r.kept, r.key[0]) for r in store.recent_records()] == [
        ("connect4 7x6 1", False, 0), (LINE, True, 0)]
    store.close()


def test_a_merged_copy_marked_to_keep_keeps_the_mark(db_path: Path) -> None:
    """Merging adds a record once (its mark is not part of what tells records apart), and
    a mark made in the copy is kept."""
    store = open_store(db_path)
    store.record_game("connect4", "7x6", "human-human", "", "won", LINE)
    store.close()
    conn = sqlite3.connect(db_path, isolation_level=None)
    row = conn.execute(f"SELECT {', '.join(recovery.COLUMNS['records'])} FROM records"
                       ).fetchone()
    conn.execute("BEGIN")
    assert recovery.merge_rows(conn, {"records": [row[:-1] + (1,)]}) == 0
    conn.execute("COMMIT")
    assert conn.execute("SELECT COUNT(*), MAX(kept) FROM records").fetchone() == (1, 1)
    conn.close()


def test_a_damaged_check_in_the_records_table_gets_the_file_rebuilt(db_path: Path) -> None:
    """A flipped bit in the records table's CHECK would make every game's write fail
    (result and record are one transaction): the probe finds it, the file is rebuilt
    with every result and record."""
    store = open_store(db_path)
    store.record_game("connect4", "7x6", "human-human", "", "won", LINE)
    store.close()
    raw = db_path.read_bytes()
    old = b"('won','lost','drawn')"
    assert raw.count(old) == 2
    second = raw.index(old, raw.index(old) + 1)  # the records table's
    db_path.write_bytes(raw[:second] + b"('wXn','lost','drawn')" + raw[second + len(old):])
    store = open_store(db_path)
    assert any("refuse new results" in w for w in store.warnings), store.warnings
    assert lines(store) == [LINE]
    assert store.record_game("connect4", "7x6", "human-human", "", "won", LINE) is None
    assert len(store.recent_records()) == 2
    store.close()
