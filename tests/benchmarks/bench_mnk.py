"""Search benchmarks for m,n,k tic-tac-toe (not part of the test suite).

Prints a Markdown table: our time, a reference method's time measured in the
same run, and the ratio.

* Proving the empty-board results with :func:`games.tictactoe.perfect.solve_mnk`
  (the generic negamax on MNKSearchState), against a plain memoised negamax
  (no pruning, no symmetry, a dict memo on the board's bitboards). Our rows
  are also run with the Erdős–Selfridge bound and potential ordering turned
  off, to show what that idea is worth on its own.
* The Hard player's time per move on 15×15 with five in a row over a whole
  computer-versus-computer game (target: p95 at most 300 ms).

    python tests/benchmarks/bench_mnk.py            # everything (a few minutes)
    python tests/benchmarks/bench_mnk.py --quick    # skip the slow rows
    python tests/benchmarks/bench_mnk.py --tune     # also sweep canonical_marks
"""

from __future__ import annotations

import argparse
import math
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.ai.negamax import Negamax  # noqa: E402
from games.tictactoe.bitboard import layout  # noqa: E402
from games.tictactoe.hard_search import HardSearchAgent  # noqa: E402
from games.tictactoe.rules import MNKConfig, TicTacToeState  # noqa: E402
from games.tictactoe.search_state import MNKSearchState, geometry  # noqa: E402
from tests.benchmarks.figures import percentile  # noqa: E402

EXPECTED = {(3, 3, 3): 0, (4, 4, 4): 0, (5, 4, 4): 0, (5, 5, 4): 0}


def plain_memo_solve(rows: int, cols: int, k: int) -> tuple[int, int]:
    """The reference: negamax over every move, memoised on (mover's bits, other's bits).

    Returns (value for the first player, positions memoised).
    """
    lay = layout(rows, cols, k)
    full, through, n = lay.full, lay.lines_through, rows * cols
    memo: dict[tuple[int, int], int] = {}

    def value(me: int, opp: int) -> int:
        key = (me, opp)
        known = memo.get(key)
        if known is not None:
            return known
        free = full & ~(me | opp)
        best = 0 if not free else -2
        for c in range(n):
            if free >> c & 1:
                mine = me | 1 << c
                v = 1 if any(mine & m == m for m in through[c]) else -value(opp, mine)
                if v > best:
                    best = v
        memo[key] = best
        return best

    return value(0, 0), len(memo)


def ours(rows: int, cols: int, k: int, potential: bool = True,
         canonical_marks: int | None = None) -> tuple[int, int]:
    """Our sign-only proof from the empty board: (value, nodes)."""
    kwargs = {} if canonical_marks is None else {"canonical_marks": canonical_marks}
    state = MNKSearchState.new(rows, cols, k, potential=potential, **kwargs)
    negamax = Negamax(remoteness=False)
    return negamax.solve(state).outcome, negamax.nodes


def timed(fn: Callable[[], tuple[int, int]], repeat: int = 1) -> tuple[float, int, int]:
    """Best wall time of ``repeat`` cold runs (table caches cleared), value and count."""
    best = math.inf
    result = (0, 0)
    for _ in range(repeat):
        layout.cache_clear()
        geometry.cache_clear()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result[0], result[1]


def fmt_time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def hard_game(budget: float = 0.25) -> tuple[list[float], int | None, int]:
    """Hard against Hard on 15×15, k = 5: each move's time, the winner, the moves."""
    cancel = threading.Event()
    agents = (HardSearchAgent(budget, seed=1), HardSearchAgent(budget, seed=2))
    state = TicTacToeState.new(MNKConfig(15, 15, 5))
    times = []
    while not state.is_terminal():
        start = time.perf_counter()
        move = agents[state.to_move].choose_move(state, cancel)
        times.append(time.perf_counter() - start)
        state = state.play(move)
    return times, state.winner, len(times)


