"""Issue 32, item 6: the Grundy games' level texts are made from the recipes the players
are built from (games/grundy/levels.py), so the moves ahead and shares they state are the
ones the players use, in every class of game, and change when a recipe does."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from engine.ai.ladder import LookaheadAgent, Recipe
from engine.core.i18n import localize, set_language
from engine.model.seats import Seat
from games.grundy import agents, levels
from games.grundy.levels import CLASSES, LADDER, RECIPES, recipe_text, rung_text
from games.grundy.variants import GrundySetup
from tests.support.ladder_texts import assert_translated_whole


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    yield
    set_language("en")


def _segments(text: str) -> dict[str, str]:
    """A rung's English text per class: "board games: …; heap and graph games: …" split
    at its classes (a group "A and B: …" given to each); the whole text to every class
    where none is named."""
    names = {name: key for key, name in CLASSES.items()}
    pattern = "|".join(re.escape(name) for name in names)
    found: dict[str, str] = {}
    for part in text.split("; "):
        head, sep, rest = part.partition(": ")
        if sep and re.fullmatch(rf"(?:{pattern})(?:(?:, | and )(?:{pattern}))*", head):
            for name in re.findall(pattern, head):
                found[names[name]] = rest
    return found or dict.fromkeys(CLASSES, text)


def _stated(segment: str) -> dict[str, list[int]]:
    """The numbers a class's text states: moves ahead, shares (in the order said)."""
    return {"ahead": [int(n) for n in re.findall(r"looks up to (\d+) moves? ahead", segment)],
            "percent": [int(n) for n in re.findall(r"in (\d+) moves of 100", segment)],
            "theory": [segment.count("Sprague–Grundy theory")]}


def _expected(recipe: Recipe) -> dict[str, list[int]]:
    """The numbers ``recipe`` plays with: the strong skill's first, then the weak one's."""
    strong, weak, share = recipe
    skills = [strong] + ([weak] if weak is not None and share > 0 else [])
    return {"ahead": [int(s[4:]) for s in skills if s.startswith("look")],
            "percent": [round(share * 100)] if len(skills) == 2 else [],
            "theory": [skills.count("perfect")]}


def test_every_rung_states_the_numbers_of_its_recipes_in_every_class() -> None:
    assert [rung.level for rung in LADDER] == list(RECIPES["heaps"]) == list(RECIPES["board"])
    assert set(CLASSES) == set(RECIPES)
    for rung in LADDER:
        segments = _segments(rung.how)
        assert set(segments) == set(CLASSES), (rung.level, rung.how)
        for name, segment in segments.items():
            recipe = RECIPES[name][rung.level]
            assert _stated(segment) == _expected(recipe), (rung.level, name, segment)
            assert segment == str(recipe_text(recipe))
        if rung.level == "beginner":
            assert rung.how == "any move at random"


def test_the_players_are_built_from_the_recipes_the_texts_say() -> None:
    """agents.py plays levels.RECIPES: a "look<n>" skill is a LookaheadAgent n moves ahead,
    a share a BlendAgent with that share, "perfect" the theory's player."""
    assert agents.RECIPES is RECIPES
    for name, setup in (("heaps", GrundySetup(game="nim")),
                        ("board", GrundySetup(game="king", rows=6, cols=7))):
        assert agents.recipe_class(setup) == name
        for level, (strong, weak, share) in RECIPES[name].items():
            agent = agents.make_agent(setup, Seat("computer", level), seed=0)
            if weak is not None and share > 0:
                assert agent.share == share, (name, level)
                parts = [agent.strong, agent.weak]
            else:
                parts = [agent]
            for part, skill in zip(parts, [strong, weak], strict=False):
                if skill.startswith("look"):
                    assert isinstance(part, LookaheadAgent) and part.plies == int(skill[4:])
                elif skill == "perfect":
                    assert isinstance(part, agents.TheoryAgent)


def test_changing_a_recipe_changes_the_text(monkeypatch) -> None:
    before = {rung.level: str(rung.how) for rung in LADDER}
    assert {level: str(rung_text(level)) for level in before} == before
    recipes = {name: dict(rungs) for name, rungs in RECIPES.items()}
    recipes["heaps"]["hard"] = ("perfect", "look4", 0.3)
    monkeypatch.setattr(levels, "RECIPES", recipes)
    changed = _segments(rung_text("hard"))
    assert _stated(changed["heaps"]) == {"ahead": [4], "percent": [30], "theory": [1]}
    assert _stated(changed["board"]) == _expected(RECIPES["board"]["hard"])
    assert str(rung_text("easy")) == before["easy"]


def test_classes_that_play_alike_are_named_once(monkeypatch) -> None:
    for rung in LADDER:
        alike = RECIPES["heaps"][rung.level] == RECIPES["board"][rung.level]
        named = [name for name in CLASSES.values() if name in rung.how]
        assert named == ([] if alike else list(CLASSES.values())), rung.level
    recipes = {name: dict(rungs) for name, rungs in RECIPES.items()}
    recipes["board"]["medium"] = recipes["heaps"]["medium"]
    monkeypatch.setattr(levels, "RECIPES", recipes)
    assert rung_text("medium") == recipe_text(RECIPES["heaps"]["medium"])
    assert "board games" not in rung_text("medium")


def test_the_class_names_match_the_help() -> None:
    """The help names the kinds "the board games", "the heap games", "the graph games"."""
    from games.grundy import help_text

    assert "board games" in help_text.board_rules.__doc__
    assert "graph games" in help_text.graph_rules.__doc__
    assert set(CLASSES.values()) == {"board games", "heap and graph games"}


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_the_texts_are_said_in_every_language(language: str) -> None:
    """Each text is translated whole: no English word of it left."""
    assert_translated_whole(LADDER, language, ("board games", "graph games", "moves of 100",
                                               "looks", "ahead", "random", "never misses"))
    easy = localize(next(rung.how for rung in LADDER if rung.level == "easy"))
    assert "20" in easy and "2" in easy
