"""Draws :class:`engine.model.values.MoveValue` s: the one hint overlay and its legend.

Two looks, one meaning: ``"fill"`` tints a move's cell by its outcome (green
win, yellow draw, red loss; estimates fainter) and writes its label (``W3``,
``D``, ``~L``); ``"mark"`` leaves the cell's own content readable (a number,
a token) and frames winning moves with a ✓ and drawn ones with ``=``.
Colour is never the only sign: letters, ticks and frame widths say the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pygame

from engine.core.i18n import N_, _
from engine.model.values import MoveValue
from engine.ui.board.draw import fill_cell
from engine.ui.board.geometry import BoardGeometry
from engine.ui.theme import Colour, Palette, Theme
from engine.ui.viewport import Viewport
from engine.ui.widgets import draw_text_block

Cell = tuple[int, int]

#: The legend's note on what n counts.
REMOTENESS_NOTE = N_("n: moves to the end with best play, counting both sides")
#: The note when some value is proven without its distance (a bare W or L; the
#: translation names its own letters, those of the statistics' column heads).
PROVEN_NOTE = N_("n: moves to the end with best play; W or L alone: proven, n not worked "
                 "out")


def outcome_letters() -> dict[str, str]:
    """The letter of each outcome in the current language: the statistics' column heads
    (the same catalogue entries, so the board and the table agree: W/D/L, hu Gy/D/V,
    cs V/R/P)."""
    return {"win": _("W"), "draw": _("D"), "loss": _("L"), "unknown": "?"}


def value_label(value: MoveValue) -> str:
    """A value's label as the board shows it, in the player's language (``W3``, ``Gy3``,
    ``V3``; ``~R``)."""
    return value.label(outcome_letters())


def outcome_colour(palette: Palette, outcome: str) -> Colour:
    """The colour of an outcome: good, neutral, bad, or muted for unknown."""
    return {"win": palette.good, "draw": palette.neutral, "loss": palette.bad}.get(
        outcome, palette.muted)


def draw_value_fill(surface: pygame.Surface, geom: BoardGeometry, cell: Cell, value: MoveValue,
                    theme: Theme, label: str | None = None) -> None:
    """Tint ``cell`` by the value's outcome and write its label (or ``label``) in it."""
    p = theme.palette
    fill_cell(surface, geom, cell, outcome_colour(p, value.outcome), 120 if value.exact else 55)
    font = theme.font(max(8.0, geom.cell_size * 0.28), bold=True)
    text = font.render(value_label(value) if label is None else label, True, p.text)
    rect = geom.cell_rect(*cell)
    box = text.get_rect(center=rect.center)
    pygame.draw.rect(surface, p.background, box.inflate(6, 2), border_radius=4)
    surface.blit(text, box)


def draw_value_mark(surface: pygame.Surface, rect: pygame.Rect, value: MoveValue,
                    theme: Theme) -> None:
    """Frame a winning move with a ✓ (a drawn one with ``=``) without covering ``rect``."""
    if value.outcome not in ("win", "draw"):
        return
    p = theme.palette
    size = min(rect.width, rect.height)
    colour = outcome_colour(p, value.outcome)
    width = max(2, round(size / (10 if value.outcome == "win" else 16)))
    pygame.draw.rect(surface, colour, rect.inflate(-width, -width), width,
                     border_radius=max(2, width))
    sign = "✓" if value.outcome == "win" else "="
    tick = theme.font(max(8.0, size * 0.4), bold=True).render(sign, True, colour)
    surface.blit(tick, tick.get_rect(topright=(rect.right - 2, rect.top)))


def draw_value_badge(surface: pygame.Surface, centre: tuple[float, float], radius: float,
                     value: MoveValue, theme: Theme) -> None:
    """A round badge of ``radius`` at ``centre`` for a piece or node to play: a drawn tick
    for a win, ``=`` for a draw (nothing for a loss), in the outcome's colour."""
    if value.outcome not in ("win", "draw"):
        return
    p = theme.palette
    colour = outcome_colour(p, value.outcome)
    r = max(5.0, radius)
    pygame.draw.aacircle(surface, colour, centre, r)
    pygame.draw.aacircle(surface, p.background, centre, r, max(1, round(r / 5)))
    x, y = centre
    width = max(2, round(r / 3))
    if value.outcome == "win":
        tick = [(x - r * 0.5, y), (x - r * 0.1, y + r * 0.4), (x + r * 0.5, y - r * 0.4)]
        pygame.draw.lines(surface, p.background, False, tick, width)
    else:
        for dy in (-r * 0.22, r * 0.22):
            pygame.draw.line(surface, p.background, (x - r * 0.45, y + dy), (x + r * 0.45, y + dy),
                             max(1, width - 1))


