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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .atomic import atomic_write_text, copy_aside, move_aside

SETTINGS_VERSION = 1

PALETTES = ("default", "colourblind")
SEAT_KINDS = ("human", "computer")
WINDOW_MIN = 320
WINDOW_MAX = 7680
BOARD_SIZE_MIN = 1
BOARD_SIZE_MAX = 1000

DEFAULTS: dict[str, Any] = {
    "version": SETTINGS_VERSION,
    "palette": "default",
    "window_size": [960, 720],
    "seats": {},
    "ai_levels": {},
    "last_board_sizes": {},
    "show_hints": False,
    "variants": {},
}


# --- validators -------------------------------------------------------------
# Each takes a candidate value and returns a normalised, independent copy, or
# raises ValueError with a message that completes "... <key> <message>".


def _is_int(value: object) -> bool:
    # bool is a subclass of int, but ``true`` is not a window width.
    return isinstance(value, int) and not isinstance(value, bool)


def _check_palette(value: object) -> str:
    if value not in PALETTES:
        raise ValueError(f"must be one of {', '.join(map(repr, PALETTES))}, not {value!r}")
    return str(value)


def _check_window_size(value: object) -> list[int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"must be a pair [width, height], not {value!r}")
    for side in value:
        if not _is_int(side) or not WINDOW_MIN <= side <= WINDOW_MAX:
            raise ValueError(
                f"must hold two whole numbers from {WINDOW_MIN} to {WINDOW_MAX}, not {value!r}"
            )
    return [int(value[0]), int(value[1])]


def _check_nested(
    value: object, check_leaf: Callable[[object], object], leaf_desc: str
) -> dict[str, dict[str, Any]]:
    """Validate ``{game_id: {name: leaf}}`` and return a copy."""
    if not isinstance(value, dict):
        raise ValueError(f"must be an object mapping game ids to objects, not {value!r}")
    result: dict[str, dict[str, Any]] = {}
    for game_id, inner in value.items():
        if not isinstance(game_id, str) or not isinstance(inner, dict):
            raise ValueError(f"entry {game_id!r} must map a game id to an object")
        checked: dict[str, Any] = {}
        for name, leaf in inner.items():
            if not isinstance(name, str):
                raise ValueError(f"entry {game_id!r} has a non-text name {name!r}")
            try:
                checked[name] = check_leaf(leaf)
            except ValueError:
                raise ValueError(
                    f"entry {game_id!r}/{name!r} must be {leaf_desc}, not {leaf!r}"
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


def _check_bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, not {value!r}")
    return value


_VALIDATORS: dict[str, Callable[[object], Any]] = {
    "palette": _check_palette,
    "window_size": _check_window_size,
    "seats": _check_seats,
    "ai_levels": _check_ai_levels,
    "last_board_sizes": _check_board_sizes,
    "show_hints": _check_bool,
    "variants": _check_variants,  # {game_id: {name: text or number}}: last chosen variant
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

        try:
            # utf-8-sig: tolerate the byte-order mark some Windows editors add.
            loaded = json.loads(raw.decode("utf-8-sig"))
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

        if not isinstance(loaded, dict):
            kind = type(loaded).__name__
            self._set_aside(f"was unreadable (expected a JSON object at the top, found {kind})")
            return list(self.warnings)

        version = loaded.get("version")
        if _is_int(version) and version > SETTINGS_VERSION:
            # A newer game wrote this; our defaults would clobber settings we
            # do not understand, so keep its file aside for when it runs again.
            self._set_aside(
                f"was written by a newer version of the game (settings version {version}; "
                f"this version understands {SETTINGS_VERSION})"
            )
            return list(self.warnings)

        self._merge(loaded)
        return list(self.warnings)

    def _merge(self, loaded: dict[str, Any]) -> None:
        """Take every valid key from ``loaded``; reset and report the bad ones."""
        bad = False
        version = loaded.get("version", SETTINGS_VERSION)
        # A missing version is fine (a hand-written file); a wrong one is not.
        if not (_is_int(version) and version == SETTINGS_VERSION):
            bad = True
            self.warnings.append(
                f"Setting 'version' in {self.path} was invalid "
                f"(expected {SETTINGS_VERSION}, found {version!r}); the other settings were "
                "still read."
            )
        for key, value in loaded.items():
            if key == "version":
                continue
            validator = _VALIDATORS.get(key)
            if validator is None:
                # Unknown key: probably from a newer version. Keep it verbatim.
                self._data[key] = copy.deepcopy(value)
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
        """
        if self._save_blocked is not None:
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
