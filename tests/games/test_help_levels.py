"""Issue 28: a help text describes the computer levels only in the list generated from the
game's ladder (:meth:`GameDescriptor.levels_text`), in every language, so that the help
cannot drift from what the levels do (Connect Four's said Easy was "random, but takes a
win" and later "a search four moves deep"; the Czech tic-tac-toe help listed four levels).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from engine.core.i18n import _, localize, set_language
from engine.model.levels import MATCH_RUNG
from engine.model.registry import all_games

LANGUAGES = ("en", "hu", "cs")


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    yield
    set_language("en")


def _laddered():
    return [game for game in all_games() if game.ladder]


def _other_help_texts(game_id: str) -> list[str]:
    """The help texts besides the rules that a family's screens show, in the current
    language, without their generated levels list: the set-up overlays, the Grundy
    screens' own rules and what every turn-based screen adds."""
    from engine.screens.turn_scene import SCREEN_HELP

    texts = [_(SCREEN_HELP)]
    if game_id == "grundy":
        from games.grundy import help_text
        from games.grundy.descriptor import GAME
        from games.grundy.setup_scene import GrundySetupOverlay

        texts.append(_(GrundySetupOverlay.help_text))
        for built in (help_text.board_rules(), help_text.heaps_rules(),
                      help_text.graph_rules()):
            assert built.endswith("\n\n" + GAME.levels_text())
            texts.append(built[: -len(GAME.levels_text())])
    if game_id == "tictactoe":
        from games.tictactoe.setup_scene import SetupOverlay

        texts.append(_(SetupOverlay.help_text))
    return texts


def _names_level(text: str, label: str) -> bool:
    """Whether ``text`` names the level ``label``: the capitalised label as the start of a
    word (Hungarian and Czech inflect it: "Tökéletesig", "Dokonalou"), its stem for a
    label of more than one word or ending in a vowel that inflection replaces."""
    stem = label[:-1] if len(label) > 5 and label[-1] in "áéíóúýaeiouy" else label
    return re.search(r"(?<!\w)" + re.escape(stem), text) is not None


@pytest.mark.parametrize("language", LANGUAGES)
def test_levels_are_described_only_in_the_generated_list(language: str) -> None:
    assert set_language(language) == language
    games = _laddered()
    assert {game.id for game in games} >= {"connect4", "tictactoe", "grundy"}
    for game in games:
        levels = game.levels_text()
        text = game.help_text()
        # The list is generated from the ladder, once, at the end.
        assert text.endswith("\n\n" + levels) and text.count(levels) == 1, game.id
        for rung in (*game.ladder, MATCH_RUNG):
            assert f"{_(rung.label)}: {localize(rung.how)}." in levels, (game.id, rung.level)
        rules = text[: -len(levels)]
        for body in (rules, *_other_help_texts(game.id)):
            for rung in (*game.ladder, MATCH_RUNG):
                label = _(rung.label)
                assert not _names_level(body, label), (
                    f"{game.id} ({language}) names the level {label!r} outside the "
                    f"generated list: …{body[max(0, body.find(label[:-1]) - 60):][:160]}…")


def test_the_check_catches_a_hand_written_level() -> None:
    """The check above finds a level named in running text, inflected too."""
    assert _names_level("the computer at Easy (random, but takes a win)", "Easy")
    assert _names_level("a Kezdő szinttől a Tökéletesig", "Tökéletes")
    assert _names_level("od Začátečnické (hraje náhodně) po Dokonalou", "Dokonalá")
    assert not _names_level("with perfect play the first player wins", "Perfect")
