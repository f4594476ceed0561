"""The command line in hostile surroundings (issue 13, findings 4, 6, 8, 12, 14 and budgets).

Each finding is run the way a player or another tool meets it: a real
``python main.py`` process with real shell redirections (a closed or full
standard output, a pipe its reader closed early, a closed standard input), a
user with no home folder, odd numbers on the command line, huge input. The
in-process tests pin the pieces (the profile path, the number rule, the table
cap) through the same code paths the command line uses.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from engine.core.numbers import parse_decimal, parse_whole
from engine.runtime import cli
from engine.storage import paths as paths_module
from engine.storage.paths import (
    APP_NAME,
    PROFILE_ENV,
    ProfileError,
    expand_folder,
    fallback_folder,
    resolve_profile,
)
from tests.support.cli import launch_until

# CLI robustness: hundreds of real python main.py processes under hostile redirections
# and budgets take most of a minute, so the quick run (python -m pytest -m "not slow")
# leaves the module out; tests/engine/runtime/test_cli.py keeps the command line's basics there.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
MAIN = ROOT / "main.py"
HAS_DEV_FULL = os.path.exists("/dev/full")
NO_SUCH_USER = "~nosuchuser-arcade-13/p"
NO_HOME_NOTICE = "No home folder was found"


def base_env(profile: Path | None) -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop(PROFILE_ENV, None)
    if profile is not None:
        env[PROFILE_ENV] = str(profile)
    return env


def run(*args: str, profile: Path | None, env: dict[str, str] | None = None,
        timeout: float = 120, input: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python main.py ARGS`` in a real process."""
    return subprocess.run([sys.executable, str(MAIN), *args], capture_output=True, text=True,
                          timeout=timeout, env=env or base_env(profile), cwd=ROOT, input=input)


def shell(command: str, profile: Path, timeout: float = 120) -> tuple[int, str, str]:
    """Run ``command`` in bash, where ``ARCADE`` is ``python main.py``; returns the arcade
    process's own exit status (from PIPESTATUS, even in a pipeline), its stdout as far as
    the shell saw it, and stderr. The status is printed on fd 3, which the arcade never
    gets."""
    arcade = f"{shlex.quote(sys.executable)} {shlex.quote(str(MAIN))}"
    script = (f"ARCADE={shlex.quote(arcade)}\n"
              f"{command.replace('ARCADE', '$ARCADE')}\n"
              "echo \"${PIPESTATUS[0]}\" >&3")
    status_r, status_w = os.pipe()
    try:
        out = subprocess.run(["bash", "-c", f"exec 3>&{status_w}\n{script}"], capture_output=True,
                             text=True, timeout=timeout, env=base_env(profile), cwd=ROOT,
                             pass_fds=(status_w,))
        os.close(status_w)
        status_w = -1
        with os.fdopen(status_r, "r") as status:
            status_r = -1
            code = int(status.read().strip())
    finally:
        for fd in (status_r, status_w):
            if fd >= 0:
                os.close(fd)
    return code, out.stdout, out.stderr


def one_line(text: str) -> str:
    assert text.endswith("\n") and text.count("\n") == 1, repr(text)
    return text[:-1]


# --- finding 4: a profile named with ~user, and no home folder at all ---------------------


def test_unknown_user_in_profile_option_is_a_usage_error(profile: Path) -> None:
    for args in (["--profile", NO_SUCH_USER], ["--profile", NO_SUCH_USER, "--smoke"],
                 ["--profile", NO_SUCH_USER, "solve", "mnk", "--rows", "3", "--cols", "3",
                  "--k", "3"]):
        out = run(*args, profile=profile)
        assert out.returncode == 2, out.stderr
        assert "usage:" in out.stderr and "Traceback" not in out.stderr
        assert f"argument --profile: cannot use '{NO_SUCH_USER}': there is no user " \
               "'nosuchuser-arcade-13'" in out.stderr
        assert out.stdout == ""


def test_unknown_user_in_environment_names_the_variable(tmp_path: Path) -> None:
    env = base_env(None)
    env[PROFILE_ENV] = NO_SUCH_USER
    out = run(profile=None, env=env)
    assert out.returncode == 2
    line = one_line(out.stderr)
    assert line.startswith("arcade: error: ARCADE_PROFILE: ") and NO_SUCH_USER in line
    # Commands that do not use the profile are not held up by it.
    out = run("solve", "mnk", "--rows", "3", "--cols", "3", "--k", "3", profile=None, env=env)
    assert out.returncode == 0 and out.stdout == "draw\n"


