"""Issue 12's play-test findings on the Grundy screens, each driven through the real scene
with real events: clicks on any token's move, fair starts, the Bachet label, the graph's
colours and legend, player-facing wording and the set-up's heap controls."""

from __future__ import annotations

import math

import pygame
import pytest

from engine.model.seats import Seat
from games.grundy.board import BoardConfig
from games.grundy.graphs import BUILTIN, GraphState, label_outcomes
from games.grundy.scene_board import GrundyBoardScene
from games.grundy.scenes import scene_for
from games.grundy.variants import GAMES, SPEC, GrundySetup, new_game
from tests.conftest import click, grid_centre, key, near, run_until

HUMANS = (Seat(), Seat())
PERFECT = Seat("computer", "perfect")
HUMAN_FIRST = (Seat(), PERFECT)


def open_game(app, seats=HUMANS, **setup):
    scene = app.push(scene_for(app, GrundySetup(**setup), seats, seed=5))
    app.step([])
    return scene


def square(scene: GrundyBoardScene, row: int, col: int) -> tuple[float, float]:
    """Design-space centre of a board square, from the scene's layout."""
    return grid_centre(tuple(scene.layout()["board"]), scene.config.rows, scene.config.cols,
                       row, col)


def settle(app, scene) -> None:
    """Finish the animations and draw one frame without letting time pass."""
    scene.anim.finish_all()
    app.step([], dt=0.0)


# --- item 2: with several tokens every reachable square can be clicked --------------------


def two_rooks(app, squares=((4, 4), (4, 2))) -> GrundyBoardScene:
    """Two-token Rook 5×5, humans, tokens on ``squares``, token 1 selected."""
    scene = open_game(app, game="rook", rows=5, cols=5, tokens=2)
    from games.grundy.board import TokenState

    scene.push(TokenState(scene.config, squares, 0))
    settle(app, scene)
    assert scene.selected == 0
    return scene


def test_a_square_only_another_token_reaches_moves_that_token(app) -> None:
    scene = two_rooks(app)
    assert "click where a token should go" in scene.status_text()
    assert "token 1" in scene.status_text()
    # (2, 2) is straight above token 2 and out of token 1's row and column.
    click(app, *square(scene, 2, 2))
    assert scene.state.tokens == ((4, 4), (2, 2)) and scene.state.current_player() == 1
    assert scene.selected == 1


def ring_hits(app, scene: GrundyBoardScene, token: int) -> int:
    """How many pixels of the focus colour lie on a ring round ``token``'s box."""
    geom = scene.geometry()
    box = scene._token_boxes(geom)[token]
    radius = max(4, round(geom.cell_size * 0.55))
    colour = app.theme.palette.focus
    hits = 0
    for i in range(72):
        a = 2 * math.pi * i / 72
        for r in range(radius - 3, radius + 1):
            pos = (round(box.centerx + r * math.cos(a)), round(box.centery + r * math.sin(a)))
            if app.screen.get_rect().collidepoint(pos) and near(app.screen.get_at(pos), colour):
                hits += 1
                break
    return hits


def test_a_square_several_tokens_reach_asks_which_and_a_click_on_one_moves_it(app) -> None:
    scene = two_rooks(app)
    before = scene.state
    rings = (ring_hits(app, scene, 0), ring_hits(app, scene, 1))
    click(app, *square(scene, 4, 1))  # both tokens can slide left to (4, 1)
    assert scene.state is before  # nothing moved: the screen asks
    assert scene.choosing() == ((4, 1), [0, 1])
    status = scene.status_text()
    assert status.startswith("Two tokens can go there") and "click the one to move" in status
    settle(app, scene)
    # Both candidates are ringed on the board (they were not before the question).
    after = (ring_hits(app, scene, 0), ring_hits(app, scene, 1))
    assert min(after) >= 60 and max(rings) < 40, (rings, after)
    click(app, *square(scene, 4, 2))  # token 2
    assert scene.state.tokens == ((4, 4), (4, 1)) and scene.choosing() is None
    assert scene.selected == 1


