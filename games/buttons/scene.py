"""Button Madness on screen: press buttons on a torus until every one is red."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from engine.ai.runner import AIRunner
from engine.board.draw import draw_cell_text, outline_cell
from engine.board.geometry import BoardGeometry
from engine.board.pointer import GridPointer
from engine.game_scene import GameScene
from engine.history import History
from engine.overlays import Overlay, TextEntryDialog
from engine.widgets import Button, Label
from games.buttons.board import (
    Board,
    CodeError,
    bits_to_grid,
    format_code,
    generate,
    parse_code,
)

if TYPE_CHECKING:
    from engine.app import App
    from games.buttons.solver import GridSolution

GAME_ID = "button-madness"
BOARD_AREA = (220.0, 84.0, 560.0, 560.0)
MIN_N, MAX_MENU_N = 2, 20
# Above this size buttons are drawn as one scaled picture: a 1000×1000 board from a code
# would otherwise be a million rectangles a frame.
VECTOR_LIMIT = 40
FLASH_SECONDS = 0.18
# The side panel shows at most this many lines of the board code.
CODE_LINES = 7
# format_code converts an n²-bit number to decimal: about 1.6 ms at 200×200, 5 ms at
# 300×300 and 100 ms at 1000×1000. Up to this side it is done on the frame loop (once per
# board, then cached); bigger boards have their code worked out on a background thread.
CODE_INLINE_MAX_N = 200
# Codes remembered per scene (a 1000×1000 code is 301 KB): enough for undo/redo back and
# forth over a few boards without converting them again.
CODE_CACHE_SIZE = 8
# solution_cells reads the marks grid about this many cells (whole rows) at a time, so a
# capped list stops early instead of listing all 500,000 marks of a 1000×1000 solution.
_CELL_BLOCK = 4096
# debug_state lists at most this many marks (there are up to 500,000), and their count.
STATE_MARKS = 1000
WORKING_OUT_CODE = "working out the code…"

HELP = """Every button is red or green. Pressing a button flips it and its four neighbours
(left, right, up, down). The board is a torus: a neighbour past an edge is the button on the
opposite edge. Turn every button red. Green buttons carry a ring, so the two states differ in
shape as well as colour.

Order does not matter and pressing a button twice undoes it, so a solution is a set of
buttons. Generate (G) makes a new board by pressing random buttons on an all-red board, seeded
from the clock, so it can always be solved. The board's code (top left) reproduces it: Copy
puts it on the clipboard, Enter code (E) loads one. 4×4 codes are numbers 0-65535 (bit 4·r+c
set = red); other sizes are written NxN:NUMBER.

Restart (R) returns to the generated or entered board; it can be undone like every press.
Show solution (S) marks every button you still need to press, and the marks follow your clicks.
Hint (H) reveals one button of the solution at a time. Either counts as solved with help.

