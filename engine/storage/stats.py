"""Game and puzzle statistics in a small SQLite database in the data folder.

SQLite gives us crash safety for free: every write is a transaction with the
default rollback journal, so a game killed mid-write leaves the database as it
was before that write. (The rollback journal rather than WAL is chosen because
it needs no shared-memory file and so also works on network and synced
folders.)

As with settings, a database we cannot use is moved aside, never deleted, and
no problem here ever stops the game: it only produces a warning.
"""

from __future__ import annotations

import contextlib
import math
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from .atomic import move_aside

SCHEMA_VERSION = 1
OUTCOMES = ("won", "lost", "drawn")

_SQLITE_MAGIC = b"SQLite format 3\x00"
_SQLITE_CORRUPT = 11  # primary result codes, https://sqlite.org/rescode.html
_SQLITE_NOTADB = 26
# Side files SQLite may keep next to the database; they belong to it and must
# travel with it when it is moved aside, or the moved copy loses data.
_SIDE_SUFFIXES = ("-journal", "-wal", "-shm")

_EXPECTED_COLUMNS: dict[str, tuple[str, ...]] = {
    "games": ("id", "played_at", "game", "variant", "mode", "opponent", "outcome"),
    "puzzles": ("id", "played_at", "game", "variant", "moves", "seconds", "helped"),
}

