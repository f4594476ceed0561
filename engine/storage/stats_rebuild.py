"""Rebuilding a damaged statistics file from its rows, keeping the original.

Used when :func:`engine.storage.stats_health.check` finds a file that cannot be
used as it is but whose rows may all still be readable. Every instant of a
rebuild can be recovered from (see :func:`rebuild_file`); a failure to write
that is not the file's fault (a full disk) raises :class:`CannotRepair` and
leaves everything as it was. Runs under the profile folder's lock. No pygame here.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

from engine.core.phrase import N_, Nn_, Phrase

from . import stats_recovery as recovery
from .atomic import _fsync_folder, move_aside
from .stats_health import SQLITE_BUSY, SQLITE_LOCKED, Unusable, brief, code_of
from .stats_schema import SIDE_SUFFIXES, connect, create_schema, now, transaction


class CannotRepair(Exception):
    """A repair the file needs could not be written (not the file's fault: a full disk,
    a read-only folder, another copy holding the profile)."""


def _reason(exc: BaseException) -> str:
    """Why a write failed, in words ("database or disk is full", "No space left...")."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return brief(exc)


def rebuild_file(conn: sqlite3.Connection, path: Path, why: str, timeout: float) -> str:
    """Copy every readable row into a new database that takes the place of ``path``.

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
    raises CannotRepair and leaves everything as it was (``conn`` stays
    open for the caller then; otherwise it is closed). ``timeout``: seconds
    the new file's connection waits for a lock. Returns the notice for the
    player; the new file is then at ``path``.
    """
    try:
        rows = recovery.read_rows(conn, with_id=True)
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        if code_of(exc) in (SQLITE_BUSY, SQLITE_LOCKED):
            raise CannotRepair(brief(exc)) from exc
        conn.close()
        raise Unusable(Phrase(N_("{why}; its rows could not all be read ({reason})"),
                              why=why, reason=brief(exc))) from exc
    tmp: Path | None = None
    try:
        fd, tmp_name = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".rebuild", dir=path.parent
        )
        os.close(fd)  # an empty file is an empty database to SQLite
        tmp = Path(tmp_name)
        new = connect(tmp, timeout)
        try:
            create_schema(new)
            copied = copy_rows(new, rows)
            kept = recovery.keep_original(path)
            with transaction(new):
                new.execute("INSERT OR REPLACE INTO recovered_files VALUES (?, ?, ?, ?)",
                            (kept.name, recovery.signature(kept), copied, now()))
        finally:
            new.close()
        with contextlib.suppress(OSError):
            shutil.copymode(path, tmp)  # mkstemp made it private to us
        conn.close()
        move_side_files(path, kept)
        os.replace(tmp, path)
    except (OSError, sqlite3.Error, UnicodeDecodeError) as exc:
        if tmp is not None:
            for leftover in (tmp, tmp.with_name(tmp.name + "-journal")):
                with contextlib.suppress(OSError):
                    os.unlink(leftover)
        raise CannotRepair(_reason(exc)) from exc
    _fsync_folder(path.parent)
    skipped = sum(len(rows.get(table, ())) for table in recovery.RESULT_TABLES) - copied
    if skipped:
        # Two counts, each with its own plural ("1 result (1 with invalid values was ...)").
        left_out = Phrase(Nn_("{count} with invalid values was left out",
                              "{count} with invalid values were left out"), count=skipped)
        return Phrase(
            Nn_("Statistics file {path} could not be used as it was ({why}); a new file "
                "was made from its {copied} result ({left_out}), and the original file was "
                "kept as {kept}.",
                "Statistics file {path} could not be used as it was ({why}); a new file "
                "was made from its {copied} results ({left_out}), and the original file was "
                "kept as {kept}."),
            count_key="copied", path=path, why=brief(why), copied=copied, left_out=left_out,
            kept=kept)
    return Phrase(
        Nn_("Statistics file {path} could not be used as it was ({why}); a new file "
            "was made from its {copied} result, and the original file was kept as "
            "{kept}.",
            "Statistics file {path} could not be used as it was ({why}); a new file "
            "was made from its {copied} results, and the original file was kept as "
            "{kept}."), count_key="copied", path=path, why=brief(why), copied=copied,
        kept=kept)


def copy_rows(new: sqlite3.Connection, rows: recovery.Rows) -> int:
    """Insert ``rows`` (each led by its id) into the fresh database ``new``;
    return how many results it took (records are copied too, not counted).

    OR IGNORE: a row breaking our constraints (a NULL name, an unknown
    outcome) stays only in the kept original.
    """
    copied = 0
    with transaction(new):
        for table, table_rows in rows.items():
            names = ("id", *recovery.COLUMNS[table])
            before = new.total_changes
            new.executemany(
                f"INSERT OR IGNORE INTO main.{table} ({', '.join(names)}) "
                f"VALUES ({', '.join('?' * len(names))})", table_rows)
            if table in recovery.RESULT_TABLES:  # records go with results, uncounted
                copied += new.total_changes - before
    return copied


def move_side_files(path: Path, kept: Path) -> None:
    """Give the journal (if any) of the database at ``path`` to its kept copy ``kept``,
    before the file is replaced: a journal left beside the new file would be played
    into it."""
    for suffix in SIDE_SUFFIXES:
        side = path.with_name(path.name + suffix)
        if os.path.lexists(side):
            target = kept.with_name(kept.name + suffix)
            if os.path.lexists(target):
                move_aside(side)
            else:
                os.rename(side, target)
