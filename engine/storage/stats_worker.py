"""The statistics store on a thread of its own, so the frame loop never waits on the file.

Another program can hold the statistics file (a ``sqlite3`` shell in ``BEGIN EXCLUSIVE``,
a database browser, a sync tool): every read then waits the store's busy timeout, and a
write longer. :class:`StatsWorker` runs every use of the :class:`StatsStore` on one
worker thread (which owns the connection while it runs), in the order asked:

* screens ask with :meth:`StatsWorker.request` and get a :class:`Pending` at once,
  which they look at in later frames (showing "loading…" meanwhile);
* results are queued (:meth:`StatsWorker.record_game_later`): the frame never waits, and
  what the store says about them comes back through :meth:`StatsWorker.notices`;
* "Match me" reads its results from a copy kept up to date off the loop
  (:meth:`StatsWorker.match_outcomes_now`), with this session's queued results added;
* a store not opened yet is opened by the worker, as its first job: the window opens at
  once even while another program holds the file (what the opening found comes back
  through :meth:`StatsWorker.notices`).

The blocking methods of :class:`StatsStore` stay available here (they wait for the
worker) for the command line and tests; the frame loop uses none of them. No pygame here.
"""

from __future__ import annotations

import contextlib
import inspect
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.phrase import N_, Phrase

from .stats import StatsStore
from .stats_health import SQLITE_BUSY, SQLITE_LOCKED, brief, code_of
from .stats_summaries import is_match_game

#: Seconds between tries of a read that met a busy file.
RETRY_SECONDS = 1.0
#: Seconds a read for a screen waits for a busy file before it says so (and is tried
#: again): a screen must not say "loading…" for the store's whole busy timeout.
READ_WAIT = 0.25


@dataclass
class Pending:
    """A request to the worker: done once :attr:`ready`; then :attr:`value`, or
    :attr:`error` (what the player is told) with :attr:`busy` when another program
    held the file."""

    ready: threading.Event = field(default_factory=threading.Event)
    value: Any = None
    error: str | None = None
    busy: bool = False

    @property
    def done(self) -> bool:
        """True once the worker has answered."""
        return self.ready.is_set()


def busy_notice(path: object) -> str:
    """The notice for a statistics file another program holds."""
    return Phrase(N_("The statistics file {path} is busy: another program holds it (a "
                     "database browser, a sync tool…). Your results are read again as soon "
                     "as it lets go; new results are kept until then."), path=path)


#: A record line, or a function that writes one (None: the game has none).
Record = str | Callable[[], str | None]


def _record_line(record: Record | None) -> str | None:
    """The record line to keep: ``record`` itself, or what it writes (``""`` for a game
    whose record cannot be written: its result is kept all the same)."""
    if record is None or isinstance(record, str):
        return record
    try:
        line = record()
    except Exception:  # a record is a bonus: never lose the result for it
        return ""
    return line if isinstance(line, str) else ""


def _is_match(mode: str, opponent: str) -> bool:
    """A game against "Match me", from either seat (as :meth:`StatsStore.match_outcomes`
    selects them)."""
    return is_match_game(mode, opponent)


