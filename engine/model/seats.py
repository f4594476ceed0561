"""Who plays a seat: a human, or the computer at a level with a mistake rate.

Shared by every family; each family decides which levels it offers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.core.i18n import N_, _

# The mistake rates a set-up screen steps a computer seat through.
MISTAKE_STEPS = (0.0, 0.1, 0.2, 0.3, 0.5)
# The levels' names, as level_text shows them (capitalised level words).
LEVEL_NAMES = (N_("Easy"), N_("Medium"), N_("Hard"), N_("Perfect"))


@dataclass(frozen=True)
class Seat:
    """One seat at the table."""

    kind: str = "human"
    level: str = "hard"
    mistakes: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in ("human", "computer"):
            raise ValueError(f"seat must be human or computer, not {self.kind!r}")
        if not self.level or not self.level.isalpha():
            raise ValueError(f"level must be a word, not {self.level!r}")
        if not 0.0 <= self.mistakes <= 1.0:
            raise ValueError(f"mistake rate must be 0..1, not {self.mistakes!r}")

    @property
    def is_computer(self) -> bool:
        """Whether the computer plays this seat."""
        return self.kind == "computer"

    def next_mistakes(self) -> Seat:
        """This seat with the next mistake rate of 0, 10, 20, 30, 50 %, round again (a rate
        off that list goes back to 0)."""
        steps = MISTAKE_STEPS
        rate = self.mistakes
        nxt = steps[(steps.index(rate) + 1) % len(steps)] if rate in steps else 0.0
        return replace(self, mistakes=nxt)

    def level_text(self, name: str | None = None) -> str:
        """``Hard`` or ``Hard, 10% mistakes``, in the current language (``name``, where
        given, says the level)."""
        name = _(self.level.capitalize()) if name is None else name
        if not self.mistakes:
            return name
        return _("{level}, {percent}% mistakes").format(level=name,
                                                         percent=round(self.mistakes * 100))

    def describe(self) -> str:
        """``Human`` or ``Computer (Hard, 10% mistakes)``."""
        return f"Computer ({self.level_text()})" if self.is_computer else "Human"

    def level_tag(self) -> str:
        """Level text for statistics and settings: ``hard`` or ``hard@0.1``."""
        return self.level if not self.mistakes else f"{self.level}@{self.mistakes:g}"

    @classmethod
    def parse(cls, kind: object, tag: object, levels: tuple[str, ...],
              default_level: str) -> Seat:
        """Rebuild a seat from settings; anything invalid gives a human seat."""
        try:
            level, _sep, rate = str(tag or default_level).partition("@")
            if level not in levels:
                level = default_level
            return cls(str(kind or "human"), level, float(rate) if rate else 0.0)
        except ValueError:
            return cls(level=default_level)


def mode_name(seats: tuple[Seat, ...]) -> str:
    """``human-computer`` etc., seat by seat, for statistics."""
    return "-".join("computer" if s.is_computer else "human" for s in seats)