def test_a_click_elsewhere_cancels_the_question_and_counts_as_a_click(app) -> None:
    scene = two_rooks(app)
    click(app, *square(scene, 4, 0))  # both can go: asked
    assert scene.choosing() is not None
    # Neither a token nor a square either token reaches: the question is dropped, and the
    # click is refused like any other illegal one.
    click(app, *square(scene, 0, 0))
    assert scene.choosing() is None
    assert scene.state.tokens == ((4, 4), (4, 2))
    assert "click where a token should go" in scene.status_text()


def test_a_token_picked_by_the_player_goes_without_asking(app) -> None:
    scene = two_rooks(app)
    key(app, pygame.K_2)  # the player picks token 2 ...
    click(app, *square(scene, 4, 1))  # ... so a square both reach goes to token 2
    assert scene.state.tokens == ((4, 4), (4, 1)) and scene.choosing() is None
    scene = two_rooks(app)
    click(app, *square(scene, 4, 4))  # a click on token 1 picks it
    click(app, *square(scene, 4, 1))
    assert scene.state.tokens == ((4, 1), (4, 2))


def test_the_hints_winning_marks_of_an_unselected_token_are_playable(app) -> None:
    scene = two_rooks(app, ((4, 4), (1, 0)))
    scene.show_hints = True
    run_until(app, lambda: bool(scene.hints))
    # Values (row ⊕ column): token 1 on (4, 4) is 0, token 2 on (1, 0) is 1. Token 1's
    # row and column hold only 4..7, so the only winning move is token 2's, to (0, 0),
    # which is not among the selected token's highlighted squares.
    winning = scene.debug_state()["winning"]
    assert winning and all(token == 1 for token, _r, _c in winning)
    _t, row, col = winning[0]
    click(app, *square(scene, row, col))
    assert scene.state.tokens[1] == (row, col) and scene.state.value() == 0


# --- item 14: fair default starts -----------------------------------------------------------


def default_setups() -> list[GrundySetup]:
    """Every variant a player starts without choosing a position: each game's default, the
    presets, each built-in graph, 1–4 tokens on each board game, and the descriptor's
    small variants."""
    from games.grundy.descriptor import GAME

    setups = [GrundySetup(game=g) for g in GAMES]
    setups += [p.params for p in SPEC.presets]
    setups += [GrundySetup(game="graph", graph=i) for i in range(len(BUILTIN))]
    setups += [GrundySetup(game=g, tokens=t) for g in ("king", "rook", "queen", "knight")
               for t in (1, 2, 3, 4)]
    setups += [SPEC.decode(text) for text in GAME.small]
    return setups


def mover_wins(state) -> bool:
    """The exact value: does the player to move win with best play?"""
    if isinstance(state, GraphState):
        return label_outcomes(state.graph)[state.node] == "win"
    return state.value() != 0


@pytest.mark.parametrize("setup", default_setups(), ids=lambda s: s.variant_id())
def test_every_default_start_is_won_for_a_human_moving_first(app, setup) -> None:
    assert mover_wins(new_game(setup)), setup.label()
    scene = app.push(scene_for(app, setup, HUMAN_FIRST, seed=1))
    app.step([])
    state = scene.state
    assert state.current_player() == 0 and not state.is_terminal()
    assert mover_wins(state), (setup.label(), scene.debug_state())
    app.pop()


@pytest.mark.slow
def test_a_human_moving_second_gets_the_won_side_on_a_board(app) -> None:
    for game in ("king", "rook", "queen", "knight"):
        scene = open_game(app, (PERFECT, Seat()), game=game)
        assert scene.state.value() == 0, game  # the computer, first, is the one that loses
        run_until(app, lambda s=scene: s.state.current_player() == 1)
        assert scene.state.value() != 0  # the human now has a winning move
        app.pop()


def test_the_hint_still_tells_the_truth_on_the_fair_start(app) -> None:
    scene = open_game(app, HUMAN_FIRST, game="knight")
    assert scene.state.tokens != ((7, 7),)  # the corner is lost for the knight 8×8
    scene.show_hints = True
    run_until(app, lambda: bool(scene.hints))
    state = scene.state
    winning = scene.debug_state()["winning"]
    assert winning and sorted(map(list, state.winning_moves())) == winning
    assert "the player to move wins" in scene.status_text()
    # Play the hinted move: the computer is left on a 0.
    _t, row, col = winning[0]
    click(app, *square(scene, row, col))
    assert scene.state.value() == 0


