"""Builds the computer player for a seat: level × board × mistake rate.

Every level is a recipe (engine/ai/ladder.py) of the family's skills, weakest first:

* ``random`` — any empty square; ``easy`` — any square, but a win in one is taken;
* ``medium`` — SPEC §2's weight grid: wins, blocks, else the square on most open lines;
* ``depth<n>`` — the threat-aware alpha-beta, ``n`` plies ahead (the rule player on 3×3);
  ``previous`` — the same as deep as Hard's budget allows (Hard before its threat-space
  search);
  ``hard`` — Hard: threat-space search first on gomoku-sized boards; ``longer`` — Hard
  given ``levels.LONGER`` times its nodes;
* ``perfect`` — proven moves where they can be proven in its budget, else ``longer``
  (saying it plays as Hard); on 3×3, of equally good moves one that leaves the opponent
  the most losing replies.

The skills are far apart on big boards (Medium beats Easy in every gomoku game), so the
rungs between them play a stronger skill with a share of a weaker one's moves, the
shares measured per board class by tests/benchmarks/bench_ladder.py so that each rung
beats the one below in about two games of three. The recipes and node budgets live in
games/tictactoe/levels.py, where the help's level texts are made from them. In the upper
half of the ladder (from Strong up; on 3×3 from Hard up) a win in one is taken and a win
in one of the opponent's blocked at once, before any search. On the boards between 3×3
and gomoku (``levels.EDGE_OPENING``) Hard opens a game on an edge square at random.
"""

from __future__ import annotations

from engine.ai.agent import Agent, MistakeAgent, RandomAgent
from engine.ai.ladder import OpeningAgent, ReflexAgent, blended, level_names
from engine.model.seats import Seat
from games.tictactoe.levels import (
    EDGE_OPENING,
    HARD_NODES,
    LADDER,
    LONGER,
    RECIPES,
    THREE_NODES,
    THREE_PLAYERS,
    UPPER,
    reflex_from,
    search_nodes,
)
from games.tictactoe.rules import CLASSIC, MNKConfig, TicTacToeState

# HARD_NODES, LONGER and RECIPES live in levels.py and are named here too (the benchmarks
# and tests import them from the players' module).
__all__ = ["HARD_BUDGET", "HARD_NODES", "LEVELS", "LONGER", "PERFECT_BUDGET", "RECIPES",
           "SEARCH_BUDGET", "THINK_FLOOR", "THREE_NODES", "UPPER", "board_class",
           "make_agent"]

# What the levels may do per move is counted in nodes searched, not seconds (issue 32):
# HARD_NODES and LONGER, with the recipes, in games/tictactoe/levels.py (the help's level
# texts are made from them).
# The clock stays only as a safety cap: seconds per node budget at a quarter of the speed
# measured here and a tenth of a core (a very busy machine), so it never binds first on a
# machine at least a quarter as fast.
_SLOWEST_NODES_PER_SECOND = 45_000 / 4 / 10
# The think time a player sees from the searching levels stays about what their 0.25 s
# clock gave: a quicker answer is shown after this many seconds (frames run on).
THINK_FLOOR = 0.2
# Hard's former clock, in seconds (kept for callers that name it: the benchmarks).
HARD_BUDGET = 0.25
SEARCH_BUDGET = 0.1  # three players: Strong's search (its former clock)
# Three players: the max^n search's nodes per move (THREE_NODES, in levels.py); the clock
# a safety cap as above, at ~66,000 nodes a CPU-second measured on the 4×4 board.
_SLOWEST_MAXN_NODES_PER_SECOND = 66_000 / 4 / 10
PERFECT_BUDGET = 2.0

LEVELS = level_names(LADDER)


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
        cls = board_class(config)
        agent = blended(RECIPES[cls][seat.level], lambda skill: _skill(config, skill, seed),
                        seat.level, seed)
        if seat.level == "hard" and cls in EDGE_OPENING:
            agent = OpeningAgent(agent, _edge_openings, seed=seed)
        if LEVELS.index(seat.level) >= reflex_from(cls):
            agent = ReflexAgent(agent, _wins, _blocks, seed=seed)  # type: ignore[arg-type]
    if seat.mistakes > 0:
        agent = MistakeAgent(agent, seat.mistakes, seed=seed)
    return agent


def _edge_openings(state: TicTacToeState) -> list[int]:
    """The squares of the board's edge on an empty board (where Hard opens on the boards of
    ``EDGE_OPENING``), else none."""
    cfg = state.config
    if state.moves_made:
        return []
    return [cell for cell in state.legal_moves()
            if cell // cfg.cols in (0, cfg.rows - 1) or cell % cfg.cols in (0, cfg.cols - 1)]


def _wins(state: TicTacToeState) -> list[int]:
    from games.tictactoe.ai_simple import winning_moves

    return winning_moves(state)


def _blocks(state: TicTacToeState) -> list[int]:
    from games.tictactoe.ai_simple import winning_moves

    return winning_moves(state, 1 - state.to_move)


def _three_player_agent(level: str, seed: int | None) -> Agent:
    """Three players: the player ``levels.THREE_PLAYERS`` names for ``level`` (Beginner
    at random, Strong as Hard with fewer positions, the others the three-player agent's
    own levels), with the positions THREE_NODES gives it."""
    player = THREE_PLAYERS[level]
    if player == "random":
        return RandomAgent(seed=seed)
    from games.tictactoe.ai_three import ThreePlayerAgent

    nodes = THREE_NODES["strong" if player == "strong" else "hard"]
    work = {"time_budget": nodes / _SLOWEST_MAXN_NODES_PER_SECOND, "max_nodes": nodes,
            "seed": seed, "think_floor": THINK_FLOOR if player in ("strong", "hard") else 0.0}
    return ThreePlayerAgent(level="hard" if player == "strong" else player, **work)


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

        # On 3×3 (solved at once) it also sets traps: of equally good moves, the one that
        # leaves the most losing replies, which a fallible opponent finds likeliest.
        return PerfectAgent(time_budget=PERFECT_BUDGET, seed=seed,
                            fallback=_skill(config, "longer", seed), traps=config == CLASSIC)
    if config == CLASSIC:
        from games.tictactoe.ai_rules3 import RuleAgent

        return RuleAgent(seed=seed)
    from games.tictactoe.hard_search import HardSearchAgent

    nodes = search_nodes(board_class(config), skill)  # the budget the help states
    # Work, not time: the clock is a safety cap only (see _SLOWEST_NODES_PER_SECOND).
    work = {"time_budget": nodes / _SLOWEST_NODES_PER_SECOND, "max_nodes": nodes,
            "seed": seed}
    if skill.startswith("depth"):  # the alpha-beta, so many plies ahead
        return HardSearchAgent(alpha_beta_only=True, max_depth=int(skill[5:]), **work)
    if skill == "previous":  # the previous Hard: no threat-space search
        return HardSearchAgent(alpha_beta_only=True, think_floor=THINK_FLOOR, **work)
    return HardSearchAgent(think_floor=0.0 if skill == "longer" else THINK_FLOOR, **work)
