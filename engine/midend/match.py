"""The midend of games between players: seats, the move log, undo, hints, results, saving.

What :class:`engine.midend.puzzle.PuzzleMidend` is to puzzles, :class:`MatchMidend` is to games
of two or more players, any of them the computer. It holds no display and imports no
pygame, so every rule of play around the game's rules is tested headless; the screen
(:class:`engine.screens.turn_scene.TurnBasedScene`) keeps input, layout and drawing, and reacts
to what the midend tells it (:class:`MatchEvent`).

* **Seats and agents**: one :class:`~engine.model.seats.Seat` per player, and an agent for each
  computer seat, made by the ``make_agents`` port (remade after a recorded game, so "Match
  me" climbs or drops a rung for the next one).
* **The move log**: a :class:`~engine.model.history.History` of :class:`Step` s — a game's start
  (``move`` None) or a move, each with the game's serial and the position after it. A new
  game is pushed like a move, so it is undone like one.
* **Undo and redo**: against the computer, back to the human's previous turn (undoing
  only the computer's reply would have it play again); with the computer on every seat,
  one step, pausing the game so it can be studied.
* **Results**: recorded through the ``record`` port the first time each game ends —
  never again when it is undone and replayed to its end.
* **Hints**: asked once per position (:meth:`MatchMidend.hint_request`); an answer for a
  position no longer shown is dropped (:meth:`MatchMidend.hint_answer`).
* **Saving**: :meth:`MatchMidend.snapshot` writes the seats and the move log (moves as
  JSON, a start only where it is not the game's fresh start) and the finished reviews
  (:mod:`engine.midend.review_data`); :meth:`MatchMidend.restore` checks everything and
  replays the moves through the rules, changing nothing on error (a review that does not
  fit is only dropped).
* **Reviews**: :meth:`MatchMidend.game_record` (the game on screen as start and moves),
  :meth:`MatchMidend.keep_review` and :meth:`MatchMidend.play_from` (Play from here: a new
  game in the same log).

No pygame here (and no import of the screen).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.i18n import N_, Phrase, error_text
from engine.midend.review_data import MAX_REVIEWS, reviews_from_data, reviews_to_data
from engine.model.history import History
from engine.model.levels import MATCH
from engine.model.rules import GameState, Move, find_move
from engine.model.seats import Seat
from engine.storage.saved_data import (
    MAX_HISTORY,
    MAX_SAVED_ENTRIES,
    MAX_SERIAL,
    PROGRESS_EVERY,
    fields,
    flag,
    items,
    move_from_data,
    move_to_data,
    replayed,
    seat_from_data,
    seat_to_data,
    show,
    whole,
)


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the move log: the game's ``serial``, the position ``state`` after the
    step, and the ``move`` that led there (None: the step starts a game at ``state``)."""

    serial: int
    state: Any
    move: Move | None = None

    # A step reads as the (serial, state) pair the screens have always used.
    def __getitem__(self, index: int) -> Any:
        return (self.serial, self.state)[index]

    def __iter__(self) -> Any:
        return iter((self.serial, self.state))


@dataclass(frozen=True)
class MatchResult:
    """A game that just ended for the first time: what the ``record`` port is given.

    ``outcome`` is "won", "lost" or "drawn" from the first human's side (the first seat's
    when the computer plays every seat).
    """

    serial: int
    state: Any
    seats: tuple[Seat, ...]
    outcome: str


@dataclass(frozen=True)
class MatchEvent:
    """What the midend tells its listeners after a change.

    ``kind``: "move" (``before`` → ``after``, ``by_computer``), "finished" (``after`` ended
    a game; ``first`` is True the first time that game ends), or "changed" (undo, redo, a
    new game, a restore: the position on screen is another).
    """

    kind: str
    before: Any = None
    after: Any = None
    by_computer: bool = False
    first: bool = False


