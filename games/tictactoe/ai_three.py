"""The computer player for three-player 4×4 tic-tac-toe (SPEC §4, seed 000).

Players 1, 2, 3 (indices 0, 1, 2) move in turn; any three in a row wins; a
full board is a draw. In code: ``MNKConfig(4, 4, 3, players=3)``.

Every level first applies the two rules a three-player game cannot do
without, so no level ever misses them:

1. **Win** when a move completes a line.
2. **Block the next player** (the one who moves right after me) when they
   have a cell that would complete their line: they move before anyone else
   can stop them. If they have several such cells, only one can be blocked;
   the level's own method picks which.

Medium and above then also block the *other* opponent (who moves third) when
only they threaten: the next player may well not do it for me.

Otherwise the levels differ:

* ``easy``: a random legal move (EasyAgent's behaviour);
* ``medium``: SPEC §2's weight grid, for three players (MediumAgent's);
* ``hard``: a max^n search (:mod:`engine.ai.maxn`) to a few plies within
  ``time_budget`` seconds, with an evaluation that knows who moves next;
* ``perfect``: the same search with three times the budget and no depth cap
  (a three-player game has no single "perfect" answer, so this is simply the
  strongest setting).

No pygame here.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from functools import lru_cache

from engine.ai.agent import Cancelled
from engine.ai.maxn import MaxnSearch
from engine.model.rules import GameState, Move
from games.tictactoe.ai_simple import (
    best_weighted_cells,
    line_windows,
    weight_grid,
    winning_moves,
)
from games.tictactoe.levels import THREE_DEPTH, THREE_PERFECT_TIMES
from games.tictactoe.rules import EMPTY, MNKConfig, TicTacToeState

__all__ = ["LEVELS", "THREE_PLAYER_4X4", "ThreePlayerAgent", "evaluate", "forced_moves"]

THREE_PLAYER_4X4 = MNKConfig(4, 4, 3, players=3)
LEVELS = ("easy", "medium", "hard", "perfect")

# Evaluation weights: a line held by one player alone is worth LINE_WEIGHT[marks].
LINE_WEIGHT = (0.0, 1.0, 5.0)
# Leaf values for outcomes the evaluation can already see (kept below a real
# win's 1.0 so that an actual win found by the search always ranks higher).
SEEN_WIN = 0.9
# Heuristic values are 1.2 · (share − 1/n): in [−0.4, 0.8] for three players.
SHARE_SCALE = 1.2


def forced_moves(state: TicTacToeState, *, block_third: bool = True) -> tuple[list[int], str]:
    """The moves rules 1–2 (and the third player's block) leave, and why.

    Returns ``(cells, reason)``: the winning cells (``"win"``); else the next
    player's winning cells (``"block next"``); else, with ``block_third``, the
    winning cells of the player after them (``"block third"``); else all legal
    moves (``"free"``).
    """
    me = state.to_move
    n = state.num_players
    wins = winning_moves(state)
    if wins:
        return wins, "win"
    nxt = (me + 1) % n
    blocks = winning_moves(state, nxt)
    if blocks:
        return blocks, "block next"
    if block_third and n >= 3:
        third = winning_moves(state, (me + 2) % n)
        if third:
            return third, "block third"
    return state.legal_moves(), "free"


@lru_cache(maxsize=16)
def _lines(config: MNKConfig) -> tuple[tuple[int, ...], ...]:
    return tuple(line_windows(config.rows, config.cols, config.k))


def evaluate(state: GameState) -> tuple[float, ...]:
    """One value per player for a non-terminal position, each in [−1, 1], summing to ≤ 0.

    Sees the next ply's sure outcomes first: if the player to move can
    complete a line, they win; if not and the next player has two or more
    winning cells, the mover can block only one, so the next player wins.
    Otherwise each player's share of "live line" strength (lines held by them
    alone, a two-mark line worth five one-mark lines) decides.
    """
    assert isinstance(state, TicTacToeState)
    n = state.num_players
    board = state.board
    me = state.to_move
    strength = [0.0] * n
    win_cells: list[set[int]] = [set() for _ in range(n)]
    k = state.config.k
    for line in _lines(state.config):
        owner = EMPTY
        marks = 0
        for cell in line:
            v = board[cell]
            if v == EMPTY:
                continue
            if owner not in (EMPTY, v):
                owner = -2  # two players' marks: dead line
                break
            owner = v
            marks += 1
        if owner < 0:
            continue
        if marks == k - 1:
            win_cells[owner].update(c for c in line if board[c] == EMPTY)
        strength[owner] += LINE_WEIGHT[min(marks, len(LINE_WEIGHT) - 1)]
    if win_cells[me]:
        return _win_vector(me, n, SEEN_WIN)
    nxt = (me + 1) % n
    if len(win_cells[nxt]) >= 2:
        return _win_vector(nxt, n, SEEN_WIN)
    total = sum(strength) + n
    return tuple(SHARE_SCALE * ((s + 1.0) / total - 1.0 / n) for s in strength)


def _win_vector(winner: int, n: int, size: float) -> tuple[float, ...]:
    return tuple(size if p == winner else -size for p in range(n))


class ThreePlayerAgent:
    """Computer player for three-player tic-tac-toe at ``level`` (see the module docstring).

    Built for the 4×4 board of SPEC §4, it works on any m×n×k board with two
    or three players. ``time_budget`` is the hard level's thinking time in
    seconds; with ``max_nodes`` (nodes searched per move: the same moves on any machine)
    that is the budget of work and the time only a safety cap. Perfect gets three times
    either.
    """

    def __init__(self, level: str = "hard", seed: int | None = None,
                 time_budget: float = 0.3, max_nodes: int | None = None,
                 think_floor: float = 0.0) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        if time_budget <= 0:
            raise ValueError("time_budget must be positive")
        self.level = level
        self.name = level
        self.time_budget = time_budget
        self.max_nodes = max_nodes
        self.think_floor = think_floor
        self._rng = random.Random(seed)
        self.last_reason = ""

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """Win, else block the next player, else the level's own choice."""
        if cancel.is_set():
            raise Cancelled
        if not isinstance(state, TicTacToeState):
            raise ValueError("ThreePlayerAgent plays tic-tac-toe states only")
        if state.is_terminal():
            raise ValueError("no legal move: the game is over")
        cells, reason = forced_moves(state, block_third=self.level != "easy")
        self.last_reason = reason
        if len(cells) == 1:
            return cells[0]
        if reason == "win" or self.level == "easy":
            return self._rng.choice(cells)
        if self.level == "medium":
            return self._best_by_weight(state, cells)
        return self._search(state, cells, cancel)

    def _best_by_weight(self, state: TicTacToeState, cells: Sequence[int]) -> int:
        """A random choice among the heaviest of ``cells`` in the weight grid."""
        if len(cells) == len(state.legal_moves()):
            return self._rng.choice(best_weighted_cells(state))
        flat = [w for row in weight_grid(state) for w in row]
        top = max(flat[c] for c in cells)
        return self._rng.choice([c for c in cells if flat[c] == top])

    def _search(self, state: TicTacToeState, cells: Sequence[int],
                cancel: threading.Event) -> Move:
        """Max^n over ``cells`` at the root; equal values go to the heavier cell."""
        flat = [w for row in weight_grid(state) for w in row]
        order = list(cells)
        self._rng.shuffle(order)  # random among equals…
        order.sort(key=lambda c: -flat[c])  # …after the weight grid's preference
        perfect = self.level == "perfect"
        search = MaxnSearch(
            evaluate,
            max_depth=len(state.legal_moves()) if perfect else THREE_DEPTH,
            time_budget=self.time_budget * (THREE_PERFECT_TIMES if perfect else 1),
            max_nodes=(None if self.max_nodes is None
                       else self.max_nodes * (THREE_PERFECT_TIMES if perfect else 1)),
            # returns(): a win is (1, −1, −1), a draw all 0; evaluate stays inside too.
            min_value=-1.0, max_sum=0.0, discount=0.01)
        result = search.search(state, cancel, root_moves=order)
        return result.move
