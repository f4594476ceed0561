"""Getting statistics back: rows kept aside, results that could not be written yet.

A result the player earned must reach the statistics file sooner or later, and
only once. Two kinds of file hold results outside it:

* ``statistics.sqlite3.corrupt-<time>`` — a database set aside because it could
  not be used as it was (or kept as the original of a rebuild). Its readable
  rows are merged back on the next start;
* ``statistics.sqlite3.pending-<time>-<pid>.json`` — results a session could not
  write (the file was locked by another program for too long, the disk was
  full), written beside the database when the session ended. They are merged
  on the next start and the file is then removed (it is ours and now redundant).

Merging is idempotent: a source's rows are compared with the live rows as a
multiset (every column but the id), and only the surplus is added, so a source
merged twice — after a crash between the merge and its bookkeeping, or a kept
original whose rows a rebuild already copied — adds nothing the second time.
Two different results never share every column: each carries the second it was
played in.

These steps run while the caller holds the profile folder's lock
(:mod:`engine.storage.lock`), so no other copy is merging or writing a pending
file at the same moment. No pygame here.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import sqlite3
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from engine.core.phrase import N_, Phrase, joined

from .atomic import CORRUPT_MARKER, atomic_write_text
from .stats_health import KNOWN_VERSIONS

PENDING_MARKER = ".pending-"
# Result columns of each table, without the id (an id is the live file's to give).
COLUMNS: dict[str, tuple[str, ...]] = {
    "games": ("played_at", "game", "variant", "mode", "opponent", "outcome"),
    "puzzles": ("played_at", "game", "variant", "moves", "seconds", "helped"),
    "records": ("played_at", "game", "variant", "seats", "levels", "outcome", "record", "kept"),
}
# The tables of results: what the notices count (a record goes with its game's result and
# is not counted again).
RESULT_TABLES = ("games", "puzzles")
# The columns that tell one result from another when merging: all but a mark the player
# can change (a record kept since it was set aside is the same record).
IDENTITY: dict[str, int] = {"records": 7}
# Which set-aside files have been merged, and as what file (size, time, inode).
RECOVERED_TABLE = """CREATE TABLE IF NOT EXISTS recovered_files (
    name TEXT PRIMARY KEY,
    signature TEXT NOT NULL,
    added INTEGER NOT NULL,
    at TEXT NOT NULL
)"""
# A pending file bigger than this is not ours to read whole (a session writes a few KB).
MAX_PENDING_BYTES = 20_000_000
_SIDE_SUFFIXES = ("-journal", "-wal", "-shm")

Rows = dict[str, list[tuple[Any, ...]]]


def signature(path: Path) -> str:
    """What tells one version of a file from another: size, modification time, inode."""
    info = os.stat(path)
    return f"{info.st_size}:{info.st_mtime_ns}:{info.st_ino}"


def aside_databases(db_path: Path) -> list[Path]:
    """The database's set-aside copies (not their journals), oldest name first."""
    pattern = f"{glob.escape(db_path.name)}{CORRUPT_MARKER}*"
    return sorted(p for p in db_path.parent.glob(pattern)
                  if not p.name.endswith(_SIDE_SUFFIXES) and p.is_file())


def pending_files(db_path: Path) -> list[Path]:
    """Results waiting beside the database, oldest name first."""
    pattern = f"{glob.escape(db_path.name)}{PENDING_MARKER}*.json"
    return sorted(p for p in db_path.parent.glob(pattern) if p.is_file())


def stale_temporaries(db_path: Path) -> list[Path]:
    """What a killed copy left half made: ``.<name>.<random>.rebuild`` (+ journal), and
    temporaries of pending files.

    Only call this under the folder lock: a rebuild in progress holds it.
    """
    base = f".{glob.escape(db_path.name)}.*.rebuild"
    # And a pending file's temporary (atomic_write_text's ``.<name>.<random>.tmp``).
    pending = f".{glob.escape(db_path.name)}{PENDING_MARKER}*.json.*.tmp"
    return sorted([*db_path.parent.glob(base), *db_path.parent.glob(base + "-journal"),
                   *db_path.parent.glob(pending)])


def read_rows(conn: sqlite3.Connection, with_id: bool = False,
              tables: Sequence[str] = tuple(COLUMNS)) -> Rows:
    """Every row of our tables (those that exist), read from the tables themselves.

    NOT INDEXED: a damaged index must not hide rows. ``with_id``: each row starts
    with its rowid (a rebuild keeps the ids; the rowid, not the id column, since
    a damaged schema can make id an ordinary, empty column). Raises sqlite3.Error
    if a table cannot be read to the end.
    """
    rows: Rows = {}
    for table in tables:
        columns = COLUMNS[table]
        if conn.execute(f"PRAGMA table_info({table})").fetchone() is None:
            continue
        names = ", ".join((("rowid",) if with_id else ()) + columns)
        rows[table] = conn.execute(f"SELECT {names} FROM {table} NOT INDEXED").fetchall()
    return rows


