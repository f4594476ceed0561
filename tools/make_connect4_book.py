"""Make Connect Four's opening book with the compiled kernel (resumable).

    python tools/make_connect4_book.py --cols 7 --rows 6 --depth 8 --wdl
    nice -n 10 python tools/make_connect4_book.py ...   # in the background: same command

Every position with ``depth`` discs that is not over (one per mirror pair) is
solved by the kernel, in depth-first order so neighbours share its table; each
answer is appended to the progress file (``tools/book-progress/connect4-<cols>x<rows>
-d<depth>[-wdl].txt``, one ``key value`` line each, flushed at once), so a run
that is stopped loses at most the position being solved: run the same command
again to go on. Once every position is solved, the shallower positions are backed
up by minimax from their children (exact: a parent's value is its best child's)
and the book is written to ``assets/books/gravity-<cols>x<rows>-k4.bin``; then run
``python tools/make_digests.py``.

``--wdl`` solves only win/draw/loss at the deepest level (far cheaper); the book
then knows distances only where the backing-up can tell them (a win at once).
``--part K/N`` solves only every N-th block (the K-th of each N) of what is left, so N
runs (one per core) can share the work; they append to the same progress file
(each line is one ``O_APPEND`` write, so their lines never mix); run the command
once more without ``--part`` to write the book when all are done.
``--limit N`` stops after N positions (for trying it out). ``--status`` prints how
far the progress file is and exits. Needs a C compiler (the kernel).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.connect4.book import (  # noqa: E402
    LOSS_UNKNOWN_DISTANCE,
    WIN_UNKNOWN_DISTANCE,
    book_path,
    mirror_key,
    write_book,
)
from games.connect4.geometry import geometry  # noqa: E402
from games.connect4.kernel import kernel_for  # noqa: E402

PROGRESS_DIR = ROOT / "tools" / "book-progress"
# Positions per block when several runs share the work (--part).
CHUNK = 256


def progress_path(cols: int, rows: int, depth: int, wdl: bool) -> Path:
    """The append-only progress file of one book."""
    return PROGRESS_DIR / f"connect4-{cols}x{rows}-d{depth}{'-wdl' if wdl else ''}.txt"


def canonical(key: int, cols: int, rows: int) -> int:
    """The smaller of a key and its mirror image's."""
    return min(key, mirror_key(key, cols, rows))


def positions(cols: int, rows: int, depth: int) -> list[dict[int, tuple[int, int]]]:
    """Per number of discs 0..depth: canonical key → (cur, mask) of every position not
    over, each dict in depth-first discovery order (centre columns first)."""
    g = geometry(cols, rows, 4)
    levels: list[dict[int, tuple[int, int]]] = [{} for _ in range(depth + 1)]

    def visit(cur: int, mask: int, n: int) -> None:
        key = canonical(cur + mask, cols, rows)
        level = levels[n]
        if key in level:
            return
        level[key] = (cur, mask)
        if n == depth or n == g.size:
            return
        possible = (mask + g.bottom) & g.board
        for c in g.order:
            bit = possible & g.col_mask[c]
            if not bit:
                continue
            mine = cur | bit
            if g.aligned(mine):
                continue  # the game is over: not a position of the book
            visit(mine ^ (mask | bit), mask | bit, n + 1)

    visit(0, 0, 0)
    return levels


def read_progress(path: Path) -> dict[int, int]:
    """The solved positions so far (a torn last line is ignored)."""
    done: dict[int, int] = {}
    if not path.exists():
        return done
    with open(path, encoding="ascii") as handle:
        for line in handle:
            if not line.endswith("\n"):
                break
            parts = line.split()
            if len(parts) == 2:
                done[int(parts[0])] = int(parts[1])
    return done


