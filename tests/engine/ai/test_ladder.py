"""The difficulty ladder (issue 16): graded levels in every two-player game, the old level
names still read, no budget spent on a win or a block in one, varied games, the engine's
ladder parts (reflexes, blends, counting a few moves ahead, near-best moves, ratings)
against independent checks, and the ladder benchmark's command-line contract."""

from __future__ import annotations

import json
import math
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from engine.ai.agent import BlendAgent, RandomAgent
from engine.ai.ladder import LookaheadAgent, ReflexAgent, elo_ratings
from engine.ai.negamax import Negamax
from engine.model.registry import all_games
from engine.model.seats import Seat
from tests.support.agent_parts import shrink

TWO_PLAYER = [g for g in all_games() if g.kind == "two-player"]
OLD_LEVELS = {"tictactoe": ("easy", "medium", "hard", "perfect"),
              "connect4": ("easy", "medium", "hard", "perfect"),
              "grundy": ("easy", "perfect")}
NO_CANCEL = threading.Event()


def test_the_ladders_read_the_old_level_names() -> None:
    """(The rung count and the levels' shape are the conformance suite's, for every game
    that declares a ladder.)"""
    assert {g.id for g in TWO_PLAYER} >= set(OLD_LEVELS)
    for game in TWO_PLAYER:
        if game.ladder:
            assert game.levels[0] == "beginner" and game.levels[-2:] == ("perfect", "match")
        for old in OLD_LEVELS.get(game.id, ()):
            # A level saved in settings before the ladder is still that level.
            assert Seat.parse("computer", old, game.levels, game.default_level).level == old
            assert Seat.parse("computer", f"{old}@0.1", game.levels,
                              game.default_level).mistakes == 0.1


def test_grundy_recipes_cover_every_level_and_game() -> None:
    """Token games on a board take the board recipes, heaps and graphs the others; each
    set names every rung, and a level plays its own recipe's skills."""
    from games.grundy.agents import LEVELS, RECIPES, make_agent, recipe_class
    from games.grundy.variants import GAMES, GrundySetup

    classes = {game: recipe_class(GrundySetup(game=game)) for game in GAMES}
    assert classes == {"king": "board", "rook": "board", "queen": "board", "knight": "board",
                       "bachet": "heaps", "nim": "heaps", "graph": "heaps"}
    for recipes in RECIPES.values():
        assert set(recipes) == set(LEVELS) - {"match"}
    king, nim = GrundySetup(game="king"), GrundySetup(game="nim")
    # Easy differs between the two: on a board it never plays a random move.
    assert RECIPES["board"]["easy"] != RECIPES["heaps"]["easy"]
    from engine.ai.agent import BlendAgent

    assert isinstance(make_agent(king, Seat("computer", "easy"), seed=1), LookaheadAgent)
    assert isinstance(make_agent(nim, Seat("computer", "easy"), seed=1), BlendAgent)


def _wins_now(state: Any) -> list[Any]:
    me = state.current_player()
    return [m for m in state.legal_moves()
            if (after := state.play(m)).is_terminal() and after.returns()[me] > 0]


def _threats_after(state: Any, move: Any) -> bool:
    """Whether the opponent can win at once after ``move``."""
    after = state.play(move)
    return not after.is_terminal() and bool(_wins_now(after))


