"""Bachet's game and Nim through the real scene: clicks, keys, the computer, hints, pixels."""

from __future__ import annotations

from functools import cache

import pygame
import pytest

from engine.model.seats import Seat
from games.grundy.scene_heaps import HeapScene
from games.grundy.scenes import scene_for
from games.grundy.variants import GrundySetup
from tests.conftest import click, click_widget, hover, key, make_app, run_until, wait_hints

HUMANS = (Seat(), Seat())
PERFECT = Seat("computer", "perfect")
CTRL = pygame.KMOD_LCTRL


def open_heaps(app, seats=HUMANS, **setup) -> HeapScene:
    scene = app.push(scene_for(app, GrundySetup(**setup), seats, seed=1))
    assert isinstance(scene, HeapScene)
    app.step([])
    return scene


def pebble(scene: HeapScene, heap: int, index: int) -> tuple[float, float]:
    """Design-space centre of a pebble (0 = the bottom one)."""
    return scene.piles()[heap].centre(index)


@cache
def mover_loses(heaps: tuple[int, ...], k: int | None, misere: bool) -> bool:
    """Brute force, independent of the rules module: does the player to move lose?"""
    if not any(heaps):
        return not misere  # normal: stuck, lost; misère: the opponent took the last one
    return all(not mover_loses(child, k, misere) for _, child in successors(heaps, k))


def successors(heaps: tuple[int, ...], k: int | None) -> list[tuple[tuple[int, int], tuple]]:
    out = []
    for i, h in enumerate(heaps):
        for t in range(1, (h if k is None else min(h, k)) + 1):
            out.append(((i, t), heaps[:i] + (h - t,) + heaps[i + 1:]))
    return out


def brute_winning(heaps: tuple[int, ...], k: int | None, misere: bool) -> list[list[int]]:
    return sorted([list(m) for m, child in successors(heaps, k)
                   if mover_loses(child, k, misere)])


# --- moves by mouse and keyboard --------------------------------------------------------------


def test_clicking_a_pebble_takes_it_and_those_above(app) -> None:
    scene = open_heaps(app, game="nim")  # heaps 3, 5, 7
    assert scene.state.heaps == (3, 5, 7)
    click(app, *pebble(scene, 2, 2))  # the third pebble from the bottom of C: 5 go
    assert scene.state.heaps == (3, 5, 2) and scene.state.current_player() == 1
    click(app, *pebble(scene, 0, 2))  # the top pebble of A: just that one
    assert scene.state.heaps == (2, 5, 2) and scene.state.current_player() == 0
    click(app, *pebble(scene, 2, 5))  # an empty socket: nothing
    board = scene.layout()["board"]
    click(app, board.centerx, board.y + 6)  # the empty top of the board: nothing
    assert scene.state.heaps == (2, 5, 2)


def test_bachet_takes_more_than_k_do_nothing_and_show_it(app) -> None:
    scene = open_heaps(app, game="bachet")  # 100 pebbles, take 1..10
    hover(app, *pebble(scene, 0, 50))
    debug = scene.debug_state()
    assert debug["pointed"] == [0, 50] and not debug["pointed_legal"]
    click(app, *pebble(scene, 0, 50))
    assert scene.state.heaps == (100,) and scene.state.current_player() == 0
    click(app, *pebble(scene, 0, 89))  # takes 11: one too many
    assert scene.state.heaps == (100,)
    hover(app, *pebble(scene, 0, 90))
    assert scene.debug_state()["pointed"] == [0, 10] and scene.debug_state()["pointed_legal"]
    click(app, *pebble(scene, 0, 90))  # exactly 10
    assert scene.state.heaps == (90,)
    click_widget(app, "Take 3")
    assert scene.state.heaps == (87,)


def test_keyboard_chooses_heap_and_count(app) -> None:
    scene = open_heaps(app, game="nim")
    key(app, pygame.K_RIGHT)  # the first arrow shows the cursor on heap A
    assert scene.debug_state()["pointed"] == [0, 1]
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_UP)
    key(app, pygame.K_UP)
    assert scene.debug_state()["pointed"] == [1, 3]
    for _ in range(9):  # no further than the heap holds
        key(app, pygame.K_UP)
    assert scene.debug_state()["pointed"] == [1, 5]
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    assert scene.state.heaps == (3, 1, 7)


def test_the_window_size_does_not_change_what_a_click_takes(profile) -> None:
    for size in ((1280, 720), (700, 900)):
        app = make_app(profile, size)
        try:
            scene = open_heaps(app, game="nim", nim=2)  # heaps 2, 5, 9, 11
            click(app, *pebble(scene, 3, 4))
            assert scene.state.heaps == (2, 5, 9, 4)
        finally:
            app.quit()
            app.stats.close()


# --- the computer and undo --------------------------------------------------------------------


@pytest.mark.slow
def test_perfect_computer_leaves_a_multiple_of_k_plus_one(app) -> None:
    scene = open_heaps(app, (Seat(), PERFECT), game="bachet")
    for take in (3, 7, 1):
        before = scene.state.heaps[0]
        click_widget(app, f"Take {take}")
        assert scene.state.heaps[0] == before - take
        run_until(app, lambda: scene.state.current_player() == 0)
        assert scene.state.heaps[0] % 11 == 0, scene.state.heaps
    assert scene.state.heaps == (66,)


@pytest.mark.slow
def test_undo_returns_to_the_human_turn(app) -> None:
    scene = open_heaps(app, (Seat(), PERFECT), game="bachet", heap=30, max_take=4)
    click(app, *pebble(scene, 0, 28))  # take 2, leaving 28
    assert scene.state.heaps == (28,)
    run_until(app, lambda: scene.state.current_player() == 0)
    assert scene.state.heaps == (25,)  # the computer leaves a multiple of 5
    click_widget(app, "Undo")
    assert scene.state.heaps == (30,) and scene.state.current_player() == 0
    key(app, pygame.K_y, mod=CTRL)
    assert scene.state.heaps == (25,) and scene.state.current_player() == 0


