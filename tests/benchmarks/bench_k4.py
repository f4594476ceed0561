"""Four in a row on every board from 5×5 to 8×8: proofs against the published values.

For each board, ``solve_mnk`` (the exact negamax and the win prover taking
turns, engine/ai/win_proof.py) against the reference: the exact negamax
alone, as ``solve mnk`` was before the prover, in the same run with a time
cap. The published values (Uiterwijk, "Solving Strong and Weak 4-in-a-Row",
IEEE CoG 2019, and the thesis of Charatsidis, Maastricht 2017, which cites
them): 5×5 a draw, every other board here a first-player win.

    python tests/benchmarks/bench_k4.py                  # all 16 boards (~15 min)
    python tests/benchmarks/bench_k4.py --quick          # 5×5, 6×5, 7×6, 7×7 only
    python tests/benchmarks/bench_k4.py --reference-limit 20
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.ai.negamax import Negamax, SearchTimeout  # noqa: E402
from games.tictactoe.perfect import solve_mnk  # noqa: E402
from games.tictactoe.search_state import MNKSearchState  # noqa: E402
from tests.benchmarks.figures import JSON_HELP, records  # noqa: E402

NAMES = {1: "first player wins", 0: "draw", -1: "second player wins"}
QUICK = [(5, 5), (6, 5), (7, 6), (7, 7)]


def published(rows: int, cols: int) -> int:
    """The published value of rows × cols with 4 in a row (boards 5..8)."""
    return 0 if (rows, cols) == (5, 5) else 1


def reference(rows: int, cols: int, limit: float) -> tuple[float | None, int | None]:
    """The exact negamax alone: (seconds, outcome), or (None, None) past ``limit``."""
    start = time.perf_counter()
    try:
        outcome = Negamax(remoteness=False, time_limit=limit).solve(
            MNKSearchState.new(rows, cols, 4)).outcome
    except SearchTimeout:
        return None, None
    return time.perf_counter() - start, outcome


@records("boards")
def main() -> int:
    """Print the table; exit 1 if a value disagrees with the published one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="four boards only")
    parser.add_argument("--reference-limit", type=float, default=60.0,
                        help="seconds before the reference gives up (default 60)")
    parser.add_argument("--limit", type=float, default=180.0,
                        help="seconds before ours gives up (default 180; the target is 60)")
    parser.add_argument("--json", metavar="FILE", help=JSON_HELP)
    args = parser.parse_args()
    boards = QUICK if args.quick else [(r, c) for r in range(5, 9) for c in range(5, 9)]
    print("| board (columns × rows), k = 4 | published | ours | time (target ≤ 60 s) "
          "| exact negamax alone (same run) | ratio |")
    print("| --- | --- | --- | --- | --- | --- |")
    bad = 0
    for rows, cols in boards:
        start = time.perf_counter()
        try:
            value: int | None = solve_mnk(rows, cols, 4, time_limit=args.limit)
        except SearchTimeout:
            value = None
        ours = time.perf_counter() - start
        ref_time, ref_value = reference(rows, cols, args.reference_limit)
        want = published(rows, cols)
        ok = value == want and ref_value in (None, want)
        bad += not ok
        ours_text = f"{ours:.1f} s" if value is not None else f"> {args.limit:g} s"
        ref_text = (f"{ref_time:.1f} s" if ref_time is not None
                    else f"> {args.reference_limit:g} s")
        ratio = (f"{ref_time / ours:.1f}×" if ref_time is not None
                 else f"> {args.reference_limit / ours:.1f}×")
        print(f"| {cols}×{rows} | {NAMES[want]} | {NAMES.get(value, 'not proven')}"
              f"{'' if ok else ' (MISMATCH)'} | {ours_text} | {ref_text} | {ratio} |",
              flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
