"""The midend of one-player puzzles: undo and redo, Restart, moves, timer, wins and help.

As in Simon Tatham's midend, what every puzzle needs around its rules is written once
here, against a one-player :class:`engine.model.rules.GameState` whose ``is_terminal()`` means
solved. A scene keeps only input and drawing:

* :class:`PuzzleMidend` holds the history. Moves, Restart and a new puzzle (Generate, an
  entered code, another size) are all undoable steps, so one mis-click loses nothing. It
  counts the moves of the current *attempt* (since the puzzle was started or restarted),
  times the attempt (from its first move until solved, paused while the puzzle is not on
  screen), and reports a solve once per attempt as :class:`Solved`.
* Help is a property of the *puzzle*, not of the attempt or of the screen: every history
  step points at its attempt and every attempt at its puzzle record, which carries the
  ``helped`` flag. Restart starts a new attempt on the same record, undo and redo move
  between steps of the same records, so neither can clear it: a solution once shown
  cannot be recorded as solved alone. Only a new puzzle starts unhelped (and not even
  that when it is a board already helped in this history, entered again).
* A game left is kept: :meth:`PuzzleMidend.snapshot` writes the puzzles, attempts (with
  their clocks) and moves as JSON-able data and :meth:`PuzzleMidend.restore` checks and
  replays them (engine.storage.saved_games saves and resumes the scene around it).
* :class:`PuzzleHelp` works out solutions off the frame loop (on an
  :class:`engine.ai.runner.AIRunner`), shows them, and reveals them one move at a time as
  hints; either marks the puzzle helped.

Memory: given ``inverse`` (a function undoing a move, e.g. a press that undoes itself),
a move step keeps only its move, not the position after it; without it every step keeps
its position. Starting an attempt keeps the new position and the one it replaced.

No pygame here.
"""

from __future__ import annotations

import operator
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from engine.ai.runner import AIRunner
from engine.core.i18n import N_, Phrase, _, error_text
from engine.model.history import History
from engine.model.rules import GameState, Move
from engine.storage.saved_data import (
    MAX_HISTORY,
    MAX_SAVED_ENTRIES,
    PROGRESS_EVERY,
    fields,
    flag,
    items,
    move_from_data,
    move_to_data,
    number,
    replayed,
    show,
    whole,
)

S = TypeVar("S", bound=GameState)
Sol = TypeVar("Sol")

ProgressFn = Callable[[float], None]
# A saved attempt's count of moves let go (see PuzzleMidend._trim) is below this.
MAX_MOVES = 10**12
# A saved attempt's clock longer than this (about 31 years) is not a real one.
MAX_SECONDS = 1e9


class PuzzleStats(Protocol):
    """What :meth:`Solved.record` needs of a statistics store (engine.storage.stats)."""

    def record_puzzle(self, game: str, variant: str, moves: int, seconds: float,
                      helped: bool | int) -> str | None:
        """Record one solve; a warning if it could not be saved."""
        ...

    def best_puzzle(self, game: str, variant: str) -> tuple[int, float] | None:
        """The best unhelped ``(moves, seconds)`` so far, or None."""
        ...


@dataclass(frozen=True)
class Recorded:
    """What recording a solve gave: the best result before it, and any warning."""

    best_before: tuple[int, float] | None
    warning: str | None
    new_best: bool


@dataclass(frozen=True)
class Solved:
    """A puzzle solved in the current attempt: its moves, seconds and whether help was used."""

    moves: int
    seconds: float
    helped: bool

    def record(self, stats: PuzzleStats, game_id: str, variant: str) -> Recorded:
        """Add this solve to ``stats`` under ``game_id`` and ``variant``.

        Returns the best unhelped result from before it (for "a new best!"), whether this
        one beats it, and the store's warning if the result could not be saved.
        """
        best_before = stats.best_puzzle(game_id, variant)
        warning = stats.record_puzzle(game_id, variant, self.moves, self.seconds, self.helped)
        new_best = not self.helped and (best_before is None
                                        or (self.moves, self.seconds) < best_before)
        return Recorded(best_before, warning, new_best)


