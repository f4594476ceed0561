"""End to end: the real app on a virtual X server, played with the real mouse.

Opens tic-tac-toe from the launcher, lets X win on the main diagonal, checks
the dumped state, the pixels of the highlighted win line and the statistics
database, and quits through the launcher's Quit button (exit code 0).
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pygame
import pytest

from tests.support.e2e import ArcadeApp, running_app, top_scene

TILE_CENTRE = (130, 340)  # the Tic-tac-toe tile (first of four), x=30..232, y=144..564
BACK_CENTRE = (71, 32)  # the game toolbar's Back button, (16, 12, 110, 40)
QUIT_CENTRE = (870, 624)  # the launcher's Quit button, (810, 600, 120, 48)
BOARD_X, BOARD_Y, BOARD_SIZE = 220.0, 84.0, 560.0
WIN_COLOUR = (255, 214, 90)
TOLERANCE = 12
# X (0,0), O (1,0), X (1,1), O (2,0), X (2,2): X wins on the main diagonal.
MOVES = [(0, 0), (1, 0), (1, 1), (2, 0), (2, 2)]


def cell_centre(row: int, col: int) -> tuple[float, float]:
    step = BOARD_SIZE / 6
    return BOARD_X + step * (2 * col + 1), BOARD_Y + step * (2 * row + 1)


def is_colour(colour: pygame.Color, target: tuple[int, ...]) -> bool:
    return all(abs(c - w) <= TOLERANCE for c, w in zip(colour[:3], target[:3], strict=True))


def is_win_colour(colour: pygame.Color) -> bool:
    return is_colour(colour, WIN_COLOUR)


def line_pixels(image: pygame.Surface, app: ArcadeApp, start: tuple[int, int],
                end: tuple[int, int], band: int,
                match: Callable[[pygame.Color], bool] = is_win_colour) -> tuple[int, int]:
    """(matching, total) pixels within ``band`` px of the segment between two cells' centres."""
    g = app.geometry()
    (x0, y0), (x1, y1) = g.to_window(*cell_centre(*start)), g.to_window(*cell_centre(*end))
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    matching = total = 0
    for x in range(min(x0, x1) - band, max(x0, x1) + band + 1):
        for y in range(min(y0, y1) - band, max(y0, y1) + band + 1):
            along = (x - x0) * ux + (y - y0) * uy
            across = abs((x - x0) * uy - (y - y0) * ux)
            if 0 <= along <= length and across <= band:
                total += 1
                matching += match(image.get_at((x, y)))
    return matching, total


@pytest.mark.slow
def test_play_a_win_with_the_mouse_on_a_real_display(tmp_path: Path) -> None:
    # No bound on the whole run's wall time (it stretched on a busy machine): a hang is
    # caught by each step's own timeout, and speed is the benchmarks' to measure.
    # One pair of hands plays both sides: the profile has chosen hot seat for tic-tac-toe
    # (a game with computer players starts human against the computer by default).
    profile = tmp_path / "profile"
    profile.mkdir()
    (profile / "settings.json").write_text(
        json.dumps({"seats": {"tictactoe": {"1": "human", "2": "human"}}}), encoding="utf-8")
    with running_app(tmp_path) as app:
        app.wait_for("the launcher", lambda s: top_scene(s).get("scene") == "LauncherScene")

        app.click(*TILE_CENTRE)
        app.wait_for("the tic-tac-toe game",
                     lambda s: top_scene(s).get("scene") == "TicTacToeScene")

        for n, (row, col) in enumerate(MOVES):
            mark = "XO"[n % 2]
            time.sleep(0.05)
            app.click(*cell_centre(row, col))
            app.wait_for(f"{mark} at ({row}, {col})",
                         lambda s, r=row, c=col, m=mark: top_scene(s).get("board", [""] * 3)[r][c]
                         == m)

        game = app.wait_for("X to win", lambda s: s["scenes"][1].get("winner") == "X")
        assert game["scenes"][1]["win_line"] == [0, 4, 8]
        assert game["scenes"][1]["status"].startswith("X wins!")
        assert game["notices"] == []
        # The result panel comes up over the board; View board closes it.
        result = top_scene(app.wait_for("the result", lambda s: top_scene(s).get("scene")
                                        == "ResultOverlay"))
        assert result["headline"] == "X wins" and result["moves"] == 5
        x, y, w, h = result["actions"]["View board"]
        app.click(x + w / 2, y + h / 2)
        app.wait_for("the board again", lambda s: top_scene(s).get("scene") == "TicTacToeScene")

        # Park the pointer off the board, then look at the pixels.
        app.move(900, 400)
        shot = tmp_path / "x-wins.png"
        # The winning line runs under the marks (each X keeps both strokes), so along the
        # diagonal every pixel is the line's colour or the X's drawn over it.
        deadline = time.monotonic() + 5
        while True:
            image = pygame.image.load(str(app.screenshot(shot)))
            g = app.geometry()
            x_colour = tuple(image.get_at(g.to_window(*cell_centre(0, 0))))  # the X's crossing

            def line_or_x(colour: pygame.Color, x_colour: tuple[int, ...] = x_colour) -> bool:
                return is_win_colour(colour) or is_colour(colour, x_colour)

            diag, diag_total = line_pixels(image, app, (0, 0), (2, 2), band=6)
            covered, _ = line_pixels(image, app, (0, 0), (2, 2), band=6, match=line_or_x)
            if covered >= 0.9 * diag_total or time.monotonic() > deadline:
                break
            time.sleep(0.1)  # the last frame may still be on its way to the server
        assert image.get_size() == (g.width, g.height)
        assert not is_win_colour(image.get_at(g.to_window(*cell_centre(0, 0))))
        assert covered >= 0.9 * diag_total and diag >= 0.15 * diag_total and diag > 500, (
            f"{covered} of {diag_total} pixels along the diagonal are the win line or the X "
            f"over it, {diag} the line's colour {WIN_COLOUR}; screenshot: {shot}")
        # The other diagonal is not highlighted (only the win cells' frames touch it).
        anti, anti_total = line_pixels(image, app, (0, 2), (2, 0), band=6)
        assert anti < 0.25 * anti_total, f"{anti} of {anti_total} px on the other diagonal"

        # Quit cleanly: Back to the launcher, then its Quit button.
        app.click(*BACK_CENTRE)
        app.wait_for("the launcher again", lambda s: len(s["scenes"]) == 1
                     and top_scene(s).get("scene") == "LauncherScene")
        app.click(*QUIT_CENTRE)
        assert app.wait_exit(timeout=10) == 0, app.log()

    with closing(sqlite3.connect(app.profile / "statistics.sqlite3")) as db:
        games = db.execute("SELECT game, outcome FROM games").fetchall()
    assert games == [("tictactoe", "won")]