def test_fair_start_keeps_the_corner_when_it_is_already_fair() -> None:
    from games.grundy.starts import fair_start

    assert fair_start(BoardConfig("king", 8, 8, 1)).tokens == ((7, 7),)
    assert fair_start(BoardConfig("rook", 8, 8, 2)).tokens == ((7, 7), (7, 6))
    lost = fair_start(BoardConfig("king", 8, 8, 1), mover_wins=False)
    assert lost.value() == 0 and not lost.is_terminal()





# --- item 4: Bachet's "✓ take n" label never covers the rings of the pebbles taken ----------


def socket_rects(app, scene, heap: int, first: int, end: int) -> list[pygame.Rect]:
    """Pixel boxes of the sockets ``first``..``end - 1`` of ``heap`` (ring included)."""
    vp = app.viewport
    pile = scene.piles()[heap]
    radius = max(2, round(pile.cell * 0.44 * vp.scale)) + 2
    out = []
    for j in range(first, end):
        cx, cy = vp.point(*pile.centre(j))
        out.append(pygame.Rect(cx - radius, cy - radius, 2 * radius, 2 * radius))
    return out


@pytest.mark.parametrize("size", [(640, 480), (960, 720), (1920, 1080)])
@pytest.mark.parametrize("heap,take", [(100, 10), (20, 3), (12, 1), (40, 7)])
def test_bachet_take_label_stays_off_the_taken_rings(profile, size, heap, take) -> None:
    from tests.conftest import click_widget, make_app

    app = make_app(profile, size)
    try:
        scene = open_game(app, game="bachet", heap=heap, max_take=max(take, 3))
        click_widget(app, f"Take {take}")  # player 1 takes: rings mark the sockets
        scene.show_hints = True
        run_until(app, lambda: bool(scene.hints))
        settle(app, scene)
        marks = scene.taken_marks()
        assert marks and scene.debug_state()["winning"], "a mark and a winning take to label"
        label = scene.label_rects[0]
        rings = socket_rects(app, scene, 0, marks[0][2], marks[0][3])
        assert label.collidelist(rings) == -1, (label, rings)
        # The label is really on screen, inside the board.
        assert app.screen.get_rect().contains(label)
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


# --- item 15: any Nim heaps; Bachet's heap is one control ---------------------------------


def open_setup(app, **setup):
    from games.grundy.setup_scene import GrundySetupOverlay
    from tests.conftest import click_widget

    scene = open_game(app, **setup)
    click_widget(app, "Setup")
    assert isinstance(app.top, GrundySetupOverlay)
    return scene, app.top


@pytest.mark.slow
def test_nim_heaps_can_be_typed_and_are_checked(app) -> None:
    from engine.screens.overlays import TextEntryDialog
    from games.grundy.scene_heaps import HeapScene
    from tests.conftest import click_widget, type_text

    _scene, overlay = open_setup(app, game="nim")
    click_widget(app, "heaps")
    assert isinstance(app.top, TextEntryDialog)
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    key(app, pygame.K_BACKSPACE)
    type_text(app, "0 3")
    key(app, pygame.K_RETURN)
    assert isinstance(app.top, TextEntryDialog) and "1 to 100 pebbles" in app.top.error
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    key(app, pygame.K_BACKSPACE)
    type_text(app, "2, 9 4")
    key(app, pygame.K_RETURN)
    assert app.top is overlay and overlay.choice.heaps == (2, 9, 4)
    assert overlay.ui.find("heaps").label.startswith("Heaps: 2, 9, 4")
    key(app, pygame.K_RETURN)  # Start
    assert isinstance(app.top, HeapScene) and app.top.state.heaps == (2, 9, 4)
    assert app.top.variant_id() == "nim-2.9.4"


