"""Sound effects: short WAV files from ``assets/sounds/``, played through pygame's mixer.

The effects are synthesised by ``tools/make_sounds.py`` (numpy; no recordings of
unknown licence) and bundled like every other asset, found through
:func:`engine.core.assets.asset_path`, so a build that loses them fails ``--smoke``.
Nothing here needs numpy.

Scenes call ``app.audio.play(name)`` with one of :data:`SOUNDS`. Every call is
recorded in :attr:`Audio.played`, even when muted: tests read it to see which
effect a move asked for. :attr:`Audio.sounded` records the calls that really
reached the mixer (sound on, volume above 0, a device, the file loaded).

Never an error for the player: with no audio device (or a mixer that will not
open) the game is silent for the session, without a notice; a missing or
damaged file silences that one effect. :meth:`Audio.problems` reports both
kinds of file trouble for ``--smoke``.
"""

from __future__ import annotations

import contextlib
import os
import sys
import wave
from array import array
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pygame

from engine.core.assets import asset_path, shipped_problem
from engine.model.sound_names import SOUNDS

RATE = 44100
# Samples per mixing buffer: about 12 ms at 44.1 kHz, so a click and its sound feel
# simultaneous (the usual 4096 would lag by a tenth of a second).
BUFFER = 512
# A file whose loudest sample is below this fraction of full scale counts as silent.
SILENT_PEAK = 0.01
# What the settings default to when the Audio has no settings (unit tests).
_DEFAULTS = {"sound": True, "volume": 70}


def sound_path(name: str) -> Path:
    """The file of effect ``name``; FileNotFoundError naming it if missing."""
    return asset_path("sounds", f"{name}.wav")


