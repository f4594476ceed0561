"""Checks shared by the families' level-text tests (each ladder's texts are made from its
recipes: games/<family>/levels.py)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.i18n import localize, set_language
from engine.model.levels import Rung


def assert_translated_whole(ladder: Iterable[Rung], language: str,
                            english_words: Iterable[str]) -> None:
    """Every rung's text in ``language`` differs from the English and keeps none of
    ``english_words`` (a part left untranslated would show them). Leaves ``language`` set."""
    set_language(language)
    words = tuple(english_words)
    for rung in ladder:
        said = localize(rung.how)
        assert said and said != str(rung.how), (language, rung.level)
        for word in words:
            assert word not in said, (language, rung.level, said)
