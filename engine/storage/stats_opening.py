"""Opening the statistics file for a session: check, repair, set aside, merge back.

:class:`StatsOpener` does what :meth:`engine.storage.stats.StatsStore.open` promises:
under the profile folder's lock (:mod:`engine.storage.lock`) it creates the schema,
repairs a damaged file (:mod:`engine.storage.stats_rebuild`), moves an unusable one
aside, removes what a killed copy left half done and merges back results kept aside
(:mod:`engine.storage.stats_recovery`). Whatever goes wrong, it ends with a connection
— to the file, or to memory — and warnings for the player; a full disk or a busy file
is never taken for damage. No pygame here.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from pathlib import Path

from engine.core.phrase import N_, Nn_, Phrase, error_text

from . import stats_rebuild as rebuilding
from . import stats_recovery as recovery
from .atomic import move_aside
from .lock import folder_lock
from .stats_health import (
    HEADER_SIZE,
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
from .stats_schema import (
    TABLE_SCHEMA,
    add_unsaved_tables,
    connect,
    create_schema,
    file_inode,
    memory_database,
    migrate,
    now,
    transaction,
    trim_records,
)


class StatsOpener:
    """Open one statistics file for one session (see :meth:`open`).

    After :meth:`open`: :attr:`conn` is the session's connection (with its
    session tables), :attr:`persistent` whether it writes to the file,
    :attr:`spill` whether this session's results are to be written beside the
    file when it ends (the file was busy, the disk full, or a repair had to
    wait), :attr:`inode` the file the connection writes to, and
    :attr:`warnings` what to tell the player.
    """

    def __init__(self, path: Path, busy_timeout: float, lock_timeout: float) -> None:
        self.path = path
        #: Seconds a connection waits for another copy that is writing right now.
        self.busy_timeout = busy_timeout
        #: Seconds to wait for another copy that is opening (or repairing) the same profile.
        self.lock_timeout = lock_timeout
        self.warnings: list[str] = []
        self.conn: sqlite3.Connection | None = None
        self.persistent = False
        self.spill = False
        self.inode: int | None = None

    def open(self) -> None:
        """Open (creating if needed) the database, falling back to memory if need be.

        Under the profile folder's lock: create the schema, repair a damaged file,
        remove what a killed copy left half done and merge back results kept aside
        (set-aside databases, results a session could not write).
        """
        try:
            if self.path.is_dir():
                self._set_aside(Phrase(N_("it is a folder, not a file")))
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with folder_lock(self.path.parent, self.lock_timeout) as lock:
                self.conn, self.persistent = self._open_file(lock.held)
                if self.persistent and lock.held:
                    self._recover(self.conn)
        except OSError as exc:
            self._fall_back_to_memory(exc.strerror or error_text(exc),
                                      exc.errno in (errno.ENOSPC, errno.EDQUOT))
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            # UnicodeDecodeError: sqlite3 raises it instead of the real error
            # when SQLite's message quotes damaged, non-UTF-8 text.
            self._fall_back_to_memory(str(exc), code_of(exc) in TRANSIENT)
        self.inode = file_inode(self.path) if self.persistent else None
        self._add_session_tables()

    def _add_session_tables(self) -> None:
        """Create the session tables, waiting for the file as long as for the lock.

        Preparing even a TEMP statement reads the file's schema, which takes a
        moment's shared lock: another copy committing must not make this open
        fail (it did, with a short busy timeout). A file still busy past the
        wait sends the session to memory, its results written beside the file.
        """
        conn = self.conn
        if conn is None:
            return
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.lock_timeout * 1000)}")
            add_unsaved_tables(conn)
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
            self.conn = None
            self.inode = None
            self._fall_back_to_memory(str(exc), code_of(exc) in TRANSIENT)
            add_unsaved_tables(self.conn)

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
                                raise rebuilding.CannotRepair(Phrase(N_(
                                    "another copy of the game is using the profile")))
                            self.warnings.append(rebuilding.rebuild_file(
                                conn, self.path, why, self.busy_timeout))
                            conn = self._connect()
                        except rebuilding.CannotRepair as exc:
                            return self._repair_later(why, error_text(exc)), False
                        state = check(conn)
                        if state != "ok":  # pragma: no cover - the new file is ours
                            raise Unusable(Phrase(N_("it is damaged and could not be rebuilt")))
                    if state.startswith("missing:"):
                        self._add_table(conn, state.removeprefix("missing:"))
                        state = "ok"
                    if state == "ok":
                        upgraded = self._upgrade(conn)
                        if upgraded is not None:
                            return upgraded, False
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
            create_schema(conn)
        except BaseException:
            conn.close()
            raise
        return conn, True

    def _connect(self) -> sqlite3.Connection:
        return connect(self.path, self.busy_timeout)

    def _repair_later(self, why: str, reason: str) -> sqlite3.Connection:
        """A session on a file that needs a repair this copy cannot make now.

        The file is left exactly as it was; its readable rows are shown from
        memory, and this session's results are kept to be written beside it when
        the session ends (the next start adds them once the repair is made).
        """
        memory = memory_database()
        shown = Phrase(N_("its results are shown"))
        try:
            conn = self._connect()
            try:
                rebuilding.copy_rows(memory, recovery.read_rows(conn, with_id=True))
            finally:
                conn.close()
        except (sqlite3.Error, UnicodeDecodeError):
            shown = Phrase(N_("its results cannot be shown now"))
        # Results earlier sessions kept beside the file are the player's too: shown with
        # it (read only; they stay beside it until a start that can repair merges them).
        self._show_pending(memory)
        self.spill = True
        self.warnings.append(Phrase(
            N_("Statistics file {path} needs repairing ({why}), but the repair could not be "
               "made now ({reason}); the file was left as it was and {shown}. This session's "
               "results are written beside it when the game closes and added at the next "
               "start that can repair it."),
            path=self.path, why=brief(why), reason=brief(reason), shown=shown))
        return memory

    def _show_pending(self, memory: sqlite3.Connection) -> None:
        """Add the results waiting beside the file to the in-memory copy ``memory``.

        Only the copy changes: the pending files stay where they are, for the start
        that merges them into the file (:meth:`_recover`).
        """
        for pending in recovery.pending_files(self.path):
            rows = recovery.read_pending(pending)
            if rows is None:
                continue
            with contextlib.suppress(sqlite3.Error):
                with transaction(memory):
                    recovery.merge_rows(memory, rows)

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
        # Set-aside files with damaged pages: (file, rows read, rows that could not be).
        damaged: list[tuple[Path, int, int]] = []
        try:
            with transaction(conn):
                conn.execute(recovery.RECOVERED_TABLE)
            merged = dict(conn.execute("SELECT name, signature FROM recovered_files"))
            for pending in recovery.pending_files(self.path):
                rows = recovery.read_pending(pending)
                if rows is None:
                    continue  # not ours (or damaged): left where it is
                with transaction(conn):
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
                salvaged = recovery.salvage_aside(aside)
                if salvaged is None:
                    continue  # not ours, a newer version's, or unreadable
                rows, lost = salvaged
                with transaction(conn):
                    added = recovery.merge_rows(conn, rows)
                    conn.execute("INSERT OR REPLACE INTO recovered_files VALUES (?, ?, ?, ?)",
                                 (aside.name, seen, added, now()))
                if lost:
                    damaged.append((aside, sum(len(rows.get(table, ()))
                                                    for table in recovery.RESULT_TABLES), lost))
                elif added:
                    sources.append((aside, added))
            with transaction(conn):
                trim_records(conn)  # merged records count towards each game's newest
        except (sqlite3.Error, OSError, UnicodeDecodeError):
            pass  # a full disk or a busy file: the sources stay and the next start tries again
        for aside, kept, lost in damaged:
            # Both counts, each with its own plural: the player learns what was kept
            # and what is gone (the file itself stays, for a better tool than ours).
            self.warnings.append(Phrase(
                N_("Statistics file {kept_file} has damaged pages: {kept} and {lost}. The "
                   "readable results are in your statistics in {path}; the damaged file "
                   "was kept as it is."),
                kept_file=aside, path=self.path,
                kept=Phrase(Nn_("{count} result was read and kept",
                                "{count} results were read and kept"), count=kept),
                lost=Phrase(Nn_("{count} result could not be read",
                                "{count} results could not be read"), count=lost)))
        if sources:
            total = sum(count for _, count in sources)
            self.warnings.append(Phrase(
                Nn_("{total} result kept aside earlier ({sources}) was added back to your "
                    "statistics in {path}.",
                    "{total} results kept aside earlier ({sources}) were added back to your "
                    "statistics in {path}."), count_key="total",
                total=total, sources=recovery.describe_sources(sources), path=self.path))

    def _add_table(self, conn: sqlite3.Connection, table: str) -> None:
        """Create our ``table`` (missing from an otherwise good database).

        Adding a table removes nothing, so the file keeps every record.
        """
        with transaction(conn):
            for statement in TABLE_SCHEMA[table]:
                conn.execute(statement)
        self.warnings.append(Phrase(
            N_("Statistics file {path} had no {table} table; an empty one was added and the "
               "other results were kept."), path=self.path, table=table))

    def _upgrade(self, conn: sqlite3.Connection) -> sqlite3.Connection | None:
        """Upgrade a file of an older schema version in place (stats_schema.migrate).

        None when the file is current now. A file that is busy or on a full disk raises
        (the session goes on in memory and its results are written beside the file, for
        the next start to upgrade and merge); one that cannot be written returns an
        in-memory copy with the current schema (shown, not saved), as a read-only file.
        """
        try:
            migrate(conn)
        except sqlite3.Error as exc:
            if code_of(exc) in TRANSIENT:
                raise
            return self._read_only_copy(conn, exc)
        return None

    def _read_only_copy(self, conn: sqlite3.Connection, exc: sqlite3.Error) -> sqlite3.Connection:
        """An in-memory copy of the file at ``conn`` (closed), with the current schema, and
        the warning that this session's results are shown but not saved."""
        memory = memory_database()
        try:
            conn.backup(memory)
        finally:
            conn.close()
        create_schema(memory)  # a copy of an older version gets the tables it lacks
        self.warnings.append(Phrase(
            N_("Statistics file {path} can be read but not written ({reason}); results "
               "of this session will be shown but not saved."),
            path=self.path, reason=brief(exc)))
        return memory

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
            return self._read_only_copy(conn, exc), False
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
            rebuilding.move_side_files(self.path, kept)
        return kept

    def _fall_back_to_memory(self, reason: str, transient: bool = False) -> None:
        """Go on in memory; ``transient``: the file is busy or the disk full, so this
        session's results are written beside it when the session ends."""
        self.persistent = False
        self.conn = memory_database()
        self.spill = transient
        later = Phrase(N_("this session's results are shown and written beside it when the "
                          "game closes, to be added at the next start") if transient
                       else N_("statistics will not be saved this session"))
        self.warnings.append(Phrase(
            N_("Statistics file {path} could not be opened or created ({reason}); {later}."),
            path=self.path, reason=brief(reason), later=later))
