"""The hint overlay in the real scene, checked against an independent minimax."""

from __future__ import annotations

import json
from functools import cache

import pygame
import pytest

from engine.model.seats import Seat
from games.tictactoe.rules import MNKConfig, TicTacToeState
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import click_widget, key, run_until
from tests.support.screens import cell_centre

HUMANS = (Seat(), Seat())


@cache
def minimax(state: TicTacToeState) -> tuple[int, int]:
    """(outcome for the player to move: 1/0/-1, plies to the end) with best play.

    Winners take the quickest win, losers the longest resistance.
    """
    best: tuple[int, int] | None = None
    for move in state.legal_moves():
        child = state.play(move)
        if child.winner is not None:
            value = (1, 1)
        elif child.is_draw:
            value = (0, 1)
        else:
            o, p = minimax(child)
            value = (-o, p + 1)
        if best is None or _better(value, best):
            best = value
    assert best is not None
    return best


def _better(a: tuple[int, int], b: tuple[int, int]) -> bool:
    if a[0] != b[0]:
        return a[0] > b[0]
    if a[0] > 0:
        return a[1] < b[1]
    if a[0] < 0:
        return a[1] > b[1]
    return False


def expected_hint(state: TicTacToeState, move: int) -> str:
    child = state.play(move)
    if child.winner is not None:
        return "W1"
    if child.is_draw:
        return "D"
    o, p = minimax(child)
    return {1: f"L{p + 1}", 0: "D", -1: f"W{p + 1}"}[o]


def wait_hints(app, scene, timeout: float = 15.0) -> None:
    run_until(app, lambda: scene.hints, timeout, pause=0.005, message="no hints in time")


@pytest.mark.slow
def test_hints_on_the_empty_board_are_all_draws_and_drawn(app) -> None:
    scene = app.push(TicTacToeScene(app, MNKConfig(), HUMANS))
    key(app, pygame.K_h)
    assert scene.show_hints
    wait_hints(app, scene)
    app.step([])
    state = scene.debug_state()
    assert state["hints"] == {str(m): "D" for m in range(9)}
    # The cell is tinted with the draw colour (not just the board colour), text on top.
    geom = scene.geometry()
    corner = geom.cell_rect(0, 0).inflate(-6, -6).topleft
    pixel = app.screen.get_at(corner)[:3]
    board, neutral = app.theme.palette.board, app.theme.palette.neutral
    assert sum(abs(a - b) for a, b in zip(pixel, neutral, strict=True)) < sum(
        abs(a - b) for a, b in zip(pixel, board, strict=True))


@pytest.mark.slow
def test_every_hint_matches_minimax_in_positions_with_wins_and_losses(app) -> None:
    scene = app.push(TicTacToeScene(app, MNKConfig(), HUMANS))
    click_widget(app, "Hint")
    positions = [["XX.", "OO.", "..."], ["X..", ".O.", "..X"], ["XO.", "...", "..."],
                 [".X.", "...", "..."], ["XOX", ".O.", "..."]]
    for rows in positions:
        state = TicTacToeState.from_rows(rows)
        scene._push(state)
        wait_hints(app, scene)
        got = scene.debug_state()["hints"]
        assert got == {str(m): expected_hint(state, m) for m in state.legal_moves()}, rows


def test_hints_toggle_and_are_remembered(app, profile) -> None:
    scene = app.push(TicTacToeScene(app, MNKConfig(), HUMANS))
    key(app, pygame.K_h)
    key(app, pygame.K_h)
    assert not scene.show_hints
    key(app, pygame.K_h)
    saved = json.loads((profile / "settings.json").read_text())
    assert saved["show_hints"] is True
    # A move drops the old hints; new ones arrive for the new position.
    wait_hints(app, scene)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN,
                                         pos=app.viewport.point(*cell_centre(scene, 1, 1)),
                                         button=1))
    app.step()
    assert scene.state.moves_made == 1
    wait_hints(app, scene)
    assert len(scene.hints) == 8


@pytest.mark.slow
def test_big_board_hints_are_labelled_estimates(app) -> None:
    scene = app.push(TicTacToeScene(app, MNKConfig(15, 15, 5), HUMANS))
    scene._push(scene.state.play(7 * 15 + 7))
    key(app, pygame.K_h)
    wait_hints(app, scene, timeout=30)
    texts = set(scene.debug_state()["hints"].values())
    assert texts and all(t.startswith("~") for t in texts)
    assert "estimate" in scene.status_text()


