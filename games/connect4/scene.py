"""Connect Four on screen: click a column to drop a disc; seats, hints and undo from the engine."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pygame
from pygame import FRect

from engine.core.i18n import _
from engine.model.game_settings import load_params
from engine.model.seats import Seat
from engine.screens.turn_scene import TurnBasedScene
from engine.ui.animation import SWEEP, ease_in, ease_out, lerp
from engine.ui.animation import fall_time as gravity_time
from engine.ui.board.draw import draw_win_line, outline_cell
from engine.ui.board.geometry import BoardGeometry
from engine.ui.board.pointer import GridPointer
from engine.ui.game_layout import extras_boxes
from engine.ui.value_overlay import draw_value_legend, draw_values, hint_note, hint_status
from engine.ui.widgets import Label
from games.connect4.descriptor import GAME
from games.connect4.params import SPEC
from games.connect4.rules import EMPTY, SYMBOLS, Connect4Config, Connect4State

if TYPE_CHECKING:
    from engine.runtime.app import App

# Seconds a hint may search (exact where it can be proven in that time).
HINT_BUDGET = 2.0
# The extras column: the board's name, then the hint legend (its title, four rows and
# a note, as engine.ui.value_overlay.draw_value_legend draws them).
VARIANT_H = 56.0
LEGEND_H = 226.0
EXTRAS_BOX_W = 200.0  # each block's width when they stand side by side under the board
# Seconds a disc takes to fall one row (longer drops take longer, not linearly).
FALL_ONE_ROW = 0.18
# A landed disc settles with a small bounce: this long, this high (in cells).
BOUNCE = 0.12
BOUNCE_HEIGHT = 0.08
# Seconds the finished board shows, line and all, before the result panel.
RESULT_PAUSE = 0.05
# Dashes in the ring round the other computer's last disc.
DASHES = 8
# A disc's radius, in cells.
DISC = 0.4
# The winning cells' frames: near-black, at least 5:1 against the yellow board and every
# disc colour of both palettes (the line's own pale yellow vanished on the board).
WIN_FRAME = (12, 12, 16)
# Opacity of the disc showing where a click would land.
GHOST_ALPHA = 90
# The four directions a line can run in, as (row step, column step).
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def fall_time(rows: float) -> float:
    """Seconds for a disc to fall ``rows`` cells (under gravity: as the square root)."""
    return gravity_time(rows, FALL_ONE_ROW)


class Connect4Scene(TurnBasedScene):
    """Board, drop row, player cards and hints; seats and computer from TurnBasedScene."""

    hint_budget = HINT_BUDGET

    def __init__(self, app: App, config: Connect4Config | None = None,
                 seats: tuple[Seat, ...] | None = None, seed: int | None = None) -> None:
        config = config or load_params(app.settings, GAME)
        self.config = config
        super().__init__(app, GAME, config, Connect4State.new(config), seats, seed)
        # The pointer works on the drop row plus the board; only the column counts.
        self.pointer = GridPointer()
        self._ghost: tuple[tuple[Any, ...], pygame.Surface] | None = None
        self.ui.add(Label(self.place("variant"), lambda: SPEC.label(self.config), size=15,
                          role="muted", fit_lines=3, min_size=12))

    # --- layout ---------------------------------------------------------------------------
    def extras_height(self) -> float:
        return max(VARIANT_H, LEGEND_H)  # side by side under the board (extras_boxes)

    def board_aspect(self) -> float:
        return self.config.cols / (self.config.rows + 1)  # the drop row above the board

    def layout_body(self, body: FRect) -> dict[str, FRect]:
        """The turn-based layout plus the board's name and hint legend in "extras"."""
        rects = super().layout_body(body)
        rects["variant"], rects["legend"] = extras_boxes(rects["extras"], (VARIANT_H, LEGEND_H),
                                                         EXTRAS_BOX_W)
        return rects

    # --- TurnBasedScene hooks ----------------------------------------------------------------
    def fresh_state(self) -> Connect4State:
        return Connect4State.new(self.config)

    def player_name(self, player: int) -> str:
        return SYMBOLS[player]

    def draw_player_badge(self, surface: pygame.Surface, rect: pygame.Rect, player: int) -> None:
        p = self.app.theme.palette
        radius = min(rect.width, rect.height) * 0.4
        pygame.draw.circle(surface, p.players[player], rect.center, radius)
        pygame.draw.circle(surface, p.text, rect.center, radius, max(1, round(radius / 10)))
        _draw_disc_sign(surface, rect.center, radius, player, p.background)

    # --- board ---------------------------------------------------------------------------
    def geometry(self) -> BoardGeometry:
        """The drop row (row 0) and the board (rows 1..rows) for the current window."""
        return BoardGeometry(self.config.rows + 1, self.config.cols, self.area("board"))

    def drop(self, col: int) -> bool:
        """Drop the human mover's disc in ``col`` if legal; returns whether it was."""
        return self.play_move(col)

    def landing(self, state: Connect4State, col: int) -> tuple[int, int]:
        """(board row, col) of the top disc in ``col`` of ``state`` (row 0 = top row)."""
        return (self.config.rows - state.height(col), col)

    # --- feel: sound, animation, last-move markers -------------------------------------------
    def move_sound(self, before: Any, after: Any) -> str:
        return "drop"

    def on_moved(self, before: Connect4State, after: Connect4State) -> None:
        """The disc falls from the drop row to its cell, bounces once; a four sweeps in."""
        if after.last_move is None or len(after.moves) != len(before.moves) + 1:
            return  # not one move (a position set directly): nothing to animate
        cell = self.landing(after, after.last_move)
        fall = fall_time(cell[0] + 1)  # from the drop row above the board
        # A track per disc: a quick reply may drop while this one still falls.
        self.anim.start(("drop", cell), fall)
        self.anim.start(("bounce", cell), BOUNCE, delay=fall)
        if after.winner is not None:
            self.anim.start("sweep", SWEEP, delay=fall + BOUNCE)

    def result_delay(self, state: Connect4State) -> float:
        """The result waits for the last disc to land and the winning line to sweep in."""
        if state.last_move is None:
            return super().result_delay(state)
        landed = fall_time(self.landing(state, state.last_move)[0] + 1) + BOUNCE
        return landed + (SWEEP if state.winner is not None else 0.0) + RESULT_PAUSE

    def marked_moves(self) -> list[tuple[tuple[int, int], bool]]:
        """Discs marked as recent moves: ((board row, col), whether it is the latest).

        The latest disc; with the computer in both seats, the other one's last disc too.
        """
        state = self.state
        if state.last_move is None:
            return []
        marked = [(self.landing(state, state.last_move), True)]
        if self.all_computers():
            for before, after in self.last_moves().values():
                # The disc that move dropped: one above what ``before`` held in its column.
                col = after.last_move
                cell = (self.config.rows - before.height(col) - 1, col)
                if all(cell != c for c, _u in marked):
                    marked.append((cell, False))
        return marked

    def falling(self) -> set[tuple[int, int]]:
        """Cells (board row, col) whose disc is still falling or bouncing."""
        return {key[1] for name in ("drop", "bounce") for key in self.anim.running(name)}

    def win_runs(self) -> list[list[tuple[int, int]]]:
        """Each line of k or more through the winning disc, its cells end to end.

        The rules list every such run's cells together (the winning disc once), so a
        disc that completes two lines at once gets two strokes, not one wrong one.
        """
        state = self.state
        if state.winner is None or not state.win_line or state.last_move is None:
            return []
        hub = self.landing(state, state.last_move)
        cells = set(state.win_line)
        runs = []
        for dr, dc in _DIRECTIONS:
            run = [hub]
            for sign in (1, -1):
                r, c = hub[0] + sign * dr, hub[1] + sign * dc
                while (r, c) in cells:
                    run.append((r, c))
                    r, c = r + sign * dr, c + sign * dc
            if len(run) >= self.config.k:
                runs.append(sorted(run, key=lambda rc: (rc[0] * dr + rc[1] * dc)))
        return runs

    def status_text(self) -> str:
        s = self.state
        if s.winner is not None:
            return _("{mark} wins: {k} in a row! New game (N) to play again.").format(
                mark=SYMBOLS[s.winner], k=self.config.k)
        if s.is_terminal():
            return _("Draw: the board is full and nobody lined up four.")
        text = self.turn_text(_("click a column."))
        if self.show_hints and self.hints and not self.note:
            text += hint_status(self.hints)
        return text

    # --- input -----------------------------------------------------------------------------
    def board_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and pygame.K_1 <= event.key <= pygame.K_9:
            col = event.key - pygame.K_1
            if col < self.config.cols:
                self.drop(col)
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_DOWN \
                and self.pointer.cursor is not None:
            self.drop(self.pointer.cursor[1])
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_UP:
            return  # the cursor stays on the drop row
        cols = self.config.cols
        self.pointer.handle(event, self.geometry(), lambda _r, c: self.drop(c),
                            lambda: (0, self.pointer.cursor[1] if self.pointer.cursor
                                     else cols // 2))
        if self.pointer.cursor is not None:
            self.pointer.cursor = (0, self.pointer.cursor[1])

    def _active_column(self) -> int | None:
        """The column a click or Enter would drop into (keyboard first, then the mouse)."""
        cell = self.pointer.cursor or self.pointer.hover
        return None if cell is None else cell[1]

    # --- drawing -------------------------------------------------------------------------------
    def draw_board(self, surface: pygame.Surface) -> None:
        p = self.app.theme.palette
        geom = self.geometry()
        state = self.state
        rows, cols = self.config.rows, self.config.cols
        size = geom.cell_size
        radius = size * DISC
        top = geom.cell_rect(1, 0)
        board = pygame.Rect(top.left, top.top, geom.rect.width, geom.rect.bottom - top.top)
        pygame.draw.rect(surface, p.accent, board, border_radius=max(2, round(size / 6)))
        over = state.is_terminal()
        human = not over and not self.seats[state.current_player()].is_computer
        column = self._active_column()
        aiming = human and column is not None and column in state.legal_moves()
        if aiming:
            # The column the click would use, and a faint disc where it would land.
            lane = pygame.Rect(geom.cell_rect(1, column).left, board.top,
                               geom.cell_rect(1, column).width, board.height)
            pygame.draw.rect(surface, p.hover, lane, max(2, round(size / 16)))
        falling = self.falling()
        for r in range(rows):
            for c in range(cols):
                owner = state.cell(r, c)
                centre = geom.cell_rect(r + 1, c).center
                if owner == EMPTY or (r, c) in falling:
                    pygame.draw.circle(surface, p.background, centre, radius)
                else:
                    self._draw_disc(surface, centre, radius, owner)
        if aiming:
            landing = geom.cell_rect(rows - state.height(column), column)
            self._draw_ghost(surface, landing.center, radius, state.current_player())
        sweep = self.anim.progress("sweep")
        for run in self.win_runs():
            # Frames in near-black: the board is yellow like the line, and near-black
            # stands out from it and from both discs in either palette.
            draw_win_line(surface, geom, [(r + 1, c) for r, c in run], p.win_line,
                          p.background, 1.0 if sweep is None else ease_out(sweep),
                          frame_colour=WIN_FRAME, frames=True)
        for cell, latest in self.marked_moves():
            # Over the winning line and frames, so the ring is drawn whole.
            if cell not in falling:  # the ring waits for its disc to land
                self._draw_last_disc(surface, geom, cell, latest)
        if self.show_hints and self.hints and not over:
            draw_values(surface, geom, [((0, c), v) for c, v in self.hints.items()],
                        self.app.theme)
        elif aiming:
            self._draw_disc(surface, geom.cell_rect(0, column).center, radius,
                            state.current_player())
        for cell in falling:  # over the next disc waiting in the drop row
            if state.cell(*cell) != EMPTY:
                self._draw_falling(surface, geom, cell, radius, state.cell(*cell))
        if self.pointer.cursor is not None:
            outline_cell(surface, geom, self.pointer.cursor, p.focus,
                         max(2, round(size / 16)))
        self.draw_player_cards(surface)
        if self.show_hints:
            box = self.layout()["legend"]
            draw_value_legend(surface, self.app.viewport, self.app.theme, box.x, box.y,
                              width=box.w, note=hint_note(self.hints))

    def _draw_disc(self, surface: pygame.Surface, centre: tuple[float, float], radius: float,
                   player: int) -> None:
        """A disc in ``player``'s colour with its sign."""
        p = self.app.theme.palette
        pygame.draw.circle(surface, p.players[player], centre, radius)
        _draw_disc_sign(surface, (round(centre[0]), round(centre[1])), radius, player,
                        p.background)

    def _draw_falling(self, surface: pygame.Surface, geom: BoardGeometry, cell: tuple[int, int],
                      radius: float, player: int) -> None:
        """The disc on its way down: gravity from the drop row, then one small bounce."""
        x, y1 = geom.cell_center(cell[0] + 1, cell[1])
        fall = self.anim.progress(("drop", cell))
        if fall is not None:
            y = lerp(geom.cell_center(0, cell[1])[1], y1, ease_in(fall))
        else:
            bounce = self.anim.progress(("bounce", cell)) or 0.0
            y = y1 - math.sin(math.pi * bounce) * geom.cell_size * BOUNCE_HEIGHT
        self._draw_disc(surface, (x, y), radius, player)

    def _draw_ghost(self, surface: pygame.Surface, centre: tuple[int, int], radius: float,
                    player: int) -> None:
        """A faint disc where the click would land, from a small layer kept between frames
        (never a window-sized surface)."""
        colour = self.app.theme.palette.players[player]
        key = (round(radius), colour)
        if self._ghost is None or self._ghost[0] != key:
            side = 2 * round(radius) + 2
            layer = pygame.Surface((side, side), pygame.SRCALPHA)
            pygame.draw.circle(layer, (*colour, GHOST_ALPHA), (side // 2, side // 2), radius)
            self._ghost = (key, layer)
        layer = self._ghost[1]
        surface.blit(layer, layer.get_rect(center=centre))

    def _draw_last_disc(self, surface: pygame.Surface, geom: BoardGeometry,
                        cell: tuple[int, int], latest: bool) -> None:
        """A dark halo round the disc and a ring in the focus colour just inside its edge:
        seen on the board (the halo) and on the disc (the ring) in either palette. Solid
        and thick for the latest disc, dashed for the other computer's last one."""
        p = self.app.theme.palette
        cx, cy = geom.cell_center(cell[0] + 1, cell[1])
        radius = geom.cell_size * DISC
        halo = max(3, round(geom.cell_size / 12))
        pygame.draw.circle(surface, p.background, (cx, cy), radius + halo, halo)
        if latest:
            pygame.draw.circle(surface, p.focus, (cx, cy), radius, halo)
            return
        width = max(2, round(geom.cell_size / 20))
        box = pygame.Rect(0, 0, round(2 * radius), round(2 * radius))
        box.center = (round(cx), round(cy))
        for i in range(DASHES):
            start = 2 * math.pi * i / DASHES
            pygame.draw.arc(surface, p.focus, box, start, start + math.pi / DASHES, width)

    def debug_state(self) -> dict[str, Any]:
        s = self.state
        return {**super().debug_state(), "board": s.to_rows(), "moves": list(s.moves),
                "winner": None if s.winner is None else SYMBOLS[s.winner],
                "draw": s.is_draw, "to_move": SYMBOLS[s.current_player()],
                "win_line": [list(c) for c in s.win_line],
                "hints": {str(m): v.label() for m, v in self.hints.items()}}


def _draw_disc_sign(surface: pygame.Surface, centre: tuple[int, int], radius: float,
                    player: int, colour: tuple[int, int, int]) -> None:
    """A shape on each disc (a cross for X, a ring for O): not told by colour alone."""
    x, y = centre
    w = max(1, round(radius / 6))
    s = radius * 0.4
    if player == 0:
        pygame.draw.line(surface, colour, (x - s, y - s), (x + s, y + s), w)
        pygame.draw.line(surface, colour, (x - s, y + s), (x + s, y - s), w)
    else:
        pygame.draw.circle(surface, colour, centre, s, w)


def smoke_variants(app: App, frames: Any) -> list[str]:
    """For --smoke: every preset, computer against computer at every level, hints on."""
    opened = []
    levels = GAME.levels
    for i, preset in enumerate(SPEC.presets):
        seats = tuple(Seat("computer", levels[(i + j) % len(levels)]) for j in range(2))
        scene = app.push(Connect4Scene(app, preset.params, seats, seed=i))
        scene.show_hints = True
        frames(3)
        app.pop()
        opened.append(SPEC.encode(preset.params))
    return opened