class StatsWorker:
    """Runs a :class:`StatsStore` on a worker thread; see the module. A store not opened
    yet is opened there first."""

    def __init__(self, store: StatsStore) -> None:
        self.store = store
        self.path = store.path
        self._jobs: queue.Queue[tuple[Callable[[StatsStore], Any], Pending] | None] = \
            queue.Queue()
        self._lock = threading.Lock()
        self._notices: list[str] = []
        # "Match me" results by game, as last read, and up to which queued result (by
        # number) that read already includes; ``_local`` holds the queued ones.
        self._match: dict[str, list[str]] | None = None
        self._match_error: str | None = None
        self._match_busy = False
        self._match_upto = 0
        self._local: list[tuple[int, str, str]] = []
        self._recorded = 0  # results queued (numbered from 1)
        self._written = 0  # results the worker has handed to the store
        self._match_queued = False
        # Best puzzle results by (game, variant), and when a read of one was asked (0.0:
        # being read; else when it last failed).
        self._bests: dict[tuple[str, str], tuple[int, float] | None] = {}
        self._best_asked: dict[tuple[str, str], float] = {}
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="statistics", daemon=True)
        #: Set once the store is open (at once for a store opened by its owner).
        self.opened = threading.Event()
        if store.closed:
            self.submit(self._open, read=False)
        else:
            self.opened.set()
        self._thread.start()
        self._refresh_match()

    def _open(self, store: StatsStore) -> None:
        """The first job for a store not opened yet: open it; tell what opening found."""
        try:
            warnings = store.open()
        finally:
            self.opened.set()
        with self._lock:
            self._notices.extend(message for message in warnings
                                 if message not in self._notices)

    # --- the worker thread ------------------------------------------------------------
    def _run(self) -> None:
        while True:
            try:
                job = self._jobs.get(timeout=RETRY_SECONDS)
            except queue.Empty:
                # Idle: a "Match me" copy that could not be read is tried again.
                if self.store.closed and self.opened.is_set():
                    return  # closed by its owner: nothing more to do here
                with self._lock:
                    again = self._match is None and not self._match_queued and not self._closed
                if again:
                    self._refresh_match()
                continue
            if job is None:
                return
            work, pending = job
            self._do(work, pending)

    def _do(self, work: Callable[[StatsStore], Any], pending: Pending) -> None:
        store = self.store
        with store.lock:
            store.read_error = None
            try:
                pending.value = work(store)
            except Exception as exc:  # the worker must survive anything a job raises
                pending.error = brief(exc)
            error = store.read_error
        if error is not None:
            pending.busy = code_of(error) in (SQLITE_BUSY, SQLITE_LOCKED)
            pending.error = busy_notice(self.path) if pending.busy else Phrase(
                N_("Could not read statistics from {path} ({reason})."),
                path=self.path, reason=brief(error))
        pending.ready.set()

    def submit(self, work: Callable[[StatsStore], Any], read: bool = True) -> Pending:
        """Run ``work(store)`` on the worker; returns at once. ``read``: it only reads,
        and waits :data:`READ_WAIT` for a busy file (a write waits the store's timeout)."""
        pending = Pending()
        if read:
            inner = work

            def work(store: StatsStore) -> Any:
                with store.waiting(READ_WAIT):
                    return inner(store)
        if self._closed:  # nothing runs after close(): an empty answer
            pending.ready.set()
            return pending
        self._jobs.put((work, pending))
        return pending

    def request(self, method: str, *args: Any, **kwargs: Any) -> Pending:
        """Call the store's reading ``method`` on the worker; returns at once."""
        return self.submit(lambda store: getattr(store, method)(*args, **kwargs))

    def call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """Call the store's ``method`` on the worker and wait for its answer (the command
        line and tests; never the frame loop)."""
        # The store's own waits: whoever calls this waits anyway.
        pending = self.submit(lambda store: getattr(store, method)(*args, **kwargs),
                              read=False)
        pending.ready.wait()
        return pending.value

    # --- results ----------------------------------------------------------------------
    def record_game_later(self, game: str, variant: str, mode: str, opponent: str,
                          outcome: str, record: Record | None = None) -> None:
        """Queue one finished game (see :meth:`StatsStore.record_game`); a warning comes
        back through :meth:`notices`. Raises ValueError at once for invalid arguments.

        ``record``: its record line, or a function that writes it (called on the worker,
        off the frame loop; it returns None, or raises ValueError, for a game with no
        record line, which is kept with ``""``)."""
        self._queue_game(game, variant, mode, opponent, outcome, tell=True, record=record)

    def _queue_game(self, game: str, variant: str, mode: str, opponent: str, outcome: str,
                    tell: bool, record: Record | None = None) -> Pending:
        """Queue one game; "Match me" counts it at once (see :meth:`match_outcomes_now`).
        ``tell``: its warning goes to :meth:`notices` (else only to the Pending)."""
        StatsStore.check_game(game, variant, mode, opponent, outcome)
        with self._lock:
            self._recorded += 1
            number = self._recorded
            if _is_match(mode, opponent):
                self._local.append((number, game, outcome))

        def work(store: StatsStore) -> str | None:
            warning = store.record_game(game, variant, mode, opponent, outcome,
                                        _record_line(record))
            with self._lock:
                self._written = number
                if warning and tell:
                    self._notices.append(warning)
            return warning
        return self.submit(work, read=False)

    def notices(self) -> list[str]:
        """What the worker has to tell the player since the last call (the frame loop
        shows these)."""
        with self._lock:
            said, self._notices = self._notices, []
        return said

    def say(self, message: str) -> None:
        """Add ``message`` to :meth:`notices`, unless it is waiting there already."""
        with self._lock:
            if message not in self._notices:
                self._notices.append(message)

    # --- "Match me" -------------------------------------------------------------------
    def _refresh_match(self) -> None:
        """Read every "Match me" result again, off the loop."""
        with self._lock:
            if self._match_queued or self._closed:
                return
            self._match_queued = True

        def work(store: StatsStore) -> None:
            with self._lock:
                upto = self._written
            outcomes = store.all_match_outcomes()
            with self._lock:
                self._match_queued = False
                if outcomes is None:
                    error = store.read_error
                    self._match_busy = error is not None and code_of(error) in (
                        SQLITE_BUSY, SQLITE_LOCKED)
                    self._match_error = (busy_notice(self.path) if self._match_busy
                                         else brief(error) if error is not None else "")
                    return
                self._match, self._match_error, self._match_busy = outcomes, None, False
                self._match_upto = upto
                self._local = [entry for entry in self._local if entry[0] > upto]
        self.submit(work)

    def match_outcomes_now(self, game: str) -> tuple[list[str] | None, bool]:
        """The player's "Match me" results in ``game`` in the order played, at once:
        ``(outcomes, busy)``; outcomes None while they cannot be read (not read yet, or
        the file busy: ``busy``). Asks for a fresh read for next time (another copy of
        the game may have added results)."""
        with self._lock:
            known = self._match
            busy = self._match_busy
            local = [outcome for number, name, outcome in self._local
                     if name == game and number > self._match_upto]
            result = None if known is None else list(known.get(game, ())) + local
        self._refresh_match()
        return result, busy

    # --- puzzles ------------------------------------------------------------------------
    def best_puzzle_now(self, game: str, variant: str) -> tuple[bool, tuple[int, float] | None]:
        """``(known, best)``: the best unhelped ``(moves, seconds)`` of a puzzle, at once.
        ``known`` False while it is being read (or cannot be, the file busy: tried again
        every :data:`RETRY_SECONDS`)."""
        key = (game, variant)
        with self._lock:
            if key in self._bests:
                return True, self._bests[key]
            asked = self._best_asked.get(key)
            if asked is not None and (asked == 0.0 or time.monotonic() - asked < RETRY_SECONDS):
                return False, None
            self._best_asked[key] = 0.0  # being read

        def work(store: StatsStore) -> None:
            best = store.best_puzzle(game, variant)
            with self._lock:
                if store.read_error is None:
                    self._bests[key] = best
                    self._best_asked.pop(key, None)
                else:
                    self._best_asked[key] = time.monotonic()
        self.submit(work)
        return False, None

    def record_puzzle_later(self, game: str, variant: str, moves: int, seconds: float,
                            helped: bool | int) -> None:
        """Queue one solved puzzle (see :meth:`StatsStore.record_puzzle`); a warning comes
        back through :meth:`notices`."""
        key = (game, variant)
        with self._lock:
            if key in self._bests and not helped:
                best = self._bests[key]
                self._bests[key] = min(best, (moves, float(seconds))) if best else (
                    moves, float(seconds))

        def work(store: StatsStore) -> None:
            warning = store.record_puzzle(game, variant, moves, seconds, helped)
            with self._lock:
                if warning:
                    self._notices.append(warning)
                # Read again next time: a read queued before this one missed it.
                self._bests.pop(key, None)
                self._best_asked.pop(key, None)
        self.submit(work, read=False)

    # --- the blocking API (command line, tests) -----------------------------------------
    def record_game(self, game: str, variant: str, mode: str, opponent: str,
                    outcome: str, record: Record | None = None) -> str | None:
        """:meth:`StatsStore.record_game`, waiting for the worker."""
        pending = self._queue_game(game, variant, mode, opponent, outcome, tell=False,
                                   record=record)
        pending.ready.wait()
        return pending.value

    def record_puzzle(self, game: str, variant: str, moves: int, seconds: float,
                      helped: bool | int) -> str | None:
        """:meth:`StatsStore.record_puzzle`, waiting for the worker."""
        warning = self.call("record_puzzle", game, variant, moves, seconds, helped)
        with self._lock:  # the copy of the best is read again
            self._bests.pop((game, variant), None)
            self._best_asked.pop((game, variant), None)
        return warning

    def __getattr__(self, name: str) -> Any:
        # The store's other methods, each run on the worker and waited for.
        attribute = getattr(self.store, name)
        if not inspect.ismethod(attribute):
            return attribute  # a value (a connection is callable too, but not a method)
        return lambda *args, **kwargs: self.call(name, *args, **kwargs)

    def close(self) -> str | None:
        """Write what is queued, close the store and stop the worker (safe to call more
        than once); returns :meth:`StatsStore.close`'s message."""
        if self._closed:
            return None
        pending = self.submit(lambda store: store.close(), read=False)
        with self._lock:
            self._closed = True
        self._jobs.put(None)
        pending.ready.wait()
        with contextlib.suppress(RuntimeError):
            self._thread.join()
        return pending.value
