"""Statistics database: recording, summaries, recovery from bad files, crash safety."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.storage.stats import GameSummary, StatsStore
from engine.storage.stats_health import SCHEMA_VERSION

REPO_ROOT = Path(__file__).resolve().parents[3]


def aside_files(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".corrupt-*"))


def only_aside(path: Path) -> Path:
    kept = [p for p in aside_files(path) if not p.name.endswith(("-journal", "-wal", "-shm"))]
    assert len(kept) == 1, kept
    return kept[0]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "statistics.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[StatsStore]:
    s = StatsStore(db_path)
    assert s.open() == []
    yield s
    s.close()


def make_real_db(path: Path, games: int = 300) -> bytes:
    """Create a genuine statistics database with ``games`` rows; return its bytes."""
    s = StatsStore(path)
    assert s.open() == []
    for i in range(games):
        s.record_game("tictactoe", "3x3", "human-computer", "easy", ("won", "lost")[i % 2])
    s.close()
    return path.read_bytes()


def assert_fresh_and_working(path: Path) -> None:
    """The database at ``path`` is new, empty and accepts records (persistently)."""
    s = StatsStore(path)
    assert s.open() == []
    assert s.persistent
    assert s.totals_by_game() == {}
    assert s.record_game("connect4", "6x7", "human-human", "", "drawn") is None
    s.close()
    s = StatsStore(path)
    s.open()
    assert s.totals_by_game() == {"connect4": (1, 0, 0, 1)}
    s.close()


# --- recording and summaries ------------------------------------------------


def test_new_database_is_created_with_folders(db_path: Path) -> None:
    s = StatsStore(db_path)
    assert s.open() == []
    assert s.persistent
    s.close()
    assert db_path.is_file()
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "puzzles"} <= tables


def test_record_and_summarise(store: StatsStore) -> None:
    records = [
        ("tictactoe", "3x3", "human-computer", "easy", "won"),
        ("tictactoe", "3x3", "human-computer", "easy", "won"),
        ("tictactoe", "3x3", "human-computer", "easy", "lost"),
        ("tictactoe", "3x3", "human-computer", "hard", "drawn"),
        ("tictactoe", "4x4", "human-human", "", "lost"),
        ("connect4", "6x7", "computer-human", "medium", "won"),
    ]
    for record in records:
        assert store.record_game(*record) is None

    assert store.game_summary() == [
        GameSummary("connect4", "6x7", "computer-human", "medium", 1, 1, 0, 0),
        GameSummary("tictactoe", "3x3", "human-computer", "easy", 3, 2, 1, 0),
        GameSummary("tictactoe", "3x3", "human-computer", "hard", 1, 0, 0, 1),
        GameSummary("tictactoe", "4x4", "human-human", "", 1, 0, 1, 0),
    ]
    assert store.totals_by_game() == {"connect4": (1, 1, 0, 0), "tictactoe": (5, 2, 2, 1)}


def test_players_totals_leave_out_computer_only_games(store: StatsStore) -> None:
    records = [
        ("tictactoe", "3x3", "human-computer", "easy", "won"),
        ("tictactoe", "3x3", "computer-human", "hard", "lost"),
        ("tictactoe", "3x3", "human-human", "", "drawn"),
        ("tictactoe", "4x4-3p", "computer-human-computer", "easy vs hard", "won"),
        ("tictactoe", "3x3", "computer-computer", "easy vs perfect", "lost"),
        ("tictactoe", "4x4-3p", "computer-computer-computer", "easy vs easy vs hard", "won"),
        ("connect4", "7x6", "computer-computer", "hard vs hard", "won"),
    ]
    for record in records:
        assert store.record_game(*record) is None
    assert store.totals_by_game(players_only=True) == {"tictactoe": (4, 2, 1, 1)}
    # All results are still there for whoever asks for them.
    assert store.totals_by_game() == {"connect4": (1, 1, 0, 0), "tictactoe": (6, 3, 2, 1)}


def test_records_survive_reopening(db_path: Path) -> None:
    s = StatsStore(db_path)
    s.open()
    s.record_game("tictactoe", "3x3", "human-human", "", "won")
    s.record_puzzle("lights", "5x5", 12, 30.5, False)
    s.close()

    s = StatsStore(db_path)
    assert s.open() == []
    assert s.totals_by_game() == {"tictactoe": (1, 1, 0, 0)}
    assert s.best_puzzle("lights", "5x5") == (12, 30.5)
    s.close()


def test_best_puzzle_prefers_fewest_moves_then_time_and_ignores_helped(
    store: StatsStore,
) -> None:
    assert store.best_puzzle("lights", "5x5") is None
    assert store.record_puzzle("lights", "5x5", 15, 10.0, False) is None
    assert store.record_puzzle("lights", "5x5", 12, 40.0, False) is None
    assert store.record_puzzle("lights", "5x5", 12, 25.5, False) is None
    assert store.record_puzzle("lights", "5x5", 3, 1.0, True) is None  # helped: no best
    assert store.record_puzzle("lights", "5x5", 4, 2.0, 2) is None  # two hints: no best
    assert store.record_puzzle("lights", "7x7", 1, 0.5, False) is None  # other variant
    assert store.best_puzzle("lights", "5x5") == (12, 25.5)
    assert store.best_puzzle("lights", "7x7") == (1, 0.5)


def test_only_helped_puzzles_means_no_best(store: StatsStore) -> None:
    store.record_puzzle("lights", "5x5", 3, 1.0, True)
    assert store.best_puzzle("lights", "5x5") is None


@pytest.mark.parametrize(
    "args",
    [
        ("tictactoe", "3x3", "human-computer", "easy", "win"),
        ("tictactoe", "3x3", "human-computer", "easy", None),
        ("", "3x3", "human-computer", "easy", "won"),
        ("tictactoe", None, "human-computer", "easy", "won"),
        ("tictactoe", "3x3", "", "easy", "won"),
        ("tictactoe", "3x3", "human-computer", None, "won"),
    ],
)
def test_record_game_rejects_bad_arguments(store: StatsStore, args: tuple) -> None:
    with pytest.raises(ValueError):
        store.record_game(*args)
    assert store.totals_by_game() == {}


@pytest.mark.parametrize(
    ("moves", "seconds", "helped"),
    [
        (-1, 1.0, False),
        (1.5, 1.0, False),
        (True, 1.0, False),
        (3, -0.1, False),
        (3, float("nan"), False),
        (3, float("inf"), False),
        (3, "10", False),
        (3, 1.0, -1),
        (3, 1.0, "no"),
    ],
)
def test_record_puzzle_rejects_bad_arguments(
    store: StatsStore, moves: object, seconds: object, helped: object
) -> None:
    with pytest.raises(ValueError):
        store.record_puzzle("lights", "5x5", moves, seconds, helped)  # type: ignore[arg-type]
    assert store.record_puzzle("lights", "5x5", 3, 1.0, False) is None
    assert store.best_puzzle("lights", "5x5") == (3, 1.0)


def test_using_store_before_open_is_a_programming_error(db_path: Path) -> None:
    with pytest.raises(RuntimeError):
        StatsStore(db_path).record_game("t", "v", "human-human", "", "won")
    assert not db_path.exists()


# --- bad files --------------------------------------------------------------


def _check_kept_aside(db_path: Path, original: bytes, warnings: list[str]) -> Path:
    kept = only_aside(db_path)
    assert kept.read_bytes() == original
    assert len(warnings) == 1
    assert str(db_path) in warnings[0]
    assert str(kept) in warnings[0]
    return kept


def test_random_bytes_are_kept_aside(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    original = os.urandom(50_000)
    db_path.write_bytes(original)
    s = StatsStore(db_path)
    warnings = s.open()
    assert s.persistent
    s.close()
    _check_kept_aside(db_path, original, warnings)
    assert_fresh_and_working(db_path)


@pytest.mark.slow
@pytest.mark.parametrize("fraction", [0.5, 0.9])
def test_truncated_real_database_is_kept_aside(db_path: Path, fraction: float) -> None:
    full = make_real_db(db_path)
    original = full[: int(len(full) * fraction)]
    db_path.write_bytes(original)
    s = StatsStore(db_path)
    warnings = s.open()
    s.close()
    kept = _check_kept_aside(db_path, original, warnings)
    assert "damaged" in warnings[0]
    assert_fresh_and_working(db_path)
    assert kept.read_bytes() == original


def test_foreign_sqlite_database_is_kept_aside(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
        conn.execute("INSERT INTO recipes VALUES ('soup')")
    conn.close()
    original = db_path.read_bytes()
    s = StatsStore(db_path)
    warnings = s.open()
    s.close()
    _check_kept_aside(db_path, original, warnings)
    assert_fresh_and_working(db_path)


def test_missing_column_is_kept_aside(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT)")
        conn.execute("CREATE TABLE puzzles (id INTEGER PRIMARY KEY)")
        conn.execute("PRAGMA user_version = 1")
    conn.close()
    original = db_path.read_bytes()
    s = StatsStore(db_path)
    warnings = s.open()
    s.close()
    _check_kept_aside(db_path, original, warnings)
    assert "lacks columns" in warnings[0]


def test_newer_version_is_kept_aside(db_path: Path) -> None:
    make_real_db(db_path, games=5)
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    original = db_path.read_bytes()
    s = StatsStore(db_path)
    warnings = s.open()
    s.close()
    kept = _check_kept_aside(db_path, original, warnings)
    assert "newer version" in warnings[0]
    assert_fresh_and_working(db_path)
    # The kept copy is still a usable database with all its records.
    with sqlite3.connect(kept) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 5
    conn.close()


def test_side_journal_travels_with_the_kept_file(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"garbage" * 100)
    journal = db_path.with_name(db_path.name + "-journal")
    journal.write_bytes(b"journal bytes")
    s = StatsStore(db_path)
    warnings = s.open()
    s.close()
    kept = only_aside(db_path)
    assert (kept.parent / (kept.name + "-journal")).read_bytes() == b"journal bytes"
    assert not journal.exists()
    assert len(warnings) == 1


def test_folder_in_the_way_is_moved_aside(db_path: Path) -> None:
    db_path.mkdir(parents=True)
    (db_path / "keep.txt").write_text("mine")
    s = StatsStore(db_path)
    warnings = s.open()
    assert s.persistent
    s.close()
    kept = only_aside(db_path)
    assert (kept / "keep.txt").read_text() == "mine"
    assert len(warnings) == 1 and str(kept) in warnings[0]
    assert_fresh_and_working(db_path)


def test_empty_file_is_initialised_not_moved(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"")
    assert_fresh_and_working(db_path)
    assert aside_files(db_path) == []


def test_locked_database_is_not_mistaken_for_corruption(db_path: Path) -> None:
    original = make_real_db(db_path, games=3)
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program holds the database
    try:
        s = StatsStore(db_path)
        s.busy_timeout = 0.05
        warnings = s.open()
        assert not s.persistent
        assert len(warnings) == 1 and "locked" in warnings[0]
        s.close()
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert aside_files(db_path) == []
    assert db_path.read_bytes() == original


def test_two_corrupt_files_in_a_row_get_distinct_names(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    for content in (b"first bad file" * 10, b"second bad file" * 10):
        db_path.write_bytes(content)
        s = StatsStore(db_path)
        s.open()
        s.close()
    contents = sorted(p.read_bytes() for p in aside_files(db_path))
    assert contents == sorted([b"first bad file" * 10, b"second bad file" * 10])


# --- unwritable places and write failures ------------------------------------


def test_uncreatable_folder_falls_back_to_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    s = StatsStore(blocker / "statistics.sqlite3")
    warnings = s.open()
    assert not s.persistent
    assert len(warnings) == 1 and "will not be saved" in warnings[0]
    # The session still works, in memory.
    assert s.record_game("tictactoe", "3x3", "human-human", "", "won") is None
    assert s.totals_by_game() == {"tictactoe": (1, 1, 0, 0)}
    s.close()
    assert blocker.read_text() == "a file where the data folder should be"


@pytest.fixture
def read_only_dir(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "locked"
    folder.mkdir()
    yield folder
    folder.chmod(stat.S_IRWXU)


def _lock(folder: Path) -> None:
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    if os.access(folder, os.W_OK):
        folder.chmod(stat.S_IRWXU)
        pytest.skip("permissions are not enforced here (running as root?)")


def test_read_only_folder_falls_back_to_memory(read_only_dir: Path) -> None:
    _lock(read_only_dir)
    s = StatsStore(read_only_dir / "statistics.sqlite3")
    warnings = s.open()
    assert not s.persistent
    assert len(warnings) == 1 and "will not be saved" in warnings[0]
    assert s.record_game("tictactoe", "3x3", "human-human", "", "won") is None
    s.close()
    assert os.listdir(read_only_dir) == []


def test_existing_database_in_read_only_folder_is_read_into_memory(
    read_only_dir: Path,
) -> None:
    path = read_only_dir / "statistics.sqlite3"
    original = make_real_db(path, games=4)
    _lock(read_only_dir)
    s = StatsStore(path)
    warnings = s.open()
    assert not s.persistent
    assert len(warnings) == 1 and "not saved" in warnings[0]
    assert s.totals_by_game() == {"tictactoe": (4, 2, 2, 0)}  # old records still shown
    assert s.record_game("tictactoe", "3x3", "human-human", "", "won") is None
    assert s.totals_by_game() == {"tictactoe": (5, 3, 2, 0)}
    s.close()
    assert path.read_bytes() == original


def test_unreadable_database_is_left_alone(db_path: Path) -> None:
    original = make_real_db(db_path, games=2)
    db_path.chmod(0)
    try:
        if os.access(db_path, os.R_OK):
            pytest.skip("permissions are not enforced here (running as root?)")
        s = StatsStore(db_path)
        warnings = s.open()
        assert not s.persistent
        assert len(warnings) == 1 and "Permission denied" in warnings[0]
        assert s.record_game("tictactoe", "3x3", "human-human", "", "won") is None
        s.close()
    finally:
        db_path.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert aside_files(db_path) == []
    assert db_path.read_bytes() == original


def test_disk_full_keeps_the_result_and_writes_it_once_there_is_room(
    store: StatsStore, db_path: Path
) -> None:
    # Cap the database at its current size: SQLite then fails inserts with a
    # real SQLITE_FULL error, exactly as on a full disk.
    conn = store._conn
    assert conn is not None
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")

    recorded = 0
    warning = None
    for _ in range(5000):
        warning = store.record_game("tictactoe", "3x3", "human-computer", "easy", "won")
        if warning is not None:
            break
        recorded += 1
    assert warning is not None, "the size cap never triggered"
    assert "full" in warning and "kept" in warning
    # The result that met the full disk is not lost: it is shown, and waits.
    assert store.totals_by_game() == {"tictactoe": (recorded + 1, recorded + 1, 0, 0)}
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    on_disk = sqlite3.connect(db_path).execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert on_disk == recorded
    # The same cause is said once, not at every result.
    assert store.record_puzzle("lights", "5x5", 3, 1.0, False) is None
    assert store.puzzle_summary()[0].solved == 1
    # Room again: the next result writes every waiting one with it.
    conn.execute(f"PRAGMA max_page_count = {pages * 100}")
    assert store.record_game("tictactoe", "3x3", "human-computer", "easy", "lost") is None
    check = sqlite3.connect(db_path)
    assert check.execute("SELECT COUNT(*) FROM games").fetchone()[0] == recorded + 2
    assert check.execute("SELECT COUNT(*) FROM puzzles").fetchone()[0] == 1
    check.close()


@pytest.mark.slow
def test_results_that_never_reach_the_file_are_kept_beside_it_and_merged(
    store: StatsStore, db_path: Path
) -> None:
    other = sqlite3.connect(db_path, isolation_level=None)
    # Another program holds the write lock the whole session (readers may still read).
    other.execute("BEGIN IMMEDIATE")
    store.busy_timeout = store.closing_timeout = 0.05
    store._conn.execute("PRAGMA busy_timeout = 50")
    try:
        warning = store.record_game("nim", "3,4,5", "human-computer", "perfect", "won")
        assert warning is not None and "locked" in warning
        assert store.totals_by_game() == {"nim": (1, 1, 0, 0)}
        message = store.close()
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert message is not None and "added at the next start" in message
    pending = list(db_path.parent.glob(db_path.name + ".pending-*.json"))
    assert len(pending) == 1
    again = StatsStore(db_path)
    warnings = again.open()
    assert again.totals_by_game() == {"nim": (1, 1, 0, 0)}
    assert any("added back" in w for w in warnings), warnings
    assert not list(db_path.parent.glob(db_path.name + ".pending-*.json"))
    again.close()
    # Merging is not repeated: a third start finds one result.
    third = StatsStore(db_path)
    assert third.open() == []
    assert third.totals_by_game() == {"nim": (1, 1, 0, 0)}
    third.close()


# --- crash safety -----------------------------------------------------------

_WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from engine.storage.stats import StatsStore

    store = StatsStore(Path(sys.argv[1]))
    assert store.open() == []
    n = 0
    while True:
        outcome = ("won", "lost", "drawn")[n % 3]
        warning = store.record_game("tictactoe", "3x3", "human-computer", "easy", outcome)
        assert warning is None, warning
        n += 1
        print(n, flush=True)  # only after the commit returned
    """
)