def main() -> int:
    """Run the benchmarks and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="skip the slow rows (plain 4×4 reference, 5×5 without the bound)")
    parser.add_argument("--tune", action="store_true",
                        help="also sweep canonical_marks on 5×4 and 5×5 (k = 4)")
    args = parser.parse_args()

    print(f"Python {sys.version.split()[0]}; times are the best of several cold runs "
          "for rows under a second.\n")
    print("| benchmark | ours | reference (same run) | ratio |")
    print("| --- | --- | --- | --- |")

    def row(label: str, mine: str, ref: str, ratio: str) -> None:
        print(f"| {label} | {mine} | {ref} | {ratio} |", flush=True)

    # 3×3 and 4×4: ours against the plain memoised negamax.
    for shape in ((3, 3, 3), (4, 4, 4)):
        t_ours, v, nodes = timed(lambda s=shape: ours(*s), repeat=5)
        t_off, v_off, nodes_off = timed(lambda s=shape: ours(*s, potential=False), repeat=3)
        assert v == v_off == EXPECTED[shape]
        name = "×".join(map(str, shape[:2])) + f", k={shape[2]}"
        if shape == (4, 4, 4) and args.quick:
            ref, ratio, ratio_off = "skipped (--quick; ~80 s, 9.07 M positions)", "", ""
        else:
            t_ref, v_ref, positions = timed(lambda s=shape: plain_memo_solve(*s),
                                            repeat=3 if shape == (3, 3, 3) else 1)
            assert v_ref == v
            ref = f"{fmt_time(t_ref)} ({positions:,} positions)"
            ratio, ratio_off = f"{t_ref / t_ours:,.0f}×", f"{t_ref / t_off:,.0f}×"
        row(f"prove {name} a draw", f"{fmt_time(t_ours)} ({nodes:,} nodes)", ref, ratio)
        row(f"prove {name}, Erdős–Selfridge off", f"{fmt_time(t_off)} ({nodes_off:,} nodes)",
            ref if shape == (3, 3, 3) else "(same)", ratio_off)

    # 5×4 and 5×5: the plain method cannot finish. 4×4 already memoises 9.07 M
    # positions (~1.2 GB in a Python dict, ~80 s); every extra cell multiplies
    # the boards by up to 3, so 5×4 would need ~81× that and 5×5 ~20,000×.
    for shape in ((5, 4, 4), (5, 5, 4)):
        name = "×".join(map(str, shape[:2])) + f", k={shape[2]}"
        t_ours, v, nodes = timed(lambda s=shape: ours(*s), repeat=3)
        assert v == EXPECTED[shape]
        na = "n/a: plain memo cannot finish (4×4 needs 9 M positions, 1.2 GB)"
        row(f"prove {name} a draw", f"{fmt_time(t_ours)} ({nodes:,} nodes)", na, "")
        if shape == (5, 5, 4) and args.quick:
            row(f"prove {name}, Erdős–Selfridge off", "skipped (--quick; ~80 s)", na, "")
        else:
            t_off, v_off, nodes_off = timed(lambda s=shape: ours(*s, potential=False))
            assert v_off == v
            row(f"prove {name}, Erdős–Selfridge off",
                f"{fmt_time(t_off)} ({nodes_off:,} nodes)", na, "")

    times, winner, moves = hard_game()
    ms = [t * 1000 for t in times]
    who = {0: "X won", 1: "O won", None: "draw"}[winner]
    row(f"Hard move, 15×15 k=5, p50 / p95 / max over a {moves}-move game ({who})",
        f"{percentile(ms, 0.5):.0f} / {percentile(ms, 0.95):.0f} / {max(ms):.0f} ms",
        "target: p95 ≤ 300 ms (budget 250 ms)",
        f"p95 at {percentile(ms, 0.95) / 300:.0%} of target")

    if args.tune:
        print("\ncanonical_marks sweep (symmetric keys while at most this many marks):\n")
        print("| canonical_marks | 5×4 k4 | 5×5 k4 |")
        print("| --- | --- | --- |")
        for marks in (0, 4, 6, 8, 10, 12, 16, 25):
            cells = []
            for shape in ((5, 4, 4), (5, 5, 4)):
                t, _, nodes = timed(lambda s=shape, m=marks: ours(*s, canonical_marks=m), 3)
                cells.append(f"{fmt_time(t)} ({nodes:,} nodes)")
            print(f"| {marks} | {cells[0]} | {cells[1]} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
