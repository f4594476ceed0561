"""Starting on files that cannot be used (issue 29, findings 1, 5 and 9).

A profile folder that cannot be looked at (no permission, a name too long) and damaged
shipped files (a translation, a font, an opening book, a sound) are met the way a player
meets them: a real ``python main.py`` process, ``--smoke`` and the window (under the dummy
video driver, stopped by SIGTERM once its notice shows). Each must start, say what is
wrong in a notice and exit 0, with no traceback. Shipped files are damaged in a copy of
``assets/``: a ``sitecustomize`` points :mod:`engine.core.assets` at it (as in
tests/engine/ui/test_audio.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.cli import launch_until

ROOT = Path(__file__).resolve().parents[3]
MAIN = ROOT / "main.py"
CAPS = "-dac_override,-dac_read_search"


def _env(tmp_path: Path, assets: Path | None = None, **extra: str) -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(ROOT), **extra)
    env.pop("ARCADE_PROFILE", None)
    if assets is not None:
        shadow = tmp_path / "shadow"
        shadow.mkdir(exist_ok=True)
        (shadow / "sitecustomize.py").write_text(
            f"import engine.core.assets as a\na._SOURCE_ROOT = a.Path({str(assets.parent)!r})\n")
        env["PYTHONPATH"] = os.pathsep.join([str(shadow), str(ROOT)])
    return env


def _damaged(tmp_path: Path, damage: Callable[[Path], None]) -> Path:
    """A copy of ``assets/`` with ``damage`` done to it; returns the copy's assets folder."""
    assets = tmp_path / "copy" / "assets"
    shutil.copytree(ROOT / "assets", assets)
    damage(assets)
    return assets


