"""The tic-tac-toe family on screen: any board, any seat human or computer, hints."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from engine.board.draw import draw_grid, draw_mark, draw_win_line, fill_cell, outline_cell
from engine.board.geometry import BoardGeometry
from engine.board.pointer import GridPointer
from engine.game_settings import load_params
from engine.seats import Seat
from engine.turn_scene import TurnBasedScene
from engine.value_overlay import draw_value_legend, draw_values
from engine.widgets import Label
from games.tictactoe.descriptor import GAME
from games.tictactoe.rules import EMPTY, SYMBOLS, MNKConfig, TicTacToeState
from games.tictactoe.variants import variant_label

if TYPE_CHECKING:
    from engine.app import App

BOARD_AREA = (220.0, 84.0, 560.0, 560.0)
# Long enough for exact hints from the empty 5×5 k4 board (about 1.5 s here).
HINT_BUDGET = 3.0


class TicTacToeScene(TurnBasedScene):
    """Board, player cards and hint overlay; seats and computer from TurnBasedScene."""

    hint_budget = HINT_BUDGET

    def __init__(self, app: App, config: MNKConfig | None = None,
                 seats: tuple[Seat, ...] | None = None, seed: int | None = None) -> None:
        config = config or load_params(app.settings, GAME)
        self.config = config
        super().__init__(app, GAME, config, TicTacToeState.new(config), seats, seed)
        self.pointer = GridPointer()
        self.ui.add(Label((800, 84, 150, 60), lambda: variant_label(self.config), size=15,
                          role="muted"))

    # --- TurnBasedScene hooks -------------------------------------------------------------
    def fresh_state(self) -> TicTacToeState:
        return TicTacToeState.new(self.config)

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
        return BoardGeometry(self.config.rows, self.config.cols,
                             self.app.viewport.map_rect(BOARD_AREA))

    def play(self, row: int, col: int) -> bool:
        """Play the human mover's mark at (row, col) if legal; returns whether it was."""
        return self.play_move(row * self.config.cols + col)

    def _push(self, state: TicTacToeState) -> None:
        """Set a position directly (tests and screenshots)."""
        self.push(state)

    def status_text(self) -> str:
        s = self.state
        if s.winner is not None:
            return (f"{SYMBOLS[s.winner]} wins! {self.config.k} in a row. "
                    "New game (N) to play again.")
        if s.is_draw:
            return "Draw: the board is full and nobody completed a line."
        text = self.turn_text()
        if not self.seats[s.to_move].is_computer:
            text = text.replace(" to move.", " to move: click an empty square.", 1)
        if self.show_hints and self.hints and not self.note:
            if any(not v.exact for v in self.hints.values()):
                text += " Hint: estimate from a bounded search."
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
        draw_grid(surface, geom, p.board, p.grid)
        over = state.is_terminal()
        human = not over and not self.seats[state.to_move].is_computer
        hover, cursor = self.pointer.hover, self.pointer.cursor
        hover_ok = hover is not None and human and state.cell(*hover) == EMPTY
        if hover_ok:
            fill_cell(surface, geom, hover, p.hover)
        if self.show_hints and self.hints and not over:
            self._draw_hints(surface, geom)
        for r in range(self.config.rows):
            for c in range(self.config.cols):
                owner = state.cell(r, c)
                if owner != EMPTY:
                    draw_mark(surface, geom.cell_rect(r, c), owner, p.players[owner])
        if state.last_move is not None and not over:
            outline_cell(surface, geom, divmod(state.last_move, self.config.cols), p.grid,
                         max(1, round(geom.cell_size / 40)))
        if hover_ok and not self.hints:
            # A faint preview of the mark the click would place.
            ghost = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            draw_mark(ghost, geom.cell_rect(*hover), state.to_move, p.players[state.to_move])
            ghost.set_alpha(70)
            surface.blit(ghost, (0, 0))
        if state.win_line:
            cells = [divmod(i, self.config.cols) for i in state.win_line]
            draw_win_line(surface, geom, cells, p.win_line, p.background)
        if cursor is not None:
            outline_cell(surface, geom, cursor, p.focus, max(2, round(geom.cell_size / 30)))
        self.draw_player_cards(surface)
        if self.show_hints and self.config.players == 2:
            self._draw_hint_legend(surface)

    def _draw_hints(self, surface: pygame.Surface, geom: BoardGeometry) -> None:
        cols = self.config.cols
        draw_values(surface, geom, [(divmod(m, cols), v) for m, v in self.hints.items()],
                    self.app.theme)

    def _draw_hint_legend(self, surface: pygame.Surface) -> None:
        draw_value_legend(surface, self.app.viewport, self.app.theme, 800, 144,
                          note="n: moves to the end with best play, counting both sides")

    def debug_state(self) -> dict[str, Any]:
        s = self.state
        return {**super().debug_state(), "board": s.to_rows(),
                "winner": None if s.winner is None else SYMBOLS[s.winner],
                "draw": s.is_draw, "to_move": SYMBOLS[s.to_move],
                "win_line": list(s.win_line),
                "hints": {str(m): v.label() for m, v in self.hints.items()}}


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
