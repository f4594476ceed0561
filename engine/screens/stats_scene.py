"""Statistics: a bar chart of the player's results per game, and a table of every game,
board, seating and computer level.

Laid out in the part of the design space the window shows (:attr:`Viewport.area`):
a toolbar band (Back, the title, ?) on top, then the chart and the table side by
side, or the chart above the table in a narrow or tall window, so a wide window
gets a wider table and a tall one more of its rows. The table's lines come from
:mod:`engine.screens.stats_table` (names from the games' descriptors, computer-only games in a
section of their own, outside the chart). Rows that do not fit scroll (mouse wheel,
arrow keys, Page Up / Page Down, Home / End) with a line saying so; lines too long for
their column end with "…" and show whole, with their context, under the pointer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame
from pygame import FRect

from engine.core.i18n import N_, _
from engine.model.registry import all_games
from engine.screens.scene import Scene
from engine.screens.scrolling_rows import ScrollingRows
from engine.screens.stats_table import (
    COLUMN_HEADS,
    PLAYER,
    SECTION_TITLES,
    TableEntry,
    build_entries,
)
from engine.storage.stats import GameSummary, PuzzleSummary, StatsStore
from engine.ui.board.draw import dots, hatch
from engine.ui.game_layout import MARGIN, TOOLBAR_H, Tool, toolbar
from engine.ui.widgets import MIN_TEXT, Button, Label, ellipsize

if TYPE_CHECKING:
    from engine.runtime.app import App

CHART_MIN_W, TABLE_MIN_W = 340.0, 330.0  # side by side only when both get this much
CHART_MAX_W = 640.0  # bars longer than this read no better
HEADING_H = 36.0  # "Results per game" above the bars
LEGEND_H = 30.0  # the key below them
GAME_ROW_MAX = 110.0  # one game's bar and its summary line, at most
LABEL_W = 150.0  # the chart's column of game names
NUMBER_W = 36.0  # each of the table's P, W, D, L columns
ROW_H = 22.0  # a table row
CUE_H = 24.0  # the "scroll for more" line under the table
MAX_SLOTS = 120  # table rows drawn at most (more scroll)


def stats_layout(area: FRect, games: int) -> dict[str, FRect]:
    """Named design rectangles of the statistics screen in ``area``: "toolbar", "Back",
    "title", "Recent games", "Open a record", "?", "chart" and "table"."""
    tools, title = toolbar(area, [Tool("Back", 110)], [Tool("Recent games", 160),
                                                       Tool("Open a record", 170),
                                                       Tool("?", 54)])
    top = area.y + TOOLBAR_H
    body = FRect(area.x + MARGIN, top + MARGIN / 2, area.w - 2 * MARGIN,
                 area.bottom - MARGIN - top - MARGIN / 2)
    chart_need = HEADING_H + games * GAME_ROW_MAX + LEGEND_H
    beside = (body.w >= CHART_MIN_W + MARGIN + TABLE_MIN_W
              and (body.h < 1.2 * body.w or body.h <= chart_need))
    if beside:
        # The table's names are the longer texts: the chart gets a little less than half.
        chart_w = max(CHART_MIN_W, min(CHART_MAX_W, (body.w - MARGIN) * 0.42))
        chart = FRect(body.x, body.y, chart_w, body.h)
        table = FRect(chart.right + MARGIN, body.y, body.right - chart.right - MARGIN, body.h)
    else:
        # Above and below: the chart as tall as its bars need, the table the rest.
        chart = FRect(body.x, body.y, body.w, min(chart_need, body.h * 0.5))
        table = FRect(body.x, chart.bottom + MARGIN, body.w, body.bottom - chart.bottom - MARGIN)
    rects = {"toolbar": FRect(area.x, area.y, area.w, TOOLBAR_H), "title": title,
             "chart": chart, "table": table}
    rects.update(tools)
    return rects


def _has_heads(entry: TableEntry) -> bool:
    """Whether ``entry`` is a section heading whose section has figure columns."""
    return entry.kind == "section" and any(COLUMN_HEADS.get(entry.section, ()))


class _RowLabel(Label):
    """The text of one of the table's rows, styled by its place in the hierarchy: a section
    in bold accent, a game in bold, a board and its seatings in plain text, a note muted."""

    def __init__(self, scene: StatsScene, slot: int) -> None:
        # One size for every row (a table whose rows shrink one by one looks ragged): what
        # does not fit ends with "…" and shows whole in the tooltip.
        super().__init__(scene._slot_rect(slot), scene._slot_text(slot), size=14, fit_lines=1,
                         min_size=14, visible=lambda: scene._slot_entry(slot) is not None)
        self.scene, self.slot = scene, slot

    @property
    def tooltip(self) -> str | None:
        """A shortened line shows whole, with its game and board, under the pointer."""
        entry = self.scene._slot_entry(self.slot)
        if not self.shortened or entry is None:
            return None
        return entry.detail or self.full_text

    def draw(self, surface: pygame.Surface, vp: Any, theme: Any, focused: bool) -> None:
        entry = self.scene._slot_entry(self.slot)
        kind = entry.kind if entry is not None else "row"
        self.bold = kind in ("section", "game")
        self.role = {"section": "accent", "note": "muted"}.get(kind, "text")
        super().draw(surface, vp, theme, focused)


#: Seconds before a read that met a busy file is tried again.
RETRY_SECONDS = 1.0


def _read_figures(store: StatsStore) -> tuple[dict[str, tuple[int, int, int, int]],
                                              list[GameSummary], list[PuzzleSummary],
                                              dict[str, list[str]]]:
    """Everything the screen shows, read on the statistics worker's thread."""
    match = store.all_match_outcomes() or {}  # first: it resets read_error
    error = store.read_error
    figures = (store.totals_by_game(players_only=True), store.game_summary(),
               store.puzzle_summary(), match)
    store.read_error = store.read_error or error
    return figures


