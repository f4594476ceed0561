"""The one-player puzzle midend (engine.midend.puzzle) on tiny puzzles, with a fake clock.

Undo/redo round trips, Restart and new puzzles as undoable steps, the move count, the
timer and its pauses, one reported solve per attempt, the help flag that Restart and undo
cannot clear, statistics, and solutions and hints worked out off the frame loop.
"""

from __future__ import annotations

import json
import random
import threading
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.ai.bfs import bfs_solve
from engine.midend.puzzle import Change, PuzzleHelp, PuzzleMidend, Solved
from engine.model.rules import GameState, IllegalMove
from engine.storage.stats import StatsStore


@dataclass(frozen=True)
class Lamps:
    """n lamps in a row; pressing lamp i toggles it and its neighbours; solved when all on."""

    bits: int
    n: int = 5

    @property
    def num_players(self) -> int:
        return 1

    def current_player(self) -> int:
        return 0

    def legal_moves(self) -> range:
        return range(self.n)

    def play(self, move: int) -> Lamps:
        if move not in self.legal_moves():
            raise IllegalMove(move)
        mask = 0
        for i in (move - 1, move, move + 1):
            if 0 <= i < self.n:
                mask |= 1 << i
        return Lamps(self.bits ^ mask, self.n)

    def is_terminal(self) -> bool:
        return self.bits == (1 << self.n) - 1

    def returns(self) -> tuple[float, ...]:
        return (1.0 if self.is_terminal() else 0.0,)


OFF = Lamps(0)  # solved by pressing 0 and 3 (see test_lamps_is_a_one_player_game_state)


class FakeClock:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def midend(start: Lamps = OFF, clock: FakeClock | None = None, inverse: bool = True
           ) -> PuzzleMidend[Lamps]:
    return PuzzleMidend(start, inverse=Lamps.play if inverse else None,
                        clock=clock or FakeClock())


def test_lamps_is_a_one_player_game_state() -> None:
    assert isinstance(OFF, GameState)
    # By hand: press 0 toggles 0, 1; press 3 toggles 2, 3, 4: all five on, and no single
    # press toggles five lamps, so two is the fewest.
    assert OFF.play(0).play(3).is_terminal()
    assert bfs_solve(OFF) == [0, 3]


# --- undo, redo, Restart, new puzzles ------------------------------------------------------------


def test_play_undo_redo_round_trip() -> None:
    m = midend()
    states = [OFF]
    for move in (1, 2, 4):
        assert m.play(move) is None
        states.append(states[-1].play(move))
    assert m.state == states[-1] and m.moves == 3 and m.can_undo and not m.can_redo
    for expected in reversed(states[:-1]):
        assert m.undo()
        assert m.state == expected
    assert not m.undo() and not m.can_undo and m.moves == 0
    for expected in states[1:]:
        assert m.redo()
        assert m.state == expected
    assert not m.redo() and m.moves == 3


def test_a_new_move_cuts_the_redo_tail() -> None:
    m = midend()
    m.play(1)
    m.play(2)
    m.undo()
    assert m.can_redo
    m.play(4)
    assert not m.can_redo and m.state == OFF.play(1).play(4) and m.moves == 2


def test_an_illegal_move_changes_nothing() -> None:
    m = midend()
    m.play(1)
    with pytest.raises(IllegalMove):
        m.play(9)
    assert m.state == OFF.play(1) and m.moves == 1 and m.history.index == 1


def test_restart_is_an_undoable_step_back_to_the_start() -> None:
    m = midend()
    assert not m.restart(), "an untouched attempt has nothing to restart"
    assert m.history.index == 0
    m.play(1)
    m.play(2)
    assert m.restart()
    assert m.state == OFF and m.moves == 0 and m.start == OFF
    assert not m.restart()
    m.undo()  # the restart undone: the attempt before it, with its two moves
    assert m.state == OFF.play(1).play(2) and m.moves == 2
    m.redo()
    assert m.state == OFF and m.moves == 0
    # After undoing every move (no Restart), Restart has nothing to do either.
    m.play(0)
    m.undo()
    assert m.moves == 0 and not m.restart()


