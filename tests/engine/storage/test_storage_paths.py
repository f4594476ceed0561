"""Where profiles live: explicit folder, then $ARCADE_PROFILE, then platform folders."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine.storage.paths import APP_NAME, PROFILE_ENV, ProfilePaths, resolve_profile


@pytest.fixture
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point every per-user folder variable platformdirs reads at tmp_path."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg-data"))
    monkeypatch.delenv(PROFILE_ENV, raising=False)
    return home


def test_explicit_argument_beats_environment(tmp_path: Path) -> None:
    explicit = tmp_path / "explicit"
    env = {PROFILE_ENV: str(tmp_path / "from-env")}
    paths = resolve_profile(explicit, environ=env)
    assert paths == ProfilePaths(config_dir=explicit, data_dir=explicit)
    assert paths.settings_file == explicit / "settings.json"
    assert paths.stats_file == explicit / "statistics.sqlite3"


def test_explicit_argument_accepts_str(tmp_path: Path) -> None:
    paths = resolve_profile(str(tmp_path / "p"), environ={})
    assert paths.config_dir == tmp_path / "p"
    assert isinstance(paths.config_dir, Path)


def test_environment_beats_platform_folders(tmp_path: Path, isolated_home: Path) -> None:
    env = {PROFILE_ENV: str(tmp_path / "from-env")}
    paths = resolve_profile(environ=env)
    assert paths.config_dir == tmp_path / "from-env"
    assert paths.data_dir == tmp_path / "from-env"


def test_real_environment_is_used_by_default(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PROFILE_ENV, str(tmp_path / "via-os-environ"))
    assert resolve_profile().data_dir == tmp_path / "via-os-environ"


@pytest.mark.parametrize("blank", ["", "   "])
def test_blank_environment_variable_is_ignored(isolated_home: Path, blank: str) -> None:
    paths = resolve_profile(environ={PROFILE_ENV: blank})
    assert APP_NAME in str(paths.config_dir)
    assert paths.config_dir != Path(blank)


def test_platform_folders_are_used_and_not_created(isolated_home: Path) -> None:
    paths = resolve_profile(environ={})
    assert APP_NAME in str(paths.config_dir)
    assert APP_NAME in str(paths.data_dir)
    if sys.platform.startswith("linux"):
        # With XDG_* redirected, the platform folders must be the redirected ones.
        assert paths.config_dir == isolated_home / "xdg-config" / APP_NAME
        assert paths.data_dir == isolated_home / "xdg-data" / APP_NAME
    # Resolving is pure: nothing appears on disk until something is saved.
    assert not paths.config_dir.exists()
    assert not paths.data_dir.exists()
    assert not isolated_home.exists()


def test_profile_folder_is_not_created(tmp_path: Path) -> None:
    paths = resolve_profile(tmp_path / "new-profile", environ={})
    assert not (tmp_path / "new-profile").exists()
    assert paths.settings_file.parent == paths.stats_file.parent


def test_tilde_is_expanded(isolated_home: Path) -> None:
    paths = resolve_profile("~/arcade", environ={})
    assert paths.config_dir == Path("~/arcade").expanduser()
    assert "~" not in str(paths.config_dir)
