"""Games survive leaving: the game on screen is kept when its screen closes, and resumed.

What is kept, per game id, is everything needed to go on exactly where the player left:
the parameters (as the game ID of the game's :class:`~engine.model.descriptor.ParamSpec`) and
the scene's :meth:`snapshot` — for a turn-based game the seats and the move log with its
cursor (:class:`engine.midend.match.MatchMidend`: undo and redo work after resuming, back past a
New game too), the games already recorded in the statistics (a finished game is never
counted twice), Pause and the hint overlay; for a puzzle its midend (puzzles, attempts
and their clocks, moves, help used) and the solution marks. Moves are written as JSON
(tuples as lists) with no game's help; a start is written only where a game does not
begin at its fresh start (a generated puzzle board, a position set up by
hand). Every game saves: no descriptor declares anything for it.

Resuming replays the moves through the rules, each checked legal first, so a changed or
damaged file is refused, saying which entry is wrong. Saves of format version 1 (which
kept positions, not moves) are still read: :mod:`engine.storage.saved_format` turns their
histories into move logs. Saves are written in version 2 only.

When: whenever a game's screen leaves the stack — Back, Esc, replaced by another game,
the window closed, a signal (HUP, INT, QUIT, TERM) — the app calls :func:`save_scene`
(engine.runtime.app). Between two such saves every change (a move, an undo, a New game)
goes to the game's journal, ``<game id>.journal`` beside its save
(:mod:`engine.storage.journal`), appended and fsync'd on a writer thread, never on the
frame loop: a kill or a power cut loses at most the move being made. Leaving writes the
save whole and removes the journal; opening replays the save and then its journal.

One copy at a time: a game open on screen is held by its copy of the arcade (an OS lock
on ``.<game id>.held``, let go when the game leaves or the process dies, however). A
second copy opening it shows the game as the first has it (its save and journal) and says
that its own moves there will not be saved, so it never writes over the first's.

Where: one JSON file per game, ``<profile data folder>/saved/<game id>.json``, with a
format name and a version, written whole and atomically
(:func:`engine.storage.atomic.atomic_write_text`): several copies of the arcade on one
profile each replace the file whole, never mix two saves.

Resuming (:func:`open_game`, used by the launcher and the command line): the copy this
app saved last, kept in memory (so a full disk loses nothing while the arcade runs),
unless the file changed since this app wrote it — another copy of the arcade saved the
game later, and that newer save is what resumes; else the file. A finished game resumes
as it was left, its final board and its history: the player sees how it ended, can Undo
through it, or press New game (itself undoable).

A save that cannot be used — not JSON, another format or version, parameters no longer
valid, a move the rules refuse, too big (the size is checked before reading), not a
file — is moved aside as ``<id>.json.corrupt-<time>`` (like a damaged settings file),
the player is told why, and a new game starts. A file that cannot be read at all is left
untouched and not written over this session. A failed write (a full disk) is a warning,
not damage: nothing is moved aside and the game stays in memory.

No pygame here.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.core.console import say
from engine.core.i18n import N_, Number, Phrase, _, error_text, localize, number_text
from engine.model.descriptor import GameDescriptor
from engine.storage.atomic import (
    TEMP_SUFFIX,
    atomic_write_text,
    move_aside,
    remove_stale_temporaries,
)
from engine.storage.journal import (
    JOURNAL_SUFFIX,
    MAX_JOURNAL_BYTES,
    JournalWriter,
    diff,
    read_journal,
    replay,
    text_digest,
)
from engine.storage.lock import folder_lock, let_go, try_hold
from engine.storage.saved_data import ReplayProgress, fields, show, text, tracking

SAVED_FOLDER = "saved"
SAVE_FORMAT = "arcade-of-strategy saved game"
SAVE_VERSION = 2
# Versions still read: version 1 kept positions, not moves (engine.storage.saved_format upgrades).
READ_VERSIONS = (1, 2)
# A save bigger than this is refused unread (a hostile 1 GB file is never read whole).
# About thirty 1000×1000 puzzle boards; a turn-based history is far smaller.
MAX_SAVE_BYTES = 8_000_000
# Game ids become file names only when they are plain (descriptors allow more).
_FILE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
# A temporary atomic_write_text made for a save: ``.<id>.json.<random>.tmp``.
_TEMPORARY = re.compile(r"\.([a-z0-9][a-z0-9_-]{0,63}\.json)\.[0-9a-f]+" + re.escape(TEMP_SUFFIX))

Signature = tuple[int, int, int]


def _look(path: Path) -> os.stat_result | None:
    """The file's status (None: no file there), following a symbolic link as the settings
    do: a save linked to a file elsewhere is read there and written there (the link stays,
    engine.storage.atomic.write_target). A link to a folder, a pipe or a device is still
    "not a file"; a loop of links raises OSError (the file is then left untouched)."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def _signature(info: os.stat_result | None) -> Signature | None:
    """What tells one version of a file from another (None: no file there).

    An atomic replace gives the file a new inode, so a save by another copy of the app
    differs from ours even within one tick of the clock and at the same size.
    """
    return None if info is None else (info.st_mtime_ns, info.st_size, info.st_ino)


