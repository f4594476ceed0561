"""Sound effects (interface; the synthesiser and mixer come with the audio work).

Scenes call ``app.audio.play(name)`` with one of :data:`SOUNDS`.
"""

from __future__ import annotations

SOUNDS = ("place", "drop", "slide", "take", "flip", "illegal", "win", "loss", "draw",
          "solved", "computer")


class Audio:
    """Plays named effects; silent when sound is off or no audio device exists."""

    def __init__(self, settings: object = None) -> None:
        self.settings = settings
        self.played: list[str] = []  # names played, for tests

    def play(self, name: str) -> None:
        """Play effect ``name`` (one of SOUNDS)."""
        if name not in SOUNDS:
            raise ValueError(f"unknown sound {name!r}")
        self.played.append(name)
