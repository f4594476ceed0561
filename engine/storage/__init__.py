"""Persistence for Arcade of Strategy: profile folders, settings and statistics.

Pure Python (no pygame). Nothing here ever raises because of a bad or
unwritable file; problems come back as human-readable warnings, and a file
the player had is never deleted or silently overwritten.
"""

from .atomic import atomic_write_text, copy_aside, move_aside
from .paths import APP_NAME, PROFILE_ENV, ProfilePaths, resolve_profile
from .settings import DEFAULTS as DEFAULT_SETTINGS
from .settings import SettingsStore
from .stats import GameSummary, StatsStore

__all__ = [
    "APP_NAME",
    "DEFAULT_SETTINGS",
    "PROFILE_ENV",
    "GameSummary",
    "ProfilePaths",
    "SettingsStore",
    "StatsStore",
    "atomic_write_text",
    "copy_aside",
    "move_aside",
    "resolve_profile",
]