def _run_and_kill_writer(db_path: Path, kill_after: int, delay: float) -> int:
    """Start a writer process, SIGKILL it mid-burst; return how many commits it reported."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(db_path)],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watchdog = threading.Timer(60, proc.kill)  # bound the test even if the child hangs
    watchdog.start()
    committed = 0
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            committed = int(line)
            if committed >= kill_after:
                break
        time.sleep(delay)  # land somewhere inside the following writes
        proc.kill()  # SIGKILL on POSIX: no cleanup, no atexit, no final commit
        rest, err = proc.communicate(timeout=30)
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert committed >= kill_after, f"writer died early: {err}"
    for line in rest.split():
        committed = int(line)
    return committed


@pytest.mark.slow
def test_killed_writer_leaves_consistent_database(tmp_path: Path) -> None:
    killed_mid_transaction = 0
    for attempt in range(12):
        db_path = tmp_path / f"run{attempt}" / "statistics.sqlite3"
        committed = _run_and_kill_writer(
            db_path, kill_after=20 + 7 * attempt, delay=0.002 * attempt
        )
        # A leftover rollback journal means the kill hit an unfinished write.
        if db_path.with_name(db_path.name + "-journal").exists():
            killed_mid_transaction += 1

        with sqlite3.connect(db_path) as conn:  # also rolls back any hot journal
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            count, max_id, nulls = conn.execute(
                "SELECT COUNT(*), MAX(id), SUM(played_at IS NULL OR outcome IS NULL) FROM games"
            ).fetchone()
        conn.close()
        # Every commit the writer reported is there; at most the one in flight
        # (committed but not yet printed) is extra; no partial or phantom rows.
        assert committed <= count <= committed + 1
        assert max_id == count
        assert nulls == 0

        s = StatsStore(db_path)
        assert s.open() == []
        assert s.persistent
        assert s.totals_by_game()["tictactoe"][0] == count
        assert aside_files(db_path) == []
        s.close()
        if killed_mid_transaction and attempt >= 2:
            break
    # Make sure the interesting case (killed inside a transaction) was exercised.
    assert killed_mid_transaction > 0
