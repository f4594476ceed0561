"""Issue 28: every fact the tic-tac-toe help states is true, checked with the engine against
the independent minimax of tests/support/oracles.py (which shares no code with the solvers).
"""

from __future__ import annotations

import threading

from games.tictactoe.agents import _skill
from games.tictactoe.help_text import HELP
from games.tictactoe.levels import LADDER, RECIPES
from games.tictactoe.rules import MNKConfig, TicTacToeState
from games.tictactoe.variants import MAX_SIDE, MIN_SIDE, PRESETS, validate_config
from tests.support.oracles import minimax

CLASSIC = MNKConfig(3, 3, 3)
CORNERS, CENTRE = (0, 2, 6, 8), 4


def test_3x3_is_a_draw_with_best_play() -> None:
    """"On 3×3, best play from both sides always draws"."""
    assert "On 3×3, best play from both sides always draws." in HELP
    assert minimax(TicTacToeState.new(CLASSIC))[0] == "draw"


def test_after_a_corner_only_the_centre_holds_the_draw() -> None:
    """"Opening in a corner gives the opponent the most ways to go wrong: of the eight
    replies, only the centre holds the draw"."""
    assert "of the eight replies, only the centre holds the draw" in HELP
    start = TicTacToeState.new(CLASSIC)

    def losing_replies(opening: int) -> set[int]:
        after = start.play(opening)
        # The reply's outcome for the replier is the opposite of the opener's after it.
        return {reply for reply in after.legal_moves()
                if minimax(after.play(reply))[0] == "win"}

    for corner in CORNERS:
        replies = set(start.play(corner).legal_moves())
        assert len(replies) == 8 and replies - losing_replies(corner) == {CENTRE}
    most = max(len(losing_replies(opening)) for opening in range(9))
    assert len(losing_replies(CORNERS[0])) == most == 7
    assert all(len(losing_replies(o)) < most for o in range(9) if o not in CORNERS)


def test_the_rules_that_never_lose_never_lose_on_3x3() -> None:
    """The ladder's 3×3 skill "rules that never lose" (Medium's, most of its moves), against
    every line of play, on either side, with several seeds (its ties are broken at
    random)."""
    said = [rung.level for rung in LADDER if "3×3: rules that never lose" in rung.how]
    assert said == ["medium"]
    cancel = threading.Event()
    for seed in range(3):
        for side in (0, 1):
            agent = _skill(CLASSIC, RECIPES["3x3"]["medium"][0], seed)
            stack = [TicTacToeState.new(CLASSIC)]
            while stack:
                state = stack.pop()
                if state.is_terminal():
                    assert state.winner in (None, side), (seed, side, state.board)
                    continue
                if state.current_player() == side:
                    move = agent.choose_move(state, cancel)
                    # Its move keeps at least the draw.
                    assert minimax(state.play(move))[0] != "win", (seed, state.board, move)
                    stack.append(state.play(move))
                else:
                    stack.extend(state.play(m) for m in state.legal_moves())


def test_boards_are_as_the_help_says() -> None:
    """"On the classic board k is 3"; "In the three-player game on 4×4, any three in a row
    wins"; the set-up's "3 to 15 rows and columns, k from 3 to the shorter side" and gomoku
    15×15."""
    from games.tictactoe.setup_scene import SetupOverlay

    assert "On the classic board k is 3." in HELP and PRESETS[0].params == CLASSIC
    three = [p.params for p in PRESETS if p.params.players == 3]
    assert three == [MNKConfig(4, 4, 3, players=3)]
    assert "In the three-player game on 4×4, any three in a row wins." in HELP
    assert MNKConfig(15, 15, 5) in [p.params for p in PRESETS] and "gomoku 15×15" in HELP
    assert "(3 to 15 columns and rows, k from 3 to the shorter side)" in SetupOverlay.help_text
    assert (MIN_SIDE, MAX_SIDE) == (3, 15)
    validate_config(15, 4, 4)
    for bad in ((2, 3, 3), (16, 3, 3), (15, 4, 5), (5, 5, 2)):
        try:
            validate_config(*bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad} accepted")
    assert "three-player game is always 4×4 with three in a row" in SetupOverlay.help_text
