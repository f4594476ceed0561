"""Sound effects: the generated files, the Audio player, --smoke's check and real mixing.

The strongest test here runs the real tic-tac-toe scene in a child process under
SDL's ``disk`` audio driver, which writes every mixed sample to a file: a game
won with real clicks must leave sound there, muted it must leave none, and the
volume setting must scale it.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import shutil
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pygame
import pytest

import engine.core.assets
from engine.model.registry import find_game
from engine.model.seats import Seat
from engine.storage.settings import SettingsStore
from engine.ui.audio import SOUNDS, Audio, file_peak

ROOT = Path(__file__).resolve().parents[3]
SOUND_DIR = ROOT / "assets" / "sounds"
RATE = 44100


def _generator():
    spec = importlib.util.spec_from_file_location("make_sounds", ROOT / "tools" / "make_sounds.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


make_sounds = _generator()


def read_wav(path: Path) -> np.ndarray:
    """Samples of a mono 16-bit 44.1 kHz WAV file, as fractions of full scale."""
    with wave.open(str(path), "rb") as source:
        assert (source.getnchannels(), source.getsampwidth(), source.getframerate()) == (1, 2,
                                                                                         RATE)
        data = source.readframes(source.getnframes())
    return np.frombuffer(data, "<i2").astype(np.float64) / 32768


def features(samples: np.ndarray) -> np.ndarray:
    """A unit vector of the effect's energy per half-octave band per 20 ms, over 0.8 s:
    two effects that sound alike (same pitch region, same rhythm) point the same way."""
    length = round(0.8 * RATE)
    padded = np.pad(samples, (0, max(0, length - len(samples))))[:length]
    hop = RATE // 50
    frames = padded[:length // hop * hop].reshape(-1, hop) * np.hanning(hop)
    power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    freqs = np.fft.rfftfreq(hop, 1 / RATE)
    edges = 50 * 2 ** (np.arange(19) / 2)
    bands = np.stack([power[:, (freqs >= lo) & (freqs < hi)].sum(axis=1)
                      for lo, hi in itertools.pairwise(edges)], axis=1)
    vector = np.sqrt(bands).ravel()
    return vector / np.linalg.norm(vector)


# --- the effects as shipped ------------------------------------------------------------------


def test_every_effect_has_a_generator_and_a_file() -> None:
    assert list(make_sounds.EFFECTS) == list(SOUNDS)
    assert sorted(p.stem for p in SOUND_DIR.glob("*.wav")) == sorted(SOUNDS)


@pytest.mark.parametrize("name", SOUNDS)
def test_effect_is_short_audible_unclipped_and_fades_at_both_ends(name: str) -> None:
    samples = read_wav(SOUND_DIR / f"{name}.wav")
    seconds = len(samples) / RATE
    assert 0.05 <= seconds <= 0.8, seconds
    peak = np.max(np.abs(samples))
    assert 0.2 <= peak <= 0.55, f"peak {peak:.2f} of full scale"  # well below clipping
    assert np.sqrt(np.mean(samples ** 2)) >= 0.03  # not a near-silent file
    # No click: both ends are exactly 0, the sound ramps up over its first samples (a
    # quarter of a millisecond) and its last millisecond has died away.
    assert samples[0] == 0 and samples[-1] == 0
    assert np.max(np.abs(samples[:RATE // 4000])) < 0.05
    assert np.max(np.abs(samples[-(RATE // 1000):])) < 0.02
    assert file_peak(SOUND_DIR / f"{name}.wav") == pytest.approx(peak, abs=1e-4)


def test_effects_are_distinct_from_each_other() -> None:
    vectors = {name: features(read_wav(SOUND_DIR / f"{name}.wav")) for name in SOUNDS}
    for a, b in itertools.combinations(SOUNDS, 2):
        similarity = float(vectors[a] @ vectors[b])
        assert similarity < 0.85, f"{a} and {b} sound alike ({similarity:.2f})"
    # The comparison itself can tell: an effect against a copy of itself at another level.
    same = features(read_wav(SOUND_DIR / "win.wav") * 0.5)
    assert float(vectors["win"] @ same) > 0.99


@pytest.mark.slow
def test_generator_is_deterministic_and_the_files_are_its_output(tmp_path: Path) -> None:
    first = make_sounds.write_all(tmp_path / "a")
    second = make_sounds.write_all(tmp_path / "b")
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    # The committed files are what the script makes (to the last bit on this machine;
    # one step of rounding is allowed for another platform's sine).
    for path in first:
        shipped = SOUND_DIR / path.name
        made, kept = read_wav(path), read_wav(shipped)
        assert len(made) == len(kept), path.name
        assert np.max(np.abs(made - kept)) <= 1 / 32768, f"{path.name}: run tools/make_sounds.py"
    assert make_sounds.main(["--check", "--out", str(tmp_path / "a")]) == 0
    (tmp_path / "a" / "win.wav").write_bytes(b"RIFF")
    assert make_sounds.main(["--check", "--out", str(tmp_path / "a")]) == 1


# --- the Audio player ----------------------------------------------------------------------


def store(profile: Path, **values) -> SettingsStore:
    settings = SettingsStore(profile / "settings.json")
    settings.load()
    for key, value in values.items():
        settings.set(key, value)
    return settings


def test_every_request_is_recorded_but_only_audible_ones_reach_the_mixer(profile) -> None:
    settings = store(profile)
    audio = Audio(settings)
    if not audio.open():
        pytest.skip("no mixer even with SDL's dummy driver")
    audio.play("place")
    settings.set("sound", False)
    audio.play("win")
    settings.set("sound", True)
    settings.set("volume", 0)
    audio.play("loss")
    settings.set("volume", 30)
    audio.play("draw")
    assert audio.played == ["place", "win", "loss", "draw"]
    assert audio.sounded == ["place", "draw"]
    assert audio.sound("draw").get_volume() == pytest.approx(0.3, abs=0.01)
    with pytest.raises(ValueError, match="unknown sound"):
        audio.play("boing")
    assert audio.problems() == []


def test_with_sound_off_nothing_opens_a_device(profile, monkeypatch) -> None:
    opened = []
    monkeypatch.setattr(pygame.mixer, "init", lambda *a, **k: opened.append(a))
    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    audio = Audio(store(profile, sound=False))
    assert audio.open() is False
    audio.play("win")
    assert opened == [] and audio.played == ["win"] and audio.sounded == []


def test_a_mixer_that_refuses_to_open_means_silence_without_errors(profile, monkeypatch) -> None:
    calls = []

    def refuse(*_args, **_kwargs):
        calls.append(1)
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", refuse)
    audio = Audio(store(profile))
    assert audio.open() is False
    for name in SOUNDS:
        audio.play(name)
    assert audio.played == list(SOUNDS) and audio.sounded == []
    assert calls == [1], "a failed device is not retried at every effect"
    assert audio.problems() == []  # the files are fine; no device is not a problem


@pytest.mark.slow
def test_no_audio_device_the_game_is_silent_and_shows_no_error(tmp_path: Path) -> None:
    """A real SDL without a usable audio driver, in a child process."""
    code = """