def read_aside(path: Path) -> Rows | None:
    """The rows of a set-aside database, or None when it holds none we can take.

    None for a file that is not a statistics database of a version we know (a newer
    version's file waits for that version) or whose tables cannot be read at all.
    Damaged pages cost only their own rows (see :func:`salvage_aside`). The file
    is opened read-only and never changed.
    """
    salvaged = salvage_aside(path)
    return None if salvaged is None else salvaged[0]


def salvage_aside(path: Path) -> tuple[Rows, int] | None:
    """Every readable row of a set-aside database, and how many rows could not be read.

    The tables are read whole when they can be; a table that cannot (a damaged page)
    is read row by row (:func:`salvage_table`), so one damaged page costs only the rows
    on it. None as for :func:`read_aside`. The file is opened read-only.
    """
    uri = f"{Path(path).resolve().as_uri()}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error:
        return None
    conn.text_factory = lambda raw: raw.decode("utf-8", "replace")
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] not in KNOWN_VERSIONS:
            return None
        rows: Rows = {}
        lost = 0
        for table in COLUMNS:
            try:
                if conn.execute(f"PRAGMA table_info({table})").fetchone() is None:
                    continue
            except (sqlite3.Error, UnicodeDecodeError):
                continue  # a damaged schema page: nothing of this table can be found
            try:
                rows[table] = read_rows(conn, tables=(table,))[table]
            except (sqlite3.Error, UnicodeDecodeError):
                rows[table], missing = salvage_table(conn, table)
                lost += missing if table in RESULT_TABLES else 0
        return rows, lost
    except (sqlite3.Error, UnicodeDecodeError):
        return None
    finally:
        conn.close()


# Rowids run from -2**63 to 2**63 - 1.
_MIN_ROWID = -(2**63)
_MAX_ROWID = 2**63 - 1
# Ids in a skipped span looked up one by one up to this many (ours are consecutive;
# a wider span is a damaged page's nonsense, not rows).
_PROBE_SPAN = 65_536
_ERRORS = (sqlite3.Error, UnicodeDecodeError, OverflowError)


def salvage_table(conn: sqlite3.Connection, table: str) -> tuple[list[tuple[Any, ...]], int]:
    """The readable rows of ``table`` (our result columns, oldest id first), read past
    damaged pages, and how many of its rows could not be read.

    The table is scanned in rowid order; where a scan breaks on a damaged page it
    resumes at the next id a scan can start from (found by steps that double), and
    the ids it stepped over are looked up one by one. A row whose values are not of
    the kinds a result has (bytes of a damaged page read as a row) is not taken. How
    many were lost: the ids the table's index knows and no read found, or, when the
    index cannot be read whole either, the ids missing between the first and the last
    known (the game gives consecutive ids and never deletes a result).
    """
    columns = COLUMNS[table]
    select = f"SELECT rowid, {', '.join(columns)} FROM {table} NOT INDEXED"
    found: dict[int, tuple[Any, ...]] = {}
    start: int | None = _MIN_ROWID
    while start is not None:
        try:
            for row in conn.execute(f"{select} WHERE rowid >= ? ORDER BY rowid", (start,)):
                found[row[0]] = tuple(row[1:])
                start = row[0] + 1 if row[0] < _MAX_ROWID else None
                if start is None:
                    break
            break
        except _ERRORS:
            start = _resume(conn, table, select, start, found)
    index_ids, index_whole = _index_ids(conn, table)
    kept = {rowid: row for rowid, row in found.items() if _plausible(table, list(row))
            and (table != "games" or row[-1] in ("won", "lost", "drawn"))}
    known = index_ids | found.keys()
    if index_whole:
        lost = len(index_ids - kept.keys())
    elif known and table != "records":
        # (Records are trimmed to the newest of each game, so their ids have gaps: with
        # no whole index, how many were lost cannot be told, and none are counted.)
        first, last = max(min(known), 1), max(known)
        lost = max(0, min(last - first + 1, len(known) + _PROBE_SPAN) - len(
            [rowid for rowid in kept if first <= rowid <= last]))
    else:
        lost = 0
    return [kept[rowid] for rowid in sorted(kept)], lost


def _resume(conn: sqlite3.Connection, table: str, select: str, start: int,
            found: dict[int, tuple[Any, ...]]) -> int | None:
    """Where to scan on after a scan from ``start`` broke, or None at the table's end;
    the ids stepped over that can be read one by one go into ``found``."""
    step = 1
    while True:
        probe = start + step
        if probe > _MAX_ROWID:
            nxt = None
            break
        try:
            row = conn.execute(f"SELECT rowid FROM {table} NOT INDEXED WHERE rowid >= ? "
                               "ORDER BY rowid LIMIT 1", (probe,)).fetchone()
        except _ERRORS:
            step *= 2
            continue
        nxt = None if row is None else row[0]
        break
    end = (start + step) if nxt is None else nxt
    for rowid in range(max(start, 0), min(end, start + _PROBE_SPAN, _MAX_ROWID)):
        with contextlib.suppress(*_ERRORS):
            row = conn.execute(f"{select} WHERE rowid = ?", (rowid,)).fetchone()
            if row is not None:
                found[row[0]] = tuple(row[1:])
    return nxt


