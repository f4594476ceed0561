"""Issue 12's tic-tac-toe findings, on the real scenes driven by real events.

* Every X is the same picture in every cell, and a winning line leaves both of its
  strokes visible (item 8).
* Hints on boards too big to solve: a few ranked squares with reasons, equal on
  squares the position's symmetries map onto each other (item 12).
* Perfect standing in as Hard says so on the seat's card, not in the status line
  (item 13).
"""

from __future__ import annotations

import time

import pygame
import pytest

from engine.ai.perfect import PerfectAgent
from engine.model.registry import find_game
from engine.model.seats import Seat
from engine.ui.board.draw import draw_mark
from games.connect4.rules import Connect4Config
from games.tictactoe.advice import hint_report
from games.tictactoe.bitboard import layout
from games.tictactoe.hard_search import estimate_values, symmetric_orbits
from games.tictactoe.rules import MNKConfig, TicTacToeState
from games.tictactoe.scene import HINT_BUDGET, TicTacToeScene, mark_box
from tests.conftest import click, hover, key, make_app, near, run_until
from tests.support.screens import cell_centre

HUMANS = (Seat(), Seat())


def settle(app, scene) -> None:
    """Let every animation finish and draw a frame."""
    scene.anim.finish_all()
    app.step([])


def screen_cell(scene, row: int, col: int) -> pygame.Rect:
    return scene.geometry().cell_rect(row, col)


# --- item 8: X marks ---------------------------------------------------------------------
def ink_mask(app, scene, row: int, col: int) -> frozenset[tuple[int, int]]:
    """The X-coloured pixels of a cell, relative to its centre, inside the mark's box
    (clear of the grid lines at the cell's edges)."""
    colour = app.theme.palette.players[0]
    box = mark_box(scene.geometry(), row, col)
    cx, cy = box.center
    reach = round(box.width * 0.42)
    return frozenset((x - cx, y - cy) for x in range(cx - reach, cx + reach + 1)
                     for y in range(cy - reach, cy + reach + 1)
                     if near(app.screen.get_at((x, y)), colour, 60))


@pytest.mark.slow
@pytest.mark.parametrize(("window", "config"), [((960, 720), MNKConfig(7, 6, 4)),
                                                ((1280, 800), MNKConfig(9, 9, 5)),
                                                ((800, 600), MNKConfig(5, 5, 4)),
                                                ((1111, 777), MNKConfig(8, 7, 5))])
def test_every_x_is_the_same_picture_in_every_cell(profile, window, config) -> None:
    """Xs clicked into cells all over boards of several sizes and window shapes, where cell
    edges round differently, are pixel for pixel the same X."""
    app = make_app(profile, window)
    try:
        scene = app.push(TicTacToeScene(app, config, HUMANS))
        xs = [(r, c) for r in range(0, config.rows, 2) for c in range(0, config.cols, 2)]
        os_ = [(r, c) for r in range(1, config.rows, 2) for c in range(1, config.cols, 2)]
        # Marks two apart never make a line; X and O in turn, O last (its frame is the
        # latest move's, away from every X).
        count = min(len(xs), len(os_))
        for x_cell, o_cell in zip(xs[:count], os_[:count], strict=True):
            click(app, *cell_centre(scene, *x_cell))
            click(app, *cell_centre(scene, *o_cell))
        assert scene.state.moves_made == 2 * count and scene.state.winner is None
        hover(app, 2, 2)  # the pointer off the board: no hover preview
        settle(app, scene)
        masks = [ink_mask(app, scene, *cell) for cell in xs[:count]]
        assert len(masks[0]) > 50
        for cell, mask in zip(xs[:count], masks, strict=True):
            assert mask == masks[0], (cell, len(mask ^ masks[0]))
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