def test_new_puzzle_is_undoable_and_restart_goes_to_the_shown_puzzles_start() -> None:
    m = midend()
    m.play(1)
    other = Lamps(0b00110)
    m.new_puzzle(other)
    assert m.state == other and m.start == other and m.moves == 0
    m.play(4)
    m.undo()
    m.undo()  # back across the new puzzle: the first puzzle, one move in
    assert m.state == OFF.play(1) and m.start == OFF and m.moves == 1
    assert m.restart() and m.state == OFF


@pytest.mark.parametrize("inverse", [True, False])
def test_random_walk_against_a_model(inverse: bool) -> None:
    """Presses, undo, redo, Restart and new puzzles against a model keeping every position."""
    m = midend(inverse=inverse)
    rng = random.Random(7)
    model, index = [(OFF, OFF, 0)], 0  # (position, puzzle start, moves) per step
    for _ in range(500):
        action = rng.choice(["play", "play", "play", "undo", "undo", "redo", "restart", "new"])
        state, start, moves = model[index]
        if action == "play":
            move = rng.randrange(5)
            m.play(move)
            del model[index + 1:]
            model.append((state.play(move), start, moves + 1))
            index += 1
        elif action == "undo":
            assert m.undo() == (index > 0)
            index = max(0, index - 1)
        elif action == "redo":
            assert m.redo() == (index < len(model) - 1)
            index = min(len(model) - 1, index + 1)
        elif action == "restart":
            assert m.restart() == (moves > 0)
            if moves:
                del model[index + 1:]
                model.append((start, start, 0))
                index += 1
        else:
            new = Lamps(rng.randrange(32))
            m.new_puzzle(new)
            del model[index + 1:]
            model.append((new, new, 0))
            index += 1
        assert (m.state, m.start, m.moves) == model[index], action
        assert m.history.index == index
        assert m.can_undo == (index > 0) and m.can_redo == (index < len(model) - 1)
    moves = [step for step in m.history.entries if step.move is not None]
    assert moves
    if inverse:  # a move step keeps its move only
        assert all(step.state is None for step in moves)
    else:
        assert all(step.state is not None for step in moves)


@dataclass(frozen=True)
class Blob:
    """A big position: 125 kB (a 1000×1000 board's size); move i flips byte i."""

    data: bytes

    def play(self, move: int) -> Blob:
        flipped = bytearray(self.data)
        flipped[move] ^= 1
        return Blob(bytes(flipped))

    def is_terminal(self) -> bool:
        return False


def test_with_an_inverse_1000_moves_hold_no_positions() -> None:
    """1,000 presses on a 125 kB position: kept as positions they would be 125 MB."""
    m = PuzzleMidend(Blob(bytes(125_000)), inverse=Blob.play)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(1000):
            m.play(i)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 2_000_000, f"the history grew by {grown / 1e6:.1f} MB"
    for _ in range(1000):
        m.undo()
    assert m.state == Blob(bytes(125_000))


# --- the clock -------------------------------------------------------------------------------


def test_the_clock_starts_with_the_first_move_and_pauses(clock: FakeClock) -> None:
    m = midend(clock=clock)
    clock.advance(30)  # looking at the puzzle before the first move is free
    assert m.elapsed == 0 and not m.timing
    m.play(1)
    assert m.timing
    clock.advance(10)
    assert m.elapsed == 10
    m.pause()  # another screen covers the puzzle
    assert m.paused and not m.timing
    clock.advance(1000)
    assert m.elapsed == 10
    m.pause()  # pausing twice is harmless
    m.resume()
    clock.advance(5)
    assert m.elapsed == 15 and m.timing
    m.resume()  # so is resuming twice
    clock.advance(1)
    assert m.elapsed == 16


