"""Button Madness solver against the source's BFS and a dense elimination (not in the suite).

* 4×4: one solve against the source document's method (build the graph of all
  2^16 boards, breadth-first search to 65535), both timed here, same boards;
* 32×32: one solve against a straightforward dense GF(2) Gauss-Jordan
  elimination of the 1,024 × 1,024 press system (numpy uint8 rows, written
  plainly below), same board, same answer checked;
* 256×256 and 1000×1000: absolute times on random solvable boards, and nullity(1000).

"Cold" times start with empty caches (the per-n system is reduced inside the
timed call); "warm" times reuse it, as a second board of the same size does.

    python tests/benchmarks/bench_buttons.py
"""

from __future__ import annotations

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

from games.buttons.board import Board, generate, press_mask  # noqa: E402
from games.buttons.solver import (  # noqa: E402
    bfs_solve_4x4,
    clear_cache,
    nullity,
    solve,
)

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


def main() -> int:
    """Measure, check, print a Markdown table."""
    print(f"Python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}\n")
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
    print(f"| 1000×1000 ({len(s1000.presses):,} presses; {s1000.method.split(' (')[0]}) "
          f"| {fmt(cold1000)} {'✓' if target else '✗'} < 3 s | {fmt(warm1000)} | — | — |")
    print(f"| nullity(1000) = {d1000} | {fmt(null_time)} | — | — | — |")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
