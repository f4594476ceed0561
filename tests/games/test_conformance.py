"""One suite for every registered game, found by discovery (OpenSpiel's RandomSimTest idea).

Nothing here names a game: each test is parametrised over ``engine.model.registry.all_games()``
and uses only what the descriptor declares (parameters, rules factory, agents, hints).
A new game gets all of these checks by adding its ``descriptor.py``.
"""

from __future__ import annotations

import math
import random
import threading
from typing import Any

import pytest

from engine.ai.negamax import Negamax, SearchTimeout
from engine.model.descriptor import GameDescriptor
from engine.model.history import History
from engine.model.registry import all_games
from engine.model.rules import IllegalMove, find_move
from engine.model.seats import Seat
from engine.model.values import Infinite, MoveValue, nimber_text

GAMES = all_games()
IDS = [g.id for g in GAMES]
TWO_PLAYER = [g for g in GAMES if g.kind == "two-player"]


def params(games: list[GameDescriptor], slow: tuple[str, ...] = ()) -> list[Any]:
    """The games as parameters named by id; the games in ``slow`` take seconds there, so
    they are marked ``slow`` (the full run has them, the quick ``-m "not slow"`` does not)."""
    return [pytest.param(g, id=g.id, marks=pytest.mark.slow if g.id in slow else ())
            for g in games]
NO_CANCEL = threading.Event()


def small_params(game: GameDescriptor) -> list[Any]:
    """The game's declared small variants (its default where it declares none)."""
    spec = game.param_spec()
    if spec is None:
        return [None]
    return [spec.decode(text) for text in game.small] or [spec.default()]


def playout(game: GameDescriptor, params: Any, seed: int, max_plies: int = 400) -> list[Any]:
    """The positions of one random game from the start (at most ``max_plies`` moves)."""
    rng = random.Random(seed)
    state = game.new_game(params, random.Random(seed))
    states = [state]
    for _ in range(max_plies):
        if state.is_terminal():
            break
        state = state.play(rng.choice(list(state.legal_moves())))
        states.append(state)
    return states


def test_discovery_finds_every_game_package_with_a_descriptor() -> None:
    from pathlib import Path

    packages = {p.parent.name for p in (Path(__file__).resolve().parents[2] / "games").glob(
        "*/descriptor.py")}
    assert len(GAMES) >= len(packages) >= 3
    assert len(set(IDS)) == len(IDS)
    from engine.model.registry import problems

    assert problems() == (), [p.text for p in problems()]
    for game in GAMES:
        assert game.title and game.blurb and game.help_text().strip()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_descriptor_keeps_the_contract(game: GameDescriptor) -> None:
    """What discovery checks (every field), and what the engine's screens need of a game:
    a rules factory, the sounds it plays, levels that match its ladder."""
    from engine.model.sound_names import SOUNDS

    game.validate()
    assert game.rules is not None, f"{game.id} declares no rules factory (new_game)"
    assert game.new_game(small_params(game)[0], random.Random(0)) is not None
    # The sound effects its screens play (--smoke plays each one, so a lost file fails).
    assert game.sounds, f"{game.id} declares no sounds"
    assert set(game.sounds) <= set(SOUNDS), (game.id, game.sounds)
    assert len(set(game.sounds)) == len(game.sounds), game.id
    if game.agents is None:
        assert "computer" not in game.default_kinds and not game.levels
    if game.ladder:
        # A graded ladder (issue 16): at least five rungs, weakest first, then "Match me".
        assert len(game.ladder) >= 5, f"{game.id}: a ladder has at least five rungs"
        assert game.levels[:-1] == tuple(r.level for r in game.ladder)
        assert game.levels[-1] == "match"
        assert set(game.level_labels) == set(game.levels), game.id
    if game.levels:
        assert game.default_level in game.levels
    for small in game.small:
        spec = game.param_spec()
        assert spec is not None and spec.decode(small) is not None, small


# Words only one game (or family) uses: none may appear anywhere under engine/.
GAME_WORDS = ("tic-tac-toe", "tictactoe", "connect four", "connect4", "grundy", "gomoku",
              "button madness", "lights out", "pebble", "disc")
# Words the engine uses in its own sense (its widgets are buttons).
ENGINE_WORDS = {"button", "buttons"}


