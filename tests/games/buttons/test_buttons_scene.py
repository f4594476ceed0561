"""Button Madness through the real scene: presses, codes, restart, solution marks, hints, win."""

from __future__ import annotations

import time

import numpy as np
import pygame
import pytest

from engine.screens.launcher import LauncherScene
from engine.screens.overlays import TextEntryDialog
from engine.screens.puzzle_scene import WinOverlay
from engine.ui.animation import FLASH
from engine.ui.widgets import Button
from games.buttons.board import Board, parse_code
from games.buttons.board_render import tiny_colours
from games.buttons.scene import ButtonMadnessScene
from games.buttons.timings import RIPPLE
from tests.conftest import click, click_widget, key, run_until, stats_shown, type_text

CTRL = pygame.KMOD_LCTRL


def button(scene: ButtonMadnessScene, row: int, col: int) -> tuple[float, float]:
    """Design point of a button's centre, from the scene's own board geometry."""
    return scene.app.viewport.to_design(scene.geometry().cell_center(row, col))


def see_win(app) -> None:
    """One frame long enough for the completion flash to end and the win screen to open."""
    app.step([], dt=FLASH)


def open_board(app, code: str = "65535") -> ButtonMadnessScene:
    scene = app.push(ButtonMadnessScene(app, parse_code(code), seed=7))
    app.step([])
    return scene


def test_launcher_opens_a_generated_solvable_board(app) -> None:
    from games.buttons.solver import is_solvable

    click_widget(app, "button-madness")
    scene = app.top
    assert isinstance(scene, ButtonMadnessScene)
    assert scene.board.n == 4 and not scene.board.is_solved and is_solvable(scene.board)
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, LauncherScene)


def test_a_press_flips_the_plus_shape_with_wraparound(app) -> None:
    scene = open_board(app)
    click(app, *button(scene, 0, 0))
    green = {(r, c) for r in range(4) for c in range(4) if not scene.board.red(r, c)}
    assert green == {(0, 0), (0, 1), (1, 0), (0, 3), (3, 0)}
    assert scene.debug_state()["code"] == str(scene.board.bits)
    # The pixel at a green button's centre ring differs from a red one (once the press's
    # ripple has played out).
    app.step([], dt=RIPPLE)
    geom = scene.geometry()
    red_px = app.screen.get_at(geom.cell_rect(2, 2).move(0, -geom.cell_size * 0.35).center)
    green_px = app.screen.get_at(geom.cell_rect(0, 1).move(0, -geom.cell_size * 0.35).center)
    assert red_px[:3] == app.theme.palette.bad and green_px[:3] == app.theme.palette.good


@pytest.mark.slow
def test_win_screen_and_stats_after_solving(app) -> None:
    scene = open_board(app)
    click(app, *button(scene, 1, 2))
    assert not scene.board.is_solved
    click(app, *button(scene, 1, 2))  # pressing twice undoes it: solved
    see_win(app)
    assert isinstance(app.top, WinOverlay) and app.top.presses == 2 and not app.top.helped
    assert app.stats.best_puzzle("button-madness", "4x4")[0] == 2
    click_widget(app, "Close")
    assert app.top is scene


def test_restart_and_undo_redo(app) -> None:
    scene = open_board(app, "12345")
    start = scene.board
    click(app, *button(scene, 0, 0))
    click(app, *button(scene, 2, 3))
    click_widget(app, "Restart")
    assert scene.board == start and scene.presses() == 0
    key(app, pygame.K_z, CTRL)  # restart is undoable
    assert scene.board != start and scene.presses() == 2
    key(app, pygame.K_z, CTRL)
    assert scene.presses() == 1
    key(app, pygame.K_y, CTRL)
    assert scene.presses() == 2


