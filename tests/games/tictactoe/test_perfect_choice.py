"""Issue 33, part 2: Perfect's choice among equally good moves is what docs/playing.md says.

Perfect (like every level from Strong up; on 3×3 from Hard up) takes a win in one and
blocks the opponent's win in one before it asks its proven values; otherwise it chooses at
random among every move of the best proven value (outcome and distance), on 3×3 among
those of them that leave the opponent the most losing replies (where they do not win;
issue 32: its traps). A block is never worse than the best
move — every other move loses at once — so the rule costs nothing; its only effect is that
where the opponent threatens two wins (every move loses in 2), Perfect blocks one of them
instead of playing any square. Checked over every position of the 3×3 board, the options
read off the agents' own random choices, the values from an independent minimax.
"""

from __future__ import annotations

import threading

from engine.ai.ladder import ReflexAgent
from engine.ai.perfect import PerfectAgent
from engine.model.seats import Seat
from games.tictactoe.agents import make_agent
from games.tictactoe.rules import CLASSIC, EMPTY, TicTacToeState
from tests.support.oracles import Options, best_and_trapped, every_position, rank

NO_CANCEL = threading.Event()
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
         (2, 4, 6))


def threats(state: TicTacToeState, player: int) -> set[int]:
    """Empty squares that complete a line of ``player``'s, read off the eight lines."""
    board = state.board
    return {cell for line in LINES
            if sum(board[c] == player for c in line) == 2
            for cell in line if board[cell] == EMPTY}


def test_perfect_chooses_among_all_best_moves_except_for_the_documented_reflexes() -> None:
    agent = make_agent(CLASSIC, Seat("computer", "perfect"), seed=0)
    assert isinstance(agent, ReflexAgent) and isinstance(agent.inner, PerfectAgent)
    options = Options()
    agent._rng = options  # type: ignore[assignment]
    agent.inner._rng = options  # type: ignore[assignment]
    positions = every_position(CLASSIC)
    assert len(positions) == 4520
    narrowed = 0
    for state in positions:
        best, trapped, top = best_and_trapped(state)  # traps, where the best do not win
        me = state.to_move
        reflex = threats(state, me) or threats(state, 1 - me)
        rule = reflex or trapped
        options.seen = None
        chosen = agent.choose_move(state, NO_CANCEL)
        assert options.seen is not None and chosen in options.seen
        assert set(options.seen) == rule, state.board
        # The reflexes never cost value: a win in one is the best there is, and where the
        # opponent threatens, every move but a block loses at once.
        assert rule <= best, state.board
        if reflex and rule != best:
            narrowed += 1
            # Only where the opponent threatens two squares: every move loses in 2.
            assert len(threats(state, 1 - me)) >= 2 and top == rank("loss", 2), state.board
    assert narrowed == 412  # the count: blocks among moves that all lose in 2
