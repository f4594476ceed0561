"""Button Madness drawn: the board (buttons or one picture), its marks and animations, and
the side panel (board code, presses, time, best, legend).

:class:`ButtonsView` is the drawing half of :class:`games.buttons.scene.ButtonMadnessScene`
(which mixes it in): it reads the scene's state and never changes the puzzle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from engine.core.i18n import N_, _, number_text
from engine.ui.animation import ease_out, ease_out_back, lerp
from engine.ui.board.draw import outline_cell
from engine.ui.board.geometry import BoardGeometry, Cell
from engine.ui.widgets import MIN_TEXT, wrap_fitting
from games.buttons.board_render import tiny_colours
from games.buttons.scene_layout import (
    CODE_HEAD_H,
    CODE_LINE_H,
    LEGEND_ROW_H,
    STATS_LINE_H,
    STATS_LINES,
)
from games.buttons.wording import count_presses

if TYPE_CHECKING:
    from engine.runtime.app import App
    from engine.ui.animation import Timeline
    from engine.ui.board.pointer import GridPointer
    from games.buttons.board import Board
    from games.buttons.board_render import BoardPicture, MarksPicture
    from games.buttons.wording import StateWords

# Above this size buttons are drawn as one scaled picture: a 1000×1000 board from a code
# would otherwise be a million rectangles a frame.
VECTOR_LIMIT = 40
# The side panel shows at most this many lines of the board code.
CODE_LINES = 7
WORKING_OUT_CODE = N_("working out the code…")
# Animation tracks (engine.ui.animation.Timeline keys). A press: the button flips at once,
# a ring spreads and reaches its four neighbours RIPPLE_REACH of the way through, and
# they flip then. (The completion flash is the engine's: engine.screens.puzzle_scene.)
RIPPLE_TRACK = "ripple"
RIPPLE_REACH = 0.3
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




def stats_lines(entries: list[tuple[str, int]], font: pygame.font.Font,
                width: int) -> list[tuple[str, str]]:
    """The side panel's figures as (entry, line) pairs, each entry wrapped to at most its
    own number of lines and all of them to :data:`STATS_LINES`: a line an entry above
    leaves unused goes to the ones below (a long "Help used on this board" takes a
    second line when the best result fits on one), each of which keeps at least one."""
    out: list[tuple[str, str]] = []
    for i, (text, most) in enumerate(entries):
        left = STATS_LINES - len(out) - (len(entries) - i - 1)
        out += [(text, line) for line in wrap_fitting(text, font, width, max(1, min(most, left)))]
    return out

class ButtonsView:
    """The drawing of Button Madness's screen, mixed into its scene (see the module notes).

    What it reads of the scene is declared below; the scene provides it.
    """

    app: App
    anim: Timeline
    pointer: GridPointer
    _picture: BoardPicture
    _marks_picture: MarksPicture
    _wrapped: tuple[tuple[str, int, int, Any], list[pygame.Surface]] | None

    if TYPE_CHECKING:  # provided by ButtonMadnessScene and the engine's PuzzleScene
        board: Board
        marks: np.ndarray | None
        show_solution: bool
        hinted: set[tuple[int, int]]
        helped: bool

        def geometry(self) -> BoardGeometry: ...
        def area(self, name: str) -> pygame.Rect: ...
        def words(self) -> StateWords: ...
        def tiny_buttons(self) -> bool: ...
        def flash_on(self) -> bool: ...
        def solution_cells(self, limit: int | None = None) -> list[tuple[int, int]]: ...
        def last_press(self) -> Cell | None: ...
        def code_text(self) -> str | None: ...
        def code_pending(self) -> bool: ...
        def presses(self) -> int: ...
        def best_result(self) -> tuple[int, float] | None: ...
        @property
        def puzzle(self) -> Any: ...

    def draw_board(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        p = theme.palette
        geom = self.geometry()
        board = self.board
        n = board.n
        flash = self.flash_on()
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
        font = theme.font(mark_font_size(geom.cell_size), bold=True)
        glyph = font.render("✱", True, p.accent)
        for cell in marks:
            outline_cell(surface, geom, cell, p.accent, max(2, round(geom.cell_size / 10)))
            if geom.cell_size >= 12:
                surface.blit(glyph, glyph.get_rect(center=mark_centre(geom.cell_rect(*cell))))
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
            glyph = self.app.theme.font(mark_font_size(geom.cell_size), bold=True).render(
                "✱", True, accent)
            for r, c in np.argwhere(grid):  # 12 px cells: n ≤ 46, few marks
                centre = mark_centre(geom.cell_rect(int(r), int(c)).move(-rect.x, -rect.y))
                layer.blit(glyph, glyph.get_rect(center=centre))

        layer = self._marks_picture.surface(geom, grid, accent, add_glyphs)
        if layer is not None:
            surface.blit(layer, rect)

    def _draw_side(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        small = theme.font(MIN_TEXT * vp.scale)
        code_box = self.area("code")
        heading = theme.font(MIN_TEXT * vp.scale, bold=True)
        surface.blit(heading.render(_("Board code"), True, p.muted), code_box.topleft)
        top = code_box.y + vp.px(CODE_HEAD_H)
        code = self.code_text()
        if code is None:
            text = _(WORKING_OUT_CODE) if self.code_pending() else _("not available")
            line = wrap_fitting(text, small, code_box.width, 1)[0]
            surface.blit(small.render(line, True, p.muted), (code_box.x, top))
        else:
            for i, rendered in enumerate(self._code_lines(code)):
                surface.blit(rendered, (code_box.x, top + round(i * CODE_LINE_H * vp.scale)))
        n = self.board.n
        # (An SQLite query: once per size and after each recorded result, not per frame.)
        best = self.best_result()
        entries = [(_("Presses: {count}").format(count=self.presses()), 1),
                   (_("Time: {seconds} s").format(seconds=number_text(self.puzzle.elapsed, 0)), 1),
                   (_("Best {n}×{n}: {presses}, {seconds} s").format(
                       n=n, presses=count_presses(best[0]), seconds=number_text(best[1], 0)) if best
                    else _("Best {n}×{n}: not solved yet").format(n=n), 2)]
        if self.helped:
            entries.append((_("Help used on this board"), 2))
        stats = self.area("stats")
        y = stats.y
        step = round(STATS_LINE_H * vp.scale)
        for _entry, line in stats_lines(entries, small, stats.width):
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
            lines = wrap_fitting(text, font, legend.right - left, 2)
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



def _pulse(u: float) -> float:
    """A button's scale ``u`` of the way through its pulse: shrunk, then popping back."""
    return lerp(0.72, 1.0, ease_out_back(min(1.0, max(0.0, u))))


def _lighten(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Half way to white: a button during the completion flash's bright phases."""
    return (colour[0] + 255) // 2, (colour[1] + 255) // 2, (colour[2] + 255) // 2


# The ✱ of a solution mark, as a fraction of the cell: small enough to sit inside the
# hole of the ring a green button carries (inner radius ~0.12 of the cell), so the ring
# stays whole (issue 28: at 0.45 the ✱ was drawn over the ring).
MARK_GLYPH = 0.28


def mark_font_size(cell_size: float) -> float:
    """The font size of a solution mark's ✱ on cells of ``cell_size`` pixels."""
    return max(8.0, cell_size * MARK_GLYPH)


def mark_centre(cell: pygame.Rect) -> tuple[int, int]:
    """Where a solution mark's ✱ is centred: the cell's centre (inside a ring)."""
    return cell.center


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