def test_no_hints_for_three_players(app) -> None:
    scene = app.push(TicTacToeScene(app, MNKConfig(4, 4, 3, players=3), HUMANS + (Seat(),)))
    key(app, pygame.K_h)
    assert not scene.show_hints and any("two-player" in n for n in app.notices)


@pytest.mark.slow
def test_hints_are_exact_on_the_boards_the_issue_names() -> None:
    """Exact from the empty board within the hint budget, and consistent with the
    published results: a first-player win exists on (4,3,3) and (4,4,3), (4,4,4) is a draw."""
    from games.tictactoe.perfect import move_values
    from games.tictactoe.scene import HINT_BUDGET

    for cfg, best in ((MNKConfig(3, 3, 3), "draw"), (MNKConfig(4, 3, 3), "win"),
                      (MNKConfig(4, 4, 3), "win"), (MNKConfig(4, 4, 4), "draw"),
                      (MNKConfig(5, 4, 4), "draw")):
        values = move_values(TicTacToeState.new(cfg), None, HINT_BUDGET)
        assert len(values) == cfg.rows * cfg.cols
        assert all(v.exact for v in values.values()), cfg
        outcomes = {v.outcome for v in values.values()}
        assert best in outcomes and ("win" not in outcomes or best == "win"), cfg


@pytest.mark.slow
def test_7x6_hints_rank_the_book_win_first_and_say_the_rest_are_estimates(app) -> None:
    """On the empty 7×6 board with 4 in a row the distances are out of reach: the ranked
    hint puts the opening book's proven winning square first as a bare W (tinted as a win),
    the other ranked squares are estimates, and the status bar and legend say which is
    which."""
    from games.tictactoe.opening_book import book_for
    from games.tictactoe.scene import PROVEN_RANK_NOTE
    from games.tictactoe.search_state import MNKSearchState

    scene = app.push(TicTacToeScene(app, MNKConfig(7, 6, 4), HUMANS))
    key(app, pygame.K_h)
    wait_hints(app, scene, timeout=30)
    app.step([])
    debug = scene.debug_state()
    book_move = book_for(7, 6, 4).lookup(MNKSearchState.new(7, 6, 4)).move
    first, *rest = debug["ranked"]
    # The book's square and its mirror image (the empty board's symmetry) share rank 1.
    assert first["cells"] == sorted({book_move, book_move // 6 * 6 + 5 - book_move % 6})
    assert first["value"] == "W"
    assert first["reason"] and (first["outlook"] == "proven win"
                                or first["outlook"].startswith("wins in"))
    assert rest and all(r["value"].startswith("~") and book_move not in r["cells"]
                        for r in rest)
    assert debug["hints"][str(book_move)] == "W"
    assert "the first is proven" in scene.status_text()
    assert "1: proven" in PROVEN_RANK_NOTE
    # The proven square's rank badge is drawn in the winning colour.
    geom = scene.geometry()
    cx, cy = geom.cell_rect(*divmod(book_move, 6)).center
    pixel = app.screen.get_at((round(cx - geom.cell_size * 0.3 * 0.6), cy))[:3]
    assert pixel == app.theme.palette.good[:3]


@pytest.mark.slow
def test_hints_in_a_proven_lost_7x6_position_mark_every_square_a_bare_loss(app) -> None:
    """After the book's winning first move, every reply is a proven loss (the book): the
    scene shows a bare L on every square and the legend's note explains it."""
    from engine.ui.value_overlay import PROVEN_NOTE, hint_note
    from games.tictactoe.opening_book import book_for
    from games.tictactoe.search_state import MNKSearchState

    scene = app.push(TicTacToeScene(app, MNKConfig(7, 6, 4), HUMANS))
    scene._push(scene.state.play(book_for(7, 6, 4).lookup(MNKSearchState.new(7, 6, 4)).move))
    key(app, pygame.K_h)
    wait_hints(app, scene, timeout=30)
    app.step([])
    debug = scene.debug_state()
    assert debug["ranked"] == [] and set(debug["hints"].values()) == {"L"}
    assert len(debug["hints"]) == 41
    assert hint_note(scene.hints) == PROVEN_NOTE
    assert "estimate" not in scene.status_text()
