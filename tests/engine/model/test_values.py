"""The move-value model (engine.model.values), its overlay, and the generic perfect player."""

from __future__ import annotations

import threading

import pytest

from engine.ai.negamax import SearchTimeout
from engine.ai.perfect import PerfectAgent
from engine.model.values import Infinite, MoveValue, all_exact, best_moves, ranked

NO_CANCEL = threading.Event()


def test_labels_say_outcome_distance_and_estimates() -> None:
    assert MoveValue("win", 3).label() == "W3"
    assert MoveValue("loss", 4).label() == "L4"
    assert MoveValue("draw", 9).label() == "D"
    assert MoveValue("win").label() == "W"  # proven, distance not worked out
    assert MoveValue("win", 5, exact=False).label() == "~W"
    assert MoveValue("draw", exact=False).label() == "~D"
    assert MoveValue("unknown", exact=False).label() == "?"
    assert MoveValue.from_sign(-7, 2) == MoveValue("loss", 2)
    assert MoveValue("loss", nimber=Infinite({0, 2})).nimber == Infinite({2, 0})
    assert MoveValue("win", nimber=0).nimber == 0
    for bad in (-1, True, 1.5, "∞"):
        with pytest.raises(ValueError):
            MoveValue("win", nimber=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Infinite({-1})
    with pytest.raises(ValueError):
        MoveValue("victory")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        MoveValue("win", -1)


def test_rank_orders_every_kind_of_value() -> None:
    order = [MoveValue("win", 1), MoveValue("win", 5), MoveValue("win"),
             MoveValue("win", 1, exact=False), MoveValue("draw"),
             MoveValue("draw", exact=False), MoveValue("unknown", exact=False),
             MoveValue("loss", 2, exact=False), MoveValue("loss"), MoveValue("loss", 9),
             MoveValue("loss", 1)]
    ranks = [v.rank() for v in order]
    # Proven wins first (quickest first; an unknown distance last among them), then
    # estimated wins, draws, unknowns, estimated losses, proven losses (longest first;
    # an unknown distance counts as the longest).
    assert ranks == sorted(ranks, reverse=True)
    assert len(set(ranks)) == len(ranks)
    values = {i: v for i, v in enumerate(reversed(order))}
    assert [v for _, v in ranked(values)] == order
    assert best_moves({"a": MoveValue("draw"), "b": MoveValue("win", 3),
                       "c": MoveValue("win", 3)}) == ["b", "c"]
    assert best_moves({}) == []
    assert all_exact({1: MoveValue("win")}) and not all_exact({1: MoveValue("win", exact=False)})


class _Line:
    """A tiny game for the agent: a state is a number; moves are what the table says."""

    num_players = 2

    def __init__(self, n: int) -> None:
        self.n = n

    def is_terminal(self) -> bool:
        return self.n == 0

    def legal_moves(self) -> list[int]:
        return [1, 2, 3]


class _Fallback:
    name = "fallback"

    def __init__(self) -> None:
        self.asked = 0

    def choose_move(self, state: _Line, cancel: threading.Event) -> int:
        self.asked += 1
        return 3


def test_perfect_agent_picks_among_the_best_at_random_with_its_seed() -> None:
    table = {1: MoveValue("win", 5), 2: MoveValue("win", 1), 3: MoveValue("win", 1)}
    picks = {PerfectAgent(lambda s, c, d: table, _Fallback, seed=seed).choose_move(
        _Line(5), NO_CANCEL) for seed in range(30)}
    assert picks == {2, 3}
    again = {PerfectAgent(lambda s, c, d: table, _Fallback, seed=4).choose_move(
        _Line(5), NO_CANCEL) for _ in range(5)}
    assert len(again) == 1


def test_perfect_agent_with_traps_leaves_the_opponent_the_most_losing_replies() -> None:
    """With ``traps``, among equally good moves that do not win, only those after which the
    opponent has the most replies proven to lose; never a worse move for it; not where the
    best moves win (the quickest win is taken), nor where a reply is not proven in time."""
    class Tree(_Line):  # a position is the moves played so far
        def __init__(self, path: tuple[int, ...] = ()) -> None:
            super().__init__(5 - len(path))
            self.path = path

        def play(self, move: int) -> Tree:
            return Tree((*self.path, move))

    # After 1 the opponent has one losing reply, after 2 two, after 3 (a worse move) three.
    losing = {(1,): 1, (2,): 2, (3,): 3}

    def values(state: Tree, cancel: threading.Event, deadline: float | None) -> dict:
        if not state.path:
            return {1: MoveValue("draw"), 2: MoveValue("draw"), 3: MoveValue("loss", 3)}
        bad = losing[state.path]
        return {m: MoveValue("loss", 2) if m <= bad else MoveValue("draw") for m in (1, 2, 3)}

    def picks(table_values: object, traps: bool) -> set[int]:
        return {PerfectAgent(table_values, _Fallback, seed=seed, traps=traps).choose_move(
            Tree(), NO_CANCEL) for seed in range(20)}

    assert picks(values, traps=False) == {1, 2}
    assert picks(values, traps=True) == {2}

    def slow(state: Tree, cancel: threading.Event, deadline: float | None) -> dict:
        if state.path == (2,):
            raise SearchTimeout
        return values(state, cancel, deadline)

    assert picks(slow, traps=True) == {1, 2}  # a reply unproven: at random, as without

    def winning(state: Tree, cancel: threading.Event, deadline: float | None) -> dict:
        return ({1: MoveValue("win", 3), 2: MoveValue("win", 3), 3: MoveValue("draw")}
                if not state.path else values(state, cancel, deadline))

    assert picks(winning, traps=True) == {1, 2}


def test_perfect_agent_defends_where_every_best_move_loses_at_an_unknown_distance() -> None:
    """Where the values say only that every best move loses (no distances: a book of
    outcomes), the ``defence`` chooses among exactly those moves; where a distance, a
    win or a draw tells the best apart, it is never asked."""
    asked: list[tuple[int, list]] = []

    def defence(state: _Line, moves: list, cancel: threading.Event) -> int:
        asked.append((state.n, list(moves)))
        return moves[-1]

    def agent(table: dict) -> PerfectAgent:
        return PerfectAgent(lambda s, c, d: table, _Fallback, seed=1, defence=defence)

    unknown = {1: MoveValue("loss"), 2: MoveValue("loss"), 3: MoveValue("loss", 4)}
    assert agent(unknown).choose_move(_Line(5), NO_CANCEL) == 2
    assert asked == [(5, [1, 2])]  # the unknown distances rank as the longest defence
    for table in ({1: MoveValue("loss", 6), 2: MoveValue("loss", 6)},  # distances known
                  {1: MoveValue("win"), 2: MoveValue("win")},
                  {1: MoveValue("draw"), 2: MoveValue("loss")},
                  {1: MoveValue("loss")}):  # one move: nothing to choose
        asked.clear()
        assert agent(table).choose_move(_Line(5), NO_CANCEL) in table
        assert asked == []


def test_perfect_agent_falls_back_with_a_note_and_remembers_the_size() -> None:
    calls = []

    def values(state: _Line, cancel: threading.Event, deadline: float | None) -> dict:
        calls.append(state.n)
        if state.n >= 10:
            raise SearchTimeout
        return {1: MoveValue("draw"), 2: MoveValue("loss", 2)}

    fallback = _Fallback()
    agent = PerfectAgent(values, fallback, time_budget=0.5, fallback_label="Hard",
                         remaining=lambda s: s.n)
    assert agent.choose_move(_Line(10), NO_CANCEL) == 3
    assert agent.last_note and "too large to solve in 0.5 s" in agent.last_note
    assert "Hard" in agent.last_note and fallback.asked == 1
    # A bigger position goes straight to the fallback: no second search.
    assert agent.choose_move(_Line(12), NO_CANCEL) == 3 and calls == [10]
    # A smaller one is searched, and the note goes away.
    assert agent.choose_move(_Line(4), NO_CANCEL) == 1
    assert agent.last_note is None and calls == [10, 4]
    cancel = threading.Event()
    cancel.set()
    from engine.ai.agent import Cancelled

    with pytest.raises(Cancelled):
        agent.choose_move(_Line(4), cancel)
    with pytest.raises(ValueError):
        agent.choose_move(_Line(0), NO_CANCEL)