@pytest.mark.slow
def test_enter_code_loads_exactly_that_board_and_rejects_bad_ones(app) -> None:
    scene = open_board(app, "12345")
    click_widget(app, "Enter code")
    dialog = app.top
    assert isinstance(dialog, TextEntryDialog)
    type_text(app, "65536")
    key(app, pygame.K_RETURN)
    assert app.top is dialog and "65535" in dialog.error
    assert scene.board == parse_code("12345")  # nothing changed
    dialog.set_text("  5x5:33554430 ")
    key(app, pygame.K_RETURN)
    assert app.top is scene
    assert scene.board == Board(5, 33554430) and scene.debug_state()["code"] == "5x5:33554430"
    key(app, pygame.K_z, CTRL)  # loading a code can be undone too
    assert scene.board == parse_code("12345")


@pytest.mark.slow
def test_show_solution_marks_follow_the_clicks(app) -> None:
    scene = open_board(app, "12345")
    click_widget(app, "Show solution")
    run_until(app, lambda: scene.marks is not None)
    marks = set(scene.solution_cells())
    assert Board.apply(scene.board, sorted(marks)).is_solved
    first = sorted(marks)[0]
    click(app, *button(scene, *first))  # pressing a marked button clears its mark
    run_until(app, lambda: scene.marks is not None)
    assert set(scene.solution_cells()) == marks - {first}
    other = next((r, c) for r in range(4) for c in range(4) if (r, c) not in marks)
    click(app, *button(scene, *other))  # pressing another adds it back as a mark
    run_until(app, lambda: scene.marks is not None)
    assert other in scene.solution_cells()
    assert Board.apply(scene.board, scene.solution_cells()).is_solved
    assert scene.puzzle.helped


def test_marks_are_a_grid_and_solution_cells_list_it_row_major(app) -> None:
    scene = open_board(app, "12345")
    click_widget(app, "Show solution")
    run_until(app, lambda: scene.marks is not None)
    grid = scene.marks
    # One bool per button, no Python object per mark; read-only, as a new solution is a
    # new grid (the big-board picture is cached by the grid's identity).
    assert isinstance(grid, np.ndarray) and grid.dtype == bool and grid.shape == (4, 4)
    assert not grid.flags.writeable
    cells = scene.solution_cells()
    assert cells == sorted(cells) and len(set(cells)) == len(cells)
    assert cells == [(r, c) for r in range(4) for c in range(4) if grid[r, c]]
    assert scene.mark_count == len(cells) == int(np.count_nonzero(grid)) > 0
    assert scene.solution_cells(2) == cells[:2]
    state = scene.debug_state()
    assert state["marks"] == [list(m) for m in cells] and state["mark_count"] == len(cells)
    assert f"Solution: {len(cells)} more presses" in scene.status_text()
    scene.press(*cells[0])  # the board changed: the solution is dropped until recomputed
    assert scene.marks is None and scene.mark_count == 0 and scene.solution_cells() == []


def test_hint_reveals_one_button_at_a_time(app) -> None:
    scene = open_board(app, "12345")
    key(app, pygame.K_h)
    run_until(app, lambda: len(scene.hinted) == 1)
    key(app, pygame.K_h)
    assert len(scene.hinted) == 2 and scene.hinted <= set(scene.solution_cells())
    assert scene.puzzle.helped
    # The first two solution buttons in row-major order.
    assert scene.hinted == set(scene.solution_cells()[:2])


def test_unsolvable_entered_board_says_so(app) -> None:
    from games.buttons.solver import is_solvable

    # On 3×3 one green button alone cannot be fixed (3 is a bad size).
    board = Board(3, (1 << 9) - 2)
    assert not is_solvable(board)
    scene = app.push(ButtonMadnessScene(app, board))
    click_widget(app, "Show solution")
    run_until(app, lambda: scene.unsolvable)
    assert "cannot be solved" in scene.status_text()
    # Worked out, with nothing to mark or hint.
    assert scene.marks is not None and scene.mark_count == 0 and scene.solution_cells() == []
    key(app, pygame.K_h)
    assert scene.hinted == set() and scene.debug_state()["marks"] == []


