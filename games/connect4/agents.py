"""Connect Four's computer players, Beginner to Perfect, and the factory for a seat.

* :class:`MediumAgent`: wins when it can, blocks a win in one, avoids a move
  that lets the opponent win at once (dropping a disc just below their
  winning cell), and otherwise leans to the centre at random.
* depth<n>: :class:`HardAgent` searching exactly n plies, with no clock at all (no time
  limit: every move completes its n plies on any machine, however busy, so a rung's "a
  search n moves deep" is true; only a proven result or the end of the board stops it
  sooner).
* :class:`HardAgent`: the generic negamax, depth-limited with iterative deepening under a
  budget of work (:data:`HARD_NODES` nodes per move: the deepest search completed within
  them), on the solver's bitboard position with its threat-counting heuristic and
  threat-aware move ordering. Its clock is only a safety cap (:data:`SAFETY_CAP`), so
  loose that it does not bind on a machine a quarter as fast as the one it was measured
  on, even with only a tenth of a core to itself: it plays the same moves on any such
  machine.
* :class:`ProvingAgent`: the opening book, then proofs of each column's outcome within a
  budget of positions a move, else that search among the columns not proven to lose. The
  skill ``book`` (Strong's) proves nothing (the book, else the search); ``proof`` (Hard's)
  proves within :data:`PROOF_NODES` positions.
* Perfect: :class:`engine.ai.perfect.PerfectAgent` on the solver's proven
  values; where they take longer than its 2 s budget it says so and plays as Hard,
  its search given :data:`PERFECT_FALLBACK_NODES` nodes instead of Strong's.

These are the skills; the levels are recipes of them (``RECIPES``). From Strong up a win
in one is taken and the opponent's win in one blocked at once, before any search
(engine/ai/ladder.py).

Every agent raises Cancelled promptly once its cancel event is set. No pygame
here: these run on the AI runner's worker thread and in tests.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence

from engine.ai.agent import Agent, Cancelled, MistakeAgent, checked_moves
from engine.ai.ladder import ReflexAgent, blended, level_names
from engine.ai.negamax import Negamax
from engine.ai.perfect import PerfectAgent
from engine.model.rules import GameState, Move
from engine.model.seats import Seat
from games.connect4.descriptor import GAME
from games.connect4.levels import (
    HARD_NODES,
    LADDER,
    PERFECT_FALLBACK_NODES,
    PROOF_NODES,
    RECIPES,
)
from games.connect4.rules import Connect4Config, Connect4State
from games.connect4.solver import (
    PATIENT_CELLS,
    C4Search,
    ExactSolver,
    OutcomeProver,
    search_state,
)

__all__ = [
    "HARD_BUDGET",
    "HARD_NODES",
    "LEVELS",
    "LEVEL_LABELS",
    "PERFECT_BUDGET",
    "PERFECT_PATIENCE",
    "HardAgent",
    "MediumAgent",
    "immediate_threats",
    "make_agent",
]

# Declared once, in the descriptor.
LEVELS = level_names(LADDER)
LEVEL_LABELS = GAME.level_labels
# What the levels below Perfect may do per move is counted in nodes searched, not seconds,
# so that a level is as strong on a slow or busy machine as on a fast one (issue 32):
# HARD_NODES and PERFECT_FALLBACK_NODES, with the recipes, in games/connect4/levels.py
# (the help's level texts are made from them).
# Nodes per second assumed by the safety caps: a quarter of the speed measured here, and a
# tenth of a core on top of that (a machine as busy as this one got with ten programs
# running on its two cores: a cap of a third of a core bound there).
_SLOWEST_NODES_PER_SECOND = 150_000 / 4 / 10
# The clock, as a safety cap only: seconds after which a search of `nodes` nodes stops
# all the same (a machine slower still, or stalled); the work budget always ends it first
# on a machine at least a quarter as fast as this one.
SAFETY_CAP = HARD_NODES / _SLOWEST_NODES_PER_SECOND
# The think time a player sees from Hard stays what its 0.3 s clock gave (0.85 of it):
# a quicker answer is shown after this many seconds (the scene waits, the frame loop runs).
HARD_THINK_FLOOR = 0.25
# Hard's former clock, in seconds (kept for callers that name it).
HARD_BUDGET = 0.3
PERFECT_BUDGET = 2.0
# On boards of at most PATIENT_CELLS cells (7×6 and the smaller presets), from
# PATIENT_FROM discs on, Perfect does not give up after PERFECT_BUDGET: it goes on, for up
# to this many seconds, looking for a column proven to win (or every column's outcome), so
# that it never lets a won game go to Hard's search (issue 30). Measured with the compiled
# kernel: every column of a 7×6 position of 8 or 9 discs is proven in at most ~11 s of one
# core (60 random positions); earlier positions are the opening book's (7×6 to 8 discs).
PERFECT_PATIENCE = 60.0
PATIENT_FROM = 8
# After a move it could not prove, Perfect tries the next for this long (the exact solver
# often proves a middle-game position within a second, and Hard alone is no stronger).
PERFECT_PROBE = 1.0
# Where nothing is proven, Perfect searches as Hard does but for this long: the rest of its
# budget after a probe (a longer search than Hard's makes it the stronger of the two).
PERFECT_FALLBACK_BUDGET = PERFECT_BUDGET - PERFECT_PROBE
# (... counted in nodes, like Hard: PERFECT_FALLBACK_NODES.)
# Hard and Strong choose at random among the columns that score within this much of the
# best (the threat-counting evaluation's units), so their games vary.
NEAR_BEST = 1
# The Hard player's table: depth-limited searches of 0.3 s fill far fewer entries.
_HARD_TABLE_CAP = 200_000


def immediate_threats(state: Connect4State | C4Search) -> tuple[list[int], list[int], list[int]]:
    """``(wins, blocks, unsafe)`` for the player to move, as columns left to right.

    ``wins``: columns where the mover completes a line now. ``blocks``: where
    the opponent would complete one on their next move. ``unsafe``: columns
    whose disc would let the opponent complete a line directly on top of it.
    """
    search = search_state(state)
    g = search.g
    mask = search.mask
    empty = g.board ^ mask
    possible = (mask + g.bottom) & g.board
    mine = g.spots(search.cur) & empty
    theirs = g.spots(search.cur ^ mask) & empty

    def columns(bits: int) -> list[int]:
        return [c for c in range(g.cols) if bits & g.col_mask[c]]

    return columns(mine & possible), columns(theirs & possible), columns(possible & (theirs >> 1))


class MediumAgent:
    """Wins, blocks, avoids handing over a win, and otherwise favours the centre.

    It looks one move ahead for each side and no further: it cannot see a
    double threat being built, which is what a mid-strength opponent should miss.
    """

    name = "medium"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """Win; else block; else a random safe column weighted towards the centre."""
        moves = checked_moves(state, cancel)
        wins, blocks, unsafe = immediate_threats(state)  # type: ignore[arg-type]
        if wins:
            return self._rng.choice(wins)
        if blocks:
            return self._rng.choice(blocks)
        pool = [m for m in moves if m not in unsafe] or moves
        cols = search_state(state).g.cols  # type: ignore[arg-type]
        # Weight (columns from the edge)²: on 7 columns 16 for the centre, 9, 4, 1 outwards.
        weights = [(min(c, cols - 1 - c) + 1) ** 2 for c in pool]
        return self._rng.choices(pool, weights)[0]


class HardAgent:
    """Depth-limited alpha-beta with a threat-counting evaluation, its strength set by
    work: the same seed, depth and nodes give the same move on any machine.

    ``max_nodes`` nodes per move (the deepest iteration completed within them is played;
    None: no node budget); ``max_depth`` caps the plies looked ahead (None: as deep as
    the nodes allow); ``time_budget`` seconds is only a safety cap (None: no clock, the
    cap); one of ``max_nodes`` and ``max_depth`` must be given. The defaults are Hard's.
    ``seed`` breaks ties between equally promising columns; ``think_floor`` is the
    shortest think time the game shows (the scene waits that long for a quick answer).
    """

    name = "hard"

    def __init__(self, time_budget: float | None = SAFETY_CAP, seed: int | None = None,
                 max_depth: int | None = None, margin: int = NEAR_BEST,
                 max_nodes: int | None = HARD_NODES, think_floor: float = 0.0) -> None:
        if max_nodes is None and max_depth is None:
            raise ValueError("a search needs a max_nodes or a max_depth: its work")
        self.time_budget = time_budget
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.think_floor = think_floor
        self.margin = margin
        self._rng = random.Random(seed)
        self.last_depth = 0
        # The latest search's score for the mover (a proven result: abs >= negamax.MATE_MIN).
        self.last_score = 0
        self.nodes = 0

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """Win now, block now, else the best column the search finds in its work."""
        return self.choose_among(state, None, cancel)

    def choose_among(self, state: GameState, among: Sequence[Move] | None,
                     cancel: threading.Event) -> Move:
        """:meth:`choose_move` with the columns it may play limited to ``among`` (None:
        every legal column): Perfect's defence where its proofs know only that every
        such column loses."""
        if cancel.is_set():
            raise Cancelled
        start = time.monotonic()
        checked_moves(state, cancel)
        search = search_state(state)  # type: ignore[arg-type]
        known = search.forced_outcome()
        moves = search.ordered_moves()  # where a column is forced, that column alone
        if among is not None:
            moves = ([m for m in moves if m in among]
                     or [m for m in search.legal_moves() if m in among])
        if not moves:
            raise ValueError("none of the columns to choose among is legal")
        self.last_depth = 0
        if known is not None and known[0] > 0:
            return self._rng.choice(moves)  # the winning columns
        if known is not None:
            # Lost against best play: block a win in one anyway (the opponent may miss
            # the other), else play on at random.
            _, blocks, unsafe = immediate_threats(search)
            blocks = [m for m in blocks if m in moves]
            return self._rng.choice(blocks or [m for m in moves if m not in unsafe] or moves)
        if len(moves) == 1:
            return moves[0]
        centre = (search.g.cols - 1) / 2
        # Random order first, then the (stable) sort: exact ties are broken at random.
        self._rng.shuffle(moves)
        moves.sort(key=lambda c: (-search.spots_after(c), abs(c - centre)))
        negamax = Negamax(remoteness=True, cancel=cancel,
                          deadline=None if self.time_budget is None
                          else start + self.time_budget, poll_interval=64,
                          max_entries=_HARD_TABLE_CAP, max_nodes=self.max_nodes)
        depth = search.max_remaining_plies()
        if self.max_depth is not None:
            depth = min(depth, self.max_depth)
        result = negamax.iterative_deepening(search, max_depth=depth, moves=moves,
                                             margin=self.margin)
        self.last_depth = result.depth
        self.last_score = result.score
        self.nodes = negamax.nodes
        return self._rng.choice(result.near) if result.near else result.move


class ProvingAgent:
    """The opening book, then proofs within a budget of work, else the search (Hard; with
    no proofs, Strong).

    Every column is looked up in the opening book; then the columns are proven one after
    the other, in a random order, until one is proven to win or ``proof_nodes`` positions
    have been searched (:class:`games.connect4.solver.OutcomeProver`: the same count on
    every machine). A proven win is played; otherwise ``search`` (a search of
    :data:`HARD_NODES` positions by default) chooses among the columns not proven to lose
    (among all of them where every column loses). ``time_budget`` is only a safety cap on
    the proofs, as on the search; ``think_floor`` as for :class:`HardAgent`.
    """

    name = "proof"

    def __init__(self, proof_nodes: int = PROOF_NODES, seed: int | None = None,
                 search: HardAgent | None = None, time_budget: float | None = None,
                 think_floor: float = HARD_THINK_FLOOR) -> None:
        self.prover = OutcomeProver(proof_nodes)
        self.search = search if search is not None else HardAgent(seed=seed)
        self.time_budget = (SAFETY_CAP * proof_nodes / HARD_NODES if time_budget is None
                            else time_budget)
        self.think_floor = think_floor
        self._rng = random.Random(seed)
        # Whether the latest move was a proven win (the tests read it).
        self.proved_win = False

    @property
    def max_nodes(self) -> int:
        """The proofs' budget of work, in positions a move."""
        return self.prover.nodes

    @max_nodes.setter
    def max_nodes(self, nodes: int) -> None:
        self.prover.nodes = nodes

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """A column proven to win, else the search's choice among those not proven to
        lose."""
        moves = checked_moves(state, cancel)
        order = list(moves)
        self._rng.shuffle(order)
        outcomes = self.prover(state, order, cancel,  # type: ignore[arg-type]
                               time.monotonic() + self.time_budget)
        wins = [col for col in order if outcomes.get(col, 0) > 0]
        self.proved_win = bool(wins)
        if wins:
            return wins[0]
        if len(outcomes) == len(moves):
            best = max(outcomes.values())
            among = [col for col in moves if outcomes[col] == best]
        else:
            among = [col for col in moves if outcomes.get(col, 0) >= 0] or list(moves)
        if len(among) == 1:
            return among[0]
        return self.search.choose_among(state, among, cancel)


