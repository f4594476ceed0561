"""The review screen (engine.screens.review_scene), reached through the result panel with
real clicks and keys: the move list and its grades, choosing a move (list, graph, keys),
the board drawn before that move, the value graph's marks, Play from here, cancelling,
the cache, and its layout in every window, palette and language."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pygame
import pytest

from engine.ai.review import review_game
from engine.model.registry import find_game
from engine.model.seats import Seat
from engine.screens.result_overlay import ResultOverlay
from engine.screens.review_scene import ReviewScene, graph_y, review_layout, short_value
from engine.ui.theme import PALETTES
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import click, click_widget, key, make_app, run_until
from tests.support.screen_cases import app_at

HUMANS = (Seat(), Seat())
# X centre, O an edge (gives the draw away: move 2), X wins in 5 but lets it go to a draw
# (move 5) and then to a loss (move 7), O lets that win go (move 8), X draws.
GAME = [4, 1, 0, 8, 2, 6, 3, 5, 7]


def click_cell(app: Any, scene: Any, cell: int) -> None:
    """A real click on a tic-tac-toe cell."""
    row, col = divmod(cell, scene.state.config.cols)
    pos = tuple(round(v) for v in scene.geometry().cell_center(row, col))
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
              pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])


def played(app: Any, moves: list[int] = GAME) -> Any:
    """A hot-seat tic-tac-toe game played by clicks to its end; the result panel up."""
    scene = app.push(TicTacToeScene(app, MNKConfig(), seats=HUMANS, seed=3))
    app.step([])
    for cell in moves:
        click_cell(app, scene, cell)
    assert scene.state.is_terminal()
    run_until(app, lambda: isinstance(app.top, ResultOverlay), timeout=5)
    return scene


def reviewed(app: Any) -> ReviewScene:
    """Press Review on the result panel and wait for the analysis."""
    click_widget(app, "Review")
    assert isinstance(app.top, ReviewScene)
    review = app.top
    run_until(app, lambda: review.review is not None, timeout=20)
    app.step([])
    return review


def test_review_lists_every_move_with_its_grade_and_opens_on_the_first_slip(app) -> None:
    played(app)
    review = reviewed(app)
    grades = [m.grade for m in review.review.moves]
    assert grades == ["best", "mistake", "best", "best", "mistake", "best", "mistake",
                      "mistake", "best"]
    assert review.selected == 1  # O's move 2, the first slip
    assert [review.move_text(i) for i in range(3)] == ["b2", "b3", "a3"]
    status = review.status_text()
    assert status.startswith("Move 2, O: b3. Before D, after L5: mistake.")
    assert "Best: a3, c3, a1, c1." in status
    # The selected row is drawn chosen (tinted, in the accent frame).
    layout = review.layout()["list"]
    row = app.viewport.map_rect((layout.x, layout.y + 1 * 24, layout.w, 22))
    assert app.screen.get_at((row.x + row.w // 2, row.y + 3))[:3] == \
        app.theme.palette.selected


def test_keys_list_and_graph_choose_a_move_and_the_board_follows(app) -> None:
    played(app)
    review = reviewed(app)
    key(app, pygame.K_DOWN)
    assert review.selected == 2
    key(app, pygame.K_END)
    assert review.selected == 8
    key(app, pygame.K_HOME)
    assert review.selected == 0
    # A click on the fourth row of the list.
    listing = review.layout()["list"]
    click(app, listing.x + 20, listing.y + 3 * 24 + 10)
    assert review.selected == 3
    # A click on the graph at the seventh move's point.
    plot = review.plot_rect()
    click(app, plot.x + (6.5 / 9) * plot.w, plot.centery)
    assert review.selected == 6
    # The board is the game's own drawing of the position before move 7, with its hints.
    view = review.view
    assert view.state == review.states[6] and view.show_hints
    assert set(view.hints) == set(review.states[6].legal_moves())


def test_the_graph_marks_blunders_and_mistakes_in_the_bad_colour(app) -> None:
    played(app)
    review = reviewed(app)
    plot = app.viewport.map_rect(tuple(review.plot_rect()))
    bad = app.theme.palette.bad
    # Move 2 (a mistake) is ringed: bad-coloured pixels around its point.
    entry = review.review.moves[1]
    y = graph_y(entry.first_player_after(), 5)
    assert y is not None
    cx = round(plot.x + 1.5 * plot.w / 9)
    cy = round(plot.centery - y * plot.h / 2)
    ring = [app.screen.get_at((cx + dx, cy + dy))[:3] for dx in range(-12, 13)
            for dy in range(-12, 13)]
    assert bad in ring
    assert graph_y(entry.first_player_after(), 5) > 0  # O's slip: up, X's side


def test_play_from_here_starts_a_new_game_there_and_keeps_the_reviewed_one(app) -> None:
    scene = played(app)
    review = reviewed(app)
    key(app, pygame.K_DOWN)  # move 3: X's, from the position after move 2
    click_widget(app, "Play from here")
    assert app.top is scene
    assert scene.state == review.states[2] and not scene.state.is_terminal()
    assert scene.seats == HUMANS
    assert scene.match.game_record()[1] == tuple(GAME[:2])
    # The reviewed game is still there: Undo takes the replayed moves back, then the new
    # game's start, and shows it finished; Redo comes back.
    for _ in range(3):
        key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.state.is_terminal()
    assert scene.match.game_record()[1] == tuple(GAME)
    for _ in range(3):
        key(app, pygame.K_y, pygame.KMOD_CTRL)
    assert scene.state == review.states[2]
    click_cell(app, scene, 2)  # and the better move can be played
    assert scene.state == review.states[2].play(2)


def test_back_cancels_the_analysis_and_a_finished_review_is_kept(app) -> None:
    scene = played(app)
    click_widget(app, "Review")
    review = app.top
    assert isinstance(review, ReviewScene)
    key(app, pygame.K_ESCAPE)
    assert app.top is scene and not review.runner.busy
    # Finished once, the review is kept with the game: opened again, it is there at once.
    app.push(ResultOverlay(app, scene))
    reviewed(app)
    key(app, pygame.K_ESCAPE)
    app.push(ResultOverlay(app, scene))
    click_widget(app, "Review")
    assert app.top.review is not None and not app.top.runner.busy


def test_progress_is_shown_while_the_analysis_runs(app, monkeypatch) -> None:
    import threading

    gate = threading.Event()
    hints = find_game("tictactoe").hint_function()

    def slow(state: Any, cancel: threading.Event, limit: Any) -> Any:
        gate.wait(5)
        return hints(state, cancel, limit)
    played(app)
    monkeypatch.setattr(type(find_game("tictactoe")), "hint_function", lambda self: slow)
    click_widget(app, "Review")
    review = app.top
    assert isinstance(review, ReviewScene) and review.busy and review.is_active()
    assert review.status_text() == "Working out every move… 0 of 9 positions. Back stops it."
    gate.set()
    run_until(app, lambda: review.review is not None, timeout=20)


def test_three_players_are_told_review_is_not_available(app) -> None:
    three = MNKConfig(4, 4, 3, players=3)
    scene = app.push(TicTacToeScene(app, three, seats=(Seat(),) * 3, seed=3))
    rng = random.Random(1)
    while not scene.state.is_terminal():
        scene.play_move(rng.choice(scene.state.legal_moves()))
    run_until(app, lambda: isinstance(app.top, ResultOverlay), timeout=5)
    click_widget(app, "Review")
    assert isinstance(app.top, ResultOverlay)
    assert any("Review is not available for games of three or more players" in text
               for text in app.toasts.texts)


@pytest.mark.parametrize("size", [(640, 480), (960, 720), (1280, 720), (1080, 1920),
                                  (1920, 1080), (800, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_review_fits_every_window_and_nothing_overlaps(profile: Path,
                                                           size: tuple[int, int]) -> None:
    with app_at(profile, size) as app:
        played(app)
        review = reviewed(app)
        window = app.screen.get_rect()
        vp = app.viewport
        layout = review.layout()
        regions = [(n, vp.map_rect(tuple(layout[n])))
                   for n in ("board", "graph", "summary", "list", "toolbar", "status_bar")]
        widgets = [(w.name if hasattr(w, "name") else "label", vp.map_rect(w.rect))
                   for w in review.ui.widgets if w.visible]
        for name, rect in regions + widgets:
            assert rect.w > 0 and rect.h > 0 and window.contains(rect), (name, rect, window)
        for (a, ra), (b, rb) in itertools.combinations(regions, 2):
            if {a, b} & {"toolbar", "status_bar"} and not {a, b} <= {"toolbar",
                                                                     "status_bar"}:
                continue  # the bands hold widgets, not regions
            assert not ra.colliderect(rb), (a, ra, b, rb)
        body = [r for r in regions if r[0] not in ("toolbar", "status_bar")]
        for (a, ra), (b, rb) in itertools.product(widgets, body):
            assert not ra.colliderect(rb), (a, ra, b, rb)
        for (a, ra), (b, rb) in itertools.combinations(widgets, 2):
            assert not ra.colliderect(rb), (a, ra, b, rb)
        assert review.list_rows() >= 1


def test_layout_keeps_its_parts_apart_in_any_area() -> None:
    from pygame import FRect

    for w, h in itertools.product((480, 640, 960, 1400, 2000), (360, 480, 720, 1200, 2000)):
        area = FRect(0, 0, w, h)
        rects = review_layout(area)
        parts = [rects[n] for n in ("board", "graph", "summary", "list")]
        for rect in parts:
            assert area.contains(rect), (w, h, rect)
        for a, b in itertools.combinations(parts, 2):
            assert not a.colliderect(b), (w, h, a, b)


# English in every palette in the quick run; the other languages in the full one.
@pytest.mark.parametrize("language", ["en", pytest.param("hu", marks=pytest.mark.slow),
                                      pytest.param("cs", marks=pytest.mark.slow)])
@pytest.mark.parametrize("palette", sorted(PALETTES))
def test_the_review_reads_in_every_palette_and_language(profile: Path, language: str,
                                                        palette: str) -> None:
    """Every text in the player's language (none left in English), the graph's marks in
    colours that stand out from its background in every palette."""
    app = make_app(profile)
    try:
        app.set_language(language)
        app.theme.set_palette(palette)
        played(app)
        review = reviewed(app)
        status = review.status_text()
        if language != "en":
            assert "Before" not in status and "mistake" not in status, status
        p = app.theme.palette

        def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
            def lum(c: tuple[int, ...]) -> float:
                def ch(v: int) -> float:
                    s = v / 255
                    return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
                return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])
            hi, lo = sorted((lum(a), lum(b)), reverse=True)
            return (hi + 0.05) / (lo + 0.05)
        for colour in (p.good, p.bad, p.neutral, p.text, p.focus):
            assert contrast(colour, p.panel) >= 3.0, (palette, colour)
    finally:
        app.quit()
        app.stats.close()


def test_review_values_match_a_plain_review_of_the_same_moves(app) -> None:
    """What the screen shows is engine.ai.review's answer for the game's moves."""
    played(app)
    review = reviewed(app)
    game = find_game("tictactoe")
    plain = review_game(review.start, list(GAME), game.hint_function())
    assert [(m.before, m.after, m.grade) for m in plain.moves] == \
        [(m.before, m.after, m.grade) for m in review.review.moves]


def test_copy_record_puts_the_game_on_the_clipboard_as_one_line(app) -> None:
    played(app)
    reviewed(app)
    click_widget(app, "Copy record")
    record = "tictactoe 3x3:k3 b2 b3 a3 c1 c3 a1 a2 c2 b1"
    assert pygame.scrap.get_text() == record
    assert any(record in text for text in app.toasts.texts)
    pygame.scrap.put_text("")
    key(app, pygame.K_c, pygame.KMOD_CTRL)
    assert pygame.scrap.get_text() == record


def test_a_pasted_record_opens_as_a_new_game_to_review(app) -> None:
    scene = played(app)
    reviewed(app)
    pygame.scrap.put_text("tictactoe 3x3:k3 b2 a1")
    key(app, pygame.K_v, pygame.KMOD_CTRL)
    review = app.top
    assert isinstance(review, ReviewScene) and review.moves == (4, 6)
    run_until(app, lambda: review.review is not None, timeout=20)
    assert scene.state == review.states[-1] and not scene.state.is_terminal()
    # The reviewed game is kept: Undo goes back to it.
    key(app, pygame.K_ESCAPE)
    for _ in range(3):
        key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.match.game_record()[1] == tuple(GAME)


@pytest.mark.parametrize(("record", "says"), [
    ("tictactoe 3x3:k3 b2 b2", "word 4: move 2 (b2) is not a legal move there"),
    ("chess 8x8 e4", "word 1: no game is called 'chess'"),
    ("connect4 7x6 4453", "That record is a game of Connect Four (7×6"),
    ("tictactoe 4x4:k4 a1", "That record is a game of Tic-tac-toe"),
])
def test_a_record_that_cannot_be_opened_says_why_and_changes_nothing(app, record: str,
                                                                    says: str) -> None:
    scene = played(app)
    review = reviewed(app)
    before = scene.match.history.entries
    pygame.scrap.put_text(record)
    key(app, pygame.K_v, pygame.KMOD_CTRL)
    assert app.top is review and scene.match.history.entries == before
    assert any(says in text for text in app.toasts.texts), app.toasts.texts


def test_record_errors_are_said_in_the_players_language(app) -> None:
    app.set_language("hu")
    played(app)
    review = reviewed(app)
    pygame.scrap.put_text("tictactoe 3x3:k3 b2 b2")
    key(app, pygame.K_v, pygame.KMOD_CTRL)
    assert app.top is review
    text = app.toasts.texts[-1]
    assert "word" not in text and "legal" not in text, text


def test_a_board_that_cannot_be_drawn_leaves_the_review_usable(app, monkeypatch) -> None:
    played(app)
    review = reviewed(app)

    def broken(*args: Any) -> None:
        raise RuntimeError("no board here")
    monkeypatch.setattr(TicTacToeScene, "draw_board", broken)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_DOWN)
    assert review.selected == 3 and app.top is review
    assert sum("no board here" in text for text in app.toasts.texts) == 1


def test_the_screen_bounds_the_whole_review_and_each_position(app, monkeypatch) -> None:
    """Issue 31: a 42-move game in at most 30 s; a position in at most a hint's time."""
    import engine.screens.review_scene as module

    asked: dict[str, Any] = {}

    def spy(start: Any, moves: Any, hints: Any, **options: Any) -> Any:
        asked.update(options)
        return review_game(start, moves, hints)
    monkeypatch.setattr(module, "review_game", spy)
    scene = played(app)
    review = reviewed(app)
    assert review.review is not None
    assert asked["time_limit"] == module.REVIEW_LIMIT <= 30
    assert asked["move_limit"] == scene.hint_budget