def _smoke(env: dict[str, str], *args: str, prefix: tuple[str, ...] = ()
           ) -> subprocess.CompletedProcess:
    return subprocess.run([*prefix, sys.executable, str(MAIN), "--smoke", *args],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


def _start(env: dict[str, str], dump: Path, *args: str, expect: str,
           prefix: tuple[str, ...] = (), timeout: float = 120) -> tuple[int, dict, str]:
    """Open the window, wait for a notice containing ``expect``, stop it with SIGTERM (a
    clean quit); (exit code, last state dump, stderr)."""
    return launch_until([*prefix, sys.executable, str(MAIN), "--dump-state", str(dump), *args],
                        env, dump, lambda state: any(expect in notice for notice in
                                                     state.get("notices", [])), timeout)


def _assert_started(code: int, state: dict, err: str, expect: str) -> None:
    assert code == 0, (code, err[-3000:])
    assert "Traceback" not in err, err[-3000:]
    assert any(expect in notice for notice in state.get("notices", [])), (state, err[-2000:])


def _assert_smoke(out: subprocess.CompletedProcess, expect: str) -> None:
    assert out.returncode == 0, out.stderr[-3000:]
    assert "Traceback" not in out.stderr, out.stderr[-3000:]
    assert "smoke: ok" in out.stdout
    assert expect in out.stderr, out.stderr[-3000:]


# --- finding 1: a profile folder that cannot be looked at ---------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("length", [300, 4200])
def test_a_profile_path_too_long_starts_in_memory_with_a_notice(tmp_path: Path,
                                                                 length: int) -> None:
    # One name over 255 characters, or a path over 4,096 (ENAMETOOLONG either way).
    tail = "a" * length if length < 4096 else "/".join(["b"] * (length // 2))
    profile = tmp_path / tail
    env = _env(tmp_path)
    expect = "File name too long"
    _assert_smoke(_smoke(env, "--profile", str(profile)), expect)
    code, state, err = _start(env, tmp_path / "state.json", "--profile", str(profile),
                              expect=expect)
    _assert_started(code, state, err, expect)


def _unprivileged() -> tuple[str, ...]:
    """The command prefix that takes away root's power to ignore permissions."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return ()  # an ordinary user already meets the permissions
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("setpriv (util-linux) is not available")
    return (setpriv, f"--bounding-set={CAPS}", f"--inh-caps={CAPS}", "--")


@pytest.mark.slow
@pytest.mark.parametrize("where", ["profile", "inside", "home"])
def test_a_profile_folder_that_cannot_be_entered_starts_in_memory(tmp_path: Path,
                                                                  where: str) -> None:
    """``--profile`` naming a folder the user cannot enter (or one inside it), and the
    usual per-user data folder made unreadable (owned by root, 0700, under sudo)."""
    prefix = _unprivileged()
    locked = tmp_path / "locked"
    locked.mkdir()
    args: tuple[str, ...] = ()
    extra: dict[str, str] = {}
    if where == "profile":
        args = ("--profile", str(locked))
    elif where == "inside":
        args = ("--profile", str(locked / "p"))
    else:
        home = tmp_path / "home"
        data = home / ".local" / "share"
        data.mkdir(parents=True)
        locked = data / "arcade-of-strategy"
        locked.mkdir()
        extra = {"HOME": str(home)}
    locked.chmod(0)
    try:
        env = _env(tmp_path, **extra)
        for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME"):
            env.pop(name, None)
        expect = "Permission denied"
        smoke = _smoke(env, *args, prefix=prefix)
        if where != "home":  # --smoke keeps out of the per-user folders
            _assert_smoke(smoke, expect)
        else:
            assert smoke.returncode == 0 and "Traceback" not in smoke.stderr, smoke.stderr
        code, state, err = _start(env, tmp_path / "state.json", *args, expect=expect,
                                  prefix=prefix)
        _assert_started(code, state, err, expect)
    finally:
        locked.chmod(0o700)


def test_tidying_saved_games_never_raises_when_the_folder_cannot_be_looked_at(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.storage import saved_games

    store = saved_games.SavedGames(tmp_path / "saved")
    real_stat = os.stat

    def refuse(path, *args, **kwargs):
        if Path(path) == tmp_path / "saved":
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(saved_games.os, "stat", refuse)
    assert store.tidy() == []
    assert saved_games.SavedGames(tmp_path / ("x" * 300)).tidy() == []


def test_a_very_long_word_in_a_notice_is_wrapped_with_few_measurements() -> None:
    """A notice naming a path of thousands of characters was wrapped one character at a
    time, on every frame: minutes per frame. Halving needs a few measurements a line."""
    import pygame

    from engine.ui.toasts import _wrap

    pygame.font.init()
    font = pygame.font.Font(None, 16)
    calls = [0]

    class Counting:
        def size(self, text: str) -> tuple[int, int]:
            calls[0] += 1
            return font.size(text)

    word = "b/" * 2100
    lines = _wrap(f"Settings file {word} could not be read.", Counting(), 300)  # type: ignore[arg-type]
    assert "".join(lines).replace(" ", "") == f"Settingsfile{word}couldnotberead."
    assert all(font.size(line)[0] <= 300 for line in lines)
    assert calls[0] < 40 * len(lines), (calls[0], len(lines))


# --- finding 5: damaged shipped files -----------------------------------------------------


def _hu_mo(assets: Path) -> Path:
    return assets / "locale" / "hu" / "LC_MESSAGES" / "arcade.mo"


def _truncate(path: Path, keep: int) -> None:
    path.write_bytes(path.read_bytes()[:keep])


DAMAGES: dict[str, tuple[Callable[[Path], None], str]] = {
    "empty translation": (lambda a: _hu_mo(a).write_bytes(b""), "translation into Magyar"),
    "truncated translation": (lambda a: _truncate(_hu_mo(a), 1000),
                              "translation into Magyar"),
    "plural rule dividing by zero": (
        lambda a: _hu_mo(a).write_bytes(_hu_mo(a).read_bytes().replace(
            b"plural=(n != 1);", b"plural=(1/(n-7));")), "translation into Magyar"),
    "truncated font": (lambda a: _truncate(a / "fonts" / "DejaVuSans.ttf", 300_000),
                       "DejaVuSans.ttf"),
    "random font": (lambda a: (a / "fonts" / "DejaVuSans-Bold.ttf").write_bytes(
        os.urandom(20_000)), "DejaVuSans-Bold.ttf"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(DAMAGES))
def test_a_damaged_shipped_file_falls_back_with_a_notice(tmp_path: Path, case: str) -> None:
    damage, expect = DAMAGES[case]
    assets = _damaged(tmp_path, damage)
    env = _env(tmp_path, assets, LANG="hu_HU.UTF-8", LANGUAGE="", LC_ALL="")
    profile = tmp_path / "profile"
    _assert_smoke(_smoke(env, "--profile", str(profile)), expect)
    code, state, err = _start(env, tmp_path / "state.json", "--profile", str(profile),
                              expect=expect)
    _assert_started(code, state, err, expect)


def test_a_plural_rule_failing_for_a_count_not_tried_falls_back_to_english(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.core import i18n

    class Failing(i18n.gettext.NullTranslations):
        def ngettext(self, singular: str, plural: str, n: int) -> str:
            raise ZeroDivisionError("integer division or modulo by zero")

    monkeypatch.setattr(i18n, "_translation", Failing())
    assert i18n.ngettext("{count} game", "{count} games", 1) == "{count} game"
    assert i18n.ngettext("{count} game", "{count} games", 10**30) == "{count} games"


def test_a_font_header_is_checked_before_pygame_opens_it(tmp_path: Path) -> None:
    from engine.core.assets import asset_path, font_problem

    good = asset_path("fonts", "DejaVuSans.ttf")
    assert font_problem(good) is None
    data = good.read_bytes()
    cases = {"empty": b"", "random": os.urandom(4096), "truncated": data[:100_000],
             "header only": data[:12], "no tables": data[:4] + b"\x00\x00" + data[6:]}
    for name, content in cases.items():
        path = tmp_path / f"{name}.ttf"
        path.write_bytes(content)
        assert font_problem(path) is not None, name


# --- finding 9: shipped data files are the ones shipped -----------------------------------


def test_every_shipped_data_file_has_its_digest_recorded() -> None:
    """Change a book, a font or a sound on purpose: run python tools/make_digests.py."""
    out = subprocess.run([sys.executable, "tools/make_digests.py", "--check"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr


def test_a_changed_opening_book_is_refused_with_a_notice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.core.assets as assets_module
    from games.tictactoe import opening_book

    def corner_win(assets: Path) -> None:
        book = assets / "books" / "mnk-5x5-k4.json"
        data = json.loads(book.read_text())
        data["entries"]["/".join(["....."] * 5)] = [1, 0]  # a draw claimed a corner win
        book.write_text(json.dumps(data))

    copy = _damaged(tmp_path, corner_win)
    assets_module.take_problems()
    opening_book.book_for.cache_clear()
    try:
        with monkeypatch.context() as patch:
            patch.setattr(assets_module, "_SOURCE_ROOT", copy.parent)
            assert opening_book.book_for(5, 5, 4) is None  # the players search instead
            problems = assets_module.take_problems()
            assert any("mnk-5x5-k4.json" in p and "not the file this version" in p
                       for p in problems), problems
    finally:
        opening_book.book_for.cache_clear()
    # The shipped book itself is used.
    book = opening_book.book_for(5, 5, 4)
    assert book is not None and len(book) > 0


def test_a_changed_sound_is_not_handed_to_the_mixer(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.core.assets as assets_module
    from engine.ui.audio import Audio

    def scramble(assets: Path) -> None:
        (assets / "sounds" / "place.wav").write_bytes(b"RIFF" + os.urandom(3000))

    copy = _damaged(tmp_path, scramble)
    monkeypatch.setattr(assets_module, "_SOURCE_ROOT", copy.parent)
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    audio = Audio(None)
    if not audio.available:
        pytest.skip("no mixer")
    assert audio.sound("place") is None
    assert "place" in audio.failures
    assert audio.sound("win") is not None