Some sizes (3, 5, 6, 9, 10, ...) have boards that cannot be solved; Which sizes? shows them and
the theorems behind them. Keyboard: arrows and Enter press buttons, -/+ change the size."""


@dataclass(frozen=True)
class Entry:
    """One history step: a press, or the board of a new attempt (new, code, restart).

    A press keeps only its cell: pressing again undoes it, and a stored board
    would cost n²/8 bytes a press (125 kB on 1000×1000). An attempt keeps its
    board and the one it replaced, to undo back to.
    """

    press: tuple[int, int] | None = None
    board: Board | None = None  # the new attempt's board
    before: Board | None = None  # the board shown before that attempt

    @property
    def start(self) -> bool:
        """Whether this step started an attempt."""
        return self.board is not None


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


def canonical_code(text: str, board: Board) -> str:
    """The code :func:`format_code` gives ``board``, read off the text it was parsed from.

    ``text`` must be a valid code of ``board`` (``parse_code(text) == board``). The
    canonical form only drops whitespace and leading zeros and spells the size ``NxN``
    (no size for 4×4), so a big entered board shows its code without the decimal
    conversion.
    """
    code = text.strip()
    number = code.split(":", 1)[1] if ":" in code else code
    number = number.lstrip("0") or "0"
    return number if board.n == 4 else f"{board.n}x{board.n}:{number}"


class ButtonMadnessScene(GameScene):
    """The puzzle: board, code, generate/enter/restart, solution marks, hints, win screen."""

    help_title = "Button Madness: rules"
    help_text = HELP
    new_game_label = "Generate"

    def __init__(self, app: App, board: Board | None = None, seed: int | None = None) -> None:
        super().__init__(app)
        self.title = "Button Madness"
        stored = app.settings.get("variants").get(GAME_ID, {})
        n = stored.get("n", 4) if isinstance(stored.get("n", 4), int) else 4
        self.n = max(MIN_N, min(MAX_MENU_N, n))
        self.seed = seed
        if board is None:
            board = self._generate(self.n)
        self.history: History[Entry] = History(Entry(board=board))
        self._board = board
        self.origin = board
        self.solver = AIRunner()
        # Show solution, for the shown board: an n×n read-only bool grid (True: press it),
        # made on the solver's thread, and its number of Trues. A grid, not a set of cells:
        # a 1000×1000 solution has ~500,000 marks, which as a set and a tuple of tuples
        # took ~70 MB (resident memory ~+120 MB) and 0.1-0.2 s of a frame to free when the
        # next solution replaced them; the grid is 1 MB.
        self.marks: np.ndarray | None = None
        self.mark_count = 0
        self.show_solution = False
        self.hinted: set[tuple[int, int]] = set()
        self._want_hint = False  # a hint asked for before the solution arrived
        self.helped = False
        self.solution_note: str | None = None
        self.unsolvable = False
        self.progress = 0.0
        self._asked: Board | None = None
        self.started_at: float | None = None
        self.finished: set[int] = set()
        self.flash: dict[tuple[int, int], float] = {}
        self.pointer = GridPointer()
        # The board code, worked out off the frame loop for big boards (see code_text).
        self.code_worker = AIRunner()
        self._codes: list[tuple[Board, str]] = []  # most recently used last
        self._code_failed: Board | None = None
        self._copy_pending: Board | None = None  # Copy pressed before its code was ready
        self._parsed: tuple[str, Board] | None = None  # the code dialog's last valid text
        # Per-frame drawing caches: wrapped code lines, best result, big-board picture.
        self._wrapped: tuple[tuple[str, int, int, Any], list[pygame.Surface]] | None = None
        self._best: tuple[str, tuple[int, float] | None] | None = None
        self._picture: tuple[Board, Any, pygame.Surface] | None = None
        # (window key, picture, the marks grid drawn): see _draw_marks_picture.
        self._marks_picture: tuple[Any, pygame.Surface, np.ndarray] | None = None
        ui = self.ui
        ui.add(Button((16, 76, 92, 34), "Copy", self.copy_code, size=15, name="Copy"))
        ui.add(Button((112, 76, 92, 34), "Enter code", self.enter_code, size=14,
                      name="Enter code"))
        ui.add(Button((410, 12, 100, 40), "Restart", self.restart, name="Restart"))
        y = 300.0
        ui.add(Label((16, y, 70, 40), "Size", size=16))
        ui.add(Button((78, y, 36, 40), "−", lambda: self.change_size(-1), name="size-"))
        ui.add(Label((114, y, 56, 40), lambda: f"{self.board.n}×{self.board.n}", size=16,
                     bold=True, align="center"))
        ui.add(Button((170, y, 36, 40), "+", lambda: self.change_size(1), name="size+"))
        ui.add(Button((16, 356, 188, 40), "Show solution", self.toggle_solution,
                      selected=lambda: self.show_solution, name="Show solution"))
        ui.add(Button((16, 404, 188, 40), "Hint", self.hint, name="Hint"))
        ui.add(Button((16, 452, 188, 40), "Which sizes?", self.open_explorer,
                      name="Which sizes?"))

    # --- state -------------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The board on screen."""
        return self._board

    def presses(self) -> int:
        """Presses in this attempt (since the last new board or restart), up to now."""
        count = 0
        for entry in reversed(self.history.entries[: self.history.index + 1]):
            if entry.start:
                break
            count += 1
        return count

    def attempt_id(self) -> int:
        """History index where the current attempt started (identifies the attempt)."""
        for i in range(self.history.index, -1, -1):
            if self.history.entries[i].start:
                return i
        return 0

    def _generate(self, n: int) -> Board:
        # Seeded from the current time in milliseconds, as in the source document.
        seed = self.seed if self.seed is not None else int(time.time() * 1000)
        board, _presses = generate(n, random.Random(seed))
        if self.seed is not None:
            self.seed += 1
        return board

    def _start(self, board: Board) -> None:
        """A new attempt on ``board`` (undoable)."""
        self.origin = board
        self._push_attempt(board)

    def _push_attempt(self, board: Board) -> None:
        self.history.push(Entry(board=board, before=self._board))
        self._board = board
        self._new_attempt()

    def _new_attempt(self) -> None:
        self.started_at = None
        self.helped = False
        self.hinted = set()
        self._changed()

    def _changed(self) -> None:
        self.flash = {}
        self.marks = None
        self.mark_count = 0
        self._asked = None
        self.solver.cancel()
        self.unsolvable = False
        if self._copy_pending is not None and self._copy_pending != self.board:
            self._copy_pending = None
            self.app.notify("The board changed before its code was worked out, so nothing "
                            "was copied: press Copy again.")
        # A new size (Generate, +/-, a code, undo across sizes) may leave the hovered or
        # keyboard cell outside the board: forget it rather than draw or press it.
        n = self.board.n
        for attr in ("hover", "cursor"):
            cell = getattr(self.pointer, attr)
            if cell is not None and not (cell[0] < n and cell[1] < n):
                setattr(self.pointer, attr, None)
        # Undo or redo across attempts keeps the hints (a new attempt clears them), but
        # only those on the board shown: a 5×5 hint has no cell on a 4×4 board.
        self.hinted = {cell for cell in self.hinted if cell[0] < n and cell[1] < n}

    # --- actions -----------------------------------------------------------------------
    def press(self, row: int, col: int) -> None:
        """Press one button (undoable)."""
        before = self.board
        after = before.press(row, col)
        if self.started_at is None:
            self.started_at = time.monotonic()
        self.history.push(Entry(press=(row, col)))
        self._board = after
        changed = before.bits ^ after.bits
        n = before.n
        if n <= VECTOR_LIMIT:
            self.flash = {divmod(i, n): FLASH_SECONDS for i in range(n * n) if changed >> i & 1}
        self.hinted.discard((row, col))
        self._changed()
        if after.is_solved:
            self._won()

    def generate_new(self) -> None:
        """A new solvable board of the current size, seeded from the clock."""
        self._start(self._generate(self.board.n))

    def change_size(self, step: int) -> None:
        """Pick another size from the menu (2 to 20) and generate a board of it."""
        n = max(MIN_N, min(MAX_MENU_N, self.board.n + step))
        if n == self.board.n:
            return
        self._remember_size(n)
        self._start(self._generate(n))

    def _remember_size(self, n: int) -> None:
        try:
            table = self.app.settings.get("variants")
            table[GAME_ID] = {"n": n}
            self.app.settings.set("variants", table)
        except ValueError:
            return
        self.app.save_settings()

    def restart(self) -> None:
        """Back to the generated or entered board (undoable)."""
        if self.board == self.origin and self.presses() == 0:
            return
        self._push_attempt(self.origin)

    def undo(self) -> None:
        step = self.history.current
        if self.history.undo():
            self._board = step.before if step.board is not None else self._pressed(step)
            self._changed()

    def redo(self) -> None:
        if self.history.redo():
            step = self.history.current
            self._board = step.board if step.board is not None else self._pressed(step)
            self._changed()

    def _pressed(self, step: Entry) -> Board:
        """The board on screen with ``step``'s press applied (a press undoes itself)."""
        assert step.press is not None
        return self._board.press(*step.press)

    def can_undo(self) -> bool:
        return self.history.can_undo

    def can_redo(self) -> bool:
        return self.history.can_redo

    def new_game(self) -> None:
        self.generate_new()

    def copy_code(self) -> None:
        """Put the board's code on the clipboard (or say where to read it).

        While a big board's code is still being worked out, says so and copies it as soon
        as it is ready (unless the board changes first).
        """
        code = self.code_text()
        if code is None:
            board = self.board
            if board == self._code_failed:
                self.app.notify("This board's code could not be worked out.")
                return
            self._copy_pending = board
            self.app.notify(f"The code of this {board.n}×{board.n} board is still being "
                            "worked out; it will be copied as soon as it is ready.")
            return
        self._put_on_clipboard(code)

    def _put_on_clipboard(self, code: str) -> None:
        try:
            pygame.scrap.put_text(code)  # pygame-ce's SDL2 clipboard: no init needed
        except (pygame.error, AttributeError, NotImplementedError):
            shown = code if len(code) <= 60 else code[:57] + "…"
            self.app.notify(f"The clipboard is not available here; the code is {shown}")
            return
        self.app.notify("Code copied to the clipboard.")

    def enter_code(self) -> None:
        """Ask for a code; a valid one loads exactly that board, a bad one changes nothing."""

        def validate(text: str) -> str | None:
            try:
                # Kept for load_code: reading a 1000×1000 code takes ~0.1 s, once is enough.
                self._parsed = (text, parse_code(text))
            except CodeError as exc:
                return str(exc)
            return None

        self.app.push(TextEntryDialog(self.app, "Board code (4×4: 0-65535, or NxN:NUMBER)",
                                      self.load_code, validate, max_length=400_000))

    def load_code(self, text: str) -> None:
        """Load the board of a (valid) code as a new attempt."""
        parsed, self._parsed = self._parsed, None
        board = parsed[1] if parsed is not None and parsed[0] == text else parse_code(text)
        if board.n > CODE_INLINE_MAX_N:
            # The entered text already is the code, up to spelling: no conversion needed.
            self._remember_code(board, canonical_code(text, board))
        self._start(board)

    def toggle_solution(self) -> None:
        """Mark (or unmark) every button that must be pressed."""
        self.show_solution = not self.show_solution
        if self.show_solution:
            self.helped = True

    def hint(self) -> None:
        """Reveal one more button of the solution."""
        self.helped = True
        if self.marks is None:
            self._want_hint = True
            return
        self._add_hint()

    def _add_hint(self) -> None:
        """Hint the first solution button (row-major) not hinted yet, if any is left."""
        if self.marks is None:
            return
        flat = self.marks.ravel()  # a view: the grid is C-contiguous
        n = self.marks.shape[1]
        start = 0
        # Each argmax finds the next mark from ``start``; only the few hinted marks are
        # skipped, so this scans no further than the hint it finds.
        while start < flat.size:
            index = start + int(np.argmax(flat[start:]))
            if not flat[index]:
                return  # no mark left from start on
            cell = divmod(index, n)
            if cell not in self.hinted:
                self.hinted.add(cell)
                return
            start = index + 1

    def solution_cells(self, limit: int | None = None) -> list[tuple[int, int]]:
        """The shown solution's buttons as (row, column), row-major; at most ``limit``.

        Empty while there is no solution (not worked out yet, or unsolvable). Built from
        the marks grid on each call: cheap for a small board or a capped list (the first
        1,000 of a 1000×1000 board: ~0.5 ms), ~0.1 s for all its ~500,000.
        """
        grid = self.marks
        if grid is None:
            return []
        cells: list[tuple[int, int]] = []
        step = max(1, _CELL_BLOCK // grid.shape[1])
        for top in range(0, grid.shape[0], step):
            rows, cols = np.nonzero(grid[top:top + step])
            cells.extend(zip((rows + top).tolist(), cols.tolist(), strict=True))
            if limit is not None and len(cells) >= limit:
                return cells[:limit]
        return cells

    def open_explorer(self) -> None:
        """The chart of which sizes have unsolvable boards."""
        from games.buttons.explorer_scene import ExplorerScene

        self.app.push(ExplorerScene(self.app))

    def _won(self) -> None:
        attempt = self.attempt_id()
        if attempt in self.finished:
            return
        self.finished.add(attempt)
        seconds = time.monotonic() - (self.started_at or time.monotonic())
        n = self.board.n
        best_before = self.app.stats.best_puzzle(GAME_ID, f"{n}x{n}")
        warning = self.app.stats.record_puzzle(GAME_ID, f"{n}x{n}", self.presses(), seconds,
                                               self.helped)
        self._best = None  # the side panel reads the best result again
        if warning:
            self.app.notify(warning)
        self.app.push(WinOverlay(self.app, self, self.presses(), seconds, self.helped,
                                 best_before))

    # --- the board code ----------------------------------------------------------------------
    def code_text(self) -> str | None:
        """The shown board's code, or None while it is being worked out (or failed).

        Boards are immutable (a press makes a new one), so a code is cached per board.
        Small boards are converted here on first use; bigger ones (side above
        :data:`CODE_INLINE_MAX_N`) by :attr:`code_worker`, started from :meth:`update`.
        """
        board = self.board
        for i, (known, code) in enumerate(self._codes):
            if known is board or known == board:
                if i != len(self._codes) - 1:
                    self._codes.append(self._codes.pop(i))
                return code
        if board.n > CODE_INLINE_MAX_N:
            return None
        code = format_code(board)
        self._remember_code(board, code)
        return code

    def code_pending(self) -> bool:
        """Whether the shown board's code is still being worked out off the frame loop."""
        return self.board != self._code_failed and self.code_text() is None

    def _remember_code(self, board: Board, code: str) -> None:
        self._codes = [(b, c) for b, c in self._codes if b != board][-(CODE_CACHE_SIZE - 1):]
        self._codes.append((board, code))

    def _update_code(self) -> None:
        """Collect a finished code and start the next one; one conversion at a time."""
        if self.code_worker.busy:
            result = self.code_worker.poll()
            if result is None:
                return  # still converting (perhaps an older board: its result is dropped)
            if result.error is not None:
                self._code_failed = result.tag
                self.app.notify(f"The board code could not be worked out: {result.error}")
            elif result.tag == self.board:
                self._remember_code(result.tag, result.move)
            # Otherwise the board changed meanwhile: the stale code is dropped.
            if self._copy_pending is not None and result.tag == self._copy_pending:
                self._copy_pending = None
                if result.error is None:
                    self._put_on_clipboard(result.move)
        # A stale conversion is not cancelled when the board changes but left to finish
        # (it cannot stop midway): starting another beside it would only slow both.
        if self.code_pending() and not self.code_worker.busy:
            board = self.board
            self.code_worker.submit(lambda _cancel: format_code(board), tag=board)

    # --- solving off the frame loop -------------------------------------------------------------
    def update(self, dt: float) -> None:
        super().update(dt)
        self._update_code()
        for cell in list(self.flash):
            self.flash[cell] -= dt
            if self.flash[cell] <= 0:
                del self.flash[cell]
        wanted = self.show_solution or self.hinted or self._want_hint
        board = self.board
        if not wanted or board.is_solved:
            return
        if self.solver.busy:
            result = self.solver.poll()
            if result is None:
                return
            if result.error is not None:
                self.app.notify(f"The solver failed: {result.error}")
            elif result.tag == board:
                self._take_solution(result.move)
            return
        if self.marks is None and self._asked != board:
            from games.buttons.solver import solve_grid

            self._asked = board
            self.progress = 0.0

            # solve_grid, not solve: the marks arrive as one n×n grid, with no tuple per
            # press for the frame loop to hold and later free.
            self.solver.submit(lambda cancel: solve_grid(board, cancel,
                                                         progress=self._set_progress),
                               tag=board)

    def _set_progress(self, fraction: float) -> None:
        self.progress = fraction  # written by the solver thread, read by the frame loop

    def _take_solution(self, solution: GridSolution) -> None:
        self.solution_note = solution.method
        if solution.grid is None:
            # No marks (an empty grid, so "not worked out yet" stays marks is None).
            n = self.board.n
            self.marks = np.zeros((n, n), dtype=bool)
            self.mark_count = 0
            self.unsolvable = True
            return
        self.marks, self.mark_count = solution.grid, solution.count
        # Hints already given stay marked while they are still part of the solution.
        self.hinted = {cell for cell in self.hinted if self.marks[cell]}
        if self._want_hint:
            self._want_hint = False
            self._add_hint()

    def busy_label(self) -> str | None:
        if self.solver.busy:
            return f"solving… {round(self.progress * 100)}%"
        return super().busy_label()

    def is_active(self) -> bool:
        return super().is_active() or self.solver.busy or bool(self.flash) or \
            self.code_worker.busy or self.code_pending() or \
            self.started_at is not None and not self.board.is_solved

    def leave(self) -> None:
        super().leave()
        self.solver.cancel()
        self.code_worker.cancel()
        self._copy_pending = None

    def resume(self) -> None:
        super().resume()
        self._best = None  # a screen above (win screen) may have recorded a result

    # --- input ---------------------------------------------------------------------------------
    def geometry(self) -> BoardGeometry:
        """Board placement for the current window size."""
        return BoardGeometry(self.board.n, self.board.n, self.app.viewport.map_rect(BOARD_AREA))

    def handle_event(self, event: pygame.event.Event) -> None:
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
        self.pointer.handle(event, self.geometry(), self.press, lambda: (n // 2, n // 2))

    # --- drawing -------------------------------------------------------------------------------
    def status_text(self) -> str:
        board = self.board
        if board.is_solved:
            return f"Solved in {self.presses()} presses! Generate (G) for a new board."
        greens = board.green_count
        text = f"{greens} green button{'s' if greens != 1 else ''} left; {self.presses()} presses."
        if self.unsolvable:
            return text + " This board cannot be solved: no set of presses turns it all red."
        if self.show_solution and self.marks is not None:
            text += f" Solution: {self.mark_count} more presses ({self.solution_note})."
        return text

    def draw_board(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        p = theme.palette
        geom = self.geometry()
        board = self.board
        n = board.n
        if n > VECTOR_LIMIT:
            self._draw_picture(surface, geom)
        else:
            pygame.draw.rect(surface, p.board, geom.rect)
            inset = max(1, round(geom.cell_size * 0.08))
            radius = max(2, round(geom.cell_size * 0.18))
            for r in range(n):
                for c in range(n):
                    rect = geom.cell_rect(r, c).inflate(-2 * inset, -2 * inset)
                    red = board.red(r, c)
                    pygame.draw.rect(surface, p.bad if red else p.good, rect,
                                     border_radius=radius)
                    if not red:  # a ring on green: the state is not told by hue alone
                        pygame.draw.circle(surface, p.background, rect.center,
                                           rect.width * 0.22, max(1, round(rect.width / 14)))
                    if (r, c) in self.flash:
                        glow = pygame.Surface(rect.size, pygame.SRCALPHA)
                        alpha = round(160 * self.flash[(r, c)] / FLASH_SECONDS)
                        glow.fill((255, 255, 255, alpha))
                        surface.blit(glow, rect)
        marks: list[tuple[int, int]] = []
        if self.marks is not None and self.show_solution and n > VECTOR_LIMIT:
            # Up to n²/2 marks (500,000 on 1000×1000): one cached picture, not a rectangle
            # per mark per frame (that took 0.1 s a frame at 200×200, 3 s at 1000×1000).
            self._draw_marks_picture(surface, geom, self.marks)
        elif self.marks is not None:
            # At most VECTOR_LIMIT² cells listed here; hints are few and, once the solution
            # is in, all marked (see _take_solution), but are checked against it anyway.
            marks = self.solution_cells() if self.show_solution else \
                [cell for cell in self.hinted if self.marks[cell]]
        font = theme.font(max(8.0, geom.cell_size * 0.45), bold=True)
        for cell in marks:
            outline_cell(surface, geom, cell, p.accent, max(2, round(geom.cell_size / 10)))
            if geom.cell_size >= 12:
                draw_cell_text(surface, geom, cell, "✱", font, p.accent)
        if self.pointer.hover is not None and not board.is_solved:
            outline_cell(surface,
                         geom, self.pointer.hover, p.text, max(1, round(geom.cell_size / 30)))
        if self.pointer.cursor is not None:
            outline_cell(surface,
                         geom, self.pointer.cursor, p.focus, max(2, round(geom.cell_size / 16)))
        self._draw_side(surface)

    def _draw_picture(self, surface: pygame.Surface, geom: BoardGeometry) -> None:
        p = self.app.theme.palette
        board = self.board
        key = (geom.rect.size, p.good, p.bad)
        cached = self._picture
        if cached is None or cached[0] is not board or cached[1] != key:
            # One byte per button (0 green, 1 red) as an 8-bit palette picture, one pixel
            # per button, scaled once: ~1 ms for 1000×1000, where building RGB pixels with
            # numpy.where took ~30 ms. Redrawn only when the board or the window changes.
            n = board.n
            cells = bits_to_grid(n, board.bits).view(np.uint8)
            picture = pygame.image.frombytes(cells.tobytes(), (n, n), "P")
            picture.set_palette([p.good, p.bad])
            cached = self._picture = (board, key, pygame.transform.scale(picture,
                                                                         geom.rect.size))
        surface.blit(cached[2], geom.rect)

    def _draw_marks_picture(self, surface: pygame.Surface, geom: BoardGeometry,
                            grid: np.ndarray) -> None:
        """Every solution mark of a big board, drawn from a picture made once per solution.

        The picture follows :func:`outline_cell`'s frame, a band ``width`` pixels wide inside
        each marked cell's edge, worked out per screen row and column with numpy; cells too
        small to hold a frame are filled. Cells of 12 pixels or more get the ✱ too.
        """
        accent = self.app.theme.palette.accent
        rect = geom.rect
        # The grid is read-only (a new solution is a new grid), so its identity tells the
        # picture's; comparing grids would cost a pass over n² cells a frame.
        key = (tuple(rect), geom.cell_size, accent)
        cached = self._marks_picture
        if cached is None or cached[2] is not grid or cached[0] != key:
            layer = _marks_layer(geom, grid, accent)
            if geom.cell_size >= 12:
                glyph = self.app.theme.font(max(8.0, geom.cell_size * 0.45), bold=True).render(
                    "✱", True, accent)
                for cell in self.solution_cells():  # 12 px cells: n ≤ 46, few marks
                    centre = geom.cell_rect(*cell).move(-rect.x, -rect.y).center
                    layer.blit(glyph, glyph.get_rect(center=centre))
            cached = self._marks_picture = (key, layer, grid)
        surface.blit(cached[1], rect)

    def _draw_side(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        small = theme.font(13 * vp.scale)
        surface.blit(theme.font(13 * vp.scale, bold=True).render("Board code", True, p.muted),
                     vp.point(16, 116))
        code = self.code_text()
        if code is None:
            text = WORKING_OUT_CODE if self.code_pending() else "not available"
            surface.blit(small.render(text, True, p.muted), vp.point(16, 136))
        else:
            for i, rendered in enumerate(self._code_lines(code)):
                surface.blit(rendered, vp.point(16, 136 + i * 20))
        elapsed = 0.0
        if self.started_at is not None:
            elapsed = time.monotonic() - self.started_at
        n = self.board.n
        variant = f"{n}x{n}"
        if self._best is None or self._best[0] != variant:
            # An SQLite query: once per size and after each recorded result, not per frame.
            self._best = (variant, self.app.stats.best_puzzle(GAME_ID, variant))
        best = self._best[1]
        lines = [f"Presses: {self.presses()}", f"Time: {elapsed:.0f} s"]
        lines.append(f"Best {n}×{n}: {best[0]} presses, {best[1]:.0f} s" if best
                     else f"Best {n}×{n}: not solved yet")
        if self.helped:
            lines.append("Help used this time")
        y = 510.0
        for line in lines:
            surface.blit(small.render(line, True, p.text), vp.point(16, y))
            y += 20
        legend = [(p.bad, False, "red: done"), (p.good, True, "green: to turn red")]
        y = 100.0
        for colour, ring, text in legend:
            box = vp.rect(800, y, 26, 26)
            pygame.draw.rect(surface, colour, box, border_radius=vp.px(5))
            if ring:
                pygame.draw.circle(surface, p.background, box.center, box.width * 0.22, 2)
            surface.blit(small.render(text, True, p.text), vp.point(834, y + 5))
            y += 36
        box = vp.rect(800, y, 26, 26)
        pygame.draw.rect(surface, p.accent, box, vp.px(3))
        surface.blit(small.render("✱ press this", True, p.text), vp.point(834, y + 5))

    def _code_lines(self, code: str) -> list[pygame.Surface]:
        """The code wrapped to the side panel and rendered, cached until it or the size changes."""
        vp, theme = self.app.viewport, self.app.theme
        font_px = round(15 * vp.scale)
        width = vp.rect(16, 0, 188, 1).width
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
                "unsolvable": self.unsolvable, "status": self.status_text()}


def _marks_layer(geom: BoardGeometry, grid: np.ndarray,
                 colour: tuple[int, int, int]) -> pygame.Surface:
    """A transparent picture of ``geom.rect``'s size with a frame in each marked cell."""
    n = geom.rows
    rect = geom.rect
    size = geom.cell_size
    width = max(2, round(size / 10))

    def axis(origin: float, start: int,
             length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per screen pixel along one axis: its cell, and whether it is inside the frame
        and inside its hole."""
        # Cell edges rounded as BoardGeometry rounds them, so the frames sit on the cells.
        edges = np.array([round(origin + i * size) for i in range(n + 1)]) - start
        pixels = np.arange(length)
        cell = np.clip(np.searchsorted(edges, pixels, side="right") - 1, 0, n - 1)
        low, high = edges[cell], edges[cell + 1]
        inside = (pixels >= low + width) & (pixels < high - width)
        hole = (pixels >= low + 2 * width) & (pixels < high - 2 * width)
        # A cell too small to hold the frame at all (outline_cell then draws a blob over
        # it and its neighbours) is filled.
        tiny = high - low <= 2 * width
        return cell, np.where(tiny, True, inside), np.where(tiny, False, hole)

    ox, oy = geom.origin
    cols, in_x, hole_x = axis(ox, rect.x, rect.width)
    rows, in_y, hole_y = axis(oy, rect.y, rect.height)
    frame = in_y[:, None] & in_x[None, :] & ~(hole_y[:, None] & hole_x[None, :])
    shown = grid[rows[:, None], cols[None, :]] & frame  # [y, x]
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    layer.fill((*colour, 0))
    alpha = pygame.surfarray.pixels_alpha(layer)
    alpha[:] = shown.T.astype(np.uint8) * 255  # surfarray is indexed [x, y]
    del alpha  # unlocks the surface
    return layer


class WinOverlay(Overlay):
    """The win screen: presses, time, help used, best result for the size."""

    panel = (230.0, 200.0, 500.0, 300.0)
    help_title = "Solved"
    help_text = "Generate makes a new board; Close returns to the solved board."

    def __init__(self, app: App, game: ButtonMadnessScene, presses: int, seconds: float,
                 helped: bool, best_before: tuple[int, float] | None) -> None:
        super().__init__(app)
        self.game = game
        self.presses, self.seconds, self.helped = presses, seconds, helped
        x, y, w, h = self.panel
        record = ""
        if not helped and (best_before is None or (presses, seconds) < best_before):
            record = "A new best for this size!"
        elif best_before is not None:
            record = f"Best for this size: {best_before[0]} presses, {best_before[1]:.1f} s."
        lines = [f"All red in {presses} presses and {seconds:.1f} s.",
                 "Solved with help (solution or hint)." if helped else "Solved without help.",
                 record]
        self.ui.add(Label((x + 24, y + 20, w - 48, 50), "Solved!", size=34, bold=True,
                          role="accent", align="center"))
        self.ui.add(Label((x + 24, y + 80, w - 48, 130), "\n\n".join(filter(None, lines)),
                          size=18, align="center"))
        self.ui.add(Button((x + 40, y + h - 70, 190, 46), "Generate", self._generate,
                           name="Generate"))
        self.ui.add(Button((x + w - 230, y + h - 70, 190, 46), "Close", self.close,
                           name="Close"))
        self.ui.focus_index = 0

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
