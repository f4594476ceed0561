"""Helpers shared by the screen tests: where a cell is, settling animations, layout and
colour checks."""

from __future__ import annotations

import itertools

import pygame

from games.tictactoe.scene import TicTacToeScene
from tests.conftest import (
    grid_centre,
    run_until,
)


def cell_centre(scene: TicTacToeScene, row: int, col: int) -> tuple[float, float]:
    """Design point of a cell's centre, from the scene's layout at the current window size."""
    cfg = scene.config
    return grid_centre(tuple(scene.layout()["board"]), cfg.rows, cfg.cols, row, col)


SIZES = [(640, 480), (960, 720), (1920, 1080), (1080, 1920)]


# --- helpers (the Connect Four tests use them too) --------------------------------------------
def count_colour(surface: pygame.Surface, rect: pygame.Rect, colour, tol: int = 12) -> int:
    """How many pixels of ``rect`` are within ``tol`` of ``colour``."""
    rect = rect.clip(surface.get_rect())
    mask = pygame.mask.from_threshold(surface.subsurface(rect), (*colour, 255),
                                      (tol + 1, tol + 1, tol + 1, 255))
    return mask.count()


def settle(app, scene) -> None:
    """Run frames until every animation of ``scene`` has played out."""
    run_until(app, lambda: not scene.anim.active, timeout=5)
    app.step([])


def strictly_overlap(a: pygame.Rect, b: pygame.Rect) -> bool:
    """Whether two screen rectangles share area (touching edges is fine)."""
    return a.clip(b).width > 0 and a.clip(b).height > 0


def check_screen_layout(app, scene, board: pygame.Rect, where: str) -> None:
    """Every visible widget and the board inside the window; no two widgets overlap;
    no widget overlaps the board; the game's extras boxes inside the window and apart."""
    window = app.screen.get_rect()
    assert window.contains(board), (where, board, window)
    assert board.width > 100, (where, board)
    widgets = [(w.name if hasattr(w, "name") else type(w).__name__, w.screen_rect(app.viewport))
               for w in scene.ui.widgets if w.visible]
    for name, rect in widgets:
        assert window.contains(rect), (where, name, rect)
        assert not strictly_overlap(rect, board), (where, name, rect, board)
    for (a, ra), (b, rb) in itertools.combinations(widgets, 2):
        assert not strictly_overlap(ra, rb), (where, a, ra, b, rb)
    regions = {name: scene.area(name) for name in ("board", "extras", "variant", "legend",
                                                   *(f"card{i}" for i in range(len(scene.seats))))}
    if scene.all_computers():
        regions["controls"] = scene.area("controls")
    for name, rect in regions.items():
        assert window.contains(rect), (where, name, rect)
    apart = ["board", "extras", *(f"card{i}" for i in range(len(scene.seats)))]
    if "controls" in regions:
        apart.append("controls")
    for a, b in itertools.combinations(apart, 2):
        assert not strictly_overlap(regions[a], regions[b]), (where, a, b)
    for inner in ("variant", "legend"):
        assert regions["extras"].contains(regions[inner]), (where, inner)
    assert not strictly_overlap(regions["variant"], regions["legend"]), where
