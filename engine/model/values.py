"""One move-value model for every hint and every perfect player.

A :class:`MoveValue` says what a move (or a position) is worth to the player
to move, the GamesmanUni way: the outcome with best play, its remoteness,
whether it is proven or an estimate, optionally the nimber it leads to
(Smith's generalised nim value: a number, or ∞ with its set K, see
:class:`Infinite`), and a short explanation. Hint overlays draw it
(``engine.ui.value_overlay``), the generic :class:`engine.ai.perfect.PerfectAgent`
ranks moves by it, and tests compare it with the generic negamax.

No pygame here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from engine.model.rules import Move

Outcome = Literal["win", "draw", "loss", "unknown"]
OUTCOMES: tuple[Outcome, ...] = ("win", "draw", "loss", "unknown")
_LETTER = {"win": "W", "draw": "D", "loss": "L", "unknown": "?"}
_BY_SIGN: dict[int, Outcome] = {1: "win", 0: "draw", -1: "loss"}
_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _is_count(value: object) -> bool:
    """A non-negative int (a bool is not a count)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass(frozen=True)
class Infinite:
    """Smith's label ∞(K) of a position of a game with cycles that gets no finite value.

    ``k``: the finite labels among the position's successors. It decides the position
    and its sums: the player to move wins iff 0 ∈ K (by moving to that 0), else it is a
    draw; in a sum with a position of nimber n, the sum is ∞(K ⊕ n), won iff n ∈ K. An
    outcome ("win" for the mover) is *not* a nimber: ∞(K) is never the number 1.
    """

    k: frozenset[int]

    def __init__(self, k: Iterable[int] = ()) -> None:
        members = frozenset(k)
        if not all(_is_count(m) for m in members):
            raise ValueError(f"K holds finite nimbers (0 or more), not {set(members)!r}")
        object.__setattr__(self, "k", members)

    def __str__(self) -> str:
        return nimber_text(self)


Nimber = int | Infinite


def nimber_text(nimber: Nimber, short: bool = False) -> str:
    """A nimber as written for the player: ``3``; ∞(K) in Smith's notation with K's
    members as subscripts, smallest first (``∞₀,₂``; ``∞`` when K is empty). ``short``
    (where there is no room) writes any ∞ as ``∞``: K stays in the data."""
    if isinstance(nimber, Infinite):
        if short or not nimber.k:
            return "∞"
        return "∞" + ",".join(str(m).translate(_SUBSCRIPT) for m in sorted(nimber.k))
    if not _is_count(nimber):
        raise ValueError(f"a nimber is 0 or more, or Infinite, not {nimber!r}")
    return str(nimber)


@dataclass(frozen=True)
class MoveValue:
    """What playing a move leads to, from the mover's point of view.

    ``remoteness``: plies from now to the end of the game with best play,
    counting this move (a win on the spot is 1); None when unknown, for a draw
    that has no natural length, and for a proven value whose distance was not
    worked out. ``exact``: False for an estimate from a bounded search.
    ``nimber``: Smith's generalised nim value (the impartial-game value that
    decides sums of games) of the position the move leads to: a number, or
    :class:`Infinite` (∞ with its K) in games with cycles; None where there is none
    (partisan games, misère play). Never an outcome in disguise: the outcome is
    ``outcome``. :func:`nimber_text` writes it.
    ``note``: a few words of why ("blocks four", "3 ⊕ 5 = 6").
    """

    outcome: Outcome
    remoteness: int | None = None
    exact: bool = True
    nimber: Nimber | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, "
                             f"not {self.outcome!r}")
        if self.remoteness is not None and self.remoteness < 0:
            raise ValueError(f"remoteness must be 0 or more, not {self.remoteness}")
        if self.nimber is not None and not isinstance(self.nimber, Infinite) \
                and not _is_count(self.nimber):
            raise ValueError(f"nimber must be 0 or more, Infinite or None, not {self.nimber!r}")

    @classmethod
    def from_sign(cls, sign: int, remoteness: int | None = None, exact: bool = True,
                  **extra: object) -> MoveValue:
        """From a negamax-style sign: +1 win, 0 draw, -1 loss."""
        return cls(_BY_SIGN[(sign > 0) - (sign < 0)], remoteness, exact, **extra)  # type: ignore[arg-type]

    @property
    def sign(self) -> int:
        """+1 win, 0 draw or unknown, -1 loss."""
        return {"win": 1, "loss": -1}.get(self.outcome, 0)

    def label(self, letters: Mapping[str, str] | None = None) -> str:
        """``W3``, ``D``, ``L4``; ``W`` where the distance is not known; estimates get a
        leading ``~`` (``~W``, ``~D``); ``?`` for unknown. ``letters`` (outcome → letter)
        writes it in the player's language (the board's hints: ``Gy3`` in Hungarian)."""
        letter = (letters or _LETTER).get(self.outcome, _LETTER[self.outcome])
        if not self.exact:
            return letter if self.outcome == "unknown" else f"~{letter}"
        if self.outcome in ("win", "loss") and self.remoteness is not None:
            return f"{letter}{self.remoteness}"
        return letter

    def rank(self) -> tuple[int, float]:
        """Sort key, larger is better: proven wins (quickest first), estimated wins,
        draws, unknowns, estimated losses, proven losses (longest first).

        An unknown distance counts as endless: the slowest of wins, the longest of losses.
        """
        far = float("inf") if self.remoteness is None else float(self.remoteness)
        if self.outcome == "win":
            return (6, -far) if self.exact else (5, -far)
        if self.outcome == "draw":
            return (4, 0.0) if self.exact else (3, 0.0)
        if self.outcome == "unknown":
            return (2, 0.0)
        return (0, far) if self.exact else (1, far)


def best_moves(values: Mapping[Move, MoveValue]) -> list[Move]:
    """The moves of the highest rank (ties all kept, in the mapping's order)."""
    if not values:
        return []
    top = max(v.rank() for v in values.values())
    return [m for m, v in values.items() if v.rank() == top]


def ranked(values: Mapping[Move, MoveValue]) -> list[tuple[Move, MoveValue]]:
    """Every move with its value, best first (stable among equals)."""
    return sorted(values.items(), key=lambda item: item[1].rank(), reverse=True)


def all_exact(values: Mapping[Move, MoveValue]) -> bool:
    """Whether every value is proven (an empty mapping counts as exact)."""
    return all(v.exact for v in values.values())
