"""Grundy tables: the numpy versions against the plain mex recursion (not part of the suite).

For each piece: the fast table on the target size (best of a few runs, no
cache), the plain per-cell mex recursion on a size it finishes in a few
seconds, the fast table on that same size, and the speed-up there (like with
like). The two tables on the shared size are compared cell by cell. A second
table times the remoteness tables (Grundy table already cached).

    python tests/benchmarks/bench_grundy.py [--quick]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.grundy.tables import (  # noqa: E402
    compute_grundy_table,
    compute_remoteness_table,
    grundy_table,
    mex_table_reference,
    remoteness_reference,
)
from tests.benchmarks.figures import JSON_HELP, records  # noqa: E402

# piece, target size, target seconds (None: no target), reference size.
PLAN = [
    ("king", 4096, 1.0, 1024),
    ("rook", 4096, 1.0, 256),
    ("queen", 1024, 3.0, 256),
    ("knight", 1024, None, 1024),
]


def best_time(fn: Callable[[], np.ndarray], runs: int) -> tuple[float, np.ndarray]:
    """The fastest of ``runs`` calls, and the last result."""
    best = float("inf")
    result = np.empty(0)
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def fmt(seconds: float) -> str:
    """Seconds with sensible precision."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


@records("targets", "sizes")
def main() -> int:
    """Measure, check, print Markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="reference sizes divided by 4 (a smoke run)")
    parser.add_argument("--json", metavar="FILE", help=JSON_HELP)
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, numpy {np.__version__}, "
          f"{platform.machine()}\n")
    print("| Piece | Fast, target size | Target | Plain mex recursion | Fast, same size "
          "| Speed-up |")
    print("|---|---|---|---|---|---|")
    ok = True
    for piece, size, target, ref_size in PLAN:
        if args.quick:
            ref_size //= 4
        fast_time, _ = best_time(lambda p=piece, n=size: compute_grundy_table(p, n, n), 3)
        start = time.perf_counter()
        ref = mex_table_reference(piece, ref_size, ref_size)
        ref_time = time.perf_counter() - start
        same_time, same = best_time(
            lambda p=piece, n=ref_size: compute_grundy_table(p, n, n), 5)
        if not np.array_equal(same, ref):
            print(f"MISMATCH: {piece} {ref_size}×{ref_size}", file=sys.stderr)
            ok = False
        verdict = "—" if target is None else (
            f"≤ {target:g} s {'✓' if fast_time <= target else '✗'}")
        ok = ok and (target is None or fast_time <= target)
        print(f"| {piece} | {size}×{size}: {fmt(fast_time)} | {verdict} "
              f"| {ref_size}×{ref_size}: {fmt(ref_time)} "
              f"| {ref_size}×{ref_size}: {fmt(same_time)} | ×{ref_time / same_time:,.0f} |")
    print("\n| Piece | Remoteness 64×64 | Remoteness 1024×1024 | Plain recursion 64×64 |")
    print("|---|---|---|---|")
    for piece, *_ in PLAN:
        # Remoteness reads the cached Grundy table: warm it so only remoteness is timed.
        grundy_table(piece, 64, 64)
        grundy_table(piece, 1024, 1024)
        t64, fast = best_time(lambda p=piece: compute_remoteness_table(p, 64, 64), 3)
        t1024, _ = best_time(lambda p=piece: compute_remoteness_table(p, 1024, 1024), 1)
        start = time.perf_counter()
        ref = remoteness_reference(piece, 64, 64)
        tref = time.perf_counter() - start
        if not np.array_equal(fast, ref):
            print(f"MISMATCH: remoteness {piece} 64×64", file=sys.stderr)
            ok = False
        print(f"| {piece} | {fmt(t64)} | {fmt(t1024)} | {fmt(tref)} |")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
