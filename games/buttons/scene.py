"""Button Madness on screen: press buttons on a torus until every one is red."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from engine.ai.runner import AIRunner
from engine.board.draw import draw_cell_text, outline_cell
from engine.board.geometry import BoardGeometry
from engine.board.pointer import GridPointer
from engine.game_scene import GameScene
from engine.history import History
from engine.overlays import Overlay, TextEntryDialog
from engine.widgets import Button, Label
from games.buttons.board import Board, CodeError, format_code, generate, parse_code

if TYPE_CHECKING:
    from engine.app import App

GAME_ID = "button-madness"
BOARD_AREA = (220.0, 84.0, 560.0, 560.0)
MIN_N, MAX_MENU_N = 2, 20
# Above this size buttons are drawn as one scaled picture: a 1000×1000 board from a code
# would otherwise be a million rectangles a frame.
VECTOR_LIMIT = 40
FLASH_SECONDS = 0.18

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
    """One history step: the board, and whether it started an attempt (new, code, restart)."""

    board: Board
    start: bool = False


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
        self.history: History[Entry] = History(Entry(board, start=True))
        self.origin = board
        self.solver = AIRunner()
        self.marks: set[tuple[int, int]] | None = None  # Show solution, for the shown board
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
        return self.history.current.board

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
        self.history.push(Entry(board, start=True))
        self._new_attempt()

    def _new_attempt(self) -> None:
        self.started_at = None
        self.helped = False
        self.hinted = set()
        self._changed()

    def _changed(self) -> None:
        self.flash = {}
        self.marks = None
        self._asked = None
        self.solver.cancel()
        self.unsolvable = False
        # A new size (Generate, +/-, a code, undo across sizes) may leave the hovered or
        # keyboard cell outside the board: forget it rather than draw or press it.
        n = self.board.n
        for attr in ("hover", "cursor"):
            cell = getattr(self.pointer, attr)
            if cell is not None and not (cell[0] < n and cell[1] < n):
                setattr(self.pointer, attr, None)

    # --- actions -----------------------------------------------------------------------
    def press(self, row: int, col: int) -> None:
        """Press one button (undoable)."""
        before = self.board
        after = before.press(row, col)
        if self.started_at is None:
            self.started_at = time.monotonic()
        self.history.push(Entry(after))
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
        self.history.push(Entry(self.origin, start=True))
        self._new_attempt()

    def undo(self) -> None:
        if self.history.undo():
            self._changed()

    def redo(self) -> None:
        if self.history.redo():
            self._changed()

    def can_undo(self) -> bool:
        return self.history.can_undo

    def can_redo(self) -> bool:
        return self.history.can_redo

    def new_game(self) -> None:
        self.generate_new()

    def copy_code(self) -> None:
        """Put the board's code on the clipboard (or say where to read it)."""
        code = format_code(self.board)
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
                parse_code(text)
            except CodeError as exc:
                return str(exc)
            return None

        self.app.push(TextEntryDialog(self.app, "Board code (4×4: 0-65535, or NxN:NUMBER)",
                                      self.load_code, validate, max_length=400_000))

    def load_code(self, text: str) -> None:
        """Load the board of a (valid) code as a new attempt."""
        self._start(parse_code(text))

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
        remaining = sorted(self.marks - self.hinted)
        if remaining:
            self.hinted.add(remaining[0])

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
        if warning:
            self.app.notify(warning)
        self.app.push(WinOverlay(self.app, self, self.presses(), seconds, self.helped,
                                 best_before))

    # --- solving off the frame loop -------------------------------------------------------------
    def update(self, dt: float) -> None:
        super().update(dt)
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
            from games.buttons.solver import solve

            self._asked = board
            self.progress = 0.0

            def task(cancel: Any) -> Any:
                return solve(board, cancel, progress=self._set_progress)

            self.solver.submit(task, tag=board)

    def _set_progress(self, fraction: float) -> None:
        self.progress = fraction  # written by the solver thread, read by the frame loop

    def _take_solution(self, solution: Any) -> None:
        self.solution_note = solution.method
        if solution.presses is None:
            self.unsolvable = True
            self.marks = set()
            return
        self.marks = set(solution.presses)
        # Hints already given stay marked while they are still part of the solution.
        self.hinted &= self.marks
        if self._want_hint:
            self._want_hint = False
            remaining = sorted(self.marks - self.hinted)
            if remaining:
                self.hinted.add(remaining[0])

    def busy_label(self) -> str | None:
        if self.solver.busy:
            return f"solving… {round(self.progress * 100)}%"
        return super().busy_label()

    def is_active(self) -> bool:
        return super().is_active() or self.solver.busy or bool(self.flash) or \
            self.started_at is not None and not self.board.is_solved

    def leave(self) -> None:
        super().leave()
        self.solver.cancel()

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
            text += f" Solution: {len(self.marks)} more presses ({self.solution_note})."
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
        marks = set()
        if self.marks is not None:
            marks = set(self.marks) if self.show_solution else set(self.hinted) & self.marks
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
        import numpy as np

        p = self.app.theme.palette
        n = self.board.n
        bits = np.frombuffer(self.board.bits.to_bytes((n * n + 7) // 8, "little"), np.uint8)
        red = np.unpackbits(bits, bitorder="little")[: n * n].reshape(n, n).astype(bool)
        pixels = np.where(red[..., None], np.array(p.bad, np.uint8), np.array(p.good, np.uint8))
        picture = pygame.surfarray.make_surface(pixels.transpose(1, 0, 2))
        surface.blit(pygame.transform.scale(picture, geom.rect.size), geom.rect)

    def _draw_side(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        small = theme.font(13 * vp.scale)
        code = format_code(self.board)
        surface.blit(theme.font(13 * vp.scale, bold=True).render("Board code", True, p.muted),
                     vp.point(16, 116))
        # Codes have no spaces to wrap at: break them by characters, at most 7 lines.
        font = theme.font(15 * vp.scale, bold=True)
        width = vp.rect(16, 0, 188, 1).width
        lines: list[str] = []
        rest = code
        while rest and len(lines) < 7:
            cut = len(rest)
            while cut > 1 and font.size(rest[:cut])[0] > width:
                cut -= 1
            lines.append(rest[:cut])
            rest = rest[cut:]
        if rest:
            lines[-1] = lines[-1][:-1] + "…"
        for i, line in enumerate(lines):
            surface.blit(font.render(line, True, p.accent),
                         vp.point(16, 136 + i * 20))
        elapsed = 0.0
        if self.started_at is not None:
            elapsed = time.monotonic() - self.started_at
        n = self.board.n
        best = self.app.stats.best_puzzle(GAME_ID, f"{n}x{n}")
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

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "ButtonMadnessScene", "code": format_code(self.board),
                "n": self.board.n, "solved": self.board.is_solved, "presses": self.presses(),
                "marks": sorted(list(m) for m in (self.marks or ())),
                "hinted": sorted(list(m) for m in self.hinted), "helped": self.helped,
                "unsolvable": self.unsolvable, "status": self.status_text()}


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