def _index_ids(conn: sqlite3.Connection, table: str) -> tuple[set[int], bool]:
    """The rowids the table's index lists (a second record of which rows there were),
    and whether it could be read to the end."""
    ids: set[int] = set()
    try:
        names = [str(row[1]) for row in conn.execute(f"PRAGMA index_list({table})")]
    except _ERRORS:
        return ids, False
    for name in names:
        ids.clear()
        try:
            for (rowid,) in conn.execute(
                    f'SELECT rowid FROM {table} INDEXED BY "{name}"'):
                ids.add(rowid)
        except _ERRORS:
            continue
        return ids, True
    return ids, False


def merge_rows(conn: sqlite3.Connection, rows: Rows) -> int:
    """Add the rows of ``rows`` the live tables lack (as a multiset); return how many
    results (records are added too, not counted).

    Runs inside the caller's transaction. A row breaking the tables' constraints
    (a damaged value) is skipped, as a rebuild skips it.
    """
    added = 0
    for table, incoming in rows.items():
        if not incoming:
            continue
        names = COLUMNS[table]
        size = IDENTITY.get(table, len(names))
        have = Counter(tuple(row)[:size] for row in conn.execute(
            f"SELECT {', '.join(names)} FROM main.{table}"))
        for row in incoming:
            key = tuple(row)
            if have[key[:size]] > 0:
                have[key[:size]] -= 1
                if table == "records" and key[-1] == 1:
                    # The same record, marked to keep in the copy: the mark is kept too.
                    conn.execute("UPDATE main.records SET kept = 1 WHERE id = (SELECT id "
                                 "FROM main.records WHERE played_at = ? AND game = ? AND "
                                 "variant = ? AND seats = ? AND levels = ? AND outcome = ? "
                                 "AND record = ? LIMIT 1)", key[:size])
                continue
            before = conn.total_changes
            conn.execute(f"INSERT OR IGNORE INTO main.{table} ({', '.join(names)}) "
                         f"VALUES ({', '.join('?' * len(names))})", key)
            if table in RESULT_TABLES:
                added += conn.total_changes - before
    return added


def write_pending(db_path: Path, rows: Rows) -> Path:
    """Keep results that could not be written to the database beside it; return the file.

    Raises OSError when that fails too (the disk is full, the folder read-only).
    """
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = db_path.with_name(f"{db_path.name}{PENDING_MARKER}{stamp}-{os.getpid()}.json")
    data = {"format": "arcade-of-strategy pending results", "version": 1,
            "rows": {table: [list(row) for row in table_rows]
                     for table, table_rows in rows.items() if table_rows}}
    atomic_write_text(path, json.dumps(data, ensure_ascii=False))
    return path


def read_pending(path: Path) -> Rows | None:
    """The results in a pending file, checked row by row; None if it is not one of ours."""
    try:
        if os.stat(path).st_size > MAX_PENDING_BYTES:
            return None
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != "arcade-of-strategy pending results":
        return None
    tables = data.get("rows")
    if not isinstance(tables, dict):
        return None
    rows: Rows = {}
    for table, table_rows in tables.items():
        if table not in COLUMNS or not isinstance(table_rows, list):
            return None
        rows[table] = [tuple(row) for row in table_rows if _plausible(table, row)]
    return rows


def _plausible(table: str, row: object) -> bool:
    """A row of the right length whose values are of the right kinds."""
    if not isinstance(row, list) or len(row) != len(COLUMNS[table]):
        return False
    if table == "games":
        return all(isinstance(value, str) for value in row)
    if table == "records":
        return all(isinstance(value, str) for value in row[:-1]) and row[-1] in (0, 1) \
            and type(row[-1]) is int and row[5] in ("won", "lost", "drawn")
    played_at, game, variant, moves, seconds, helped = row
    return (all(isinstance(value, str) for value in (played_at, game, variant))
            and all(type(value) is int for value in (moves, helped))
            and type(seconds) in (int, float))


def keep_original(db_path: Path) -> Path:
    """Keep the file at ``db_path`` under a ``.corrupt-`` name while it stays in place.

    A hard link costs nothing and keeps the bytes exactly; where links are not
    possible the file is copied. A link made by an earlier, interrupted attempt
    is reused rather than piling up names for the same file.
    """
    from .atomic import _aside_candidates, copy_aside

    with contextlib.suppress(OSError):
        for sibling in aside_databases(db_path):
            if os.path.samefile(sibling, db_path):
                return sibling
    for candidate in _aside_candidates(db_path):
        try:
            os.link(db_path, candidate)
        except FileExistsError:
            continue
        except OSError:
            return copy_aside(db_path)
        return candidate
    raise AssertionError("unreachable")  # pragma: no cover - the generator is endless


def describe_sources(sources: Sequence[tuple[Path, int]]) -> str:
    """"12 results from statistics.sqlite3.corrupt-… and 3 from …" for a notice."""
    parts = [Phrase(N_("{count} from {name}"), count=count, name=path.name)
             for path, count in sources]
    return joined(parts, ", ")
