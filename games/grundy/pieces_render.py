"""Vector pictures of the chess pieces used as tokens (drawn, so they scale)."""

from __future__ import annotations

import pygame

from engine.ui.theme import Colour


def draw_piece(surface: pygame.Surface, rect: pygame.Rect, piece: str, fill: Colour,
               edge: Colour) -> None:
    """Draw ``piece`` (king, rook, queen or knight) centred in ``rect``."""
    s = min(rect.width, rect.height)
    cx, cy = rect.center
    u = s / 20  # drawing unit: the piece is about 14 × 16 units
    width = max(1, round(u * 0.8))

    def pts(*coords: tuple[float, float]) -> list[tuple[float, float]]:
        return [(cx + x * u, cy + y * u) for x, y in coords]

    base = pts((-6, 7), (6, 7), (6, 5), (-6, 5))
    if piece == "rook":
        body = pts((-5, 5), (-4, -3), (-5, -3), (-5, -7), (-3, -7), (-3, -5), (-1, -5), (-1, -7),
                   (1, -7), (1, -5), (3, -5), (3, -7), (5, -7), (5, -3), (4, -3), (5, 5))
    elif piece == "king":
        body = pts((-5, 5), (-6, -1), (-3, -3), (-1, -3), (-1, -5), (-3, -5), (-3, -6.5),
                   (-1, -6.5), (-1, -8.5), (1, -8.5), (1, -6.5), (3, -6.5), (3, -5), (1, -5),
                   (1, -3), (3, -3), (6, -1), (5, 5))
    elif piece == "queen":
        body = pts((-5, 5), (-7, -5), (-3.5, -1), (-2, -7), (0, -1.5), (2, -7), (3.5, -1),
                   (7, -5), (5, 5))
    else:  # knight: a horse's head facing left
        body = pts((-5, 5), (-4, 1), (-1, -2), (-5, -1), (-6.5, -3), (-2, -7), (0, -8.5),
                   (1, -6.5), (4, -5), (5.5, 0), (5, 5))
    for shape in (body, base):
        pygame.draw.polygon(surface, fill, shape)
        pygame.draw.polygon(surface, edge, shape, width)
    if piece == "queen":
        for x in (-7, -2, 2, 7):
            pygame.draw.circle(surface, fill, (cx + x * u, cy - (7 if abs(x) < 5 else 5) * u),
                               max(2, u * 1.1))
            pygame.draw.circle(surface, edge, (cx + x * u, cy - (7 if abs(x) < 5 else 5) * u),
                               max(2, u * 1.1), width)
    if piece == "knight":
        pygame.draw.circle(surface, edge, (cx - 1 * u, cy - 5 * u), max(1, u * 0.8))
