"""The player's settings: a small, versioned JSON file in the config folder.

Design rules, in order of importance:

1. Never lose or silently overwrite a file the player had. Anything we cannot
   fully use is moved or copied aside as ``settings.json.corrupt-<time>``
   before we write over it, and a file we could not even read is never
   written over at all. A valid file too big to be settings is kept aside as
   ``settings.json.too-big-<time>`` (it is not corrupt). A read-only file is
   not written over, and a symbolic link stays a link.
2. Never stop the game because of settings: every problem becomes a
   human-readable warning, said once, and the game carries on with defaults.
3. Keep what is good: one bad key only resets that key, and keys this version
   does not know (written by a newer version) are kept on save, as read.
4. Several copies of the game may share one profile: a save merges the file
   another copy wrote meanwhile (its values for everything this copy did not
   change, ours on top), under the profile folder's lock, without a word.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import reprlib
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.languages import CHOICES
from engine.core.phrase import N_, Nn_, Number, Phrase, error_text, joined

from .atomic import (
    CORRUPT_MARKER,
    TOO_BIG_MARKER,
    ReadOnlyFileError,
    atomic_write_text,
    copy_aside,
    keep_bytes_aside,
    move_aside,
    remove_stale_temporaries,
)
from .lock import folder_lock

SETTINGS_VERSION = 1

PALETTES = ("default", "colourblind")
SEAT_KINDS = ("human", "computer")
WINDOW_MIN = 320
VOLUME_MIN, VOLUME_MAX = 0, 100
CVC_SPEEDS = ("slow", "normal", "fast")
# The language setting: the system's, or one of the catalogues (engine/core/languages.py).
LANGUAGES = CHOICES
WINDOW_MAX = 7680
BOARD_SIZE_MIN = 1
BOARD_SIZE_MAX = 1000
# Deepest nesting kept for a key this version does not know. Real settings are
# a few levels deep; a deeper value would make copying or saving the settings
# hit Python's recursion limit, so it is left out (and the file kept aside).
UNKNOWN_VALUE_MAX_DEPTH = 32
# Largest settings file read, in bytes. Real settings take a few KB; a bigger
# file (hundreds of MB were seen) would take minutes and gigabytes to parse,
# so it is kept aside unread, and a save never writes a file above it.
SETTINGS_MAX_BYTES = 1024 * 1024
# Settings holding one entry per game id: a copy's change to one game's entry
# must not undo another copy's change to another game's entry.
PER_GAME_KEYS = ("seats", "ai_levels", "variants")
# Files before version 1's per-game ``variants`` kept one game's last board (rows,
# columns, k, players) in this key. It is read into ``variants`` (where that game has no
# entry yet) and no longer written: the game's own parameters hold its board now.
LEGACY_VARIANTS_KEY = "last_board_sizes"

DEFAULTS: dict[str, Any] = {
    "version": SETTINGS_VERSION,
    "palette": "default",
    "window_size": [960, 720],
    "seats": {},
    "ai_levels": {},
    "show_hints": False,
    "show_moves": False,
    "variants": {},
    "sound": True,
    "volume": 70,
    "reduce_motion": False,
    "cvc_speed": "normal",
    "language": "system",
}


# --- reading helpers --------------------------------------------------------

# Values quoted in warnings are shortened: a settings file can hold a string of
# a million characters or a list nested a thousand levels deep, and a warning
# must stay one readable line.
_SHORT = reprlib.Repr()
_SHORT.maxstring = 60
_SHORT.maxother = 60
_SHORT.maxlong = 40
_SHORT.maxlevel = 3
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = 6


def show_value(value: object) -> str:
    """A short, printable representation of ``value`` for a warning (never a huge one)."""
    try:
        return _SHORT.repr(value)
    except (ValueError, RecursionError):
        # e.g. an int too long to turn into text (Python's digit limit).
        return f"<{type(value).__name__}>"


_show = show_value


class _HugeNumber:
    """Stands in for a JSON integer too long for Python to convert.

    ``json.loads`` would raise ValueError for such a number (Python limits
    int/str conversion to 4300 digits), rejecting the whole file for one value;
    with this marker only the key holding it is rejected.
    """

    def __init__(self, digits: str) -> None:
        self.length = len(digits.lstrip("-"))

    def __repr__(self) -> str:
        return f"<a number with {self.length} digits>"


def _parse_int(text: str) -> int | _HugeNumber:
    try:
        return int(text)
    except ValueError:
        return _HugeNumber(text)


# What a walk of an unknown value must look into (JSON gives exactly these types).
_WALKED = frozenset({dict, list, _HugeNumber})


def _unkeepable(value: object) -> str | None:
    """Why an unknown key's ``value`` cannot be kept and saved again, or None.

    Walks the value one level at a time, without recursion (it may be nested
    deeper than the recursion limit allows a recursive walk or ``copy.deepcopy``
    to go), and looks only at containers and huge numbers: a 1 MB list of plain
    values costs one comprehension, not a Python step per value.
    """
    level = [value] if type(value) in _WALKED else []
    depth = 1
    while level:
        deeper: list[object] = []
        for item in level:
            if type(item) is _HugeNumber:
                return N_("holds a number too long to read")
            if depth > UNKNOWN_VALUE_MAX_DEPTH:
                return Phrase(N_("is nested more than {depth} levels deep"),
                              depth=UNKNOWN_VALUE_MAX_DEPTH)
            children = item.values() if type(item) is dict else item
            deeper.extend([child for child in children if type(child) in _WALKED])
        level = deeper
        depth += 1
    return None


# --- validators -------------------------------------------------------------
# Each takes a candidate value and returns a normalised, independent copy, or
# raises ValueError with a message that completes "... <key> <message>".


def _is_int(value: object) -> bool:
    # bool is a subclass of int, but ``true`` is not a window width.
    return isinstance(value, int) and not isinstance(value, bool)


def _check_palette(value: object) -> str:
    if value not in PALETTES:
        raise ValueError(Phrase(N_("must be one of {choices}, not {value}"),
                                choices=", ".join(map(repr, PALETTES)), value=_show(value)))
    return str(value)


def _check_window_size(value: object) -> list[int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(Phrase(N_("must be a pair [width, height], not {value}"),
                                value=_show(value)))
    for side in value:
        if not _is_int(side) or not WINDOW_MIN <= side <= WINDOW_MAX:
            raise ValueError(Phrase(
                N_("must hold two whole numbers from {low} to {high}, not {value}"),
                low=WINDOW_MIN, high=WINDOW_MAX, value=_show(value)))
    return [int(value[0]), int(value[1])]


def _check_nested(
    value: object, check_leaf: Callable[[object], object], leaf_desc: str
) -> dict[str, dict[str, Any]]:
    """Validate ``{game_id: {name: leaf}}`` and return a copy."""
    if not isinstance(value, dict):
        raise ValueError(Phrase(
            N_("must be an object mapping game ids to objects, not {value}"), value=_show(value)))
    result: dict[str, dict[str, Any]] = {}
    for game_id, inner in value.items():
        if not isinstance(game_id, str) or not isinstance(inner, dict):
            raise ValueError(Phrase(N_("entry {entry} must map a game id to an object"),
                                    entry=_show(game_id)))
        checked: dict[str, Any] = {}
        for name, leaf in inner.items():
            if not isinstance(name, str):
                raise ValueError(Phrase(N_("entry {entry} has a non-text name {name}"),
                                        entry=_show(game_id), name=_show(name)))
            try:
                checked[name] = check_leaf(leaf)
            except ValueError:
                raise ValueError(Phrase(
                    N_("entry {entry}/{name} must be {kind}, not {value}"), entry=_show(game_id),
                    name=_show(name), kind=leaf_desc, value=_show(leaf))) from None
        result[game_id] = checked
    return result


def _seat_kind(value: object) -> str:
    if value not in SEAT_KINDS:
        raise ValueError
    return str(value)


def _ai_level(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError
    return value


def _board_size(value: object) -> int:
    if not _is_int(value) or not BOARD_SIZE_MIN <= value <= BOARD_SIZE_MAX:
        raise ValueError
    return int(value)


def _check_seats(value: object) -> dict[str, dict[str, Any]]:
    return _check_nested(value, _seat_kind, Phrase(N_('"human" or "computer"')))


def _check_ai_levels(value: object) -> dict[str, dict[str, Any]]:
    return _check_nested(value, _ai_level, Phrase(N_("text")))


def _check_board_sizes(value: object) -> dict[str, dict[str, Any]]:
    return _check_nested(
        value, _board_size, Phrase(N_("a whole number from {low} to {high}"),
                                   low=BOARD_SIZE_MIN, high=BOARD_SIZE_MAX)
    )


def _variant_leaf(value: object) -> str | int:
    if isinstance(value, str) and len(value) <= 200:
        return value
    if _is_int(value) and -1_000_000 <= value <= 1_000_000:
        return int(value)
    raise ValueError


def _check_variants(value: object) -> dict[str, dict[str, Any]]:
    return _check_nested(value, _variant_leaf, Phrase(N_("short text or a whole number")))


def _check_volume(value: object) -> int:
    if not _is_int(value) or not VOLUME_MIN <= value <= VOLUME_MAX:
        raise ValueError(Phrase(N_("must be a whole number from {low} to {high}, not {value}"),
                                low=VOLUME_MIN, high=VOLUME_MAX, value=_show(value)))
    return int(value)


def _check_cvc_speed(value: object) -> str:
    if value not in CVC_SPEEDS:
        raise ValueError(Phrase(N_("must be one of {choices}, not {value}"),
                                choices=", ".join(map(repr, CVC_SPEEDS)), value=_show(value)))
    return str(value)


def _check_language(value: object) -> str:
    if value not in LANGUAGES:
        raise ValueError(Phrase(N_("must be one of {choices}, not {value}"),
                                choices=", ".join(map(repr, LANGUAGES)), value=_show(value)))
    return str(value)


def _check_bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(Phrase(N_("must be true or false, not {value}"), value=_show(value)))
    return value


_VALIDATORS: dict[str, Callable[[object], Any]] = {
    "palette": _check_palette,
    "window_size": _check_window_size,
    "seats": _check_seats,
    "ai_levels": _check_ai_levels,
    "show_hints": _check_bool,
    "show_moves": _check_bool,  # the move list beside a two-player game's board
    "variants": _check_variants,  # {game_id: {name: text or number}}: last chosen variant
    "sound": _check_bool,  # sound effects on or off
    "volume": _check_volume,  # effects volume in percent
    "reduce_motion": _check_bool,  # animations finish at once
    "cvc_speed": _check_cvc_speed,  # pace of computer-against-computer games
    "language": _check_language,  # "system" or a language code with a catalogue
}



# --- reading the file -------------------------------------------------------


def size_text(size: int) -> str:
    """A file size a player can read: "812 bytes", "4.2 KB", "200.0 MB"."""
    if size < 1024:
        return Phrase(Nn_("{size} byte", "{size} bytes"), count_key="size", size=size)
    if size < 1024 * 1024:
        return Phrase(N_("{size} KB"), size=Number(size / 1024, 1))
    if size < 1024**3:
        return Phrase(N_("{size} MB"), size=Number(size / 1024**2, 1))
    return Phrase(N_("{size} GB"), size=Number(size / 1024**3, 1))


_SPECIAL_KINDS = (
    (stat.S_ISFIFO, Phrase(N_("a named pipe"))),
    (stat.S_ISCHR, Phrase(N_("a device"))),
    (stat.S_ISBLK, Phrase(N_("a device"))),
    (stat.S_ISSOCK, Phrase(N_("a socket"))),
)


def _kind_of(mode: int) -> str:
    """What a file that is not a regular file or a folder is, in words."""
    for test, words in _SPECIAL_KINDS:
        if test(mode):
            return words
    return Phrase(N_("not a regular file"))


@dataclass
class _Found:
    """What is at the settings path: ``kind`` is "missing", "folder", "special"
    (``what`` says which), "too-big" (``size``) or "file" (``raw`` holds its bytes)."""

    kind: str
    raw: bytes = b""
    size: int = 0
    what: str = ""


def _open_for_reading(path: Path) -> int:
    """Open ``path`` for reading without ever blocking.

    O_NONBLOCK: opening a named pipe that nobody writes to would otherwise wait
    for ever and hang the start (it has no effect on regular files).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    return os.open(path, flags)


