"""The difficulty ladder, measured: every game's levels play each other, sides alternating.

Not part of the test suite. For each board it plays the round robin of the game's levels
(adjacent rungs only with ``--adjacent``), ``--games`` games per pairing (100 by
default, 20 with ``--quick``), level a moving first in the even-numbered games, with
fixed seeds (game i: a's seed 1000 + i, b's 2000 + i; ``--first K`` numbers the games from
K, another sample of the same pairing), through each family's own
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
also ``board``, ``games``, ``score``, ``interval`` (the score's 95 % Wilson interval),
``elo`` (the rating difference a's score means, with its 95 % interval), ``first``,
``second``, ``moves``, ``think_ms``, ``distinct`` (how many games differ), ``load``, and
with ``--results`` on 3×3 ``exact``: the pairing's exact expected score (every game the two
levels can play walked, tests/support/exact_ladder.py), as a % both seats averaged, moving
first, second.
``--jobs J`` plays J games at once in separate processes (think times are wall times:
with J at or above the free cores they include waiting for one).

``--load N`` runs N busy processes beside the games (each spins on a core), so that the
ladder is measured on a loaded machine: the levels below Perfect are set by work (depth,
nodes), so their games must come out the same. ``--results FILE`` adds each pairing, as
it finishes, to a result file (docs/results/bench_ladder.json: the tables ``pairings``
and ``elo`` without load, ``pairings_load`` and ``elo_load`` with it, that
tools/make_docs.py turns into docs/performance.md's tables); a pairing already there with
at least as many games at the same load is skipped, so an interrupted run resumes.

    nice python tests/benchmarks/bench_ladder.py --adjacent --games 40 --load 2 \
        --results docs/results/bench_ladder.json
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import itertools
import json
import math
import multiprocessing
import os
import random
import signal
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
from tests.benchmarks.figures import machine_note, percentile  # noqa: E402

BAND = (65.0, 80.0)
# The band column of a top pair that no score can rank (see summary).
BOTH_PERFECT = ("draws (both perfect)", "each wins moving first (both perfect)")


@dataclass(frozen=True)
class Board:
    """A board of the ladder: the game, its parameters, the levels it ranks."""

    key: str
    game: str
    label: str

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
    "3x3": Board("ttt-3x3k3", "tictactoe", "tic-tac-toe 3×3"),
    "7x6": Board("ttt-7x6k4", "tictactoe", "tic-tac-toe 6×7, 4 in a row"),
    "gomoku": Board("ttt-15x15k5", "tictactoe", "gomoku 15×15"),
    "c4": Board("c4", "connect4", "Connect Four 7×6"),
    "nim": Board("nim", "grundy", "Nim 3-5-7"),
    "king": Board("king", "grundy", "King's walk 8×8"),
}

BOARDS_BY_KEY = {board.key: board for board in BOARDS.values()}


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
    # As the game screen starts a game between two computers: dealt, where the game deals
    # (the Grundy board games), else its one start.
    from engine.model.registry import find_game

    state = first = find_game(board.game).deal_start(params, random.Random(3000 + i))
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
            "record": repr((first, moves))}


def pairings(levels: tuple[str, ...], adjacent: bool) -> list[tuple[str, str]]:
    """The pairs to play, stronger level first (a), weakest pairs first."""
    if adjacent:
        return [(levels[j + 1], levels[j]) for j in range(len(levels) - 1)]
    return [(hi, lo) for lo, hi in itertools.combinations(levels, 2)]


def run_board(name: str, games: int, adjacent: bool, jobs: int,
              levels: tuple[str, ...] | None, load: int = 0,
              results_file: Path | None = None, first: int = 0) -> list[dict[str, Any]]:
    """Every pairing's figures on one board (printed as they come; added to
    ``results_file`` as each finishes, skipping those it holds already)."""
    board = BOARDS[name]
    _new, _make, all_levels = _family(board.game)
    levels = tuple(lv for lv in all_levels if levels is None or lv in levels)
    print(f"\n## {board.label}\n")
    print(f"{'pairing':22} {'games':>5} {'W/D/L':>11} {'score':>6} {'1st/2nd':>11} "
          f"{'moves':>5} {'think a p50/p95 ms':>19} {'think b p50/p95 ms':>19}  band")
    rows = []
    done = {(r["board"], r["a"], r["b"], r.get("load", 0), r.get("first_game", 0)): r
            for r in (read_rows(results_file) if results_file else [])}
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    try:
        for a, b in pairings(levels, adjacent):
            kept = done.get((board.key, a, b, load, first))
            if kept is not None and kept["games"] >= games:
                rows.append(kept)  # measured already (an interrupted run resumes)
                print_row(kept)
                continue
            work = [(name, a, b, i) for i in range(first, first + games)]
            results = pool.map(play, work) if pool else [play(job) for job in work]
            rows.append(summary(board, a, b, results, all_levels,
                                exact=results_file is not None))
            rows[-1]["load"], rows[-1]["first_game"] = load, first
            print_row(rows[-1])
            if results_file is not None:
                write_results(results_file, [rows[-1]])
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
            levels: tuple[str, ...], exact: bool = False) -> dict[str, Any]:
    """One pairing's figures (the JSON object of the pairing); with ``exact``, on a board
    of EXACT_BOARDS, its exact expected score too (a walk of every game: seconds)."""
    wins = sum(r["score"] == 1.0 for r in results)
    draws = sum(r["score"] == 0.5 for r in results)
    games = len(results)

    def score(rs: list[dict[str, Any]]) -> float:
        return round(100 * sum(r["score"] for r in rs) / len(rs), 1) if rs else float("nan")

    think_a = [t for r in results for t in r["think_a"]]
    think_b = [t for r in results for t in r["think_b"]]
    adjacent = abs(levels.index(a) - levels.index(b)) == 1
    # Where the top two rungs both play every game's outcome perfectly (every game drawn,
    # or every game won by whoever moves first) no score can rank them: said so instead.
    top = {a, b} == {levels[-1], levels[-2]}
    s, first, second = (score(results), score([r for r in results if r["first"]]),
                        score([r for r in results if not r["first"]]))
    band = ("" if not adjacent else BOTH_PERFECT[0] if top and draws == games
            else BOTH_PERFECT[1] if top and (first, second) == (100.0, 0.0)
            else "in band" if in_band(s) else "OUT of band")
    return {"game": board.game, "board": board.key, "a": a, "b": b, "games": games,
            "wins": wins, "draws": draws, "losses": games - wins - draws, "score": s,
            "first": first, "second": second,
            "moves": round(sum(r["moves"] for r in results) / games, 1),
            "think_ms": {"a": [round(1000 * percentile(think_a, q), 1) for q in (0.5, 0.95)],
                         "b": [round(1000 * percentile(think_b, q), 1) for q in (0.5, 0.95)]},
            "distinct": len({r["record"] for r in results}), "band": band,
            "interval": [round(100 * x, 1) for x in wilson(s / 100, games)],
            "elo": [elo_difference(x) for x in (s / 100, *wilson(s / 100, games))],
            # The games themselves, in order, as one digest: equal digests, equal games.
            "digest": hashlib.sha256("\n".join(r["record"] for r in results)
                                     .encode()).hexdigest()[:16],
            **({"exact": exact_score(board, a, b)}
               if exact and board.key in EXACT_BOARDS else {})}


# Boards small enough to walk every game two levels can play: there the benchmark adds the
# pairing's exact expected score (tests/support/exact_ladder.py) to its sampled one.
EXACT_BOARDS = ("ttt-3x3k3",)


def exact_score(board: Board, a: str, b: str) -> list[float]:
    """``a``'s exact expected score against ``b`` in % (both seats averaged, moving first,
    moving second), every game the two can play walked with its probability."""
    from tests.support.exact_ladder import expected_score

    new_game, make_agent, _levels = _family(board.game)
    params = board.params()
    players = [make_agent(params, Seat("computer", level), seed=0) for level in (a, b)]
    scores = expected_score(new_game(params), *players,
                            key=lambda state: (state.board, state.to_move))
    return [round(100 * x, 2) for x in scores]


# --- intervals and ratings -------------------------------------------------------------

def in_band(score: float) -> bool:
    """Whether a score in % lies in the ladder's band (65–80 %)."""
    return BAND[0] <= score <= BAND[1]


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a score ``p`` (0 to 1) over ``n`` games (a draw counts
    half: the interval treats the score as a proportion, a little wide with many draws)."""
    if n <= 0:
        return (0.0, 1.0)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_difference(p: float) -> int:
    """The rating difference for which the expected score is ``p`` (±800 at the ends)."""
    p = min(max(p, 0.01), 0.99)
    return round(-400 * math.log10(1 / p - 1))


def elo_with_errors(rows: list[dict[str, Any]], levels: tuple[str, ...],
                    samples: int = 200) -> dict[str, tuple[float, float]]:
    """Each level's rating (maximum likelihood, the weakest at 1000) and the half-width of
    its 95 % interval, by a parametric bootstrap: each pairing's wins, draws and losses
    drawn again from its own frequencies."""
    # Only the levels linked to the weakest through measured pairings can be rated
    # against it (a chain with a pairing missing falls apart).
    linked, grew = {levels[0]}, True
    while grew:
        grew = False
        for r in rows:
            if (r["a"] in linked) != (r["b"] in linked):
                linked |= {r["a"], r["b"]}
                grew = True
    rows = [r for r in rows if r["a"] in linked and r["b"] in linked]

    def fit(table: dict[tuple[str, str], tuple[float, int]]) -> dict[str, float]:
        return elo_ratings(table, anchor=levels[0], rounds=600)

    scores: dict[tuple[str, str], tuple[float, int]] = {}
    for r in rows:  # samples of one pairing (--first) pooled
        points, n = scores.get((r["a"], r["b"]), (0.0, 0))
        scores[(r["a"], r["b"])] = (points + r["score"] / 100 * r["games"], n + r["games"])
    found = fit(scores)
    rng = random.Random(1)
    drawn: dict[str, list[float]] = {lv: [] for lv in found}
    for _ in range(samples):
        table: dict[tuple[str, str], tuple[float, int]] = {}
        for r in rows:
            n = r["games"]
            chances = (r["wins"] / n, r["draws"] / n)
            points = 0.0
            for _game in range(n):
                x = rng.random()
                points += 1.0 if x < chances[0] else 0.5 if x < chances[0] + chances[1] else 0.0
            before, games = table.get((r["a"], r["b"]), (0.0, 0))
            table[(r["a"], r["b"])] = (before + points, games + n)
        for level, rating in fit(table).items():
            drawn[level].append(rating)
    return {lv: (found[lv], (percentile(drawn[lv], 0.975) - percentile(drawn[lv], 0.025)) / 2)
            for lv in found}


# --- the result file -------------------------------------------------------------------

PAIR_COLUMNS = ["board", "pairing (stronger vs weaker)", "games", "W / D / L",
                "score (95 % interval)", "Elo difference (95 %)", "moving 1st / 2nd", "moves",
                "think p50 / p95, stronger (ms)", "distinct games", "65–80 %"]
# With load, one more column: whether the games were the very games played without it.
SAME_COLUMN = "same games as unloaded"
LEVEL_ORDER = ("beginner", "easy", "medium", "strong", "hard", "perfect")


EXACT_COLUMNS = ["board", "pairing (stronger vs weaker)", "exact expected score",
                 "moving 1st / 2nd", "the benchmark's games", "65–80 %"]


def exact_cells(row: dict[str, Any]) -> list[str]:
    """One row of the exact table: the walked score beside the sampled one."""
    average, first, second = row["exact"]
    return [BOARDS_BY_KEY[row["board"]].label, f"{row['a']} vs {row['b']}",
            f"{average:.2f} %", f"{first:.1f} / {second:.1f} %",
            f"{row['score']:.1f} % over {row['games']}", "yes" if in_band(average) else "**no**"]


def read_rows(path: Path | None) -> list[dict[str, Any]]:
    """The pairings a result file holds (its ``raw`` list; none if it has none)."""
    if path is None or not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return list(data.get("raw", [])) if isinstance(data, dict) else []


def band_text(row: dict[str, Any]) -> str:
    """The last column: in the band or not, and whether the interval crosses its edge."""
    if row["band"] in ("", *BOTH_PERFECT):
        return row["band"] or "—"
    lo, hi = row["interval"]
    inside = row["band"] == "in band"
    crosses = lo < BAND[0] or hi > BAND[1]
    text = ("yes" if inside else "**no**") + (" (interval crosses)" if crosses else "")
    if "exact" in row:  # the sample beside the walked score (see the exact table)
        text += f"; exact {row['exact'][0]:.1f} %: " + (
            "yes" if in_band(row["exact"][0]) else "**no**")
    return text


def pair_cells(row: dict[str, Any]) -> list[str]:
    """One row of a pairings table."""
    d, lo, hi = row["elo"]
    first = row.get("first_game", 0)
    games = str(row["games"]) + (f" (games {first}–{first + row['games'] - 1})" if first else "")
    return [BOARDS_BY_KEY[row["board"]].label, f"{row['a']} vs {row['b']}", games,
            f"{row['wins']} / {row['draws']} / {row['losses']}",
            f"{row['score']:.1f} % ({row['interval'][0]:.0f}–{row['interval'][1]:.0f})",
            f"{d:+d} ({lo:+d} to {hi:+d})", f"{row['first']:g} / {row['second']:g} %",
            f"{row['moves']:g}",
            "{:.1f} / {:.1f}".format(*row["think_ms"]["a"]), str(row["distinct"]),
            band_text(row)]


def write_results(path: Path, new_rows: list[dict[str, Any]]) -> None:
    """Add ``new_rows`` to the result file at ``path`` (replacing the same pairings at the
    same load) and rebuild its tables, written whole to a temporary file and renamed."""
    def key(r: dict[str, Any]) -> tuple[Any, ...]:
        return (r["board"], r["a"], r["b"], r.get("load", 0), r.get("first_game", 0))

    rows = {key(r): r for r in read_rows(path)}
    for row in new_rows:
        row = dict(row, date=datetime.date.today().isoformat())
        rows[key(row)] = row
    keys = list(BOARDS_BY_KEY)
    ordered = sorted(rows.values(), key=lambda r: (
        r.get("load", 0) > 0, keys.index(r["board"]), LEVEL_ORDER.index(r["b"]),
        LEVEL_ORDER.index(r["a"]), r.get("first_game", 0)))
    tables: dict[str, Any] = {}
    for name, loaded in (("", False), ("_load", True)):
        mine = [r for r in ordered if (r.get("load", 0) > 0) == loaded]
        if not mine:
            continue
        loads = sorted({r.get("load", 0) for r in mine})
        dates = sorted({r["date"] for r in mine})
        meta = {"date": " to ".join(dict.fromkeys([dates[0], dates[-1]])),
                "machine": machine_note().rsplit(", load", 1)[0]
                + (f", {' or '.join(map(str, loads))} busy process"
                   f"{'' if loads == [1] else 'es'} beside it" if loaded else ""),
                "command": "python tests/benchmarks/bench_ladder.py --adjacent"
                + (f" --load {loads[-1]}" if loaded else "") + " (game counts per row)"}
        columns, cells = PAIR_COLUMNS, [pair_cells(r) for r in mine]
        if loaded:
            columns = [*PAIR_COLUMNS, SAME_COLUMN]
            for row, line in zip(mine, cells, strict=True):
                idle = rows.get((row["board"], row["a"], row["b"], 0,
                                 row.get("first_game", 0)))
                line.append("—" if idle is None or idle["games"] != row["games"]
                            else "yes" if idle.get("digest") == row.get("digest") else "no")
        tables["pairings" + name] = {**meta, "columns": columns, "rows": cells}
        elo_rows = []
        for key in keys:
            board_rows = [r for r in mine if r["board"] == key]
            if not board_rows:
                continue
            present = tuple(lv for lv in LEVEL_ORDER
                            if any(lv in (r["a"], r["b"]) for r in board_rows))
            ratings = elo_with_errors(board_rows, present)
            elo_rows.append([BOARDS_BY_KEY[key].label] + [
                f"{ratings[lv][0]:.0f} ± {ratings[lv][1]:.0f}" if lv in ratings else "—"
                for lv in LEVEL_ORDER])
        tables["elo" + name] = {**meta, "columns": ["board", *LEVEL_ORDER], "rows": elo_rows}
        exact = [r for r in mine if "exact" in r]
        if exact and not loaded:
            tables["exact"] = {**meta, "columns": EXACT_COLUMNS,
                               "rows": [exact_cells(r) for r in exact]}
    data = {"benchmark": "bench_ladder",
            "source": "tests/benchmarks/bench_ladder.py --results (the rows' own games)",
            "tables": tables, "raw": ordered}
    temporary = path.with_name(path.name + f".{os.getpid()}.tmp")
    temporary.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                         encoding="utf-8")
    os.replace(temporary, path)


def _spin() -> None:
    """A busy process: spins on a core until stopped."""
    # A forked child inherits its parent's signal handlers (the app's, in a test run that
    # started it): the default one lets terminate() end it.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    while True:
        pass


def start_load(n: int) -> list[multiprocessing.Process]:
    """``n`` busy processes beside the benchmark (stopped by :func:`stop_load`)."""
    busy = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(n)]
    for process in busy:
        process.start()
    return busy


def stop_load(busy: list[multiprocessing.Process]) -> None:
    """Stop the busy processes :func:`start_load` started (each by its own handle)."""
    for process in busy:
        process.terminate()
    for process in busy:
        process.join(5)
        if process.is_alive():  # never leave a core spinning
            process.kill()
            process.join(5)


def print_row(row: dict[str, Any]) -> None:
    ta, tb = row["think_ms"]["a"], row["think_ms"]["b"]
    print(f"{row['a'] + ' vs ' + row['b']:22} {row['games']:>5} "
          f"{row['wins']:>3}/{row['draws']:>3}/{row['losses']:>3} {row['score']:>5.1f}% "
          f"{row['first']:>5.1f}/{row['second']:<5.1f} {row['moves']:>5.1f} "
          f"{ta[0]:>9.1f}/{ta[1]:<9.1f} {tb[0]:>9.1f}/{tb[1]:<9.1f}  {row['band']}", flush=True)
    if "exact" in row:
        print(f"{'':22} exact expected score {row['exact'][0]:.2f} % "
              f"({row['exact'][1]:.1f} / {row['exact'][2]:.1f} % moving first / second)")


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
    parser.add_argument("--first", type=int, default=0, metavar="K",
                        help="number the games from K (another sample: other seeds)")
    parser.add_argument("--load", type=int, default=0, metavar="N",
                        help="run N busy processes beside the games")
    parser.add_argument("--results", metavar="FILE",
                        help="add each pairing to this result file as it finishes "
                             "(resumes: pairings it holds are skipped)")
    args = parser.parse_args(argv)
    games = args.games if args.games is not None else (20 if args.quick else 100)
    if games < 1 or args.jobs < 1 or args.load < 0:
        parser.error("--games and --jobs must be at least 1, --load at least 0")
    levels = tuple(args.levels.split(",")) if args.levels else None
    boards = args.board or list(BOARDS)
    for name in boards:  # every board must rank at least two of the levels named
        known = _family(BOARDS[name].game)[2]
        if levels is not None and (set(levels) - set(known) or len(set(levels)) < 2):
            parser.error(f"--levels: name two or more of {', '.join(known)}")
    rows: list[dict[str, Any]] = []
    results = Path(args.results) if args.results else None
    busy = start_load(args.load)
    try:
        for name in boards:
            rows += run_board(name, games, args.adjacent or args.quick, args.jobs, levels,
                              args.load, results, args.first)
    finally:
        stop_load(busy)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
