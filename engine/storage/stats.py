"""Game and puzzle statistics in a small SQLite database in the data folder.

SQLite gives us crash safety for free: every write is a transaction with the
default rollback journal, so a game killed mid-write leaves the database as it
was before that write. (The rollback journal rather than WAL is chosen because
it needs no shared-memory file and so also works on network and synced
folders.)

As with settings, a database we cannot use is moved aside, never deleted, and
no problem here ever stops the game: it only produces a warning.

Several copies of the game may share one profile. Opening (creating the
schema, repairing a damaged file, merging rows kept aside) happens under the
profile folder's lock (:mod:`engine.storage.lock`); a result that meets a
locked or full database is kept in the session (and shown) and written as soon
as the file takes it, or, when the session ends first, beside the file for the
next start to merge (:mod:`engine.storage.stats_recovery`). A full disk is
never taken for damage.
"""

from __future__ import annotations

import contextlib
import errno
import math
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.core.phrase import N_, Phrase, error_text

from . import stats_recovery as recovery
from .atomic import _fsync_folder, move_aside
from .lock import folder_lock
from .stats_health import (
    HEADER_SIZE,
    SCHEMA_VERSION,
    SQLITE_BUSY,
    SQLITE_LOCKED,
    SQLITE_MAGIC,
    TRANSIENT,
    Unusable,
    brief,
    check,
    code_of,
    header_problem,
    rebuild_reason,
    refuses_rows,
)

OUTCOMES = ("won", "lost", "drawn")

# Side files SQLite may keep next to the database; they belong to it and must
# travel with it when it is moved aside, or the moved copy loses data.
_SIDE_SUFFIXES = ("-journal", "-wal", "-shm")

_SCHEMA = (
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
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)
# The statements that create each table and its index (for a missing table).
_TABLE_SCHEMA = {
    "games": (_SCHEMA[0], _SCHEMA[2]),
    "puzzles": (_SCHEMA[1], _SCHEMA[3]),
}


@dataclass(frozen=True)
class GameSummary:
    """Results of one (game, variant, mode, opponent) combination.

    Outcomes are from the point of view of the first human seat (for two
    humans: the first player).
    """

    game: str
    variant: str
    mode: str
    opponent: str
    played: int
    won: int
    lost: int
    drawn: int


@dataclass(frozen=True)
class PuzzleSummary:
    """Results of one (game, variant) puzzle: how often solved, and the best unhelped run."""

    game: str
    variant: str
    solved: int
    helped: int
    best_moves: int | None
    best_seconds: float | None


class _CannotRepair(Exception):
    """A repair the file needs could not be written (not the file's fault: a full disk,
    a read-only folder, another copy holding the profile)."""


def _lenient_text(raw: bytes) -> str:
    """Decode TEXT read from the database without ever failing.

    A damaged file can hold bytes that are not UTF-8 (sqlite3 would raise on
    the whole query) or NUL characters (which fonts refuse to draw); a damaged
    name is shown with replacement characters instead.
    """
    return raw.decode("utf-8", "replace").replace("\x00", "\ufffd")


@contextlib.contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One explicit write transaction: committed at the end, rolled back on any error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise


