"""The hint for the player to move: exact values where the board can be solved in time,
else the few best squares, ranked, each with a reason.

On a board too big to solve, a value on every square ("~D" everywhere) says
nothing a player can use. :func:`hint_report` then ranks the squares by the
Hard player's bounded search (:func:`~games.tictactoe.hard_search.estimate_scores`)
and the threats each makes or stops (:func:`~games.tictactoe.threats.square_threats`)
and keeps the best few, as :class:`Candidate` s. A square that wins now comes first
(exact: "wins in 1"), then a proven win (the prover's "proven win", or a win by
continuous fours found by the gomoku threat search, :func:`forced_win_by_fours`:
"wins within n"), then the estimates. Each row says which it is
(:attr:`Candidate.certainty`), and the status line and the legend's note are read from
that alone (:func:`list_certainty`). Squares the position's symmetries map onto each
other always share a rank.

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

__all__ = ["MAX_CELLS", "MAX_RANKS", "OUTLOOKS", "Candidate", "HintReport",
           "forced_win_by_fours", "hint_report", "is_bad", "list_certainty", "rank_candidates"]

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
    mirror images), their value (``value.note`` is the reason) and the rank, 1 for the
    best."""

    rank: int
    cells: tuple[int, ...]
    value: MoveValue
    # The verdict in words: "wins in 1" (exact), "wins within 9" (a proven win by fours, at
    # most that long), "proven win" (proven, no distance), "looks like a win in 5" (a
    # bounded search's, not a proof), else "good", "even" or "bad".
    outlook: str = ""

    @property
    def reason(self) -> str:
        """Why these squares: "wins now", "stops their open three", …"""
        return self.value.note

    @property
    def certainty(self) -> str:
        """The one source of truth for what a row is: ``"exact"`` (outcome and moves to
        the end proven), ``"proven"`` (outcome proven, distance not, or only a bound)
        or ``"estimate"`` (a bounded search's)."""
        v = self.value
        if not v.exact:
            return "estimate"
        if v.outcome in ("win", "loss") and v.remoteness is not None:
            return "exact"
        return "proven"


# (every shown square's value, the ranked candidates or None where the values are exact)
HintReport = tuple[dict[int, MoveValue], "list[Candidate] | None"]
# Every outlook's wording, in English (see REASONS in games.tictactoe.threats).
OUTLOOKS = (N_("proven {outcome}"), N_("wins in {count}"), N_("loses in {count}"),
            N_("wins within {count}"), N_("looks like a win in {count}"),
            N_("looks like a loss in {count}"), N_("good"), N_("even"), N_("bad"))


def list_certainty(ranked: list[Candidate]) -> str:
    """What the ranked list as a whole is, for the status line and the legend's note
    alike: ``"proven"`` (every row proven), ``"proven first"`` (rank 1 proven, the rest
    estimates) or ``"estimate"``. :func:`hint_report` puts proven rows first and keeps
    at most one."""
    proven = [c.certainty != "estimate" for c in ranked]
    if proven and all(proven):
        return "proven"
    return "proven first" if proven and proven[0] else "estimate"


def is_bad(candidate: Candidate) -> bool:
    """Whether the row's verdict is a bad one (estimated bad, or a loss)."""
    return candidate.value.outcome == "loss"


def hint_report(state: TicTacToeState, cancel: threading.Event | None = None,
                time_limit: float = 3.0) -> HintReport:
    """The hint for ``state``: (values, None) where every legal move's value is proven in
    time (:func:`~games.tictactoe.perfect.exact_or_proven`); else (the candidates'
    squares' values, the ranked candidates). Raises Cancelled when ``cancel`` is set.

    The ranking: rows whose moves to the end are proven (a win now), quickest first; then
    a proven win or draw (the prover's, or a win by fours), at most one proven row in
    all; then the bounded search's estimates (:func:`rank_candidates`). A bad or lost
    row comes only when every row is one."""
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
    certain: list[Candidate] = []
    for cell, value in proven.items():
        certain.append(_proven_row(state, cell, value))
    if forced is not None:
        cell, plies = forced
        note = "wins by fours (forced)"
        certain.append(Candidate(1, (cell,), MoveValue("win", None, True, note=note),
                                 f"wins within {plies}"))
    candidates = _in_order(certain, candidates)
    values = {cell: c.value for c in candidates for cell in c.cells}
    return values, candidates


def _proven_row(state: TicTacToeState, cell: int, value: MoveValue) -> Candidate:
    """A proven ``value`` (no distance) for ``cell`` and its symmetric images, with the
    square's own reason (what it makes or stops on the board)."""
    from games.tictactoe.hard_search import symmetric_orbits
    from games.tictactoe.threats import square_threats

    cells = next(orbit for orbit in symmetric_orbits(state) if cell in orbit)
    reason = square_threats(state)[cell].reason
    return Candidate(1, tuple(cells), replace(value, note=reason), f"proven {value.outcome}")


def _in_order(certain: list[Candidate], estimates: list[Candidate]) -> list[Candidate]:
    """Every row in the order the hint promises, renumbered: exact rows (quickest win
    first), then one proven row (where no exact row), then the estimates; no square twice,
    a bad row only where all are bad, at most :data:`MAX_RANKS` ranks and
    :data:`MAX_CELLS` squares (past the first rank)."""
    exact = [c for c in estimates if c.certainty == "exact"]
    rows = sorted(exact, key=lambda c: (c.value.sign < 0, c.value.remoteness or 0))
    if not any(c.value.outcome == "win" for c in rows):
        # A proven win (a bound on its length at best) before a proven draw.
        rows += sorted(certain, key=lambda c: c.value.outcome != "win")[:1]
    rows += [c for c in estimates if c.certainty == "estimate"]
    if any(not is_bad(c) for c in rows):
        rows = [c for c in rows if not is_bad(c)]
    out: list[Candidate] = []
    seen: set[int] = set()
    shown = 0
    for c in rows:
        cells = tuple(x for x in c.cells if x not in seen)
        if not cells:
            continue
        if len(out) == MAX_RANKS or (out and shown + len(cells) > MAX_CELLS):
            break
        out.append(Candidate(len(out) + 1, cells, c.value, c.outlook))
        seen.update(cells)
        shown += len(cells)
    return out


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


def rank_candidates(state: TicTacToeState,
                    scores: dict[int, tuple[int, int]]) -> list[Candidate]:
    """The best squares by ``scores`` ((score, depth) per legal move, as from
    :func:`~games.tictactoe.hard_search.estimate_scores`) and their threats.

    Order: by the search's outcome (a forced win found, quickest first; good; even;
    bad; a forced loss found, longest first), then by the strongest threat the square
    makes or stops, then by score. Squares equal in all of these, with the same reason,
    share a rank. Bad squares come only when every square is bad, lost ones only when
    every square is lost. All are estimates (a search bounded in depth and breadth finds
    no proof), except a square that completes a line: "wins in 1", exact.
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
    for worst in (3, 4):
        if any(key(c)[0] < worst for c in cells):
            # Bad squares only when all are; lost squares only when all are.
            cells = [c for c in cells if key(c)[0] < worst]
            break

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
        if threats[group[0]].tier == 0:
            # It completes a line: certain, one ply.
            value, outlook = replace(value, remoteness=1, exact=True), "wins in 1"
        elif plies is None:
            outlook = {"win": "good", "draw": "even"}.get(value.outcome, "bad")
        else:
            outlook = f"looks like a {'win' if score > 0 else 'loss'} in {plies}"
        out.append(Candidate(len(out) + 1, tuple(group), value, outlook))
        shown += len(group)
    return out
