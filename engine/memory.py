"""Give memory the app no longer uses back to the operating system.

CPython hands blocks over 512 bytes to the C allocator. glibc's malloc keeps
freed memory in its arenas (one per thread that allocated, so every computer
search thread can leave one behind) instead of returning it, so after a large
search or a big board the resident size stays at its high-water mark although
nothing is alive. ``malloc_trim(0)`` returns the free pages of every arena.
Elsewhere (macOS, Windows, musl) this is a no-op: their allocators return
memory on their own or have no such call.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys
from collections.abc import Callable

_trim: Callable[[int], int] | None = None
_looked_up = False


def _malloc_trim() -> Callable[[int], int] | None:
    global _trim, _looked_up
    if not _looked_up:
        _looked_up = True
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
                _trim = libc.malloc_trim
                _trim.argtypes = [ctypes.c_size_t]
                _trim.restype = ctypes.c_int
            except (OSError, AttributeError):
                _trim = None  # not glibc
    return _trim


def release_free_memory(collect: bool = False) -> bool:
    """Return free heap pages to the OS; True if the OS was asked.

    ``collect`` first runs a full garbage collection. The app does not: with a few
    games' modules loaded that takes tens of milliseconds, a visible hitch, and
    reference counting has already freed nearly everything a left game held.
    """
    if collect:
        gc.collect()
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