def test_expand_folder_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ProfileError, match="there is no user 'nosuchuser-arcade-13'"):
        expand_folder(NO_SUCH_USER)
    with pytest.raises(ProfileError):
        resolve_profile(NO_SUCH_USER, environ={})
    with pytest.raises(ProfileError):
        resolve_profile(environ={PROFILE_ENV: NO_SUCH_USER})
    assert expand_folder(tmp_path / "x") == tmp_path / "x"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert expand_folder("~/p") == tmp_path / "home" / "p"
    # No HOME and no passwd entry: '~' means nothing, which is said rather than guessed.
    monkeypatch.delenv("HOME")
    monkeypatch.setattr("pwd.getpwuid", _no_passwd_entry)
    with pytest.raises(ProfileError, match="no home folder"):
        expand_folder("~/p")


def _no_passwd_entry(uid: int) -> object:
    raise KeyError(f"getpwuid(): uid not found: {uid}")


@pytest.fixture
def homeless(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """This process as a user with no HOME and no passwd entry (a container's user id);
    the temporary folder is the test's own. Returns the expected fallback folder."""
    if not hasattr(os, "getuid"):
        pytest.skip("POSIX home folders only")
    for name in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", PROFILE_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("pwd.getpwuid", _no_passwd_entry)
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    return temp / f"{APP_NAME}-{os.getuid()}"


def test_no_home_folder_falls_back_with_a_notice(homeless: Path) -> None:
    # The real platformdirs call fails here; resolve_profile must not.
    import platformdirs

    with pytest.raises(RuntimeError):
        platformdirs.user_config_dir(APP_NAME)
    paths = resolve_profile()
    assert paths.config_dir == paths.data_dir == homeless == fallback_folder()
    assert paths.notice == (f"No home folder was found, so settings and statistics are kept "
                            f"in {homeless}; use --profile DIR or ARCADE_PROFILE to choose "
                            "where.")
    # The fallback sits in the shared temporary folder: it is made private at once.
    assert homeless.is_dir() and stat.S_IMODE(homeless.stat().st_mode) == 0o700
    # A folder the player names needs no home and gets no notice.
    named = resolve_profile(homeless.parent / "named")
    assert named.notice == "" and named.config_dir == homeless.parent / "named"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX owners only")
def test_fallback_folder_is_not_one_someone_else_prepared(homeless: Path) -> None:
    """The temporary folder is shared: a link (or another user's folder) under the
    fallback's name is not used."""
    homeless.parent.joinpath("elsewhere").mkdir()
    homeless.symlink_to(homeless.parent / "elsewhere")
    other = fallback_folder()
    assert other != homeless and other.parent == homeless.parent
    assert other.name.startswith(homeless.name + "-") and not other.exists()
    homeless.unlink()
    homeless.mkdir()  # a real folder of this user's own: kept from run to run
    assert fallback_folder() == homeless


def test_closed_standard_fds_are_not_reused_for_files(tmp_path: Path) -> None:
    """With fd 1 closed the next file opened would become "standard output"."""
    code = ("import os, sys\n"
            "from engine.runtime.cli import _reserve_standard_fds\n"
            "_reserve_standard_fds()\n"
            "fd = os.open(os.devnull, os.O_RDONLY)\n"
            "print(fd, sys.stdout is None, file=sys.stderr)\n")
    out = subprocess.run(["bash", "-c", f"{shlex.quote(sys.executable)} -c "
                          f"{shlex.quote(code)} >&- <&-"], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    fd, closed = out.stderr.split()
    assert int(fd) >= 3 and closed == "True"


@pytest.mark.parametrize("error", [RuntimeError("no home"), KeyError("uid"), OSError(5, "EIO")])
def test_any_platformdirs_failure_falls_back(monkeypatch: pytest.MonkeyPatch,
                                             error: Exception) -> None:
    def broken(*args: object, **kwargs: object) -> str:
        raise error

    monkeypatch.setattr(paths_module.platformdirs, "user_config_dir", broken)
    paths = resolve_profile(environ={})
    assert paths.config_dir == fallback_folder() and NO_HOME_NOTICE in paths.notice


def test_app_and_smoke_show_the_no_home_notice(homeless: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.runtime.app import App

    seen: list[list[str]] = []

    def one_frame(self: App, max_frames: int | None = None) -> None:
        self.step([])
        seen.append(list(self.notices))
        self.quit()

    monkeypatch.setattr(App, "run", one_frame)
    assert cli.main([]) == 0
    assert any(NO_HOME_NOTICE in notice and str(homeless) in notice for notice in seen[0])
    assert (homeless / "statistics.sqlite3").exists()
    # _open_stores hands the notice to --smoke's app too.
    _, stats, notices = cli._open_stores(None)
    stats.close()  # type: ignore[attr-defined]
    assert NO_HOME_NOTICE in notices[0]


SHIM = """\
import pwd

def _missing(uid):
    raise KeyError(f"getpwuid(): uid not found: {uid}")

pwd.getpwuid = _missing
"""


def _homeless_env(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """Environment of a process with no HOME and no passwd entry (a sitecustomize makes
    the passwd look-up fail), its temporary folder inside tmp_path."""
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "sitecustomize.py").write_text(SHIM)
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = base_env(None)
    for name in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        env.pop(name, None)
    env.update(TMPDIR=str(temp), PYTHONPATH=os.pathsep.join([str(shadow), str(ROOT)]))
    return env, temp


def _launch_until_notice(cmd: list[str], env: dict[str, str], dump: Path,
                         timeout: float = 90) -> tuple[dict, str]:
    """Start the app, wait until its state dump shows a notice, stop it; (state, stderr)."""
    _code, state, err = launch_until(cmd, env, dump, lambda state: bool(state.get("notices")),
                                     timeout)
    return state, err


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX home folders only")
def test_launch_without_home_folder_runs_and_says_where(tmp_path: Path) -> None:
    env, temp = _homeless_env(tmp_path)
    dump = tmp_path / "state.json"
    state, err = _launch_until_notice([sys.executable, str(MAIN), "--dump-state", str(dump)],
                                      env, dump)
    assert "Traceback" not in err, err
    folder = temp / f"{APP_NAME}-{os.getuid()}"
    assert any(NO_HOME_NOTICE in n and str(folder) in n for n in state.get("notices", [])), state
    assert NO_HOME_NOTICE in err  # the app also prints its notices on stderr
    assert (folder / "statistics.sqlite3").exists()
    # --smoke survives the same surroundings (it always did) and keeps out of that folder.
    out = subprocess.run([sys.executable, str(MAIN), "--smoke"], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=180)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr


def _uid_without_passwd_entry() -> int:
    import pwd

    uid = 54321
    while True:
        try:
            pwd.getpwuid(uid)
        except KeyError:
            return uid
        uid += 1


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="needs root to run as a user id without a passwd entry")
def test_launch_as_a_user_id_without_passwd_entry(tmp_path: Path) -> None:
    """The real thing: another uid, unknown to /etc/passwd, and no HOME (a container)."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("setpriv (util-linux) is not available")
    uid = _uid_without_passwd_entry()
    # Only reading is granted back (the interpreter may live under root's home).
    caps = "+dac_read_search"
    prefix = [setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
              f"--inh-caps={caps}", f"--ambient-caps={caps}"]
    work = Path(tempfile.mkdtemp(prefix="arcade-nopasswd-"))
    try:
        work.chmod(0o777)
        env = base_env(None)
        for name in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
            env.pop(name, None)
        env["TMPDIR"] = str(work)
        probe = subprocess.run([*prefix, sys.executable, "-c", "import platformdirs, pygame"],
                               capture_output=True, text=True, env=env, timeout=60)
        if probe.returncode != 0:
            pytest.skip(f"cannot run the interpreter as uid {uid}: {probe.stderr[-200:]}")
        dump = work / "state.json"
        state, err = _launch_until_notice(
            [*prefix, sys.executable, str(MAIN), "--dump-state", str(dump)], env, dump)
        assert "Traceback" not in err, err
        folder = work / f"{APP_NAME}-{uid}"
        assert any(NO_HOME_NOTICE in n and str(folder) in n
                   for n in state.get("notices", [])), (state, err)
        assert (folder / "statistics.sqlite3").exists()
    finally:
        shutil.rmtree(work, ignore_errors=True)


# --- finding 12: an empty --profile is the same as an empty ARCADE_PROFILE: unset -----------


@pytest.mark.parametrize("blank", ["", "   "])
def test_blank_profile_option_means_the_default_folders(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, blank: str) -> None:
    from engine.runtime.app import App

    monkeypatch.setattr(App, "run", lambda self, max_frames=None: self.quit())
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    # With ARCADE_PROFILE set, an empty --profile leaves it in charge...
    env_profile = tmp_path / "from-env"
    monkeypatch.setenv(PROFILE_ENV, str(env_profile))
    assert cli.build_parser().parse_args(["--profile", blank]).profile is None
    assert cli.main(["--profile", blank]) == 0
    assert (env_profile / "statistics.sqlite3").exists()
    # ...and with both empty, the per-user folders are used: never the current folder.
    monkeypatch.setenv(PROFILE_ENV, blank)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    assert cli.main(["--profile", blank]) == 0
    expected = resolve_profile(environ={})
    assert APP_NAME in str(expected.data_dir) and expected.stats_file.exists()
    if sys.platform.startswith("linux"):
        assert expected.stats_file == tmp_path / "xdg-data" / APP_NAME / "statistics.sqlite3"
    assert list(cwd.iterdir()) == []


def test_blank_profile_in_a_real_process_writes_nothing_here(tmp_path: Path) -> None:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    env = base_env(None)
    env[PROFILE_ENV] = ""
    out = subprocess.run([sys.executable, str(MAIN), "--profile", "", "--smoke"],
                         capture_output=True, text=True, env=env, cwd=cwd, timeout=180)
    assert out.returncode == 0, out.stderr
    assert list(cwd.iterdir()) == []
    helped = run("--help", profile=tmp_path / "p")
    assert "an empty DIR means the default folders" in " ".join(helped.stdout.split())


# --- finding 6: solve mnk stops by default, and the table is bounded -----------------------


def test_negamax_table_is_bounded_by_default() -> None:
    from engine.ai.negamax import DEFAULT_MAX_ENTRIES, Negamax

    assert 500_000 <= DEFAULT_MAX_ENTRIES <= 2_000_000
    assert Negamax().max_entries == DEFAULT_MAX_ENTRIES
    assert Negamax(max_entries=None).max_entries == DEFAULT_MAX_ENTRIES
    assert Negamax(max_entries=5 * DEFAULT_MAX_ENTRIES).max_entries == 5 * DEFAULT_MAX_ENTRIES


def test_table_never_exceeds_its_cap_on_an_unsolvable_board() -> None:
    from engine.ai.negamax import Negamax, SearchTimeout
    from games.tictactoe.perfect import MNKSearchState

    search = Negamax(remoteness=False, time_limit=1.5, max_entries=2_000)
    with pytest.raises(SearchTimeout):
        search.solve(MNKSearchState.new(4, 15, 4))
    # Entries are only ever added, so the final size is the largest it ever was; the
    # search ran long enough to fill the table, so the cap is what stopped it growing.
    assert len(search.tt) == 2_000
    assert search.nodes > 10 * 2_000


class _Recorder:
    """Wraps Negamax so a test sees every search the command line made."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import engine.ai.negamax as negamax

        self.made: list[negamax.Negamax] = []
        real = negamax.Negamax
        made = self.made

        class Recorded(real):  # type: ignore[misc, valid-type]
            def __init__(self, *args: object, **kwargs: object) -> None:
                super().__init__(*args, **kwargs)
                made.append(self)

        monkeypatch.setattr(negamax, "Negamax", Recorded)
        import games.tictactoe.perfect as perfect

        monkeypatch.setattr(perfect, "Negamax", Recorded)
        import games.connect4.solver as c4solver

        monkeypatch.setattr(c4solver, "Negamax", Recorded)


def test_solve_mnk_max_table_caps_the_search(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    recorder = _Recorder(monkeypatch)
    code = cli.main(["solve", "mnk", "--rows", "4", "--cols", "15", "--k", "4",
                     "--time-limit", "2", "--max-table", "500"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert one_line(err) == "arcade: could not solve 15×4 (columns × rows) with k=4 within 2 s"
    # A cap this small fills within the time limit even with a fifth of a core (3,000 did
    # not on a busy machine), so the table is seen full and no larger.
    assert [s.max_entries for s in recorder.made] == [500]
    assert len(recorder.made[0].tt) == 500


def test_solve_connect4_max_table_caps_the_search(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    recorder = _Recorder(monkeypatch)
    # 9×7: no opening book and no compiled kernel (the pure-Python search and its table).
    code = cli.main(["solve", "connect4", "--cols", "9", "--rows", "7", "--time-limit", "1",
                     "--max-table", "500"])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and "could not solve" in err
    assert [s.max_entries for s in recorder.made] == [500]
    assert len(recorder.made[0].tt) <= 500


def test_solve_mnk_default_time_limit_applies(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    import games.tictactoe.cli as ttt_cli

    assert ttt_cli.DEFAULT_TIME_LIMIT == 120
    monkeypatch.setattr(ttt_cli, "DEFAULT_TIME_LIMIT", 1.0)  # read when the parser is built
    recorder = _Recorder(monkeypatch)
    start = time.process_time()
    code = cli.main(["solve", "mnk", "--rows", "4", "--cols", "15", "--k", "4"])
    elapsed = time.process_time() - start
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert one_line(err) == "arcade: could not solve 15×4 (columns × rows) with k=4 within 1 s"
    assert elapsed < 30
    from engine.ai.negamax import DEFAULT_MAX_ENTRIES

    assert recorder.made[0].max_entries == DEFAULT_MAX_ENTRIES  # bounded without asking


def test_help_states_the_defaults(profile: Path) -> None:
    from engine.ai.negamax import DEFAULT_MAX_ENTRIES

    for command in (["solve", "mnk"], ["solve", "connect4"]):
        text = " ".join(run(*command, "--help", profile=profile).stdout.split())
        assert f"--max-table ENTRIES remember at most this many positions while searching " \
               f"(default {DEFAULT_MAX_ENTRIES}, about" in text
    text = " ".join(run("solve", "mnk", "--help", profile=profile).stdout.split())
    assert "give up after this many seconds (default 120)" in text


# --- finding 8: broken, full and closed standard streams ----------------------------------


def test_reader_closing_the_pipe_is_a_quiet_success(profile: Path) -> None:
    code, out, err = shell("ARCADE grundy king --rows 3000 --cols 3000 | head -2", profile)
    assert (code, err) == (0, "") and out.count("\n") == 2
    code, out, err = shell("ARCADE analyze button-madness --sizes 1-1000 | head -1", profile,
                           timeout=60)
    assert (code, out, err) == (0, "1 0\n", "")


# Every command, with arguments that answer at once (and the global --help, --version).
COMMANDS = {
    "solve mnk": "solve mnk --rows 3 --cols 3 --k 3",
    "solve connect4": "solve connect4 --cols 4 --rows 4 --moves 1212121",
    "solve button-madness": "solve button-madness --code 5x5:0",
    "analyze button-madness": "analyze button-madness --sizes 1-3",
    "grundy": "grundy king --rows 3 --cols 3",
    "review": "review 'connect4 5x4 33'",
    "help": "--help",
    "version": "--version",
}


def test_every_command_is_listed_here() -> None:
    parser = cli.build_parser()
    found = {" ".join(path) for path, _ in _commands(parser)}
    assert found == {k for k in COMMANDS if k not in ("help", "version")}


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(path, parser) of every command that has a handler."""
    for action in parser._actions:  # argparse internals, as in test_cli
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                if sub.get_default("handler") is not None:
                    yield (*path, name), sub
                else:
                    yield from _commands(sub, (*path, name))


@pytest.mark.skipif(not HAS_DEV_FULL, reason="/dev/full is Linux")
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_full_disk_on_stdout_is_one_line_and_exit_1(profile: Path, name: str) -> None:
    code, _, err = shell(f"ARCADE {COMMANDS[name]} >/dev/full", profile)
    assert code == 1
    assert one_line(err) == "arcade: could not write the answer: No space left on device"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_closed_stdout_is_one_line_and_exit_1(profile: Path, name: str) -> None:
    code, _, err = shell(f"ARCADE {COMMANDS[name]} >&-", profile)
    assert code == 1
    assert one_line(err) == "arcade: could not write the answer: standard output is closed"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_reader_gone_before_the_answer_is_a_quiet_success(profile: Path, name: str) -> None:
    code, _, err = shell(f"ARCADE {COMMANDS[name]} | true", profile)
    assert (code, err) == (0, "")


@pytest.mark.skipif(not HAS_DEV_FULL, reason="/dev/full is Linux")
@pytest.mark.parametrize("stderr", ["2>/dev/full", "2>&-"])
def test_unusable_stderr_too_still_gives_the_right_exit_code(profile: Path, stderr: str) -> None:
    # Exit 1, not the interpreter's 120 for a failed flush at exit, and no hang.
    code, out, _ = shell(f"ARCADE solve button-madness --code 5x5:0 >/dev/full {stderr}",
                         profile)
    assert code == 1
    code, _, _ = shell(f"ARCADE solve button-madness --code 5x5:x {stderr}", profile)
    assert code == 2
    code, out, _ = shell(f"ARCADE solve mnk --rows 3 --cols 3 --k 3 {stderr}", profile)
    assert (code, out) == (0, "draw\n")


def test_closed_stdin_is_one_line_and_exit_2(profile: Path) -> None:
    code, out, err = shell("ARCADE solve button-madness --code - <&-", profile)
    assert (code, out) == (2, "")
    assert one_line(err) == "arcade: could not read the code: standard input is closed"


def test_stdin_that_is_not_readable_is_one_line_and_exit_2(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    class Broken:
        def read(self, size: int = -1) -> str:
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(sys, "stdin", Broken())
    assert cli.main(["solve", "button-madness", "--code", "-"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and one_line(err) == \
        "arcade: could not read the code from standard input: Input/output error"


class _FailingStream:
    """A standard output whose writes fail with ``error``; remembers nothing."""

    def __init__(self, error: OSError) -> None:
        self.error = error

    def write(self, text: str) -> int:
        raise self.error

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("error,code,message", [
    (BrokenPipeError(32, "Broken pipe"), 0, ""),
    (OSError(28, "No space left on device"), 1,
     "arcade: could not write the answer: No space left on device\n"),
    (OSError(5, "Input/output error"), 1,
     "arcade: could not write the answer: Input/output error\n"),
])
def test_run_command_maps_output_failures(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str],
                                          error: OSError, code: int, message: str) -> None:
    capsys.readouterr()
    stream = _FailingStream(error)
    monkeypatch.setattr(sys, "stdout", stream)

    def command() -> int:
        print("the answer")
        return 0

    assert cli.run_command(command) == code
    assert sys.stdout is stream  # put back as it was
    assert capsys.readouterr().err == message


def test_run_command_does_not_blame_the_output_for_other_errors() -> None:
    def command() -> int:
        open(ROOT / "no-such-file-here")  # an error of the command itself
        return 0

    with pytest.raises(FileNotFoundError):
        cli.run_command(command)


def test_run_command_interrupted_is_exit_130_without_traceback(
        capsys: pytest.CaptureFixture[str]) -> None:
    def command() -> int:
        raise KeyboardInterrupt

    assert cli.run_command(command) == 130
    assert capsys.readouterr().err == "arcade: interrupted\n"


def test_say_never_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.core.console import say

    monkeypatch.setattr(sys, "stderr", None)
    say("nowhere to go")
    monkeypatch.setattr(sys, "stderr", _FailingStream(OSError(28, "No space left on device")))
    say("no room")


# --- finding 14: one rule for numbers -------------------------------------------------------


BAD_WHOLE = ["٣", "３", "+3", "-3", "1_0", " 3 ", "3 ", "3.0", "1e1", "0x3", "", "三", "³"]
BAD_SECONDS = ["٣", "３", "+3", "-3", "1_0", " 3 ", "1e1", "inf", "nan", "1.5.2", "", "1,5",
               "½"]


@pytest.mark.parametrize("text", BAD_WHOLE)
def test_parse_whole_refuses_other_forms(text: str) -> None:
    with pytest.raises(ValueError, match="digits 0-9 only"):
        parse_whole(text)


@pytest.mark.parametrize("text", BAD_SECONDS)
def test_parse_decimal_refuses_other_forms(text: str) -> None:
    with pytest.raises(ValueError, match="digits 0-9 only"):
        parse_decimal(text)


def test_the_rule_accepts_plain_numbers() -> None:
    assert [parse_whole(t) for t in ("0", "7", "007", "4096")] == [0, 7, 7, 4096]
    assert [parse_decimal(t) for t in ("1", "1.5", ".5", "120", "0.25")] == \
        [1.0, 1.5, 0.5, 120.0, 0.25]
    with pytest.raises(ValueError, match="too long"):
        parse_whole("1" * 5000)  # refused before int() (which stops at 4,300 digits)


# Every numeric option of every command, with a valid value; "{}" is where the number goes.
NUMERIC = {
    (): {"--window": ("{}x720", "960")},
    ("solve", "mnk"): {"--rows": ("{}", "3"), "--cols": ("{}", "3"), "--k": ("{}", "3"),
                       "--time-limit": ("{}", "1.5"), "--max-table": ("{}", "1000")},
    ("solve", "connect4"): {"--cols": ("{}", "7"), "--rows": ("{}", "6"), "--k": ("{}", "4"),
                            "--time-limit": ("{}", "1.5"), "--max-table": ("{}", "1000")},
    ("solve", "button-madness"): {"--time-limit": ("{}", "1.5"), "--max-memory": ("{}", "64")},
    ("analyze", "button-madness"): {"--sizes": ("1-{}", "3")},
    ("grundy",): {"--rows": ("{}", "3"), "--cols": ("{}", "3")},
    ("review",): {"--time-limit": ("{}", "1.5")},
}
POSITIONAL = {("grundy",): ["king"], ("solve", "button-madness"): ["--code", "5"],
              ("review",): ["connect4 5x4 33"]}
SECONDS = {"--time-limit"}


def _numeric_options(parser: argparse.ArgumentParser) -> dict[tuple[str, ...], set[str]]:
    """The options of each command whose type reads a number."""
    number_types = {"int_in.<locals>.parse", "positive_seconds", "_window_size", "_sizes"}
    found: dict[tuple[str, ...], set[str]] = {}

    def scan(p: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        found.setdefault(path, set())
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    scan(sub, (*path, name))
            elif getattr(action.type, "__qualname__", "") in number_types:
                found[path].add(action.option_strings[0])

    scan(parser, ())
    return {path: options for path, options in found.items()
            if options or path in NUMERIC}


def test_every_numeric_option_is_covered() -> None:
    found = _numeric_options(cli.build_parser())
    assert {p: set(o) for p, o in NUMERIC.items()} == {p: o for p, o in found.items()
                                                        if p in NUMERIC or o}


def _argv(path: tuple[str, ...], option: str, value: str) -> list[str]:
    argv = [*path, *POSITIONAL.get(path, [])]
    for name, (template, good) in NUMERIC[path].items():
        # --name=VALUE, so a value starting with "-" still reaches the option's type.
        argv.append(f"{name}={template.format(value if name == option else good)}")
    return argv if path else [*argv, "--smoke"]


CASES = [(path, option, bad)
         for path, options in NUMERIC.items() for option in options
         for bad in (BAD_SECONDS if option in SECONDS else BAD_WHOLE)]


@pytest.mark.parametrize("path,option,bad", CASES,
                         ids=[f"{' '.join(p) or 'arcade'} {o} {b!r}" for p, o, b in CASES])
def test_numeric_options_refuse_other_forms(path: tuple[str, ...], option: str, bad: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    parser = cli.build_parser()
    with pytest.raises(SystemExit) as stop:
        parser.parse_args(_argv(path, option, bad))
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}" in err and "digits 0-9 only" in err


@pytest.mark.parametrize("path", list(NUMERIC), ids=[" ".join(p) or "arcade" for p in NUMERIC])
def test_numeric_options_accept_the_plain_form(path: tuple[str, ...]) -> None:
    args = cli.build_parser().parse_args(_argv(path, "", ""))
    for option, (_template, good) in NUMERIC[path].items():
        value = getattr(args, option.lstrip("-").replace("-", "_"))
        if option == "--window":
            assert value == (960, 720)
        elif option == "--sizes":
            assert value == range(1, 4)
        else:
            assert value == (float(good) if option in SECONDS else int(good))


@pytest.mark.parametrize("bad", ["٣", "３", "+3", "1_0", "3.0"])
def test_numbers_in_a_real_process(profile: Path, bad: str) -> None:
    out = run("grundy", "king", "--rows", bad, "--cols", "3", profile=profile)
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert "digits 0-9 only" in out.stderr


@pytest.mark.parametrize("moves", ["٣", "３", "1٣", "+1", "1 2", "1_2"])
def test_connect4_moves_are_ascii_digits_only(profile: Path, moves: str) -> None:
    out = run("solve", "connect4", "--cols", "7", "--rows", "6", "--moves", moves,
              profile=profile)
    assert out.returncode == 2 and "--moves: move" in out.stderr and out.stdout == ""


@pytest.mark.parametrize("code", ["٣", "３", "+3", "1_0", "5x5:1_0", "٥x٥:1", "5x5:+1",
                                  "5x5:1e3", "5x5:٣", "5 x5:1", "5x5: 1"])
def test_board_codes_follow_the_same_rule(code: str) -> None:
    from games.buttons.board import CodeError, parse_code

    with pytest.raises(CodeError):
        parse_code(code)


def test_numbers_rule_is_in_the_top_level_help(profile: Path) -> None:
    text = " ".join(run("--help", profile=profile).stdout.split())
    assert "Numbers are written with digits 0-9 only, with no sign, spaces or underscores; " \
           "seconds may have one decimal point, e.g. 1.5." in text


# --- budgets ------------------------------------------------------------------------------


MEASURE = """\
import json, resource, subprocess, sys
with open(sys.argv[1], "rb") as stdin:
    done = subprocess.run(sys.argv[2:], stdin=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
children = resource.getrusage(resource.RUSAGE_CHILDREN)
peak = children.ru_maxrss
scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB elsewhere
print(json.dumps({"code": done.returncode, "seconds": children.ru_utime + children.ru_stime,
                  "peak_mb": peak * scale / 2**20, "stdout": done.stdout.decode(),
                  "stderr": done.stderr.decode()}))
"""


def measure(tmp_path: Path, stdin: Path, *args: str, profile: Path) -> dict:
    """Exit code, CPU seconds, peak memory, stdout and stderr of ``python main.py ARGS`` (a
    fresh parent process, so the peak and the time are that command's alone). CPU time,
    not the wall clock: other processes on a busy machine stretch the latter, while a
    command that did the work the budget forbids still shows it here (issue 29
    finding 13)."""
    script = tmp_path / "measure.py"
    script.write_text(MEASURE)
    out = subprocess.run([sys.executable, str(script), str(stdin), sys.executable, str(MAIN),
                          *args], capture_output=True, text=True, env=base_env(profile),
                         cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


needs_resource = pytest.mark.skipif(sys.platform == "win32", reason="resource is POSIX only")


@needs_resource
def test_budget_ten_megabyte_code_on_stdin(tmp_path: Path, profile: Path) -> None:
    huge = tmp_path / "huge.txt"
    huge.write_text("1000x1000:" + "9" * 10_000_000 + "\n")
    result = measure(tmp_path, huge, "solve", "button-madness", "--code", "-", profile=profile)
    assert result["code"] == 2 and result["stdout"] == ""
    assert "longer than 400000 characters" in result["stderr"]
    assert "Traceback" not in result["stderr"]
    assert result["seconds"] < 20 and result["peak_mb"] < 500, result


def _solvable_code(n: int, seed: int) -> tuple[str, int]:
    """A board made by random presses from the solved board (so it is solvable)."""
    from games.buttons.board import Board, format_code, press_effect

    presses = random.Random(seed).getrandbits(n * n)
    full = (1 << (n * n)) - 1
    return format_code(Board(n, full ^ press_effect(n, presses))), full ^ press_effect(n, presses)


@needs_resource
def test_budget_largest_valid_code_on_stdin_still_solves(tmp_path: Path, profile: Path) -> None:
    from games.buttons.board import grid_to_bits, press_effect

    n = 1000
    code, bits = _solvable_code(n, 13)
    assert len(code) > 301_000
    source = tmp_path / "code.txt"
    source.write_text(code + "\n")
    result = measure(tmp_path, source, "solve", "button-madness", "--code", "-", profile=profile)
    assert result["code"] == 0, result["stderr"]
    assert result["seconds"] < 60 and result["peak_mb"] < 500, \
        {k: v for k, v in result.items() if k != "stdout"}
    import numpy as np

    grid = np.zeros((n, n), dtype=bool)
    for line in result["stdout"].splitlines():
        row, col = (int(part.split()[1]) for part in line.split(", "))
        grid[row - 1, col - 1] = True
    assert bits ^ press_effect(n, grid_to_bits(grid)) == (1 << (n * n)) - 1


@needs_resource
def test_budget_analyze_largest_sizes(tmp_path: Path, profile: Path) -> None:
    """The largest sizes of ``analyze button-madness --sizes 1-1000`` (they cost the most
    and reach the whole run's peak memory; the full run's figures are in docs/reliability.md)."""
    empty = tmp_path / "empty"
    empty.write_text("")
    result = measure(tmp_path, empty, "analyze", "button-madness", "--sizes", "981-1000",
                     profile=profile)
    assert result["code"] == 0
    from games.buttons.solver import nullity

    lines = result["stdout"].splitlines()
    assert lines[-1] == f"1000 {nullity(1000)}" and len(lines) == 20
    assert result["seconds"] < 120 and result["peak_mb"] < 500, \
        {k: v for k, v in result.items() if k != "stdout"}
