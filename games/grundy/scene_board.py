"""King, Rook, Queen and Knight: tokens on a chessboard heading for the top-left corner."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pygame

from engine.core.i18n import N_, _
from engine.model.history import History
from engine.model.seats import Seat
from engine.ui.animation import SLIDE, ease_out, lerp
from engine.ui.board.draw import draw_cell_text, fill_cell, hatch, outline_cell
from engine.ui.board.geometry import BoardGeometry
from engine.ui.board.pointer import GridPointer
from engine.ui.game_layout import BUTTON_H
from engine.ui.value_overlay import draw_value_mark
from engine.ui.widgets import MIN_TEXT, Button, Label
from games.grundy.family_scene import VARIANT_H, GrundyScene
from games.grundy.help_text import board_rules
from games.grundy.panel_render import (
    NoteFlow,
    draw_dashed_line,
    draw_dashed_ring,
    draw_landing_frame,
    draw_player_tag,
)
from games.grundy.pieces_render import draw_piece
from games.grundy.starts import fair_start, mover_should_win
from games.grundy.variants import GrundySetup

if TYPE_CHECKING:
    from pygame import FRect

    from engine.runtime.app import App

# Below this cell size (pixels) a player's number tag would hide the square: the frame
# and the ring still mark the move.
TAG_MIN_CELL = 22
MIN_CELL_PX = 3  # smaller squares cannot be drawn (nor told apart)
NUMBER_WORDS = {2: N_("Two"), 3: N_("Three"), 4: N_("Four")}


def _and_list(tokens: list[int]) -> str:
    """"token 1 and token 3", "token 1, token 2 and token 4" (numbered from 1)."""
    names = [_("token {number}").format(number=t + 1) for t in tokens]
    if len(names) == 1:
        return names[0]
    return _("{items} and {last}").format(items=", ".join(names[:-1]), last=names[-1])

# The rule under the board, a whole sentence per piece (not "{piece} moves…": Hungarian
# needs the article and the lower case of each word, "A huszár…").
PIECE_RULES = {
    "king": N_("The king moves towards ★. The player who cannot move loses."),
    "rook": N_("The rook moves towards ★. The player who cannot move loses."),
    "queen": N_("The queen moves towards ★. The player who cannot move loses."),
    "knight": N_("The knight moves towards ★. The player who cannot move loses."),
}


class GrundyBoardScene(GrundyScene):
    """The chessboard games; turns, computer and hints come from GrundyScene."""

    help_title = N_("Grundy board games: rules")

    @property
    def help_text(self) -> str:  # type: ignore[override]
        """The rules (examples computed, levels from the ladder), in the current language."""
        return board_rules()

    def __init__(self, app: App, setup: GrundySetup, seats: tuple[Seat, ...] | None = None,
                 seed: int | None = None) -> None:
        from games.grundy.board import BoardConfig, TokenState

        self.config = BoardConfig(setup.game, setup.rows, setup.cols, setup.tokens)
        super().__init__(app, setup, TokenState.start(self.config), seats, seed)
        # The seats are known only now: start from the position that is fair to them.
        self.history = History((0, self.fresh_state()))
        self.selected = 0
        self.placing = False
        # A destination several tokens can reach, waiting for a click on one of them:
        # (the position it was asked in, the square, the candidate tokens).
        self._choosing: tuple[Any, tuple[int, int], list[int]] | None = None
        # The position in which the player picked a token (a click on it, or 1–4): there
        # a square several tokens can reach goes to that token without asking.
        self._picked_in: Any = None
        # The board's picture and what it was drawn for (see _board_layer).
        self._layer: tuple[tuple[Any, ...], pygame.Surface] | None = None
        self._layer_table: Any = None
        self.goal_rect: pygame.Rect | None = None  # where the goal's ★ was last drawn
        self.pointer = GridPointer()
        ui = self.ui
        ui.add(Label(self.place("variant"), lambda: setup.label(), size=15, role="muted",
                     fit_lines=3, min_size=13))
        ui.add(Button(self.place("Place"), lambda: _("Done") if self.placing else _("Place"),
                      self.toggle_place, name="Place", selected=lambda: self.placing))
        ui.add(Button(self.place("Table"), N_("Table"), self.open_table, name="Table"))

    # --- layout ----------------------------------------------------------------------------
    def extras_slots(self) -> list[tuple[str, float]]:
        return [("variant", VARIANT_H), ("Place", BUTTON_H), ("Table", BUTTON_H)]

    def extras_height(self) -> float:
        # Below the board: the variant and the two buttons in their own column, the rule,
        # the last-move legend and the hint legend beside them.
        return 200.0

    # --- hooks ----------------------------------------------------------------------------
    def fresh_state(self) -> Any:
        """The fair start (see :func:`games.grundy.starts.fair_start`): won for the first
        player, unless only the second seat is a human, who then gets the won side; or the
        start the game ID names (``king:8x8:@5.6``, a record's)."""
        if self.setup.start:
            from games.grundy.variants import new_game

            return new_game(self.setup)
        first, second = (seat.is_computer for seat in self.seats)
        return fair_start(self.config, mover_should_win(first, second))

    def hint_extra(self, state: Any, cancel: Any) -> dict[str, Any]:
        """The whole Grundy table of the piece on this board (every square's value)."""
        from games.grundy.tables import grundy_table

        cfg = self.config
        return {"table": grundy_table(cfg.piece, cfg.rows, cfg.cols)}

    # --- actions ------------------------------------------------------------------------------
    def geometry(self) -> BoardGeometry:
        """Board placement for the current window size: the layout's "board" square."""
        return BoardGeometry(self.config.rows, self.config.cols, self.area("board"))

    def move_sound(self, before: Any, after: Any) -> str:
        return "slide"

    def on_moved(self, before: Any, after: Any) -> None:
        """Each token that changed square slides from the old square to the new one."""
        if before.config != after.config:
            return
        for index, (old, new) in enumerate(zip(before.tokens, after.tokens, strict=True)):
            if old != new:
                self.anim.start(("slide", index), SLIDE, data=(old, new))

    def last_squares(self) -> list[tuple[int, tuple[int, int], tuple[int, int]]]:
        """(player, from square, to square) of every token move the board marks, oldest
        first (see :meth:`GrundyScene.marked_moves`)."""
        marks = []
        for player, before, after in self.marked_moves():
            for old, new in zip(before.tokens, after.tokens, strict=True):
                if old != new:
                    marks.append((player, old, new))
        return marks

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

    def movers_to(self, row: int, col: int) -> list[int]:
        """The tokens that may move to (row, col) now, one per square they stand on (tokens
        sharing a square make the same move, so the lowest-numbered one stands for all)."""
        state = self.state
        movers: dict[tuple[int, int], int] = {}
        for token, r, c in state.legal_moves():
            if (r, c) == (row, col):
                movers.setdefault(state.tokens[token], token)
        return sorted(movers.values())

    def choosing(self) -> tuple[tuple[int, int], list[int]] | None:
        """The question "which token goes there?" still open: (square, candidate tokens);
        None once anything has moved (a move, an undo, the computer) since it was asked."""
        if self._choosing is None or self._choosing[0] is not self.state:
            return None
        return self._choosing[1], self._choosing[2]

    def click_square(self, row: int, col: int) -> None:
        """A click on a square: place; answer "which token?"; move the selected token (or
        the only token that can go there); ask which when several can; or select a token."""
        state = self.state
        if self.placing:
            self._place(row, col)
            return
        pending = self.choosing()
        self._choosing = None
        if pending is not None:
            square, candidates = pending
            picked = [t for t in candidates if state.tokens[t] == (row, col)]
            if picked:
                self.selected = picked[0]
                self.play_move((picked[0], *square))
                return
            # Any other click drops the question and counts as a click of its own.
        movers = self.movers_to(row, col)
        picked = self._picked_in is state
        here = [i for i, square in enumerate(state.tokens) if square == (row, col)]
        if (self.selected, row, col) in state.legal_moves() and (picked or len(movers) == 1
                                                                or here):
            # A square the selected token may go to is a move, even with a token on it.
            self.play_move((self.selected, row, col))
            return
        if here == [self.selected] and len(movers) == 1 and not self.computer_to_move():
            # The selected token's own square, which one other token can reach (a framed
            # winning move onto it): selecting it again would do nothing, so move that one.
            self.selected = movers[0]
            self.play_move((movers[0], row, col))
            return
        if here:
            # Several tokens on one square: each click selects the next of them.
            later = [i for i in here if i > self.selected]
            self.selected = later[0] if later else here[0]
            self._picked_in = state
            return
        if len(movers) == 1:
            # Only one token can go there: no need to select it first.
            self.selected = movers[0]
            self.play_move((movers[0], row, col))
        elif movers and not self.computer_to_move():
            self._choosing = (state, (row, col), movers)
        else:
            # Neither a move nor a token: play_move refuses it (with the "illegal" sound).
            self.play_move((self.selected, row, col))

    def _place(self, row: int, col: int) -> None:
        from games.grundy.board import TokenState

        tokens = list(self.state.tokens)
        tokens[self.selected] = (row, col)
        # A position set by hand is a new game, started by the first player.
        self.new_game_at(TokenState(self.config, tuple(tokens), 0))
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
                    self._picked_in = self.state
            elif event.key == pygame.K_t:
                self.open_table()

    # --- drawing --------------------------------------------------------------------------
    def status_text(self) -> str:
        state = self.state
        if state.is_terminal():
            winner = 1 - state.current_player()
            return _("{winner} wins: no token can move, so {loser} is stuck. New game (N) to "
                     "play again.").format(winner=self.player_name(winner),
                                           loser=self.player_name(1 - winner))
        if self.placing:
            return _("Place: click a square to put token {number} there "
                     "(Done when finished).").format(number=self.selected + 1)
        pending = self.choosing()
        if pending is not None:
            _square, movers = pending
            count = _(NUMBER_WORDS.get(len(movers), str(len(movers))))
            return _("{count} tokens can go there ({tokens}, ringed): click the "
                     "one to move, or elsewhere to cancel.").format(count=count,
                                                                   tokens=_and_list(movers))
        how = (_("click a highlighted square.") if self.config.tokens == 1 else
               _("click where a token should go (token {number}'s squares are "
                 "highlighted), or a token to select it.").format(number=self.selected + 1))
        text = self.turn_text(how)
        if self.show_hints:
            text += " " + state.value_explained()
        return text

    def draw_board(self, surface: pygame.Surface) -> None:
        p = self.app.theme.palette
        geom = self.geometry()
        state = self.state
        size = geom.cell_size
        if size < MIN_CELL_PX:
            # A window far below the minimum leaves no room for the board: the rest still
            # shows (the app enforces a minimum size; this only keeps odd sizes safe).
            self.draw_player_cards(surface)
            self._draw_side_panel(surface)
            return
        table = self.hint_view().get("table")
        surface.blit(self._board_layer(geom, table), geom.rect.topleft)
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
        self._draw_goal(surface, geom, table is not None)
        if self.pointer.hover is not None and not state.is_terminal():
            outline_cell(surface, geom, self.pointer.hover, p.grid, max(1, round(size / 30)))
        marks = self.last_squares()
        self._draw_marks(surface, geom, marks)
        self._draw_tokens(surface, geom)
        self._draw_choice(surface, geom)
        self._draw_mark_tags(surface, geom, marks)
        if self.pointer.cursor is not None:
            outline_cell(surface, geom, self.pointer.cursor, p.focus, max(2, round(size / 16)))
        self.draw_player_cards(surface)
        self._draw_side_panel(surface)

    def _draw_goal(self, surface: pygame.Surface, geom: BoardGeometry, values: bool) -> None:
        """The goal's ★ in the top-left square, over the hint marks (issue 28: with hints
        on it was hidden). With the values shown it moves to the square's top-left
        corner: the value is in the middle, a winning move's ✓ at the top right and the
        dot of a square to move to at the bottom left."""
        size = geom.cell_size
        goal = geom.cell_rect(0, 0)
        font = self.app.theme.font(max(8.0, size * (0.3 if values else 0.5)), bold=True)
        star = font.render("★", True, self.app.theme.palette.accent)
        if values:
            inset = max(2, round(size / 14))
            self.goal_rect = star.get_rect(topleft=(goal.x + inset, goal.y + inset // 2))
        else:
            self.goal_rect = star.get_rect(center=goal.center)
        surface.blit(star, self.goal_rect)

    def _board_layer(self, geom: BoardGeometry, table: Any) -> pygame.Surface:
        """The squares (and with hints the table of values) as one picture, redrawn only
        when the window, the palette or the table changes: a 32×32 board is a thousand
        squares, too many to draw one by one every frame."""
        p = self.app.theme.palette
        key = (tuple(geom.area), geom.rows, geom.cols, p, id(table))
        if self._layer is not None and self._layer[0] == key:
            return self._layer[1]
        rect = geom.rect
        layer = pygame.Surface(rect.size)
        local = BoardGeometry(geom.rows, geom.cols, geom.area.move(-rect.x, -rect.y))
        rows, cols = geom.rows, geom.cols
        for r in range(rows):
            for c in range(cols):
                pygame.draw.rect(layer, p.board if (r + c) % 2 == 0 else p.hover,
                                 local.cell_rect(r, c))
        pygame.draw.rect(layer, p.grid, layer.get_rect(), max(1, self.app.viewport.px(2)))
        size = local.cell_size
        if table is not None:
            font = self.app.theme.font(max(7.0, size * 0.32), bold=True)
            for r in range(rows):
                for c in range(cols):
                    value = int(table[r, c])
                    if value == 0:
                        fill_cell(layer, local, (r, c), p.bad, 90)
                        hatch(layer, local.cell_rect(r, c), p.bad, step=max(4, round(size / 5)),
                              width=max(1, round(size / 25)))
                    if size >= 14:
                        draw_cell_text(layer, local, (r, c), str(value), font, p.text,
                                       p.background)
        self._layer = (key, layer)
        # Keep the table alive with its picture, so its id cannot be reused meanwhile.
        self._layer_table = table
        return layer

    def _draw_marks(self, surface: pygame.Surface, geom: BoardGeometry,
                    marks: list[tuple[int, tuple[int, int], tuple[int, int]]]) -> None:
        """The last move(s): a dashed ring where the token stood, a thick frame where it
        landed (shapes, not only a colour)."""
        p = self.app.theme.palette
        size = geom.cell_size
        for _player, old, new in marks:
            ring = max(2, round(size / 14))
            centre, end = geom.cell_center(*old), geom.cell_center(*new)
            # The trail from the ring to the frame pairs them when several moves are marked.
            gap = math.dist(centre, end)
            if gap > size * 1.2:
                a = size * 0.4 / gap
                b = 1 - size * 0.5 / gap
                start = (lerp(centre[0], end[0], a), lerp(centre[1], end[1], a))
                stop = (lerp(centre[0], end[0], b), lerp(centre[1], end[1], b))
                draw_dashed_line(surface, p.background, start, stop, ring + 2, size * 0.12)
                draw_dashed_line(surface, p.focus, start, stop, ring, size * 0.12)
            draw_dashed_ring(surface, p.background, centre, size * 0.36, ring + 2)
            draw_dashed_ring(surface, p.focus, centre, size * 0.36, ring)
            draw_landing_frame(surface, self.app.theme, geom.cell_rect(*new),
                               max(2, round(size / 9)))

    def _draw_mark_tags(self, surface: pygame.Surface, geom: BoardGeometry,
                        marks: list[tuple[int, tuple[int, int], tuple[int, int]]]) -> None:
        """Whose move each mark shows: the player's number at the landing square's corner."""
        size = geom.cell_size
        if size < TAG_MIN_CELL:
            return
        for player, _old, new in marks:
            rect = geom.cell_rect(*new)
            r = size * 0.17
            draw_player_tag(surface, self.app.theme, (rect.left + r + 2, rect.top + r + 2), r,
                            player)

    def _token_boxes(self, geom: BoardGeometry) -> list[pygame.Rect]:
        """Each token's box on its square; tokens sharing a square fan out to stay visible."""
        counts: dict[tuple[int, int], int] = {}
        boxes = []
        for r, c in self.state.tokens:
            seen = counts.get((r, c), 0)
            counts[(r, c)] = seen + 1
            rect = geom.cell_rect(r, c)
            shift = round(seen * rect.width * 0.12)
            boxes.append(rect.inflate(-rect.width * 0.1, -rect.height * 0.1).move(shift, -shift))
        return boxes

    def _draw_tokens(self, surface: pygame.Surface, geom: BoardGeometry) -> None:
        p = self.app.theme.palette
        state = self.state
        boxes = self._token_boxes(geom)
        # Sliding tokens are drawn last, over the ones standing still.
        order = sorted(range(len(boxes)),
                       key=lambda i: self.anim.progress(("slide", i)) is not None)
        for index in order:
            box = boxes[index]
            t = self.anim.progress(("slide", index))
            if t is not None:
                (r0, c0), (r1, c1) = self.anim.data(("slide", index))
                x0, y0 = geom.cell_center(r0, c0)
                x1, y1 = geom.cell_center(r1, c1)
                e = ease_out(t)
                box = box.move(round(lerp(x0 - x1, 0, e)), round(lerp(y0 - y1, 0, e)))
            # With one token there is nothing to select: no frame to mistake for a mark.
            if index == self.selected and self.config.tokens > 1 and not state.is_terminal():
                pygame.draw.rect(surface, p.focus, box, max(2, round(box.width / 12)),
                                 border_radius=max(2, box.width // 8))
            draw_piece(surface, box, self.config.piece, p.text, p.background)
            if self.config.tokens > 1:
                font = self.app.theme.font(max(7.0, box.width * 0.3), bold=True)
                label = font.render(str(index + 1), True, p.background)
                badge = label.get_rect(bottomright=box.bottomright).inflate(4, 0)
                pygame.draw.rect(surface, p.accent, badge, border_radius=3)
                surface.blit(label, label.get_rect(center=badge.center))

    def _draw_choice(self, surface: pygame.Surface, geom: BoardGeometry) -> None:
        """While asking which token goes to a square: that square framed, and a thick
        double ring round each token that can go there (the ones to click)."""
        pending = self.choosing()
        if pending is None:
            return
        p = self.app.theme.palette
        square, movers = pending
        size = geom.cell_size
        width = max(2, round(size / 10))
        outline_cell(surface, geom, square, p.focus, width)
        boxes = self._token_boxes(geom)
        for token in movers:
            centre = boxes[token].center
            radius = max(4, round(size * 0.55))
            pygame.draw.circle(surface, p.background, centre, radius + width, width + 2)
            pygame.draw.circle(surface, p.focus, centre, radius, width)

    def _draw_side_panel(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        flow = NoteFlow(surface, vp, theme, self.layout()["notes"])
        flow.text(_(PIECE_RULES[self.config.piece]), p.muted)
        if self.last_squares():
            box = flow.block(52)
            if box is not None:
                self._draw_mark_legend(surface, box)
        if self.show_hints:
            box = flow.block(118)
            if box is not None:
                self._draw_hint_legend(surface, box)

    def _draw_mark_legend(self, surface: pygame.Surface, box: FRect) -> None:
        """What the last-move marks mean, drawn with the marks themselves."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        font = theme.font(MIN_TEXT * vp.scale)
        frame = vp.rect(box.x + 2, box.y + 2, 22, 22)
        pygame.draw.rect(surface, p.board, frame)
        draw_landing_frame(surface, theme, frame, max(2, vp.px(3)))
        surface.blit(font.render(_("last move"), True, p.text), vp.point(box.x + 32, box.y + 5))
        draw_dashed_ring(surface, p.focus, vp.point(box.x + 13, box.y + 39), vp.px(9),
                         max(2, vp.px(2)), dashes=8)
        surface.blit(font.render(_("came from"), True, p.text), vp.point(box.x + 32, box.y + 31))

    def _draw_hint_legend(self, surface: pygame.Surface, box: FRect) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        font = theme.font(14 * vp.scale)
        x, y = box.x, box.y
        surface.blit(theme.font(15 * vp.scale, bold=True).render(_("Hint"), True, p.text),
                     vp.point(x, y))
        sample = vp.rect(x, y + 24, 30, 22)
        pygame.draw.rect(surface, p.bad, sample)
        hatch(surface, sample, p.background, step=vp.px(6))
        surface.blit(font.render(_("value 0: lost"), True, p.text), vp.point(x + 38, y + 26))
        sample = vp.rect(x, y + 54, 30, 22)
        pygame.draw.rect(surface, p.good, sample, vp.px(3))
        surface.blit(font.render(_("✓ winning move"), True, p.text), vp.point(x + 38, y + 56))
        surface.blit(font.render(_("n: Grundy value"), True, p.muted), vp.point(x, y + 86))

    def debug_state(self) -> dict[str, Any]:
        state = self.state
        hints = self.hint_view(shown_only=False)
        return {**super().debug_state(), "tokens": [list(t) for t in state.tokens],
                "to_move": state.current_player(), "selected": self.selected,
                "value": state.value(), "placing": self.placing,
                "winning": sorted(list(m) for m in hints.get("winning", ()))}