@pytest.mark.parametrize("size", [17, 24, 31, 40, 53, 64, 77, 90, 121])
def test_an_x_is_as_wide_as_it_is_tall_and_both_strokes_alike(size: int) -> None:
    """Mirrored left to right (which swaps the two strokes) or turned a quarter, an X is
    the same picture: no stroke ends in a cut of its own, no X is wider than tall."""
    surface = pygame.Surface((size, size))
    surface.fill((0, 0, 0))
    draw_mark(surface, pygame.Rect(0, 0, size, size), 0, (250, 250, 250))
    ink = {(x, y): surface.get_at((x, y))[0] for x in range(size) for y in range(size)}
    mirrored = {(size - 1 - x, y): v for (x, y), v in ink.items()}
    turned = {(size - 1 - y, x): v for (x, y), v in ink.items()}
    for other in (mirrored, turned):
        worst = max(abs(ink[p] - other[p]) for p in ink)
        assert worst <= 40, (size, worst)
    xs = [x for (x, _y), v in ink.items() if v > 128]
    ys = [y for (_x, y), v in ink.items() if v > 128]
    assert abs((max(xs) - min(xs)) - (max(ys) - min(ys))) <= 1


@pytest.mark.parametrize(("config", "moves"), [
    (MNKConfig(), [(0, 0), (1, 0), (1, 1), (2, 0), (2, 2)]),              # ↘ diagonal
    (MNKConfig(), [(0, 2), (0, 0), (1, 1), (1, 0), (2, 0)]),              # ↙ diagonal
    (MNKConfig(5, 5, 4), [(0, 4), (0, 0), (1, 3), (1, 0), (2, 2), (2, 0), (3, 1)]),
    (MNKConfig(5, 5, 4), [(1, 0), (0, 0), (1, 1), (0, 1), (1, 2), (0, 2), (1, 3)]),  # row
])
def test_a_winning_line_leaves_both_strokes_of_every_x_visible(app, config, moves) -> None:
    scene = app.push(TicTacToeScene(app, config, HUMANS))
    for cell in moves:
        click(app, *cell_centre(scene, *cell))
    assert scene.state.winner == 0
    settle(app, scene)
    if app.top is not scene:
        key(app, pygame.K_ESCAPE)  # past the result panel
    settle(app, scene)
    p = app.theme.palette
    geom = scene.geometry()
    for index in scene.state.win_line:
        box = mark_box(geom, *divmod(index, config.cols))
        cx, cy = box.center
        # Points well along each of the two strokes (they run from corner to corner).
        for d in (0.12, 0.2):
            off = round(box.width * d)
            for dx, dy in ((off, off), (-off, -off), (off, -off), (-off, off)):
                pixel = app.screen.get_at((cx + dx, cy + dy))
                assert near(pixel, p.players[0], 40), (index, d, dx, dy, pixel)
    # And the line itself shows between the marks.
    first, last = (divmod(i, config.cols) for i in scene.state.win_line[:2])
    a, b = geom.cell_center(*first), geom.cell_center(*last)
    mid = (round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2))
    on_line = [app.screen.get_at((mid[0] + dx, mid[1] + dy)) for dx in (-2, 0, 2)
               for dy in (-2, 0, 2)]
    assert any(near(px, p.win_line, 30) for px in on_line)


# --- item 12: hints on boards too big to solve ------------------------------------------
def images(state: TicTacToeState) -> list[tuple[int, ...]]:
    """The board's symmetries that leave the position as it is (cell permutations)."""
    cfg = state.config
    lay = layout(cfg.rows, cfg.cols, cfg.k)
    return [perm for perm in lay.symmetries
            if all(state.board[perm[c]] == state.board[c] for c in range(cfg.rows * cfg.cols))]


def positions() -> list[TicTacToeState]:
    out = [TicTacToeState.new(MNKConfig(5, 8, 4)), TicTacToeState.new(MNKConfig(7, 7, 5))]
    gomoku = TicTacToeState.new(MNKConfig(15, 15, 5)).play(7 * 15 + 7)
    out += [gomoku, gomoku.play(6 * 15 + 7).play(8 * 15 + 7)]
    out.append(TicTacToeState.new(MNKConfig(6, 9, 4)).play(2 * 9 + 4).play(3 * 9 + 4))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("state", positions(), ids=lambda s: f"{s.config.rows}x{s.config.cols}"
                                                                f"k{s.config.k}m{s.moves_made}")
