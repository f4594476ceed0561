"""Crash-safe file writes and non-destructive handling of bad files.

Two rules keep the player's files safe:

* a file is replaced only by a complete new file (write a temporary file in
  the same folder, fsync it, then rename it over the target), so a crash or
  power cut leaves either the old or the new contents, never half of each;
* a file we cannot use is renamed or copied aside, never deleted or
  overwritten, so the player (or a newer version of the game) can still
  recover it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import tempfile
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

CORRUPT_MARKER = ".corrupt-"


def atomic_write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically, creating parent folders.

    Raises OSError on failure, in which case the previous file (if any) is
    untouched and no temporary file is left behind.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # The temporary file must be in the same folder: os.replace is only atomic
    # within one file system.
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    _fsync_folder(path.parent)


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


def _aside_candidates(path: Path) -> Iterator[Path]:
    """Yield ``<name>.corrupt-YYYYmmdd-HHMMSS``, then ``...-2``, ``...-3``, ..."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    base = f"{path.name}{CORRUPT_MARKER}{stamp}"
    yield path.with_name(base)
    number = 2
    while True:
        yield path.with_name(f"{base}-{number}")
        number += 1


def move_aside(path: Path) -> Path:
    """Rename a bad file (or a folder in its place) to a fresh ``.corrupt-`` name.

    The new name is in the same folder and never replaces anything that
    already exists. Returns the new path; raises OSError if the rename fails
    (the original is then still where it was).
    """
    path = Path(path)
    for candidate in _aside_candidates(path):
        # lexists, not exists: a dangling symlink still occupies the name.
        if os.path.lexists(candidate):
            continue
        os.rename(path, candidate)
        return candidate
    raise AssertionError("unreachable")  # pragma: no cover - the generator is endless


def copy_aside(path: Path) -> Path:
    """Keep a copy of ``path`` under a fresh ``.corrupt-`` name; the original stays.

    Used when a file is partly usable: the game keeps reading it but must not
    lose the unusable parts when it later saves over it. If an identical copy
    was already kept (e.g. the game was started twice without saving), that
    copy is returned instead of piling up duplicates. Raises OSError on failure.
    """
    path = Path(path)
    content = path.read_bytes()
    with contextlib.suppress(OSError):
        for sibling in path.parent.glob(f"{glob.escape(path.name)}{CORRUPT_MARKER}*"):
            if (
                sibling.is_file()
                and not sibling.is_symlink()
                and sibling.stat().st_size == len(content)
                and sibling.read_bytes() == content
            ):
                return sibling
    for candidate in _aside_candidates(path):
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
