"""The board's hints write the outcome letters of the player's language, the statistics'
own, and the legend explains them (issue 28, item 8: hu and cs boards said W/D/L while
the statistics said Gy/D/V and V/R/P)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pygame
import pytest

import engine.ui.value_overlay as value_overlay
from engine.core.i18n import _
from engine.model.seats import Seat
from engine.screens.stats_table import COLUMN_HEADS, PLAYER
from tests.conftest import key, wait_hints
from tests.support.screen_cases import app_at

# What a native reader expects, and what the statistics' column heads say.
LETTERS = {"en": ("W", "D", "L"), "hu": ("Gy", "D", "V"), "cs": ("V", "R", "P")}


def _spy(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[list[tuple[str, str, str]]]]:
    """Record the labels the board's cells get and the legend's rows, as drawn."""
    labels: list[str] = []
    legends: list[list[tuple[str, str, str]]] = []
    real_label, real_entries = value_overlay.value_label, value_overlay.legend_entries

    def label(value: Any) -> str:
        labels.append(real_label(value))
        return labels[-1]

    def entries(*args: Any, **kwargs: Any) -> list[tuple[str, str, str]]:
        legends.append(real_entries(*args, **kwargs))
        return legends[-1]

    monkeypatch.setattr(value_overlay, "value_label", label)
    monkeypatch.setattr(value_overlay, "legend_entries", entries)
    return labels, legends


@pytest.mark.parametrize("game", ["tictactoe", "connect4"])
def test_hints_use_the_statistics_letters_in_every_language(
        profile: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    from engine.model.registry import find_game

    labels, legends = _spy(monkeypatch)
    with app_at(profile, (960, 720)) as app:
        scene = app.push(find_game(game).open_scene(app, None, seats=(Seat(), Seat())))
        app.step([])
        key(app, pygame.K_h)
        wait_hints(app, scene)
        for language, (win, draw, loss) in LETTERS.items():
            app.set_language(language)
            # The statistics' heads (played, won, drawn, lost) in this language.
            assert tuple(_(h) for h in COLUMN_HEADS[PLAYER][1:]) == (win, draw, loss)
            labels.clear()
            legends.clear()
            app.step([])
            assert labels, f"{language}: the board drew its hints"
            for text in labels:
                letter = re.sub(r"[~\d]", "", text)
                assert letter in (win, draw, loss), f"{language}: {text!r} on the board"
            assert legends, f"{language}: the legend was drawn"
            tags = {outcome: tag for tag, outcome, _m in legends[-1]}
            assert tags["win"] == f"{win} n" and tags["draw"] == draw
            assert tags["loss"] == f"{loss} n"
            meanings = [m for _t, _o, m in legends[-1]]
            assert meanings[:3] == [_("win"), _("draw"), _("loss")]