def test_human_cannot_click_for_the_computer(app) -> None:
    scene = open_heaps(app, (PERFECT, Seat()), game="nim")
    click(app, *pebble(scene, 0, 0))  # immediately: the computer's turn
    assert scene.state.heaps == (3, 5, 7)
    run_until(app, lambda: scene.state.current_player() == 1)
    state = scene.state
    assert state.value() == 0  # 3 ⊕ 5 ⊕ 7 = 1: Perfect makes it 0


# --- endings ------------------------------------------------------------------------------------


def test_normal_nim_ends_with_the_last_taker_winning(app) -> None:
    scene = open_heaps(app, game="nim", nim=3)  # heaps 4, 4
    click(app, *pebble(scene, 0, 0))
    click(app, *pebble(scene, 1, 0))
    assert scene.state.is_terminal() and scene.state.returns() == (-1.0, 1.0)
    assert scene.status_text().startswith("Player 2 took the last pebble and wins")
    assert scene.debug_state()["over"]


def test_misere_nim_ends_with_the_last_taker_losing(app) -> None:
    scene = open_heaps(app, game="nim", nim=4, misere=True)  # heaps 1, 3, 5, 7, 9
    for heap in range(5):  # each player in turn empties a heap; player 1 empties the last
        click(app, *pebble(scene, heap, 0))
    state = scene.state
    assert state.is_terminal() and state.returns() == (-1.0, 1.0)
    assert scene.status_text().startswith("Player 1 took the last pebble and loses: "
                                          "Player 2 wins")
    rows = app.stats.game_summary()
    assert [(r.variant, r.mode, r.lost) for r in rows] == [("nim-1.3.5.7.9-misere",
                                                            "human-human", 1)]


# --- hints ---------------------------------------------------------------------------------------


def test_nim_hints_show_values_arithmetic_and_winning_moves(app) -> None:
    scene = open_heaps(app, game="nim")
    key(app, pygame.K_h)
    wait_hints(app, scene)
    debug = scene.debug_state()
    assert debug["hint_values"] == [3, 5, 7]
    assert "3 ⊕ 5 ⊕ 7 = 1" in debug["status"]
    expected = brute_winning((3, 5, 7), None, False)
    assert debug["winning"] == expected == sorted(list(m) for m in scene.state.winning_moves())
    assert expected == [[0, 1], [1, 1], [2, 1]]
    click(app, *pebble(scene, 2, 6))  # take 1 from C: 3 ⊕ 5 ⊕ 6 = 0
    wait_hints(app, scene)
    debug = scene.debug_state()
    assert debug["winning"] == [] and "3 ⊕ 5 ⊕ 6 = 0" in debug["status"]


@pytest.mark.slow
def test_hints_agree_with_brute_force_on_small_games(app) -> None:
    cases = [dict(game="nim", nim=n, misere=m) for n in (0, 1, 3, 4) for m in (False, True)]
    cases += [dict(game="bachet", heap=h, max_take=k) for h, k in ((23, 4), (12, 3), (7, 7))]
    for setup in cases:
        scene = open_heaps(app, **setup)
        scene.show_hints = True
        for _ in range(3):  # the start and two moves into the game
            if scene.state.is_terminal():
                break
            wait_hints(app, scene)
            heaps, cfg = scene.state.heaps, scene.config
            debug = scene.debug_state()
            assert debug["winning"] == brute_winning(heaps, cfg.max_take, cfg.misere), setup
            k = cfg.max_take
            assert debug["hint_values"] == [h if k is None else h % (k + 1) for h in heaps]
            if "misere" in setup and setup["misere"]:
                assert "misère" in debug["status"].lower()
            moves = scene.state.legal_moves()
            scene.play_move(moves[len(moves) // 2])
        app.pop()


def test_misere_hint_leaves_an_odd_number_of_ones(app) -> None:
    scene = open_heaps(app, game="nim", nim=1, misere=True)  # heaps 1, 2, 3, 4
    for heap, index in ((3, 0), (2, 1)):  # 1, 2, 3, 4 → 1, 2, 3, 0 → 1, 2, 1, 0
        click(app, *pebble(scene, heap, index))
    assert scene.state.heaps == (1, 2, 1, 0)
    key(app, pygame.K_h)
    wait_hints(app, scene)
    # Normal Nim would take 2 from B (nim-sum 0, two 1s); misère must leave three 1s.
    assert scene.debug_state()["winning"] == [[1, 1]] == brute_winning((1, 2, 1, 0), None, True)


def test_hint_and_hover_are_drawn(app) -> None:
    scene = open_heaps(app, game="nim")
    vp, p = app.viewport, app.theme.palette
    pile = scene.piles()[2]
    x, y = vp.point(*pile.centre(6))  # the top pebble of C: the winning take of 1
    radius = round(pile.cell * 0.44 * vp.scale)
    ring = (x + radius, y)
    assert tuple(app.screen.get_at(ring))[:3] != p.good
    key(app, pygame.K_h)
    wait_hints(app, scene)
    assert tuple(app.screen.get_at(ring))[:3] == p.good
    # Pointing at a pebble lights up what a click would take.
    hover(app, *pile.centre(4))
    for j in (4, 5, 6):
        assert tuple(app.screen.get_at(vp.point(*pile.centre(j))))[:3] == p.accent
    assert tuple(app.screen.get_at(vp.point(*pile.centre(3))))[:3] != p.accent
