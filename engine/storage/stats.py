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
import math
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

from engine.core.phrase import N_, Nn_, Phrase

from . import stats_recovery as recovery
from .stats_health import brief
from .stats_opening import StatsOpener
from .stats_schema import OUTCOMES, file_inode, now, transaction, trim_records
from .stats_summaries import GameRecord, GameSummary, PuzzleSummary, StatsSummaries

__all__ = ["OUTCOMES", "GameRecord", "GameSummary", "PuzzleSummary", "StatsStore"]


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

    Opening (checks, repairs, merging back) is :class:`StatsOpener`'s work and
    the summaries :class:`StatsSummaries`'; the store keeps the session: the
    connection, the results waiting for the file, and what is said about them.
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
        #: The error of the last read that failed (None after a good one is not
        #: promised: callers reset it before the reads they check).
        self.read_error: BaseException | None = None
        #: Held by whoever uses the connection (the worker thread, or close()).
        self.lock = threading.RLock()

    # --- opening and closing --------------------------------------------------

    def open(self) -> list[str]:
        """Open (creating if needed) the database; return warnings for the player.

        Under the profile folder's lock: create the schema, repair a damaged file,
        remove what a killed copy left half done and merge back results kept aside
        (set-aside databases, results a session could not write).
        """
        self._disconnect()
        opener = StatsOpener(self.path, self.busy_timeout, self.lock_timeout)
        self.warnings = opener.warnings
        self._waiting = None
        self._spill = False
        opener.open()
        self._conn, self.persistent = opener.conn, opener.persistent
        self._spill, self._inode = opener.spill, opener.inode
        return list(self.warnings)

    def close(self) -> str | None:
        """Close the database (safe to call more than once).

        Results still waiting for a busy file get a longer wait now; any that
        still cannot be written (or a session that ran in memory because the file
        was busy or the disk full) are written beside the file, for the next start
        to add. Returns a message when that happened or failed, else None.
        """
        with self.lock:
            return self._close()

    def _close(self) -> str | None:
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

    @contextlib.contextmanager
    def waiting(self, seconds: float) -> Iterator[None]:
        """Within the block, a busy file is waited for ``seconds`` (not
        :attr:`busy_timeout`): a read for a screen fails fast and is tried again."""
        conn = self._conn
        if conn is None:
            yield
            return
        with contextlib.suppress(sqlite3.Error):
            conn.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
        try:
            yield
        finally:
            if self._conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")

    @property
    def closed(self) -> bool:
        """True when the store is not open (before :meth:`open`, after :meth:`close`)."""
        return self._conn is None

    def _disconnect(self) -> None:
        """Close the connection as it is (waiting results are the caller's concern)."""
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None

    def _spill_unsaved(self) -> str | None:
        """Write the results that never reached the file beside it (see close)."""
        rows = self._unsaved()
        count = sum(len(rows[table]) for table in recovery.RESULT_TABLES)
        if not count or not (self.persistent or self._spill):
            return None
        try:
            kept = recovery.write_pending(self.path, rows)
        except OSError as exc:
            return Phrase(Nn_("{count} result of this session could not be saved to {path} "
                              "nor beside it ({reason}).",
                              "{count} results of this session could not be saved to {path} "
                              "nor beside it ({reason})."),
                          count=count, path=self.path, reason=exc.strerror or str(exc))
        return Phrase(Nn_("{count} result of this session could not be written to {path}; "
                          "it was kept in {kept} and is added at the next start.",
                          "{count} results of this session could not be written to {path}; "
                          "they were kept in {kept} and are added at the next start."),
                      count=count, path=self.path, kept=kept)

    # --- recording ------------------------------------------------------------

    def _require_open(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError("StatsStore.open() must be called before using the store")
        return self._conn

    def record_game(
        self, game: str, variant: str, mode: str, opponent: str, outcome: str,
        record: str | None = None,
    ) -> str | None:
        """Record one finished game; return a warning if it could not be saved.

        ``mode`` is e.g. ``"human-computer"``; ``opponent`` is the AI level's
        name or ``""``; ``outcome`` is ``"won"``, ``"lost"`` or ``"drawn"`` for
        the first human seat. ``record``: the game as its record line
        (engine.model.records; ``""`` for a game that has none), kept in the
        records table with the result, in the same transaction; None keeps no
        record. Raises ValueError for invalid arguments.
        """
        self.check_game(game, variant, mode, opponent, outcome)
        at = now()
        result = ("games", (at, game, variant, mode, opponent, outcome))
        if record is None:
            return self._write(result)
        _require_text("record", record)
        kept = ("records", (at, game, variant, mode, opponent, outcome, record, 0))
        return self._write(result, kept)

    @staticmethod
    def check_game(game: str, variant: str, mode: str, opponent: str, outcome: str) -> None:
        """Raise ValueError unless these are valid arguments of :meth:`record_game`."""
        _require_text("game", game, allow_empty=False)
        _require_text("variant", variant)
        _require_text("mode", mode, allow_empty=False)
        _require_text("opponent", opponent)
        if outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")

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
        return self._write(("puzzles",
                            (now(), game, variant, moves, float(seconds), int(helped))))

    def _write(self, *rows: tuple[str, tuple[object, ...]]) -> str | None:
        """Record one result (its ``(table, row)`` pairs): kept in the session at once,
        then written to the file with any results still waiting. Returns a warning (once
        per cause) when the file does not take them now; they stay shown and are tried
        again at the next result and when the game closes."""
        conn = self._require_open()
        try:
            # A deferred transaction on the temp tables only: no lock on the file (a busy
            # file never refuses a result), and a result's rows wait together.
            conn.execute("BEGIN")
            try:
                for table, row in rows:
                    names = recovery.COLUMNS[table]
                    conn.execute(f"INSERT INTO temp.unsaved_{table} ({', '.join(names)}) "
                                 f"VALUES ({', '.join('?' * len(names))})", row)
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
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
        if self._inode is not None and file_inode(self.path) != self._inode:
            self._reopen()
            conn = self._require_open()
            if not self.persistent:
                return None
        try:
            with transaction(conn):
                for table, names in recovery.COLUMNS.items():
                    columns = ", ".join(names)
                    conn.execute(f"INSERT INTO main.{table} ({columns}) "
                                 f"SELECT {columns} FROM temp.unsaved_{table} ORDER BY seq")
                    conn.execute(f"DELETE FROM temp.unsaved_{table}")
                trim_records(conn)
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

    # --- reading ------------------------------------------------------------

    def _summaries(self) -> StatsSummaries:
        # Made per call, not kept: a kept one would tie the store in a reference cycle
        # (through its bound _read), and its connection would close only at a collection.
        return StatsSummaries(self._read)

    def game_summary(self) -> list[GameSummary]:
        """Per (game, variant, mode, opponent) counts, sorted by those keys.

        On a read error returns ``[]`` and adds a message to :attr:`warnings`.
        """
        return self._summaries().game_summary()

    def match_outcomes(self, game: str) -> list[str]:
        """The player's results (``"won"``, ``"drawn"``, ``"lost"``) in their games of
        ``game`` against "Match me", in the order played: what its level is read from
        (engine.ai.ladder.match_level). ``[]`` on a read error (reported in warnings)."""
        return self._summaries().match_outcomes(game)

    def all_match_outcomes(self) -> dict[str, list[str]] | None:
        """``{game: outcomes}`` as :meth:`match_outcomes` for every game, in one read;
        None when it cannot be read (the reason in :attr:`read_error`)."""
        self.read_error = None
        result = self._summaries().all_match_outcomes()
        return None if self.read_error is not None else result

    def totals_by_game(self, players_only: bool = False) -> dict[str, tuple[int, int, int, int]]:
        """``{game: (played, won, lost, drawn)}`` over all variants and modes.

        ``players_only`` leaves out games the computer played against itself (modes
        with no ``human`` seat): those are not the player's results.
        """
        return self._summaries().totals_by_game(players_only)

    def puzzle_summary(self) -> list[PuzzleSummary]:
        """Per (game, variant): solves, solves with help, and the best unhelped result."""
        return self._summaries().puzzle_summary()

    def best_puzzle(self, game: str, variant: str) -> tuple[int, float] | None:
        """Best unhelped solution as ``(moves, seconds)``: fewest moves, then fastest."""
        return self._summaries().best_puzzle(game, variant)

    def recent_records(self, limit: int = 200) -> list[GameRecord]:
        """The newest ``limit`` records of finished games (every game), newest first;
        ``[]`` on a read error (reported in :attr:`warnings` and :attr:`read_error`)."""
        return self._summaries().recent_records(limit)

    def set_kept(self, key: tuple[int, int], kept: bool) -> str | None:
        """Mark the record ``key`` (:attr:`GameRecord.key`) to keep beyond the newest of
        its game, or unmark it (one transaction); a warning when the file does not take
        the mark now (it is then unchanged: the player may try again). Unmarking a record
        older than its game's newest removes it at the next write."""
        conn = self._require_open()
        src, order = key
        try:
            if src == 1:  # still waiting for the file: marked where it waits
                conn.execute("UPDATE temp.unsaved_records SET kept = ? WHERE seq = ?",
                             (int(kept), order))
                return None
            with transaction(conn):
                conn.execute("UPDATE main.records SET kept = ? WHERE rowid = ?",
                             (int(kept), order))
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            return Phrase(N_("Could not change the mark in {path} now ({reason}); try again "
                             "in a moment."), path=self.path, reason=brief(exc))
        return None

    def _read(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple]:
        conn = self._require_open()
        try:
            return conn.execute(sql, params).fetchall()
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            # What went wrong, for whoever must tell a busy file from an empty one
            # (engine.storage.stats_worker): an empty answer is not "no results".
            self.read_error = exc
            # A statistics screen must not crash the game; report instead,
            # once: screens read every frame, and the list must not grow.
            message = Phrase(N_("Could not read statistics from {path} ({reason})."),
                             path=self.path, reason=brief(exc))
            if message not in self.warnings:
                self.warnings.append(message)
            return []
