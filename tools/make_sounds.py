"""Synthesise the game's sound effects into ``assets/sounds/<name>.wav``.

Run from the repository root after changing an effect here::

    python tools/make_sounds.py            # write assets/sounds/*.wav
    python tools/make_sounds.py --check    # exit 1 if the files differ from this script

Every effect is made from sine partials, pitch glides and filtered noise with
numpy, so the sounds are the project's own work (no recordings of unknown
licence). The output is deterministic: the noise comes from a counter-based
hash rather than a random generator, and the WAV header (stdlib ``wave``)
holds no date, so running the script again gives byte-identical files.

The game itself only loads the WAV files (through ``engine.core.assets``), so
neither this script nor numpy is needed at run time.

Format: 16-bit mono PCM at 44.1 kHz; 0.05 to 0.8 s long; raised-cosine fades
at both ends (no clicks); peaks at most half of full scale, so several effects
mixed together at full volume still do not clip.
"""

from __future__ import annotations

import argparse
import sys
import wave
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

RATE = 44100
# The loudest effect peaks at this fraction of full scale; the others are scaled below it
# by ear (noise and bright tones sound louder than a low thud at the same peak).
PEAK = 0.5
OUT_DIR = Path(__file__).resolve().parent.parent / "assets" / "sounds"

Signal = np.ndarray

# --- building blocks -----------------------------------------------------------------------


def _time(duration: float) -> Signal:
    """Sample times (seconds) of a sound ``duration`` seconds long."""
    return np.arange(round(duration * RATE)) / RATE


def _fade(signal: Signal, attack: float, release: float) -> Signal:
    """``signal`` with raised-cosine ramps: from 0 over ``attack`` s, to 0 over ``release`` s.

    Both ends land exactly on zero, so a sound never starts or stops with a click.
    """
    out = signal.copy()
    n_in = max(2, round(attack * RATE))
    n_out = max(2, round(release * RATE))
    out[:n_in] *= 0.5 - 0.5 * np.cos(np.pi * np.arange(n_in) / (n_in - 1))
    out[-n_out:] *= 0.5 + 0.5 * np.cos(np.pi * np.arange(n_out) / (n_out - 1))
    return out


def _glide(freq: Signal, partials: Sequence[tuple[float, float]] = ((1.0, 1.0),)) -> Signal:
    """Partials ``(multiple, amplitude)`` of a tone whose pitch follows ``freq`` (Hz per sample).

    The phase is the running sum of the frequency, so a glide has no jumps.
    """
    phase = 2 * np.pi * np.cumsum(freq) / RATE
    return sum(amp * np.sin(mult * phase) for mult, amp in partials)


def _note(freq: float, duration: float, decay: float,
          partials: Sequence[tuple[float, float, float]] = ((1.0, 1.0, 0.0),)) -> Signal:
    """A struck note: partials ``(multiple, amplitude, extra decay)`` dying away exponentially.

    Higher partials are given a faster decay, as in a plucked string or a bell, so the
    attack is bright and the tail mellow.
    """
    t = _time(duration)
    # Partials above 12 kHz are left out: they only add hiss (and near 22 kHz, aliasing).
    out = sum(amp * np.exp(-t * (decay + extra)) * np.sin(2 * np.pi * freq * mult * t)
              for mult, amp, extra in partials if freq * mult <= 12000.0)
    return _fade(out, 0.002, min(0.03, duration / 3))


def _noise(count: int, seed: int) -> Signal:
    """White noise in [-1, 1): splitmix64 of the sample index, the same on every run."""
    with np.errstate(over="ignore"):
        x = (np.arange(count, dtype=np.uint64) + np.uint64(seed)) * np.uint64(0x9E3779B97F4A7C15)
        x ^= x >> np.uint64(30)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(27)
        x *= np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
    return (x >> np.uint64(11)).astype(np.float64) / float(1 << 52) - 1.0


def _band(signal: Signal, centre: float, octaves: float) -> Signal:
    """``signal`` band-passed around ``centre`` Hz (a Gaussian ``octaves`` wide, in log pitch)."""
    spectrum = np.fft.rfft(signal)
    freqs = np.fft.rfftfreq(len(signal), 1 / RATE)
    mask = np.zeros_like(freqs)
    audible = freqs > 0
    mask[audible] = np.exp(-0.5 * (np.log2(freqs[audible] / centre) / octaves) ** 2)
    return np.fft.irfft(spectrum * mask, len(signal))