def _engine_sources() -> dict[str, str]:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "engine"
    return {str(path.relative_to(root.parent)): path.read_text(encoding="utf-8").lower()
            for path in sorted(root.rglob("*.py"))}


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_engine_names_no_game(game: GameDescriptor) -> None:
    """The engine knows no game (issue 27, item 8): no file under engine/ spells a game's id,
    alias or title, in code, strings or comments, nor a word only a game uses. (Games are
    found by the registry; what is a game's belongs in its package.)"""
    import re

    names = {game.id, *game.aliases, game.title.lower(), *GAME_WORDS}
    # A name that is also a word of the engine's own (a game aliased "buttons") is looked
    # for only as a whole string literal: "buttons".
    common = names & ENGINE_WORDS
    pattern = re.compile(r"(?<![a-z0-9_-])(" + "|".join(map(re.escape, sorted(names - common)))
                         + r")(?:s|es)?(?![a-z0-9_])")
    quoted = re.compile(r"[\"'](" + "|".join(map(re.escape, sorted(common))) + r")[\"']") \
        if common else None
    found = {path: sorted({m.group(1) for m in pattern.finditer(text)}
                          | ({m.group(1) for m in quoted.finditer(text)} if quoted else set()))
             for path, text in _engine_sources().items()}
    assert {path: words for path, words in found.items() if words} == {}


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_parameters_round_trip_through_game_ids_and_settings(game: GameDescriptor) -> None:
    spec = game.param_spec()
    if spec is None:
        pytest.skip(f"{game.id} has no parameters")
    candidates = [p.params for p in spec.presets] + small_params(game) + [spec.default()]
    assert spec.presets, "a game with parameters offers presets"
    for params in candidates:
        assert spec.validate(params) == params
        text = spec.encode(params)
        assert text and len(text) <= 40 and text == text.strip()
        assert spec.decode(text) == params, text
        assert spec.decode(f"  {text.upper()} ") == params, "IDs are read leniently"
        assert spec.from_settings(spec.to_settings(params)) == params
        assert spec.label(params) and spec.variant_id(params)
    for bad in ("", "nonsense", "x" * 500, "0x0", "-1", "٣x٣", "9999999999"):
        with pytest.raises(ValueError):
            spec.decode(bad)
    # Settings may be hand-edited: anything invalid gives the default, never an error.
    for junk in (None, {}, {"rows": "many"}, {"no such field": 1}, {"rows": 10**9}):
        assert spec.validate(spec.from_settings(junk)) is not None


@pytest.mark.parametrize("game", params(GAMES, slow=("button-madness",)))
def test_random_playouts_keep_the_rules_interface(game: GameDescriptor) -> None:
    for params in small_params(game):
        for seed in range(12):
            states = playout(game, params, seed)
            for state in states:
                hash(state)
                terminal = state.is_terminal()
                moves = list(state.legal_moves())
                assert bool(moves) != terminal or game.is_puzzle, (state, moves)
                if terminal:
                    returns = state.returns()
                    assert len(returns) == state.num_players
                    assert all(r in (-1, 0, 1) for r in returns)
                    if state.num_players == 2:
                        assert sum(returns) == 0, "two-player games are zero-sum"
                    continue
                assert 0 <= state.current_player() < state.num_players
                # Every legal move plays; the new state is a different object of the class.
                rng = random.Random(seed)
                for move in rng.sample(moves, min(6, len(moves))):
                    after = state.play(move)
                    assert type(after) is type(state)
                assert state.play(moves[0]) == state.play(moves[0]), "play is deterministic"
            if game.kind == "two-player" and len(states) > 1:
                assert states[-1].is_terminal() or len(states) == 401


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_illegal_moves_are_refused(game: GameDescriptor) -> None:
    state = game.new_game(small_params(game)[0], random.Random(1))
    for junk in (object(), "move", (10**6, 10**6), -12345):
        if junk in list(state.legal_moves()):
            continue
        with pytest.raises((IllegalMove, ValueError, TypeError)):
            state.play(junk)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_undo_redo_round_trips_over_a_playout(game: GameDescriptor) -> None:
    states = playout(game, small_params(game)[0], seed=3, max_plies=60)
    history: History[Any] = History(states[0])
    for state in states[1:]:
        history.push(state)
    while history.undo():
        pass
    assert history.current == states[0]
    replay = [history.current]
    while history.redo():
        replay.append(history.current)
    assert replay == states


