"""Connect Four on screen: click a column to drop a disc; seats, hints and undo from the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from engine.board.draw import draw_win_line, outline_cell
from engine.board.geometry import BoardGeometry
from engine.board.pointer import GridPointer
from engine.game_settings import load_params
from engine.seats import Seat
from engine.turn_scene import TurnBasedScene
from engine.value_overlay import draw_value_legend, draw_values
from engine.widgets import Label
from games.connect4.descriptor import GAME
from games.connect4.params import SPEC
from games.connect4.rules import EMPTY, SYMBOLS, Connect4Config, Connect4State

if TYPE_CHECKING:
    from engine.app import App

# The play area; its top row of cells is the drop row (hover disc and hints).
BOARD_AREA = (220.0, 84.0, 560.0, 560.0)
# Seconds a hint may search (exact where it can be proven in that time).
HINT_BUDGET = 2.0


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
        self.ui.add(Label((800, 84, 150, 60), lambda: SPEC.label(self.config), size=15,
                          role="muted"))

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

    def open_setup(self) -> None:
        """Choose the board and seats (an overlay; Start replaces this game)."""
        from engine.setup_scene import ParamsSetupOverlay

        self.app.push(ParamsSetupOverlay(self.app, self))

    # --- board ---------------------------------------------------------------------------
    def geometry(self) -> BoardGeometry:
        """The drop row (row 0) and the board (rows 1..rows) for the current window."""
        return BoardGeometry(self.config.rows + 1, self.config.cols,
                             self.app.viewport.map_rect(BOARD_AREA))

    def drop(self, col: int) -> bool:
        """Drop the human mover's disc in ``col`` if legal; returns whether it was."""
        return self.play_move(col)

    def status_text(self) -> str:
        s = self.state
        if s.winner is not None:
            return (f"{SYMBOLS[s.winner]} wins: {self.config.k} in a row! "
                    "New game (N) to play again.")
        if s.is_terminal():
            return "Draw: the board is full and nobody lined up four."
        text = self.turn_text()
        if not self.seats[s.current_player()].is_computer:
            text = text.replace(" to move.", " to move: click a column.", 1)
        if self.show_hints and self.hints and not self.note:
            if any(not v.exact for v in self.hints.values()):
                text += " Hint: estimate from a bounded search."
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
        top = geom.cell_rect(1, 0)
        board = pygame.Rect(top.left, top.top, geom.rect.width, geom.rect.bottom - top.top)
        pygame.draw.rect(surface, p.accent, board, border_radius=max(2, round(geom.cell_size / 6)))
        over = state.is_terminal()
        human = not over and not self.seats[state.current_player()].is_computer
        column = self._active_column()
        if human and column is not None and column in state.legal_moves():
            # The column the click would use, and a faint disc where it would land.
            lane = pygame.Rect(geom.cell_rect(1, column).left, board.top,
                               geom.cell_rect(1, column).width, board.height)
            pygame.draw.rect(surface, p.hover, lane, max(2, round(geom.cell_size / 16)))
            ghost = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            landing = geom.cell_rect(rows - state.height(column), column)
            pygame.draw.circle(ghost, (*p.players[state.current_player()], 90), landing.center,
                               geom.cell_size * 0.4)
            surface.blit(ghost, (0, 0))
        for r in range(rows):
            for c in range(cols):
                owner = state.cell(r, c)
                cell = geom.cell_rect(r + 1, c)
                colour = p.background if owner == EMPTY else p.players[owner]
                pygame.draw.circle(surface, colour, cell.center, geom.cell_size * 0.4)
                if owner != EMPTY:
                    _draw_disc_sign(surface, cell.center, geom.cell_size * 0.4, owner,
                                    p.background)
        last = state.last_move
        if last is not None and not over:
            # A ring around the last disc, thick enough to see from across the room.
            centre = geom.cell_rect(rows - state.height(last) + 1, last).center
            width = max(2, round(geom.cell_size / 14))
            pygame.draw.circle(surface, p.focus, centre, geom.cell_size * 0.4 + width, width)
        if state.winner is not None and state.win_line:
            draw_win_line(surface, geom, [(r + 1, c) for r, c in state.win_line], p.win_line,
                          p.background)
        if self.show_hints and self.hints and not over:
            draw_values(surface, geom, [((0, c), v) for c, v in self.hints.items()],
                        self.app.theme)
        elif human and column is not None and column in state.legal_moves():
            cell = geom.cell_rect(0, column)
            pygame.draw.circle(surface, p.players[state.current_player()], cell.center,
                               geom.cell_size * 0.4)
        if self.pointer.cursor is not None:
            outline_cell(surface, geom, self.pointer.cursor, p.focus,
                         max(2, round(geom.cell_size / 16)))
        self.draw_player_cards(surface)
        if self.show_hints:
            draw_value_legend(surface, self.app.viewport, self.app.theme, 800, 144,
                              note="n: moves to the end with best play, counting both sides")

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