def _positions(game: Any, params: Any, want: str, count: int, seed: int) -> list[Any]:
    """Random positions where the mover can win at once ("win"), or cannot but the
    opponent threatens to, and exactly one move stops it ("block")."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.new_game(params, rng)
        for _ in range(rng.randrange(4, 40)):
            if state.is_terminal():
                break
            wins = _wins_now(state)
            if want == "win" and wins:
                found.append(state)
                break
            if want == "block" and not wins:
                safe = [m for m in state.legal_moves() if not _threats_after(state, m)]
                if len(safe) == 1 and len(list(state.legal_moves())) > 2:
                    found.append(state)
                    break
            state = state.play(rng.choice(list(state.legal_moves())))
    return found


class _NeverAsked:
    """An inner player that fails the test if a reflex should have answered."""

    name = "never"

    def choose_move(self, state: Any, cancel: Any) -> Any:
        raise AssertionError("the search was asked for a move a reflex answers")


BOARDS = [("tictactoe", "7x6k4"), ("tictactoe", "6x6k4"), ("connect4", "7x6")]


def _answer(player: Any, state: Any, want: str, within: float, who: object) -> None:
    """``player``'s move in ``state`` comes within ``within`` seconds and takes the win
    in one (``want`` "win") or leaves the opponent none ("block")."""
    start = time.process_time()
    move = player.choose_move(state, NO_CANCEL)
    assert time.process_time() - start < within, who
    if want == "win":
        assert move in _wins_now(state), (who, state)
    else:
        assert not _threats_after(state, move), (who, state)


@pytest.mark.parametrize(("game_id", "board"), BOARDS)
@pytest.mark.parametrize("want", ["win", "block"])
def test_levels_from_the_middle_take_a_win_or_block_at_once(game_id: str, board: str,
                                                             want: str) -> None:
    """Every level from the middle of the ladder up, in a position with a win in one (or
    a single move that stops the opponent's), plays it at once: its search is never
    asked, and the answer comes in well under any search budget."""
    game = next(g for g in TWO_PLAYER if g.id == game_id)
    params = game.param_spec().from_variant_id(board)
    rungs = [rung.level for rung in game.ladder]
    upper = rungs[len(rungs) // 2:]
    for i, state in enumerate(_positions(game, params, want, 4, seed=len(board))):
        for level in upper:
            player = game.make_agent(params, Seat("computer", level), seed=i)
            assert isinstance(player, ReflexAgent), level
            player.inner = _NeverAsked()
            _answer(player, state, want, 0.1, level)


@pytest.mark.parametrize(("game_id", "board"), BOARDS)
@pytest.mark.parametrize("want", ["win", "block"])
def test_medium_finds_a_win_or_block_by_its_own_search(game_id: str, board: str,
                                                       want: str) -> None:
    """Medium, the rung just below the reflexes, plays the same moves through its own
    searches (both of its skills look far enough), quickly: on these boards the middle of
    the ladder by name misses no win or block in one either. (On 3×3 Medium's mistakes
    are these misses: there the reflex is what makes Strong the stronger.)"""
    game = next(g for g in TWO_PLAYER if g.id == game_id)
    params = game.param_spec().from_variant_id(board)
    for i, state in enumerate(_positions(game, params, want, 4, seed=len(board) + 1)):
        for seed in range(5):
            player = game.make_agent(params, Seat("computer", "medium"), seed=10 * i + seed)
            _answer(player, state, want, 0.5, seed)


@pytest.mark.parametrize("want", ["win", "block"])
def test_gomoku_levels_from_the_middle_take_a_win_or_block_at_once(want: str) -> None:
    """The same on gomoku's 15×15 board: four in a row, open at one end, with the mover's
    (a win in one) or the opponent's (one move stops it) marks."""
    from games.tictactoe.rules import MNKConfig, TicTacToeState

    game = next(g for g in TWO_PLAYER if g.id == "tictactoe")
    gomoku = MNKConfig(15, 15, 5)
    grid = [["."] * 15 for _ in range(15)]
    four, other = ("X", "O") if want == "win" else ("O", "X")
    for c in range(4, 8):
        grid[7][c] = four
    grid[7][3] = other  # closed at one end: exactly one cell completes it
    for r, c in ((0, 0), (14, 14), (0, 14), (14, 0)):
        grid[r][c] = other
    spare = iter(((1, 1), (1, 13), (13, 1), (13, 13), (2, 2)))
    while (xs := sum(row.count("X") for row in grid)) != (os := sum(
            row.count("O") for row in grid)):  # X to move: as many marks each
        r, c = next(spare)
        grid[r][c] = "X" if xs < os else "O"
    state = TicTacToeState.from_rows(["".join(row) for row in grid], gomoku)
    assert state.to_move == 0
    rungs = [rung.level for rung in game.ladder]
    for level in rungs[len(rungs) // 2:]:
        player = game.make_agent(gomoku, Seat("computer", level), seed=1)
        player.inner = _NeverAsked()
        start = time.process_time()
        assert player.choose_move(state, NO_CANCEL) == 7 * 15 + 8, level
        assert time.process_time() - start < 0.1


def test_grundy_levels_from_the_middle_take_a_winning_last_move() -> None:
    """Nim with one heap: Medium and above take it all."""
    game = next(g for g in TWO_PLAYER if g.id == "grundy")
    from games.grundy.variants import GrundySetup

    params = GrundySetup(game="nim", nim_heaps=(6,))
    state = game.new_game(params, random.Random(0))
    for level in [rung.level for rung in game.ladder][2:]:
        for seed in range(5):
            move = game.make_agent(params, Seat("computer", level), seed=seed).choose_move(
                state, NO_CANCEL)
            assert state.play(move).is_terminal(), level


# --- the engine's ladder parts -------------------------------------------------------------


def _nim_value(heaps: tuple[int, ...], me: int, plies: int) -> int:
    """Independent brute force: +1 if the player to move (``me`` when plies' parity says
    so) forces taking the last pebble within ``plies`` plies, -1 if the other does, else
    0; normal play."""
    def value(h: tuple[int, ...], mover_is_me: bool, left: int) -> int:
        if not any(h):
            return -1 if mover_is_me else 1  # the player before took the last pebble
        if left == 0:
            return 0
        results = [value(h[:i] + (h[i] - t,) + h[i + 1:], not mover_is_me, left - 1)
                   for i in range(len(h)) for t in range(1, h[i] + 1)]
        return max(results) if mover_is_me else min(results)
    return value(heaps, True, plies)


@pytest.mark.parametrize("plies", [1, 2, 3])
def test_lookahead_chooses_by_its_horizon_like_a_brute_force(plies: int) -> None:
    from games.grundy.variants import GrundySetup, new_game

    rng = random.Random(plies)
    for _ in range(25):
        state = new_game(GrundySetup(game="nim", nim_heaps=tuple(rng.randrange(1, 4)
                                                                  for _ in range(3))))
        for _ in range(rng.randrange(3)):
            if not state.is_terminal():
                state = state.play(rng.choice(list(state.legal_moves())))
        if state.is_terminal():
            continue
        heaps = tuple(state.heaps)
        move = LookaheadAgent(plies, "look", seed=1).choose_move(state, NO_CANCEL)
        after = state.play(move)
        mine = -_nim_value(tuple(after.heaps), True, plies - 1) if not after.is_terminal() \
            else 1
        best = max((1 if (a := state.play(m)).is_terminal() else
                    -_nim_value(tuple(a.heaps), True, plies - 1))
                   for m in state.legal_moves())
        assert mine == best, (heaps, move)


def test_a_blend_plays_each_side_its_share_of_the_time() -> None:
    from games.grundy.variants import GrundySetup, new_game

    state = new_game(GrundySetup(game="nim", nim_heaps=(5, 5, 5)))

    class Fixed:
        def __init__(self, move: Any) -> None:
            self.move, self.name = move, "fixed"

        def choose_move(self, state: Any, cancel: Any) -> Any:
            return self.move

    strong, weak = list(state.legal_moves())[:2]
    for share, low, high in ((0.0, 0, 0), (1.0, 400, 400), (0.3, 90, 150)):
        blend = BlendAgent(Fixed(strong), Fixed(weak), share, "blend", seed=3)
        weak_moves = sum(blend.choose_move(state, NO_CANCEL) == weak for _ in range(400))
        assert low <= weak_moves <= high, (share, weak_moves)
    with pytest.raises(ValueError):
        BlendAgent(RandomAgent(), RandomAgent(), 1.5, "bad")


def test_near_best_moves_are_exactly_those_within_the_margin() -> None:
    """The deepening search's near-best moves at a fixed depth against each move's
    full-window score at that depth."""
    from games.tictactoe.hard_search import HeuristicMNKState
    from games.tictactoe.rules import MNKConfig
    from games.tictactoe.variants import new_game

    rng = random.Random(5)
    checked = 0
    for _ in range(12):
        state = new_game(MNKConfig(7, 6, 4))
        for _ in range(rng.randrange(2, 9)):
            state = state.play(rng.choice(list(state.legal_moves())))
        if state.is_terminal():
            continue
        hs = HeuristicMNKState.from_rules(state)
        moves = hs.candidates()[:8]
        for margin in (0, 2, 6):
            result = Negamax(remoteness=True).iterative_deepening(hs, max_depth=2, moves=moves,
                                                                   margin=margin)
            if result.depth < 2 or abs(result.score) >= 10**6:
                continue
            scores = Negamax(remoteness=True).move_scores(hs, depth=2, moves=moves)
            best = max(scores.values())
            assert result.score == best
            expected = {m for m, s in scores.items() if s >= best - margin}
            assert set(result.near) == (expected if margin else {result.move}), margin
            checked += 1
    assert checked >= 10


def test_elo_ratings_recover_known_differences() -> None:
    """Scores made from an Elo model come back as its ratings (Beginner anchored)."""
    truth = {"a": 1000.0, "b": 1150.0, "c": 1400.0, "d": 1400.0}
    scores = {}
    for x in truth:
        for y in truth:
            if x < y:
                expected = 1 / (1 + 10 ** ((truth[y] - truth[x]) / 400))
                scores[(x, y)] = (expected * 1000, 1000)
    found = elo_ratings(scores, anchor="a")
    for level, rating in truth.items():
        assert math.isclose(found[level], rating, abs_tol=3), found
    # A level that won every game is rated finitely, above the one it beat.
    sweep = elo_ratings({("b", "a"): (100, 100)}, anchor="a")
    assert 1500 < sweep["b"] < 2500 and sweep["a"] == 1000


# --- variety -------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "board", "a", "b"), [
    ("tictactoe", "7x6k4", "hard", "hard"), ("tictactoe", "15x15k5", "hard", "strong"),
    ("connect4", "7x6", "hard", "hard"), ("connect4", "7x6", "hard", "strong")])
