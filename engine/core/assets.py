"""One place that turns an asset name into a path, from source or from a bundle.

PyInstaller unpacks a one-file executable into a temporary folder and records
it in ``sys._MEIPASS``; from source the assets sit next to ``engine/``. Every
asset the app loads goes through :func:`asset_path`, so a missing file is found
by the smoke test rather than by a player.
"""

from __future__ import annotations

import sys
from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parents[2]  # engine/core/ → the project root


def project_root() -> Path:
    """Return the folder that holds ``assets/`` (the bundle folder when frozen)."""
    bundle = getattr(sys, "_MEIPASS", None)
    return Path(bundle) if bundle else _SOURCE_ROOT


def asset_path(*parts: str) -> Path:
    """Return the path of an asset, e.g. ``asset_path("fonts", "DejaVuSans.ttf")``.

    Raises FileNotFoundError naming the missing file, so a broken bundle fails
    loudly at start-up instead of falling back to a system font.
    """
    path = project_root().joinpath("assets", *parts)
    if not path.exists():
        raise FileNotFoundError(f"asset missing: {path}")
    return path
