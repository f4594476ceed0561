"""Issue 32, finding 4 (variety): a new game between two computers starts on a position
dealt at random (games.grundy.starts.dealt_start / dealt_node, the descriptor's ``deal``),
won for the first player (with the King, won or lost alike), and the game ID can say where
a game starts (``king:8x8:@5.6``) so that such a game, or one placed by hand, has a record.
A human's game starts as before.
"""

from __future__ import annotations

import random
from functools import reduce
from operator import xor

import pytest

from engine.model.records import parse_record, record_text
from engine.model.registry import find_game
from engine.model.seats import Seat
from games.grundy.board import BoardConfig, TokenState
from games.grundy.graphs import BUILTIN, GraphState, label_outcomes
from games.grundy.scenes import scene_for
from games.grundy.starts import EITHER_SIDE, dealt_node, dealt_start, fair_start
from games.grundy.tables import grundy_table
from games.grundy.variants import SPEC, GrundySetup

GAME = find_game("grundy")
COMPUTERS = (Seat("computer", "perfect"), Seat("computer", "hard"))
PIECES = ("king", "rook", "queen", "knight")


def _won_for_the_first_player(state: TokenState) -> bool:
    """The tokens' nim-sum from the Grundy table is not 0 (the theory: a sum of games)."""
    cfg = state.config
    table = grundy_table(cfg.piece, cfg.rows, cfg.cols)
    return reduce(xor, (int(table[s]) for s in state.tokens), 0) != 0


@pytest.mark.parametrize("piece", PIECES)
@pytest.mark.parametrize(("rows", "cols", "tokens"), [(8, 8, 1), (8, 8, 2), (5, 7, 3), (3, 3, 1)])
def test_a_dealt_board_start_is_won_for_the_first_player_and_varies(
        piece: str, rows: int, cols: int, tokens: int) -> None:
    """Won for the first player; for a piece of EITHER_SIDE (the King, whose help says
    either player may be the one who can win), won in some deals and lost in others."""
    config = BoardConfig(piece, rows, cols, tokens)
    starts = [dealt_start(config, random.Random(seed)) for seed in range(300)]
    for start in starts:
        assert start.to_move == 0 and not start.is_terminal()
    won = [_won_for_the_first_player(start) for start in starts]
    if piece in EITHER_SIDE:
        assert 0.2 < sum(won) / len(won) < 0.95, sum(won)
    else:
        assert all(won), starts[won.index(False)]
    assert starts == [dealt_start(config, random.Random(seed)) for seed in range(300)]
    assert len(set(starts)) >= min(20, rows * cols // 3)


@pytest.mark.parametrize("piece", PIECES)
def test_dealt_tokens_stand_mostly_far_from_the_corner(piece: str) -> None:
    """The help says "mostly far from the corner": on 8×8, most dealt squares lie in the
    half of the board farther from the goal (row + column at least 7)."""
    config = BoardConfig(piece, 8, 8, 1)
    far = sum(sum(dealt_start(config, random.Random(seed)).tokens[0]) >= 7
              for seed in range(1000))
    assert far >= 750, far


def test_a_dealt_node_is_won_for_the_first_player() -> None:
    for graph in BUILTIN:
        outcomes = label_outcomes(graph)
        nodes = {dealt_node(graph, random.Random(seed)).node for seed in range(200)}
        assert nodes == {u for u, outcome in enumerate(outcomes) if outcome == "win"}


@pytest.mark.parametrize("text", ["king:8x8:@5.6", "queen:8x8:2t:@7.7+5.4",
                                  "king:6x8:cxr:@7.5", "knight:5x5:4t:@4.4+4.4+3.4+0.0",
                                  "graph:3:@14", "graph:0:@0"])
def test_a_game_id_with_a_start_reads_back_and_starts_there(text: str) -> None:
    params = SPEC.decode(text)
    assert SPEC.encode(params) == text and params.start
    start = GAME.new_game(params)
    numbers = (tuple(x for s in start.tokens for x in s) if isinstance(start, TokenState)
               else (start.node,))
    assert numbers == params.start and start.current_player() == 0
    # The statistics and the settings know the board, not the start.
    plain = SPEC.decode(text.rsplit(":@", 1)[0])
    assert SPEC.variant_id(params) == SPEC.variant_id(plain)
    assert SPEC.to_settings(params) == SPEC.to_settings(plain)
    assert "start" not in SPEC.to_settings(params)
    assert SPEC.from_settings(SPEC.to_settings(params)) == plain


@pytest.mark.parametrize("text", ["king:8x8:@8.0", "king:8x8:@0.8", "king:8x8:@1",
                                  "king:8x8:@1.1+2.2", "queen:8x8:2t:@1.1", "king:8x8:@-1.0",
                                  "king:8x8:@a.b", "king:8x8:@", "graph:0:@12", "graph:0:@1.1",
                                  "nim:3.5.7:@1", "bachet:100:10:@5", "king:8x8:@1.1:@2.2"])
def test_a_bad_start_in_a_game_id_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="Invalid game ID"):
        SPEC.decode(text)


