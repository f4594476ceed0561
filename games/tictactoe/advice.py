"""The hint for the player to move: exact values where the board can be solved in time,
else the few best squares, ranked, each with a reason.

On a board too big to solve, a value on every square ("~D" everywhere) says
nothing a player can use. :func:`hint_report` then ranks the squares by the
Hard player's bounded search (:func:`~games.tictactoe.hard_search.estimate_scores`)
and the threats each makes or stops (:func:`~games.tictactoe.threats.square_threats`)
and keeps the best few, as :class:`Candidate` s. A win by continuous fours found by the
gomoku threat search (:func:`forced_win_by_fours`) comes first, "wins in n". Squares the position's
symmetries map onto each other always share a rank.

No pygame here.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace

from engine.ai.negamax import MATE_MIN
from engine.core.i18n import N_
from engine.model.values import MoveValue
from games.tictactoe.rules import TicTacToeState

__all__ = ["MAX_CELLS", "MAX_RANKS", "Candidate", "HintReport", "forced_win_by_fours",
           "hint_report", "rank_candidates"]

# At most this many ranks, and no more squares than this (a rank that would go past it
# is left out, unless it is the first): a short list a player can take in.
MAX_RANKS = 4
MAX_CELLS = 8
# Seconds kept back from the estimate for the threat analysis and the ranking.
RANKING_RESERVE = 0.15
# Share of the hint budget for looking for a win by continuous fours (gomoku).
VCF_SHARE = 0.1
# Share of the hint budget for exact values and proofs on gomoku-sized boards.
PROOF_SHARE_BIG = 0.5


@dataclass(frozen=True)
class Candidate:
    """One rank of the hint: the squares that share it (equal by every measure, such as
    mirror images), their estimated value (``value.note`` is the reason) and the rank,
    1 for the best."""

    rank: int
    cells: tuple[int, ...]
    value: MoveValue
    # The search's verdict in words: "wins in 3" where it found a forced win ("loses in
    # 4" a forced loss), else "good", "even" or "bad".
    outlook: str = ""

    @property
    def reason(self) -> str:
        """Why these squares: "wins now", "blocks their open four", …"""
        return self.value.note


# (every shown square's value, the ranked candidates or None where the values are exact)
HintReport = tuple[dict[int, MoveValue], "list[Candidate] | None"]
# Every outlook's wording, in English (see REASONS in games.tictactoe.threats).
OUTLOOKS = (N_("proven {outcome}"), N_("wins in {count}"), N_("loses in {count}"), N_("good"),
            N_("even"), N_("bad"))


def hint_report(state: TicTacToeState, cancel: threading.Event | None = None,
                time_limit: float = 3.0) -> HintReport:
    """The hint for ``state``: (values, None) where every legal move's value is proven in
    time (:func:`~games.tictactoe.perfect.exact_or_proven`); else (the candidates'
    squares' values, the ranked candidates), ranked by estimates with a proven move,
    where there is one, first. Raises Cancelled when ``cancel`` is set."""
    from games.tictactoe.hard_search import estimate_scores, uses_threat_search
    from games.tictactoe.perfect import exact_or_proven

    if state.is_terminal():
        return {}, None
    start = time.monotonic()
    # Gomoku-sized boards are rarely solved: less time for proofs, more for the ranking.
    big = uses_threat_search(state.config)
    proven, complete = exact_or_proven(state, cancel, time_limit * (PROOF_SHARE_BIG if big
                                                                    else 1.0))
    if complete:
        return proven, None
    forced = (forced_win_by_fours(state, cancel, time_limit * VCF_SHARE)
              if big and not proven else None)
    left = max(0.05, time_limit - (time.monotonic() - start) - RANKING_RESERVE)
    candidates = rank_candidates(state, estimate_scores(state, cancel, left))
    for cell, value in proven.items():
        candidates = _with_proven_first(state, candidates, cell, value)
    if forced is not None:
        candidates = _with_forced_first(candidates, *forced)
    values = {cell: c.value for c in candidates for cell in c.cells}
    return values, candidates


def _with_proven_first(state: TicTacToeState, candidates: list[Candidate], cell: int,
                       value: MoveValue) -> list[Candidate]:
    """``candidates`` with ``cell`` and its symmetric images first, with its proven
    ``value``, the others after them (at most :data:`MAX_RANKS` ranks in all). Where the
    search ranked ``cell`` too, its reason stays (why the square is good), and so does a
    win the search found ("wins in n")."""
    from games.tictactoe.hard_search import symmetric_orbits

    cells = next(orbit for orbit in symmetric_orbits(state) if cell in orbit)
    outlook = f"proven {value.outcome}"
    for c in candidates:
        if cell in c.cells:
            value = replace(value, note=c.value.note or value.note)
            if c.outlook.startswith("wins in"):
                outlook = c.outlook
            break
    return _put_first(Candidate(1, cells, value, outlook), candidates)


def _put_first(first: Candidate, candidates: list[Candidate]) -> list[Candidate]:
    """``first`` as rank 1, then ``candidates`` without its squares, renumbered (at most
    :data:`MAX_RANKS` ranks in all)."""
    rest: list[Candidate] = []
    for c in candidates:
        others = tuple(x for x in c.cells if x not in first.cells)
        if others and len(rest) < MAX_RANKS - 1:
            rest.append(Candidate(len(rest) + 2, others, c.value, c.outlook))
    return [first, *rest]


def forced_win_by_fours(state: TicTacToeState, cancel: threading.Event | None = None,
                        time_limit: float = 0.3) -> tuple[int, int] | None:
    """(first square, plies to five) of a win by continuous fours (a VCF) for the player to
    move, found by the gomoku threat search within ``time_limit``; None when none is
    found (two players, k ≥ 4 only). Every move of it is a four, so every reply is
    forced: the win is certain, though not necessarily the quickest."""
    from engine.ai.negamax import SearchTimeout as Timeout
    from games.tictactoe.gomoku_board import ThreatBoard
    from games.tictactoe.gomoku_threats import Limits, ThreatSearch

    if state.config.players != 2 or state.config.k < 4 or state.is_terminal():
        return None
    board = ThreatBoard.from_rules(state)
    try:
        line = ThreatSearch(board, Limits(time.monotonic() + time_limit, None, cancel)).vcf_line()
    except Timeout:
        return None
    if not line:
        return None
    after = state
    for cell in line:
        after = after.play(cell)
    # The line ends on five, or on a move leaving two winning squares: block, then five.
    return line[0], len(line) + (0 if after.winner is not None else 2)


def _with_forced_first(candidates: list[Candidate], cell: int, plies: int) -> list[Candidate]:
    """``candidates`` with ``cell`` first as a forced win by fours, the others after it."""
    note = "wins by fours (forced)"
    return _put_first(Candidate(1, (cell,), MoveValue("win", plies, False, note=note),
                                f"wins in {plies}"), candidates)


def rank_candidates(state: TicTacToeState,
                    scores: dict[int, tuple[int, int]]) -> list[Candidate]:
    """The best squares by ``scores`` ((score, depth) per legal move, as from
    :func:`~games.tictactoe.hard_search.estimate_scores`) and their threats.

    Order: by the search's outcome (a forced win found, quickest first; good; even;
    bad; a forced loss found, longest first), then by the strongest threat the square
    makes or stops, then by score. Squares equal in all of these, with the same reason,
    share a rank. Squares the search found lost come only when every square is.
    """
    from games.tictactoe.hard_search import mate_plies, score_outcome
    from games.tictactoe.threats import square_threats

    threats = square_threats(state)

    def key(cell: int) -> tuple[int, int, int, int]:
        score, _depth = scores[cell]
        plies = mate_plies(score) or 0
        if score >= MATE_MIN:
            band = 0  # a forced win found: the quickest first
        elif score <= -MATE_MIN:
            band, plies = 4, -plies  # a forced loss found: the longest first
        else:
            band = {"win": 1, "draw": 2}.get(score_outcome(score), 3)
        return (band, plies, threats[cell].tier, -score)

    cells = sorted(scores, key=lambda c: (key(c), c))
    if any(key(c)[0] < 4 for c in cells):
        cells = [c for c in cells if key(c)[0] < 4]  # lost squares only when all are
    def same(a: int, b: int) -> bool:
        return key(a) == key(b) and threats[a].reason == threats[b].reason

    groups: list[list[int]] = []
    for cell in cells:
        if groups and same(groups[-1][0], cell):
            groups[-1].append(cell)
        else:
            groups.append([cell])
    out: list[Candidate] = []
    shown = 0
    for group in groups[:MAX_RANKS]:
        if out and shown + len(group) > MAX_CELLS:
            break
        score, depth = scores[group[0]]
        plies = mate_plies(score)
        value = MoveValue(score_outcome(score), depth if plies is None else plies, False,  # type: ignore[arg-type]
                          note=threats[group[0]].reason)
        if plies is None:
            outlook = {"win": "good", "draw": "even"}.get(value.outcome, "bad")
        else:
            outlook = f"{'wins' if score > 0 else 'loses'} in {plies}"
        out.append(Candidate(len(out) + 1, tuple(group), value, outlook))
        shown += len(group)
    return out
