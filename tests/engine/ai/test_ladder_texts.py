"""The ladder's shared wording (engine/ai/ladder.py): a recipe said as its skill and the
weaker skill's share, and a rung's texts per class of board or game said once for the
classes that play alike; translated through the catalogue like any Phrase."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.ai.ladder import classes_phrase, recipe_phrase
from engine.core.i18n import localize, set_language
from engine.core.phrase import Phrase


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    yield
    set_language("en")


def _skill(skill: str) -> Phrase:
    return Phrase("{name} play", name=skill)


def test_a_recipe_without_a_weaker_share_is_its_skill() -> None:
    assert recipe_phrase(("deep", None, 0.0), _skill) == "deep play"
    assert recipe_phrase(("deep", "shallow", 0.0), _skill) == "deep play"


def test_a_recipe_says_the_weaker_skills_share_in_moves_of_100() -> None:
    text = recipe_phrase(("deep", "shallow", 0.449), _skill)
    assert text == "deep play (in 45 moves of 100: shallow play)"
    assert isinstance(text, Phrase) and text.values["weak"] == "shallow play"


def test_classes_are_named_in_order_and_once_where_they_play_alike() -> None:
    names = {"a": "small boards", "b": "big boards", "c": "huge boards"}
    texts = {"c": Phrase("x"), "a": Phrase("y"), "b": Phrase("x")}
    assert classes_phrase(texts, names) == "small boards: y; big boards and huge boards: x"
    texts = {"a": Phrase("x"), "b": Phrase("y"), "c": Phrase("z")}
    assert classes_phrase(texts, names) == "small boards: x; big boards: y; huge boards: z"


def test_classes_that_all_play_alike_are_not_named() -> None:
    same = {key: Phrase("x") for key in "abc"}
    assert classes_phrase(same, {"a": "A", "b": "B", "c": "C"}) == "x"


def test_the_shared_wording_is_translated() -> None:
    """The share and the class list come from the catalogue (hu has them, as the
    families' texts that use them show)."""
    text = classes_phrase({"a": recipe_phrase(("x", "y", 0.3), Phrase), "b": Phrase("z")},
                          {"a": "A", "b": "B"})
    set_language("hu")
    said = localize(text)
    assert "moves of 100" not in said and "30" in said and "A" in said