@pytest.mark.parametrize("game", params(TWO_PLAYER, slow=("tictactoe", "connect4")))
def test_hint_values_equal_the_generic_negamax_on_small_boards(game: GameDescriptor) -> None:
    """Every hint the game gives on its small variants is what plain negamax proves."""
    hints = game.hint_function()
    if hints is None:
        pytest.skip(f"{game.id} offers no hints")
    checked = 0
    for params in small_params(game):
        # The start, and positions late in random games; a position plain negamax (no
        # hooks, no symmetry) cannot prove in a couple of seconds is passed over.
        picks = [game.new_game(params, random.Random(0))]
        for seed in range(3):
            picks += playout(game, params, seed)[-6:-1]
        for state in picks:
            try:
                plain = Negamax(remoteness=True, time_limit=2.0).move_values(state)
            except SearchTimeout:
                continue
            values = hints(state, None, 60.0)
            assert set(values) == set(plain), state
            for move, value in values.items():
                expected = plain[move]
                assert isinstance(value, MoveValue)
                assert value.exact, (state, move)
                assert value.sign == expected.outcome, (state, move, value, expected)
                if value.remoteness is not None and value.outcome != "draw":
                    assert value.remoteness == expected.plies, (state, move, value)
                checked += 1
    assert checked >= 20, checked


@pytest.mark.parametrize("game", params(TWO_PLAYER, slow=("tictactoe", "connect4")))
def test_hint_nimbers_are_labels_that_agree_with_the_outcomes(game: GameDescriptor) -> None:
    """A hint's nimber is the theory's label of the position the move leads to, where the
    opponent moves next: 0 means the mover wins, any other number that the mover loses,
    ∞(K) a loss when 0 ∈ K and else a draw (Smith). A number is never ∞ in disguise
    (issue 33: a won ∞ node was given as 1), and an outcome is never a nimber."""
    hints = game.hint_function()
    if hints is None:
        pytest.skip(f"{game.id} offers no hints")
    for params in small_params(game):
        picks = [game.new_game(params, random.Random(0))]
        for seed in range(3):
            picks += playout(game, params, seed)[-6:-1]
        for state in picks:
            for move, value in hints(state, None, 60.0).items():
                nimber = value.nimber
                if nimber is None:
                    continue
                assert nimber_text(nimber)  # a number 0 or more, or Infinite
                if isinstance(nimber, Infinite):
                    expected = "loss" if 0 in nimber.k else "draw"
                else:
                    expected = "win" if nimber == 0 else "loss"
                assert value.outcome == expected, (game.id, state, move, value)


@pytest.mark.parametrize("game", params(TWO_PLAYER, slow=("connect4",)))
def test_every_level_plays_legal_moves_to_the_end(game: GameDescriptor) -> None:
    params = small_params(game)[0]
    # (A game with agents but no levels plays the engine's default seat.)
    for level in game.levels or (("hard",) if game.agents is not None else ()):
        agents = [game.make_agent(params, Seat("computer", level), seed=i) for i in range(2)]
        state = game.new_game(params, random.Random(0))
        plies = 0
        while not state.is_terminal() and plies < 300:
            move = agents[state.current_player()].choose_move(state, NO_CANCEL)
            assert move in list(state.legal_moves()), (level, move)
            state = state.play(move)
            plies += 1
        assert state.is_terminal(), level


@pytest.mark.parametrize("game", params(TWO_PLAYER, slow=("connect4",)))
def test_perfect_level_never_loses_a_won_or_drawn_start_on_small_boards(
        game: GameDescriptor) -> None:
    """The top level against random play, from each small variant's start: its result is at
    least the start's proven value."""
    if game.agents is None or game.hint_function() is None:
        pytest.skip(f"{game.id} has no computer player or no exact hints to measure it by")
    top = (game.ladder[-1].level if game.ladder  # not "Match me"
           else game.levels[-1] if game.levels else "")
    for params in small_params(game)[:2]:
        start = game.new_game(params, random.Random(0))
        # The start's value: the best of the game's exact hint values (each of them is
        # checked against plain negamax above).
        hints = game.hint_function()(start, None, 60.0)
        assert all(v.exact for v in hints.values())
        value = max(v.sign for v in hints.values())
        for seed in range(4):
            seat = Seat("computer", top) if top else Seat("computer")
            perfect = game.make_agent(params, seat, seed=seed)
            rng = random.Random(seed)
            state = start
            while not state.is_terminal():
                if state.current_player() == 0:
                    move = perfect.choose_move(state, NO_CANCEL)
                else:
                    move = rng.choice(list(state.legal_moves()))
                state = state.play(move)
            assert state.returns()[0] >= value, (params, seed)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_each_game_opens_draws_and_closes(app, game: GameDescriptor) -> None:
    """What --smoke does per game, on the real scene: open, frames, a click, help, back."""
    import pygame

    scene = app.push(game.open_scene(app))
    for _ in range(3):
        app.step([])
    centre = app.screen.get_rect().center
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=centre, button=1)])
    app.help()
    app.step([])
    app.pop_to(type(scene))
    assert app.top is scene
    app.pop()
    assert app.top is not scene
    assert not [n for n in app.notices if "could not" in n.lower()], app.notices