def _mix(length: float, *parts: tuple[float, Signal]) -> Signal:
    """Sounds ``(start time, samples)`` added into one ``length`` seconds long."""
    out = np.zeros(round(length * RATE))
    for start, samples in parts:
        i = round(start * RATE)
        n = min(len(samples), len(out) - i)
        out[i:i + n] += samples[:n]
    return out


def _normalise(signal: Signal, gain: float) -> Signal:
    """Scale so the peak is ``gain`` × :data:`PEAK` of full scale."""
    return signal * (gain * PEAK / np.max(np.abs(signal)))


# Equal-tempered pitches used below (Hz).
C4, E_FLAT4, G4, B4 = 261.63, 311.13, 392.00, 493.88
C5, E5, G5, B5 = 523.25, 659.26, 783.99, 987.77
C6, E6, G6, C7 = 1046.50, 1318.51, 1567.98, 2093.00

# A plucked string: strong fundamental, a few quickly fading overtones.
PLUCK = ((1.0, 1.0, 0.0), (2.0, 0.35, 8.0), (3.0, 0.12, 16.0), (4.0, 0.05, 24.0))
# A bell: inharmonic partials (the classic 1 : 2.76 : 5.40 : 8.93 of a struck bar).
BELL = ((1.0, 1.0, 0.0), (2.76, 0.4, 4.0), (5.40, 0.18, 9.0), (8.93, 0.07, 16.0))
# A mellow, rounder note for the sad figure.
SOFT = ((1.0, 1.0, 0.0), (2.0, 0.18, 6.0), (3.0, 0.05, 12.0))

# --- the effects ---------------------------------------------------------------------------


def place() -> Signal:
    """A soft pluck: a mark put down."""
    body = _note(130.0, 0.08, 45.0) * 0.25  # a little knock of wood under the note
    return _normalise(_mix(0.2, (0.0, _note(G5, 0.2, 22.0, PLUCK)), (0.0, body)), 0.8)


def drop() -> Signal:
    """A thud with a falling pitch: a disc landing."""
    t = _time(0.3)
    pitch = 65.0 + 175.0 * np.exp(-t * 16.0)  # 240 Hz sliding down towards 65 Hz
    thud = _glide(pitch, ((1.0, 1.0), (2.0, 0.3), (3.0, 0.08))) * np.exp(-t * 11.0)
    knock = _band(_noise(len(t), 11), 500.0, 0.8) * np.exp(-t * 90.0)
    knock *= 0.6 / np.max(np.abs(knock))
    return _normalise(_fade(thud + knock, 0.002, 0.05), 1.0)


def slide() -> Signal:
    """A soft swish: a token pushed along, its hiss rising a little in pitch."""
    t = _time(0.28)
    noise = _noise(len(t), 23)
    low, high = _band(noise, 900.0, 0.45), _band(noise, 2600.0, 0.45)
    blend = t / t[-1]  # from the lower band to the higher one
    swish = (low * (1 - blend) + high * blend) * np.sin(np.pi * blend) ** 2
    return _normalise(_fade(swish, 0.01, 0.03), 0.55)


def take() -> Signal:
    """A pop: a pebble lifted off, a quick upward blip."""
    t = _time(0.1)
    pitch = 300.0 + 800.0 * (1 - np.exp(-t * 60.0))
    pop = _glide(pitch, ((1.0, 1.0), (2.0, 0.2))) * np.exp(-t * 40.0)
    return _normalise(_fade(pop, 0.001, 0.02), 0.8)


def flip() -> Signal:
    """A click-blip: a light switched."""
    t = _time(0.06)
    tone = _glide(np.full(len(t), 1400.0), ((1.0, 1.0), (3.0, 0.25))) * np.exp(-t * 70.0)
    tick = _band(_noise(len(t), 37), 4500.0, 0.5) * np.exp(-t * 600.0)
    tick *= 0.5 / np.max(np.abs(tick))
    return _normalise(_fade(tone + tick, 0.001, 0.015), 0.6)