def test_forty_games_between_two_levels_are_nearly_all_different(
        game_id: str, board: str, a: str, b: str) -> None:
    """At least 90 % of 40 games between the same two levels differ (the searching
    levels with a hundredth of their work, so the test is quick: the choice among
    near-best moves and openings is the same at any budget)."""
    game = next(g for g in TWO_PLAYER if g.id == game_id)
    params = game.param_spec().from_variant_id(board)
    records = set()
    for i in range(40):
        players = [shrink(game.make_agent(params, Seat("computer", level), seed=100 * i + j))
                   for j, level in enumerate((a, b) if i % 2 == 0 else (b, a))]
        state = game.new_game(params, random.Random(i))
        moves = []
        while not state.is_terminal():
            move = players[state.current_player()].choose_move(state, NO_CANCEL)
            moves.append(move)
            state = state.play(move)
        records.add(tuple(moves))
    assert len(records) >= 36, len(records)


# --- the benchmark's contract ----------------------------------------------------------------


def test_the_ladder_benchmark_writes_its_json_contract(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture) -> None:
    from tests.benchmarks import bench_ladder

    out = tmp_path / "ladder.json"
    assert bench_ladder.main(["--board", "3x3", "--board", "nim", "--games", "4",
                              "--adjacent", "--json", str(out)]) == 0
    rows = json.loads(out.read_text(encoding="utf-8"))
    printed = capsys.readouterr().out
    assert "Elo: beginner 1000" in printed and "tic-tac-toe 3×3" in printed
    games = {"tictactoe": next(g for g in TWO_PLAYER if g.id == "tictactoe"),
             "grundy": next(g for g in TWO_PLAYER if g.id == "grundy")}
    assert [r["game"] for r in rows] == ["tictactoe"] * 5 + ["grundy"] * 5
    for row in rows:
        assert {"game", "a", "b", "wins", "draws", "losses"} <= set(row)
        levels = games[row["game"]].levels
        assert levels.index(row["a"]) == levels.index(row["b"]) + 1
        assert row["wins"] + row["draws"] + row["losses"] == row["games"] == 4
        assert row["score"] == pytest.approx(100 * (row["wins"] + row["draws"] / 2) / 4)


