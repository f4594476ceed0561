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

_M_ARENA_MAX = -8  # glibc's mallopt parameter
# Arenas for all threads together. glibc's default (8 per core) gives each computer
# search thread its own arena, whose freed memory is fragmented by the few objects
# that outlive the search; one arena kept the soak's peak 55 MB lower and its
# settled memory 11-17 MB lower. The threads allocate under the GIL anyway.
ARENAS = 1

_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
# Blocks of this size or more get their own mapping, returned to the system whole when
# freed. glibc's default starts at 128 kB but rises to the largest block freed so far (up
# to 32 MB), so after one big search table is freed the next ones come from the heap,
# where a few long-lived objects between them keep their pages. A fixed threshold keeps
# it (setting one stops the rise). Measured with the suite's soak (5,000 inputs, seed 4,
# a third process spinning): settled memory grew 1.0-26.1 MB over six runs without it
# (26.1 past the test's 20 MB limit), 1.6-7.0 MB with it.
MMAP_THRESHOLD = 1 << 20

_libc: ctypes.CDLL | None = None
_looked_up = False


def _glibc() -> ctypes.CDLL | None:
    global _libc, _looked_up
    if not _looked_up:
        _looked_up = True
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
                libc.malloc_trim.argtypes = [ctypes.c_size_t]
                libc.malloc_trim.restype = ctypes.c_int
                libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
                libc.mallopt.restype = ctypes.c_int
                _libc = libc
            except (OSError, AttributeError):
                _libc = None  # not glibc
    return _libc


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Have every thread share ``arenas`` malloc arenas (glibc); True if it took effect.

    Call it before the first background thread starts: a thread that has already
    made its own arena keeps it.
    """
    libc = _glibc()
    return libc is not None and libc.mallopt(_M_ARENA_MAX, arenas) == 1


def fix_mmap_threshold(threshold: int = MMAP_THRESHOLD) -> bool:
    """Have glibc map every block of ``threshold`` bytes or more on its own, so that it goes
    back to the system when freed; True if it took effect (see ``MMAP_THRESHOLD``).

    Call it before the first large search: blocks already on the heap stay there.
    """
    libc = _glibc()
    return libc is not None and libc.mallopt(_M_MMAP_THRESHOLD, threshold) == 1


_releasers: list[Callable[[], None]] = []


def on_release(drop: Callable[[], None]) -> Callable[[], None]:
    """Have :func:`release_free_memory` call ``drop`` first: a cache kept between a game's
    searches (a compiled search's table) lets go of what it holds when a game is left."""
    _releasers.append(drop)
    return drop


def release_free_memory(collect: bool = False) -> bool:
    """Drop the caches registered with :func:`on_release`, then return free heap pages to
    the OS; True if the OS was asked.

    ``collect`` first runs a full garbage collection. The app does not: with a few
    games' modules loaded that takes tens of milliseconds, a visible hitch, and
    reference counting has already freed nearly everything a left game held.
    """
    for drop in list(_releasers):
        drop()
    if collect:
        gc.collect()
    libc = _glibc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True