def outcome_for(state: GameState, seats: Sequence[Seat]) -> str:
    """"won", "lost" or "drawn" for the first human seat (the first seat if none)."""
    humans = [i for i, seat in enumerate(seats) if not seat.is_computer]
    result = state.returns()[humans[0] if humans else 0]
    return "won" if result > 0 else ("lost" if result < 0 else "drawn")


class MatchMidend:
    """Seats, agents, move log, undo/redo, results, hints and saving of one game screen.

    ``start``: the first game's start position. ``fresh()``: the start of a new game with
    the same set-up (asked again after a restore: it may depend on the seats).
    ``make_agents(seats)``: an agent or None per seat. ``record(result)``: the statistics
    port, called once per game that ends.
    """

    def __init__(self, start: Any, seats: Sequence[Seat], *,
                 fresh: Callable[[], Any],
                 make_agents: Callable[[tuple[Seat, ...]], list[Any]] = lambda s: [None] * len(s),
                 record: Callable[[MatchResult], None] | None = None) -> None:
        players = start.num_players
        self.seats: tuple[Seat, ...] = tuple(seats[i] if i < len(seats) else Seat()
                                             for i in range(players))
        self._fresh = fresh
        self._make_agents = make_agents
        self._record = record
        self.agents: list[Any] = make_agents(self.seats)
        self.history: History[Step] = History(Step(0, start))
        self.next_serial = 1
        self.recorded: set[int] = set()
        self.paused = False
        self._listeners: list[Callable[[MatchEvent], None]] = []
        # The hint overlay: every legal move's value and the game's extra, for the
        # position shown (cleared by every change); ``_hint_asked``: the position last
        # asked about (its history index and the position), so each is asked once.
        self.hints: dict[Any, Any] = {}
        self.hint_extra: Any = None
        self._hint_asked: tuple[int, Any] | None = None
        # Finished reviews of this screen's games (engine.ai.review), by (start, moves): a
        # review opened again is shown at once. Saved with the move log
        # (engine.midend.review_data).
        self.reviews: dict[Any, Any] = {}
        self.reviews_version = 0  # counts kept reviews (the save's journal follows it)

    # --- reading -----------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The position on screen."""
        return self.history.current.state

    @property
    def serial(self) -> int:
        """The number of the game on screen (a new game gets the next one)."""
        return self.history.current.serial

    @property
    def position_key(self) -> tuple[int, Any]:
        """What identifies the position on screen for work about it (the computer's
        move, a hint): the history index and the position."""
        return (self.history.index, self.state)

    def all_computers(self) -> bool:
        """Whether the computer plays every seat."""
        return all(seat.is_computer for seat in self.seats)

    def any_computer(self) -> bool:
        """Whether the computer plays some seat."""
        return any(seat.is_computer for seat in self.seats)

    def human_to_move(self, step: Any = None) -> bool:
        """Whether a human is to move in ``step``'s position (default: the one shown)."""
        state = self.state if step is None else step[1]
        return not state.is_terminal() and not self.seats[state.current_player()].is_computer

    def computer_to_move(self) -> bool:
        """Whether a computer seat is to move in a game still running."""
        state = self.state
        return not state.is_terminal() and self.seats[state.current_player()].is_computer

    def agent_to_move(self) -> Any:
        """The agent of the seat to move (None for a human or a finished game)."""
        state = self.state
        return None if state.is_terminal() else self.agents[state.current_player()]

    def last_step(self) -> tuple[Any, Any] | None:
        """(position before, position now) if a move of this game led here, else None."""
        index = self.history.index
        if index == 0:
            return None
        before, now = self.history.entries[index - 1:index + 1]
        if before.serial != now.serial:
            return None  # a new game started here
        return before.state, now.state

    def last_moves(self) -> dict[int, tuple[Any, Any]]:
        """Each seat's most recent move of the game on screen: ``{seat: (before, after)}``,
        up to the history cursor (see :meth:`MatchFront.last_moves`)."""
        entries = self.history.entries
        moves: dict[int, tuple[Any, Any]] = {}
        for i in range(self.history.index, 0, -1):
            before, now = entries[i - 1], entries[i]
            if before.serial != now.serial:
                break  # a new game started here: older moves belong to another game
            mover = before.state.current_player()
            if mover not in moves:
                moves[mover] = (before.state, now.state)
                if len(moves) == len(self.seats):
                    break
        return moves

    def moves_played(self) -> int:
        """How many moves the game on screen has had, up to the history cursor."""
        entries = self.history.entries
        count = 0
        for i in range(self.history.index, 0, -1):
            if entries[i - 1].serial != entries[i].serial:
                break  # a new game started here
            count += 1
        return count

    def can_undo(self) -> bool:
        """Whether :meth:`undo` would move (against the computer: to a human's turn)."""
        if self.all_computers() or not self.any_computer():
            return self.history.can_undo
        return any(self.human_to_move(e) for e in self.history.entries[:self.history.index])

    def can_redo(self) -> bool:
        """Whether an undone step can be replayed."""
        return self.history.can_redo

    def keep_review(self, key: Any, review: Any) -> None:
        """Keep a finished review of the game ``key`` (its start and moves), the newest
        :data:`~engine.midend.review_data.MAX_REVIEWS` of them (saved with the game)."""
        try:
            self.reviews.pop(key, None)
            self.reviews[key] = review
        except TypeError:
            return  # a position that cannot be a key: the review is simply not kept
        while len(self.reviews) > MAX_REVIEWS:
            self.reviews.pop(next(iter(self.reviews)))
        self.reviews_version += 1

    def game_record(self) -> tuple[Any, tuple[Move, ...]]:
        """The game on screen as its start and the moves played since, up to the history
        cursor (what a review analyses, and what Play from here replays)."""
        entries = self.history.entries
        first = self.history.index
        while first > 0 and entries[first - 1].serial == entries[first].serial:
            first -= 1
        moves: list[Move] = []
        for step in entries[first + 1:self.history.index + 1]:
            if step.move is None:  # a position set by hand: the record starts there
                moves, first = [], entries.index(step)
                continue
            moves.append(step.move)
        return entries[first].state, tuple(moves)

    # --- changing ------------------------------------------------------------------------------
    def add_listener(self, listener: Callable[[MatchEvent], None]) -> None:
        """Call ``listener(event)`` after every change (see :class:`MatchEvent`)."""
        self._listeners.append(listener)

    def play(self, move: Move, by_computer: bool = False) -> Any:
        """Play ``move`` in the position shown (undoable; drops what could be redone) and
        return the new position. Raises what the rules raise for an illegal move
        (:class:`engine.model.rules.IllegalMove`), changing nothing."""
        after = self.state.play(move)
        self._push(Step(self.serial, after, move), by_computer)
        return after

    def push(self, state: Any, by_computer: bool = False) -> None:
        """Make ``state`` the position shown, in the game on screen (undoable).

        The move leading there is looked up among the legal ones, for the log; a position
        no move reaches (set by hand) is kept as a start of its own.
        """
        before = self.state
        move = find_move(before, state)
        self._push(Step(self.serial, state, move), by_computer)

    def new_game(self, start: Any = None) -> bool:
        """Start a new game (undoable) at ``start`` (default: the fresh start); a fresh
        start asked for when the fresh start is already shown does nothing (False)."""
        if start is None:
            start = self._fresh()
            if self.state == start:
                return False  # already at the start: nothing to do
        serial, self.next_serial = self.next_serial, self.next_serial + 1
        self._push(Step(serial, start), False)
        return True

    def play_from(self, start: Any, moves: Sequence[Move]) -> Any:
        """Start a new game (undoable, so the game it came from stays in the log) at
        ``start`` and replay ``moves`` in it, each checked legal first: the position of a
        reviewed game, to play on from (Play from here). Returns the position reached;
        IllegalMove (changing nothing) if a move is not legal there. Nothing is recorded:
        only a game that then ends is, once, as any other."""
        states = [start]
        for move in moves:
            if states[-1].is_terminal() or move not in states[-1].legal_moves():
                from engine.model.rules import IllegalMove

                raise IllegalMove(f"move {len(states)} ({move!r}) is not legal there")
            states.append(states[-1].play(move))
        serial, self.next_serial = self.next_serial, self.next_serial + 1
        self.history.push(Step(serial, start))
        for move, state in zip(moves, states[1:], strict=True):
            self.history.push(Step(serial, state, move))
        if states[-1].is_terminal():
            self.recorded.add(serial)  # a finished position replayed: never a new result
        self.paused = self.all_computers()  # a game the computer plays alone waits for Step
        self._emit(MatchEvent("changed"))
        return states[-1]

    def undo(self) -> bool:
        """Take back a step: to the human's previous turn against the computer; one step
        otherwise, pausing a game the computer plays alone. Whether anything moved."""
        if self.all_computers():
            moved = self.history.undo()
            self.paused = True
        elif self.any_computer():
            # Not just before the computer's reply, which it would only play again.
            moved = self.history.undo(until=self.human_to_move)
        else:
            moved = self.history.undo()
        if moved:
            self._emit(MatchEvent("changed"))
        return moved

    def redo(self) -> bool:
        """Replay undone steps (against the computer, up to the human's next turn or the
        end of the game). Whether anything moved; a replayed end is never recorded again."""
        if self.all_computers() or not self.any_computer():
            moved = self.history.redo()
        else:
            moved = self.history.redo(
                until=lambda e: self.human_to_move(e) or e.state.is_terminal())
        if moved:
            self._emit(MatchEvent("changed"))
        return moved

    def replace_history(self, history: History[Any]) -> None:
        """Take over a whole log of ``(serial, position)`` entries (a position set up
        directly: tests, screenshots, a start that depends on the seats), the moves
        between positions of one game looked up for the log."""
        steps: list[Step] = []
        for serial, state in history.entries:
            move = None
            if steps and steps[-1].serial == serial:
                move = find_move(steps[-1].state, state)
            steps.append(Step(serial, state, move))
        self.history = History.restored(steps, history.index)
        self.next_serial = max(self.next_serial, steps[-1].serial + 1)
        self._forget_hints()

    def _trim(self) -> None:
        """Let the oldest games go while the history holds more than
        :data:`~engine.storage.saved_data.MAX_HISTORY` entries (never the game on screen):
        saving, journalling and resuming stay bounded however long a session runs."""
        history = self.history
        if len(history) <= MAX_HISTORY:
            return
        entries = history.entries
        current = entries[history.index].serial
        drop = 0
        while len(entries) - drop > MAX_HISTORY and entries[drop].serial != current:
            serial = entries[drop].serial
            while drop < len(entries) and entries[drop].serial == serial:
                drop += 1
        history.drop_oldest(drop)

    def toggle_pause(self) -> bool:
        """Pause or resume a game the computer plays alone; whether it is now paused."""
        self.paused = not self.paused
        return self.paused

    def _push(self, step: Step, by_computer: bool) -> None:
        before = self.state
        self.history.push(step)
        self._trim()
        self._forget_hints()
        self._emit(MatchEvent("move", before, step.state, by_computer))
        state = step.state
        if state.is_terminal():
            first = step.serial not in self.recorded
            if first:
                self.recorded.add(step.serial)
                if self._record is not None:
                    self._record(MatchResult(step.serial, state, self.seats,
                                             outcome_for(state, self.seats)))
                if any(seat.is_computer and seat.level == MATCH for seat in self.seats):
                    # The next game's agents: "Match me" may be a rung up or down now.
                    self.agents = self._make_agents(self.seats)
            self._emit(MatchEvent("finished", before, state, by_computer, first))

    def _emit(self, event: MatchEvent) -> None:
        if event.kind == "changed":
            self._forget_hints()
        for listener in self._listeners:
            listener(event)

    # --- hints -------------------------------------------------------------------------------
    def hint_request(self) -> tuple[int, Any] | None:
        """The position to work hints out for, once per position: its key (give it back
        with the answer), or None when it was asked already or the game is over."""
        if self.state.is_terminal():
            return None
        key = self.position_key
        if self._hint_asked is not None and self._hint_asked[0] == key[0] \
                and self._hint_asked[1] is key[1]:
            return None
        self._hint_asked = key
        return key

    def hint_answer(self, key: Any, values: dict[Any, Any], extra: Any = None) -> bool:
        """Take the hints worked out for ``key``'s position; an answer for a position no
        longer shown is dropped (False)."""
        index, state = key
        if index != self.history.index or state != self.state:
            return False
        self.hints, self.hint_extra = values, extra
        return True

    def forget_hint_request(self) -> None:
        """Ask again for the position shown (hints hidden, then shown again)."""
        self._hint_asked = None

    def _forget_hints(self) -> None:
        self.hints, self.hint_extra, self._hint_asked = {}, None, None

    # --- saving and resuming -------------------------------------------------------------------
    def snapshot(self, encode_start: Callable[[Any], Any] | None = None, *,
                 compact: bool = False) -> dict[str, Any]:
        """The match as JSON-able data: seats, the move log with its cursor, the next game
        number, the games already recorded, and Pause.

        Each log item is ``[serial]`` for a game's fresh start, ``[serial, move]`` for a
        move, or ``[serial, null, position]`` for a start that is not the fresh one (set
        by hand), written by ``encode_start`` (ValueError if there is none). ``compact``
        keeps only the game on screen (a history too big to save whole).
        """
        entries = self.history.entries
        index = self.history.index
        first, end = 0, len(entries)
        if compact:
            # A game's entries are consecutive: serials only grow along the history.
            serial = entries[index].serial
            first = next(i for i, entry in enumerate(entries) if entry.serial == serial)
            end = first + sum(1 for entry in entries if entry.serial == serial)
        kept = entries[first:end]
        fresh = self._fresh()
        log: list[list[Any]] = []
        for i, step in enumerate(kept):
            if step.move is not None and i > 0:
                log.append([step.serial, move_to_data(step.move)])
            elif step.state == fresh:
                log.append([step.serial])
            elif encode_start is None:
                raise ValueError(f"no way to save the start of game {step.serial}")
            else:
                log.append([step.serial, None, encode_start(step.state)])
        return {"seats": [seat_to_data(seat) for seat in self.seats],
                "log": log,
                "index": index - first,
                "next_serial": self.next_serial,
                # Only serials still in the log can be replayed to their end again.
                "recorded": sorted(self.recorded & {step.serial for step in kept}),
                "paused": self.paused,
                # Which computer seats last stood in for themselves with a weaker player (a
                # Perfect player on a board too big to solve): their cards say so after a
                # resume too, not only once they have thought again (issue 28).
                "fell_back": [bool(getattr(_player(agent), "fell_back", False))
                              for agent in self.agents],
                # Finished reviews, kept with the moves they review (optional: a cache).
                **({"reviews": reviews_to_data(self.reviews, fresh)} if self.reviews else {})}

    def restore(self, data: Any, levels: tuple[str, ...] = (),
                decode_start: Callable[[Any], Any] | None = None) -> None:
        """Take over a :meth:`snapshot`: seats (levels from ``levels``), the move log
        replayed through the rules, recorded games, Pause.

        Everything is checked first, every move replayed and refused if illegal;
        ValueError, saying what is wrong, leaves the midend as it was.
        """
        record = fields(data, Phrase(N_("the saved game")),
                        ("seats", "log", "index", "next_serial", "recorded", "paused"))
        raw_seats = items(record["seats"], Phrase(N_("the seats")), 1, 16)
        if len(raw_seats) != len(self.seats):
            raise ValueError(Phrase(N_("{what}: expected {low} to {high} items, found {count}"),
                                    what=Phrase(N_("the seats")), low=len(self.seats),
                                    high=len(self.seats), count=len(raw_seats)))
        seats = tuple(seat_from_data(seat, i + 1, levels) for i, seat in enumerate(raw_seats))
        old_seats = self.seats
        try:
            self.seats = seats  # the fresh start may depend on the seats (a fair start)
            fresh = self._fresh()
        finally:
            self.seats = old_seats
        steps = replay_log(record["log"], fresh, decode_start)
        index = whole(record["index"], Phrase(N_("the position shown")), 0, len(steps) - 1)
        last = steps[-1].serial
        next_serial = whole(record["next_serial"], Phrase(N_("the next game number")),
                            last + 1, MAX_SERIAL + 1)
        recorded = {whole(serial, Phrase(N_("a recorded game's number")), 0, next_serial - 1)
                    for serial in items(record["recorded"], Phrase(N_("the recorded games")),
                                        0, len(steps))}
        paused = flag(record["paused"], Phrase(N_("the pause flag")))
        # Optional (saves before it have none): a wrong one is only a lost note.
        fell_back = data.get("fell_back")
        agents = self._make_agents(seats)
        if isinstance(fell_back, list) and len(fell_back) == len(agents):
            for agent, flagged in zip(agents, fell_back, strict=True):
                player = _player(agent)
                if flagged is True and hasattr(player, "fell_back"):
                    player.fell_back = True
        # Optional too, and only a cache: what does not fit this game is dropped.
        reviews = reviews_from_data(data.get("reviews"), fresh)
        # Everything checked: take it over.
        self.seats, self.agents = seats, agents
        self.reviews = reviews
        self.history = History.restored(steps, index)
        self._trim()  # (a save of an earlier version may hold more)
        self.next_serial = next_serial
        self.recorded = recorded
        self.paused = paused
        self._emit(MatchEvent("changed"))



