"""Issue 28 item 12: Connect Four's win reads at a glance. The winning frames stand out
from the yellow board and both discs in either palette (contrast measured from the
pixels), the last disc's ring is drawn whole, and the launcher's picture has only round
discs."""

from __future__ import annotations

import math

import pygame
import pytest

from engine.model.registry import find_game
from engine.model.seats import Seat
from engine.ui.board.geometry import BoardGeometry
from engine.ui.theme import PALETTES
from games.connect4 import preview_render
from games.connect4.rules import Connect4Config
from games.connect4.scene import DISC, Connect4Scene
from tests.conftest import click, grid_centre, key, make_app, near, run_until

GAME = find_game("connect4")


def luminance(colour) -> float:
    """WCAG relative luminance of an sRGB colour."""
    def channel(v: int) -> float:
        v = v / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def won_game(profile, palette: str, size=(960, 720)):
    """A real game won by X along the bottom row, clicked in, result panel closed."""
    app = make_app(profile, size)
    app.set_palette(palette)
    scene = app.push(GAME.open_scene(app, Connect4Config(7, 6), seats=(Seat(), Seat())))
    app.step([])
    cfg = scene.config
    for col in (0, 6, 1, 6, 2, 6, 3):
        click(app, *grid_centre(tuple(scene.layout()["board"]), cfg.rows + 1, cfg.cols, 1, col))
    assert scene.state.winner == 0
    run_until(app, lambda: app.top is not scene, timeout=3)
    key(app, pygame.K_ESCAPE)
    assert app.top is scene
    app.step([], dt=0.0)
    return app, scene


def cell_rect(scene: Connect4Scene, row: int, col: int) -> pygame.Rect:
    """Pixel rect of a board cell (row 0 = the board's top row)."""
    return scene.geometry().cell_rect(row + 1, col)


@pytest.mark.parametrize("palette", ["default", "colourblind"])
@pytest.mark.parametrize("size", [(960, 720), (1920, 1080)])
def test_the_winning_frames_stand_out_from_board_and_discs(profile, palette, size) -> None:
    app, scene = won_game(profile, palette, size)
    try:
        screen = app.screen
        frame_w = max(2, round(scene.geometry().cell_size / 18))
        radius = scene.geometry().cell_size * DISC
        for col in (0, 1, 2):  # winning cells (the hub's ring aside)
            cell = cell_rect(scene, 5, col)
            y = cell.top + frame_w + frame_w // 2  # on the frame's top edge
            frame = screen.get_at((cell.left + cell.width // 5, y))
            # The board's face: the corner of a cell nobody played in.
            empty = cell_rect(scene, 2, 3)
            board = screen.get_at((empty.left + 2, empty.top + frame_w + frame_w // 2))
            assert contrast(frame, board) >= 4.5, (palette, frame, board)
            for player, square in ((0, (5, col)), (1, (5, 6))):  # an X disc and an O disc
                c = cell_rect(scene, *square)
                disc = screen.get_at((c.centerx, round(c.centery - 0.75 * radius)))
                assert near(disc, app.theme.palette.players[player], 6)
                assert contrast(frame, disc) >= 4.5, (palette, player, frame, disc)
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


@pytest.mark.parametrize("palette", ["default", "colourblind"])
def test_the_last_discs_ring_is_drawn_whole(profile, palette) -> None:
    app, scene = won_game(profile, palette)
    try:
        geom = scene.geometry()
        cx, cy = geom.cell_center(6, 3)  # the winning disc, the latest
        halo = max(3, round(geom.cell_size / 12))
        mid = geom.cell_size * DISC - halo / 2
        focus = app.theme.palette.focus
        missing = []
        for i in range(90):
            a = 2 * math.pi * i / 90
            pos = (round(cx + mid * math.cos(a)), round(cy + mid * math.sin(a)))
            if not near(app.screen.get_at(pos), focus, 20):
                missing.append((i * 4, tuple(app.screen.get_at(pos))))
        assert not missing, missing
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


@pytest.mark.parametrize("palette", ["default", "colourblind"])
@pytest.mark.parametrize("size", [(96, 72), (160, 130), (320, 240)])
def test_the_launcher_picture_has_only_round_discs(palette, size) -> None:
    pal = PALETTES[palette]
    surface = pygame.Surface(size)
    surface.fill((1, 2, 3))
    rect = surface.get_rect()
    preview_render.draw(surface, rect, pal)
    geom = BoardGeometry(6, 7, rect)
    c = geom.cell_size
    # The struck line (outline included, with round ends) is left out of the check.
    (r0, c0), (r1, c1) = preview_render._WIN[0], preview_render._WIN[-1]
    a, b = geom.cell_center(r0, c0), geom.cell_center(r1, c1)
    length = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    p0 = (a[0] - ux * c * 0.3, a[1] - uy * c * 0.3)
    p1 = (b[0] + ux * c * 0.3, b[1] + uy * c * 0.3)
    reach = (max(3, round(c / 10)) + 4) / 2 + 2

    def on_line(x: float, y: float) -> bool:
        t = max(0.0, min(1.0, ((x - p0[0]) * (p1[0] - p0[0]) + (y - p0[1]) * (p1[1] - p0[1]))
                         / math.dist(p0, p1) ** 2))
        return math.dist((x, y), (p0[0] + t * (p1[0] - p0[0]), p0[1] + t * (p1[1] - p0[1]))) < reach

    corner = max(2, rect.width // 30) + 1  # the board's rounded corners

    def in_corner(x: int, y: int) -> bool:
        box = geom.rect
        return ((x < box.left + corner or x >= box.right - corner)
                and (y < box.top + corner or y >= box.bottom - corner))

    wrong = []
    for r in range(6):
        for col in range(7):
            colour = (pal.players[0] if (r, col) in preview_render._X else
                      pal.players[1] if (r, col) in preview_render._O else pal.background)
            cell = geom.cell_rect(r, col)
            cx, cy = cell.center
            radius = cell.width * 0.4
            for y in range(cell.top + 1, cell.bottom - 1):
                for x in range(cell.left + 1, cell.right - 1):
                    d = math.dist((x, y), (cx, cy))
                    if abs(d - radius) < 2 or on_line(x, y) or in_corner(x, y):
                        continue  # the disc's edge; the line; the board's corners
                    want = colour if d < radius else pal.accent
                    if not near(surface.get_at((x, y)), want, 12):
                        wrong.append(((r, col), (x, y)))
    assert not wrong, wrong[:10]