@pytest.mark.slow
def test_bachet_heap_is_one_stepper_disabled_at_its_limits(app) -> None:
    from engine.screens.overlays import TextEntryDialog
    from tests.conftest import click_widget, type_text

    _scene, overlay = open_setup(app, game="bachet")
    names = [getattr(w, "name", "") for w in overlay.ui.widgets if w.visible]
    assert not any("×10" in str(n) for n in names)
    assert sum(1 for n in names if str(n).startswith("Pebbles")) == 1  # one control
    click_widget(app, "Pebbles+")
    assert overlay.choice.heap == 101
    click_widget(app, "Type pebbles")
    assert isinstance(app.top, TextEntryDialog)
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    key(app, pygame.K_BACKSPACE)
    type_text(app, "1")
    key(app, pygame.K_RETURN)
    assert app.top is overlay and overlay.choice.heap == 1
    minus = overlay.ui.find("Pebbles-")
    assert not minus.enabled
    click_widget(app, "Pebbles-")  # disabled: nothing changes
    assert overlay.choice.heap == 1


def test_typed_heaps_survive_settings() -> None:
    setup = SPEC.decode("nim:6.2.9:misere")
    assert setup.heaps == (6, 2, 9) and setup.misere
    assert GrundySetup.from_settings(SPEC.to_settings(setup)) == setup
    assert GrundySetup.from_settings({"game": "nim", "nim": 1}).heaps == (1, 2, 3, 4)
    with pytest.raises(ValueError, match="1 to 8 heaps"):
        GrundySetup(game="nim", nim_heaps=(1,) * 9)


# --- item 11: what a player reads is in the player's words --------------------------------

CITATIONS = ("document", "source", "figure", "§")


@pytest.mark.slow
def test_no_player_visible_grundy_text_cites_the_source(app) -> None:
    from games.grundy import help_text

    texts = [help_text.HELP]
    for setup in default_setups():
        scene = app.push(scene_for(app, setup, HUMANS, seed=1))
        app.step([])
        texts += [setup.label(), scene.help_text, scene.status_text(), SPEC.label(setup)]
        if hasattr(scene, "graph"):
            texts += [scene.graph.name, scene.graph.description, *scene.graph.labels]
        app.pop()
    texts += [p.label for p in SPEC.presets]
    for text in texts:
        lowered = text.lower()
        assert not any(word in lowered for word in CITATIONS), text


# --- issue 28 item 9: the "−n" tags miss every pebble, ring and ✓ badge ------------------


def pebble_boxes(app, scene, heap: int) -> list[pygame.Rect]:
    """Pixel boxes of every socket of ``heap``'s starting size, with the widest ring drawn
    round a pebble (the ✓ ring: radius plus its width)."""
    vp = app.viewport
    pile = scene.piles()[heap]
    r = max(2, round(pile.cell * 0.44 * vp.scale))
    reach = r + max(2, round(r * 0.22))
    out = []
    for j in range(scene.config.heaps[heap]):
        cx, cy = vp.point(*pile.centre(j))
        out.append(pygame.Rect(cx - reach, cy - reach, 2 * reach, 2 * reach))
    return out


def badge_boxes(app, scene) -> list[pygame.Rect]:
    """Pixel boxes of the ✓ badges on the lowest pebble of each winning take."""
    vp = app.viewport
    out = []
    for heap, take in scene.debug_state()["winning"]:
        pile = scene.piles()[heap]
        r = max(2, round(pile.cell * 0.44 * vp.scale))
        cx, cy = vp.point(*pile.centre(scene.state.heaps[heap] - take))
        b = max(5, round(r * 0.5)) + 1
        out.append(pygame.Rect(round(cx + r * 0.75 - b), round(cy - r * 0.75 - b), 2 * b, 2 * b))
    return out


TAG_CASES = [
    ({"game": "bachet", "heap": 20, "max_take": 3}, 0, 3),
    ({"game": "bachet", "heap": 100, "max_take": 7}, 0, 2),
    ({"game": "nim", "nim_heaps": (3, 4, 5)}, 2, 2),
    ({"game": "nim", "nim_heaps": (1, 100, 7, 30)}, 1, 3),
    ({"game": "nim", "nim_heaps": (1, 100, 7, 30)}, 3, 1),
    ({"game": "nim", "nim_heaps": (100,) * 8}, 4, 6),
]


