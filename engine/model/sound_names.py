"""The names of the engine's sound effects, and the set a game gets when it names none.

Apart from :mod:`engine.ui.audio` (which plays them, and needs pygame) so that a
descriptor can be checked against them without a display: discovery stays pure.
"""

from __future__ import annotations

SOUNDS = ("place", "drop", "slide", "take", "flip", "illegal", "win", "loss", "draw",
          "solved", "computer")


def default_sounds(kind: str, has_computer: bool) -> tuple[str, ...]:
    """What a game of ``kind`` plays through the engine's own screens when its descriptor
    lists no ``sounds``: a move, a refused move and the results, plus the computer's move
    where it has a computer player; a puzzle's move, refusal and "solved"."""
    if kind == "puzzle":
        return ("place", "illegal", "solved")
    played = ("place", "illegal", "win", "loss", "draw")
    return (*played, "computer") if has_computer else played
