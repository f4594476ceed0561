"""Issue 28: the facts Connect Four's help states, checked against the engine. (Its last
sentence, that the first player wins 7×6 by starting in the middle, is Allis's and Allen's
1988 result, cited as theirs: no solver here proves a 42-ply game in a test's time.)"""

from __future__ import annotations

from games.connect4.help_text import HELP
from games.connect4.params import PRESETS
from games.connect4.rules import MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS, Connect4Config


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_board_sizes_and_keys_are_as_the_help_says() -> None:
    """"4 to 9 columns, 4 to 8 rows; the classic 7×6 first"; "press its number, 1–9"."""
    text = _flat(HELP)
    assert "(4 to 9 columns, 4 to 8 rows; the classic 7×6 first)" in text
    assert (MIN_COLS, MAX_COLS, MIN_ROWS, MAX_ROWS) == (4, 9, 4, 8)
    assert PRESETS[0].params == Connect4Config(7, 6)
    assert "(or press its number, 1–9)" in text and MAX_COLS <= 9
    assert "(Allis and Allen, 1988)" in text  # the one claim not computed: cited


def test_the_help_describes_no_level_of_its_own() -> None:
    """The levels are described only in the list generated from the ladder (see
    tests/games/test_help_levels.py): the old text's "Easy (random, but takes a win)"
    contradicted the ladder's "a search four moves deep"."""
    assert "random, but takes a win" not in HELP and "Easy" not in HELP
