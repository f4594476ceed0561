"""Classic 3×3 tic-tac-toe, two people at one mouse."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from engine.board.draw import draw_grid, draw_mark, draw_win_line, fill_cell, outline_cell
from engine.board.geometry import BoardGeometry
from engine.game_scene import GameScene
from engine.history import History
from games.tictactoe.rules import CLASSIC, EMPTY, SYMBOLS, MNKConfig, TicTacToeState

if TYPE_CHECKING:
    from engine.app import App

BOARD_AREA = (220.0, 84.0, 560.0, 560.0)
HELP = """Two players take turns putting their mark on an empty square: X first, then O.

The first to get three marks in a row (across, down or diagonally) wins, and the line is
highlighted. If all nine squares fill up with no line, the game is a draw.

Mouse: click an empty square to play there.

Keyboard: the arrow keys move the square cursor, Enter or Space plays there; Tab reaches the
buttons.

Undo (Ctrl+Z) takes back the last move and Redo (Ctrl+Y) plays it again, also after the game
has ended. New game (N) starts over; it can be undone too, so one mis-click never loses a game.

Tip: with best play from both sides the game is always a draw. Opening in a corner gives the
opponent the most ways to go wrong: of the eight replies, only the centre holds the draw."""


class TicTacToeScene(GameScene):
    """The board, a card for each player, and the shared toolbar."""

    help_title = "Tic-tac-toe: rules"
    help_text = HELP

    def __init__(self, app: App, config: MNKConfig = CLASSIC) -> None:
        super().__init__(app)
        self.config = config
        self.title = "Tic-tac-toe"
        self.serial = 0
        self._next_serial = 1
        # Each entry is (game serial, state): results are recorded once per game,
        # however often it is undone and replayed to its end.
        self.history: History[tuple[int, TicTacToeState]] = History(
            (0, TicTacToeState.new(config)))
        self.recorded: set[int] = set()
        self.hover: tuple[int, int] | None = None
        self.cursor: tuple[int, int] | None = None

    # --- state -------------------------------------------------------------------
    @property
    def state(self) -> TicTacToeState:
        """The position on screen."""
        return self.history.current[1]

    def geometry(self) -> BoardGeometry:
        """Board placement for the current window size."""
        return BoardGeometry(self.config.rows, self.config.cols,
                             self.app.viewport.map_rect(BOARD_AREA))

    def play(self, row: int, col: int) -> bool:
        """Play the mover's mark at (row, col) if legal; returns whether it was."""
        state = self.state
        move = row * self.config.cols + col
        if move not in state.legal_moves():
            return False
        after = state.play(move)
        self.history.push((self.serial, after))
        if after.is_terminal():
            self._record(after)
        return True

    def _record(self, state: TicTacToeState) -> None:
        if self.serial in self.recorded:
            return
        self.recorded.add(self.serial)
        outcome = "drawn" if state.winner is None else ("won" if state.winner == 0 else "lost")
        warning = self.app.stats.record_game("tictactoe", "3x3", "human-human", "", outcome)
        if warning:
            self.app.notify(warning)

    # --- GameScene actions ---------------------------------------------------------
    def new_game(self) -> None:
        if self.state.moves_made == 0:
            return
        self.serial, self._next_serial = self._next_serial, self._next_serial + 1
        self.history.push((self.serial, TicTacToeState.new(self.config)))

    def undo(self) -> None:
        if self.history.undo():
            self.serial = self.history.current[0]

    def redo(self) -> None:
        if self.history.redo():
            self.serial = self.history.current[0]

    def can_undo(self) -> bool:
        return self.history.can_undo

    def can_redo(self) -> bool:
        return self.history.can_redo

    def status_text(self) -> str:
        s = self.state
        if s.winner is not None:
            return f"{SYMBOLS[s.winner]} wins! Three in a row. New game (N) to play again."
        if s.is_draw:
            return "Draw: the board is full and nobody has three in a row."
        return f"{SYMBOLS[s.to_move]} to move: click an empty square."

    # --- input -----------------------------------------------------------------------
    def board_event(self, event: pygame.event.Event) -> None:
        geom = self.geometry()
        if event.type == pygame.MOUSEMOTION:
            self.hover = geom.cell_at(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            cell = geom.cell_at(event.pos)
            if cell is not None:
                self.cursor = None
                self.play(*cell)
        elif event.type == pygame.KEYDOWN:
            moves = {pygame.K_LEFT: (0, -1), pygame.K_RIGHT: (0, 1), pygame.K_UP: (-1, 0),
                     pygame.K_DOWN: (1, 0)}
            if event.key in moves:
                r, c = self.cursor or (self.config.rows // 2, self.config.cols // 2)
                dr, dc = moves[event.key]
                self.cursor = ((r + dr) % self.config.rows, (c + dc) % self.config.cols)
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                if self.cursor is not None:
                    self.play(*self.cursor)

    # --- drawing --------------------------------------------------------------------------
    def draw_board(self, surface: pygame.Surface) -> None:
        p = self.app.theme.palette
        geom = self.geometry()
        state = self.state
        draw_grid(surface, geom, p.board, p.grid)
        over = state.is_terminal()
        if self.hover and not over and state.cell(*self.hover) == EMPTY:
            fill_cell(surface, geom, self.hover, p.hover)
        for r in range(self.config.rows):
            for c in range(self.config.cols):
                owner = state.cell(r, c)
                if owner != EMPTY:
                    draw_mark(surface, geom.cell_rect(r, c), owner, p.players[owner])
        if self.hover and not over and state.cell(*self.hover) == EMPTY:
            # A faint preview of the mark the click would place.
            ghost = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            draw_mark(ghost, geom.cell_rect(*self.hover), state.to_move,
                      p.players[state.to_move])
            ghost.set_alpha(70)
            surface.blit(ghost, (0, 0))
        if state.win_line:
            cells = [divmod(i, self.config.cols) for i in state.win_line]
            draw_win_line(surface, geom, cells, p.win_line, p.background)
        if self.cursor is not None:
            outline_cell(surface, geom, self.cursor, p.focus, max(2, round(geom.cell_size / 30)))
        self._draw_player_cards(surface)

    def _draw_player_cards(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        state = self.state
        for player in range(self.config.players):
            rect = vp.rect(24, 120 + player * 130, 170, 110)
            to_move = not state.is_terminal() and state.to_move == player
            winner = state.winner == player
            pygame.draw.rect(surface, p.panel, rect, border_radius=vp.px(10))
            edge = p.focus if (to_move or winner) else p.panel_edge
            pygame.draw.rect(surface, edge, rect, vp.px(4 if to_move or winner else 1),
                             border_radius=vp.px(10))
            draw_mark(surface, vp.rect(34, 135 + player * 130, 70, 70), player, p.players[player])
            font = theme.font(18 * vp.scale, bold=True)
            surface.blit(font.render(SYMBOLS[player], True, p.text),
                         vp.point(112, 140 + player * 130))
            small = theme.font(14 * vp.scale)
            surface.blit(small.render("Human", True, p.muted), vp.point(112, 166 + player * 130))
            tag = "to move" if to_move else ("winner" if winner else "")
            if tag:
                surface.blit(theme.font(14 * vp.scale, bold=True).render(tag, True, p.accent),
                             vp.point(40, 204 + player * 130))

    def debug_state(self) -> dict[str, Any]:
        s = self.state
        return {"scene": "TicTacToeScene", "board": s.to_rows(),
                "winner": None if s.winner is None else SYMBOLS[s.winner],
                "draw": s.is_draw, "to_move": SYMBOLS[s.to_move],
                "win_line": list(s.win_line), "status": self.status_text()}
