"""Issue 33, part 2, on Connect Four: Perfect's choice among equals is what docs/playing.md
says. It takes a win in one and blocks the opponent's win in one before it asks the exact
solver (as every level from Strong up does); otherwise it chooses at random among every
column of the best proven value. The options are read off the agents' own random choices,
the values from the brute-force reference, over random positions of two small boards.
"""

from __future__ import annotations

import random
import threading

import pytest

from engine.ai.ladder import ReflexAgent
from engine.ai.perfect import PerfectAgent
from engine.model.seats import Seat
from games.connect4.agents import make_agent
from games.connect4.rules import Connect4Config, Connect4State
from tests.support.oracles import Options, brute_move_values, random_play

NO_CANCEL = threading.Event()


def completing(state: Connect4State, player: int) -> set[int]:
    """Columns where a disc of ``player`` dropped now would complete k in a row."""
    cfg = state.config
    cols = state.columns
    out = set()
    for col in range(cfg.cols):
        height = len(cols[col])
        if height == cfg.rows:
            continue

        def owner(c: int, h: int, col: int = col, height: int = height) -> int | None:
            if (c, h) == (col, height):
                return player
            return cols[c][h] if 0 <= c < cfg.cols and 0 <= h < len(cols[c]) else None

        for dc, dh in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                c, h = col + sign * dc, height + sign * dh
                while owner(c, h) == player:
                    run += 1
                    c, h = c + sign * dc, h + sign * dh
            if run >= cfg.k:
                out.add(col)
    return out


def rank(value: tuple[int, int]) -> tuple[int, int]:
    outcome, plies = value
    return (outcome, -plies if outcome > 0 else plies if outcome < 0 else 0)


@pytest.mark.slow
def test_perfect_chooses_among_all_best_columns_except_for_the_documented_reflexes() -> None:
    narrowed = checked = 0
    for cfg in (Connect4Config(4, 4, 3), Connect4Config(4, 4, 4)):
        agent = make_agent(cfg, Seat("computer", "perfect"), seed=0)
        assert isinstance(agent, ReflexAgent) and isinstance(agent.inner, PerfectAgent)
        options = Options()
        agent._rng = options  # type: ignore[assignment]
        agent.inner._rng = options  # type: ignore[assignment]
        rng = random.Random(33)
        seen: set[tuple[int, ...]] = set()
        while len(seen) < 150:
            state = random_play(cfg, rng.randint(0, cfg.cols * cfg.rows - 2), rng)
            if state.is_terminal() or state.moves in seen:
                continue
            seen.add(state.moves)
            values = brute_move_values(state)
            top = max(rank(v) for v in values.values())
            best = {m for m, v in values.items() if rank(v) == top}
            me = state.current_player()
            rule = completing(state, me) or completing(state, 1 - me) or best
            options.seen = None
            chosen = agent.choose_move(state, NO_CANCEL)
            assert options.seen is not None and chosen in options.seen
            assert set(options.seen) == rule, (cfg, state.moves)
            assert rule <= best, (cfg, state.moves)  # the reflexes never cost value
            if rule != best:
                narrowed += 1
                assert top == rank((-1, 2)), (cfg, state.moves)  # every move loses in 2
            checked += 1
    assert checked == 300 and narrowed > 0, narrowed