import json, pygame
from pathlib import Path
from engine.runtime.app import App
from engine.storage.settings import SettingsStore
from engine.storage.stats import StatsStore
from engine.ui.audio import SOUNDS
profile = Path(__import__("os").environ["ARCADE_PROFILE"])
settings = SettingsStore(profile / "settings.json"); settings.load()
stats = StatsStore(profile / "stats.sqlite3"); stats.open()
app = App(settings, stats, [])
for name in SOUNDS:
    app.audio.play(name)
app.step([])
print(json.dumps({"available": app.audio.available, "sounded": app.audio.sounded,
                  "played": len(app.audio.played), "notices": app.notices}))
app.quit(); stats.close(); pygame.quit()
"""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="no-such-driver",
               ARCADE_PROFILE=str(tmp_path / "profile"), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result == {"available": False, "sounded": [], "played": len(SOUNDS), "notices": []}
    assert "Traceback" not in out.stderr and "arcade:" not in out.stderr


def test_probing_for_a_missing_device_prints_nothing_to_the_terminal(tmp_path: Path) -> None:
    """Issue 28: with no sound device, starting the game printed a block of "ALSA lib ...
    Unknown PCM default" lines (SDL probing its drivers) to the player's terminal.

    The child chooses its audio driver as a player's game does (SDL_AUDIODRIVER unset)
    and ALSA is pointed at an empty configuration, so it has no device whatever the
    machine has; the game must stay silent, without a word on stderr from the probing.
    """
    code = """
