"""Crash-safe file writes and non-destructive handling of bad files.

Rules that keep the player's files safe:

* a file is replaced only by a complete new file (write a temporary file in
  the same folder, fsync it, then rename it over the target), so a crash or
  power cut leaves either the old or the new contents, never half of each;
* a file we cannot use is renamed or copied aside, never deleted or
  overwritten, so the player (or a newer version of the game) can still
  recover it;
* what the player decided about a file stays: a read-only file is not
  written over, a symbolic link stays a link (its target is replaced), and
  the new file keeps the old one's permission bits;
* a temporary exists only while its writer holds the folder's lock
  (:mod:`engine.storage.lock`), so one seen while *we* hold that lock was
  left by a copy that died, and :func:`remove_stale_temporaries` may delete it.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import os
import secrets
import stat
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from .lock import folder_lock

CORRUPT_MARKER = ".corrupt-"
#: Marker of a file kept aside because it was larger than its reader accepts
#: (it is valid, so it is not called corrupt).
TOO_BIG_MARKER = ".too-big-"
TEMP_SUFFIX = ".tmp"


class ReadOnlyFileError(PermissionError):
    """The file to be replaced is read-only: the player made it so, so it is left alone."""


def temporary_name(name: str) -> str:
    """A fresh name for a temporary of the file called ``name``: ``.<name>.<random>.tmp``.

    Hidden (leading dot) so that a file manager does not show it; the random part
    keeps several writers (threads or copies) apart.
    """
    return f".{name}.{secrets.token_hex(4)}{TEMP_SUFFIX}"


def is_temporary_of(entry_name: str, name: str) -> bool:
    """Whether ``entry_name`` is one of :func:`temporary_name`'s names for ``name``."""
    prefix = f".{name}."
    return (entry_name.startswith(prefix) and entry_name.endswith(TEMP_SUFFIX)
            and len(entry_name) > len(prefix) + len(TEMP_SUFFIX))


def write_target(path: Path) -> Path:
    """The file that writing ``path`` really replaces: a link's final target, else ``path``.

    Raises OSError (ELOOP) for links that go round in a circle.
    """
    path = Path(path)
    if not os.path.islink(path):
        return path
    target = Path(os.path.realpath(path))
    if os.path.islink(target):  # realpath gives up on a loop and returns a link
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))
    return target


def is_read_only(path: Path, info: os.stat_result | None = None) -> bool:
    """Whether the existing regular file at ``path`` must not be written over.

    Read-only means no write permission bit at all (``chmod a-w``, or the Windows
    read-only attribute) — which even root respects here — or no write access
    for this user.
    """
    info = os.stat(path) if info is None else info
    if not stat.S_ISREG(info.st_mode):
        return False
    return not info.st_mode & 0o222 or not os.access(path, os.W_OK)


def atomic_write_text(path: Path, text: str, *, folder_locked: bool = False,
                      keep_read_only: bool = True) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically, creating parent folders.

    A symbolic link at ``path`` stays a link: its target is replaced, in the
    target's folder. The new file keeps the permission bits (and, where allowed,
    the owner) of the file it replaces; a first file gets the usual mode (0666
    less the umask). The temporary file exists only while this call holds
    ``folder_lock(path.parent)``; pass ``folder_locked=True`` when the caller
    already holds that lock (it is not re-entrant).

    Raises :class:`ReadOnlyFileError` (changing nothing) when the existing file
    is read-only and ``keep_read_only`` is true, and OSError on any other
    failure, in which case the previous file (if any) is untouched and no
    temporary file is left behind.
    """
    path = Path(path)
    target = write_target(path)
    if target == path:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        before: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        before = None
    if before is not None and keep_read_only and is_read_only(target, before):
        raise ReadOnlyFileError(errno.EACCES, "the file is read-only", str(path))
    # Only the folder that holds ``path`` is cleaned of stale temporaries, so only
    # there must a temporary be covered by the lock (a link's target may live in a
    # folder of the player's that should not get a lock file).
    same_folder = target.parent == path.parent
    lock = (folder_lock(path.parent) if same_folder and not folder_locked
            else contextlib.nullcontext())
    with lock:
        _write_and_replace(target, text, before)
    _fsync_folder(target.parent)


def _write_and_replace(target: Path, text: str, before: os.stat_result | None) -> None:
    """Write ``text`` to a new temporary beside ``target`` and rename it over ``target``."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp_name = str(target.parent / temporary_name(target.name))
        try:
            # 0o666: the umask then gives a first file the mode the player expects
            # (mkstemp would make it 0600).
            fd = os.open(tmp_name, flags, 0o666)
        except FileExistsError:
            continue
        break
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            if before is not None:
                _copy_ownership(handle.fileno(), tmp_name, before)
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise


def _copy_ownership(fd: int, name: str, before: os.stat_result) -> None:
    """Give the new file the old one's owner (best effort) and permission bits."""
    if hasattr(os, "fchown") and (before.st_uid, before.st_gid) != (os.getuid(), os.getgid()):
        # Only root may give a file away; for anyone else this fails, harmlessly.
        with contextlib.suppress(OSError):
            os.fchown(fd, before.st_uid, before.st_gid)
    mode = stat.S_IMODE(before.st_mode) & 0o777
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:  # pragma: no cover - Windows (Python < 3.13)
        os.chmod(name, mode)


def remove_stale_temporaries(folder: Path, name: str, *, folder_locked: bool = False,
                             timeout: float | None = None) -> list[Path]:
    """Delete the temporaries of ``folder/name`` that a killed writer left; return them.

    Only names :func:`atomic_write_text` makes (``.<name>.<random>.tmp``) and only
    regular files are touched. A writer holds the folder's lock while its
    temporary exists, so under the lock every such file is stale. Without the lock
    (another copy held it past ``timeout`` seconds, or the folder cannot hold a
    lock file) nothing is deleted: it could be another copy's write in progress.
    Pass ``folder_locked=True`` when the caller already holds the lock. Never raises.
    """
    folder = Path(folder)
    if folder_locked:
        return _remove_temporaries(folder, name)
    kwargs = {} if timeout is None else {"timeout": timeout}
    with folder_lock(folder, **kwargs) as lock:
        if not lock.held:
            return []
        return _remove_temporaries(folder, name)


def _remove_temporaries(folder: Path, name: str) -> list[Path]:
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not is_temporary_of(entry.name, name):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue  # we only ever make regular files
            os.unlink(entry.path)
        except OSError:
            continue  # already gone, or not ours to delete: leave it
        removed.append(Path(entry.path))
    return removed


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX only; best effort)."""
    if not hasattr(os, "O_DIRECTORY"):
        return  # Windows cannot open folders; NTFS journals the rename anyway.
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _aside_candidates(path: Path, marker: str = CORRUPT_MARKER) -> Iterator[Path]:
    """Yield ``<name><marker>YYYYmmdd-HHMMSS``, then ``...-2``, ``...-3``, ..."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = f"{path.name}{marker}{stamp}"
    yield path.with_name(base)
    number = 2
    while True:
        yield path.with_name(f"{base}-{number}")
        number += 1


def move_aside(path: Path, *, marker: str = CORRUPT_MARKER) -> Path:
    """Rename a bad file (or a folder in its place) to a fresh ``<marker>`` name.

    The new name (``<name>.corrupt-<time>`` by default) is in the same folder and
    never replaces anything that already exists. Returns the new path; raises
    OSError if the rename fails (the original is then still where it was).
    """
    path = Path(path)
    for candidate in _aside_candidates(path, marker):
        # lexists, not exists: a dangling symlink still occupies the name.
        if os.path.lexists(candidate):
            continue
        os.rename(path, candidate)
        return candidate
    raise AssertionError("unreachable")  # pragma: no cover - the generator is endless


def copy_aside(path: Path, *, marker: str = CORRUPT_MARKER) -> Path:
    """Keep a copy of ``path`` under a fresh ``<marker>`` name; the original stays.

    Used when a file is partly usable: the game keeps reading it but must not
    lose the unusable parts when it later saves over it. If an identical copy
    was already kept (e.g. the game was started twice without saving), that
    copy is returned instead of piling up duplicates. Raises OSError on failure.
    """
    path = Path(path)
    return keep_bytes_aside(path, path.read_bytes(), marker=marker)


def keep_bytes_aside(path: Path, content: bytes, *, marker: str = CORRUPT_MARKER) -> Path:
    """Write ``content`` to a fresh ``<marker>`` name beside ``path`` (nothing is replaced).

    An existing aside file with exactly ``content`` is returned instead of a new
    one. Raises OSError on failure (no partial file is left).
    """
    path = Path(path)
    with contextlib.suppress(OSError):
        for sibling in path.parent.glob(f"{glob.escape(path.name)}{marker}*"):
            if (
                sibling.is_file()
                and not sibling.is_symlink()
                and sibling.stat().st_size == len(content)
                and sibling.read_bytes() == content
            ):
                return sibling
    for candidate in _aside_candidates(path, marker):
        try:
            # "x" mode creates the file exclusively, so even a file that appears
            # between our check and our write is never overwritten.
            handle = open(candidate, "xb")
        except FileExistsError:
            continue
        try:
            with handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(candidate)
            raise
        return candidate
    raise AssertionError("unreachable")  # pragma: no cover - the generator is endless
