"""Drawing shared by the Grundy screens: a value colour ramp and readable text on it."""

from __future__ import annotations

from engine.theme import Colour

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