import json, os, pygame
from pathlib import Path
from engine.runtime.app import App
from engine.storage.settings import SettingsStore
from engine.storage.stats import StatsStore
profile = Path(os.environ["ARCADE_PROFILE"])
settings = SettingsStore(profile / "settings.json"); settings.load()
stats = StatsStore(profile / "stats.sqlite3"); stats.open()
app = App(settings, stats, [])
app.step([])
app.audio.play("place")
print("ours, on stderr", file=__import__("sys").stderr)
print(json.dumps({"available": app.audio.available, "notices": app.notices}))
app.quit(); stats.close(); pygame.quit()
"""
    empty = tmp_path / "asound.conf"
    empty.write_text("")
    env = {key: value for key, value in os.environ.items()
           if key not in ("SDL_AUDIODRIVER", "AUDIODEV", "PULSE_SERVER")}
    env.update(SDL_VIDEODRIVER="dummy", ALSA_CONFIG_PATH=str(empty),
               ARCADE_PROFILE=str(tmp_path / "profile"), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["notices"] == []
    assert "ALSA lib" not in out.stderr, out.stderr
    assert "XDG_RUNTIME_DIR" not in out.stderr, out.stderr
    # Only the mixer's opening is quietened: the process's own stderr still works after.
    assert "ours, on stderr" in out.stderr


def broken_assets(tmp_path: Path) -> Path:
    """A copy of assets/ without win.wav, with a damaged loss.wav and a silent draw.wav."""
    root = tmp_path / "copy"
    shutil.copytree(ROOT / "assets", root / "assets")
    sounds = root / "assets" / "sounds"
    (sounds / "win.wav").unlink()
    (sounds / "loss.wav").write_bytes(b"RIFF\x00\x00\x00\x00WAVEnot really")
    with wave.open(str(sounds / "draw.wav"), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(bytes(2 * RATE // 10))
    return root


def test_missing_damaged_or_silent_files_never_crash_and_are_reported(
        profile, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(engine.core.assets, "_SOURCE_ROOT", broken_assets(tmp_path))
    audio = Audio(store(profile))
    for name in SOUNDS:
        audio.play(name)  # none of these may raise
    problems = audio.problems(("place", "win", "loss", "draw", "boing"))
    assert len(problems) == 4, problems
    win, loss, draw, unknown = problems
    assert "'win'" in win and "asset missing" in win
    assert "'loss'" in loss and "could not be read" in loss
    assert "'draw'" in draw and "silent" in draw
    assert "unknown sound 'boing'" in unknown
    if audio.available:
        assert "place" in audio.sounded and "take" in audio.sounded
        assert not {"win", "loss", "draw"} & set(audio.sounded)
        # The silent draw.wav is a well-formed file, but not the one shipped: its digest
        # differs, so it never reaches the mixer (engine.core.assets.shipped_problem).
        assert set(audio.failures) == {"win", "loss", "draw"}
        assert "not the file this version" in audio.failures["draw"]


SMOKE = """
import sys
from engine.runtime.cli import run_smoke
from engine.model.registry import find_game
sys.exit(run_smoke(None, (find_game("tictactoe"),)))
"""


def run_smoke(tmp_path: Path, patch: str | None = None) -> subprocess.CompletedProcess:
    """--smoke of the tic-tac-toe family (after running ``patch``, a sitecustomize)."""
    paths = [str(ROOT)]
    if patch is not None:
        shadow = tmp_path / "shadow"
        shadow.mkdir(parents=True)
        (shadow / "sitecustomize.py").write_text(patch)
        paths.insert(0, str(shadow))
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               ARCADE_PROFILE=str(tmp_path / "profile"), PYTHONPATH=os.pathsep.join(paths))
    return subprocess.run([sys.executable, "-c", SMOKE], capture_output=True, text=True,
                          timeout=120, env=env, cwd=ROOT)


@pytest.mark.slow
def test_smoke_plays_each_family_sound_and_fails_on_a_lost_one(tmp_path: Path) -> None:
    good = run_smoke(tmp_path / "good")
    assert good.returncode == 0, good.stderr
    assert "tictactoe/sounds" in good.stdout
    (tmp_path / "bad").mkdir()
    moved = broken_assets(tmp_path / "bad")
    bad = run_smoke(tmp_path / "bad",
                    f"import engine.core.assets as a\na._SOURCE_ROOT = a.Path({str(moved)!r})\n")
    assert bad.returncode == 1
    assert "smoke: FAILED" in bad.stderr
    assert "tictactoe: sound 'win'" in bad.stderr and "asset missing" in bad.stderr


@pytest.mark.slow
def test_smoke_fails_when_the_mixer_is_lost(tmp_path: Path) -> None:
    """A bundle without pygame's mixer library: not even the dummy driver opens."""
    out = run_smoke(tmp_path, "import pygame\n"
                              "def init(*a, **k):\n"
                              "    raise pygame.error('mixer not available')\n"
                              "pygame.mixer.init = init\n")
    assert out.returncode == 1
    assert "smoke: FAILED" in out.stderr and "audio mixer did not open" in out.stderr