@pytest.mark.slow
def test_smoke_opens_every_registered_game() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, str(root / "main.py"), "--smoke"],
                         capture_output=True, text=True, timeout=300, cwd=root)
    assert out.returncode == 0, out.stderr[-2000:]
    line = out.stdout.strip().splitlines()[-1]
    opened = line[len("smoke: ok ("):-1].split(", ")
    for game in IDS:
        assert game in opened, (game, opened)


def test_search_budgets_are_bounded() -> None:
    """No declared hint function may be asked to run without a limit by the scenes."""
    from engine.screens.turn_scene import TurnBasedScene

    assert math.isfinite(TurnBasedScene.hint_budget) and TurnBasedScene.hint_budget > 0


PUZZLES = [g for g in GAMES if g.is_puzzle]


@pytest.mark.parametrize("game", PUZZLES, ids=[g.id for g in PUZZLES])
def test_puzzles_round_trip_through_the_midend(game: GameDescriptor) -> None:
    """Random moves, Restart and a new puzzle on the midend; undo all the way back and redo
    all the way forward give the same positions; help survives Restart."""
    from engine.midend.puzzle import PuzzleMidend

    params = small_params(game)[-1]
    rng = random.Random(5)
    midend = PuzzleMidend(game.new_game(params, random.Random(1)))
    seen = [midend.state]
    for step in range(40):
        if step == 15:
            midend.mark_helped()
            midend.restart()
            assert midend.helped and midend.moves == 0 and midend.state == seen[0]
        elif step == 30:
            midend.new_puzzle(game.new_game(params, random.Random(2)))
            assert not midend.helped
        else:
            midend.play(rng.choice(list(midend.state.legal_moves())))
        seen.append(midend.state)
    back = [midend.state]
    while midend.undo():
        back.append(midend.state)
    assert back[::-1] == seen
    assert midend.helped, "undo back to the first puzzle finds it still helped"
    forward = [midend.state]
    while midend.redo():
        forward.append(midend.state)
    assert forward == seen


@pytest.mark.parametrize("game", PUZZLES, ids=[g.id for g in PUZZLES])
def test_puzzle_solutions_replayed_from_a_new_game_solve_it(game: GameDescriptor) -> None:
    """The descriptor's ``solve`` hook, on new games of every small variant: its moves,
    each legal in turn, played from the start end in a solved position."""
    from engine.model.descriptor import load

    assert game.solve is not None, f"{game.id} declares a solve hook (Hint and Solve use it)"
    solver = load(game.solve)
    for params in small_params(game):
        for seed in range(5):
            state = game.new_game(params, random.Random(seed))
            reports: list[float] = []
            moves = solver(state, NO_CANCEL, reports.append)
            assert moves is not None, f"a new {game.id} game {params} (seed {seed}) is solvable"
            for move in moves:
                assert move in state.legal_moves(), f"{move!r} is legal where it is played"
                state = state.play(move)
            assert state.is_terminal(), f"the solution of {params} (seed {seed}) solves it"
            assert all(0 <= fraction <= 1 for fraction in reports)


# --- saved games (engine.storage.saved_games) -----------------------------------------------------

# Data that is no move and no position of any game.
JUNK: list[Any] = [None, 0, -1, True, 1.5, "", "x" * 10_000, [], [[]], {}, {"no such key": 1},
                   [None] * 3, {"rows": None, "moves": None, "heaps": None, "n": None},
                   10**12, [0, 0, 0, 0, 0], [[0, 0]]]


