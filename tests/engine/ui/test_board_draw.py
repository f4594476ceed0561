"""Board drawing helpers: marks differ in shape, highlights and cell text land in place."""

from __future__ import annotations

import pygame
import pytest

from engine.ui.board.draw import draw_cell_text, draw_grid, draw_mark, draw_win_line, fill_cell
from engine.ui.board.geometry import BoardGeometry
from engine.ui.theme import Theme

BG = (0, 0, 0)
INK = (250, 250, 250)


def mark_mask(player: int, size: int = 120) -> set[tuple[int, int]]:
    surface = pygame.Surface((size, size))
    surface.fill(BG)
    draw_mark(surface, pygame.Rect(0, 0, size, size), player, INK)
    return {(x, y) for x in range(size) for y in range(size)
            if surface.get_at((x, y))[0] > 128}


@pytest.mark.parametrize("size", [40, pytest.param(120, marks=pytest.mark.slow),
                                  pytest.param(300, marks=pytest.mark.slow)])
def test_marks_stay_inside_their_cell_and_scale(size: int) -> None:
    for player in range(3):
        surface = pygame.Surface((size * 3, size * 3))
        surface.fill(BG)
        cell = pygame.Rect(size, size, size, size)
        draw_mark(surface, cell, player, INK)
        inked = [(x, y) for x in range(size * 3) for y in range(size * 3)
                 if surface.get_at((x, y))[0] > 40]
        assert len(inked) > size  # something visible, growing with the cell
        assert all(cell.collidepoint(p) for p in inked)


def test_three_marks_have_different_shapes() -> None:
    """Players are told apart by shape, not only colour: the masks differ a lot."""
    masks = [mark_mask(p) for p in range(3)]
    for a in range(3):
        for b in range(a + 1, 3):
            overlap = len(masks[a] & masks[b]) / min(len(masks[a]), len(masks[b]))
            assert overlap < 0.5, (a, b, overlap)
    # X has ink at its centre, O and the triangle do not.
    assert (60, 60) in masks[0] and (60, 60) not in masks[1] and (60, 60) not in masks[2]


def test_grid_fill_highlight_and_win_line_land_on_the_right_cells() -> None:
    surface = pygame.Surface((300, 300))
    geom = BoardGeometry(3, 3, pygame.Rect(0, 0, 300, 300))
    draw_grid(surface, geom, (10, 10, 10), (100, 100, 100))
    assert tuple(surface.get_at((100, 50)))[:3] == (100, 100, 100)  # inner grid line
    fill_cell(surface, geom, (2, 0), (0, 200, 0))
    assert tuple(surface.get_at(geom.cell_rect(2, 0).center))[:3] == (0, 200, 0)
    assert tuple(surface.get_at(geom.cell_rect(0, 0).center))[:3] == (10, 10, 10)
    draw_win_line(surface, geom, [(0, 2), (1, 1), (2, 0)], (255, 214, 90), (0, 0, 0))
    for cell in ((0, 2), (1, 1)):
        assert tuple(surface.get_at(geom.cell_rect(*cell).center))[:3] == (255, 214, 90)
    assert tuple(surface.get_at(geom.cell_rect(0, 0).center))[:3] == (10, 10, 10)


def test_cell_text_is_centred_in_its_cell() -> None:
    surface = pygame.Surface((300, 300))
    surface.fill(BG)
    geom = BoardGeometry(3, 3, pygame.Rect(0, 0, 300, 300))
    draw_cell_text(surface, geom, (1, 2), "W3", Theme().font(30), INK, background=(0, 0, 120))
    inked = [(x, y) for x in range(300) for y in range(300) if surface.get_at((x, y)) != BG]
    box = geom.cell_rect(1, 2)
    assert inked and all(box.collidepoint(p) for p in inked)
    xs, ys = [p[0] for p in inked], [p[1] for p in inked]
    assert abs((min(xs) + max(xs)) / 2 - box.centerx) <= 3
    assert abs((min(ys) + max(ys)) / 2 - box.centery) <= 3
