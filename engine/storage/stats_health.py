"""Is a statistics file fit for use? The checks made before the game writes to it.

Pure reading (and one write that is always rolled back): nothing here changes a
file. :func:`check` says what a database needs — nothing, our schema (an empty
file), one missing table, or a rebuild from its rows — or raises
:class:`Unusable` when it is beyond that; :func:`header_problem` and
:func:`refuses_rows` find damage SQLite only trips over later. Errors that are
not the file's fault (locked, busy, read-only, full) are never taken for damage.

No pygame here.
"""

from __future__ import annotations

import contextlib
import sqlite3

from engine.core.phrase import N_, Phrase

SCHEMA_VERSION = 2
#: The versions a file may have and still be opened: older ones are upgraded in place
#: (engine.storage.stats_schema.migrate). Version 2 added the ``records`` table.
KNOWN_VERSIONS = (1, 2)

SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100
# Primary result codes (https://sqlite.org/rescode.html) that, while checking
# a file, mean the file itself is at fault: damaged, not a database, or in a
# format this SQLite cannot read (SQLITE_ERROR "unsupported file format", e.g.
# a damaged schema-format byte). Busy, locked, read-only, I/O and out-of-memory
# errors are not the file's fault and must not get it moved aside.
_SQLITE_ERROR = 1
_SQLITE_CORRUPT = 11
_SQLITE_FORMAT = 24
_SQLITE_NOTADB = 26
_SQLITE_CONSTRAINT = 19
_SQLITE_MISMATCH = 20
FILE_AT_FAULT = (_SQLITE_ERROR, _SQLITE_CORRUPT, _SQLITE_FORMAT, _SQLITE_NOTADB)
# Busy and locked: another program is writing; wait and try again, never give up the result.
SQLITE_BUSY = 5
SQLITE_LOCKED = 6
_SQLITE_FULL = 13
# Conditions that pass: a session meeting them keeps its results for later.
TRANSIENT = (SQLITE_BUSY, SQLITE_LOCKED, _SQLITE_FULL)

# integrity_check findings that leave every row readable. A damaged index
# (the fuzz test's commonest result of a flipped byte) is rebuilt from the
# tables; a NULL or a CHECK failure only spoils one value of one row (and if
# the stored CHECK itself is damaged, refuses_rows notices).
_INDEX_PROBLEMS = ("missing from index", "wrong # of entries in index",
                   "non-unique entry in index")
_HARMLESS_PROBLEMS = ("NULL value in ", "CHECK constraint failed in ")

EXPECTED_COLUMNS: dict[str, tuple[str, ...]] = {
    "games": ("id", "played_at", "game", "variant", "mode", "opponent", "outcome"),
    "puzzles": ("id", "played_at", "game", "variant", "moves", "seconds", "helped"),
    "records": ("id", "played_at", "game", "variant", "seats", "levels", "outcome", "record",
                "kept"),
}
# The tables a file of each version has (a file of an older version is upgraded on open).
VERSION_TABLES = {1: ("games", "puzzles"), 2: ("games", "puzzles", "records")}


class Unusable(Exception):
    """The existing file is not a statistics database we may use."""


def header_problem(header: bytes) -> str | None:
    """``"rebuild:<why>"`` if a header field SQLite reads lazily is damaged, else None.

    SQLite reads the database fine with these, and only fails later: a "write
    version" above 2 makes the file read-only for ever, and a text encoding
    other than 1-3 makes every statement fail after the first write.
    """
    if len(header) < HEADER_SIZE:
        return None
    if header[18] > 2:
        return rebuild(Phrase(N_("its header forbids writing to it")))
    if int.from_bytes(header[56:60], "big") > 3:
        return rebuild(Phrase(N_("its header names an unknown text encoding")))
    return None


def rebuild(why: Phrase) -> str:
    """The state ``"rebuild:<why>"`` (see :func:`check`), ``why`` kept as a Phrase for
    :func:`rebuild_reason`."""
    return Phrase("rebuild:{why}", why=why)


def rebuild_reason(state: str) -> str:
    """The ``<why>`` of a ``"rebuild:<why>"`` state (a Phrase where one was made)."""
    if isinstance(state, Phrase) and isinstance(state.values.get("why"), Phrase):
        return state.values["why"]
    return state.removeprefix("rebuild:")


def brief(text: object, limit: int = 300) -> str:
    """``text`` as one short printable line for a warning.

    SQLite's messages can quote the damaged file: schema text with line
    breaks, control characters, hundreds of lines of findings. A Phrase (made from
    values already brief) stays as it is, to be said in the player's language.
    """
    if isinstance(text, Phrase):
        return text
    if isinstance(text, BaseException) and len(text.args) == 1 \
            and isinstance(text.args[0], Phrase):
        return text.args[0]
    line = " ".join(str(text).split())
    line = "".join(c if c.isprintable() else "\ufffd" for c in line)
    return line if len(line) <= limit else line[: limit - 1] + "…"


def describe(problems: list[str]) -> str:
    """The first few integrity_check findings as one short line for a warning.

    One finding can itself be a list of hundreds of lines under a
    "*** in database main ***" heading.
    """
    lines = [line.strip() for problem in problems for line in problem.splitlines()]
    return brief("; ".join([line for line in lines if line and not line.startswith("***")][:3]),
                  200)



