"""The journal of a game in progress (issue 29 finding 2): its edits, reading it back
(a torn last line, a journal of another save), writing it off the frame loop, compacting
it on leave, and a failed write said once; and holding a game (finding 7)."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import pygame
import pytest

from engine.model.registry import find_game
from engine.storage import journal as journal_module
from engine.storage.journal import diff, patch, read_journal, text_digest
from engine.storage.saved_games import open_game
from tests.conftest import key, make_app
from tests.engine.storage.test_saved_games import MOVES, open_tile, play, saved


def journal_of(profile: Path, game_id: str) -> Path:
    return profile / "saved" / f"{game_id}.journal"


def killed(app) -> None:
    """As a kill leaves things: nothing more is saved; the system lets go of its locks."""
    app.game_saves.writer.drain()
    app.game_saves.release_all()
    app.running = False


# --- edits ---------------------------------------------------------------------------------


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(5 if depth < 3 else 3)
    if kind == 0:
        return rng.randrange(4)
    if kind == 1:
        return rng.choice(["a", "b", None, True])
    if kind == 2:
        return [rng.randrange(3) for _ in range(rng.randrange(4))]
    if kind == 3:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {k: random_value(rng, depth + 1) for k in rng.sample("wxyz", rng.randrange(4))}


def test_an_edit_turns_the_old_state_into_the_new() -> None:
    rng = random.Random(29)
    for _ in range(3000):
        old, new = random_value(rng), random_value(rng)
        edit = diff(old, new)
        assert patch(old, json.loads(json.dumps(edit))) == new
        assert diff(new, new) is None


def test_a_move_is_one_log_entry_not_the_whole_log() -> None:
    old = {"log": [[0]] + [[0, i] for i in range(5000)], "index": 5000, "paused": False}
    new = {**old, "log": old["log"] + [[0, 7]], "index": 5001}
    edit = diff(old, new)
    assert len(json.dumps(edit)) < 100
    assert patch(old, edit) == new


def test_an_edit_that_does_not_fit_is_refused() -> None:
    for old, edit in ((5, {"k": {}}), ([1], {"l": 3, "+": []}), ({}, {"l": 0, "+": []}),
                      ([1], {"?": 1}), ([1], 7)):
        with pytest.raises(ValueError):
            patch(old, edit)


def write_journal(path: Path, base: str | None, lines: list[bytes]) -> None:
    header = {"journal": 1, "game": "g", "base": base}
    path.write_bytes(json.dumps(header).encode() + b"\n" + b"".join(lines))


def test_reading_stops_at_a_torn_or_wrong_line_and_a_journal_of_another_save_is_ignored(
        tmp_path: Path) -> None:
    path = tmp_path / "g.journal"
    good = [b'{"n":1,"d":{"=":1}}\n', b'{"n":2,"d":{"=":2}}\n']
    write_journal(path, "abc", [*good, b'{"n":3,"d":{"='])  # torn by a kill
    assert read_journal(path, "abc", "g") == ({"journal": 1, "game": "g", "base": "abc"},
                                              [{"=": 1}, {"=": 2}])
    assert read_journal(path, "other", "g") is None  # a journal of an older save
    assert read_journal(path, "abc", "h") is None
    assert read_journal(path, None, "g") is None
    write_journal(path, None, [good[0], b'{"n":5,"d":{"=":5}}\n', good[1]])
    assert read_journal(path, None, "g")[1] == [{"=": 1}]  # a line out of order ends it
    write_journal(path, None, [good[0], b"\xff\xfe garbage\n", good[1]])
    assert read_journal(path, None, "g")[1] == [{"=": 1}]
    path.write_bytes(b"")
    assert read_journal(path, None, "g") is None
    assert read_journal(tmp_path / "none.journal", None, "g") is None
    assert text_digest(None) is None and text_digest("x") != text_digest("y")


# --- in the app --------------------------------------------------------------------------------


def test_every_move_is_in_the_journal_and_a_killed_copy_loses_none(profile: Path) -> None:
    app = make_app(profile)
    open_tile(app, "tictactoe")
    play(app, MOVES[:3])
    killed(app)
    assert journal_of(profile, "tictactoe").exists()
    assert not saved(profile, "tictactoe").exists(), "never left: no full save yet"
    again = make_app(profile)
    try:
        resumed = open_tile(again, "tictactoe")
        assert resumed.state.to_rows() == ["O..", ".X.", "..X"] and not again.notices
        assert resumed.history.index == 3
        # It goes on from there: the next move adds one line to the same journal.
        lines = len(journal_of(profile, "tictactoe").read_bytes().splitlines())
        play(again, [MOVES[3]])
        again.game_saves.writer.drain()
        assert len(journal_of(profile, "tictactoe").read_bytes().splitlines()) == lines + 1
        # Leaving compacts: the save holds every move, the journal is gone.
        key(again, pygame.K_ESCAPE)
        assert not journal_of(profile, "tictactoe").exists()
        assert json.loads(saved(profile, "tictactoe").read_text())["state"]["index"] == 4
        # Killed after a resume from a full save: the journal follows that save.
        resumed = open_tile(again, "tictactoe")
        key(again, pygame.K_z, pygame.KMOD_LCTRL)  # Undo is a change too
        assert resumed.history.index == 3
        killed(again)
    finally:
        again.stats.close()
    third = make_app(profile)
    try:
        resumed = open_game(third, find_game("tictactoe"))
        third.push(resumed)
        assert resumed.history.index == 3 and resumed.can_redo()
    finally:
        third.quit()
        third.stats.close()


def test_a_journal_left_behind_by_a_kill_after_the_save_is_ignored(profile: Path) -> None:
    """Killed between writing the full save and removing the journal: the journal follows
    an older save (its base), so the newer save resumes as it is."""
    app = make_app(profile)
    open_tile(app, "tictactoe")
    play(app, MOVES[:2])
    app.game_saves.writer.drain()
    stale = journal_of(profile, "tictactoe").read_bytes()
    play(app, MOVES[2:4])
    key(app, pygame.K_ESCAPE)
    journal_of(profile, "tictactoe").write_bytes(stale)
    app.quit()
    app.stats.close()
    again = make_app(profile)
    try:
        resumed = open_tile(again, "tictactoe")
        assert resumed.history.index == 4
    finally:
        again.quit()
        again.stats.close()


def test_the_frame_loop_never_writes_the_journal(profile: Path, monkeypatch) -> None:
    threads: list[str] = []
    real = journal_module._write

    def spy(path: Path, data: bytes, new: bool) -> None:
        threads.append(threading.current_thread().name)
        real(path, data, new)

    monkeypatch.setattr(journal_module, "_write", spy)
    app = make_app(profile)
    try:
        open_tile(app, "tictactoe")
        play(app, MOVES)
        app.game_saves.writer.drain()
        # (Lines queued while the writer was busy share its next write.)
        assert 1 <= len(threads) <= 1 + len(MOVES)
        assert threading.main_thread().name not in threads
        lines = journal_of(profile, "tictactoe").read_bytes().splitlines()
        assert len(lines) == 1 + len(MOVES)  # the header, then a line per move
    finally:
        app.quit()
        app.stats.close()


def test_a_journal_that_cannot_be_written_is_said_once_and_leaving_still_saves(
        profile: Path) -> None:
    (profile / "saved" / "tictactoe.journal").mkdir(parents=True)
    app = make_app(profile)
    try:
        open_tile(app, "tictactoe")
        play(app, MOVES[:2])
        app.game_saves.writer.drain()
        play(app, MOVES[2:])
        app.game_saves.writer.drain()
        app.step([])
        told = [n for n in app.notices if "could not be written" in n]
        assert len(told) == 1
        key(app, pygame.K_ESCAPE)
        key(app, pygame.K_ESCAPE)
        assert json.loads(saved(profile, "tictactoe").read_text())["state"]["index"] == 4
    finally:
        app.quit()
        app.stats.close()


def test_a_game_is_held_by_one_copy_until_it_leaves(profile: Path) -> None:
    first, second = make_app(profile), make_app(profile)
    try:
        assert first.game_saves.hold("tictactoe")
        assert not second.game_saves.hold("tictactoe")
        first.game_saves.release("tictactoe")
        assert second.game_saves.hold("tictactoe")
    finally:
        for app in (first, second):
            app.quit()
            app.stats.close()


def test_after_resuming_a_save_a_move_writes_one_short_line(profile: Path) -> None:
    """The journal follows the save it resumed (its base): a move is one log entry."""
    app = make_app(profile)
    open_tile(app, "tictactoe")
    play(app, MOVES[:3])
    key(app, pygame.K_ESCAPE)
    open_tile(app, "tictactoe")
    play(app, [MOVES[3]])
    killed(app)
    app.stats.close()
    lines = journal_of(profile, "tictactoe").read_bytes().splitlines()
    assert len(lines) == 2 and len(lines[1]) < 100, lines
    assert json.loads(lines[0])["base"] is not None
    again = make_app(profile)
    try:
        assert open_tile(again, "tictactoe").history.index == 4
    finally:
        again.quit()
        again.stats.close()


V1 = sorted((Path(__file__).resolve().parents[2] / "data" / "saved_v1").glob("*.json"))


@pytest.mark.parametrize("path", V1, ids=lambda p: p.stem)
def test_a_change_after_resuming_a_version_1_save_survives_a_kill(profile: Path,
                                                                 path: Path) -> None:
    """A journal following a save of an earlier version begins with the whole state."""
    data = json.loads(path.read_text())
    game = find_game(data["game"])
    (profile / "saved").mkdir(parents=True)
    (profile / "saved" / f"{game.id}.json").write_text(path.read_text())
    app = make_app(profile)
    scene = open_game(app, game)
    app.push(scene)
    midend = scene.puzzle if game.is_puzzle else scene.match
    assert midend.undo()
    index = midend.history.index
    app.step([])
    killed(app)
    app.stats.close()
    again = make_app(profile)
    try:
        resumed = open_game(again, game)
        again.push(resumed)
        other = resumed.puzzle if game.is_puzzle else resumed.match
        assert other.history.index == index and not again.notices
    finally:
        again.quit()
        again.stats.close()