def test_estimates_are_equal_on_squares_the_symmetries_map_onto_each_other(state) -> None:
    perms = images(state)
    assert len(perms) >= 2  # each position has a symmetry besides the identity
    values = estimate_values(state, None, 0.6)
    orbits = symmetric_orbits(state)
    assert sorted(c for o in orbits for c in o) == sorted(state.legal_moves())
    for perm in perms:
        for cell, value in values.items():
            assert values[perm[cell]] == value, (cell, perm[cell], value, values[perm[cell]])
    report, ranked = hint_report(state, None, 1.0)
    assert ranked, "a board this big is estimated, so the hint is ranked"
    shown = {cell: c.rank for c in ranked for cell in c.cells}
    for perm in perms:
        for cell, rank in shown.items():
            assert shown.get(perm[cell]) == rank, (cell, perm[cell])
    assert set(report) == set(shown)
    assert 1 <= len(ranked) <= 4
    assert sum(len(c.cells) for c in ranked) <= 8 or len(ranked) == 1


def wait_hints(app, scene) -> None:
    run_until(app, lambda: scene.hints, 30, pause=0.01, message="no hints in time")
    app.step([])


def open_position(app, config: MNKConfig, rows: list[str]) -> TicTacToeScene:
    scene = app.push(TicTacToeScene(app, config, HUMANS))
    scene._push(TicTacToeState.from_rows(rows, config))
    asked = time.process_time()  # CPU seconds, every thread: the hint's own work
    key(app, pygame.K_h)  # the real shortcut turns the hint on
    assert scene.show_hints
    app.step([])
    assert scene.busy_label() == "hint…"  # worked out off the frame loop
    wait_hints(app, scene)
    # Within the hint budget, plus slack: CPU time (every thread's), which a search
    # that ignored its budget would overrun, but a busy machine does not stretch.
    assert time.process_time() - asked < HINT_BUDGET + 1.0
    return scene


def badge_colour(app, scene, cell: int) -> tuple[int, int, int]:
    """The colour of the rank badge drawn in a cell, right of its number."""
    rect = screen_cell(scene, *divmod(cell, scene.config.cols))
    return tuple(app.screen.get_at((rect.centerx + round(rect.width * 0.19), rect.centery)))[:3]


def empty_15(marks: dict[tuple[int, int], str]) -> list[str]:
    grid = [["."] * 15 for _ in range(15)]
    for (r, c), m in marks.items():
        grid[r][c] = m
    return ["".join(row) for row in grid]


GOMOKU = MNKConfig(15, 15, 5)
FAR_O = {(0, 0): "O", (0, 14): "O", (14, 0): "O", (14, 14): "O"}


@pytest.mark.slow
def test_the_ranked_hint_finds_the_four_to_complete(app) -> None:
    marks = {(7, 4): "X", (7, 5): "X", (7, 6): "X", (7, 7): "X", (7, 3): "O",
             (0, 0): "O", (0, 14): "O", (14, 0): "O"}
    scene = open_position(app, GOMOKU, empty_15(marks))
    ranked = scene.debug_state()["ranked"]
    assert ranked[0]["cells"] == [7 * 15 + 8] and ranked[0]["reason"] == "wins now"
    assert ranked[0]["outlook"] == "wins in 1"
    assert 2 <= len(ranked) <= 4  # a few squares, not a label on every one
    assert len(scene.hints) == sum(len(r["cells"]) for r in ranked) <= 8
    assert "best squares, ranked" in scene.status_text()
    assert near(badge_colour(app, scene, 7 * 15 + 8), app.theme.palette.good, 40)
    # An unranked square is left as it is: no wall of "~D" labels.
    far = screen_cell(scene, 12, 12)
    assert near(app.screen.get_at(far.center), app.theme.palette.board, 8)


