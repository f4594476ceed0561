"""A turn-based game screen where any seat may be a human or the computer.

Shared by every family with opponents. The rules of play around the game's rules —
seats and agents, the move log with undo back to the human's turn, results recorded
once per game, hints asked once per position, saving — are the midend's
(:class:`engine.midend.match.MatchMidend`, no display); this screen keeps input, layout and
drawing: the computer scheduled on the AI runner (with a visible delay when it plays
itself, Pause and Step), hints worked out off the frame loop, sounds, animations, the
result panel, and the player cards (:mod:`engine.screens.player_cards_view`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from engine.ai.agent import Agent
from engine.ai.runner import AIResult, AIRunner
from engine.core.i18n import N_, Phrase, _
from engine.midend.match import MatchEvent, MatchFront, MatchMidend, MatchResult
from engine.model.descriptor import GameDescriptor
from engine.model.game_settings import load_seats, remember
from engine.model.levels import MATCH
from engine.model.records import record_text
from engine.model.rules import GameState
from engine.model.seats import Seat, mode_name
from engine.screens.game_scene import GameScene
from engine.screens.move_list_view import MOVES_LABEL, MoveListView
from engine.screens.player_cards_view import CVC_DELAYS, PlayerCardsView
from engine.screens.result_overlay import ResultOverlay
from engine.screens.scene import Scene
from engine.ui.animation import SWEEP
from engine.ui.widgets import Button

if TYPE_CHECKING:
    import threading

    from engine.runtime.app import App

# Seconds before the computer answers a human, so the human sees their own move land.
REPLY_DELAY = 0.15
# Seconds between a game's last move and its result panel: the winning line sweeps in first.
RESULT_DELAY = SWEEP + 0.05


# What every turn-based screen adds to its game's rules in the help.
SCREEN_HELP = N_("""On screen: the last move is framed in the focus colour (each computer's last
move too, when several play); the card of the player to move glows and says whose turn it is. When a
game ends, a panel says who won, with Play again, Swap sides, Review (every move explained, its
mistakes marked; R on the finished board too) and Back. Moves (M) lists the moves beside the board,
in the game's notation; the list is always shown once a game is over. Computer against computer:
Space (or P) pauses and resumes, Step plays one move, Speed sets the pace. Leaving a game keeps
it, with its undo history: open the game again to carry on. Sound, volume and Reduce motion are
in the launcher's Settings.""")


