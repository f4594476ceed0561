"""The move list beside the board of a two-player game: each move of the game on screen in
the game's notation, and, once the game has been reviewed, the change of value it caused.

Mixed into :class:`engine.screens.turn_scene.TurnBasedScene`. The list is shown while the
Moves toggle is on (M; remembered in settings as ``show_moves``) and always once the game
is over. It goes under the player cards where they stand in a column beside the board
and leave room (the board keeps its size); else it takes a column at the right of the body
in a wide window, a strip under the board in a tall one, and the game lays out its own
parts in the rest (:meth:`engine.screens.game_scene.GameScene.arrange_body`). Nothing
here names a game.
"""

from __future__ import annotations

from typing import Any

import pygame
from pygame import FRect

from engine.core.i18n import N_, _
from engine.ui.game_layout import MARGIN
from engine.ui.widgets import ellipsize

MOVES_W = 190.0  # the column beside the board
MOVES_H = 132.0  # the strip under it
MOVE_ROW_H = 20.0
HEADING_H = 26.0
MIN_ROWS = 4  # the room under the cards must hold this many moves

# The toolbar's toggle.
MOVES_LABEL = N_("Moves")


def _room_under_cards(rects: dict[str, FRect], body: FRect) -> FRect | None:
    """The free part of the player cards' column below the cards (and the computer
    controls under them), when the cards stand in a column beside the board and it holds
    at least :data:`MIN_ROWS` moves; else None."""
    cards = [rect for name, rect in rects.items() if name.startswith("card")
             and name[4:].isdigit()]
    board = rects.get("board")
    if not cards or board is None or len({card.x for card in cards}) != 1 \
            or cards[0].right > board.x:
        return None
    column = cards[0]
    bottom = max(card.bottom for card in cards)
    controls = rects.get("controls")
    if controls is not None and controls.h > 0 and controls.x == column.x:
        bottom = max(bottom, controls.bottom)
    top = bottom + MARGIN
    height = body.bottom - MARGIN - top
    if height < HEADING_H + MIN_ROWS * MOVE_ROW_H:
        return None
    return FRect(column.x, top, column.w, height)