def test_a_move_while_paused_does_not_start_the_clock(clock: FakeClock) -> None:
    m = midend(clock=clock)
    m.pause()
    m.play(1)
    clock.advance(50)
    assert m.elapsed == 0
    m.resume()
    clock.advance(2)
    assert m.elapsed == 2


def test_the_clock_stops_when_solved_and_each_attempt_has_its_own(clock: FakeClock) -> None:
    m = midend(clock=clock)
    m.play(0)
    clock.advance(7)
    solved = m.play(3)
    assert solved == Solved(moves=2, seconds=7.0, helped=False)
    clock.advance(100)
    assert m.elapsed == 7 and not m.timing
    m.restart()  # a new attempt: its clock waits for its first move
    assert m.elapsed == 0 and not m.timing
    clock.advance(3)
    m.play(0)
    clock.advance(2)
    assert m.elapsed == 2
    m.undo()
    m.undo()  # back to the first attempt (solved): its own time, not running
    assert m.state.is_terminal() and m.elapsed == 7 and not m.timing
    m.undo()  # unsolved again: that attempt's clock runs on
    clock.advance(4)
    assert m.elapsed == 11 and m.timing


# --- solves ------------------------------------------------------------------------------------


def test_a_solve_is_reported_once_per_attempt(clock: FakeClock) -> None:
    m = midend(clock=clock)
    m.play(0)
    assert m.play(3) is not None
    m.undo()
    assert not m.solved
    assert m.redo() and m.solved  # replaying the attempt reports nothing
    m.undo()
    assert m.play(3) is None  # nor does solving the same attempt again
    m.play(2)
    assert m.play(2) is None
    assert m.restart()  # a new attempt on the same puzzle counts again
    m.play(3)
    solved = m.play(0)
    assert solved is not None and solved.moves == 2


def test_a_solved_start_is_not_a_solve() -> None:
    solved_start = Lamps(0b11111)
    m = midend(solved_start)
    assert m.solved and not m.timing
    m.new_puzzle(solved_start)
    m.play(2)
    assert m.play(2) == Solved(2, 0.0, False)  # only a move reports


# --- the help flag travels with the puzzle -------------------------------------------------------


def test_help_survives_restart() -> None:
    """Play test finding: show the solution, Restart, solve alone: it must count as helped."""
    m = midend()
    m.play(1)
    m.mark_helped()
    assert m.restart()
    assert m.helped
    m.play(0)
    solved = m.play(3)
    assert solved is not None and solved.helped


def test_help_survives_undoing_everything() -> None:
    m = midend()
    m.play(4)
    m.mark_helped()
    while m.undo():
        pass
    assert m.helped and m.state == OFF
    m.play(0)
    assert m.play(3).helped


def test_a_new_puzzle_is_not_helped_and_undo_finds_the_old_one_helped() -> None:
    m = midend()
    m.mark_helped()
    m.new_puzzle(Lamps(0b00011))
    assert not m.helped
    solved = m.play(3)
    assert solved is not None and not solved.helped
    m.undo()
    m.undo()  # back across the new puzzle
    assert m.helped and m.start == OFF
    m.redo()
    assert not m.helped


def test_record_adds_to_statistics_and_gives_the_best_before(tmp_path: Path) -> None:
    stats = StatsStore(tmp_path / "stats.sqlite3")
    assert stats.open() == []
    try:
        first = Solved(5, 20.0, False).record(stats, "lamps", "5")
        assert first.best_before is None and first.warning is None and first.new_best
        better = Solved(3, 30.0, False).record(stats, "lamps", "5")
        assert better.best_before == (5, 20.0) and better.new_best
        helped = Solved(1, 1.0, True).record(stats, "lamps", "5")
        assert helped.best_before == (3, 30.0) and not helped.new_best
        worse = Solved(4, 1.0, False).record(stats, "lamps", "5")
        assert not worse.new_best
        assert stats.best_puzzle("lamps", "5") == (3, 30.0)
        summary = stats.puzzle_summary()
        assert [(s.solved, s.helped) for s in summary] == [(4, 1)]
    finally:
        stats.close()


