"""The "your turn" cue: the mover's card lights up, glows (pulsing as the turn begins),
says "Your turn", and the status line starts with it; and each seat's last move."""

from __future__ import annotations

import pygame

from engine.model.seats import Seat
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import near, run_until

HUMAN = Seat()
EASY = Seat("computer", "easy")
CLASSIC = MNKConfig()


def open_game(app, seats, config=CLASSIC) -> TicTacToeScene:
    scene = app.push(TicTacToeScene(app, config, seats=seats, seed=5))
    app.step([], 0.0)
    return scene


def click_cell(app, scene, row: int, col: int) -> None:
    pos = tuple(round(v) for v in scene.geometry().cell_center(row, col))
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])


def halo_pixel(app, scene, player: int) -> tuple[int, int]:
    """A point just outside the middle of a card's left edge, where the glow is drawn."""
    card = scene.area(f"card{player}")
    return (card.x - max(2, round(3 * app.viewport.scale)), card.centery)


def inside_pixel(app, scene, player: int) -> tuple[int, int]:
    """A point inside a card, clear of its badge and text."""
    card = scene.area(f"card{player}")
    inset = round(12 * app.viewport.scale)
    return (card.right - inset, card.bottom - inset)


def test_the_human_card_lights_up_and_says_your_turn(app) -> None:
    p = app.theme.palette
    scene = open_game(app, (HUMAN, EASY))
    assert scene.status_text().startswith("Your turn")
    assert scene.card_tag(0) == "Your turn" and scene.card_tag(1) == ""
    # Lit (hover colour) and haloed; the computer's card is neither.
    assert near(app.screen.get_at(inside_pixel(app, scene, 0)), p.hover)
    assert near(app.screen.get_at(inside_pixel(app, scene, 1)), p.panel)
    halo = app.screen.get_at(halo_pixel(app, scene, 0))
    assert not near(halo, p.background, 20) and halo[0] > p.background[0] + 40
    assert near(app.screen.get_at(halo_pixel(app, scene, 1)), p.background)
    # Once the human has moved, the cue goes (the computer is to move).
    click_cell(app, scene, 1, 1)
    app.step([], 0.0)
    assert not scene.status_text().startswith("Your turn")
    assert near(app.screen.get_at(inside_pixel(app, scene, 0)), p.panel)
    assert near(app.screen.get_at(halo_pixel(app, scene, 0)), p.background)
    # ...and comes back with the human's next turn.
    run_until(app, lambda: scene.card_tag(0) == "Your turn")
    app.step([], 0.0)
    assert scene.status_text().startswith("Your turn")
    assert near(app.screen.get_at(inside_pixel(app, scene, 0)), p.hover)


def test_hot_seat_cards_name_whose_turn(app) -> None:
    scene = open_game(app, (HUMAN, HUMAN))
    assert scene.card_tag(0) == "X's turn" and scene.card_tag(1) == ""
    assert scene.status_text().startswith("Your turn — X to move")
    click_cell(app, scene, 0, 0)
    assert scene.card_tag(1) == "O's turn" and scene.card_tag(0) == ""
    assert scene.status_text().startswith("Your turn — O to move")


def test_the_glow_pulses_as_the_turn_begins_then_holds(app) -> None:
    scene = open_game(app, (HUMAN, HUMAN))
    click_cell(app, scene, 0, 0)  # O's turn begins: a fresh cue
    strengths = []
    colours = set()
    for _ in range(12):
        app.step([], 0.1)
        strengths.append(scene.turn_cue())
        colours.add(tuple(app.screen.get_at(halo_pixel(app, scene, 1))))
    assert max(strengths) - min(strengths) > 0.5  # it pulses...
    assert len(colours) > 2  # ...visibly
    app.step([], 2.0)
    assert scene.turn_cue() == 1.0 and not scene.anim.active  # then a steady glow, and idle


def test_reduce_motion_keeps_the_glow_still(app) -> None:
    app.settings.set("reduce_motion", True)
    scene = open_game(app, (HUMAN, HUMAN))
    click_cell(app, scene, 0, 0)
    colours = set()
    for _ in range(6):
        app.step([], 0.1)
        assert scene.turn_cue() == 1.0
        colours.add(tuple(app.screen.get_at(halo_pixel(app, scene, 1))))
    assert len(colours) == 1 and not scene.anim.active
    assert not near(colours.pop(), app.theme.palette.background, 20)


def test_no_cue_when_the_computer_plays_itself(app) -> None:
    scene = open_game(app, (EASY, EASY))
    scene.toggle_pause()
    app.step([], 0.0)
    assert scene.turn_cue() is None
    assert not scene.status_text().startswith("Your turn")
    assert near(app.screen.get_at(halo_pixel(app, scene, 0)), app.theme.palette.background)


# --- each seat's last move ----------------------------------------------------------------------


def test_last_moves_gives_each_seats_latest_move_of_this_game(app) -> None:
    config = MNKConfig(4, 4, 3, players=3)
    scene = open_game(app, (HUMAN, HUMAN, HUMAN), config)
    assert scene.last_moves() == {}
    cells = [(0, 0), (3, 3), (0, 3), (1, 1), (2, 3)]  # X, O, △, X, O
    for r, c in cells:
        click_cell(app, scene, r, c)

    def moved_to(pair):
        before, after = pair
        pairs = zip(before.board, after.board, strict=True)
        (index,) = [i for i, (a, b) in enumerate(pairs) if a != b]
        return divmod(index, 4)

    moves = scene.last_moves()
    assert {seat: moved_to(pair) for seat, pair in moves.items()} == {
        0: (1, 1), 1: (2, 3), 2: (0, 3)}
    assert all(pair[0].current_player() == seat for seat, pair in moves.items())
    assert moves[1] == scene.last_step()
    # An undone move is not "last": O's previous move counts again.
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_CTRL,
                                         unicode="", scancode=0))
    app.step()
    assert moved_to(scene.last_moves()[1]) == (3, 3)
    # A new game starts with no last moves.
    scene.new_game()
    assert scene.last_moves() == {}