def _played_scene(app: Any, game: GameDescriptor, params: Any, seed: int) -> Any:
    """A scene of ``game`` (every seat human) after random moves, a New game, more moves
    and an undo: what a player leaves behind."""
    # (A human seat keeps a level of the game's for when it turns computer: "hard", the
    # engine's default, is not every game's.)
    human = Seat("human", game.default_level or "hard")
    options = {} if game.is_puzzle else {"seats": (human,) * 3, "seed": seed}
    scene = game.open_scene(app, params, **options)
    rng = random.Random(seed)
    puzzle = getattr(scene, "puzzle", None)  # a puzzle's midend

    def play(count: int) -> None:
        for _ in range(count):
            state = puzzle.state if puzzle is not None else scene.state
            if state.is_terminal():
                return
            move = rng.choice(list(state.legal_moves()))
            if puzzle is not None:
                puzzle.play(move)
            else:
                assert scene.play_move(move)

    play(7)
    scene.new_game()
    play(5)
    scene.undo()
    return scene


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_game_round_trips_a_saved_game(app: Any, game: GameDescriptor) -> None:
    """Every game saves (no hook to declare): its moves, written as JSON and replayed
    through its rules, resume the same positions, undo history and seats."""
    import json

    from engine.storage.saved_games import SAVE_VERSION, encode, resume

    spec = game.param_spec()
    for params in small_params(game) + ([spec.default()] if spec is not None else []):
        for seed in range(3):
            scene = _played_scene(app, game, params, seed)
            text = encode(scene)
            assert json.loads(text)["version"] == SAVE_VERSION
            back = resume(app, game, text)
            puzzle = getattr(scene, "puzzle", None)
            if puzzle is not None:
                assert back.puzzle.state == puzzle.state
                assert back.puzzle.history.index == puzzle.history.index
                assert len(back.puzzle.history) == len(puzzle.history)
            else:
                assert list(back.history.entries) == list(scene.history.entries)
                assert back.history.index == scene.history.index
                assert back.seats == scene.seats and back.recorded == scene.recorded
            assert encode(back).split('"state"')[1] == text.split('"state"')[1], "stable"
            back.leave()
            scene.leave()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_damaged_moves_in_a_save_are_refused_with_a_value_error(app: Any,
                                                                game: GameDescriptor) -> None:
    """A saved move replaced by junk, or by a move of another position, is refused with
    ValueError (the player is told why); nothing else escapes: a file may hold anything."""
    import copy
    import json

    from engine.storage.saved_games import encode, resume

    scene = _played_scene(app, game, small_params(game)[0], seed=1)
    good = json.loads(encode(scene))
    scene.leave()
    state = good["state"]
    log, key = (state["puzzle"]["steps"], 1) if "puzzle" in state else (state["log"], 1)
    moves = [i for i, item in enumerate(log) if len(item) == 2 and item[key] is not None]
    assert moves, "the save holds moves"
    refused = 0
    for i in moves[:3]:
        for junk in JUNK:
            bad = copy.deepcopy(good)
            target = bad["state"]["puzzle"]["steps"] if "puzzle" in state else \
                bad["state"]["log"]
            target[i][key] = junk
            try:
                resume(app, game, json.dumps(bad)).leave()
            except ValueError:
                refused += 1
    assert refused >= len(JUNK), refused


@pytest.mark.parametrize("game", TWO_PLAYER, ids=[g.id for g in TWO_PLAYER])
def test_version_1_positions_junk_is_refused_with_a_value_error(game: GameDescriptor) -> None:
    """The readers of version-1 saves (positions, not moves) refuse junk with ValueError."""
    from engine.storage.saved_format import read_v1_position

    params = small_params(game)[0]
    for junk in JUNK:
        with pytest.raises(ValueError):
            read_v1_position(game, params, junk)


