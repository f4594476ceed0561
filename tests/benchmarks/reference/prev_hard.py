"""The frozen previous Hard player for boards beyond 3×3 (commit 6af6722): a reference level.

This is ``games.tictactoe.hard_search.HardSearchAgent`` as it was at commit 6af6722,
kept so that ``tests/benchmarks/bench_gomoku.py`` can measure the new Hard against it.
It is not offered to players. It searches with frozen copies of the negamax and the
m,n,k search state of that commit (``prev_negamax``, ``prev_search_state``) so that
later changes to those modules do not change this reference.

What it does (the original description): timed alpha-beta with iterative deepening
on :class:`HeuristicMNKState`, an incremental evaluation of open lines (1, 10, 100, …
per mark), cell priorities for move ordering, candidates within two of a mark, and
forced moves first (a win; the only block).
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from functools import lru_cache

from engine.ai.agent import Cancelled
from engine.rules import GameState, IllegalMove, Move
from games.tictactoe.rules import TicTacToeState
from tests.benchmarks.reference.prev_negamax import Negamax
from tests.benchmarks.reference.prev_search_state import (
    Geometry,
    MNKSearchState,
    cells_of,
)

__all__ = ["HardSearchAgent", "HeuristicMNKState", "PreviousHardAgent"]

# Interior nodes search only this many candidates (best priority first);
# the root searches up to ROOT_WIDTH. Forced replies are always kept.
BEAM_WIDTH = 10
ROOT_WIDTH = 24
# Cells this far (in rows and columns) from a mark are candidates.
NEAR = 2


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


class HardSearchAgent:
    """The frozen previous Hard (commit 6af6722): timed threat-aware alpha-beta.

    ``time_budget`` seconds per move (a little is kept back for the answer to
    arrive in time); ``seed`` makes ties between equal candidates repeatable.
    """

    name = "previous hard"

    def __init__(self, time_budget: float = 0.25, seed: int | None = None) -> None:
        self.time_budget = time_budget
        self._rng = random.Random(seed)
        self.last_depth = 0
        self.nodes = 0

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """Win now, block now, else the best move the timed search finds."""
        if cancel.is_set():
            raise Cancelled
        if not isinstance(state, TicTacToeState) or state.num_players != 2:
            raise ValueError("HardSearchAgent plays two-player tic-tac-toe states")
        if state.is_terminal():
            raise ValueError("no legal move: the game is over")
        start = time.monotonic()
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
        # Keep ~15 % of the budget back: the last iteration overruns by up to one poll.
        nm = Negamax(remoteness=True, cancel=cancel,
                     deadline=start + self.time_budget * 0.85, poll_interval=64)
        result = nm.iterative_deepening(hs, max_depth=hs.n_empty, moves=cand)
        self.last_depth = result.depth
        self.nodes = nm.nodes
        return result.move


# The name the benchmark and tests use: the frozen previous Hard.
PreviousHardAgent = HardSearchAgent
