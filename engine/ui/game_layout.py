"""Where things go on a game screen, for any window shape.

Pure arithmetic in design units (no drawing), so it is tested directly. A game
screen is a toolbar on top, a status bar at the bottom and a body between. In the
body the board takes as much room as it can; the side panel (player cards, the
computer-against-computer controls and the game's own extras such as a legend)
goes beside the board in a wide window and below it in a tall one, whichever
leaves the board bigger.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pygame import FRect

TOOLBAR_H = 64.0
STATUS_H = 56.0
MARGIN = 16.0
GAP = 8.0
BUTTON_H = 40.0
# The title never gets less than this; below it the toolbar's buttons narrow.
TITLE_MIN = 96.0

CARD_W, CARD_H, CARD_GAP = 188.0, 124.0, 16.0
CONTROLS_H = BUTTON_H * 2 + GAP  # Pause / Step, then the speed
EXTRAS_W = 150.0


@dataclass(frozen=True)
class Tool:
    """A toolbar button's name and preferred width."""

    name: str
    width: float


def toolbar(area: FRect, left: Sequence[Tool],
            right: Sequence[Tool]) -> tuple[dict[str, FRect], FRect]:
    """Rectangles of the toolbar's buttons and of the title between the two groups.

    ``left`` tools run from the left edge, ``right`` tools end at the right edge; the
    title takes what is left. When that would be under :data:`TITLE_MIN`, every
    button narrows in proportion (down to 60 %) before the title shrinks further.
    """
    y = area.y + (TOOLBAR_H - BUTTON_H) / 2
    tools = [*left, *right]
    need = sum(t.width for t in tools) + GAP * (len(tools) + 1) + 2 * MARGIN
    room = area.w - need
    shrink = 1.0
    if room < TITLE_MIN and tools:
        widths = sum(t.width for t in tools)
        shrink = max(0.6, (widths - (TITLE_MIN - room)) / widths)
    rects: dict[str, FRect] = {}
    x = area.x + MARGIN
    for tool in left:
        w = tool.width * shrink
        rects[tool.name] = FRect(x, y, w, BUTTON_H)
        x += w + GAP
    title_left = x
    x = area.right - MARGIN
    for tool in reversed(right):
        w = tool.width * shrink
        x -= w
        rects[tool.name] = FRect(x, y, w, BUTTON_H)
        x -= GAP
    title = FRect(title_left, y, max(0.0, x - title_left), BUTTON_H)
    return rects, title


def bars(area: FRect) -> tuple[FRect, FRect, FRect]:
    """(toolbar band, body, status band) of a game screen."""
    top = FRect(area.x, area.y, area.w, TOOLBAR_H)
    status = FRect(area.x, area.bottom - STATUS_H, area.w, STATUS_H)
    body = FRect(area.x, top.bottom, area.w, status.top - top.bottom)
    return top, body, status


@dataclass(frozen=True)
class BodyLayout:
    """The body of a turn-based screen: board, one card per seat, controls, extras."""

    board: FRect
    cards: list[FRect]
    controls: FRect
    extras: FRect
    beside: bool  # True: the panel is beside the board; False: below it


def split_body(body: FRect, seats: int, extras_h: float, extras_w: float = EXTRAS_W,
               controls: bool = False, arrangement: str = "auto",
               aspect: float = 1.0) -> BodyLayout:
    """Lay out a board, ``seats`` player cards, optional controls and an extras box.

    Beside: cards and controls in a column on the left, extras in a column on the
    right, the board centred between. Below: the board on top, then a strip with
    the cards in a row, the controls and the extras. Whichever gives the larger
    board wins (beside on a tie); ``arrangement`` "beside" or "below" forces one.
    The board is ``aspect`` times as wide as it is tall (square by default), so a
    long board such as 4×15 uses the room a square one would leave empty.
    """
    controls_h = CONTROLS_H if controls else 0.0
    # Beside. The controls go under the cards, or at the top of the extras column when
    # the cards fill the left one (three players in a short window).
    cards_h = seats * (CARD_H + CARD_GAP)
    controls_left = cards_h + controls_h <= body.h - MARGIN
    extras_room = body.h - 2 * MARGIN - (0.0 if controls_left else controls_h + GAP)
    # Board widths: the largest board of that shape in each arrangement's room.
    beside_side = min((body.h - 2 * MARGIN) * aspect, body.w - CARD_W - extras_w - 4 * MARGIN)
    if cards_h > body.h - MARGIN or extras_h > extras_room:
        beside_side = -1.0
    # Below.
    card_w = min(CARD_W, (body.w - 2 * MARGIN - (seats - 1) * CARD_GAP) / max(1, seats))
    strip_h = CARD_H + MARGIN + max(controls_h, extras_h)
    below_side = min(body.w - 2 * MARGIN, (body.h - strip_h - 3 * MARGIN) * aspect)
    if arrangement == "beside" or (arrangement == "auto" and beside_side >= below_side):
        x = body.x + MARGIN
        cards = [FRect(x, body.y + MARGIN + i * (CARD_H + CARD_GAP), CARD_W, CARD_H)
                 for i in range(seats)]
        extras = FRect(body.right - MARGIN - extras_w, body.y + MARGIN, extras_w,
                       body.h - 2 * MARGIN)
        if controls_left:
            ctrl = FRect(x, body.y + MARGIN + cards_h, CARD_W, controls_h)
        else:
            ctrl = FRect(extras.x, extras.y, extras_w, controls_h)
            extras = FRect(extras.x, ctrl.bottom + GAP, extras_w, extras.bottom - ctrl.bottom - GAP)
        left = x + CARD_W + MARGIN
        right = extras.left - MARGIN
        side, tall = beside_side, beside_side / aspect
        board = FRect(left + (right - left - side) / 2,
                      body.y + MARGIN + (body.h - 2 * MARGIN - tall) / 2, side, tall)
        beside = True
    else:
        side = max(0.0, below_side)
        board = FRect(body.centerx - side / 2, body.y + MARGIN, side, side / aspect)
        top = board.bottom + MARGIN
        cards = [FRect(body.x + MARGIN + i * (card_w + CARD_GAP), top, card_w, CARD_H)
                 for i in range(seats)]
        row2 = top + CARD_H + MARGIN
        ctrl = FRect(body.x + MARGIN, row2, CARD_W, controls_h)
        ex_left = ctrl.right + MARGIN if controls else body.x + MARGIN
        extras = FRect(ex_left, row2, body.right - MARGIN - ex_left, body.bottom - MARGIN - row2)
        beside = False
    return BodyLayout(board, cards, ctrl, extras, beside)


def extras_boxes(extras: FRect, heights: Sequence[float], width: float = EXTRAS_W) -> list[FRect]:
    """Boxes for the game's own blocks (a variant label, a legend …) inside ``extras``.

    Side by side, each ``width`` wide, when the box is wide enough (the strip under
    the board in a tall window), else stacked in the column beside the board. So a
    game needs ``max(heights)`` of extras height below the board, ``sum`` beside it.
    """
    if extras.w >= len(heights) * width + (len(heights) - 1) * 2 * MARGIN:
        return [FRect(extras.x + i * (width + 2 * MARGIN), extras.y, width, h)
                for i, h in enumerate(heights)]
    boxes, y = [], extras.y
    for h in heights:
        boxes.append(FRect(extras.x, y, extras.w, h))
        y += h + GAP
    return boxes
