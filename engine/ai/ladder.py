"""The difficulty ladder every two-player game offers: graded levels built from real
skill, each a little stronger than the one below.

A family lists its rungs (weakest first) as :class:`Rung` s and builds each rung's
player from its own agents. The engine adds what every ladder shares:

* :class:`ReflexAgent` — the upper half of a ladder takes a win in one move and blocks
  the opponent's win in one at once, before any search spends its budget;
* :class:`OpeningAgent` — a rung that opens a game with a move from a given set at random
  (a handicap that only best play can exploit well, where the first player wins);
* :class:`BlendAgent` — a rung between two skills: the stronger player, except that a
  given share of its moves is the weaker player's (a controlled mistake of the kind a
  weaker player really makes, not a random blunder);
* :func:`recipe_phrase` and :func:`classes_phrase` — a rung's help text made from the
  recipes its players are built from (one wording for every family's ladder);
* :func:`elo_ratings` — the ladder benchmark's ratings from a round robin;
* "Match me" (:data:`MATCH`) — a level that climbs the ladder as the player wins and steps
  down as they lose: :func:`match_level` reads it from their recorded results.

No pygame here: agents run on the AI runner's worker thread and in tests.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import cast

from engine.ai.agent import Agent, BlendAgent, Cancelled, Wrapper, checked_moves
from engine.core.phrase import N_, Phrase, joined
from engine.model.levels import MATCH, MATCH_RUNG, Rung, level_names, match_level
from engine.model.rules import GameState, Move

__all__ = ["MATCH", "MATCH_RUNG", "BlendAgent", "LookaheadAgent", "OpeningAgent", "Recipe",
           "ReflexAgent", "Rung", "blended", "classes_phrase", "elo_ratings", "level_names",
           "match_level", "recipe_phrase"]


# How a rung plays on a board: the skill it plays (a family's player, by name), the weaker
# skill whose move it plays instead some of the time, and that share (None, 0: never).
# The shares are set by measurement (tests/benchmarks/bench_ladder.py), so that each rung
# beats the one below in about two games of three on every board.
Recipe = tuple[str, "str | None", float]


def blended(recipe: Recipe, skill: Callable[[str], Agent], name: str,
            seed: int | None = None) -> Agent:
    """The player of ``recipe``, its skills made by ``skill(name)``."""
    strong, weak, share = recipe
    agent = skill(strong)
    if weak is not None and share > 0:
        agent = BlendAgent(agent, skill(weak), share, name, seed=seed)
    return agent


def recipe_phrase(recipe: Recipe, skill_text: Callable[[str], Phrase]) -> Phrase:
    """What a rung playing ``recipe`` does, in the help's words: its skill, said by
    ``skill_text(skill)``, and the weaker skill's share ("looks 3 moves ahead (in 45 moves
    of 100: any move at random)"); the skill alone where it never plays the weaker one
    (as :func:`blended` builds it). Every family says a share the same way, so the
    catalogue holds one wording to translate."""
    strong, weak, share = recipe
    if weak is None or share <= 0:
        return skill_text(strong)
    return Phrase(N_("{strong} (in {percent} moves of 100: {weak})"),
                  strong=skill_text(strong), percent=round(share * 100),
                  weak=skill_text(weak))


def classes_phrase(texts_by_class: Mapping[str, Phrase],
                   class_names: Mapping[str, str]) -> Phrase:
    """What a rung does on each class of game or board whose players have recipes of
    their own, in one text: "A: …; B and C: …", in the order of ``class_names`` (class →
    its name, marked with ``N_()``), the classes whose texts are the same (in English)
    named together, once; the text alone, no class named, where all of them play alike
    (a player needs no class list to know that)."""
    groups: dict[str, list[str]] = {}  # English text → the classes that play it
    texts: dict[str, Phrase] = {}
    for name in class_names:
        text = texts_by_class[name]
        groups.setdefault(str(text), []).append(name)
        texts[str(text)] = text
    if len(groups) == 1:
        return next(iter(texts.values()))
    parts = []
    for english, classes in groups.items():
        names = [Phrase(class_names[c]) for c in classes]
        named = names[0] if len(names) == 1 else Phrase(
            N_("{items} and {last}"), items=joined(names[:-1], ", "), last=names[-1])
        parts.append(Phrase(N_("{boards}: {how}"), boards=named, how=texts[english]))
    # joined() gives a Phrase whenever a part is one (every part here is).
    return cast(Phrase, joined(parts, "; "))


# wins(state) / blocks(state): the mover's winning moves now, and the moves that stop the
# opponent's win on their next move (empty when there is none).
MoveList = Callable[[GameState], Sequence[Move]]


class ReflexAgent(Wrapper):
    """``inner``, except that a win in one move is taken and an opponent's win in one is
    blocked at once, without asking ``inner`` (no budget spent on a move any decent
    player sees). Ties are broken at random with its own generator."""

    def __init__(self, inner: Agent, wins: MoveList, blocks: MoveList,
                 seed: int | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self._wins, self._blocks = wins, blocks
        self._rng = random.Random(seed)
        # Whether the latest move was a reflex (tests and the benchmark read it).
        self.reflex = False

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """A win now, else the block of the opponent's win now, else ``inner``'s move."""
        checked_moves(state, cancel)
        for found in (self._wins, self._blocks):
            moves = list(found(state))
            if moves:
                self.reflex = True
                return self._rng.choice(moves)
        self.reflex = False
        return self.inner.choose_move(state, cancel)


class OpeningAgent(Wrapper):
    """``inner``, except that where ``openings(state)`` lists moves (a family lists them only
    at the start of a game) one of them is played, at random with its own generator. A
    handicap only best play can punish: on a board the first player wins, a good search
    keeps every start it opens well; an opening it would not choose lets a perfect
    opponent win, while a weaker one rarely finds how."""

    def __init__(self, inner: Agent, openings: MoveList, seed: int | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self._openings = openings
        self._rng = random.Random(seed)

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """One of ``openings(state)`` at random where there are any, else ``inner``'s."""
        checked_moves(state, cancel)
        moves = list(self._openings(state))
        if moves:
            return self._rng.choice(moves)
        return self.inner.choose_move(state, cancel)


