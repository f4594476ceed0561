"""King, Rook, Queen and Knight: tokens on a chessboard heading for the top-left corner."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from engine.board.draw import draw_cell_text, fill_cell, hatch, outline_cell
from engine.board.geometry import BoardGeometry
from engine.board.pointer import GridPointer
from engine.seats import Seat
from engine.value_overlay import draw_value_mark
from engine.widgets import Button, Label, draw_text_block
from games.grundy.family_scene import GrundyScene
from games.grundy.help_text import BOARD_HELP
from games.grundy.pieces_render import draw_piece
from games.grundy.variants import GAME_LABELS, GrundySetup

if TYPE_CHECKING:
    from engine.app import App

BOARD_AREA = (220.0, 84.0, 560.0, 560.0)

class GrundyBoardScene(GrundyScene):
    """The chessboard games; turns, computer and hints come from GrundyScene."""

    help_title = "Grundy board games: rules"
    help_text = BOARD_HELP

    def __init__(self, app: App, setup: GrundySetup, seats: tuple[Seat, ...] | None = None,
                 seed: int | None = None) -> None:
        from games.grundy.board import BoardConfig, TokenState

        self.config = BoardConfig(setup.game, setup.rows, setup.cols, setup.tokens)
        super().__init__(app, setup, TokenState.start(self.config), seats, seed)
        self.selected = 0
        self.placing = False
        self.pointer = GridPointer()
        ui = self.ui
        ui.add(Button((800, 520, 140, 40), lambda: "Done" if self.placing else "Place",
                      self.toggle_place, name="Place", selected=lambda: self.placing))
        ui.add(Button((800, 570, 140, 40), "Table", self.open_table, name="Table"))
        ui.add(Label((800, 84, 150, 50), lambda: setup.label(), size=15, role="muted"))

    # --- hooks ----------------------------------------------------------------------------
    def fresh_state(self) -> Any:
        from games.grundy.board import TokenState

        return TokenState.start(self.config)

    def hint_extra(self, state: Any, cancel: Any) -> dict[str, Any]:
        """The whole Grundy table of the piece on this board (every square's value)."""
        from games.grundy.tables import grundy_table

        cfg = self.config
        return {"table": grundy_table(cfg.piece, cfg.rows, cfg.cols)}

    # --- actions ------------------------------------------------------------------------------
    def geometry(self) -> BoardGeometry:
        """Board placement for the current window size."""
        return BoardGeometry(self.config.rows, self.config.cols,
                             self.app.viewport.map_rect(BOARD_AREA))

    def toggle_place(self) -> None:
        """Switch the mode in which a click puts the selected token on any square."""
        self.placing = not self.placing

    def open_table(self) -> None:
        """Show the whole Grundy table of this piece and board as a heatmap."""
        from games.grundy.table_view import TableView

        self.app.push(TableView(self.app, self.config.piece, self.config.rows, self.config.cols))

    def targets_of(self, token: int) -> list[tuple[int, int]]:
        """Squares the given token may move to now."""
        return [(r, c) for t, r, c in self.state.legal_moves() if t == token]

    def click_square(self, row: int, col: int) -> None:
        """A click on a square: place, move the selected token, or select a token."""
        state = self.state
        if self.placing:
            self._place(row, col)
            return
        if (self.selected, row, col) in state.legal_moves():
            self.play_move((self.selected, row, col))
            return
        here = [i for i, square in enumerate(state.tokens) if square == (row, col)]
        if here:
            # Several tokens on one square: each click selects the next of them.
            later = [i for i in here if i > self.selected]
            self.selected = later[0] if later else here[0]

    def _place(self, row: int, col: int) -> None:
        from games.grundy.board import TokenState

        tokens = list(self.state.tokens)
        tokens[self.selected] = (row, col)
        # A position set by hand is a new game, started by the first player.
        self.serial, self._next_serial = self._next_serial, self._next_serial + 1
        self.push(TokenState(self.config, tuple(tokens), 0))
        if self.config.tokens > 1:
            self.selected = (self.selected + 1) % self.config.tokens

    # --- input -----------------------------------------------------------------------------
    def board_event(self, event: pygame.event.Event) -> None:
        if self.pointer.handle(event, self.geometry(), self.click_square,
                               lambda: self.state.tokens[self.selected]):
            return
        if event.type == pygame.KEYDOWN:
            if pygame.K_1 <= event.key <= pygame.K_4:
                index = event.key - pygame.K_1
                if index < self.config.tokens:
                    self.selected = index
            elif event.key == pygame.K_t:
                self.open_table()

    # --- drawing --------------------------------------------------------------------------
    def status_text(self) -> str:
        state = self.state
        if state.is_terminal():
            winner = 1 - state.current_player()
            return (f"{self.player_name(winner)} wins: no token can move, so "
                    f"{self.player_name(1 - winner)} is stuck. New game (N) to play again.")
        if self.placing:
            return (f"Place: click a square to put token {self.selected + 1} there "
                    "(Done when finished).")
        text = self.turn_text()
        if not self.seats[state.current_player()].is_computer:
            text = text.replace(" to move.", " to move: click a highlighted square.", 1)
        if self.show_hints:
            text += " " + state.value_explained()
        return text

    def draw_board(self, surface: pygame.Surface) -> None:
        p = self.app.theme.palette
        vp = self.app.viewport
        geom = self.geometry()
        state = self.state
        rows, cols = self.config.rows, self.config.cols
        for r in range(rows):
            for c in range(cols):
                pygame.draw.rect(surface, p.board if (r + c) % 2 == 0 else p.hover,
                                 geom.cell_rect(r, c))
        pygame.draw.rect(surface, p.grid, geom.rect, max(1, vp.px(2)))
        size = geom.cell_size
        hints = self.hint_view()
        table = hints.get("table")
        if table is not None:
            font = self.app.theme.font(max(7.0, size * 0.32), bold=True)
            for r in range(rows):
                for c in range(cols):
                    value = int(table[r, c])
                    rect = geom.cell_rect(r, c)
                    if value == 0:
                        fill_cell(surface, geom, (r, c), p.bad, 90)
                        hatch(surface, rect, p.bad, step=max(4, round(size / 5)),
                              width=max(1, round(size / 25)))
                    if size >= 14:
                        draw_cell_text(surface, geom, (r, c), str(value), font, p.text,
                                       p.background)
        # The goal: the top-left corner.
        star = self.app.theme.font(max(8.0, size * 0.5), bold=True).render("★", True, p.accent)
        goal = geom.cell_rect(0, 0)
        if table is None:
            surface.blit(star, star.get_rect(center=goal.center))
        if not state.is_terminal() and not self.placing:
            for r, c in self.targets_of(self.selected):
                rect = geom.cell_rect(r, c)
                # With hints on, the dot moves to a corner so the value stays readable.
                spot = (rect.left + size * 0.2, rect.bottom - size * 0.2) if table is not None \
                    else rect.center
                pygame.draw.circle(surface, p.accent, spot, max(2, size * 0.1))
                outline_cell(surface, geom, (r, c), p.accent, max(1, round(size / 22)))
            if self.show_hints:
                for (_token, r, c), value in self.hints.items():
                    draw_value_mark(surface, geom.cell_rect(r, c), value, self.app.theme)
        if self.pointer.hover is not None and not state.is_terminal():
            outline_cell(surface, geom, self.pointer.hover, p.grid, max(1, round(size / 30)))
        self._draw_tokens(surface, geom)
        if self.pointer.cursor is not None:
            outline_cell(surface, geom, self.pointer.cursor, p.focus, max(2, round(size / 16)))
        self.draw_player_cards(surface)
        self._draw_side_panel(surface)

    def _draw_tokens(self, surface: pygame.Surface, geom: BoardGeometry) -> None:
        p = self.app.theme.palette
        state = self.state
        counts: dict[tuple[int, int], int] = {}
        for index, (r, c) in enumerate(state.tokens):
            seen = counts.get((r, c), 0)
            counts[(r, c)] = seen + 1
            rect = geom.cell_rect(r, c)
            # Tokens sharing a square are fanned out so each stays visible.
            shift = round(seen * rect.width * 0.12)
            box = rect.inflate(-rect.width * 0.1, -rect.height * 0.1).move(shift, -shift)
            selected = index == self.selected and not state.is_terminal()
            if selected:
                pygame.draw.rect(surface, p.focus, box, max(2, round(rect.width / 14)),
                                 border_radius=max(2, rect.width // 8))
            draw_piece(surface, box, self.config.piece, p.text, p.background)
            if self.config.tokens > 1:
                font = self.app.theme.font(max(7.0, rect.width * 0.28), bold=True)
                label = font.render(str(index + 1), True, p.background)
                badge = label.get_rect(bottomright=box.bottomright).inflate(4, 0)
                pygame.draw.rect(surface, p.accent, badge, border_radius=3)
                surface.blit(label, label.get_rect(center=badge.center))

    def _draw_side_panel(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        font = theme.font(14 * vp.scale)
        y = 150.0
        text = (f"{GAME_LABELS[self.config.piece]} moves towards ★. "
                "The player who cannot move loses.")
        draw_text_block(surface, text, font, p.muted, vp.rect(800, y, 150, 90))
        if self.show_hints:
            y += 110
            surface.blit(theme.font(15 * vp.scale, bold=True).render("Hint", True, p.text),
                         vp.point(800, y))
            box = vp.rect(800, y + 28, 30, 24)
            pygame.draw.rect(surface, p.bad, box)
            hatch(surface, box, p.background, step=vp.px(6))
            surface.blit(font.render("value 0: lost", True, p.text), vp.point(838, y + 32))
            box = vp.rect(800, y + 62, 30, 24)
            pygame.draw.rect(surface, p.good, box, vp.px(3))
            surface.blit(font.render("✓ winning move", True, p.text), vp.point(838, y + 66))
            draw_text_block(surface, "n: Grundy value of the square", font, p.muted,
                            vp.rect(800, y + 96, 150, 40))

    def debug_state(self) -> dict[str, Any]:
        state = self.state
        hints = self.hint_view(shown_only=False)
        return {**super().debug_state(), "tokens": [list(t) for t in state.tokens],
                "to_move": state.current_player(), "selected": self.selected,
                "value": state.value(), "placing": self.placing,
                "winning": sorted(list(m) for m in hints.get("winning", ()))}
