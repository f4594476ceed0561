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

from engine.board.draw import draw_cell_text, outline_cell
from engine.board.geometry import BoardGeometry
from engine.board.pointer import GridPointer
from engine.game_scene import GameScene
from engine.game_settings import load_params, remember
from engine.history import History
from engine.overlays import Overlay, TextEntryDialog
from engine.puzzle import Change, PuzzleHelp, PuzzleMidend, Recorded, Solved
from engine.widgets import Button, Label
from games.buttons.board import Board, CodeError, bits_to_grid, generate, parse_code
from games.buttons.codes import CODE_INLINE_MAX_N, BoardCodes, canonical_code
from games.buttons.descriptor import GAME
from games.buttons.help_text import HELP
from games.buttons.params import SPEC, ButtonParams, menu_size

if TYPE_CHECKING:
    import threading

    from engine.app import App
    from games.buttons.solver import GridSolution

__all__ = ["BOARD_AREA", "CODE_INLINE_MAX_N", "CODE_LINES", "STATE_MARKS", "WORKING_OUT_CODE",
           "ButtonMadnessScene", "WinOverlay", "canonical_code", "open_scene", "smoke_variants",
           "wrap_code"]

BOARD_AREA = (220.0, 84.0, 560.0, 560.0)
# Above this size buttons are drawn as one scaled picture: a 1000×1000 board from a code
# would otherwise be a million rectangles a frame.
VECTOR_LIMIT = 40
# The side panel shows at most this many lines of the board code.
CODE_LINES = 7
# debug_state lists at most this many marks (there are up to 500,000), and their count.
STATE_MARKS = 1000
WORKING_OUT_CODE = "working out the code…"


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

    help_title = "Button Madness: rules"
    help_text = HELP
    new_game_label = "Generate"

    def __init__(self, app: App, board: Board | None = None, seed: int | None = None, *,
                 params: ButtonParams | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``board`` to play (None: generate one of ``params``' size, by default the menu
        size last chosen); ``seed`` makes generated boards repeatable; ``clock`` times."""
        super().__init__(app)
        self.title = "Button Madness"
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
        self._picture: tuple[Board, Any, pygame.Surface] | None = None
        # (window key, picture, the marks grid drawn): see _draw_marks_picture.
        self._marks_picture: tuple[Any, pygame.Surface, np.ndarray] | None = None
        self._no_marks: np.ndarray | None = None
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

    # --- what is shown (read from the midend) ----------------------------------------------
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
        return BoardGeometry(self.board.n, self.board.n, self.app.viewport.map_rect(BOARD_AREA))

    # --- actions -------------------------------------------------------------------------------
    def press(self, row: int, col: int) -> None:
        """Press one button (undoable); a solve is recorded and shown once per attempt."""
        solved = self.puzzle.play((row, col))
        if solved is not None:
            self._won(solved)

    def generate_new(self) -> None:
        """A new solvable board of the current size, seeded from the clock (undoable)."""
        self.puzzle.new_puzzle(self._generate(self.board.n))

    def new_game(self) -> None:
        self.generate_new()

    def change_size(self, step: int) -> None:
        """Pick another size from the menu (2 to 20), remember it, and generate a board of it."""
        n = menu_size(self.board.n + step)
        if n == self.board.n:
            return
        warning = remember(self.app.settings, GAME, ButtonParams(n))
        if warning:
            self.app.notify(warning)
        else:
            self.app.save_settings()
        self.puzzle.new_puzzle(self._generate(n))

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
        """Reveal one more button of the solution."""
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
            self.app.notify("This board's code could not be worked out.")
        else:
            self.codes.copy_when_ready(board)
            self.app.notify(f"The code of this {board.n}×{board.n} board is still being "
                            "worked out; it will be copied as soon as it is ready.")

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
            self.app.notify(recorded.warning)
        self.app.push(WinOverlay(self.app, self, solved, recorded))

    def _changed(self, _change: Change) -> None:
        """After every change of board (the midend calls this): screen-side clean-up."""
        board = self.board
        if self.codes.board_changed(board):
            self.app.notify("The board changed before its code was worked out, so nothing "
                            "was copied: press Copy again.")
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
        news = self.codes.update(self.board)
        if news.error:
            self.app.notify(news.error)
        if news.copy is not None:
            self._put_on_clipboard(news.copy)
        error = self.helper.poll()
        if error:
            self.app.notify(error)

    def busy_label(self) -> str | None:
        if self.helper.busy:
            return f"solving… {round(self.helper.progress * 100)}%"
        return super().busy_label()

    def is_active(self) -> bool:
        # A running clock is redrawn every frame (its seconds tick).
        return super().is_active() or self.helper.busy or self.codes.worker.busy or \
            self.code_pending() or self.puzzle.timing

    def leave(self) -> None:
        super().leave()
        self.puzzle.pause()
        self.helper.cancel()
        self.codes.cancel()

    def resume(self) -> None:
        super().resume()
        self.puzzle.resume()
        self._best = None  # a screen above (win screen) may have recorded a result

    # --- input ---------------------------------------------------------------------------------
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
        solution = self.helper.solution
        if self.show_solution and solution is not None:
            text += f" Solution: {solution.count} more presses ({solution.method})."
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
        n = self.board.n
        variant = SPEC.variant_id(ButtonParams(n))
        if self._best is None or self._best[0] != variant:
            # An SQLite query: once per size and after each recorded result, not per frame.
            self._best = (variant, self.app.stats.best_puzzle(GAME.id, variant))
        best = self._best[1]
        lines = [f"Presses: {self.presses()}", f"Time: {self.puzzle.elapsed:.0f} s"]
        lines.append(f"Best {n}×{n}: {best[0]} presses, {best[1]:.0f} s" if best
                     else f"Best {n}×{n}: not solved yet")
        if self.helped:
            lines.append("Help used on this board")
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
                "unsolvable": self.unsolvable, "status": self.status_text(),
                "moves": self.puzzle.moves, "elapsed": round(self.puzzle.elapsed, 1),
                "paused": self.puzzle.paused}


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
    """The win screen: presses, time, help used, best result; Play again, Generate, Close."""

    panel = (230.0, 200.0, 500.0, 300.0)
    help_title = "Solved"
    help_text = ("Play again returns to the start of this board (Undo brings the solved board "
                 "back); Generate makes a new board; Close returns to the solved board.")

    def __init__(self, app: App, game: ButtonMadnessScene, solved: Solved,
                 recorded: Recorded) -> None:
        super().__init__(app)
        self.game = game
        self.presses, self.seconds, self.helped = solved.moves, solved.seconds, solved.helped
        best = recorded.best_before
        x, y, w, h = self.panel
        record = ""
        if recorded.new_best:
            record = "A new best for this size!"
        elif best is not None:
            record = f"Best for this size: {best[0]} presses, {best[1]:.1f} s."
        lines = [f"All red in {self.presses} presses and {self.seconds:.1f} s.",
                 "Solved with help (solution or hint)." if self.helped
                 else "Solved without help.",
                 record]
        self.ui.add(Label((x + 24, y + 20, w - 48, 50), "Solved!", size=34, bold=True,
                          role="accent", align="center"))
        self.ui.add(Label((x + 24, y + 80, w - 48, 130), "\n\n".join(filter(None, lines)),
                          size=18, align="center"))
        for i, (label, action) in enumerate((("Play again", self._play_again),
                                             ("Generate", self._generate),
                                             ("Close", self.close))):
            self.ui.add(Button((x + 24 + i * 154, y + h - 70, 144, 46), label, action,
                               name=label))
        self.ui.focus_index = 0

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