def draw_values(surface: pygame.Surface, geom: BoardGeometry,
                cells: Sequence[tuple[Cell, MoveValue]], theme: Theme,
                style: str = "fill") -> None:
    """Draw every (cell, value) in ``style`` (``"fill"`` or ``"mark"``)."""
    for cell, value in cells:
        if style == "fill":
            draw_value_fill(surface, geom, cell, value, theme)
        else:
            draw_value_mark(surface, geom.cell_rect(*cell), value, theme)


def hint_note(values: Mapping[Any, MoveValue]) -> str:
    """The legend's note for ``values``: what n counts, and what a bare W or L means
    when some win or loss is proven without its distance."""
    bare = any(v.exact and v.remoteness is None and v.outcome in ("win", "loss")
               for v in values.values())
    return PROVEN_NOTE if bare else REMOTENESS_NOTE


def hint_status(values: Mapping[Any, MoveValue]) -> str:
    """What the status bar adds about a hint's values: nothing when every value is exact,
    which moves are proven when only some are, or that all are estimates."""
    exact = sum(1 for v in values.values() if v.exact)
    if not values or exact == len(values):
        return ""
    if exact:
        return " " + _("Hint: the proven move is marked without ~; the rest are estimates.")
    return " " + _("Hint: estimate from a bounded search.")


def legend_entries(style: str = "fill", estimates: bool = True,
                   extra: Sequence[tuple[str, str, str]] = ()) -> list[tuple[str, str, str]]:
    """(tag, outcome, meaning) rows of the legend for ``style``; the tags are the marks
    drawn on the board, in the current language like the meanings (the letters are the
    statistics' own: "Gy n = győzelem"), so the legend explains each letter drawn.
    ``extra``: rows a game adds to the "mark" legend (what its numbers mean)."""
    if style == "fill":
        letter = outcome_letters()
        rows = [(f"{letter['win']} n", "win", _("win")), (letter["draw"], "draw", _("draw")),
                (f"{letter['loss']} n", "loss", _("loss"))]
        if estimates:
            rows.append(("~", "unknown", _("estimate")))
        return rows
    rows = [("✓", "win", _("winning move")), ("=", "draw", _("draw"))]
    return [*rows, *extra]


def draw_value_legend(surface: pygame.Surface, vp: Viewport, theme: Theme, x: float, y: float,
                      width: float = 150.0, style: str = "fill", estimates: bool = True,
                      note: str | None = None, title: str = N_("Hint")) -> float:
    """The legend at design point (x, y); returns the design y below it.

    ``note`` (e.g. what n counts) is written under the rows, wrapped to ``width``.
    """
    p = theme.palette
    font = theme.font(14 * vp.scale)
    surface.blit(theme.font(15 * vp.scale, bold=True).render(_(title), True, p.text),
                 vp.point(x, y))
    y += 26
    for tag, outcome, meaning in legend_entries(style, estimates):
        box = vp.rect(x, y, 36, 22)
        if style == "fill":
            pygame.draw.rect(surface, outcome_colour(p, outcome), box, border_radius=vp.px(4))
            label = font.render(tag, True, p.background)
        else:
            pygame.draw.rect(surface, outcome_colour(p, outcome), box, vp.px(3),
                             border_radius=vp.px(4))
            label = font.render(tag, True, outcome_colour(p, outcome))
        surface.blit(label, label.get_rect(center=box.center))
        surface.blit(font.render(meaning, True, p.text), vp.point(x + 42, y + 2))
        y += 30
    if note:
        draw_text_block(surface, _(note), font, p.muted, vp.rect(x, y, width, 80))
        y += 80
    return y