@pytest.mark.slow
def test_the_ranked_hint_blocks_the_opponents_four(app) -> None:
    marks = {(7, 4): "X", (7, 5): "X", (7, 6): "X", (7, 7): "X", (7, 3): "O",
             (0, 0): "O", (0, 14): "O"}
    scene = open_position(app, GOMOKU, empty_15(marks))
    assert scene.state.to_move == 1
    ranked = scene.debug_state()["ranked"]
    assert ranked[0]["cells"] == [7 * 15 + 8] and ranked[0]["reason"] == "blocks their win"
    assert scene.candidates()[0].rank == 1
    # Drawn: a badge in the square, and the reason written in the legend beside the board.
    assert not near(badge_colour(app, scene, 7 * 15 + 8), app.theme.palette.board, 20)


@pytest.mark.slow
def test_the_ranked_hint_finds_the_fork(app) -> None:
    marks = {(7, 4): "X", (7, 5): "X", (7, 6): "X", (4, 7): "X", (5, 7): "X", (6, 7): "X",
             (7, 3): "O", (3, 7): "O", **FAR_O}
    scene = open_position(app, GOMOKU, empty_15(marks))
    ranked = scene.debug_state()["ranked"]
    assert ranked[0]["cells"] == [7 * 15 + 7], ranked
    assert ranked[0]["reason"] == "fork: two ways to win"
    # The search's win is an estimate ("looks like"), the prover's has no distance.
    assert ranked[0]["outlook"] in ("looks like a win in 3", "proven win")


def test_an_open_four_and_the_words_for_k4() -> None:
    """On 5×8 with 4 in a row, "four" is three in a row: an open three there is named
    for what it is; the opponent's best reason is to stop X's open two (O's own two
    beside it is no open three)."""
    from games.tictactoe.threats import square_threats

    state = TicTacToeState.from_rows(["........", "........", "..XX....", "...OO...",
                                      "........"], MNKConfig(5, 8, 4))
    threats = square_threats(state)
    assert threats[2 * 8 + 4].reason == "open three: two ways to win"
    assert threats[2 * 8 + 1].reason == "open three: two ways to win"
    assert threats[3 * 8 + 2].reason == "stops their open two"


@pytest.mark.slow
def test_the_issue_board_shows_its_mirror_squares_alike(app) -> None:
    """5×8 with 4 in a row: the centre squares (2,3) and (2,4) are mirror images; the hint
    ranks them together and draws them alike."""
    scene = app.push(TicTacToeScene(app, MNKConfig(5, 8, 4), HUMANS))
    key(app, pygame.K_h)
    wait_hints(app, scene)
    ranked = scene.candidates()
    assert ranked is not None
    where = {cell: c.rank for c in ranked for cell in c.cells}
    assert where.get(2 * 8 + 3) is not None and where[2 * 8 + 3] == where.get(2 * 8 + 4)
    labels = scene.debug_state()["hints"]
    assert labels[str(2 * 8 + 3)] == labels[str(2 * 8 + 4)]
    a = badge_colour(app, scene, 2 * 8 + 3)
    b = badge_colour(app, scene, 2 * 8 + 4)
    assert near(a, b, 6)


def test_small_boards_keep_their_exact_hints(app) -> None:
    scene = app.push(TicTacToeScene(app, MNKConfig(4, 4, 4), HUMANS))
    key(app, pygame.K_h)
    wait_hints(app, scene)
    assert scene.candidates() is None and len(scene.hints) == 16
    assert all(v.exact for v in scene.hints.values())


# --- item 13: Perfect standing in as Hard, on the card ----------------------------------
def wait_reply(app, scene, moves: int) -> None:
    run_until(app, lambda: scene.moves_played() >= moves and not scene.ai.busy, 30,
              pause=0.01, message="the computer did not answer")
    app.step([])


