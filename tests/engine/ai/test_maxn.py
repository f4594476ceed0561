"""Max^n search on tiny three-player games defined here."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import pytest

from engine.ai.agent import Cancelled
from engine.ai.maxn import MaxnSearch
from engine.model.rules import GameState

# --- a three-player game tree with payoffs at the leaves -----------------------------
# Player len(path) % 3 moves. Payoffs are ≥ 0 and sum to ≤ 10, so shallow pruning
# may use min_value=0, max_sum=10.
TREE: dict[str, list[str] | tuple[float, float, float]] = {
    "": ["a", "b"],
    "a": ["a1", "a2"],
    "a1": ["a1x", "a1y"], "a1x": (7, 2, 1), "a1y": (6, 1, 0),
    "a2": ["a2x", "a2y"], "a2x": (1, 1, 8), "a2y": (0, 0, 0),
    "b": ["b1", "b2", "b3"],
    "b1": ["b1x", "b1y"], "b1x": (2, 5, 3), "b1y": (1, 1, 1),
    "b2": ["b2x", "b2y"], "b2x": (9, 0, 1), "b2y": (0, 5, 5),
    "b3": ["b3x", "b3y"], "b3x": (8, 1, 1), "b3y": (3, 3, 3),
}
# What a depth-limited search sees at its horizon.
ESTIMATE = {"a": (3, 3, 3), "b": (6, 2, 2), "a1": (1, 8, 1), "a2": (5, 0, 5),
            "b1": (4, 4, 2), "b2": (2, 2, 6), "b3": (0, 9, 1)}


@dataclass(frozen=True)
class TreeState:
    """A node of TREE as a GameState; moves are child names."""

    path: str = ""

    @property
    def num_players(self) -> int:
        return 3

    def current_player(self) -> int:
        return len(self.path) % 3  # a node's name is as long as its depth

    def legal_moves(self) -> list[str]:
        node = TREE[self.path]
        return list(node) if isinstance(node, list) else []

    def play(self, move: str) -> TreeState:
        assert move in self.legal_moves()
        return TreeState(move)

    def is_terminal(self) -> bool:
        return not isinstance(TREE[self.path], list)

    def returns(self) -> tuple[float, ...]:
        node = TREE[self.path]
        assert isinstance(node, tuple)
        return node


def estimate(state: GameState) -> tuple[float, ...]:
    assert isinstance(state, TreeState)
    return ESTIMATE[state.path]


def test_tree_state_is_a_game_state() -> None:
    assert isinstance(TreeState(), GameState)
    assert [TreeState(p).current_player() for p in ("", "a", "a1", "a1x")] == [0, 1, 2, 0]


@pytest.mark.parametrize("prune", [False, True], ids=["plain", "shallow pruning"])
def test_max_n_values_by_hand(prune: bool) -> None:
    bounds = {"min_value": 0.0, "max_sum": 10.0} if prune else {}
    search = MaxnSearch(estimate, max_depth=3, **bounds)
    # By hand: at a1 player 2 takes (7,2,1) (1 > 0); at a2 (1,1,8). Player 1 at a
    # takes (7,2,1) (2 > 1). At b1 player 2 takes (2,5,3); b2 (0,5,5); b3 (3,3,3);
    # player 1 at b takes (2,5,3) (5, first of the tie with b2). Player 0: a (7 > 2).
    result = search.search(TreeState())
    assert result.move == "a"
    assert result.values == (7, 2, 1)
    assert len(result.values) == 3  # one value per player
    assert result.completed and result.depth == 3
    assert search.values(TreeState("b"), 2) == (2, 5, 3)
    assert search.values(TreeState("a1"), 1) == (7, 2, 1)


def test_shallow_pruning_skips_nodes_and_keeps_the_answer() -> None:
    plain = MaxnSearch(estimate, max_depth=3)
    pruned = MaxnSearch(estimate, max_depth=3, min_value=0.0, max_sum=10.0)
    a = plain.search(TreeState())
    b = pruned.search(TreeState())
    assert (a.move, a.values) == (b.move, b.values)
    assert plain.values(TreeState(), 3) == pruned.values(TreeState(), 3) == (7, 2, 1)
    # One full pass (values) visits all 18 nodes without pruning. With it: once
    # player 1 finds 5 at b1, player 0 can get at most 10 − 5 = 5 < 7 from b:
    # b2 and b3 (and their leaves) are skipped; at a2 player 2's 8 leaves player 1
    # at most 2, no better than a1's, so a2y is skipped too.
    assert plain.nodes == len(TREE)
    assert pruned.nodes == len(TREE) - 7


def test_depth_limit_uses_the_evaluation() -> None:
    # One ply: the estimates say b (6 for player 0) beats a (3).
    result = MaxnSearch(estimate, max_depth=1).search(TreeState())
    assert (result.move, result.values, result.depth) == ("b", (6, 2, 2), 1)
    # Two plies: player 1 picks a1 (8) under a and b3 (9) under b: player 0 gets 1 or 0.
    result = MaxnSearch(estimate, max_depth=2).search(TreeState())
    assert (result.move, result.values) == ("a", (1, 8, 1))


def test_deepening_stops_once_every_line_ends() -> None:
    result = MaxnSearch(estimate, max_depth=50).search(TreeState())
    assert result.depth == 3 and result.completed and result.move == "a"


def test_root_moves_restrict_the_choice() -> None:
    result = MaxnSearch(estimate, max_depth=3).search(TreeState(), root_moves=["b"])
    assert (result.move, result.values) == ("b", (2, 5, 3))


# --- a three-player take-away game: take 1 or 2, whoever takes the last wins ----------


@dataclass(frozen=True)
class Pile:
    """Three players take 1 or 2 tokens in turn; taking the last one wins."""

    tokens: int
    to_move: int = 0
    last: int | None = None

    @property
    def num_players(self) -> int:
        return 3

    def current_player(self) -> int:
        return self.to_move

    def legal_moves(self) -> list[int]:
        return [t for t in (1, 2) if t <= self.tokens]

    def play(self, move: int) -> Pile:
        return Pile(self.tokens - move, (self.to_move + 1) % 3, self.to_move)

    def is_terminal(self) -> bool:
        return self.tokens == 0

    def returns(self) -> tuple[float, ...]:
        return tuple(1.0 if p == self.last else -1.0 for p in range(3))


def neutral(state: GameState) -> tuple[float, ...]:
    return (0.0, 0.0, 0.0)


def test_take_away_outcomes_by_hand() -> None:
    search = MaxnSearch(neutral, max_depth=20)
    # 1 or 2 tokens: the mover takes them all and wins.
    assert search.values(Pile(2), 5) == (1, -1, -1)
    # 3 tokens: whatever player 0 leaves (2 or 1), player 1 takes it all.
    assert search.values(Pile(3), 5) == (-1, 1, -1)
    # 4 tokens: taking 1 leaves player 1 the lost 3-token spot, so player 2 wins;
    # taking 2 lets player 1 win. Player 0 loses either way; the tie keeps the first move.
    result = search.search(Pile(4))
    assert (result.move, result.values) == (1, (-1, -1, 1))


def test_pruning_never_changes_the_answer_on_take_away() -> None:
    for tokens in range(1, 13):
        plain = MaxnSearch(neutral, max_depth=6).search(Pile(tokens))
        pruned = MaxnSearch(neutral, max_depth=6, min_value=-1.0, max_sum=0.0).search(
            Pile(tokens))
        assert (plain.move, plain.values) == (pruned.move, pruned.values), tokens


def test_discount_shrinks_later_outcomes() -> None:
    search = MaxnSearch(neutral, max_depth=5, discount=0.1)
    assert search.values(Pile(1), 3) == pytest.approx((0.9, -0.9, -0.9))
    assert search.values(Pile(3), 3) == pytest.approx((-0.81, 0.81, -0.81))


def test_cancel_before_and_during_the_search() -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        MaxnSearch(neutral).search(Pile(10), cancel)

    cancel = threading.Event()
    calls = 0

    def cancelling(state: GameState) -> tuple[float, ...]:
        nonlocal calls
        calls += 1
        if calls == 20:
            cancel.set()  # as the runner does when the player leaves the scene
        return (0.0, 0.0, 0.0)

    with pytest.raises(Cancelled):
        MaxnSearch(cancelling, max_depth=12, poll_every=1).search(Pile(40), cancel)
    assert 20 <= calls < 25  # it stopped right away, not at the end of the search


def test_time_budget_is_respected() -> None:
    search = MaxnSearch(neutral, max_depth=60, time_budget=0.05)
    start = time.process_time()
    result = search.search(Pile(200))
    assert time.process_time() - start < 1.0
    assert not result.completed and 1 <= result.depth < 60
    assert result.move in (1, 2)


def test_bad_settings_are_rejected() -> None:
    with pytest.raises(ValueError):
        MaxnSearch(neutral, max_depth=0)
    with pytest.raises(ValueError):
        MaxnSearch(neutral, min_value=0.0)
    with pytest.raises(ValueError):
        MaxnSearch(neutral, discount=1.0)
    with pytest.raises(ValueError):
        MaxnSearch(neutral).search(Pile(0))