def test_size_menu_generates_a_board_of_that_size_and_is_remembered(app, profile) -> None:
    scene = open_board(app)
    click_widget(app, "size+")
    assert scene.board.n == 5 and not scene.board.is_solved
    app.pop()
    click_widget(app, "button-madness")
    assert app.top.board.n == 5


def test_big_board_from_a_code_is_drawn_as_a_picture_and_clickable(app) -> None:
    n = 100
    scene = app.push(ButtonMadnessScene(app, Board.solved(n)))
    app.step([])
    click(app, *button(scene, 50, 50))
    assert not scene.board.red(50, 50) and not scene.board.red(49, 50)
    app.step([])
    geom = scene.geometry()
    p = app.theme.palette
    # Buttons of ~5 px hold no ring: a green one is drawn dark (games.buttons.board_render).
    assert geom.cell_size < 6
    dark_green = tiny_colours(p.good, p.bad, p.background)[0]
    assert app.screen.get_at(geom.cell_rect(50, 50).center)[:3] == dark_green


@pytest.mark.slow
def test_explorer_shows_the_nullity_chart(app) -> None:
    from games.buttons import solver

    scene = open_board(app)
    solver.clear_cache()  # the slow first visit
    t0 = time.thread_time()
    click_widget(app, "Which sizes?")
    opening = time.thread_time() - t0
    explorer = app.top
    assert explorer.busy_label() == "working out…" and explorer.is_active()
    assert opening < 0.1, f"opening the explorer took {opening * 1000:.0f} ms on the frame loop"
    run_until(app, lambda: not explorer.debug_state()["busy"])
    values = explorer.debug_state()["nullity"]
    assert list(values) == [str(n) for n in range(1, 65)]
    assert all(values[str(n)] == solver.nullity(n) for n in range(1, 65))
    assert values["4"] == 0 and values["5"] > 0 and values["3"] > 0
    key(app, pygame.K_ESCAPE)
    assert app.top is scene


@pytest.mark.slow
def test_leaving_the_explorer_stops_its_work(app) -> None:
    from games.buttons import solver

    scene = open_board(app)
    solver.clear_cache()
    click_widget(app, "Which sizes?")
    explorer = app.top
    key(app, pygame.K_ESCAPE)
    assert app.top is scene and not explorer.worker.busy
    explorer.worker.join(5)
    assert len(explorer.values) < 64, "the work went on after the explorer was closed"


@pytest.mark.slow
def test_statistics_screen_shows_puzzle_results(app) -> None:
    scene = open_board(app)
    click(app, *button(scene, 1, 2))
    click(app, *button(scene, 1, 2))  # solved alone in 2 presses
    see_win(app)
    click_widget(app, "Close")
    key(app, pygame.K_ESCAPE)
    click_widget(app, "Statistics")
    state = stats_shown(app).debug_state()
    assert state["puzzles"] == [["button-madness", "4x4", 1, 0, 2]]
    assert state["totals"]["button-madness"] == [1, 1, 0, 0]


@pytest.mark.slow
def test_undo_redo_keep_boards_exact_while_history_keeps_only_presses(app) -> None:
    """A seeded walk of presses, undo, redo, restart and new boards against a model that
    keeps every board, its puzzle's start and the presses of its attempt; press steps must
    not store a board (125 kB each on 1000×1000)."""
    import random

    scene = open_board(app, "5x5:12345")
    rng = random.Random(3)
    # (board, the start Restart returns to, presses in the attempt) per history step.
    model, index = [(scene.board, scene.board, 0)], 0
    for _ in range(400):
        action = rng.choice(["press", "press", "press", "undo", "undo", "redo", "restart", "new"])
        board, start, presses = model[index]
        if action == "press":
            row, col = rng.randrange(scene.board.n), rng.randrange(scene.board.n)
            scene.press(row, col)
            if isinstance(app.top, WinOverlay):
                app.pop()
            del model[index + 1:]
            model.append((board.press(row, col), start, presses + 1))
            index += 1
        elif action == "undo" and scene.can_undo():
            scene.undo()
            index -= 1
        elif action == "redo" and scene.can_redo():
            scene.redo()
            index += 1
        elif action == "restart":
            scene.restart()  # does nothing on an untouched board
            if presses:
                del model[index + 1:]
                model.append((start, start, 0))
                index += 1
        elif action == "new":
            scene.generate_new()
            del model[index + 1:]
            model.append((scene.board, scene.board, 0))
            index += 1
        assert (scene.board, scene.puzzle.start, scene.presses()) == model[index], action
        assert scene.history.index == index
    steps = scene.puzzle.history.entries
    assert any(step.move is not None for step in steps)
    assert all(step.state is None for step in steps if step.move is not None)


