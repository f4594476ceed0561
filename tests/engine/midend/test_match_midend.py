"""The two-player midend without a display (engine/midend/match.py): seats, undo and redo to a
human's turn, results recorded once per game, new game numbers, hints asked once per
position with stale answers dropped, and saving: snapshot, restore, refusing bad data."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

import pytest

from engine.midend.match import MatchEvent, MatchMidend, MatchResult
from engine.model.rules import IllegalMove, find_move
from engine.model.seats import Seat

HUMAN = Seat("human")
CPU = Seat("computer", "easy")


@dataclass(frozen=True)
class Pile:
    """Take one or two from a pile; whoever takes the last wins."""

    left: int = 5
    to_move: int = 0
    num_players: int = 2

    def current_player(self) -> int:
        return self.to_move

    def legal_moves(self) -> list[int]:
        return [take for take in (1, 2) if take <= self.left]

    def play(self, move: int) -> Pile:
        if move not in self.legal_moves():
            raise IllegalMove(f"cannot take {move!r}")
        return Pile(self.left - move, 1 - self.to_move)

    def is_terminal(self) -> bool:
        return self.left == 0

    def returns(self) -> tuple[float, ...]:
        if not self.is_terminal():
            return (0.0, 0.0)
        winner = 1 - self.to_move
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)


def midend(seats=(HUMAN, HUMAN), start: Pile | None = None):
    """A midend on a pile of 5, the results it recorded and the events it sent."""
    results: list[MatchResult] = []
    events: list[MatchEvent] = []
    made: list[tuple[Seat, ...]] = []

    def agents(chosen):
        made.append(chosen)
        return [f"agent{i}" if seat.is_computer else None for i, seat in enumerate(chosen)]

    match = MatchMidend(start or Pile(), seats, fresh=Pile, make_agents=agents,
                        record=results.append)
    match.add_listener(events.append)
    return match, results, events, made


def test_it_imports_no_display() -> None:
    assert "engine.midend.match" in sys.modules
    import subprocess

    out = subprocess.run([sys.executable, "-c", "import engine.midend.match, sys; "
                          "print('pygame' in sys.modules, "
                          "'engine.screens.turn_scene' in sys.modules)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_seats_and_agents() -> None:
    match, _results, _events, made = midend((HUMAN,))  # a missing seat is a human
    assert match.seats == (HUMAN, Seat())
    match, _results, _events, made = midend((HUMAN, CPU))
    assert match.agents == [None, "agent1"] and made == [(HUMAN, CPU)]
    assert match.any_computer() and not match.all_computers()
    assert match.human_to_move() and not match.computer_to_move()
    match.play(1)
    assert match.computer_to_move() and match.agent_to_move() == "agent1"


def test_an_illegal_move_changes_nothing() -> None:
    match, _results, events, _made = midend()
    with pytest.raises(IllegalMove):
        match.play(3)
    assert match.state == Pile() and len(match.history) == 1 and events == []


def test_undo_and_redo_go_to_the_humans_turn_against_the_computer() -> None:
    match, _results, events, _made = midend((HUMAN, CPU))
    match.play(1)  # human
    match.play(1, by_computer=True)
    match.play(2)  # human
    match.play(1, by_computer=True)  # 0 left: the computer won
    assert match.state.is_terminal() and events[-1].kind == "finished"
    assert match.can_undo() and match.undo()
    assert match.state == Pile(3, 0) and match.human_to_move()  # before the human's 2
    assert match.undo() and match.state == Pile(5, 0)
    assert not match.can_undo() and not match.undo()
    assert match.redo() and match.state == Pile(3, 0)  # to the human's next turn
    assert match.redo() and match.state.is_terminal()  # or the end
    assert not match.can_redo()
    assert [e.kind for e in events[-4:]] == ["changed"] * 4


def test_undo_with_only_computers_steps_once_and_pauses() -> None:
    match, _results, _events, _made = midend((CPU, CPU))
    match.play(1, by_computer=True)
    match.play(1, by_computer=True)
    assert not match.paused
    assert match.undo() and match.state == Pile(4, 1) and match.paused
    assert match.toggle_pause() is False and not match.paused


def test_a_result_is_recorded_once_per_game_even_after_undo_and_replay() -> None:
    match, results, events, _made = midend()
    for take in (2, 2, 1):
        match.play(take)
    assert [r.outcome for r in results] == ["won"] and results[0].serial == 0
    assert events[-1] == MatchEvent("finished", Pile(1, 0), Pile(0, 1), False, True)
    match.undo()
    match.play(1)  # the same end again
    match.undo()
    match.redo()
    assert len(results) == 1 and events[-3].kind == "finished" and not events[-3].first
    # A new game is another game: its end is recorded.
    assert match.new_game() and match.serial == 1 and match.state == Pile()
    for take in (1, 1, 1, 2):
        match.play(take)
    assert [(r.serial, r.outcome) for r in results] == [(0, "won"), (1, "lost")]


def test_new_games_get_new_serials_and_are_undoable() -> None:
    match, _results, _events, _made = midend()
    assert not match.new_game()  # already at the start
    match.play(1)
    assert match.new_game() and match.serial == 1 and match.next_serial == 2
    assert match.moves_played() == 0 and match.last_step() is None
    match.undo()
    assert match.serial == 0 and match.state == Pile(4, 1)
    assert match.last_step() == (Pile(), Pile(4, 1)) and match.moves_played() == 1
    assert match.last_moves() == {0: (Pile(), Pile(4, 1))}
    match.new_game()  # drops the redo tail; the undone game number is not reused
    assert match.serial == 2
    match.new_game(Pile(2, 1))  # a start set by hand
    assert match.serial == 3 and match.state == Pile(2, 1)


def test_hints_are_asked_once_per_position_and_stale_answers_dropped() -> None:
    match, _results, _events, _made = midend()
    key = match.hint_request()
    assert key is not None and match.hint_request() is None  # asked already
    match.play(1)
    assert not match.hint_answer(key, {1: "win"}), "an answer for another position"
    assert match.hints == {}
    key = match.hint_request()
    assert match.hint_answer(key, {1: "win", 2: "loss"}, "extra")
    assert match.hints == {1: "win", 2: "loss"} and match.hint_extra == "extra"
    assert match.hint_request() is None
    match.forget_hint_request()  # hints hidden, then shown again
    assert match.hint_request() == key
    match.undo()
    assert match.hints == {} and match.hint_extra is None  # another position
    match.redo()
    assert not match.hint_answer(key[:1] + (Pile(9),), {})  # same index, other position
    for take in (2, 2):
        match.play(take)
    assert match.state.is_terminal() and match.hint_request() is None


def played() -> MatchMidend:
    match, _results, _events, _made = midend((HUMAN, CPU))
    match.play(1)
    match.play(1, by_computer=True)
    match.play(2)
    match.play(1, by_computer=True)  # the computer won: recorded
    match.new_game()
    match.play(2)
    match.undo()
    return match


def test_snapshot_and_restore_round_trip() -> None:
    match = played()
    data = json.loads(json.dumps(match.snapshot()))
    assert data["log"] == [[0], [0, 1], [0, 1], [0, 2], [0, 1], [1], [1, 2]]
    copy, results, events, made = midend()
    copy.restore(data, levels=("easy", "hard"))
    assert [(s.serial, s.state, s.move) for s in copy.history.entries] == \
        [(s.serial, s.state, s.move) for s in match.history.entries]
    assert copy.history.index == match.history.index and copy.state == match.state
    assert copy.seats == match.seats and copy.agents == [None, "agent1"]
    assert copy.recorded == {0} and copy.next_serial == 2 and not copy.paused
    assert events[-1].kind == "changed" and results == []
    # The finished game, replayed to its end, is not recorded again.
    copy.undo()
    copy.redo()
    assert results == []
    # A start set by hand is written by the encoder and read back by the decoder.
    match.new_game(Pile(2, 1))
    data = match.snapshot(lambda pile: {"left": pile.left, "to_move": pile.to_move})
    assert data["log"][-1] == [2, None, {"left": 2, "to_move": 1}]
    copy.restore(data, decode_start=lambda raw: Pile(raw["left"], raw["to_move"]))
    assert copy.state == Pile(2, 1) and copy.serial == 2
    with pytest.raises(ValueError):
        match.snapshot()  # such a start cannot be written without an encoder


def test_compact_keeps_the_game_on_screen() -> None:
    match = played()
    data = match.snapshot(compact=True)
    assert data["log"] == [[1], [1, 2]] and data["index"] == 0 and data["recorded"] == []


BAD = {
    "not an object": lambda d: [],
    "no log": lambda d: {k: v for k, v in d.items() if k != "log"},
    "an illegal move": lambda d: {**d, "log": [*d["log"][:2], [0, 3]]},
    "a move after the end": lambda d: {**d, "log": [*d["log"][:5], [0, 1]]},
    "not a move": lambda d: {**d, "log": [[0], [0, 1.5]]},
    "a move first": lambda d: {**d, "log": [[0, 1]]},
    "serials going back": lambda d: {**d, "log": [[1], [0]]},
    "an empty log": lambda d: {**d, "log": []},
    "an index outside": lambda d: {**d, "index": 99},
    "a next serial too low": lambda d: {**d, "next_serial": 1},
    "a recorded game not played": lambda d: {**d, "recorded": [5]},
    "a seat missing": lambda d: {**d, "seats": d["seats"][:1]},
    "a seat of another level": lambda d: {**d, "seats": [d["seats"][0],
                                                         {**d["seats"][1], "level": "x"}]},
    "a pause that is not a flag": lambda d: {**d, "paused": 0},
    "a start without a decoder": lambda d: {**d, "log": [[0, None, {"left": 2}]]},
}


@pytest.mark.parametrize("kind", BAD)
def test_restore_refuses_bad_data_and_changes_nothing(kind: str) -> None:
    good = played().snapshot()
    match, results, events, _made = midend()
    match.play(2)
    before = (match.history, match.seats, match.agents, match.recorded, match.next_serial)
    with pytest.raises(ValueError):
        match.restore(BAD[kind](good), levels=("easy", "hard"))
    assert (match.history, match.seats, match.agents, match.recorded, match.next_serial) \
        == before and match.history.index == 1 and events[-1].kind == "move"


def test_find_move() -> None:
    assert find_move(Pile(), Pile(3, 1)) == 2
    assert find_move(Pile(), Pile(1, 1)) is None


def test_a_long_session_lets_its_oldest_games_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29 finding 6: past MAX_HISTORY entries the oldest games go (never the one on
    screen), so saves, journal lines and replays stay bounded however long a session."""
    import engine.midend.match as match_module

    monkeypatch.setattr(match_module, "MAX_HISTORY", 20)
    match, results, _events, _made = midend()
    for game in range(12):
        if game:
            match.new_game()
        while not match.state.is_terminal():
            match.play(1)
        assert len(match.history) <= 20 + 6  # (a game is 6 entries: never cut into)
    assert len(results) == 12  # every result recorded once
    entries = match.history.entries
    assert entries[0].move is None and entries[0].state == Pile()  # a whole game first
    assert match.serial == 11 and match.state.is_terminal()
    data = json.loads(json.dumps(match.snapshot()))
    copy, copy_results, _e, _m = midend()
    copy.restore(data)
    assert [(s.serial, s.state) for s in copy.history.entries] == \
        [(s.serial, s.state) for s in entries]
    assert copy_results == []
