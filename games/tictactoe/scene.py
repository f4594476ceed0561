"""The tic-tac-toe family on screen: any board, any seat human or computer, hints."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import pygame

from engine.ai.runner import AIResult, AIRunner
from engine.board.draw import (
    draw_cell_text,
    draw_grid,
    draw_mark,
    draw_win_line,
    fill_cell,
    outline_cell,
)
from engine.board.geometry import BoardGeometry
from engine.game_scene import GameScene
from engine.history import History
from engine.widgets import Button, Label, draw_text_block
from games.tictactoe.agents import make_agent
from games.tictactoe.rules import EMPTY, SYMBOLS, MNKConfig, TicTacToeState
from games.tictactoe.variants import (
    Seat,
    config_from_settings,
    config_to_settings,
    mode_name,
    variant_id,
    variant_label,
)

if TYPE_CHECKING:
    from engine.app import App

GAME_ID = "tictactoe"
BOARD_AREA = (220.0, 84.0, 560.0, 560.0)
SEAT_KEYS = ("X", "O", "T")  # settings keys per seat (T: the third player's triangle)
# Seconds between moves when the computer plays the computer, so people can follow.
CVC_DELAY = 0.6
# Seconds before the computer answers a human, so the human sees their own move land.
REPLY_DELAY = 0.15
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
    return tuple(Seat.parse(kinds.get(key), levels.get(key)) for key in SEAT_KEYS[:players])


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


class TicTacToeScene(GameScene):
    """Board, player cards, hint overlay, and the computer on the engine's AI runner."""

    help_title = "Tic-tac-toe: rules"
    help_text = HELP

    def __init__(self, app: App, config: MNKConfig | None = None,
                 seats: tuple[Seat, ...] | None = None, seed: int | None = None) -> None:
        super().__init__(app)
        self.config = config or config_from_settings(
            app.settings.get("last_board_sizes").get(GAME_ID))
        stored = seats or seats_from_settings(app, self.config.players)
        self.seats = tuple(stored[i] if i < len(stored) else Seat()
                           for i in range(self.config.players))
        self.title = "Tic-tac-toe"
        self.rng = random.Random(seed)
        self.agents = [make_agent(self.config, s, seed=self.rng.randrange(1 << 30))
                       if s.is_computer else None for s in self.seats]
        self.serial = 0
        self._next_serial = 1
        # Each entry is (game serial, state): results are recorded once per game,
        # however often it is undone and replayed to its end.
        self.history: History[tuple[int, TicTacToeState]] = History(
            (0, TicTacToeState.new(self.config)))
        self.recorded: set[int] = set()
        self.hover: tuple[int, int] | None = None
        self.cursor: tuple[int, int] | None = None
        self.paused = False
        self._step_once = False
        self._wait = REPLY_DELAY
        self.note: str | None = None
        self.show_hints = bool(app.settings.get("show_hints"))
        self.hint_runner = AIRunner()
        self.hints: dict[int, Any] = {}
        self._hint_for: int | None = None
        ui = self.ui
        ui.add(Button((316, 12, 96, 40), "Setup", self.open_setup, name="Setup"))
        ui.add(Button((420, 12, 92, 40), "Hint", self.toggle_hints, name="Hint",
                      enabled=lambda: self.config.players == 2,
                      selected=lambda: self.show_hints))
        cvc = self.all_computers
        ui.add(Button((24, 540, 84, 40), lambda: "Resume" if self.paused else "Pause",
                      self.toggle_pause, name="Pause", visible=cvc))
        ui.add(Button((116, 540, 84, 40), "Step", self.step_once, name="Step",
                      visible=cvc, enabled=lambda: self.paused))
        ui.add(Label((800, 84, 150, 60), lambda: variant_label(self.config), size=15,
                     role="muted"))

    # --- seats and state ------------------------------------------------------------
    @property
    def state(self) -> TicTacToeState:
        """The position on screen."""
        return self.history.current[1]

    def all_computers(self) -> bool:
        """Whether the computer plays every seat."""
        return all(s.is_computer for s in self.seats)

    def human_to_move(self, entry: tuple[int, TicTacToeState]) -> bool:
        """Whether a human is to move in a history entry's position."""
        state = entry[1]
        return not state.is_terminal() and not self.seats[state.to_move].is_computer

    def computer_to_move(self) -> bool:
        """Whether it is a computer seat's turn in a game still running."""
        s = self.state
        return not s.is_terminal() and self.seats[s.to_move].is_computer

    def geometry(self) -> BoardGeometry:
        """Board placement for the current window size."""
        return BoardGeometry(self.config.rows, self.config.cols,
                             self.app.viewport.map_rect(BOARD_AREA))

    def _push(self, state: TicTacToeState) -> None:
        self.history.push((self.serial, state))
        if state.is_terminal():
            self._record(state)
        self._changed()

    def play(self, row: int, col: int) -> bool:
        """Play the human mover's mark at (row, col) if legal; returns whether it was."""
        state = self.state
        if self.computer_to_move():
            return False
        move = row * self.config.cols + col
        if move not in state.legal_moves():
            return False
        self._push(state.play(move))
        return True

    def _changed(self) -> None:
        """After any change of position: drop stale work, schedule the computer."""
        self.ai.cancel()
        self.hint_runner.cancel()
        self.hints = {}
        self._hint_for = None
        self._wait = CVC_DELAY if self.all_computers() else REPLY_DELAY

    def _record(self, state: TicTacToeState) -> None:
        if self.serial in self.recorded:
            return
        self.recorded.add(self.serial)
        humans = [i for i, s in enumerate(self.seats) if not s.is_computer]
        me = humans[0] if humans else 0
        outcome = "drawn" if state.winner is None else ("won" if state.winner == me else "lost")
        computers = [s.level_tag() for s in self.seats if s.is_computer]
        warning = self.app.stats.record_game(GAME_ID, variant_id(self.config),
                                             mode_name(self.seats), " vs ".join(computers),
                                             outcome)
        if warning:
            self.app.notify(warning)

    # --- computer ------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        super().update(dt)
        self._poll_hints()
        if self.ai.busy or not self.computer_to_move():
            return
        if self.paused and not self._step_once:
            return
        self._wait -= dt
        if self._wait > 0 and not self._step_once:
            return
        self._step_once = False
        agent = self.agents[self.state.to_move]
        assert agent is not None
        self.think(agent, self.state, tag=(self.history.index, self.state))

    def on_ai_result(self, result: AIResult) -> None:
        super().on_ai_result(result)
        index, asked = result.tag
        if result.move is None or index != self.history.index or asked != self.state:
            return  # the position changed while the computer thought
        agent = self.agents[asked.to_move]
        note = getattr(agent, "last_note", None)
        if note and note != self.note:
            self.note = note
        self._push(asked.play(result.move))

    def toggle_pause(self) -> None:
        """Pause or resume a computer-versus-computer game."""
        self.paused = not self.paused
        if self.paused:
            self.ai.cancel()

    def step_once(self) -> None:
        """While paused, let the computer make exactly one move."""
        if self.paused and self.computer_to_move() and not self.ai.busy:
            self._step_once = True

    # --- hints -------------------------------------------------------------------------------
    def toggle_hints(self) -> None:
        """Show or hide the hint overlay (and remember the choice)."""
        if self.config.players != 2:
            self.app.notify("Hints are available in two-player games.")
            return
        self.show_hints = not self.show_hints
        try:
            self.app.settings.set("show_hints", self.show_hints)
            self.app.save_settings()
        except ValueError:
            pass
        if not self.show_hints:
            self.hint_runner.cancel()
            self._hint_for = None  # ask again when they are shown again

    def _poll_hints(self) -> None:
        if not self.show_hints or self.config.players != 2 or self.state.is_terminal():
            return
        index = self.history.index
        if self.hint_runner.busy:
            result = self.hint_runner.poll()
            if result is None:
                return
            if result.error is not None:
                self.app.notify(f"The hint could not be worked out: {result.error}")
            elif result.tag == (index, self.state):
                self.hints = dict(result.move or {})
                self._hint_for = index
            return
        if self._hint_for != index and not (self.computer_to_move() and not self.paused):
            # Hints are for a human about to move (or a paused game being studied);
            # working them out while the computer thinks would only slow it down.
            from games.tictactoe.perfect import move_values

            state = self.state
            self._hint_for = index  # asked once per position
            self.hint_runner.submit(lambda cancel: move_values(state, cancel, HINT_BUDGET),
                                    tag=(index, state))

    def busy_label(self) -> str | None:
        if self.ai.busy:
            return "thinking…"
        if self.hint_runner.busy:
            return "hint…"
        return None

    def is_active(self) -> bool:
        waiting = self.computer_to_move() and not (self.paused and not self._step_once)
        return super().is_active() or self.hint_runner.busy or waiting

    def leave(self) -> None:
        super().leave()
        self.hint_runner.cancel()

    # --- GameScene actions ----------------------------------------------------------------
    def new_game(self) -> None:
        if self.state.moves_made == 0:
            return
        self.serial, self._next_serial = self._next_serial, self._next_serial + 1
        self.history.push((self.serial, TicTacToeState.new(self.config)))
        self._changed()

    def undo(self) -> None:
        if self.all_computers():
            moved = self.history.undo()
            self.paused = True
        elif any(s.is_computer for s in self.seats):
            # Against the computer, go back to the human's previous turn, not just
            # before the computer's reply (which it would only play again).
            moved = self.history.undo(until=self.human_to_move)
        else:
            moved = self.history.undo()
        if moved:
            self.serial = self.history.current[0]
            self._changed()

    def redo(self) -> None:
        if self.all_computers() or not any(s.is_computer for s in self.seats):
            moved = self.history.redo()
        else:
            moved = self.history.redo(
                until=lambda e: self.human_to_move(e) or e[1].is_terminal())
        if moved:
            self.serial = self.history.current[0]
            self._changed()

    def can_undo(self) -> bool:
        if self.all_computers() or not any(s.is_computer for s in self.seats):
            return self.history.can_undo
        return any(self.human_to_move(e) for e in self.history.entries[:self.history.index])

    def can_redo(self) -> bool:
        return self.history.can_redo

    def open_setup(self) -> None:
        """Choose board and seats (an overlay; Start replaces this game)."""
        from games.tictactoe.setup import SetupOverlay

        self.app.push(SetupOverlay(self.app, self))

    def restart(self, config: MNKConfig, seats: tuple[Seat, ...]) -> None:
        """Start a fresh game with another board or other seats."""
        remember(self.app, config, seats)
        self.app.replace(TicTacToeScene(self.app, config, seats))

    def status_text(self) -> str:
        s = self.state
        name = SYMBOLS
        if s.winner is not None:
            return f"{name[s.winner]} wins! {self.config.k} in a row. New game (N) to play again."
        if s.is_draw:
            return "Draw: the board is full and nobody completed a line."
        seat = self.seats[s.to_move]
        if seat.is_computer:
            if self.paused:
                return f"Paused. {name[s.to_move]} ({seat.describe()}) is next: Step or Resume."
            text = f"{name[s.to_move]} to move: the computer ({seat.level_text()})."
        else:
            text = f"{name[s.to_move]} to move: click an empty square."
        if self.note:
            text += f" {self.note}"
        elif self.show_hints and self.hints:
            if any(not v.exact for v in self.hints.values()):
                text += " Hint: estimate from a bounded search."
        return text

    # --- input -----------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
            if event.key == pygame.K_h:
                self.toggle_hints()
                return
            if event.key == pygame.K_s:
                self.open_setup()
                return
            if event.key == pygame.K_p and self.all_computers():
                self.toggle_pause()
                return
        super().handle_event(event)

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
        human = not over and not self.seats[state.to_move].is_computer
        hover_ok = self.hover is not None and human and state.cell(*self.hover) == EMPTY
        if hover_ok:
            fill_cell(surface, geom, self.hover, p.hover)
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
            draw_mark(ghost, geom.cell_rect(*self.hover), state.to_move, p.players[state.to_move])
            ghost.set_alpha(70)
            surface.blit(ghost, (0, 0))
        if state.win_line:
            cells = [divmod(i, self.config.cols) for i in state.win_line]
            draw_win_line(surface, geom, cells, p.win_line, p.background)
        if self.cursor is not None:
            outline_cell(surface, geom, self.cursor, p.focus, max(2, round(geom.cell_size / 30)))
        self._draw_player_cards(surface)
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

    def _draw_player_cards(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        state = self.state
        for player in range(self.config.players):
            top = 84 + player * 140
            rect = vp.rect(16, top, 188, 124)
            to_move = not state.is_terminal() and state.to_move == player
            winner = state.winner == player
            pygame.draw.rect(surface, p.panel, rect, border_radius=vp.px(10))
            edge = p.focus if (to_move or winner) else p.panel_edge
            pygame.draw.rect(surface, edge, rect, vp.px(4 if to_move or winner else 1),
                             border_radius=vp.px(10))
            draw_mark(surface, vp.rect(24, top + 8, 64, 64), player, p.players[player])
            font = theme.font(20 * vp.scale, bold=True)
            surface.blit(font.render(SYMBOLS[player], True, p.text), vp.point(96, top + 14))
            seat = self.seats[player]
            small = theme.font(13 * vp.scale)
            who = "Human" if not seat.is_computer else "Computer"
            surface.blit(small.render(who, True, p.muted), vp.point(96, top + 42))
            if seat.is_computer:
                detail = seat.level_text()
                surface.blit(small.render(detail, True, p.muted), vp.point(24, top + 78))
            tag = ""
            if winner:
                tag = "winner"
            elif to_move:
                tag = "thinking…" if (seat.is_computer and self.ai.busy) else "to move"
            if tag:
                surface.blit(theme.font(14 * vp.scale, bold=True).render(tag, True, p.accent),
                             vp.point(24, top + 98))

    def debug_state(self) -> dict[str, Any]:
        s = self.state
        return {"scene": "TicTacToeScene", "board": s.to_rows(),
                "winner": None if s.winner is None else SYMBOLS[s.winner],
                "draw": s.is_draw, "to_move": SYMBOLS[s.to_move],
                "win_line": list(s.win_line), "status": self.status_text(),
                "variant": variant_id(self.config),
                "seats": [seat.describe() for seat in self.seats],
                "thinking": self.ai.busy, "paused": self.paused,
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