class MatchFront:
    """What a screen built on a :class:`MatchMidend` (its ``match``) shows of it: thin
    read-through properties and methods, so games and tests read ``scene.state``,
    ``scene.history``, ``scene.seats`` and the like. Mixed into
    :class:`engine.screens.turn_scene.TurnBasedScene`; it holds nothing itself.
    """

    match: MatchMidend

    @property
    def seats(self) -> tuple[Seat, ...]:
        """A seat per player (the midend's)."""
        return self.match.seats

    @property
    def agents(self) -> list[Any]:
        """The agent of each computer seat, None for a human (the midend's)."""
        return self.match.agents

    @property
    def state(self) -> Any:
        """The position on screen."""
        return self.match.state

    @property
    def history(self) -> History[Any]:
        """The move log (read it; change it through the midend): entries read as
        ``(game serial, position)`` pairs (:class:`engine.midend.match.Step`)."""
        return self.match.history

    @history.setter
    def history(self, history: History[Any]) -> None:
        """Replace the whole log (a position set up directly: tests, screenshots, a fair
        start once the seats are known); entries are ``(serial, position)`` pairs."""
        self.match.replace_history(history)

    @property
    def serial(self) -> int:
        """The number of the game on screen."""
        return self.match.serial

    @property
    def recorded(self) -> set[int]:
        """The games whose result is recorded (never twice)."""
        return self.match.recorded

    @property
    def paused(self) -> bool:
        """Whether a game the computer plays alone is paused."""
        return self.match.paused

    @paused.setter
    def paused(self, value: bool) -> None:
        self.match.paused = value

    @property
    def hints(self) -> dict[Any, Any]:
        """The hint overlay: every legal move's MoveValue (empty until worked out)."""
        return self.match.hints

    @property
    def hint_extra_value(self) -> Any:
        """What the game's hint shows beyond the move values (see :meth:`hint_extra`)."""
        return self.match.hint_extra

    def last_step(self) -> tuple[Any, Any] | None:
        """(position before, position now) if a move of this game led here, else None."""
        return self.match.last_step()

    def last_moves(self) -> dict[int, tuple[Any, Any]]:
        """Each seat's most recent move of the game on screen: ``{seat: (before, after)}``.

        ``before`` is the position the seat moved from (its ``current_player()`` is the
        seat) and ``after`` the position its move produced, so a game can work out the
        move by comparing the two (as with :meth:`last_step`). Only moves up to the
        history cursor count (an undone move is not "last"), and only moves of the
        current game (a "New game" entry ends the search). Seats that have not moved
        yet are absent. ``last_moves()[seat]`` for the seat that just moved equals
        :meth:`last_step`.
        """
        return self.match.last_moves()

    def moves_played(self) -> int:
        """How many moves the game on screen has had, up to the history cursor."""
        return self.match.moves_played()

    def all_computers(self) -> bool:
        """Whether the computer plays every seat."""
        return self.match.all_computers()

    def any_computer(self) -> bool:
        """Whether the computer plays some seat."""
        return self.match.any_computer()

    def human_to_move(self, entry: Any) -> bool:
        """Whether a human is to move in a history entry's position."""
        return self.match.human_to_move(entry)

    def computer_to_move(self) -> bool:
        """Whether it is a computer seat's turn in a game still running."""
        return self.match.computer_to_move()