@pytest.mark.parametrize("size", [(640, 480), (960, 720), (1920, 1080)])
@pytest.mark.parametrize("setup,heap,take", TAG_CASES)
def test_taken_tags_miss_pebbles_rings_and_badges(profile, size, setup, heap, take) -> None:
    from tests.conftest import make_app

    app = make_app(profile, size)
    try:
        scene = open_game(app, **setup)
        pile = scene.piles()[heap]
        click(app, *pile.centre(scene.state.heaps[heap] - take))  # a real click takes them
        assert scene.state.heaps[heap] == scene.config.heaps[heap] - take
        scene.show_hints = True
        run_until(app, lambda: bool(scene.hints))
        settle(app, scene)
        assert scene.taken_marks() and scene.debug_state()["winning"]
        blocked = [r for h in range(len(scene.config.heaps)) for r in pebble_boxes(app, scene, h)]
        blocked += badge_boxes(app, scene)
        tags = scene.tag_rects[heap]
        assert len(tags) == 1
        tag = tags[0]
        assert tag.collidelist(blocked) == -1, (tag, blocked[tag.collidelist(blocked)])
        # Clear of the label above the pile too, and inside the board.
        for label in scene.label_rects.values():
            assert not tag.colliderect(label), (tag, label)
        assert scene.area("board").contains(tag)
        # The tag really is drawn there: its middle is the focus-coloured pill.
        focus = app.theme.palette.focus
        pixels = [app.screen.get_at((x, tag.centery)) for x in range(tag.left, tag.right)]
        assert sum(near(c, focus, 30) for c in pixels) >= tag.width // 4
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


# --- issue 28 item 10: a winning move onto another token's square is one click ------------


def test_the_framed_move_onto_the_selected_tokens_square_is_one_click(app) -> None:
    scene = two_rooks(app)  # token 1 on (4, 4), token 2 on (4, 2)
    key(app, pygame.K_2)  # token 2 selected (as after token 2 moved)
    assert scene.selected == 1
    scene.show_hints = True
    run_until(app, lambda: bool(scene.hints))
    settle(app, scene)
    # Values row ⊕ column: 0 and 6; token 1 onto (4, 2) (value 6) is framed as winning.
    assert [0, 4, 2] in scene.debug_state()["winning"]
    click(app, *square(scene, 4, 2))  # one click on the framed square plays it
    assert scene.state.tokens == ((4, 2), (4, 2)) and scene.state.value() == 0
    assert scene.state.current_player() == 1


def test_a_legal_square_of_the_selected_token_is_a_move_even_with_a_token_on_it(app) -> None:
    from games.grundy.board import TokenState

    scene = open_game(app, game="rook", rows=5, cols=5, tokens=3)
    # Tokens 1 and 3 can both slide onto token 2's square (4, 2).
    scene.push(TokenState(scene.config, ((4, 4), (4, 2), (4, 3)), 0))
    settle(app, scene)
    assert scene.selected == 0 and scene.movers_to(4, 2) == [0, 2]
    click(app, *square(scene, 4, 2))
    assert scene.state.tokens == ((4, 2), (4, 2), (4, 3)) and scene.choosing() is None


@pytest.mark.parametrize("size", [(640, 480), (960, 720)])
@pytest.mark.parametrize("heap", [20, 100])
def test_two_computers_tags_on_one_heap_miss_each_other_and_the_pebbles(profile, size,
                                                                         heap) -> None:
    from tests.conftest import make_app

    app = make_app(profile, size)
    try:
        easy = Seat("computer", "easy")
        scene = open_game(app, (easy, easy), game="bachet", heap=heap, max_take=5)
        run_until(app, lambda: len(scene.taken_marks()) == 2)
        scene.toggle_pause()
        scene.show_hints = True
        run_until(app, lambda: bool(scene.hints))
        settle(app, scene)
        tags = scene.tag_rects[0]
        assert len(tags) == 2 and not tags[0].colliderect(tags[1])
        blocked = pebble_boxes(app, scene, 0) + badge_boxes(app, scene)
        for tag in tags:
            assert tag.collidelist(blocked) == -1, (tag, blocked[tag.collidelist(blocked)])
            assert scene.area("board").contains(tag)
            for label in scene.label_rects.values():
                assert not tag.colliderect(label)
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()
