"""Connect Four solver benchmark (not part of the test suite).

Prints Markdown tables comparing :func:`games.connect4.solver.solve_position`
(the generic negamax on the bitboard :class:`~games.connect4.solver.C4Search`:
threat pruning, Pons's move ordering, mirror-canonical transposition table)
with a reference written here: a plain negamax with alpha-beta on a
list-of-lists board, columns tried left to right, no transposition table, no
other pruning. Both prove the win / draw / loss value of the same positions
(sign only) in the same run; the table gives each one's time and node count,
and the ratio. The reference gives up at a cap ("> cap").

* Empty small boards.
* 7×6 positions from one fixed opening (seeded; both sides play a 4-ply
  search with a random choice among near-best moves; the first such game
  still drawn with best play after 30 moves), cut at decreasing disc counts.
* How few discs our solver needs on 7×6 to prove the value within 2 s (the
  hint budget), on a few such openings.
* Per number of discs (30, 28, …, 16 and below), a sample of random
  reachable 7×6 positions (random play that takes no immediate win and hands
  none over, so the game is still on): the null-window score search
  (:mod:`games.connect4.score_search`, the one behind hints and Perfect)
  proving the win / draw / loss value, p50 / p95 / max, beside plain
  alpha-beta on the first few of them in the same run; then the full hint,
  every column's exact value with its remoteness, p50 / p95 / max against the
  2 s budget.

    python tests/benchmarks/bench_connect4.py            # everything (several minutes)
    python tests/benchmarks/bench_connect4.py --quick    # fewer rows, lower caps
    python tests/benchmarks/bench_connect4.py --per-disc # only the table per disc count
    python tests/benchmarks/bench_connect4.py --kernel --json FILE  # the compiled kernel
    python tests/benchmarks/bench_connect4.py --kernel --hints --json FILE  # its hint table only

``--kernel`` measures the compiled kernel (games/connect4/c4kernel.c) instead, four
tables: positions per second against the pure-Python score search on the same
positions in the same run, with the ratio; the empty boards (7×6 by the opening book
where one is shipped, and by the kernel alone up to a cap); and the hint as the game
asks for it (``move_values``, book + kernel, 2 s budget) p50 / p95 / max over 20 random
7×6 positions at each disc count from 0 to 30, with how many came out exact, and over all
of them at once (the hints a player asks for); and the
kernel alone solving 7×6 positions of 4 to 12 discs weakly and strongly. Its tables
(kernel_speed, empty_board, kernel_hints, solve_times) go into
docs/results/bench_connect4.json beside the others.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.ai.negamax import Negamax, SearchTimeout  # noqa: E402
from games.connect4.rules import Connect4Config, Connect4State  # noqa: E402
from games.connect4.score_search import ScoreSearch, column_scores  # noqa: E402
from games.connect4.solver import EXACT_SHARE, C4Search  # noqa: E402
from tests.benchmarks.figures import JSON_HELP, records  # noqa: E402

RESULT = {1: "win", 0: "draw", -1: "loss"}
HINT_BUDGET = 2.0


# --- the reference ---------------------------------------------------------------------------


class ReferenceTimeout(Exception):
    """The reference ran past its cap."""


class PlainAlphaBeta:
    """Negamax with alpha-beta over a list-of-lists board (``grid[col]`` bottom up).

    Columns left to right, no table, no ordering, no threat detection: the
    textbook search, for comparison.
    """

    def __init__(self, cols: int, rows: int, k: int, cap: float) -> None:
        self.cols, self.rows, self.k = cols, rows, k
        self.deadline = time.monotonic() + cap
        self.nodes = 0

    def completes(self, grid: list[list[int]], col: int, player: int) -> bool:
        height = len(grid[col]) - 1
        for dc, dh in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                c, h = col + sign * dc, height + sign * dh
                while 0 <= c < self.cols and 0 <= h < len(grid[c]) and grid[c][h] == player:
                    run += 1
                    c, h = c + sign * dc, h + sign * dh
            if run >= self.k:
                return True
        return False

    def value(self, grid: list[list[int]], player: int, empty: int, alpha: int = -1,
              beta: int = 1) -> int:
        """+1 / 0 / -1 for ``player`` to move (fail-hard within (alpha, beta))."""
        self.nodes += 1
        if not self.nodes & 1023 and time.monotonic() > self.deadline:
            raise ReferenceTimeout
        best = -2
        for col in range(self.cols):
            if len(grid[col]) == self.rows:
                continue
            grid[col].append(player)
            if self.completes(grid, col, player):
                v = 1
            elif empty == 1:
                v = 0
            else:
                v = -self.value(grid, 1 - player, empty - 1, -beta, -alpha)
            grid[col].pop()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best


def reference_solve(state: Connect4State, cap: float) -> tuple[int | None, float, int]:
    """(value for the mover or None past the cap, seconds, nodes)."""
    cfg = state.config
    search = PlainAlphaBeta(cfg.cols, cfg.rows, cfg.k, cap)
    grid = [list(column) for column in state.columns]
    start = time.monotonic()
    try:
        value = search.value(grid, state.current_player(), cfg.cells - len(state.moves))
    except ReferenceTimeout:
        return None, time.monotonic() - start, search.nodes
    return value, time.monotonic() - start, search.nodes


def our_solve(state: Connect4State, cap: float) -> tuple[int | None, float, int]:
    """(value for the mover or None past the cap, seconds, nodes) by our solver."""
    negamax = Negamax(remoteness=False, time_limit=cap, max_entries=1_000_000)
    start = time.monotonic()
    try:
        value = negamax.solve(C4Search.from_rules(state)).outcome
    except SearchTimeout:
        return None, time.monotonic() - start, negamax.nodes
    return value, time.monotonic() - start, negamax.nodes


# --- positions ------------------------------------------------------------------------------


def opening(plies: int, seed: int) -> tuple[Connect4State, int]:
    """A 7×6 game of ``plies`` moves where both sides play a 4-ply search and pick at
    random among moves within a small margin of the best: the first seed from ``seed`` on
    whose game is still undecided at the end, that is a draw with best play (neither side
    has a forced win yet; most such games are decided long before 30 discs). Returns the
    game and its seed."""
    cfg = Connect4Config()
    while True:
        rng = random.Random(seed)
        state = Connect4State.new(cfg)
        while len(state.moves) < plies and not state.is_terminal():
            scores = Negamax(remoteness=True).move_scores(C4Search.from_rules(state), depth=4)
            best = max(scores.values())
            state = state.play(rng.choice(sorted(m for m, s in scores.items() if s >= best - 12)))
        if not state.is_terminal() and our_solve(state, 10.0)[0] == 0:
            return state, seed
        seed += 1


def fmt_time(seconds: float, done: bool, cap: float) -> str:
    return f"{seconds:.3f} s" if done else f"> {cap:g} s"


# --- tables ---------------------------------------------------------------------------------


def compare(rows: list[tuple[str, Connect4State]], ours_cap: float, ref_cap: float) -> None:
    print("| position | result (mover) | ours | nodes | plain alpha-beta | nodes | ratio |")
    print("|---|---|---|---|---|---|---|")
    for label, state in rows:
        ours, t_ours, n_ours = our_solve(state, ours_cap)
        ref, t_ref, n_ref = reference_solve(state, ref_cap)
        if ours is not None and ref is not None and ours != ref:
            raise SystemExit(f"MISMATCH on {label}: ours {ours}, reference {ref}")
        value = ours if ours is not None else ref
        result = RESULT[value] if value is not None else "?"
        if ours is not None and ref is not None:
            ratio = f"{t_ref / max(t_ours, 1e-6):.0f}×"
        elif ours is not None:
            ratio = f"> {ref_cap / max(t_ours, 1e-6):.0f}×"
        else:
            ratio = "?"
        print(f"| {label} | {result} | {fmt_time(t_ours, ours is not None, ours_cap)} "
              f"| {n_ours:,} | {fmt_time(t_ref, ref is not None, ref_cap)} | {n_ref:,} "
              f"| {ratio} |", flush=True)


def sweep(openings: int, start: int, stop: int, cap: float) -> None:
    """Our time on 7×6 at decreasing disc counts, per opening, until past the hint budget."""
    print(f"| opening (first {start} moves) | discs | result (mover) | ours | nodes |")
    print("|---|---|---|---|---|")
    lowest: list[int] = []
    seed = 1
    for _ in range(openings):
        game, seed = opening(start, seed)
        seed += 1
        moves = "".join(str(m + 1) for m in game.moves)
        best = None
        for discs in range(start, stop - 1, -2):
            state = Connect4State.from_moves(game.config, game.moves[:discs])
            value, seconds, nodes = our_solve(state, cap)
            shown = RESULT[value] if value is not None else "?"
            print(f"| {moves} | {discs} | {shown} | {fmt_time(seconds, value is not None, cap)} "
                  f"| {nodes:,} |", flush=True)
            if value is None or seconds > HINT_BUDGET:
                break
            best = discs
        lowest.append(best if best is not None else start)
    print()
    print(f"Fewest discs proven within {HINT_BUDGET:g} s, per opening: "
          f"{', '.join(str(d) for d in lowest)}")


def sensible_position(discs: int, rng: random.Random) -> Connect4State | None:
    """A 7×6 game of ``discs`` random moves that neither win at once nor let the opponent
    win at once (where some move avoids both), or None if it ended first."""
    state = Connect4State.new(Connect4Config())
    while len(state.moves) < discs:
        quiet = [c for c in state.legal_moves()
                 if not (after := state.play(c)).is_terminal()
                 and not any(after.play(r).winner is not None for r in after.legal_moves())]
        state = state.play(rng.choice(quiet or state.legal_moves()))
        if state.is_terminal():
            return None
    return state


def sample(discs: int, count: int, seed: int) -> list[Connect4State]:
    """``count`` such positions with ``discs`` discs (seeded)."""
    rng = random.Random(seed * 1000 + discs)
    out: list[Connect4State] = []
    while len(out) < count:
        state = sensible_position(discs, rng)
        if state is not None:
            out.append(state)
    return out


def score_sign(state: Connect4State, cap: float) -> tuple[int | None, float, int]:
    """(win / draw / loss for the mover or None past the cap, seconds, nodes): the score
    search with its range cut to [-1, 1]."""
    search = C4Search.from_rules(state)
    scorer = ScoreSearch(search.g, deadline=time.monotonic() + cap)
    start = time.monotonic()
    try:
        value = scorer.solve(search.cur, search.mask, search.n, -1, 1)
    except SearchTimeout:
        return None, time.monotonic() - start, scorer.nodes
    return value, time.monotonic() - start, scorer.nodes


def full_hint(state: Connect4State, cap: float) -> tuple[float | None, int]:
    """(seconds or None past the cap, nodes) to prove every column with its remoteness."""
    search = C4Search.from_rules(state)
    scorer = ScoreSearch(search.g, deadline=time.monotonic() + cap)
    start = time.monotonic()
    try:
        column_scores(scorer, search.cur, search.mask, search.n)
    except SearchTimeout:
        return None, scorer.nodes
    return time.monotonic() - start, scorer.nodes


def pct(times: list[float | None], q: float, cap: float) -> str:
    """The q-quantile (nearest rank) of ``times``; None (past the cap) sorts last."""
    ordered = sorted(times, key=lambda t: float("inf") if t is None else t)
    t = ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]
    return f"> {cap:g} s" if t is None else f"{t:.2f} s"


def per_disc_table(counts: list[int], per_count: int, with_reference: int, ref_cap: float,
                   cap: float) -> None:
    """The value (sign) and the full hint per disc count, ours beside plain alpha-beta."""
    print(f"| discs | positions | value: ours p50 / p95 / max | plain alpha-beta on the first "
          f"{with_reference} (same run) | ours on those | ratio | full hint p50 / p95 / max "
          f"| hints within {HINT_BUDGET:g} s |")
    print("|---|---|---|---|---|---|---|---|")
    for discs in counts:
        states = sample(discs, per_count, seed=7)
        signs: list[float | None] = []
        hints: list[float | None] = []
        ref_total = ours_total = 0.0
        ref_done = True
        for i, state in enumerate(states):
            value, t_ours, _ = score_sign(state, cap)
            signs.append(t_ours if value is not None else None)
            if i < with_reference:
                ref, t_ref, _ = reference_solve(state, ref_cap)
                if ref is not None and value is not None and ref != value:
                    raise SystemExit(f"MISMATCH at {discs} discs: ours {value}, reference {ref}")
                ref_done = ref_done and ref is not None
                ref_total += t_ref
                ours_total += t_ours
            seconds, _ = full_hint(state, cap)
            hints.append(seconds)
        within = sum(1 for t in hints if t is not None and t <= HINT_BUDGET * EXACT_SHARE)
        ref_text = (f"{ref_total:.2f} s" if ref_done
                    else f"> {ref_total:.0f} s (cap {ref_cap:g} s each)")
        ratio = f"{'> ' if not ref_done else ''}{ref_total / max(ours_total, 1e-6):,.0f}×"
        print(f"| {discs} | {len(states)} | {pct(signs, 0.5, cap)} / {pct(signs, 0.95, cap)} / "
              f"{pct(signs, 1.0, cap)} | {ref_text} | {ours_total:.3f} s | {ratio} "
              f"| {pct(hints, 0.5, cap)} / {pct(hints, 0.95, cap)} / {pct(hints, 1.0, cap)} "
              f"| {within}/{len(hints)} |", flush=True)
    print(f"\nA hint is exact when every column is proven within {EXACT_SHARE:g} of the "
          f"{HINT_BUDGET:g} s budget (the rest is kept for estimates).")


# --- the compiled kernel (--kernel) -------------------------------------------------------


def kernel_speed(per_count: int) -> None:
    """Positions per second: the pure-Python score search and the kernel, same positions."""
    from games.connect4.kernel import kernel_for

    print("## Positions per second: compiled kernel against the pure-Python score search\n")
    print("| positions | pure Python: nodes/s | kernel: nodes/s | ratio | pure Python: time "
          "| kernel: time |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, cols, rows, counts in (("7×6, 16-20 discs", 7, 6, (20, 18, 16)),
                                      ("6×5, 6-10 discs", 6, 5, (10, 8, 6))):
        rng = random.Random(7)
        states = []
        for discs in counts:
            while sum(1 for s in states if s.n == discs) < per_count:
                s = C4Search.new(cols, rows)
                for _ in range(discs):
                    if s.is_terminal():
                        break
                    s = s.play(rng.choice(s.legal_moves()))
                if not s.is_terminal() and s.forced_outcome() is None:
                    states.append(s)
        scorer = ScoreSearch(states[0].g, 1_000_003)
        kernel = kernel_for(cols, rows)
        assert kernel is not None, "no kernel: is there a C compiler?"
        py_time = k_time = 0.0
        for s in states:
            scorer.clear()
            kernel.clear()
            start = time.perf_counter()
            a = scorer.solve(s.cur, s.mask, s.n)
            py_time += time.perf_counter() - start
            start = time.perf_counter()
            b = kernel.solve(s.cur, s.mask, s.n)
            k_time += time.perf_counter() - start
            assert a == b, s
        py_rate = scorer.nodes / py_time
        k_rate = kernel.nodes / k_time
        print(f"| {label} ({len(states)}) | {py_rate:,.0f} | {k_rate:,.0f} | "
              f"{k_rate / py_rate:.0f}× | {py_time:.2f} s | {k_time:.3f} s |", flush=True)


def empty_boards(cap: float) -> None:
    """The empty boards: the answer's time with the book, and the kernel alone."""
    from games.connect4.book import book_for
    from games.connect4.kernel import kernel_for
    from games.connect4.solver import solve_position

    print("\n## Empty boards\n")
    print("| board | result (first player) | with the shipped book | kernel alone, win/draw/loss "
          "| kernel alone, exact score |")
    print("| --- | --- | --- | --- | --- |")
    for cols, rows in ((7, 6), (6, 5), (5, 4), (8, 7)):
        book = book_for(cols, rows)
        booked = "no book"
        result = "?"
        if book is not None:
            start = time.perf_counter()
            value = solve_position(C4Search.new(cols, rows))
            booked = f"{time.perf_counter() - start:.4f} s (depth {book.depth})"
            result = RESULT[value]
        cells = []
        for lowest, highest in ((-1, 1), (None, None)):
            kernel = kernel_for(cols, rows, table_bytes=256 << 20)
            assert kernel is not None
            start = time.perf_counter()
            try:
                value = kernel.solve(0, 0, 0, lowest, highest, deadline=time.monotonic() + cap)
            except SearchTimeout:
                cells.append(f"> {cap:g} s")
                continue
            cells.append(f"{time.perf_counter() - start:.2f} s ({kernel.nodes:,} nodes)")
            result = RESULT[(value > 0) - (value < 0)]
        print(f"| {cols}×{rows} | {result} | {booked} | {cells[0]} | {cells[1]} |", flush=True)