def test_listeners_hear_every_change_before_the_solve_is_reported() -> None:
    m = midend()
    heard: list[tuple[str, object, bool]] = []
    m.add_listener(lambda change: heard.append((change.kind, change.move, m.helped)))
    m.play(0)
    m.undo()
    m.redo()
    m.restart()
    m.new_puzzle(Lamps(1))
    # A listener may mark help (a solution on screen) and the solve reported sees it.
    m.add_listener(lambda change: m.mark_helped())
    assert m.play(1) is None
    m.new_puzzle(Lamps(0b00011))
    assert m.play(3).helped
    assert [kind for kind, _move, _h in heard] == ["play", "undo", "redo", "restart", "new",
                                                   "play", "new", "play"]
    assert heard[0][1] == 0 and isinstance(Change("play", 0), Change)


# --- solutions and hints off the frame loop ----------------------------------------------------


def lamps_help(m: PuzzleMidend[Lamps], calls: list[Lamps] | None = None
               ) -> PuzzleHelp[Lamps, list[int] | None]:
    def solve(state: Lamps, cancel: threading.Event, progress) -> list[int] | None:
        if calls is not None:
            calls.append(state)
        progress(0.5)
        return bfs_solve(state, cancel=cancel)

    return PuzzleHelp(m, solve)


def settle(helper: PuzzleHelp, timeout: float = 10.0) -> None:
    """Poll like the frame loop until the helper has nothing left to do."""
    deadline = time.monotonic() + timeout
    while True:
        assert helper.poll() is None
        if not helper.busy and (helper.known or not helper.wanted
                                or helper.midend.solved):
            return
        assert time.monotonic() < deadline, "the solver never answered"
        time.sleep(0.001)


def test_show_solution_marks_the_puzzle_helped_and_follows_the_moves() -> None:
    m = midend()
    helper = lamps_help(m)
    helper.poll()
    assert not helper.busy, "nothing is worked out until asked for"
    assert helper.toggle_solution() and m.helped
    settle(helper)
    assert helper.solution == [0, 3] and not helper.unsolvable
    m.play(0)
    assert helper.solution is None, "a solution belongs to the position it was found for"
    settle(helper)
    assert helper.solution == [3]
    assert not helper.toggle_solution()
    m.restart()
    assert m.helped


def test_a_new_puzzle_with_the_solution_on_screen_is_helped() -> None:
    m = midend()
    helper = lamps_help(m)
    helper.toggle_solution()
    m.new_puzzle(Lamps(0b00011))
    assert m.helped, "its solution is shown from the start"
    helper.toggle_solution()
    m.new_puzzle(Lamps(0b00101))
    assert not m.helped, "another puzzle starts afresh"


def test_the_same_start_entered_again_stays_helped() -> None:
    """A code re-entered after its solution was shown is not a fresh, unhelped puzzle."""
    m = midend()
    helper = lamps_help(m)
    m.new_puzzle(Lamps(0b00011))
    helper.hint()
    m.new_puzzle(Lamps(0b00101))
    assert not m.helped
    m.new_puzzle(Lamps(0b00011))
    assert m.helped
    m.new_puzzle(Lamps(0b00101))
    assert not m.helped


def test_hints_reveal_one_move_at_a_time() -> None:
    m = midend()
    helper = lamps_help(m)
    helper.hint()  # asked before the solution is known: given when it arrives
    assert m.helped and helper.hinted == set()
    settle(helper)
    assert helper.hinted == {0}
    helper.hint()
    assert helper.hinted == {0, 3}
    helper.hint()  # nothing left to reveal
    assert helper.hinted == {0, 3}
    m.play(0)  # a hinted move played is no longer a hint
    assert helper.hinted == {3}
    settle(helper)
    assert helper.hinted == {3} and helper.solution == [3]
    m.undo()  # still part of the solution of the earlier position: kept
    settle(helper)
    assert helper.hinted == {3}
    m.play(1)  # from 0b00111 the solution is [4]: the hint on 3 is no longer right
    settle(helper)
    assert helper.solution == [4] and helper.hinted == set()
    helper.hint()
    assert helper.hinted == {4}
    m.restart()
    assert helper.hinted == set() and m.helped