def file_peak(path: Path) -> float:
    """The loudest sample of a 16-bit PCM WAV file, as a fraction of full scale.

    Raises OSError, EOFError or wave.Error for a file that is not such a WAV file.
    Uses only the standard library, so ``--smoke`` can check a bundle without numpy.
    """
    with wave.open(str(path), "rb") as source:
        if source.getsampwidth() != 2 or source.getcomptype() != "NONE":
            raise wave.Error("not 16-bit PCM")
        data = source.readframes(source.getnframes())
    samples = array("h")
    samples.frombytes(data[:len(data) // 2 * 2])
    if sys.byteorder == "big":
        samples.byteswap()  # WAV data is little-endian
    if not samples:
        return 0.0
    return max(max(samples), -min(samples)) / 32768


@contextlib.contextmanager
def _quiet_c_stderr() -> Iterator[None]:
    """Send what C libraries write to file descriptor 2 to nowhere while inside.

    SDL probes its audio drivers in turn when the mixer opens, and on a machine
    without a sound device ALSA (and PulseAudio's client) print a block of
    "ALSA lib ... Unknown PCM default" lines straight to the process's stderr: a
    player who started the game from a terminal would think something broke. A
    missing device is not an error for us (the game is silent), so that text is
    dropped. Python's own ``sys.stderr`` is flushed first so nothing of ours is lost;
    where descriptor 2 cannot be duplicated (no console), nothing is redirected.
    """
    try:
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):
        pass
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "wb") as sink:
            os.dup2(sink.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _open_mixer() -> bool:
    """Open pygame's mixer (or find it open); False when there is no usable device.

    Opening is done with C-level stderr silenced (see :func:`_quiet_c_stderr`):
    the drivers' complaints while probing for a device are not the player's business.
    """
    try:
        if pygame.mixer.get_init() is None:
            pygame.mixer.pre_init(RATE, -16, 2, BUFFER)
            with _quiet_c_stderr():
                pygame.mixer.init(RATE, -16, 2, BUFFER)
        return pygame.mixer.get_init() is not None
    except (pygame.error, NotImplementedError, ImportError, OSError):
        # No device, no driver, or a pygame built without SDL_mixer: play silently.
        return False


class Audio:
    """Plays named effects at the settings' volume; silent when off or without a device.

    ``settings`` is read at every call (``"sound"`` on/off, ``"volume"`` 0..100), so a
    change made in the settings screen applies to the very next effect.
    """

    def __init__(self, settings: Any = None) -> None:
        self.settings = settings
        # The latest effects a scene asked for (muted or not), and those handed to the
        # mixer; for tests and --smoke. Only the most recent are kept, so a long session
        # does not grow them without bound.
        self.played: list[str] = []
        self.sounded: list[str] = []
        self.failures: dict[str, str] = {}  # effect -> why its file could not be loaded
        self._mixer: bool | None = None  # None: not tried yet; False: silent for the session
        self._sounds: dict[str, pygame.mixer.Sound | None] = {}

    # --- settings ------------------------------------------------------------------------
    def _setting(self, key: str) -> Any:
        if self.settings is None:
            return _DEFAULTS[key]
        try:
            return self.settings.get(key)
        except KeyError:
            return _DEFAULTS[key]

    @property
    def enabled(self) -> bool:
        """Whether sound is switched on in the settings."""
        return bool(self._setting("sound"))

    @property
    def volume(self) -> float:
        """The effects' volume, 0.0 to 1.0 (the setting is in percent)."""
        return max(0, min(100, int(self._setting("volume")))) / 100

    # --- device ---------------------------------------------------------------------------
    def open(self) -> bool:
        """Open the device now if sound is on, so the first effect is not late.

        Returns whether effects can be heard. With sound off nothing is opened; the
        first effect after switching it on opens the device then.
        """
        if not self.enabled:
            return False
        return self.available

    @property
    def available(self) -> bool:
        """Whether a mixer is open (it is opened on first use; a failure is final)."""
        if self._mixer is None:
            self._mixer = _open_mixer()
            if self._mixer:
                for name in SOUNDS:  # all at once: a first win must not wait for its file
                    self.sound(name)
        return self._mixer

    def sound(self, name: str) -> pygame.mixer.Sound | None:
        """The loaded effect ``name`` (None: no mixer, or its file is missing or damaged)."""
        if name in self._sounds:
            return self._sounds[name]
        if not self.available:
            return None
        try:
            path = sound_path(name)
            # A changed file is not handed to SDL's decoder (hostile data in a C parser).
            changed = shipped_problem(path)
            if changed is not None:
                raise OSError(str(changed))
            loaded: pygame.mixer.Sound | None = pygame.mixer.Sound(str(path))
        except (FileNotFoundError, pygame.error, OSError) as exc:
            # That effect stays silent; problems() (and so --smoke) says why.
            self.failures[name] = str(exc) or type(exc).__name__
            loaded = None
        self._sounds[name] = loaded
        return loaded

    # --- playing ----------------------------------------------------------------------------
    def play(self, name: str) -> None:
        """Play effect ``name`` (one of SOUNDS); raises ValueError for any other name.

        The request is recorded in :attr:`played` whatever happens. Nothing is heard
        when sound is off or the volume is 0, without a device, or when the effect's
        file could not be loaded; otherwise it is recorded in :attr:`sounded` too.
        """
        if name not in SOUNDS:
            raise ValueError(f"unknown sound {name!r}")
        _remember(self.played, name)
        volume = self.volume
        if not self.enabled or volume <= 0:
            return
        sound = self.sound(name)
        if sound is None:
            return
        try:
            sound.set_volume(volume)
            sound.play()
        except pygame.error:
            # The mixer was closed under us (pygame.quit): silent from now on.
            self._mixer = False
            self._sounds.clear()
            return
        _remember(self.sounded, name)

    def stop(self) -> None:
        """Silence every effect still playing (used when sound is switched off)."""
        if self._mixer:
            try:
                pygame.mixer.stop()
            except pygame.error:
                self._mixer = False

    # --- checks ----------------------------------------------------------------------------
    def problems(self, names: Iterable[str] = SOUNDS) -> list[str]:
        """What is wrong with effects ``names``, one message each; empty when all is well.

        Checks that each name is known and that its file exists, is a 16-bit PCM WAV
        and is not silent; when a mixer is open, also that the mixer loaded it and
        that the loaded samples are not silent. A missing device is not a problem.
        """
        found: list[str] = []
        for name in names:
            if name not in SOUNDS:
                found.append(f"unknown sound {name!r}")
                continue
            try:
                peak = file_peak(sound_path(name))
            except FileNotFoundError as exc:
                found.append(f"sound {name!r}: {exc}")
                continue
            except (OSError, EOFError, wave.Error) as exc:
                found.append(f"sound {name!r} could not be read ({exc or type(exc).__name__})")
                continue
            if peak < SILENT_PEAK:
                found.append(f"sound {name!r} is silent")
                continue
            if not self.available:
                continue
            sound = self.sound(name)
            if sound is None:
                found.append(f"sound {name!r} could not be loaded ({self.failures.get(name)})")
            elif _loaded_peak(sound) < SILENT_PEAK:
                found.append(f"sound {name!r} is silent once loaded")
        return found


# How many recent effect names Audio keeps in ``played`` / ``sounded``.
RECENT_MAX = 512


def _remember(names: list[str], name: str) -> None:
    """Append ``name``, dropping the older half once the list passes RECENT_MAX."""
    names.append(name)
    if len(names) > RECENT_MAX:
        del names[:RECENT_MAX // 2]


def _loaded_peak(sound: pygame.mixer.Sound) -> float:
    """The loudest sample of a loaded effect (1.0 when the mixer's format is not 16-bit)."""
    init = pygame.mixer.get_init()
    if init is None or init[1] != -16:
        return 1.0  # another sample format: nothing simple to measure, assume audible
    samples = array("h")
    raw = sound.get_raw()
    samples.frombytes(raw[:len(raw) // 2 * 2])
    if not samples:
        return 0.0
    return max(max(samples), -min(samples)) / 32768