@dataclass(frozen=True)
class Found:
    """What :meth:`SavedGames.find` found for a game.

    ``text``: a save to resume, from ``source`` "memory" or "file". ``problem``: why the
    file cannot be a save (set it aside; a :class:`~engine.core.phrase.Phrase`). ``notice``: the
    file could not be read (left alone).
    """

    text: str | None = None
    source: str | None = None
    problem: str | None = None
    notice: str | None = None


@dataclass
class _Kept:
    """The save this app made last: its text, and the file as it was just after (or, if
    the write failed, just before) — a different file now means another copy saved.
    ``on_disk``: the file holds this very text (the write succeeded)."""

    text: str
    seen: Signature | None
    on_disk: bool = False


@dataclass
class _SceneJournal:
    """A scene's journal so far: the scene's :meth:`save_token` when last journalled, the
    state the journal's lines add up to, how many lines follow the header, and whether
    the journal file was begun (else the next change begins it, with the whole state)."""

    token: Any
    state: Any = None
    lines: int = 0
    started: bool = False


class SavedGames:
    """The saved games of one profile: a JSON file per game id, and this app's last saves.

    ``folder`` None keeps saves in memory only (``--smoke``, which must never write over
    a player's games).
    """

    def __init__(self, folder: Path | None) -> None:
        self.folder = None if folder is None else Path(folder)
        self._kept: dict[str, _Kept] = {}
        # Game id -> why its file must not be written over this session (a Phrase); and the ids
        # whose player has been told so (once is enough).
        self._blocked: dict[str, str] = {}
        self._told: set[str] = set()
        # Games this copy holds (game id -> the lock's descriptor): see hold().
        self._held: dict[str, int] = {}
        # Journal writes that failed (on the writer's thread), to be told on the frame loop.
        self._journal_failures: dict[Path, str] = {}
        self._failures_lock = threading.Lock()
        self._told_journal: set[Path] = set()
        self.writer = JournalWriter(self._journal_failed)

    def tidy(self) -> list[Path]:
        """Remove the temporaries of saves a killed copy left half written; return them.

        Under the folder's lock, where every temporary is stale (a writer holds the
        lock while its temporary exists); without it (another copy holds it for
        long), nothing is removed. Never raises.
        """
        if self.folder is None:
            return []
        try:
            if not stat.S_ISDIR(os.stat(self.folder).st_mode):
                return []
        except (OSError, ValueError):
            # Not there, or it cannot be looked at (no permission, a name too long): nothing
            # to tidy that this copy could reach; the saves themselves will say why if need be.
            return []
        removed: list[Path] = []
        with folder_lock(self.folder) as lock:
            if not lock.held:
                return []
            try:
                names = {match.group(1) for entry in os.scandir(self.folder)
                         if (match := _TEMPORARY.fullmatch(entry.name))}
            except OSError:
                return []
            for name in sorted(names):
                removed += remove_stale_temporaries(self.folder, name, folder_locked=True)
        return removed

    @classmethod
    def beside(cls, *stores: Any) -> SavedGames:
        """The saved games next to the first store that has a ``path`` (the statistics'
        file is in the profile's data folder: :mod:`engine.storage.paths`); memory only
        if none has one."""
        for store in stores:
            path = getattr(store, "path", None)
            if path is not None:
                return cls(Path(path).parent / SAVED_FOLDER)
        return cls(None)

    def path(self, game_id: str) -> Path | None:
        """The file of ``game_id``'s save (None: kept in memory only)."""
        if self.folder is None or not _FILE_ID.fullmatch(game_id):
            return None
        return self.folder / f"{game_id}.json"

    def journal_path(self, game_id: str) -> Path | None:
        """The journal of ``game_id``'s game in progress (None: kept in memory only)."""
        path = self.path(game_id)
        return None if path is None else path.with_suffix(JOURNAL_SUFFIX)

    # --- holding a game ---------------------------------------------------------------
    def hold(self, game_id: str) -> bool:
        """Hold ``game_id``'s game for this copy (or keep holding it); False when another
        copy of the arcade holds it. Never raises: a folder that cannot hold the lock
        file (memory only, read-only) counts as held, as nothing else can save there."""
        if game_id in self._held:
            return True
        path = self.path(game_id)
        if path is None:
            return True
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return True
        try:
            fd = try_hold(path.parent / f".{game_id}.held")
        except OSError:
            return True  # (a folder that takes no lock file takes no save either)
        if fd is None:
            return False
        self._held[game_id] = fd
        return True

    def release(self, game_id: str) -> None:
        """Let go of ``game_id``'s game (its screen left)."""
        fd = self._held.pop(game_id, None)
        if fd is not None:
            let_go(fd)

    def release_all(self) -> None:
        """Let go of every game this copy holds (the app closes)."""
        for game_id in list(self._held):
            self.release(game_id)

    # --- the journal ------------------------------------------------------------------
    def _journal_failed(self, path: Path, exc: OSError) -> None:
        with self._failures_lock:
            self._journal_failures.setdefault(path, exc.strerror or str(exc))

    def journal_warnings(self) -> list[str]:
        """What went wrong writing journals since last asked, as notices (each journal
        once a session: a full disk fails every move)."""
        with self._failures_lock:
            failures, self._journal_failures = self._journal_failures, {}
        notices = []
        for path, reason in failures.items():
            if path in self._told_journal:
                continue
            self._told_journal.add(path)
            notices.append(_("The moves of your game could not be written to {path} ({reason}); "
                             "they are saved when you leave the game.").format(
                path=path, reason=reason))
        return notices

    def disk_digest(self, game_id: str) -> str | None:
        """The digest of the save on disk for ``game_id`` (None: there is none, or it
        cannot be read — then a journal begun now does not follow any save)."""
        path = self.path(game_id)
        if path is None:
            return None
        try:
            now = _signature(_look(path))
        except OSError:
            return None
        if now is None:
            return None
        kept = self._kept.get(game_id)
        if kept is not None and kept.on_disk and kept.seen == now:
            return text_digest(kept.text)
        try:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_SAVE_BYTES + 1)
            return text_digest(raw.decode("utf-8-sig"))
        except (OSError, UnicodeDecodeError):
            return None

    def with_journal(self, game: GameDescriptor, found: Found) -> tuple[Found, Any]:
        """``found`` with the journal that follows it replayed: the save to resume and
        the journal's state (None when there is no journal to go on with). Never raises:
        a journal that does not fit is ignored (and replaced by the next move's)."""
        path = self.journal_path(game.id)
        if path is None or found.problem is not None or found.notice is not None:
            return found, None
        base = text_digest(found.text) if found.source == "file" else None
        if found.source == "memory":
            # This copy's own save: a journal follows it only if the file is that save.
            kept = self._kept.get(game.id)
            if kept is None or not kept.on_disk:
                return found, None
            base = text_digest(kept.text)
        read = read_journal(path, base, game.id)
        if read is None:
            return found, None
        header, edits = read
        try:
            if found.text is None:
                envelope = {key: header.get(key) for key in ("format", "version", "game",
                                                            "params")}
                envelope["saved"] = header.get("saved")
                state = replay(None, edits)
            else:
                envelope = json.loads(found.text)
                state = replay(envelope["state"], edits)
        except (ValueError, TypeError, KeyError, RecursionError):
            return found, None
        if state is None or not isinstance(envelope, dict):
            return found, None
        envelope["state"] = state
        if edits:
            # The journal's states are this version's (a journal following a save of an
            # earlier version begins with the whole state).
            envelope["version"] = SAVE_VERSION
        text = json.dumps(envelope, separators=(",", ":"), allow_nan=False)
        return Found(text, "journal"), _SceneJournal(None, state, len(edits), True)

    # --- reading ----------------------------------------------------------------------
    def waiting(self, game_id: str) -> bool:
        """Whether ``game_id`` has a game waiting to be resumed: one this app saved, or a
        file (whether it can be resumed is found out only when it is opened). Never raises."""
        if game_id in self._kept:
            return True
        path = self.path(game_id)
        if path is None:
            return False
        try:
            info = _look(path)
        except OSError:
            return False
        return info is not None and stat.S_ISREG(info.st_mode)

    def find(self, game_id: str, title: str) -> Found:
        """The save to resume for ``game_id``: this app's own unless the file changed since
        it was written, else the file's (checked for size and kind before it is read)."""
        kept = self._kept.get(game_id)
        path = self.path(game_id)
        if path is None:
            return Found(kept.text, "memory") if kept is not None else Found()
        try:
            info = _look(path)
        except OSError as exc:
            if kept is not None:
                return Found(kept.text, "memory")
            return self._unreadable(game_id, title, path, exc)
        now = _signature(info)
        if kept is not None and (now is None or now == kept.seen):
            return Found(kept.text, "memory")
        if info is None:
            return Found()
        if not stat.S_ISREG(info.st_mode):
            return Found(source="file", problem=Phrase(N_("it is not a file")))
        if info.st_size > MAX_SAVE_BYTES:
            return Found(source="file", problem=Phrase(
                N_("it is {size} bytes, more than a saved game can be ({most})"),
                size=Number(info.st_size), most=Number(MAX_SAVE_BYTES)))
        try:
            # O_NONBLOCK: a link changed into a named pipe since the look must not hang.
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                         | getattr(os, "O_BINARY", 0))
            with open(fd, "rb") as handle:
                if not stat.S_ISREG(os.fstat(fd).st_mode):  # what we opened may differ
                    return Found(source="file", problem=Phrase(N_("it is not a file")))
                raw = handle.read(MAX_SAVE_BYTES + 1)  # it may have grown since
        except OSError as exc:
            return self._unreadable(game_id, title, path, exc)
        if len(raw) > MAX_SAVE_BYTES:
            return Found(source="file", problem=Phrase(
                N_("it is more than a saved game can be ({most} bytes)"),
                most=Number(MAX_SAVE_BYTES)))
        try:
            return Found(raw.decode("utf-8-sig"), "file")  # an editor may add a BOM
        except UnicodeDecodeError:
            return Found(source="file", problem=Phrase(N_("it is not UTF-8 text")))

    def _unreadable(self, game_id: str, title: str, path: Path, exc: OSError) -> Found:
        """Not corruption (a permission, a disk error): left untouched, not written over."""
        reason = exc.strerror or str(exc)
        self._blocked[game_id] = Phrase(N_("{path} could not be read ({reason}), so it is left "
                                           "untouched"), path=path, reason=reason)
        self._told.add(game_id)  # this notice says it already
        return Found(notice=_("Your saved game of {game} ({path}) could not be read ({reason}). "
                              "A new game starts; it will not be saved over that file.").format(
            game=_(title), path=path, reason=reason))

    def discard(self, game_id: str, title: str, found: Found, problem: str) -> str:
        """Give up a save that cannot be used: a file is moved aside (never deleted), a
        copy in memory forgotten. Returns the notice for the player (``problem``, a
        :class:`~engine.core.phrase.Phrase` or a marked message, said in the current language)."""
        shown = localize(problem)
        if found.source == "memory":
            self._kept.pop(game_id, None)
            return _("Your game of {game} could not be resumed ({problem}). A new game "
                     "starts.").format(game=_(title), problem=shown)
        path = self.path(game_id)
        assert path is not None
        self._kept.pop(game_id, None)
        try:
            kept = move_aside(path)
        except FileNotFoundError:
            return _("Your saved game of {game} could not be resumed ({problem}). A new game "
                     "starts.").format(game=_(title), problem=shown)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self._blocked[game_id] = Phrase(N_("{path} could not be used ({problem}) nor moved "
                                               "aside ({reason}), so it is left untouched"),
                                            path=path, problem=problem, reason=reason)
            self._told.add(game_id)
            return _("Your saved game of {game} could not be resumed ({problem}), and {path} "
                     "could not be moved aside ({reason}). A new game starts; it will not be "
                     "saved over that file.").format(game=_(title), problem=shown, path=path,
                                                     reason=reason)
        return _("Your saved game of {game} could not be resumed ({problem}); the file was kept "
                 "as {kept}. A new game starts.").format(game=_(title), problem=shown,
                                                         kept=kept)

    # --- writing ------------------------------------------------------------------------
    def write(self, game_id: str, title: str, text: str) -> str | None:
        """Keep ``text`` as ``game_id``'s save, in memory and atomically in its file.

        Returns a warning instead of raising: the save stays in memory (and resumes while
        the app runs) when the file cannot be written, e.g. on a full disk.
        """
        path = self.path(game_id)
        try:
            before = _signature(_look(path)) if path is not None else None
        except OSError:
            before = None
        self._kept[game_id] = _Kept(text, before)
        if path is None:
            return None
        blocked = self._blocked.get(game_id)
        if blocked is not None:
            if game_id in self._told:
                return None
            self._told.add(game_id)
            return _("Your game of {game} was not saved: {reason}.").format(
                game=_(title), reason=localize(blocked))
        if len(text) > MAX_SAVE_BYTES:  # ASCII JSON: characters are bytes
            return _("Your game of {game} is too big to save ({size} bytes); it is kept "
                     "until the arcade is closed.").format(game=_(title),
                                                           size=number_text(len(text)))
        try:
            atomic_write_text(path, text)
        except OSError as exc:
            return _("Your game of {game} could not be saved to {path} "
                     "({reason}); it is kept until the arcade is closed.").format(
                game=_(title), path=path, reason=exc.strerror or exc)
        try:
            seen = _signature(_look(path))
        except OSError:
            seen = None  # (then the next open reads the file: this very save)
        self._kept[game_id] = _Kept(text, seen, on_disk=True)
        return None


