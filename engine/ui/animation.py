"""Animation timelines every game screen shares.

A scene owns one :class:`Timeline`. It starts named tracks ("drop", ("fade", 3, 4)
…) when something happens and, while drawing, asks each track how far along it
is. Nothing in the rules waits for an animation: the position has already
changed when a track starts, so a click or key press simply finishes every
track at once (:meth:`Timeline.finish_all`) and the input acts on the real
position. With "Reduce motion" on, tracks are never started at all.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

# Standard lengths in seconds, so every game moves at one pace. (A movement only one
# game makes keeps its length in that game's package.)
APPEAR = 0.18  # a mark fades and scales in
SLIDE = 0.22  # a token slides to its square
SWEEP = 0.45  # the winning line is drawn from end to end
FLASH = 0.6  # a solved puzzle flashes (Tatham's completion flash)


@dataclass
class Track:
    """One running animation."""

    duration: float
    delay: float = 0.0
    elapsed: float = 0.0
    data: Any = None

    @property
    def progress(self) -> float:
        """0 at the start (and during the delay), 1 at the end."""
        if self.duration <= 0:
            return 1.0
        return min(1.0, max(0.0, (self.elapsed - self.delay) / self.duration))

    @property
    def done(self) -> bool:
        """Whether the track has played to its end."""
        return self.elapsed >= self.delay + self.duration


class Timeline:
    """Named tracks advanced by the frame loop; see the module docstring."""

    def __init__(self, reduce_motion: Callable[[], bool] = lambda: False) -> None:
        self._tracks: dict[Hashable, Track] = {}
        self._reduce_motion = reduce_motion

    def start(self, key: Hashable, duration: float, delay: float = 0.0, data: Any = None) -> None:
        """Start (or restart) the track ``key``; a no-op when motion is reduced."""
        if self._reduce_motion() or duration <= 0:
            self._tracks.pop(key, None)
            return
        self._tracks[key] = Track(duration, delay, 0.0, data)

    def progress(self, key: Hashable) -> float | None:
        """How far ``key`` has got (0..1), or None when it is not running."""
        track = self._tracks.get(key)
        return None if track is None else track.progress

    def data(self, key: Hashable) -> Any:
        """What was attached to ``key`` when it started (None when not running)."""
        track = self._tracks.get(key)
        return None if track is None else track.data

    def running(self, prefix: Any = None) -> list[Hashable]:
        """Keys of the running tracks; with ``prefix``, only tuple keys starting with it."""
        if prefix is None:
            return list(self._tracks)
        return [k for k in self._tracks if isinstance(k, tuple) and k and k[0] == prefix]

    def update(self, dt: float) -> None:
        """Advance every track by ``dt`` seconds and drop the finished ones."""
        for key in list(self._tracks):
            track = self._tracks[key]
            track.elapsed += dt
            if track.done:
                del self._tracks[key]

    def finish_all(self) -> None:
        """End every track now (input never waits for an animation)."""
        self._tracks.clear()

    @property
    def active(self) -> bool:
        """Whether anything is moving (so the app keeps drawing frames)."""
        return bool(self._tracks)


# --- easing ---------------------------------------------------------------------------------
def ease_out(t: float) -> float:
    """Fast start, gentle stop (cubic)."""
    return 1 - (1 - t) ** 3


def ease_in(t: float) -> float:
    """Gentle start, fast stop: a fall under gravity (quadratic)."""
    return t * t


def ease_out_back(t: float) -> float:
    """Overshoot slightly, then settle: a mark that pops in."""
    c = 1.70158
    return 1 + (c + 1) * (t - 1) ** 3 + c * (t - 1) ** 2


def fall_time(distance: float, one_unit: float) -> float:
    """Seconds for something to fall ``distance`` units under gravity when one unit takes
    ``one_unit`` seconds: time grows as the square root of the distance."""
    return one_unit * math.sqrt(distance) if distance > 0 else 0.0


def lerp(a: float, b: float, t: float) -> float:
    """The point ``t`` of the way from ``a`` to ``b``."""
    return a + (b - a) * t
