"""A turn-based game screen where any seat may be a human or the computer.

Shared by every family with opponents: the history of positions with undo back
to the human's turn, the computer scheduled on the AI runner (with a visible
delay when it plays itself, Pause and Step), a hint overlay computed off the
frame loop, player cards, and results recorded once per game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame
from pygame import FRect

from engine.ai.agent import Agent
from engine.ai.ladder import MATCH
from engine.ai.runner import AIResult, AIRunner
from engine.core.i18n import N_, Phrase, _, error_text
from engine.model.descriptor import GameDescriptor
from engine.model.game_settings import load_seats, remember
from engine.model.history import History
from engine.model.rules import GameState
from engine.model.seats import Seat, mode_name
from engine.model.values import MoveValue
from engine.screens.game_scene import GameScene
from engine.screens.result_overlay import ResultOverlay
from engine.screens.scene import Scene
from engine.ui.animation import SWEEP
from engine.ui.game_layout import BUTTON_H, EXTRAS_W, GAP, split_body
from engine.ui.widgets import Button, Label

if TYPE_CHECKING:
    import threading

    from engine.runtime.app import App

# Seconds between moves when the computer plays the computer, so people can follow,
# at each speed the player can choose.
CVC_DELAYS = {"slow": 1.5, "normal": 0.6, "fast": 0.15}
SPEED_NAMES = (N_("slow"), N_("normal"), N_("fast"))  # the Speed button shows them
# Seconds before the computer answers a human, so the human sees their own move land.
REPLY_DELAY = 0.15
# Seconds between a game's last move and its result panel: the winning line sweeps in first.
RESULT_DELAY = SWEEP + 0.05
# Where a computer seat's level is written on its card (design units from the card's
# top left; the width is the card's less both margins): two lines, under the badge.
CARD_LEVEL_X, CARD_LEVEL_Y, CARD_LEVEL_H = 8.0, 74.0, 26.0
# Seconds the mover's card pulses when a human's turn begins (then it glows steadily).
TURN_CUE = 1.8
TURN_CUE_PULSES = 3


# What every turn-based screen adds to its game's rules in the help.
SCREEN_HELP = N_("""On screen: the last move is framed in the focus colour (each computer's last
move too, when several play); the card of the player to move glows and says whose turn it is. When a
game ends, a panel says who won, with Play again, Swap sides and Back. Computer against computer:
Space (or P) pauses and resumes, Step plays one move, Speed sets the pace. Leaving a game keeps
it, with its undo history: open the game again to carry on. Sound, volume and Reduce motion are
in the launcher's Settings.""")