def code_of(exc: BaseException) -> int | None:
    """SQLite's primary result code of ``exc`` (None if it carries none)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF



def check(conn: sqlite3.Connection) -> str:
    """Say what the database needs before use.

    Returns ``"ok"`` for a healthy database of a version we know (an older one
    is upgraded by the caller), ``"empty"`` for an
    empty one, ``"missing:<table>"`` when one of our tables is missing
    but games or puzzles is intact, and ``"rebuild:<why>"`` for a
    database with our tables that is damaged: its rows are then copied
    into a new file (if they can all be read). Raises Unusable if the file
    is beyond that, not ours, or from a newer version, and sqlite3.Error
    for problems that are not the file's fault (locked, cannot open):
    those must not get the file moved aside.
    """
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise Unusable(Phrase(
                N_("it was written by a newer version of the game (statistics version "
                   "{version}; this version understands {known})"),
                version=version, known=SCHEMA_VERSION))
        # Lower case: SQL names ignore case ("gAmes" is the games table).
        objects = {
            str(name).lower(): kind
            for name, kind in conn.execute("SELECT name, type FROM sqlite_master")
        }
        if version == 0 and not objects:
            return "empty"  # e.g. a 0-byte file left by a crash before our first write
        # integrity_check, not quick_check: only it compares the indexes
        # with the tables, and a damaged index otherwise passes here and
        # then fails every summary ("database disk image is malformed").
        try:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        except sqlite3.DatabaseError as exc:
            # The check itself can stop at damage ("malformed") that the
            # table rows do not share; _rebuild finds out.
            if getattr(exc, "sqlite_errorcode", 0) & 0xFF not in FILE_AT_FAULT:
                raise
            problems = [str(exc)]
        serious = [p for p in problems if p != "ok" and not p.startswith(_HARMLESS_PROBLEMS)
                   and not any(kind in p for kind in _INDEX_PROBLEMS)]
        if serious and version not in KNOWN_VERSIONS:
            raise Unusable(Phrase(N_("it is damaged: {problems}"), problems=describe(serious)))
        if version not in KNOWN_VERSIONS:
            raise Unusable(Phrase(N_("it is not a statistics database (version {version})"),
                                  version=version))
        missing_tables = []
        for table in VERSION_TABLES[version]:
            wanted = EXPECTED_COLUMNS[table]
            # SQLite knows a table by the CREATE statement it parses, not
            # by the name column (which a flipped bit can spoil), so ask it.
            # Lower case: SQL column names ignore case too ("outcoMe" is outcome).
            columns = {str(row[1]).lower()
                       for row in conn.execute(f"PRAGMA table_info({table})")}
            if not columns:
                missing_tables.append(table)
                continue
            if objects.get(table, "table") != "table":
                raise Unusable(Phrase(N_("its {table} is a {kind}, not a table"),
                                      table=table, kind=objects[table]))
            missing = [c for c in wanted if c not in columns]
            if missing:
                raise Unusable(Phrase(N_("table {table} lacks columns {columns}"),
                                      table=table, columns=", ".join(missing)))
        if {"games", "puzzles"} <= set(missing_tables):
            raise Unusable(Phrase(N_("it has neither a games nor a puzzles table")))
        if serious:
            # Its rows may all still be readable; _rebuild finds out.
            return rebuild(Phrase(N_("it is damaged: {problems}"), problems=describe(serious)))
        if any(kind in p for p in problems for kind in _INDEX_PROBLEMS):
            return rebuild(Phrase(N_("its indexes were damaged")))
        if missing_tables:
            return f"missing:{missing_tables[0]}"
    except sqlite3.DatabaseError as exc:
        # "database disk image is malformed", "file is not a database" and
        # "unsupported file format" are the file's fault; "database is
        # locked" is not.
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None and code & 0xFF in FILE_AT_FAULT:
            raise Unusable(Phrase(N_("it is damaged: {problems}"), problems=brief(exc))) from None
        raise
    except UnicodeDecodeError:
        # sqlite3 could not even decode SQLite's message (or a name in the
        # schema): the schema itself holds damaged bytes.
        raise Unusable(Phrase(N_("it is damaged: its schema holds text that is not UTF-8"))
                       ) from None
    return "ok"


def refuses_rows(conn: sqlite3.Connection, missing: str) -> str | None:
    """``"rebuild:<why>"`` if the tables reject a valid new result, else None.

    The rows are tried in a transaction that is always rolled back. A
    damaged CHECK constraint in the schema (or a hand-made table with other
    constraints or triggers) would otherwise make every later
    record_game fail. ``missing`` names a table that is not there (it is
    not tried). Errors that are not the file's fault (read-only, locked)
    return None: _ensure_writable deals with those.
    """
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error:
        return None
    try:
        has_records = conn.execute("PRAGMA table_info(records)").fetchone() is not None
        if missing != "games":
            conn.execute(
                "INSERT INTO games (played_at, game, variant, mode, opponent, outcome) "
                "VALUES ('', 'probe', '', 'probe', '', 'won')"
            )
        if missing != "puzzles":
            conn.execute(
                "INSERT INTO puzzles (played_at, game, variant, moves, seconds, helped) "
                "VALUES ('', 'probe', '', 0, 0.0, 0)"
            )
        if missing != "records" and has_records:
            conn.execute(
                "INSERT INTO records (played_at, game, variant, seats, levels, outcome, "
                "record, kept) VALUES ('', 'probe', '', 'probe', '', 'won', '', 0)"
            )
    except sqlite3.Error as exc:
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None and code & 0xFF in (*FILE_AT_FAULT, _SQLITE_CONSTRAINT,
                                                _SQLITE_MISMATCH):
            return rebuild(Phrase(N_("its tables refuse new results ({reason})"),
                                  reason=brief(exc)))
        return None
    except UnicodeDecodeError:
        return rebuild(Phrase(N_("its tables refuse new results")))
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
    return None

