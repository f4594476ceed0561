"""Gomoku (15×15, five in a row): the Hard player against Medium, Easy and the previous Hard.

Not part of the test suite. Every pairing plays ``--games`` games (200 by default),
Hard moving first in the even-numbered ones, with fixed seeds (game i: Hard seed
1000 + i, opponent 2000 + i), so a run is repeatable up to the timing: both Hards
search to a deadline, so how deep they get depends on the machine and its load.

Per pairing it prints the games, Hard's wins / draws / losses, its score (wins plus
half the draws), the split by who moved first, the moves per game and each side's
think time per move (wall time of ``choose_move``: p50 / p95 / max), then the target
lines with PASS or FAIL:

* at least 95 % against Medium; at least 60 % against the previous Hard;
* Hard's think time p95 at most 300 ms in every pairing.

The window's frame rate while Hard thinks is measured by ``bench_frames.py``.

    python tests/benchmarks/bench_gomoku.py                 # 200 games per pairing
    python tests/benchmarks/bench_gomoku.py --quick         # 20 games per pairing
    python tests/benchmarks/bench_gomoku.py --games 50 --jobs 2 --pairing medium

``--jobs J`` plays J games at once in separate processes. Think times are wall
times, so with J at or above the number of free cores they include waiting for a
core: the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.tictactoe.agents import HARD_BUDGET  # noqa: E402
from games.tictactoe.ai_simple import EasyAgent, MediumAgent  # noqa: E402
from games.tictactoe.hard_search import HardSearchAgent  # noqa: E402
from games.tictactoe.rules import MNKConfig, TicTacToeState  # noqa: E402
from tests.benchmarks.figures import JSON_HELP, percentile, records  # noqa: E402

GOMOKU = MNKConfig(15, 15, 5)
PAIRINGS = ("medium", "easy", "previous")
LABELS = {"medium": "Hard vs Medium", "easy": "Hard vs Easy",
          "previous": "Hard vs previous Hard (alpha-beta only)"}
TARGETS = {"medium": 95.0, "previous": 60.0}
P95_TARGET_MS = 300.0


def opponent(name: str, seed: int, budget: float):  # type: ignore[no-untyped-def]
    """The opponent agent of a pairing."""
    if name == "medium":
        return MediumAgent(seed=seed)
    if name == "easy":
        return EasyAgent(seed=seed)
    return HardSearchAgent(time_budget=budget, seed=seed, alpha_beta_only=True)


def play_game(task: tuple[str, int, float]) -> dict:
    """One game of a pairing: (pairing, game index, budget) → its record."""
    name, index, budget = task
    hard = HardSearchAgent(time_budget=budget, seed=1000 + index)
    other = opponent(name, 2000 + index, budget)
    hard_seat = 0 if index % 2 == 0 else 1
    agents = (hard, other) if hard_seat == 0 else (other, hard)
    cancel = threading.Event()
    state = TicTacToeState.new(GOMOKU)
    times: tuple[list[float], list[float]] = ([], [])  # (Hard, opponent) in ms
    moves = 0
    while not state.is_terminal():
        seat = state.to_move
        start = time.perf_counter()
        move = agents[seat].choose_move(state, cancel)
        elapsed = (time.perf_counter() - start) * 1000
        times[0 if seat == hard_seat else 1].append(elapsed)
        state = state.play(move)
        moves += 1
    if state.winner is None:
        result = "draw"
    else:
        result = "win" if state.winner == hard_seat else "loss"
    return {"pairing": name, "index": index, "hard_first": hard_seat == 0, "result": result,
            "moves": moves, "hard_ms": times[0], "other_ms": times[1]}


def score_pct(records: list[dict]) -> float:
    """Wins plus half the draws, as a percentage of the games."""
    if not records:
        return math.nan
    wins = sum(r["result"] == "win" for r in records)
    draws = sum(r["result"] == "draw" for r in records)
    return 100.0 * (wins + draws / 2) / len(records)


def wdl(records: list[dict]) -> str:
    """"W/D/L" from Hard's side."""
    return "/".join(str(sum(r["result"] == k for r in records)) for k in ("win", "draw", "loss"))