class MoveListView:
    """The move list of a turn-based screen (see the module's notes); ``match`` is the
    screen's :class:`~engine.midend.match.MatchMidend`."""

    match: Any
    game: Any
    app: Any
    show_moves: bool
    moves_scroll: int = 0  # rows scrolled back from the newest move

    def moves_shown(self) -> bool:
        """Whether the list is on screen: toggled on, or the game is over."""
        return bool(self.show_moves) or self.match.state.is_terminal()

    def toggle_moves(self) -> None:
        """Show or hide the move list (remembered for the next game)."""
        self.show_moves = not self.show_moves
        self.moves_scroll = 0
        try:
            self.app.settings.set("show_moves", self.show_moves)
            self.app.save_settings()
        except ValueError:
            pass

    def own_layout_key(self) -> object:
        return self.moves_shown()

    def arrange_body(self, body: FRect) -> dict[str, FRect]:
        """The game's layout with the list in the room under the player cards (the board
        keeps its size); where there is too little room there, the list takes a column at
        the right (wide window) or a strip at the bottom (tall one) and the game lays out
        the rest."""
        rects: dict[str, FRect] = self.layout_body(body)  # type: ignore[attr-defined]
        if not self.moves_shown():
            return rects
        room = _room_under_cards(rects, body)
        if room is not None:
            rects["moves"] = room
            return rects
        if body.w >= body.h * 1.1:
            column = FRect(body.right - MARGIN - MOVES_W, body.y + MARGIN, MOVES_W,
                           body.h - 2 * MARGIN)
            rest = FRect(body.x, body.y, body.w - MOVES_W - MARGIN, body.h)
        else:
            column = FRect(body.x + MARGIN, body.bottom - MARGIN - MOVES_H,
                           body.w - 2 * MARGIN, MOVES_H)
            rest = FRect(body.x, body.y, body.w, body.h - MOVES_H - MARGIN)
        rects = self.layout_body(rest)  # type: ignore[attr-defined]
        rects["moves"] = column
        return rects

    def move_rows(self) -> list[tuple[str, str, str]]:
        """(move, value change, grade) for each move of the game on screen; the value
        change and grade are empty until the game has been reviewed. Worked out again only
        when the log, the reviews or the language changed (it is drawn every frame)."""
        from engine.core.i18n import current_language

        match = self.match
        key = (id(match.history), match.history.version, match.history.index,
               match.reviews_version, current_language())
        cached = getattr(self, "_move_rows", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        rows = self._move_rows_now()
        self._move_rows = (key, rows)
        return rows

    def _move_rows_now(self) -> list[tuple[str, str, str]]:
        from engine.screens.review_scene import short_value

        start, moves = self.match.game_record()
        try:
            review = self.match.reviews.get((start, moves)) if moves else None
        except TypeError:  # a position that cannot be a key has no kept review
            review = None
        rows: list[tuple[str, str, str]] = []
        state = start
        for index, move in enumerate(moves):
            name = self.player_name(state.current_player())  # type: ignore[attr-defined]
            text = f"{index + 1}. {name}: {self.game.move_text(state, move)}"
            change = grade = ""
            if review is not None:
                entry = review.moves[index]
                change = f"{short_value(entry.before)}→{short_value(entry.after)}"
                grade = entry.grade
            rows.append((text, change, grade))
            state = state.play(move)
        return rows

    def scroll_moves(self, rows: int) -> None:
        """Scroll the list ``rows`` back (positive) or forward (negative)."""
        self.moves_scroll = max(0, self.moves_scroll + rows)

    def draw_move_list(self, surface: pygame.Surface) -> None:
        """The heading and the newest moves that fit (scrolled back with the wheel)."""
        layout = self.layout()  # type: ignore[attr-defined]
        if not self.moves_shown() or "moves" not in layout:
            return
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        box = layout["moves"]
        rect = vp.map_rect(tuple(box))
        pygame.draw.rect(surface, p.panel, rect, border_radius=vp.px(8))
        heading = theme.font(15 * vp.scale, bold=True)
        pad = vp.px(8)
        surface.blit(heading.render(ellipsize(_(MOVES_LABEL), heading, rect.w - 2 * pad),
                                    True, p.accent), (rect.x + pad, rect.y + vp.px(4)))
        rows = self.move_rows()
        font = theme.font(14 * vp.scale)
        if not rows:
            text = ellipsize(_("No moves yet."), font, rect.w - 2 * pad)
            surface.blit(font.render(text, True, p.muted),
                         (rect.x + pad, rect.y + vp.px(HEADING_H + 2)))
            return
        fits = max(1, int((box.h - HEADING_H - 4) // MOVE_ROW_H))
        self.moves_scroll = min(self.moves_scroll, max(0, len(rows) - fits))
        end = len(rows) - self.moves_scroll
        shown = rows[max(0, end - fits):end]
        y = box.y + HEADING_H
        for text, change, grade in shown:
            line = vp.map_rect((box.x, y, box.w, MOVE_ROW_H))
            colour = p.bad if grade in ("mistake", "blunder") else p.text
            right = font.render(change, True, colour)
            room = line.w - 3 * pad - right.get_width()
            surface.blit(font.render(ellipsize(text, font, max(0, room)), True, p.text),
                         (line.x + pad, line.centery - font.get_height() // 2))
            surface.blit(right, right.get_rect(midright=(line.right - pad, line.centery)))
            y += MOVE_ROW_H

    def moves_wheel(self, event: pygame.event.Event) -> bool:
        """A wheel turn over the list scrolls it (True: the event was the list's)."""
        layout = self.layout()  # type: ignore[attr-defined]
        if event.type != pygame.MOUSEWHEEL or not self.moves_shown() or "moves" not in layout:
            return False
        pos = pygame.mouse.get_pos()
        if not self.app.viewport.map_rect(tuple(layout["moves"])).collidepoint(pos):
            return False
        self.scroll_moves(event.y)
        return True