def cell_click(app, scene, row: int, col: int) -> None:
    pos = scene.geometry().cell_rect(row, col).center
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
              pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])


@pytest.mark.slow
def test_a_tictactoe_game_asks_for_its_declared_sounds(app) -> None:
    game = find_game("tictactoe")
    scene = app.push(game.open_scene(app, None, seats=(Seat(), Seat())))
    app.step([])
    for row, col in [(0, 0), (1, 0), (1, 1)]:
        cell_click(app, scene, row, col)
    cell_click(app, scene, 1, 1)  # taken
    assert app.audio.played[-1] == "illegal"
    for row, col in [(2, 0), (2, 2)]:
        cell_click(app, scene, row, col)
    assert scene.state.winner == 0
    assert app.audio.played == ["place"] * 3 + ["illegal"] + ["place"] * 2 + ["win"]
    assert set(app.audio.played) <= set(game.sounds)


# --- real mixing under SDL's disk driver ------------------------------------------------------

DISK_GAME = """
import json, os, sys, time
from pathlib import Path
import pygame
from engine.runtime.app import App
from engine.model.registry import find_game
from engine.model.seats import Seat
from engine.storage.settings import SettingsStore
from engine.storage.stats import StatsStore

profile = Path(os.environ["ARCADE_PROFILE"])
settings = SettingsStore(profile / "settings.json")
assert settings.load() == []
stats = StatsStore(profile / "statistics.sqlite3")
stats.open()
app = App(settings, stats, [], window_size=(960, 720))
scene = app.push(find_game("tictactoe").open_scene(app, None, seats=(Seat(), Seat())))

def click(pos):
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
              pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])

if os.environ.get("MUTE_IN_SETTINGS"):
    # Sound is on, so the device is open; switch it off in the settings screen.
    from engine.screens.settings_scene import SettingsOverlay
    overlay = app.push(SettingsOverlay(app))
    app.step([])
    click(app.viewport.map_rect(overlay.ui.find("Sound off").rect).center)
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="",
                                 scancode=0)])
    assert app.top is scene and not app.audio.enabled

def run(seconds):
    # Real time passes: the disk driver takes samples at the device's pace.
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.step([])
        time.sleep(1 / 60)

run(0.2)
for row, col in [(0, 0), (1, 0), (1, 1), (2, 0), (2, 2)]:
    click(scene.geometry().cell_rect(row, col).center)
    run(0.3)
run(1.0)  # the win's arpeggio (0.75 s) plays out
result = {"winner": scene.state.winner, "played": app.audio.played,
          "sounded": app.audio.sounded, "format": pygame.mixer.get_init()}
app.quit()
stats.close()
pygame.quit()
print(json.dumps(result))
"""


