"""Exact expected scores between two computer players of a small game (classic 3×3
tic-tac-toe), by walking every game they can play.

Each player's move is the distribution its own code draws from: every player of the
ladder picks uniformly at random among the moves its rule allows (``rng.choice``), so a
player is read as that rule, with the real player's own parts (a blend's share, the
reflex's win and block lists, Perfect's proven values and traps). The score of ``a``
against ``b`` is then a weighted sum over every complete game, with no sampling error,
where the benchmark's 200 games have about ±6 points. A player this module cannot read
raises TypeError rather than being guessed.

Used by tests/games/tictactoe/test_ladder_3x3_exact.py and by
tests/benchmarks/bench_ladder.py (its ``exact`` table).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable
from typing import Any

from engine.ai.agent import BlendAgent, RandomAgent
from engine.ai.agent import EasyAgent as GenericEasyAgent
from engine.ai.ladder import ReflexAgent
from engine.ai.perfect import PerfectAgent as GenericPerfectAgent
from engine.model.rules import GameState, Move

__all__ = ["expected_score", "move_distribution"]

_NO_CANCEL = threading.Event()
Distribution = dict[Move, float]


def _uniform(moves: list[Move]) -> Distribution:
    return {move: 1 / len(moves) for move in moves}


def move_distribution(agent: Any, state: GameState) -> Distribution:
    """The probability of each move ``agent`` may play in ``state``, read from its parts."""
    from games.tictactoe.ai_rules3 import RuleAgent, rule_candidates
    from games.tictactoe.ai_simple import MediumAgent, best_weighted_cells

    if isinstance(agent, ReflexAgent):
        for found in (agent._wins, agent._blocks):
            moves = list(found(state))
            if moves:
                return _uniform(moves)
        return move_distribution(agent.inner, state)
    if isinstance(agent, BlendAgent):  # a blended rung, or a mistake rate
        mixed = {move: p * (1 - agent.share)
                 for move, p in move_distribution(agent.strong, state).items()}
        for move, p in move_distribution(agent.weak, state).items():
            mixed[move] = mixed.get(move, 0.0) + p * agent.share
        return mixed
    if isinstance(agent, RandomAgent):
        return _uniform(list(state.legal_moves()))
    if isinstance(agent, GenericEasyAgent):
        return _uniform(list(agent._wins(state)) or list(state.legal_moves()))
    if isinstance(agent, MediumAgent):
        return _uniform(best_weighted_cells(state))  # type: ignore[arg-type]
    if isinstance(agent, RuleAgent):
        return _uniform(rule_candidates(state)[0])  # type: ignore[arg-type]
    if isinstance(agent, GenericPerfectAgent):
        deadline = time.monotonic() + 60  # 3×3 is solved at once; never binds
        values = agent._values(state, _NO_CANCEL, deadline)
        if len(values) < len(state.legal_moves()):
            raise TypeError("Perfect did not prove every move here: not an exact player")
        return _uniform(agent.choices(state, values, _NO_CANCEL, deadline))
    raise TypeError(f"cannot read the moves of {type(agent).__name__}")


def expected_score(start: GameState, a: Any, b: Any,
                   key: Any = lambda state: state) -> tuple[float, float, float]:
    """``a``'s exact expected score against ``b`` from ``start`` (win 1, draw ½, loss 0):
    ``(average, a moving first, a moving second)``, the average over both seats as the
    benchmark alternates them. ``key(state)`` must identify a position (hashable)."""
    memo: dict[tuple[Hashable, bool], float] = {}
    moves: dict[tuple[int, Hashable], Distribution] = {}

    def distribution(agent: Any, state: GameState) -> Distribution:
        found = moves.get((id(agent), key(state)))
        if found is None:
            found = moves[(id(agent), key(state))] = move_distribution(agent, state)
        return found

    def value(state: GameState, a_first: bool) -> float:
        if state.is_terminal():
            result = state.returns()[0 if a_first else 1]
            return 1.0 if result > 0 else 0.0 if result < 0 else 0.5
        slot = (key(state), a_first)
        if slot not in memo:
            a_moves = (state.current_player() == 0) == a_first
            memo[slot] = sum(p * value(state.play(move), a_first) for move, p in
                             distribution(a if a_moves else b, state).items())
        return memo[slot]

    first, second = value(start, True), value(start, False)
    return (first + second) / 2, first, second