def _reason(exc: BaseException) -> str:
    """Why a write failed, in words ("database or disk is full", "No space left...")."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return brief(exc)


def _now() -> str:
    # Microseconds: games recorded within one second still sort in the order played
    # (the level "Match me" plays is read from that order).
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _require_text(name: str, value: object, *, allow_empty: bool = True) -> str:
    if not isinstance(value, str) or (not allow_empty and not value):
        kind = "text" if allow_empty else "non-empty text"
        raise ValueError(f"{name} must be {kind}, not {value!r}")
    return value


class StatsStore:
    """Record finished games and puzzles and summarise them.

    Call :meth:`open` first (it returns warnings to show the player) and
    :meth:`close` at the end. Writing methods return a warning instead of
    raising when the disk lets us down; they raise ValueError only for
    arguments that are the caller's mistake.
    """

    #: Seconds to wait for another copy of the game that is writing right now.
    busy_timeout: float = 5.0
    #: Seconds to wait, when the session ends, for a locked file to take the last results.
    closing_timeout: float = 20.0
    #: Seconds to wait for another copy that is opening (or repairing) the same profile.
    lock_timeout: float = 30.0

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.warnings: list[str] = []
        #: False when results only live in memory for this session.
        self.persistent = False
        self._conn: sqlite3.Connection | None = None
        # The file our connection writes to: another copy's repair replaces the file, and
        # a connection to the old one would write where nobody reads.
        self._inode: int | None = None
        # The reason results are waiting (said once until they are written).
        self._waiting: str | None = None
        # True when this session runs in memory only because the file was busy or the
        # disk full: its results are then written beside the file when it ends.
        self._spill = False

    # --- opening ------------------------------------------------------------

    def open(self) -> list[str]:
        """Open (creating if needed) the database; return warnings for the player.

        Under the profile folder's lock: create the schema, repair a damaged file,
        remove what a killed copy left half done and merge back results kept aside
        (set-aside databases, results a session could not write).
        """
        self._disconnect()
        self.warnings = []
        self._waiting = None
        self._spill = False
        try:
            if self.path.is_dir():
                self._set_aside(Phrase(N_("it is a folder, not a file")))
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with folder_lock(self.path.parent, self.lock_timeout) as lock:
                self._conn, self.persistent = self._open_file(lock.held)
                if self.persistent and lock.held:
                    self._recover(self._conn)
        except OSError as exc:
            self._fall_back_to_memory(exc.strerror or error_text(exc),
                                      exc.errno in (errno.ENOSPC, errno.EDQUOT))
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            # UnicodeDecodeError: sqlite3 raises it instead of the real error
            # when SQLite's message quotes damaged, non-UTF-8 text.
            self._fall_back_to_memory(str(exc), code_of(exc) in TRANSIENT)
        self._inode = self._file_inode() if self.persistent else None
        self._add_session_tables()
        return list(self.warnings)

    def _add_session_tables(self) -> None:
        """Create the session tables, waiting for the file as long as for the lock.

        Preparing even a TEMP statement reads the file's schema, which takes a
        moment's shared lock: another copy committing must not make this open
        fail (it did, with a short busy timeout). A file still busy past the
        wait sends the session to memory, its results written beside the file.
        """
        conn = self._conn
        if conn is None:
            return
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.lock_timeout * 1000)}")
            self._add_unsaved_tables(conn)
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            self._disconnect()
            self._inode = None
            self._fall_back_to_memory(str(exc), code_of(exc) in TRANSIENT)
            self._add_unsaved_tables(self._conn)

    def _open_file(self, locked: bool) -> tuple[sqlite3.Connection, bool]:
        """Open the on-disk database, setting aside anything unusable.

        Returns the connection and whether it writes to disk (False when the
        file is readable but not writable, or needs a repair that cannot be
        written now: its records are copied to memory). ``locked``: this copy
        holds the profile's lock (without it, a repair is left to the copy that
        holds it). Raises OSError or sqlite3.Error when the folder or file cannot
        be used at all (the caller then falls back to memory).
        """
        if self.path.exists():
            # Read the header ourselves first: a permission problem must not be
            # mistaken for corruption (and the file must not be moved for it).
            with open(self.path, "rb") as handle:
                header = handle.read(HEADER_SIZE)
            if header and header[: len(SQLITE_MAGIC)] != SQLITE_MAGIC:
                self._set_aside(Phrase(N_("it is not an SQLite database")))
            else:
                conn = self._connect()
                try:
                    state = check(conn)
                    if state == "ok" or state.startswith("missing:"):
                        # Before any write: a damaged header field breaks the
                        # file for good once SQLite writes to it.
                        state = header_problem(header) or state
                    if state == "ok" or state.startswith("missing:"):
                        state = refuses_rows(conn, state.removeprefix("missing:")) or state
                    if state.startswith("rebuild:"):
                        # Before any change to the file, so the kept original
                        # is exactly what the player had.
                        why = rebuild_reason(state)
                        try:
                            if not locked:
                                raise _CannotRepair(Phrase(N_(
                                    "another copy of the game is using the profile")))
                            conn = self._rebuild(conn, why)
                        except _CannotRepair as exc:
                            return self._repair_later(why, error_text(exc)), False
                        state = check(conn)
                        if state != "ok":  # pragma: no cover - the new file is ours
                            raise Unusable(Phrase(N_("it is damaged and could not be rebuilt")))
                    if state.startswith("missing:"):
                        self._add_table(conn, state.removeprefix("missing:"))
                        state = "ok"
                except Unusable as exc:
                    conn.close()
                    self._set_aside(error_text(exc))
                except BaseException:
                    conn.close()
                    raise
                else:
                    if state == "ok":
                        return self._ensure_writable(conn)
                    conn.close()  # an empty database: give it our schema below

        conn = self._connect()
        try:
            # IF NOT EXISTS, in one write transaction: copies creating it at the same
            # moment (even without the folder lock) agree instead of failing.
            self._create_schema(conn)
        except BaseException:
            conn.close()
            raise
        return conn, True

    def _connect(self, path: Path | None = None) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves so every write
        # is exactly one explicit transaction.
        conn = sqlite3.connect(
            self.path if path is None else path, timeout=self.busy_timeout, isolation_level=None
        )
        conn.text_factory = _lenient_text
        return conn

    def _rebuild(self, conn: sqlite3.Connection, why: str) -> sqlite3.Connection:
        """Copy every readable row into a new database that takes the file's place.

        Used when the file cannot be used as it is (damaged indexes, a damaged
        header field or schema, damaged pages) but its table rows may still all
        be readable; if they are not, nothing is copied (Unusable). Rows are
        copied, not pages (``VACUUM INTO`` would copy the damaged indexes and
        header fields too).

        Recoverable at every instant: the original is first kept under a
        ``.corrupt-`` name by a hard link (its bytes untouched), the new file is
        written complete beside it, and one atomic rename puts it in place. A
        kill before the rename leaves the original where it was (the next start
        repairs it again and reuses the kept link); after it, the new file. The
        new file records the kept original as merged, so its rows are not added
        twice. A failure to write (a full disk) is not the file's fault: it
        raises _CannotRepair and leaves everything as it was (``conn`` stays
        open for the caller then; otherwise it is closed). Returns a connection
        to the new file.
        """
        try:
            rows = recovery.read_rows(conn, with_id=True)
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            if code_of(exc) in (SQLITE_BUSY, SQLITE_LOCKED):
                raise _CannotRepair(brief(exc)) from exc
            conn.close()
            raise Unusable(Phrase(N_("{why}; its rows could not all be read ({reason})"),
                                  why=why, reason=brief(exc))) from exc
        tmp: Path | None = None
        try:
            fd, tmp_name = tempfile.mkstemp(
                prefix=f".{self.path.name}.", suffix=".rebuild", dir=self.path.parent
            )
            os.close(fd)  # an empty file is an empty database to SQLite
            tmp = Path(tmp_name)
            new = self._connect(tmp)
            try:
                self._create_schema(new)
                copied = self._copy_rows(new, rows)
                kept = recovery.keep_original(self.path)
                with _transaction(new):
                    new.execute("INSERT OR REPLACE INTO recovered_files VALUES (?, ?, ?, ?)",
                                (kept.name, recovery.signature(kept), copied, _now()))
            finally:
                new.close()
            with contextlib.suppress(OSError):
                shutil.copymode(self.path, tmp)  # mkstemp made it private to us
            conn.close()
            self._move_side_files(kept)
            os.replace(tmp, self.path)
        except (OSError, sqlite3.Error, UnicodeDecodeError) as exc:
            if tmp is not None:
                for leftover in (tmp, tmp.with_name(tmp.name + "-journal")):
                    with contextlib.suppress(OSError):
                        os.unlink(leftover)
            raise _CannotRepair(_reason(exc)) from exc
        _fsync_folder(self.path.parent)
        skipped = sum(len(table_rows) for table_rows in rows.values()) - copied
        if skipped:
            self.warnings.append(Phrase(
                N_("Statistics file {path} could not be used as it was ({why}); a new file "
                   "was made from its {copied} results ({skipped} with invalid values were "
                   "left out), and the original file was kept as {kept}."),
                path=self.path, why=brief(why), copied=copied, skipped=skipped, kept=kept))
        else:
            self.warnings.append(Phrase(
                N_("Statistics file {path} could not be used as it was ({why}); a new file "
                   "was made from its {copied} results, and the original file was kept as "
                   "{kept}."), path=self.path, why=brief(why), copied=copied, kept=kept))
        return self._connect()

    @staticmethod
    def _copy_rows(new: sqlite3.Connection, rows: recovery.Rows) -> int:
        """Insert ``rows`` (each led by its id) into the fresh database ``new``;
        return how many it took.

        OR IGNORE: a row breaking our constraints (a NULL name, an unknown
        outcome) stays only in the kept original.
        """
        copied = 0
        with _transaction(new):
            for table, table_rows in rows.items():
                names = ("id", *recovery.COLUMNS[table])
                before = new.total_changes
                new.executemany(
                    f"INSERT OR IGNORE INTO main.{table} ({', '.join(names)}) "
                    f"VALUES ({', '.join('?' * len(names))})", table_rows)
                copied += new.total_changes - before
        return copied

    def _repair_later(self, why: str, reason: str) -> sqlite3.Connection:
        """A session on a file that needs a repair this copy cannot make now.

        The file is left exactly as it was; its readable rows are shown from
        memory, and this session's results are kept to be written beside it when
        the session ends (the next start adds them once the repair is made).
        """
        memory = self._memory()
        shown = Phrase(N_("its results are shown"))
        try:
            conn = self._connect()
            try:
                self._copy_rows(memory, recovery.read_rows(conn, with_id=True))
            finally:
                conn.close()
        except (sqlite3.Error, UnicodeDecodeError):
            shown = Phrase(N_("its results cannot be shown now"))
        self._spill = True
        self.warnings.append(Phrase(
            N_("Statistics file {path} needs repairing ({why}), but the repair could not be "
               "made now ({reason}); the file was left as it was and {shown}. This session's "
               "results are written beside it when the game closes and added at the next "
               "start that can repair it."),
            path=self.path, why=brief(why), reason=brief(reason), shown=shown))
        return memory

    def _move_side_files(self, kept: Path) -> None:
        """Give the original's journal (if any) to its kept copy, before the file is
        replaced: a journal left beside the new file would be played into it."""
        for suffix in _SIDE_SUFFIXES:
            side = self.path.with_name(self.path.name + suffix)
            if os.path.lexists(side):
                target = kept.with_name(kept.name + suffix)
                if os.path.lexists(target):
                    move_aside(side)
                else:
                    os.rename(side, target)

    def _recover(self, conn: sqlite3.Connection) -> None:
        """Finish what killed copies left and merge back results kept aside.

        Called under the folder lock with a writable connection. Rebuilds a
        killed copy left half made are removed (the file they were for is still
        in place: a rebuild replaces it in one rename). Results another session
        could not write, and the readable rows of set-aside databases not yet
        merged (or changed since), are added to the live tables; a full disk or a
        busy file only postpones this to the next start.
        """
        for leftover in recovery.stale_temporaries(self.path):
            with contextlib.suppress(OSError):
                os.unlink(leftover)
        sources: list[tuple[Path, int]] = []
        try:
            with _transaction(conn):
                conn.execute(recovery.RECOVERED_TABLE)
            merged = dict(conn.execute("SELECT name, signature FROM recovered_files"))
            for pending in recovery.pending_files(self.path):
                rows = recovery.read_pending(pending)
                if rows is None:
                    continue  # not ours (or damaged): left where it is
                with _transaction(conn):
                    added = recovery.merge_rows(conn, rows)
                with contextlib.suppress(OSError):
                    os.unlink(pending)  # merged: every row is in the file now
                if added:
                    sources.append((pending, added))
            for aside in recovery.aside_databases(self.path):
                try:
                    seen = recovery.signature(aside)
                except OSError:
                    continue
                if merged.get(aside.name) == seen:
                    continue
                rows = recovery.read_aside(aside)
                if rows is None:
                    continue  # not ours, a newer version's, or unreadable
                with _transaction(conn):
                    added = recovery.merge_rows(conn, rows)
                    conn.execute("INSERT OR REPLACE INTO recovered_files VALUES (?, ?, ?, ?)",
                                 (aside.name, seen, added, _now()))
                if added:
                    sources.append((aside, added))
        except (sqlite3.Error, OSError, UnicodeDecodeError):
            pass  # a full disk or a busy file: the sources stay and the next start tries again
        if sources:
            total = sum(count for _, count in sources)
            self.warnings.append(Phrase(
                N_("{total} result kept aside earlier ({sources}) were added back to your "
                   "statistics in {path}.") if total == 1 else
                N_("{total} results kept aside earlier ({sources}) were added back to your "
                   "statistics in {path}."),
                total=total, sources=recovery.describe_sources(sources), path=self.path))

    @staticmethod
    def _has_table(conn: sqlite3.Connection, table: str) -> bool:
        return conn.execute(f"PRAGMA table_info({table})").fetchone() is not None

    def _add_table(self, conn: sqlite3.Connection, table: str) -> None:
        """Create our ``table`` (missing from an otherwise good database).

        Adding a table removes nothing, so the file keeps every record.
        """
        with _transaction(conn):
            for statement in _TABLE_SCHEMA[table]:
                conn.execute(statement)
        self.warnings.append(Phrase(
            N_("Statistics file {path} had no {table} table; an empty one was added and the "
               "other results were kept."), path=self.path, table=table))

    def _ensure_writable(self, conn: sqlite3.Connection) -> tuple[sqlite3.Connection, bool]:
        """Return ``(conn, True)`` if writes work, else an in-memory copy and False."""
        try:
            # A real write that is rolled back: the only reliable way to learn
            # whether the file and its folder (for the journal) are writable.
            # A name no table has, or an extra table that happens to be
            # called write_probe would make the file look read-only.
            names = {str(row[0]).lower() for row in conn.execute("SELECT name FROM sqlite_master")}
            probe = "write_probe"
            while probe in names:
                probe += "_"
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(f"CREATE TABLE {probe} (x)")
            finally:
                # SQLite may already have rolled back after a failed write;
                # keep the original error, not "no transaction is active".
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            if code_of(exc) in (SQLITE_BUSY, SQLITE_LOCKED):
                # Another copy is writing right now: the file is writable; results
                # that meet the lock wait in the session and are written later.
                return conn, True
            memory = self._memory()
            try:
                conn.backup(memory)
            finally:
                conn.close()
            self.warnings.append(Phrase(
                N_("Statistics file {path} can be read but not written ({reason}); results "
                   "of this session will be shown but not saved."),
                path=self.path, reason=brief(exc)))
            return memory, False
        return conn, True

    def _set_aside(self, reason: str) -> None:
        """Move the unusable database and its side files aside, with a warning."""
        try:
            kept = self._move_with_side_files()
        except OSError as exc:
            # Leave the file alone; the caller falls back to memory and the
            # player learns both what was wrong and why we could not fix it.
            raise OSError(Phrase(
                N_("{reason}, and it could not be moved aside: {error}"),
                reason=reason, error=exc.strerror or str(exc))) from exc
        self.warnings.append(Phrase(
            N_("Statistics file {path} could not be used ({reason}); it was kept as {kept}; "
               "a new statistics file was started."),
            path=self.path, reason=brief(reason), kept=kept))

    def _move_with_side_files(self) -> Path:
        """Move the database and its side files to a fresh ``.corrupt-`` name."""
        kept = move_aside(self.path)
        # Keep the pairing "<kept>-journal" so that opening the kept copy with
        # SQLite still sees its journal.
        with contextlib.suppress(OSError):
            self._move_side_files(kept)
        return kept

    @staticmethod
    def _create_schema(conn: sqlite3.Connection) -> None:
        with _transaction(conn):
            for statement in _SCHEMA:
                conn.execute(statement)

    @staticmethod
    def _memory() -> sqlite3.Connection:
        """An empty in-memory database with our schema."""
        conn = sqlite3.connect(":memory:", isolation_level=None)
        conn.text_factory = _lenient_text
        StatsStore._create_schema(conn)
        return conn

    def _fall_back_to_memory(self, reason: str, transient: bool = False) -> None:
        """Go on in memory; ``transient``: the file is busy or the disk full, so this
        session's results are written beside it when the session ends."""
        self.persistent = False
        self._conn = self._memory()
        self._spill = transient
        later = Phrase(N_("this session's results are shown and written beside it when the "
                          "game closes, to be added at the next start") if transient
                       else N_("statistics will not be saved this session"))
        self.warnings.append(Phrase(
            N_("Statistics file {path} could not be opened or created ({reason}); {later}."),
            path=self.path, reason=brief(reason), later=later))

    @staticmethod
    def _add_unsaved_tables(conn: sqlite3.Connection | None) -> None:
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
            conn.execute(f"CREATE TEMP VIEW IF NOT EXISTS all_{table} AS "
                         f"SELECT {columns} FROM main.{table} UNION ALL "
                         f"SELECT {columns} FROM temp.unsaved_{table}")

    def _unsaved(self) -> recovery.Rows:
        """Results of this session not yet written to the file, oldest first."""
        conn = self._require_open()
        return {table: conn.execute(f"SELECT {', '.join(names)} FROM temp.unsaved_{table} "
                                    "ORDER BY seq").fetchall()
                for table, names in recovery.COLUMNS.items()}

    def _flush(self) -> sqlite3.Error | None:
        """Move the session's waiting results into the file in one transaction.

        Returns the error that stopped it (they keep waiting), or None. A file
        replaced since we opened it (another copy's repair) is opened again first,
        so results go to the file everyone reads.
        """
        if not self.persistent:
            return None
        conn = self._require_open()
        if self._inode is not None and self._file_inode() != self._inode:
            self._reopen()
            conn = self._require_open()
            if not self.persistent:
                return None
        try:
            with _transaction(conn):
                for table, names in recovery.COLUMNS.items():
                    columns = ", ".join(names)
                    conn.execute(f"INSERT INTO main.{table} ({columns}) "
                                 f"SELECT {columns} FROM temp.unsaved_{table} ORDER BY seq")
                    conn.execute(f"DELETE FROM temp.unsaved_{table}")
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            if isinstance(exc, UnicodeDecodeError):
                return sqlite3.DatabaseError(str(exc))
            return exc
        return None

    def _reopen(self) -> None:
        """Open the file again, keeping this session's waiting results."""
        waiting = self._unsaved()
        old = self.warnings
        self.open()
        self.warnings = old + [w for w in self.warnings if w not in old]
        conn = self._require_open()
        for table, rows in waiting.items():
            names = recovery.COLUMNS[table]
            conn.executemany(f"INSERT INTO temp.unsaved_{table} ({', '.join(names)}) "
                             f"VALUES ({', '.join('?' * len(names))})", rows)

    def _file_inode(self) -> int | None:
        try:
            return os.stat(self.path).st_ino
        except OSError:
            return None

    def close(self) -> str | None:
        """Close the database (safe to call more than once).

        Results still waiting for a busy file get a longer wait now; any that
        still cannot be written (or a session that ran in memory because the file
        was busy or the disk full) are written beside the file, for the next start
        to add. Returns a message when that happened or failed, else None.
        """
        if self._conn is None:
            return None
        message = None
        with contextlib.suppress(sqlite3.Error):
            if any(self._unsaved().values()):
                self._conn.execute(f"PRAGMA busy_timeout = {int(self.closing_timeout * 1000)}")
                self._flush()
                message = self._spill_unsaved()
        self._disconnect()
        return message

    def _disconnect(self) -> None:
        """Close the connection as it is (waiting results are the caller's concern)."""
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None

    def _spill_unsaved(self) -> str | None:
        """Write the results that never reached the file beside it (see close)."""
        rows = self._unsaved()
        count = sum(len(table_rows) for table_rows in rows.values())
        if not count or not (self.persistent or self._spill):
            return None
        try:
            kept = recovery.write_pending(self.path, rows)
        except OSError as exc:
            return Phrase(N_("{count} result(s) of this session could not be saved to {path} "
                             "nor beside it ({reason})."),
                          count=count, path=self.path, reason=exc.strerror or str(exc))
        return Phrase(N_("{count} result(s) of this session could not be written to {path}; "
                         "they were kept in {kept} and are added at the next start."),
                      count=count, path=self.path, kept=kept)

    # --- writing ------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with _transaction(self._require_open()) as conn:
            yield conn

    def _require_open(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError("StatsStore.open() must be called before using the store")
        return self._conn

    def record_game(
        self, game: str, variant: str, mode: str, opponent: str, outcome: str
    ) -> str | None:
        """Record one finished game; return a warning if it could not be saved.

        ``mode`` is e.g. ``"human-computer"``; ``opponent`` is the AI level's
        name or ``""``; ``outcome`` is ``"won"``, ``"lost"`` or ``"drawn"`` for
        the first human seat. Raises ValueError for invalid arguments.
        """
        _require_text("game", game, allow_empty=False)
        _require_text("variant", variant)
        _require_text("mode", mode, allow_empty=False)
        _require_text("opponent", opponent)
        if outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
        return self._write("games", (_now(), game, variant, mode, opponent, outcome))

    def record_puzzle(
        self, game: str, variant: str, moves: int, seconds: float, helped: bool | int
    ) -> str | None:
        """Record one solved puzzle; return a warning if it could not be saved.

        ``helped`` is true (or a positive hint count) if hints were used; only
        unhelped solutions count as bests. Raises ValueError for invalid
        arguments.
        """
        _require_text("game", game, allow_empty=False)
        _require_text("variant", variant)
        if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
            raise ValueError(f"moves must be a whole number of at least 0, not {moves!r}")
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not math.isfinite(seconds)
            or seconds < 0
        ):
            raise ValueError(f"seconds must be a finite number of at least 0, not {seconds!r}")
        if not isinstance(helped, int) or helped < 0:
            raise ValueError(f"helped must be true/false or a hint count, not {helped!r}")
        return self._write("puzzles", (_now(), game, variant, moves, float(seconds), int(helped)))

    def _write(self, table: str, row: tuple[object, ...]) -> str | None:
        """Record one result: kept in the session at once, then written to the file
        with any results still waiting. Returns a warning (once per cause) when the
        file does not take them now; they stay shown and are tried again at the next
        result and when the game closes."""
        conn = self._require_open()
        names = recovery.COLUMNS[table]
        try:
            conn.execute(f"INSERT INTO temp.unsaved_{table} ({', '.join(names)}) "
                         f"VALUES ({', '.join('?' * len(names))})", row)
        except (sqlite3.Error, UnicodeDecodeError) as exc:  # pragma: no cover - memory only
            return Phrase(N_("Could not keep this result ({reason}); it was not recorded."),
                          reason=brief(exc))
        error = self._flush()
        if error is None:
            self._waiting = None
            return None
        reason = brief(error)
        if self._waiting == reason:
            return None  # said already; the result is kept with the others
        self._waiting = reason
        return Phrase(N_("Could not write this result to {path} yet ({reason}); it is kept and "
                         "written as soon as the file takes it (at the latest beside it when "
                         "the game closes)."), path=self.path, reason=reason)

    # --- reading ------------------------------------------------------------

    # The summaries read the names through CAST(... AS TEXT) and skip NULLs:
    # SQLite keeps whatever type a value arrived with, so a damaged or
    # hand-edited file can hold a number or a blob where a name belongs, and
    # the screens expect text. Such a row still counts, under its text form.

    def game_summary(self) -> list[GameSummary]:
        """Per (game, variant, mode, opponent) counts, sorted by those keys.

        On a read error returns ``[]`` and adds a message to :attr:`warnings`.
        """
        rows = self._read(
            "SELECT CAST(game AS TEXT) AS g, CAST(variant AS TEXT) AS v, "
            "CAST(mode AS TEXT) AS m, CAST(opponent AS TEXT) AS o, COUNT(*), "
            "SUM(outcome IS 'won'), SUM(outcome IS 'lost'), SUM(outcome IS 'drawn') "
            "FROM all_games WHERE g IS NOT NULL AND v IS NOT NULL AND m IS NOT NULL "
            "AND o IS NOT NULL GROUP BY g, v, m, o ORDER BY g, v, m, o"
        )
        return [GameSummary(*row) for row in rows]

    def match_outcomes(self, game: str) -> list[str]:
        """The player's results (``"won"``, ``"drawn"``, ``"lost"``) in their games of
        ``game`` against "Match me", in the order played: what its level is read from
        (engine.ai.ladder.match_level). ``[]`` on a read error (reported in warnings)."""
        rows = self._read(
            "SELECT CAST(outcome AS TEXT) FROM all_games WHERE game IS ? "
            "AND mode IS 'human-computer' AND (opponent IS 'match' OR opponent LIKE 'match@%') "
            "ORDER BY played_at", (game,))
        return [row[0] for row in rows if row[0] in OUTCOMES]

    def totals_by_game(self, players_only: bool = False) -> dict[str, tuple[int, int, int, int]]:
        """``{game: (played, won, lost, drawn)}`` over all variants and modes.

        ``players_only`` leaves out games the computer played against itself (modes
        with no ``human`` seat): those are not the player's results.
        """
        # The mode is the seats' kinds joined by "-": a human seat is "-human-" once the
        # mode is framed by dashes.
        human = " AND ('-' || CAST(mode AS TEXT) || '-') LIKE '%-human-%'" if players_only else ""
        rows = self._read(
            "SELECT CAST(game AS TEXT) AS g, COUNT(*), "
            "SUM(outcome IS 'won'), SUM(outcome IS 'lost'), SUM(outcome IS 'drawn') "
            f"FROM all_games WHERE g IS NOT NULL{human} GROUP BY g ORDER BY g"
        )
        return {row[0]: (row[1], row[2], row[3], row[4]) for row in rows}

    def puzzle_summary(self) -> list[PuzzleSummary]:
        """Per (game, variant): solves, solves with help, and the best unhelped result."""
        rows = self._read(
            "SELECT CAST(game AS TEXT) AS g, CAST(variant AS TEXT) AS v, COUNT(*), "
            "SUM(helped IS NOT 0) FROM all_puzzles WHERE g IS NOT NULL AND v IS NOT NULL "
            "GROUP BY g, v ORDER BY g, v"
        )
        result = []
        for game, variant, solved, helped in rows:
            best = self.best_puzzle(game, variant)
            result.append(PuzzleSummary(game, variant, solved, helped or 0,
                                        best[0] if best else None, best[1] if best else None))
        return result

    def best_puzzle(self, game: str, variant: str) -> tuple[int, float] | None:
        """Best unhelped solution as ``(moves, seconds)``: fewest moves, then fastest."""
        # Only rows whose numbers are numbers: a damaged value must not become
        # the "best" (or reach a screen that formats it as a number).
        rows = self._read(
            "SELECT moves, seconds FROM all_puzzles "
            "WHERE game = ? AND variant = ? AND helped = 0 "
            "AND typeof(moves) = 'integer' AND moves >= 0 "
            "AND typeof(seconds) IN ('integer', 'real') AND seconds >= 0 "
            "ORDER BY moves, seconds LIMIT 1",
            (game, variant),
        )
        return (int(rows[0][0]), float(rows[0][1])) if rows else None

    def _read(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple]:
        conn = self._require_open()
        try:
            return conn.execute(sql, params).fetchall()
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            # A statistics screen must not crash the game; report instead,
            # once: screens read every frame, and the list must not grow.
            message = Phrase(N_("Could not read statistics from {path} ({reason})."),
                             path=self.path, reason=brief(exc))
            if message not in self.warnings:
                self.warnings.append(message)
            return []
