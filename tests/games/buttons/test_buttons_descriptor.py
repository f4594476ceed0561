"""Button Madness as the engine sees it: descriptor, parameters, game ID, GameState, settings."""

from __future__ import annotations

import random

import pytest

from engine.model.game_settings import load_params, remember
from engine.model.registry import find_game
from engine.model.rules import GameState, IllegalMove
from games.buttons.board import Board, Cells
from games.buttons.descriptor import DESCRIPTORS, GAME
from games.buttons.params import SPEC, ButtonParams, new_game


def test_the_registry_finds_the_game_by_id_and_aliases() -> None:
    assert DESCRIPTORS == (GAME,)
    for name in ("button-madness", "Buttons", "lights-out"):
        assert find_game(name) is GAME
    assert GAME.is_puzzle and GAME.param_spec() is SPEC
    assert GAME.help_text().startswith("Every button is solid red or ringed green.")
    from engine.ui.theme import DEFAULT
    from games.buttons.wording import help_text, state_words

    # The screen words its help for the palette in use; the default's is the descriptor's.
    assert help_text(state_words(DEFAULT)) == GAME.help_text()


def test_the_descriptor_names_only_pygame_free_rules() -> None:
    # Every module the descriptor names exists (the build lists them as hidden imports).
    import importlib

    for module in GAME.modules():
        importlib.import_module(module)
    assert "games.buttons.params" in GAME.modules()


def test_game_id_round_trip_and_errors() -> None:
    for n in (1, 2, 4, 20, 1000):
        params = ButtonParams(n)
        assert SPEC.encode(params) == f"{n}x{n}" == SPEC.variant_id(params)
        assert SPEC.decode(f" {n}X{n} ") == params
    for bad in ("4x5", "abc", "0x0", "1001x1001", "4", "", "-4x-4"):
        with pytest.raises(ValueError, match="Invalid game ID"):
            SPEC.decode(bad)
    with pytest.raises(ValueError):
        ButtonParams(0)
    with pytest.raises(ValueError):
        SPEC.validate("4x4")  # a game ID is not parameters
    assert SPEC.validate(ButtonParams(9)) == ButtonParams(9)
    assert SPEC.default() == ButtonParams(4)
    assert SPEC.label(ButtonParams(4)).startswith("4×4") and SPEC.label(ButtonParams(9)) == "9×9"


def test_settings_keep_their_old_shape() -> None:
    # Files written before parameters were generic hold {"n": 7}: they still load.
    assert SPEC.to_settings(ButtonParams(7)) == {"n": 7}
    assert SPEC.from_settings({"n": 7}) == ButtonParams(7)
    for junk in (None, {}, {"n": "7"}, {"n": True}, {"n": 0}, {"n": 5000}):
        assert SPEC.from_settings(junk) == ButtonParams(4), junk


def test_new_game_is_a_solvable_one_player_state() -> None:
    from games.buttons.solver import is_solvable

    for variant in GAME.small:
        params = SPEC.decode(variant)
        board = GAME.new_game(params, random.Random(3))
        assert isinstance(board, Board) and isinstance(board, GameState)
        assert board.n == params.n and not board.is_terminal() and is_solvable(board)
        assert board == new_game(params, random.Random(3)), "the same seed, the same board"
        assert board.num_players == 1 and board.current_player() == 0
        assert board.returns() == (0.0,)


def test_board_moves_are_every_cell_listed_lazily() -> None:
    board = Board.solved(3).press(1, 1)
    moves = board.legal_moves()
    assert isinstance(moves, Cells) and len(moves) == 9
    assert list(moves) == [(r, c) for r in range(3) for c in range(3)]
    assert moves[4] == (1, 1) and moves[-1] == (2, 2) and moves[1:3] == [(0, 1), (0, 2)]
    assert (2, 2) in moves and (3, 0) not in moves and (0, -1) not in moves
    assert (1, True) not in moves and "ab" not in moves
    with pytest.raises(IndexError):
        moves[9]
    # A million cells cost nothing until read.
    big = Board.solved(1000).legal_moves()
    assert len(big) == 10**6 and (999, 999) in big and big[10**6 - 1] == (999, 999)
    assert board.play((1, 1)).is_terminal() and board.play((1, 1)).returns() == (1.0,)
    for bad in ((3, 0), (1,), (1, 1, 1), "11", (0.5, 1)):
        with pytest.raises(IllegalMove):
            board.play(bad)


def test_random_playouts_through_the_game_state_interface() -> None:
    """OpenSpiel's random simulation test, on small boards: legal moves play, a press
    undoes itself, and a solved board says so."""
    rng = random.Random(11)
    for variant in GAME.small:
        board = GAME.new_game(SPEC.decode(variant), rng)
        for _ in range(50):
            move = rng.choice(list(board.legal_moves()))
            after = board.play(move)
            assert after.play(move) == board
            assert after.is_terminal() == after.is_solved
            board = after


@pytest.mark.slow
def test_the_scene_opens_with_the_remembered_menu_size(app) -> None:
    from games.buttons.scene import ButtonMadnessScene, open_scene

    assert remember(app.settings, GAME, ButtonParams(7)) is None
    assert app.settings.get("variants")["button-madness"] == {"n": 7}
    assert load_params(app.settings, GAME) == ButtonParams(7)
    scene = GAME.open_scene(app)
    assert isinstance(scene, ButtonMadnessScene) and scene.board.n == 7
    # Explicit parameters are played as given; a remembered size outside the menu is
    # brought into it (2 to 20), as before.
    assert open_scene(app, ButtonParams(30)).board.n == 30
    remember(app.settings, GAME, ButtonParams(500))
    assert GAME.open_scene(app).board.n == 20
    board = Board.solved(5).press(0, 0)
    assert open_scene(app, board=board, seed=1).board == board
