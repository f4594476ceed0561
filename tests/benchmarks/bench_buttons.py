"""Button Madness solver against the source's BFS and a dense elimination (not in the suite).

* 4×4: one solve against the source document's method (build the graph of all
  2^16 boards, breadth-first search to 65535), both timed here, same boards;
* 32×32: one solve against a straightforward dense GF(2) Gauss-Jordan
  elimination of the 1,024 × 1,024 press system (numpy uint8 rows, written
  plainly below), same board, same answer checked;
* 256×256 and 1000×1000: absolute times on random solvable boards, and nullity(1000).
* Fewest presses (issue 14): the search of games.buttons.fewest against brute force
  over the whole null space (all 2^d solutions XORed as bit-packed words and counted,
  independent of the search: kernel from a plain dense elimination), same boards, same
  run; every menu size's worst case; and the bounds reached beyond (30×30 and up).
  The 2^32 brute force of a 20×20 board takes ~3 minutes: ``--brute20 K`` sets how many
  boards get it (default 1; 0 skips it).

"Cold" times start with empty caches (the per-n system is reduced inside the
timed call); "warm" times reuse it, as a second board of the same size does.

    python tests/benchmarks/bench_buttons.py [--brute20 K] [--only-fewest]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.buttons.board import Board, generate, press_effect, press_mask  # noqa: E402
from games.buttons.board import presses_to_bits as to_bits  # noqa: E402
from games.buttons.search_limits import DEFAULT_TIME_LIMIT  # noqa: E402
from games.buttons.solver import (  # noqa: E402
    _system,
    bfs_solve_4x4,
    clear_cache,
    nullity,
    solve,
)
from tests.benchmarks.figures import JSON_HELP, records  # noqa: E402
from tests.support.oracles import dense_solve as dense_kernel  # noqa: E402

T = TypeVar("T")


def timed(fn: Callable[[], T], runs: int, cold: bool = False) -> tuple[float, T]:
    """The fastest of ``runs`` calls (caches cleared before each if ``cold``), and a result."""
    best = float("inf")
    result = None
    for _ in range(runs):
        if cold:
            clear_cache()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result  # type: ignore[return-value]


def fmt(seconds: float) -> str:
    """Seconds with sensible precision."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def dense_solve(board: Board) -> list[tuple[int, int]] | None:
    """Plain Gauss-Jordan over the n²×n² press matrix with an augmented column.

    Row k: press j flips cell k (the matrix is symmetric, so row k is k's own
    press mask); the last column is 1 where the cell is green. One uint8 per
    entry; each pivot row is XORed into every other row holding the pivot bit.
    """
    n = board.n
    size = n * n
    a = np.zeros((size, size + 1), dtype=np.uint8)
    nbytes = (size + 7) // 8
    for k in range(size):
        mask = press_mask(n, k // n, k % n).to_bytes(nbytes, "little")
        a[k, :size] = np.unpackbits(np.frombuffer(mask, np.uint8), count=size, bitorder="little")
        a[k, size] = board.green_bits >> k & 1
    pivots = []
    rank = 0
    for col in range(size):
        candidates = np.flatnonzero(a[rank:, col])
        if candidates.size == 0:
            continue
        p = rank + candidates[0]
        a[[rank, p]] = a[[p, rank]]
        hits = a[:, col].astype(bool)
        hits[rank] = False
        a[hits] ^= a[rank]
        pivots.append(col)
        rank += 1
    if a[rank:, size].any():
        return None
    return sorted(divmod(col, n) for r, col in enumerate(pivots) if a[r, size])


def brute_minimum(n: int, solution: int, kernel: list[int]) -> int:
    """The fewest presses among solution ⊕ span(kernel): every one weighed (bit-packed
    XOR and np.bitwise_count, half the basis as a table, the other half walked)."""
    words = (n * n + 63) // 64

    def packed(bits: int) -> np.ndarray:
        return np.frombuffer(bits.to_bytes(words * 8, "little"), dtype=np.uint64)

    def span(vectors: list[int], base: int) -> np.ndarray:
        table = packed(base)[None, :]
        for v in vectors:
            table = np.concatenate((table, table ^ packed(v)[None, :]))
        return table

    half = len(kernel) // 2
    low, high = span(kernel[half:], solution), span(kernel[:half], 0)
    return min(int(np.bitwise_count(low ^ h[None, :]).sum(axis=1).min()) for h in high)


def fewest_table(brute20: int) -> bool:
    """The fewest-presses tables; False if any answer is wrong or a target missed."""
    ok = True
    rng = random.Random(14)

    print("\n**Fewest presses, proven, against brute force over the null space** "
          "(same boards, same run; ours: solve(), system warm)\n")
    print("| Board | Nullity | Boards | Ours: proven, median / max | Brute force, median "
          "| Same minimum | Speed-up |")
    print("|---|---|---|---|---|---|---|")
    for n, boards in ((30, 5), (20, brute20), (10, 5), (12, 5)):
        if boards == 0:
            continue
        _system(n)
        _, kernel = dense_kernel(n, 0)
        ours, brute, same, proven = [], [], True, True
        for _ in range(boards):
            board = generate(n, rng)[0]
            t, solution = timed(lambda b=board: solve(b), 1)
            presses = to_bits(n, solution.presses)
            ok_solution = press_effect(n, presses) == board.green_bits
            tb, fewest = timed(lambda p=presses, n=n, k=kernel: brute_minimum(n, p, k), 1)
            ours.append(t)
            brute.append(tb)
            same = same and ok_solution and fewest == len(solution.presses)
            proven = proven and solution.minimal
        ok = ok and same and proven
        mo, mb = float(np.median(ours)), float(np.median(brute))
        print(f"| {n}×{n} | {len(kernel)} | {boards} | {'all' if proven else 'NOT all'}, "
              f"{fmt(mo)} / {fmt(max(ours))} | 2^{len(kernel)} weighed: {fmt(mb)} "
              f"| {'✓' if same else '✗ MISMATCH'} | ×{mb / mo:,.0f} |")

    print(f"\n**Every size of the size menu** (target: proven within {DEFAULT_TIME_LIMIT:g} s; "
          "10 generated boards a size)\n")
    print("| Size | Nullity | Proven | Median | p95 | Max |")
    print("|---|---|---|---|---|---|")
    for n in range(2, 21):
        if nullity(n) == 0:
            continue
        _system(n)
        times, proven = [], True
        for _ in range(10):
            board = generate(n, rng)[0]
            t, solution = timed(lambda b=board: solve(b), 1)
            times.append(t)
            proven = proven and solution.minimal
        worst = max(times)
        hit = proven and worst < DEFAULT_TIME_LIMIT
        ok = ok and hit
        print(f"| {n}×{n} | {nullity(n)} | {'all ✓' if hit else '✗'} | "
              f"{fmt(float(np.median(times)))} | {fmt(float(np.percentile(times, 95)))} "
              f"| {fmt(worst)} |")

    print(f"\n**Beyond the menu** (default {DEFAULT_TIME_LIMIT:g} s limit; 3 generated boards "
          "a size; system warm)\n")
    print("| Board | Nullity | Result | Presses found | Proven lower bound | Gap | Time |")
    print("|---|---|---|---|---|---|---|")
    for n in (24, 30, 31, 34, 40, 60, 100, 500, 1000):
        _system(n)
        for _ in range(3):
            board = generate(n, rng)[0]
            t, solution = timed(lambda b=board: solve(b), 1)
            count, lower = len(solution.presses), solution.lower_bound or 0
            right = press_effect(n, to_bits(n, solution.presses)) == board.green_bits
            ok = ok and right and lower <= count
            result = "proven" if solution.minimal else "bounded"
            gap = "—" if solution.minimal else f"{(count - lower) / count:.1%}"
            print(f"| {n}×{n} | {nullity(n)} | {result} | {count:,} | {lower:,} | {gap} "
                  f"| {fmt(t)} |")
    return ok


@records()
def main() -> int:
    """Measure, check, print Markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--brute20", type=int, default=1, metavar="K",
                        help="20×20 boards given the ~3 min brute force (default 1)")
    parser.add_argument("--only-fewest", action="store_true",
                        help="only the fewest-presses tables")
    parser.add_argument("--json", metavar="FILE", help=JSON_HELP)
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}\n")
    if args.only_fewest:
        return 0 if fewest_table(args.brute20) else 1
    ok = True
    rng = random.Random(2024)

    # 4×4: ours vs the source's BFS (graph construction included), same boards.
    boards = [Board(4, rng.randrange(1 << 16)) for _ in range(5)]
    bfs_time = min(timed(lambda b=b: bfs_solve_4x4(b), 1)[0] for b in boards)
    cold4 = min(timed(lambda b=b: solve(b), 3, cold=True)[0] for b in boards)
    warm4 = min(timed(lambda b=b: solve(b), 50)[0] for b in boards)
    for b in boards:
        if sorted(bfs_solve_4x4(b)) != list(solve(b).presses):
            print(f"MISMATCH 4×4 {b.bits}", file=sys.stderr)
            ok = False

    # 32×32: ours vs plain dense elimination, same board.
    board32 = generate(32, rng)[0]
    dense_time, dense = timed(lambda: dense_solve(board32), 1)
    cold32, ours32 = timed(lambda: solve(board32), 3, cold=True)
    warm32, _ = timed(lambda: solve(board32), 20)
    if dense != list(ours32.presses):
        print("MISMATCH 32×32: dense elimination and solver differ", file=sys.stderr)
        ok = False

    # Big boards: absolute times.
    board256 = Board(256, rng.getrandbits(256 * 256))  # 256 is good: every board solvable
    cold256, s256 = timed(lambda: solve(board256), 2, cold=True)
    warm256, _ = timed(lambda: solve(board256), 3)
    board1000 = generate(1000, rng)[0]  # 1000 is bad (nullity 64): generated, so solvable
    cold1000, s1000 = timed(lambda: solve(board1000), 2, cold=True)
    warm1000, _ = timed(lambda: solve(board1000), 2)
    null_time, d1000 = timed(lambda: nullity(1000), 2, cold=True)
    for b, s in ((board256, s256), (board1000, s1000)):
        if s.presses is None or not b.apply(s.presses).is_solved:
            print(f"WRONG {b.n}×{b.n} solution", file=sys.stderr)
            ok = False
    target = cold1000 < 3.0
    ok = ok and target

    print("| Board | Ours, cold | Ours, warm | Reference | Speed-up (cold / warm) |")
    print("|---|---|---|---|---|")
    print(f"| 4×4 | {fmt(cold4)} | {fmt(warm4)} | source's BFS, graph included: {fmt(bfs_time)} "
          f"| ×{bfs_time / cold4:,.0f} / ×{bfs_time / warm4:,.0f} |")
    print(f"| 32×32 | {fmt(cold32)} | {fmt(warm32)} "
          f"| dense 1,024 × 1,024 elimination: {fmt(dense_time)} "
          f"| ×{dense_time / cold32:,.0f} / ×{dense_time / warm32:,.0f} |")
    print(f"| 256×256 ({s256.method}) | {fmt(cold256)} | {fmt(warm256)} | — | — |")
    print(f"| 1000×1000 ({len(s1000.presses):,} presses, at least {s1000.lower_bound:,}) "
          f"| {fmt(cold1000)} {'✓' if target else '✗'} < 3 s | {fmt(warm1000)} | — | — |")
    print(f"| nullity(1000) = {d1000} | {fmt(null_time)} | — | — | — |")
    ok = fewest_table(args.brute20) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