# --- scenes ---------------------------------------------------------------------------------


def can_save(scene: Any) -> bool:
    """Whether ``scene`` plays a game that can be saved: a game's scene with ``snapshot``
    and ``restore`` (every game's)."""
    game = getattr(scene, "game", None)
    return (isinstance(game, GameDescriptor)
            and callable(getattr(scene, "snapshot", None))
            and callable(getattr(scene, "restore", None)))


def encode(scene: Any, compact: bool = False) -> str:
    """The save of ``scene``'s game as JSON text (``compact``: only the game on screen)."""
    game: GameDescriptor = scene.game
    spec = game.param_spec()
    envelope = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": game.id,
                "saved": datetime.now(UTC).isoformat(timespec="seconds"),
                "params": None if spec is None else spec.encode(scene.params),
                "state": scene.snapshot(compact=compact)}
    return json.dumps(envelope, separators=(",", ":"), allow_nan=False)


HELD_ELSEWHERE = N_("it is open in another copy of the arcade")


def save_scene(app: Any, scene: Any) -> None:
    """Keep the game of a scene that is leaving (the app calls this); problems are notices.

    The save is written whole and the game's journal removed: its lines are in the save
    now (a save that cannot be written keeps the journal, which still has every move).
    """
    if not can_save(scene):
        return
    game: GameDescriptor = scene.game
    store: SavedGames = app.game_saves
    if getattr(scene, "_told_held", False):
        return  # opened while another copy held it: told then that it is not saved
    if not store.hold(game.id):
        if not getattr(scene, "_told_held", False):
            scene._told_held = True
            app.notify(_("Your game of {game} was not saved: {reason}.").format(
                game=_(game.title), reason=_(HELD_ELSEWHERE)), level="warning")
        return
    # The journal's last lines first (then the save replaces them all); before the
    # snapshot, so that the state saved is the state the scene leaves with (a puzzle's
    # clock stops when it leaves, right after this).
    store.writer.drain()
    try:
        saved = encode(scene)
        if len(saved) > MAX_SAVE_BYTES:
            saved = encode(scene, compact=True)  # earlier games go; the one on screen stays
    except Exception as exc:  # noqa: BLE001 - a bug in one game's save must not stop leaving
        # The details are for a bug report (stderr), not for the player's notice.
        say(f"arcade: saving {game.id}: {type(exc).__name__}: {show(str(exc))}")
        app.notify(_("Your game of {game} could not be saved (a fault in the arcade).").format(
            game=_(game.title)), level="warning")
        return
    warning = store.write(game.id, game.title, saved)
    kept = store._kept.get(game.id)
    journal = store.journal_path(game.id)
    if kept is not None and kept.on_disk and kept.text == saved and journal is not None:
        # (Nothing is queued for it: the queue was drained and this thread queues.)
        with contextlib.suppress(OSError):
            os.unlink(journal)
    scene._save_journal = None
    if warning:
        app.notify(warning, level="warning")


