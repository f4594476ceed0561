"""Saves written by format version 1 (positions, not moves) still resume.

tests/data/saved_v1/ holds real saves of every game made by the version-1 code
(tests/data/make_saved_v1.py): the resumed game must show the saved position, keep the
saved history (undo and redo through it, back past a New game) and the saved seats; and
saved again, it is written in the current format and resumes the same.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.model.registry import find_game
from engine.storage.saved_data import seat_from_data
from engine.storage.saved_format import read_v1_position
from engine.storage.saved_games import SAVE_VERSION, encode, resume
from games.buttons.board import load_state as load_board

DATA = Path(__file__).resolve().parents[2] / "data" / "saved_v1"
FIXTURES = sorted(DATA.glob("*.json"))


def test_there_is_a_fixture_of_every_game() -> None:
    games = {json.loads(path.read_text())["game"] for path in FIXTURES}
    assert games == {"tictactoe", "connect4", "grundy", "button-madness"}
    assert all(json.loads(path.read_text())["version"] == 1 for path in FIXTURES)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_a_version_1_save_resumes_as_it_was_left(app, path: Path) -> None:
    text = path.read_text()
    data = json.loads(text)
    game = find_game(data["game"])
    spec = game.param_spec()
    params = spec.decode(data["params"])
    scene = resume(app, game, text)
    state = data["state"]
    if game.is_puzzle:
        steps = state["puzzle"]["steps"]
        assert scene.puzzle.history.index == state["puzzle"]["index"]
        assert len(scene.puzzle.history) == len(steps)
        last = steps[state["puzzle"]["index"]]
        assert scene.puzzle.history.current.move == (None if last[1] is None
                                                     else tuple(last[1]))
        undos = 0
        while scene.puzzle.undo():
            undos += 1
        assert undos == len(steps) - 1
        first = state["puzzle"]["puzzles"][0]["start"]
        assert scene.puzzle.state == load_board(params, first)
    else:
        expected = [(serial, read_v1_position(game, params, raw))
                    for serial, raw in state["history"]]
        assert [(serial, position) for serial, position in scene.history.entries] == expected
        assert scene.history.index == state["index"]
        assert scene.state == expected[state["index"]][1]
        assert scene.seats == tuple(seat_from_data(seat, i + 1, game.levels)
                                    for i, seat in enumerate(state["seats"]))
        assert scene.recorded == set(state["recorded"])
        assert scene.match.next_serial == state["next_serial"]
        assert scene.paused == state["paused"] and scene.show_hints == state["hints"]
        # Redo to the end and undo to the start walk the saved positions.
        while scene.history.can_redo:
            scene.history.redo()
        assert scene.state == expected[-1][1]
        while scene.history.can_undo:
            scene.history.undo()
        assert scene.state == expected[0][1]
        scene.history.redo()
    # Saved again: the current format, and it resumes the same.
    again = encode(scene)
    assert json.loads(again)["version"] == SAVE_VERSION
    copy = resume(app, game, again)
    if game.is_puzzle:
        assert copy.puzzle.state == scene.puzzle.state
        assert len(copy.puzzle.history) == len(scene.puzzle.history)
    else:
        assert copy.history.entries == scene.history.entries
        assert copy.history.index == scene.history.index and copy.seats == scene.seats
        assert copy.recorded == scene.recorded
    copy.leave()
    scene.leave()


def test_a_damaged_version_1_position_is_refused_saying_where(app) -> None:
    path = DATA / "tictactoe-3x3k3.json"
    data = json.loads(path.read_text())
    data["state"]["history"][2][1]["rows"][0] = 7
    with pytest.raises(ValueError, match="history entry 3"):
        resume(app, find_game("tictactoe"), json.dumps(data))


def test_a_version_1_position_no_move_reaches_becomes_a_start(app) -> None:
    """Two consecutive positions of one game that no legal move joins (set by hand) are
    kept as a start of their own, and saved again as such."""
    path = DATA / "grundy-king.json"
    data = json.loads(path.read_text())
    placed = {"tokens": [[2, 2]], "to_move": 0}
    data["state"]["history"][2][1] = placed  # after one move: a jump no king can make
    data["state"]["history"] = data["state"]["history"][:3]
    data["state"]["index"] = 2
    game = find_game("grundy")
    scene = resume(app, game, json.dumps(data))
    assert scene.state.tokens == ((2, 2),) and scene.history.index == 2
    assert scene.history.current.move is None and scene.history.entries[1].move is not None
    log = json.loads(encode(scene))["state"]["log"]
    assert log[0] == [0] and log[1][0] == 0 and log[2] == [0, None, placed]
    scene.leave()
