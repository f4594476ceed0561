"""Records (engine.model.records): one line per game, read back exactly, and every bad
record refused with what is wrong and where."""

from __future__ import annotations

import random

import pytest

from engine.model.records import MAX_RECORD, RecordError, parse_record, record_text
from engine.model.registry import find_game

C4 = find_game("connect4")
TTT = find_game("tictactoe")


def test_connect_four_moves_run_together_as_in_solve_connect4() -> None:
    record = parse_record("connect4 7x6 4453")
    assert record.moves == (3, 3, 4, 2)
    assert record_text(C4, record.params, record.start, record.moves) == "connect4 7x6 4453"
    # Spaced out, or by an alias, it reads the same.
    assert parse_record("c4 7x6 4 4 5 3").moves == record.moves


def test_tic_tac_toe_cells_are_named_like_b2() -> None:
    record = parse_record("tictactoe 3x3:k3 b2 a1 C3")
    assert record.moves == (4, 6, 2)
    assert record_text(TTT, record.params, record.start, record.moves) == \
        "tictactoe 3x3:k3 b2 a1 c3"


@pytest.mark.parametrize(("text", "where", "what"), [
    ("", "", "empty"),
    ("chess 8x8 e4", "word 1", "no game is called 'chess'"),
    ("button-madness 4x4", "word 1", "puzzle"),
    ("connect4", "word 2", "game ID is missing"),
    ("connect4 99x1 4", "word 2", "not a game ID of connect4"),
    ("connect4 7x6 4458", "word 3, move 4", "move 4 (8) is not a legal move there"),
    ("tictactoe 3x3:k3 b2 b2", "word 4", "move 2 (b2) is not a legal move there"),
    ("tictactoe 3x3:k3 a1 b1 a2 b2 a3 c3", "word 8", "comes after the end of the game"),
    ("connect4 7x6 4444444", "word 3, move 7", "move 7 (4) is not a legal move there"),
])
def test_a_bad_record_says_what_is_wrong_and_where(text: str, where: str, what: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    assert caught.value.where == where
    assert what in str(caught.value)


def test_a_huge_record_is_refused_before_it_is_read() -> None:
    with pytest.raises(RecordError, match="at most"):
        parse_record("connect4 7x6 " + "4" * MAX_RECORD)


def test_a_position_set_by_hand_has_no_record() -> None:
    spec = TTT.param_spec()
    params = spec.decode("3x3:k3")
    start = TTT.new_game(params, random.Random(0)).play(4)
    with pytest.raises(ValueError, match="no record"):
        record_text(TTT, params, start, [0])


def test_tic_tac_toe_names_cells_past_z_like_a_spreadsheet() -> None:
    from games.tictactoe.notation import column_name

    assert [column_name(c) for c in (0, 1, 25, 26, 27, 63)] == ["a", "b", "z", "aa", "ab", "bl"]
