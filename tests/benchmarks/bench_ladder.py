"""The difficulty ladder, measured: every game's levels play each other, sides alternating.

Not part of the test suite. For each board it plays the round robin of the game's levels
(adjacent rungs only with ``--adjacent``), ``--games`` games per pairing (100 by
default, 20 with ``--quick``), level a moving first in the even-numbered games, with
fixed seeds (game i: a's seed 1000 + i, b's 2000 + i), through each family's own
``make_agent`` at its default budgets. It prints per pairing:

* games, a's wins / draws / losses and score (wins plus half the draws);
* the first-mover split: a's score moving first and moving second;
* moves per game; each side's think time per move, p50 / p95 (wall time);
* whether an adjacent pair's score lies in the 65–80 % band (draws count half), or is a
  draw between two perfect players (3×3's top rungs);

then an Elo-style rating per level (engine/ai/ladder.py, Beginner at 1000).

    python tests/benchmarks/bench_ladder.py                     # 100 games per pairing
    python tests/benchmarks/bench_ladder.py --quick             # 20 games, adjacent rungs
    python tests/benchmarks/bench_ladder.py --board c4 --json ladder.json --jobs 2

``--json FILE`` writes the same figures as a JSON list of objects, one per pairing, with
the keys ``game``, ``a``, ``b``, ``wins``, ``draws``, ``losses`` (from a's side), and
also ``board``, ``games``, ``score``, ``first``, ``second``, ``moves``, ``think_ms``.
``--jobs J`` plays J games at once in separate processes (think times are wall times:
with J at or above the free cores they include waiting for one).
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.ai.ladder import elo_ratings  # noqa: E402
from engine.model.seats import Seat  # noqa: E402
from tests.benchmarks.figures import percentile  # noqa: E402

BAND = (65.0, 80.0)


@dataclass(frozen=True)
class Board:
    """A board of the ladder: the game, its parameters, the levels it ranks."""

    key: str
    game: str
    label: str
    top_draws: bool = False  # the top rungs both play perfectly: their games are draws

    def params(self) -> Any:
        if self.game == "tictactoe":
            from games.tictactoe.rules import MNKConfig

            rows, cols, k = (int(x) for x in self.key.split("-")[1].replace("k", "x").split("x"))
            return MNKConfig(rows, cols, k)
        if self.game == "connect4":
            from games.connect4.rules import CLASSIC

            return CLASSIC
        from games.grundy.variants import GrundySetup

        return GrundySetup(game="nim") if self.key == "nim" else GrundySetup(game="king")


BOARDS = {
    "3x3": Board("ttt-3x3k3", "tictactoe", "tic-tac-toe 3×3", top_draws=True),
    "7x6": Board("ttt-7x6k4", "tictactoe", "tic-tac-toe 6×7, 4 in a row"),
    "gomoku": Board("ttt-15x15k5", "tictactoe", "gomoku 15×15"),
    "c4": Board("c4", "connect4", "Connect Four 7×6"),
    "nim": Board("nim", "grundy", "Nim 3-5-7"),
    "king": Board("king", "grundy", "King's walk 8×8"),
}


def _family(game: str) -> tuple[Any, Any, tuple[str, ...]]:
    """(new_game, make_agent, levels) of a family."""
    if game == "tictactoe":
        from games.tictactoe.agents import LEVELS, make_agent
        from games.tictactoe.variants import new_game
    elif game == "connect4":
        from games.connect4.agents import LEVELS, make_agent
        from games.connect4.rules import new_game
    else:
        from games.grundy.agents import LEVELS, make_agent
        from games.grundy.variants import new_game
    return new_game, make_agent, LEVELS


def play(job: tuple[str, str, str, int]) -> dict[str, Any]:
    """One game of ``a`` against ``b`` on a board, a first when ``i`` is even: a's result
    (1, ½, 0), the moves and each side's think times."""
    board_name, a, b, i = job
    board = BOARDS[board_name]
    new_game, make_agent, _levels = _family(board.game)
    params = board.params()
    players = {a: make_agent(params, Seat("computer", a), seed=1000 + i),
               b: make_agent(params, Seat("computer", b), seed=2000 + i)}
    if a == b:
        players = {"a": players[a], "b": make_agent(params, Seat("computer", b), seed=2000 + i)}
        a, b = "a", "b"
    order = (a, b) if i % 2 == 0 else (b, a)
    state = new_game(params)
    cancel = threading.Event()
    think: dict[str, list[float]] = {a: [], b: []}
    moves: list[Any] = []
    while not state.is_terminal():
        who = order[state.current_player()]
        start = time.perf_counter()
        move = players[who].choose_move(state, cancel)
        think[who].append(time.perf_counter() - start)
        moves.append(move)
        state = state.play(move)
    result = state.returns()[order.index(a)]
    return {"score": 1.0 if result > 0 else 0.0 if result < 0 else 0.5, "first": i % 2 == 0,
            "moves": len(moves), "think_a": think[a], "think_b": think[b],
            "record": repr(moves)}