def _not_readable(info: os.stat_result, cap: int) -> _Found | None:
    """Why a file with status ``info`` is not read (a folder, a pipe, too big), or None."""
    if stat.S_ISDIR(info.st_mode):
        return _Found("folder")
    if not stat.S_ISREG(info.st_mode):
        return _Found("special", what=_kind_of(info.st_mode))
    if info.st_size > cap:
        return _Found("too-big", size=info.st_size)
    return None


def _look_at(path: Path, cap: int = SETTINGS_MAX_BYTES) -> _Found:
    """Read the settings file at ``path`` if it is a regular file of at most ``cap`` bytes.

    The file type and size are checked before opening and again on the open
    file, and at most ``cap + 1`` bytes are read, so neither a pipe, a device nor
    a file that grows while it is read can stall the start or fill memory.
    Raises OSError when the file is there but cannot be read.
    """
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        # NotADirectoryError: a file sits where a parent folder should be;
        # there is no settings file then (saving will report the problem).
        return _Found("missing")
    unreadable = _not_readable(info, cap)
    if unreadable is not None:
        return unreadable
    try:
        fd = _open_for_reading(path)
    except FileNotFoundError:
        return _Found("missing")  # removed between the two looks
    try:
        # What we opened may differ from what we looked at.
        unreadable = _not_readable(os.fstat(fd), cap)
        if unreadable is not None:
            return unreadable
        chunks: list[bytes] = []
        total = 0
        while total <= cap:
            chunk = os.read(fd, cap + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > cap:  # it grew while we read it
            return _Found("too-big", size=max(total, os.fstat(fd).st_size))
        return _Found("file", raw=b"".join(chunks))
    finally:
        os.close(fd)


def _digest(raw: bytes) -> bytes:
    """Tells one content of the file from another (a save compares it with the file)."""
    return hashlib.sha256(raw).digest()


class _Unusable(Exception):
    """The whole file cannot be used; ``problem`` completes "Settings file <path> ..."."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


@dataclass
class _Parsed:
    """A settings file taken apart: its valid known keys (validated copies), its
    keepable unknown keys (as read, not copied), the known keys whose values were
    invalid, and one message per problem found."""

    values: dict[str, Any] = field(default_factory=dict)
    unknown: dict[str, Any] = field(default_factory=dict)
    bad: set[str] = field(default_factory=set)
    messages: list[str] = field(default_factory=list)


def _parse(raw: bytes, path: Path) -> _Parsed:
    """Validate the bytes of a settings file; raise :class:`_Unusable` if none is usable."""
    repeated: list[str] = []

    def make_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        # JSON lets a key appear twice and the last one wins; note it, so
        # the earlier value is not dropped without the file being kept.
        obj = dict(pairs)  # (dict() first: the name-by-name walk is only for repeats)
        if len(obj) != len(pairs):
            names: set[str] = set()
            for name, _ in pairs:
                if name in names and name not in repeated:
                    repeated.append(name)
                names.add(name)
        return obj

    try:
        # utf-8-sig: tolerate the byte-order mark some Windows editors add.
        text = raw.decode("utf-8-sig")
        try:
            loaded = json.loads(text, object_pairs_hook=make_object)
        except json.JSONDecodeError:
            raise
        except ValueError:
            # An integer too long for int() (Python's digit limit): parse again,
            # marking it, so that only the key holding it is rejected. (Not the
            # first time: a hook for every number made big files slow.)
            repeated.clear()
            loaded = json.loads(text, parse_int=_parse_int, object_pairs_hook=make_object)
    except UnicodeDecodeError:
        raise _Unusable(Phrase(N_("was unreadable (it is not UTF-8 text)"))) from None
    except json.JSONDecodeError as exc:
        raise _Unusable(Phrase(
            N_("was unreadable (not valid JSON: {reason} at line {line} column {column})"),
            reason=exc.msg, line=exc.lineno, column=exc.colno)) from None
    except RecursionError:
        raise _Unusable(Phrase(N_("was unreadable (JSON nested too deeply)"))) from None
    except ValueError as exc:
        # Any other refusal of the parser must not stop the game either.
        raise _Unusable(Phrase(N_("was unreadable (not valid JSON: {reason})"),
                               reason=_show(str(exc)))) from None

    if not isinstance(loaded, dict):
        kind = type(loaded).__name__
        raise _Unusable(Phrase(
            N_("was unreadable (expected a JSON object at the top, found {kind})"), kind=kind))

    version = loaded.get("version")
    if _is_int(version) and version > SETTINGS_VERSION:
        # A newer game wrote this; our defaults would clobber settings we
        # do not understand, so keep its file aside for when it runs again.
        raise _Unusable(Phrase(
            N_("was written by a newer version of the game (settings version {version}; "
               "this version understands {known})"),
            version=_show(version), known=SETTINGS_VERSION))

    parsed = _Parsed()
    if repeated:
        names = ", ".join(_show(name) for name in repeated[:5])
        if len(repeated) > 5:
            parsed.messages.append(Phrase(
                N_("Settings file {path} repeats the keys {names} and {more} more; "
                   "the last value of each was used."),
                path=path, names=names, more=len(repeated) - 5))
        else:
            parsed.messages.append(Phrase(
                Nn_("Settings file {path} repeats the key {names}; the last value was used.",
                    "Settings file {path} repeats the keys {names}; "
                    "the last value of each was used."), path=path, names=names,
                count=len(repeated)))
    version = loaded.get("version", SETTINGS_VERSION)
    # A missing version is fine (a hand-written file); a wrong one is not.
    if not (_is_int(version) and version == SETTINGS_VERSION):
        parsed.messages.append(Phrase(
            N_("Setting 'version' in {path} was invalid (expected {known}, found {version}); "
               "the other settings were still read."),
            path=path, known=SETTINGS_VERSION, version=_show(version)))
    unknown = parsed.unknown
    for key, value in loaded.items():
        if key == LEGACY_VARIANTS_KEY:
            continue  # read into "variants" below
        validator = _VALIDATORS.get(key)
        if validator is not None:
            try:
                parsed.values[key] = validator(value)
            except ValueError as exc:
                parsed.bad.add(key)
                parsed.messages.append(Phrase(
                    N_("Setting '{key}' in {path} was invalid ({key} {problem}); "
                       "its default is used."), key=key, path=path, problem=error_text(exc)))
        elif key == "version":
            continue
        elif type(value) not in _WALKED or (problem := _unkeepable(value)) is None:
            # Unknown key: probably from a newer version. Kept as read (never
            # copied: it is never changed, and copying a big one cost gigabytes)
            # if it can be written back as it was read. Plain values need no
            # walk (this loop may see 100,000 of them).
            unknown[key] = value
        else:
            parsed.messages.append(Phrase(
                N_("Setting {key} in {path} {problem}, so it was left out."),
                key=_show(key), path=path, problem=problem))
    if LEGACY_VARIANTS_KEY in loaded:
        _migrate_legacy_variants(loaded[LEGACY_VARIANTS_KEY], parsed, path)
    return parsed


def _migrate_legacy_variants(value: object, parsed: _Parsed, path: Path) -> None:
    """Read an older file's :data:`LEGACY_VARIANTS_KEY` into ``variants``: each game's
    board becomes that game's stored parameters, unless ``variants`` already has them
    (the newer entry wins). Invalid, it is left out with a message (the file is kept)."""
    try:
        boards = _check_board_sizes(value)
    except ValueError as exc:
        parsed.messages.append(Phrase(
            N_("Setting '{key}' in {path} was invalid ({key} {problem}); "
               "its default is used."), key=LEGACY_VARIANTS_KEY, path=path,
            problem=error_text(exc)))
        return
    if "variants" in parsed.bad:
        return  # the file's own variants are unusable: their default (none) stands
    variants = parsed.values.setdefault("variants", {})
    for game, board in boards.items():
        variants.setdefault(game, board)


# --- writing helpers --------------------------------------------------------


def _render(settings: dict[str, Any], compact: bool) -> bytes:
    """The file's bytes for ``settings``: indented for people, or compact."""
    layout: dict[str, Any] = (
        {"separators": (",", ":")} if compact else {"indent": 2}
    )
    text = json.dumps(settings, ensure_ascii=False, **layout) + "\n"
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate ("\ud800" in the file we read) cannot be written
        # as UTF-8; \u escapes keep every character exactly as it was read.
        return (json.dumps(settings, ensure_ascii=True, **layout) + "\n").encode("ascii")


class _SaveFailed(Exception):
    """Saving did not happen; ``message`` is what the player is told: once, unless
    it has ``news`` (a file was kept aside on the way, which must always be said)."""

    def __init__(self, message: str, news: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.news = news


# What ``_seen`` holds before load() looked at the file: any file found at
# save time is then one we never saw, and is merged rather than overwritten.
_NEVER_LOOKED = b"never looked"


class SettingsStore:
    """Load, validate, change and save the settings file at ``path``.

    Typical use::

        store = SettingsStore(profile.settings_file)
        for warning in store.load():
            show(warning)
        store.set("palette", "colourblind")
        if (warning := store.save()) is not None:
            show(warning)

    Until :meth:`load` is called the store holds the defaults.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.warnings: list[str] = []
        self._data: dict[str, Any] = copy.deepcopy(DEFAULTS)
        # Keys this version does not know, as read: never changed, never copied.
        self._unknown: dict[str, Any] = {}
        # The digest of the file as we last read or wrote it (None: no file).
        # A save that finds other contents merges them instead of overwriting.
        self._seen: bytes | None = _NEVER_LOOKED
        # What this copy changed since it last read or wrote the file: whole
        # settings, and for the per-game settings the game ids whose entries
        # changed. On a merge these are ours; everything else is the file's.
        self._changed: set[str] = set()
        self._changed_entries: dict[str, set[str]] = {}
        # Set when saving would destroy something we could not read or move.
        self._save_blocked: str | None = None
        # The load warnings already say settings will not be saved; say why
        # once more at the first blocked save, not at every later one.
        self._save_blocked_told = False
        # A failed save is said once, not at every later save that fails too
        # (an unwritable profile once gave 245 identical notices); a save that
        # succeeds makes the next failure worth saying again.
        self._failure_told = False

    # --- reading ------------------------------------------------------------

    def load(self) -> list[str]:
        """Read the settings file, falling back to defaults where needed.

        Returns (and stores in :attr:`warnings`) human-readable messages about
        anything that was wrong; an empty list means all was well, including
        the normal first-run case of no file at all. Temporaries a killed copy
        left beside the file are removed (under the profile folder's lock).
        """
        self.warnings = []
        self._data = copy.deepcopy(DEFAULTS)
        self._unknown = {}
        self._seen = _NEVER_LOOKED
        self._changed = set()
        self._changed_entries = {}
        self._save_blocked = None
        self._save_blocked_told = False
        self._failure_told = False
        folder = self.path.parent
        # Under the lock: another copy must not replace the file between our
        # reading it and our moving it aside (we would move its good file).
        with folder_lock(folder) as lock:
            if lock.held:
                remove_stale_temporaries(folder, self.path.name, folder_locked=True)
            self._load_locked()
        return list(self.warnings)

    def _load_locked(self) -> None:
        try:
            found = _look_at(self.path)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self._block(
                Phrase(N_("the existing file {path} could not be read ({reason}), so it is "
                          "left untouched"), path=self.path, reason=reason),
                Phrase(N_("Settings file {path} could not be read ({reason}); defaults are used "
                          "and settings will not be saved this session, so the file is left "
                          "untouched."), path=self.path, reason=reason),
            )
            return
        if found.kind == "missing":
            self._seen = None
            return
        if found.kind == "folder":
            self._set_aside(Phrase(N_("was unreadable (it is a folder, not a file)")))
            return
        if found.kind == "special":
            # A pipe or a device is something the player set up on purpose (e.g. a
            # link to /dev/null): never read from it, never replace it.
            self._block(
                Phrase(N_("{path} is {what}, not a regular file, so it is left untouched"),
                       path=self.path, what=found.what),
                Phrase(N_("Settings file {path} is {what}, not a regular file; defaults are "
                          "used and settings will not be saved this session, so it is left "
                          "untouched."), path=self.path, what=found.what),
            )
            return
        if found.kind == "too-big":
            self._set_aside_too_big(found.size)
            return
        try:
            parsed = _parse(found.raw, self.path)
        except _Unusable as unusable:
            self._set_aside(unusable.problem)
            return
        self._data.update(parsed.values)
        self._unknown = parsed.unknown
        self._seen = _digest(found.raw)
        self.warnings.extend(parsed.messages)
        if parsed.messages:
            # The file is still mostly useful, so copy (not move) it: the next
            # start still reads the good keys even if we never get to save.
            try:
                kept = copy_aside(self.path)
            except OSError as exc:
                reason = exc.strerror or str(exc)
                self._block(
                    Phrase(N_("a copy of {path} could not be kept ({reason}), so it is left "
                              "untouched"), path=self.path, reason=reason),
                    Phrase(N_("The original settings file {path} could not be copied aside "
                              "({reason}); it will not be overwritten this session."),
                           path=self.path, reason=reason),
                )
            else:
                self.warnings.append(Phrase(
                    N_("The original settings file {path} was kept as {kept}."),
                    path=self.path, kept=kept))

    def _block(self, reason: str, warning: str) -> None:
        """Refuse every save this session (``reason``), and say so now (``warning``)."""
        self._save_blocked = reason
        self.warnings.append(warning)

    def _set_aside(self, problem: str, marker: str = CORRUPT_MARKER) -> None:
        """Move the unusable file out of the way (to a ``marker`` name) and record a warning."""
        try:
            kept = move_aside(self.path, marker=marker)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self._block(
                Phrase(N_("{path} {problem} and could not be moved aside ({reason}), so it is "
                          "left untouched"), path=self.path, problem=problem, reason=reason),
                Phrase(N_("Settings file {path} {problem}; it could not be moved aside "
                          "({reason}), so defaults are used and settings will not be saved "
                          "this session."), path=self.path, problem=problem, reason=reason),
            )
            return
        self._seen = None
        self.warnings.append(Phrase(
            N_("Settings file {path} {problem}; it was kept as {kept}; defaults are used."),
            path=self.path, problem=problem, kept=kept))

    def _set_aside_too_big(self, size: int) -> None:
        """Keep a file too big to be settings aside, unread (it is valid, not corrupt)."""
        self._set_aside(Phrase(N_("is {size}, more than the {limit} settings may take, so it "
                                  "was not read"),
                               size=size_text(size), limit=size_text(SETTINGS_MAX_BYTES)),
                        TOO_BIG_MARKER)

    # --- access -------------------------------------------------------------

    @property
    def data(self) -> dict[str, Any]:
        """All settings, including keys from newer versions.

        The settings this version knows are deep copies; the values of unknown
        keys are shared, not copied (they can be huge): treat them as read-only.
        """
        out = copy.deepcopy(self._data)
        out.update(self._unknown)
        return out

    def get(self, key: str) -> Any:
        """Return (a copy of) one setting; raises KeyError for an unknown key.

        A key from a newer version is returned as read, not copied (read-only).
        """
        if key in self._data:
            return copy.deepcopy(self._data[key])
        return self._unknown[key]

    def set(self, key: str, value: Any) -> None:
        """Validate and change one setting.

        Raises ValueError, changing nothing, if ``key`` is not a setting this
        version can change or ``value`` is not valid for it.
        """
        validator = _VALIDATORS.get(key)
        if validator is None:
            known = ", ".join(sorted(_VALIDATORS))
            raise ValueError(Phrase(N_("Unknown setting {key}; settings that can be set: {known}"),
                                    key=repr(key), known=known))
        try:
            checked = validator(value)
        except ValueError as exc:
            raise ValueError(Phrase(N_("Invalid value for setting {name}: {key} {problem}"),
                                    name=repr(key), key=key, problem=error_text(exc))) from None
        old = self._data[key]
        if key in PER_GAME_KEYS:
            missing = object()
            entries = {game for game in old.keys() | checked.keys()
                       if old.get(game, missing) != checked.get(game, missing)}
            if entries:
                self._changed_entries.setdefault(key, set()).update(entries)
        elif checked != old:
            self._changed.add(key)
        self._data[key] = checked

    # --- writing ------------------------------------------------------------

    def save(self) -> str | None:
        """Write the settings atomically; return a message instead of raising.

        Under the profile folder's lock: if another copy of the game wrote the
        file since we read it, its values are taken for everything this copy
        did not change, ours go on top, and then the file is written (no
        message). A file another program left that is unusable is kept aside
        first, and the message says where. On failure the in-memory settings
        stay in effect for this session and the reason is returned — once:
        later failures are quiet until a save succeeds again. When saving is
        blocked (the file could not be read or moved aside at load) the reason
        is returned by the first save only: load() already warned.
        """
        if self._save_blocked is not None:
            if self._save_blocked_told:
                return None  # already said (at load and at the first save)
            self._save_blocked_told = True
            return Phrase(N_("Settings were not saved: {reason}."), reason=self._save_blocked)
        folder = self.path.parent
        try:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise _SaveFailed(self._could_not_save(exc)) from None
            with folder_lock(folder):
                # Held, or waited for in vain (another copy kept it past the
                # timeout, or the folder cannot hold the lock file): either way
                # the write must not wait for it again.
                notice = self._save_locked()
        except _SaveFailed as failed:
            if self._failure_told and not failed.news:
                return None
            self._failure_told = True
            return failed.message
        self._failure_told = False
        return notice

    def _could_not_save(self, exc: OSError) -> str:
        """The message for a write that failed with ``exc``."""
        folder = self.path.parent
        reason = exc.strerror or str(exc)
        if isinstance(exc, FileExistsError | NotADirectoryError) and (
            os.path.exists(folder) and not os.path.isdir(folder)
        ):
            reason = Phrase(N_("{folder} is a file, not a folder"), folder=folder)
        return Phrase(N_("Could not save settings to {path} ({reason}); the changes stay in "
                         "effect until the game is closed."), path=self.path, reason=reason)

    def _save_locked(self) -> str | None:
        """The body of :meth:`save`, run under the folder lock (when it could be had)."""
        news: list[str] = []  # what was kept aside on the way: always worth saying
        try:
            if (kept := self._take_in_current_file()) is not None:
                news.append(kept)
            raw, dropped = self._file_bytes()
            if dropped is not None:
                news.append(dropped)
            try:
                atomic_write_text(self.path, raw.decode("utf-8"), folder_locked=True)
            except ReadOnlyFileError:
                raise _SaveFailed(Phrase(
                    N_("Settings are not saved: {path} is read-only, so it is left as it is; "
                       "changes stay in effect until the game is closed."), path=self.path,
                )) from None
            except OSError as exc:
                raise _SaveFailed(self._could_not_save(exc)) from None
        except _SaveFailed as failed:
            if news:
                raise _SaveFailed(joined([*news, failed.message]), news=True) from None
            raise
        self._seen = _digest(raw)
        self._changed = set()
        self._changed_entries = {}
        return joined(news) or None

    def _take_in_current_file(self) -> str | None:
        """Merge (or keep aside) what is at the path now if it is not what we last saw.

        Returns a message for the player when a file had to be kept aside; raises
        :class:`_SaveFailed` when the file must not be written over.
        """
        try:
            found = _look_at(self.path)
        except OSError as exc:
            raise _SaveFailed(Phrase(
                N_("Settings were not saved: {path} could not be read ({reason}), so it is "
                   "left untouched."), path=self.path, reason=exc.strerror or str(exc),
            )) from None
        if found.kind == "missing":
            return None  # nothing to keep (the player may have deleted it)
        if found.kind == "special":
            raise _SaveFailed(Phrase(
                N_("Settings were not saved: {path} is {what}, not a regular file, so it is "
                   "left untouched."), path=self.path, what=found.what))
        if found.kind == "file" and _digest(found.raw) == self._seen:
            return None  # as we left it
        # Someone else wrote it after we read it.
        try:
            if found.kind == "too-big":
                kept = move_aside(self.path, marker=TOO_BIG_MARKER)
                self._seen = None
                return Phrase(
                    N_("Settings file {path} was replaced by another program with a file of "
                       "{size}, more than the {limit} settings may take; it was kept as "
                       "{kept}."), path=self.path, size=size_text(found.size),
                    limit=size_text(SETTINGS_MAX_BYTES), kept=kept)
            if found.kind == "folder":
                kept = move_aside(self.path)
                self._seen = None
                return self._changed_elsewhere(kept)
            try:
                parsed = _parse(found.raw, self.path)
            except _Unusable:
                kept = copy_aside(self.path)
                self._seen = _digest(found.raw)
                return self._changed_elsewhere(kept)
            # Another copy of the game (or the player's editor) saved: take its
            # settings, then ours on top. A valid file is not worth a word; one
            # with bad keys is kept first (before we count it as seen).
            kept_copy = copy_aside(self.path) if parsed.messages else None
            self._adopt(parsed)
            self._seen = _digest(found.raw)
            return None if kept_copy is None else self._changed_elsewhere(kept_copy)
        except OSError as exc:
            raise _SaveFailed(Phrase(
                N_("Settings were not saved: {path} was changed by another program and could "
                   "not be kept aside ({reason})."), path=self.path,
                reason=exc.strerror or str(exc))) from None

    def _changed_elsewhere(self, kept: Path) -> str:
        return Phrase(N_("Settings file {path} was changed by another program since it was "
                         "read; that version was kept as {kept}."), path=self.path, kept=kept)

    def _adopt(self, theirs: _Parsed) -> None:
        """Take the file's settings for everything this copy did not change since it
        last read or wrote the file; keep ours for the rest."""
        for key in _VALIDATORS:
            if key in PER_GAME_KEYS:
                mine = self._data[key]
                if key in theirs.values:
                    merged = dict(theirs.values[key])
                elif key in theirs.bad:
                    merged = dict(mine)  # theirs is unusable: keep what we had
                else:
                    merged = {}  # absent from the file: the default (no entries)
                for game in self._changed_entries.get(key, ()):
                    if game in mine:
                        merged[game] = mine[game]
                    else:
                        merged.pop(game, None)  # we removed it
                self._data[key] = merged
            elif key in self._changed or key in theirs.bad:
                continue
            elif key in theirs.values:
                self._data[key] = theirs.values[key]
            else:
                self._data[key] = copy.deepcopy(DEFAULTS[key])
        self._unknown = theirs.unknown

    def _file_bytes(self) -> tuple[bytes, str | None]:
        """The bytes to write, never more than :data:`SETTINGS_MAX_BYTES` (which the next
        start would refuse), and a message if unknown keys had to be left out for that.

        Indented if that fits, else compact; if even that is too big, the unknown
        keys are kept aside (with the file they came from) and left out.
        """
        ordered = self._ordered()
        raw = _render(ordered, compact=True)  # C-fast; indenting is pure Python
        if len(raw) * 4 <= SETTINGS_MAX_BYTES:
            # Indenting adds a few bytes per value; well under the cap, try it.
            indented = _render(ordered, compact=False)
            if len(indented) <= SETTINGS_MAX_BYTES:
                return indented, None
        if len(raw) <= SETTINGS_MAX_BYTES:
            return raw, None
        if not self._unknown:
            raise _SaveFailed(Phrase(
                N_("Settings were not saved: they would take {size}, more than the {limit} "
                   "settings may take."), size=size_text(len(raw)),
                limit=size_text(SETTINGS_MAX_BYTES)))
        count, full_size = len(self._unknown), len(raw)
        try:
            if os.path.isfile(self.path):
                kept = copy_aside(self.path, marker=TOO_BIG_MARKER)
            else:  # the file they came from is gone: keep what we have
                kept = keep_bytes_aside(self.path, raw, marker=TOO_BIG_MARKER)
        except OSError as exc:
            raise _SaveFailed(Phrase(
                Nn_("Settings were not saved: with the {count} setting this version does not "
                    "know they would take {size}, and the file could not be kept aside "
                    "({reason}).",
                    "Settings were not saved: with the {count} settings this version does not "
                    "know they would take {size}, and the file could not be kept aside "
                    "({reason})."), count=count, size=size_text(full_size),
                reason=exc.strerror or str(exc))) from None
        self._unknown = {}
        raw, _ = self._file_bytes()
        return raw, Phrase(
            Nn_("Settings file {path} would have taken {size} with the {count} setting this "
                "version does not know, more than the {limit} settings may take, so it was "
                "left out; the previous file was kept as {kept}.",
                "Settings file {path} would have taken {size} with the {count} settings this "
                "version does not know, more than the {limit} settings may take, so those were "
                "left out; the previous file was kept as {kept}."),
            path=self.path, size=size_text(full_size), count=count,
            limit=size_text(SETTINGS_MAX_BYTES), kept=kept)

    def _ordered(self) -> dict[str, Any]:
        """Known keys in schema order, then preserved unknown keys (not copied)."""
        out = {key: self._data[key] for key in DEFAULTS}
        out["version"] = SETTINGS_VERSION
        out.update(self._unknown)
        return out
