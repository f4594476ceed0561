"""The generic puzzle review (engine.midend.puzzle_review) and the attempt it replays
(PuzzleMidend.attempt_moves)."""

from __future__ import annotations

import pytest

from engine.midend.puzzle import PuzzleMidend
from engine.midend.puzzle_review import CHECKPOINT, FEWEST, YOURS, PuzzleReplay
from games.buttons.board import Board

START = Board.solved(3).press(0, 0)


def test_attempt_moves_are_those_since_the_attempt_began_up_to_the_position_shown() -> None:
    midend = PuzzleMidend(START, inverse=Board.play)
    midend.play((1, 1))
    midend.restart()
    for move in ((2, 2), (1, 1), (0, 0)):
        midend.play(move)
    midend.undo()
    start, moves, skipped = midend.attempt_moves()
    assert start == START and moves == ((2, 2), (1, 1)) and skipped == 0


def test_the_replay_walks_either_line_and_rebuilds_positions_from_checkpoints() -> None:
    yours = [(0, 1), (0, 1)] * (CHECKPOINT + 3) + [(0, 0)]
    replay = PuzzleReplay(START, yours)
    assert replay.fewest is None and replay.moves(FEWEST) == ()
    assert replay.go(len(yours)) and replay.state.is_solved
    assert replay.go(5) and replay.state == START.press(0, 1)
    replay.step(-10)
    assert replay.index == 0 and replay.state == START
    assert len(replay._checkpoints) <= 2 * len(yours) // CHECKPOINT + 2
    replay.set_solution([(0, 0)], proven=True)
    replay.choose(FEWEST)
    assert replay.length == 1 and replay.next_move == (0, 0)
    replay.step(5)
    assert replay.index == 1 and replay.state.is_solved and replay.last_move == (0, 0)
    replay.choose(YOURS)
    assert replay.index == 0 and replay.length == len(yours)
    with pytest.raises(ValueError):
        replay.choose("theirs")


def test_an_unsolvable_start_is_said_not_replayed() -> None:
    replay = PuzzleReplay(START, [])
    replay.set_solution(None, proven=True)
    assert replay.unsolvable and not replay.proven and replay.moves(FEWEST) == ()
