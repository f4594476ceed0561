"""The tic-tac-toe family on screen: any board, any seat human or computer, hints."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from engine.board.draw import (
    draw_cell_text,
    draw_grid,
    draw_mark,
    draw_win_line,
    fill_cell,
    outline_cell,
)
from engine.board.geometry import BoardGeometry
from engine.board.pointer import GridPointer
from engine.seats import Seat
from engine.turn_scene import TurnBasedScene
from engine.widgets import Label, draw_text_block
from games.tictactoe.agents import make_agent
from games.tictactoe.rules import EMPTY, SYMBOLS, MNKConfig, TicTacToeState
from games.tictactoe.variants import (
    LEVELS,
    config_from_settings,
    config_to_settings,
    variant_id,
    variant_label,
)

if TYPE_CHECKING:
    from engine.app import App

GAME_ID = "tictactoe"
BOARD_AREA = (220.0, 84.0, 560.0, 560.0)
SEAT_KEYS = ("X", "O", "T")  # settings keys per seat (T: the third player's triangle)
# Long enough for exact hints from the empty 5×5 k4 board (about 1.5 s here).
HINT_BUDGET = 3.0

HELP = """Players take turns putting their mark on an empty square: X first, then O (and △
third in the three-player game).

The first to complete a line of k marks (across, down or diagonally) wins, and the line is
highlighted. On the classic board k is 3. If the board fills up with no line, it is a draw.
In the three-player game on 4×4, any three in a row wins.

Mouse: click an empty square to play there. Keyboard: the arrow keys move the square cursor,
Enter or Space plays there; Tab reaches the buttons.

Setup (S) chooses the board (classic 3×3, bigger boards with k in a row, gomoku 15×15, three
players) and who plays each seat: a human, or the computer at Easy (random, but takes a win),
Medium (the weight grid: win, block, then the square on most open lines), Hard (never loses
on 3×3; a timed search elsewhere) or Perfect (solves the board; on boards too large to solve
in time it says so and plays at Hard). A mistake rate makes any level blunder now and then.

Hint (H) marks every empty square with what playing there leads to for the player to move:
W = win, D = draw, L = loss, with the number of moves to the end with best play (green,
yellow and red, with the letters for colour-blind players). Where the board is too large to
solve quickly, the hint is an estimate from a bounded search and says so.

When the computer plays itself, Pause and Step let you follow the game move by move.

Undo (Ctrl+Z) goes back to the last position where a human was to move; Redo (Ctrl+Y)
replays, also after the game has ended. New game (N) starts over and can be undone too.

On 3×3, best play from both sides always draws. Opening in a corner gives the opponent the
most ways to go wrong: of the eight replies, only the centre holds the draw."""


def seats_from_settings(app: App, players: int) -> tuple[Seat, ...]:
    """The seats remembered in settings (human where nothing valid is stored)."""
    kinds = app.settings.get("seats").get(GAME_ID, {})
    levels = app.settings.get("ai_levels").get(GAME_ID, {})
    return tuple(Seat.parse(kinds.get(key), levels.get(key), LEVELS, "hard")
                 for key in SEAT_KEYS[:players])


def remember(app: App, config: MNKConfig, seats: tuple[Seat, ...]) -> None:
    """Store the board and seats as the next game's defaults."""
    try:
        sizes = app.settings.get("last_board_sizes")
        sizes[GAME_ID] = config_to_settings(config)
        app.settings.set("last_board_sizes", sizes)
        kinds = app.settings.get("seats")
        kinds[GAME_ID] = {key: s.kind for key, s in zip(SEAT_KEYS, seats, strict=False)}
        app.settings.set("seats", kinds)
        levels = app.settings.get("ai_levels")
        levels[GAME_ID] = {key: s.level_tag() for key, s in zip(SEAT_KEYS, seats, strict=False)}
        app.settings.set("ai_levels", levels)
    except ValueError as exc:  # settings refused a value: keep playing, say so
        app.notify(f"Could not remember the game set-up: {exc}")
        return
    app.save_settings()


