"""Connect Four's compiled score search (``c4kernel.c``) through ctypes.

The C file is the same search as :mod:`games.connect4.score_search` (Pons's
null-window score search, anticipation of losing moves, moves ordered by the
winning spots they create, a fixed-size table), about a hundred times faster.
:func:`kernel_for` gives a :class:`Kernel` for a board it supports (four in a
row, ``(rows + 1) * cols <= 64``: every preset but 9×7) when the library can
be had (bundled, cached or compiled now: :mod:`engine.core.native`), else
None, and the callers use the pure-Python search, which stays the fallback and
the tests' oracle.

ctypes releases the GIL for the whole call, so a hint worker searching in C
never holds up a frame. Every call is bounded: a time limit (the caller's
deadline), an optional node budget, and a cancel event watched from a small
thread that raises the kernel's cancel flag.

No pygame here.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.ai.agent import Cancelled
from engine.ai.negamax import BudgetExceeded, SearchTimeout
from engine.core.native import load_library

__all__ = [
    "DEFAULT_TABLE_BYTES",
    "SOURCE",
    "BudgetExceeded",
    "Kernel",
    "available",
    "disabled",
    "enabled",
    "kernel_for",
    "supports",
]

#: The C source (compiled on first use, or bundled prebuilt in the executable).
SOURCE = Path(__file__).with_name("c4kernel.c")
#: The table's memory unless told otherwise: 4 M slots of 16 bytes.
DEFAULT_TABLE_BYTES = 64 << 20

_OK, _BUDGET, _CANCELLED, _TIMEOUT, _BAD = range(5)
# Seconds between two looks at a cancel event by the watcher thread.
_WATCH_INTERVAL = 0.01
_NO_CLAMP = 1000


# Set by :func:`disabled`: kernel_for answers None (the pure-Python search runs).
_off = 0

_lib_lock = threading.Lock()
_lib: ctypes.CDLL | None = None
_lib_tried = False


def _library() -> ctypes.CDLL | None:
    global _lib, _lib_tried
    with _lib_lock:
        if not _lib_tried:
            _lib_tried = True
            lib = load_library(SOURCE, "c4kernel")
            if lib is not None:
                try:
                    _declare(lib)
                except AttributeError:  # not our library after all
                    lib = None
            _lib = lib
        return _lib


def _declare(lib: ctypes.CDLL) -> None:
    u64, i32 = ctypes.c_uint64, ctypes.c_int32
    lib.c4_new.restype = ctypes.c_void_p
    lib.c4_new.argtypes = [ctypes.c_int, ctypes.c_int, u64]
    lib.c4_free.restype = None
    lib.c4_free.argtypes = [ctypes.c_void_p]
    lib.c4_clear.restype = None
    lib.c4_clear.argtypes = [ctypes.c_void_p]
    lib.c4_table_slots.restype = u64
    lib.c4_table_slots.argtypes = [ctypes.c_void_p]
    lib.c4_solve.restype = ctypes.c_int
    lib.c4_solve.argtypes = [ctypes.c_void_p, u64, u64, ctypes.c_int, ctypes.c_int,
                             ctypes.c_int, u64, ctypes.c_double, ctypes.POINTER(i32),
                             ctypes.POINTER(i32), ctypes.POINTER(u64)]


def available() -> bool:
    """Whether the compiled kernel can be used on this machine (loads it: may compile)."""
    return _library() is not None


def supports(cols: int, rows: int, k: int) -> bool:
    """Whether the kernel handles this board: four in a row, one 64-bit word per side."""
    return k == 4 and (rows + 1) * cols <= 64


class Kernel:
    """One board shape's compiled search with its own table (not shared between threads).

    Build with :func:`kernel_for`. :meth:`solve` is the exact score, like
    :meth:`games.connect4.score_search.ScoreSearch.solve`; the table is kept
    between calls.
    """

    def __init__(self, lib: ctypes.CDLL, cols: int, rows: int,
                 table_bytes: int = DEFAULT_TABLE_BYTES) -> None:
        handle = lib.c4_new(cols, rows, table_bytes)
        if not handle:
            raise MemoryError(f"no Connect Four kernel for {cols}×{rows}")
        self._lib = lib
        self._handle = handle
        self.cols, self.rows = cols, rows
        self.nodes = 0  # every node searched by this kernel so far
        self._flag = ctypes.c_int32(0)
        self._score = ctypes.c_int32(0)
        self._nodes = ctypes.c_uint64(0)

    def __del__(self) -> None:
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._lib.c4_free(handle)

    def clear(self) -> None:
        """Forget every stored bound."""
        self._lib.c4_clear(self._handle)

    def solve(self, cur: int, mask: int, discs: int, lowest: int | None = None,
              highest: int | None = None, *, deadline: float | None = None,
              budget: int = 0, cancel: threading.Event | None = None) -> int:
        """The exact score for the mover (``cur``: their discs) of a game not over.

        Clamped into ``[lowest, highest]`` when given (``-1, 1`` tells win, draw and
        loss apart). ``deadline`` is a ``time.monotonic()`` instant and ``budget`` a
        node count (0: none): past either, :class:`SearchTimeout` (BudgetExceeded for
        the budget); :class:`Cancelled` once ``cancel`` is set.
        """
        seconds = 0.0
        if deadline is not None:
            seconds = deadline - time.monotonic()
            if seconds <= 0:
                raise SearchTimeout
        with self._watch(cancel):
            status = self._lib.c4_solve(
                self._handle, cur, mask, discs,
                -_NO_CLAMP if lowest is None else lowest,
                _NO_CLAMP if highest is None else highest,
                budget, seconds, ctypes.byref(self._flag), ctypes.byref(self._score),
                ctypes.byref(self._nodes))
        self.nodes += self._nodes.value
        if status == _OK:
            return self._score.value
        if status == _CANCELLED:
            raise Cancelled
        if status == _TIMEOUT:
            raise SearchTimeout
        if status == _BUDGET:
            raise BudgetExceeded
        raise ValueError("not a Connect Four position the kernel can search")

    @contextmanager
    def _watch(self, cancel: threading.Event | None) -> Iterator[None]:
        """Raise the kernel's cancel flag when ``cancel`` is set, while the call runs."""
        flag = self._flag
        flag.value = 0
        if cancel is None:
            yield
            return
        if cancel.is_set():
            raise Cancelled
        done = threading.Event()

        def watch() -> None:
            while not done.is_set():
                if cancel.wait(_WATCH_INTERVAL):
                    flag.value = 1
                    return

        watcher = threading.Thread(target=watch, name="c4-cancel-watch", daemon=True)
        watcher.start()
        try:
            yield
        finally:
            done.set()
            watcher.join()


@contextmanager
def disabled() -> Iterator[None]:
    """Within the block, :func:`kernel_for` gives None everywhere: the pure-Python search
    runs (the tests of the fallback and the benchmark's side-by-side use it)."""
    global _off
    _off += 1
    try:
        yield
    finally:
        _off -= 1


def enabled() -> bool:
    """False within :func:`disabled`."""
    return not _off


def kernel_for(cols: int, rows: int, k: int = 4,
               table_bytes: int = DEFAULT_TABLE_BYTES) -> Kernel | None:
    """A new :class:`Kernel` for the board, or None (board not supported, no library, or
    no memory for the table): the caller then uses the pure-Python search."""
    if _off or not supports(cols, rows, k):
        return None
    lib = _library()
    if lib is None:
        return None
    try:
        return Kernel(lib, cols, rows, table_bytes)
    except MemoryError:
        return None
