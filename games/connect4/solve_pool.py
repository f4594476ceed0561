"""Independent Connect Four proofs on two cores at once (a hint's columns).

ctypes releases the GIL while the compiled kernel searches, so the columns of one
position, proven on two threads, take about half the time on a machine with two
cores. The pool's threads live as long as the program and each keeps its own kernel
(a kernel's table is not shared between threads), warm for the next hint of the same
game. One core, or no kernel: the caller proves the columns one after the other.

No pygame here.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

__all__ = ["WORKERS", "run_all"]

K = TypeVar("K")

#: Threads proving at once: two where the machine has two cores or more (the hint's
#: budget is set for a two-core machine), else one (no pool).
WORKERS = max(1, min(2, os.cpu_count() or 1))

_pool: ThreadPoolExecutor | None = None
_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="c4-proof")
        return _pool


def run_all(jobs: Mapping[K, Callable[[], int]]) -> dict[K, int | BaseException]:
    """Every job's result, or the exception it raised, by key; at most :data:`WORKERS`
    at once, started in the mapping's order. Returns when all have ended (each job
    must bound itself: a deadline, a cancel event)."""
    if WORKERS < 2 or len(jobs) < 2:
        out: dict[K, int | BaseException] = {}
        for key, job in jobs.items():
            try:
                out[key] = job()
            except Exception as error:  # noqa: BLE001 - handed back to the caller
                out[key] = error
        return out
    pool = _executor()
    futures: dict[K, Future[int]] = {key: pool.submit(job) for key, job in jobs.items()}
    results: dict[K, int | BaseException] = {}
    for key, future in futures.items():
        error = future.exception()
        results[key] = error if error is not None else future.result()
    return results
