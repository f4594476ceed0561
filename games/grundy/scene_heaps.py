"""Bachet's game and Nim: heaps of pebbles; a click takes a pebble and every pebble above it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import pygame
from pygame import FRect

from engine.core.i18n import N_, _, ngettext
from engine.model.seats import Seat
from engine.model.values import MoveValue
from engine.ui.board.draw import hatch
from engine.ui.game_layout import BUTTON_H, GAP, MARGIN
from engine.ui.theme import Colour
from engine.ui.value_overlay import draw_value_badge
from engine.ui.widgets import Button, Label
from games.grundy.family_scene import GrundyScene
from games.grundy.heaps import HeapConfig, HeapState
from games.grundy.help_text import heaps_rules
from games.grundy.panel_render import NoteFlow, draw_pill, draw_player_tag, pill_rect
from games.grundy.variants import GrundySetup, heap_config

if TYPE_CHECKING:
    from engine.runtime.app import App

Area = tuple[float, float, float, float]
# Seconds a taken pebble takes to fade out.
FADE_OUT = 0.3
# Vertical bands of the board (design units): room at the top for the "take n" label
# over a "−n" tag (a heap filling its column has no room for the tag beside it), the
# piles, then the heap sizes and hint values under them.
LABEL_LINE = 60.0
LABELS_H = 64.0
# Biggest pebble (design px): small heaps would otherwise get absurd boulders.
MAX_PEBBLE = 48.0
TAKE_CAPTION_W = 52.0
MAX_QUICK_TAKE = 10  # "Take 1".."Take k" buttons only while they fit in one row
HEAP_NAMES = "ABCDEFGH"
WINNING = MoveValue("win")  # the badge of a winning take
STONE: Colour = (206, 186, 150)
STONE_EDGE: Colour = (112, 92, 66)

@dataclass(frozen=True)
class Pile:
    """Where one heap's pebbles go, in design coordinates.

    Pebble 0 is at the bottom left; they fill rows of ``cols`` upwards, so "a
    pebble and every pebble above it" are the pebbles with that index or more.
    """

    left: float  # left edge of the heap's column
    width: float
    base: float  # the bottom of the pile
    cols: int
    cell: float  # side of the square each pebble sits in

    def centre(self, index: int) -> tuple[float, float]:
        """Design-space centre of pebble ``index``."""
        row, col = divmod(index, self.cols)
        x0 = self.left + (self.width - self.cols * self.cell) / 2
        return (x0 + (col + 0.5) * self.cell, self.base - (row + 0.5) * self.cell)

    def top(self, count: int) -> float:
        """The y of the top edge of a pile of ``count`` pebbles."""
        return self.base - math.ceil(max(1, count) / self.cols) * self.cell

    def index_at(self, x: float, y: float, count: int) -> int | None:
        """The pebble (below ``count``) whose square contains design point (x, y)."""
        x0 = self.left + (self.width - self.cols * self.cell) / 2
        col = math.floor((x - x0) / self.cell)
        row = math.floor((self.base - y) / self.cell)
        if not (0 <= col < self.cols and row >= 0):
            return None
        index = row * self.cols + col
        return index if index < count else None


def _column_choices(n: int) -> list[int]:
    """Row lengths worth trying: any up to 5, then multiples of 5 so big heaps count easily."""
    return [c for c in range(1, max(1, n) + 1) if c <= 5 or c % 5 == 0]


@lru_cache(maxsize=32)
def pile_layout(sizes: tuple[int, ...], board: Area) -> tuple[Pile, ...]:
    """Lay out heaps of the given starting ``sizes`` side by side in ``board`` (design
    x, y, w, h), between a label line at the top and the heap labels at the bottom.

    Every heap gets an equal column and the same pebble size (so equal heaps
    look equal), the largest that lets every heap fit; each heap then uses the
    narrowest rows that hold it at that size. Laid out from the *starting* sizes
    so pebbles stay put as the game goes on.
    """
    x, y, w, h = board
    slot = w / len(sizes)
    base = y + h - LABELS_H
    height = max(1.0, base - (y + LABEL_LINE))

    def cell_for(n: int, c: int) -> float:
        return min(MAX_PEBBLE, slot * 0.92 / c, height / math.ceil(n / c))

    def good_cell(n: int) -> float:
        n = max(1, n)
        choices = _column_choices(n)
        best = max(cell_for(n, c) for c in choices)
        if n > 20:
            return best
        # A small heap reads best as one stack: take the fewest columns that lose little size.
        return next(cell for c in choices if (cell := cell_for(n, c)) >= 0.85 * best)

    cell = min(good_cell(n) for n in sizes)
    columns = []
    for n in sizes:
        n = max(1, n)
        fits = [c for c in _column_choices(n)
                if c * cell <= slot * 0.92 + 1e-6 and math.ceil(n / c) * cell <= height + 1e-6]
        columns.append(fits[0] if fits else _column_choices(n)[-1])
    # In a board taller than the piles need, the piles and their labels sit in the middle
    # rather than leaving all the room above them.
    tallest = max(math.ceil(max(1, n) / c) * cell for n, c in zip(sizes, columns, strict=True))
    base -= max(0.0, height - tallest) / 2
    return tuple(Pile(x + i * slot, slot, base, c, cell) for i, c in enumerate(columns))


@lru_cache(maxsize=64)
def pebble_sprite(radius: int, fill: Colour, edge: Colour) -> pygame.Surface:
    """A shaded round pebble of ``radius`` pixels (cached: a heap can hold 1000)."""
    size = 2 * radius + 2
    sprite = pygame.Surface((size, size), pygame.SRCALPHA)
    c = (radius + 1, radius + 1)
    pygame.draw.aacircle(sprite, edge, c, radius)
    pygame.draw.aacircle(sprite, fill, c, max(1, radius - max(1, radius // 7)))
    # A soft highlight up-left makes it read as a stone rather than a dot.
    shine = tuple(min(255, v + 36) for v in fill)
    pygame.draw.aacircle(sprite, shine, (c[0] - radius * 0.3, c[1] - radius * 0.3),
                         max(1, radius * 0.35))
    return sprite


class HeapScene(GrundyScene):
    """Bachet's game (one heap, take 1..k) and Nim (several heaps, normal or misère)."""

    help_title = N_("Bachet and Nim: rules and strategy")

    @property
    def help_text(self) -> str:  # type: ignore[override]
        """The rules (examples computed, levels from the ladder), in the current language."""
        return heaps_rules()

    def __init__(self, app: App, setup: GrundySetup, seats: tuple[Seat, ...] | None = None,
                 seed: int | None = None) -> None:
        config = heap_config(setup)
        self.config: HeapConfig = config
        super().__init__(app, setup, HeapState.start(config), seats, seed)
        self.mouse: tuple[float, float] | None = None  # pointer, design coordinates
        self.cursor: tuple[int, int] | None = None  # keyboard choice: (heap, take)
        # Where each heap's one-line label ("✓ take 2", "take 3") was last drawn (pixels).
        self.label_rects: dict[int, pygame.Rect] = {}
        # Where each heap's "−n" tags were last drawn, player tag included (pixels).
        self.tag_rects: dict[int, list[pygame.Rect]] = {}
        k = config.max_take
        self.quick = k is not None and k <= MAX_QUICK_TAKE
        ui = self.ui
        ui.add(Label(self.place("variant"), lambda: setup.label(), size=15, role="muted",
                     fit_lines=3, min_size=13))
        if self.quick:
            assert k is not None
            # Number-only buttons (in a narrow row) need a caption saying what they do.
            ui.add(Label(self.place("take_caption"), N_("Take"), size=16, role="muted",
                         visible=lambda: not self.takes_spelt_out()))
            for t in range(1, k + 1):
                ui.add(Button(self.place(f"take{t}"),
                              lambda t=t: (_("Take {count}").format(count=t)
                                           if self.takes_spelt_out() else str(t)),
                              lambda t=t: self.play_move((0, t)), size=16, name=f"Take {t}",
                              enabled=lambda t=t: self.can_take(0, t)))

    # --- layout ------------------------------------------------------------------------------
    def extras_height(self) -> float:
        # Below the board: the rule, the last move and the hint (legend and nim-sum table)
        # in columns beside the variant.
        return 220.0

    def layout_body(self, body: FRect) -> dict[str, FRect]:
        """Heaps stand side by side, so the board takes the whole width left between the
        cards and the extras (not just a square), with Bachet's Take buttons in a row
        under it."""
        rects = super().layout_body(body)
        square, extras = rects["board"], rects["extras"]
        if extras.x >= square.right:  # the panel is beside the board
            left = rects["card0"].right + MARGIN
            board = FRect(left, body.y + MARGIN, extras.x - MARGIN - left, body.h - 2 * MARGIN)
        else:
            board = FRect(body.x + MARGIN, square.y, body.w - 2 * MARGIN, square.h)
        # A window far below the minimum size could leave nothing: keep a sliver, so the
        # pile arithmetic never divides by zero.
        board.w, board.h = max(1.0, board.w), max(1.0 + (BUTTON_H + GAP) * self.quick, board.h)
        k = self.config.max_take
        if self.quick and k is not None:
            row = FRect(board.x, board.bottom - BUTTON_H, board.w, BUTTON_H)
            board.h -= BUTTON_H + GAP
            rects.update(self._take_row(row, k))
        rects["board"] = board
        return rects

    @staticmethod
    def _take_row(row: FRect, k: int) -> dict[str, FRect]:
        """The Take 1..k buttons centred in ``row``; "Take n" captions when they fit, else
        numbers after a "Take" caption (a zero-width caption means it is not shown)."""
        gap = 6.0
        spelt = k * 72 + (k - 1) * gap <= row.w
        x0, width = row.x, row.w
        caption = FRect(row.x, row.y, 0, row.h)
        if not spelt:
            caption.w = TAKE_CAPTION_W
            x0, width = x0 + TAKE_CAPTION_W, width - TAKE_CAPTION_W
        size = min(80.0, (width - gap * (k - 1)) / k)
        x0 += (width - k * size - gap * (k - 1)) / 2
        rects = {f"take{t}": FRect(x0 + (t - 1) * (size + gap), row.y, size, row.h)
                 for t in range(1, k + 1)}
        rects["take_caption"] = caption
        return rects

    def takes_spelt_out(self) -> bool:
        """Whether the Take buttons read "Take n" (wide enough) rather than just "n"."""
        return self.layout().get("take_caption", FRect()).w == 0

    # --- hooks ----------------------------------------------------------------------------
    def fresh_state(self) -> Any:
        return HeapState.start(self.config)

    def hint_extra(self, state: Any, cancel: Any) -> dict[str, Any]:
        """Each heap's Grundy value and the status line's arithmetic."""
        return {"values": state.heap_values(), "value": state.value(),
                "explained": state.value_explained()}

    # --- geometry and moves -----------------------------------------------------------------
    def piles(self) -> tuple[Pile, ...]:
        """Where each heap is drawn (design coordinates) in the layout's "board"."""
        return pile_layout(self.config.heaps, tuple(self.layout()["board"]))

    def move_sound(self, before: Any, after: Any) -> str:
        return "take"

    def on_moved(self, before: Any, after: Any) -> None:
        """The pebbles just taken fade out where they lay."""
        for heap, (was, now) in enumerate(zip(before.heaps, after.heaps, strict=True)):
            if was > now:
                self.anim.start(("fade", heap), FADE_OUT, data=(now, was))

    def taken_marks(self) -> list[tuple[int, int, int, int]]:
        """(player, heap, first, end) of every take the board marks, oldest first: the
        pebbles ``first``..``end - 1`` of ``heap`` (see :meth:`GrundyScene.marked_moves`)."""
        marks = []
        for player, before, after in self.marked_moves():
            for heap, (was, now) in enumerate(zip(before.heaps, after.heaps, strict=True)):
                if was != now:
                    marks.append((player, heap, now, was))
        return marks

    def pebble_at(self, x: float, y: float) -> tuple[int, int] | None:
        """(heap, pebble index) under design point (x, y), if any."""
        heaps = self.state.heaps
        for i, pile in enumerate(self.piles()):
            if pile.left <= x < pile.left + pile.width:
                j = pile.index_at(x, y, heaps[i])
                return None if j is None else (i, j)
        return None

    def can_take(self, heap: int, take: int) -> bool:
        """Whether a human may take ``take`` pebbles from ``heap`` now."""
        return (not self.computer_to_move() and not self.state.is_terminal()
                and (heap, take) in self.state.legal_moves())

    def click_pebble(self, heap: int, index: int) -> bool:
        """Take pebble ``index`` of ``heap`` and all above it, if that is a legal move."""
        return self.play_move((heap, self.state.heaps[heap] - index))

    def pointed(self) -> tuple[int, int] | None:
        """The move the pointer or the keyboard cursor shows: (heap, take)."""
        if self.state.is_terminal() or self.computer_to_move():
            return None
        if self.cursor is not None:
            return self._clamped_cursor()
        if self.mouse is not None:
            hit = self.pebble_at(*self.mouse)
            if hit is not None:
                return hit[0], self.state.heaps[hit[0]] - hit[1]
        return None

    def _clamped_cursor(self) -> tuple[int, int] | None:
        """The keyboard cursor kept on a non-empty heap and a possible count."""
        if self.cursor is None:
            return None
        heaps = self.state.heaps
        heap, take = self.cursor
        if heaps[heap] == 0:
            filled = [i for i, h in enumerate(heaps) if h]
            if not filled:
                return None
            heap = min(filled, key=lambda i: abs(i - heap))
        most = min(heaps[heap], self.config.limit)
        return heap, max(1, min(take, most))

    def last_move(self) -> tuple[int, int, int] | None:
        """(player, heap, take) of the move that led here in this game, if any."""
        step = self.last_step()
        if step is None:
            return None
        before, now = step
        for i, (a, b) in enumerate(zip(before.heaps, now.heaps, strict=True)):
            if a != b:
                return before.current_player(), i, a - b
        return None

    # --- input -----------------------------------------------------------------------------
    def board_event(self, event: pygame.event.Event) -> None:
        vp = self.app.viewport
        if event.type == pygame.MOUSEMOTION:
            self.mouse = vp.to_design(event.pos)
            self.cursor = None  # the pointer takes over from the keyboard
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = vp.to_design(event.pos)
            self.cursor = None
            hit = self.pebble_at(*self.mouse)
            if hit is not None:
                self.click_pebble(*hit)  # an illegal take simply does nothing
        elif event.type == pygame.KEYDOWN:
            self._key(event.key)

    def _key(self, key: int) -> None:
        heaps = self.state.heaps
        filled = [i for i, h in enumerate(heaps) if h]
        if not filled:
            return
        cursor = self._clamped_cursor() or (filled[0], 1)
        heap, take = cursor
        if self.cursor is None and key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP,
                                           pygame.K_DOWN):
            self.cursor = cursor  # the first arrow only shows the cursor
            return
        if key in (pygame.K_LEFT, pygame.K_RIGHT):
            step = -1 if key == pygame.K_LEFT else 1
            pos = filled.index(heap) if heap in filled else 0
            heap = filled[(pos + step) % len(filled)]
            self.cursor = heap, take
            self.cursor = self._clamped_cursor()
        elif key in (pygame.K_UP, pygame.K_DOWN):
            self.cursor = heap, take + (1 if key == pygame.K_UP else -1)
            self.cursor = self._clamped_cursor()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE) and self.cursor:
            self.play_move(cursor)

    # --- text ---------------------------------------------------------------------------------
    def heap_name(self, heap: int) -> str:
        """How the screen names a heap (Bachet's only heap has no name)."""
        if len(self.config.heaps) == 1:
            return _("the heap")
        return _("heap {name}").format(name=HEAP_NAMES[heap])

    def status_text(self) -> str:
        state = self.state
        if state.is_terminal():
            taker = 1 - state.current_player()
            if self.config.misere:
                return _("{taker} took the last pebble and loses: {winner} wins. New game (N) "
                         "to play again.").format(taker=self.player_name(taker),
                                                  winner=self.player_name(1 - taker))
            return _("{taker} took the last pebble and wins. New game (N) to play "
                     "again.").format(taker=self.player_name(taker))
        hints = self.hint_view()
        if hints.get("explained"):
            # The arithmetic is long: it replaces the how-to (the help and the
            # pointer's preview say that too) so the line stays two lines.
            name = self.player_name(state.current_player())
            explained = hints["explained"].replace(_("the player to move"), name)
            return f"{self.turn_text()} {explained[0].upper()}{explained[1:]}"
        k = self.config.max_take
        how = (_("take 1–{most} pebbles").format(most=k) if k is not None
               else _("take pebbles from one heap"))
        return self.turn_text(_("{how} (click the lowest to take).").format(how=how))

    # --- drawing ------------------------------------------------------------------------------
    def draw_board(self, surface: pygame.Surface) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        board = self.layout()["board"]
        pygame.draw.rect(surface, p.board, self.area("board"), border_radius=vp.px(12))
        piles = self.piles()
        hints = self.hint_view()
        winning: list[tuple[int, int]] = [tuple(m) for m in hints.get("winning", ())]
        pointed = self.pointed()
        marks = self.taken_marks()
        for i, pile in enumerate(piles):
            self._draw_pile(surface, i, pile, pointed, winning,
                            [m for m in marks if m[1] == i], board)
        self._draw_heap_labels(surface, piles, hints.get("values"))
        self.draw_player_cards(surface)
        self._draw_side_panel(surface, hints, self.last_move())

    def _draw_pile(self, surface: pygame.Surface, heap: int, pile: Pile,
                   pointed: tuple[int, int] | None, winning: list[tuple[int, int]],
                   marks: list[tuple[int, int, int, int]], board: FRect) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        count = self.state.heaps[heap]
        start = self.config.heaps[heap]
        radius = max(2, round(pile.cell * 0.44 * vp.scale))
        # Empty sockets where pebbles were: the heap's starting size stays visible; the
        # sockets of the pebbles the marked moves took get a thick ring in the focus colour.
        taken = {j for _p, _h, first, end in marks for j in range(first, end)}
        for j in range(count, start):
            centre = vp.point(*pile.centre(j))
            if j in taken:
                pygame.draw.aacircle(surface, p.focus, centre, radius * 0.8,
                                     max(2, round(radius * 0.25)))
            else:
                pygame.draw.aacircle(surface, p.panel_edge, centre, radius * 0.8, 1)
        if marks:
            # Under the heap, a bar in the focus colour: this heap was played last.
            x0 = pile.left + (pile.width - pile.cols * pile.cell) / 2
            bar = vp.rect(x0, pile.base + 1, pile.cols * pile.cell, 4)
            pygame.draw.rect(surface, p.background, bar.inflate(vp.px(4), vp.px(4)),
                             border_radius=vp.px(3))
            pygame.draw.rect(surface, p.focus, bar, border_radius=vp.px(2))
        take = pointed[1] if pointed and pointed[0] == heap else 0
        legal = take > 0 and (heap, take) in self.state.legal_moves()
        stone = pebble_sprite(radius, STONE, STONE_EDGE)
        lit = pebble_sprite(radius, p.accent, STONE_EDGE)
        barred = pebble_sprite(radius, p.bad, STONE_EDGE)
        for j in range(count):
            centre = vp.point(*pile.centre(j))
            chosen = j >= count - take
            sprite = stone if not chosen else (lit if legal else barred)
            surface.blit(sprite, sprite.get_rect(center=centre))
            if chosen and not legal:
                # Not allowed: crossed out, so it is not told by the red alone.
                d = radius * 0.55
                for sx in (-1, 1):
                    pygame.draw.line(surface, p.background, (centre[0] - d, centre[1] - sx * d),
                                     (centre[0] + d, centre[1] + sx * d), max(2, radius // 4))
        self._draw_fading(surface, heap, pile, stone)
        for h, t in winning:
            if h != heap:
                continue
            ring = max(2, round(radius * 0.22))
            for j in range(count - t, count):
                pygame.draw.aacircle(surface, p.good, vp.point(*pile.centre(j)),
                                     radius + ring / 2, ring)
            self._tick(surface, vp.point(*pile.centre(count - t)), radius)
        if take:
            click = vp.point(*pile.centre(count - take))
            pygame.draw.aacircle(surface, p.focus, click, radius + vp.px(3), max(2, vp.px(3)))
        # The "−n" tags beside (or else above) the sockets, clear of every pebble, ring and
        # badge; then the label above the pile and its tags.
        named = len(marks) > 1 or self._several_marked()
        badges = [self._badge_rect(vp.point(*pile.centre(count - t)), radius)
                  for h, t in winning if h == heap]
        tags = self._place_tags(pile, start, marks, named, badges, board)
        self.tag_rects[heap] = [box for _m, box in tags]
        for (player, _heap, first, end), box in tags:
            self._draw_taken_tag(surface, box, player, end - first, named)
        # One line above the pile: what a click would do, else the winning take.
        label, colour = "", p.text
        if take:
            if legal:
                label, colour = _("take {count}").format(count=take), p.accent
            else:
                label, colour = _("✗ at most {most}").format(most=self.config.max_take), p.bad
        else:
            wins = [t for h, t in winning if h == heap]
            if wins:
                label, colour = _("✓ take {counts}").format(
                    counts=", ".join(map(str, wins))), p.good
        self.label_rects.pop(heap, None)
        if label:
            font = theme.font(17 * vp.scale, bold=True)
            img = font.render(label, True, colour)
            # Above every socket of the heap's starting size, not just the pebbles left:
            # the rings of the pebbles just taken stay readable under it (a tag that has
            # no room beside the pile goes above this line: see _place_tags).
            back = img.get_rect().inflate(vp.px(10), vp.px(2))
            back.midbottom = (vp.point(pile.left + pile.width / 2, 0)[0],
                              max(self.area("board").top + vp.px(2) + back.height,
                                  self._label_bottom(pile, start)))
            pygame.draw.rect(surface, p.background, back, border_radius=vp.px(6))
            surface.blit(img, img.get_rect(center=back.center))
            self.label_rects[heap] = back

    def _label_bottom(self, pile: Pile, start: int) -> int:
        """The pixel y of the bottom of the line over ``pile`` (its starting size ``start``)
        where its "take n" label goes."""
        vp = self.app.viewport
        return vp.point(0, min(pile.top(start), pile.base - pile.cell))[1] - vp.px(3)

    def _badge_rect(self, centre: tuple[int, int], radius: int) -> pygame.Rect:
        """The box of the ✓ badge :meth:`_tick` draws for the pebble at ``centre``."""
        r = max(5, round(radius * 0.5)) + 2  # as draw_value_badge sizes it, and a margin
        x, y = centre[0] + radius * 0.75, centre[1] - radius * 0.75
        return pygame.Rect(round(x - r), round(y - r), 2 * r, 2 * r)

    def _place_tags(self, pile: Pile, start: int, marks: list[tuple[int, int, int, int]],
                    named: bool, badges: list[pygame.Rect], board: FRect,
                    ) -> list[tuple[tuple[int, int, int, int], pygame.Rect]]:
        """Where each mark's "−n" tag goes (pixels, player tag included): beside the sockets
        it emptied, right or left of the pile, where that misses every socket (ring
        included), every ✓ badge and the other tags; else stacked above the pile."""
        vp, theme = self.app.viewport, self.app.theme
        size = 15 * vp.scale
        radius = max(2, round(pile.cell * 0.44 * vp.scale))
        reach = radius + max(2, round(radius * 0.22)) + 1  # a pebble with its ✓ ring
        sockets = [pygame.Rect(0, 0, 2 * reach, 2 * reach) for _ in range(max(1, start))]
        for j, rect in enumerate(sockets):
            rect.center = vp.point(*pile.centre(j))
        blocked = sockets + badges
        slot = vp.rect(pile.left, board.y, pile.width, board.h).inflate(-vp.px(2), -vp.px(4))
        x0 = pile.left + (pile.width - pile.cols * pile.cell) / 2
        block_left, block_right = vp.point(x0, 0)[0], vp.point(x0 + pile.cols * pile.cell, 0)[0]
        gap = vp.px(4)
        # Tags beside the pile stay under the label line; stacked ones go over it (in the
        # band pile_layout leaves at the top), so they never meet a neighbour's label.
        label_bottom = self._label_bottom(pile, start)
        label_h = theme.font(17 * vp.scale, bold=True).get_height() + vp.px(2)
        ceiling = label_bottom - label_h - gap
        placed: list[tuple[tuple[int, int, int, int], pygame.Rect]] = []
        for mark in marks:
            _player, _heap, first, end = mark
            ys = [vp.point(*pile.centre(j))[1] for j in range(first, end)]
            box = pill_rect(theme, (0, 0), f"−{end - first}", size)
            if named:  # the player's number in a circle on the pill's left
                box.width += box.height
            box.inflate_ip(4, 4)  # the pill's dark rim
            taken = [r for _m, r in placed]
            beside = []
            for side in ("right", "left"):
                cand = box.copy()
                cand.centery = round(sum(ys) / len(ys))
                if side == "right":
                    cand.left = block_right + gap
                else:
                    cand.right = block_left - gap
                # A tag by the top row stays under the label line.
                cand.top = max(cand.top, label_bottom + 1)
                beside.append(cand)
            spot = next((c for c in beside if slot.contains(c) and c.collidelist(blocked) < 0
                         and c.collidelist(taken) < 0), None)
            if spot is None:
                spot = box.copy()
                spot.midbottom = (vp.point(pile.left + pile.width / 2, 0)[0],
                                  min([ceiling, *(r.top - gap for r in taken)]))
            placed.append((mark, spot))
        return placed

    def _several_marked(self) -> bool:
        """Whether more than one move is marked (then each mark names its player)."""
        return len(self.marked_moves()) > 1

    def _draw_fading(self, surface: pygame.Surface, heap: int, pile: Pile,
                     stone: pygame.Surface) -> None:
        """The pebbles the last move took, fading out in place while their track runs."""
        t = self.anim.progress(("fade", heap))
        if t is None:
            return
        first, end = self.anim.data(("fade", heap))
        vp = self.app.viewport
        stone.set_alpha(round(255 * (1 - t)))
        try:
            for j in range(first, end):
                surface.blit(stone, stone.get_rect(center=vp.point(*pile.centre(j))))
        finally:
            stone.set_alpha(255)  # the sprite is shared (cached): leave it opaque

    def _draw_taken_tag(self, surface: pygame.Surface, box: pygame.Rect, player: int,
                        count: int, named: bool) -> None:
        """"−n" in ``box`` (from :meth:`_place_tags`) beside the sockets a move emptied, with
        the player's number when several moves are marked, so what was taken reads as
        text, not as a colour."""
        vp, theme = self.app.viewport, self.app.theme
        inner = box.inflate(-4, -4)
        if named:
            inner.width -= inner.height
            inner.x += inner.height
        pill = draw_pill(surface, theme, inner.center, f"−{count}", 15 * vp.scale)
        if named:
            r = pill.height * 0.5
            draw_player_tag(surface, theme, (pill.left - r, pill.centery), r, player)

    def _tick(self, surface: pygame.Surface, centre: tuple[int, int], radius: int) -> None:
        """A ✓ badge at the top right of the pebble to click for a winning move."""
        draw_value_badge(surface, (centre[0] + radius * 0.75, centre[1] - radius * 0.75),
                         round(radius * 0.5), WINNING, self.app.theme)

    def _draw_heap_labels(self, surface: pygame.Surface, piles: tuple[Pile, ...],
                          values: tuple[int, ...] | None) -> None:
        """Each heap's size under it, and with hints its Grundy value (value 0 striped)."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        heaps = self.state.heaps
        bachet = self.config.max_take is not None
        for i, pile in enumerate(piles):
            cx = pile.left + pile.width / 2
            size_font = theme.font(20 * vp.scale, bold=True)
            if bachet:
                text = ngettext("{count} pebble", "{count} pebbles", heaps[i]).format(
                    count=heaps[i])
            else:
                text = f"{HEAP_NAMES[i]}: {heaps[i]}"
            img = size_font.render(text, True, p.text)
            surface.blit(img, img.get_rect(center=vp.point(cx, pile.base + 18)))
            if values is None:
                continue
            value = values[i]
            if bachet:
                m = self.config.limit + 1
                text = _("value {n} mod {m} = {value}").format(n=heaps[i], m=m, value=value)
            else:
                text = _("value {value}").format(value=value)
            font = theme.font(16 * vp.scale, bold=True)
            img = font.render(text, True, p.text)
            # Value 0 gets wide striped ends and a thick frame, not just another colour.
            pad = 40 if value == 0 else 14
            box = img.get_rect(center=vp.point(cx, pile.base + 47)).inflate(vp.px(pad), vp.px(6))
            pygame.draw.rect(surface, p.panel, box, border_radius=vp.px(6))
            if value == 0:
                hatch(surface, box, p.bad, step=vp.px(6), width=max(1, vp.px(2)))
                back = img.get_rect(center=box.center).inflate(vp.px(6), 0)
                pygame.draw.rect(surface, p.panel, back, border_radius=vp.px(4))
            pygame.draw.rect(surface, p.bad if value == 0 else p.panel_edge, box,
                             vp.px(2) if value == 0 else 1, border_radius=vp.px(6))
            surface.blit(img, img.get_rect(center=box.center))

    def _draw_side_panel(self, surface: pygame.Surface, hints: dict[str, Any],
                         last: tuple[int, int, int] | None) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        cfg = self.config
        flow = NoteFlow(surface, vp, theme, self.layout()["notes"])
        if cfg.max_take is not None:
            rule = _("Take 1 to {most} pebbles. Whoever takes the last pebble wins.").format(
                most=cfg.max_take)
        elif cfg.misere:
            rule = _("Take any number from one heap. Misère: whoever takes the last pebble "
                     "LOSES.")
        else:
            rule = _("Take any number from one heap. Whoever takes the last pebble wins.")
        flow.text(rule, p.muted)
        if last is not None:
            player, heap, take = last
            if len(cfg.heaps) == 1:
                said = _("Last move: {player} took {count} (marked −{count}).").format(
                    player=self.player_name(player), count=take)
            else:
                said = _("Last move: {player} took {count} from {heap} (marked "
                         "−{count}).").format(player=self.player_name(player), count=take,
                                              heap=self.heap_name(heap))
            flow.text(said, p.text)
        if not self.show_hints:
            return
        box = flow.block(90)
        if box is not None:
            self._draw_hint_legend(surface, box)
        values = hints.get("values")
        if cfg.max_take is None and values is not None:
            box = flow.block(len(values) * 22 + 30)
            if box is not None:
                total = self._draw_binary(surface, values, box)
                flow.text(_("nim-sum 0: every move loses") if total == 0
                          else _("make every column even (nim-sum 0)"), p.muted, size=13)

    def _draw_hint_legend(self, surface: pygame.Surface, box: FRect) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        font = theme.font(14 * vp.scale)
        x, y = box.x, box.y
        surface.blit(theme.font(15 * vp.scale, bold=True).render(_("Hint"), True, p.text),
                     vp.point(x, y))
        sample = vp.rect(x, y + 28, 30, 22)
        pygame.draw.rect(surface, p.panel, sample)
        hatch(surface, sample, p.bad, step=vp.px(6))
        surface.blit(font.render(_("value 0"), True, p.text), vp.point(x + 38, y + 30))
        pygame.draw.aacircle(surface, p.good, vp.point(x + 15, y + 72), vp.px(10),
                             max(2, vp.px(3)))
        surface.blit(font.render(_("✓ winning take"), True, p.text), vp.point(x + 38, y + 63))

    def _draw_binary(self, surface: pygame.Surface, values: tuple[int, ...], box: FRect) -> int:
        """The nim-sum worked out in binary in ``box``: one row per heap, ⊕ of the columns
        below; returns the nim-sum."""
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        bits = max(1, max(values).bit_length())
        total = 0
        for v in values:
            total ^= v
        font = theme.font(15 * vp.scale, bold=True)
        digit_w, row_h = 16.0, 22.0
        x, y = box.x, box.y
        right = x + min(box.w, 160.0)
        x_bits = right - bits * digit_w
        rows = [(f"{HEAP_NAMES[i]} {v}", v, p.text) for i, v in enumerate(values)]
        rows.append((f"⊕ {total}", total, p.good if total else p.bad))
        for r, (name, v, colour) in enumerate(rows):
            ry = y + r * row_h + (6 if r == len(values) else 0)
            surface.blit(font.render(name, True, colour), vp.point(x, ry))
            # Digits one per fixed cell: the bundled font is proportional.
            for b in range(bits):
                bit = (v >> (bits - 1 - b)) & 1
                img = font.render(str(bit), True, colour if bit else p.muted)
                surface.blit(img, img.get_rect(midtop=vp.point(x_bits + (b + 0.5) * digit_w, ry)))
        line_y = y + len(values) * row_h + 2
        pygame.draw.line(surface, p.text, vp.point(x, line_y), vp.point(right, line_y),
                         max(1, vp.px(1)))
        return total

    def debug_state(self) -> dict[str, Any]:
        state = self.state
        hints = self.hint_view(shown_only=False)
        pointed = self.pointed()
        return {**super().debug_state(), "heaps": list(state.heaps),
                "to_move": state.current_player(), "value": state.value(),
                "misere": self.config.misere, "max_take": self.config.max_take,
                "pointed": list(pointed) if pointed else None,
                "pointed_legal": bool(pointed) and tuple(pointed) in state.legal_moves(),
                "hint_values": list(hints.get("values", ())),
                "winning": [list(m) for m in hints.get("winning", ())]}
