"""The Grundy board games through the real scene: moves, selection, placing, computer, hints."""

from __future__ import annotations

import pygame
import pytest

from engine.model.seats import Seat
from engine.screens.launcher import LauncherScene
from games.grundy.scene_board import GrundyBoardScene
from games.grundy.scenes import scene_for
from games.grundy.setup_scene import GrundySetupOverlay
from games.grundy.tables import grundy_table
from games.grundy.variants import GrundySetup
from tests.conftest import click, click_widget, grid_centre, key, run_until

HUMANS = (Seat(), Seat())
PERFECT = Seat("computer", "perfect")


def square(scene: GrundyBoardScene, row: int, col: int) -> tuple[float, float]:
    """Design-space centre of a square, from the board the scene's layout gives."""
    board = tuple(scene.layout()["board"])
    return grid_centre(board, scene.config.rows, scene.config.cols, row, col)


def open_board(app, seats=HUMANS, **setup) -> GrundyBoardScene:
    scene = app.push(scene_for(app, GrundySetup(**setup), seats, seed=1))
    app.step([])
    return scene


def test_launcher_opens_the_grundy_games_and_back_returns(app) -> None:
    click_widget(app, "grundy")
    assert isinstance(app.top, GrundyBoardScene)
    assert app.top.state.tokens == ((7, 7),)  # the bottom-right corner of 8×8
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, LauncherScene)


def test_king_moves_only_to_highlighted_squares(app) -> None:
    scene = open_board(app, game="king")
    assert set(scene.targets_of(0)) == {(6, 7), (7, 6), (6, 6)}
    click(app, *square(scene, 5, 5))  # two squares away: not a king move
    assert scene.state.tokens == ((7, 7),)
    click(app, *square(scene, 6, 6))
    assert scene.state.tokens == ((6, 6),) and scene.state.current_player() == 1


def test_rook_game_to_the_corner_wins(app) -> None:
    scene = open_board(app, game="rook", rows=5, cols=5)
    # The corner (4, 4) is lost for the first player: the fair start is next to it.
    assert scene.state.tokens == ((4, 3),)
    click(app, *square(scene, 0, 3))  # player 1 slides up
    click(app, *square(scene, 0, 0))  # player 2 reaches the corner
    assert scene.state.is_terminal()
    assert scene.state.returns() == (-1.0, 1.0)
    assert scene.status_text().startswith("Player 2 wins")
    rows = app.stats.game_summary()
    assert [(r.variant, r.mode, r.lost) for r in rows] == [("rook-5x5", "human-human", 1)]


def test_several_tokens_select_and_move_one(app) -> None:
    scene = open_board(app, game="queen", rows=6, cols=6, tokens=2)
    click_widget(app, "Place")  # both tokens on one square
    click(app, *square(scene, 5, 5))
    click(app, *square(scene, 5, 5))
    click_widget(app, "Place")
    assert scene.state.tokens == ((5, 5), (5, 5)) and scene.selected == 0
    click(app, *square(scene, 5, 5))  # a click on the shared square selects the next token
    assert scene.selected == 1
    key(app, pygame.K_1)
    assert scene.selected == 0
    click(app, *square(scene, 3, 3))
    assert scene.state.tokens == ((3, 3), (5, 5))


def test_place_mode_starts_from_any_square(app) -> None:
    scene = open_board(app, game="king", rows=8, cols=8)
    click_widget(app, "Place")
    click(app, *square(scene, 2, 3))
    click_widget(app, "Place")
    assert scene.state.tokens == ((2, 3),) and scene.state.current_player() == 0
    click_widget(app, "Undo")
    assert scene.state.tokens == ((7, 7),)


@pytest.mark.slow
def test_perfect_computer_answers_with_a_move_to_zero(app) -> None:
    scene = open_board(app, seats=(Seat(), PERFECT), game="king", rows=8, cols=8)
    table = grundy_table("king", 8, 8)
    click(app, *square(scene, 6, 7))  # value 1: the computer can move to a 0
    run_until(app, lambda: scene.state.current_player() == 0)
    (r, c), = scene.state.tokens
    assert table[r, c] == 0