class TurnBasedScene(MatchFront, MoveListView, PlayerCardsView, GameScene):
    """The screen of a turn-based game: input, layout and drawing around a
    :class:`~engine.midend.match.MatchMidend` (``self.match``), which holds the seats, agents,
    move log, results and hints (read through :class:`~engine.midend.match.MatchFront`).

    Built from the game's :class:`~engine.model.descriptor.GameDescriptor`: the seats
    come from settings (:mod:`engine.model.game_settings`), each computer seat's agent
    from the descriptor's ``make_agent``, the hints from its hint function, the
    help from its rules text. Subclasses implement :meth:`fresh_state`,
    :meth:`draw_board` and :meth:`draw_player_badge`, and optionally
    :meth:`open_setup` and :meth:`start_codec`.
    """

    hint_label = N_("Hint")
    # What the Hint button says where this screen has no hints (a game may say why).
    no_hints_note = N_("This game has no hints.")
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
        self.rng = random.Random(seed)
        self.match_rung: str | None = None
        # Seats, agents, the move log, results and hints: the midend's (no display).
        self.match = MatchMidend(state, chosen, fresh=self.fresh_state,
                                 make_agents=self._make_agents, record=self._record)
        self.match.add_listener(self._on_match_event)
        self._step_once = False
        self._wait = REPLY_DELAY
        self.note: str | None = None
        # (game serial, history index) of a finished game whose result panel is due.
        self._result_due: tuple[int, int] | None = None
        # The position whose "your turn" cue was started, so it starts once per turn.
        self._cue_for: tuple[int, int] | None = None
        self.show_hints = bool(app.settings.get("show_hints"))
        self.hint_runner = AIRunner()
        self.add_tool(Button(self.place("Setup"), N_("Setup"), self.open_setup, name="Setup"), 84)
        self.add_tool(Button(self.place("Hint"), self.hint_label, self.toggle_hints, name="Hint",
                             enabled=self.hints_available, selected=lambda: self.show_hints), 80)
        # The move list beside the board (engine.screens.move_list_view): a toggle, and
        # always shown once the game is over.
        self.show_moves = bool(app.settings.get("show_moves"))
        self.add_tool(Button(self.place("Moves"), MOVES_LABEL, self.toggle_moves, name="Moves",
                             selected=lambda: self.show_moves), 84)
        self.add_cvc_controls()
        self.add_card_labels()

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
            # At once, from the copy the statistics worker keeps: the frame never waits
            # on the file. When it cannot be read the player is told the level played.
            known, busy = self.app.stats.match_outcomes_now(self.game.id)
            if known is None:
                level = self.game.match_level([])
                why = (N_("the statistics file is busy: another program holds it") if busy
                       else N_("your results have not been read yet"))
                self.app.notify(Phrase(
                    N_("Match me plays at {level} for now: {why}. It follows your results "
                       "again once they can be read."),
                    level=self.game.level_title(level) if level else "", why=Phrase(why)),
                    "warning")
            else:
                outcomes = known
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

    def start_codec(self) -> tuple[Callable[[Any], Any], Callable[[Any], Any]] | None:
        """How a game that can start elsewhere than :meth:`fresh_state` (a position set by
        hand) saves such a start: ``(write(state) -> data, read(data) -> state)``, the reader
        checking everything (ValueError). None (the default): every game starts fresh, and
        moves are all a save needs."""
        return None

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

    def push(self, state: Any, by_computer: bool = False) -> None:
        """Make ``state`` the current position (undoable); record a finished game."""
        self.match.push(state, by_computer)
        self._changed()

    def new_game_at(self, start: Any) -> None:
        """Start a new game (undoable) at a position set by hand."""
        self.match.new_game(start)
        self._changed()

    def _on_match_event(self, event: MatchEvent) -> None:
        """Sounds, animations and the result panel for what the midend did."""
        if event.kind == "move":
            self.app.audio.play("computer" if event.by_computer
                                else self.move_sound(event.before, event.after))
            self.on_moved(event.before, event.after)
        elif event.kind == "finished":
            self.app.audio.play(self.result_sound(event.after))
            if event.first:
                # The first time this game ends (not when it is undone and replayed):
                # show the result once the winning line has swept in.
                self._result_due = (self.serial, self.history.index)
                self.anim.start("result-delay", self.result_delay(event.after))

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
        self.match.play(move)
        self._changed()
        return True

    def _changed(self) -> None:
        """After any change of position: drop stale work, schedule the computer."""
        self.ai.cancel()
        self.hint_runner.cancel()
        self.match.forget_hint_request()
        self._wait = CVC_DELAYS[self.speed] if self.all_computers() else REPLY_DELAY

    def _record(self, result: MatchResult) -> None:
        """The midend's statistics port: a game ended for the first time."""
        computers = [s.level_tag() for s in result.seats if s.is_computer]
        # The game as its record line (engine.model.records), written on the statistics
        # worker: the start and moves are taken now (immutable), the text made off the loop.
        game, params = self.game, self.params
        start, moves = self.match.game_record()

        def line() -> str | None:
            return record_text(game, params, start, moves)
        # Queued: written off the frame loop; a warning comes back as a notice (App.step).
        self.app.stats.record_game_later(self.game_id, self.variant_id(),
                                         mode_name(result.seats), " vs ".join(computers),
                                         result.outcome, record=line)

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
        agent = self.match.agent_to_move()
        assert agent is not None
        self.think(agent, self.state, tag=self.match.position_key)

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

    def on_ai_result(self, result: AIResult) -> None:
        super().on_ai_result(result)
        index, asked = result.tag
        if result.move is None or index != self.history.index or asked != self.state:
            return  # the position changed while the computer thought
        # A Perfect seat playing as Hard says so on its card (seat_level_text), not here.
        self.match.play(result.move, by_computer=True)
        self._changed()

    def toggle_pause(self) -> None:
        """Pause or resume a computer-versus-computer game."""
        if self.match.toggle_pause():
            self.ai.cancel()

    def step_once(self) -> None:
        """While paused, let the computer make exactly one move."""
        if self.paused and self.computer_to_move() and not self.ai.busy:
            self._step_once = True

    # --- hints -------------------------------------------------------------------------------
    def toggle_hints(self) -> None:
        """Show or hide the hint overlay (and remember the choice)."""
        if not self.hints_available():
            self.app.notify(_(self.no_hints_note), "info")
            return
        self.show_hints = not self.show_hints
        try:
            self.app.settings.set("show_hints", self.show_hints)
            self.app.save_settings()
        except ValueError:
            pass
        if not self.show_hints:
            self.hint_runner.cancel()
            self.match.forget_hint_request()  # ask again when they are shown again

    def _poll_hints(self) -> None:
        if not self.show_hints or not self.hints_available() or self.state.is_terminal():
            return
        if self.hint_runner.busy:
            result = self.hint_runner.poll()
            if result is None:
                return
            if result.error is not None:
                self.app.notify(_("The hint could not be worked out: {error}").format(
                    error=result.error), "warning")
            else:
                values, extra = result.move
                self.match.hint_answer(result.tag, values, extra)  # stale answers dropped
            return
        if self.computer_to_move() and not self.paused:
            # Hints are for a human about to move (or a paused game being studied);
            # working them out while the computer thinks would only slow it down.
            return
        key = self.match.hint_request()  # once per position
        if key is not None:
            task = self.hint_task(self.state)
            if task is not None:
                self.hint_runner.submit(task, tag=key)

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
        """The game as JSON-able data: the midend's (seats, the move log with its cursor,
        the next game number, the games already recorded, Pause) and the hint overlay.

        ``compact`` keeps only the game on screen (a history too big to save whole loses
        the earlier games, never the one being played).
        """
        codec = self.start_codec()
        data = self.match.snapshot(codec[0] if codec else None, compact=compact)
        data["hints"] = self.show_hints
        return data

    def save_token(self) -> Any:
        """What changes whenever :meth:`snapshot` would (bar the seats): the saved game's
        journal (engine.storage.journal) writes a line only then, never comparing logs."""
        match = self.match
        return (id(match.history), match.history.version, match.next_serial,
                len(match.recorded), match.paused, self.show_hints, match.reviews_version)

    def restore(self, data: Any) -> None:
        """Resume a :meth:`snapshot`: seats, the moves replayed, undo and redo, recorded
        results, Pause and the hint overlay.

        Every value is checked first and every move replayed through the rules;
        ValueError, saying what is wrong, changes nothing.
        """
        from engine.storage.saved_data import fields, flag
        from engine.storage.saved_format import read_v1_position

        record = fields(data, Phrase(N_("the saved game")), ("hints",))
        show_hints = flag(record["hints"], Phrase(N_("the hint flag")))
        codec = self.start_codec()
        # A start no move reaches is in the screen's words, or (upgraded from a version-1
        # save) in version 1's.
        decode = codec[1] if codec else (
            lambda raw: read_v1_position(self.game, self.params, raw))
        self.match.restore(data, self.game.levels, decode)
        # Taken over: nothing of the old position stays on screen or in the works.
        self.ai.cancel()
        self.anim.finish_all()  # nothing animates a position it did not play
        self.show_hints = show_hints
        self._step_once = False
        self.note = None
        self._result_due = None  # a finished game resumes on its board, not on its panel
        self._cue_for = None
        self._layout_key = None  # the seats may have changed the computer controls
        self._changed()

    # --- GameScene actions ----------------------------------------------------------------
    def new_game(self) -> None:
        if self.match.new_game(self.dealt_start()):
            self._changed()

    def dealt_start(self) -> Any:
        """A new game's start dealt by the game (its descriptor's ``deal``) when two
        computers play, so that their games differ; None, the fresh start, otherwise (and
        for a human, who starts where the rules and the help say)."""
        if self.game.deal is None or not self.all_computers():
            return None
        return self.game.deal_start(self.params, self.rng)

    def undo(self) -> None:
        if self.match.undo():
            self._changed()

    def redo(self) -> None:
        if self.match.redo():
            self._changed()

    def can_undo(self) -> bool:
        return self.match.can_undo()

    def can_redo(self) -> bool:
        return self.match.can_redo()

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
            if event.key == pygame.K_m:
                self.toggle_moves()
                return
            if event.key == pygame.K_r and self.state.is_terminal():
                self.open_review()
                return
            pause_keys = (pygame.K_p, pygame.K_SPACE)
            if (event.key in pause_keys and self.all_computers() and not self.state.is_terminal()
                    and (event.key == pygame.K_p or self.ui.focused is None)):
                # Space pauses and resumes unless it is pressing a focused button.
                self.toggle_pause()
                return
        if self.moves_wheel(event):
            return
        super().handle_event(event)

    def open_review(self) -> None:
        """Review the game on screen (engine.screens.review_scene), or say why it cannot be."""
        from engine.ai.review import unavailable_reason
        from engine.screens.review_scene import ReviewScene

        start, _moves = self.match.game_record()
        reason = unavailable_reason(start, self.game.hint_function())
        if reason is not None:
            self.app.notify(reason, "info")
            return
        self.app.push(ReviewScene(self.app, self))

    # --- drawing --------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        self.draw_move_list(surface)

    def debug_state(self) -> dict[str, Any]:
        return {"scene": type(self).__name__, "status": self.status_text(),
                "variant": self.variant_id(), "seats": [s.describe() for s in self.seats],
                "thinking": self.ai.busy, "paused": self.paused,
                "moves": self.history.index, "over": self.state.is_terminal()}
