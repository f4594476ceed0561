"""One lock per profile folder, so several copies of the arcade take turns.

Several copies of the game may run on one profile at once (two windows, a
one-family executable beside the whole arcade, a test run). Steps that look
at the folder and then change it — creating the statistics schema, rebuilding
a damaged database, cleaning up temporaries a killed copy left, merging a
settings file another copy just wrote — must not interleave, or one copy acts
on what it saw a moment ago while the other has already changed it.

The lock is an operating-system lock on a small file ``.arcade.lock`` in the
folder (``fcntl.flock`` on POSIX, ``msvcrt.locking`` on Windows). The system
releases it when the process dies, however it dies, so a ``kill -9`` never
leaves a profile locked. Waiting is bounded: past ``timeout`` the caller goes
on without the lock (``held`` is False) and must then take the careful path
(e.g. not delete anything that might be another copy's work in progress).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

LOCK_NAME = ".arcade.lock"
#: Seconds to wait for another copy by default; its locked steps take milliseconds.
DEFAULT_TIMEOUT = 10.0

try:  # POSIX
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)

except ImportError:  # pragma: no cover - Windows
    import msvcrt

    def _try_lock(fd: int) -> bool:
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


class FolderLock:
    """What :func:`folder_lock` yields: whether the lock is really held."""

    def __init__(self, held: bool) -> None:
        self.held = held


@contextlib.contextmanager
def folder_lock(folder: Path, timeout: float = DEFAULT_TIMEOUT) -> Iterator[FolderLock]:
    """Hold ``folder``'s profile lock for the ``with`` block (re-entrant per process is
    not needed: each locked step is short and never nests).

    Never raises for the lock itself: a folder that does not exist or cannot hold the
    lock file, or a wait longer than ``timeout`` seconds, yields ``held=False``.
    """
    try:
        fd = os.open(Path(folder) / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        yield FolderLock(False)
        return
    try:
        end = time.monotonic() + timeout
        delay = 0.002
        held = _try_lock(fd)
        while not held and time.monotonic() < end:
            time.sleep(delay)
            delay = min(delay * 2, 0.01)
            held = _try_lock(fd)
        try:
            yield FolderLock(held)
        finally:
            if held:
                with contextlib.suppress(OSError):
                    _unlock(fd)
    finally:
        os.close(fd)


def try_hold(path: Path) -> int | None:
    """Take the lock file ``path`` without waiting and keep it: the open descriptor, to
    give to :func:`let_go` (None: another holder has it).

    Held for as long as the caller keeps it, e.g. a game open on screen
    (:mod:`engine.storage.saved_games`); the system lets go when the process dies.
    Two holders in one process conflict too (each open is a holder of its own).
    OSError if the lock file cannot be opened at all.
    """
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        held = _try_lock(fd)
    except OSError:
        held = False
    if not held:
        os.close(fd)
        return None
    return fd


def let_go(fd: int) -> None:
    """Give back a lock :func:`try_hold` took. Never raises."""
    with contextlib.suppress(OSError):
        _unlock(fd)
    with contextlib.suppress(OSError):
        os.close(fd)
