"""The application: window, main loop, scene stack, notices and global keys."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import warnings
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

import pygame

from engine.core.assets import take_problems
from engine.core.console import say
from engine.core.i18n import _, localize, set_language
from engine.core.memory import fix_mmap_threshold, limit_arenas, release_free_memory
from engine.storage.saved_games import SavedGames, journal_scene, release_scene, save_scene
from engine.storage.settings import SettingsStore
from engine.storage.stats import StatsStore
from engine.storage.stats_worker import StatsWorker
from engine.ui.audio import Audio
from engine.ui.theme import Theme
from engine.ui.toasts import Toasts, column_for
from engine.ui.viewport import MIN_WINDOW, Viewport

FPS = 60
# With nothing moving, wait for input this long per loop instead of redrawing.
IDLE_WAIT_MS = 250
#: The signals that quit as closing the window does (App.quit_on_signals).
QUIT_SIGNALS = ("SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM")
TITLE = "Arcade of Strategy"
# The window never grows past the largest screen: each resize allocates a surface of the
# whole window (8000×8000 is 256 MB and stalled the loop for half a minute). Where the
# screen reports less than this (a headless driver, a small laptop), this much is allowed.
WINDOW_CAP_FLOOR = (3840, 2160)
_RESIZE_EVENTS = (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED)


class Scene(Protocol):
    """What the app asks of a screen on its stack (engine.screens.scene.Scene is the base
    every screen builds on). A protocol, so the app needs no screen module: the screens
    depend on the app, never the other way round."""

    overlay: bool
    help_title: str
    help_text: str

    def enter(self) -> None: ...
    def leave(self) -> None: ...
    def resume(self) -> None: ...
    def covered(self) -> None: ...
    def uncovered(self) -> None: ...
    def handle_event(self, event: pygame.event.Event) -> None: ...
    def update(self, dt: float) -> None: ...
    def draw(self, surface: pygame.Surface) -> None: ...
    def is_active(self) -> bool: ...
    def toggle_help(self) -> None: ...
    def debug_state(self) -> dict[str, Any]: ...


def window_cap() -> tuple[int, int]:
    """The largest window size allowed: the largest screen, at least WINDOW_CAP_FLOOR."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        sizes = []
    return (max([WINDOW_CAP_FLOOR[0], *(w for w, _ in sizes)]),
            max([WINDOW_CAP_FLOOR[1], *(h for _, h in sizes)]))


