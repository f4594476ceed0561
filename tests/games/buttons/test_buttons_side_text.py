"""Button Madness's side panel says its figures whole in every language (issue 28, item 7:
the Czech "Na této desce byla použit…" was cut to one line)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

import games.buttons.board_view as board_view
from engine.ui.widgets import ELLIPSIS
from games.buttons.board_view import stats_lines
from tests.conftest import key
from tests.support.screen_cases import app_at, open_game

SIZES = [(640, 480), (960, 720), (1920, 1080), (1080, 1920)]  # test_layout.SIZES


@pytest.mark.parametrize("size", SIZES)
def test_help_used_is_never_cut_in_any_language(profile: Path, size: tuple[int, int],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """After a hint (H, a real key press) the panel says help was used on the board: every
    line of the figures (presses, time, best, help used) is whole in en, hu and cs."""
    drawn: list[str] = []
    real = board_view.wrap_fitting

    def recording(text: str, font: Any, width: int, max_lines: int) -> list[str]:
        lines = real(text, font, width, max_lines)
        drawn.extend(lines)
        return lines

    monkeypatch.setattr(board_view, "wrap_fitting", recording)
    cut: list[str] = []
    with app_at(profile, size) as app:
        open_game("button-madness")(app)
        key(app, pygame.K_h)
        assert app.top.helped, "the hint counts as help"
        for language in ("en", "hu", "cs"):
            app.set_language(language)
            drawn.clear()
            app.step([])
            assert any(line for line in drawn), "the panel drew its figures"
            cut += [f"{language} {size}: {line!r}" for line in drawn if line.endswith(ELLIPSIS)]
    assert not cut, "\n".join(cut)


def test_a_line_left_over_goes_to_the_next_figure() -> None:
    """The figures share the panel's lines: a long last entry takes the line an earlier
    one did not need, and the total never passes STATS_LINES."""
    pygame.font.init()
    font = pygame.font.Font(None, 20)
    long = "Na této desce byla použita pomoc a ještě něco navíc"
    width = font.size(long)[0] * 2 // 3
    short = [("a", 1), ("b", 1), ("best", 2), (long, 2)]
    lines = stats_lines(short, font, width)
    assert [line for text, line in lines if text == long] == [
        line for line in board_view.wrap_fitting(long, font, width, 2)]
    assert not any(line.endswith(ELLIPSIS) for _t, line in lines)
    two_line_best = [("a", 1), ("b", 1), (long, 2), (long, 2)]
    assert len(stats_lines(two_line_best, font, width)) == board_view.STATS_LINES


def test_czech_colours_agree_with_the_button() -> None:
    """Issue 28, item 7: "tlačítko je buď světle červená" — a colour said of a button is
    neuter in Czech (its own "button colour" entries), in the help, the goal and the
    legend, in both palettes and both looks."""
    from engine.core.i18n import set_language
    from games.buttons.wording import colour_words, help_text

    try:
        set_language("cs")
        tiny = colour_words("red", "green", tiny=True)
        assert "Každé tlačítko je buď světle červené, nebo tmavě zelené." in help_text(tiny)
        ringed = colour_words("orange", "blue-green")
        assert "buď plně oranžové, nebo modrozelené s kroužkem" in help_text(ringed)
        assert ringed.goal() == "Udělej každé tlačítko plně oranžové"
        for words in (tiny, ringed):
            assert not any(f"{w}á" in help_text(words) for w in ("červen", "zelen"))
    finally:
        set_language("en")
