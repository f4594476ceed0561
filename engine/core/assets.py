"""One place that turns an asset name into a path, from source or from a bundle.

PyInstaller unpacks a one-file executable into a temporary folder and records
it in ``sys._MEIPASS``; from source the assets sit next to ``engine/``. Every
asset the app loads goes through :func:`asset_path`, so a missing file is found
by the smoke test rather than by a player.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from engine.core.phrase import N_, Phrase
from engine.core.shipped_digests import SHIPPED_DIGESTS

_SOURCE_ROOT = Path(__file__).resolve().parents[2]  # engine/core/ → the project root


def project_root() -> Path:
    """Return the folder that holds ``assets/`` (the bundle folder when frozen)."""
    bundle = getattr(sys, "_MEIPASS", None)
    return Path(bundle) if bundle else _SOURCE_ROOT


def shipped_problem(path: Path) -> str | None:
    """Why ``path``, a shipped data file under ``assets/``, must not be used, or None.

    Each shipped file the app parses (opening books, fonts, sounds) has its SHA-256
    recorded in :mod:`engine.core.shipped_digests` (``python tools/make_digests.py``
    writes it; a test fails when a file changes without it): a changed or damaged file
    is refused, so an edited opening book never makes the hints claim a false "proven
    win". A file with no recorded digest is not checked. Never raises.
    """
    try:
        name = Path(path).relative_to(project_root() / "assets").as_posix()
    except ValueError:
        return None  # not one of ours (a test's own file)
    expected = SHIPPED_DIGESTS.get(name)
    if expected is None:
        return None
    try:
        digest_of = hashlib.sha256()
        with open(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 16), b""):
                digest_of.update(chunk)
        digest = digest_of.hexdigest()
    except OSError as exc:
        return exc.strerror or str(exc)
    if digest != expected:
        return Phrase(N_("it is not the file this version of the arcade shipped"))
    return None


# Notices about shipped files that could not be used, for the app to show (any thread may
# add one: a computer player finds a changed opening book in its own thread).
_problems: list[str] = []
_told: set[str] = set()


def report_problem(notice: str) -> None:
    """Keep ``notice`` (a :class:`~engine.core.phrase.Phrase`) for :func:`take_problems`;
    the same notice is kept once per run."""
    key = str(notice)
    if key not in _told:
        _told.add(key)
        _problems.append(notice)


def take_problems() -> list[str]:
    """The notices kept since the last call (oldest first), and forget them."""
    taken = []
    while _problems:
        taken.append(_problems.pop(0))
    return taken


def asset_path(*parts: str) -> Path:
    """Return the path of an asset, e.g. ``asset_path("fonts", "DejaVuSans.ttf")``.

    Raises FileNotFoundError naming the missing file, so a broken bundle fails
    loudly at start-up instead of falling back to a system font.
    """
    path = project_root().joinpath("assets", *parts)
    if not path.exists():
        raise FileNotFoundError(f"asset missing: {path}")
    return path


# A font file pygame (FreeType) may open: TrueType (0x00010000 or "true") or OpenType with
# CFF outlines ("OTTO"). A damaged file crashes FreeType inside pygame ("Segmentation
# Fault"), which no Python code can catch, so the header is checked first.
_FONT_MAGICS = (b"\x00\x01\x00\x00", b"true", b"OTTO")
# The tables every such font has (a file without them is not one FreeType can draw with).
_FONT_TABLES = (b"cmap", b"head", b"hhea", b"hmtx", b"maxp")
# A bundled font is a few hundred KB; anything beyond this is not one of ours.
MAX_FONT_BYTES = 32_000_000


def font_problem(path: Path) -> str | None:
    """Why ``path`` is not a font file that can be opened safely, or None when it is one.

    Checks the header: the TrueType/OpenType magic, a table directory of a sane number
    of tables lying inside the file, each table's offset and length inside it, the tables
    every font has, and a plausible size. (Not the glyphs themselves: a file that passes
    has the shape of a font; the bundled ones are also checked against their digests.)
    The reason is a :class:`~engine.core.phrase.Phrase` (or the system's words for an
    error reading the file), said in a notice.
    """
    import struct

    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_FONT_BYTES:
                return Phrase(N_("{size} bytes is too big for a font"), size=size)
            data = handle.read(size)
    except OSError as exc:
        return exc.strerror or str(exc)  # the system's words (a path's kind of text)
    if len(data) < 12 or data[:4] not in _FONT_MAGICS:
        return Phrase(N_("it is not a TrueType or OpenType font"))
    (count,) = struct.unpack(">H", data[4:6])
    if not 0 < count <= 100 or 12 + 16 * count > len(data):
        return Phrase(N_("its table directory is damaged"))
    tags = set()
    for index in range(count):
        tag, _checksum, offset, length = struct.unpack(
            ">4sIII", data[12 + 16 * index: 28 + 16 * index])
        if offset + length > len(data) or offset < 12 + 16 * count:
            return Phrase(N_("it is cut short: a table lies outside the file"))
        tags.add(tag)
    if missing := [tag.decode() for tag in _FONT_TABLES if tag not in tags]:
        return Phrase(N_("it has no {tables} table"), tables=", ".join(missing))
    return None
