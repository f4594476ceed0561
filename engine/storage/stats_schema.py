"""The statistics database's tables, and how a connection to it is made and written to.

Shared by the parts of :class:`engine.storage.stats.StatsStore`: the schema (the
file's tables and the session's own tables), connections that never fail on
damaged text, and the one explicit transaction every write is. No pygame here.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from . import stats_recovery as recovery
from .stats_health import SCHEMA_VERSION

#: Records kept per game besides those the player marks to keep (the newest).
RECORDS_PER_GAME = 500

OUTCOMES = ("won", "lost", "drawn")

# Side files SQLite may keep next to the database; they belong to it and must
# travel with it when it is moved aside, or the moved copy loses data.
SIDE_SUFFIXES = ("-journal", "-wal", "-shm")

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
        id INTEGER PRIMARY KEY,
        played_at TEXT NOT NULL,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        mode TEXT NOT NULL,
        opponent TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK(outcome IN ('won','lost','drawn'))
    )""",
    """CREATE TABLE IF NOT EXISTS puzzles (
        id INTEGER PRIMARY KEY,
        played_at TEXT NOT NULL,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        moves INTEGER NOT NULL,
        seconds REAL NOT NULL,
        helped INTEGER NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS games_by_key ON games(game, variant, mode, opponent)",
    "CREATE INDEX IF NOT EXISTS puzzles_by_key ON puzzles(game, variant, helped, moves, seconds)",
    recovery.RECOVERED_TABLE,
    # Version 2: every finished two-player game as its record line (docs/records.md).
    # ``seats`` and ``levels`` are the games table's mode and opponent; ``record`` is ''
    # for a game with no record (a position set by hand); ``kept``: marked by the player
    # to keep beyond the newest RECORDS_PER_GAME of its game.
    """CREATE TABLE IF NOT EXISTS records (
        id INTEGER PRIMARY KEY,
        played_at TEXT NOT NULL,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        seats TEXT NOT NULL,
        levels TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK(outcome IN ('won','lost','drawn')),
        record TEXT NOT NULL,
        kept INTEGER NOT NULL DEFAULT 0 CHECK(kept IN (0, 1))
    )""",
    "CREATE INDEX IF NOT EXISTS records_by_game ON records(game, kept)",
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)
# The statements that create each table and its index (for a missing table).
TABLE_SCHEMA = {
    "games": (SCHEMA[0], SCHEMA[2]),
    "puzzles": (SCHEMA[1], SCHEMA[3]),
    "records": (SCHEMA[5], SCHEMA[6]),
}
# What upgrades a file of each older version to the next, run in one transaction with
# the new user_version: a kill in between leaves the file as it was, upgraded next time.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: TABLE_SCHEMA["records"],
}


def lenient_text(raw: bytes) -> str:
    """Decode TEXT read from the database without ever failing.

    A damaged file can hold bytes that are not UTF-8 (sqlite3 would raise on
    the whole query) or NUL characters (which fonts refuse to draw); a damaged
    name is shown with replacement characters instead.
    """
    return raw.decode("utf-8", "replace").replace("\x00", "\ufffd")


def connect(path: Path, timeout: float) -> sqlite3.Connection:
    """A connection to the database at ``path`` that waits ``timeout`` seconds for a lock."""
    # isolation_level=None: we issue BEGIN/COMMIT ourselves so every write
    # is exactly one explicit transaction.
    # check_same_thread=False: the store runs on a worker thread of its own once open
    # (engine.storage.stats_worker), one thread at a time.
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None,
                           check_same_thread=False)
    conn.text_factory = lenient_text
    return conn


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One explicit write transaction: committed at the end, rolled back on any error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise


def now() -> str:
    """The time a result is recorded at, as stored in ``played_at``."""
    # Microseconds: games recorded within one second still sort in the order played
    # (the level "Match me" plays is read from that order).
    return datetime.now(UTC).isoformat(timespec="microseconds")


def file_inode(path: Path) -> int | None:
    """The inode of the file at ``path`` (None if there is none): another copy's
    repair replaces the file, and a connection to the old one writes where nobody reads."""
    try:
        return os.stat(path).st_ino
    except OSError:
        return None


def create_schema(conn: sqlite3.Connection) -> None:
    """Create our tables (those missing) in one write transaction."""
    with transaction(conn):
        for statement in SCHEMA:
            conn.execute(statement)


def schema_version(conn: sqlite3.Connection) -> int:
    """The file's ``user_version``."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection) -> int:
    """Upgrade a file of an older schema version in place, one transaction per step
    (each adds what its version lacks and sets the new version); return the version it
    had. Raises sqlite3.Error when the file does not take the upgrade (busy, read-only,
    full): the file is then as it was."""
    old = version = schema_version(conn)
    while version < SCHEMA_VERSION:
        with transaction(conn):
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version + 1}")
        version += 1
    return old


def trim_records(conn: sqlite3.Connection, schema: str = "main") -> int:
    """Remove the records beyond the newest :data:`RECORDS_PER_GAME` of each game that the
    player did not mark to keep; return how many. Inside the caller's transaction."""
    before = conn.total_changes
    conn.execute(
        f"DELETE FROM {schema}.records WHERE kept = 0 AND id IN ("
        "SELECT id FROM (SELECT id, ROW_NUMBER() OVER "
        f"(PARTITION BY game ORDER BY id DESC) AS newer FROM {schema}.records) "
        "WHERE newer > ?)", (RECORDS_PER_GAME,))
    return conn.total_changes - before


def memory_database() -> sqlite3.Connection:
    """An empty in-memory database with our schema."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    conn.text_factory = lenient_text
    create_schema(conn)
    return conn


def add_unsaved_tables(conn: sqlite3.Connection | None) -> None:
    """Session tables for results not yet in the file, and views that show both.

    TEMP objects live in the connection's own temporary database: writing
    them needs no lock on the file, so a result is never refused for a busy
    file, and the summaries read ``all_games``/``all_puzzles``.
    """
    if conn is None:
        return
    for table, names in recovery.COLUMNS.items():
        columns = ", ".join(names)
        conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS unsaved_{table} "
                     f"(seq INTEGER PRIMARY KEY, {columns})")
        # ``src, ord``: the order the results were recorded in (the file's rows by rowid,
        # then this session's waiting ones), which the clock cannot give: a clock set
        # wrong for a while must not reorder what was played.
        conn.execute(f"CREATE TEMP VIEW IF NOT EXISTS all_{table} AS "
                     f"SELECT {columns}, 0 AS src, rowid AS ord FROM main.{table} UNION ALL "
                     f"SELECT {columns}, 1 AS src, seq AS ord FROM temp.unsaved_{table}")