def solve_times(per_count: int, cap: float) -> None:
    """Time to solve 7×6 positions weakly (win/draw/loss) and strongly (exact score) by the
    kernel alone (no book), by number of discs; a fresh table for each."""
    from games.connect4.kernel import kernel_for

    print(f"\n## 7×6: the kernel alone, per number of discs ({per_count} random positions "
          f"each, cap {cap:g} s)\n")
    print("| discs | weakly (win/draw/loss) p50 / max | strongly (exact score) p50 / max |")
    print("| --- | --- | --- |")
    rng = random.Random(12)
    for discs in (4, 6, 8, 10, 12):
        weak: list[float | None] = []
        strong: list[float | None] = []
        for _ in range(per_count):
            while True:
                s = C4Search.new(7, 6)
                for _ in range(discs):
                    if s.is_terminal():
                        break
                    s = s.play(rng.choice(s.legal_moves()))
                if not s.is_terminal() and s.forced_outcome() is None:
                    break
            for times, window in ((weak, (-1, 1)), (strong, (None, None))):
                kernel = kernel_for(7, 6, table_bytes=256 << 20)
                assert kernel is not None
                start = time.perf_counter()
                try:
                    kernel.solve(s.cur, s.mask, s.n, *window, deadline=time.monotonic() + cap)
                    times.append(time.perf_counter() - start)
                except SearchTimeout:
                    times.append(None)
        print(f"| {discs} | {pct(weak, 0.5, cap)} / {pct(weak, 1.0, cap)} | "
              f"{pct(strong, 0.5, cap)} / {pct(strong, 1.0, cap)} |", flush=True)