def test_hints_not_in_the_new_solution_are_dropped() -> None:
    m = midend(Lamps(0b11100))  # one press (0) away
    helper = lamps_help(m)
    helper.hint()
    settle(helper)
    assert helper.hinted == {0}
    m.play(4)  # toggles 3 and 4: the solution is now [0, 4], which keeps the hint
    settle(helper)
    assert helper.solution == [0, 4] and helper.hinted == {0}
    m.play(1)  # toggles 0, 1, 2: 0b00011, solved by [3]: the hint on 0 goes
    settle(helper)
    assert helper.solution == [3] and helper.hinted == set()


def test_an_unsolvable_position_is_said_and_gives_no_hints() -> None:
    @dataclass(frozen=True)
    class Stuck(Lamps):
        def legal_moves(self) -> range:
            return range(0)

    m = PuzzleMidend(Stuck(0), clock=FakeClock())
    helper = lamps_help(m)
    helper.hint()
    settle(helper)
    assert helper.known and helper.unsolvable and helper.hinted == set()


def test_a_stale_solution_is_never_taken_and_leaving_cancels() -> None:
    m = midend()
    calls: list[Lamps] = []
    gate = threading.Event()

    def slow(state: Lamps, cancel: threading.Event, progress) -> list[int] | None:
        calls.append(state)
        gate.wait(5)
        return bfs_solve(state)

    helper = PuzzleHelp(m, slow)
    helper.toggle_solution()
    helper.poll()
    deadline = time.monotonic() + 5
    while not calls and time.monotonic() < deadline:  # (the worker thread picks it up)
        time.sleep(0.001)
    assert helper.busy and calls == [OFF]
    m.play(1)  # the position changed while the solver worked
    assert not helper.busy, "a change cancels the stale request"
    gate.set()
    settle(helper)
    assert calls[-1] == OFF.play(1) and helper.solution == bfs_solve(OFF.play(1))
    m.play(2)
    helper.poll()
    helper.cancel()
    assert not helper.busy and helper.solution is None


def test_solver_errors_become_a_message() -> None:
    m = midend()

    def broken(state: Lamps, cancel: threading.Event, progress) -> list[int]:
        raise RuntimeError("out of ideas")

    helper = PuzzleHelp(m, broken)
    helper.toggle_solution()
    deadline = time.monotonic() + 10
    messages = []
    while not messages:
        assert time.monotonic() < deadline
        message = helper.poll()
        if message:
            messages.append(message)
        time.sleep(0.001)
    assert messages == ["The solver failed: out of ideas"]


def test_a_solution_hidden_while_worked_out_is_still_collected() -> None:
    m = midend()
    calls: list[Lamps] = []
    helper = lamps_help(m, calls)
    helper.toggle_solution()
    helper.poll()
    assert helper.busy
    helper.toggle_solution()  # hidden before it arrived: no "solving…" left hanging
    settle(helper)
    assert not helper.busy and helper.known and helper.solution == [0, 3]
    helper.toggle_solution()  # shown again at once, not worked out twice
    helper.poll()
    assert not helper.busy and calls == [OFF]


def test_last_move_is_the_move_that_led_to_the_position_shown() -> None:
    m = midend()
    assert m.last_move is None
    m.play(0)
    m.play(2)
    assert m.last_move == 2
    m.undo()
    assert m.last_move == 0
    m.restart()
    assert m.last_move is None, "an attempt's start has no move"
    m.undo()
    assert m.last_move == 0
    m.redo()
    m.new_puzzle(Lamps(1))
    assert m.last_move is None


