"""Drawing shared by the Grundy screens: value colours, readable text on them, and the
graph game's node looks (fill, stripes, tag and meaning) that its nodes and its legend
are both drawn from, so the legend can only show what the nodes show.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pygame

from engine.core.i18n import N_
from engine.ui.board.draw import hatch
from engine.ui.theme import Colour, Palette

# A colour-blind-friendly sequential ramp (viridis, sampled): dark for small values,
# light for large ones, so order is readable from lightness alone.
_RAMP: tuple[Colour, ...] = ((68, 1, 84), (72, 40, 120), (62, 74, 137), (49, 104, 142),
                             (38, 130, 142), (31, 158, 137), (53, 183, 121), (109, 205, 89),
                             (180, 222, 44), (253, 231, 37))


def value_colour(value: int, top: int) -> Colour:
    """Colour of a Grundy value on a ramp scaled to ``top`` (the table's largest value)."""
    if top <= 0:
        return _RAMP[0]
    t = min(1.0, value / top) * (len(_RAMP) - 1)
    i = min(int(t), len(_RAMP) - 2)
    f = t - i
    a, b = _RAMP[i], _RAMP[i + 1]
    return (round(a[0] + (b[0] - a[0]) * f), round(a[1] + (b[1] - a[1]) * f),
            round(a[2] + (b[2] - a[2]) * f))


def text_colour(background: Colour) -> Colour:
    """Black or white, whichever reads better on ``background``."""
    r, g, b = background
    return (20, 20, 20) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (245, 245, 245)


# --- graph node looks ---------------------------------------------------------------------
# The graph game draws marks over its nodes in the palette's accent/focus (legal moves, the
# token, the last move: yellow), good (the ✓ of a winning move), bad (a loss's stripes) and
# muted (∞, a draw) colours. Viridis runs through green into yellow, so value fills there
# read as those marks; these fills stay in blue-violet, far from every mark colour of both
# palettes (tests/games/grundy/test_grundy_graph_legend.py measures it), and a fill says one
# thing only.
LOSS_FILL: Colour = (68, 1, 84)
WIN_RAMP: tuple[Colour, ...] = ((40, 84, 178), (96, 72, 210), (150, 90, 240),
                                (200, 130, 255))
INFINITE_WIN_FILL: Colour = (232, 222, 255)

MOVER_LOSES = N_("mover loses")
MOVER_WINS = N_("mover wins")
INFINITE_WINS = N_("mover wins: a 0 is one move away")
DRAW_MEANING = N_("draw with best play")


@dataclass(frozen=True)
class NodeLook:
    """How a node with a hint value is drawn, and what that look tells the player.

    ``order`` sorts the legend (0, then 1, 2 …, then ∞ win, then ∞); ``tag`` is the text
    of the value's badge ("0", "3", "∞", "∞ win"); a ``striped`` look has diagonal stripes
    in the palette's bad colour over its fill, so a loss reads without its hue.
    """

    order: int
    tag: str
    fill: Colour
    striped: bool
    meaning: str


@dataclass(frozen=True)
class LegendRow:
    """One line of the graph legend: the looks that share a meaning, and the meaning."""

    looks: tuple[NodeLook, ...]
    meaning: str


def win_colour(value: int, top: int) -> Colour:
    """Fill of a node of value ``value`` ≥ 1 on a graph whose largest value is ``top``:
    darker for small values, lighter for large ones, always in :data:`WIN_RAMP`."""
    if top <= 1:
        return WIN_RAMP[0]
    t = (min(value, top) - 1) / (top - 1) * (len(WIN_RAMP) - 1)
    i = min(int(t), len(WIN_RAMP) - 2)
    f = t - i
    a, b = WIN_RAMP[i], WIN_RAMP[i + 1]
    return (round(a[0] + (b[0] - a[0]) * f), round(a[1] + (b[1] - a[1]) * f),
            round(a[2] + (b[2] - a[2]) * f))


def node_look(value: int | None, drawn: bool, top: int, palette: Palette) -> NodeLook:
    """The look of a node whose generalised Grundy value is ``value`` (None for ∞).

    ``drawn`` says an ∞ node is a draw (no successor has value 0); ``top`` is the graph's
    largest finite value. The one function both the nodes and the legend are drawn from.
    """
    if value == 0:
        return NodeLook(0, "0", LOSS_FILL, True, MOVER_LOSES)
    if value is not None:
        return NodeLook(value, str(value), win_colour(value, top), False, MOVER_WINS)
    if drawn:
        # Grey as the "draw" tag of the draw-keeping moves: the same colour, the same meaning.
        return NodeLook(1_000_001, "∞", palette.muted, False, DRAW_MEANING)
    return NodeLook(1_000_000, "∞ win", INFINITE_WIN_FILL, False, INFINITE_WINS)


def legend_rows(looks: Iterable[NodeLook]) -> list[LegendRow]:
    """The legend for the nodes drawn with ``looks``: one row per meaning, in the order
    0, values that win, ∞ win, ∞ draw, each with every look (value) that is on the board."""
    groups: dict[str, list[NodeLook]] = {}
    for look in sorted(set(looks), key=lambda look: look.order):
        groups.setdefault(look.meaning, []).append(look)
    return [LegendRow(tuple(row), meaning) for meaning, row in groups.items()]


def draw_look(surface: pygame.Surface, palette: Palette, look: NodeLook, rect: pygame.Rect,
              stripe_step: int, stripe_width: int) -> None:
    """``look``'s fill (and stripes) on ``rect``: a disc when it is square (a node), else a
    pill (a legend sample wide enough for "∞ win")."""
    rect = pygame.Rect(rect)
    radius = rect.height / 2
    if rect.width == rect.height:
        pygame.draw.aacircle(surface, look.fill, rect.center, radius)
    else:
        pygame.draw.rect(surface, look.fill, rect, border_radius=rect.height // 2)
    if not look.striped:
        return
    # Stripes drawn on a scratch surface and cut to the shape, so none spills past its edge.
    disc = pygame.Surface(rect.size, pygame.SRCALPHA)
    hatch(disc, disc.get_rect(), palette.bad, step=stripe_step, width=stripe_width)
    mask = pygame.Surface(rect.size, pygame.SRCALPHA)
    inner = mask.get_rect().inflate(-2, -2)
    if rect.width == rect.height:
        pygame.draw.circle(mask, (255, 255, 255, 255), inner.center, inner.height / 2)
    else:
        pygame.draw.rect(mask, (255, 255, 255, 255), inner, border_radius=inner.height // 2)
    disc.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    surface.blit(disc, rect)


def draw_look_text(surface: pygame.Surface, look: NodeLook, font: pygame.font.Font, text: str,
                   centre: tuple[int, int], pad: int) -> None:
    """``text`` centred on a drawn look, readable on its fill; on stripes over a patch of the
    plain fill (``pad`` pixels either side), so the stripes never cut the letters."""
    img = font.render(text, True, text_colour(look.fill))
    box = img.get_rect(center=centre)
    if look.striped:
        pygame.draw.rect(surface, look.fill, box.inflate(2 * pad, 0), border_radius=pad + 1)
    surface.blit(img, box)