@pytest.mark.slow
def test_undo_to_a_smaller_board_drops_hints_that_are_off_it(app) -> None:
    """Soak regression (seed 2, input 42428): hints of a 5×5 board, then undo to the 4×4
    attempt before it; working out the 4×4 solution failed on the 5×5 hint cells."""
    scene = open_board(app, "4660")
    scene.change_size(+1)
    assert scene.board.n == 5
    while not any(4 in cell for cell in scene.hinted):
        before = len(scene.hinted)
        key(app, pygame.K_h)
        run_until(app, lambda: not scene.busy_label())
        assert len(scene.hinted) > before, "no hint on row or column 4 to test with"
    scene.undo()
    assert scene.board.n == 4
    run_until(app, lambda: scene.marks is not None and not scene.busy_label())
    app.step([])
    assert all(r < 4 and c < 4 for r, c in scene.hinted)
    assert set(scene.hinted) <= set(scene.solution_cells())


# --- help used, Play again and the clock (the puzzle midend under the scene) -----------------


class FakeClock:
    """Seconds that pass only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def solve_by_clicking(app, scene: ButtonMadnessScene) -> None:
    """Click the buttons of the shown board's fewest-press solution (worked out here)."""
    from games.buttons.solver import solve

    presses = solve(scene.board).presses
    assert presses
    for cell in presses:
        click(app, *button(scene, *cell))
    see_win(app)


def puzzle_results(app) -> list[tuple[str, str, int, int]]:
    """(game, variant, solves, helped solves) per puzzle variant in the statistics."""
    return [(s.game, s.variant, s.solved, s.helped) for s in app.stats.puzzle_summary()]


@pytest.mark.slow
def test_restart_after_showing_the_solution_still_counts_as_helped(app) -> None:
    """Play-test finding: show the solution, Restart, solve: it was recorded as done alone."""
    scene = open_board(app, "12345")
    start = scene.board
    key(app, pygame.K_s)
    run_until(app, lambda: scene.marks is not None)
    key(app, pygame.K_s)  # hidden again
    assert not scene.show_solution and scene.puzzle.helped
    click(app, *button(scene, 0, 0))
    key(app, pygame.K_r)
    assert scene.board == start and scene.presses() == 0
    assert scene.puzzle.helped and scene.debug_state()["helped"]
    solve_by_clicking(app, scene)
    overlay = app.top
    assert isinstance(overlay, WinOverlay) and overlay.helped
    assert puzzle_results(app) == [("button-madness", "4x4", 1, 1)]
    assert app.stats.best_puzzle("button-madness", "4x4") is None


@pytest.mark.slow
def test_a_hint_then_undoing_every_press_still_counts_as_helped(app) -> None:
    scene = open_board(app, "12345")
    click(app, *button(scene, 2, 2))
    key(app, pygame.K_h)
    run_until(app, lambda: len(scene.hinted) == 1)
    key(app, pygame.K_z, CTRL)
    assert not scene.can_undo() and scene.board == parse_code("12345")
    assert scene.puzzle.helped
    solve_by_clicking(app, scene)
    assert isinstance(app.top, WinOverlay) and app.top.helped
    assert puzzle_results(app) == [("button-madness", "4x4", 1, 1)]