def test_r_on_the_finished_board_opens_the_review_too(app) -> None:
    scene = played(app)
    key(app, pygame.K_ESCAPE)  # View board: the panel closes
    assert app.top is scene
    key(app, pygame.K_r)
    assert isinstance(app.top, ReviewScene)
    key(app, pygame.K_ESCAPE)
    # Not while a game is running: R is nothing there.
    scene.new_game()
    key(app, pygame.K_r)
    assert app.top is scene


def test_impartial_games_show_their_grundy_values(app) -> None:
    """A Grundy game's review says each value's nimber: in the list and the status line."""
    game = find_game("grundy")
    params = game.param_spec().decode("nim:1.2.3")
    scene = app.push(game.open_scene(app, params, seats=HUMANS))
    app.step([])
    for move in [(2, 3), (1, 1)]:  # take the third heap, then one from the second
        assert scene.play_move(move)
    app.step([])
    app.push(ReviewScene(app, scene))
    review = app.top
    run_until(app, lambda: review.review is not None, timeout=20)
    second = review.review.moves[1]
    assert second.before.nimber == 3 and second.after.nimber is not None  # 1 ⊕ 2
    review.select(1)
    assert "nimber 3" in review.status_text()
    assert short_value(second.before) == "W(3)"
    assert short_value(second.after) == f"{second.after.label()}({second.after.nimber})"