def card_label(scene, seat: int):
    return next(w for w in scene.ui.widgets
                if getattr(w, "_place", None) is not None and w.visible
                and tuple(w.rect) == tuple(scene.layout()[f"level{seat}"]))


@pytest.mark.slow
@pytest.mark.parametrize("mistakes", [0.0, 0.1])
def test_perfect_playing_as_hard_says_so_on_its_card(app, mistakes) -> None:
    seats = (Seat(), Seat("computer", "perfect", mistakes))
    scene = app.push(TicTacToeScene(app, MNKConfig(9, 9, 5), seats, seed=3))
    label = card_label(scene, 1)
    assert label.text == seats[1].level_text()  # nothing to say before it has played
    inner = scene.agents[1]
    while not isinstance(inner, PerfectAgent):  # inside the mistakes and the reflexes
        inner = inner.inner
    inner.time_budget = 0.3  # quicker to give up on the board (the real agent, sooner)
    if mistakes:
        scene.agents[1].mistake_rate = 0.0  # it must think, not blunder, this time
    click(app, *cell_centre(scene, 4, 4))
    wait_reply(app, scene, 2)
    expected = f"{seats[1].level_text()} (plays as Hard here: board too big to solve)"
    assert label.text == expected
    assert "Hard" not in scene.status_text() and "too large" not in scene.status_text()
    # Drawn inside the card, in at most two lines; whole in a tooltip where it is cut.
    card = app.viewport.map_rect(tuple(scene.layout()["card1"]))
    drawn = label.screen_rect(app.viewport)
    assert card.contains(drawn) and 1 <= len(label.drawn_lines) <= 2
    shown = " ".join(label.drawn_lines)
    if label.shortened:
        assert shown.endswith("…")
        level = scene.layout()["level1"]
        hover(app, level.x + 10, level.y + 8)
        assert app.top.ui.tooltip == expected
    else:
        assert shown == expected
    # The words are really on the card: ink of the muted text colour in the label's box.
    muted = app.theme.palette.muted
    assert sum(1 for x in range(drawn.left, drawn.right) for y in range(drawn.top, drawn.bottom)
               if near(app.screen.get_at((x, y)), muted, 30)) > 40


@pytest.mark.slow
def test_connect_four_perfect_says_so_on_its_card_too(app) -> None:
    game = find_game("connect4")
    # 8×7: no opening book there (7×6's answers every opening move: no fallback).
    scene = app.push(game.open_scene(app, Connect4Config(8, 7),
                                     seats=(Seat(), Seat("computer", "perfect"))))
    perfect = scene.agents[1].inner  # inside the reflexes (win, block)
    perfect.time_budget = 0.2
    perfect.fallback.time_budget = 0.1
    app.step([])
    key(app, pygame.K_RIGHT)  # the keyboard picks a column and drops a disc in it
    key(app, pygame.K_RETURN)
    assert scene.moves_played() == 1
    wait_reply(app, scene, 2)
    label = card_label(scene, 1)
    assert label.text == "Perfect (plays as Hard here: board too big to solve)"
    assert "Hard" not in scene.status_text()


@pytest.mark.slow
def test_a_solvable_board_keeps_the_plain_level(app) -> None:
    scene = app.push(TicTacToeScene(app, MNKConfig(), (Seat(), Seat("computer", "perfect"))))
    click(app, *cell_centre(scene, 1, 1))
    wait_reply(app, scene, 2)
    assert card_label(scene, 1).text == "Perfect"


def test_no_player_facing_text_speaks_of_the_source() -> None:
    """Help, setup and status texts speak the player's words (item 11)."""
    from games.tictactoe.help_text import HELP

    for text in (HELP, find_game("tictactoe").help_text()):
        lowered = text.lower()
        for word in ("document", "the source", "figure", "theorem"):
            assert word not in lowered, word
