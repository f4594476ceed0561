"""Runs an agent off the frame loop so the window never freezes while it thinks.

The scene asks for a move with :meth:`AIRunner.start`, polls :meth:`poll`
once a frame, and shows "thinking…" while :attr:`busy`. Leaving the scene calls
:meth:`cancel`: the agent's cancel event is set and any late answer is
dropped, because each request carries a ticket and only the newest counts.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.ai.agent import Agent, Cancelled
from engine.model.rules import GameState, Move


class WorkerPool:
    """Daemon threads that wait for jobs, so handing one over never waits for a thread.

    ``threading.Thread.start`` blocks until the new thread has run, and while a search
    holds the GIL that took ~8 ms a thread: two requests at one press (a solve and a
    board code) cost a whole frame. A job goes to an idle worker through its queue
    (no waiting); a new thread starts only when every worker is busy, e.g. still
    finishing a cancelled search. At most ``keep`` idle workers stay; the rest end.
    """

    def __init__(self, keep: int = 3) -> None:
        self.keep = keep
        self._lock = threading.Lock()
        self._idle: list[queue.SimpleQueue[Callable[[], None]]] = []
        self._running = 0
        self._quiet = threading.Condition(self._lock)

    def run(self, job: Callable[[], None]) -> None:
        """Run ``job()`` on a worker thread (it must catch its own exceptions)."""
        with self._lock:
            self._running += 1
            inbox = self._idle.pop() if self._idle else None
        if inbox is None:
            inbox = queue.SimpleQueue()
            # Daemon: a search still running when the window closes must not keep the
            # process alive.
            threading.Thread(target=self._serve, args=(inbox,), name="ai-worker",
                             daemon=True).start()
        inbox.put(job)

    def _serve(self, inbox: queue.SimpleQueue[Callable[[], None]]) -> None:
        while True:
            job: Callable[[], None] | None = inbox.get()
            finished = False
            try:
                job()  # type: ignore[misc]  # (AIRunner's jobs report their own errors)
                finished = True
            finally:
                job = None  # an idle worker holds nothing of its last request
                with self._lock:
                    self._running -= 1
                    self._quiet.notify_all()
                    # A job that raised ends this worker (the error propagates to
                    # threading's excepthook): it must not be handed more work.
                    retire = not finished or len(self._idle) >= self.keep
                    if not retire:
                        self._idle.append(inbox)
            if retire:
                return

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no job runs (tests and memory figures use this); False on timeout."""
        with self._quiet:
            return self._quiet.wait_for(lambda: self._running == 0, timeout)


WORKERS = WorkerPool()


@dataclass(frozen=True)
class AIResult:
    """A finished request: the move (or the error) and the thinking time."""

    ticket: int
    move: Move | None
    error: BaseException | None
    seconds: float
    tag: Any = None


class AIRunner:
    """Requests run on :data:`WORKERS`' threads; at most one request live per runner."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ticket = 0
        self._cancel: threading.Event | None = None
        self._result: AIResult | None = None
        self._done: threading.Event | None = None  # set when the last request's job ends
        self._started_at = 0.0

    @property
    def busy(self) -> bool:
        """Whether a request is live: started, and its answer not yet collected.

        Stays true while a finished answer waits for :meth:`poll`, so the frame
        loop keeps running until the scene has picked it up.
        """
        with self._lock:
            return self._cancel is not None

    @property
    def thinking_seconds(self) -> float:
        """How long the current request has been running (0 when idle)."""
        return time.monotonic() - self._started_at if self.busy else 0.0

    @property
    def thinking(self) -> bool:
        """Whether the agent is still working (busy and no answer yet)."""
        with self._lock:
            return self._cancel is not None and self._result is None

    def start(self, agent: Agent, state: GameState, tag: Any = None) -> int:
        """Begin choosing a move for ``state``; cancels any earlier request.

        ``tag`` comes back with the result (e.g. the history position it was
        asked for), so a scene can tell a stale answer from a fresh one.
        """
        return self.submit(lambda cancel: agent.choose_move(state, cancel), tag)

    def submit(self, task: Callable[[threading.Event], Any], tag: Any = None) -> int:
        """Run any cancellable ``task(cancel)`` off the frame loop (hints, solvers).

        Its return value arrives as the result's ``move``. Cancels any earlier request.
        """
        self.cancel()
        with self._lock:
            self._ticket += 1
            ticket = self._ticket
            cancel = threading.Event()
            self._cancel = cancel
            self._result = None
            self._started_at = time.monotonic()
            done = self._done = threading.Event()

        def work() -> None:
            try:
                self._answer(cancel, ticket, task, tag)
            finally:
                done.set()

        WORKERS.run(work)
        return ticket

    def _answer(self, cancel: threading.Event, ticket: int,
                task: Callable[[threading.Event], Any], tag: Any) -> None:
        """Run one request's task (on a worker) and keep its result if still wanted."""
        t0 = time.perf_counter()
        move: Move | None = None
        error: BaseException | None = None
        try:
            move = task(cancel)
        except Cancelled:
            return
        except Exception as exc:  # reported to the scene, never lost in the thread
            error = exc
        with self._lock:
            if ticket == self._ticket and not cancel.is_set():
                self._result = AIResult(ticket, move, error, time.perf_counter() - t0, tag)

    def poll(self) -> AIResult | None:
        """Collect the finished result once (None while thinking or idle)."""
        with self._lock:
            result = self._result
            if result is not None:
                self._result = None
                self._cancel = None
            return result

    def cancel(self) -> None:
        """Stop the current request (if any) and forget its answer."""
        with self._lock:
            if self._cancel is not None:
                self._cancel.set()
            self._cancel = None
            self._result = None
            self._ticket += 1

    def join(self, timeout: float | None = None) -> None:
        """Wait for the latest request's job to end (tests and shutdown use this)."""
        done = self._done
        if done is not None:
            done.wait(timeout)
