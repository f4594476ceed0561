"""A solved puzzle's review: the player's moves beside the fewest-move solution, either
replayed (issue 31, item 6).

Reached by Review (R) on a puzzle's win screen (:class:`engine.screens.puzzle_scene.WinOverlay`).
Generic over one-player puzzles: the puzzle scene draws a position
(:meth:`~engine.screens.puzzle_scene.PuzzleScene.draw_position`) and works out the fewest
moves (:meth:`~engine.screens.puzzle_scene.PuzzleScene.review_solution`, by default the
descriptor's ``solve`` hook), off the frame loop, with progress; the lines and positions
are :class:`engine.midend.puzzle_review.PuzzleReplay`'s. The puzzle itself is not
changed: its solved position, history and clock stay as they were.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import pygame
from pygame import FRect

from engine.ai.runner import AIRunner
from engine.core.i18n import N_, _, error_text
from engine.midend.puzzle_review import FEWEST, YOURS, PuzzleReplay
from engine.screens.scene import Scene
from engine.ui.game_layout import MARGIN, TOOLBAR_H, Tool, toolbar
from engine.ui.widgets import Button, Label

if TYPE_CHECKING:
    from engine.model.rules import Move
    from engine.runtime.app import App


class ReviewedPuzzle(Protocol):
    """What the review needs of a puzzle's screen (engine.screens.puzzle_scene.PuzzleScene
    has it all; not imported here: that module opens this one)."""

    puzzle: Any
    game: Any

    def count_moves(self, count: int) -> str: ...
    def move_name(self, state: Any, move: Move) -> str: ...
    def draw_position(self, surface: pygame.Surface, state: Any, rect: pygame.Rect,
                      last: Move | None, upcoming: Move | None) -> None: ...
    def review_solution(self, start: Any, cancel: Any, progress: Callable[[float], None]
                        ) -> tuple[list[Move] | None, bool]: ...

#: Seconds between the moves of a replay.
REPLAY_SECONDS = 0.45
#: Moves listed around the one shown.
LIST_ROWS = 11
PANEL_W = 330.0
ROW_H = 22.0


def review_layout(area: FRect) -> dict[str, FRect]:
    """Named design rectangles: "toolbar", "Back", "title", "?", "board", "panel"."""
    tools, title = toolbar(area, [Tool("Back", 110)], [Tool("?", 54)])
    top = area.y + TOOLBAR_H + MARGIN / 2
    body = FRect(area.x + MARGIN, top, area.w - 2 * MARGIN, area.bottom - MARGIN - top)
    panel_w = min(PANEL_W, body.w * 0.45)
    side = max(40.0, min(body.h, body.w - panel_w - MARGIN))
    board = FRect(body.x, body.y + (body.h - side) / 2, side, side)
    panel = FRect(body.right - panel_w, body.y, panel_w, body.h)
    rects = {"toolbar": FRect(area.x, area.y, area.w, TOOLBAR_H), "title": title,
             "board": board, "panel": panel}
    rects.update(tools)
    return rects


class PuzzleReviewScene(Scene):
    """The review of the attempt on ``scene`` (see the module)."""

    closes_on_escape = True
    help_title = N_("Review")
    help_text = N_(
        "Your moves and the solver's fewest, from the start of this attempt. Choose a line "
        "with its button, then step through it: ◀ and ▶ (or the Left and Right keys) go one "
        "move, |◀ and ▶| (Home, End) to the start and the end, and Replay (Space) plays it "
        "move by move. The next move of the line is outlined on the board, the last one "
        "framed. Esc or Back returns to the puzzle."
    )

    def __init__(self, app: App, scene: ReviewedPuzzle) -> None:
        super().__init__(app)
        self.scene = scene
        start, moves, skipped = scene.puzzle.attempt_moves()
        self.replay = PuzzleReplay(start, moves, skipped)
        self.playing = False
        self._wait = 0.0
        self.error: str | None = None
        self.runner = AIRunner()
        self.progress = 0.0
        solve = scene.review_solution

        def work(cancel: Any) -> Any:
            return solve(start, cancel, self._report)
        self.runner.submit(work)
        ui = self.ui
        ui.add(Button(self.place("Back"), N_("← Back"), app.pop, name="Back"))
        ui.add(Label(self.place("title"), N_("Review"), size=30, bold=True, align="center",
                     role="accent", fit_lines=1, min_size=20))
        ui.add(Button(self.place("?"), "?", app.help, name="?"))
        ui.add(Label(self._panel(0, 3 * ROW_H), self.summary, size=15, fit_lines=3,
                     min_size=12))
        ui.add(Button(self._half(3 * ROW_H + 8, 0), self._line_label(YOURS),
                      lambda: self.choose(YOURS), selected=lambda: self.replay.line == YOURS,
                      size=15, name="Yours"))
        ui.add(Button(self._half(3 * ROW_H + 8, 1), self._line_label(FEWEST),
                      lambda: self.choose(FEWEST), selected=lambda: self.replay.line == FEWEST,
                      enabled=lambda: bool(self.replay.fewest), size=15, name="Fewest"))
        controls = (("|◀", lambda: self._go(0), "Start"),
                    ("◀", lambda: self._step(-1), "Previous"),
                    (lambda: N_("Pause") if self.playing else N_("Replay"), self.toggle_play,
                     "Replay"),
                    ("▶", lambda: self._step(1), "Next"),
                    ("▶|", lambda: self._go(self.replay.length), "End"))
        for i, (label, action, name) in enumerate(controls):
            ui.add(Button(self._control(i), label, action, size=15, name=name))
        ui.add(Label(self._panel(3 * ROW_H + 100, ROW_H), self.position_text, size=14,
                     role="muted", fit_lines=1, min_size=12))
        for row in range(LIST_ROWS):
            ui.add(Label(self._panel(4 * ROW_H + 104 + row * ROW_H, ROW_H),
                         self._row_text(row), size=14, fit_lines=1, min_size=12))

    # --- the solver ----------------------------------------------------------------------
    def _report(self, fraction: float) -> None:
        self.progress = fraction  # written by the solver's thread, read by the frame loop

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.runner.busy:
            result = self.runner.poll()
            if result is not None:
                if result.error is not None:
                    self.error = error_text(result.error)
                else:
                    moves, proven = result.move
                    self.replay.set_solution(moves, proven)
        if self.playing:
            self._wait -= dt
            if self._wait <= 0:
                self._wait = REPLAY_SECONDS
                if not self.replay.step(1):
                    self.playing = False

    def leave(self) -> None:
        self.runner.cancel()
        super().leave()

    # --- actions -------------------------------------------------------------------------
    def choose(self, line: str) -> None:
        """Show ``line`` (YOURS or FEWEST) from its start."""
        if line == FEWEST and not self.replay.fewest:
            return
        self.playing = False
        self.replay.choose(line)

    def toggle_play(self) -> None:
        """Replay the line shown move by move (from its start when at its end), or pause."""
        if self.playing:
            self.playing = False
            return
        if self.replay.index >= self.replay.length:
            self.replay.go(0)
        self.playing = self.replay.length > 0
        self._wait = REPLAY_SECONDS

    def _step(self, delta: int) -> None:
        self.playing = False
        self.replay.step(delta)

    def _go(self, index: int) -> None:
        self.playing = False
        self.replay.go(index)

    def handle_event(self, event: pygame.event.Event) -> None:
        """Left / Right step, Home / End jump, Space replays; the rest as any scene."""
        if event.type == pygame.KEYDOWN:
            keys: dict[int, Callable[[], None]] = {
                pygame.K_LEFT: lambda: self._step(-1), pygame.K_RIGHT: lambda: self._step(1),
                pygame.K_HOME: lambda: self._go(0),
                pygame.K_END: lambda: self._go(self.replay.length),
                pygame.K_SPACE: self.toggle_play}
            action = keys.get(event.key)
            if action is not None:
                action()
                return
        super().handle_event(event)

    # --- texts ---------------------------------------------------------------------------
    def count(self, moves: int) -> str:
        """A count of moves in the puzzle's words ("7 presses")."""
        return self.scene.count_moves(moves)

    def summary(self) -> str:
        """Your moves, the fewest (or the solver's state), and how they compare."""
        replay = self.replay
        yours = _("Yours: {moves}.").format(moves=self.count(len(replay.yours)))
        if replay.skipped:
            yours += " " + _("(The first {moves} of this attempt are too far back to "
                             "replay.)").format(moves=self.count(replay.skipped))
        if self.error is not None:
            return yours + "\n" + _("The solver failed: {error}").format(error=self.error)
        if replay.unsolvable:
            return yours + "\n" + _("The solver finds no solution of this start.")
        if replay.fewest is None:
            return yours + "\n" + _("Working out the fewest… {percent}%").format(
                percent=round(self.progress * 100))
        fewest = len(replay.fewest)
        if replay.proven:
            best = _("Fewest: {moves} (proven).").format(moves=self.count(fewest))
        else:
            best = _("The solver's solution: {moves} (not proven the fewest).").format(
                moves=self.count(fewest))
        mine = len(replay.yours) + replay.skipped
        if mine == fewest and replay.proven:
            verdict = _("You found a fewest solution.")
        elif mine > fewest:
            verdict = _("{moves} more than the solver's.").format(
                moves=self.count(mine - fewest))
        else:
            verdict = ""
        return "\n".join(filter(None, (yours, best, verdict)))

    def _line_label(self, line: str) -> Callable[[], str]:
        def label() -> str:
            moves = self.replay.moves(line)
            if line == YOURS:
                return _("Yours ({count})").format(count=len(moves))
            if self.replay.fewest is None:
                return _("Fewest (…)")
            return _("Fewest ({count})").format(count=len(moves))
        return label

    def position_text(self) -> str:
        """Where the line shown is: "Move 3 of 9" (the start: "Start")."""
        replay = self.replay
        if replay.index == 0:
            return _("Start of {moves}").format(moves=self.count(replay.length))
        return _("Move {number} of {total}").format(number=replay.index, total=replay.length)

    def move_text(self, index: int) -> str:
        """Move ``index`` (from 0) of the line shown, in the game's notation."""
        move = self.replay.moves()[index]
        # Named from the start: a puzzle's move names (a button's place) do not change
        # with the position.
        return self.scene.move_name(self.replay.start, move)

    def _row_text(self, row: int) -> Callable[[], str]:
        def text() -> str:
            replay = self.replay
            first = max(0, min(replay.index - LIST_ROWS // 2, replay.length - LIST_ROWS))
            index = first + row
            if index >= replay.length:
                return ""
            mark = "▶ " if index == replay.index else "   "
            return f"{mark}{index + 1}. {self.move_text(index)}"
        return text

    # --- layout --------------------------------------------------------------------------
    def layout(self) -> dict[str, FRect]:
        """Named design rectangles for the current window (see :func:`review_layout`)."""
        return review_layout(self.app.viewport.area)

    def place(self, name: str) -> Callable[[], tuple[float, float, float, float]]:
        """A widget place following the layout entry ``name``."""
        return lambda: tuple(self.layout()[name])  # type: ignore[return-value]

    def _panel(self, dy: float, h: float) -> Callable[[], tuple[float, float, float, float]]:
        def place() -> tuple[float, float, float, float]:
            panel = self.layout()["panel"]
            return (panel.x, panel.y + dy, panel.w, h)
        return place

    def _half(self, dy: float, i: int) -> Callable[[], tuple[float, float, float, float]]:
        def place() -> tuple[float, float, float, float]:
            panel = self.layout()["panel"]
            w = (panel.w - 8) / 2
            return (panel.x + i * (w + 8), panel.y + dy, w, 40)
        return place

    def _control(self, i: int) -> Callable[[], tuple[float, float, float, float]]:
        def place() -> tuple[float, float, float, float]:
            panel = self.layout()["panel"]
            small = (panel.w - 4 * 6) / 7
            widths = (small, small, 3 * small, small, small)  # Replay's word is the longest
            x = panel.x + sum(widths[:i]) + 6 * i
            return (x, panel.y + 3 * ROW_H + 56, widths[i], 38)
        return place

    # --- drawing -------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        p = self.app.theme.palette
        vp = self.app.viewport
        surface.fill(p.background)
        pygame.draw.rect(surface, p.panel, vp.map_rect(self.layout()["toolbar"]))
        replay = self.replay
        self.scene.draw_position(surface, replay.state, vp.map_rect(self.layout()["board"]),
                                 replay.last_move, replay.next_move)
        self.ui.draw(surface, vp, self.app.theme)

    def debug_state(self) -> dict[str, Any]:
        replay = self.replay
        return {"scene": "PuzzleReviewScene", "line": replay.line, "index": replay.index,
                "yours": len(replay.yours),
                "fewest": None if replay.fewest is None else len(replay.fewest),
                "proven": replay.proven, "playing": self.playing}