@dataclass(frozen=True)
class Change:
    """What just changed the position: ``kind`` is one of :data:`CHANGES`;
    ``move`` is the move played for ``"play"``."""

    kind: str
    move: Move | None = None


CHANGES = ("play", "undo", "redo", "restart", "new")


class _Puzzle:
    """One puzzle: its start position and whether help was used on it (for good)."""

    __slots__ = ("helped", "start")

    def __init__(self, start: Any) -> None:
        self.start = start
        self.helped = False


class _Attempt:
    """One go at a puzzle, from its start (or a Restart): its clock and whether it was won."""

    __slots__ = ("base", "begin", "elapsed", "offset", "puzzle", "reported", "since",
                 "started")

    def __init__(self, puzzle: _Puzzle, base: int) -> None:
        self.puzzle = puzzle
        self.base = base  # history index of the step that started it
        # Its first moves let go of (a history past MAX_HISTORY steps): how many, and the
        # position they reached, where its kept steps start (None: the puzzle's start).
        self.offset = 0
        self.begin: Any = None
        self.started = False  # the first move starts the clock
        self.elapsed = 0.0  # seconds timed before ``since``
        self.since: float | None = None  # clock reading when it last started running
        self.reported = False  # a solve was reported: never twice per attempt


@dataclass(frozen=True, slots=True)
class _Step:
    """A history step: a move (``move``), or the start of an attempt (``move`` None).

    ``state`` is the position after the step; None for a move when the midend has an
    inverse (the position is then rebuilt by playing or undoing the move). ``before`` is
    the position an attempt's start replaced, to undo back to.
    """

    attempt: _Attempt
    move: Move | None = None
    state: Any = None
    before: Any = None


def _same(a: object, b: object) -> bool:
    """Whether two positions are the same (identity first: comparing big ones costs)."""
    return a is b or a == b