def play_on_disk(tmp_path: Path, mute_in_settings: bool = False,
                 **settings) -> tuple[dict, np.ndarray]:
    """Win a tic-tac-toe game with ``settings`` (after switching sound off in the settings
    screen if ``mute_in_settings``); the result and the mixed samples (frames × channels,
    fractions of full scale; none if the device was never opened)."""
    profile = tmp_path / "profile"
    profile.mkdir(parents=True)
    (profile / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    raw = tmp_path / "mixed.raw"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="disk",
               SDL_DISKAUDIOFILE=str(raw), ARCADE_PROFILE=str(profile), PYTHONPATH=str(ROOT),
               PYGAME_HIDE_SUPPORT_PROMPT="1", MUTE_IN_SETTINGS="1" if mute_in_settings else "")
    out = subprocess.run([sys.executable, "-c", DISK_GAME], capture_output=True, text=True,
                         timeout=120, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["winner"] == 0
    assert result["played"] == ["place"] * 5 + ["win"]
    if result["format"] is None:  # sound off from the start: no device is opened at all
        assert not raw.exists() or not np.any(np.fromfile(raw, dtype=np.int16))
        return result, np.zeros((0, 2))
    _freq, size, channels = result["format"]
    assert size == -16
    samples = np.fromfile(raw, dtype=np.int16)
    assert len(samples) > 0.5 * RATE * channels, "the device was not fed for long"
    return result, samples.reshape(-1, channels).astype(np.float64) / 32768


def sounding_stretches(samples: np.ndarray, rate: int) -> list[tuple[int, int]]:
    """(start, end) frames of the stretches with sound, split by gaps of over 40 ms."""
    loud = np.flatnonzero(np.max(np.abs(samples), axis=1) > 1e-3)
    if len(loud) == 0:
        return []
    breaks = np.flatnonzero(np.diff(loud) > 0.04 * rate)
    starts = [loud[0], *loud[breaks + 1]]
    ends = [*loud[breaks], loud[-1]]
    return list(zip(starts, ends, strict=True))


@pytest.mark.slow
def test_a_won_game_really_sounds_and_muted_it_is_silent(tmp_path: Path) -> None:
    loud, mixed = play_on_disk(tmp_path / "loud", sound=True, volume=100)
    assert loud["sounded"] == loud["played"]
    rate = loud["format"][0]
    assert np.max(np.abs(mixed)) > 0.2
    # The last click's stretch holds its "place" and the win's arpeggio: much longer than
    # a move's sound (0.2 s) alone.
    start, end = sounding_stretches(mixed, rate)[-1]
    assert (end - start) / rate > 0.5

    quiet, quieter = play_on_disk(tmp_path / "quiet", sound=True, volume=30)
    assert quiet["sounded"] == quiet["played"]
    # The same sounds at 30% volume: about 0.3 of the amplitude (energy-wise, so the
    # silence around them does not matter).
    ratio = np.sqrt(np.sum(quieter ** 2) / np.sum(mixed ** 2))
    assert 0.22 < ratio < 0.38, ratio

    # Switched off in the settings screen: the device stays open and is fed, with zeros.
    muted, silence = play_on_disk(tmp_path / "muted", mute_in_settings=True, sound=True,
                                  volume=100)
    assert muted["sounded"] == [] and muted["format"] is not None
    assert len(silence) > RATE and not np.any(silence), "sound off, yet samples were mixed"
    # Off from the start: not even a device is opened, so nothing can be heard.
    off, nothing = play_on_disk(tmp_path / "off", sound=False, volume=100)
    assert off["sounded"] == [] and off["format"] is None and len(nothing) == 0


def test_the_record_of_effects_stays_bounded_in_a_long_session(tmp_path) -> None:
    from engine.storage.settings import SettingsStore
    from engine.ui.audio import RECENT_MAX, Audio

    settings = SettingsStore(tmp_path / "settings.json")
    settings.load()
    settings.set("sound", False)
    audio = Audio(settings)
    for i in range(10 * RECENT_MAX):
        audio.play("place" if i % 2 else "drop")
    audio.play("win")
    assert len(audio.played) <= RECENT_MAX and audio.played[-1] == "win"
    assert audio.played[-3:] == ["drop", "place", "win"]
