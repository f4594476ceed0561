"""The launcher: a grid of game tiles, plus statistics, palette, help and Quit.

Layout, in design units over the part of the design space that the window shows
(:func:`engine.viewport.visible_design_rect`, so a wide window has room for more
columns and a tall one for more rows, with text at the usual size):

* a header band (title, subtitle) at the top and a bottom band (Statistics,
  Palette, ?, Quit and a one-line hint) at the bottom, never overlapping the grid;
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

from engine.descriptor import GameDescriptor
from engine.registry import all_games
from engine.scene import Scene
from engine.theme import PALETTES, Theme
from engine.viewport import Viewport, visible_design_rect
from engine.widgets import Button, Label, Widget, wrap_text

if TYPE_CHECKING:
    from engine.app import App

# Bands around the grid (design units). At 960×720 with up to three games these give
# the launcher's long-standing look: tiles of 280×420 in one row, buttons at y=600.
MARGIN = 30.0
HEADER_H = 124.0
BOTTOM_H = 136.0
PAGER_H = 56.0  # the ◂ Page n of m ▸ row, only when the games need pages
MAX_SPARE = 60.0  # a big window centres the whole block rather than spread it apart
BUTTON_ROW_W = 900.0  # Statistics … Quit need this much, even under a single tile

# A full tile: a square picture, then the title, a few lines of blurb and "Play ▸".
FULL_PAD, FULL_TEXT_H, FULL_GAP = 18.0, 176.0, 30.0
FULL_MIN_PICTURE, FULL_MAX_PICTURE = 164.0, 244.0  # 200 wide at least, 280×420 at most
# A compact tile: the picture on the left, title and a shortened blurb beside it.
COMPACT_PAD, COMPACT_GAP = 12.0, 16.0
COMPACT_MIN_PICTURE, COMPACT_MAX_PICTURE = 60.0, 150.0
COMPACT_MIN_TEXT, COMPACT_MAX_W = 150.0, 460.0  # text column ≥ ~20 characters

HINT = "F1 help · Arrow keys or Tab to move · Enter to choose"
ELLIPSIS = "…"


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


def _fit(style: str, columns: int, rows: int, width: float, height: float) -> GridChoice | None:
    """The tiles of ``style`` in a columns × rows grid within width × height; None if they
    would be smaller than readable."""
    gap = FULL_GAP if style == "full" else COMPACT_GAP
    cell_w = (width - (columns - 1) * gap) / columns
    cell_h = (height - (rows - 1) * gap) / rows
    if style == "full":
        side = min(cell_w - 2 * FULL_PAD, cell_h - FULL_TEXT_H, FULL_MAX_PICTURE)
        if side < FULL_MIN_PICTURE:
            return None
        # Narrower tiles keep the classic height where there is room: more lines of blurb.
        tile_h = max(side + FULL_TEXT_H, min(cell_h, FULL_MAX_PICTURE + FULL_TEXT_H))
        return GridChoice(style, columns, rows, side, side + 2 * FULL_PAD, tile_h, gap)
    side = min(cell_h - 2 * COMPACT_PAD, cell_w - 3 * COMPACT_PAD - COMPACT_MIN_TEXT,
               COMPACT_MAX_PICTURE)
    if side < COMPACT_MIN_PICTURE:
        return None
    return GridChoice(style, columns, rows, side, min(cell_w, COMPACT_MAX_W),
                      side + 2 * COMPACT_PAD, gap)


def choose_grid(count: int, width: float, height: float) -> GridChoice | None:
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
            choice = _fit(style, columns, rows, width, height)
            if choice is None:
                continue
            grid_w, grid_h = choice.size
            mismatch = abs(math.log((grid_w / grid_h) / (width / height)))
            key = (style == "full", round(choice.picture), -(columns * rows - count), -mismatch)
            if best is None or key > best_key:
                best, best_key = choice, key
    return best


def plan_grid(count: int, width: float, height: float) -> tuple[GridChoice, int]:
    """The grid for ``count`` tiles in width × height, and how many tiles go on a page.

    All of them if they fit; otherwise as many as fit above a row of page buttons.
    """
    whole = choose_grid(count, width, height)
    if whole is not None or count <= 0:
        return whole or GridChoice("full", 0, 0, 0.0, 0.0, 0.0, FULL_GAP), max(0, count)
    for per_page in range(count - 1, 0, -1):
        paged = choose_grid(per_page, width, height - PAGER_H)
        if paged is not None:
            return paged, per_page
    # Never reached with a real window (the visible design area is at least 960×720),
    # but a degenerate size must not crash the launcher: one small tile per page.
    return GridChoice("compact", 1, 1, COMPACT_MIN_PICTURE, COMPACT_MIN_PICTURE
                      + 3 * COMPACT_PAD + COMPACT_MIN_TEXT,
                      COMPACT_MIN_PICTURE + 2 * COMPACT_PAD, COMPACT_GAP), 1


def ellipsize(text: str, font: pygame.font.Font, width: int, force: bool = False) -> str:
    """``text`` cut (at a word if possible) and ended with "…" so it fits ``width`` pixels;
    unchanged if it already fits and ``force`` is false."""
    if not force and font.size(text)[0] <= width:
        return text
    words = text.rstrip(" ,;:·-").split(" ")
    while len(words) > 1 and font.size(" ".join(words) + ELLIPSIS)[0] > width:
        words.pop()
    cut = " ".join(words).rstrip(" ,;:·-")
    while cut and font.size(cut + ELLIPSIS)[0] > width:  # one long word: cut letters
        cut = cut[:-1]
    return cut + ELLIPSIS


def fitting_size(theme: Theme, text: str, sizes: Sequence[float], scale: float, width: int,
                 bold: bool = False) -> float:
    """The first of ``sizes`` (design units, largest first) at which ``text`` fits ``width``
    pixels; the smallest if none does (the text is then cut short with "…")."""
    for size in sizes:
        if theme.font(size * scale, bold).size(text)[0] <= width:
            return size
    return sizes[-1]


def fit_lines(text: str, font: pygame.font.Font, width: int,
              max_lines: int) -> tuple[list[str], bool]:
    """``text`` wrapped to ``width`` pixels in at most ``max_lines`` lines, the last ending
    with "…" if some was left out; and whether it was shortened."""
    if max_lines <= 0:
        return [], bool(text)
    lines = wrap_text(text, font, width)
    shortened = len(lines) > max_lines
    lines = lines[:max_lines]
    fitted = [ellipsize(line, font, width) for line in lines]
    if shortened:
        fitted[-1] = ellipsize(lines[-1], font, width, force=True)
    return fitted, shortened or fitted != lines


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
        self._painter = family.preview_painter()
        self._text_cache: dict[tuple[Any, ...], tuple[str, list[str], bool]] = {}

    def _texts(self, key: tuple[Any, ...], theme: Theme, scale: float,
               title_sizes: tuple[float, ...], blurb_font: pygame.font.Font, width: int,
               max_lines: int) -> tuple[pygame.font.Font, str, list[str], bool]:
        """The title's font and text and the blurb's lines, fitted to ``width`` pixels."""
        # Fitting text measures it word by word: keep the result for this size.
        if key not in self._text_cache:
            if len(self._text_cache) > 8:
                self._text_cache.clear()
            # A long title gets a smaller font before it gets cut short.
            size = fitting_size(theme, self.family.title, title_sizes, scale, width, bold=True)
            title = ellipsize(self.family.title, theme.font(size * scale, bold=True), width)
            lines, shortened = fit_lines(self.family.blurb, blurb_font, width, max_lines)
            self._text_cache[key] = (size, title, lines, shortened)
        size, title, lines, shortened = self._text_cache[key]
        return theme.font(size * scale, bold=True), title, lines, shortened

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
        self._painter(surface, picture, p)
        blurb_font = theme.font(15 * vp.scale)
        play_font = theme.font(16 * vp.scale, bold=True)
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
        surface.blit(play_font.render("Play ▸", True, p.accent), (rect.x + pad, play_y))

    def _draw_compact(self, surface: pygame.Surface, rect: pygame.Rect, vp: Viewport,
                      theme: Theme) -> None:
        p = theme.palette
        pad = vp.px(COMPACT_PAD)
        side = rect.height - 2 * pad
        picture = pygame.Rect(rect.x + pad, rect.y + pad, side, side)
        self._painter(surface, picture, p)
        blurb_font = theme.font(15 * vp.scale)
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


class _OneLineLabel(Label):
    """A label that always stays on one line, shortened with "…" if need be."""

    def draw(self, surface: pygame.Surface, vp: Viewport, theme: Theme, focused: bool) -> None:
        rect = self.screen_rect(vp)
        text = self.text
        # A smaller font first (a game's whole blurb is often just too long), then "…".
        size = fitting_size(theme, text, (self.size, self.size - 1, self.size - 2), vp.scale,
                            rect.width, self.bold)
        font = theme.font(size * vp.scale, self.bold)
        image = font.render(ellipsize(text, font, rect.width), True,
                            getattr(theme.palette, self.role))
        surface.blit(image, image.get_rect(center=rect.center))


class LauncherScene(Scene):
    """Pick a game; open statistics; switch palette; quit."""

    help_title = "Arcade of Strategy"
    help_text = (
        "Click a game's tile to play it. Or move between the tiles with the arrow keys "
        "(Home and End: the first and last game) and press Enter; Tab and Shift+Tab go "
        "through every button. When there are more games than fit, Page Up and Page Down "
        "(or the mouse wheel, or the ◂ ▸ buttons) show the others.\n\n"
        "In every game: Esc or Back returns here, F1 or ? shows that game's rules, "
        "Ctrl+Z undoes and Ctrl+Y redoes a move, N starts a new game.\n\n"
        "Statistics shows your results per game. The palette button switches to a "
        "colour-blind-safe palette; players are also told apart by shape.\n\n"
        "Closing the window quits from any screen."
    )

    def __init__(self, app: App, families: Sequence[GameDescriptor] | None = None) -> None:
        """Tiles for ``families`` (default: every game in the registry).

        A one-game executable passes just its game: the player still gets its
        tile, statistics, palette, help and Quit, but no other game.
        """
        super().__init__(app)
        self.families = tuple(all_games() if families is None else families)
        title = "Arcade of Strategy"
        subtitle = "Games of strategy, with AIs that explain themselves"
        if families is not None and len(self.families) == 1:
            title, subtitle = self.families[0].title, "from Arcade of Strategy"
        self.page = 0
        self.grid = GridChoice("full", 0, 0, 0.0, 0.0, 0.0, FULL_GAP)
        self.per_page = len(self.families)
        self._layout_key: tuple[int, int] | None = None
        self._last_tile = 0  # where Up from the buttons returns to
        # Rectangles are placeholders: _layout() places everything for the window's size.
        nowhere = (0.0, 0.0, 1.0, 1.0)
        self.title = self.ui.add(Label(nowhere, title, size=40, bold=True, align="center",
                                       role="accent"))
        self.subtitle = self.ui.add(Label(nowhere, subtitle, size=17, align="center",
                                          role="muted"))
        self.tiles = [
            self.ui.add(LauncherTile(nowhere, family, lambda f=family: self.open_family(f),
                                     visible=lambda i=i: self._on_page(i)))
            for i, family in enumerate(self.families)
        ]
        paged = self._paged
        self.previous_page = self.ui.add(Button(nowhere, "◂ Previous", lambda: self.turn_page(-1),
                                                name="Previous page", visible=paged))
        self.page_label = self.ui.add(Label(nowhere, self._page_text, size=16, align="center",
                                            role="muted", visible=paged))
        self.next_page = self.ui.add(Button(nowhere, "Next ▸", lambda: self.turn_page(1),
                                            name="Next page", visible=paged))
        self.buttons = [
            self.ui.add(Button(nowhere, "Statistics", self.open_stats, name="Statistics")),
            self.ui.add(Button(nowhere, self._palette_label, self.cycle_palette,
                               name="Palette")),
            self.ui.add(Button(nowhere, "?", app.help, name="?")),
            self.ui.add(Button(nowhere, "Quit", app.quit, name="Quit")),
        ]
        self.footer = self.ui.add(_OneLineLabel(nowhere, self._footer_text, size=14,
                                                role="muted"))
        self._layout()

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
        return f"Page {self.page + 1} of {self.pages}"

    def _layout(self) -> None:
        """Place every widget for the current window size (only when that size changed)."""
        size = self.app.screen.get_size()
        if size == self._layout_key:
            return
        self._layout_key = size
        focused = self.ui.focused
        vx, vy, vw, vh = visible_design_rect(Viewport.fit(size))
        area_h = vh - HEADER_H - BOTTOM_H
        self.grid, self.per_page = plan_grid(len(self.tiles), vw - 2 * MARGIN, area_h)
        grid_w, grid_h = self.grid.size
        pager_h = PAGER_H if self._paged() else 0.0
        # Leftover height goes around the grid, but at most MAX_SPARE each side: in a
        # very tall window the title and buttons stay near the tiles, all centred.
        spare = min(max(0.0, area_h - grid_h - pager_h) / 2, MAX_SPARE)
        top = vy + (vh - (HEADER_H + grid_h + pager_h + BOTTOM_H + 2 * spare)) / 2
        text_x, text_w = vx + MARGIN, vw - 2 * MARGIN
        self.title.rect = (text_x, top + 36, text_w, 46)
        self.subtitle.rect = (text_x, top + 84, text_w, 30)

        grid_x, grid_y = vx + (vw - grid_w) / 2, top + HEADER_H + spare
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
        row_w = min(max(grid_w, BUTTON_ROW_W), vw - 2 * MARGIN)
        left, right = vx + (vw - row_w) / 2, vx + (vw + row_w) / 2
        y = bottom + 16
        stats, palette, help_button, quit_button = self.buttons
        stats.rect = (left, y, 200, 48)
        palette.rect = (left + 220, y, 270, 48)
        help_button.rect = (right - 200, y, 60, 48)
        quit_button.rect = (right - 120, y, 120, 48)
        self.footer.rect = (text_x, bottom + 86, text_w, 30)

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
                return f"{tile.family.title}: {tile.family.blurb}"
        return HINT + (" · Page Up / Page Down: more games" if self._paged() else "")

    def _palette_label(self) -> str:
        return f"Palette: {self.app.theme.palette.label}"

    def cycle_palette(self) -> None:
        """Switch to the next palette and remember the choice."""
        names = list(PALETTES)
        current = names.index(self.app.theme.palette.name)
        self.app.set_palette(names[(current + 1) % len(names)])

    def open_family(self, family: GameDescriptor) -> None:
        """Open a game (with the parameters last played)."""
        self.app.push(family.open_scene(self.app))

    def open_stats(self) -> None:
        """Show the statistics screen."""
        from engine.stats_scene import StatsScene

        self.app.push(StatsScene(self.app))

    def debug_state(self) -> dict[str, Any]:
        """The tiles, the grid's shape and page, and the focused button, for tests."""
        self._layout()
        focused = self.ui.focused
        return {"scene": "LauncherScene", "palette": self.app.theme.palette.name,
                "tiles": [{"id": f.id} for f in self.families],
                "columns": self.grid.columns, "rows": self.grid.rows, "style": self.grid.style,
                "page": self.page, "pages": self.pages, "per_page": self.per_page,
                "focus": getattr(focused, "name", None)}