def test_bad_starts_are_refused_when_parameters_are_built() -> None:
    for bad in [{"start": (8, 0)}, {"start": (1,)}, {"start": (True, 0)},
                {"game": "nim", "start": (1,)}, {"game": "graph", "start": (99,)}]:
        with pytest.raises(ValueError):
            GrundySetup(**bad)
    # Settings are never trusted to hold a start.
    assert SPEC.from_settings({"game": "king", "start": [1, 1]}).start == ()


def test_dealt_and_placed_starts_have_records_that_read_back() -> None:
    for text in ("king:8x8", "queen:8x8:2t", "knight:8x8", "graph:3"):
        params = SPEC.decode(text)
        for seed in range(5):
            start = GAME.deal_start(params, random.Random(seed))
            moves = start.legal_moves()[:1]
            line = record_text(GAME, params, start, moves)
            usual = start == GAME.new_game(params)
            assert line.split()[1] == text if usual else line.split()[1].startswith(text + ":@")
            record = parse_record(line)
            assert record.start == start and list(record.moves) == moves
    # A position set by hand (the board's Place) with the first player to move: a record.
    config = BoardConfig("rook", 8, 8, 1)
    placed = TokenState.start(config, [(3, 5)])
    assert parse_record(record_text(GAME, SPEC.decode("rook:8x8"), placed, [])).start == placed
    # One with the second player to move cannot be said by a game ID: no record.
    with pytest.raises(ValueError, match="no record"):
        record_text(GAME, SPEC.decode("rook:8x8"), TokenState(config, ((3, 5),), 1), [])
    # Heaps keep their one start: a record only from it.
    nim = SPEC.decode("nim:3.5.7")
    assert SPEC.with_start(nim, GAME.new_game(nim)) is None
    assert GAME.deal_start(nim, random.Random(1)) == GAME.new_game(nim)
    # A graph position reached by moves remembers the nodes visited: not a start.
    graph = BUILTIN[1]
    first = GraphState.start(graph).play(GraphState.start(graph).legal_moves()[0])
    moved = first.play(first.legal_moves()[0])
    assert moved.to_move == 0 and moved != GraphState(graph, moved.node)
    assert SPEC.with_start(SPEC.decode("graph:1"), moved) is None


def test_only_a_game_between_two_computers_deals_its_start(app) -> None:
    """New game between two computers deals (differing starts, each won for the mover);
    with a human at the board it is the fair start, every time."""
    params = GrundySetup(game="knight")
    watched = app.push(scene_for(app, params, COMPUTERS, seed=4))
    app.step([])
    starts = set()
    for _ in range(8):
        watched.new_game()
        starts.add(watched.state)
        assert _won_for_the_first_player(watched.state)
    assert len(starts) > 2
    app.pop()
    played = app.push(scene_for(app, params, (Seat(), COMPUTERS[0]), seed=4))
    app.step([])
    fair = fair_start(BoardConfig("knight", 8, 8, 1))
    assert played.dealt_start() is None and played.state == fair
    played.push(played.state.play(played.state.legal_moves()[0]))
    played.new_game()
    assert played.state == fair


def test_a_game_id_with_a_start_opens_there(app) -> None:
    """``play grundy king:8x8:@5.6`` (or a record's game ID): the board starts there."""
    scene = app.push(scene_for(app, SPEC.decode("king:8x8:@5.6"), (Seat(), Seat()), seed=1))
    app.step([])
    assert scene.state.tokens == ((5, 6),)
    # Its set-up chooses new games: no start carried over (it would not fit another board).
    from games.grundy.setup_scene import GrundySetupOverlay

    overlay = GrundySetupOverlay(app, scene)
    overlay.pick(rows=4, cols=4)
    assert overlay.choice.start == () and overlay.choice.rows == 4
    graph = app.push(scene_for(app, SPEC.decode("graph:3:@4"), (Seat(), Seat()), seed=1))
    app.step([])
    assert graph.state.node == 4
