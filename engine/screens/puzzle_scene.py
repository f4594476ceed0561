"""The shared screen of one-player puzzles, on :class:`engine.midend.puzzle.PuzzleMidend`.

A puzzle's scene subclasses :class:`PuzzleScene` and supplies only its drawing
(``draw_board``), its input (``board_event``: a click or key becomes ``self.play(move)``)
and its options (a new puzzle's start, words for the win screen). Everything else is here:

* the toolbar: New (``new_game_label``), Restart, Undo, Redo, Hint, Solve and ?, with the
  shortcuts R (Restart), H (Hint), S (Solve), N or F2 (New), Ctrl+Z / Ctrl+Y;
* moves and their sounds, the completion flash, then the win screen
  (:class:`WinOverlay`, below), the result recorded in the statistics once;
* the clock, paused while the screen is covered (help, a dialog, another screen): the app
  tells a covered scene through :meth:`engine.screens.scene.Scene.covered` and ``uncovered``;
* hints and a shown solution (:class:`engine.midend.puzzle.PuzzleHelp`), worked out off the frame
  loop by the descriptor's ``solve`` hook (or a helper the game builds), and Solve, which
  plays the solution one move at a time;
* saving and resuming (``snapshot``/``restore`` for :mod:`engine.storage.saved_games`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

import pygame

from engine.core.i18n import N_, Phrase, _, ngettext, number_text
from engine.midend.puzzle import Change, PuzzleHelp, PuzzleMidend, Recorded, Solved
from engine.model.descriptor import load
from engine.model.rules import IllegalMove, Move
from engine.screens.game_scene import GameScene
from engine.screens.scene import Overlay
from engine.storage.saved_data import fields, flag, items, move_from_data, move_to_data
from engine.ui.animation import FLASH
from engine.ui.widgets import Button, Label

if TYPE_CHECKING:
    from engine.model.descriptor import GameDescriptor
    from engine.runtime.app import App

# The completion flash (an engine.ui.animation.Timeline track): the board flashes
# FLASH_TIMES times, then the win screen opens.
FLASH_TRACK = "flash"
FLASH_TIMES = 3
# The shared actions a puzzle can show as buttons: label and toolbar width (design units).
ACTIONS: dict[str, tuple[str, float]] = {
    "Restart": (N_("Restart"), 100),
    "Hint": (N_("Hint"), 80),
    "Solve": (N_("Solve"), 80),
    "Show solution": (N_("Show solution"), 150),
}


class _QueuedStats:
    """The statistics port of a solve (engine.midend.puzzle.PuzzleStats) that never waits
    on the file: the best so far from the statistics worker's copy, the result queued."""

    def __init__(self, stats: Any) -> None:
        self.stats = stats
        #: False when the best so far was not known (still being read, or the file busy).
        self.known = True

    def best_puzzle(self, game: str, variant: str) -> tuple[int, float] | None:
        self.known, best = self.stats.best_puzzle_now(game, variant)
        return best

    def record_puzzle(self, game: str, variant: str, moves: int, seconds: float,
                      helped: bool | int) -> str | None:
        self.stats.record_puzzle_later(game, variant, moves, seconds, helped)
        return None  # a warning comes back as a notice (App.step)