def replay_log(raw: Any, fresh: Any, decode_start: Callable[[Any], Any] | None = None
               ) -> list[Step]:
    """The steps of a saved move log (see :meth:`MatchMidend.snapshot`), every move
    replayed through the rules from ``fresh`` (or a saved start); ValueError, saying
    which item is wrong, for anything that does not replay."""
    steps: list[Step] = []
    log = items(raw, Phrase(N_("the move log")), 1, MAX_SAVED_ENTRIES)
    for i, item in enumerate(log):
        if i % PROGRESS_EVERY == 0:
            replayed(i, len(log))
        what = Phrase(N_("history entry {number}"), number=i + 1)
        parts = items(item, what, 1, 3)
        serial = whole(parts[0], Phrase(N_("history entry {number}'s game number"),
                                        number=i + 1), 0, MAX_SERIAL)
        if steps and serial < steps[-1].serial:
            raise ValueError(Phrase(N_("history entry {number} belongs to an earlier game"),
                                    number=i + 1))
        try:
            if len(parts) == 1:
                steps.append(Step(serial, fresh))
            elif len(parts) == 3 and parts[1] is None:
                if decode_start is None:
                    raise ValueError(Phrase(N_("{value} is not a move"), value=show(parts[2])))
                steps.append(Step(serial, decode_start(parts[2])))
            elif len(parts) == 2:
                if not steps or steps[-1].serial != serial:
                    raise ValueError(Phrase(N_("a move before its game started")))
                move = move_from_data(parts[1])
                before = steps[-1].state
                # Checked against the legal moves (a few hundred at most in a game between
                # players) so the player reads why in their language, not the rules' words.
                if before.is_terminal() or move not in before.legal_moves():
                    raise ValueError(Phrase(N_("{move} is not a legal move here"),
                                            move=show(parts[1])))
                steps.append(Step(serial, before.play(move), move))
            else:
                raise ValueError(Phrase(N_("{value} is not a move"), value=show(item)))
        except ValueError as exc:  # IllegalMove included
            raise ValueError(Phrase(N_("history entry {number}: {error}"), number=i + 1,
                                    error=error_text(exc))) from None
        except (TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
            # A move of the right form that the rules trip over is not a move here.
            raise ValueError(Phrase(N_("history entry {number}: {error}"), number=i + 1,
                                    error=f"{type(exc).__name__}: {show(str(exc))}")) from None
    if steps[0].move is not None:
        raise ValueError(Phrase(N_("a move before its game started")))
    return steps


def _player(agent: Any) -> Any:
    """The player itself behind ``agent`` (through a mistake-making wrapper's ``inner``)."""
    while agent is not None and hasattr(agent, "inner"):
        agent = agent.inner
    return agent
