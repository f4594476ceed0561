"""Build the Arcade of Strategy executable with PyInstaller: ``python build/build.py``.

By default this makes the single file ``dist/arcade-of-strategy`` (``.exe`` on
Windows) at the repository root, with PyInstaller's scratch files in
``.pyinstaller-work/`` (PyInstaller's own default, ``build/``, is this folder).
``--onedir`` makes the folder ``dist/arcade-of-strategy/`` instead. The result
is for the platform this runs on: PyInstaller does not cross-compile.

Prints the path and size of the result; exits non-zero when the build fails.
Works from any current folder. See build/README.md.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SPEC = HERE / "arcade.spec"
NAME = "arcade-of-strategy"


def executable_path(distpath: Path, onedir: bool = False) -> Path:
    """Where the build puts the executable (inside the folder for ``--onedir``)."""
    exe = NAME + (".exe" if sys.platform == "win32" else "")
    return distpath / NAME / exe if onedir else distpath / exe


def _size(path: Path) -> int:
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return path.stat().st_size


def _remove_other_kind(distpath: Path, onedir: bool) -> None:
    """A one-file build and a one-folder build share a name on Linux and macOS."""
    other = executable_path(distpath, onedir=False) if onedir else distpath / NAME
    if onedir and other.is_file():
        print(f"build: removing the earlier one-file build {other}")
        other.unlink()
    elif not onedir and other.is_dir() and sys.platform != "win32":
        print(f"build: removing the earlier one-folder build {other}")
        shutil.rmtree(other)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python build/build.py",
        description="Build the Arcade of Strategy executable for this platform.",
    )
    parser.add_argument("--onedir", action="store_true",
                        help=f"build the folder dist/{NAME}/ instead of a single file")
    parser.add_argument("--windowed", action="store_true",
                        help="no console window (Windows) / an .app (macOS, with --onedir); "
                             "--help, --version and --smoke then print nothing on Windows")
    parser.add_argument("--clean", action="store_true",
                        help="drop PyInstaller's caches first (slower, for odd build errors)")
    parser.add_argument("--distpath", type=Path, default=ROOT / "dist", metavar="DIR",
                        help="where the result goes (default: dist/ at the repository root)")
    parser.add_argument("--workpath", type=Path, default=ROOT / ".pyinstaller-work",
                        metavar="DIR",
                        help="PyInstaller's scratch folder (default: .pyinstaller-work/)")
    parser.add_argument("--quiet", action="store_true", help="only PyInstaller's warnings")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    distpath: Path = args.distpath.resolve()
    workpath: Path = args.workpath.resolve()
    if workpath.is_relative_to(HERE) or distpath.is_relative_to(HERE):
        print("build: the build/ folder holds the spec; choose another --workpath/--distpath",
              file=sys.stderr)
        return 2
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        print(f"build: PyInstaller is not installed for {sys.executable}; "
              "run: python -m pip install -r requirements.txt", file=sys.stderr)
        return 1

    distpath.mkdir(parents=True, exist_ok=True)
    _remove_other_kind(distpath, args.onedir)
    command = [sys.executable, "-m", "PyInstaller", str(SPEC), "--noconfirm",
               "--distpath", str(distpath), "--workpath", str(workpath)]
    if args.clean:
        command.append("--clean")
    if args.quiet:
        command += ["--log-level", "WARN"]
    spec_options = [opt for opt, on in (("--onedir", args.onedir),
                                        ("--windowed", args.windowed)) if on]
    if spec_options:
        command += ["--", *spec_options]

    print("build: " + " ".join(command), flush=True)
    started = time.monotonic()
    result = subprocess.run(command, cwd=ROOT)
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        print(f"build: FAILED (PyInstaller exit code {result.returncode}) "
              f"after {elapsed:.0f} s", file=sys.stderr)
        return result.returncode

    exe = executable_path(distpath, args.onedir)
    if not exe.is_file():
        print(f"build: FAILED: PyInstaller finished but {exe} is missing", file=sys.stderr)
        return 1
    built = exe.parent if args.onedir else exe
    print(f"build: ok in {elapsed:.0f} s")
    print(f"build: executable {exe}")
    print(f"build: size {_size(built) / 1e6:.1f} MB" + (" (whole folder)" if args.onedir else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