class PuzzleMidend(Generic[S]):
    """Undo/redo, Restart, move count, timer, win detection and help flag of one puzzle.

    ``start`` is the first puzzle's start position. ``inverse(state, move)`` (optional)
    gives the position before ``move`` was played to reach ``state``; with it the history
    keeps moves instead of positions. ``clock`` gives seconds (tests pass a fake one).
    """

    def __init__(self, start: S, *, inverse: Callable[[S, Move], S] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._inverse = inverse
        self._clock = clock
        self._state = start
        self._history: History[_Step] = History(_Step(_Attempt(_Puzzle(start), 0), state=start))
        self._paused = False
        self._running: _Attempt | None = None  # the attempt whose clock runs
        self._listeners: list[Callable[[Change], None]] = []

    # --- reading ------------------------------------------------------------------------
    @property
    def state(self) -> S:
        """The position on screen."""
        return self._state

    @property
    def start(self) -> S:
        """The current puzzle's start position (where Restart goes)."""
        return self._attempt.puzzle.start

    @property
    def history(self) -> History[_Step]:
        """The undo history (read it; change it only through the midend's methods)."""
        return self._history

    @property
    def last_move(self) -> Move | None:
        """The move that led to the position shown (undo steps back through them); None
        at the start of an attempt (a new puzzle, a Restart, or everything undone)."""
        return self._history.current.move

    @property
    def _attempt(self) -> _Attempt:
        return self._history.current.attempt

    @property
    def moves(self) -> int:
        """Moves in the current attempt, up to the position shown."""
        attempt = self._attempt
        return self._history.index - attempt.base + attempt.offset

    @property
    def elapsed(self) -> float:
        """Seconds spent on the current attempt, paused time excluded."""
        attempt = self._attempt
        if attempt.since is None:
            return attempt.elapsed
        return attempt.elapsed + (self._clock() - attempt.since)

    @property
    def timing(self) -> bool:
        """Whether the clock is running (the attempt started, not solved, not paused)."""
        return self._running is not None

    @property
    def paused(self) -> bool:
        """Whether :meth:`pause` holds the clock."""
        return self._paused

    @property
    def solved(self) -> bool:
        """Whether the position shown is solved."""
        return self._state.is_terminal()

    @property
    def helped(self) -> bool:
        """Whether help (a hint, a shown solution) was used on the current puzzle.

        Kept with the puzzle: Restart, undo and redo never clear it; a new puzzle starts
        without it.
        """
        return self._attempt.puzzle.helped

    @property
    def can_undo(self) -> bool:
        """Whether there is a step to undo."""
        return self._history.can_undo

    @property
    def can_redo(self) -> bool:
        """Whether an undone step can be replayed."""
        return self._history.can_redo

    # --- changing -------------------------------------------------------------------------
    def add_listener(self, listener: Callable[[Change], None]) -> None:
        """Call ``listener(change)`` after every change of position (before a win is reported)."""
        self._listeners.append(listener)

    def play(self, move: Move) -> Solved | None:
        """Play ``move`` (undoable; drops anything that could be redone).

        The first move of an attempt starts its clock. Returns :class:`Solved` if this move
        solved the puzzle and the attempt had not been won before (undo, redo or playing on
        never report the same attempt twice); else None. Raises whatever the state's
        ``play`` raises for an illegal move, changing nothing.
        """
        after = self._state.play(move)
        attempt = self._attempt
        self._history.push(_Step(attempt, move, None if self._inverse else after))
        self._state = after
        attempt.started = True
        self._trim()
        self._changed(Change("play", move))
        if attempt.reported or not after.is_terminal():
            return None
        attempt.reported = True
        return Solved(self.moves, self.elapsed, attempt.puzzle.helped)

    def new_puzzle(self, start: S) -> None:
        """Start a new puzzle at ``start`` (undoable): a new attempt, not helped, unless
        help was used on the same start position earlier in the history (re-entering the
        code of a board whose solution was shown must not make it a fresh, unhelped one).
        """
        puzzle = _Puzzle(start)
        puzzle.helped = any(step.move is None and step.attempt.puzzle.helped
                            and _same(step.attempt.puzzle.start, start)
                            for step in self._history.entries)
        self._start_attempt(puzzle, Change("new"))

    def restart(self) -> bool:
        """Back to the puzzle's start as a new attempt (undoable; the puzzle stays helped).

        Does nothing (returns False) on an attempt with no moves.
        """
        if self.moves == 0 and _same(self._state, self.start):
            return False
        self._start_attempt(self._attempt.puzzle, Change("restart"))
        return True

    def _start_attempt(self, puzzle: _Puzzle, change: Change) -> None:
        attempt = _Attempt(puzzle, self._history.index + 1)
        self._history.push(_Step(attempt, None, puzzle.start, self._state))
        self._state = puzzle.start
        self._trim()
        self._changed(change)

    def _trim(self) -> None:
        """Past :data:`~engine.storage.saved_data.MAX_HISTORY` steps, let the oldest quarter
        go: the first step kept becomes the start of its attempt, at the position it
        reached, and the attempt counts the moves let go (undo stops there). Saving,
        journalling and resuming then stay bounded however long a puzzle is played."""
        history = self._history
        if len(history) <= MAX_HISTORY:
            return
        cut = min(history.index, len(history) - MAX_HISTORY * 3 // 4)
        entries = history.entries
        # The position at the cut: from the start of its attempt, forward.
        start = cut
        while entries[start].move is not None:
            start -= 1
        state = entries[start].state
        for step in entries[start + 1:cut + 1]:
            state = step.state if step.state is not None else state.play(step.move)
        attempt = entries[cut].attempt
        attempt.offset += cut - attempt.base
        attempt.begin = state
        attempt.base = cut  # its start is now the step at the cut (0 once shifted below)
        seen: set[int] = set()
        for step in entries[cut:]:
            if id(step.attempt) not in seen:
                seen.add(id(step.attempt))
                step.attempt.base -= cut
        history.drop_oldest(cut, _Step(attempt, None, state))

    def undo(self) -> bool:
        """Take back the last step (a move, a Restart or a new puzzle); whether there was one."""
        step = self._history.current
        if not self._history.undo():
            return False
        if step.move is None:
            self._state = step.before
        elif self._inverse is not None:
            self._state = self._inverse(self._state, step.move)
        else:
            self._state = self._history.current.state
        self._changed(Change("undo"))
        return True

    def redo(self) -> bool:
        """Replay the next undone step; whether there was one. Never reports a solve."""
        if not self._history.redo():
            return False
        step = self._history.current
        self._state = step.state if step.state is not None else self._state.play(step.move)
        self._changed(Change("redo"))
        return True

    def mark_helped(self) -> None:
        """Record that help was used on the current puzzle (for good)."""
        self._attempt.puzzle.helped = True

    def pause(self) -> None:
        """Stop the clock while the puzzle is not on screen (the scene left or covered)."""
        self._paused = True
        self._sync_clock()

    def resume(self) -> None:
        """Let the clock run again (if the attempt has started and is not solved)."""
        self._paused = False
        self._sync_clock()

    # --- saving and resuming (engine.storage.saved_games) ---------------------------------------
    def snapshot(self, save_state: Callable[[S], Any], *, current_only: bool = False
                 ) -> dict[str, Any]:
        """Everything needed to resume, as JSON-able data (``save_state`` writes a position).

        The puzzles (start position, helped), the attempts (their puzzle, clock, whether
        started and won) and the steps (attempt and move; None for an attempt's start),
        with the cursor. Positions between steps are not written: :meth:`restore` replays
        the moves. ``current_only`` keeps just the current attempt and its moves, for a
        history too big to save whole.
        """
        steps = self._history.entries
        first, end = 0, len(steps)
        if current_only:
            first = self._attempt.base
            end = next((i for i in range(self._history.index + 1, len(steps))
                        if steps[i].move is None), len(steps))
        puzzles: dict[int, int] = {}
        attempts: dict[int, int] = {}
        puzzle_data: list[dict[str, Any]] = []
        attempt_data: list[dict[str, Any]] = []
        step_data: list[list[Any]] = []
        now = self._clock()
        for step in steps[first:end]:
            attempt = step.attempt
            if id(attempt) not in attempts:
                puzzle = attempt.puzzle
                if id(puzzle) not in puzzles:
                    puzzles[id(puzzle)] = len(puzzle_data)
                    puzzle_data.append({"start": save_state(puzzle.start),
                                        "helped": puzzle.helped})
                attempts[id(attempt)] = len(attempt_data)
                running = 0.0 if attempt.since is None else now - attempt.since
                attempt_data.append({"puzzle": puzzles[id(puzzle)], "started": attempt.started,
                                     "elapsed": round(attempt.elapsed + running, 3),
                                     "won": attempt.reported})
                if attempt.offset:  # its first moves were let go (see _trim)
                    attempt_data[-1].update(moves_before=attempt.offset,
                                            begin=save_state(attempt.begin))
            move = None if step.move is None else move_to_data(step.move)
            step_data.append([attempts[id(attempt)], move])
        return {"puzzles": puzzle_data, "attempts": attempt_data, "steps": step_data,
                "index": self._history.index - first}

    def restore(self, data: Any, load_state: Callable[[Any], S]) -> None:
        """Take over a :meth:`snapshot` (``load_state`` reads a position back).

        Everything is checked first, each move replayed and checked legal; ValueError,
        saying what is wrong, leaves the midend as it was. Resumed, the clock is paused
        (the scene resumes it once the puzzle is on screen) and listeners hear a "new".
        """
        record = fields(data, Phrase(N_("the puzzle")), ("puzzles", "attempts", "steps", "index"))
        puzzles = []
        for i, item in enumerate(items(record["puzzles"], Phrase(N_("the puzzles")), 1)):
            entry = fields(item, Phrase(N_("puzzle {number}"), number=i + 1), ("start", "helped"))
            try:
                puzzle = _Puzzle(load_state(entry["start"]))
            except ValueError as exc:
                raise ValueError(Phrase(N_("puzzle {number}: {error}"), number=i + 1,
                                        error=error_text(exc))) from None
            puzzle.helped = flag(entry["helped"], Phrase(N_("puzzle {number}'s help flag"),
                                                         number=i + 1))
            puzzles.append(puzzle)
        attempts = []
        for i, item in enumerate(items(record["attempts"], Phrase(N_("the attempts")), 1)):
            entry = fields(item, Phrase(N_("attempt {number}"), number=i + 1),
                           ("puzzle", "started", "elapsed", "won"))
            attempt = _Attempt(puzzles[whole(entry["puzzle"], Phrase(
                N_("attempt {number}'s puzzle"), number=i + 1), 0, len(puzzles) - 1)], -1)
            attempt.started = flag(entry["started"], Phrase(
                N_("attempt {number}'s started flag"), number=i + 1))
            attempt.elapsed = number(entry["elapsed"], Phrase(N_("attempt {number}'s time"),
                                                              number=i + 1), 0, MAX_SECONDS)
            attempt.reported = flag(entry["won"], Phrase(N_("attempt {number}'s won flag"),
                                                         number=i + 1))
            if "moves_before" in entry:  # its first moves were let go (see _trim)
                attempt.offset = whole(entry["moves_before"], Phrase(
                    N_("attempt {number}'s earlier moves"), number=i + 1), 1, MAX_MOVES)
                try:
                    attempt.begin = load_state(fields(entry, Phrase(
                        N_("attempt {number}"), number=i + 1), ("begin",))["begin"])
                except ValueError as exc:
                    raise ValueError(Phrase(N_("attempt {number}: {error}"), number=i + 1,
                                            error=error_text(exc))) from None
            attempts.append(attempt)
        raw_steps = items(record["steps"], Phrase(N_("the steps")), 1, MAX_SAVED_ENTRIES)
        index = whole(record["index"], Phrase(N_("the step shown")), 0, len(raw_steps) - 1)
        steps: list[_Step] = []
        state: Any = None
        shown: Any = None
        for i, item in enumerate(raw_steps):
            if i % PROGRESS_EVERY == 0:
                replayed(i, len(raw_steps))
            which, raw_move = items(item, Phrase(N_("step {number}"), number=i + 1), 2, 2)
            attempt = attempts[whole(which, Phrase(N_("step {number}'s attempt"), number=i + 1),
                                     0, len(attempts) - 1)]
            if raw_move is None:
                if attempt.base != -1:
                    raise ValueError(Phrase(N_("step {number} starts attempt {attempt} a second "
                                               "time"), number=i + 1, attempt=which + 1))
                attempt.base = i
                begin = attempt.puzzle.start if attempt.begin is None else attempt.begin
                step = _Step(attempt, None, begin, state)
                state = begin
            else:
                if not steps or attempt is not steps[-1].attempt:
                    raise ValueError(Phrase(N_("step {number} is a move outside its attempt"),
                                            number=i + 1))
                try:
                    move = move_from_data(raw_move)
                    if move not in state.legal_moves():
                        raise ValueError(Phrase(N_("{move} is not a legal move here"),
                                                move=show(raw_move)))
                    state = state.play(move)
                except ValueError as exc:  # IllegalMove included
                    raise ValueError(Phrase(N_("step {number}: {error}"), number=i + 1,
                                            error=error_text(exc))) from None
                step = _Step(attempt, move, None if self._inverse else state)
            steps.append(step)
            if i == index:
                shown = state
        if any(attempt.base == -1 for attempt in attempts):
            raise ValueError(Phrase(N_("an attempt was never started")))
        history = History.restored(steps, index)
        # Everything checked: take it over.
        running = self._running
        if running is not None:  # stop the old clock (nothing else points at it)
            running.since = None
        self._history, self._state = history, shown
        self._paused, self._running = True, None
        self._trim()  # (a save of an earlier version may hold more)
        self._changed(Change("new"))

    # --- plumbing -------------------------------------------------------------------------
    def _changed(self, change: Change) -> None:
        self._sync_clock()
        for listener in self._listeners:
            listener(change)

    def _sync_clock(self) -> None:
        """Run the current attempt's clock exactly when it should run, and no other."""
        attempt = self._attempt
        run = attempt.started and not self._paused and not self._state.is_terminal()
        running = self._running
        if running is not None and (running is not attempt or not run):
            running.elapsed += self._clock() - running.since
            running.since = None
            self._running = None
        if run and self._running is None:
            attempt.since = self._clock()
            self._running = attempt


class PuzzleHelp(Generic[S, Sol]):
    """Solutions and hints for a :class:`PuzzleMidend`, worked out off the frame loop.

    ``solve(state, cancel, progress)`` returns a solution of ``state`` (it may raise
    :class:`engine.ai.agent.Cancelled` once ``cancel`` is set, and report fractions 0..1 to
    ``progress``). How a solution is read is the puzzle's business, through three hooks:
    ``moves_of(solution)`` iterates its moves in hint order (lazily, so a huge solution is
    never listed for one hint), ``contains(solution, move)`` tells whether a move is part
    of it, and ``solvable(solution)`` whether it solves anything at all (default: not
    None).

    The scene calls :meth:`poll` once a frame: it collects a finished solution and asks
    for one while the solution is shown or hints are out. A solution belongs to the
    position it was worked out for, and is dropped as soon as the position changes.
    Showing the solution or taking a hint marks the puzzle helped, and so does every
    position change while the solution is shown (a new puzzle with the solution already
    on screen is helped from the start).
    """

    def __init__(self, midend: PuzzleMidend[S],
                 solve: Callable[[S, threading.Event, ProgressFn], Sol], *,
                 moves_of: Callable[[Sol], Iterable[Move]] = iter,
                 contains: Callable[[Sol, Move], bool] = operator.contains,
                 solvable: Callable[[Sol], bool] = lambda solution: solution is not None,
                 runner: AIRunner | None = None) -> None:
        self.midend = midend
        self._solve = solve
        self._moves_of = moves_of
        self._contains = contains
        self._solvable = solvable
        self.runner = runner or AIRunner()
        self.showing = False
        #: Moves revealed as hints, still to be played.
        self.hinted: set[Move] = set()
        #: The running solve's progress, 0..1 (written by its thread).
        self.progress = 0.0
        self._want_hint = False  # a hint asked for before the solution arrived
        self._want_moves = False  # the moves asked for (Solve), to be played
        self._known = False  # whether _solution is the current position's
        self._solution: Sol | None = None
        self._solved_state: S | None = None
        self._asked: S | None = None
        midend.add_listener(self._changed)

    # --- reading ---------------------------------------------------------------------------
    @property
    def known(self) -> bool:
        """Whether the shown position's solution has been worked out."""
        return self._known and _same(self._solved_state, self.midend.state)

    @property
    def solution(self) -> Sol | None:
        """The shown position's solution, None until it is worked out."""
        return self._solution if self.known else None

    @property
    def unsolvable(self) -> bool:
        """Whether the worked-out answer is that the position cannot be solved."""
        return self.known and not self._solvable(self._solution)

    @property
    def busy(self) -> bool:
        """Whether a solution is being worked out (or waits to be collected)."""
        return self.runner.busy

    @property
    def wanted(self) -> bool:
        """Whether a solution is needed: shown, hints out, or a hint asked for."""
        return self.showing or bool(self.hinted) or self._want_hint or self._want_moves

    @property
    def all_hinted(self) -> bool:
        """Whether every move of the known solution has been revealed as a hint (False
        while it is not known). Goes through the moves: a game with huge solutions that
        knows their size may answer faster (by counting)."""
        solution = self.solution
        return solution is not None and all(move in self.hinted
                                            for move in self._moves_of(solution))

    @property
    def moves_wanted(self) -> bool:
        """Whether :meth:`ask_moves` is waiting for the solution."""
        return self._want_moves

    # --- actions ---------------------------------------------------------------------------
    def toggle_solution(self) -> bool:
        """Show (marking the puzzle helped) or hide the solution; whether it is now shown."""
        self.showing = not self.showing
        if self.showing:
            self.midend.mark_helped()
        return self.showing

    def hint(self) -> None:
        """Reveal one more move of the solution (the puzzle is helped from now on)."""
        self.midend.mark_helped()
        if not self.known:
            self._want_hint = True
            return
        self._add_hint()

    def ask_moves(self) -> None:
        """Ask for the solution's moves to play them (Solve: the puzzle is helped from now
        on); :meth:`take_moves` hands them over once worked out."""
        self.midend.mark_helped()
        self._want_moves = True

    def take_moves(self) -> Iterator[Move] | None:
        """The moves :meth:`ask_moves` asked for, in ``moves_of`` order, once the solution
        is known (then the request is done); None while it is not, or was not asked for.

        An iterator over the solution itself: the moves stay valid while they are played,
        although each one changes the position (and so drops the solution here).
        """
        if not self._want_moves or not self.known:
            return None
        self._want_moves = False
        solution = self._solution
        if solution is None or not self._solvable(solution):
            return iter(())
        return iter(self._moves_of(solution))

    def poll(self) -> str | None:
        """Once a frame: collect a finished solution, start one when needed.

        Returns a message for the player if the solver failed, else None.
        """
        state = self.midend.state
        if self.runner.busy:
            # Collected even if no longer wanted (the solution hidden meanwhile): the work
            # is done, and showing it again is then instant. A stale answer cannot arrive:
            # every change of position cancels the request.
            result = self.runner.poll()
            if result is None:
                return None
            if result.error is not None:
                return _("The solver failed: {error}").format(error=result.error)
            if _same(result.tag, state):
                self._take(state, result.move)
            return None
        if not self.wanted or state.is_terminal():
            return None
        if not self.known and self._asked is not state:
            self._asked = state
            self.progress = 0.0
            solve, report = self._solve, self._report
            self.runner.submit(lambda cancel: solve(state, cancel, report), tag=state)
        return None

    def cancel(self) -> None:
        """Stop any solve in progress (leaving the screen)."""
        self.runner.cancel()
        self._asked = None
        self._want_moves = False

    # --- plumbing ---------------------------------------------------------------------------
    def _report(self, fraction: float) -> None:
        self.progress = fraction  # written by the solver's thread, read by the frame loop

    def _take(self, state: S, solution: Sol) -> None:
        self._known, self._solution, self._solved_state = True, solution, state
        # Hints already given stay while they are still part of the solution.
        self.hinted = {move for move in self.hinted if self._contains(solution, move)}
        if self._want_hint:
            self._want_hint = False
            self._add_hint()

    def _add_hint(self) -> None:
        """Hint the first move of the solution (in ``moves_of`` order) not hinted yet."""
        solution = self.solution
        if solution is None or not self._solvable(solution):
            return
        for move in self._moves_of(solution):
            if move not in self.hinted:
                self.hinted.add(move)
                return

    def _changed(self, change: Change) -> None:
        state = self.midend.state
        if self._known:
            if _same(self._solved_state, state):
                self._solved_state = state  # so later checks are by identity
            else:
                # Dropped at once, not when the next one arrives: a big solution is memory.
                self._known, self._solution, self._solved_state = False, None, None
        self.runner.cancel()
        self._asked = None
        if change.kind in ("restart", "new"):
            self.hinted = set()
        else:
            if change.kind == "play":
                self.hinted.discard(change.move)
            # Undo across puzzles may leave hints that are not moves here (off a smaller
            # board): forget them rather than ask the solver about them.
            legal = state.legal_moves()
            self.hinted = {move for move in self.hinted if move in legal}
        if self.showing:
            self.midend.mark_helped()
