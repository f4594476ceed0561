"""The player's settings: a small, versioned JSON file in the config folder.

Design rules, in order of importance:

1. Never lose or silently overwrite a file the player had. Anything we cannot
   fully use is moved or copied aside as ``settings.json.corrupt-<time>``
   before we write over it, and a file we could not even read is never
   written over at all.
2. Never stop the game because of settings: every problem becomes a
   human-readable warning and the game carries on with defaults.
3. Keep what is good: one bad key only resets that key, and keys this version
   does not know (written by a newer version) are kept on save.
"""

from __future__ import annotations

import copy
import json
import os
import reprlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .atomic import atomic_write_text, copy_aside, move_aside

SETTINGS_VERSION = 1

PALETTES = ("default", "colourblind")
SEAT_KINDS = ("human", "computer")
WINDOW_MIN = 320
VOLUME_MIN, VOLUME_MAX = 0, 100
CVC_SPEEDS = ("slow", "normal", "fast")
WINDOW_MAX = 7680
BOARD_SIZE_MIN = 1
BOARD_SIZE_MAX = 1000
# Deepest nesting kept for a key this version does not know. Real settings are
# a few levels deep; a deeper value would make copying or saving the settings
# hit Python's recursion limit, so it is left out (and the file kept aside).
UNKNOWN_VALUE_MAX_DEPTH = 32

DEFAULTS: dict[str, Any] = {
    "version": SETTINGS_VERSION,
    "palette": "default",
    "window_size": [960, 720],
    "seats": {},
    "ai_levels": {},
    "last_board_sizes": {},
    "show_hints": False,
    "variants": {},
    "sound": True,
    "volume": 70,
    "reduce_motion": False,
    "cvc_speed": "normal",
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


def _unkeepable(value: object) -> str | None:
    """Why an unknown key's ``value`` cannot be kept and saved again, or None.

    Walks the value iteratively: it may be nested deeper than the recursion
    limit allows a recursive walk (or ``copy.deepcopy``) to go.
    """
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, _HugeNumber):
            return "holds a number too long to read"
        if isinstance(item, dict | list):
            if depth > UNKNOWN_VALUE_MAX_DEPTH:
                return f"is nested more than {UNKNOWN_VALUE_MAX_DEPTH} levels deep"
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return None


# --- validators -------------------------------------------------------------
# Each takes a candidate value and returns a normalised, independent copy, or
# raises ValueError with a message that completes "... <key> <message>".


def _is_int(value: object) -> bool:
    # bool is a subclass of int, but ``true`` is not a window width.
    return isinstance(value, int) and not isinstance(value, bool)


def _check_palette(value: object) -> str:
    if value not in PALETTES:
        raise ValueError(f"must be one of {', '.join(map(repr, PALETTES))}, not {_show(value)}")
    return str(value)


def _check_window_size(value: object) -> list[int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"must be a pair [width, height], not {_show(value)}")
    for side in value:
        if not _is_int(side) or not WINDOW_MIN <= side <= WINDOW_MAX:
            raise ValueError(
                f"must hold two whole numbers from {WINDOW_MIN} to {WINDOW_MAX}, "
                f"not {_show(value)}"
            )
    return [int(value[0]), int(value[1])]


def _check_nested(
    value: object, check_leaf: Callable[[object], object], leaf_desc: str
) -> dict[str, dict[str, Any]]:
    """Validate ``{game_id: {name: leaf}}`` and return a copy."""
    if not isinstance(value, dict):
        raise ValueError(
            f"must be an object mapping game ids to objects, not {_show(value)}"
        )
    result: dict[str, dict[str, Any]] = {}
    for game_id, inner in value.items():
        if not isinstance(game_id, str) or not isinstance(inner, dict):
            raise ValueError(f"entry {_show(game_id)} must map a game id to an object")
        checked: dict[str, Any] = {}
        for name, leaf in inner.items():
            if not isinstance(name, str):
                raise ValueError(f"entry {_show(game_id)} has a non-text name {_show(name)}")
            try:
                checked[name] = check_leaf(leaf)
            except ValueError:
                raise ValueError(
                    f"entry {_show(game_id)}/{_show(name)} must be {leaf_desc}, not {_show(leaf)}"
                ) from None
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
    return _check_nested(value, _seat_kind, '"human" or "computer"')


