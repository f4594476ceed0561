"""Runs an agent off the frame loop so the window never freezes while it thinks.

The scene asks for a move with :meth:`AIRunner.start`, polls :meth:`poll`
once a frame, and shows "thinking…" while :attr:`busy`. Leaving the scene calls
:meth:`cancel`: the agent's cancel event is set and any late answer is
dropped, because each request carries a ticket and only the newest counts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.ai.agent import Agent, Cancelled
from engine.rules import GameState, Move


@dataclass(frozen=True)
class AIResult:
    """A finished request: the move (or the error) and the thinking time."""

    ticket: int
    move: Move | None
    error: BaseException | None
    seconds: float
    tag: Any = None


class AIRunner:
    """One background worker thread per request; at most one request live."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ticket = 0
        self._cancel: threading.Event | None = None
        self._result: AIResult | None = None
        self._thread: threading.Thread | None = None
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

        def work() -> None:
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

        # Daemon: a search still running when the window closes must not keep
        # the process alive.
        self._thread = threading.Thread(target=work, name=f"ai-{ticket}", daemon=True)
        self._thread.start()
        return ticket

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
        """Wait for the worker thread to end (tests and shutdown use this)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
