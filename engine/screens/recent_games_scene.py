"""Recent games: the records of finished games kept in the statistics file, newest first.

Reached from Statistics. Each line says when, which game and board, who sat where and the
result; **Review** opens the game's review (its record played on its game's screen,
:func:`engine.screens.review_scene.open_record`), **Keep** marks it to keep beyond the
newest 500 of its game (docs/records.md). Everything is read and written through the
statistics worker (``app.stats``): the frame never waits on the file, "loading…" shows
meanwhile, and a busy file is said and tried again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

import pygame
from pygame import FRect

from engine.core.i18n import N_, _
from engine.model.registry import all_games
from engine.screens.scene import Scene
from engine.screens.scrolling_rows import ScrollingRows
from engine.screens.stats_table import game_title, players_title, variant_title
from engine.storage.stats import GameRecord, StatsStore
from engine.ui.game_layout import MARGIN, TOOLBAR_H, Tool, toolbar
from engine.ui.widgets import Button, Label

if TYPE_CHECKING:
    from engine.runtime.app import App

#: Records listed at most (the newest; each game keeps its own 500 in the file).
LISTED = 300
ROW_H = 34.0
SLOTS = 40  # rows drawn at most (more scroll)
REVIEW_W, KEEP_W = 110.0, 110.0
#: Seconds before a read that met a busy file is tried again.
RETRY_SECONDS = 1.0

_OUTCOMES = {"won": N_("won"), "lost": N_("lost"), "drawn": N_("drawn")}


def _read(store: StatsStore) -> list[GameRecord]:
    """The records listed, read on the statistics worker's thread."""
    return store.recent_records(LISTED)


def when(played_at: str) -> str:
    """A record's time as the player's local date and time (``2026-11-27 18:03``)."""
    try:
        return datetime.fromisoformat(played_at).astimezone().strftime("%Y-%m-%d %H:%M")
    except (ValueError, OverflowError, OSError):
        return played_at[:16]