def kernel_hints(per_count: int, budget: float) -> None:
    """The hint as the game asks for it, per number of discs 0..30."""
    from games.connect4.solver import move_values

    print(f"\n## 7×6 hints per number of discs (book + kernel, {budget:g} s budget)\n")
    print("| discs | hint time p50 / p95 / max | every column exact | with every distance |")
    print("| --- | --- | --- | --- |")
    every: list[float | None] = []
    every_exact = every_distance = 0
    for discs in range(0, 31):
        times: list[float | None] = []
        exact = distance = 0
        for state in sample(discs, per_count, seed=5):
            start = time.monotonic()
            values = move_values(state, time_limit=budget)
            times.append(time.monotonic() - start)
            if all(v.exact for v in values.values()):
                exact += 1
                if all(v.remoteness is not None for v in values.values()):
                    distance += 1
        print(f"| {discs} | {pct(times, 0.5, budget)} / {pct(times, 0.95, budget)} / "
              f"{pct(times, 1.0, budget)} | {exact}/{len(times)} | {distance}/{len(times)} |",
              flush=True)
        every += times
        every_exact += exact
        every_distance += distance
    # Every hint of the table at once: the budget is a p95 over the hints a player asks for.
    print(f"| 0–30 | {pct(every, 0.5, budget)} / {pct(every, 0.95, budget)} / "
          f"{pct(every, 1.0, budget)} | {every_exact}/{len(every)} | "
          f"{every_distance}/{len(every)} |", flush=True)