class App:
    """Owns the window and the scene stack; ``run`` is the frame loop.

    Tests build an App under ``SDL_VIDEODRIVER=dummy`` and drive it with
    :meth:`step`, posting real pygame events in between.
    """

    def __init__(
        self, settings: SettingsStore, stats: StatsStore | StatsWorker, notices: Iterable[str] = (),
        window_size: tuple[int, int] | None = None, dump_state: Path | None = None,
    ) -> None:
        self.settings = settings
        # Every use of the statistics file runs on the worker's thread: another program
        # holding the file must never freeze a frame (engine/storage/stats_worker.py).
        self.stats = stats if isinstance(stats, StatsWorker) else StatsWorker(stats)
        stats = self.stats.store
        # The language first: everything drawn from here on speaks it (engine/core/i18n.py).
        set_language(str(settings.get("language")))
        # Only what we use (pygame.init() would start joystick and other subsystems too);
        # the audio device is opened once the first frame is on screen (see step).
        pygame.display.init()
        pygame.font.init()
        want = window_size or tuple(settings.get("window_size"))
        self.window_cap = window_cap()
        # Below the minimum, text could not be read; the window manager enforces it too.
        size = self._clamped(want)
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        # The size this run started with: only a size the player gives the window by
        # resizing it is remembered (not --window's, which is for one run, nor --smoke's).
        self._started_size = self.screen.get_size()
        # The window's surface when the frame is drawn off it (a window past the cap).
        self._shown_on: pygame.Surface | None = None
        self._limit_window()
        self.caption_game: str | None = None  # a one-family executable's game (its title)
        self.show_caption()
        self.audio = Audio(settings)
        self.theme = Theme(settings.get("palette"))
        self.scenes: list[Scene] = []
        # Games left in progress, kept in the profile (engine.storage.saved_games).
        self.game_saves = SavedGames.beside(stats, settings)
        self.game_saves.tidy()  # what a killed copy left half written
        self.running = True
        self._quit_asked = False  # a signal asked to quit (see quit_on_signals)
        self.frames = 0
        # Notices ("toasts"): info fades by itself, warnings wait to be dismissed.
        self.toasts = Toasts(lambda: bool(settings.get("reduce_motion")))
        self._release_taken = False  # the press dismissed a notice: so is its release
        # (text, scene) of the last key press that opened or closed a screen: see handle.
        # Weak: a dialog the key closed must not stay alive (with its caches) until the next
        # input; only its identity is compared.
        self._typed_by: tuple[str, weakref.ref[Scene]] | None = None
        self.dump_state = dump_state
        self._last_dump: str | None = None
        self._dirty = True
        # A search thread holds the GIL for up to the switch interval (5 ms by default)
        # each time the frame loop wants it back; 1 ms keeps frames on time while the
        # computer thinks, at a negligible cost to the search.
        sys.setswitchinterval(0.001)
        limit_arenas()  # before any computer player's thread (see engine/core/memory.py)
        fix_mmap_threshold()  # before any large search table (the same)
        for message in notices:
            self.notify(message, "warning")  # problems found opening the stores
        # The bundled fonts are checked before FreeType opens them (a damaged one would
        # crash pygame): opened now, so a damaged one is said at once.
        self.theme.font(16)
        self.theme.font(16, bold=True)
        self._shipped_problems()

    def _shipped_problems(self) -> None:
        """Show what was found wrong with shipped files (a damaged translation, font or
        opening book: engine.core.assets.report_problem), from any thread, once each."""
        for problem in take_problems():
            self.notify(localize(problem), "warning")

    def _clamped(self, size: Iterable[int]) -> tuple[int, int]:
        """``size`` within the minimum window and the cap."""
        w, h = size
        return (min(max(MIN_WINDOW[0], w), self.window_cap[0]),
                min(max(MIN_WINDOW[1], h), self.window_cap[1]))

    def _limit_window(self) -> None:
        """Give the window its minimum size and the cap as size hints for the window manager.

        Called once, after the one ``set_mode``: a resize never re-creates the window
        (see :meth:`_resized`), so the hints stay.
        """
        try:
            with warnings.catch_warnings():
                # pygame-ce warns about surface rendering through Window; we only set sizes.
                warnings.simplefilter("ignore", DeprecationWarning)
                window = pygame.Window.from_display_module()
                window.minimum_size = MIN_WINDOW
                window.maximum_size = self.window_cap
        except (pygame.error, AttributeError):
            pass  # a backend without windows (or an older SDL): the clamps still hold

    def _resized(self) -> None:
        """Take the window's new surface, never re-creating the window.

        ``set_mode`` here made a new OS window at every resize out of range (a new
        window id, its size hints lost) and, with a tiling window manager that keeps
        giving 600×400, an endless loop of re-creations. The size hints set once at the
        start ask the window manager to keep within range; one that does not is obeyed:
        below the minimum the screens lay out at the minimum and the view scales down
        (engine/ui/viewport.py); past the cap the frame is drawn on a cap-sized surface
        shown at the window's top-left (see :meth:`draw`), so no frame lays out or draws
        more than the cap (an 8000×8000 window once stalled the loop for half a minute).
        """
        window = pygame.display.get_surface() or self.screen
        w, h = window.get_size()
        cap_w, cap_h = self.window_cap
        if w > cap_w or h > cap_h:
            # Not a subsurface of the window: SDL reallocates the window's pixels at the
            # next resize, and a subsurface drawn before that event is handled would
            # write into freed memory (a segmentation fault in pygame-ce 2.5).
            window.fill((0, 0, 0))  # the part outside the cap stays black
            self.screen = pygame.Surface((min(w, cap_w), min(h, cap_h))).convert()
            self._shown_on = window
        else:
            self.screen = window
            self._shown_on = None

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
        """Put ``scene`` on top and enter it; the scene it covers hears ``covered()``."""
        if self.scenes:
            self.scenes[-1].covered()
        self.scenes.append(scene)
        scene.enter()
        self._dirty = True
        return scene

    def pop(self) -> Scene | None:
        """Leave and remove the top scene; the one beneath hears ``uncovered()`` and resumes."""
        if not self.scenes:
            return None
        scene = self.scenes.pop()
        save_scene(self, scene)  # a game left in progress is kept (Back, Esc, quit)
        scene.leave()
        if self.scenes:
            self.scenes[-1].uncovered()
            self.scenes[-1].resume()
        self._left(scene)
        return scene

    def replace(self, scene: Scene) -> Scene:
        """Swap the top scene for ``scene`` (the scene beneath stays covered: it hears
        neither ``uncovered()`` nor ``covered()``)."""
        if self.scenes:
            old = self.scenes.pop()
            save_scene(self, old)  # e.g. a game replaced by a new set-up
            old.leave()
            self._left(old)
        self.scenes.append(scene)
        scene.enter()
        self._dirty = True
        return scene

    def _left(self, scene: Scene) -> None:
        release_scene(self, scene)  # its game is free for another copy of the arcade
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
    def notify(self, message: str, level: str = "warning") -> None:
        """Show a notice (and print it on stderr).

        ``level`` "info" (something done: "Code copied") fades away by itself after a
        few seconds; "warning" (something failed or needs attention: a file that could
        not be saved) stays until clicked or dismissed with Esc. The same text again
        within a few seconds shows once. See :mod:`engine.ui.toasts`. A
        :class:`engine.core.phrase.Phrase` (the stores' notices) is shown in the player's
        language; stderr gets it in English, like the rest of the log.
        """
        if self.toasts.add(localize(message), level):
            say(f"arcade: {message}")  # never raises: stderr may be closed or full
        self._dirty = True

    @property
    def notices(self) -> list[str]:
        """The texts of the notices up now, oldest first (tests and --dump-state)."""
        return self.toasts.texts

    def save_settings(self) -> None:
        """Save settings; a failure becomes a warning notice, never a crash."""
        warning = self.settings.save()
        if warning:
            self.notify(warning, "warning")

    def set_palette(self, name: str) -> None:
        """Switch palette and remember it."""
        self.theme.set_palette(name)
        self.settings.set("palette", name)
        self.save_settings()

    def show_caption(self, game: str | None = None) -> None:
        """The window's caption: the brand, led by ``game`` (an N_-marked title, kept
        for later calls) in the player's language when the window is one game's."""
        if game is not None:
            self.caption_game = game
        if self.caption_game is None:
            pygame.display.set_caption(TITLE)
        else:
            pygame.display.set_caption(f"{_(self.caption_game)} · {TITLE}")

    def set_language(self, choice: str) -> None:
        """Speak ``choice`` ("system" or a language code) and remember it; the screens show
        it from the next frame (their widgets translate as they draw)."""
        set_language(choice)
        self.show_caption()
        self.settings.set("language", choice)
        self.save_settings()
        self._dirty = True

    def help(self) -> None:
        """Open (or, if open, close) the help for the screen on top."""
        if self.top is not None:
            self.top.toggle_help()

    # --- frame loop -----------------------------------------------------------
    def quit(self) -> None:
        """Leave every scene (cancelling AI work) and stop the loop."""
        if not self.running:
            return
        self.running = False
        while self.scenes:
            self.pop()
        size = self.screen.get_size()
        if size != self._started_size and size != tuple(self.settings.get("window_size")):
            try:
                self.settings.set("window_size", list(self.screen.get_size()))
                self.save_settings()
            except ValueError:
                pass  # a window size outside what settings accept is simply not remembered

    def quit_on_signals(self) -> Callable[[], None]:
        """Make HUP (the terminal closed), INT (Ctrl+C), QUIT (Ctrl+\\) and TERM quit as
        closing the window does: every scene leaves (its game saved), exit 0, no
        traceback. Returns what puts the earlier handlers back.

        The handler only asks (a QUIT event, and a flag the loop reads in case the event
        queue is full); the frame loop does the leaving, between two frames.
        """
        def asked(signum: int, frame: Any) -> None:
            self._quit_asked = True
            try:
                pygame.event.post(pygame.event.Event(pygame.QUIT))
            except pygame.error:
                pass  # the flag is enough

        earlier: dict[int, Any] = {}
        for name in QUIT_SIGNALS:
            number = getattr(signal, name, None)
            if number is None:
                continue  # (Windows has no HUP or QUIT)
            try:
                earlier[number] = signal.signal(number, asked)
            except (OSError, ValueError):
                pass  # not the main thread, or a signal this system will not let us catch

        def restore() -> None:
            for number, handler in earlier.items():
                try:
                    signal.signal(number, handler)
                except (OSError, ValueError, TypeError):
                    pass

        return restore

    def handle(self, event: pygame.event.Event) -> None:
        """Dispatch one event: quit, resize, notices, global keys, then the top scene."""
        self._dirty = True
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type in _RESIZE_EVENTS:
            # SDL resizes the display surface itself; take the current one so the
            # viewport (derived from its size each frame) follows.
            self._resized()
            return
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and event.button == 1:
            # A click on a notice dismisses it and goes no further, release included.
            taken, self._release_taken = self._release_taken, False
            if event.type == pygame.MOUSEBUTTONUP and taken:
                return
            toast = self.toasts.hit(event.pos) if event.type == pygame.MOUSEBUTTONDOWN else None
            if toast is not None:
                self.toasts.dismiss(toast)
                self._release_taken = True
                return
        if (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
                and self.toasts.dismiss_newest_warning()):
            return  # Esc first clears warnings; with none up it reaches the screen
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.help()
            return
        if event.type == pygame.TEXTINPUT:
            typed_by, self._typed_by = self._typed_by, None
            if (typed_by is not None and typed_by[0] == event.text
                    and typed_by[1]() is not self.top):
                # SDL follows a key press with the text it types. When that press opened a
                # screen (E: the code dialog), its letter is not the new screen's input.
                return
        elif event.type in (pygame.KEYDOWN, pygame.KEYUP, pygame.MOUSEBUTTONDOWN):
            self._typed_by = None
        top = self.top
        if top is not None:
            top.handle_event(event)
        typed = getattr(event, "unicode", "") if event.type == pygame.KEYDOWN else ""
        if typed and top is not None and self.top is not top:
            self._typed_by = (typed, weakref.ref(top))

    def step(self, events: Iterable[pygame.event.Event] | None = None, dt: float = 1 / FPS) -> None:
        """Run one frame: handle events (the queue by default), update, draw, flip."""
        batch = list(pygame.event.get() if events is None else events)
        self._shipped_problems()
        # A window dragged larger sends a storm of resizes: only the last one of a frame
        # counts (each one would take a new surface and lay every scene out again).
        resizes = [i for i, event in enumerate(batch) if event.type in _RESIZE_EVENTS]
        for i, event in enumerate(batch):
            if resizes and event.type in _RESIZE_EVENTS and i != resizes[-1]:
                continue
            self.handle(event)
            if not self.running:
                return
        if not self.scenes:
            self.running = False
            return
        for scene in list(self.scenes):
            scene.update(dt)
        for message in self.stats.notices():  # what the statistics worker has to say
            self.notify(message, "warning")
        # Every change to a game goes to its journal now (queued: the writer thread
        # appends and fsyncs), so a kill loses at most the move being made.
        for scene in self.scenes:
            journal_scene(self, scene)
        for warning in self.game_saves.journal_warnings():
            self.notify(warning, level="warning")
        self.toasts.update(dt)
        self.draw()
        pygame.display.flip()
        self.frames += 1
        self._write_dump()
        if self.frames == 1:
            # Open the audio device before the first effect (so that one is not late) but
            # after the first frame: probing a device takes ~0.1 s that start-up need not
            # wait for. With no device the game is silent and says nothing.
            self.audio.open()

    def draw(self) -> None:
        """Draw the top non-overlay scene and every overlay above it, then the notices."""
        start = len(self.scenes) - 1
        while start > 0 and self.scenes[start].overlay:
            start -= 1
        for scene in self.scenes[start:]:
            scene.draw(self.screen)
        if self.toasts.items:
            self.toasts.draw(self.screen, self.viewport, self.theme, self.notice_column())
        else:
            self.toasts.placed = []
        if self._shown_on is not None:
            self._shown_on.blit(self.screen, (0, 0))  # a window past the cap: see _resized
        self._dirty = False

    def notice_column(self) -> pygame.FRect:
        """Where notices go now (design units): off the toolbar and board of the game."""
        return column_for(self.scenes, self.viewport)

    def _needs_frame(self) -> bool:
        # A notice counting down needs frames to expire; a warning alone does not.
        return (self._dirty or self.toasts.active
                or any(scene.is_active() for scene in self.scenes))

    def run(self, max_frames: int | None = None) -> None:
        """The frame loop: 60 fps while anything moves, asleep on input otherwise.

        Frames are paced against absolute deadlines rather than "sleep 1/60 after
        each frame": a late wake-up (a search thread holding the GIL) shortens the
        next sleep instead of slowing the whole loop down.
        """
        period = 1 / FPS
        deadline = time.perf_counter()
        last = deadline
        while (self.running and not self._quit_asked
               and (max_frames is None or self.frames < max_frames)):
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
        try:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, self.dump_state)
        except OSError as exc:  # its folder went away meanwhile: a test's tool, not a game
            say(f"arcade: --dump-state: {exc.strerror or exc}")
            self.dump_state = None
