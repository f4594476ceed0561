"""Button Madness on screen: its input and options over the engine's puzzle screen.

Everything that is neither input nor drawing lives elsewhere: the toolbar, moves, the
clock, the completion flash, the win screen, results, hints, saving and resuming in
:class:`engine.screens.puzzle_scene.PuzzleScene` (on :class:`engine.midend.puzzle.PuzzleMidend` and
:class:`engine.midend.puzzle.PuzzleHelp`); the drawing in :mod:`games.buttons.board_view`; the
board code's cache and worker in :mod:`games.buttons.codes`; the rules in
:mod:`games.buttons.board`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from itertools import islice
from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from engine.core.i18n import N_, Phrase, _, error_text, localize, ngettext, number_text
from engine.midend.puzzle import Change, PuzzleHelp, PuzzleMidend, Recorded, Solved
from engine.model.game_settings import load_params, remember
from engine.model.history import History
from engine.screens.overlays import TextEntryDialog
from engine.screens.puzzle_scene import PuzzleScene
from engine.ui.board.draw import outline_cell
from engine.ui.board.geometry import BoardGeometry, Cell
from engine.ui.board.pointer import GridPointer
from engine.ui.stepper import Stepper
from engine.ui.widgets import Button, SizeGroup
from games.buttons.board import Board, CodeError, generate, parse_code, press_mask
from games.buttons.board_render import BoardPicture, MarksPicture, shows_rings
from games.buttons.board_view import (
    CODE_LINES,
    RIPPLE_TRACK,
    VECTOR_LIMIT,
    ButtonsView,
    draw_last_marker,
    marker_rect,
)
from games.buttons.codes import CODE_INLINE_MAX_N, BoardCodes, canonical_code
from games.buttons.descriptor import GAME
from games.buttons.params import SPEC, ButtonParams, menu_size
from games.buttons.scene_layout import SIZE_LABEL_W, SIZE_STEP_W, panel_layout
from games.buttons.timings import RIPPLE
from games.buttons.wording import StateWords, count_presses, help_text, state_words

if TYPE_CHECKING:
    import threading

    from engine.runtime.app import App
    from games.buttons.solver import GridSolution

__all__ = ["STATE_MARKS", "ButtonMadnessScene", "open_scene", "smoke_variants"]

# debug_state lists at most this many marks (there are up to 500,000), and their count.
STATE_MARKS = 1000


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


class ButtonMadnessScene(ButtonsView, PuzzleScene):
    """The puzzle's screen: board, code, generate/enter/restart, solution marks, hints."""

    help_title = N_("Button Madness: rules")
    new_game_label = N_("Generate")
    game = GAME  # what results are recorded and saved games are saved as
    # Show solution and Hint are in the side panel; there is no Solve (the marks say it all).
    toolbar_actions = ("Restart",)
    move_sound = "flip"
    win_help_text = N_("Play again returns to the start of this board (Undo brings the solved "
                       "board back); Generate makes a new board; Close returns to the solved "
                       "board.")

    def __init__(self, app: App, board: Board | None = None, seed: int | None = None, *,
                 params: ButtonParams | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``board`` to play (None: generate one of ``params``' size, by default the menu
        size last chosen); ``seed`` makes generated boards repeatable; ``clock`` times."""
        if params is None:
            params = ButtonParams(menu_size(load_params(app.settings, GAME).n))
        self.seed = seed
        if board is None:
            board = self._generate(params.n)
        # A press undoes itself, so the history keeps presses, not 125 kB boards.
        puzzle: PuzzleMidend[Board] = PuzzleMidend(board, inverse=Board.play, clock=clock)
        helper: PuzzleHelp[Board, GridSolution] = PuzzleHelp(
            puzzle, _solve, moves_of=lambda solution: solution.cells(),
            solvable=lambda solution: solution.grid is not None)
        self.codes = BoardCodes()
        self.pointer = GridPointer()
        super().__init__(app, puzzle, helper)
        self.puzzle: PuzzleMidend[Board] = puzzle
        self.helper: PuzzleHelp[Board, GridSolution] = helper
        self.title = N_("Button Madness")
        self._parsed: tuple[str, Board] | None = None  # the code dialog's last valid text
        # Per-frame drawing caches: wrapped code lines, big-board picture, the "no marks"
        # grid of an unsolvable board.
        self._wrapped: tuple[tuple[str, int, int, Any], list[pygame.Surface]] | None = None
        self._picture = BoardPicture()
        self._marks_picture = MarksPicture()
        self._no_marks: np.ndarray | None = None
        ui, place = self.ui, self.place
        # The engine's stepper: − and + ("size-", "size+") are disabled at 2×2 and 20×20,
        # and the value keeps a gap to both. (A board from a code may be 1000×1000: then
        # only its side is shown.)
        ui.add(Stepper(place("size"), lambda: f"{self.board.n}×{self.board.n}"
                       if self.board.n < 100 else str(self.board.n), self.change_size,
                       self._can_resize, name="size", label=N_("Size"), label_w=SIZE_LABEL_W,
                       size=16, button_w=SIZE_STEP_W))
        # The tool buttons in two rows of siblings, each drawn at one size.
        tools, code = SizeGroup(), SizeGroup()
        ui.add(tools.add(self.action_button("Show solution", place("Show solution"))))
        ui.add(tools.add(self.action_button("Hint", place("Hint"))))
        ui.add(tools.add(Button(place("Which sizes?"), N_("Which sizes?"), self.open_explorer,
                                name="Which sizes?")))
        ui.add(code.add(Button(place("Copy"), N_("Copy"), self.copy_code, size=15,
                               name="Copy")))
        ui.add(code.add(Button(place("Enter code"), N_("Enter code"), self.enter_code, size=15,
                               name="Enter code")))


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
        neighbours (started by :meth:`position_changed`, which every change goes through).
        """
        self.play((row, col))

    def generate_new(self) -> None:
        """A new solvable board of the current size, seeded from the clock (undoable)."""
        self.new_game()

    def new_start(self) -> Board:
        """A new board of the current size (for Generate, G, N and the win screen)."""
        return self._generate(self.board.n)

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


    def hints_exhausted(self) -> bool:
        """Whether every button of the solution has been hinted (counted: a 1000×1000
        solution has ~500,000 buttons to go through otherwise)."""
        solution = self.helper.solution
        return solution is not None and len(self.hinted) >= solution.count


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
        move = self.last_move()
        n = self.board.n
        if move is None or not (0 <= move[0] < n and 0 <= move[1] < n):
            return None
        return (move[0], move[1])

    def position_changed(self, change: Change) -> None:
        """After every change of board (the midend calls this): screen-side clean-up."""
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
        super().update(dt)  # the clock, hints, the win screen (engine.screens.puzzle_scene)
        error = self._marks_picture.poll()
        if error:
            self.app.notify(error, "warning")
        # A big board's code waits for the solver: see BoardCodes.update.
        news = self.codes.update(self.board, start=not self.helper.busy)
        if news.error:
            self.app.notify(news.error, "warning")
        if news.copy is not None:
            self._put_on_clipboard(news.copy)

    def is_active(self) -> bool:
        return super().is_active() or self.codes.worker.busy or self.code_pending() \
            or self._marks_picture.busy

    def leave(self) -> None:
        super().leave()
        self._marks_picture.cancel()
        self.codes.cancel()

    # --- statistics and saving (engine.screens.puzzle_scene, engine.storage.saved_games) ----------
    @property
    def params(self) -> ButtonParams:
        """The parameters a resumed game opens with: the menu size nearest the board's."""
        return ButtonParams(menu_size(self.board.n))

    def variant_id(self) -> str:
        """Results are kept per board size (a board from a code: its own size)."""
        return SPEC.variant_id(ButtonParams(self.board.n))

    def restore_hints(self, data: Any) -> set[Any]:
        """The hinted buttons of a snapshot: (row, column) pairs within the largest board."""
        from engine.storage.saved_data import items, whole
        from games.buttons.board import MAX_N

        cells = [items(cell, Phrase(N_("a hinted button")), 2, 2)
                 for cell in items(data, Phrase(N_("the hinted buttons")), 0,
                                   self.max_saved_hints)]
        return {(whole(r, Phrase(N_("a hinted row")), 0, MAX_N - 1),
                 whole(c, Phrase(N_("a hinted column")), 0, MAX_N - 1)) for r, c in cells}

    def keeps_hint(self, move: Any) -> bool:
        """Hinted buttons off the restored board are dropped."""
        n = self.board.n
        return move[0] < n and move[1] < n

    def start_codec(self) -> tuple[Callable[[Board], Any], Callable[[Any], Board]]:
        """Boards are generated, so each is written: its side and red buttons (any size up
        to the largest a code gives, whatever the menu's)."""
        from games.buttons.board import load_state, save_state

        return save_state, lambda data: load_state(None, data)

    # --- input ---------------------------------------------------------------------------------
    def shortcuts(self) -> dict[int, Callable[[], Any]]:
        """R, H and S (here: Show solution) and the board's own keys."""
        return {**super().shortcuts(),
                pygame.K_g: self.generate_new, pygame.K_e: self.enter_code,
                pygame.K_c: self.copy_code, pygame.K_s: self.toggle_solution,
                pygame.K_MINUS: lambda: self.change_size(-1),
                pygame.K_EQUALS: lambda: self.change_size(1),
                pygame.K_PLUS: lambda: self.change_size(1)}


    def board_event(self, event: pygame.event.Event) -> None:
        n = self.board.n
        used = self.pointer.handle(event, self.geometry(), self.press, lambda: (n // 2, n // 2))
        if not used and event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                and self._beside_board(event.pos):
            self.app.audio.play("illegal")


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


    def count_moves(self, count: int) -> str:
        """A count of moves in this puzzle's words: presses."""
        return count_presses(count)

    # --- the review (engine.screens.puzzle_review_scene) -----------------------------------
    def draw_position(self, surface: pygame.Surface, state: Board, rect: pygame.Rect,
                      last: Any, upcoming: Any) -> None:
        """A board of the review filling ``rect``: buttons as on the board (a ring on
        green) up to :data:`VECTOR_LIMIT` a side, else one pixel per button scaled (made
        once per position shown); the last press framed, the next one outlined."""
        p = self.app.theme.palette
        geom = BoardGeometry(state.n, state.n, rect)
        pygame.draw.rect(surface, p.board, geom.rect)
        if state.n <= VECTOR_LIMIT:
            inset = max(1, round(geom.cell_size * 0.08))
            radius = max(2, round(geom.cell_size * 0.18))
            for r in range(state.n):
                for c in range(state.n):
                    cell = geom.cell_rect(r, c).inflate(-2 * inset, -2 * inset)
                    red = state.red(r, c)
                    pygame.draw.rect(surface, p.bad if red else p.good, cell,
                                     border_radius=radius)
                    if not red:  # not told by hue alone
                        pygame.draw.circle(surface, p.background, cell.center,
                                           cell.width * 0.22, max(1, round(cell.width / 14)))
        else:
            key = (id(state), geom.rect.size)
            cached = getattr(self, "_review_picture", None)
            if cached is None or cached[0] != key or cached[1] is not state:
                colours = np.where(state.to_grid().T[..., None], np.array(p.bad),
                                   np.array(p.good)).astype(np.uint8)
                picture = pygame.transform.scale(pygame.surfarray.make_surface(colours),
                                                 geom.rect.size)
                cached = (key, state, picture)
                self._review_picture = cached
            surface.blit(cached[2], geom.rect)
        if upcoming is not None:
            outline_cell(surface, geom, upcoming, p.accent,
                         max(2, round(geom.cell_size / 10)))
        if last is not None:
            draw_last_marker(surface, marker_rect(geom.cell_rect(*last)), p.focus,
                             p.background)

    def move_name(self, state: Board, move: Any) -> str:
        """A press as the review lists it: its row and column, counted from 1."""
        row, col = move
        return _("row {row}, column {col}").format(row=row + 1, col=col + 1)

    def review_solution(self, start: Board, cancel: threading.Event,
                        progress: Callable[[float], None]) -> tuple[list[Any] | None, bool]:
        """The fewest presses solving ``start``, and whether that is proven (the solver
        proves it unless its search ran out of time on a huge board)."""
        from games.buttons.solver import solve

        found = solve(start, cancel, progress)
        return (None if found.presses is None else list(found.presses)), found.minimal

    def win_lines(self, solved: Solved, recorded: Recorded) -> list[str]:
        """The win screen's lines: all red (in this palette's words) in presses and time."""
        best = recorded.best_before
        record = ""
        if recorded.new_best:
            record = _("A new best for this size!")
        elif best is not None:
            record = _("Best for this size: {presses}, {seconds} s.").format(
                presses=count_presses(best[0]), seconds=number_text(best[1], 1))
        return [_("All {colour} in {presses} and {seconds} s.").format(
                    colour=self.words().done, presses=count_presses(solved.moves),
                    seconds=number_text(solved.seconds, 1)),
                _("Solved with help (solution or hint).") if solved.helped
                else _("Solved without help."),
                record]


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
