"""Where the player's settings and statistics live.

Nothing here changes the disk (folders are only created when something is
first saved, so merely starting the game or its tests leaves no empty folders
behind), except the fallback folder below, made private (0700) at once because
it sits in the temporary folder every user shares. A folder the player names is
only looked at, to refuse a file standing where the folder should be.

Finding the folders never fails for want of a home folder (a container's user
id often has no passwd entry and no ``HOME``): the profile then falls back to
a clearly named folder in the temporary folder, and says so in a notice the
app shows. Only a folder the player named that cannot be used, such as
``~nosuchuser/p`` or an existing file, is an error (:class:`ProfileError`),
which the command line reports as bad usage.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "arcade-of-strategy"
PROFILE_ENV = "ARCADE_PROFILE"

SETTINGS_FILENAME = "settings.json"
STATS_FILENAME = "statistics.sqlite3"


class ProfileError(ValueError):
    """A profile folder the player named cannot be used; the message says why."""


@dataclass(frozen=True)
class ProfilePaths:
    """The two folders of one player profile.

    ``notice`` is empty, or a sentence for the player when the folders are not
    where they would expect (no home folder was found).
    """

    config_dir: Path
    data_dir: Path
    notice: str = ""

    @property
    def settings_file(self) -> Path:
        """The JSON settings file (in the config folder)."""
        return self.config_dir / SETTINGS_FILENAME

    @property
    def stats_file(self) -> Path:
        """The SQLite statistics database (in the data folder)."""
        return self.data_dir / STATS_FILENAME


def is_unset(value: str | os.PathLike[str] | None) -> bool:
    """Whether a profile value means "the default folders": None, empty or blank.

    ``--profile ""`` and ``ARCADE_PROFILE=`` both mean this; neither means the
    current folder.
    """
    return value is None or not os.fspath(value).strip()


def expand_folder(value: str | os.PathLike[str]) -> Path:
    """``value`` as a folder, with a leading ``~`` or ``~user`` expanded.

    Raises :class:`ProfileError` when the ``~`` cannot be expanded: no such
    user, or no home folder to put in its place (pathlib would raise
    RuntimeError and the player would see a traceback).
    """
    text = os.fspath(value)
    if not text.startswith("~"):
        return Path(text)
    expanded = os.path.expanduser(text)
    head = text.replace(os.sep, "/").split("/", 1)[0]
    if expanded.startswith("~") or not os.path.isabs(expanded):
        if head == "~":
            raise ProfileError(f"cannot use {text!r}: no home folder was found for '~'")
        raise ProfileError(f"cannot use {text!r}: there is no user {head[1:]!r}")
    return Path(expanded)


def profile_folder(value: str | os.PathLike[str]) -> Path:
    """The folder a player named as the profile (``--profile`` or ``ARCADE_PROFILE``).

    As :func:`expand_folder`, and also raises :class:`ProfileError` when the folder,
    or the nearest part of its path that exists, is a file (or anything else that is
    not a folder): the settings and statistics could never be kept there. Only looks;
    creates nothing.
    """
    text = os.fspath(value)
    folder = expand_folder(text)
    for part in (folder, *folder.parents):
        try:
            info = os.stat(part)
        except (FileNotFoundError, NotADirectoryError):
            continue  # not there (yet): the nearest part that exists decides
        except (OSError, ValueError):
            return folder  # cannot look (no permission, say): opening the stores will tell
        if stat.S_ISDIR(info.st_mode):
            return folder
        kind = "is a file, not a folder" if stat.S_ISREG(info.st_mode) else "is not a folder"
        if part == folder:
            raise ProfileError(f"{text!r} {kind}")
        raise ProfileError(f"cannot use {text!r}: {os.fspath(part)!r} {kind}")
    return folder


def fallback_folder() -> Path:
    """The profile folder used when no home folder can be found.

    One per user id in the temporary folder, so two users of one machine
    never share it. The temporary folder is shared, so a folder of that name
    that is not this user's own (or is a link) is not used: a name with a
    random part is, for this run. Only looks; creates nothing.
    """
    try:
        base = Path(tempfile.gettempdir())
    except OSError:  # no usable temporary folder at all: the working folder it is
        base = Path(os.curdir)
    if not hasattr(os, "getuid"):  # Windows always has a home folder; no owners to check
        return base / f"{APP_NAME}-user"
    folder = base / f"{APP_NAME}-{os.getuid()}"
    try:
        info = folder.lstat()
    except FileNotFoundError:
        return folder
    except OSError:
        info = None
    if info is not None and stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid():
        return folder
    return base / f"{APP_NAME}-{os.getuid()}-{secrets.token_hex(4)}"


def resolve_profile(
    profile_dir: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> ProfilePaths:
    """Work out the profile folders (creating only the private fallback folder).

    Precedence: an explicit ``profile_dir`` (e.g. from ``--profile``), then
    the ``ARCADE_PROFILE`` environment variable, then the platform's usual
    per-user config and data folders. An empty or blank value counts as unset
    either way. A profile folder holds both the settings and the statistics,
    which keeps a portable or test profile self-contained.

    Without a home folder the platform folders cannot be found: the result is
    then :func:`fallback_folder`, with a ``notice`` saying so. Raises
    :class:`ProfileError` only for a named folder that cannot be used (see
    :func:`profile_folder`: a ``~`` that cannot be expanded, a file where the
    folder should be); the command line checks ``--profile`` while parsing and
    reports ``ARCADE_PROFILE``'s error the same way, as bad usage.

    ``environ`` defaults to ``os.environ``; tests pass their own mapping.
    """
    if environ is None:
        environ = os.environ
    if is_unset(profile_dir):
        from_env = environ.get(PROFILE_ENV, "")
        profile_dir = None if is_unset(from_env) else from_env
    if profile_dir is not None:
        folder = profile_folder(profile_dir)
        return ProfilePaths(config_dir=folder, data_dir=folder)
    try:
        return ProfilePaths(
            config_dir=Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
            data_dir=Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
        )
    # platformdirs raises RuntimeError without a home folder; older versions and other
    # platforms raise KeyError (no passwd entry) or OSError. Any of them means the same.
    except (RuntimeError, KeyError, OSError, ValueError):
        folder = fallback_folder()
        # Made now, private: the temporary folder is shared with every user of the machine.
        with contextlib.suppress(OSError):
            os.mkdir(folder, 0o700)
        notice = (f"No home folder was found, so settings and statistics are kept in "
                  f"{folder}; use --profile DIR or {PROFILE_ENV} to choose where.")
        return ProfilePaths(config_dir=folder, data_dir=folder, notice=notice)
