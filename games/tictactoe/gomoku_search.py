"""The Hard player's move on big boards (gomoku): threat-space search, then alpha-beta.

One move, in this order, each step under its share of the budget (of nodes searched, for
the levels: the same moves on any machine; or of seconds, for timed callers):

1. win now; block the opponent's four (with two fours against us, block one: lost);
2. our VCF (victory by continuous fours) — a proof, played at once;
3. the opponent's VCF, as if it moved now: if it has one, keep only our moves after
   which it has none (must-block detection beyond the single four);
4. our VCT (threes and fours) — a proof within the threat rules, played at once;
5. iterative-deepening alpha-beta over the candidates near the marks. At every node:
   a win in one ends it; an opposing four must be blocked (searched without using up
   depth); a double threat of ours (open four, four-four) is a win in three; an
   opposing double-threat cell (an open three) must be met: we search only the cells
   that stop it and our own fours. Otherwise the best ``BEAM`` cells by what they
   build for either side. Leaves score the pattern counts of
   :class:`~games.tictactoe.gomoku_board.ThreatBoard` (live windows weighted by the
   marks they hold: open and closed twos, threes and fours) plus the fours and
   double-threat cells each side has, with a bonus for the player to move.

Bounded: one transposition table per move, at most ``max_entries`` positions.
No pygame here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from engine.ai.negamax import SearchTimeout
from games.tictactoe.gomoku_board import ThreatBoard
from games.tictactoe.gomoku_threats import DEFAULT_MAX_ENTRIES, Limits, ThreatSearch

__all__ = ["BEAM", "ROOT_BEAM", "WIN", "GomokuSearch", "MoveReport"]

WIN = 1_000_000
# A score at least this is a found win (in plies WIN - score).
WIN_MIN = WIN - 1000
BEAM = 8
ROOT_BEAM = 14
# Shares of the budget for the threat searches (the rest is alpha-beta).
OWN_VCF_SHARE = 0.12
THEIR_VCF_SHARE = 0.2
OWN_VCT_SHARE = 0.2
THEIR_VCT_SHARE = 0.2
# Our own VCT's share first thing when our previous move came from a VCT.
PRESSING_VCT_SHARE = 0.5
# Each four or double-threat cell a player holds at a leaf adds this much.
# The share of the budget kept for checking the chosen move against the opponent's
# VCT (:meth:`GomokuSearch._verified`), how deep that check goes, and how many of the
# best-ranked moves it may try.
VERIFY_SHARE = 0.4
VERIFY_DEPTH = 3
VERIFY_VCF_DEPTH = 12
VERIFY_WIDTH = 6
# The share of the checking time spread evenly over the first pass.
VERIFY_FIRST_PASS = 0.35
FOUR_BONUS = 40
THREAT_BONUS = 400

# Move ordering: what a cell builds for the mover (attack) against what it takes from
# the opponent (defence), by the seat of the player searching. The first player has
# the tempo and presses its attack; the second must keep the first's lines short.
# Tried on 20-game samples against the previous Hard: 5:4 for both seats lost nearly
# every game as second player, 3:4 did better there and 4:5 as first. Samples that
# small are noisy (timed searches): over 200 games (bench_gomoku.py) this still wins
# only 12 % as second player, 78 % as first.
ORDER_WEIGHTS = {0: (4, 5), 1: (3, 4)}

_EXACT, _LOWER, _UPPER = 0, 1, 2


class MoveReport:
    """How a move was found: ``reason`` ("win", "block", "vcf", "defend vcf", "vct",
    "search"), the alpha-beta ``depth`` completed and the ``nodes`` visited."""

    __slots__ = ("move", "reason", "depth", "nodes", "score")

    def __init__(self, move: int, reason: str, depth: int = 0, nodes: int = 0,
                 score: int = 0) -> None:
        self.move, self.reason, self.depth, self.nodes, self.score = (
            move, reason, depth, nodes, score)

    def __repr__(self) -> str:
        return (f"MoveReport(move={self.move}, reason={self.reason!r}, depth={self.depth}, "
                f"nodes={self.nodes}, score={self.score})")


class GomokuSearch:
    """Finds one move for the player to move on ``board`` (restored afterwards).

    ``pressing``: our previous move came from a VCT of ours; its continuation is
    looked for first, with a larger share of the budget. ``budget`` is in seconds, or
    with ``in_nodes`` in nodes searched (``limits.max_nodes``; its deadline then only a
    safety cap): every share of it is then a number of nodes, so the move depends on
    the work done and never on the machine's speed."""

    def __init__(self, board: ThreatBoard, limits: Limits, budget: float,
                 rng: random.Random | None = None,
                 max_entries: int = DEFAULT_MAX_ENTRIES, pressing: bool = False,
                 in_nodes: bool = False) -> None:
        if in_nodes and limits.max_nodes is None:
            raise ValueError("a budget in nodes needs limits with max_nodes")
        self.in_nodes = in_nodes
        self.b = board
        # Whether our previous move was played by a VCT of ours (see choose()).
        self.pressing = pressing
        self.lim = limits
        self.budget = budget
        self.rng = rng or random.Random()
        self.max_entries = max_entries
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.weights = ORDER_WEIGHTS[board.to_move]
        # The last alpha-beta's root moves, best first, and their scores.
        self._ranked: list[int] = []
        self._scores: dict[int, int] = {}

    # --- the budget ---------------------------------------------------------------------

    def _part(self, amount: float) -> Limits:
        """Limits for ``amount`` more of the budget (seconds, or nodes), within this
        move's, sharing its node count."""
        if not self.in_nodes:
            return self.lim.sub(amount)
        outer = self.lim
        assert outer.max_nodes is not None
        lim = Limits(outer.deadline, min(outer.max_nodes, outer.nodes + int(amount)),
                     outer.cancel)
        lim.nodes = outer.nodes
        lim._next_poll = outer.nodes + 1
        return lim

    def _left(self) -> float | None:
        """What is left of this move's budget (seconds, or nodes); None: no limit."""
        if self.in_nodes:
            assert self.lim.max_nodes is not None
            return self.lim.max_nodes - self.lim.nodes
        return None if self.lim.deadline is None else self.lim.deadline - time.monotonic()

    def _spent(self, lim: Limits) -> bool:
        """Whether this move's whole budget is spent (``lim``'s nodes counted), or its
        clock (the safety cap, in nodes) has run out."""
        over = self.lim.deadline is not None and time.monotonic() >= self.lim.deadline
        if self.in_nodes:
            assert self.lim.max_nodes is not None
            return over or lim.nodes >= self.lim.max_nodes
        return over

    # --- the move -----------------------------------------------------------------------

    def choose(self) -> MoveReport:
        """The move, by the steps of the module description."""
        b = self.b
        p = b.to_move
        q = 1 - p
        mine = b.win_cells(p)
        if mine:
            return MoveReport(self.rng.choice(sorted(mine)), "win")
        theirs = b.win_cells(q)
        if theirs:
            return MoveReport(min(theirs, key=lambda c: (-b.cv[p][c], c)), "block")
        cand = b.candidates()
        if len(cand) == 1:
            return MoveReport(cand[0], "only")
        own = self._threat(OWN_VCF_SHARE, lambda ts: ts.vcf())
        if own is not None:
            return MoveReport(own, "vcf", nodes=self.lim.nodes)
        if self.pressing:
            # Our last move followed a VCT: the rest of it is there to be found again
            # (a proof allows for every reply that matters), so it gets time first.
            own = self._threat(PRESSING_VCT_SHARE, lambda ts: ts.vct())
            if own is not None:
                return MoveReport(own, "vct", nodes=self.lim.nodes)
        root = None
        refuters = self._refute_their_vcf()
        if refuters is not None:
            if len(refuters) == 1:
                return MoveReport(refuters[0], "defend vcf", nodes=self.lim.nodes)
            root = refuters
        else:
            own = self._threat(OWN_VCT_SHARE, lambda ts: ts.vct())
            if own is not None:
                return MoveReport(own, "vct", nodes=self.lim.nodes)
            root = self._refute_their_vct()
        return self._verified(self._alpha_beta(root, VERIFY_SHARE))

    def _verified(self, report: MoveReport) -> MoveReport:
        """``report``, or the best-ranked root move after which the opponent has no VCT.

        Alpha-beta on a narrow beam misses slow attacks (three, three, then fours), so
        the moves it ranks best are checked with a deeper threat search for the
        opponent (:data:`VERIFY_DEPTH` threes and fours) in the time left. A losing
        move is usually refuted in a few hundred nodes, while showing that a move is
        safe can take many thousands; so a first pass gives each of the best
        :data:`VERIFY_WIDTH` moves a short slice and drops those refuted, then the
        survivors ranked above the best move shown safe get the rest of the time, in
        order. Played: the first move not shown lost (shown safe, or the one the time
        ran out on); when every move checked loses, the search's own choice stands
        (nothing better is known)."""
        order = [report.move, *(c for c in self._ranked if c != report.move)]
        order = [c for i, c in enumerate(order[:VERIFY_WIDTH])
                 if i == 0 or self._scores.get(c, 0) > -WIN_MIN]
        left = self._left()
        if left is None or left <= 0:
            return report
        slice_ = left * VERIFY_FIRST_PASS / len(order)
        status: dict[int, str] = {}  # "safe", "lost" or "open"
        try:
            for c in order:
                status[c] = self._check(c, slice_)
            for c in order:
                if status[c] == "safe":
                    break
                if status[c] == "open":
                    status[c] = self._check(c, None)
                    if status[c] != "lost":
                        break  # shown safe, or out of time: the best we know
        except SearchTimeout:
            pass
        # The first move not shown lost: shown safe, or the one the time ran out on.
        best = next((c for c in order if status.get(c, "open") != "lost"), report.move)
        if best == report.move:
            return report
        return MoveReport(best, "defend vct", report.depth, self.lim.nodes,
                          self._scores.get(best, 0))

    def _check(self, c: int, seconds: float | None) -> str:
        """"lost" when the opponent has a VCT after our move ``c``, "safe" when it has
        none, "open" when ``seconds`` (or nodes) ran out first. Raises SearchTimeout when
        the move's whole budget runs out (``seconds`` None: the rest of it)."""
        b = self.b
        lim = self.lim if seconds is None else self._part(seconds)
        ts = ThreatSearch(b, lim, self.max_entries)
        b.make(c)
        try:
            threat = ts.vct(depth=VERIFY_DEPTH, vcf_depth=VERIFY_VCF_DEPTH)
        except SearchTimeout:
            if seconds is None or self._spent(lim):
                raise
            return "open"
        finally:
            b.undo()
            self.lim.nodes = lim.nodes
        return "safe" if threat is None else "lost"

    def _threat(self, share: float, fn) -> int | None:  # type: ignore[no-untyped-def]
        """``fn(ThreatSearch)`` under ``share`` of the budget; None on timeout."""
        ts = ThreatSearch(self.b, self._part(self.budget * share), self.max_entries)
        try:
            return fn(ts)
        except SearchTimeout:
            return None
        finally:
            self.lim.nodes = ts.lim.nodes

    def _refute_their_vcf(self) -> list[int] | None:
        """None when the opponent has no VCF (found in time); else our moves after which
        it has none (all candidates, if none does: the game is lost against best play)."""
        b = self.b
        p = b.to_move
        lim = self._part(self.budget * THEIR_VCF_SHARE)
        ts = ThreatSearch(b, lim, self.max_entries)
        b.to_move = 1 - p  # a pass: what would they do if it were their move?
        try:
            line = ts.vcf_line()
        except SearchTimeout:
            line = []
        finally:
            b.to_move = p
        self.lim.nodes = lim.nodes
        if not line:
            return None
        # Candidates: the cells of their line first, then whatever builds most.
        cv_p, cv_q = b.cv[p], b.cv[1 - p]
        rest = sorted(b.candidates(), key=lambda c: (-(cv_p[c] + cv_q[c]), c))
        order = list(dict.fromkeys([c for c in line if b.cell[c] < 0] + rest))
        mine = b.four_moves(p)
        # A four of ours only delays: after the block they still have their line.
        good = self._stoppers([c for c in order[:3 * ROOT_BEAM] if c not in mine], ts.vcf)
        self.lim.nodes = lim.nodes
        return good or None

    def _refute_their_vct(self) -> list[int] | None:
        """None when the opponent has no VCT as if it moved now (or none is found in
        time); else those of our moves tried after which it has none: its first move,
        the cells that would meet the threat that move makes, the cells of its line."""
        b = self.b
        p = b.to_move
        q = 1 - p
        lim = self._part(self.budget * THEIR_VCT_SHARE)
        ts = ThreatSearch(b, lim, self.max_entries)
        b.to_move = q  # a pass
        try:
            first = ts.vct(depth=2, vcf_depth=10)
            if first is None:
                return None
            b.make(first)
            try:
                threat = b.win_cells(q) or b.three_defences(q, b.double_threats(q))
            finally:
                b.undo()
        except SearchTimeout:
            return None
        finally:
            b.to_move = p
            self.lim.nodes = lim.nodes
        order = [first, *self._order(set(threat) - {first})]
        good = self._stoppers(order, lambda: ts.vct(depth=2, vcf_depth=10))
        self.lim.nodes = lim.nodes
        return good or None

    def _stoppers(self, order: list[int], search: Callable[[], int | None]) -> list[int]:
        """Those of our moves in ``order`` after which ``search()`` (the opponent's threat
        search, on the board as changed) finds nothing, as many as are tried in time."""
        b = self.b
        good: list[int] = []
        try:
            for c in order:
                b.make(c)
                try:
                    safe = search() is None
                finally:
                    b.undo()
                if safe:
                    good.append(c)
        except SearchTimeout:
            pass
        return good

    # --- alpha-beta ---------------------------------------------------------------------

    def _order(self, moves: list[int] | set[int], best: int | None = None) -> list[int]:
        b = self.b
        p = b.to_move
        vp, vq = b.cv[p], b.cv[1 - p]
        att, dfc = self.weights
        out = sorted(moves, key=lambda c: (-(vp[c] * att + vq[c] * dfc), c))
        if best is not None and best in moves:
            out.remove(best)
            out.insert(0, best)
        return out

    def _alpha_beta(self, root: list[int] | None, reserve: float = 0.0) -> MoveReport:
        """Iterative deepening over ``root`` (default: the candidates, or the cells that
        meet an opposing double threat) until ``reserve`` of the budget is left; the
        root moves, best first, are kept in ``_ranked`` with their ``_scores``."""
        b = self.b
        outer = self.lim
        left = self._left()
        if left is not None:
            self.lim = self._part(max(0.0, left - self.budget * reserve))
        p = b.to_move
        if root is None:
            theirs_dt = b.double_threats(1 - p)
            if theirs_dt:
                root = list(b.three_defences(1 - p, theirs_dt) | set(b.four_moves(p)))
            else:
                root = b.candidates()
        # Shuffle before the stable sort: equal cells are broken at random (by the seed).
        self.rng.shuffle(root)
        root = self._order(root)[:ROOT_BEAM]
        best, best_score, depth_done = root[0], 0, 0
        self._ranked, self._scores = list(root), {}
        depth = 1
        try:
            while depth <= b.n_empty:
                scores: dict[int, int] = {}
                alpha = -WIN - 1
                # Children searched to depth 0 never order or list candidates: the
                # cheaper push (no per-cell values) does for them.
                make, undo = (b.push, b.pop) if depth <= 1 else (b.make, b.undo)
                for c in root:
                    make(c)
                    try:
                        s = -self._search(depth - 1, -WIN - 1, -alpha, 1)
                    finally:
                        undo()
                    scores[c] = s
                    if s > alpha:
                        alpha = s
                root.sort(key=lambda c: -scores[c])  # stable: ties keep their order
                best, best_score, depth_done = root[0], scores[root[0]], depth
                self._ranked, self._scores = list(root), scores
                if abs(best_score) >= WIN_MIN:
                    break  # a forced result: deeper search cannot change it
                depth += 1
        except SearchTimeout:
            pass
        finally:
            outer.nodes = self.lim.nodes
            self.lim = outer
        return MoveReport(best, "search", depth_done, self.lim.nodes, best_score)

    def _search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        b = self.b
        self.lim.tick()
        p = b.to_move
        q = 1 - p
        if b.win_cells(p):
            return WIN - ply - 1
        if not b.n_empty:
            return 0
        theirs = b.win_cells(q)
        if len(theirs) >= 2:
            return -(WIN - ply - 2)
        fours_p = b.four_moves(p)
        for made in fours_p.values():
            if len(made) >= 2 and not theirs:
                return WIN - ply - 3  # a double threat: they cannot stop both
        if theirs:
            moves = list(theirs)  # forced: no depth used
            next_depth = depth
        else:
            fours_q = b.four_moves(q)
            if depth <= 0:
                return self._evaluate(fours_p, fours_q)
            next_depth = depth - 1
            their_dt = {c: s for c, s in fours_q.items() if len(s) >= 2}
            if their_dt:
                moves = list(b.three_defences(q, their_dt) | set(fours_p))
            else:
                moves = b.candidates()
        key = b.hash * 2 + p
        entry = self.tt.get(key)
        tt_best = None
        if entry is not None:
            e_depth, flag, e_score, tt_best = entry
            if e_depth >= depth:
                if flag == _EXACT:
                    return e_score
                if flag == _LOWER and e_score >= beta:
                    return e_score
                if flag == _UPPER and e_score <= alpha:
                    return e_score
        ordered = self._order(moves, tt_best)
        if not theirs:
            ordered = ordered[:BEAM]
        alpha0 = alpha
        best_score = -WIN - 1
        best_move = ordered[0]
        # As at the root: below depth 0 only pushes (the subtree never needs ``cv``).
        make, undo = (b.push, b.pop) if next_depth <= 0 else (b.make, b.undo)
        for c in ordered:
            make(c)
            try:
                s = -self._search(next_depth, -beta, -alpha, ply + 1)
            finally:
                undo()
            if s > best_score:
                best_score, best_move = s, c
                if s > alpha:
                    alpha = s
                    if alpha >= beta:
                        break
        flag = _UPPER if best_score <= alpha0 else _LOWER if best_score >= beta else _EXACT
        if len(self.tt) >= self.max_entries:
            self.tt.clear()
        # Win/loss scores count plies from the root; stored as they are, since a
        # position's ply is its number of marks less the root's: the same everywhere.
        self.tt[key] = (depth, flag, best_score, best_move)
        return best_score

    def _evaluate(self, fours_p: dict[int, set[int]], fours_q: dict[int, set[int]]) -> int:
        """The position for the player to move (no win in one either way, no double
        threat of ours): live windows weighted by marks, fours and double threats."""
        b = self.b
        p = b.to_move
        dt_q = sum(1 for s in fours_q.values() if len(s) >= 2)
        mine = b.score[p] + FOUR_BONUS * len(fours_p)
        theirs = b.score[1 - p] + FOUR_BONUS * len(fours_q) + THREAT_BONUS * dt_q
        return mine - theirs


def timed_limits(budget: float, start: float | None = None,
                 max_nodes: int | None = None, cancel=None) -> Limits:  # type: ignore[no-untyped-def]
    """Limits ending ``budget`` seconds after ``start`` (default: now)."""
    start = time.monotonic() if start is None else start
    return Limits(start + budget, max_nodes, cancel)
