"""The ranked hint legend on screen says only what is true (issue 28, item 2).

Each test drives the real TicTacToeScene: a gomoku position, the hint turned on with
its key, the hint worker waited for, then the legend's rows, title, note and the
status line read from what is drawn and said. One test per observation of the issue:
an opponent's two called an open three; an open three called an open four; bad moves
under "Best moves"; a longer win ranked above a shorter one; a footnote about rank 1
that is false of it; a status line that disagrees with the list; rows in different
font sizes.
"""

from __future__ import annotations

import re
from typing import Any

import pygame
import pytest

import games.tictactoe.perfect as perfect
from engine.core.i18n import _, translate_filled
from engine.model.seats import Seat
from games.tictactoe.advice import OUTLOOKS, Candidate
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import (
    ALL_PROVEN_NOTE,
    ESTIMATE_NOTE,
    EXACT_RANK_NOTE,
    PROVEN_RANK_NOTE,
    TicTacToeScene,
)
from games.tictactoe.threats import REASONS
from tests.conftest import key, run_until
from tests.games.tictactoe.test_hint_reasons import Grid, expected_reason, far, position, row

GOMOKU = MNKConfig(15, 15, 5)
HUMANS = (Seat(), Seat())
# O has two stones in a row (and X nothing near): no open three of theirs yet.
O_TWO = {**row("O", 5, 6), **far("X", 2)}
# O has an open three (and X nothing near): no open four of theirs yet.
O_OPEN_THREE = {**row("O", 4, 5, 6), **far("X", 3)}
# O's open three and X's two: the blocks hold out at best, the rest look bad.
MOSTLY_BAD = {**row("O", 4, 5, 6), **row("X", 4, 5, r=3), (10, 10): "X"}
# X's three in row 3 wins by fours (or an open four); O's open three in row 7.
X_WINS = {**row("O", 4, 5, 6), **row("X", 3, 4, 5, r=3)}
# X completes five at (7,8).
X_FIVE = {(7, 4): "X", (7, 5): "X", (7, 6): "X", (7, 7): "X", (7, 3): "O", (0, 0): "O",
          (0, 14): "O", (14, 0): "O"}


class _FontSpy:
    """A font that notes each text it renders, with its pixel size and weight."""

    def __init__(self, font: pygame.font.Font, px: int, bold: bool,
                 log: list[tuple[str, int, bool]]) -> None:
        self._font, self._px, self._bold, self._log = font, px, bold, log

    def render(self, text: str, *args: Any, **kwargs: Any) -> pygame.Surface:
        self._log.append((text, self._px, self._bold))
        return self._font.render(text, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._font, name)


def drawn_texts(app) -> list[tuple[str, int, bool]]:
    """Every text one frame renders: (text, pixel size, bold)."""
    log: list[tuple[str, int, bool]] = []
    real = app.theme.font

    def font(size: float, bold: bool = False) -> Any:
        return _FontSpy(real(size, bold), max(6, round(size)), bold, log)

    app.theme.font = font  # on the instance: the class's method comes back on del
    try:
        app.step([])
    finally:
        del app.theme.font
    return log


def open_hint(app, marks: dict, budget: float = 1.0) -> TicTacToeScene:
    """The real scene on ``marks``, the hint turned on by its key and waited for."""
    scene = app.push(TicTacToeScene(app, GOMOKU, HUMANS))
    scene.hint_budget = budget
    scene._push(position(marks))
    if not scene.show_hints:  # the setting is remembered from an earlier game
        key(app, pygame.K_h)
    assert scene.show_hints
    run_until(app, lambda: scene.candidates(), 30, pause=0.01, message="no ranked hint")
    app.step([])
    return scene


def row_words(candidate: Candidate) -> str:
    """A legend row's words, as a player reads them (current language)."""
    return (f"{translate_filled(candidate.reason, REASONS)} · "
            f"{translate_filled(candidate.outlook, OUTLOOKS)}")


def legend(app, scene) -> dict[str, Any]:
    """What the legend shows: its title, each row's rendered lines (text, size) and the
    note's lines, read from the texts one frame renders."""
    texts = drawn_texts(app)
    ranked = scene.candidates()
    words = [row_words(c) for c in ranked]
    rows = [[(t, px) for t, px, bold in texts if not bold and len(t) > 2 and t in w]
            for w in words]
    assert all(rows), (words, [t for t in texts if not t[2]])
    notes = {n: " ".join(t for t, _px, bold in texts if not bold and t in n and len(t) > 2)
             for n in (ALL_PROVEN_NOTE, ESTIMATE_NOTE, EXACT_RANK_NOTE, PROVEN_RANK_NOTE)}
    note = max(notes, key=lambda n: len(notes[n]))
    heads = {_(t) for t in ("Best moves", "Least bad moves")}
    titles = [(t, px) for t, px, bold in texts if bold and t in heads]
    return {"title": titles[0][0] if titles else None, "rows": rows, "note": note,
            "words": words, "title_width": app.theme.font(titles[0][1], bold=True).size(
                titles[0][0])[0] if titles else 0}


def assert_reasons_true(scene) -> None:
    """Every ranked square's reason is the one the independent counter finds."""
    grid = Grid(scene.state)
    for c in scene.candidates():
        for cell in c.cells:
            if c.reason == "wins by fours (forced)":
                continue  # the threat search's own (test_gomoku_hints plays it out)
            assert c.reason == expected_reason(grid, scene.state.to_move,
                                               divmod(cell, 15)), (cell, c)


def test_an_opponents_two_is_never_called_their_open_three(app) -> None:
    """Observation 1: O has two stones; no row says "stops their open three"."""
    scene = open_hint(app, O_TWO)
    assert_reasons_true(scene)
    reasons = {c.reason for c in scene.candidates()}
    assert "stops their open three" not in reasons
    assert "stops them making an open three" in reasons