class LookaheadAgent:
    """Sees ``plies`` moves ahead and no further, in any game: a move that wins within
    that many plies against every defence first, then one that loses within them against
    no attack, a forced loss last; at random among equals. The skill of a player who
    knows no theory and counts a few moves (``plies`` 1 takes a win in one, 2 also
    avoids handing one over). Nodes are capped at ``max_nodes`` per move: a wide
    position is looked at one ply less deep rather than slowly."""

    def __init__(self, plies: int, name: str, seed: int | None = None,
                 max_nodes: int = 20_000) -> None:
        if plies < 1:
            raise ValueError(f"plies must be at least 1, not {plies!r}")
        self.plies, self.name, self.max_nodes = plies, name, max_nodes
        self._rng = random.Random(seed)
        self._nodes = 0

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """A random one of the moves whose outcome within the horizon is best."""
        moves = checked_moves(state, cancel)
        me = state.current_player()
        for plies in range(self.plies, 0, -1):
            self._nodes = 0
            try:
                scores = {move: self._value(state.play(move), me, plies - 1, cancel)
                          for move in moves}
            except _TooWide:
                continue
            best = max(scores.values())
            return self._rng.choice([m for m in moves if scores[m] == best])
        return self._rng.choice(moves)

    def _value(self, state: GameState, me: int, plies: int, cancel: threading.Event) -> int:
        """+1 if ``me`` wins within ``plies`` more plies whatever the other does, -1 if
        ``me`` loses so, else 0 (not decided within the horizon)."""
        self._nodes += 1
        if self._nodes > self.max_nodes:
            raise _TooWide
        if self._nodes % 256 == 0 and cancel.is_set():
            raise Cancelled
        if state.is_terminal():
            result = state.returns()[me]
            return (result > 0) - (result < 0)
        if plies == 0:
            return 0
        mine = state.current_player() == me
        best = -1 if mine else 1
        for move in state.legal_moves():
            value = self._value(state.play(move), me, plies - 1, cancel)
            best = max(best, value) if mine else min(best, value)
            if best == (1 if mine else -1):
                break  # the mover can do no better
        return best


class _TooWide(Exception):
    """A lookahead passed its node cap."""


def elo_ratings(scores: Mapping[tuple[str, str], tuple[float, int]],
                anchor: str | None = None, anchor_rating: float = 1000.0,
                rounds: int = 2000) -> dict[str, float]:
    """Elo-style ratings from pairings' results: ``scores[(a, b)] = (points of a, games)``
    (a win 1, a draw ½). The maximum-likelihood fit of the logistic model (the rating
    difference D gives an expected score 1 / (1 + 10^(-D/400))), found by gradient steps,
    with ``anchor`` (default: the first level named) held at ``anchor_rating``. A level
    that won or lost every game gets a rating 400 points beyond its opponents' rather than
    an infinite one (half a game is moved to the other side: the usual correction)."""
    levels: list[str] = []
    for a, b in scores:
        levels += [x for x in (a, b) if x not in levels]
    if not levels:
        return {}
    anchor = anchor if anchor in levels else levels[0]
    rating = dict.fromkeys(levels, 0.0)
    games = [(a, b, min(max(points, 0.5), n - 0.5) if n > 1 else points, n)
             for (a, b), (points, n) in scores.items() if n > 0]
    scale = math.log(10) / 400
    for _ in range(rounds):
        gradient = dict.fromkeys(levels, 0.0)
        for a, b, points, n in games:
            expected = n / (1 + math.exp(-scale * (rating[a] - rating[b])))
            gradient[a] += points - expected
            gradient[b] -= points - expected
        step = 400.0 / max(1, max(n for *_, n in games))
        for level in levels:
            rating[level] += step * gradient[level] / 4
        shift = rating[anchor] - anchor_rating
        for level in levels:
            rating[level] -= shift
    return rating
