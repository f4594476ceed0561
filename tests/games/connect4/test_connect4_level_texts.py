"""Issue 32, item 6: Connect Four's level texts are made from the recipes and budgets the
players are built from (games/connect4/levels.py), so every depth, every count of
positions and every share a text states is the one its player uses: read here from the
players themselves, as make_agent builds them."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from engine.ai.agent import BlendAgent
from engine.ai.perfect import PerfectAgent
from engine.core.i18n import set_language
from engine.model.seats import Seat
from games.connect4.agents import HardAgent, ProvingAgent, make_agent
from games.connect4.levels import LADDER, RECIPES
from games.connect4.rules import Connect4Config
from tests.support.ladder_texts import assert_translated_whole


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    yield
    set_language("en")


def _stated(text: str) -> list[tuple[str, int]]:
    """The numbers a rung's English text states, in order: ("depth", n) for "a search n
    moves deep", ("positions", n) for "n positions", ("share", n) for "in n moves of 100"."""
    found = [(m.start(), "depth", int(m.group(1)))
             for m in re.finditer(r"a search (\d+) moves? deep", text)]
    found += [(m.start(), "positions", int(m.group(1).replace(",", "")))
              for m in re.finditer(r"([\d,]+) positions", text)]
    found += [(m.start(), "share", int(m.group(1)))
              for m in re.finditer(r"in (\d+) moves of 100", text)]
    return [(kind, value) for _, kind, value in sorted(found)]


def _played(player: object) -> list[tuple[str, int]]:
    """The numbers ``player`` plays with, in the order its text says them: a blend's
    stronger skill, its share, then the weaker skill."""
    player = getattr(player, "inner", player)  # inside the reflexes
    if isinstance(player, BlendAgent):
        return [*_played(player.strong), ("share", round(player.share * 100)),
                *_played(player.weak)]
    if isinstance(player, PerfectAgent):
        fallback = player.fallback
        assert isinstance(fallback, ProvingAgent)
        return [("positions", fallback.search.max_nodes)]
    if isinstance(player, ProvingAgent):
        if player.max_nodes == 0:  # the book alone, no proofs: then its search
            return [("positions", player.search.max_nodes)]
        return [("positions", player.max_nodes)]  # then "Strong's search", by name
    if isinstance(player, HardAgent):
        if player.max_depth is not None:
            assert player.max_nodes is None  # a depth alone: no budget of positions
            return [("depth", player.max_depth)]
        return [("positions", player.max_nodes)]
    return []  # the Medium skill: one move ahead, no number


def test_every_rung_states_the_numbers_its_player_plays_with() -> None:
    assert [rung.level for rung in LADDER] == list(RECIPES)
    for rung in LADDER:
        player = make_agent(Connect4Config(), Seat("computer", rung.level), seed=1)
        assert _stated(str(rung.how)) == _played(player), (rung.level, str(rung.how))


def test_hard_says_it_falls_back_on_the_search_strong_plays() -> None:
    """Hard's text names Strong's search rather than repeating its size: the search it
    falls back on is Strong's skill, with Strong's budget."""
    hard = make_agent(Connect4Config(), Seat("computer", "hard"), seed=1).inner
    strong = make_agent(Connect4Config(), Seat("computer", "strong"), seed=1).inner
    assert "Strong's search" in str(LADDER[4].how) and LADDER[4].level == "hard"
    assert isinstance(hard, ProvingAgent) and isinstance(strong, ProvingAgent)
    assert strong.max_nodes == 0 < hard.max_nodes  # Strong: the book alone, no proofs
    assert (hard.search.max_nodes, hard.search.max_depth) == (
        strong.search.max_nodes, strong.search.max_depth)


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_every_rung_is_translated_whole(language: str) -> None:
    assert_translated_whole(LADDER, language, ("search", "positions", "moves", "solver",
                                               "book", "proofs"))