def _check_ai_levels(value: object) -> dict[str, dict[str, Any]]:
    return _check_nested(value, _ai_level, "text")


def _check_board_sizes(value: object) -> dict[str, dict[str, Any]]:
    return _check_nested(
        value, _board_size, f"a whole number from {BOARD_SIZE_MIN} to {BOARD_SIZE_MAX}"
    )


def _variant_leaf(value: object) -> str | int:
    if isinstance(value, str) and len(value) <= 200:
        return value
    if _is_int(value) and -1_000_000 <= value <= 1_000_000:
        return int(value)
    raise ValueError


def _check_variants(value: object) -> dict[str, dict[str, Any]]:
    return _check_nested(value, _variant_leaf, "short text or a whole number")


def _check_volume(value: object) -> int:
    if not _is_int(value) or not VOLUME_MIN <= value <= VOLUME_MAX:
        raise ValueError(f"must be a whole number from {VOLUME_MIN} to {VOLUME_MAX}, "
                         f"not {_show(value)}")
    return int(value)


def _check_cvc_speed(value: object) -> str:
    if value not in CVC_SPEEDS:
        raise ValueError(f"must be one of {', '.join(map(repr, CVC_SPEEDS))}, not {_show(value)}")
    return str(value)


def _check_bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, not {_show(value)}")
    return value


_VALIDATORS: dict[str, Callable[[object], Any]] = {
    "palette": _check_palette,
    "window_size": _check_window_size,
    "seats": _check_seats,
    "ai_levels": _check_ai_levels,
    "last_board_sizes": _check_board_sizes,
    "show_hints": _check_bool,
    "variants": _check_variants,  # {game_id: {name: text or number}}: last chosen variant
    "sound": _check_bool,  # sound effects on or off
    "volume": _check_volume,  # effects volume in percent
    "reduce_motion": _check_bool,  # animations finish at once
    "cvc_speed": _check_cvc_speed,  # pace of computer-against-computer games
}


