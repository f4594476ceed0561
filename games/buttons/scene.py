"""Button Madness on screen: input and drawing over the engine's puzzle midend.

Everything that is not input or drawing lives elsewhere: the history, Restart, the
move count, the clock, the "helped" flag and win detection in
:class:`engine.puzzle.PuzzleMidend`; working out solutions and hints in
:class:`engine.puzzle.PuzzleHelp`; the board code's cache and worker in
:mod:`games.buttons.codes`; the rules in :mod:`games.buttons.board`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from itertools import islice
from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from engine.animation import FLASH, RIPPLE, ease_out, ease_out_back, lerp
from engine.board.draw import draw_cell_text, outline_cell
from engine.board.geometry import BoardGeometry, Cell
from engine.board.pointer import GridPointer
from engine.game_scene import GameScene
from engine.game_settings import load_params, remember
from engine.history import History
from engine.i18n import N_, Phrase, _, error_text, localize, ngettext, number_text
from engine.overlays import Overlay, TextEntryDialog
from engine.puzzle import Change, PuzzleHelp, PuzzleMidend, Recorded, Solved
from engine.stepper import Stepper
from engine.widgets import Button, Label, wrap_text
from games.buttons.board import Board, CodeError, generate, parse_code, press_mask
from games.buttons.board_render import BoardPicture, MarksPicture, shows_rings, tiny_colours
from games.buttons.codes import CODE_INLINE_MAX_N, BoardCodes, canonical_code
from games.buttons.descriptor import GAME
from games.buttons.params import SPEC, ButtonParams, menu_size
from games.buttons.scene_layout import (
    CODE_HEAD_H,
    CODE_LINE_H,
    LEGEND_ROW_H,
    SIZE_LABEL_W,
    SIZE_STEP_W,
    STATS_LINE_H,
    panel_layout,
)
from games.buttons.wording import StateWords, help_text, state_words

if TYPE_CHECKING:
    import threading

    from engine.app import App
    from games.buttons.solver import GridSolution

__all__ = ["CODE_INLINE_MAX_N", "CODE_LINES", "STATE_MARKS", "WORKING_OUT_CODE",
           "ButtonMadnessScene", "WinOverlay", "canonical_code", "fit_text", "open_scene",
           "smoke_variants", "wrap_code"]

# Above this size buttons are drawn as one scaled picture: a 1000×1000 board from a code
# would otherwise be a million rectangles a frame.
VECTOR_LIMIT = 40
# The side panel shows at most this many lines of the board code.
CODE_LINES = 7
# debug_state lists at most this many marks (there are up to 500,000), and their count.
STATE_MARKS = 1000
WORKING_OUT_CODE = N_("working out the code…")
# Animation tracks (engine.animation.Timeline keys). A press: the button flips at once,
# a ring spreads and reaches its four neighbours RIPPLE_REACH of the way through, and
# they flip then. A solve: the board flashes FLASH_TIMES times, then the win screen.
RIPPLE_TRACK = "ripple"
FLASH_TRACK = "flash"
RIPPLE_REACH = 0.3
FLASH_TIMES = 3
# Below this many pixels a button is too small to see its marker; the marker is drawn
# this big around it instead (big boards are pictures of sub-pixel buttons).
MARKER_MIN_PX = 14


def wrap_code(code: str, font: pygame.font.Font, width: int,
              max_lines: int = CODE_LINES) -> list[str]:
    """Break ``code`` (which has no spaces) into lines at most ``width`` pixels wide.

    At most ``max_lines`` lines; if the code goes on, the last line's final character
    becomes "…". Each line is the longest prefix of the rest that fits (at least one
    character). A line cannot hold more than ``width // narrowest glyph`` characters, so
    only that many candidates are tried, by binary search: the cost depends on the
    panel, not on the code's length (a 1000×1000 code has 301,040 characters).
    """
    if not code:
        return []
    # Only the first max_lines · most characters can be looked at, so the narrowest glyph
    # is needed among those alone (a set of all 301,040 characters took 4 ms): widen the
    # prefix until it covers the lines its own narrowest glyph allows.
    seen = 0
    most = 64
    while seen < min(len(code), max_lines * most):
        seen = min(len(code), max(2 * seen, max_lines * most))
        narrowest = min(font.size(ch)[0] for ch in set(code[:seen]))
        # A few characters of slack in case kerning pulls glyph pairs together.
        most = width // narrowest + 4 if narrowest > 0 else len(code)
    lines: list[str] = []
    start = 0
    while start < len(code) and len(lines) < max_lines:
        low, high = 1, min(most, len(code) - start)
        # Invariant: the prefix of ``low`` characters is taken (it fits, or it is the one
        # character a line always gets); prefixes longer than ``high`` do not fit.
        while low < high:
            mid = (low + high + 1) // 2
            if font.size(code[start:start + mid])[0] <= width:
                low = mid
            else:
                high = mid - 1
        lines.append(code[start:start + low])
        start += low
    if start < len(code):
        lines[-1] = lines[-1][:-1] + "…"
    return lines


def fit_text(text: str, font: pygame.font.Font, width: int, max_lines: int) -> list[str]:
    """``text`` wrapped at spaces into at most ``max_lines`` lines ``width`` pixels wide.

    Never clipped: a word too long for a line, or a last line with more text after it,
    is shortened to end in "…".
    """
    lines = wrap_text(text, font, width)
    cut = len(lines) > max_lines
    lines = lines[:max_lines]
    out = []
    for i, line in enumerate(lines):
        more = cut and i == len(lines) - 1
        if more or font.size(line)[0] > width:
            while line and font.size(line + "…")[0] > width:
                line = line[:-1]
            line = line.rstrip() + "…"
        out.append(line)
    return out


def _solve(board: Board, cancel: threading.Event, progress: Callable[[float], None]
           ) -> GridSolution:
    """The midend's solve hook (on the solver's thread).

    solve_grid, not solve: the marks arrive as one n×n read-only grid, with no tuple per
    press for the frame loop to hold and later free (a 1000×1000 solution has ~500,000).
    """
    from games.buttons.solver import solve_grid

    return solve_grid(board, cancel, progress=progress)


def open_scene(app: App, params: ButtonParams | None = None, **options: Any
               ) -> ButtonMadnessScene:
    """The descriptor's scene factory: a generated board of ``params``' size (None: the
    size last chosen in the menu). ``options``: ``board``, ``seed``, ``clock``."""
    return ButtonMadnessScene(app, params=params, **options)


class ButtonMadnessScene(GameScene):
    """The puzzle's screen: board, code, generate/enter/restart, solution marks, hints."""

    help_title = N_("Button Madness: rules")
    new_game_label = N_("Generate")
    game = GAME  # what engine.saved_games saves this screen's puzzle as
    # A saved puzzle keeps at most this many hinted buttons (each is one click on Hint).
    max_saved_hints = 10_000

    def __init__(self, app: App, board: Board | None = None, seed: int | None = None, *,
                 params: ButtonParams | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``board`` to play (None: generate one of ``params``' size, by default the menu
        size last chosen); ``seed`` makes generated boards repeatable; ``clock`` times."""
        super().__init__(app)
        self.title = N_("Button Madness")
        if params is None:
            params = ButtonParams(menu_size(load_params(app.settings, GAME).n))
        self.seed = seed
        if board is None:
            board = self._generate(params.n)
        # A press undoes itself, so the history keeps presses, not 125 kB boards.
        self.puzzle: PuzzleMidend[Board] = PuzzleMidend(board, inverse=Board.play, clock=clock)
        self.helper: PuzzleHelp[Board, GridSolution] = PuzzleHelp(
            self.puzzle, _solve, moves_of=lambda solution: solution.cells(),
            solvable=lambda solution: solution.grid is not None)
        self.puzzle.add_listener(self._changed)
        self.codes = BoardCodes()
        self.pointer = GridPointer()
        self._parsed: tuple[str, Board] | None = None  # the code dialog's last valid text
        # Per-frame drawing caches: wrapped code lines, best result, big-board picture,
        # the "no marks" grid of an unsolvable board.
        self._wrapped: tuple[tuple[str, int, int, Any], list[pygame.Surface]] | None = None
        self._best: tuple[str, tuple[int, float] | None] | None = None
        self._picture = BoardPicture()
        self._marks_picture = MarksPicture()
        self._no_marks: np.ndarray | None = None
        # A solve shown after the completion flash (see _won): what the win screen says.
        self._win: tuple[Solved, Recorded] | None = None
        ui, place = self.ui, self.place
        self.add_tool(Button(place("Restart"), N_("Restart"), self.restart, name="Restart"), 100)
        # The engine's stepper: − and + ("size-", "size+") are disabled at 2×2 and 20×20,
        # and the value keeps a gap to both. (A board from a code may be 1000×1000: then
        # only its side is shown.)
        ui.add(Stepper(place("size"), lambda: f"{self.board.n}×{self.board.n}"
                       if self.board.n < 100 else str(self.board.n), self.change_size,
                       self._can_resize, name="size", label=N_("Size"), label_w=SIZE_LABEL_W,
                       size=16, button_w=SIZE_STEP_W))
        ui.add(Button(place("Show solution"), N_("Show solution"), self.toggle_solution,
                      selected=lambda: self.show_solution, name="Show solution"))
        ui.add(Button(place("Hint"), N_("Hint"), self.hint, name="Hint"))
        ui.add(Button(place("Which sizes?"), N_("Which sizes?"), self.open_explorer,
                      name="Which sizes?"))
        ui.add(Button(place("Copy"), N_("Copy"), self.copy_code, size=15, name="Copy"))
        ui.add(Button(place("Enter code"), N_("Enter code"), self.enter_code, size=14,
                      name="Enter code"))

    # --- what is shown (read from the midend) ----------------------------------------------
    @property
    def help_text(self) -> str:  # type: ignore[override]
        """The rules, naming the colours of the palette in use."""
        return help_text(self.words())

    def tiny_buttons(self) -> bool:
        """Whether the buttons are too small for rings (told bright/dark instead)."""
        return self.board.n > VECTOR_LIMIT and not shows_rings(self.geometry().cell_size)

    def words(self) -> StateWords:
        """How texts name the two button states, as this palette and board show them."""
        return state_words(self.app.theme.palette, self.tiny_buttons())

    @property
    def board(self) -> Board:
        """The board on screen."""
        return self.puzzle.state

    @property
    def history(self) -> History[Any]:
        """The midend's undo history (its ``index`` tells undo/redo positions apart)."""
        return self.puzzle.history

    def presses(self) -> int:
        """Presses in this attempt (since the last new board or restart), up to now."""
        return self.puzzle.moves

    @property
    def helped(self) -> bool:
        """Whether help was used on this board (the midend keeps it with the board)."""
        return self.puzzle.helped

    @property
    def show_solution(self) -> bool:
        """Whether the solution's marks are shown."""
        return self.helper.showing

    @property
    def hinted(self) -> set[tuple[int, int]]:
        """Buttons revealed by Hint and not pressed since."""
        return self.helper.hinted

    @property
    def unsolvable(self) -> bool:
        """Whether the solver found that no presses turn this board all red."""
        return self.helper.unsolvable

    @property
    def marks(self) -> np.ndarray | None:
        """The solution as an n×n read-only bool grid (True: press it); None until known.

        A grid, not a set of cells: a 1000×1000 solution has ~500,000 marks, which as a
        set and a tuple of tuples took ~70 MB and 0.1-0.2 s of a frame to free when the
        next solution replaced them; the grid is 1 MB. All False for an unsolvable board.
        """
        solution = self.helper.solution
        if solution is None:
            return None
        if solution.grid is not None:
            return solution.grid
        n = self.board.n
        if self._no_marks is None or self._no_marks.shape[0] != n:
            self._no_marks = np.zeros((n, n), dtype=bool)
            self._no_marks.flags.writeable = False
        return self._no_marks

    def marks_drawn(self) -> bool:
        """Whether the solution's marks are on screen (a big board's marks picture is made
        off the frame loop, so they show a frame or two after the solution arrives)."""
        grid = self.marks
        if grid is None or not self.show_solution:
            return False
        return self.board.n <= VECTOR_LIMIT or self._marks_picture.shows(grid)

    @property
    def mark_count(self) -> int:
        """How many buttons the shown solution marks."""
        solution = self.helper.solution
        return 0 if solution is None else solution.count

    def solution_cells(self, limit: int | None = None) -> list[tuple[int, int]]:
        """The solution's buttons as (row, column), row-major; at most ``limit``.

        Empty while there is no solution (not worked out yet, or unsolvable). Read off the
        grid lazily: the first 1,000 of a 1000×1000 board take ~0.5 ms, all ~500,000 ~0.1 s.
        """
        solution = self.helper.solution
        if solution is None:
            return []
        return list(islice(solution.cells(), limit))

    def geometry(self) -> BoardGeometry:
        """Board placement for the current window size."""
        return BoardGeometry(self.board.n, self.board.n, self.area("board"))

    # --- layout --------------------------------------------------------------------------------
    def layout_body(self, body: pygame.FRect) -> dict[str, pygame.FRect]:
        """The board and the side panel: beside the board, or below it in a tall window."""
        _arrangement, rects = panel_layout(body, CODE_LINES)
        return rects

    # --- actions -------------------------------------------------------------------------------
    def press(self, row: int, col: int) -> None:
        """Press one button (undoable); a solve is recorded and shown once per attempt.

        The press sounds "flip" (the solving one "solved" instead) and ripples out to its
        neighbours (started by :meth:`_changed`, which every change goes through).
        """
        solved = self.puzzle.play((row, col))
        if solved is not None:
            self._won(solved)
        else:
            self.app.audio.play("flip")

    def generate_new(self) -> None:
        """A new solvable board of the current size, seeded from the clock (undoable)."""
        self.puzzle.new_puzzle(self._generate(self.board.n))

    def new_game(self) -> None:
        self.generate_new()

    def change_size(self, step: int) -> None:
        """Pick another size from the menu (2 to 20), remember it, and generate a board of it."""
        n = menu_size(self.board.n + step)
        if n == self.board.n:
            self.app.audio.play("illegal")  # already the smallest (largest) size
            return
        warning = remember(self.app.settings, GAME, ButtonParams(n))
        if warning:
            self.app.notify(warning, "warning")
        else:
            self.app.save_settings()
        self.puzzle.new_puzzle(self._generate(n))

    def _can_resize(self, step: int) -> bool:
        """Whether − (``step`` -1) or + (1) would change the size (not at 2×2 or 20×20)."""
        return menu_size(self.board.n + step) != self.board.n

    def restart(self) -> None:
        """Back to the generated or entered board (undoable; help used stays used)."""
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
        """Mark (or unmark) every button that must be pressed."""
        self.helper.toggle_solution()

    def hint(self) -> None:
        """Reveal one more button of the solution ("illegal" when there is none left)."""
        solution = self.helper.solution
        if self.board.is_solved or self.unsolvable or (
                solution is not None and len(self.hinted) >= solution.count):
            self.app.audio.play("illegal")
            return
        self.helper.hint()

    def copy_code(self) -> None:
        """Put the board's code on the clipboard (or say where to read it).

        While a big board's code is still being worked out, says so and copies it as soon
        as it is ready (unless the board changes first).
        """
        board = self.board
        code = self.codes.text(board)
        if code is not None:
            self._put_on_clipboard(code)
        elif self.codes.failed(board):
            self.app.notify(_("This board's code could not be worked out."), "warning")
        else:
            self.codes.copy_when_ready(board)
            self.app.notify(_("The code of this {n}×{n} board is still being worked out; it "
                              "will be copied as soon as it is ready.").format(n=board.n), "info")

    def _put_on_clipboard(self, code: str) -> None:
        try:
            pygame.scrap.put_text(code)  # pygame-ce's SDL2 clipboard: no init needed
        except (pygame.error, AttributeError, NotImplementedError):
            shown = code if len(code) <= 60 else code[:57] + "…"
            self.app.notify(_("The clipboard is not available here; the code is {code}").format(
                code=shown), "warning")
            return
        self.app.notify(_("Code copied to the clipboard."), "info")

    def enter_code(self) -> None:
        """Ask for a code; a valid one loads exactly that board, a bad one changes nothing."""

        def validate(text: str) -> str | None:
            try:
                # Kept for load_code: reading a 1000×1000 code takes ~0.1 s, once is enough.
                self._parsed = (text, parse_code(text))
            except CodeError as exc:
                return error_text(exc)
            return None

        self.app.push(TextEntryDialog(self.app, _("Board code (4×4: 0-65535, or NxN:NUMBER)"),
                                      self.load_code, validate, max_length=400_000))

    def load_code(self, text: str) -> None:
        """Load the board of a (valid) code as a new puzzle (undoable)."""
        parsed, self._parsed = self._parsed, None
        board = parsed[1] if parsed is not None and parsed[0] == text else parse_code(text)
        if board.n > CODE_INLINE_MAX_N:
            # The entered text already is the code, up to spelling: no conversion needed.
            self.codes.remember(board, canonical_code(text, board))
        self.puzzle.new_puzzle(board)

    def open_explorer(self) -> None:
        """The chart of which sizes have unsolvable boards."""
        from games.buttons.explorer_scene import ExplorerScene

        self.app.push(ExplorerScene(self.app))

    def _generate(self, n: int) -> Board:
        # Seeded from the current time in milliseconds, as in the source document.
        seed = self.seed if self.seed is not None else int(time.time() * 1000)
        board, _presses = generate(n, random.Random(seed))
        if self.seed is not None:
            self.seed += 1
        return board

    def _won(self, solved: Solved) -> None:
        variant = SPEC.variant_id(ButtonParams(self.board.n))
        recorded = solved.record(self.app.stats, GAME.id, variant)
        self._best = None  # the side panel reads the best result again
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

    def _start_ripple(self, cell: Cell) -> None:
        """Start a press's ripple; its data: the cell and the neighbours it flipped."""
        n = self.board.n
        r, c = cell
        flipped: list[Cell] = []
        if n <= VECTOR_LIMIT:  # the picture of a big board shows no single buttons
            mask = press_mask(n, r, c)
            for nb in (((r - 1) % n, c), ((r + 1) % n, c), (r, (c - 1) % n), (r, (c + 1) % n)):
                # On tiny boards flips cancel or merge (see games.buttons.board).
                if nb != cell and nb not in flipped and mask >> (n * nb[0] + nb[1]) & 1:
                    flipped.append(nb)
        self.anim.start(RIPPLE_TRACK, RIPPLE, data=(cell, tuple(flipped)))

    def last_press(self) -> Cell | None:
        """The button pressed to reach the board shown (undo steps back through them);
        None right after a new board or a restart."""
        move = getattr(self.puzzle.history.current, "move", None)
        n = self.board.n
        if move is None or not (0 <= move[0] < n and 0 <= move[1] < n):
            return None
        return (move[0], move[1])

    def _changed(self, change: Change) -> None:
        """After every change of board (the midend calls this): screen-side clean-up."""
        if self._win is not None:
            # The board moved on (through the API: input shows the win screen first)
            # before the solve was shown: the result stays recorded, the screen is moot.
            self._win = None
            self.anim.start(FLASH_TRACK, 0)
        if change.kind == "play" and change.move is not None:
            self._start_ripple(change.move)
        else:  # the ripple belonged to the board before: it would show wrong colours now
            self.anim.start(RIPPLE_TRACK, 0)
        board = self.board
        if self.codes.board_changed(board):
            self.app.notify(_("The board changed before its code was worked out, so nothing "
                              "was copied: press Copy again."), "warning")
        # A new size (Generate, +/-, a code, undo across sizes) may leave the hovered or
        # keyboard cell outside the board: forget it rather than draw or press it.
        n = board.n
        for attr in ("hover", "cursor"):
            cell = getattr(self.pointer, attr)
            if cell is not None and not (cell[0] < n and cell[1] < n):
                setattr(self.pointer, attr, None)

    # --- the board code (drawing's cache; see games.buttons.codes) --------------------------
    def code_text(self) -> str | None:
        """The shown board's code, or None while it is being worked out (or failed)."""
        return self.codes.text(self.board)

    def code_pending(self) -> bool:
        """Whether the shown board's code is still being worked out off the frame loop."""
        return self.codes.pending(self.board)

    # --- frames --------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        super().update(dt)
        # The clock runs only while the board is on screen: not under help, a dialog or
        # the chart (the app tells a covered scene nothing, so look every frame).
        if self.app.top is self:
            self.puzzle.resume()
        else:
            self.puzzle.pause()
        for error in (self.helper.poll(),  # (first: it starts the solver a press needs)
                      self._marks_picture.poll()):
            if error:
                self.app.notify(error, "warning")
        # A big board's code waits for the solver: see BoardCodes.update.
        news = self.codes.update(self.board, start=not self.helper.busy)
        if news.error:
            self.app.notify(news.error, "warning")
        if news.copy is not None:
            self._put_on_clipboard(news.copy)
        if self._win is not None and self.anim.progress(FLASH_TRACK) is None \
                and self.app.top is self:  # (under help: when the help is closed)
            self._show_win()

    def busy_label(self) -> str | None:
        if self.helper.busy:
            return _("solving… {percent}%").format(percent=round(self.helper.progress * 100))
        return super().busy_label()

    def is_active(self) -> bool:
        # A running clock is redrawn every frame (its seconds tick).
        return super().is_active() or self.helper.busy or self.codes.worker.busy or \
            self.code_pending() or self.puzzle.timing or self._marks_picture.busy

    def leave(self) -> None:
        super().leave()
        self.puzzle.pause()
        self.helper.cancel()
        self._marks_picture.cancel()
        self.codes.cancel()

    def resume(self) -> None:
        super().resume()
        self.puzzle.resume()
        self._best = None  # a screen above (win screen) may have recorded a result

    # --- saving and resuming (engine.saved_games) -------------------------------------------
    @property
    def params(self) -> ButtonParams:
        """The parameters a resumed game opens with: the menu size nearest the board's."""
        return ButtonParams(menu_size(self.board.n))

    def snapshot(self, compact: bool = False) -> dict[str, Any]:
        """The puzzle as JSON-able data: the midend (boards, presses, undo and redo, the
        clocks, help used), the solution shown or not and the buttons hinted.

        ``compact`` keeps only the current attempt (a history of many huge boards)."""
        hinted = sorted(self.hinted)[:self.max_saved_hints]
        from games.buttons.board import save_state

        return {"puzzle": self.puzzle.snapshot(save_state, current_only=compact),
                "showing": self.show_solution, "hinted": [list(cell) for cell in hinted]}

    def restore(self, data: Any) -> None:
        """Resume a :meth:`snapshot`; ValueError, saying what is wrong, changes nothing.

        The clock stays paused until the board is on screen (see :meth:`update`)."""
        from engine.saved_data import fields, flag, items, whole
        from games.buttons.board import MAX_N, load_state

        record = fields(data, Phrase(N_("the saved puzzle")), ("puzzle", "showing", "hinted"))
        showing = flag(record["showing"], Phrase(N_("the solution flag")))
        cells = [items(cell, Phrase(N_("a hinted button")), 2, 2)
                 for cell in items(record["hinted"], Phrase(N_("the hinted buttons")), 0,
                                   self.max_saved_hints)]
        hinted = {(whole(r, Phrase(N_("a hinted row")), 0, MAX_N - 1),
                   whole(c, Phrase(N_("a hinted column")), 0, MAX_N - 1)) for r, c in cells}
        self.puzzle.restore(record["puzzle"], lambda saved: load_state(None, saved))
        # (The midend's "new" cleared the hints; those off this board are dropped too.)
        n = self.board.n
        self.helper.hinted = {cell for cell in hinted if cell[0] < n and cell[1] < n}
        self.helper.showing = showing

    # --- input ---------------------------------------------------------------------------------
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
            keys = {pygame.K_g: self.generate_new, pygame.K_r: self.restart,
                    pygame.K_e: self.enter_code, pygame.K_c: self.copy_code,
                    pygame.K_s: self.toggle_solution, pygame.K_h: self.hint,
                    pygame.K_MINUS: lambda: self.change_size(-1),
                    pygame.K_EQUALS: lambda: self.change_size(1),
                    pygame.K_PLUS: lambda: self.change_size(1)}
            if event.key in keys:
                keys[event.key]()
                return
        super().handle_event(event)

    def board_event(self, event: pygame.event.Event) -> None:
        n = self.board.n
        used = self.pointer.handle(event, self.geometry(), self.press, lambda: (n // 2, n // 2))
        if not used and event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                and self._beside_board(event.pos):
            self.app.audio.play("illegal")

    def _disabled_button_at(self, pos: tuple[int, int]) -> bool:
        """Whether a greyed-out button (Undo with nothing to undo, − at 2×2 …) is at ``pos``."""
        vp = self.app.viewport
        # (The size stepper's − and + are parts of one widget.)
        widgets = [part for w in self.ui.widgets for part in (w, *w.parts())]
        return any(isinstance(w, Button) and w.visible and not w.enabled
                   and w.screen_rect(vp).collidepoint(pos) for w in widgets)

    def _beside_board(self, pos: tuple[int, int]) -> bool:
        """Whether ``pos`` is in the body but on nothing: not the board, a widget or the
        panel's text (a click there missed the board)."""
        x, y = self.app.viewport.to_design(pos)
        rects = self.layout()
        return rects["body"].collidepoint(x, y) and not any(
            rects[name].collidepoint(x, y) for name in ("board", "code", "stats", "legend"))

    # --- drawing -------------------------------------------------------------------------------
    def status_text(self) -> str:
        board = self.board
        if board.is_solved:
            return _("Solved in {presses}! Generate (G) for a new board.").format(
                presses=count_presses(self.presses()))
        words = self.words()
        done = count_presses(self.presses())
        text = f"{words.left(board.green_count)}; {done}."
        if self.unsolvable:
            return text + " " + _("This board cannot be solved: no set of presses turns it "
                                  "all {colour}.").format(colour=words.done)
        solution = self.helper.solution
        if self.show_solution and solution is not None:
            text += " " + ngettext("Solution: {count} more press ({method}).",
                                   "Solution: {count} more presses ({method}).",
                                   solution.count).format(count=solution.count,
                                                          method=localize(solution.method))
        return text

    def draw_board(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        p = theme.palette
        geom = self.geometry()
        board = self.board
        n = board.n
        flash = self._flash_on()
        ripple = self._ripple()
        if n > VECTOR_LIMIT:
            self._draw_picture(surface, geom)
            if flash:  # buttons are pixels here: the flash is a bright frame round them
                width = max(4, round(geom.rect.width / 60))
                pygame.draw.rect(surface, p.win_line, geom.rect.inflate(2 * width, 2 * width),
                                 width)
        else:
            self._draw_buttons(surface, geom, flash, ripple)
        marks: list[tuple[int, int]] = []
        grid = self.marks
        if grid is not None and self.show_solution and n > VECTOR_LIMIT:
            # Up to n²/2 marks (500,000 on 1000×1000): one cached picture, not a rectangle
            # per mark per frame (that took 0.1 s a frame at 200×200, 3 s at 1000×1000).
            self._draw_marks_picture(surface, geom, grid)
        elif grid is not None:
            # At most VECTOR_LIMIT² cells listed here; hints are few and, once the solution
            # is in, all marked (PuzzleHelp keeps only those), but are checked anyway.
            marks = self.solution_cells() if self.show_solution else \
                [cell for cell in self.hinted if grid[cell]]
        font = theme.font(max(8.0, geom.cell_size * 0.45), bold=True)
        for cell in marks:
            outline_cell(surface, geom, cell, p.accent, max(2, round(geom.cell_size / 10)))
            if geom.cell_size >= 12:
                draw_cell_text(surface, geom, cell, "✱", font, p.accent)
        if self.pointer.hover is not None and not board.is_solved:
            outline_cell(surface,
                         geom, self.pointer.hover, p.text, max(1, round(geom.cell_size / 30)))
        last = self.last_press()
        if last is not None:
            draw_last_marker(surface, marker_rect(geom.cell_rect(*last)), p.focus, p.background)
        if self.pointer.cursor is not None:
            # Corner brackets round the cell, in the text colour: not a frame (the marks'
            # and the last press's shape) and not yellow, so it is never taken for either.
            draw_cursor(surface, marker_rect(geom.cell_rect(*self.pointer.cursor)), p.text,
                        p.background)
        if ripple is not None:
            self._draw_ring(surface, geom, *ripple[:2])
        self._draw_side(surface)

    # --- animations (drawn from the board as it already is) ----------------------------------
    def _ripple(self) -> tuple[float, Cell, tuple[Cell, ...]] | None:
        """(progress, pressed cell, neighbours it flipped) of the running ripple, if any."""
        t = self.anim.progress(RIPPLE_TRACK)
        data = self.anim.data(RIPPLE_TRACK)
        if t is None or data is None:
            return None
        cell, flipped = data
        n = self.board.n
        if not (cell[0] < n and cell[1] < n):
            return None  # (the board was replaced without input: never drawn off it)
        return t, cell, flipped

    def _flash_on(self) -> bool:
        """Whether the completion flash is in one of its bright phases now."""
        t = self.anim.progress(FLASH_TRACK)
        return t is not None and t < 1 and int(t * FLASH_TIMES * 2) % 2 == 0

    def _draw_buttons(self, surface: pygame.Surface, geom: BoardGeometry, flash: bool,
                      ripple: tuple[float, Cell, tuple[Cell, ...]] | None) -> None:
        """Every button as a rounded square (boards up to VECTOR_LIMIT), with the ripple's
        pulses and the completion flash."""
        p = self.app.theme.palette
        board = self.board
        n = board.n
        pygame.draw.rect(surface, p.win_line if flash else p.board, geom.rect)
        inset = max(1, round(geom.cell_size * 0.08))
        radius = max(2, round(geom.cell_size * 0.18))
        # cell -> (scale, shown in its colour from before the press)
        pulses: dict[Cell, tuple[float, bool]] = {}
        if ripple is not None:
            t, cell, flipped = ripple
            pulses[cell] = (_pulse(t / (1 - RIPPLE_REACH)), False)
            for nb in flipped:
                if t < RIPPLE_REACH:
                    pulses[nb] = (1.0, True)  # the ring has not reached it yet
                else:
                    pulses[nb] = (_pulse((t - RIPPLE_REACH) / (1 - RIPPLE_REACH)), False)
        for r in range(n):
            for c in range(n):
                rect = geom.cell_rect(r, c).inflate(-2 * inset, -2 * inset)
                red = board.red(r, c)
                pulse = pulses.get((r, c))
                if pulse is not None:
                    scale, before = pulse
                    red ^= before
                    if scale != 1.0:
                        centre = rect.center
                        rect.size = (round(rect.width * scale), round(rect.height * scale))
                        rect.center = centre
                colour = p.bad if red else p.good
                pygame.draw.rect(surface, _lighten(colour) if flash else colour, rect,
                                 border_radius=radius)
                if not red:  # a ring on green: the state is not told by hue alone
                    pygame.draw.circle(surface, p.background, rect.center,
                                       rect.width * 0.22, max(1, round(rect.width / 14)))

    def _draw_ring(self, surface: pygame.Surface, geom: BoardGeometry, t: float,
                   cell: Cell) -> None:
        """The ripple's ring spreading from the pressed button over its neighbours."""
        if t >= 0.85:
            return
        size = geom.cell_size
        eased = ease_out(t)
        # Tiny buttons (big boards) still get a ring one can see.
        radius = max(lerp(0.3, 1.25, eased) * size, lerp(4.0, 18.0, eased))
        width = max(2, round(lerp(0.14, 0.04, t) * max(size, 14.0)))
        clip = surface.get_clip()
        surface.set_clip(geom.rect.clip(clip) if clip else geom.rect)
        pygame.draw.circle(surface, self.app.theme.palette.text, geom.cell_center(*cell),
                           radius, width)
        surface.set_clip(clip)

    def _draw_picture(self, surface: pygame.Surface, geom: BoardGeometry) -> None:
        p = self.app.theme.palette
        surface.blit(self._picture.surface(self.board, geom, p.good, p.bad, p.background),
                     geom.rect)

    def _draw_marks_picture(self, surface: pygame.Surface, geom: BoardGeometry,
                            grid: np.ndarray) -> None:
        """Every solution mark of a big board, drawn from a picture made once per solution
        (off the frame loop: see :class:`MarksPicture`; none shown until it is ready).

        The picture follows :func:`outline_cell`'s frame; cells of 12 pixels or more get
        the ✱ too.
        """
        accent = self.app.theme.palette.accent
        rect = geom.rect

        def add_glyphs(layer: pygame.Surface) -> None:
            if geom.cell_size < 12:
                return
            glyph = self.app.theme.font(max(8.0, geom.cell_size * 0.45), bold=True).render(
                "✱", True, accent)
            for r, c in np.argwhere(grid):  # 12 px cells: n ≤ 46, few marks
                centre = geom.cell_rect(int(r), int(c)).move(-rect.x, -rect.y).center
                layer.blit(glyph, glyph.get_rect(center=centre))

        layer = self._marks_picture.surface(geom, grid, accent, add_glyphs)
        if layer is not None:
            surface.blit(layer, rect)

    def _draw_side(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        small = theme.font(13 * vp.scale)
        code_box = self.area("code")
        surface.blit(theme.font(13 * vp.scale, bold=True).render(_("Board code"), True, p.muted),
                     code_box.topleft)
        top = code_box.y + vp.px(CODE_HEAD_H)
        code = self.code_text()
        if code is None:
            text = _(WORKING_OUT_CODE) if self.code_pending() else _("not available")
            line = fit_text(text, small, code_box.width, 1)[0]
            surface.blit(small.render(line, True, p.muted), (code_box.x, top))
        else:
            for i, rendered in enumerate(self._code_lines(code)):
                surface.blit(rendered, (code_box.x, top + round(i * CODE_LINE_H * vp.scale)))
        n = self.board.n
        variant = SPEC.variant_id(ButtonParams(n))
        if self._best is None or self._best[0] != variant:
            # An SQLite query: once per size and after each recorded result, not per frame.
            self._best = (variant, self.app.stats.best_puzzle(GAME.id, variant))
        best = self._best[1]
        entries = [(_("Presses: {count}").format(count=self.presses()), 1),
                   (_("Time: {seconds} s").format(seconds=number_text(self.puzzle.elapsed, 0)), 1),
                   (_("Best {n}×{n}: {presses}, {seconds} s").format(
                       n=n, presses=count_presses(best[0]), seconds=number_text(best[1], 0)) if best
                    else _("Best {n}×{n}: not solved yet").format(n=n), 2)]
        if self.helped:
            entries.append((_("Help used on this board"), 1))
        stats = self.area("stats")
        y = stats.y
        step = round(STATS_LINE_H * vp.scale)
        for text, most in entries:  # at most STATS_LINES lines in all
            for line in fit_text(text, small, stats.width, most):
                surface.blit(small.render(line, True, p.text), (stats.x, y))
                y += step
        self._draw_legend(surface, small)

    def legend_texts(self) -> list[str]:
        """The legend's lines, top to bottom (as :meth:`_draw_legend` draws them)."""
        words = self.words()
        return [_("{look}: done").format(look=words.done_look),
                _("{look}: to turn").format(look=words.todo_look),
                _("✱ in a frame: press this"), _("last press"), _("keyboard cursor")]

    def _draw_legend(self, surface: pygame.Surface, font: pygame.font.Font) -> None:
        """What the colours and marks on the board mean, each shown as drawn there
        (on the biggest boards: the bright and dark buttons drawn there)."""
        vp = self.app.viewport
        p = self.app.theme.palette
        legend = self.area("legend")
        row = round(LEGEND_ROW_H * vp.scale)
        side = vp.px(22)
        good, bad = (tiny_colours(p.good, p.bad, p.background) if self.tiny_buttons()
                     else (p.good, p.bad))
        for i, text in enumerate(self.legend_texts()):
            box = pygame.Rect(legend.x + vp.px(2), legend.y + i * row + (row - side) // 2,
                              side, side)
            if i < 2:
                pygame.draw.rect(surface, good if i else bad, box, border_radius=vp.px(5))
                if i and not self.tiny_buttons():
                    pygame.draw.circle(surface, p.background, box.center, box.width * 0.22, 2)
            elif i == 2:
                pygame.draw.rect(surface, p.accent, box, vp.px(3))
                glyph = self.app.theme.font(side * 0.55, bold=True).render("✱", True, p.accent)
                surface.blit(glyph, glyph.get_rect(center=box.center))
            elif i == 3:
                draw_last_marker(surface, box, p.focus, p.background)
            else:
                draw_cursor(surface, box, p.text, p.background)
            left = box.right + vp.px(10)
            lines = fit_text(text, font, legend.right - left, 2)
            height = font.get_linesize()
            top = box.centery - height * len(lines) / 2
            for k, line in enumerate(lines):
                surface.blit(font.render(line, True, p.text), (left, round(top + k * height)))

    def _code_lines(self, code: str) -> list[pygame.Surface]:
        """The code wrapped to the side panel and rendered, cached until it or the size changes."""
        vp, theme = self.app.viewport, self.app.theme
        font_px = round(15 * vp.scale)
        width = self.area("code").width
        colour = theme.palette.accent
        key = (code, width, font_px, colour)
        if self._wrapped is None or self._wrapped[0] != key:
            # Codes have no spaces to wrap at: break them by characters, at most 7 lines.
            font = theme.font(15 * vp.scale, bold=True)
            lines = wrap_code(code, font, width)
            self._wrapped = (key, [font.render(line, True, colour) for line in lines])
        return self._wrapped[1]

    def debug_state(self) -> dict[str, Any]:
        # "code" is None while a big board's code is being worked out ("code_pending").
        return {"scene": "ButtonMadnessScene", "code": self.code_text(),
                "code_pending": self.code_pending(),
                "n": self.board.n, "solved": self.board.is_solved, "presses": self.presses(),
                # Row-major (so sorted); capped, a 1000×1000 solution is huge.
                "marks": [list(m) for m in self.solution_cells(STATE_MARKS)],
                "mark_count": self.mark_count,
                "hinted": sorted(list(m) for m in self.hinted), "helped": self.helped,
                "marks_drawn": self.marks_drawn(),
                "unsolvable": self.unsolvable, "status": self.status_text(),
                "moves": self.puzzle.moves, "elapsed": round(self.puzzle.elapsed, 1),
                "last_press": list(last) if (last := self.last_press()) else None,
                "animating": sorted(map(str, self.anim.running())),
                "paused": self.puzzle.paused}


def count_presses(count: int, number: bool = True) -> str:
    """A count in words: "1 press", "2 presses" (without ``number``: only the word), in the
    current language."""
    if number:
        return ngettext("{count} press", "{count} presses", count).format(count=count)
    return ngettext("press", "presses", count)


def _pulse(u: float) -> float:
    """A button's scale ``u`` of the way through its pulse: shrunk, then popping back."""
    return lerp(0.72, 1.0, ease_out_back(min(1.0, max(0.0, u))))


def _lighten(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Half way to white: a button during the completion flash's bright phases."""
    return (colour[0] + 255) // 2, (colour[1] + 255) // 2, (colour[2] + 255) // 2


def marker_rect(cell: pygame.Rect) -> pygame.Rect:
    """Where the last-press marker goes: the cell, or a square of MARKER_MIN_PX around a
    cell too small to show it (a big board's buttons are a pixel or less)."""
    if cell.width >= MARKER_MIN_PX:
        return cell
    rect = pygame.Rect(0, 0, MARKER_MIN_PX, MARKER_MIN_PX)
    rect.center = cell.center
    return rect


def draw_last_marker(surface: pygame.Surface, rect: pygame.Rect,
                     colour: tuple[int, int, int], edge: tuple[int, int, int]) -> None:
    """The last press: a frame along ``rect``'s edge and a dot on its top-left corner.

    The frame sits on the cell's edge, outside the keyboard cursor's and the solution
    marks' frames (both inset), and the dot is a shape none of them has, so the marker
    is told apart by more than its colour. ``edge`` (the background) outlines both so
    they stand out on red, green and the dark board alike.
    """
    width = max(2, round(rect.width / 14))
    pygame.draw.rect(surface, edge, rect.inflate(2, 2), 1)
    pygame.draw.rect(surface, colour, rect, width)
    # The dot sits in the corner the button's rounding leaves empty.
    dot = max(3, round(rect.width * 0.08))
    centre = (rect.x + width + dot // 2, rect.y + width + dot // 2)
    pygame.draw.circle(surface, edge, centre, dot + 1)
    pygame.draw.circle(surface, colour, centre, dot)


def draw_cursor(surface: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int],
                edge: tuple[int, int, int]) -> None:
    """The keyboard cursor: four corner brackets just outside ``rect``.

    Brackets, not a frame: the solution marks and the last-press marker are frames, so
    the cursor differs from both in shape (and in colour: ``colour`` is the text's, not
    their yellow). Each bracket is outlined in ``edge`` to stand out on any button.
    """
    width = max(2, round(rect.width / 12))
    outer = rect.inflate(2 * width, 2 * width)
    arm = max(width * 2, round(outer.width * 0.3))
    for sx, sy in ((0, 0), (1, 0), (0, 1), (1, 1)):
        x = outer.right - arm if sx else outer.x
        y = outer.bottom - width if sy else outer.y
        across = pygame.Rect(x, y, arm, width)
        x = outer.right - width if sx else outer.x
        y = outer.bottom - arm if sy else outer.y
        down = pygame.Rect(x, y, width, arm)
        for part in (across, down):
            pygame.draw.rect(surface, edge, part.inflate(2, 2))
        for part in (across, down):
            surface.fill(colour, part)


class WinOverlay(Overlay):
    """The win screen: presses, time, help used, best result; Play again, Generate, Close."""

    help_title = N_("Solved")
    help_text = N_("Play again returns to the start of this board (Undo brings the solved "
                   "board back); Generate makes a new board; Close returns to the solved board.")
    size = (500.0, 300.0)

    def __init__(self, app: App, game: ButtonMadnessScene, solved: Solved,
                 recorded: Recorded) -> None:
        super().__init__(app)
        self.game = game
        self.presses, self.seconds, self.helped = solved.moves, solved.seconds, solved.helped
        best = recorded.best_before
        record = ""
        if recorded.new_best:
            record = _("A new best for this size!")
        elif best is not None:
            record = _("Best for this size: {presses}, {seconds} s.").format(
                presses=count_presses(best[0]), seconds=number_text(best[1], 1))
        lines = [_("All {colour} in {presses} and {seconds} s.").format(
                     colour=game.words().done, presses=count_presses(self.presses),
                     seconds=number_text(self.seconds, 1)),
                 _("Solved with help (solution or hint).") if self.helped
                 else _("Solved without help."),
                 record]
        self.ui.add(Label(self._at(24, 20, -48, 50), N_("Solved!"), size=34, bold=True,
                          role="accent", align="center", fit_lines=1, min_size=20))
        self.ui.add(Label(self._at(24, 80, -48, 130), "\n\n".join(filter(None, lines)),
                          size=18, align="center", fit_lines=5, min_size=12))
        for i, (label, action) in enumerate(((N_("Play again"), self._play_again),
                                             (N_("Generate"), self._generate),
                                             (N_("Close"), self.close))):
            self.ui.add(Button(self._button(i), label, action, name=label))
        self.ui.focus_index = 0

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
        """The place of the ``i``-th of the three buttons along the panel's foot."""
        def place() -> tuple[float, float, float, float]:
            x, y, w, h = self.panel
            width = (w - 48 - 2 * 10) / 3
            return (x + 24 + i * (width + 10), y + h - 70, width, 46)
        return place

    def _play_again(self) -> None:
        self.close()
        self.game.restart()

    def _generate(self) -> None:
        self.close()
        self.game.generate_new()

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "WinOverlay", "overlay": True, "presses": self.presses,
                "helped": self.helped}


def smoke_variants(app: App, frames: Any) -> list[str]:
    """For --smoke: small, bad-size and large boards with the solution shown, and the explorer."""
    from games.buttons.explorer_scene import ExplorerScene

    opened = []
    for n in (2, 5, 20, 120):
        scene = app.push(ButtonMadnessScene(app, Board.solved(n).press(0, 0), seed=n))
        scene.toggle_solution()
        frames(3)
        app.pop()
        opened.append(f"{n}x{n}")
    app.push(ExplorerScene(app))
    frames(2)
    app.pop()
    return [*opened, "explorer"]
