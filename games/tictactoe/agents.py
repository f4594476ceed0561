"""Builds the computer player for a seat: level × board × mistake rate.

Every level is a recipe (engine/ai/ladder.py) of the family's skills, weakest first:

* ``random`` — any empty square; ``easy`` — any square, but a win in one is taken;
* ``medium`` — SPEC §2's weight grid: wins, blocks, else the square on most open lines;
* ``depth<n>`` — the threat-aware alpha-beta, ``n`` plies ahead (the rule player on 3×3);
  ``previous`` — the same as deep as Hard's budget allows (Hard before its threat-space
  search);
  ``hard`` — Hard: threat-space search first on gomoku-sized boards; ``longer`` — Hard
  given 1.75 s instead of a quarter;
* ``perfect`` — proven moves where they can be proven in its budget, else ``longer``
  (saying it plays as Hard).

The skills are far apart on big boards (Medium beats Easy in every gomoku game), so the
rungs between them play a stronger skill with a share of a weaker one's moves, the
shares measured per board class by tests/benchmarks/bench_ladder.py so that each rung
beats the one below in about two games of three. In the upper half of the ladder (from
Strong up) a win in one is taken and a win in one of the opponent's blocked at once,
before any search.
"""

from __future__ import annotations

from engine.ai.agent import Agent, MistakeAgent, RandomAgent
from engine.ai.ladder import Recipe, ReflexAgent, blended, level_names
from engine.model.seats import Seat
from games.tictactoe.levels import LADDER
from games.tictactoe.rules import CLASSIC, MNKConfig, TicTacToeState

# Time each level may think per move on boards where it searches.
HARD_BUDGET = 0.25
SEARCH_BUDGET = 0.1  # three players: Strong's search
PERFECT_BUDGET = 2.0
# Where nothing is proven, Perfect searches as Hard does but for this long: a longer search
# than Hard's makes it the stronger of the two where a proof is out of reach. On gomoku the
# threat-space search gains little from 1 s (53 % over Hard in 100 games) and much from
# 2.5 s (90 % in 40); 1.75 s puts Perfect a rung above Hard (tests/benchmarks/bench_ladder.py).
PERFECT_FALLBACK_BUDGET = 1.75

LEVELS = level_names(LADDER)
# The upper half of the ladder, from Strong up, takes a win and blocks a loss in one at
# once, before any search.
UPPER = LEVELS.index("strong")
# Each rung's recipe per board class (see board_class).
RECIPES: dict[str, dict[str, Recipe]] = {
    "3x3": {"beginner": ("random", None, 0.0), "easy": ("easy", "random", 0.3),
            "medium": ("medium", "easy", 0.5), "strong": ("medium", "easy", 0.5),
            "hard": ("hard", None, 0.0), "perfect": ("perfect", None, 0.0)},
    "mnk": {"beginner": ("medium", None, 0.0), "easy": ("depth1", "medium", 0.55),
            "medium": ("depth1", "medium", 0.25), "strong": ("depth3", "depth1", 0.75),
            "hard": ("hard", None, 0.0), "perfect": ("perfect", None, 0.0)},
    "gomoku": {"beginner": ("depth1", "medium", 0.08), "easy": ("depth2", None, 0.0),
               "medium": ("previous", "depth2", 0.5), "strong": ("previous", None, 0.0),
               "hard": ("hard", None, 0.0), "perfect": ("perfect", None, 0.0)},
}


def board_class(config: MNKConfig) -> str:
    """Which recipes a board uses: the classic 3×3, gomoku-sized boards (where Hard
    searches threat space first), or the boards between."""
    from games.tictactoe.hard_search import uses_threat_search

    if config == CLASSIC:
        return "3x3"
    return "gomoku" if uses_threat_search(config) else "mnk"


def make_agent(config: MNKConfig, seat: Seat, seed: int | None = None) -> Agent:
    """The agent that plays ``seat`` on ``config`` (see the module's notes). A mistake
    rate wraps any level in a player that sometimes blunders on purpose."""
    if seat.level not in LEVELS:
        raise ValueError(f"no tic-tac-toe level {seat.level!r}: choose one of "
                         f"{', '.join(LEVELS)}")
    if config.players == 3:
        agent = _three_player_agent(seat.level, seed)
    else:
        recipe = RECIPES[board_class(config)][seat.level]
        agent = blended(recipe, lambda skill: _skill(config, skill, seed), seat.level, seed)
        if LEVELS.index(seat.level) >= UPPER:
            agent = ReflexAgent(agent, _wins, _blocks, seed=seed)  # type: ignore[arg-type]
    if seat.mistakes > 0:
        agent = MistakeAgent(agent, seat.mistakes, seed=seed)
    return agent


def _wins(state: TicTacToeState) -> list[int]:
    from games.tictactoe.ai_simple import winning_moves

    return winning_moves(state)


def _blocks(state: TicTacToeState) -> list[int]:
    from games.tictactoe.ai_simple import winning_moves

    return winning_moves(state, 1 - state.to_move)


def _three_player_agent(level: str, seed: int | None) -> Agent:
    """Three players: Beginner at random, Strong as Hard with a shorter search, the
    other levels the three-player agent's own."""
    if level == "beginner":
        return RandomAgent(seed=seed)
    from games.tictactoe.ai_three import ThreePlayerAgent

    if level == "strong":
        return ThreePlayerAgent(level="hard", seed=seed, time_budget=SEARCH_BUDGET)
    return ThreePlayerAgent(level=level, seed=seed)


def _skill(config: MNKConfig, skill: str, seed: int | None) -> Agent:
    """One of the family's players (see the module's notes)."""
    if skill == "random":
        return RandomAgent(seed=seed)
    if skill == "easy":
        from games.tictactoe.ai_simple import EasyAgent

        return EasyAgent(seed=seed)
    if skill == "medium":
        from games.tictactoe.ai_simple import MediumAgent

        return MediumAgent(seed=seed)
    if skill == "perfect":
        from games.tictactoe.perfect import PerfectAgent

        return PerfectAgent(time_budget=PERFECT_BUDGET, seed=seed,
                            fallback=_skill(config, "longer", seed))
    if config == CLASSIC:
        from games.tictactoe.ai_rules3 import RuleAgent

        return RuleAgent(seed=seed)
    from games.tictactoe.hard_search import HardSearchAgent

    if skill.startswith("depth"):  # the alpha-beta, so many plies ahead
        return HardSearchAgent(time_budget=HARD_BUDGET, seed=seed, alpha_beta_only=True,
                               max_depth=int(skill[5:]))
    if skill == "previous":  # the previous Hard: no threat-space search
        return HardSearchAgent(time_budget=HARD_BUDGET, seed=seed, alpha_beta_only=True)
    budget = PERFECT_FALLBACK_BUDGET if skill == "longer" else HARD_BUDGET
    return HardSearchAgent(time_budget=budget, seed=seed)