def _file_signature(path: Path) -> tuple[int, int, int, bool] | None:
    """Identify the current file at ``path`` so we notice if someone replaced it."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        # NotADirectoryError: a file sits where a parent folder should be;
        # there is no settings file then (saving will report the problem).
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino, os.path.isdir(path))


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
        # What the file looked like when we last read or wrote it (None: no
        # file). save() compares against it so that a file we never saw (load
        # was not called, or another program wrote it since) is kept aside
        # instead of being silently overwritten.
        self._seen: tuple[int, int, int, bool] | None = None
        # Set when saving would destroy something we could not read or move.
        self._save_blocked: str | None = None
        # The load warnings already say settings will not be saved; say why
        # once more at the first blocked save, not at every later one.
        self._save_blocked_told = False

    # --- reading ------------------------------------------------------------

    def load(self) -> list[str]:
        """Read the settings file, falling back to defaults where needed.

        Returns (and stores in :attr:`warnings`) human-readable messages about
        anything that was wrong; an empty list means all was well, including
        the normal first-run case of no file at all.
        """
        self.warnings = []
        self._data = copy.deepcopy(DEFAULTS)
        self._save_blocked = None
        self._save_blocked_told = False
        try:
            self._seen = _file_signature(self.path)
            if self._seen is None:
                return []
            if self._seen[3]:
                self._set_aside("was unreadable (it is a folder, not a file)")
                return list(self.warnings)
            raw = self.path.read_bytes()
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self._save_blocked = (
                f"the existing file {self.path} could not be read ({reason}), "
                "so it is left untouched"
            )
            self.warnings.append(
                f"Settings file {self.path} could not be read ({reason}); defaults are used "
                "and settings will not be saved this session, so the file is left untouched."
            )
            return list(self.warnings)

        repeated: list[str] = []

        def make_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
            # JSON lets a key appear twice and the last one wins; note it, so
            # the earlier value is not dropped without the file being kept.
            obj: dict[str, Any] = {}
            for name, value in pairs:
                if name in obj and name not in repeated:
                    repeated.append(name)
                obj[name] = value
            return obj

        try:
            # utf-8-sig: tolerate the byte-order mark some Windows editors add.
            loaded = json.loads(
                raw.decode("utf-8-sig"), parse_int=_parse_int, object_pairs_hook=make_object
            )
        except UnicodeDecodeError:
            self._set_aside("was unreadable (it is not UTF-8 text)")
            return list(self.warnings)
        except json.JSONDecodeError as exc:
            self._set_aside(
                f"was unreadable (not valid JSON: {exc.msg} at line {exc.lineno} "
                f"column {exc.colno})"
            )
            return list(self.warnings)
        except RecursionError:
            self._set_aside("was unreadable (JSON nested too deeply)")
            return list(self.warnings)
        except ValueError as exc:
            # Any other refusal of the parser must not stop the game either.
            self._set_aside(f"was unreadable (not valid JSON: {_show(str(exc))})")
            return list(self.warnings)

        if not isinstance(loaded, dict):
            kind = type(loaded).__name__
            self._set_aside(f"was unreadable (expected a JSON object at the top, found {kind})")
            return list(self.warnings)

        version = loaded.get("version")
        if _is_int(version) and version > SETTINGS_VERSION:
            # A newer game wrote this; our defaults would clobber settings we
            # do not understand, so keep its file aside for when it runs again.
            self._set_aside(
                f"was written by a newer version of the game (settings version {_show(version)}; "
                f"this version understands {SETTINGS_VERSION})"
            )
            return list(self.warnings)

        self._merge(loaded, repeated)
        return list(self.warnings)

    def _merge(self, loaded: dict[str, Any], repeated: list[str]) -> None:
        """Take every valid key from ``loaded``; reset and report the bad ones.

        ``repeated`` names keys that appeared more than once in the file (the
        last value was used).
        """
        bad = False
        if repeated:
            bad = True
            names = ", ".join(_show(name) for name in repeated[:5])
            more = f" and {len(repeated) - 5} more" if len(repeated) > 5 else ""
            self.warnings.append(
                f"Settings file {self.path} repeats the key(s) {names}{more}; "
                "the last value of each was used."
            )
        version = loaded.get("version", SETTINGS_VERSION)
        # A missing version is fine (a hand-written file); a wrong one is not.
        if not (_is_int(version) and version == SETTINGS_VERSION):
            bad = True
            self.warnings.append(
                f"Setting 'version' in {self.path} was invalid "
                f"(expected {SETTINGS_VERSION}, found {_show(version)}); the other settings "
                "were still read."
            )
        for key, value in loaded.items():
            if key == "version":
                continue
            validator = _VALIDATORS.get(key)
            if validator is None:
                # Unknown key: probably from a newer version. Keep it verbatim
                # if it can be written back as it was read.
                problem = _unkeepable(value)
                if problem is None:
                    self._data[key] = copy.deepcopy(value)
                else:
                    bad = True
                    self.warnings.append(
                        f"Setting {_show(key)} in {self.path} {problem}, so it was left out."
                    )
                continue
            try:
                self._data[key] = validator(value)
            except ValueError as exc:
                bad = True
                self.warnings.append(
                    f"Setting '{key}' in {self.path} was invalid ({key} {exc}); "
                    "its default is used."
                )
        if bad:
            # The file is still mostly useful, so copy (not move) it: the next
            # start still reads the good keys even if we never get to save.
            try:
                kept = copy_aside(self.path)
            except OSError as exc:
                self._save_blocked = (
                    f"a copy of {self.path} could not be kept ({exc.strerror or exc}), "
                    "so it is left untouched"
                )
                self.warnings.append(
                    f"The original settings file {self.path} could not be copied aside "
                    f"({exc.strerror or exc}); it will not be overwritten this session."
                )
            else:
                self.warnings.append(f"The original settings file {self.path} was kept as {kept}.")

    def _set_aside(self, problem: str) -> None:
        """Move the unusable file out of the way and record a warning."""
        try:
            kept = move_aside(self.path)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self._save_blocked = (
                f"{self.path} {problem} and could not be moved aside ({reason}), "
                "so it is left untouched"
            )
            self.warnings.append(
                f"Settings file {self.path} {problem}; it could not be moved aside ({reason}), "
                "so defaults are used and settings will not be saved this session."
            )
            return
        self._seen = None
        self.warnings.append(
            f"Settings file {self.path} {problem}; it was kept as {kept}; defaults are used."
        )

    # --- access -------------------------------------------------------------

    @property
    def data(self) -> dict[str, Any]:
        """A deep copy of all settings, including keys from newer versions."""
        return copy.deepcopy(self._data)

    def get(self, key: str) -> Any:
        """Return (a copy of) one setting; raises KeyError for an unknown key."""
        return copy.deepcopy(self._data[key])

    def set(self, key: str, value: Any) -> None:
        """Validate and change one setting.

        Raises ValueError, changing nothing, if ``key`` is not a setting this
        version can change or ``value`` is not valid for it.
        """
        validator = _VALIDATORS.get(key)
        if validator is None:
            known = ", ".join(sorted(_VALIDATORS))
            raise ValueError(f"Unknown setting {key!r}; settings that can be set: {known}")
        try:
            checked = validator(value)
        except ValueError as exc:
            raise ValueError(f"Invalid value for setting {key!r}: {key} {exc}") from None
        self._data[key] = checked

    # --- writing ------------------------------------------------------------

    def save(self) -> str | None:
        """Write the settings atomically; return a warning instead of raising.

        On failure the in-memory settings stay in effect for this session. A
        warning is also returned (after a successful save) if another program
        had replaced the file since it was loaded; that version is kept aside.
        When saving is blocked (the file could not be read or moved aside) the
        reason is returned by the first save only: load() already warned.
        """
        if self._save_blocked is not None:
            if self._save_blocked_told:
                return None  # already said (at load and at the first save)
            self._save_blocked_told = True
            return f"Settings were not saved: {self._save_blocked}."

        try:
            current = _file_signature(self.path)
        except OSError as exc:
            return (
                f"Could not save settings to {self.path} ({exc.strerror or exc}); "
                "the changes stay in effect until the game is closed."
            )
        if current is not None and current != self._seen:
            # Someone else (another copy of the game, the player's editor)
            # wrote this file after we read it. Keep their version.
            try:
                kept = move_aside(self.path) if current[3] else copy_aside(self.path)
            except OSError as exc:
                return (
                    f"Settings were not saved: {self.path} was changed by another program "
                    f"and could not be kept aside ({exc.strerror or exc})."
                )
            notice: str | None = (
                f"Settings file {self.path} was changed by another program since it was "
                f"read; that version was kept as {kept}."
            )
        else:
            notice = None

        text = json.dumps(self._ordered(), indent=2, ensure_ascii=False) + "\n"
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            # A lone surrogate ("\ud800" in the file we read) cannot be written
            # as UTF-8; \u escapes keep every character exactly as it was read.
            text = json.dumps(self._ordered(), indent=2, ensure_ascii=True) + "\n"
        try:
            atomic_write_text(self.path, text)
        except OSError as exc:
            return (
                f"Could not save settings to {self.path} ({exc.strerror or exc}); "
                "the changes stay in effect until the game is closed."
            )
        self._seen = _file_signature(self.path)
        return notice

    def _ordered(self) -> dict[str, Any]:
        """Known keys in schema order, then preserved unknown keys."""
        out = {key: self._data[key] for key in DEFAULTS}
        out["version"] = SETTINGS_VERSION
        out.update((k, v) for k, v in self._data.items() if k not in DEFAULTS)
        return out
