"""End-to-end helpers: the real app in a real (virtual) X server, driven by xdotool.

``running_app`` starts Xvfb on a display it picks itself (``-displayfd``, so
parallel runs never collide), launches ``main.py`` on it with a throw-away
profile and ``--dump-state``, finds the window, and always tears both down
again, whatever happens in the test.

The tools are optional on a developer's machine (the test is skipped with the
reason), but CI installs them, so there (``CI=true``) a missing tool fails.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
TITLE = "Arcade of Strategy"
DESIGN_W, DESIGN_H = 960, 720
SCREEN = "1280x1024x24"
TOOLS = ("Xvfb", "xdotool", "import")
POLL = 0.05

State = dict[str, Any]


def require_tools() -> dict[str, str]:
    """Paths of Xvfb, xdotool and ImageMagick's import; skip (fail in CI) if missing."""
    found = {tool: shutil.which(tool) for tool in TOOLS}
    missing = [tool for tool, path in found.items() if path is None]
    if missing:
        reason = (f"end-to-end test needs {', '.join(missing)} on PATH "
                  "(apt-get install xvfb xdotool imagemagick)")
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {reason}")
        pytest.skip(reason)
    return {tool: str(path) for tool, path in found.items()}


def _stop(proc: subprocess.Popen[bytes] | None, grace: float = 3.0) -> None:
    """Terminate one process we started (then kill it if it lingers) and reap it."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=grace)


class Xvfb:
    """A private virtual X server; ``display`` is e.g. ``":3"``."""

    def __init__(self, tools: dict[str, str], log_file: Path) -> None:
        self.tools = tools
        self.log_file = log_file
        self.proc: subprocess.Popen[bytes] | None = None
        self.display = ""

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["DISPLAY"] = self.display
        return env

    def start(self, timeout: float = 15.0) -> None:
        read_fd, write_fd = os.pipe()
        try:
            # -displayfd: the server picks a free display number and writes it to us.
            with open(self.log_file, "wb") as log:
                self.proc = subprocess.Popen(
                    [self.tools["Xvfb"], "-displayfd", str(write_fd), "-screen", "0", SCREEN,
                     "-nolisten", "tcp", "-noreset"],
                    pass_fds=(write_fd,), stdout=log, stderr=subprocess.STDOUT,
                    start_new_session=True)
            os.close(write_fd)
            write_fd = -1
            number = b""
            deadline = time.monotonic() + timeout
            while not number.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise RuntimeError(f"Xvfb did not report a display: {self._stderr()}")
                ready, _, _ = select.select([read_fd], [], [], left)
                if ready:
                    chunk = os.read(read_fd, 64)
                    if not chunk:
                        raise RuntimeError(f"Xvfb exited early: {self._stderr()}")
                    number += chunk
        finally:
            os.close(read_fd)
            if write_fd >= 0:
                os.close(write_fd)
        self.display = f":{int(number.strip())}"
        # Wait until it really accepts clients.
        deadline = time.monotonic() + timeout
        while True:
            result = self.xdotool("getdisplaygeometry", check=False)
            if result.returncode == 0:
                return
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"Xvfb {self.display} never accepted connections: "
                                   f"{result.stderr.strip()} {self._stderr()}")
            time.sleep(POLL)

    def _stderr(self) -> str:
        try:
            return self.log_file.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            return ""

    def stop(self) -> None:
        _stop(self.proc)

    def xdotool(self, *args: str, check: bool = True,
                timeout: float = 10.0) -> subprocess.CompletedProcess[str]:
        result = subprocess.run([self.tools["xdotool"], *args], env=self.env(),
                                capture_output=True, text=True, timeout=timeout)
        if check and result.returncode != 0:
            raise RuntimeError(f"xdotool {' '.join(args)} failed ({result.returncode}): "
                               f"{result.stderr.strip()}")
        return result

    def screenshot(self, path: Path) -> Path:
        """The whole screen as a PNG."""
        subprocess.run([self.tools["import"], "-window", "root", str(path)], env=self.env(),
                       check=True, capture_output=True, timeout=20)
        return path


@dataclass
class Geometry:
    x: int
    y: int
    width: int
    height: int

    @property
    def scale(self) -> float:
        return min(self.width / DESIGN_W, self.height / DESIGN_H)

    def to_window(self, dx: float, dy: float) -> tuple[int, int]:
        """Window pixel of a design-space point (the app scales and centres its content)."""
        s = self.scale
        ox = (self.width - DESIGN_W * s) / 2
        oy = (self.height - DESIGN_H * s) / 2
        return round(ox + dx * s), round(oy + dy * s)

    def to_screen(self, dx: float, dy: float) -> tuple[int, int]:
        wx, wy = self.to_window(dx, dy)
        return self.x + wx, self.y + wy


class ArcadeApp:
    """``main.py`` running on an Xvfb display, with its dumped state."""

    def __init__(self, x: Xvfb, workdir: Path) -> None:
        self.x = x
        self.profile = workdir / "profile"
        self.dump_file = workdir / "state.json"
        self.log_file = workdir / "app.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.window = ""
        self.last_state: State | None = None

    # --- process ---------------------------------------------------------------
    def start(self) -> None:
        env = self.x.env()
        env["SDL_VIDEODRIVER"] = "x11"  # the test process itself runs with "dummy"
        env["SDL_AUDIODRIVER"] = "dummy"
        env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
        env.pop("ARCADE_PROFILE", None)
        with open(self.log_file, "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "main.py", "--profile", str(self.profile),
                 "--dump-state", str(self.dump_file)],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)

    def log(self) -> str:
        try:
            return self.log_file.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            return ""

    def _check_alive(self) -> None:
        assert self.proc is not None
        code = self.proc.poll()
        if code is not None:
            raise AssertionError(f"the app exited early with code {code}; its output:\n"
                                 f"{self.log()}")

    def stop(self) -> None:
        _stop(self.proc)

    def wait_exit(self, timeout: float = 10.0) -> int:
        assert self.proc is not None
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the app did not exit within {timeout} s; its output:\n"
                                 f"{self.log()}") from None

    # --- window ----------------------------------------------------------------
    def find_window(self, timeout: float = 20.0) -> str:
        """The app's top-level window id.

        Looked up by the app's pid (``_NET_WM_PID``) as well as by name, and
        confirmed by its title: the xdotool 3.20160805 shipped by Debian/Ubuntu
        cannot match SDL's UTF-8 ``WM_NAME`` with ``search --name`` (its
        ``--sync`` then waits forever), so the name search alone is not enough.
        """
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while True:
            self._check_alive()
            candidates: list[str] = []
            for query in (("--pid", str(self.proc.pid)), ("--name", f"^{TITLE}$")):
                result = self.x.xdotool("search", *query, check=False)
                for line in result.stdout.split():
                    if line not in candidates:
                        candidates.append(line)
            for wid in candidates:
                name = self.x.xdotool("getwindowname", wid, check=False)
                if name.returncode == 0 and name.stdout.strip() == TITLE:
                    self.window = wid
                    return wid
            if time.monotonic() > deadline:
                raise AssertionError(f"no window titled {TITLE!r} after {timeout} s; "
                                     f"app output:\n{self.log()}")
            time.sleep(0.1)

    def geometry(self) -> Geometry:
        out = self.x.xdotool("getwindowgeometry", "--shell", self.window).stdout
        values = dict(line.split("=", 1) for line in out.split() if "=" in line)
        return Geometry(int(values["X"]), int(values["Y"]), int(values["WIDTH"]),
                        int(values["HEIGHT"]))

    def move(self, dx: float, dy: float) -> None:
        """Move the pointer to a design-space point."""
        self._check_alive()
        sx, sy = self.geometry().to_screen(dx, dy)
        self.x.xdotool("mousemove", str(sx), str(sy))

    def click(self, dx: float, dy: float) -> None:
        """Move to a design-space point, then press and release the left button there."""
        self._check_alive()
        sx, sy = self.geometry().to_screen(dx, dy)
        self.x.xdotool("mousemove", str(sx), str(sy), "click", "1")

    def screenshot(self, path: Path) -> Path:
        """Just the window, as a PNG (the screen is grabbed, then cropped)."""
        import pygame

        full = self.x.screenshot(path.with_name(path.stem + "-screen.png"))
        g = self.geometry()
        image = pygame.image.load(str(full))
        pygame.image.save(image.subsurface((g.x, g.y, g.width, g.height)).copy(), str(path))
        return path

    # --- dumped state ------------------------------------------------------------
    def state(self) -> State | None:
        """The app's latest dumped state (written atomically), or None before the first."""
        try:
            return json.loads(self.dump_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def wait_for(self, what: str, predicate: Callable[[State], bool],
                 timeout: float = 10.0) -> State:
        """Poll the dump until ``predicate`` holds; fail with the last state otherwise."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            if state is not None:
                self.last_state = state
                if predicate(state):
                    return state
            self._check_alive()
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}; "
                                     f"last state: {json.dumps(self.last_state)}\n"
                                     f"app output:\n{self.log()}")
            time.sleep(POLL)


def top_scene(state: State) -> State:
    """The dumped summary of the scene on top of the stack."""
    return state["scenes"][-1] if state.get("scenes") else {}


@contextmanager
def running_app(workdir: Path) -> Iterator[ArcadeApp]:
    """Xvfb plus the app with its window found; both are always stopped afterwards."""
    tools = require_tools()
    x = Xvfb(tools, workdir / "xvfb.log")
    app = ArcadeApp(x, workdir)
    try:
        x.start()
        app.start()
        app.find_window()
        yield app
    finally:
        app.stop()
        x.stop()