def save_token(scene: Any) -> Any:
    """What tells whether ``scene``'s game changed since it was journalled (None: the
    scene keeps no journal, and is saved only when it leaves)."""
    token = getattr(scene, "save_token", None)
    if token is None or not can_save(scene):
        return None
    return token()


def journal_scene(app: Any, scene: Any) -> None:
    """Journal what changed in ``scene``'s game since last time (the app calls this after
    every frame): one line queued for the writer thread, nothing written here."""
    token = save_token(scene)
    if token is None or getattr(scene, "_told_held", False):
        return  # (a game another copy holds is never written by this one, even once free)
    record: _SceneJournal | None = getattr(scene, "_save_journal", None)
    if record is not None and record.token == token:
        return
    game: GameDescriptor = scene.game
    store: SavedGames = app.game_saves
    path = store.journal_path(game.id)
    if path is None or game.id in store._blocked or not store.hold(game.id):
        return
    try:
        state = scene.snapshot()
    except Exception:  # noqa: BLE001 - leaving says so (save_scene); play goes on
        return
    if record is None:
        record = scene._save_journal = _SceneJournal(token)
    record.token = token
    edit = None
    if record.started or record.state is not None:
        edit = diff(record.state, state)
        if edit is None:
            return
    if not record.started:
        spec = game.param_spec()
        header = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "journal": 1, "game": game.id,
                  "saved": datetime.now(UTC).isoformat(timespec="seconds"),
                  "params": None if spec is None else spec.encode(scene.params),
                  "base": store.disk_digest(game.id)}
        if header["base"] is None:
            edit = {"=": state}  # (no save on disk to follow: the whole state)
        store.writer.start(path, json.dumps(header, separators=(",", ":")).encode())
        record.started, record.lines = True, 0
    if edit is None:
        edit = {"=": state}
    record.lines += 1
    record.state = state
    try:
        line = json.dumps({"n": record.lines, "d": edit}, separators=(",", ":"),
                          allow_nan=False)
    except (TypeError, ValueError):
        return
    store.writer.append(path, line.encode())


