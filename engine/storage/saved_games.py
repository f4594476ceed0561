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
the window closed — the app calls :func:`save_scene` (engine.runtime.app). Not after every move:
that would be an fsync on the frame loop per move, tens of milliseconds on a slow disk
for a big board's history; a crash loses the moves since the game was last left.

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

import json
import os
import re
import stat
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
from engine.storage.lock import folder_lock
from engine.storage.saved_data import fields, show, text

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
    the write failed, just before) — a different file now means another copy saved."""

    text: str
    seen: Signature | None


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

    # --- reading ----------------------------------------------------------------------
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
        self._kept[game_id] = _Kept(text, seen)
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


def save_scene(app: Any, scene: Any) -> None:
    """Keep the game of a scene that is leaving (the app calls this); problems are notices."""
    if not can_save(scene):
        return
    game: GameDescriptor = scene.game
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
    warning = app.game_saves.write(game.id, game.title, saved)
    if warning:
        app.notify(warning, level="warning")


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
    params, state = read_save(game, saved)
    scene = game.open_scene(app, params, **options)
    try:
        scene.restore(state)
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
        scene.leave()  # built, never shown: stop whatever it started
        if isinstance(exc, ValueError):
            raise
        # A check a game forgot must not crash the launcher: the save is set aside. The
        # details are for a bug report (stderr), not for the player's notice.
        say(f"arcade: resuming {game.id}: {type(exc).__name__}: {show(str(exc))}")
        raise ValueError(Phrase(N_("it could not be read back"))) from None
    return scene


def open_game(app: Any, game: GameDescriptor, **options: Any) -> Any:
    """The scene the launcher opens for ``game``: the game left last time, resumed, else a
    new one (the last parameters played). A save that cannot be used is set aside with a
    notice, and a new game starts. ``options`` go to the scene (tests pass a clock)."""
    store: SavedGames = app.game_saves
    found = store.find(game.id, game.title)
    if found.notice:
        app.notify(found.notice, level="warning")
    problem = found.problem
    if problem is None and found.text is not None:
        try:
            return resume(app, game, found.text, **options)
        except ValueError as exc:
            problem = error_text(exc)
    if problem is not None:
        app.notify(store.discard(game.id, game.title, found, problem), level="warning")
    return game.open_scene(app, **options)