@pytest.mark.parametrize("game", TWO_PLAYER, ids=[g.id for g in TWO_PLAYER])
def test_review_grades_every_move_of_a_game_on_small_boards(game: GameDescriptor) -> None:
    """The game review (engine.ai.review) on every small variant: one entry per move, the
    mover's value before never below the move's, the best moves graded best, proven values
    chained from one move to the next; a game of more than two players (any preset) says
    clearly that it cannot be reviewed."""
    from engine.ai.review import GRADES, review_game, unavailable_reason

    hints = game.hint_function()
    spec = game.param_spec()
    presets = [p.params for p in spec.presets] if spec is not None else []
    for params in presets:
        start = game.new_game(params, random.Random(0))
        if start.num_players != 2:
            reason = unavailable_reason(start, hints)
            assert reason and "not available" in reason
    if hints is None:
        assert unavailable_reason(game.new_game(None, random.Random(0)), hints)
        return
    reviewed = 0
    for params in small_params(game):
        states = playout(game, params, seed=11)
        start = states[0]
        if start.num_players != 2:
            assert unavailable_reason(start, hints)
            continue
        moves = [find_move(a, b) for a, b in zip(states, states[1:], strict=False)]
        review = review_game(start, moves, hints, time_limit=20.0)
        assert len(review.moves) == len(moves)
        for entry, state in zip(review.moves, states, strict=False):
            assert entry.grade in GRADES
            assert entry.mover == state.current_player()
            if entry.grade == "unknown":
                continue
            assert set(entry.values) == set(state.legal_moves())
            assert entry.before.rank() >= entry.values[entry.move].rank()
            assert (entry.move in entry.best) == (entry.grade == "best")
            reviewed += 1
        for this, following in zip(review.moves, review.moves[1:], strict=False):
            if this.exact and following.exact:
                assert this.after.sign == -following.before.sign, (this, following)
    assert reviewed >= 5


DEALING = [g for g in GAMES if g.deal is not None]


@pytest.mark.parametrize("game", DEALING, ids=[g.id for g in DEALING])
def test_dealt_starts_are_saved_and_recorded(app: Any, game: GameDescriptor) -> None:
    """A game that deals the start of a game between two computers (its ``deal``): the
    same seed deals the same start, different seeds different ones; a dealt start is a
    position of the game, has a record that reads back to it (its game ID says where the
    game starts), and New game between two computers deals one that a save keeps."""
    from engine.model.records import parse_record, record_text
    from engine.storage.saved_games import encode, resume

    spec = game.param_spec()
    variants = [p.params for p in spec.presets] if spec is not None else [None]
    dealt_apart = 0
    for params in variants + small_params(game):
        starts = [game.deal_start(params, random.Random(seed)) for seed in range(8)]
        assert starts == [game.deal_start(params, random.Random(seed)) for seed in range(8)]
        dealt_apart += len(set(starts)) > 1
        for start in starts:
            assert start.legal_moves() or start.is_terminal()
            moves = list(start.legal_moves()[:1])
            record = parse_record(record_text(game, params, start, moves))
            assert record.start == start and list(record.moves) == moves
    assert dealt_apart, f"{game.id} deals the same start whatever the seed"
    computer = Seat("computer", game.default_level or "hard")
    params = variants[0]
    scene = game.open_scene(app, params, seats=(computer,) * 2, seed=3)
    try:
        firsts = set()
        for _ in range(6):
            scene.new_game()
            firsts.add(scene.state)
            assert scene.state == scene.history.entries[scene.history.index].state
        assert len(firsts) > 1, "New game between two computers deals its start"
        back = resume(app, game, encode(scene))
        assert back.state == scene.state
        assert list(back.history.entries) == list(scene.history.entries)
        back.leave()
    finally:
        scene.leave()


@pytest.mark.parametrize("game", TWO_PLAYER, ids=[g.id for g in TWO_PLAYER])
def test_records_round_trip_in_the_games_notation(game: GameDescriptor) -> None:
    """Every preset and small variant: a random game written as a record (engine.model.records)
    reads back as the same start and moves; every legal move's notation is one word, told
    apart from the others; a wrong move is refused saying where."""
    from engine.model.records import RecordError, parse_record, record_text

    spec = game.param_spec()
    variants = [p.params for p in spec.presets] if spec is not None else [None]
    variants += small_params(game)
    for params in variants:
        states = playout(game, params, seed=5, max_plies=60)
        start = states[0]
        for state in states[:-1]:
            texts = [game.move_text(state, m) for m in state.legal_moves()]
            assert all(t and not any(ch.isspace() for ch in t) for t in texts), texts
            assert len({t.lower() for t in texts}) == len(texts), texts
        moves = [find_move(a, b) for a, b in zip(states, states[1:], strict=False)]
        text = record_text(game, params, start, moves)
        assert "\n" not in text and text.split()[0] == game.id
        record = parse_record(text)
        assert record.game is game and record.start == start
        assert record.moves == tuple(moves)
        assert record.positions()[-1] == states[-1]
        # A move that is not legal: the record says which word and move.
        bad = f"{game.id} {text.split()[1]} {'zz' * 3}"
        with pytest.raises(RecordError, match="word 3") as caught:
            parse_record(bad)
        assert "not a legal move" in str(caught.value)
