"""Small C kernels: a bundled prebuilt library, or one compiled once into the user cache.

A game may ship a C source file for a hot loop (a solver's search) and load it with
:mod:`ctypes` (which releases the GIL during the call, so a worker thread never holds up
the frame loop). :func:`load_library` finds it, in this order:

1. **A prebuilt library bundled with the executable** (``native/<name>.so`` /
   ``.dylib`` / ``.dll`` under the bundle folder: build/arcade.spec compiles it). The
   frozen app never compiles anything, so its start time does not depend on a compiler.
2. **A library already compiled into the user cache**, named after the SHA-256 of the
   source (a changed source is a new name, so a stale library is never loaded).
3. **Compiling it now** with the machine's C compiler (``$CC``, ``cc``, ``gcc``,
   ``clang``), into a temporary file renamed into place: several copies of the app
   starting at once each compile their own file and the last rename wins, with identical
   contents, so none loads a half-written one.

Without a compiler (or when compiling fails) it returns None and the caller falls back
to its pure-Python code. Compiling takes a second or two: callers do it off the frame
loop (the first search that wants the kernel, in a worker thread). Names no game.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

__all__ = [
    "CACHE_ENV",
    "NO_NATIVE_ENV",
    "bundled_library",
    "cache_dir",
    "compile_library",
    "compiler",
    "library_suffix",
    "load_library",
]

#: Set to a folder to keep compiled kernels there instead of the user cache folder.
CACHE_ENV = "ARCADE_NATIVE_CACHE"
#: Set (to anything but "" or "0") to load no kernel at all: the pure-Python code runs.
NO_NATIVE_ENV = "ARCADE_NO_NATIVE"

_lock = threading.Lock()
_loaded: dict[str, ctypes.CDLL | None] = {}


def library_suffix() -> str:
    """The file suffix of a shared library on this system."""
    if sys.platform == "win32":
        return ".dll"
    if sys.platform == "darwin":
        return ".dylib"
    return ".so"


def cache_dir() -> Path:
    """Where compiled kernels are kept (``$ARCADE_NATIVE_CACHE`` or the user cache)."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    try:
        import platformdirs

        return Path(platformdirs.user_cache_dir("arcade-of-strategy", appauthor=False)) / "native"
    except Exception:  # no home folder: a temporary folder still works for this run
        return Path(tempfile.gettempdir()) / "arcade-of-strategy-native"


def compiler() -> str | None:
    """The C compiler's path (``$CC`` first), or None when there is none."""
    names = [os.environ["CC"]] if os.environ.get("CC") else []
    names += ["cc", "gcc", "clang"]
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def bundled_library(name: str) -> Path | None:
    """The prebuilt ``native/<name>`` library of a frozen executable, if it has one."""
    bundle = getattr(sys, "_MEIPASS", None)
    if not bundle:
        return None
    path = Path(bundle) / "native" / (name + library_suffix())
    return path if path.is_file() else None


def _digest(source: Path) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()[:16]


def compile_library(source: Path, target: Path, cc: str | None = None,
                    timeout: float = 120.0) -> bool:
    """Compile the C file ``source`` into the shared library ``target``, atomically.

    Optimised (``-O2``), position independent; the output goes to a temporary file
    beside ``target`` that is renamed over it only once complete. Returns whether
    ``target`` now exists; never raises for a failing compiler.
    """
    cc = cc or compiler()
    if cc is None:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=target.stem + ".", suffix=".tmp" + target.suffix,
                                    dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    flags = ["-O2", "-shared", "-std=c99"]
    # MinGW's gcc on Windows: libgcc linked in, so the DLL needs no other DLL beside it.
    flags.append("-static-libgcc" if sys.platform == "win32" else "-fPIC")
    try:
        done = subprocess.run([cc, *flags, "-o", str(tmp), str(source)],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=timeout, check=False)
        if done.returncode != 0 or tmp.stat().st_size == 0:
            return False
        os.replace(tmp, target)
        return True
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        try:
            tmp.unlink()
        except OSError:
            pass


def load_library(source: Path, name: str | None = None) -> ctypes.CDLL | None:
    """The kernel built from the C file ``source``: bundled, cached or compiled now.

    ``name`` is the library's base name (the source's stem by default). The result is
    remembered for the run (one load per source); None when no library can be had (no
    compiler, a failing build, or ``$ARCADE_NO_NATIVE`` set), and the caller uses its
    pure-Python code. May take seconds the first time on a machine: call it off the
    frame loop. Thread-safe.
    """
    if os.environ.get(NO_NATIVE_ENV, "") not in ("", "0"):
        return None
    name = name or source.stem
    with _lock:
        key = str(source)
        if key in _loaded:
            return _loaded[key]
        _loaded[key] = lib = _find(source, name)
        return lib


def _find(source: Path, name: str) -> ctypes.CDLL | None:
    candidates: list[Path] = []
    bundled = bundled_library(name)
    if bundled is not None:
        candidates.append(bundled)
    # A frozen executable never compiles (its start must not wait for a compiler, and its
    # players need none): the bundled library or nothing.
    if source.is_file() and not getattr(sys, "frozen", False):
        target = cache_dir() / f"{name}-{_digest(source)}{library_suffix()}"
        if not target.is_file():
            compile_library(source, target)
        candidates.append(target)
    for path in candidates:
        try:
            return ctypes.CDLL(str(path))
        except OSError:
            continue  # damaged or built for another machine: try the next one
    return None