def _empty_cells(state: GameState) -> int:
    if isinstance(state, C4Search):
        return state.max_remaining_plies()
    assert isinstance(state, Connect4State)
    return state.config.cells - len(state.moves)


def _reflex(agent: Agent, seed: int | None) -> Agent:
    """``agent``, taking a win in one and blocking the opponent's at once."""
    return ReflexAgent(agent, lambda state: immediate_threats(state)[0],  # type: ignore[arg-type]
                       lambda state: immediate_threats(state)[1], seed=seed)


# Each rung's recipe: RECIPES (games/connect4/levels.py, where the help's texts are made
# from them).
# The upper half of the ladder, from Strong up, takes a win and blocks a loss in one at
# once, before any search.
UPPER = LEVELS.index("strong")


def _skill(skill: str, seed: int | None, cells: int) -> Agent:
    """One of the family's players on a board of ``cells`` cells (see the module's notes)."""
    if skill == "medium":
        return MediumAgent(seed=seed)
    if skill.startswith("depth"):  # the search, exactly so many plies: no clock to cut it
        return HardAgent(time_budget=None, seed=seed, max_depth=int(skill[5:]), max_nodes=None)
    if skill == "book":  # the book's outcomes alone: no proofs, then the search
        return ProvingAgent(0, seed=seed)
    if skill == "proof":
        return ProvingAgent(seed=seed)
    # (Perfect: only its fallback's budget is counted in nodes here, issue 32.)
    patient = cells <= PATIENT_CELLS
    return PerfectAgent(values=ExactSolver(quick=PERFECT_BUDGET if patient else None,
                                           patient_from=PATIENT_FROM),
                        # Hard's play, its search given PERFECT_FALLBACK_NODES.
                        fallback=lambda: ProvingAgent(seed=seed, think_floor=0.0, search=HardAgent(
                            SAFETY_CAP * PERFECT_FALLBACK_NODES / HARD_NODES, seed=seed,
                            max_nodes=PERFECT_FALLBACK_NODES)),
                        time_budget=PERFECT_PATIENCE if patient else PERFECT_BUDGET,
                        seed=seed, fallback_label="Hard",
                        remaining=_empty_cells, probe=PERFECT_PROBE,
                        # Lost where the book knows no distances (7×6 before 8 discs):
                        # resist as Hard's search would, among the losing columns.
                        defence=HardAgent(SAFETY_CAP, seed=seed).choose_among)


def make_agent(params: Connect4Config, seat: Seat, seed: int | None = None) -> Agent:
    """The computer player for ``seat`` (its level and mistake rate) on ``params``.

    Perfect plays proven moves where it can prove them within 2 s and plays as Hard
    elsewhere (saying so in ``last_note``), with a longer search. A mistake rate wraps any level in
    a player that sometimes plays a random column on purpose.
    """
    level = seat.level
    if level not in RECIPES:
        raise ValueError(f"no Connect Four level {level!r}: choose one of {', '.join(LEVELS)}")
    cells = params.cols * params.rows
    agent = blended(RECIPES[level], lambda skill: _skill(skill, seed, cells), level, seed)
    if LEVELS.index(level) >= UPPER:
        agent = _reflex(agent, seed)
    if seat.mistakes > 0:
        agent = MistakeAgent(agent, seat.mistakes, seed=seed)
    return agent
