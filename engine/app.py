"""The application: window, main loop, scene stack, notices and global keys."""

from __future__ import annotations

import json
import os
import sys
import time
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pygame

from engine.audio import Audio
from engine.memory import limit_arenas, release_free_memory
from engine.scene import Scene
from engine.storage.settings import SettingsStore
from engine.storage.stats import StatsStore
from engine.theme import Theme
from engine.viewport import MIN_WINDOW, Viewport

FPS = 60
# With nothing moving, wait for input this long per loop instead of redrawing.
IDLE_WAIT_MS = 250
TITLE = "Arcade of Strategy"


class App:
    """Owns the window and the scene stack; ``run`` is the frame loop.

    Tests build an App under ``SDL_VIDEODRIVER=dummy`` and drive it with
    :meth:`step`, posting real pygame events in between.
    """

    def __init__(
        self, settings: SettingsStore, stats: StatsStore, notices: Iterable[str] = (),
        window_size: tuple[int, int] | None = None, dump_state: Path | None = None,
    ) -> None:
        self.settings = settings
        self.stats = stats
        # Only what we use: pygame.init() would also open audio, which we do not need.
        pygame.display.init()
        pygame.font.init()
        want = window_size or tuple(settings.get("window_size"))
        # Below the minimum, text could not be read; the window manager enforces it too.
        size = (max(MIN_WINDOW[0], want[0]), max(MIN_WINDOW[1], want[1]))
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        try:
            with warnings.catch_warnings():
                # pygame-ce warns about surface rendering through Window; we only set a size.
                warnings.simplefilter("ignore", DeprecationWarning)
                pygame.Window.from_display_module().minimum_size = MIN_WINDOW
        except (pygame.error, AttributeError):
            pass  # a backend without windows (or an older SDL): the clamp above still holds
        pygame.display.set_caption(TITLE)
        self.audio = Audio(settings)
        self.theme = Theme(settings.get("palette"))
        self.scenes: list[Scene] = []
        self.running = True
        self.frames = 0
        self.notices: list[str] = []
        self.dump_state = dump_state
        self._last_dump: str | None = None
        self._dirty = True
        # A search thread holds the GIL for up to the switch interval (5 ms by default)
        # each time the frame loop wants it back; 1 ms keeps frames on time while the
        # computer thinks, at a negligible cost to the search.
        sys.setswitchinterval(0.001)
        limit_arenas()  # before any computer player's thread (see engine/memory.py)
        for message in notices:
            self.notify(message)

    # --- scene stack ----------------------------------------------------------
    @property
    def top(self) -> Scene | None:
        """The scene receiving input."""
        return self.scenes[-1] if self.scenes else None

    @property
    def viewport(self) -> Viewport:
        """Design-space mapping for the current window size."""
        return Viewport.fit(self.screen.get_size())

    def push(self, scene: Scene) -> Scene:
        """Put ``scene`` on top and enter it."""
        self.scenes.append(scene)
        scene.enter()
        self._dirty = True
        return scene

    def pop(self) -> Scene | None:
        """Leave and remove the top scene; the one beneath resumes."""
        if not self.scenes:
            return None
        scene = self.scenes.pop()
        scene.leave()
        if self.scenes:
            self.scenes[-1].resume()
        self._left(scene)
        return scene

    def replace(self, scene: Scene) -> Scene:
        """Swap the top scene for ``scene``."""
        if self.scenes:
            old = self.scenes.pop()
            old.leave()
            self._left(old)
        return self.push(scene)

    def _left(self, scene: Scene) -> None:
        if not scene.overlay:
            # Leaving a game frees its boards, tables and search memory; hand it back
            # so a long session does not sit at the high-water mark of every game.
            release_free_memory()
        self._dirty = True

    def pop_to(self, scene_type: type) -> None:
        """Pop scenes until one of ``scene_type`` is on top (or the stack is empty)."""
        while self.scenes and not isinstance(self.scenes[-1], scene_type):
            self.pop()

    # --- notices --------------------------------------------------------------
    def notify(self, message: str) -> None:
        """Show a message in the banner (and on stderr); clicked away by the player."""
        print(f"arcade: {message}", file=sys.stderr)
        self.notices.append(message)
        self._dirty = True

    def save_settings(self) -> None:
        """Save settings; a failure becomes a banner notice, never a crash."""
        warning = self.settings.save()
        if warning:
            self.notify(warning)

    def set_palette(self, name: str) -> None:
        """Switch palette and remember it."""
        self.theme.set_palette(name)
        self.settings.set("palette", name)
        self.save_settings()

    def help(self) -> None:
        """Open (or, if open, close) the help for the screen on top."""
        from engine.overlays import HelpOverlay

        top = self.top
        if top is None:
            return
        if isinstance(top, HelpOverlay):
            self.pop()
            return
        self.push(HelpOverlay(self, top.help_title, top.help_text))

    # --- frame loop -----------------------------------------------------------
    def quit(self) -> None:
        """Leave every scene (cancelling AI work) and stop the loop."""
        if not self.running:
            return
        self.running = False
        while self.scenes:
            self.pop()
        if self.screen.get_size() != tuple(self.settings.get("window_size")):
            try:
                self.settings.set("window_size", list(self.screen.get_size()))
                self.save_settings()
            except ValueError:
                pass  # a window size outside what settings accept is simply not remembered

    def handle(self, event: pygame.event.Event) -> None:
        """Dispatch one event: quit, resize, banner, global keys, then the top scene."""
        self._dirty = True
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            # SDL resizes the display surface itself; take the current one so the
            # viewport (derived from its size each frame) follows.
            self.screen = pygame.display.get_surface() or self.screen
            return
        if self.notices and event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self._banner_rect().collidepoint(event.pos):
                self.notices.pop(0)
                return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.help()
            return
        if self.top is not None:
            self.top.handle_event(event)

    def step(self, events: Iterable[pygame.event.Event] | None = None, dt: float = 1 / FPS) -> None:
        """Run one frame: handle events (the queue by default), update, draw, flip."""
        for event in pygame.event.get() if events is None else events:
            self.handle(event)
            if not self.running:
                return
        if not self.scenes:
            self.running = False
            return
        for scene in list(self.scenes):
            scene.update(dt)
        self.draw()
        pygame.display.flip()
        self.frames += 1
        self._write_dump()

    def draw(self) -> None:
        """Draw the top non-overlay scene and every overlay above it, then the banner."""
        start = len(self.scenes) - 1
        while start > 0 and self.scenes[start].overlay:
            start -= 1
        for scene in self.scenes[start:]:
            scene.draw(self.screen)
        self._draw_banner()
        self._dirty = False

    def _needs_frame(self) -> bool:
        return self._dirty or any(scene.is_active() for scene in self.scenes)

    def run(self, max_frames: int | None = None) -> None:
        """The frame loop: 60 fps while anything moves, asleep on input otherwise.

        Frames are paced against absolute deadlines rather than "sleep 1/60 after
        each frame": a late wake-up (a search thread holding the GIL) shortens the
        next sleep instead of slowing the whole loop down.
        """
        period = 1 / FPS
        deadline = time.perf_counter()
        last = deadline
        while self.running and (max_frames is None or self.frames < max_frames):
            if self._needs_frame():
                events = pygame.event.get()
            else:
                # Nothing moves: block until input arrives (or a short timeout, so
                # background notices still get drawn), instead of spinning.
                first = pygame.event.wait(IDLE_WAIT_MS)
                events = ([] if first.type == pygame.NOEVENT else [first]) + pygame.event.get()
                if not events:
                    continue
                deadline = time.perf_counter()
            now = time.perf_counter()
            self.step(events, min(0.1, now - last) or period)
            last = now
            deadline += period
            delay = deadline - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            else:
                deadline = time.perf_counter()  # fell behind: do not race to catch up
        self.quit()

    # --- banner -------------------------------------------------------------
    def _banner_rect(self) -> pygame.Rect:
        w, _h = self.screen.get_size()
        font = self.theme.font(15 * self.viewport.scale)
        return pygame.Rect(0, 0, w, font.get_linesize() * 2 + 12)

    def _draw_banner(self) -> None:
        if not self.notices:
            return
        p = self.theme.palette
        rect = self._banner_rect()
        pygame.draw.rect(self.screen, p.panel, rect)
        pygame.draw.line(self.screen, p.bad, rect.bottomleft, rect.bottomright, 3)
        font = self.theme.font(15 * self.viewport.scale)
        more = f" (+{len(self.notices) - 1} more)" if len(self.notices) > 1 else ""
        text = f"⚠ {self.notices[0]}{more}"
        hint = font.render("click this bar to dismiss", True, p.muted)
        from engine.widgets import wrap_text

        lines = wrap_text(text, font, rect.width - hint.get_width() - 24)[:2]
        for i, line in enumerate(lines):
            self.screen.blit(font.render(line, True, p.text), (8, 6 + i * font.get_linesize()))
        self.screen.blit(hint, (rect.right - hint.get_width() - 8, 6))

    # --- test support -------------------------------------------------------------
    def debug_state(self) -> dict[str, Any]:
        """The stack's summaries, for tests."""
        return {"scenes": [scene.debug_state() for scene in self.scenes],
                "notices": list(self.notices), "size": list(self.screen.get_size())}

    def _write_dump(self) -> None:
        if self.dump_state is None:
            return
        text = json.dumps(self.debug_state(), sort_keys=True)
        if text == self._last_dump:
            return
        self._last_dump = text
        tmp = self.dump_state.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, self.dump_state)