def _drop_torn_line(path: Path) -> None:
    """Cut a last line left unfinished by a killed run (the next append would join it)."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with open(path, "r+b") as handle:
            handle.truncate(data.rfind(b"\n") + 1)


def back_up(cols: int, rows: int, levels: list[dict[int, tuple[int, int]]],
            values: dict[int, int], depth: int) -> dict[int, int]:
    """Every position's value from its children's (``values``: the deepest level's)."""
    g = geometry(cols, rows, 4)
    cells = g.size
    table = {key: values[key] for key in levels[depth]}
    below = table
    for n in range(depth - 1, -1, -1):
        here: dict[int, int] = {}
        for key, (cur, mask) in levels[n].items():
            possible = (mask + g.bottom) & g.board
            children: list[int] = []
            won_now = False
            for c in range(cols):
                bit = possible & g.col_mask[c]
                if not bit:
                    continue
                if g.aligned(cur | bit):
                    won_now = True
                    break
                if n + 1 == cells:
                    children.append(0)
                else:
                    child = canonical((cur ^ mask) + (mask | bit), cols, rows)
                    children.append(-below[child])
            if won_now:
                best = (cells + 1 - n) // 2
            else:
                sign = max((v > 0) - (v < 0) for v in children)
                same = [v for v in children if (v > 0) - (v < 0) == sign]
                if sign == 0:
                    best = 0
                elif any(abs(v) == WIN_UNKNOWN_DISTANCE for v in same):
                    # A distance not worked out might be the best one: the outcome only.
                    best = WIN_UNKNOWN_DISTANCE if sign > 0 else LOSS_UNKNOWN_DISTANCE
                else:
                    best = max(same)
            here[key] = best
        table.update(here)
        below = here
    return table


def main(argv: list[str] | None = None) -> int:
    """Solve, resume, back up and write the book (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cols", type=int, default=7)
    parser.add_argument("--rows", type=int, default=6)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--wdl", action="store_true", help="win/draw/loss only at the depth")
    parser.add_argument("--table-mb", type=int, default=1024, help="kernel table memory")
    parser.add_argument("--limit", type=int, default=0, help="stop after this many positions")
    parser.add_argument("--part", default="1/1", help="K/N: solve only block K of N")
    parser.add_argument("--status", action="store_true", help="say how far it is and exit")
    parser.add_argument("--out", type=Path, default=None, help="book file (default: assets)")
    parser.add_argument("--progress", type=Path, default=None,
                        help="progress file (default: tools/book-progress/...)")
    args = parser.parse_args(argv)
    cols, rows, depth = args.cols, args.rows, args.depth
    progress = args.progress or progress_path(cols, rows, depth, args.wdl)
    levels = positions(cols, rows, depth)
    leaves = levels[depth]
    done = read_progress(progress)
    todo = [key for key in leaves if key not in done]
    print(f"{cols}x{rows} depth {depth}: {len(leaves)} positions to solve, {len(done)} done, "
          f"{len(todo)} left ({progress})", flush=True)
    if args.status:
        return 0
    try:
        part, parts = (int(x) for x in args.part.split("/"))
        if not 1 <= part <= parts:
            raise ValueError
    except ValueError:
        parser.error(f"--part wants K/N with 1 <= K <= N, not {args.part!r}")
    # Blocks of CHUNK positions dealt out in turn: each run gets neighbours (which share
    # the table) and a fair share of the harder stretches.
    todo = [key for i, key in enumerate(todo) if (i // CHUNK) % parts == part - 1]
    if todo:
        kernel = kernel_for(cols, rows, 4, args.table_mb << 20)
        if kernel is None:
            print("no compiled kernel for this board (is there a C compiler?)", file=sys.stderr)
            return 1
        progress.parent.mkdir(parents=True, exist_ok=True)
        _drop_torn_line(progress)
        start = time.monotonic()
        last_sync = start
        with open(progress, "a", encoding="ascii") as handle:
            for i, key in enumerate(todo):
                if args.limit and i >= args.limit:
                    break
                cur, mask = leaves[key]
                if args.wdl:
                    value = kernel.solve(cur, mask, depth, -1, 1)
                    value = {1: WIN_UNKNOWN_DISTANCE, -1: LOSS_UNKNOWN_DISTANCE}.get(value, 0)
                else:
                    value = kernel.solve(cur, mask, depth)
                handle.write(f"{key} {value}\n")
                handle.flush()
                now = time.monotonic()
                if now - last_sync > 30:
                    os.fsync(handle.fileno())
                    last_sync = now
                    rate = (i + 1) / (now - start)
                    print(f"{len(done) + i + 1}/{len(leaves)} solved, {rate:.2f}/s, "
                          f"about {(len(todo) - i - 1) / rate / 3600:.1f} h left", flush=True)
            os.fsync(handle.fileno())
        done = read_progress(progress)
    if any(key not in done for key in leaves):
        print("not finished: run the same command again to go on", flush=True)
        return 0
    table = back_up(cols, rows, levels, done, depth)
    out = args.out or book_path(cols, rows)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_book(out, cols, rows, depth, table)
    print(f"wrote {out} ({len(table)} positions); now run python tools/make_digests.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