def illegal() -> Signal:
    """A low, dull buzz: that move is not allowed."""
    t = _time(0.2)
    # Two slightly detuned low tones beat against each other; odd overtones make it buzz,
    # and they fall off quickly so it stays dull rather than harsh.
    buzz = sum(_glide(np.full(len(t), f), ((1.0, 1.0), (3.0, 0.3), (5.0, 0.12), (7.0, 0.05)))
               for f in (98.0, 103.8))
    return _normalise(_fade(buzz, 0.01, 0.07), 0.55)


def win() -> Signal:
    """A rising major arpeggio: C E G C'."""
    notes = [(0.0, C5, 0.45), (0.09, E5, 0.45), (0.18, G5, 0.45), (0.27, C6, 0.48)]
    parts = [(start, _note(f, length, 5.0, PLUCK)) for start, f, length in notes]
    return _normalise(_fade(_mix(0.75, *parts), 0.002, 0.12), 0.85)


def loss() -> Signal:
    """A falling minor figure: G Eb C, slower and softer."""
    notes = [(0.0, G4, 0.4), (0.17, E_FLAT4, 0.4), (0.34, C4, 0.44)]
    parts = [(start, _note(f, length, 4.0, SOFT)) for start, f, length in notes]
    return _normalise(_fade(_mix(0.78, *parts), 0.002, 0.15), 0.85)


def draw() -> Signal:
    """Two neutral tones of the same pitch: neither up nor down."""
    tone = _note(B4, 0.2, 9.0, SOFT)
    return _normalise(_mix(0.42, (0.0, tone), (0.2, tone)), 0.7)


def solved() -> Signal:
    """A bright chime arpeggio: C E G C' on bells, quicker than a win."""
    notes = [(0.0, C6), (0.07, E6), (0.14, G6), (0.21, C7)]
    parts = [(start, _note(f, 0.55, 5.0, BELL)) for start, f in notes]
    return _normalise(_fade(_mix(0.78, *parts), 0.002, 0.15), 0.75)


def computer() -> Signal:
    """A soft two-note blip (E then B): the computer has moved."""
    first, second = _note(E5, 0.08, 30.0), _note(B5, 0.09, 30.0)
    return _normalise(_mix(0.18, (0.0, first), (0.085, second)), 0.6)


# The names must be engine.ui.audio.SOUNDS (tests/engine/ui/test_audio.py checks it).
EFFECTS: dict[str, Callable[[], Signal]] = {
    "place": place, "drop": drop, "slide": slide, "take": take, "flip": flip,
    "illegal": illegal, "win": win, "loss": loss, "draw": draw, "solved": solved,
    "computer": computer,
}

# --- output --------------------------------------------------------------------------------


def samples(name: str) -> np.ndarray:
    """Effect ``name`` as 16-bit samples (little-endian int16)."""
    signal = EFFECTS[name]()
    return np.round(signal * 32767).astype("<i2")


def wav_bytes(name: str) -> bytes:
    """The complete WAV file of effect ``name``."""
    import io

    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(samples(name).tobytes())
    return buffer.getvalue()


def write_all(folder: Path = OUT_DIR) -> list[Path]:
    """Write every effect into ``folder``; return the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in EFFECTS:
        path = folder / f"{name}.wav"
        path.write_bytes(wav_bytes(name))
        written.append(path)
    return written


def stale(folder: Path = OUT_DIR) -> list[str]:
    """Names whose file in ``folder`` is missing or differs from what this script makes."""
    return [name for name in EFFECTS
            if not (folder / f"{name}.wav").is_file()
            or (folder / f"{name}.wav").read_bytes() != wav_bytes(name)]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write the effects, or with ``--check`` compare them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="folder (default: %(default)s)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a file is missing or out of date")
    args = parser.parse_args(argv)
    if args.check:
        names = stale(args.out)
        if names:
            print(f"make_sounds: out of date: {', '.join(names)}", file=sys.stderr)
            return 1
        print(f"make_sounds: {len(EFFECTS)} effects up to date in {args.out}")
        return 0
    for path in write_all(args.out):
        print(f"make_sounds: wrote {path} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