class TicTacToeScene(TurnBasedScene):
    """Board, player cards and hint overlay; seats and computer from TurnBasedScene."""

    help_title = "Tic-tac-toe: rules"
    help_text = HELP
    game_id = GAME_ID

    def __init__(self, app: App, config: MNKConfig | None = None,
                 seats: tuple[Seat, ...] | None = None, seed: int | None = None) -> None:
        config = config or config_from_settings(
            app.settings.get("last_board_sizes").get(GAME_ID))
        stored = seats or seats_from_settings(app, config.players)
        chosen = tuple(stored[i] if i < len(stored) else Seat()
                       for i in range(config.players))
        rng = random.Random(seed)
        agents = [make_agent(config, s, seed=rng.randrange(1 << 30)) if s.is_computer else None
                  for s in chosen]
        self.config = config
        super().__init__(app, TicTacToeState.new(config), chosen, agents, seed)
        self.title = "Tic-tac-toe"
        self.pointer = GridPointer()
        self.ui.add(Label((800, 84, 150, 60), lambda: variant_label(self.config), size=15,
                          role="muted"))

    # --- TurnBasedScene hooks -------------------------------------------------------------
    def variant_id(self) -> str:
        return variant_id(self.config)

    def fresh_state(self) -> TicTacToeState:
        return TicTacToeState.new(self.config)

    def hints_available(self) -> bool:
        return self.config.players == 2

    def hint_task(self, state: TicTacToeState) -> Callable[[Any], Any]:
        from games.tictactoe.perfect import move_values

        return lambda cancel: move_values(state, cancel, HINT_BUDGET)

    def player_name(self, player: int) -> str:
        return SYMBOLS[player]

    def draw_player_badge(self, surface: pygame.Surface, rect: pygame.Rect, player: int) -> None:
        draw_mark(surface, rect, player, self.app.theme.palette.players[player])

    def open_setup(self) -> None:
        """Choose board and seats (an overlay; Start replaces this game)."""
        from games.tictactoe.setup_scene import SetupOverlay

        self.app.push(SetupOverlay(self.app, self))

    def restart(self, config: MNKConfig, seats: tuple[Seat, ...]) -> None:
        """Start a fresh game with another board or other seats."""
        remember(self.app, config, seats)
        self.app.replace(TicTacToeScene(self.app, config, seats))

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
        p = self.app.theme.palette
        colours = {"win": p.good, "draw": p.neutral, "loss": p.bad}
        font = self.app.theme.font(max(8.0, geom.cell_size * 0.28), bold=True)
        for move, value in self.hints.items():
            cell = divmod(move, self.config.cols)
            # Estimates are tinted more faintly than proven values.
            fill_cell(surface, geom, cell, colours[value.outcome], 120 if value.exact else 55)
            draw_cell_text(surface, geom, cell, hint_text(value), font, p.text, p.background)

    def _draw_hint_legend(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        font = theme.font(14 * vp.scale)
        lines = [("W n", p.good, "win"), ("D", p.neutral, "draw"), ("L n", p.bad, "loss"),
                 ("~", p.muted, "estimate")]
        y = 170.0
        surface.blit(theme.font(15 * vp.scale, bold=True).render("Hint", True, p.text),
                     vp.point(800, y - 26))
        for tag, colour, meaning in lines:
            box = vp.rect(800, y, 36, 22)
            pygame.draw.rect(surface, colour, box, border_radius=vp.px(4))
            surface.blit(font.render(tag, True, p.background), box.move(vp.px(4), vp.px(2)))
            surface.blit(font.render(meaning, True, p.text), vp.point(842, y + 2))
            y += 30
        note = "n: moves to the end with best play, counting both sides"
        draw_text_block(surface, note, font, p.muted, vp.rect(800, y, 150, 80))

    def debug_state(self) -> dict[str, Any]:
        s = self.state
        return {**super().debug_state(), "board": s.to_rows(),
                "winner": None if s.winner is None else SYMBOLS[s.winner],
                "draw": s.is_draw, "to_move": SYMBOLS[s.to_move],
                "win_line": list(s.win_line),
                "hints": {str(m): hint_text(v) for m, v in self.hints.items()}}


def smoke_variants(app: App, frames: Any) -> list[str]:
    """For --smoke: every preset with computer seats (all levels), hints on, a few frames."""
    from games.tictactoe.variants import LEVELS, PRESETS, variant_id

    opened = []
    for i, preset in enumerate(PRESETS):
        seats = tuple(Seat("computer", LEVELS[(i + j) % len(LEVELS)])
                      for j in range(preset.config.players))
        scene = app.push(TicTacToeScene(app, preset.config, seats, seed=i))
        scene.show_hints = preset.config.players == 2
        frames(3)
        app.pop()
        opened.append(variant_id(preset.config))
    return opened


def hint_text(value: Any) -> str:
    """``W3`` / ``D`` / ``L4``; estimates get a leading ``~``."""
    letter = {"win": "W", "draw": "D", "loss": "L"}[value.outcome]
    text = letter if value.outcome == "draw" else f"{letter}{value.plies}"
    return text if value.exact else f"~{letter}"
