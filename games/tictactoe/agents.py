"""Builds the computer player for a seat: level × board × mistake rate.

The ladder, weakest first (engine/ai/ladder.py says what every ladder shares):

* Beginner — any empty square;
* Easy — any square, but a win in one move is taken;
* Medium — SPEC §2's weight grid: wins, blocks, else the square on most open lines;
* Strong — half its moves Hard's (a shorter search, without the threat-space search),
  half Medium's;
* Hard — the rule player on 3×3, a timed threat-aware alpha-beta elsewhere, threat-space
  search first on gomoku-sized boards;
* Perfect — proven moves where they can be proven in its budget, else Hard (it says so).

From Medium up a win in one is taken and a win in one of the opponent's is blocked at
once, before any search.
"""

from __future__ import annotations

from engine.ai.agent import Agent, MistakeAgent, RandomAgent
from engine.ai.ladder import ReflexAgent, level_names
from engine.seats import Seat
from games.tictactoe.levels import LADDER
from games.tictactoe.rules import CLASSIC, MNKConfig, TicTacToeState

# Time each level may think per move on boards where it searches.
HARD_BUDGET = 0.25
STRONG_BUDGET = 0.1
PERFECT_BUDGET = 2.0
# Strong: the share of its moves that are Medium's.
STRONG_MEDIUM_SHARE = 0.5

LEVELS = level_names(LADDER)


def make_agent(config: MNKConfig, seat: Seat, seed: int | None = None) -> Agent:
    """The agent that plays ``seat`` on ``config`` (see the module's ladder). A mistake
    rate wraps any level in a player that sometimes blunders on purpose."""
    agent = _base_agent(config, seat.level, seed)
    if seat.mistakes > 0:
        agent = MistakeAgent(agent, seat.mistakes, seed=seed)
    return agent


def _wins(state: TicTacToeState) -> list[int]:
    from games.tictactoe.ai_simple import winning_moves

    return winning_moves(state)


def _blocks(state: TicTacToeState) -> list[int]:
    from games.tictactoe.ai_simple import winning_moves

    return winning_moves(state, 1 - state.to_move)


def _reflex(agent: Agent, seed: int | None) -> Agent:
    return ReflexAgent(agent, _wins, _blocks, seed=seed)  # type: ignore[arg-type]


def _base_agent(config: MNKConfig, level: str, seed: int | None) -> Agent:
    if level not in LEVELS:
        raise ValueError(f"no tic-tac-toe level {level!r}: choose one of {', '.join(LEVELS)}")
    if level == "beginner":
        return RandomAgent(seed=seed)
    if config.players == 3:
        from games.tictactoe.ai_three import ThreePlayerAgent

        # Three players: Strong plays as Hard with a shorter search.
        return ThreePlayerAgent(level="hard" if level == "strong" else level, seed=seed,
                                **({"time_budget": STRONG_BUDGET} if level == "strong" else {}))
    if level == "easy":
        from games.tictactoe.ai_simple import EasyAgent

        return EasyAgent(seed=seed)
    from games.tictactoe.ai_simple import MediumAgent

    if level == "medium":
        return _reflex(MediumAgent(seed=seed), seed)
    if level == "strong":
        from engine.ai.agent import BlendAgent

        return _reflex(BlendAgent(_hard_agent(config, seed, strong=True), MediumAgent(seed=seed),
                                  STRONG_MEDIUM_SHARE, "strong", seed=seed), seed)
    hard = _hard_agent(config, seed)
    if level == "hard":
        return _reflex(hard, seed)
    from games.tictactoe.perfect import PerfectAgent

    return _reflex(PerfectAgent(time_budget=PERFECT_BUDGET, seed=seed, fallback=hard), seed)


def _hard_agent(config: MNKConfig, seed: int | None, strong: bool = False) -> Agent:
    if config == CLASSIC:
        from games.tictactoe.ai_rules3 import RuleAgent

        return RuleAgent(seed=seed)
    from games.tictactoe.hard_search import HardSearchAgent

    if strong:
        return HardSearchAgent(time_budget=STRONG_BUDGET, seed=seed, alpha_beta_only=True)
    return HardSearchAgent(time_budget=HARD_BUDGET, seed=seed)
