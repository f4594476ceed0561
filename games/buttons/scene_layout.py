"""Where Button Madness's board and side panel go, for any window shape.

Pure arithmetic in design units (nothing is drawn here), so it is tested on its own.
The side panel is two blocks: the *tools* (Copy and Enter code, the board code, the
size menu, Show solution, Hint, Which sizes?) and the *info* (presses, time, best
result, and the legend). Three arrangements are tried and the one that leaves the
board biggest wins:

* ``"column"``: both blocks stacked in one column beside the board (a tall enough
  window);
* ``"beside"``: the tools in a column left of the board, the info right of it (the
  classic screen, and the only one that fits 800×600 design units);
* ``"below"``: the board on top, both blocks side by side under it (tall windows).

Each arrangement is centred in the body, so a wide window does not strand the
panel at its edges, far from the board it explains.
"""

from __future__ import annotations

from pygame import FRect

from engine.ui.game_layout import BUTTON_H, GAP, MARGIN

TOOLS_W = 188.0
INFO_W = 180.0
# The board code: a heading line and up to CODE_LINES lines of digits.
CODE_HEAD_H = 20.0
CODE_LINE_H = 20.0
SMALL_BUTTON_H = 44.0  # Copy and Enter code: two lines of MIN_TEXT
STATS_LINES = 5  # presses, time, best (may take two lines), help used
STATS_LINE_H = 18.0
LEGEND_ITEMS = 5  # done, still to turn, press this, last press, cursor
LEGEND_ROW_H = 30.0

# Layout entries of the side panel, top to bottom.
TOOL_NAMES = ("size", "Show solution", "Hint", "Which sizes?", "Copy", "Enter code", "code")
# The size stepper's row: its label "Size" and its − / + widths (engine.ui.stepper).
SIZE_LABEL_W = 44.0  # "Méret" at the smallest text size
SIZE_STEP_W = 32.0  # (and room for "20×20" between them)
INFO_NAMES = ("stats", "legend")


def tools_height(code_lines: int) -> float:
    """Height of the tools block when the code may take ``code_lines`` lines."""
    code_h = CODE_HEAD_H + code_lines * CODE_LINE_H
    return SMALL_BUTTON_H + GAP + code_h + GAP + 4 * BUTTON_H + 3 * GAP


def info_height() -> float:
    """Height of the info block (statistics, then the legend)."""
    return STATS_LINES * STATS_LINE_H + 2 * GAP + LEGEND_ITEMS * LEGEND_ROW_H


def tools_block(x: float, y: float, code_lines: int) -> dict[str, FRect]:
    """The tools' rectangles in a :data:`TOOLS_W`-wide block whose top-left is (x, y).

    The size menu and the help buttons first, then Copy and Enter code over the code
    they act on: room kept for a long code is left empty at the foot, not in the middle.
    """
    # Size  −  7×7  +   (one stepper: its label, the two steps and the size between them)
    rects = {"size": FRect(x, y, TOOLS_W, BUTTON_H)}
    for name in ("Show solution", "Hint", "Which sizes?"):
        y += BUTTON_H + GAP
        rects[name] = FRect(x, y, TOOLS_W, BUTTON_H)
    y += BUTTON_H + GAP
    # Side by side, tall enough for two lines: a caption wraps ("Kód / megadása") rather
    # than shrink below the smallest text size (issue 28), both at one size.
    # (Enter code a little wider: "megadása" and "Kopírovat" each just fit at MIN_TEXT.)
    copy_w = (TOOLS_W - GAP) * 0.48
    rects["Copy"] = FRect(x, y, copy_w, SMALL_BUTTON_H)
    rects["Enter code"] = FRect(x + copy_w + GAP, y, TOOLS_W - GAP - copy_w, SMALL_BUTTON_H)
    y += SMALL_BUTTON_H + GAP
    rects["code"] = FRect(x, y, TOOLS_W, CODE_HEAD_H + code_lines * CODE_LINE_H)
    return rects


def info_block(x: float, y: float) -> dict[str, FRect]:
    """The statistics and the legend in an :data:`INFO_W`-wide block at (x, y)."""
    stats_h = STATS_LINES * STATS_LINE_H
    return {"stats": FRect(x, y, INFO_W, stats_h),
            "legend": FRect(x, y + stats_h + 2 * GAP, INFO_W, LEGEND_ITEMS * LEGEND_ROW_H)}


def panel_layout(body: FRect, code_lines: int) -> tuple[str, dict[str, FRect]]:
    """The arrangement's name and the rectangles of the board and every panel entry.

    ``body`` is the game screen's body (between toolbar and status bar). The board is
    a square ("board"); the rest are named as in :data:`TOOL_NAMES` and
    :data:`INFO_NAMES`. No two rectangles overlap and all lie inside ``body`` as long as
    the body is at least 800×480 design units (the smallest window's).
    """
    tools_h, info_h = tools_height(code_lines), info_height()
    inner_h = body.h - 2 * MARGIN
    sides: dict[str, float] = {}
    if tools_h + MARGIN + info_h <= inner_h:
        sides["column"] = min(inner_h, body.w - max(TOOLS_W, INFO_W) - 3 * MARGIN)
    if max(tools_h, info_h) <= inner_h:
        sides["beside"] = min(inner_h, body.w - TOOLS_W - INFO_W - 4 * MARGIN)
    strip_w = TOOLS_W + MARGIN + INFO_W
    strip_h = max(tools_h, info_h)
    if strip_w <= body.w - 2 * MARGIN:
        sides["below"] = min(body.w - 2 * MARGIN, body.h - strip_h - 3 * MARGIN)
    # Preference on a tie: one column, then the classic two, then below.
    name = max(sides, key=lambda k: (sides[k], -list(sides).index(k)), default="beside")
    side = max(0.0, sides.get(name, 0.0))
    if name == "column":
        width = TOOLS_W + MARGIN + side
        height = max(side, tools_h + MARGIN + info_h)
        x0 = body.centerx - width / 2
        y0 = body.y + MARGIN + max(0.0, (inner_h - height) / 2)
        rects = tools_block(x0, y0, code_lines)
        rects.update(info_block(x0, y0 + tools_h + MARGIN))
        board = FRect(x0 + TOOLS_W + MARGIN, y0, side, side)
    elif name == "beside":
        width = TOOLS_W + INFO_W + 2 * MARGIN + side
        height = max(side, tools_h, info_h)
        x0 = body.centerx - width / 2
        y0 = body.y + MARGIN + max(0.0, (inner_h - height) / 2)
        rects = tools_block(x0, y0, code_lines)
        board = FRect(x0 + TOOLS_W + MARGIN, y0, side, side)
        rects.update(info_block(board.right + MARGIN, y0))
    else:
        height = side + MARGIN + strip_h
        y0 = body.y + MARGIN + max(0.0, (inner_h - height) / 2)
        board = FRect(body.centerx - side / 2, y0, side, side)
        x0 = body.centerx - strip_w / 2
        top = board.bottom + MARGIN
        rects = tools_block(x0, top, code_lines)
        rects.update(info_block(x0 + TOOLS_W + MARGIN, top))
    rects["board"] = board
    return name, rects