@pytest.mark.slow
def test_generate_starts_unhelped_and_undo_finds_the_old_board_helped(app) -> None:
    scene = open_board(app, "12345")
    key(app, pygame.K_h)
    run_until(app, lambda: len(scene.hinted) == 1)
    key(app, pygame.K_g)
    assert scene.board != parse_code("12345")
    assert not scene.puzzle.helped and scene.hinted == set()
    key(app, pygame.K_z, CTRL)
    assert scene.board == parse_code("12345") and scene.puzzle.helped
    key(app, pygame.K_y, CTRL)
    assert not scene.puzzle.helped
    solve_by_clicking(app, scene)
    assert isinstance(app.top, WinOverlay) and not app.top.helped
    assert puzzle_results(app) == [("button-madness", "4x4", 1, 0)]


@pytest.mark.slow
def test_generate_with_the_solution_on_screen_counts_as_helped(app) -> None:
    scene = open_board(app, "12345")
    click_widget(app, "Show solution")
    click_widget(app, "Generate")
    assert scene.show_solution and scene.puzzle.helped
    run_until(app, lambda: scene.marks is not None)
    solve_by_clicking(app, scene)
    assert isinstance(app.top, WinOverlay) and app.top.helped
    assert puzzle_results(app) == [("button-madness", "4x4", 1, 1)]


@pytest.mark.slow
def test_play_again_restarts_the_same_board_undoably(app) -> None:
    start = parse_code("65535").press(1, 2)
    scene = app.push(ButtonMadnessScene(app, start, seed=7))
    app.step([])
    click(app, *button(scene, 0, 0))
    click(app, *button(scene, 0, 0))
    click(app, *button(scene, 1, 2))
    see_win(app)
    assert isinstance(app.top, WinOverlay) and app.top.presses == 3
    assert [b.name for b in app.top.ui.widgets if isinstance(b, Button)] == [
        "Play again", "Generate", "Review", "Close"]
    click_widget(app, "Play again")
    assert app.top is scene and scene.board == start and scene.presses() == 0
    key(app, pygame.K_z, CTRL)  # Play again is a step like Restart: undo it
    assert scene.board.is_solved and scene.presses() == 3
    assert app.top is scene, "undoing back to the solved board records nothing again"
    key(app, pygame.K_y, CTRL)
    assert scene.board == start
    click(app, *button(scene, 1, 2))  # a new attempt: recorded again
    see_win(app)
    assert isinstance(app.top, WinOverlay) and app.top.presses == 1
    assert puzzle_results(app) == [("button-madness", "4x4", 2, 0)]
    assert app.stats.best_puzzle("button-madness", "4x4")[0] == 1


@pytest.mark.slow
def test_the_clock_stops_while_another_screen_covers_the_board(app) -> None:
    clock = FakeClock()
    start = parse_code("65535").press(1, 2)
    scene = app.push(ButtonMadnessScene(app, start, seed=7, clock=clock))
    app.step([])
    clock.advance(40)  # before the first press: not timed
    click(app, *button(scene, 0, 0))
    clock.advance(10)
    app.step([])
    assert scene.debug_state()["elapsed"] == 10 and scene.is_active()
    key(app, pygame.K_F1)  # help over the board
    assert app.top is not scene and scene.puzzle.paused
    clock.advance(100)
    app.step([])
    assert scene.puzzle.elapsed == 10
    key(app, pygame.K_F1)  # help closed
    assert app.top is scene and not scene.puzzle.paused
    clock.advance(5)
    assert scene.puzzle.elapsed == 15
    click_widget(app, "Enter code")  # the code dialog
    clock.advance(50)
    app.step([])
    key(app, pygame.K_ESCAPE)
    assert app.top is scene
    click_widget(app, "Which sizes?")  # the chart is a screen of its own
    clock.advance(20)
    app.step([])
    key(app, pygame.K_ESCAPE)
    assert app.top is scene
    clock.advance(3)
    assert scene.puzzle.elapsed == 18
    click(app, *button(scene, 0, 0))
    click(app, *button(scene, 1, 2))
    see_win(app)
    assert isinstance(app.top, WinOverlay) and app.top.seconds == 18
    assert app.stats.best_puzzle("button-madness", "4x4") == (3, 18.0)
    clock.advance(60)
    click_widget(app, "Close")
    assert scene.puzzle.elapsed == 18 and not scene.is_active(), "a solved board's clock stops"