class TurnBasedScene(GameScene):
    """History, seats, computer moves, hints and statistics for a turn-based game.

    Built from the game's :class:`~engine.model.descriptor.GameDescriptor`: the seats
    come from settings (:mod:`engine.model.game_settings`), each computer seat's agent
    from the descriptor's ``make_agent``, the hints from its hint function, the
    help from its rules text. Subclasses implement :meth:`fresh_state`,
    :meth:`draw_board` and :meth:`draw_player_badge`, and optionally
    :meth:`open_setup`.
    """

    hint_label = N_("Hint")
    # Seconds a hint may take (exact where it can be proven in that time).
    hint_budget = 3.0

    def __init__(self, app: App, game: GameDescriptor, params: Any, state: GameState,
                 seats: tuple[Seat, ...] | None = None, seed: int | None = None) -> None:
        super().__init__(app)
        self.game = game
        self.params = params
        self.title = game.title  # (translated where it is drawn, as every N_ text)
        if type(self).help_text == Scene.help_text:  # a screen may have rules of its own
            self.help_title = _("{game}: rules").format(game=_(game.title))
            self.help_text = f"{game.help_text()}\n\n{_(SCREEN_HELP)}"
        chosen = seats or load_seats(app.settings, game, state.num_players)
        chosen = tuple(chosen[i] if i < len(chosen) else Seat()
                       for i in range(state.num_players))
        self.seats = chosen
        self.rng = random.Random(seed)
        self.agents = self._make_agents(chosen)
        self.serial = 0
        self._next_serial = 1
        # Each entry is (game serial, state): results are recorded once per game,
        # however often it is undone and replayed to its end.
        self.history: History[tuple[int, Any]] = History((0, state))
        self.recorded: set[int] = set()
        self.paused = False
        self._step_once = False
        self._wait = REPLY_DELAY
        self.note: str | None = None
        # (game serial, history index) of a finished game whose result panel is due.
        self._result_due: tuple[int, int] | None = None
        # The position whose "your turn" cue was started, so it starts once per turn.
        self._cue_for: tuple[int, int] | None = None
        self.show_hints = bool(app.settings.get("show_hints"))
        self.hint_runner = AIRunner()
        # The hint overlay: every legal move's MoveValue, and the game's extra.
        self.hints: dict[Any, MoveValue] = {}
        self.hint_extra_value: Any = None
        self._hint_for: int | None = None
        ui = self.ui
        self.add_tool(Button(self.place("Setup"), N_("Setup"), self.open_setup, name="Setup"), 84)
        self.add_tool(Button(self.place("Hint"), self.hint_label, self.toggle_hints, name="Hint",
                             enabled=self.hints_available, selected=lambda: self.show_hints), 80)
        cvc = self.all_computers
        running = lambda: not self.state.is_terminal()  # noqa: E731
        ui.add(Button(self.place("pause"), lambda: _("Resume") if self.paused else _("Pause"),
                      self.toggle_pause, name="Pause", visible=cvc, enabled=running))
        ui.add(Button(self.place("step"), N_("Step"), self.step_once, name="Step", visible=cvc,
                      enabled=lambda: self.paused and running()))
        ui.add(Button(self.place("speed"), lambda: _("Speed: {speed}").format(speed=_(self.speed)),
                      self.cycle_speed,
                      name="Speed", visible=cvc, size=16))
        for seat in range(len(chosen)):
            # A computer's level on its card, with what it really plays where that differs
            # (Perfect standing in as Hard); shortened to fit, whole in the tooltip.
            ui.add(Label(self.place(f"level{seat}"), lambda s=seat: self.seat_level_text(s),
                         size=13, role="muted", fit_lines=2, min_size=10,
                         visible=lambda s=seat: self.seats[s].is_computer))

    # --- layout ------------------------------------------------------------------------
    def extras_height(self) -> float:
        """Design height the game's extras box needs (variant label and hint legend)."""
        return 300.0

    def extras_width(self, body: FRect) -> float:
        """Design width of the extras column when it stands beside the board (override to
        take more of a wide window); the default is the layout's standard column."""
        return EXTRAS_W

    def board_aspect(self) -> float:
        """How many times wider than tall the board is drawn (override for boards that are
        not square, so the layout gives them room of their shape)."""
        return 1.0

    def layout_key(self) -> object:
        return (self.extras_height(), self.all_computers(), self.board_aspect())

    def layout_body(self, body: FRect) -> dict[str, FRect]:
        """Board, a card per seat, the computer-against-computer controls and the extras."""
        lay = split_body(body, len(self.seats), self.extras_height(), self.extras_width(body),
                         controls=self.all_computers(), aspect=self.board_aspect())
        rects = {"board": lay.board, "controls": lay.controls, "extras": lay.extras}
        rects.update({f"card{i}": card for i, card in enumerate(lay.cards)})
        rects.update({f"level{i}": FRect(card.x + CARD_LEVEL_X, card.y + CARD_LEVEL_Y,
                                         card.w - 2 * CARD_LEVEL_X, CARD_LEVEL_H)
                      for i, card in enumerate(lay.cards)})
        c = lay.controls
        half = (c.w - GAP) / 2
        rects.update(pause=FRect(c.x, c.y, half, BUTTON_H),
                     step=FRect(c.x + half + GAP, c.y, half, BUTTON_H),
                     speed=FRect(c.x, c.y + BUTTON_H + GAP, c.w, BUTTON_H))
        return rects

    @property
    def speed(self) -> str:
        """Pace of computer-against-computer play: slow, normal or fast (remembered)."""
        speed = self.app.settings.get("cvc_speed")
        return speed if speed in CVC_DELAYS else "normal"

    def cycle_speed(self) -> None:
        """Switch to the next speed (slow → normal → fast → slow) and remember it."""
        names = list(CVC_DELAYS)
        chosen = names[(names.index(self.speed) + 1) % len(names)]
        try:
            self.app.settings.set("cvc_speed", chosen)
            self.app.save_settings()
        except ValueError:
            pass
        self._wait = min(self._wait, CVC_DELAYS[chosen])

    @property
    def game_id(self) -> str:
        """The game's id, for statistics and settings."""
        return self.game.id

    # --- for subclasses ---------------------------------------------------------------
    def _make_agents(self, seats: tuple[Seat, ...]) -> list[Agent | None]:
        """An agent (seeded from the scene's generator) for each computer seat; "Match
        me" at the rung the player's recorded results against it have reached."""
        outcomes: list[str] = []
        if any(s.is_computer and s.level == MATCH for s in seats):
            outcomes = self.app.stats.match_outcomes(self.game.id)
        self.match_rung = self.game.match_level(outcomes)
        return [self.game.make_agent(self.params, s, self.rng.randrange(1 << 30),
                                     match_outcomes=outcomes)
                if s.is_computer else None for s in seats]

    def variant_id(self) -> str:
        """Short id of the variant, for statistics."""
        spec = self.game.param_spec()
        return spec.variant_id(self.params) if spec is not None else "standard"

    def fresh_state(self) -> Any:
        """The start position of a new game with the same set-up."""
        raise NotImplementedError

    def hint_task(self, state: Any) -> Callable[[threading.Event], Any] | None:
        """A cancellable job giving (every legal move's MoveValue, :meth:`hint_extra`)."""
        values = self.game.hint_function()
        if values is None:
            return None
        budget = self.hint_budget
        return lambda cancel: (values(state, cancel, budget), self.hint_extra(state, cancel))

    def hint_extra(self, state: Any, cancel: threading.Event) -> Any:
        """What a game's hint shows beyond the move values (a table of values), worked out
        off the frame loop with them; None by default."""
        return None

    def hints_available(self) -> bool:
        """Whether this game offers hints."""
        return self.game.hints is not None

    def open_setup(self) -> None:
        """Choose another variant or other seats (the engine's generic set-up by default)."""
        from engine.screens.setup_scene import open_default_setup

        open_default_setup(self)

    def restart(self, params: Any, seats: tuple[Seat, ...]) -> None:
        """Start a fresh game with other parameters or seats, remembered for next time."""
        warning = remember(self.app.settings, self.game, params, seats)
        if warning:
            self.app.notify(warning, "warning")
        else:
            self.app.save_settings()
        self.app.replace(self.game.open_scene(self.app, params, seats=seats))

    def draw_player_badge(self, surface: pygame.Surface, rect: pygame.Rect, player: int) -> None:
        """Draw the symbol of ``player`` on its card."""

    def player_name(self, player: int) -> str:
        """How the status line names a player."""
        return _("Player {number}").format(number=player + 1)

    # --- seats and state ------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The position on screen."""
        return self.history.current[1]

    def last_step(self) -> tuple[Any, Any] | None:
        """(position before, position now) if a move of this game led here, else None."""
        index = self.history.index
        if index == 0:
            return None
        (serial_before, before), (serial_now, now) = self.history.entries[index - 1:index + 1]
        if serial_before != serial_now:
            return None  # a new game started here
        return before, now

    def last_moves(self) -> dict[int, tuple[Any, Any]]:
        """Each seat's most recent move of the game on screen: ``{seat: (before, after)}``.

        ``before`` is the position the seat moved from (its ``current_player()`` is the
        seat) and ``after`` the position its move produced, so a game can work out the
        move by comparing the two (as with :meth:`last_step`). Only moves up to the
        history cursor count (an undone move is not "last"), and only moves of the
        current game (a "New game" entry ends the search). Seats that have not moved
        yet are absent. A game with several computer seats can mark each one's last
        move from this; ``last_moves()[seat]`` for the seat that just moved equals
        :meth:`last_step`.
        """
        entries = self.history.entries
        moves: dict[int, tuple[Any, Any]] = {}
        for i in range(self.history.index, 0, -1):
            (serial_before, before), (serial_now, now) = entries[i - 1], entries[i]
            if serial_before != serial_now:
                break  # a new game started here: older moves belong to another game
            mover = before.current_player()
            if mover not in moves:
                moves[mover] = (before, now)
                if len(moves) == len(self.seats):
                    break
        return moves

    def moves_played(self) -> int:
        """How many moves the game on screen has had, up to the history cursor."""
        entries = self.history.entries
        count = 0
        for i in range(self.history.index, 0, -1):
            if entries[i - 1][0] != entries[i][0]:
                break  # a new game started here
            count += 1
        return count

    def all_computers(self) -> bool:
        """Whether the computer plays every seat."""
        return all(s.is_computer for s in self.seats)

    def any_computer(self) -> bool:
        """Whether the computer plays some seat."""
        return any(s.is_computer for s in self.seats)

    def human_to_move(self, entry: tuple[int, Any]) -> bool:
        """Whether a human is to move in a history entry's position."""
        state = entry[1]
        return not state.is_terminal() and not self.seats[state.current_player()].is_computer

    def computer_to_move(self) -> bool:
        """Whether it is a computer seat's turn in a game still running."""
        s = self.state
        return not s.is_terminal() and self.seats[s.current_player()].is_computer

    def push(self, state: Any, by_computer: bool = False) -> None:
        """Make ``state`` the current position (undoable); record a finished game."""
        before = self.state
        self.history.push((self.serial, state))
        self.app.audio.play("computer" if by_computer else self.move_sound(before, state))
        self.on_moved(before, state)
        if state.is_terminal():
            self.app.audio.play(self.result_sound(state))
            if self.serial not in self.recorded:
                # The first time this game ends (not when it is undone and replayed):
                # record it, and show the result once the winning line has swept in.
                self._record(state)
                self._result_due = (self.serial, self.history.index)
                self.anim.start("result-delay", self.result_delay(state))
        self._changed()

    def result_delay(self, state: Any) -> float:
        """Seconds from a game's last move to its result panel: long enough for the
        finishing animation (override when it is longer, e.g. a piece falls first)."""
        return RESULT_DELAY

    def move_sound(self, before: Any, after: Any) -> str:
        """The effect for a human's move (see engine.ui.audio.SOUNDS); "place" by default."""
        return "place"

    def on_moved(self, before: Any, after: Any) -> None:
        """A move was just played (by anyone): start its animation here (override)."""

    def result_sound(self, state: Any) -> str:
        """Win, loss or draw, heard from the (first) human's side."""
        humans = [i for i, s in enumerate(self.seats) if not s.is_computer]
        result = state.returns()[humans[0] if humans else 0]
        if result == 0:
            return "draw"
        return "win" if result > 0 or not humans else "loss"

    def play_move(self, move: Any) -> bool:
        """Play a human's move if it is a human's turn and the move is legal.

        A click that is not a legal move gets the "illegal" sound and changes nothing.
        """
        state = self.state
        if self.computer_to_move() or state.is_terminal():
            return False
        if move not in state.legal_moves():
            self.app.audio.play("illegal")
            return False
        self.push(state.play(move))
        return True

    def _changed(self) -> None:
        """After any change of position: drop stale work, schedule the computer."""
        self.ai.cancel()
        self.hint_runner.cancel()
        self.hints = {}
        self.hint_extra_value = None
        self._hint_for = None
        self._wait = CVC_DELAYS[self.speed] if self.all_computers() else REPLY_DELAY

    def _record(self, state: Any) -> None:
        if self.serial in self.recorded:
            return
        self.recorded.add(self.serial)
        humans = [i for i, s in enumerate(self.seats) if not s.is_computer]
        me = humans[0] if humans else 0
        result = state.returns()[me]
        outcome = "won" if result > 0 else ("lost" if result < 0 else "drawn")
        computers = [s.level_tag() for s in self.seats if s.is_computer]
        warning = self.app.stats.record_game(self.game_id, self.variant_id(),
                                             mode_name(self.seats), " vs ".join(computers),
                                             outcome)
        if warning:
            self.app.notify(warning, "warning")
        if any(s.is_computer and s.level == MATCH for s in self.seats):
            self.agents = self._make_agents(self.seats)  # the next game: a rung up or down

    # --- computer ------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        super().update(dt)
        self._show_result_when_due()
        self._cue_turn()
        self._poll_hints()
        if self.ai.busy or not self.computer_to_move():
            return
        if self.paused and not self._step_once:
            return
        self._wait -= dt
        if self._wait > 0 and not self._step_once:
            return
        self._step_once = False
        agent = self.agents[self.state.current_player()]
        assert agent is not None
        self.think(agent, self.state, tag=(self.history.index, self.state))

    def _show_result_when_due(self) -> None:
        """Push the result panel once its delay is over (input ends the delay at once)."""
        due = self._result_due
        if due is None or self.anim.progress("result-delay") is not None:
            return
        if due != (self.serial, self.history.index) or not self.state.is_terminal():
            self._result_due = None  # undone or a new game before it showed: not wanted
            return
        if self.app.top is not self:
            return  # under help or a dialog: shown when the game is on top again
        self._result_due = None
        self.app.push(ResultOverlay(self.app, self))

    def _cue_turn(self) -> None:
        """Start the card's pulse when a human's turn begins (once per position)."""
        here = (self.serial, self.history.index)
        if here == self._cue_for:
            return
        self._cue_for = here
        if self.human_to_move(self.history.current):
            self.anim.start("turn-cue", TURN_CUE)

    def on_ai_result(self, result: AIResult) -> None:
        super().on_ai_result(result)
        index, asked = result.tag
        if result.move is None or index != self.history.index or asked != self.state:
            return  # the position changed while the computer thought
        # A Perfect seat playing as Hard says so on its card (seat_level_text), not here.
        self.push(asked.play(result.move), by_computer=True)

    def toggle_pause(self) -> None:
        """Pause or resume a computer-versus-computer game."""
        self.paused = not self.paused
        if self.paused:
            self.ai.cancel()

    def step_once(self) -> None:
        """While paused, let the computer make exactly one move."""
        if self.paused and self.computer_to_move() and not self.ai.busy:
            self._step_once = True

    # --- hints -------------------------------------------------------------------------------
    def toggle_hints(self) -> None:
        """Show or hide the hint overlay (and remember the choice)."""
        if not self.hints_available():
            self.app.notify(_("Hints are available in two-player games."), "info")
            return
        self.show_hints = not self.show_hints
        try:
            self.app.settings.set("show_hints", self.show_hints)
            self.app.save_settings()
        except ValueError:
            pass
        if not self.show_hints:
            self.hint_runner.cancel()
            self._hint_for = None  # ask again when they are shown again

    def _poll_hints(self) -> None:
        if not self.show_hints or not self.hints_available() or self.state.is_terminal():
            return
        index = self.history.index
        if self.hint_runner.busy:
            result = self.hint_runner.poll()
            if result is None:
                return
            if result.error is not None:
                self.app.notify(_("The hint could not be worked out: {error}").format(
                    error=result.error), "warning")
            elif result.tag == (index, self.state):
                self.hints, self.hint_extra_value = result.move
                self._hint_for = index
            return
        if self._hint_for != index and not (self.computer_to_move() and not self.paused):
            # Hints are for a human about to move (or a paused game being studied);
            # working them out while the computer thinks would only slow it down.
            task = self.hint_task(self.state)
            self._hint_for = index  # asked once per position
            if task is not None:
                self.hint_runner.submit(task, tag=(index, self.state))

    def busy_label(self) -> str | None:
        if self.ai.busy:
            return _("thinking…")
        if self.hint_runner.busy:
            return _("hint…")
        return None

    def is_active(self) -> bool:
        waiting = self.computer_to_move() and not (self.paused and not self._step_once)
        return super().is_active() or self.hint_runner.busy or waiting

    def leave(self) -> None:
        super().leave()
        self.hint_runner.cancel()

    # --- saving and resuming (engine.storage.saved_games) -----------------------------------------
    def snapshot(self, compact: bool = False) -> dict[str, Any]:
        """The game as JSON-able data: the seats, every history entry (game serial and
        position, through the descriptor's ``save_state``) with the cursor, the next
        serial, the games already recorded in the statistics, Pause and the hint overlay.

        ``compact`` keeps only the entries of the game on screen (a history too big to
        save whole loses the earlier games, never the one being played).
        """
        from engine.storage.saved_data import seat_to_data

        entries = self.history.entries
        index = self.history.index
        first, end = 0, len(entries)
        if compact:
            # A game's entries are consecutive: serials only grow along the history.
            serial = entries[index][0]
            first = next(i for i, entry in enumerate(entries) if entry[0] == serial)
            end = first + sum(1 for entry in entries if entry[0] == serial)
        kept = entries[first:end]
        to_data = self.game.state_to_data
        return {"seats": [seat_to_data(seat) for seat in self.seats],
                "history": [[serial, to_data(state)] for serial, state in kept],
                "index": index - first,
                "next_serial": self._next_serial,
                # Only serials still in the history can be replayed to their end again.
                "recorded": sorted(self.recorded & {serial for serial, _state in kept}),
                "paused": self.paused,
                "hints": self.show_hints}

    def restore(self, data: Any) -> None:
        """Resume a :meth:`snapshot`: seats, positions, undo and redo, recorded results.

        Every value is checked first (positions by the descriptor's ``load_state``, for
        this scene's parameters); ValueError, saying what is wrong, changes nothing.
        """
        from engine.storage.saved_data import (
            MAX_SAVED_ENTRIES,
            MAX_SERIAL,
            fields,
            flag,
            items,
            seat_from_data,
            whole,
        )

        record = fields(data, Phrase(N_("the saved game")),
                        ("seats", "history", "index", "next_serial", "recorded", "paused",
                         "hints"))
        entries: list[tuple[int, Any]] = []
        for i, item in enumerate(items(record["history"], Phrase(N_("the history")), 1,
                                       MAX_SAVED_ENTRIES)):
            serial, raw = items(item, Phrase(N_("history entry {number}"), number=i + 1), 2, 2)
            serial = whole(serial, Phrase(N_("history entry {number}'s game number"),
                                          number=i + 1), 0, MAX_SERIAL)
            if entries and serial < entries[-1][0]:
                raise ValueError(Phrase(N_("history entry {number} belongs to an earlier game"),
                                        number=i + 1))
            try:
                entries.append((serial, self.game.state_from_data(self.params, raw)))
            except ValueError as exc:
                raise ValueError(Phrase(N_("history entry {number}: {error}"), number=i + 1,
                                        error=error_text(exc))) from None
        players = entries[0][1].num_players
        raw_seats = items(record["seats"], Phrase(N_("the seats")), players, players)
        seats = tuple(seat_from_data(seat, i + 1, self.game.levels)
                      for i, seat in enumerate(raw_seats))
        index = whole(record["index"], Phrase(N_("the position shown")), 0, len(entries) - 1)
        last = entries[-1][0]
        next_serial = whole(record["next_serial"], Phrase(N_("the next game number")),
                            last + 1, MAX_SERIAL + 1)
        recorded = {whole(serial, Phrase(N_("a recorded game's number")), 0, next_serial - 1)
                    for serial in items(record["recorded"], Phrase(N_("the recorded games")),
                                        0, len(entries))}
        paused = flag(record["paused"], Phrase(N_("the pause flag")))
        show_hints = flag(record["hints"], Phrase(N_("the hint flag")))
        agents = self._make_agents(seats)
        # Everything checked: take it over.
        self.ai.cancel()
        self.anim.finish_all()  # nothing animates a position it did not play
        self.seats, self.agents = seats, agents
        history = History.restored(entries, index)
        self.history = history
        self.serial = history.current[0]
        self._next_serial = next_serial
        self.recorded = recorded
        self.paused = paused
        self.show_hints = show_hints
        self._step_once = False
        self.note = None
        self._result_due = None  # a finished game resumes on its board, not on its panel
        self._cue_for = None
        self._layout_key = None  # the seats may have changed the computer controls
        self._changed()

    # --- GameScene actions ----------------------------------------------------------------
    def new_game(self) -> None:
        if self.state == self.fresh_state():
            return  # already at the start: nothing to do
        self.serial, self._next_serial = self._next_serial, self._next_serial + 1
        self.history.push((self.serial, self.fresh_state()))
        self._changed()

    def undo(self) -> None:
        if self.all_computers():
            moved = self.history.undo()
            self.paused = True
        elif self.any_computer():
            # Against the computer, go back to the human's previous turn, not just
            # before the computer's reply (which it would only play again).
            moved = self.history.undo(until=self.human_to_move)
        else:
            moved = self.history.undo()
        if moved:
            self.serial = self.history.current[0]
            self._changed()

    def redo(self) -> None:
        if self.all_computers() or not self.any_computer():
            moved = self.history.redo()
        else:
            moved = self.history.redo(
                until=lambda e: self.human_to_move(e) or e[1].is_terminal())
        if moved:
            self.serial = self.history.current[0]
            self._changed()

    def can_undo(self) -> bool:
        if self.all_computers() or not self.any_computer():
            return self.history.can_undo
        return any(self.human_to_move(e) for e in self.history.entries[:self.history.index])

    def can_redo(self) -> bool:
        return self.history.can_redo

    def turn_text(self, how: str | None = None) -> str:
        """Whose turn it is (or that the computer is paused), plus any note; ``how``, for a
        human to move, says how to move ("click a column.")."""
        s = self.state
        player = s.current_player()
        seat = self.seats[player]
        name = self.player_name(player)
        if seat.is_computer:
            if self.paused:
                return _("Paused: {name} ({level}) moves next. "
                         "Space or Resume to go on, Step for one move.").format(
                    name=name, level=seat.level_text())
            text = _("{name} to move: the computer ({level}).").format(
                name=name, level=seat.level_text())
        else:
            # Unmistakable whoever is at the keyboard; "X to move." stays for the games,
            # which add how to move to it.
            if how:
                text = _("Your turn — {name} to move: {how}").format(name=name, how=how)
            else:
                text = _("Your turn — {name} to move.").format(name=name)
        return f"{text} {self.note}" if self.note else text

    # --- input -----------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
            if event.key == pygame.K_h:
                self.toggle_hints()
                return
            if event.key == pygame.K_s:
                self.open_setup()
                return
            pause_keys = (pygame.K_p, pygame.K_SPACE)
            if (event.key in pause_keys and self.all_computers() and not self.state.is_terminal()
                    and (event.key == pygame.K_p or self.ui.focused is None)):
                # Space pauses and resumes unless it is pressing a focused button.
                self.toggle_pause()
                return
        super().handle_event(event)

    # --- drawing --------------------------------------------------------------------------
    def turn_cue(self) -> float | None:
        """How strongly the mover's card glows now: None when no human is to move, else
        0..1 (pulsing while the turn is new, 1 after it, and 1 with reduce motion)."""
        if not self.human_to_move(self.history.current):
            return None
        t = self.anim.progress("turn-cue")
        if t is None:
            return 1.0
        # A few soft pulses that settle on the steady glow.
        return 0.5 + 0.5 * math.cos(2 * math.pi * TURN_CUE_PULSES * t)

    def card_tag(self, player: int) -> str:
        """The line a player's card shows under its name: "Your turn" ("X's turn" when
        several humans share the screen), "thinking…", "to move" or "winner"."""
        state = self.state
        seat = self.seats[player]
        if state.is_terminal():
            return _("winner") if state.returns()[player] > 0 else ""
        if state.current_player() != player:
            return ""
        if seat.is_computer:
            return _("thinking…") if self.ai.busy else _("to move")
        humans = sum(1 for s in self.seats if not s.is_computer)
        if humans == 1:
            return _("Your turn")
        return _("{name}'s turn").format(name=self.player_name(player))

    def seat_level_text(self, player: int) -> str:
        """A computer seat's level as its card shows it: ``Hard, 10% mistakes``, or
        ``Perfect (plays as Hard here: board too big to solve)`` while a Perfect player
        could not solve the board and played its fallback's move."""
        seat = self.seats[player]
        if seat.level == MATCH and self.match_rung is not None:
            return seat.level_text(_("Match me: {level}").format(
                level=self.game.level_title(self.match_rung)))
        agent: Any = self.agents[player] if player < len(self.agents) else None
        while agent is not None and hasattr(agent, "inner"):
            agent = agent.inner  # through a mistake-making wrapper to the player itself
        note = getattr(agent, "card_note", None)
        return f"{seat.level_text()} ({note})" if note else seat.level_text()

    def draw_player_cards(self, surface: pygame.Surface) -> None:
        """A card per seat: symbol, human or computer, whose turn, the winner.

        A human's turn is unmistakable: that card is lit, glows (pulsing for a moment
        when the turn begins) and says "Your turn".
        """
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        state = self.state
        over = state.is_terminal()
        returns = state.returns() if over else None
        cue = self.turn_cue()
        for player, seat in enumerate(self.seats):
            card = self.layout()[f"card{player}"]
            left, top = card.x, card.y
            rect = vp.map_rect(tuple(card))
            to_move = not over and state.current_player() == player
            winner = bool(returns) and returns[player] > 0
            glowing = to_move and cue is not None
            if glowing:
                self._draw_glow(surface, rect, cue)
            pygame.draw.rect(surface, p.hover if glowing else p.panel, rect,
                             border_radius=vp.px(10))
            edge = p.focus if (to_move or winner) else p.panel_edge
            pygame.draw.rect(surface, edge, rect, vp.px(4 if to_move or winner else 1),
                             border_radius=vp.px(10))
            self.draw_player_badge(surface, vp.rect(left + 8, top + 8, 64, 64), player)
            font = theme.font(20 * vp.scale, bold=True)
            surface.blit(font.render(self.player_name(player), True, p.text),
                         vp.point(left + 80, top + 14))
            small = theme.font(13 * vp.scale)
            who = _("Human") if not seat.is_computer else _("Computer")
            surface.blit(small.render(who, True, p.muted), vp.point(left + 80, top + 42))
            # A computer's level is the "level{player}" label (a widget: it fits its text
            # and shows the whole of it on hover).
            tag = self.card_tag(player)
            if tag:
                size = 17 if glowing else 14
                label = theme.font(size * vp.scale, bold=True).render(tag, True, p.accent)
                surface.blit(label, vp.point(left + 8, top + (94 if glowing else 101)))

    def _draw_glow(self, surface: pygame.Surface, rect: pygame.Rect, strength: float) -> None:
        """A halo round a card in the focus colour; ``strength`` 0..1 sets its reach and
        opacity (the steady glow is 1)."""
        vp, p = self.app.viewport, self.app.theme.palette
        reach = vp.px(4 + 6 * strength)
        halo = rect.inflate(2 * reach, 2 * reach)
        layer = pygame.Surface(halo.size, pygame.SRCALPHA)
        radius = vp.px(10) + reach
        for i in range(reach, 0, -max(1, reach // 4)):
            # Rings fading outwards: brightest against the card.
            alpha = round((70 + 150 * strength) * (1 - (i - 1) / reach) ** 0.5)
            ring = layer.get_rect().inflate(-2 * (reach - i), -2 * (reach - i))
            pygame.draw.rect(layer, (*p.focus, alpha), ring, max(1, reach // 4) + 1,
                             border_radius=radius - (reach - i))
        surface.blit(layer, halo)

    def debug_state(self) -> dict[str, Any]:
        return {"scene": type(self).__name__, "status": self.status_text(),
                "variant": self.variant_id(), "seats": [s.describe() for s in self.seats],
                "thinking": self.ai.busy, "paused": self.paused,
                "moves": self.history.index, "over": self.state.is_terminal()}