def kernel_main(quick: bool) -> None:
    """The three tables of ``--kernel``."""
    kernel_speed(2 if quick else 4)
    empty_boards(20.0 if quick else 60.0)
    kernel_hints(4 if quick else 20, HINT_BUDGET)
    solve_times(2 if quick else 4, 20.0 if quick else 60.0)


def main() -> None:
    """``--kernel`` writes its own result file; the rest as before."""
    # (--kernel and --hints stay in sys.argv: the result file records the command.)
    if "--kernel" in sys.argv[1:] and "--hints" in sys.argv[1:]:
        records("kernel_hints", update=True)(_hints_entry)()
    elif "--kernel" in sys.argv[1:]:
        records("kernel_speed", "empty_board", "kernel_hints", "solve_times")(_kernel_entry)()
    else:
        records("positions")(_main)()


def _kernel_entry() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kernel", action="store_true", help="the compiled kernel's tables")
    parser.add_argument("--quick", action="store_true", help="fewer positions, lower caps")
    parser.add_argument("--json", metavar="FILE", help=JSON_HELP)
    args = parser.parse_args()
    kernel_main(args.quick)


def _hints_entry() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kernel", action="store_true", help="the compiled kernel's tables")
    parser.add_argument("--hints", action="store_true", help="only the hint table")
    parser.add_argument("--quick", action="store_true", help="fewer positions")
    parser.add_argument("--json", metavar="FILE", help=JSON_HELP + " (its other tables kept)")
    args = parser.parse_args()
    kernel_hints(4 if args.quick else 20, HINT_BUDGET)


