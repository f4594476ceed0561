"""Simple tic-tac-toe players for any board size: Easy, Medium and a mistake wrapper.

* :class:`EasyAgent` plays at random but never misses a win in one move.
* :class:`MediumAgent` plays the weight-grid heuristic of SPEC §2 (seed 003,
  the English blog post): the highest-weighted cell, ties broken at random.
* :class:`MistakeAgent` wraps any agent and, with a set probability, plays a
  random legal move instead: seed 001's wish for a computer that "makes a
  mistake now and then, so that people can beat it".

No pygame here: these run on the AI runner's worker thread and in tests.
"""

from __future__ import annotations

import random
import threading

from engine.ai.agent import EasyAgent as GenericEasyAgent
from engine.ai.agent import checked_moves
from engine.model.rules import GameState, Move
from games.tictactoe.rules import EMPTY, TicTacToeState

__all__ = [
    "EasyAgent",
    "MediumAgent",
    "best_weighted_cells",
    "line_windows",
    "weight_grid",
    "winning_moves",
]


def line_windows(rows: int, cols: int, k: int) -> list[tuple[int, ...]]:
    """Every row, column and diagonal window of ``k`` cells, as cell indices.

    Windows are listed once each even when ``k`` is 1 (where all four
    directions would otherwise give the same single cell).
    """
    seen: set[tuple[int, ...]] = set()
    windows: list[tuple[int, ...]] = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if not (0 <= end_r < rows and 0 <= end_c < cols):
                    continue
                window = tuple((r + dr * i) * cols + c + dc * i for i in range(k))
                key = tuple(sorted(window))
                if key not in seen:
                    seen.add(key)
                    windows.append(window)
    return windows


def weight_grid(state: TicTacToeState) -> list[list[int]]:
    """SPEC §2's weight grid for the player to move, as ``rows`` lists of ``cols`` ints.

    For each line (every row, column and diagonal window of length k), with
    ``w·h`` the number of cells:

    * marks of only one player and more than one empty cell: each empty cell +1
      (a *potential line* cell);
    * exactly one empty cell and every other cell the opponent's: that cell
      +(w·h + 1) (a block);
    * exactly one empty cell and every other cell mine: that cell +(w·h + 1)²
      (a win).

    A line with no marks at all adds nothing (the blog's worked example: its
    empty middle row and right column leave the weights unchanged), and a line
    holding marks of two different players is blocked and adds nothing.

    With three players, "the opponent" is any one other player: a line whose
    other cells all belong to one single other player is that player's
    completion threat and earns the block weight, whichever of the two it is.
    A line mixing the two other players' marks can be completed by nobody, so
    it is blocked like any mixed line. (Which of two threats to block first is
    a question of turn order, answered by the three-player agent, not here.)

    Why the weights are safe: a cell lies on at most w·h lines (at most
    min(k, extent − k + 1) windows per direction), so its block and
    potential-line terms sum to at most w·h·(w·h + 1) < (w·h + 1)², and its
    potential-line terms alone to at most w·h < w·h + 1. Hence win > block >
    any number of potential lines.
    """
    cfg = state.config
    rows, cols = cfg.rows, cfg.cols
    me = state.to_move
    block = rows * cols + 1
    win = block * block
    flat = [0] * (rows * cols)
    if state.winner is None:
        for window in line_windows(rows, cols, cfg.k):
            owners = {state.board[i] for i in window} - {EMPTY}
            if len(owners) != 1:
                continue  # no marks (adds nothing) or blocked (two players' marks)
            empties = [i for i in window if state.board[i] == EMPTY]
            if not empties:
                continue  # a full line (only possible once the game is over)
            if len(empties) > 1:
                for i in empties:
                    flat[i] += 1
            elif owners == {me}:
                flat[empties[0]] += win
            else:
                flat[empties[0]] += block
    return [flat[r * cols:(r + 1) * cols] for r in range(rows)]


def best_weighted_cells(state: TicTacToeState) -> list[int]:
    """The legal cells of highest weight in :func:`weight_grid` (all of them tie)."""
    flat = [w for row in weight_grid(state) for w in row]
    moves = state.legal_moves()
    if not moves:
        return []
    top = max(flat[m] for m in moves)
    return [m for m in moves if flat[m] == top]


def winning_moves(state: TicTacToeState, player: int | None = None) -> list[int]:
    """Empty cells where ``player`` (default: the player to move) would complete k in a row.

    For a player other than the one to move this answers "where does that
    player threaten to win?", which is what blocking needs.
    """
    if state.winner is not None:
        return []
    who = state.to_move if player is None else player
    probe = state if who == state.to_move else TicTacToeState(
        state.config, state.board, who, state.last_move, None, (), None)
    return [m for m in probe.legal_moves() if probe.play(m).winner == who]


class EasyAgent(GenericEasyAgent):
    """A random legal move, except that it always takes a win in one move."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, wins=winning_moves)


class MediumAgent:
    """SPEC §2's weight-grid player: the heaviest cell, ties broken at random.

    It wins when it can, blocks when it must, and otherwise takes the cell on
    the most potential lines. A heuristic, not perfect play (it cannot see
    forks coming), which is what a mid-strength opponent should be.
    """

    name = "medium"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """A random choice among the highest-weighted legal cells."""
        checked_moves(state, cancel)
        assert isinstance(state, TicTacToeState)
        return self._rng.choice(best_weighted_cells(state))