@pytest.mark.slow
def test_the_clock_stops_when_the_game_is_left(app) -> None:
    clock = FakeClock()
    scene = app.push(ButtonMadnessScene(app, parse_code("12345"), clock=clock))
    app.step([])
    click(app, *button(scene, 0, 0))
    clock.advance(7)
    key(app, pygame.K_ESCAPE)  # back to the launcher
    assert app.top is not scene and scene.puzzle.paused and not scene.puzzle.timing
    clock.advance(500)
    assert scene.puzzle.elapsed == 7


@pytest.mark.parametrize("size", [(640, 480), (960, 720), (1920, 1080), (1080, 1920)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_explorer_labels_never_overlap(profile, size) -> None:
    """Issue 28: in the "Which sizes?" chart the values of neighbouring bad sizes (5 and 6,
    9 and 10 …) were drawn over each other. Every label, value or size, has a place of its
    own, inside the chart and clear of every bar."""
    from tests.conftest import make_app

    app = make_app(profile, size)
    try:
        open_board(app)
        click_widget(app, "Which sizes?")
        explorer = app.top
        run_until(app, lambda: not explorer.debug_state()["busy"])
        app.step([])
        app.draw()
        chart = app.viewport.map_rect(tuple(explorer.layout()["chart"]))
        labels = explorer.label_rects
        values = [text for text, _rect in labels]
        assert len(labels) == 17 + sum(1 for v in explorer.values.values() if v)
        assert "1" in values and "64" in values
        for i, (text, rect) in enumerate(labels):
            assert chart.contains(rect), f"label {text} at {rect} outside the chart {chart}"
            for other, other_rect in labels[i + 1:]:
                assert not rect.colliderect(other_rect), f"{text} {rect} overlaps {other} " \
                                                         f"{other_rect}"
            for n, bar in explorer.bar_rects.items():
                assert not rect.colliderect(bar), f"label {text} {rect} covers bar {n} {bar}"
    finally:
        app.quit()
        app.stats.close()


def test_the_solution_mark_leaves_a_green_buttons_ring_clear(app) -> None:
    """Issue 28: the ✱ of a solution mark was drawn over the ring that tells a green
    button apart. Marked green buttons keep their whole ring (every pixel of its core in
    the ring's colour) and the ✱ is still drawn, inside the ring."""
    board = Board.solved(4).press(0, 0)  # solved by pressing (0, 0), a green (ringed) button
    scene = app.push(ButtonMadnessScene(app, board, seed=7))
    app.step([])
    click_widget(app, "Show solution")
    run_until(app, lambda: scene.marks is not None)
    assert scene.solution_cells() == [(0, 0)]
    app.step([], dt=RIPPLE)
    app.draw()
    p = app.theme.palette
    geom = scene.geometry()
    for cell in scene.solution_cells():
        assert not scene.board.red(*cell)
        rect = geom.cell_rect(*cell)
        inset = max(1, round(geom.cell_size * 0.08))
        button_w = rect.width - 2 * inset
        outer = button_w * 0.22  # the ring as _draw_buttons draws it
        inner = outer - max(1, round(button_w / 14))
        cx, cy = rect.center
        core, hole = [], []
        for x in range(rect.left, rect.right):
            for y in range(rect.top, rect.bottom):
                distance = ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5
                if inner + 1.5 <= distance <= outer - 1.5:
                    core.append(tuple(app.screen.get_at((x, y)))[:3])
                elif distance < inner - 1:
                    hole.append(tuple(app.screen.get_at((x, y)))[:3])
        assert core and set(core) == {p.background[:3]}, f"the ✱ covers the ring of {cell}"
        assert hole.count(p.accent[:3]) > 10, f"no ✱ inside the ring of {cell}"