def test_an_open_three_is_never_called_their_open_four(app) -> None:
    """Observation 2: O has an open three; the blocks say so, not "open four"."""
    scene = open_hint(app, O_OPEN_THREE)
    assert_reasons_true(scene)
    reasons = {c.reason for c in scene.candidates()}
    assert "stops their open three" in reasons
    assert not any("their open four" in r for r in reasons)


# Each waits for a real 15×15 hint (about a second): the full run has them.
@pytest.mark.slow
@pytest.mark.parametrize("marks", [O_TWO, MOSTLY_BAD], ids=["all-bad", "mostly-bad"])
def test_no_bad_move_under_best_moves(app, monkeypatch, marks) -> None:
    """Observation 3: a row that looks bad is left out where a better one is shown; where
    every row looks bad, the title says "Least bad moves", not "Best moves"."""
    scene = open_hint(app, marks)
    seen = legend(app, scene)
    ranked = scene.candidates()
    bad = [c.outlook == "bad" or c.value.outcome == "loss" for c in ranked]
    assert all(bad) or not any(bad), [(c.reason, c.outlook) for c in ranked]
    assert seen["title"] == ("Least bad moves" if all(bad) else "Best moves")
    # The title, in every language, within the legend's box.
    room = app.viewport.map_rect(tuple(scene.layout()["legend"]))
    for language in ("en", "hu", "cs"):
        app.set_language(language)
        seen = legend(app, scene)
        assert seen["title"] == _("Least bad moves" if all(bad) else "Best moves")
        assert seen["title_width"] <= room.width, (language, seen["title"])


def _distance(outlook: str) -> int | None:
    found = re.fullmatch(r"wins (?:in|within) (\d+)", outlook)
    return int(found.group(1)) if found else None


@pytest.mark.slow
def test_proven_wins_rank_by_distance_and_above_estimates(app, monkeypatch) -> None:
    """Observation 4: rows go exact (quickest first), proven, then estimates; a row saying
    "wins in n" is exact, an estimate's distance is only "looks like"; no longer win
    claimed above a shorter one."""
    for marks in (X_WINS, X_FIVE):
        scene = open_hint(app, marks)
        ranked = scene.candidates()
        order = {"exact": 0, "proven": 1, "estimate": 2}
        keys = [(order[c.certainty], _distance(c.outlook) or 0) for c in ranked]
        assert keys == sorted(keys), [(c.outlook, c.certainty) for c in ranked]
        for c in ranked:
            if c.outlook.startswith("wins in "):
                assert c.certainty == "exact" and c.value.label() == f"W{_distance(c.outlook)}"
            if c.certainty == "estimate":
                assert c.value.label().startswith("~")
                assert not c.outlook.startswith(("wins", "proven")), c
        # The proven rows' distances (a bare "proven win" as the farthest): shortest first.
        claims = [_distance(c.outlook) or 99 for c in ranked if c.certainty != "estimate"]
        assert claims == sorted(claims)
        app.pop()


def test_the_footnote_is_true_of_rank_one(app, monkeypatch) -> None:
    """Observation 5: beside "wins now · wins in 1" the note says rank 1 is proven with
    its moves to the end, never that they were not worked out."""
    scene = open_hint(app, X_FIVE)
    first = scene.candidates()[0]
    assert (first.reason, first.outlook, first.certainty) == ("wins now", "wins in 1", "exact")
    seen = legend(app, scene)
    assert seen["note"] in (EXACT_RANK_NOTE, ALL_PROVEN_NOTE)
    assert "not worked out" not in seen["note"]


def test_the_status_line_and_the_list_agree(app, monkeypatch) -> None:
    """Observation 6: with the prover out of time, the win by fours is rank 1, proven; the
    status line says the first is proven (not "an estimate"), as the note does."""
    monkeypatch.setattr(perfect, "exact_or_proven", lambda *_a, **_k: ({}, False))
    scene = open_hint(app, X_WINS)
    ranked = scene.candidates()
    first = ranked[0]
    assert first.reason == "wins by fours (forced)", [(c.reason, c.outlook) for c in ranked]
    assert first.certainty == "proven" and first.value.label() == "W"
    assert first.outlook.startswith("wins within ")
    status = scene.status_text()
    assert "an estimate" not in status
    seen = legend(app, scene)
    if all(c.certainty != "estimate" for c in ranked):
        assert "all proven" in status and seen["note"] == ALL_PROVEN_NOTE
    else:
        assert "the first is proven" in status and seen["note"] == PROVEN_RANK_NOTE


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "hu", "cs"])
def test_every_row_of_the_list_in_one_font_size(app, monkeypatch, language) -> None:
    """Observation 7: all rows' lines are rendered in one size, in the real scene (its own
    hint) and with the longest and shortest reasons side by side."""
    from engine.model.values import MoveValue

    scene = open_hint(app, O_OPEN_THREE)
    app.set_language(language)
    seen = legend(app, scene)
    sizes = {px for lines in seen["rows"] for _t, px in lines}
    assert len(sizes) == 1, seen["rows"]
    longest = max(REASONS, key=len).format(four="four", three="three", count=20)
    mixed = [Candidate(1, (0,), MoveValue("win", None, False, note=longest),
                       "looks like a win in 11"),
             Candidate(2, (1,), MoveValue("win", None, False, note="wins now"), "good"),
             Candidate(3, (2,), MoveValue("draw", None, False, note="blocks a line"), "even")]
    monkeypatch.setattr(scene, "candidates", lambda: mixed)
    seen = legend(app, scene)
    sizes = {px for lines in seen["rows"] for _t, px in lines}
    assert len(sizes) == 1, seen["rows"]