def times_text(values: list[float]) -> str:
    """p50 / p95 / max in ms."""
    return (f"{percentile(values, 0.5):.0f} / {percentile(values, 0.95):.0f} / "
            f"{max(values) if values else math.nan:.0f} ms")


def report(name: str, records: list[dict]) -> list[tuple[str, bool]]:
    """Print one pairing's table rows; return its target lines (text, passed)."""
    first = [r for r in records if r["hard_first"]]
    second = [r for r in records if not r["hard_first"]]
    hard_ms = [t for r in records for t in r["hard_ms"]]
    other_ms = [t for r in records for t in r["other_ms"]]
    moves = [r["moves"] for r in records]
    pct = score_pct(records)
    print(f"| {LABELS[name]} | {len(records)} | {wdl(records)} | {pct:.1f} % | "
          f"{wdl(first)} ({score_pct(first):.0f} %) | {wdl(second)} ({score_pct(second):.0f} %) | "
          f"{sum(moves) / len(moves):.1f} (min {min(moves)}, max {max(moves)}) | "
          f"{times_text(hard_ms)} | {times_text(other_ms)} |", flush=True)
    lines = []
    if name in TARGETS:
        ok = pct >= TARGETS[name]
        lines.append((f"{LABELS[name]}: score {pct:.1f} % (target ≥ {TARGETS[name]:.0f} %)", ok))
    p95 = percentile(hard_ms, 0.95)
    lines.append((f"{LABELS[name]}: Hard think time p95 {p95:.0f} ms, max "
                  f"{max(hard_ms):.0f} ms over {len(hard_ms)} moves "
                  f"(target p95 ≤ {P95_TARGET_MS:.0f} ms)", p95 <= P95_TARGET_MS))
    return lines


@records("pairings")
def main() -> int:
    """Play the pairings and print the table and the target lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing (200)")
    parser.add_argument("--quick", action="store_true", help="20 games per pairing")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (1)")
    parser.add_argument("--budget", type=float, default=HARD_BUDGET,
                        help=f"seconds per move for both Hards ({HARD_BUDGET})")
    parser.add_argument("--pairing", choices=PAIRINGS, action="append",
                        help="only this pairing (repeatable); default all three")
    parser.add_argument("--json", metavar="FILE", help=JSON_HELP)
    args = parser.parse_args()
    games = 20 if args.quick else args.games
    pairings = args.pairing or list(PAIRINGS)

    load0 = os.getloadavg()
    started = time.monotonic()
    print(f"Gomoku 15×15, five in a row: {games} games per pairing, Hard budget "
          f"{args.budget * 1000:.0f} ms/move, {args.jobs} game(s) at once on "
          f"{os.cpu_count()} cores; load average before {load0[0]:.2f} / {load0[1]:.2f} / "
          f"{load0[2]:.2f}; Python {sys.version.split()[0]}.\n", flush=True)
    tasks = [(name, i, args.budget) for name in pairings for i in range(games)]
    records: dict[str, list[dict]] = {name: [] for name in pairings}
    done = 0
    with multiprocessing.Pool(args.jobs) as pool:
        for rec in pool.imap_unordered(play_game, tasks):
            records[rec["pairing"]].append(rec)
            done += 1
            if done % 10 == 0 or done == len(tasks):
                print(f"  … {done}/{len(tasks)} games ({time.monotonic() - started:.0f} s)",
                      file=sys.stderr, flush=True)
    print("| pairing | games | W/D/L (Hard) | score | Hard first | Hard second | "
          "moves per game | Hard think p50 / p95 / max | opponent think p50 / p95 / max |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    lines: list[tuple[str, bool]] = []
    for name in pairings:
        lines += report(name, sorted(records[name], key=lambda r: r["index"]))
    load1 = os.getloadavg()
    print(f"\nTook {time.monotonic() - started:.0f} s; load average after {load1[0]:.2f} / "
          f"{load1[1]:.2f} / {load1[2]:.2f}.\n")
    for text, ok in lines:
        print(f"{'PASS' if ok else 'FAIL'}  {text}")
    return 0 if all(ok for _, ok in lines) else 1


if __name__ == "__main__":
    raise SystemExit(main())
