"""The launcher: a grid of game tiles, plus statistics, settings, palette, help and Quit.

Layout, in design units over the part of the design space that the window shows
(:func:`engine.ui.viewport.visible_design_rect`, so a wide window has room for more
columns and a tall one for more rows, with text at the usual size):

* a header band (title, subtitle) at the top and a bottom band (Statistics,
  Palette, Settings, ?, Quit and a one-line hint) at the bottom, never
  overlapping the grid; both bands (and the margins) tighten in a small window
  when that is what lets every game onto one page (:func:`plan_layout`);
* between them the tiles, in the grid :func:`choose_grid` picks: full tiles
  (picture, title, blurb, "Play ▸") when any grid of them fits, else compact
  tiles (picture beside title and a shortened blurb); among the grids that fit,
  the largest picture wins, then the fewest empty cells, then the shape closest
  to the window's;
* more games than fit even compact (13 and up in a 4:3 window) go on pages:
  Page Up / Page Down, the mouse wheel or the ◂ ▸ buttons turn them.

The layout is recomputed whenever the window's size changes (lazily, before
drawing and before handling input). Arrow keys move the focus around the grid,
Home / End go to the first / last game, Enter or Space opens it, Tab still goes
through every button.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from engine.core.i18n import N_, _, current_language
from engine.core.phrase import Phrase
from engine.model.descriptor import GameDescriptor
from engine.model.registry import all_games
from engine.model.registry import problems as load_problems
from engine.screens.scene import Scene
from engine.ui.theme import PALETTES, Theme
from engine.ui.viewport import DESIGN_SIZE, Viewport, visible_design_rect
from engine.ui.widgets import Button, Label, Widget, ellipsize, fit_lines

if TYPE_CHECKING:
    from engine.runtime.app import App

PAGER_H = 56.0  # the ◂ Page n of m ▸ row, only when the games need pages
MAX_SPARE = 60.0  # a big window centres the whole block rather than spread it apart
BUTTON_ROW_W = 900.0  # Statistics … Quit need this much, even under a single tile
# The buttons of the bottom row and their preferred widths: a group on the left, one on
# the right. In a narrow window all of them narrow in proportion (captions then shrink).
LEFT_BUTTONS = ((N_("Statistics"), 150.0), (N_("Palette"), 250.0), (N_("Settings"), 140.0))
RIGHT_BUTTONS = (("?", 56.0), (N_("Quit"), 110.0))

# A full tile: a square picture, then the title, a few lines of blurb and "Play ▸".
FULL_PAD, FULL_TEXT_H, FULL_GAP = 18.0, 176.0, 30.0
FULL_MIN_PICTURE, FULL_MAX_PICTURE = 164.0, 244.0  # 200 wide at least, 280×420 at most
# A compact tile: the picture on the left, title and a shortened blurb beside it.
COMPACT_PAD, COMPACT_GAP = 12.0, 16.0
COMPACT_MIN_PICTURE, COMPACT_MAX_PICTURE = 60.0, 150.0
COMPACT_MIN_TEXT, COMPACT_MAX_W = 150.0, 460.0  # text column ≥ ~20 characters

HINT = N_("F1 help · Arrow keys or Tab to move · Enter to choose")
# A tile's texts (design units): the blurb and "Play ▸" / "Resume ▸" (the title shrinks
# from 24 or 20 to fit, all tiles' titles at one size).
BLURB_SIZE, ACTION_SIZE = 15.0, 16.0


@dataclass(frozen=True)
class Bands:
    """The bands around the grid (design units) and the type sizes that go with them."""

    margin: float  # left and right of the grid and the text
    header: float  # title and subtitle
    bottom: float  # the row of buttons and the one-line footer
    title_size: float
    subtitle_size: float
    button_h: float
    gap: float  # between the bottom row's buttons
    min_text: float  # the narrowest text column of a compact tile


# At 960×720 with up to three games these give the launcher's long-standing look:
# tiles of 280×420 in one row, buttons at y=600.
BANDS = Bands(margin=30.0, header=124.0, bottom=136.0, title_size=40.0, subtitle_size=17.0,
              button_h=48.0, gap=16.0, min_text=COMPACT_MIN_TEXT)
# In a small window (down to the 800×600 units of a 640×480 one): a smaller title, a
# slimmer button row and tiles with a narrower text column (~15 characters), which is
# what lets nine games onto one page there.
TIGHT_BANDS = Bands(margin=20.0, header=80.0, bottom=96.0, title_size=32.0, subtitle_size=15.0,
                    button_h=44.0, gap=10.0, min_text=120.0)
MARGIN, HEADER_H, BOTTOM_H = BANDS.margin, BANDS.header, BANDS.bottom


@dataclass(frozen=True)
class GridChoice:
    """A grid of tiles: its style, shape and tile size, in design units."""

    style: str  # "full" or "compact"
    columns: int
    rows: int
    picture: float  # the side of a tile's square picture
    tile_w: float
    tile_h: float
    gap: float

    @property
    def size(self) -> tuple[float, float]:
        """Width and height of the whole grid."""
        return (self.columns * self.tile_w + max(0, self.columns - 1) * self.gap,
                self.rows * self.tile_h + max(0, self.rows - 1) * self.gap)


def _fit(style: str, columns: int, rows: int, width: float, height: float,
         min_text: float = COMPACT_MIN_TEXT,
         max_picture: float = FULL_MAX_PICTURE) -> GridChoice | None:
    """The tiles of ``style`` in a columns × rows grid within width × height; None if they
    would be smaller than readable (a compact tile's text column under ``min_text``).
    A full tile's picture is at most ``max_picture`` on a side."""
    gap = FULL_GAP if style == "full" else COMPACT_GAP
    cell_w = (width - (columns - 1) * gap) / columns
    cell_h = (height - (rows - 1) * gap) / rows
    if style == "full":
        side = min(cell_w - 2 * FULL_PAD, cell_h - FULL_TEXT_H, max_picture)
        if side < FULL_MIN_PICTURE:
            return None
        # Narrower tiles keep the classic height where there is room: more lines of blurb.
        tile_h = max(side + FULL_TEXT_H, min(cell_h, FULL_MAX_PICTURE + FULL_TEXT_H))
        return GridChoice(style, columns, rows, side, side + 2 * FULL_PAD, tile_h, gap)
    side = min(cell_h - 2 * COMPACT_PAD, cell_w - 3 * COMPACT_PAD - min_text,
               COMPACT_MAX_PICTURE)
    if side < COMPACT_MIN_PICTURE:
        return None
    return GridChoice(style, columns, rows, side, min(cell_w, COMPACT_MAX_W),
                      side + 2 * COMPACT_PAD, gap)


def choose_grid(count: int, width: float, height: float,
                min_text: float = COMPACT_MIN_TEXT,
                max_picture: float = FULL_MAX_PICTURE) -> GridChoice | None:
    """The best grid for ``count`` tiles in a width × height area, or None if none fits.

    Full tiles whenever some grid of them fits, else compact ones. Then the largest
    picture, then the fewest empty cells, then the grid whose shape is closest to the
    area's (so a wide window gets more columns and a tall one more rows).
    """
    if count <= 0 or width <= 0 or height <= 0:
        return None
    best: GridChoice | None = None
    best_key: tuple[float, ...] = ()
    for columns in range(1, count + 1):
        rows = math.ceil(count / columns)
        for style in ("full", "compact"):
            choice = _fit(style, columns, rows, width, height, min_text, max_picture)
            if choice is None:
                continue
            grid_w, grid_h = choice.size
            mismatch = abs(math.log((grid_w / grid_h) / (width / height)))
            key = (style == "full", round(choice.picture), -(columns * rows - count), -mismatch)
            if best is None or key > best_key:
                best, best_key = choice, key
    return best


def plan_grid(count: int, width: float, height: float,
              min_text: float = COMPACT_MIN_TEXT,
              max_picture: float = FULL_MAX_PICTURE) -> tuple[GridChoice, int]:
    """The grid for ``count`` tiles in width × height, and how many tiles go on a page.

    All of them if they fit; otherwise as many as fit above a row of page buttons.
    """
    whole = choose_grid(count, width, height, min_text, max_picture)
    if whole is not None or count <= 0:
        return whole or GridChoice("full", 0, 0, 0.0, 0.0, 0.0, FULL_GAP), max(0, count)
    for per_page in range(count - 1, 0, -1):
        paged = choose_grid(per_page, width, height - PAGER_H, min_text, max_picture)
        if paged is not None:
            return paged, per_page
    # Never reached with a real window (the visible design area is at least 960×720),
    # but a degenerate size must not crash the launcher: one small tile per page.
    return GridChoice("compact", 1, 1, COMPACT_MIN_PICTURE, COMPACT_MIN_PICTURE
                      + 3 * COMPACT_PAD + COMPACT_MIN_TEXT,
                      COMPACT_MIN_PICTURE + 2 * COMPACT_PAD, COMPACT_GAP), 1


def plan_layout(count: int, width: float,
                height: float) -> tuple[Bands, GridChoice, int]:
    """The bands, the grid and the tiles per page for ``count`` games in a width × height
    area: the usual bands if every game fits on one page with them; in an area smaller
    than the design space, else whichever bands put more games on a page. (A bigger
    window keeps the usual look and pages its many games instead.)

    An area taller than the design space's (a portrait window) lets full tiles grow
    past their usual largest size in proportion, so the grid uses the height rather
    than leaving half the window empty (issue 28).
    """
    best: tuple[Bands, GridChoice, int] | None = None
    max_picture = FULL_MAX_PICTURE * max(1.0, height / DESIGN_SIZE[1])
    small = width < DESIGN_SIZE[0] or height < DESIGN_SIZE[1]
    for bands in (BANDS, TIGHT_BANDS) if small else (BANDS,):
        grid, per_page = plan_grid(count, width - 2 * bands.margin,
                                   height - bands.header - bands.bottom, bands.min_text,
                                   max_picture)
        if per_page >= count:
            return bands, grid, per_page
        if best is None or per_page > best[2]:
            best = (bands, grid, per_page)
    assert best is not None
    return best


def button_row(left: float, width: float, gap: float,
               left_group: Sequence[tuple[str, float]],
               right_group: Sequence[tuple[str, float]]) -> dict[str, tuple[float, float]]:
    """x and width of each button of a row ``width`` wide from ``left``: ``left_group``
    from its left end, ``right_group`` ending at its right end, all narrowed in
    proportion when they would not fit with room between the groups."""
    buttons = [*left_group, *right_group]
    # Gaps between the buttons, and at least one more between the two groups.
    shrink = min(1.0, (width - gap * len(buttons)) / max(1.0, sum(w for _n, w in buttons)))
    placed: dict[str, tuple[float, float]] = {}
    x = left
    for name, w in left_group:
        placed[name] = (x, w * shrink)
        x += w * shrink + gap
    x = left + width
    for name, w in reversed(right_group):
        x -= w * shrink
        placed[name] = (x, w * shrink)
        x -= gap
    return placed


def fitting_size(theme: Theme, text: str, sizes: Sequence[float], scale: float, width: int,
                 bold: bool = False) -> float:
    """The first of ``sizes`` (design units, largest first) at which ``text`` fits ``width``
    pixels; the smallest if none does (the text is then cut short with "…")."""
    for size in sizes:
        if theme.font(size * scale, bold).size(text)[0] <= width:
            return size
    return sizes[-1]


class LauncherTile(Button):
    """A large button with the game's picture, name and description.

    The launcher sets :attr:`style` ("full" or "compact") when it lays out the grid.
    """

    def __init__(self, rect: tuple[float, float, float, float], family: GameDescriptor,
                 on_click: Callable[[], None],
                 visible: bool | Callable[[], bool] = True) -> None:
        super().__init__(rect, family.title, on_click, enabled=True, name=family.id,
                         visible=visible)
        self.family = family
        self.style = "full"
        # Whether the last drawing had to shorten the blurb (the footer then shows it all).
        self.shortened = False
        # Whether opening the tile resumes a game left earlier (it then says "Resume").
        self.resumable = False
        # The tiles drawn beside this one: every title is drawn at the size the longest
        # needs, not each at its own (the launcher sets it; issue 28).
        self.siblings: Sequence[LauncherTile] = (self,)
        # A game without a picture (or whose picture will not load: that game's mistake,
        # told once when the launcher opens) gets the launcher's own tile.
        self.problem: str | None = None
        try:
            self._painter = family.preview_painter()
        except Exception as exc:  # noqa: BLE001 - a broken preview must not stop the launcher
            self._painter, self.problem = None, f"field 'preview': {type(exc).__name__}: {exc}"
        self._text_cache: dict[tuple[Any, ...], tuple[str, list[str], bool]] = {}

    def _texts(self, key: tuple[Any, ...], theme: Theme, scale: float,
               title_sizes: tuple[float, ...], blurb_font: pygame.font.Font, width: int,
               max_lines: int) -> tuple[pygame.font.Font, str, list[str], bool]:
        """The title's font and text and the blurb's lines, fitted to ``width`` pixels."""
        # Fitting text measures it word by word: keep the result for this size (and
        # language).
        key = (*key, current_language())
        if key not in self._text_cache:
            if len(self._text_cache) > 8:
                self._text_cache.clear()
            # A long title gets a smaller font before it gets cut short; every tile's
            # title at the size of the one that needs the smallest.
            name = _(self.family.title)
            size = min(fitting_size(theme, _(tile.family.title), title_sizes, scale, width,
                                    bold=True) for tile in self.siblings)
            title = ellipsize(name, theme.font(size * scale, bold=True), width)
            lines, shortened = fit_lines(_(self.family.blurb), blurb_font, width, max_lines)
            self._text_cache[key] = (size, title, lines, shortened)
        size, title, lines, shortened = self._text_cache[key]
        self.drawn_sizes = {"title": size, "blurb": BLURB_SIZE}
        return theme.font(size * scale, bold=True), title, lines, shortened

    def _paint(self, surface: pygame.Surface, picture: pygame.Rect, theme: Theme) -> None:
        """The game's picture, or the launcher's own where it has none."""
        if self._painter is not None:
            self._painter(surface, picture, theme.palette)
        else:
            draw_initial_tile(surface, picture, theme, _(self.family.title))

    def draw_content(self, surface: pygame.Surface, rect: pygame.Rect, vp: Viewport,
                     theme: Theme) -> None:
        # A preview painter or a long word must not draw over the neighbouring tile.
        clip = surface.get_clip()
        surface.set_clip(rect.clip(clip))
        try:
            if self.style == "compact":
                self._draw_compact(surface, rect, vp, theme)
            else:
                self._draw_full(surface, rect, vp, theme)
        finally:
            surface.set_clip(clip)

    def _draw_full(self, surface: pygame.Surface, rect: pygame.Rect, vp: Viewport,
                   theme: Theme) -> None:
        p = theme.palette
        pad = vp.px(FULL_PAD)
        side = rect.width - 2 * pad
        picture = pygame.Rect(rect.x + pad, rect.y + pad, side, side)
        self._paint(surface, picture, theme)
        blurb_font = theme.font(BLURB_SIZE * vp.scale)
        play_font = theme.font(ACTION_SIZE * vp.scale, bold=True)
        y = picture.bottom + vp.px(12)
        slot = theme.font(24 * vp.scale, bold=True)  # the title's line, at its largest size
        blurb_y = y + slot.get_linesize() + vp.px(4)
        play_y = rect.bottom - pad - play_font.get_linesize()
        max_lines = (play_y - vp.px(4) - blurb_y) // blurb_font.get_linesize()
        title_font, title, lines, self.shortened = self._texts(
            ("full", rect.size, vp.scale), theme, vp.scale, (24, 22, 20, 18), blurb_font, side,
            max_lines)
        # A title shrunk to fit keeps the baseline of the others.
        surface.blit(title_font.render(title, True, p.text),
                     (rect.x + pad, y + slot.get_ascent() - title_font.get_ascent()))
        for line in lines:
            surface.blit(blurb_font.render(line, True, p.muted), (rect.x + pad, blurb_y))
            blurb_y += blurb_font.get_linesize()
        self.drawn_sizes["action"] = ACTION_SIZE
        action = _("Resume ▸") if self.resumable else _("Play ▸")
        surface.blit(play_font.render(action, True, p.accent), (rect.x + pad, play_y))

    def _draw_compact(self, surface: pygame.Surface, rect: pygame.Rect, vp: Viewport,
                      theme: Theme) -> None:
        p = theme.palette
        pad = vp.px(COMPACT_PAD)
        side = rect.height - 2 * pad
        picture = pygame.Rect(rect.x + pad, rect.y + pad, side, side)
        self._paint(surface, picture, theme)
        blurb_font = theme.font(BLURB_SIZE * vp.scale)
        x = picture.right + pad
        width = rect.right - pad - x
        y = rect.y + pad
        slot = theme.font(20 * vp.scale, bold=True)
        blurb_y = y + slot.get_linesize() + vp.px(2)
        max_lines = (rect.bottom - pad - blurb_y) // blurb_font.get_linesize()
        title_font, title, lines, self.shortened = self._texts(
            ("compact", rect.size, vp.scale), theme, vp.scale, (20, 18, 16), blurb_font, width,
            max_lines)
        surface.blit(title_font.render(title, True, p.text),
                     (x, y + slot.get_ascent() - title_font.get_ascent()))
        for line in lines:
            surface.blit(blurb_font.render(line, True, p.muted), (x, blurb_y))
            blurb_y += blurb_font.get_linesize()


def draw_initial_tile(surface: pygame.Surface, rect: pygame.Rect, theme: Theme,
                      title: str) -> None:
    """The picture of a game that declares no ``preview``: its title's initial, large, on a
    rounded panel in the palette's colours (every game gets a tile that reads as its own)."""
    p = theme.palette
    radius = max(2, rect.width // 12)
    pygame.draw.rect(surface, p.panel, rect, border_radius=radius)
    pygame.draw.rect(surface, p.accent, rect, width=max(1, rect.width // 40),
                     border_radius=radius)
    initial = next((ch for ch in title if ch.isalnum()), "?").upper()
    font = theme.font(max(8.0, rect.height * 0.55), bold=True)
    glyph = font.render(initial, True, p.accent)
    surface.blit(glyph, glyph.get_rect(center=rect.center))


class LauncherScene(Scene):
    """Pick a game; open statistics; switch palette; quit."""

    help_title = N_("Arcade of Strategy")
    help_text = N_(
        "Each tile is one game: a picture, its name and what it is about. Click a tile to "
        "play that game; a tile that says Resume goes back to the game you left there.\n\n"
        "Keyboard: the arrow keys move between the tiles (Home and End: the first and the "
        "last), Enter or Space opens the game, Down from the bottom row goes on to the "
        "buttons. Tab and Shift+Tab go through everything. In a window too small for every "
        "tile the games go on pages: Page Up / Page Down, the mouse wheel or ◂ Previous / "
        "Next ▸.\n\n"
        "Below the tiles: Statistics shows your results in every game, per variant and "
        "opponent; Palette switches between the default colours and a colour-blind-safe "
        "palette; Settings sets sound effects, volume, reduced motion, colours and the "
        "language (saved at once); ? or F1 shows this help; Quit, or closing the window, "
        "leaves. Ctrl+V opens a copied game record for review.\n\n"
        "In a game: Esc or ← Back comes back here, F1 or ? shows its rules, Ctrl+Z undoes "
        "and Ctrl+Y redoes a move, N starts a new game."
    )

    def __init__(self, app: App, families: Sequence[GameDescriptor] | None = None) -> None:
        """Tiles for ``families`` (default: every game in the registry).

        A one-game executable passes just its game: the player still gets its
        tile, statistics, palette, help and Quit, but no other game.
        """
        super().__init__(app)
        self.families = tuple(all_games() if families is None else families)
        title = N_("Arcade of Strategy")
        subtitle = N_("Games of strategy, with AIs that explain themselves")
        if families is not None and len(self.families) == 1:
            title, subtitle = self.families[0].title, N_("from Arcade of Strategy")
        self.page = 0
        self.grid = GridChoice("full", 0, 0, 0.0, 0.0, 0.0, FULL_GAP)
        self.bands = BANDS
        self.per_page = len(self.families)
        self._layout_key: tuple[int, int] | None = None
        self._last_tile = 0  # where Up from the buttons returns to
        # Rectangles are placeholders: _layout() places everything for the window's size.
        nowhere = (0.0, 0.0, 1.0, 1.0)
        self.title = self.ui.add(Label(nowhere, title, size=40, bold=True, align="center",
                                       role="accent", fit_lines=1, min_size=24))
        self.subtitle = self.ui.add(Label(nowhere, subtitle, size=17, align="center",
                                          role="muted", fit_lines=1, min_size=13))
        self.tiles = [
            self.ui.add(LauncherTile(nowhere, family, lambda f=family: self.open_family(f),
                                     visible=lambda i=i: self._on_page(i)))
            for i, family in enumerate(self.families)
        ]
        for tile in self.tiles:
            tile.siblings = self.tiles  # one title size for all
        paged = self._paged
        self.previous_page = self.ui.add(Button(nowhere, N_("◂ Previous"),
                                                lambda: self.turn_page(-1),
                                                name="Previous page", visible=paged))
        self.page_label = self.ui.add(Label(nowhere, self._page_text, size=16, align="center",
                                            role="muted", visible=paged))
        self.next_page = self.ui.add(Button(nowhere, N_("Next ▸"), lambda: self.turn_page(1),
                                            name="Next page", visible=paged))
        self.buttons = [
            self.ui.add(Button(nowhere, N_("Statistics"), self.open_stats, name="Statistics")),
            self.ui.add(Button(nowhere, self._palette_label, self.cycle_palette,
                               name="Palette")),
            self.ui.add(Button(nowhere, N_("Settings"), self.open_settings, name="Settings")),
            self.ui.add(Button(nowhere, "?", app.help, name="?")),
            self.ui.add(Button(nowhere, N_("Quit"), app.quit, name="Quit")),
        ]
        # One line: a game's whole blurb is often just too long; a smaller font first,
        # then "…" (and the whole text in a tooltip).
        self.footer = self.ui.add(Label(nowhere, self._footer_text, size=14, role="muted",
                                        align="center", fit_lines=1, min_size=12))
        self._layout()
        self._find_saves()
        self._tell_problems(families is None)

    def _find_saves(self) -> None:
        """Mark the tiles whose game was left to be resumed (they say "Resume ▸")."""
        saves = getattr(self.app, "game_saves", None)
        for tile in self.tiles:
            tile.resumable = saves is not None and saves.waiting(tile.family.id)

    def resume(self) -> None:
        """Back from a game (saved as it left): its tile may say "Resume" now."""
        super().resume()
        self._find_saves()

    def _tell_problems(self, registry_games: bool) -> None:
        """A notice per game that could not be loaded (the others are all here): the
        registry's broken descriptors, and pictures that would not load."""
        if registry_games:
            for problem in load_problems():
                self.app.notify(problem.phrase(), "warning")
        for tile in self.tiles:
            if tile.problem is not None:
                self.app.notify(Phrase(N_("Game {game} could not be loaded: {problem}"),
                                       game=tile.family.id, problem=tile.problem), "warning")

    # --- layout -----------------------------------------------------------------------
    @property
    def pages(self) -> int:
        """How many pages of tiles there are (1 when every game fits)."""
        return max(1, math.ceil(len(self.tiles) / max(1, self.per_page)))

    def _paged(self) -> bool:
        return self.pages > 1

    def _on_page(self, index: int) -> bool:
        return index // max(1, self.per_page) == self.page

    def _page_text(self) -> str:
        return _("Page {page} of {pages}").format(page=self.page + 1, pages=self.pages)

    def _layout(self) -> None:
        """Place every widget for the current window size (only when that size changed)."""
        size = self.app.screen.get_size()
        if size == self._layout_key:
            return
        self._layout_key = size
        focused = self.ui.focused
        vx, vy, vw, vh = visible_design_rect(Viewport.fit(size))
        self.bands, self.grid, self.per_page = plan_layout(len(self.tiles), vw, vh)
        b = self.bands
        area_h = vh - b.header - b.bottom
        grid_w, grid_h = self.grid.size
        pager_h = PAGER_H if self._paged() else 0.0
        # Leftover height goes around the grid, but at most MAX_SPARE each side: in a
        # very tall window the title and buttons stay near the tiles, all centred.
        spare = min(max(0.0, area_h - grid_h - pager_h) / 2, MAX_SPARE)
        top = vy + (vh - (b.header + grid_h + pager_h + b.bottom + 2 * spare)) / 2
        text_x, text_w = vx + b.margin, vw - 2 * b.margin
        self.title.size, self.subtitle.size = b.title_size, b.subtitle_size
        if b is BANDS:
            self.title.rect = (text_x, top + 36, text_w, 46)
            self.subtitle.rect = (text_x, top + 84, text_w, 30)
        else:
            self.title.rect = (text_x, top + 8, text_w, 40)
            self.subtitle.rect = (text_x, top + 50, text_w, 26)

        grid_x, grid_y = vx + (vw - grid_w) / 2, top + b.header + spare
        g = self.grid
        for i, tile in enumerate(self.tiles):
            row, col = divmod(i % max(1, self.per_page), max(1, g.columns))
            tile.rect = (grid_x + col * (g.tile_w + g.gap), grid_y + row * (g.tile_h + g.gap),
                         g.tile_w, g.tile_h)
            tile.style = g.style

        centre = vx + vw / 2
        pager_y = grid_y + grid_h + (PAGER_H - 44)
        self.previous_page.rect = (centre - 250, pager_y, 150, 44)
        self.page_label.rect = (centre - 90, pager_y, 180, 44)
        self.next_page.rect = (centre + 100, pager_y, 150, 44)

        bottom = grid_y + grid_h + pager_h + spare
        row_w = min(max(grid_w, BUTTON_ROW_W), text_w)
        y = bottom + (16 if b is BANDS else 10)
        row = button_row(vx + (vw - row_w) / 2, row_w, b.gap, LEFT_BUTTONS, RIGHT_BUTTONS)
        for button in self.buttons:
            x, w = row[button.name]
            button.rect = (x, y, w, b.button_h)
        footer_y = y + b.button_h + (22 if b is BANDS else 6)
        self.footer.rect = (text_x, footer_y, text_w, 30 if b is BANDS else 28)

        # The page size may have changed: keep the focused game on screen and focused.
        self.page = min(self.page, self.pages - 1)
        if isinstance(focused, LauncherTile):
            self._focus_tile(self.tiles.index(focused))
        elif focused is not None:
            self._focus(focused)

    # --- focus and pages ----------------------------------------------------------------
    def _focus(self, widget: Widget) -> None:
        items = self.ui.focusables()
        self.ui.focus_index = items.index(widget) if widget in items else None

    def _focus_tile(self, index: int) -> None:
        """Focus tile ``index``, turning to its page."""
        index = max(0, min(index, len(self.tiles) - 1))
        self.page = index // max(1, self.per_page)
        self._last_tile = index
        self._focus(self.tiles[index])

    def turn_page(self, step: int) -> None:
        """Show the next (1) or previous (-1) page of games, wrapping round."""
        if not self._paged():
            return
        focused = self.ui.focused
        for tile in self.tiles:
            tile.hover = False  # a tile leaving the screen gets no more mouse motion
        self.page = (self.page + step) % self.pages
        if isinstance(focused, LauncherTile):
            local = self.tiles.index(focused) % self.per_page
            self._focus_tile(min(self.page * self.per_page + local, len(self.tiles) - 1))
        elif focused is not None:
            self._focus(focused)

    def _grid_target(self, index: int, key: int) -> int | None:
        """The tile an arrow key moves to from tile ``index`` (None: off the grid's bottom)."""
        n, per_page, columns = len(self.tiles), max(1, self.per_page), max(1, self.grid.columns)
        page_start = index // per_page * per_page
        page_end = min(n, page_start + per_page)
        row, col = divmod(index - page_start, columns)
        if key == pygame.K_LEFT:  # reading order, across rows and pages; stops at the ends
            return max(0, index - 1)
        if key == pygame.K_RIGHT:
            return min(n - 1, index + 1)
        if key == pygame.K_UP:
            if row > 0:
                return index - columns
            if page_start > 0:  # the same column of the previous page's bottom row
                previous = page_start - per_page
                return min(previous + (per_page - 1) // columns * columns + col, page_start - 1)
            return index
        # Down: the tile below; the last tile if the row below is shorter; the next page;
        # and from the bottom row of the last page, on to the buttons.
        if index + columns < page_end:
            return index + columns
        if page_start + (row + 1) * columns < page_end:
            return page_end - 1
        if page_end < n:
            return min(page_end + col, n - 1)
        return None

    def _navigate(self, key: int) -> bool:
        """Move the focus for an arrow, Home, End, Page Up or Page Down key; whether used."""
        if not self.tiles:
            return False
        if key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self.turn_page(-1 if key == pygame.K_PAGEUP else 1)
            return self._paged()
        if key in (pygame.K_HOME, pygame.K_END):
            self._focus_tile(0 if key == pygame.K_HOME else len(self.tiles) - 1)
            return True
        if key not in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            return False
        focused = self.ui.focused
        if isinstance(focused, LauncherTile):
            target = self._grid_target(self.tiles.index(focused), key)
            if target is None:
                self._focus(self.buttons[0])
            else:
                self._focus_tile(target)
        elif focused is None:
            self._focus_tile(self.page * self.per_page)
        else:
            # On a button below the grid: Left / Right along the buttons, Up back to the games.
            controls = [w for w in self.ui.focusables() if not isinstance(w, LauncherTile)]
            if key == pygame.K_UP:
                last = self._last_tile
                self._focus_tile(last if self._on_page(last) else self.page * self.per_page)
            elif key in (pygame.K_LEFT, pygame.K_RIGHT) and focused in controls:
                step = 1 if key == pygame.K_RIGHT else -1
                at = max(0, min(len(controls) - 1, controls.index(focused) + step))
                self._focus(controls[at])
        return True

    def handle_event(self, event: pygame.event.Event) -> None:
        """Grid keys and the mouse wheel here; everything else as any scene does."""
        self._layout()  # a resize earlier in this frame moves the tiles the click aims at
        if (event.type == pygame.KEYDOWN and event.key == pygame.K_v
                and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)):
            # A game's record pasted: its game opens, reviewing it (engine.model.records).
            from engine.screens.review_scene import open_record_from_launcher

            open_record_from_launcher(self.app)
            return
        if event.type == pygame.KEYDOWN and self._navigate(event.key):
            return
        if event.type == pygame.MOUSEWHEEL and self._paged():
            self.turn_page(-1 if event.y > 0 else 1)
            return
        super().handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        """Lay out for the window's current size, then draw."""
        self._layout()
        super().draw(surface)

    # --- footer, palette, actions ---------------------------------------------------------
    def _footer_text(self) -> str:
        # A tile too small for its whole blurb: the footer shows it while the tile is
        # focused or under the pointer.
        focused = self.ui.focused
        for tile in [focused, *self.tiles]:
            if (isinstance(tile, LauncherTile) and tile.visible and tile.shortened
                    and (tile is focused or tile.hover)):
                return f"{_(tile.family.title)}: {_(tile.family.blurb)}"
        return _(HINT) + (_(" · Page Up / Page Down: more games") if self._paged() else "")

    def _palette_label(self) -> str:
        return _("Palette: {palette}").format(palette=_(self.app.theme.palette.label))

    def cycle_palette(self) -> None:
        """Switch to the next palette and remember the choice."""
        names = list(PALETTES)
        current = names.index(self.app.theme.palette.name)
        self.app.set_palette(names[(current + 1) % len(names)])

    def open_family(self, family: GameDescriptor) -> None:
        """Open a game: the one left in progress, resumed (engine.storage.saved_games), else a new
        one with the parameters last played."""
        from engine.storage.saved_games import is_large, open_game

        if is_large(self.app, family):
            # A long history takes seconds to replay: off the frame loop, "Loading…".
            from engine.screens.loading_scene import LoadingScene

            self.app.push(LoadingScene(self.app, family))
        else:
            self.app.push(open_game(self.app, family))

    def open_stats(self) -> None:
        """Show the statistics screen."""
        from engine.screens.stats_scene import StatsScene

        self.app.push(StatsScene(self.app))

    def open_settings(self) -> None:
        """Show the settings (sound, volume, reduced motion, computer speed)."""
        # Imported when asked for: start-up does not pay for a screen rarely opened.
        from engine.screens.settings_scene import SettingsOverlay

        self.app.push(SettingsOverlay(self.app))

    def debug_state(self) -> dict[str, Any]:
        """The tiles, the grid's shape and page, and the focused button, for tests."""
        self._layout()
        focused = self.ui.focused
        return {"scene": "LauncherScene", "palette": self.app.theme.palette.name,
                "tiles": [{"id": f.id} for f in self.families],
                "resumable": [t.family.id for t in self.tiles if t.resumable],
                "columns": self.grid.columns, "rows": self.grid.rows, "style": self.grid.style,
                "tight": self.bands is not BANDS,
                "page": self.page, "pages": self.pages, "per_page": self.per_page,
                "focus": getattr(focused, "name", None)}