class StatsScene(ScrollingRows, Scene):
    """Games played, won, lost and drawn per game, as a stacked bar chart and a table."""

    closes_on_escape = True
    help_title = N_("Statistics")
    help_text = N_(
        "Each bar is one game: its length is the number of games you played, split into "
        "won (solid), drawn (striped) and lost (hollow); a puzzle's bar shows the puzzles "
        "you solved, alone (solid) or with help (dotted). Results are counted from the first "
        "human player's side; in two-player games at one mouse that is the first player "
        "(X). Games the computer played against itself are not your results: they are "
        "listed in a section of their own and left out of the bars.\n\n"
        "The table lists every game and board you played, with one line per seating and "
        "computer level: P played, W won, D drawn, L lost (for computer against computer, "
        "1st and 2nd are the wins of the first and second seat). Puzzles show your best "
        "result without help. A line too long for its column ends with \"…\"; rest the "
        "pointer on it to read it whole. Scroll the table with the mouse wheel, the arrow "
        "keys, Page Up / Page Down or Home / End. Recent games lists the games you finished, "
        "each to review or to keep. Open a record opens a game's record, as "
        "Copy record on a review writes it, for review in its game. Esc or Back returns to "
        "the launcher."
    )

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.games = all_games()
        self.scroll = 0
        self.entries: list[TableEntry] = []
        #: True once figures read from the file are shown.
        self.loaded = False
        self._retry: float | None = None
        self._told: str | None = None  # the read problem said already
        self._layout_key: tuple[object, ...] | None = None
        self._layout: dict[str, FRect] = {}
        self.helped: dict[str, int] = {}  # puzzles solved with help, per game (refresh)
        # The chart key's boxes as last drawn, by pattern (for tests).
        self.key_boxes: list[tuple[str, pygame.Rect]] = []
        ui = self.ui
        ui.add(Button(self.place("Back"), N_("← Back"), app.pop, name="Back"))
        ui.add(Label(self.place("title"), N_("Statistics"), size=30, bold=True, align="center",
                     role="accent", fit_lines=1, min_size=20))
        ui.add(Button(self.place("Recent games"), N_("Recent games"), self.recent_games,
                      name="Recent games"))
        ui.add(Button(self.place("Open a record"), N_("Open a record"), self.open_record,
                      name="Open a record"))
        ui.add(Button(self.place("?"), "?", app.help, name="?"))
        ui.add(Label(self._heading_rect, N_("Results per game"), size=20, bold=True, fit_lines=1,
                     min_size=16))
        for i, family in enumerate(self.games):
            ui.add(Label(self._bar_part(i, "name"), family.title, size=16, fit_lines=2,
                         min_size=13))
            ui.add(Label(self._bar_part(i, "summary"), lambda f=family: self._summary(f.id),
                         size=13, role="muted", fit_lines=1, min_size=12))
        ui.add(Label(self._table_head, N_("Game, board and players"), size=14, bold=True,
                     fit_lines=1, min_size=13))
        for slot in range(MAX_SLOTS):
            ui.add(_RowLabel(self, slot))
        self.refresh()

    # --- figures ----------------------------------------------------------------------
    def refresh(self) -> None:
        """Ask the statistics worker for the figures; they are shown when they come
        (:meth:`update`): the frame never waits on the file, and says "loading…" meanwhile."""
        if getattr(self, "_pending", None) is not None and not self._pending.done:
            return  # one request at a time
        self._retry = None
        self._pending = self.app.stats.submit(_read_figures)
        if not hasattr(self, "totals"):
            self.totals, self.rows, self.puzzles, self.rungs = {}, [], [], {}
            self._say(_("Loading your statistics…"))

    def _say(self, note: str) -> None:
        """Show ``note`` in place of the player's results (loading, a busy file)."""
        self.entries = [TableEntry("section", _(SECTION_TITLES[PLAYER]), PLAYER,
                                   detail=_(SECTION_TITLES[PLAYER])),
                        TableEntry("note", note, PLAYER, detail=note)]
        self.scroll_by(0)

    def update(self, dt: float) -> None:
        super().update(dt)
        pending = getattr(self, "_pending", None)
        if pending is not None and pending.done:
            self._pending = None
            if pending.error is None:
                self._show(*pending.value)
            else:
                # Never "No games of yours recorded yet" for a file that could not be
                # read: say why, and read again in a moment.
                if pending.error != self._told:  # once, not at every try
                    self._told = pending.error
                    self.app.notify(pending.error, "warning")
                self.loaded = False
                self._say(_("The statistics file is busy: your results are shown as soon "
                            "as it can be read.") if pending.busy
                          else _("Your statistics could not be read."))
                self._retry = RETRY_SECONDS
        if self._retry is not None:
            self._retry -= dt
            if self._retry <= 0:
                self.refresh()

    def _show(self, totals: dict[str, tuple[int, int, int, int]], rows: list[GameSummary],
              puzzles: list[PuzzleSummary], match: dict[str, list[str]]) -> None:
        """Show the figures read by :func:`_read_figures`."""
        # The chart shows the player's own results: games the computer played against
        # itself are listed in the table's last section only.
        self.loaded = True
        self.totals, self.rows, self.puzzles = totals, rows, puzzles
        # Puzzles count as "played" in the chart: solved alone like a win, so one chart
        # shows every family; solved with help is a part of its own (not a draw: issue 28).
        self.helped = {}
        for row in self.puzzles:
            played, won, lost, drawn = self.totals.get(row.game, (0, 0, 0, 0))
            self.totals[row.game] = (played + row.solved, won + row.solved - row.helped, lost,
                                     drawn)
            self.helped[row.game] = self.helped.get(row.game, 0) + row.helped
        # The rung "Match me" plays at now, in each game where the player has played it.
        played = {row.game for row in self.rows}
        outcomes = {game.id: match.get(game.id, []) for game in self.games
                    if game.ladder and game.id in played}
        by_id = {game.id: game for game in self.games}
        self.rungs = {game_id: by_id[game_id].level_title(by_id[game_id].match_level(results))
                      for game_id, results in outcomes.items() if results}
        self.entries = build_entries(self.games, self.rows, self.puzzles, self.rungs)
        self.scroll_by(0)

    def resume(self) -> None:
        self.refresh()

    def recent_games(self) -> None:
        """The records of recent games, to review or keep
        (engine.screens.recent_games_scene)."""
        from engine.screens.recent_games_scene import RecentGamesScene

        self.app.push(RecentGamesScene(self.app))

    def open_record(self) -> None:
        """Open a game's record (typed or pasted) for review (engine.screens.review_scene)."""
        from engine.screens.review_scene import ask_record

        ask_record(self.app)

    def _summary(self, game: str) -> str:
        played, won, lost, drawn = self.totals.get(game, (0, 0, 0, 0))
        if any(r.game == game for r in self.puzzles):
            return _("{played} solved · {won} alone · {drawn} with help").format(
                played=played, won=won, drawn=self.helped.get(game, 0))
        if not played:
            return _("not played yet")
        return _("{played} played · {won} won · {drawn} drawn · {lost} lost").format(
            played=played, won=won, drawn=drawn, lost=lost)

    # --- layout (design units) --------------------------------------------------------
    def layout(self) -> dict[str, FRect]:
        """Named design rectangles for the current window (see :func:`stats_layout`)."""
        vp = self.app.viewport
        key = (vp.window,)
        if key != self._layout_key:
            self._layout = stats_layout(vp.area, len(self.games))
            self._layout_key = key
        return self._layout

    def place(self, name: str) -> Callable[[], tuple[float, float, float, float]]:
        """A widget place following the layout entry ``name``."""
        return lambda: tuple(self.layout()[name])  # type: ignore[return-value]

    def _heading_rect(self) -> tuple[float, float, float, float]:
        chart = self.layout()["chart"]
        return (chart.x, chart.y, chart.w, HEADING_H - 6)

    def _bars(self) -> FRect:
        """Where the bars go: below the heading, as tall as they need up to the chart's
        height less the key (which follows them)."""
        chart = self.layout()["chart"]
        room = chart.h - HEADING_H - LEGEND_H
        return FRect(chart.x, chart.y + HEADING_H, chart.w,
                     min(room, len(self.games) * GAME_ROW_MAX))

    def _label_w(self) -> float:
        # A third of a narrow chart: a long one-word translated name fits at MIN_TEXT.
        return min(LABEL_W, self.layout()["chart"].w * 0.34)

    def _game_row(self, index: int) -> tuple[float, float, float]:
        """(top, row height, bar height) of game ``index``'s row in the chart."""
        bars = self._bars()
        row_h = min(GAME_ROW_MAX, bars.h / max(1, len(self.games)))
        bar_h = max(10.0, min(70.0, row_h - 34))
        return bars.y + index * row_h, row_h, bar_h

    def _bar_part(self, index: int, part: str) -> Callable[[], tuple[float, float, float,
                                                                   float]]:
        def rect() -> tuple[float, float, float, float]:
            bars = self._bars()
            top, _row_h, bar_h = self._game_row(index)
            label_w = self._label_w()
            if part == "name":
                return (bars.x, top, label_w - 8, bar_h)
            # The summary line under the bar takes the whole width (under the name too):
            # "10 hráno · 10 výher · 0 remíz · 0 proher" needs it at MIN_TEXT.
            return (bars.x, top + bar_h + 3, bars.w, 18)
        return rect

    def _table_head(self) -> tuple[float, float, float, float]:
        table = self.layout()["table"]
        return (table.x, table.y, table.w - 4 * NUMBER_W - 8, ROW_H)

    def shown_rows(self) -> int:
        """How many table rows the window has room for."""
        table = self.layout()["table"]
        return max(1, min(MAX_SLOTS, int((table.h - ROW_H - 6 - CUE_H) // ROW_H)))

    def _slot_entry(self, slot: int) -> TableEntry | None:
        index = self.scroll + slot
        if slot >= self.shown_rows() or index >= len(self.entries):
            return None
        return self.entries[index]

    def _slot_text(self, slot: int) -> Callable[[], str]:
        def text() -> str:
            entry = self._slot_entry(slot)
            return entry.text if entry is not None else ""
        return text

    def _slot_rect(self, slot: int) -> Callable[[], tuple[float, float, float, float]]:
        def rect() -> tuple[float, float, float, float]:
            table = self.layout()["table"]
            entry = self._slot_entry(slot)
            indent = entry.indent if entry is not None else 0.0
            # A line with figures, or a section's heading with the heads of its figures,
            # leaves room for the four columns; others use the width.
            figures = entry is None or entry.figures is not None or _has_heads(entry)
            width = table.w - indent - (4 * NUMBER_W + 8 if figures else 0)
            return (table.x + indent, table.y + ROW_H + 6 + slot * ROW_H, width, ROW_H)
        return rect

    def visible_entries(self) -> list[TableEntry]:
        """The table's lines on screen now, top to bottom (tests read them)."""
        return [e for e in (self._slot_entry(i) for i in range(self.shown_rows()))
                if e is not None]

    def row_count(self) -> int:
        """How many rows the list holds."""
        return len(self.entries)

    # --- events and drawing -------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        self.scroll_by(0)  # the window may have grown since the last scroll
        p = self.app.theme.palette
        surface.fill(p.background)
        pygame.draw.rect(surface, p.panel, self.app.viewport.map_rect(self.layout()["toolbar"]))
        self._draw_chart(surface)
        self._draw_table(surface)
        self.ui.draw(surface, self.app.viewport, self.app.theme)

    def _draw_chart(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        bars = self._bars()
        label_w = self._label_w()
        most = max([t[0] for t in self.totals.values()] + [1])
        length = bars.w - label_w - 8
        for i, family in enumerate(self.games):
            played, won, lost, drawn = self.totals.get(family.id, (0, 0, 0, 0))
            top, _row_h, bar_h = self._game_row(i)
            left = bars.x + label_w
            scale = length / most
            segments = ((won, p.good, "solid"), (drawn, p.neutral, "striped"),
                        (self.helped.get(family.id, 0), p.good, "dotted"),
                        (lost, p.bad, "hollow"))
            for count, colour, style in segments:
                if count == 0:
                    continue
                rect = vp.rect(left, top, count * scale, bar_h)
                if style == "solid":
                    pygame.draw.rect(surface, colour, rect)
                elif style == "striped":
                    pygame.draw.rect(surface, p.panel, rect)
                    step = vp.px(8)
                    hatch(surface, rect, colour, step, max(1, step // 3))
                    pygame.draw.rect(surface, colour, rect, 1)
                elif style == "dotted":
                    pygame.draw.rect(surface, p.panel, rect)
                    dots(surface, rect, colour, vp.px(7), max(1, vp.px(2)))
                    pygame.draw.rect(surface, colour, rect, 1)
                else:
                    pygame.draw.rect(surface, colour, rect, max(2, vp.px(3)))
                left += count * scale
            pygame.draw.line(surface, p.grid, vp.point(bars.x + label_w, top - 4),
                             vp.point(bars.x + label_w, top + bar_h + 4), 1)
        self._draw_key(surface, bars)

    def _draw_key(self, surface: pygame.Surface, bars: FRect) -> None:
        """The key under the bars; shorter words when the long ones do not fit."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        small = theme.font(MIN_TEXT * vp.scale)
        styles = ((p.good, "solid"), (p.neutral, "striped"), (p.good, "dotted"),
                  (p.bad, "hollow"))
        for words in ((_("won / solved alone"), _("drawn"), _("solved with help"), _("lost")),
                      (_("won"), _("drawn"), _("with help"), _("lost"))):
            need = sum(24 + small.size(w)[0] / vp.scale + 24 for w in words)
            if need <= bars.w:
                break
        self.key_boxes = []
        y = bars.bottom + (LEGEND_H - 18) / 2
        x = bars.x
        for label, (colour, style) in zip(words, styles, strict=True):
            box = vp.rect(x, y, 18, 18)
            self.key_boxes.append((style, box))
            if style == "hollow":
                pygame.draw.rect(surface, colour, box, 2)
            elif style == "dotted":
                pygame.draw.rect(surface, p.panel, box)
                dots(surface, box, colour, max(4, box.width // 3), max(1, box.width // 9))
                pygame.draw.rect(surface, colour, box, 1)
            else:
                pygame.draw.rect(surface, colour, box)
                if style == "striped":
                    pygame.draw.line(surface, p.panel, box.bottomleft, box.topright, 3)
            room = vp.px(max(0.0, bars.right - x - 24))
            text = ellipsize(label, small, room)
            surface.blit(small.render(text, True, p.text), vp.point(x + 24, y))
            x += 24 + small.size(text)[0] / vp.scale + 24

    def _draw_table(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        table = self.layout()["table"]
        head = theme.font(14 * vp.scale, bold=True)
        body = theme.font(14 * vp.scale)

        def cell(index: int, y: float) -> pygame.Rect:
            """Column ``index`` (P, W, D, L) of the row at ``y``: figures are right-aligned."""
            return vp.rect(table.right - (4 - index) * NUMBER_W, y, NUMBER_W - 6, ROW_H)

        # The columns' heads are those of the section at the top of the visible rows.
        top = self._slot_entry(0)
        for i, name in enumerate(COLUMN_HEADS.get(top.section if top else "", "PWDL")):
            if name:
                image = head.render(_(name), True, p.text)
                surface.blit(image, image.get_rect(midright=cell(i, table.y).midright))
        pygame.draw.line(surface, p.grid, vp.point(table.x, table.y + ROW_H + 2),
                         vp.point(table.right, table.y + ROW_H + 2), 1)
        for slot in range(self.shown_rows()):
            entry = self._slot_entry(slot)
            y = table.y + ROW_H + 6 + slot * ROW_H
            if entry is not None and slot > 0 and _has_heads(entry):
                # A section further down names its own columns (computer-only games count
                # the first and second seat's wins, not yours).
                for i, name in enumerate(COLUMN_HEADS[entry.section]):
                    image = head.render(_(name), True, p.accent)
                    surface.blit(image, image.get_rect(midright=cell(i, y).midright))
            if entry is None or entry.figures is None:
                continue
            for i, value in enumerate(entry.figures):
                box = cell(i, y)
                font, size = body, 14 * vp.scale
                # A number too wide for its column (tens of thousands of games) gets a
                # smaller font rather than running into its neighbour.
                while font.size(str(value))[0] > box.width and size > 7:
                    size -= 1
                    font = theme.font(size)
                image = font.render(str(value), True, p.text)
                surface.blit(image, image.get_rect(midright=box.midright))
        cue_text = self.cue_text()
        if cue_text is not None:
            small = theme.font(MIN_TEXT * vp.scale)
            cue = vp.map_rect(self.cue_rect())
            image = small.render(ellipsize(cue_text, small, cue.width), True, p.accent)
            surface.blit(image, image.get_rect(midleft=cue.midleft))

    def cue_rect(self) -> FRect:
        """Where the line about scrolling goes, under the rows (design units)."""
        table = self.layout()["table"]
        return FRect(table.x, table.bottom - CUE_H, table.w, CUE_H)

    def cue_text(self) -> str | None:
        """The line under the rows when they do not all fit, else None.

        It says "scroll for more" only while there is more below; at the end, that the
        rest is above.
        """
        total, shown = len(self.entries), self.shown_rows()
        if total <= shown:
            return None
        last = min(total, self.scroll + shown)
        more = _("scroll for more ▼") if last < total else _("▲ more above")
        return _("Rows {first}–{last} of {total} · {more}").format(
            first=self.scroll + 1, last=last, total=total, more=more)

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "StatsScene", "totals": {k: list(v) for k, v in self.totals.items()},
                "helped": dict(self.helped),
                "puzzles": [[r.game, r.variant, r.solved, r.helped, r.best_moves]
                            for r in self.puzzles],
                "rows": len(self.entries), "shown": self.shown_rows(), "scroll": self.scroll,
                "lines": [[e.section, e.kind, e.text, list(e.figures or ())]
                          for e in self.visible_entries()]}
