"""The Grundy family's games and set-ups, their stored forms and statistics ids."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.seats import Seat

GAME_ID = "grundy"
LEVELS = ("easy", "perfect")
BOARD_GAMES = ("king", "rook", "queen", "knight")
GAMES = (*BOARD_GAMES, "bachet", "nim", "graph")
GAME_LABELS = {"king": "King", "rook": "Rook", "queen": "Queen", "knight": "Knight",
               "bachet": "Bachet", "nim": "Nim", "graph": "Graph"}
MIN_SIDE, MAX_SIDE = 3, 32
NIM_PRESETS: tuple[tuple[int, ...], ...] = ((3, 5, 7), (1, 2, 3, 4), (2, 5, 9, 11), (4, 4),
                                            (1, 3, 5, 7, 9))
SEAT_KEYS = ("1", "2")


@dataclass(frozen=True)
class GrundySetup:
    """Everything the set-up screen chooses, for any game of the family."""

    game: str = "king"
    rows: int = 8
    cols: int = 8
    tokens: int = 1
    heap: int = 100
    max_take: int = 10
    nim: int = 0  # index into NIM_PRESETS
    misere: bool = False
    graph: int = 0  # index into the built-in graphs

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"game must be one of {', '.join(GAMES)}, not {self.game!r}")
        if not (MIN_SIDE <= self.rows <= MAX_SIDE and MIN_SIDE <= self.cols <= MAX_SIDE):
            raise ValueError(f"board sides must be {MIN_SIDE} to {MAX_SIDE}")
        if not 1 <= self.tokens <= 4:
            raise ValueError("1 to 4 tokens")
        if not 1 <= self.heap <= 1000 or not 1 <= self.max_take <= 100:
            raise ValueError("heap 1 to 1000, take 1 to 100")
        if not 0 <= self.nim < len(NIM_PRESETS):
            raise ValueError("unknown Nim preset")
        if self.graph < 0:
            raise ValueError("unknown graph")

    @property
    def is_board(self) -> bool:
        """Whether this is a token-on-a-chessboard game."""
        return self.game in BOARD_GAMES

    def label(self) -> str:
        """Human name, e.g. ``Queen 8×8, 2 tokens`` or ``Nim 3, 5, 7 (misère)``."""
        name = GAME_LABELS[self.game]
        if self.is_board:
            extra = f", {self.tokens} tokens" if self.tokens > 1 else ""
            return f"{name} {self.rows}×{self.cols}{extra}"
        if self.game == "bachet":
            return f"Bachet: {self.heap} pebbles, take 1–{self.max_take}"
        if self.game == "nim":
            heaps = ", ".join(map(str, NIM_PRESETS[self.nim]))
            return f"Nim {heaps}" + (" (misère)" if self.misere else "")
        from games.grundy.graphs import BUILTIN

        return f"Graph: {BUILTIN[self.graph % len(BUILTIN)].name}"

    def variant_id(self) -> str:
        """Short id for statistics."""
        if self.is_board:
            extra = f"-{self.tokens}t" if self.tokens > 1 else ""
            return f"{self.game}-{self.rows}x{self.cols}{extra}"
        if self.game == "bachet":
            return f"bachet-{self.heap}-{self.max_take}"
        if self.game == "nim":
            heaps = ".".join(map(str, NIM_PRESETS[self.nim]))
            return f"nim-{heaps}" + ("-misere" if self.misere else "")
        return f"graph-{self.graph}"

    def to_settings(self) -> dict[str, str | int]:
        """The stored form (text and whole numbers only)."""
        return {"game": self.game, "rows": self.rows, "cols": self.cols, "tokens": self.tokens,
                "heap": self.heap, "max_take": self.max_take, "nim": self.nim,
                "misere": int(self.misere), "graph": self.graph}

    @classmethod
    def from_settings(cls, stored: dict[str, Any] | None) -> GrundySetup:
        """Rebuild from settings; anything invalid gives the default King 8×8."""
        try:
            s = dict(stored or {})
            s["misere"] = bool(s.get("misere", 0))
            return cls(**{k: s[k] for k in cls.__dataclass_fields__ if k in s})
        except (TypeError, ValueError):
            return cls()


def seats_from_settings(settings: Any) -> tuple[Seat, ...]:
    """The two seats remembered in settings (default: human against Perfect)."""
    kinds = settings.get("seats").get(GAME_ID, {"2": "computer"})
    levels = settings.get("ai_levels").get(GAME_ID, {})
    return tuple(Seat.parse(kinds.get(key), levels.get(key), LEVELS, "perfect")
                 for key in SEAT_KEYS)


def remember(app: Any, setup: GrundySetup, seats: tuple[Seat, ...]) -> None:
    """Store the set-up and seats as the next game's defaults."""
    try:
        for key, value in (("variants", setup.to_settings()),
                           ("seats", {k: s.kind for k, s in zip(SEAT_KEYS, seats, strict=True)}),
                           ("ai_levels", {k: s.level_tag()
                                          for k, s in zip(SEAT_KEYS, seats, strict=True)})):
            table = app.settings.get(key)
            table[GAME_ID] = value
            app.settings.set(key, table)
    except ValueError as exc:  # settings refused a value: keep playing, say so
        app.notify(f"Could not remember the game set-up: {exc}")
        return
    app.save_settings()
