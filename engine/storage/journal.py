"""Every move durable when it is made: the journal of a game in progress.

A saved game (:mod:`engine.storage.saved_games`) is written whole when its screen
leaves. Between two such saves each change the player makes — a move, an undo, a New
game — is appended to ``saved/<game id>.journal``, one JSON line per change, and
fsync'd; so a kill, a power cut or a lost display loses at most the change being made.

The journal's first line is its header: the save format's name and version, the game,
its parameters (the game ID) and ``base``, the SHA-256 of the full save it follows
(null: there was none). Every other line is ``{"n": <number>, "d": <edit>}``, the
edit turning the previous state (the base save's, or the previous line's) into the new
one (:func:`diff`, :func:`patch`): a changed list usually keeps its beginning and only
gains or loses entries at its end, so a move writes one log entry, not the whole log.

Reading (:func:`read_journal`) stops at the first line that is not a whole, valid
line — the last one torn by a kill — and keeps what came before. A journal whose base
is not the full save on disk (left behind by a kill between writing the full save and
removing the journal) is out of date and ignored.

Writing happens on :class:`JournalWriter`'s own thread: the frame loop only queues a
line (an fsync takes tens of milliseconds on a slow disk). Leaving a game writes the
full save and removes the journal (compaction).

No pygame here.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

JOURNAL_SUFFIX = ".journal"
#: Lines read from one journal at most (a hostile file is not replayed for ever).
MAX_JOURNAL_LINES = 200_000
#: Bytes read from one journal at most.
MAX_JOURNAL_BYTES = 16_000_000


def text_digest(text: str | None) -> str | None:
    """The ``base`` a journal names for the full save ``text`` (None: no save)."""
    return None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- edits ------------------------------------------------------------------------------


class Misfit(ValueError):
    """An edit that does not fit the state it is made to: a journal of another state.
    Never shown: reading the journal stops there (what came before is kept)."""


def diff(old: Any, new: Any) -> Any:
    """The edit turning ``old`` into ``new`` (None when they are equal).

    ``{"=": value}`` replaces; ``{"k": {key: edit}, "x": [keys]}`` edits an object's keys
    (``x``: keys removed); ``{"l": n, "+": [items]}`` keeps a list's first ``n`` items and
    adds ``items`` after them.
    """
    if type(old) is type(new) and old == new:
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        keys = {key: edit for key in new
                if (edit := diff(old[key], new[key]) if key in old else {"=": new[key]})
                is not None}
        gone = [key for key in old if key not in new]
        return {"k": keys, "x": gone} if gone else {"k": keys}
    if isinstance(old, list) and isinstance(new, list):
        keep = min(len(old), len(new))
        if old[:keep] != new[:keep]:
            keep = next(i for i in range(keep) if old[i] != new[i]
                        or type(old[i]) is not type(new[i]))
        return {"l": keep, "+": new[keep:]}
    return {"=": new}


def patch(old: Any, edit: Any) -> Any:
    """``old`` with ``edit`` (from :func:`diff`) made; :class:`Misfit` (a ValueError) for
    an edit that does not fit ``old`` (a journal of another state)."""
    if edit is None:
        return old
    if not isinstance(edit, dict):
        raise Misfit()
    if "=" in edit:
        return edit["="]
    if "k" in edit:
        if not isinstance(old, dict) or not isinstance(edit["k"], dict):
            raise Misfit()
        new = dict(old)
        for key in edit.get("x", ()):
            new.pop(key, None)
        for key, inner in edit["k"].items():
            new[key] = patch(old.get(key), inner)
        return new
    if "l" in edit:
        keep, tail = edit["l"], edit.get("+")
        if (not isinstance(old, list) or type(keep) is not int or not 0 <= keep <= len(old)
                or not isinstance(tail, list)):
            raise Misfit()
        return old[:keep] + tail
    raise Misfit()


# --- reading ----------------------------------------------------------------------------


def read_journal(path: Path, base: str | None, game: str
                 ) -> tuple[dict[str, Any], list[Any]] | None:
    """The header and the edits of the journal at ``path`` if it follows the save whose
    digest is ``base`` (None: no save) for ``game``; None if there is no such journal.

    Stops at the first line that is not whole and valid (a kill tore it). Never raises.
    """
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_JOURNAL_BYTES)
    except OSError:
        return None
    lines = raw.split(b"\n")
    # The last piece has no newline after it: a line torn by a kill (or empty).
    lines.pop()
    if not lines:
        return None
    try:
        header = json.loads(lines[0])
    except ValueError:
        return None
    if (not isinstance(header, dict) or header.get("journal") != 1 or header.get("game") != game
            or header.get("base") != base):
        return None
    edits: list[Any] = []
    for number, line in enumerate(lines[1:MAX_JOURNAL_LINES + 1], start=1):
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError):
            break
        if not isinstance(entry, dict) or entry.get("n") != number or "d" not in entry:
            break
        edits.append(entry["d"])
    return header, edits


def replay(state: Any, edits: list[Any]) -> Any:
    """``state`` with ``edits`` made in turn, stopping before one that does not fit."""
    for edit in edits:
        try:
            state = patch(state, edit)
        except (ValueError, TypeError, KeyError, RecursionError):
            break
    return state


# --- writing ----------------------------------------------------------------------------


class JournalWriter:
    """Appends and fsyncs journal lines on a thread of its own, in the order queued.

    ``failed(path, error)`` is called (on the writer's thread) when a write fails: the
    save then says so on the frame loop (see :meth:`SavedGames.journal_warnings`).
    """

    def __init__(self, failed: Callable[[Path, OSError], None]) -> None:
        self._queue: queue.Queue[tuple[str, Path, bytes] | None] = queue.Queue()
        self._failed = failed
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def _start(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._work, name="game-journal",
                                                daemon=True)
                self._thread.start()

    def start(self, path: Path, header: bytes) -> None:
        """Queue: make ``path`` a new journal holding ``header`` (one line, no newline)."""
        self._start()
        self._queue.put(("new", path, header + b"\n"))

    def append(self, path: Path, line: bytes) -> None:
        """Queue: append ``line`` (no newline) to the journal at ``path``."""
        self._start()
        self._queue.put(("add", path, line + b"\n"))

    def drain(self) -> None:
        """Wait until everything queued is written (before a full save of the game)."""
        if self._thread is not None and self._thread.is_alive():
            self._queue.join()

    def _work(self) -> None:
        pending: tuple[str, Path, bytes] | None = None
        while True:
            item = pending if pending is not None else self._queue.get()
            pending = None
            if item is None:
                self._queue.task_done()
                return
            kind, path, data = item
            taken = 1
            # Lines queued meanwhile for the same journal go in the same write and fsync:
            # when the disk is slow, moves made quickly wait for one fsync, not one each.
            chunks = [data]
            while True:
                try:
                    following = self._queue.get_nowait()
                except queue.Empty:
                    break
                if following is not None and following[0] == "add" and following[1] == path:
                    chunks.append(following[2])
                    taken += 1
                else:
                    pending = following  # (its task_done comes when it is done)
                    break
            try:
                _write(path, b"".join(chunks), new=kind == "new")
            except OSError as exc:
                self._failed(path, exc)
            finally:
                for _ in range(taken):
                    self._queue.task_done()


def _write(path: Path, data: bytes, new: bool) -> None:
    """Write ``data`` to the journal and fsync it (a new journal: its folder too, so the
    file itself survives a power cut)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (os.O_TRUNC if new else 0)
    fd = os.open(path, flags, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    if new:
        with contextlib.suppress(OSError):
            folder = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)