class WinOverlay(Overlay):
    """The win screen: moves, time, help used, best result; Play again, New, Close.

    The middle button is the scene's own "new puzzle" action, under its label
    (such as Generate).
    """

    help_title = N_("Solved")
    # The scene's ``win_help_text`` replaces this on each screen (it names its New button).
    help_text = N_("Play again returns to the start of this puzzle (Undo brings the solved "
                   "position back); New game starts another; Close returns to the solved "
                   "puzzle.")
    size = (500.0, 300.0)

    def __init__(self, app: App, game: PuzzleScene, solved: Solved,
                 recorded: Recorded) -> None:
        super().__init__(app)
        self.game = game
        self.help_text = game.win_help_text
        self.moves, self.seconds, self.helped = solved.moves, solved.seconds, solved.helped
        lines = game.win_lines(solved, recorded)
        self.ui.add(Label(self._at(24, 20, -48, 50), N_("Solved!"), size=34, bold=True,
                          role="accent", align="center", fit_lines=1, min_size=20))
        self.ui.add(Label(self._at(24, 80, -48, 130), "\n\n".join(filter(None, lines)),
                          size=18, align="center", fit_lines=5, min_size=12))
        actions = [(N_("Play again"), self._play_again), (game.new_game_label, self._new),
                   (N_("Close"), self.close)]
        if game.can_review:
            # The solve beside the fewest moves (engine.screens.puzzle_review_scene).
            actions.insert(2, (N_("Review"), self.review))
        self._count = len(actions)
        for i, (label, action) in enumerate(actions):
            self.ui.add(Button(self._button(i), label, action, name=label))
        self.ui.focus_index = 0

    @property
    def presses(self) -> int:
        """The moves of the solve, under the name of a puzzle whose moves are presses."""
        return self.moves

    @property
    def panel(self) -> tuple[float, float, float, float]:  # type: ignore[override]
        """The panel, centred in the window's design area (it fits the smallest window)."""
        area = self.app.viewport.area
        w, h = self.size
        return (area.centerx - w / 2, area.centery - h / 2, w, h)

    def _at(self, dx: float, dy: float, dw: float, h: float
            ) -> Callable[[], tuple[float, float, float, float]]:
        """A place ``dx``, ``dy`` from the panel's corner, ``dw`` narrower than it."""
        def place() -> tuple[float, float, float, float]:
            x, y, w, _h = self.panel
            return (x + dx, y + dy, w + dw, h)
        return place

    def _button(self, i: int) -> Callable[[], tuple[float, float, float, float]]:
        """The place of the ``i``-th of the buttons along the panel's foot."""
        def place() -> tuple[float, float, float, float]:
            x, y, w, h = self.panel
            count = self._count
            width = (w - 48 - (count - 1) * 10) / count
            return (x + 24 + i * (width + 10), y + h - 70, width, 46)
        return place

    def review(self) -> None:
        """The solve's review: its moves beside the fewest, either replayed."""
        self.close()
        self.game.open_review()

    def handle_event(self, event: pygame.event.Event) -> None:
        """R opens the review (where the game has one), as on a game's result panel."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_r and self.game.can_review:
            self.review()
            return
        super().handle_event(event)

    def _play_again(self) -> None:
        self.close()
        self.game.restart()

    def _new(self) -> None:
        self.close()
        self.game.new_game()

    def debug_state(self) -> dict[str, Any]:
        # "presses": the name tests and --dump-state readers have long used for the moves.
        return {"scene": "WinOverlay", "overlay": True, "presses": self.moves,
                "moves": self.moves, "helped": self.helped}


class PuzzleScene(GameScene):
    """A one-player puzzle's screen around a :class:`PuzzleMidend` (see the module notes).

    Subclasses set :attr:`game` (their descriptor: statistics id, save hooks, ``solve``),
    pass the midend (and, if the descriptor's ``solve`` does not suit, their own
    :class:`PuzzleHelp`) to ``__init__``, and override :meth:`draw_board`,
    :meth:`board_event` and :meth:`new_start`; optionally :meth:`status_text`,
    :meth:`win_lines`, :meth:`variant_id` and :meth:`hints_exhausted`.
    """

    game: ClassVar[GameDescriptor]
    #: The shared actions put on the toolbar, in order (names of :data:`ACTIONS`). A game
    #: may place some elsewhere with :meth:`action_button` instead.
    toolbar_actions: ClassVar[tuple[str, ...]] = ("Restart", "Hint", "Solve")
    #: The sound of a move that does not solve the puzzle (engine.ui.audio.SOUNDS).
    move_sound: ClassVar[str] = "place"
    #: The win screen's help (marked with N_; it names the New button).
    win_help_text: ClassVar[str] = WinOverlay.help_text
    #: Seconds between the moves Solve plays.
    solve_interval: ClassVar[float] = 0.25
    #: A saved puzzle keeps at most this many hinted moves (each is one click on Hint).
    max_saved_hints: ClassVar[int] = 10_000

    def __init__(self, app: App, midend: PuzzleMidend[Any],
                 helper: PuzzleHelp[Any, Any] | None = None, *, params: Any = None) -> None:
        """``midend`` plays the puzzle; ``helper`` works out hints and solutions (None: one
        on the descriptor's ``solve`` hook, or no help where it has none); ``params`` are
        the puzzle's parameters (for the statistics and saves)."""
        super().__init__(app)
        self.puzzle = midend
        if helper is None and self.game.solve is not None:
            helper = PuzzleHelp(midend, load(self.game.solve))
        self.helper = helper
        self._params = params
        midend.add_listener(self._puzzle_changed)
        # Not on screen until entered: the clock waits (see enter, covered, uncovered).
        self._on_screen = False
        midend.pause()
        # A solve waiting behind the completion flash: what the win screen will say.
        self._win: tuple[Solved, Recorded] | None = None
        # (variant id, best result) for the side panel: one statistics query per variant.
        self._best: tuple[str, tuple[int, float] | None] | None = None
        # Solve: the solution's moves being played, and the time to the next one.
        self._playing: Iterator[Move] | None = None
        self._play_wait = 0.0
        self._own_move = False  # the change heard is one Solve made
        for name in self.toolbar_actions:
            self.add_tool(self.action_button(name, self.place(name)), ACTIONS[name][1])

    def action_button(self, name: str, place: Callable[[], tuple[float, float, float, float]],
                      **options: Any) -> Button:
        """The button of the shared action ``name`` ("Restart", "Hint", "Solve", "Show
        solution") at ``place``; ``options`` go to :class:`Button` (``size``…)."""
        label = ACTIONS[name][0]
        action: Callable[[], Any] = {"Restart": self.restart, "Hint": self.hint,
                                     "Solve": self.solve,
                                     "Show solution": self.toggle_solution}[name]
        if name == "Show solution":
            options.setdefault("selected", lambda: self.show_solution)
        if name != "Restart":
            options.setdefault("enabled", lambda: self.helper is not None)
        return Button(place, label, action, name=name, **options)

    # --- reading -----------------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The position on screen."""
        return self.puzzle.state

    @property
    def params(self) -> Any:
        """The puzzle's parameters (a resumed game opens with them)."""
        return self._params

    @property
    def helped(self) -> bool:
        """Whether help was used on this puzzle (the midend keeps it with the puzzle)."""
        return self.puzzle.helped

    @property
    def show_solution(self) -> bool:
        """Whether the solution is shown."""
        return self.helper is not None and self.helper.showing

    @property
    def hinted(self) -> set[Any]:
        """Moves revealed by Hint and not played since."""
        return self.helper.hinted if self.helper is not None else set()

    @property
    def unsolvable(self) -> bool:
        """Whether the solver found that this position cannot be solved."""
        return self.helper is not None and self.helper.unsolvable

    @property
    def solving(self) -> bool:
        """Whether Solve is playing (or waiting for) the solution."""
        return self._playing is not None or (self.helper is not None
                                             and self.helper.moves_wanted)

    def last_move(self) -> Move | None:
        """The move that led to the position shown; None at an attempt's start."""
        return self.puzzle.last_move

    def variant_id(self) -> str:
        """The statistics id results are recorded under (default: the parameters')."""
        spec = self.game.param_spec()
        return "" if spec is None else spec.variant_id(self.params)

    def best_result(self) -> tuple[int, float] | None:
        """The best unhelped (moves, seconds) of this variant, read once per variant and
        after each recorded result (an SQLite query: not once a frame)."""
        variant = self.variant_id()
        if self._best is None or self._best[0] != variant:
            # From the statistics worker, at once: None until it has been read (the frame
            # never waits on the file).
            known, best = self.app.stats.best_puzzle_now(self.game.id, variant)
            if not known:
                return None
            self._best = (variant, best)
        return self._best[1]

    def count_moves(self, count: int) -> str:
        """A count of moves in words ("1 move", "2 moves"); a game may name its own."""
        return ngettext("{count} move", "{count} moves", count).format(count=count)

    def win_lines(self, solved: Solved, recorded: Recorded) -> list[str]:
        """The win screen's lines: the result, help used or not, the best before."""
        best = recorded.best_before
        record = ""
        if recorded.new_best:
            record = _("A new best!")
        elif best is not None:
            record = _("Best: {moves}, {seconds} s.").format(
                moves=self.count_moves(best[0]), seconds=number_text(best[1], 1))
        return [_("Solved in {moves} and {seconds} s.").format(
                    moves=self.count_moves(solved.moves), seconds=number_text(solved.seconds, 1)),
                _("Solved with help (solution or hint).") if solved.helped
                else _("Solved without help."),
                record]

    def status_text(self) -> str:
        """Moves so far, or the result."""
        moves = self.count_moves(self.puzzle.moves)
        if self.puzzle.solved:
            return _("Solved in {moves}!").format(moves=moves)
        if self.unsolvable:
            return _("{moves}. This position cannot be solved.").format(moves=moves)
        return _("{moves} so far.").format(moves=moves)

    # --- actions -----------------------------------------------------------------------
    def new_start(self) -> Any:
        """The start position of a new puzzle (default: the descriptor's rules factory)."""
        return self.game.new_game(self.params)

    def play(self, move: Move) -> Solved | None:
        """Play ``move`` (undoable): a sound, or the solve recorded and shown (once per
        attempt). An illegal move sounds "illegal" and changes nothing."""
        try:
            solved = self.puzzle.play(move)
        except IllegalMove:
            self.app.audio.play("illegal")
            return None
        if solved is not None:
            self._won(solved)
        else:
            self.app.audio.play(self.move_sound)
        return solved

    def new_game(self) -> None:
        """A new puzzle (undoable)."""
        self.puzzle.new_puzzle(self.new_start())

    def restart(self) -> None:
        """Back to the puzzle's start (undoable; help used stays used)."""
        self.puzzle.restart()

    def undo(self) -> None:
        self.puzzle.undo()

    def redo(self) -> None:
        self.puzzle.redo()

    def can_undo(self) -> bool:
        return self.puzzle.can_undo

    def can_redo(self) -> bool:
        return self.puzzle.can_redo

    def toggle_solution(self) -> None:
        """Show (or hide) the solution."""
        if self.helper is None:
            self.app.audio.play("illegal")
            return
        self.helper.toggle_solution()

    def hints_exhausted(self) -> bool:
        """Whether every move of the known solution has been hinted already."""
        return self.helper is not None and self.helper.all_hinted

    def hint(self) -> None:
        """Reveal one more move of the solution ("illegal" when there is none left)."""
        if self.helper is None or self.puzzle.solved or self.unsolvable \
                or self.hints_exhausted():
            self.app.audio.play("illegal")
            return
        self.helper.hint()

    def solve(self) -> None:
        """Play the solution, one move every :attr:`solve_interval` seconds (the puzzle is
        helped); again while it plays: stop."""
        if self.solving:
            self._stop_solving()
            return
        if self.helper is None or self.puzzle.solved or self.unsolvable:
            self.app.audio.play("illegal")
            return
        self.helper.ask_moves()
        self._play_wait = 0.0

    def _stop_solving(self) -> None:
        self._playing = None
        if self.helper is not None and self.helper.moves_wanted:
            self.helper.cancel()

    # --- the review (engine.screens.puzzle_review_scene) ---------------------------------
    @property
    def can_review(self) -> bool:
        """Whether a solve can be reviewed here: the game draws positions for it
        (:meth:`draw_position`) and has a solve hook for the fewest moves."""
        return (type(self).draw_position is not PuzzleScene.draw_position
                and self.game.solve is not None)

    def draw_position(self, surface: pygame.Surface, state: Any, rect: pygame.Rect,
                      last: Move | None, upcoming: Move | None) -> None:
        """Draw ``state`` filling ``rect`` (screen pixels) for the review, the move that
        led there (``last``) and the next one of the line (``upcoming``) marked. A game
        that draws none has no review."""
        raise NotImplementedError

    def move_name(self, state: Any, move: Move) -> str:
        """``move`` (of ``state``) as the review lists it (default: the game's notation)."""
        return self.game.move_text(state, move)

    def review_solution(self, start: Any, cancel: Any, progress: Callable[[float], None]
                        ) -> tuple[list[Move] | None, bool]:
        """The fewest moves that solve ``start`` and whether that they are the fewest is
        proven (on a worker thread). Default: the descriptor's ``solve`` hook, not claimed
        fewest; a game whose solver proves it says so."""
        assert self.game.solve is not None
        moves = load(self.game.solve)(start, cancel, progress)
        return (None if moves is None else list(moves)), False

    def open_review(self) -> None:
        """Review the attempt on screen: its moves beside the fewest, either replayed."""
        from engine.screens.puzzle_review_scene import PuzzleReviewScene

        if not self.can_review:
            return
        self.app.push(PuzzleReviewScene(self.app, self))

    # --- the win ------------------------------------------------------------------------
    def _won(self, solved: Solved) -> None:
        port = _QueuedStats(self.app.stats)
        recorded = solved.record(port, self.game.id, self.variant_id())
        if not port.known:  # no "new best" against a best that could not be read
            recorded = dataclasses.replace(recorded, new_best=False)
        self._best = None  # the best result is read again
        if recorded.warning:
            self.app.notify(recorded.warning, "warning")
        self.app.audio.play("solved")
        # Tatham's completion flash first, then the win screen (at once with reduce
        # motion). The result is already recorded: the flash only delays the showing,
        # and any key or click during it shows the win screen straight away.
        self._win = (solved, recorded)
        self.anim.start(FLASH_TRACK, FLASH)
        if self.anim.progress(FLASH_TRACK) is None:
            self._show_win()

    def _show_win(self) -> None:
        """Open the win screen of the solve waiting behind the completion flash."""
        win, self._win = self._win, None
        if win is not None:
            self.anim.start(FLASH_TRACK, 0)  # (a zero-length start ends the track)
            self.app.push(WinOverlay(self.app, self, *win))

    def flash_on(self) -> bool:
        """Whether the completion flash is in one of its bright phases now (draw_board
        draws the board brighter then)."""
        t = self.anim.progress(FLASH_TRACK)
        return t is not None and t < 1 and int(t * FLASH_TIMES * 2) % 2 == 0

    def _puzzle_changed(self, change: Change) -> None:
        """After every change of position (the midend calls this)."""
        if self._win is not None:
            # The position moved on (through the API: input shows the win screen first)
            # before the solve was shown: the result stays recorded, the screen is moot.
            self._win = None
            self.anim.start(FLASH_TRACK, 0)
        if not self._own_move and self.solving:
            self._stop_solving()  # the player took over
        self.position_changed(change)

    def position_changed(self, change: Change) -> None:
        """Screen-side clean-up after a change of position (override: animations…)."""

    # --- the screen's life: the clock runs only while the puzzle is on screen ------------
    def enter(self) -> None:
        super().enter()
        self._on_screen = True
        self.puzzle.resume()

    def covered(self) -> None:
        self._on_screen = False
        self.puzzle.pause()

    def uncovered(self) -> None:
        self._on_screen = True
        self.puzzle.resume()

    def resume(self) -> None:
        super().resume()
        self._best = None  # a screen above (the win screen) may have recorded a result

    def leave(self) -> None:
        super().leave()
        self._on_screen = False
        self.puzzle.pause()
        self._playing = None
        if self.helper is not None:
            self.helper.cancel()

    # --- frames ---------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        super().update(dt)
        # Ask for the best so far early (off the frame loop): a solve compares with it.
        self.best_result()
        if self.helper is not None:
            error = self.helper.poll()
            if error:
                self.app.notify(error, "warning")
            if self._playing is None:
                self._playing = self.helper.take_moves()
        if self._playing is not None and self._on_screen:
            self._play_wait -= dt
            if self._play_wait <= 0:
                self._play_wait = self.solve_interval
                self._play_next()
        if self._win is not None and self.anim.progress(FLASH_TRACK) is None \
                and self._on_screen:  # (under help: when the help is closed)
            self._show_win()

    def _play_next(self) -> None:
        """Play Solve's next move (the last one wins: the win screen follows)."""
        playing = self._playing
        move = None if playing is None else next(playing, None)
        if move is None or self.puzzle.solved:
            self._playing = None
            return
        self._own_move = True
        try:
            self.play(move)
        finally:
            self._own_move = False
        if self.puzzle.solved:
            self._playing = None

    def busy_label(self) -> str | None:
        if self.helper is not None and self.helper.busy:
            return _("solving… {percent}%").format(percent=round(self.helper.progress * 100))
        return super().busy_label()

    def is_active(self) -> bool:
        # A running clock is redrawn every frame (its seconds tick).
        return super().is_active() or self.puzzle.timing or self.solving or (
            self.helper is not None and self.helper.busy)

    # --- input -------------------------------------------------------------------------
    def shortcuts(self) -> dict[int, Callable[[], Any]]:
        """Keys (without Ctrl) and their actions; a game adds its own."""
        return {pygame.K_r: self.restart, pygame.K_h: self.hint, pygame.K_s: self.solve}

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            self.anim.finish_all()  # (before the shortcuts below too: input never waits)
            if self._win is not None:
                # A key or click during the completion flash skips to the win screen.
                self._show_win()
                return
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                    and self._disabled_button_at(event.pos):
                self.app.audio.play("illegal")
        if event.type == pygame.KEYDOWN and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
            keys = self.shortcuts()
            if event.key in keys:
                keys[event.key]()
                return
        super().handle_event(event)

    def _disabled_button_at(self, pos: tuple[int, int]) -> bool:
        """Whether a greyed-out button (Undo with nothing to undo …) is at ``pos``."""
        vp = self.app.viewport
        # (Composite widgets such as a stepper have buttons as parts.)
        widgets = [part for w in self.ui.widgets for part in (w, *w.parts())]
        return any(isinstance(w, Button) and w.visible and not w.enabled
                   and w.screen_rect(vp).collidepoint(pos) for w in widgets)

    # --- saving and resuming (engine.storage.saved_games) ---------------------------------------
    def snapshot(self, compact: bool = False) -> dict[str, Any]:
        """The puzzle as JSON-able data: the midend (positions, moves, undo and redo, the
        clocks, help used), the solution shown or not and the moves hinted.

        ``compact`` keeps only the current attempt (a history of many huge positions)."""
        hinted: Iterable[Any] = self.hinted
        try:
            hinted = sorted(hinted)
        except TypeError:  # moves that do not compare: any fixed order will do
            hinted = sorted(hinted, key=repr)
        encode, _decode = self.start_codec()
        return {"puzzle": self.puzzle.snapshot(encode, current_only=compact),
                "showing": self.show_solution,
                "hinted": [move_to_data(move) for move in hinted[:self.max_saved_hints]]}

    def save_token(self) -> Any:
        """What changes whenever :meth:`snapshot` would (bar the running clocks): the saved
        game's journal (engine.storage.journal) writes a line only then."""
        history = self.puzzle.history
        return (id(history), history.version, self.show_solution, len(self.hinted))

    def restore_hints(self, data: Any) -> set[Any]:
        """The hinted moves of a snapshot; ValueError, saying what is wrong, for bad data."""
        return {move_from_data(item) for item in items(data, Phrase(N_("the hinted moves")), 0,
                                                      self.max_saved_hints)}

    def start_codec(self) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
        """How a puzzle's start is saved: ``(encode, decode)``, JSON-able data and back
        (``decode`` raises ValueError, saying what is wrong, for data that is no start).

        By default a puzzle starts where its parameters start it, so nothing is written
        (null) and the start is made again. A game whose starts are generated (drawn at
        random) overrides this to write them in its own words.
        """
        def decode(data: Any) -> Any:
            if data is not None:
                raise ValueError(Phrase(N_("a start this puzzle does not have")))
            return self.game.new_game(self.params)

        return (lambda _start: None), decode

    def load_position(self, data: Any) -> Any:
        """A saved start, through :meth:`start_codec`."""
        return self.start_codec()[1](data)

    def keeps_hint(self, move: Any) -> bool:
        """Whether a restored hinted move still applies to the position shown."""
        return move in self.puzzle.state.legal_moves()

    def restore(self, data: Any) -> None:
        """Resume a :meth:`snapshot`; ValueError, saying what is wrong, changes nothing.

        The clock stays paused until the puzzle is on screen."""
        record = fields(data, Phrase(N_("the saved puzzle")), ("puzzle", "showing", "hinted"))
        showing = flag(record["showing"], Phrase(N_("the solution flag")))
        hinted = self.restore_hints(record["hinted"])
        self.puzzle.restore(record["puzzle"], self.load_position)
        if self.helper is not None:
            # (The midend's "new" cleared the hints; those that no longer apply go too.)
            self.helper.hinted = {move for move in hinted if self.keeps_hint(move)}
            self.helper.showing = showing
        if self._on_screen:
            self.puzzle.resume()

    def debug_state(self) -> dict[str, Any]:
        last = self.last_move()
        return {"scene": type(self).__name__, "moves": self.puzzle.moves,
                "elapsed": round(self.puzzle.elapsed, 1), "solved": self.puzzle.solved,
                "helped": self.helped, "status": self.status_text(),
                "last_move": None if last is None else move_to_data(last),
                "animating": sorted(map(str, self.anim.running())),
                "paused": self.puzzle.paused}