def pairings(levels: tuple[str, ...], adjacent: bool) -> list[tuple[str, str]]:
    """The pairs to play, stronger level first (a), weakest pairs first."""
    if adjacent:
        return [(levels[j + 1], levels[j]) for j in range(len(levels) - 1)]
    return [(hi, lo) for lo, hi in itertools.combinations(levels, 2)]


def run_board(name: str, games: int, adjacent: bool, jobs: int,
              levels: tuple[str, ...] | None) -> list[dict[str, Any]]:
    """Every pairing's figures on one board (printed as they come)."""
    board = BOARDS[name]
    _new, _make, all_levels = _family(board.game)
    levels = tuple(lv for lv in all_levels if levels is None or lv in levels)
    print(f"\n## {board.label}\n")
    print(f"{'pairing':22} {'games':>5} {'W/D/L':>11} {'score':>6} {'1st/2nd':>11} "
          f"{'moves':>5} {'think a p50/p95 ms':>19} {'think b p50/p95 ms':>19}  band")
    rows = []
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    try:
        for a, b in pairings(levels, adjacent):
            work = [(name, a, b, i) for i in range(games)]
            results = pool.map(play, work) if pool else [play(job) for job in work]
            rows.append(summary(board, a, b, results, all_levels))
            print_row(rows[-1])
    finally:
        if pool:
            pool.close()
    scores = {(r["a"], r["b"]): (r["score"] / 100 * r["games"], r["games"]) for r in rows}
    ratings = elo_ratings(scores, anchor=levels[0])
    print("\nElo: " + ", ".join(f"{lv} {ratings[lv]:.0f}" for lv in levels if lv in ratings))
    for row in rows:
        row["elo_a"], row["elo_b"] = round(ratings[row["a"]]), round(ratings[row["b"]])
    return rows


def summary(board: Board, a: str, b: str, results: list[dict[str, Any]],
            levels: tuple[str, ...]) -> dict[str, Any]:
    """One pairing's figures (the JSON object of the pairing)."""
    wins = sum(r["score"] == 1.0 for r in results)
    draws = sum(r["score"] == 0.5 for r in results)
    games = len(results)

    def score(rs: list[dict[str, Any]]) -> float:
        return round(100 * sum(r["score"] for r in rs) / len(rs), 1) if rs else float("nan")

    think_a = [t for r in results for t in r["think_a"]]
    think_b = [t for r in results for t in r["think_b"]]
    adjacent = abs(levels.index(a) - levels.index(b)) == 1
    top = board.top_draws and {a, b} >= {levels[-1], levels[-2]}
    s = score(results)
    band = ("" if not adjacent else "draws (both perfect)" if top and draws == games
            else "in band" if BAND[0] <= s <= BAND[1] else "OUT of band")
    return {"game": board.game, "board": board.key, "a": a, "b": b, "games": games,
            "wins": wins, "draws": draws, "losses": games - wins - draws, "score": s,
            "first": score([r for r in results if r["first"]]),
            "second": score([r for r in results if not r["first"]]),
            "moves": round(sum(r["moves"] for r in results) / games, 1),
            "think_ms": {"a": [round(1000 * percentile(think_a, q), 1) for q in (0.5, 0.95)],
                         "b": [round(1000 * percentile(think_b, q), 1) for q in (0.5, 0.95)]},
            "distinct": len({r["record"] for r in results}), "band": band}


def print_row(row: dict[str, Any]) -> None:
    ta, tb = row["think_ms"]["a"], row["think_ms"]["b"]
    print(f"{row['a'] + ' vs ' + row['b']:22} {row['games']:>5} "
          f"{row['wins']:>3}/{row['draws']:>3}/{row['losses']:>3} {row['score']:>5.1f}% "
          f"{row['first']:>5.1f}/{row['second']:<5.1f} {row['moves']:>5.1f} "
          f"{ta[0]:>9.1f}/{ta[1]:<9.1f} {tb[0]:>9.1f}/{tb[1]:<9.1f}  {row['band']}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="20 games per pairing, adjacent rungs only")
    parser.add_argument("--games", type=int, help="games per pairing (default 100)")
    parser.add_argument("--adjacent", action="store_true", help="adjacent rungs only")
    parser.add_argument("--board", action="append", choices=sorted(BOARDS),
                        help="only this board (repeatable; default: all)")
    parser.add_argument("--levels", help="only these levels, comma-separated")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    games = args.games if args.games is not None else (20 if args.quick else 100)
    if games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    levels = tuple(args.levels.split(",")) if args.levels else None
    boards = args.board or list(BOARDS)
    for name in boards:  # every board must rank at least two of the levels named
        known = _family(BOARDS[name].game)[2]
        if levels is not None and (set(levels) - set(known) or len(set(levels)) < 2):
            parser.error(f"--levels: name two or more of {', '.join(known)}")
    rows: list[dict[str, Any]] = []
    for name in boards:
        rows += run_board(name, games, args.adjacent or args.quick, args.jobs, levels)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