@pytest.mark.slow
def test_hints_show_values_zero_pattern_and_winning_moves(app) -> None:
    scene = open_board(app, game="queen", rows=8, cols=8, tokens=2)
    assert scene.state.tokens == ((7, 7), (7, 6))  # the fair start: 5 ⊕ 4 ≠ 0
    key(app, pygame.K_2)  # select token 2
    click(app, *square(scene, 2, 6))  # tokens now on (7,7) and (2,6): 5 ⊕ 8 ≠ 0
    key(app, pygame.K_h)
    run_until(app, lambda: bool(scene.hints))
    state = scene.state
    table = grundy_table("queen", 8, 8)
    total = int(table[7, 7]) ^ int(table[2, 6])
    assert total != 0 and f"= {total}" in scene.status_text() and "⊕" in scene.status_text()
    expected = {(t, r, c) for t, r, c in state.legal_moves()
                if int(table[r, c]) ^ int(table[state.tokens[1 - t]]) == 0}
    assert expected and set(scene.hint_view()["winning"]) == expected
    app.step([])
    # A value-0 square is tinted with the "lost" colour and striped.
    geom = scene.geometry()
    rect = geom.cell_rect(0, 0)
    colours = {tuple(app.screen.get_at((x, rect.centery + 3)))[:3]
               for x in range(rect.left + 2, rect.right - 2)}
    assert len(colours) > 3  # stripes, not a flat fill


def test_table_view_opens_and_closes(app) -> None:
    scene = open_board(app, game="knight", rows=10, cols=12)
    click_widget(app, "Table")
    assert app.top.debug_state()["size"] == [10, 12]
    key(app, pygame.K_ESCAPE)
    assert app.top is scene


def test_setup_switches_game_and_is_remembered(app, profile) -> None:
    open_board(app, game="king")
    key(app, pygame.K_s)
    assert isinstance(app.top, GrundySetupOverlay)
    click_widget(app, "rook")
    click_widget(app, "Rows+")
    click_widget(app, "Tokens+")
    click_widget(app, "2 computer")
    click_widget(app, "Start")
    scene = app.top
    assert isinstance(scene, GrundyBoardScene)
    assert (scene.config.piece, scene.config.rows, scene.config.tokens) == ("rook", 9, 2)
    assert scene.seats[1].is_computer
    key(app, pygame.K_ESCAPE)
    click_widget(app, "grundy")
    assert app.top.config.piece == "rook" and app.top.config.rows == 9


def test_the_goal_star_shows_over_the_hints(app) -> None:
    """Issue 28: with hints on the ★ of the goal square was not drawn (the values and the
    winning move's marks took its square). It is drawn over them, in the square's
    top-left corner, clear of the value in the middle and the ✓ at the top right."""
    scene = open_board(app, game="queen", rows=8, cols=8, tokens=1)
    start = scene.state.tokens[0]
    geom = scene.geometry()
    app.step([])
    app.draw()
    assert scene.goal_rect is not None and scene.goal_rect.center == geom.cell_rect(0, 0).center
    # A queen move onto the goal's row, then hints: the goal is a winning move to mark.
    click(app, *square(scene, 0, start[1]))
    if scene.state.tokens[0] != (0, start[1]):
        pytest.skip("the fair start did not allow that move")
    key(app, pygame.K_h)
    run_until(app, lambda: bool(scene.hints))
    assert any((r, c) == (0, 0) for (_t, r, c) in scene.hints)
    app.step([])
    app.draw()
    goal, star_rect = geom.cell_rect(0, 0), scene.goal_rect
    assert star_rect is not None and goal.contains(star_rect)
    theme, size = app.theme, geom.cell_size
    p = theme.palette
    # Every solid pixel of the ★ is on screen in the accent colour: nothing covers it.
    star = theme.font(max(8.0, size * 0.3), bold=True).render("★", True, p.accent)
    solid = [(x, y) for x in range(star.get_width()) for y in range(star.get_height())
             if star.get_at((x, y)).a == 255]
    assert len(solid) > 20
    assert all(app.screen.get_at((star_rect.x + x, star_rect.y + y))[:3] == p.accent[:3]
               for x, y in solid)
    # ... and it covers neither the value (centred, on its backing) nor the ✓.
    value = theme.font(max(7.0, size * 0.32), bold=True).render("0", True, p.text)
    assert not star_rect.colliderect(value.get_rect(center=goal.center).inflate(6, 2))
    tick = theme.font(max(8.0, size * 0.4), bold=True).render("✓", True, p.text)
    assert not star_rect.colliderect(tick.get_rect(topright=(goal.right - 2, goal.top)))
