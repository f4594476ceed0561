"""Where the player's settings and statistics live.

Nothing here touches the disk: folders are only created when something is
first saved, so merely starting the game (or running its tests) never leaves
empty folders behind.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "arcade-of-strategy"
PROFILE_ENV = "ARCADE_PROFILE"

SETTINGS_FILENAME = "settings.json"
STATS_FILENAME = "statistics.sqlite3"


@dataclass(frozen=True)
class ProfilePaths:
    """The two folders of one player profile."""

    config_dir: Path
    data_dir: Path

    @property
    def settings_file(self) -> Path:
        """The JSON settings file (in the config folder)."""
        return self.config_dir / SETTINGS_FILENAME

    @property
    def stats_file(self) -> Path:
        """The SQLite statistics database (in the data folder)."""
        return self.data_dir / STATS_FILENAME


def resolve_profile(
    profile_dir: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> ProfilePaths:
    """Work out the profile folders without creating them.

    Precedence: an explicit ``profile_dir`` (e.g. from ``--profile``), then a
    non-empty ``ARCADE_PROFILE`` environment variable, then the platform's
    usual per-user config and data folders. A profile folder holds both the
    settings and the statistics, which keeps a portable or test profile
    self-contained.

    ``environ`` defaults to ``os.environ``; tests pass their own mapping.
    """
    if environ is None:
        environ = os.environ
    if profile_dir is None:
        from_env = environ.get(PROFILE_ENV, "")
        # An empty value is what ``ARCADE_PROFILE= game`` produces; treat it as
        # unset rather than as "the current folder".
        if from_env.strip():
            profile_dir = from_env
    if profile_dir is not None:
        folder = Path(os.fspath(profile_dir)).expanduser()
        return ProfilePaths(config_dir=folder, data_dir=folder)
    return ProfilePaths(
        config_dir=Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
        data_dir=Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
    )