def _main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rows and lower caps")
    parser.add_argument("--per-disc", action="store_true",
                        help="only the table per number of discs")
    parser.add_argument("--json", metavar="FILE", help=JSON_HELP)
    args = parser.parse_args()
    quick = args.quick
    ref_cap = 10.0 if quick else 60.0
    if args.per_disc:
        per_disc(quick, ref_cap)
        return
    ours_cap = 30.0 if quick else 120.0

    print("## Empty boards (sign only)\n")
    sizes = [(4, 4), (5, 4), (4, 5)] + ([] if quick else [(5, 5), (6, 4), (4, 6)])
    compare([(f"{c}×{r} empty", Connect4State.new(Connect4Config(c, r))) for c, r in sizes],
            ours_cap, ref_cap)

    print("\n## 7×6 positions from one opening\n")
    game, _ = opening(30, seed=1)
    print(f"Opening: {''.join(str(m + 1) for m in game.moves)} (columns 1-7)\n")
    counts = [30, 26, 22, 20] + ([] if quick else [18, 16])
    compare([(f"7×6, {d} discs", Connect4State.from_moves(game.config, game.moves[:d]))
             for d in counts], ours_cap, ref_cap)

    print(f"\n## How low on 7×6 within {HINT_BUDGET:g} s\n")
    sweep(1 if quick else 3, 30, 8, cap=10.0 if quick else 30.0)

    per_disc(quick, ref_cap)


def per_disc(quick: bool, ref_cap: float) -> None:
    """The per-disc-count section."""
    print("\n## 7×6 per number of discs: value and full hint (score search)\n")
    counts = [30, 26, 22, 18, 16] if quick else [30, 28, 26, 24, 22, 20, 18, 16, 14]
    per_disc_table(counts, 6 if quick else 20, 2 if quick else 3, ref_cap, cap=30.0)


if __name__ == "__main__":
    main()