def test_asked_moves_are_handed_over_once_the_solution_is_known() -> None:
    m = midend()
    helper = lamps_help(m)
    assert helper.take_moves() is None, "nothing asked for"
    helper.ask_moves()
    assert m.helped and helper.wanted and helper.moves_wanted
    settle(helper)
    moves = helper.take_moves()
    assert moves is not None and list(moves) == [0, 3] and not helper.moves_wanted
    assert helper.take_moves() is None, "handed over once"
    assert not helper.all_hinted
    helper.hint()
    helper.hint()
    assert helper.all_hinted
    helper.ask_moves()
    helper.cancel()  # leaving the screen drops the request
    assert not helper.moves_wanted


def lamp_state(lamps: Lamps) -> int:
    return lamps.bits


@pytest.mark.parametrize("inverse", [True, False])
def test_a_long_history_lets_its_oldest_steps_go_and_keeps_the_count(
    monkeypatch: pytest.MonkeyPatch, inverse: bool
) -> None:
    """Issue 29 finding 6: past MAX_HISTORY steps the oldest quarter goes, so every save,
    journal line and replay stays bounded; the position, the attempt's move count and
    undo back to the first step kept are exactly what an untrimmed history gives."""
    import engine.midend.puzzle as puzzle_module

    monkeypatch.setattr(puzzle_module, "MAX_HISTORY", 40)
    rng = random.Random(29)
    m = midend(inverse=inverse)
    m.new_puzzle(Lamps(0b00100))  # an earlier attempt to let go first
    played: list[int] = []
    positions = [m.state]
    for _ in range(150):
        move = rng.randrange(5)
        if m.state.play(move).is_terminal():
            continue  # (a solve is not what this test is about)
        m.play(move)
        played.append(move)
        positions.append(m.state)
        assert len(m.history) <= 40
        assert m.moves == len(played)
    assert m.state == positions[-1]
    # Undo walks back through the kept steps exactly, then stops at the first one.
    kept = len(m.history) - 1
    for back in range(1, kept + 1):
        assert m.undo()
        assert m.state == positions[-1 - back] and m.moves == len(played) - back
    assert not m.undo()
    for _ in range(kept):
        assert m.redo()
    # Saved and resumed, it is the same game: position, count and undo depth.
    data = json.loads(json.dumps(m.snapshot(lamp_state)))
    assert data["attempts"][-1]["moves_before"] == len(played) - kept
    copy = midend(inverse=inverse)
    copy.restore(data, lambda bits: Lamps(bits))
    assert copy.state == m.state and copy.moves == m.moves
    assert len(copy.history) == len(m.history)
    assert copy.undo() and copy.state == positions[-2]
    # Restart still goes back to the puzzle's own start.
    assert copy.restart() and copy.state == Lamps(0b00100) and copy.moves == 0


def test_a_saved_history_longer_than_the_arcade_reads_is_refused() -> None:
    from engine.storage.saved_data import MAX_SAVED_ENTRIES

    m = midend()
    data = m.snapshot(lamp_state)
    data["steps"] += [[0, 1]] * MAX_SAVED_ENTRIES
    with pytest.raises(ValueError, match="steps"):
        midend().restore(data, lambda bits: Lamps(bits))


def test_a_replay_reports_its_progress_and_stops_when_given_up() -> None:
    from engine.storage.saved_data import ReplayCancelled, ReplayProgress, tracking

    m = midend()
    for i in range(3000):
        m.play(i % 2)
    data = m.snapshot(lamp_state)
    progress = ReplayProgress()
    with tracking(progress):
        midend().restore(data, lambda bits: Lamps(bits))
    assert progress.total == 3001 and 2048 <= progress.done < 3001
    progress.cancel()
    copy = midend()
    with tracking(progress), pytest.raises(ReplayCancelled):
        copy.restore(data, lambda bits: Lamps(bits))
    assert copy.moves == 0 and len(copy.history) == 1  # nothing taken over
