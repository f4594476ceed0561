"""The Hard tic-tac-toe player for boards larger than 3×3: timed threat-aware alpha-beta.

On gomoku-sized boards (five or more in a row, or over 49 cells:
:func:`uses_threat_search`) :class:`HardSearchAgent` plays with threat-space search
first (:mod:`games.tictactoe.gomoku_search`: VCF and VCT for itself, must-block
detection against the opponent's, then alpha-beta on pattern counts). The rest of
this module is the alpha-beta it plays elsewhere, which the hints also use.

It runs the generic :class:`engine.ai.negamax.Negamax` in depth-limited mode
with iterative deepening under a time budget, on :class:`HeuristicMNKState`,
an :class:`~games.tictactoe.search_state.MNKSearchState` that also keeps:

* an evaluation, updated on the lines through each move only: every line
  (k-window) still open to one player scores by how many of that player's
  marks it holds (1, 10, 100, … per mark), so open threes and fours weigh
  far more than scattered marks, and a cell on several strong lines (a
  double threat in the making) gathers the weight of each;
* a priority per empty cell, the same line weights seen from the cell (what
  it builds for either player — attack and defence), to order moves;
* the cells within two of any mark: the only candidates on big boards, since a
  move further away can neither make nor stop a threat soon.

Forced moves come first and alone: a winning cell; the only block of a single
threat. Two opposing threats with no win of one's own are a loss the search
sees at once (the base class's ``forced_outcome``).
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from engine.ai.agent import Cancelled
from engine.ai.negamax import MATE_MIN, WIN, Negamax, SearchTimeout
from engine.model.rules import GameState, IllegalMove, Move
from games.tictactoe.rules import EMPTY, MNKConfig, TicTacToeState
from games.tictactoe.search_state import Geometry, MNKSearchState, cells_of

if TYPE_CHECKING:
    from engine.model.values import MoveValue

__all__ = ["HardSearchAgent", "HeuristicMNKState", "estimate_scores", "estimate_values",
           "symmetric_orbits", "uses_threat_search"]

# Interior nodes search only this many candidates (best priority first);
# the root searches up to ROOT_WIDTH. Forced replies are always kept.
BEAM_WIDTH = 10
ROOT_WIDTH = 24
# Cells this far (in rows and columns) from a mark are candidates.
NEAR = 2
# Hard's alpha-beta varies its games among moves scoring within this of the best.
NEAR_BEST = 5


@dataclass(frozen=True)
class _Tables:
    """Heuristic tables for one board shape."""

    line_cells: tuple[tuple[int, ...], ...]
    through_idx: tuple[tuple[int, ...], ...]
    neighbours: tuple[int, ...]
    weight: tuple[int, ...]
    priority: tuple[int, ...]
    centre: int


@lru_cache(maxsize=4)  # ~0.2 MB each on 15×15
def _tables(g: Geometry) -> _Tables:
    rows, cols, k = g.rows, g.cols, g.k
    line_cells = tuple(tuple(c for c in range(g.cells) if mask >> c & 1) for mask in g.lines)
    through_idx = tuple(tuple(i for i, mask in enumerate(g.lines) if mask >> c & 1)
                        for c in range(g.cells))
    neighbours = []
    for c in range(g.cells):
        r0, c0 = divmod(c, cols)
        mask = 0
        for r in range(max(0, r0 - NEAR), min(rows, r0 + NEAR + 1)):
            for cc in range(max(0, c0 - NEAR), min(cols, c0 + NEAR + 1)):
                mask |= 1 << (r * cols + cc)
        neighbours.append(mask)
    # A line with j of one player's marks (and none of the other's) is worth
    # 10^(j-1): one more mark in it is worth more than all lower rungs together
    # on any cell (a cell is on at most 4k lines).
    weight = tuple(0 if j == 0 else 10 ** (j - 1) for j in range(k + 1))
    # Cell priorities: even an empty line counts (it is room to build).
    priority = tuple(1 if j == 0 else 4 * 10 ** (j - 1) for j in range(k + 1))
    centre = (rows // 2) * cols + cols // 2
    return _Tables(line_cells, through_idx, tuple(neighbours), weight, priority, centre)


class HeuristicMNKState(MNKSearchState):
    """An :class:`MNKSearchState` with an incremental evaluation and candidate moves."""

    __slots__ = ("tab", "near", "s_me", "s_opp", "cellv", "beam")

    tab: _Tables
    near: int
    s_me: int
    s_opp: int
    cellv: list[int]
    beam: int

    @classmethod
    def from_bits(cls, g: Geometry, x: int, o: int,
                  last_move: int | None = None) -> HeuristicMNKState:
        """A position from X's and O's bit sets, with its evaluation computed afresh."""
        s = super().from_bits(g, x, o, last_move)
        assert isinstance(s, HeuristicMNKState)
        tab = _tables(g)
        s.tab = tab
        s.beam = BEAM_WIDTH
        marks = x | o
        near = 0
        for c in cells_of(marks):
            near |= tab.neighbours[c]
        s.near = near
        s.s_me = s.s_opp = 0
        cellv = [0] * g.cells
        for i, mask in enumerate(g.lines):
            a, b = (mask & s.me).bit_count(), (mask & s.opp).bit_count()
            if a and b:
                continue
            if b == 0:
                s.s_me += tab.weight[a]
            if a == 0:
                s.s_opp += tab.weight[b]
            gain = tab.priority[a + b]
            for c in tab.line_cells[i]:
                if s.empty >> c & 1:
                    cellv[c] += gain
        s.cellv = cellv
        return s

    @classmethod
    def from_rules(cls, state: TicTacToeState, canonical_marks: int = 0) -> HeuristicMNKState:
        """The heuristic search position of a two-player rules state.

        Symmetric keys are off by default: depth-limited searches on big boards
        meet few symmetric transpositions.
        """
        s = super().from_rules(state, canonical_marks)
        assert isinstance(s, HeuristicMNKState)
        return s

    def play(self, move: int) -> HeuristicMNKState:
        """The position after ``move``; updates only the lines through it."""
        bit = 1 << move
        if self.won or not self.empty & bit:
            raise IllegalMove(f"cell {move} is not a legal move here")
        g = self.g
        tab = self.tab
        me, opp = self.me, self.opp
        mine = me | bit
        empty = self.empty ^ bit
        t = self.t_me
        won = False
        s_me, s_opp = self.s_me, self.s_opp
        weight, priority = tab.weight, tab.priority
        lines, line_cells = g.lines, tab.line_cells
        cellv = self.cellv[:]
        cellv[move] = 0
        for i in tab.through_idx[move]:
            mask = lines[i]
            theirs = (mask & opp).bit_count()
            ours = (mask & me).bit_count()
            if theirs:
                if ours:
                    continue  # already dead for both: nothing changes
                s_opp -= weight[theirs]  # their open line is now blocked
                gain = -priority[theirs]
            else:
                s_me += weight[ours + 1] - weight[ours]
                gain = priority[ours + 1] - priority[ours]
                missing = mask & ~mine
                if not missing & (missing - 1):
                    if missing:
                        t |= missing
                    else:
                        won = True
            for c in line_cells[i]:
                if empty >> c & 1:
                    cellv[c] += gain
        s = object.__new__(HeuristicMNKState)
        s.g = g
        s.tab = tab
        s.beam = self.beam
        s.me = opp
        s.opp = mine
        s.empty = empty
        s.t_me = self.t_opp
        s.t_opp = t
        s.live_me = self.live_opp & ~g.line_bits[move]
        s.live_opp = self.live_me
        s.player = 1 - self.player
        s.n_empty = self.n_empty - 1
        s.won = won
        s.last_move = move
        s.keys = None
        s.near = self.near | tab.neighbours[move]
        s.s_me = s_opp
        s.s_opp = s_me
        s.cellv = cellv
        return s

    def candidates(self) -> list[int]:
        """Empty cells within two of a mark (the centre on an empty board), best first."""
        cand = self.near & self.empty
        if not cand:
            cand = self.empty & (1 << self.tab.centre) or self.empty
        cells = cells_of(cand)
        cells.sort(key=self.cellv.__getitem__, reverse=True)
        return cells

    def ordered_moves(self) -> list[int]:
        """A win; else the block(s); else the best ``beam`` candidates."""
        empty = self.empty
        wins = self.t_me & empty
        if wins:
            return cells_of(wins)
        threats = self.t_opp & empty
        if threats:
            return cells_of(threats)
        return self.candidates()[:self.beam]

    def heuristic(self) -> int:
        """Open lines for the mover minus the opponent's; the mover's count double.

        Double because the mover plays next: its best line grows before the
        opponent can answer it.
        """
        return 2 * self.s_me - self.s_opp


def estimate_values(state: TicTacToeState, cancel: threading.Event | None = None,
                    time_limit: float = 1.0) -> dict[int, MoveValue]:
    """Estimated value of every legal move for the player to move (``exact=False``).

    From :func:`estimate_scores`: a score in the win/loss region (a forced
    sequence inside the candidate tree) becomes 'win'/'loss' with its plies;
    otherwise the sign of the estimate beyond a small margin gives 'win'
    (good), 'draw' (even) or 'loss' (bad), with ``plies`` the depth looked
    ahead. Never exact: the candidate tree leaves out far cells, so even a
    found sequence is not a proof. Squares the position's symmetries map onto
    each other get equal values.
    """
    from engine.model.values import MoveValue

    out: dict[int, MoveValue] = {}
    for m, (score, depth) in estimate_scores(state, cancel, time_limit).items():
        plies = mate_plies(score)
        out[m] = MoveValue(score_outcome(score), depth if plies is None else plies, False)
    return out


def estimate_scores(state: TicTacToeState, cancel: threading.Event | None = None,
                    time_limit: float = 1.0) -> dict[int, tuple[int, int]]:
    """(score, depth searched) of every legal move for the player to move.

    Candidates get iterative-deepening scores (a full window per move, from the
    deepest completed depth); other cells a one-ply static score. The search
    breaks ties between equal cells by their order, so two mirror-image
    squares can come out differently (one searched deeper, or cut from the
    candidates): each set of squares the position's symmetries map onto each
    other takes the deepest-searched (then best) score among them.
    """
    hs = HeuristicMNKState.from_rules(state)
    legal = hs.legal_moves()
    if not legal:
        return {}
    nm = Negamax(remoteness=True, cancel=cancel, time_limit=time_limit, poll_interval=64)
    cand = hs.candidates()[:ROOT_WIDTH]
    for m in hs.ordered_moves():
        if m not in cand:
            cand.insert(0, m)
    # A static score for every cell first, so a timeout still leaves a full map.
    scores: dict[int, tuple[int, int]] = {}
    try:
        for m in legal:
            scores[m] = (nm.move_scores(hs, depth=1, moves=[m])[m], 1)
        result = nm.iterative_deepening(hs, max_depth=hs.n_empty, moves=cand, all_values=True)
        scores.update({m: (s, result.depth) for m, s in result.values.items()})
    except SearchTimeout:
        pass
    return _symmetric(state, scores)


def _symmetric(state: TicTacToeState,
               scores: dict[int, tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """``scores`` with every orbit of squares under the position's symmetries given the
    deepest (then best) score found for any of its squares."""
    out = dict(scores)
    for orbit in symmetric_orbits(state):
        known = [scores[c] for c in orbit if c in scores]
        if len(orbit) < 2 or not known:
            continue
        score, depth = max(known, key=lambda sd: (sd[1], sd[0]))
        for c in orbit:
            if c in out:
                out[c] = (score, depth)
    return out


def symmetric_orbits(state: TicTacToeState) -> list[tuple[int, ...]]:
    """The empty squares grouped into sets the position's symmetries (the board's
    reflections and rotations that leave every mark where a mark of the same player
    is) map onto each other; a square no symmetry moves is a set of its own."""
    from games.tictactoe.bitboard import layout, to_bits

    cfg = state.config
    lay = layout(cfg.rows, cfg.cols, cfg.k)
    cells = cfg.rows * cfg.cols
    marks = to_bits(state)
    keep = [perm for perm in lay.symmetries
            if all(lay.permute(bits, perm) == bits for bits in marks)]
    seen: set[int] = set()
    orbits: list[tuple[int, ...]] = []
    for c in range(cells):
        if c in seen or state.board[c] != EMPTY:
            continue
        orbit = tuple(sorted({perm[c] for perm in keep} | {c}))
        seen.update(orbit)
        orbits.append(orbit)
    return orbits


class HardSearchAgent:
    """Timed alpha-beta with a threat-aware evaluation (the Hard level beyond 3×3);
    threat-space search first on gomoku-sized boards.

    ``max_nodes``: the budget of work per move, in nodes searched (the levels: the same
    seed gives the same moves on any machine, however fast or busy); its shares go to
    the steps of the gomoku search as its seconds would. ``time_budget`` seconds per move
    is then only a safety cap; without ``max_nodes`` it is the budget (a little is kept
    back for the answer to arrive in time). ``seed`` makes ties between equal candidates
    repeatable; ``alpha_beta_only`` plays the alpha-beta on every board (the previous
    Hard, a reference level). ``think_floor``: the shortest think time the game shows
    (the scene waits that long for a quicker answer).
    """

    name = "hard"

    def __init__(self, time_budget: float = 0.25, seed: int | None = None,
                 max_nodes: int | None = None, alpha_beta_only: bool = False,
                 margin: int = NEAR_BEST, max_depth: int | None = None,
                 think_floor: float = 0.0) -> None:
        self.time_budget = time_budget
        self.think_floor = think_floor
        # The alpha-beta looks at most this many plies ahead (a lower rung of the ladder).
        self.max_depth = max_depth
        # The alpha-beta chooses at random among moves within this of the best score.
        self.margin = margin
        # The budget of work; the time is then only a cap (the same move on any machine).
        self.max_nodes = max_nodes
        # The alpha-beta alone on every board: Hard as it was before the threat-space
        # search, kept as the reference level that bench_gomoku.py measures against.
        self.alpha_beta_only = alpha_beta_only
        self._rng = random.Random(seed)
        self.last_depth = 0
        self.nodes = 0
        self.last_reason = ""
        self._pressing = False

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """Win now, block now, else the best move the timed search finds."""
        if cancel.is_set():
            raise Cancelled
        if not isinstance(state, TicTacToeState) or state.num_players != 2:
            raise ValueError("HardSearchAgent plays two-player tic-tac-toe states")
        if state.is_terminal():
            raise ValueError("no legal move: the game is over")
        start = time.monotonic()
        opening = opening_cells(state)
        if opening:
            self.last_depth, self.last_reason = 0, "opening"
            return self._rng.choice(opening)
        if uses_threat_search(state.config) and not self.alpha_beta_only:
            return self._threat_move(state, cancel, start)
        hs = HeuristicMNKState.from_rules(state)
        wins = hs.t_me & hs.empty
        if wins:
            self.last_depth = 0
            return self._rng.choice(cells_of(wins))
        threats = hs.t_opp & hs.empty
        if threats:
            # The only block (with two threats every move loses: block one anyway).
            self.last_depth = 0
            return cells_of(threats)[0]
        cand = hs.candidates()
        # Shuffle before the (stable) sort so equal priorities are broken at random.
        self._rng.shuffle(cand)
        cand.sort(key=hs.cellv.__getitem__, reverse=True)
        cand = cand[:ROOT_WIDTH]
        if len(cand) == 1:
            return cand[0]
        # Keep ~15 % of a timed budget back: the last iteration overruns by up to one poll
        # (a cap behind a node budget is kept whole).
        nm = Negamax(remoteness=True, cancel=cancel, poll_interval=64,
                     deadline=start + self.time_budget * (1 if self.max_nodes else 0.85),
                     max_nodes=self.max_nodes)
        depth = hs.n_empty if self.max_depth is None else min(hs.n_empty, self.max_depth)
        result = nm.iterative_deepening(hs, max_depth=depth, moves=cand, margin=self.margin)
        self.last_depth = result.depth
        self.nodes = nm.nodes
        self.last_reason = "search"
        return self._rng.choice(result.near) if result.near else result.move

    def _threat_move(self, state: TicTacToeState, cancel: threading.Event,
                     start: float) -> int:
        """The gomoku player (:mod:`games.tictactoe.gomoku_search`)."""
        from games.tictactoe.gomoku_board import ThreatBoard
        from games.tictactoe.gomoku_search import GomokuSearch
        from games.tictactoe.gomoku_threats import Limits

        board = ThreatBoard.from_rules(state)
        # Keep ~12 % of a timed budget back: the last poll overruns a little, and the
        # answer still has to reach the game. With a node budget, its shares are nodes.
        in_nodes = self.max_nodes is not None
        seconds = self.time_budget * (1 if in_nodes else 0.88)
        budget = float(self.max_nodes) if self.max_nodes is not None else seconds
        limits = Limits(start + seconds, self.max_nodes, cancel)
        # After a move of a VCT, its continuation gets time first (GomokuSearch); a
        # forced block in between does not end the attack.
        pressing = self.last_reason == "vct" or (self.last_reason == "block" and self._pressing)
        self._pressing = pressing
        report = GomokuSearch(board, limits, budget, self._rng, pressing=pressing,
                              in_nodes=in_nodes).choose()
        self.last_depth = report.depth
        self.nodes = report.nodes
        self.last_reason = report.reason
        return report.move


def opening_cells(state: TicTacToeState) -> list[int]:
    """On a board of at least 5×5 with no mark yet, the cells within one step of the centre;
    with only the opponent's first mark, the empty cells next to it. All about as good as
    each other, so games vary from their first moves; elsewhere none."""
    cfg = state.config
    marks = [i for i, cell in enumerate(state.board) if cell != EMPTY]
    if len(marks) > 1 or min(cfg.rows, cfg.cols) < 5:
        return []
    if marks:
        r0, c0 = divmod(marks[0], cfg.cols)
        return [r * cfg.cols + c for r in range(max(0, r0 - 1), min(cfg.rows, r0 + 2))
                for c in range(max(0, c0 - 1), min(cfg.cols, c0 + 2)) if (r, c) != (r0, c0)]

    def middle(n: int) -> range:  # the centre line, or the two central, and their neighbours
        return range(n // 2 - 1, n // 2 + 2) if n % 2 else range(n // 2 - 2, n // 2 + 2)

    return [r * cfg.cols + c for r in middle(cfg.rows) for c in middle(cfg.cols)]


def uses_threat_search(config: MNKConfig) -> bool:
    """Whether Hard plays ``config`` with threat-space search (gomoku-sized boards):
    five or more in a row, or boards over 49 cells. Smaller boards keep the
    alpha-beta with the solver's draw bounds, which can see them through."""
    return config.k >= 5 or config.rows * config.cols > 49


def score_outcome(score: int, margin: int = 50) -> str:
    """'win' / 'draw' / 'loss' for an estimated score (the hint's good / even / bad)."""
    if score >= MATE_MIN or score > margin:
        return "win"
    if score <= -MATE_MIN or score < -margin:
        return "loss"
    return "draw"


def mate_plies(score: int) -> int | None:
    """Plies to the end for a win/loss score, None for an estimate."""
    if abs(score) >= MATE_MIN:
        return WIN - abs(score)
    return None