def test_the_ladder_benchmark_measures_with_load_into_a_result_file(tmp_path: Path) -> None:
    """Issue 32: --results adds each pairing to a result file whose tables (with and
    without load, 95 % intervals, Elo with error bars) tools/make_docs.py renders; --load
    runs busy processes beside it, and the loaded games are the very unloaded ones (the
    levels are set by work); a pairing already there is not played again."""
    from tests.benchmarks import bench_ladder

    out = tmp_path / "bench_ladder.json"
    common = ["--board", "nim", "--levels", "beginner,easy", "--games", "4",
              "--adjacent", "--results", str(out)]
    assert bench_ladder.main(common) == 0
    assert bench_ladder.main([*common, "--load", "1"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    tables = data["tables"]
    assert set(tables) == {"pairings", "elo", "pairings_load", "elo_load"}
    for name in tables:
        assert {"date", "machine", "command", "columns", "rows"} <= set(tables[name])
    idle, loaded = tables["pairings"]["rows"], tables["pairings_load"]["rows"]
    assert len(idle) == len(loaded) == 1
    assert tables["pairings_load"]["columns"][-1] == "same games as unloaded"
    assert loaded[0][-1] == "yes" and loaded[0][:5] == idle[0][:5]
    assert "(" in idle[0][4] and " to " in idle[0][5]  # the interval, the Elo's
    assert "±" in tables["elo"]["rows"][0][2]
    assert "1 busy process beside it" in tables["pairings_load"]["machine"]
    before = out.read_text(encoding="utf-8")
    assert bench_ladder.main(common) == 0  # resumed: nothing left to play
    assert json.loads(out.read_text(encoding="utf-8"))["raw"] == json.loads(before)["raw"]


def test_the_ladder_benchmark_says_when_no_score_can_rank_the_top_two() -> None:
    """The band column of the top pair (Perfect and Hard): "both perfect" only where
    every game was drawn or every game was won by whoever moved first; any other result
    of theirs (Perfect winning from the second seat too) is judged by the band."""
    from tests.benchmarks.bench_ladder import BOARDS, BOTH_PERFECT, summary

    levels = ("beginner", "easy", "medium", "strong", "hard", "perfect")

    def band(scores: list[float], pair: tuple[str, str] = ("perfect", "hard")) -> str:
        results = [{"score": s, "first": i % 2 == 0, "moves": 9, "think_a": [0.0],
                    "think_b": [0.0], "record": str(i)} for i, s in enumerate(scores)]
        return summary(BOARDS["7x6"], *pair, results, levels)["band"]

    assert band([0.5] * 4) == BOTH_PERFECT[0]
    assert band([1.0, 0.0] * 3) == BOTH_PERFECT[1]  # a first moves in the even games
    assert band([1.0] * 4) == "OUT of band"  # Perfect won from the second seat too
    assert band([1.0, 0.0, 1.0, 1.0]) == "in band"  # 75 %: not the pattern, so judged
    assert band([1.0, 0.0, 1.0, 0.5]) == "OUT of band"
    assert band([1.0, 0.0] * 3, ("strong", "medium")) == "OUT of band"  # not the top pair
    assert band([1.0, 0.0, 1.0, 1.0], ("strong", "medium")) == "in band"


# --- "Match me" ------------------------------------------------------------------------------


def test_match_level_climbs_with_wins_and_steps_down_with_losses() -> None:
    from engine.ai.ladder import match_level

    levels = ("a", "b", "c", "d", "e", "f")
    assert match_level(levels, []) == "c"  # the lower middle
    assert match_level(levels, ["won"]) == "d"
    assert match_level(levels, ["won", "drawn", "won"]) == "e"
    assert match_level(levels, ["won"] * 9) == "f"  # never past the top
    assert match_level(levels, ["lost"] * 9 + ["won"]) == "b"  # nor the bottom
    rng = random.Random(1)
    for _ in range(200):  # against an independent count of the steps, clamped each time
        outcomes = [rng.choice(("won", "lost", "drawn")) for _ in range(rng.randrange(12))]
        index = 2
        for outcome in outcomes:
            index = min(5, max(0, index + {"won": 1, "lost": -1, "drawn": 0}[outcome]))
        assert match_level(levels, outcomes) == levels[index]


def _play_as_human(app: Any, scene: Any) -> None:
    """A whole game: the human clicks the first empty cell each turn."""
    from tests.conftest import click, grid_centre, run_until

    while not scene.state.is_terminal():
        run_until(app, lambda: scene.state.is_terminal() or not scene.computer_to_move(),
                  message="the computer did not answer")
        if scene.state.is_terminal():
            break
        cell = scene.state.board.index(-1) if -1 in scene.state.board else next(
            i for i, v in enumerate(scene.state.board) if v not in (0, 1))
        row, col = divmod(cell, scene.config.cols)
        click(app, *grid_centre(tuple(scene.layout()["board"]), scene.config.rows,
                                scene.config.cols, row, col))


def test_match_me_moves_up_after_a_win_and_shows_its_rung(app) -> None:
    """Real games against "Match me": its rung follows the results recorded in the
    statistics (a loss: a rung down, for the next game of the same scene), the seat's card
    says the rung, and the statistics screen shows the rung per game."""
    from engine.model.registry import find_game
    from engine.screens.stats_scene import StatsScene
    from games.tictactoe.rules import CLASSIC
    from tests.conftest import stats_shown

    game = find_game("tictactoe")
    for _ in range(2):  # two wins recorded earlier: Medium → Strong → Hard
        app.stats.record_game("tictactoe", "3x3", "human-computer", "match", "won")
    scene = app.push(game.open_scene(app, CLASSIC, seats=(Seat(), Seat("computer", "match")),
                                     seed=3))
    app.step([])
    assert scene.match_rung == "hard"
    assert scene.seat_level_text(1) == "Match me: Hard"
    _play_as_human(app, scene)  # the first empty square each turn: Hard draws or wins
    outcome = app.stats.match_outcomes("tictactoe")[-1]
    assert outcome in ("drawn", "lost")
    assert scene.match_rung == ("hard" if outcome == "drawn" else "strong")
    stats = app.push(StatsScene(app))
    stats_shown(app)
    lines = [entry.text for entry in stats.entries]
    title = {"hard": "Hard", "strong": "Strong"}[scene.match_rung]
    assert f"Match me plays at {title} now" in lines
    # Connect Four was not played: no rung for it.
    assert sum(line.startswith("Match me plays at") for line in lines) == 1


def test_the_level_stepper_climbs_the_ladder_in_the_set_up(app) -> None:
    """The set-up's level stepper: − and + move one rung, stop at either end (disabled
    there), and Start keeps the level chosen."""
    import pygame

    from games.tictactoe.setup_scene import SetupOverlay
    from tests.conftest import click_widget, key

    click_widget(app, "tictactoe")
    key(app, pygame.K_s)
    overlay = app.top
    assert isinstance(overlay, SetupOverlay)
    click_widget(app, "O computer")
    from engine.model.registry import find_game

    levels = find_game("tictactoe").levels
    for _ in range(len(levels)):
        click_widget(app, "O level-")
    assert overlay.seats[1].level == "beginner"
    assert not overlay.ui.find("O level-").enabled and overlay.ui.find("O level+").enabled
    seen = ["beginner"]
    for _ in range(len(levels) + 2):
        click_widget(app, "O level+")
        if overlay.seats[1].level != seen[-1]:
            seen.append(overlay.seats[1].level)
    assert tuple(seen) == levels and not overlay.ui.find("O level+").enabled
    click_widget(app, "O level-")
    click_widget(app, "Start")
    assert app.top.seats[1] == Seat("computer", "perfect")


@pytest.mark.slow
def test_perfect_falls_back_early_where_the_board_is_too_big() -> None:
    """Gomoku: Perfect spends its budget once, finds nothing proven, and from then on
    probes briefly (engine.ai.perfect.PROBE) before searching as Hard does (for longer),
    with its note on the card."""
    from engine.ai.perfect import PROBE
    from games.tictactoe.agents import HARD_NODES, LONGER, PERFECT_BUDGET, make_agent
    from games.tictactoe.rules import MNKConfig
    from games.tictactoe.variants import new_game

    gomoku = MNKConfig(15, 15, 5)
    perfect = make_agent(gomoku, Seat("computer", "perfect"), seed=1)
    other = make_agent(gomoku, Seat("computer", "medium"), seed=2)
    state = new_game(gomoku)
    times = []
    fallback = perfect.inner.fallback
    searched: list[float] = []  # the fallback's own time, per move of Perfect's
    search = fallback.choose_move

    def timed_search(*args: Any) -> Any:
        begin = time.process_time()
        try:
            return search(*args)
        finally:
            searched[-1] += time.process_time() - begin
    fallback.choose_move = timed_search
    for _ply in range(12):
        player = perfect if state.to_move == 0 else other
        start = time.process_time()
        fallback.nodes = 0
        searched.append(0.0)
        move = player.choose_move(state, NO_CANCEL)
        if player is perfect:
            times.append(time.process_time() - start - searched[-1])
            if not perfect.reflex:
                assert "Hard" in perfect.card_note, "it says it plays as Hard"
            # Its search is budgeted in nodes (issue 32): a poll past them at most.
            assert fallback.nodes <= HARD_NODES["gomoku"] * LONGER["gomoku"] + 64
        state = state.play(move)
        if state.is_terminal():
            break
    # Its proofs keep their clock (times: without the fallback's search); after the
    # first, only a probe.
    assert times[0] <= PERFECT_BUDGET + 0.5
    assert max(times[1:]) < PROBE + 0.4, times


def test_every_set_up_names_the_levels_as_its_game_does(app) -> None:
    """The Grundy set-up's stepper (a set-up of its own) and the generic one name the
    levels by the game's labels, "Match me" included, not by the stored word."""
    import pygame

    from engine.model.registry import find_game
    from tests.conftest import click_widget, key

    for game_id, seat in (("grundy", "2"), ("connect4", "O")):
        click_widget(app, game_id)
        key(app, pygame.K_s)
        overlay = app.top
        click_widget(app, f"{seat} computer")
        game = find_game(game_id)
        stepper = overlay.ui.find(f"{seat} level+")
        for _ in game.levels:
            click_widget(app, f"{seat} level+")
        level = next(w for w in overlay.ui.widgets if getattr(w, "name", "") == f"{seat} level")
        assert overlay.seats[1].level == "match" and level.text == "Match me", stepper
        click_widget(app, f"{seat} level-")
        assert level.text == "Perfect"
        key(app, pygame.K_ESCAPE)
        key(app, pygame.K_ESCAPE)


@pytest.mark.parametrize("argv", [["--levels", "hard,godlike"], ["--levels", "hard"],
                                  ["--games", "0"], ["--board", "chess"]])
def test_the_ladder_benchmark_refuses_bad_options(argv: list[str],
                                                   capsys: pytest.CaptureFixture) -> None:
    """A bad option stops the benchmark with its usage and a message (exit 2), before
    any game is played."""
    from tests.benchmarks import bench_ladder

    with pytest.raises(SystemExit) as stop:
        bench_ladder.main(["--board", "3x3", *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage:") and "error:" in err


def test_an_opening_agent_plays_its_openings_where_listed_else_its_inner_player() -> None:
    """Where ``openings(state)`` lists moves, one of them at random (each seed its own, every
    one in time); elsewhere exactly the inner player's move, which is not asked before."""
    from engine.ai.ladder import OpeningAgent
    from games.tictactoe.rules import MNKConfig, TicTacToeState

    class Inner:
        name = "inner"

        def __init__(self) -> None:
            self.asked = 0

        def choose_move(self, state: Any, cancel: threading.Event) -> int:
            self.asked += 1
            return state.legal_moves()[-1]

    start = TicTacToeState.new(MNKConfig(4, 4, 3))
    listed = lambda state: [0, 3] if state is start else []  # noqa: E731
    inner = Inner()
    picks = {OpeningAgent(inner, listed, seed=seed).choose_move(start, NO_CANCEL)
             for seed in range(20)}
    assert picks == {0, 3} and inner.asked == 0
    later = start.play(5)
    agent = OpeningAgent(inner, listed, seed=1)
    assert agent.choose_move(later, NO_CANCEL) == later.legal_moves()[-1] and inner.asked == 1
    assert agent.name == "inner"
