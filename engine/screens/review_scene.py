"""The review of a finished two-player game: every move, its value and grade, a value
graph, the board at any move with its hints, and Play from here.

Reached by Review on the result panel (:mod:`engine.screens.result_overlay`). Nothing here
names a game: the analysis is :func:`engine.ai.review.review_game` on the game's hint
function, the moves are written in the game's notation (the descriptor's
:meth:`~engine.model.descriptor.GameDescriptor.move_text`), and the board is drawn by the
game's own screen — a second copy of it, never pushed on the stack, whose move log is set
to the chosen position and whose hint overlay is given that position's values.

The analysis runs on an :class:`~engine.ai.runner.AIRunner` off the frame loop: the status
line counts the positions done, Back cancels it, and the finished review is kept with the
game's record on its midend (:attr:`engine.midend.match.MatchMidend.reviews`, saved with
the game), so opening the review again shows it at once, also after a restart.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame
from pygame import FRect

from engine.ai.review import (
    Review,
    review_game,
    seat_summaries,
    summary_text,
    unavailable_reason,
)
from engine.ai.runner import AIRunner
from engine.core.i18n import N_, _
from engine.model.history import History
from engine.model.seats import Seat
from engine.model.values import MoveValue, nimber_text
from engine.screens.scene import Scene
from engine.ui.game_layout import MARGIN, STATUS_H, TOOLBAR_H, Tool, toolbar
from engine.ui.value_overlay import outcome_colour, value_label
from engine.ui.widgets import Button, Label, draw_lines, ellipsize, fit_text

if TYPE_CHECKING:
    from engine.runtime.app import App

# Seconds the whole review may take (issue 31: a 42-move game in at most 30 s);
# one position gets at most its game's hint budget.
REVIEW_LIMIT = 25.0
GRAPH_H = 150.0  # the value graph
SUMMARY_H = 120.0  # the human seats' summaries above the move list
ROW_H = 24.0  # a row of the move list
LIST_MIN_W = 300.0  # the move list beside the board needs this much

# A grade's word on screen (the command line writes the English key).
GRADE_WORDS = {"best": N_("best"), "good": N_("good"), "inaccuracy": N_("inaccuracy"),
               "mistake": N_("mistake"), "blunder": N_("blunder"), "unknown": N_("not worked out")}


def review_layout(area: FRect) -> dict[str, FRect]:
    """Named design rectangles of the review screen in ``area``: "toolbar", "Back", "title",
    "Copy record", "Play from here", "?", "board", "graph", "summary", "list" and "status".

    Wide windows: the board with the graph under it on the left, the summaries and the
    move list on the right. Narrow ones: the board, the graph, then summaries and list.
    """
    tools, title = toolbar(area, [Tool("Back", 110)],
                           [Tool("Copy record", 150), Tool("Play from here", 176),
                            Tool("?", 44)])
    top = area.y + TOOLBAR_H
    status = FRect(area.x, area.bottom - STATUS_H, area.w, STATUS_H)
    body = FRect(area.x + MARGIN, top + MARGIN, area.w - 2 * MARGIN,
                 status.y - top - 2 * MARGIN)
    side = min(body.h - GRAPH_H - MARGIN, body.w - LIST_MIN_W - MARGIN)
    if side >= 200 and body.h <= body.w * 1.15:
        board = FRect(body.x, body.y, side, side)
        graph = FRect(body.x, board.bottom + MARGIN, side,
                      min(GRAPH_H * 1.6, body.bottom - board.bottom - MARGIN))
        right = FRect(board.right + MARGIN, body.y, body.right - board.right - MARGIN, body.h)
    else:
        side = max(60.0, min(body.w, (body.h - MARGIN) * 0.42))
        board = FRect(body.centerx - side / 2, body.y, side, side)
        graph_h = min(GRAPH_H, max(60.0, (body.bottom - board.bottom) * 0.35))
        graph = FRect(body.x, board.bottom + MARGIN, body.w, graph_h)
        right = FRect(body.x, graph.bottom + MARGIN, body.w, body.bottom - graph.bottom - MARGIN)
    summary = FRect(right.x, right.y, right.w, min(SUMMARY_H, right.h * 0.4))
    listing = FRect(right.x, summary.bottom + MARGIN / 2, right.w,
                    right.bottom - summary.bottom - MARGIN / 2)
    rects = {"toolbar": FRect(area.x, area.y, area.w, TOOLBAR_H), "title": title,
             "board": board, "graph": graph, "summary": summary, "list": listing,
             "status": FRect(status.x + 24, status.y + 8, status.w - 48, 40),
             "status_bar": status}
    rects.update(tools)
    return rects


def short_value(value: MoveValue) -> str:
    """A value as the lists show it: its label (``W5``, ``~D``) and, for an impartial game,
    the nimber in brackets (``L(0)``, ``D(∞)``)."""
    label = value_label(value)
    if value.nimber is None:
        return label
    return f"{label}({nimber_text(value.nimber, short=True)})"


def long_value(value: MoveValue) -> str:
    """A value as the status line says it: its label, with the nimber where known."""
    if value.nimber is None:
        return value_label(value)
    nimber = nimber_text(value.nimber)
    return _("{value}, nimber {nimber}").format(value=value_label(value), nimber=nimber)


def graph_y(value: MoveValue, longest: int) -> float | None:
    """Where a value from the first player's side goes on the graph, from +1 (a win for the
    first player on the spot) to -1 (a loss on the spot); 0 is a draw. A win or loss sits
    between ±0.5 and ±1, nearer the edge the sooner it ends (GamesmanUni's tug of war); an
    estimated win or loss at ±0.4; None for unknown (no point)."""
    if value.outcome == "unknown":
        return None
    sign = value.sign
    if sign == 0:
        return 0.0
    if not value.exact:
        return 0.4 * sign
    if value.remoteness is None:
        return 0.75 * sign
    return sign * (1.0 - 0.5 * value.remoteness / max(1, longest))


class ReviewScene(Scene):
    """The review of the game on ``source``'s screen (a
    :class:`~engine.screens.turn_scene.TurnBasedScene`); see the module's notes."""

    closes_on_escape = True
    help_title = N_("Review")
    help_text = N_(
        "The review works out the value of every move of the game, as the hints do: for "
        "the player who moved, the position's value before the move and after it (W win, "
        "D draw, L loss, with the number of moves to the end with best play; ~ marks an "
        "estimate). Best keeps the best value; good keeps the outcome; a mistake turns a "
        "win into a draw or a draw into a loss; a blunder turns a win into a loss; where "
        "only estimates exist, a drop of a whole outcome (an estimated win to an estimated "
        "draw) is an inaccuracy. The graph shows each move's value from the first player's "
        "side: up is a win for the first player, down a win for the second, the middle a "
        "draw; a win that ends sooner sits nearer the edge, estimates are hollow, mistakes "
        "are ringed and blunders crossed. Click a move in the list or a point of the graph "
        "(or use the arrow keys, Home and End) to see the board before that move with every "
        "move's value. Play from here starts a new game from that position with the same "
        "players; the game you reviewed stays in Undo. Copy record (Ctrl+C) puts the game "
        "on the clipboard as one line of text, to share; Ctrl+V opens a record pasted from "
        "the clipboard, of this game and board, as a new game to review. Esc or Back "
        "returns to the game.")

    def __init__(self, app: App, source: Any) -> None:
        super().__init__(app)
        self.source = source
        self.game = source.game
        self.start, self.moves = source.match.game_record()
        self.states = [self.start]
        for move in self.moves:
            self.states.append(self.states[-1].play(move))
        seats = source.seats
        self.humans = [i for i, s in enumerate(seats) if not s.is_computer] or [0, 1]
        self.reason = unavailable_reason(self.start, self.game.hint_function())
        try:
            self.review: Review | None = source.match.reviews.get(self._key())
        except TypeError:  # a position that cannot be a key has no kept review
            self.review = None
        self.progress = (0, len(self.moves))
        self.runner = AIRunner()
        self.selected = 0
        self.scroll = 0
        self._layout_key: object = None
        self._layout: dict[str, FRect] = {}
        self._board_image: tuple[object, pygame.Surface | None] | None = None
        self.view: Any = None  # the game's screen that draws the board (made when needed)
        self._board_failed = False  # said once
        ui = self.ui
        ui.add(Button(self.place("Back"), N_("← Back"), app.pop, name="Back"))
        ui.add(Label(self.place("title"), lambda: _("Review: {game}").format(
            game=_(self.game.title)), size=26, bold=True, align="center", role="accent",
            fit_lines=1, min_size=16))
        ui.add(Button(self.place("Copy record"), N_("Copy record"), self.copy_record,
                      name="Copy record", enabled=lambda: bool(self.moves)))
        ui.add(Button(self.place("Play from here"), N_("Play from here"), self.play_from_here,
                      name="Play from here", enabled=self.can_play_from_here))
        ui.add(Button(self.place("?"), "?", app.help, name="?"))
        ui.add(Label(self.place("status"), self.status_text, size=17, align="center",
                     fit_lines=2, min_size=14))
        if self.review is not None:
            self._select_first_slip()
        elif self.reason is None and self.moves:
            self._start()

    def _key(self) -> Any:
        return (self.start, self.moves)

    # --- the analysis -----------------------------------------------------------------------
    def _start(self) -> None:
        hints = self.game.hint_function()
        budget = float(getattr(self.source, "hint_budget", 3.0))
        start, moves = self.start, self.moves

        def progress(done: int, total: int) -> None:
            self.progress = (done, total)  # one assignment: read whole by the frame loop

        def task(cancel: threading.Event) -> Review:
            return review_game(start, moves, hints, cancel=cancel, progress=progress,
                               time_limit=REVIEW_LIMIT, move_limit=budget)
        self.runner.submit(task)

    @property
    def busy(self) -> bool:
        """Whether the analysis is still running."""
        return self.runner.busy

    def update(self, dt: float) -> None:
        if not self.runner.busy:
            return
        result = self.runner.poll()
        if result is None:
            return
        if result.error is not None:
            self.app.notify(_("The game could not be reviewed: {error}").format(
                error=result.error), "warning")
            return
        self.review = result.move
        self.source.match.keep_review(self._key(), self.review)
        self._board_image = None
        self._select_first_slip()

    def _select_first_slip(self) -> None:
        """Show the first mistake or blunder of a human seat (else the first move)."""
        assert self.review is not None
        for entry in self.review.moves:
            if entry.mover in self.humans and entry.grade in ("mistake", "blunder"):
                self.select(entry.number - 1)
                return
        self.select(0)

    def leave(self) -> None:
        self.runner.cancel()

    def is_active(self) -> bool:
        return self.runner.busy

    # --- choosing a move -------------------------------------------------------------------
    def select(self, index: int) -> None:
        """Show the board before move ``index`` (0-based), scrolled into the list."""
        if not self.moves:
            return
        self.selected = max(0, min(len(self.moves) - 1, index))
        rows = self.list_rows()
        if self.selected < self.scroll:
            self.scroll = self.selected
        elif self.selected >= self.scroll + rows:
            self.scroll = self.selected - rows + 1
        self._board_image = None

    def can_play_from_here(self) -> bool:
        """Whether a position is chosen to play on from (any move's position is)."""
        return bool(self.moves)

    def play_from_here(self) -> None:
        """A new game from the chosen move's position, with the same players; the reviewed
        game stays in the game's undo history (and its result in the statistics)."""
        if not self.moves:
            return
        source = self.source
        source.match.play_from(self.start, self.moves[:self.selected])
        source._changed()
        self.app.pop()

    # --- records ---------------------------------------------------------------------------
    def record(self) -> str | None:
        """The game as a one-line record (engine.model.records); None where it has none (a
        position set by hand), said in a notice."""
        from engine.model.records import record_text

        try:
            return record_text(self.game, self.source.params, self.start, self.moves)
        except ValueError:
            self.app.notify(_("This game started from a position set by hand: it has no "
                              "record to copy."), "info")
            return None

    def copy_record(self) -> None:
        """Put the game's record on the clipboard (a notice says so, or why not)."""
        text = self.record()
        if text is None:
            return
        try:
            pygame.scrap.put_text(text)
        except (pygame.error, AttributeError, NotImplementedError):
            self.app.notify(_("The clipboard is not available here."), "warning")
            return
        self.app.notify(_("Record copied to the clipboard: {record}").format(record=text),
                        "info")

    def paste_record(self) -> None:
        """Open the record on the clipboard: a game of this game and board is played as a
        new game on its screen (the games there stay in Undo) and reviewed; anything else
        is refused with a notice saying what is wrong and where."""
        record = clipboard_record(self.app)
        if record is not None:
            review_record(self.app, self.source, record, replace=True)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
            if event.key == pygame.K_c:
                self.copy_record()
                return
            if event.key == pygame.K_v:
                self.paste_record()
                return
        if event.type == pygame.KEYDOWN:
            step = {pygame.K_UP: -1, pygame.K_LEFT: -1, pygame.K_DOWN: 1, pygame.K_RIGHT: 1,
                    pygame.K_PAGEUP: -self.list_rows(), pygame.K_PAGEDOWN: self.list_rows()
                    }.get(event.key)
            if step is not None:
                self.select(self.selected + step)
                return
            if event.key in (pygame.K_HOME, pygame.K_END):
                self.select(0 if event.key == pygame.K_HOME else len(self.moves) - 1)
                return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, min(max(0, len(self.moves) - self.list_rows()),
                                     self.scroll - event.y))
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            index = self.move_at(event.pos)
            if index is not None:
                self.select(index)
                return
        super().handle_event(event)

    def move_at(self, pos: tuple[int, int]) -> int | None:
        """The move under a screen point of the list or the graph (None: none there)."""
        x, y = self.app.viewport.to_design(pos)
        listing = self.layout()["list"]
        if listing.collidepoint(x, y):
            row = int((y - listing.y) // ROW_H) + self.scroll
            return row if 0 <= row < len(self.moves) and row - self.scroll < \
                self.list_rows() else None
        graph = self.plot_rect()
        if graph.inflate(8, 8).collidepoint(x, y) and self.moves:
            step = graph.w / max(1, len(self.moves))
            return max(0, min(len(self.moves) - 1, int((x - graph.x) // step)))
        return None

    # --- layout -------------------------------------------------------------------------------
    def layout(self) -> dict[str, FRect]:
        """Named design rectangles for the current window (:func:`review_layout`)."""
        vp = self.app.viewport
        if self._layout_key != vp.window:
            self._layout, self._layout_key = review_layout(vp.area), vp.window
        return self._layout

    def place(self, name: str) -> Callable[[], tuple[float, float, float, float]]:
        """A widget place following the layout entry ``name``."""
        return lambda: tuple(self.layout()[name])  # type: ignore[return-value]

    def list_rows(self) -> int:
        """How many moves the list shows at once."""
        return max(1, int(self.layout()["list"].h // ROW_H))

    def plot_rect(self) -> FRect:
        """The graph's plotting area: the graph less its side labels."""
        graph = self.layout()["graph"]
        return FRect(graph.x + 8, graph.y + 22, graph.w - 16, max(10.0, graph.h - 30))

    # --- words ----------------------------------------------------------------------------------
    def move_text(self, index: int) -> str:
        """Move ``index`` in the game's notation."""
        return self.game.move_text(self.states[index], self.moves[index])

    def status_text(self) -> str:
        """Progress while analysing; then the chosen move's value and grade, with the best."""
        if self.reason is not None:
            return self.reason
        if not self.moves:
            return _("No move was played in this game.")
        if self.review is None:
            done, total = self.progress
            return _("Working out every move… {done} of {total} positions. Back stops it.") \
                .format(done=done, total=total)
        entry = self.review.moves[self.selected]
        name = self.source.player_name(entry.mover)
        text = _("Move {number}, {name}: {move}. Before {before}, after {after}: {grade}.") \
            .format(number=entry.number, name=name, move=self.move_text(self.selected),
                    before=long_value(entry.before), after=long_value(entry.after),
                    grade=_(GRADE_WORDS[entry.grade]))
        if entry.best and entry.grade != "best":
            best = ", ".join(self.game.move_text(self.states[self.selected], m)
                             for m in entry.best[:4])
            text += " " + _("Best: {moves}.").format(moves=best)
        if not self.review.complete:
            text += " " + _("Some moves could not be worked out in time.")
        return text

    # --- drawing ---------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        p = self.app.theme.palette
        surface.fill(p.background)
        vp = self.app.viewport
        pygame.draw.rect(surface, p.panel, vp.map_rect(tuple(self.layout()["toolbar"])))
        pygame.draw.rect(surface, p.panel, vp.map_rect(tuple(self.layout()["status_bar"])))
        self.draw_board(surface)
        self.draw_graph(surface)
        self.draw_summary(surface)
        self.draw_list(surface)
        self.ui.draw(surface, vp, self.app.theme)

    def _board_view(self) -> Any:
        """The game's own screen, for its board drawing (humans in every seat: it never
        plays; it is never on the app's stack, so it is neither saved nor journalled)."""
        if self.view is None:
            seats = tuple(Seat() for _ in self.source.seats)
            self.view = self.game.open_scene(self.app, self.source.params, seats=seats)
        return self.view

    def draw_board(self, surface: pygame.Surface) -> None:
        """The board before the chosen move, with its hints, as the game draws it."""
        vp = self.app.viewport
        target = vp.map_rect(tuple(self.layout()["board"]))
        key = (self.selected, vp.window, self.app.theme.palette.name, self.review is None,
               _("W"))
        if self._board_image is None or self._board_image[0] != key:
            try:
                image = self._render_board(target.size)
            except Exception as exc:  # noqa: BLE001 - the review stays usable without it
                # A game's screen that cannot draw this position must not take the review
                # (or the app) down: the list, the graph and the values still stand.
                image = None
                if not self._board_failed:
                    self._board_failed = True
                    self.app.notify(_("The board could not be drawn here: {error}").format(
                        error=exc), "warning")
            self._board_image = (key, image)
        image = self._board_image[1]
        if image is not None:
            surface.blit(image, image.get_rect(center=target.center))

    def _render_board(self, size: tuple[int, int]) -> pygame.Surface | None:
        if not self.moves or size[0] < 4 or size[1] < 4:
            return None
        view = self._board_view()
        index = self.selected
        entries = [(1, state) for state in self.states[:index + 1]]
        view.match.replace_history(History.restored(entries, index))
        view.show_hints = True
        if self.review is not None:
            values = self.review.moves[index].values
            view.match.hint_answer(view.match.position_key, dict(values))
        canvas = pygame.Surface(self.app.screen.get_size())
        canvas.fill(self.app.theme.palette.background)
        view.draw_board(canvas)
        board = view.area("board").clip(canvas.get_rect())
        if board.w < 2 or board.h < 2:
            return None
        part = canvas.subsurface(board)
        scale = min(size[0] / board.w, size[1] / board.h)
        return pygame.transform.smoothscale(part, (max(1, round(board.w * scale)),
                                                   max(1, round(board.h * scale))))

    def draw_graph(self, surface: pygame.Surface) -> None:
        """The value graph: one point per move from the first player's side."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        graph = vp.map_rect(tuple(self.layout()["graph"]))
        pygame.draw.rect(surface, p.panel, graph, border_radius=vp.px(8))
        plot = vp.map_rect(tuple(self.plot_rect()))
        font = theme.font(13 * vp.scale)
        first = _("{name} wins").format(name=self.source.player_name(0))
        second = _("{name} wins").format(name=self.source.player_name(1))
        head = pygame.Rect(graph.x + vp.px(8), graph.y + vp.px(2), graph.w - vp.px(16),
                           vp.px(18))
        half = head.w // 2
        surface.blit(font.render(ellipsize("▲ " + first, font, half), True, p.good), head)
        text = font.render(ellipsize("▼ " + second, font, half), True, p.bad)
        surface.blit(text, text.get_rect(topright=head.topright))
        mid = plot.centery
        pygame.draw.line(surface, p.grid, (plot.x, mid), (plot.right, mid), max(1, vp.px(1)))
        if self.review is None or not self.moves:
            return
        count = len(self.moves)
        step = plot.w / count
        longest = max([m.after.remoteness or 0 for m in self.review.moves] + [1])
        points: list[tuple[tuple[int, int], Any]] = []
        for entry in self.review.moves:
            y = graph_y(entry.first_player_after(), longest)
            x = round(plot.x + (entry.number - 0.5) * step)
            if y is not None:
                points.append(((x, round(mid - y * plot.h / 2)), entry))
        selected_x = round(plot.x + (self.selected + 0.5) * step)
        pygame.draw.line(surface, p.focus, (selected_x, plot.y), (selected_x, plot.bottom),
                         max(1, vp.px(2)))
        for (a, ea), (b, eb) in zip(points, points[1:], strict=False):
            if eb.number == ea.number + 1:
                pygame.draw.line(surface, p.muted if not (ea.exact and eb.exact) else p.text,
                                 a, b, max(1, vp.px(1)))
        # The chosen move's value, from the first player's side, written at its line: the
        # distance a point's height shows, in letters (W5, ~D).
        chosen = self.review.moves[self.selected].first_player_after()
        tag = font.render(value_label(chosen), True, p.background)
        box = tag.get_rect().inflate(vp.px(8), vp.px(2))
        box.midbottom = (selected_x, plot.bottom)
        box.clamp_ip(plot)
        pygame.draw.rect(surface, p.focus, box, border_radius=vp.px(4))
        surface.blit(tag, tag.get_rect(center=box.center))
        r = max(3, vp.px(4))
        for pos, entry in points:
            colour = outcome_colour(p, entry.first_player_after().outcome)
            if entry.exact:
                pygame.draw.circle(surface, colour, pos, r)
            else:  # an estimate: hollow
                pygame.draw.circle(surface, colour, pos, r, max(1, vp.px(2)))
            if entry.grade == "mistake":
                pygame.draw.circle(surface, p.bad, pos, r + vp.px(4), max(1, vp.px(2)))
            elif entry.grade == "blunder":
                d = r + vp.px(4)
                width = max(2, vp.px(3))
                pygame.draw.line(surface, p.bad, (pos[0] - d, pos[1] - d),
                                 (pos[0] + d, pos[1] + d), width)
                pygame.draw.line(surface, p.bad, (pos[0] - d, pos[1] + d),
                                 (pos[0] + d, pos[1] - d), width)

    def draw_summary(self, surface: pygame.Surface) -> None:
        """One line per human seat: its grades and where the game slipped."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        box = vp.map_rect(tuple(self.layout()["summary"]))
        if self.review is None:
            return
        lines = [f"{self.source.player_name(s.seat)}: {summary_text(s)}"
                 for s in seat_summaries(self.review, self.humans)]
        h = box.h // max(1, len(lines))
        for i, line in enumerate(lines):
            # As large as fits, down to the smallest text; what still does not ends "…".
            size, fitted, _cut = fit_text(theme, line, (box.w, h), 15, 14, vp.scale)
            draw_lines(surface, fitted, theme.font(size * vp.scale), p.text,
                       pygame.Rect(box.x, box.y + i * h, box.w, h))

    def draw_list(self, surface: pygame.Surface) -> None:
        """The moves, each in the game's notation with its values and grade."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        listing = self.layout()["list"]
        font = theme.font(15 * vp.scale)
        for row in range(self.list_rows()):
            index = self.scroll + row
            if index >= len(self.moves):
                break
            rect = vp.map_rect((listing.x, listing.y + row * ROW_H, listing.w, ROW_H - 2))
            if index == self.selected:
                pygame.draw.rect(surface, p.selected, rect, border_radius=vp.px(4))
                pygame.draw.rect(surface, p.accent, rect, max(1, vp.px(2)),
                                 border_radius=vp.px(4))
            name = self.source.player_name(self.states[index].current_player())
            left = f"{index + 1}. {name}: {self.move_text(index)}"
            colour = p.text
            right = ""
            if self.review is not None:
                entry = self.review.moves[index]
                right = (f"{short_value(entry.before)} → {short_value(entry.after)}  "
                         f"{_(GRADE_WORDS[entry.grade])}")
                if entry.grade in ("mistake", "blunder"):
                    colour = p.bad
            pad = vp.px(6)
            text = font.render(right, True, colour)
            room = rect.w - text.get_width() - 3 * pad
            surface.blit(font.render(ellipsize(left, font, max(0, room)), True, p.text),
                         (rect.x + pad, rect.centery - font.get_height() // 2))
            surface.blit(text, text.get_rect(midright=(rect.right - pad, rect.centery)))

    def debug_state(self) -> dict[str, Any]:
        review = self.review
        return {"scene": "ReviewScene", "moves": len(self.moves), "selected": self.selected,
                "busy": self.busy, "reason": self.reason,
                "grades": [m.grade for m in review.moves] if review else None}


# --- records from the clipboard (the review screen and the launcher) ----------------------------
def clipboard_record(app: App) -> Any:
    """The record on the clipboard, read (engine.model.records); None, after a notice saying
    what is wrong and where, when there is none or it cannot be read."""
    from engine.model.records import RecordError, parse_record

    try:
        text = pygame.scrap.get_text() or ""
    except (pygame.error, AttributeError, NotImplementedError):
        app.notify(_("The clipboard is not available here."), "warning")
        return None
    try:
        return parse_record(text)
    except RecordError as exc:
        app.notify(_("The record could not be opened: {error}").format(error=exc.text()),
                   "warning")
        return None


def review_record(app: App, scene: Any, record: Any, replace: bool = False) -> bool:
    """Play ``record`` as a new game on ``scene`` (the screen of its game, whose games stay in
    Undo) and open its review (in place of the screen on top with ``replace``). A record of
    another game or board changes nothing: a notice says which it is. Whether it opened."""
    if record.game is not scene.game or record.params != scene.params:
        spec = record.game.param_spec()
        board = spec.label(record.params) if spec is not None else ""
        app.notify(_("That record is a game of {game} ({board}): open it there, on that "
                     "board, and paste it on its review.").format(
            game=_(record.game.title), board=board), "warning")
        return False
    scene.match.play_from(record.start, record.moves)
    scene._changed()
    review = ReviewScene(app, scene)
    if replace:
        app.replace(review)
    else:
        app.push(review)
    return True


def open_record_from_launcher(app: App) -> None:
    """Ctrl+V on the launcher: :func:`open_record` with the record on the clipboard."""
    record = clipboard_record(app)
    if record is not None:
        open_record(app, record)


def ask_record(app: App) -> None:
    """Statistics' Open a record: a dialog for a record, typed or pasted (the clipboard's
    text to start with), checked before it closes (what is wrong and where), then
    :func:`open_record`."""
    from engine.model.records import MAX_RECORD, RecordError, parse_record
    from engine.screens.overlays import TextEntryDialog

    def problem(text: str) -> str | None:
        try:
            parse_record(text)
        except RecordError as exc:
            return exc.text()
        return None

    try:
        initial = pygame.scrap.get_text() or ""
    except (pygame.error, AttributeError, NotImplementedError):
        initial = ""
    if problem(initial) is not None:
        initial = ""  # only a record is offered, never other copied text
    app.push(TextEntryDialog(app, _("A game's record, as Copy record on a review writes it "
                                    "(its game opens and the record is reviewed there):"),
                             lambda text: open_record(app, parse_record(text)),
                             validate=problem, initial=initial, max_length=MAX_RECORD))


def open_record(app: App, record: Any) -> None:
    """Open ``record``'s game as the launcher would (the game left there resumed, nothing of
    it lost) and review the record there, as a new game. On another board than the game
    left there, the game opens and a notice says to choose that board first."""
    from engine.storage.saved_games import is_large, open_game

    if is_large(app, record.game):
        app.notify(_("Open {game} first (its saved game is long), then paste the record on "
                     "its review.").format(game=_(record.game.title)), "warning")
        return
    scene = app.push(open_game(app, record.game))
    review_record(app, scene, record)
