"""The generic breadth-first puzzle solver (engine.ai.bfs): shortest, bounded, cancellable."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

import numpy as np
import pytest

from engine.ai.agent import Cancelled
from engine.ai.bfs import SearchLimit, bfs_solve
from engine.model.rules import GameState, IllegalMove


@dataclass(frozen=True)
class Counter:
    """A sliding counter on 0..top: add 1, take 1 or add 3; solved on ``goal``."""

    value: int
    goal: int = 5
    top: int = 10
    steps: tuple[int, ...] = (1, -1, 3)

    @property
    def num_players(self) -> int:
        return 1

    def current_player(self) -> int:
        return 0

    def legal_moves(self) -> list[int]:
        return [s for s in self.steps if 0 <= self.value + s <= self.top]

    def play(self, move: int) -> Counter:
        if move not in self.legal_moves():
            raise IllegalMove(move)
        return Counter(self.value + move, self.goal, self.top, self.steps)

    def is_terminal(self) -> bool:
        return self.value == self.goal

    def returns(self) -> tuple[float, ...]:
        return (1.0 if self.is_terminal() else 0.0,)


def test_counter_is_a_one_player_game_state() -> None:
    assert isinstance(Counter(0), GameState)


def test_shortest_path_on_the_counter_worked_out_by_hand() -> None:
    # From 0 to 5 with +1, -1, +3: no two steps reach 5 (sums 2, 0, 4, 6), three do. Level
    # by level in move order the first goal met is 0 -> 1 -> 2 -> 5.
    assert bfs_solve(Counter(0)) == [1, 1, 3]
    assert bfs_solve(Counter(4)) == [1]
    assert bfs_solve(Counter(8)) == [-1, -1, -1]
    assert bfs_solve(Counter(5)) == []  # already solved: nothing to do
    # Only +3 from 0 on 0..10: 0, 3, 6, 9 and never 5.
    assert bfs_solve(Counter(0, steps=(3,))) is None


def test_every_counter_start_gets_a_shortest_path() -> None:
    # Distances by hand-checkable dynamic programming over the 11 values.
    for goal in range(11):
        for start in range(11):
            path = bfs_solve(Counter(start, goal))
            assert path is not None
            state = Counter(start, goal)
            for move in path:
                state = state.play(move)
            assert state.is_terminal()
            # Fewer moves than the path found never reach the goal.
            frontier = {start}
            for _ in range(len(path) - 1):
                frontier = {v + s for v in frontier for s in (1, -1, 3) if 0 <= v + s <= 10}
                assert goal not in frontier, (start, goal)


def test_hooks_replace_the_game_state_interface() -> None:
    # Plain ints with a move table: the same search as through Counter.
    path = bfs_solve(0, moves=lambda v: [s for s in (1, -1, 3) if 0 <= v + s <= 10],
                     play=lambda v, s: v + s, is_goal=lambda v: v == 5)
    assert path == [1, 1, 3]
    table = {v: [(s, v + s) for s in (1, -1, 3) if 0 <= v + s <= 10] for v in range(11)}
    assert bfs_solve(0, successors=table.__getitem__, is_goal=lambda v: v == 5) == [1, 1, 3]
    # Unhashable positions (lists) searched by a key.
    assert bfs_solve([0], moves=lambda v: [s for s in (1, -1, 3) if 0 <= v[0] + s <= 10],
                     play=lambda v, s: [v[0] + s], is_goal=lambda v: v == [5],
                     key=tuple) == [1, 1, 3]
    # The key decides what counts as seen: with every position keyed alike, every
    # neighbour of the start counts as the start itself, and the search ends there.
    assert bfs_solve(Counter(0, goal=8), key=lambda c: 0) is None


def test_the_state_cap_raises_a_clear_error() -> None:
    unbounded = Counter(0, goal=-1, top=10**9)
    with pytest.raises(SearchLimit, match="gave up after 100 positions"):
        bfs_solve(unbounded, max_states=100)
    # Reaching the goal within the cap is fine; an exhausted small space is None.
    assert bfs_solve(Counter(0, goal=10), max_states=11) is not None
    assert bfs_solve(Counter(0, steps=(3,)), max_states=4) is None
    with pytest.raises(ValueError):
        bfs_solve(Counter(0), max_states=0)


def test_cancel_stops_the_search() -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        bfs_solve(Counter(0, goal=-1, top=10**9), cancel=cancel, max_states=10**6)
    # Not set: the search runs to its answer.
    assert bfs_solve(Counter(0), cancel=threading.Event()) == [1, 1, 3]


# --- on Button Madness 4×4, against the source's oracle and the GF(2) solver -------------------


@pytest.fixture(scope="module")
def distances() -> np.ndarray:
    from games.buttons.solver import bfs_distances_4x4

    return bfs_distances_4x4()


@pytest.mark.slow
def test_button_madness_boards_through_the_game_state_interface(distances: np.ndarray) -> None:
    """Board is a one-player GameState: the default hooks search it. Near boards only (a
    board 16 presses away takes ~10 s this way; the table-driven search below is fast)."""
    from games.buttons.board import Board
    from games.buttons.solver import solve

    rng = random.Random(4)
    for distance in range(7):
        codes = np.flatnonzero(distances == distance)
        for code in rng.sample(codes.tolist(), min(3, len(codes))):
            board = Board(4, code)
            path = bfs_solve(board)
            assert path is not None and len(path) == distance
            assert board.apply(path).is_solved
            fewest = solve(board)
            assert fewest.minimal and len(fewest.presses) == distance
            # 4 is a good size: one solution set, so a shortest path presses exactly it.
            assert sorted(path) == list(fewest.presses)


@pytest.mark.slow
def test_button_madness_bfs_finds_the_minimum_near_to_farthest(distances: np.ndarray) -> None:
    """solver.bfs_solve_4x4 (the source's method on the generic search), near to farthest."""
    from games.buttons.board import Board
    from games.buttons.solver import bfs_solve_4x4, solve

    rng = random.Random(5)
    assert distances.max() == 16
    for distance in (0, 1, 4, 8, 12, 16):
        code = int(rng.choice(np.flatnonzero(distances == distance).tolist()))
        board = Board(4, code)
        path = bfs_solve_4x4(board)
        assert len(path) == distance == len(solve(board).presses)
        assert board.apply(path).is_solved
