"""How often hints and Perfect are proven on 5×5 and 6×7 with 4 in a row, per number of marks.

For random positions reachable in play (each side plays at random but takes
a win in one and blocks one; the game must still be on), per number of marks:

* **ours**: the hint as the game asks for it (``move_values`` with the game's
  hint budget, which lays the position's proven outcome, from the opening
  book or :func:`engine.ai.win_proof.proven_choice`, over estimates) and the
  Perfect player with its budget;
* **reference**: every move's exact value alone (``exact_move_values``),
  the method hints used before the book and the proven outcomes, with the same
  budget, in the same run.

Each row counts positions whose hint is fully exact (every move with its n),
whose outcome is proven (a bare W / D / L on a proven move; the rest
estimates), or only estimated, and the positions where Perfect played a
proven move rather than falling back. Times are wall-clock on this machine.

    python tests/benchmarks/bench_mnk_hints.py            # 20 positions per row
    python tests/benchmarks/bench_mnk_hints.py --quick    # 4 positions per row
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.ai.negamax import SearchTimeout  # noqa: E402
from games.tictactoe.agents import PERFECT_BUDGET  # noqa: E402
from games.tictactoe.perfect import PerfectAgent, exact_move_values, move_values  # noqa: E402
from games.tictactoe.rules import MNKConfig, TicTacToeState  # noqa: E402
from games.tictactoe.scene import HINT_BUDGET  # noqa: E402
from games.tictactoe.search_state import MNKSearchState, cells_of  # noqa: E402

BOARDS = ((5, 5, 4), (7, 6, 4))
MARKS = (0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 16)


def random_position(config: MNKConfig, marks: int, rng: random.Random) -> TicTacToeState | None:
    """A position with ``marks`` marks, the game still on and no win in one for the mover
    (None if play did not get there)."""
    state = MNKSearchState.new(config.rows, config.cols, config.k)
    while state.n_empty > config.rows * config.cols - marks:
        if state.t_me & state.empty:
            return None  # the mover would win at once: play ends here
        blocks = cells_of(state.t_opp & state.empty)
        state = state.play(rng.choice(blocks or state.legal_moves()))
        if state.is_terminal():
            return None
    return None if state.t_me & state.empty else state.to_rules()


def classify(values: dict) -> str:
    """'exact' (every move with its n), 'proven' (some proven value), or 'estimate'."""
    if values and all(v.exact and (v.remoteness is not None) for v in values.values()):
        return "exact"
    if any(v.exact for v in values.values()):
        return "proven"
    return "estimate"


def main() -> int:
    """Print one table per board."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="4 positions per row")
    parser.add_argument("--positions", type=int, default=20, help="positions per row")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    count = 4 if args.quick else args.positions
    cancel = threading.Event()
    print(f"hint budget {HINT_BUDGET:g} s, Perfect budget {PERFECT_BUDGET:g} s; "
          f"{count} positions per row")
    for shape in BOARDS:
        config = MNKConfig(*shape)
        print(f"\n{shape[1]}×{shape[0]} (columns × rows), 4 in a row\n")
        print("| marks | ours: exact / proven / estimate | ours p50 / max | "
              "reference: exact / estimate | reference p50 / max | Perfect proven moves |")
        print("| --- | --- | --- | --- | --- | --- |")
        rng = random.Random(args.seed + shape[0])
        for marks in MARKS:
            positions: list[TicTacToeState] = []
            while len(positions) < count:
                found = random_position(config, marks, rng)
                if found is not None:
                    positions.append(found)
            kinds = {"exact": 0, "proven": 0, "estimate": 0}
            ref = {"exact": 0, "estimate": 0}
            ours_t, ref_t = [], []
            perfect_ok = 0
            for i, state in enumerate(positions):
                start = time.perf_counter()
                kinds[classify(move_values(state, cancel, time_limit=HINT_BUDGET))] += 1
                ours_t.append(time.perf_counter() - start)
                start = time.perf_counter()
                try:
                    exact_move_values(state, cancel, HINT_BUDGET)
                    ref["exact"] += 1
                except SearchTimeout:
                    ref["estimate"] += 1
                ref_t.append(time.perf_counter() - start)
                perfect = PerfectAgent(time_budget=PERFECT_BUDGET, seed=i)
                perfect.choose_move(state, cancel)
                perfect_ok += not perfect.fell_back
            print(f"| {marks} | {kinds['exact']} / {kinds['proven']} / {kinds['estimate']} | "
                  f"{statistics.median(ours_t):.2f} / {max(ours_t):.2f} s | "
                  f"{ref['exact']} / {ref['estimate']} | "
                  f"{statistics.median(ref_t):.2f} / {max(ref_t):.2f} s | "
                  f"{perfect_ok}/{count} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