class RecentGamesScene(ScrollingRows, Scene):
    """The recent games' records, each with Review and Keep (see the module)."""

    closes_on_escape = True
    help_title = N_("Recent games")
    help_text = N_(
        "Every game between players you finish is kept here, newest first, with its date, "
        "board, players and result (yours, as the first human player). Each game keeps its "
        "newest 500; Keep marks one to keep for good (press it again to unmark). Review "
        "opens the game in its review. Scroll with the mouse wheel, the arrow keys, Page Up "
        "/ Page Down or Home / End. Esc or Back returns to the statistics."
    )

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.games = {game.id: game for game in all_games()}
        self.records: list[GameRecord] = []
        #: True once the records read from the file are shown.
        self.loaded = False
        self.note = _("Loading your recent games…")
        self.scroll = 0
        self._pending: Any = None
        self._marking: Any = None
        self._retry: float | None = None
        ui = self.ui
        ui.add(Button(self.place("Back"), N_("← Back"), app.pop, name="Back"))
        ui.add(Label(self.place("title"), N_("Recent games"), size=30, bold=True,
                     align="center", role="accent", fit_lines=1, min_size=20))
        ui.add(Button(self.place("?"), "?", app.help, name="?"))
        ui.add(Label(self._note_rect, lambda: self.note, size=16, role="muted", fit_lines=2,
                     min_size=13, visible=lambda: not self.records))
        for slot in range(SLOTS):
            shown = self._shown(slot)
            ui.add(Label(self._cell(slot, "text"), self._text(slot), size=14, fit_lines=2,
                         min_size=12, visible=shown))
            ui.add(Button(self._cell(slot, "review"), N_("Review"), self._review(slot),
                          enabled=self._has_record(slot), visible=shown, size=15,
                          name=f"Review {slot + 1}"))
            ui.add(Button(self._cell(slot, "keep"), self._keep_label(slot), self._keep(slot),
                          enabled=lambda: self._marking is None, visible=shown, size=15,
                          selected=self._kept(slot), name=f"Keep {slot + 1}"))
        self.refresh()

    # --- reading and marking, through the worker --------------------------------------
    def refresh(self) -> None:
        """Ask for the records; they are shown when they come (:meth:`update`)."""
        if self._pending is not None and not self._pending.done:
            return
        self._retry = None
        self._pending = self.app.stats.submit(_read)

    def update(self, dt: float) -> None:
        super().update(dt)
        pending = self._pending
        if pending is not None and pending.done:
            self._pending = None
            if pending.error is None:
                self.records = list(pending.value or [])
                self.loaded = True
                self.note = _("No finished games kept yet: the games you finish between "
                              "players are listed here.")
                self.scroll_by(0)
            else:
                # Never "no games" for a file that could not be read: say why, try again.
                self.note = pending.error
                self._retry = RETRY_SECONDS
        if self._retry is not None:
            self._retry -= dt
            if self._retry <= 0:
                self.refresh()
        marking = self._marking
        if marking is not None and marking.done:
            self._marking = None
            if marking.error or marking.value:
                self.app.notify(marking.error or marking.value, "warning")
            self.refresh()

    def resume(self) -> None:
        self.refresh()

    def toggle_kept(self, index: int) -> None:
        """Mark or unmark the record at ``index`` to keep (written off the frame loop)."""
        if self._marking is not None or not 0 <= index < len(self.records):
            return
        record = self.records[index]
        self.records[index] = replace(record, kept=not record.kept)  # shown at once
        self._marking = self.app.stats.submit(
            lambda store: store.set_kept(record.key, not record.kept), read=False)

    def open_review(self, index: int) -> None:
        """Review the record at ``index`` (its game's screen opens under the review)."""
        from engine.model.records import RecordError, parse_record
        from engine.screens.review_scene import open_record

        if not 0 <= index < len(self.records) or not self.records[index].record:
            return
        try:
            record = parse_record(self.records[index].record)
        except RecordError as exc:
            # A game whose rules changed since (or a damaged row): said, nothing opens.
            self.app.notify(_("The record could not be opened: {error}").format(
                error=exc.text()), "warning")
            return
        open_record(self.app, record)

    # --- lines ---------------------------------------------------------------------
    def line(self, record: GameRecord) -> str:
        """One record as the list shows it: date · game, board · players · result."""
        game = self.games.get(record.game)
        result = _(_OUTCOMES.get(record.outcome, record.outcome))
        text = " · ".join((when(record.played_at),
                           f"{game_title(game, record.game)}, "
                           f"{variant_title(game, record.variant)}",
                           players_title(game, record.seats, record.levels), result))
        if not record.record:
            text += " · " + _("no record (a position set by hand)")
        return text

    def _at(self, slot: int) -> GameRecord | None:
        index = self.scroll + slot
        if slot >= self.shown_rows() or index >= len(self.records):
            return None
        return self.records[index]

    def _shown(self, slot: int) -> Callable[[], bool]:
        return lambda: self._at(slot) is not None

    def _text(self, slot: int) -> Callable[[], str]:
        def text() -> str:
            record = self._at(slot)
            return self.line(record) if record is not None else ""
        return text

    def _has_record(self, slot: int) -> Callable[[], bool]:
        def has() -> bool:
            record = self._at(slot)
            return record is not None and bool(record.record)
        return has

    def _kept(self, slot: int) -> Callable[[], bool]:
        def kept() -> bool:
            record = self._at(slot)
            return record is not None and record.kept
        return kept

    def _keep_label(self, slot: int) -> Callable[[], str]:
        return lambda: N_("Kept ✓") if self._kept(slot)() else N_("Keep")

    def _review(self, slot: int) -> Callable[[], None]:
        return lambda: self.open_review(self.scroll + slot)

    def _keep(self, slot: int) -> Callable[[], None]:
        return lambda: self.toggle_kept(self.scroll + slot)

    # --- layout (design units) ------------------------------------------------------
    def layout(self) -> dict[str, FRect]:
        """Named design rectangles: "toolbar", "Back", "title", "?" and "list"."""
        area = self.app.viewport.area
        tools, title = toolbar(area, [Tool("Back", 110)], [Tool("?", 54)])
        top = area.y + TOOLBAR_H + MARGIN / 2
        rects = {"toolbar": FRect(area.x, area.y, area.w, TOOLBAR_H), "title": title,
                 "list": FRect(area.x + MARGIN, top, area.w - 2 * MARGIN,
                               area.bottom - MARGIN - top)}
        rects.update(tools)
        return rects

    def place(self, name: str) -> Callable[[], tuple[float, float, float, float]]:
        """A widget place following the layout entry ``name``."""
        return lambda: tuple(self.layout()[name])  # type: ignore[return-value]

    def _note_rect(self) -> tuple[float, float, float, float]:
        box = self.layout()["list"]
        return (box.x, box.y, box.w, 60)

    def shown_rows(self) -> int:
        """How many rows the window has room for."""
        return max(1, min(SLOTS, int(self.layout()["list"].h // ROW_H)))

    def _cell(self, slot: int, part: str) -> Callable[[], tuple[float, float, float, float]]:
        def rect() -> tuple[float, float, float, float]:
            box = self.layout()["list"]
            y = box.y + slot * ROW_H
            if part == "keep":
                return (box.right - KEEP_W, y + 2, KEEP_W, ROW_H - 4)
            if part == "review":
                return (box.right - KEEP_W - 8 - REVIEW_W, y + 2, REVIEW_W, ROW_H - 4)
            return (box.x, y, box.w - KEEP_W - REVIEW_W - 24, ROW_H)
        return rect

    def row_count(self) -> int:
        """How many rows the list holds."""
        return len(self.records)

    # --- events and drawing ------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        self.scroll_by(0)  # the window may have grown since the last scroll
        p = self.app.theme.palette
        vp = self.app.viewport
        surface.fill(p.background)
        pygame.draw.rect(surface, p.panel, vp.map_rect(self.layout()["toolbar"]))
        box = self.layout()["list"]
        for slot in range(1, min(self.shown_rows(), len(self.records) - self.scroll)):
            y = box.y + slot * ROW_H
            pygame.draw.line(surface, p.grid, vp.point(box.x, y), vp.point(box.right, y), 1)
        self.ui.draw(surface, vp, self.app.theme)

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "RecentGamesScene", "loaded": self.loaded, "scroll": self.scroll,
                "records": [[r.game, r.outcome, r.record, r.kept] for r in self.records]}