_SCHEMA = (
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        played_at TEXT NOT NULL,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        mode TEXT NOT NULL,
        opponent TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK(outcome IN ('won','lost','drawn'))
    )""",
    """CREATE TABLE puzzles (
        id INTEGER PRIMARY KEY,
        played_at TEXT NOT NULL,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        moves INTEGER NOT NULL,
        seconds REAL NOT NULL,
        helped INTEGER NOT NULL
    )""",
    "CREATE INDEX games_by_key ON games(game, variant, mode, opponent)",
    "CREATE INDEX puzzles_by_key ON puzzles(game, variant, helped, moves, seconds)",
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)


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


class _Unusable(Exception):
    """The existing file is not a statistics database we may use."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


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

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.warnings: list[str] = []
        #: False when results only live in memory for this session.
        self.persistent = False
        self._conn: sqlite3.Connection | None = None

    # --- opening ------------------------------------------------------------

    def open(self) -> list[str]:
        """Open (creating if needed) the database; return warnings for the player."""
        self.close()
        self.warnings = []
        try:
            self._conn, self.persistent = self._open_file()
        except OSError as exc:
            self._fall_back_to_memory(exc.strerror or str(exc))
        except sqlite3.Error as exc:
            self._fall_back_to_memory(str(exc))
        return list(self.warnings)

    def _open_file(self) -> tuple[sqlite3.Connection, bool]:
        """Open the on-disk database, setting aside anything unusable.

        Returns the connection and whether it writes to disk (False when the
        file is readable but not writable: its records are copied to memory).
        Raises OSError or sqlite3.Error when the folder or file cannot be used
        at all (the caller then falls back to memory).
        """
        if self.path.is_dir():
            self._set_aside("it is a folder, not a file")
        self.path.parent.mkdir(parents=True, exist_ok=True)

        if self.path.exists():
            # Read the header ourselves first: a permission problem must not be
            # mistaken for corruption (and the file must not be moved for it).
            with open(self.path, "rb") as handle:
                header = handle.read(len(_SQLITE_MAGIC))
            if header and header != _SQLITE_MAGIC:
                self._set_aside("it is not an SQLite database")
            else:
                conn = self._connect()
                try:
                    has_schema = self._check(conn)
                except _Unusable as exc:
                    conn.close()
                    self._set_aside(str(exc))
                except BaseException:
                    conn.close()
                    raise
                else:
                    if has_schema:
                        return self._ensure_writable(conn)
                    conn.close()  # an empty database: give it our schema below

        conn = self._connect()
        try:
            self._create_schema(conn)
        except BaseException:
            conn.close()
            raise
        return conn, True

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves so every write
        # is exactly one explicit transaction.
        return sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None)

    @staticmethod
    def _check(conn: sqlite3.Connection) -> bool:
        """Return True for a healthy version-1 database, False for an empty one.

        Raises _Unusable if the file is damaged, not ours, or from a newer
        version, and sqlite3.Error for problems that are not the file's fault
        (locked, cannot open): those must not get the file moved aside.
        """
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise _Unusable(
                    f"it was written by a newer version of the game (statistics version "
                    f"{version}; this version understands {SCHEMA_VERSION})"
                )
            tables = {
                row[0]
                for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if version == 0 and not tables:
                return False  # e.g. a 0-byte file left by a crash before our first write
            problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise _Unusable(f"it is damaged: {'; '.join(problems[:3])}")
            if version != SCHEMA_VERSION:
                raise _Unusable(f"it is not a statistics database (version {version})")
            for table, wanted in _EXPECTED_COLUMNS.items():
                columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
                missing = [c for c in wanted if c not in columns]
                if missing:
                    raise _Unusable(f"table {table} lacks columns {', '.join(missing)}")
        except sqlite3.DatabaseError as exc:
            # Only "database disk image is malformed" / "file is not a
            # database" are the file's fault; "database is locked" is not.
            code = getattr(exc, "sqlite_errorcode", None)
            if code is not None and code & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
                raise _Unusable(f"it is damaged: {exc}") from None
            raise
        return True

    def _ensure_writable(self, conn: sqlite3.Connection) -> tuple[sqlite3.Connection, bool]:
        """Return ``(conn, True)`` if writes work, else an in-memory copy and False."""
        try:
            # A real write that is rolled back: the only reliable way to learn
            # whether the file and its folder (for the journal) are writable.
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute("CREATE TABLE write_probe (x)")
            finally:
                # SQLite may already have rolled back after a failed write;
                # keep the original error, not "no transaction is active".
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            memory = sqlite3.connect(":memory:", isolation_level=None)
            try:
                conn.backup(memory)
            finally:
                conn.close()
            self.warnings.append(
                f"Statistics file {self.path} can be read but not written ({exc}); "
                "results of this session will be shown but not saved."
            )
            return memory, False
        return conn, True

    def _set_aside(self, reason: str) -> None:
        """Move the unusable database and its side files aside, with a warning."""
        try:
            kept = move_aside(self.path)
        except OSError as exc:
            # Leave the file alone; the caller falls back to memory and the
            # player learns both what was wrong and why we could not fix it.
            raise OSError(
                f"{reason}, and it could not be moved aside: {exc.strerror or exc}"
            ) from exc
        for suffix in _SIDE_SUFFIXES:
            side = self.path.with_name(self.path.name + suffix)
            if os.path.lexists(side):
                # Keep the pairing "<kept>-journal" so that opening the kept
                # copy with SQLite still sees its journal.
                target = kept.with_name(kept.name + suffix)
                with contextlib.suppress(OSError):
                    if os.path.lexists(target):
                        move_aside(side)
                    else:
                        os.rename(side, target)
        self.warnings.append(
            f"Statistics file {self.path} could not be used ({reason}); it was kept as "
            f"{kept}; a new statistics file was started."
        )

    @staticmethod
    def _create_schema(conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA:
                conn.execute(statement)
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise

    def _fall_back_to_memory(self, reason: str) -> None:
        self.persistent = False
        conn = sqlite3.connect(":memory:", isolation_level=None)
        self._create_schema(conn)
        self._conn = conn
        self.warnings.append(
            f"Statistics file {self.path} could not be opened or created ({reason}); "
            "statistics will not be saved this session."
        )

    def close(self) -> None:
        """Close the database (safe to call more than once)."""
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None

    # --- writing ------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self._require_open()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise

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
        self._require_open()
        return self._write(
            "INSERT INTO games (played_at, game, variant, mode, opponent, outcome) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (_now(), game, variant, mode, opponent, outcome),
        )

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
        self._require_open()
        return self._write(
            "INSERT INTO puzzles (played_at, game, variant, moves, seconds, helped) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (_now(), game, variant, moves, float(seconds), int(helped)),
        )

    def _write(self, sql: str, params: tuple[object, ...]) -> str | None:
        try:
            with self._transaction() as conn:
                conn.execute(sql, params)
        except sqlite3.Error as exc:
            where = self.path if self.persistent else "memory"
            return f"Could not save this result to {where} ({exc}); it was not recorded."
        return None

    # --- reading ------------------------------------------------------------

    def game_summary(self) -> list[GameSummary]:
        """Per (game, variant, mode, opponent) counts, sorted by those keys.

        On a read error returns ``[]`` and adds a message to :attr:`warnings`.
        """
        rows = self._read(
            "SELECT game, variant, mode, opponent, COUNT(*), "
            "SUM(outcome = 'won'), SUM(outcome = 'lost'), SUM(outcome = 'drawn') "
            "FROM games GROUP BY game, variant, mode, opponent "
            "ORDER BY game, variant, mode, opponent"
        )
        return [GameSummary(*row) for row in rows]

    def totals_by_game(self) -> dict[str, tuple[int, int, int, int]]:
        """``{game: (played, won, lost, drawn)}`` over all variants and modes."""
        rows = self._read(
            "SELECT game, COUNT(*), "
            "SUM(outcome = 'won'), SUM(outcome = 'lost'), SUM(outcome = 'drawn') "
            "FROM games GROUP BY game ORDER BY game"
        )
        return {row[0]: (row[1], row[2], row[3], row[4]) for row in rows}

    def puzzle_summary(self) -> list[PuzzleSummary]:
        """Per (game, variant): solves, solves with help, and the best unhelped result."""
        rows = self._read(
            "SELECT game, variant, COUNT(*), SUM(helped != 0) FROM puzzles "
            "GROUP BY game, variant ORDER BY game, variant"
        )
        result = []
        for game, variant, solved, helped in rows:
            best = self.best_puzzle(game, variant)
            result.append(PuzzleSummary(game, variant, solved, helped or 0,
                                        best[0] if best else None, best[1] if best else None))
        return result

    def best_puzzle(self, game: str, variant: str) -> tuple[int, float] | None:
        """Best unhelped solution as ``(moves, seconds)``: fewest moves, then fastest."""
        rows = self._read(
            "SELECT moves, seconds FROM puzzles "
            "WHERE game = ? AND variant = ? AND helped = 0 "
            "ORDER BY moves, seconds LIMIT 1",
            (game, variant),
        )
        return (rows[0][0], rows[0][1]) if rows else None

    def _read(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple]:
        conn = self._require_open()
        try:
            return conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            # A statistics screen must not crash the game; report instead.
            self.warnings.append(f"Could not read statistics from {self.path} ({exc}).")
            return []