def release_scene(app: Any, scene: Any) -> None:
    """A game's scene left: let go of its game unless another of its scenes is open."""
    game = getattr(scene, "game", None)
    if not isinstance(game, GameDescriptor):
        return
    if any(getattr(other, "game", None) is game for other in app.scenes):
        return
    app.game_saves.release(game.id)


def read_save(game: GameDescriptor, saved: str) -> tuple[Any, Any]:
    """The parameters and the scene's snapshot in a save of ``game``; ValueError, saying
    what is wrong, unless it is such a save of a version this app reads."""
    try:
        data = json.loads(saved, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise ValueError(Phrase(N_("it is not valid JSON (line {line}, column {column})"),
                                line=exc.lineno, column=exc.colno)) from None
    except RecursionError:
        raise ValueError(Phrase(N_("it is nested too deeply to be a saved game"))) from None
    except ValueError as exc:
        if exc.args and isinstance(exc.args[0], Phrase):
            raise  # NaN or an infinity: _refuse_constant said so
        # Python's own words ("Exceeds the limit (4300 digits) … set_int_max_str_digits()")
        # are not for the player: a number of more digits than Python converts.
        raise ValueError(Phrase(N_("it holds a number with too many digits to be a saved "
                                   "game"))) from None
    record = fields(data, Phrase(N_("the file")), ("format", "version", "game", "params",
                                                   "state"))
    if record["format"] != SAVE_FORMAT:
        raise ValueError(Phrase(N_("it is not a saved game of this arcade")))
    version = record["version"]
    if type(version) is not int:  # true, "2", 2.0: no version (show() would say True, '2')
        raise ValueError(Phrase(N_("its saved-game version is not a whole number")))
    if version not in READ_VERSIONS:
        # Two templates, not "a newer"/"another" put in one: a language says each its way.
        newer = type(version) is int and version > SAVE_VERSION
        raise ValueError(Phrase(
            N_("it was saved by a newer version of the arcade (saved-game version {version}; "
               "this one reads {known})") if newer else
            N_("it was saved by another version of the arcade (saved-game version {version}; "
               "this one reads {known})"), version=show(version), known=SAVE_VERSION))
    if record["game"] != game.id:
        raise ValueError(Phrase(N_("it holds another game, {game}"), game=show(record["game"])))
    spec = game.param_spec()
    params = None
    if spec is not None:
        try:
            params = spec.validate(spec.decode(text(record["params"],
                                                    Phrase(N_("its parameters")), 200)))
        except ValueError as exc:
            raise ValueError(Phrase(N_("its parameters are not valid: {error}"),
                                    error=error_text(exc))) from None
    state = record["state"]
    if version == 1:
        from engine.storage.saved_format import upgrade_v1

        state = upgrade_v1(game, params, state)
    return params, state


def _refuse_constant(name: str) -> Any:
    """Refuse NaN and the infinities (``json.loads`` reads them as numbers)."""
    raise ValueError(Phrase(N_("it holds {name}, which is not a number a saved game uses"),
                            name=name))


def resume(app: Any, game: GameDescriptor, saved: str, **options: Any) -> Any:
    """A scene of ``game`` playing the save ``saved``; ValueError if it cannot be used
    (the scene built meanwhile is left, and nothing else has changed)."""
    params, state, _base = _parse(game, saved)
    scene = game.open_scene(app, params, **options)
    try:
        _restore(scene, state)
    except ValueError:
        scene.leave()  # built, never shown: stop whatever it started
        raise
    return scene


#: A save (with its journal) at least this big is opened off the frame loop, behind a
#: "loading" screen (engine.screens.loading_scene): replaying its moves takes a while.
LARGE_SAVE_BYTES = 200_000


def is_large(app: Any, game: GameDescriptor) -> bool:
    """Whether ``game``'s save is big enough to open off the frame loop (:class:`Opening`):
    two ``stat`` calls, nothing read."""
    store: SavedGames = app.game_saves
    size = 0
    for path in (store.path(game.id), store.journal_path(game.id)):
        if path is not None:
            with contextlib.suppress(OSError):
                size += os.stat(path).st_size
    if size > MAX_SAVE_BYTES + MAX_JOURNAL_BYTES:
        return False  # refused unread, at once
    kept = store._kept.get(game.id)
    if kept is not None:
        size = max(size, len(kept.text))
    return size >= LARGE_SAVE_BYTES


def _parse(game: GameDescriptor, text: str) -> tuple[Any, Any, Any]:
    """A save's parameters and state, and the state again if the save is of this version
    (a journal then follows it line by line; None for an earlier version's)."""
    params, state = read_save(game, text)
    version = json.loads(text).get("version")
    return params, state, state if version == SAVE_VERSION else None


def _restore(scene: Any, state: Any) -> None:
    """``scene.restore(state)``, every failure a ValueError saying what is wrong."""
    try:
        scene.restore(state)
    except ValueError:
        raise
    except (TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
        # A check a game forgot must not crash the launcher: the save is set aside. The
        # details are for a bug report (stderr), not for the player's notice.
        game_id = getattr(getattr(scene, "game", None), "id", "?")
        say(f"arcade: resuming {game_id}: {type(exc).__name__}: {show(str(exc))}")
        raise ValueError(Phrase(N_("it could not be read back"))) from None


def _opening(app: Any, game: GameDescriptor, options: dict[str, Any]) -> Any:
    """The steps of opening ``game`` (see :func:`open_game`), as a generator: the reading
    and replaying it yields, ``(function, *arguments)``, are run by its driver — at once
    (:func:`open_game`) or on a thread (:class:`Opening`) — and their result (or their
    exception) sent back; the rest (building the scene, notices) runs on the frame loop.
    Returns the scene."""
    store: SavedGames = app.game_saves
    held = store.hold(game.id)
    if not held:
        app.notify(_("Your game of {game} is open in another copy of the arcade. It is shown "
                     "here as that copy last saved it; moves made here will not be "
                     "saved.").format(game=_(game.title)), level="warning")
    store.writer.drain()  # (this copy's own journal lines of the game, if it left just now)
    found = yield (store.find, game.id, game.title)
    if found.notice:
        app.notify(found.notice, level="warning")
    journalled, record = yield (store.with_journal, game, found)
    scene = None
    if journalled is not found:
        try:
            params, state, _base = yield (_parse, game, journalled.text or "")
            scene = game.open_scene(app, params, **options)
            yield (_restore, scene, state)
        except ValueError:
            if scene is not None:
                scene.leave()  # built, never shown: stop whatever it started
                scene = None
            # The journal does not fit its save: set it aside, resume the save alone.
            journal = store.journal_path(game.id)
            if journal is not None and held:
                with contextlib.suppress(OSError):
                    move_aside(journal)
            record = None
    base_state = None
    if scene is None:
        problem = found.problem
        if problem is None and found.text is not None:
            try:
                params, state, base_state = yield (_parse, game, found.text)
                scene = game.open_scene(app, params, **options)
                yield (_restore, scene, state)
            except ValueError as exc:
                if scene is not None:
                    scene.leave()
                    scene = None
                problem = error_text(exc)
        if problem is not None:
            app.notify(store.discard(game.id, game.title, found, problem), level="warning")
    if scene is None:
        scene = game.open_scene(app, **options)
    if not held:
        scene._told_held = True
    token = save_token(scene)
    if token is not None:
        # Journalled from the next change on: a fresh game writes nothing until played.
        if record is None:
            record = _SceneJournal(token)
            kept = store._kept.get(game.id)
            if found.source == "file" or (found.source == "memory" and kept is not None
                                          and kept.on_disk):
                # The journal will follow this save: a move then writes one line, not the
                # whole game (the save's own state, as this version writes it).
                record.state = base_state
        record.token = token
        scene._save_journal = record
    return scene


def open_game(app: Any, game: GameDescriptor, **options: Any) -> Any:
    """The scene the launcher opens for ``game``: the game left last time, resumed (its
    save, then its journal), else a new one (the last parameters played). A save that
    cannot be used is set aside with a notice, and a new game starts. A game another copy
    of the arcade holds opens as that copy has it, and this copy's moves are not saved
    (said in a notice). ``options`` go to the scene (tests pass a clock).

    Everything here runs at once, on the caller's thread; a big save is opened with
    :class:`Opening` instead, off the frame loop."""
    steps = _opening(app, game, options)
    value: Any = None
    failure: BaseException | None = None
    while True:
        try:
            item = steps.throw(failure) if failure is not None else steps.send(value)
        except StopIteration as stop:
            return stop.value
        function, *arguments = item
        try:
            value, failure = function(*arguments), None
        except Exception as exc:  # noqa: BLE001 - handed back to the step that asked
            value, failure = None, exc


class Opening:
    """``game`` being opened off the frame loop: :func:`open_game`'s steps, its reading and
    replaying each on a thread of its own, the rest on the frame loop when :meth:`poll`
    finds the thread done. :meth:`cancel` (Back) gives up: what the thread still does is
    thrown away, and nothing is written.
    """

    def __init__(self, app: Any, game: GameDescriptor, **options: Any) -> None:
        self.app = app
        self.game = game
        self.scene: Any = None
        self.done = False
        self.cancelled = False
        #: How far the replay has come (the loading screen shows it); cancelled with it.
        self.progress = ReplayProgress()
        self._steps = _opening(app, game, options)
        self._result: tuple[Any, BaseException | None] | None = None
        self._advance(None, None)

    def _advance(self, value: Any, failure: BaseException | None) -> None:
        try:
            item = (self._steps.throw(failure) if failure is not None
                    else self._steps.send(value))
        except StopIteration as stop:
            self.scene, self.done = stop.value, True
            return
        function, *arguments = item
        self._result = None

        def work() -> None:
            try:
                with tracking(self.progress):
                    result: tuple[Any, BaseException | None] = (function(*arguments), None)
            except Exception as exc:  # noqa: BLE001 - handed back to the step that asked
                result = (None, exc)
            self._result = result

        threading.Thread(target=work, name="game-opening", daemon=True).start()

    def poll(self) -> Any:
        """The scene once it is ready (None until then); call it on the frame loop."""
        if self.done or self.cancelled:
            return self.scene
        result = self._result
        if result is not None:
            self._advance(*result)
        return self.scene if self.done else None

    def cancel(self) -> None:
        """Give up opening (the player went back): the game is let go."""
        if self.done or self.cancelled:
            return
        self.cancelled = True
        self.progress.cancel()  # the replay stops at its next report
        self._steps.close()
        if not any(getattr(scene, "game", None) is self.game for scene in self.app.scenes):
            self.app.game_saves.release(self.game.id)
