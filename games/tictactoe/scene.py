"""The tic-tac-toe family on screen: any board, any seat human or computer, hints."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pygame
from pygame import FRect

from engine.core.i18n import N_, _, translate_filled
from engine.model.game_settings import load_params
from engine.model.seats import Seat
from engine.screens.turn_scene import TurnBasedScene
from engine.ui.animation import APPEAR, SWEEP, ease_out, ease_out_back
from engine.ui.board.draw import draw_grid, draw_mark, draw_win_line, fill_cell
from engine.ui.board.geometry import BoardGeometry
from engine.ui.board.pointer import GridPointer
from engine.ui.game_layout import extras_boxes
from engine.ui.value_overlay import (
    draw_value_legend,
    draw_values,
    hint_note,
    hint_status,
    outcome_colour,
)
from engine.ui.widgets import MIN_TEXT, Label, fit_text, wrap_text
from games.tictactoe.advice import OUTLOOKS, is_bad, list_certainty
from games.tictactoe.descriptor import GAME
from games.tictactoe.rules import EMPTY, SYMBOLS, MNKConfig, TicTacToeState
from games.tictactoe.threats import REASONS
from games.tictactoe.variants import variant_label

if TYPE_CHECKING:
    from engine.runtime.app import App

# Long enough for exact hints from the empty 5×5 k4 board (about 1.5 s here).
HINT_BUDGET = 3.0
# The extras column: the variant's name, then the hint legend (its title, four rows
# and a note, as engine.ui.value_overlay.draw_value_legend draws them).
VARIANT_H = 56.0
LEGEND_H = 226.0
# With three players (no hints) the legend block says what the last-move frames mean:
# a title and two rows, each a sample frame and a line or two of text.
MARKS_LEGEND_H = 150.0
MARKS_TITLE = N_("Last moves")
MARK_LATEST = N_("the last move")
MARK_BEFORE = N_("the move before it")
# The same where the hint may rank squares instead (boards past 4×4, where the exact
# values can run out of time): "Best moves", four rows of up to four lines, and a note.
RANKED_LEGEND_H = 380.0
# Boards of at most this many cells are always solved within the hint's budget.
ALWAYS_EXACT_CELLS = 16
EXTRAS_BOX_W = 200.0  # each block's width when they stand side by side under the board
# Under the ranked squares of a board too big to solve (their legend).
ESTIMATE_NOTE = N_("Too big to solve: the best squares a search found.")
# The same when the first square is proven (its distance out of reach).
PROVEN_RANK_NOTE = N_("1: proven, moves to the end not worked out. The others: the best "
                      "squares a search found.")
# The same when the first square's moves to the end are proven too (it wins now).
EXACT_RANK_NOTE = N_("1: proven, moves to the end included. The others: the best squares "
                     "a search found.")
# When every ranked square is proven (the others were left out as bad).
ALL_PROVEN_NOTE = N_("Proven. The squares left out look bad.")
# The ranked list's title: "Best moves", unless every ranked square looks bad.
BEST_TITLE = N_("Best moves")
LEAST_BAD_TITLE = N_("Least bad moves")
# Least design height of one row of the ranked hint's legend (its badge); a row is as
# tall as its reason and outlook need at MIN_TEXT in the narrow column beside the board.
RANK_ROW_H = 40.0
# Seconds the finished board shows, line and all, before the result panel.
RESULT_PAUSE = 0.05
# Opacity of the mark a click would place, under the pointer.
GHOST_ALPHA = 70


class TicTacToeScene(TurnBasedScene):
    """Board, player cards and hint overlay; seats and computer from TurnBasedScene."""

    hint_budget = HINT_BUDGET

    def __init__(self, app: App, config: MNKConfig | None = None,
                 seats: tuple[Seat, ...] | None = None, seed: int | None = None) -> None:
        config = config or load_params(app.settings, GAME)
        self.config = config
        super().__init__(app, GAME, config, TicTacToeState.new(config), seats, seed)
        self.pointer = GridPointer()
        self._layers: dict[str, tuple[tuple[Any, ...], pygame.Surface]] = {}
        # Where the last-move legend's sample frames were drawn (pixels; three players).
        self.marks_legend_rects: list[pygame.Rect] = []
        self.ui.add(Label(self.place("variant"), lambda: variant_label(self.config), size=15,
                          role="muted", fit_lines=3, min_size=12))

    # --- layout -----------------------------------------------------------------------
    def extras_height(self) -> float:
        # Under the board the label and legend stand side by side (extras_boxes).
        if self.hints_available() or self.config.players > 2:
            return max(VARIANT_H, self.legend_height())
        return VARIANT_H

    def legend_height(self) -> float:
        """The legend's design height: taller where the hint may rank squares; with three
        players, the last-move frames' legend."""
        if self.config.players > 2:
            return MARKS_LEGEND_H
        if self.config.rows * self.config.cols > ALWAYS_EXACT_CELLS:
            return RANKED_LEGEND_H
        return LEGEND_H

    def board_aspect(self) -> float:
        return self.config.cols / self.config.rows

    def layout_body(self, body: FRect) -> dict[str, FRect]:
        """The turn-based layout plus the variant label and hint legend in "extras"."""
        rects = super().layout_body(body)
        rects["variant"], rects["legend"] = extras_boxes(
            rects["extras"], (VARIANT_H, self.legend_height()), EXTRAS_BOX_W)
        return rects

    # --- TurnBasedScene hooks -------------------------------------------------------------
    def fresh_state(self) -> TicTacToeState:
        return TicTacToeState.new(self.config)

    def hint_task(self, state: Any) -> Any:
        """Exact values where the board can be solved within the hint budget, else the few
        best squares, ranked with reasons (games.tictactoe.advice), off the frame loop."""
        from games.tictactoe.advice import hint_report

        budget = self.hint_budget
        return lambda cancel: hint_report(state, cancel, budget)

    def candidates(self) -> list[Any] | None:
        """The ranked squares of the hint on screen (games.tictactoe.advice.Candidate), or
        None where the hint gives every square its exact value."""
        extra = self.hint_extra_value
        return extra if self.hints and isinstance(extra, list) else None

    # Only the three-player board has no hints.
    no_hints_note = N_("Hints are available in two-player games.")

    def hints_available(self) -> bool:
        return self.config.players == 2

    def player_name(self, player: int) -> str:
        return SYMBOLS[player]

    def draw_player_badge(self, surface: pygame.Surface, rect: pygame.Rect, player: int) -> None:
        draw_mark(surface, rect, player, self.app.theme.palette.players[player])

    def open_setup(self) -> None:
        """Choose board and seats (an overlay; Start replaces this game)."""
        from games.tictactoe.setup_scene import SetupOverlay

        self.app.push(SetupOverlay(self.app, self))

    # --- board -------------------------------------------------------------------------
    def geometry(self) -> BoardGeometry:
        """Board placement for the current window size."""
        return BoardGeometry(self.config.rows, self.config.cols, self.area("board"))

    def play(self, row: int, col: int) -> bool:
        """Play the human mover's mark at (row, col) if legal; returns whether it was."""
        return self.play_move(row * self.config.cols + col)

    def _push(self, state: TicTacToeState) -> None:
        """Set a position directly (tests and screenshots)."""
        self.push(state)

    # --- feel: animation and last-move markers (the sound is the default "place") --
    def on_moved(self, before: TicTacToeState, after: TicTacToeState) -> None:
        """The new mark pops in; a completed line sweeps in once it has landed."""
        if after.last_move is None or after.moves_made != before.moves_made + 1:
            return  # not one move (a position set directly): nothing to animate
        self.anim.start(("appear", after.last_move), APPEAR)
        if after.win_line:
            self.anim.start("sweep", SWEEP, delay=APPEAR / 2)

    def result_delay(self, state: TicTacToeState) -> float:
        """The result waits for the winning line to sweep in after the last mark."""
        if not state.win_line:
            return super().result_delay(state)
        return APPEAR / 2 + SWEEP + RESULT_PAUSE

    def marked_moves(self) -> list[tuple[int, bool]]:
        """Cells the board marks as recent moves, as (cell index, whether it is the latest).

        Always the latest move; with three players or the computer in every seat also
        each other seat's last move, since several moves land between two looks. With
        three players, never the own last move of the seat about to play: the marks are
        the moves made since its last turn, the last (solid) and the one before it
        (dashed), as the legend beside the board says.
        """
        latest = self.state.last_move
        if latest is None:
            return []
        marked = [(latest, True)]
        if self.all_computers() or len(self.seats) > 2:
            to_move = self.state.to_move
            for seat, (_before, after) in self.last_moves().items():
                if seat == to_move and len(self.seats) > 2:
                    continue
                move = after.last_move
                if move is not None and all(move != m for m, _u in marked):
                    marked.append((move, False))
        return marked

    def status_text(self) -> str:
        s = self.state
        if s.winner is not None:
            return _("{mark} wins! {k} in a row. New game (N) to play again.").format(
                mark=SYMBOLS[s.winner], k=self.config.k)
        if s.is_draw:
            return _("Draw: the board is full and nobody completed a line.")
        text = self.turn_text(_("click an empty square."))
        if self.show_hints and self.hints and not self.note:
            ranked = self.candidates()
            if ranked:
                # The same source as the legend's note (advice.list_certainty).
                text += " " + {
                    "proven": _("Hint: best squares, ranked; all proven."),
                    "proven first": _("Hint: best squares, ranked; the first is proven, "
                                      "the rest estimated."),
                    "estimate": _("Hint: best squares, ranked (an estimate)."),
                }[list_certainty(ranked)]
            else:
                text += hint_status(self.hints)
        return text

    # --- input -----------------------------------------------------------------------
    def board_event(self, event: pygame.event.Event) -> None:
        cfg = self.config
        self.pointer.handle(event, self.geometry(), self.play,
                            lambda: (cfg.rows // 2, cfg.cols // 2))

    # --- drawing --------------------------------------------------------------------------
    def draw_board(self, surface: pygame.Surface) -> None:
        p = self.app.theme.palette
        geom = self.geometry()
        state = self.state
        cols = self.config.cols
        self._blit_cached(surface, geom, "grid", (),
                          lambda layer, g: draw_grid(layer, g, p.board, p.grid), alpha=False)
        over = state.is_terminal()
        human = not over and not self.seats[state.to_move].is_computer
        hover, cursor = self.pointer.hover, self.pointer.cursor
        hover_ok = hover is not None and human and state.cell(*hover) == EMPTY
        if hover_ok:
            fill_cell(surface, geom, hover, p.hover)
        marked = [(divmod(move, cols), latest) for move, latest in self.marked_moves()]
        for cell, latest in marked:
            if latest:  # a tint under the newest mark, so it reads even at a glance
                fill_cell(surface, geom, cell, p.focus, 60)
        if self.show_hints and self.hints and not over:
            self._draw_hints(surface, geom)
        if state.win_line:
            # Under the marks: a line on top hid the stroke of each X that runs along it.
            sweep = self.anim.progress("sweep")
            cells = [divmod(i, cols) for i in state.win_line]
            draw_win_line(surface, geom, cells, p.win_line, p.background,
                          1.0 if sweep is None else ease_out(sweep))
        popping = {key[1]: self.anim.progress(key) for key in self.anim.running("appear")}
        # The settled marks come from a layer redrawn only when they change: a 15×15 board
        # draws a hundred marks, and one blit keeps frames short while the computer thinks.
        self._blit_cached(surface, geom, "marks", (state, tuple(sorted(popping))),
                          lambda layer, g: self._draw_marks(layer, g, state, popping))
        for move, t in popping.items():
            r, c = divmod(move, cols)
            owner = state.cell(r, c)
            if owner != EMPTY and t is not None:
                self._draw_mark_layer(surface, mark_box(geom, r, c), owner,
                                      max(0.0, ease_out_back(t)), round(255 * ease_out(t)))
        for cell, latest in marked:
            self._draw_last_move(surface, geom, cell, latest)
        if hover_ok and not self.hints:
            # A faint preview of the mark the click would place.
            self._draw_mark_layer(surface, mark_box(geom, *hover), state.to_move, 1.0,
                                  GHOST_ALPHA)
        if cursor is not None:
            self._draw_cursor(surface, geom, cursor)
        self.draw_player_cards(surface)
        if self.show_hints and self.config.players == 2:
            self._draw_hint_legend(surface)
        if self.config.players > 2:
            self._draw_marks_legend(surface)

    def _draw_marks_legend(self, surface: pygame.Surface) -> None:
        """What the frames mean: solid for the last move, dashed for the one before it
        (three players: between two of your turns two moves land)."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        box = self.layout()["legend"]
        self.marks_legend_rects = []
        title = theme.font(15 * vp.scale, bold=True).render(_(MARKS_TITLE), True, p.text)
        surface.blit(title, vp.point(box.x, box.y))
        font = theme.font(14 * vp.scale)
        sample_d = 36.0
        text_w = max(1, vp.px(box.w - sample_d - 12))
        for row, (latest, text) in enumerate(((True, MARK_LATEST), (False, MARK_BEFORE))):
            y = box.y + 30 + row * 58
            sample = vp.rect(box.x, y, sample_d, sample_d)
            pygame.draw.rect(surface, p.board, sample)
            size = sample.width
            inset = max(2, round(size / 18))
            frame = sample.inflate(-2 * inset, -2 * inset)
            if latest:  # drawn as draw_board and _draw_last_move draw them
                tint = pygame.Surface(sample.size, pygame.SRCALPHA)
                tint.fill((*p.focus, 60))
                surface.blit(tint, sample)
                pygame.draw.rect(surface, p.focus, frame, max(3, round(size / 14)),
                                 border_radius=max(3, round(size / 10)))
            else:
                _dashed_rect(surface, p.focus, frame, max(2, round(size / 20)),
                             max(4, round(size / 9)))
            lines = wrap_text(_(text), font, text_w)[:2]
            ty = sample.centery - len(lines) * font.get_linesize() // 2
            for line in lines:
                surface.blit(font.render(line, True, p.text), (sample.right + vp.px(12), ty))
                ty += font.get_linesize()
            self.marks_legend_rects.append(sample)

    def _draw_marks(self, layer: pygame.Surface, geom: BoardGeometry, state: Any,
                    skip: dict[int, Any]) -> None:
        """Every mark on the board except those popping in (``skip``), onto ``layer``."""
        players = self.app.theme.palette.players
        cols = self.config.cols
        for r in range(self.config.rows):
            for c in range(cols):
                owner = state.cell(r, c)
                if owner != EMPTY and r * cols + c not in skip:
                    draw_mark(layer, mark_box(geom, r, c), owner, players[owner])

    def _blit_cached(self, surface: pygame.Surface, geom: BoardGeometry, name: str,
                     key: tuple[Any, ...], paint: Any, alpha: bool = True) -> None:
        """Blit layer ``name`` (the board's size), repainted by ``paint(layer, geometry)``
        only when the board's place, the palette or ``key`` changed."""
        box = geom.rect
        full = (tuple(box), self.app.theme.palette, *key)
        cache = self._layers.get(name)
        if cache is None or len(cache[0]) != len(full) or any(
                a is not b and a != b for a, b in zip(cache[0], full, strict=True)):
            flags = pygame.SRCALPHA if alpha else 0
            layer = pygame.Surface(box.size, flags)
            # The same geometry shifted by whole pixels, so the layer's cells round exactly
            # like the screen's.
            local = BoardGeometry(geom.rows, geom.cols, geom.area.move(-box.x, -box.y))
            paint(layer, local)
            cache = (full, layer)
            self._layers[name] = cache
        surface.blit(cache[1], box.topleft)

    def _draw_mark_layer(self, surface: pygame.Surface, cell: pygame.Rect, player: int,
                         scale: float, alpha: int) -> None:
        """``player``'s mark in ``cell`` at ``scale`` and ``alpha``, through a layer the size
        of one cell (a pop-in or the hover preview; never a window-sized surface)."""
        size = round(min(cell.width, cell.height) * scale)
        if size < 2 or alpha <= 0:
            return
        side = math.ceil(max(cell.width, cell.height) * max(1.0, scale)) + 2
        layer = pygame.Surface((side, side), pygame.SRCALPHA)
        box = pygame.Rect(0, 0, size, size)
        box.center = (side // 2, side // 2)
        draw_mark(layer, box, player, self.app.theme.palette.players[player])
        layer.set_alpha(max(0, min(255, alpha)))
        surface.blit(layer, layer.get_rect(center=cell.center))

    def _draw_last_move(self, surface: pygame.Surface, geom: BoardGeometry,
                        cell: tuple[int, int], latest: bool) -> None:
        """A frame in the focus colour inset in the cell: solid and thick (over a tint
        drawn under the mark) for the latest move, dashed for another seat's last move.
        Told by shape and thickness as well as colour; clear of the mark itself."""
        p = self.app.theme.palette
        size = geom.cell_size
        inset = max(2, round(size / 18))
        frame = geom.cell_rect(*cell).inflate(-2 * inset, -2 * inset)
        if latest:
            width = max(3, round(size / 14))
            pygame.draw.rect(surface, p.focus, frame, width, border_radius=max(3, round(size / 10)))
        else:
            _dashed_rect(surface, p.focus, frame, max(2, round(size / 20)),
                         max(4, round(size / 9)))

    def _draw_cursor(self, surface: pygame.Surface, geom: BoardGeometry,
                     cell: tuple[int, int]) -> None:
        """The keyboard cursor: corner brackets in the text colour (unlike the last-move
        frame, so both read when they share a cell)."""
        colour = self.app.theme.palette.text
        rect = geom.cell_rect(*cell).inflate(-4, -4)
        width = max(2, round(geom.cell_size / 24))
        arm = max(4, round(rect.width / 4))
        for x, y, sx, sy in ((rect.left, rect.top, 1, 1), (rect.right - 1, rect.top, -1, 1),
                             (rect.left, rect.bottom - 1, 1, -1),
                             (rect.right - 1, rect.bottom - 1, -1, -1)):
            pygame.draw.line(surface, colour, (x, y), (x + sx * arm, y), width)
            pygame.draw.line(surface, colour, (x, y), (x, y + sy * arm), width)

    def _draw_hints(self, surface: pygame.Surface, geom: BoardGeometry) -> None:
        cols = self.config.cols
        ranked = self.candidates()
        if ranked is None:
            draw_values(surface, geom, [(divmod(m, cols), v) for m, v in self.hints.items()],
                        self.app.theme)
            return
        p = self.app.theme.palette
        for candidate in ranked:
            colour = outcome_colour(p, candidate.value.outcome)
            for cell in candidate.cells:
                square = divmod(cell, cols)
                fill_cell(surface, geom, square, colour, 70)
                rect = geom.cell_rect(*square)
                self._draw_rank_badge(surface, rect.center, geom.cell_size * 0.3,
                                      candidate.rank, colour)

    def _draw_rank_badge(self, surface: pygame.Surface, centre: tuple[int, int], radius: float,
                         rank: int, colour: tuple[int, int, int]) -> None:
        """A round badge with ``rank`` in it: the number says the order, the colour (the
        estimate's outcome) only repeats what the legend's words say."""
        theme = self.app.theme
        p = theme.palette
        r = max(6.0, radius)
        pygame.draw.aacircle(surface, colour, centre, r)
        pygame.draw.aacircle(surface, p.background, centre, r, max(1, round(r / 6)))
        text = theme.font(max(8.0, r * 1.3), bold=True).render(str(rank), True, p.background)
        surface.blit(text, text.get_rect(center=centre))

    def _draw_hint_legend(self, surface: pygame.Surface) -> None:
        box = self.layout()["legend"]
        ranked = self.candidates()
        if ranked is None:
            draw_value_legend(surface, self.app.viewport, self.app.theme, box.x, box.y,
                              width=box.w, note=hint_note(self.hints))
            return
        self._draw_ranked_legend(surface, box, ranked)

    def _draw_ranked_legend(self, surface: pygame.Surface, box: FRect,
                            ranked: list[Any]) -> None:
        """The ranked squares' reasons, one row each under a title, and a note on what is
        proven and what estimated; the rows all in one size, the largest every row fits."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        # The title on one line where it fits, else two (a language's title may be long).
        head = vp.rect(box.x, box.y, box.w, 40)
        used, lines, _short = fit_text(theme, _(ranked_title(ranked)), head.size, 15, MIN_TEXT,
                                       vp.scale, True, 2)
        font = theme.font(used * vp.scale, bold=True)
        for i, line in enumerate(lines):
            surface.blit(font.render(line, True, p.text),
                         (head.x, head.y + i * font.get_linesize()))
        y = box.y + 6 + len(lines) * font.get_linesize() / vp.scale
        # Each row as tall as its words need at the smallest text size (a long reason
        # takes four lines in a narrow column, most take two or three); every row is
        # drawn in one size, the largest that each of them fits.
        smallest = theme.font(MIN_TEXT * vp.scale)
        rows = []
        for candidate in ranked:
            words = (f"{translate_filled(candidate.reason, REASONS)} · "
                     f"{translate_filled(candidate.outlook, OUTLOOKS)}")
            lines = len(wrap_text(words, smallest, vp.px(box.w - 30)))
            row_h = max(RANK_ROW_H, lines * smallest.get_linesize() / vp.scale + 6)
            rows.append((candidate, y, vp.rect(box.x + 30, y, box.w - 30, row_h - 4), words))
            y += row_h
        size = min((self._fitted_size(words, room, 15, MIN_TEXT)
                    for _c, _y, room, words in rows), default=MIN_TEXT)
        for candidate, top, room, words in rows:
            colour = outcome_colour(p, candidate.value.outcome)
            self._draw_rank_badge(surface, vp.point(box.x + 12, top + 17), vp.px(11),
                                  candidate.rank, colour)
            self._draw_fitted(surface, words, room, size, size, p.text)
        note = vp.rect(box.x, y + 2, box.w, box.y + box.h - y - 2)
        self._draw_fitted(surface, ranked_note(ranked), note, MIN_TEXT, MIN_TEXT, p.muted)

    def _fitted_size(self, text: str, rect: pygame.Rect, size: float,
                     min_size: float) -> float:
        """The design size ``text`` (translated) fits ``rect`` at, from ``size`` down to
        ``min_size``."""
        if rect.width <= 0 or rect.height <= 0:
            return min_size
        used, _lines, _short = fit_text(self.app.theme, _(text), rect.size, size, min_size,
                                        self.app.viewport.scale)
        return used

    def _draw_fitted(self, surface: pygame.Surface, text: str, rect: pygame.Rect,
                     size: float, min_size: float, colour: tuple[int, int, int]) -> None:
        """``text`` shrunk and wrapped (ending in "…" only if even ``min_size`` is too big)
        into ``rect``, from its top left."""
        if rect.width <= 0 or rect.height <= 0:
            return
        vp, theme = self.app.viewport, self.app.theme
        used, lines, _short = fit_text(theme, _(text), rect.size, size, min_size, vp.scale)
        font = theme.font(used * vp.scale)
        y = rect.y
        for line in lines:
            surface.blit(font.render(line, True, colour), (rect.x, y))
            y += font.get_linesize()

    def debug_state(self) -> dict[str, Any]:
        s = self.state
        return {**super().debug_state(), "board": s.to_rows(),
                "winner": None if s.winner is None else SYMBOLS[s.winner],
                "draw": s.is_draw, "to_move": SYMBOLS[s.to_move],
                "win_line": list(s.win_line),
                "hints": {str(m): v.label() for m, v in self.hints.items()},
                "ranked": [{"rank": c.rank, "cells": list(c.cells), "reason": c.reason,
                            "outlook": c.outlook, "value": c.value.label()}
                           for c in self.candidates() or ()]}


def ranked_title(ranked: list[Any]) -> str:
    """The ranked list's title (English, marked): "Best moves", or "Least bad moves"
    where the first row looks bad (then every row does: advice.hint_report)."""
    return LEAST_BAD_TITLE if ranked and is_bad(ranked[0]) else BEST_TITLE


def ranked_note(ranked: list[Any]) -> str:
    """The note under the ranked list (English, marked), true of its rows: which are
    proven (advice.list_certainty, as the status line), and whether rank 1's moves to the
    end are worked out."""
    kind = list_certainty(ranked)
    if kind == "estimate":
        return ESTIMATE_NOTE
    if kind == "proven":
        return ALL_PROVEN_NOTE
    return EXACT_RANK_NOTE if ranked[0].certainty == "exact" else PROVEN_RANK_NOTE


def mark_box(geom: BoardGeometry, row: int, col: int) -> pygame.Rect:
    """The square a mark is drawn in: the same size in every cell, centred on the cell.

    Cells differ by a pixel where their edges round differently; marks sized from each
    cell's own rectangle would differ with them.
    """
    side = max(1, math.floor(geom.cell_size))
    box = pygame.Rect(0, 0, side, side)
    box.center = geom.cell_rect(row, col).center
    return box


def smoke_variants(app: App, frames: Any) -> list[str]:
    """For --smoke: every preset with computer seats (all levels), hints on, a few frames."""
    from games.tictactoe.variants import LEVELS, PRESETS, variant_id

    opened = []
    for i, preset in enumerate(PRESETS):
        seats = tuple(Seat("computer", LEVELS[(i + j) % len(LEVELS)])
                      for j in range(preset.params.players))
        scene = app.push(TicTacToeScene(app, preset.params, seats, seed=i))
        scene.show_hints = preset.params.players == 2
        frames(3)
        app.pop()
        opened.append(variant_id(preset.params))
    return opened


def _dashed_rect(surface: pygame.Surface, colour: tuple[int, int, int], rect: pygame.Rect,
                 width: int, dash: int) -> None:
    """A frame of dashes ``dash`` long with equal gaps, ``width`` thick, inside ``rect``."""
    half = width // 2
    left, top = rect.left + half, rect.top + half
    right, bottom = rect.right - 1 - half, rect.bottom - 1 - half
    for (x0, y0), (x1, y1) in (((left, top), (right, top)), ((right, top), (right, bottom)),
                               ((right, bottom), (left, bottom)), ((left, bottom), (left, top))):
        length = max(abs(x1 - x0), abs(y1 - y0))
        ux, uy = (x1 - x0) / max(1, length), (y1 - y0) / max(1, length)
        for start in range(0, length, 2 * dash):
            end = min(length, start + dash)
            pygame.draw.line(surface, colour, (x0 + ux * start, y0 + uy * start),
                             (x0 + ux * end, y0 + uy * end), width)
