"""Button Madness fewest presses, proven (issue 14, item 5): the search against brute force.

The brute force here shares nothing with the production search: the null space comes
from a plain dense elimination (tests.games.buttons.test_buttons_solver.dense_solve), and all 2^d
solutions are XORed as bit-packed words and counted with ``np.bitwise_count``: no
Walsh–Hadamard transform, no sub-lattice, no branch and bound. It is run wherever it
takes a second or two (d ≤ 24: the 30×30 boards among them); the 20×20 boards (d = 32,
about 3 minutes each) are checked the same way by tests/benchmarks/bench_buttons.py.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
import threading
import time

import numpy as np
import pytest

from engine.ai.agent import Cancelled
from games.buttons import fewest
from games.buttons.board import (
    Board,
    bits_to_grid,
    format_code,
    generate,
    grid_to_bits,
    press_effect,
    presses_to_bits,
)
from games.buttons.cli import fewest_proof_line
from games.buttons.scene import ButtonMadnessScene
from games.buttons.search_limits import DEFAULT_TIME_LIMIT
from games.buttons.solver import (
    _block_descent,
    _particular,
    _rows_to_grid,
    _system,
    null_space,
    nullity,
    solve,
    solve_grid,
)
from tests.conftest import click, click_widget, run_until
from tests.support.cli import run
from tests.support.oracles import dense_solve

# --- the independent reference ----------------------------------------------------------------


def _packed(n: int, bits: int) -> np.ndarray:
    words = (n * n + 63) // 64
    return np.frombuffer(bits.to_bytes(words * 8, "little"), dtype=np.uint64)


def brute_minimum(n: int, solution: int, kernel: list[int]) -> int:
    """The fewest presses among ``solution`` ⊕ span(kernel), by weighing all of them.

    Half the basis spans a table of words (with the solution XORed in), the other half is
    walked one combination at a time: each combination XORed onto the whole table, every
    word's bits counted. 2^24 solutions of a 30×30 board take about a second.
    """
    half = len(kernel) // 2

    def span(vectors: list[int], base: int) -> np.ndarray:
        table = _packed(n, base)[None, :]
        for v in vectors:
            table = np.concatenate((table, table ^ _packed(n, v)[None, :]))
        return table

    low, high = span(kernel[half:], solution), span(kernel[:half], 0)
    return min(int(np.bitwise_count(low ^ h[None, :]).sum(axis=1).min()) for h in high)


@functools.lru_cache(maxsize=64)
def exact_minimum(n: int, green_bits: int) -> int:
    """The brute-force fewest presses of the board (it must be solvable), computed once."""
    solution, kernel = dense_solve(n, green_bits)
    assert solution is not None
    return brute_minimum(n, solution, kernel)


def exact(board: Board) -> int:
    return exact_minimum(board.n, board.green_bits)


def target(board: Board) -> int:
    """The buttons that must flip (the green ones) as bits."""
    return board.green_bits


def solves(board: Board, presses: int) -> bool:
    return press_effect(board.n, presses) == target(board)


@functools.lru_cache(maxsize=1)
def thirty() -> tuple[Board, ...]:
    """The 30×30 boards every brute-force test shares (2^24 solutions each: ~1 s apiece)."""
    return tuple(generate(30, random.Random(3000 + seed))[0] for seed in range(3))


def boards(n: int, seed: int, count: int) -> list[Board]:
    """``count`` generated boards, and up to as many uniformly random ones that happen to
    be solvable (one in 2^nullity is: a few tries each, then no more)."""
    rng = random.Random(seed)
    out = [generate(n, rng)[0] for _ in range(count)]
    for _ in range(8 * count):
        if len(out) == 2 * count:
            break
        board = Board(n, rng.getrandbits(n * n))
        if dense_solve(n, board.green_bits)[0] is not None:
            out.append(board)
    return out


def descent_start(board: Board) -> np.ndarray:
    """The solver's starting point for the search: block descent from the plain solution."""
    system = _system(board.n)
    rows = _particular(board, system)
    assert rows is not None
    rows, _ = _block_descent(system, rows, None, None)
    return np.ascontiguousarray(_rows_to_grid(board.n, rows))


class StopsAfter(fewest.Budget):
    """A budget whose time runs out after ``steps`` questions (an interrupted search)."""

    def __init__(self, steps: int) -> None:
        super().__init__(60.0, None, None)
        self.steps = steps

    def left(self) -> float:
        self.steps -= 1
        return 1.0 if self.steps >= 0 else -1.0


# --- proven on every size of the menu -----------------------------------------------------------


@pytest.mark.slow
def test_every_menu_size_is_proven_within_the_time_limit() -> None:
    worst: dict[int, float] = {}
    for n in range(2, 21):
        for board in boards(n, seed=100 + n, count=3):
            start = time.process_time()
            solution = solve_grid(board)
            elapsed = time.process_time() - start
            worst[n] = max(worst.get(n, 0.0), elapsed)
            assert solution.grid is not None
            assert solution.minimal and solution.lower_bound == solution.count, (n, solution)
            assert solves(board, grid_to_bits(solution.grid))
    assert max(worst.values()) < DEFAULT_TIME_LIMIT, worst
    # 20×20 (nullity 32) is the size the old heuristic could not prove.
    assert nullity(20) == 32


# The larger sizes take seconds: only the full run (python -m pytest) has them.
@pytest.mark.parametrize("n", [6, *(pytest.param(n, marks=pytest.mark.slow)
                                    for n in (10, 12, 18, 30))])
def test_fewest_presses_equal_brute_force(n: int) -> None:
    """Through solve() (the search for 30×30, nullity 24) and through the branch and bound
    forced on smaller null spaces, against all 2^d solutions."""
    assert nullity(n) <= 24
    space = null_space(n)
    for board in thirty()[:2] if n == 30 else boards(n, seed=n, count=4):
        solution = solve(board)
        presses = presses_to_bits(n, solution.presses)
        assert solves(board, presses)
        fewest_presses = exact(board)
        assert len(solution.presses) == fewest_presses
        assert solution.minimal and solution.lower_bound == fewest_presses
        if n == 30:
            assert "branch and bound" in solution.method
        found = fewest.search(space, descent_start(board))
        assert "branch and bound" in found.method
        assert found.proven and found.count == fewest_presses == found.lower_bound
        assert solves(board, grid_to_bits(found.grid))


@pytest.mark.slow
def test_thirty_by_thirty_beats_the_old_heuristic() -> None:
    """The issue's finding: block descent stopped at 384 and 385 on 30×30 boards whose
    minima are 370 and 371. The proven answer is never above the descent's, is often
    below it, and is the brute-force minimum."""
    gaps = []
    # Generated: uniformly random boards are solvable only once in 2^24 on 30×30.
    for board in thirty():
        descent = int(np.count_nonzero(descent_start(board)))
        solution = solve(board)
        assert solution.minimal and len(solution.presses) == exact(board) <= descent
        gaps.append(descent - exact(board))
    assert max(gaps) > 0, "the descent was already optimal on every board: a weak test"


@pytest.mark.parametrize("n,low_bits", [(10, 10),
                                        pytest.param(17, 12, marks=pytest.mark.slow),
                                        pytest.param(15, 8, marks=pytest.mark.slow),
                                        pytest.param(30, 18, marks=pytest.mark.slow)])
def test_exhaustive_slices_equal_brute_force(n: int, low_bits: int) -> None:
    """The slices (used when no two classes name every solution), cut small so that the
    Gray-code walk between slices runs: 2^(d − low_bits) of them."""
    space = null_space(n)
    for board in thirty()[:1] if n == 30 else boards(n, seed=7 * n, count=2):
        start = descent_start(board)
        out = fewest.slice_search(space, start, fewest.Budget(60, None, None), low_bits)
        assert out.finished and out.lower_bound == out.count
        assert solves(board, grid_to_bits(out.grid))
        assert out.count == exact(board)


# --- lower bounds never exceed the minimum ----------------------------------------------------


@pytest.mark.parametrize("n", [10, *(pytest.param(n, marks=pytest.mark.slow)
                                   for n in (12, 15, 17, 30))])
def test_every_lower_bound_is_at_most_the_brute_force_minimum(n: int) -> None:
    space = null_space(n)
    found = fewest.lattices(space, fewest.MAX_TABLE_BITS)
    assert found, "no sub-lattice to bound with"
    for board in thirty() if n == 30 else boards(n, seed=11 * n, count=2):
        start = descent_start(board)
        fewest_presses = exact(board)
        budget = fewest.Budget(60, None, None)
        bounds = {lat.describe(): lat.bound(start, budget, 2**28) for lat in found}
        bounds["pluses"] = fewest.plus_bound(start)
        assert all(0 <= b <= fewest_presses for b in bounds.values()), (fewest_presses, bounds)
        # A bound is only as good as it is tight: the best one says something.
        assert max(bounds.values()) > fewest_presses // 4, (fewest_presses, bounds)


@pytest.mark.slow
def test_an_interrupted_search_brackets_the_minimum() -> None:
    """Stopped after a few steps, the branch and bound's answer still solves the board
    and its lower bound is proven: bound ≤ true minimum ≤ presses; the bound rises."""
    n = 30
    space = null_space(n)
    square = next(lat for lat in fewest.lattices(space, 22) if (lat.a, lat.b) == (2, 2))
    plan = fewest.pair_plan(space, square, 0, 3)  # on 30×30 only diagonal pairs name all
    assert plan is not None and fewest.pair_plan(space, square, 0, 1) is None
    for board in thirty():
        start = descent_start(board)
        fewest_presses = exact(board)
        lows = []
        for steps in (0, 1, 2, 3, 5, 8, 13, 100):
            out = fewest.pair_search(space, plan, start, StopsAfter(steps))
            assert solves(board, grid_to_bits(out.grid))
            assert out.count == np.count_nonzero(out.grid)
            assert out.lower_bound <= fewest_presses <= out.count
            if out.finished:
                assert out.lower_bound == out.count == fewest_presses
            lows.append(out.lower_bound)
        assert lows == sorted(lows) and lows[0] < lows[-1] == fewest_presses


@pytest.mark.slow
def test_twenty_by_twenty_proofs_agree_across_decompositions() -> None:
    """On 20×20 any two 2×2 classes name every solution: six different pairs, six
    different searches (different tables, orders and coordinates), one minimum."""
    n = 20
    space = null_space(n)
    square = next(lat for lat in fewest.lattices(space, 22) if (lat.a, lat.b) == (2, 2))
    assert 2 * square.rank == space.d == 32
    for board in boards(n, seed=2020, count=2):
        start = descent_start(board)
        counts = set()
        for a, b in itertools.combinations(range(4), 2):
            plan = fewest.pair_plan(space, square, a, b)
            assert plan is not None and (plan.a, plan.b) == (a, b)
            out = fewest.pair_search(space, plan, start, fewest.Budget(60, None, None))
            assert out.finished and out.lower_bound == out.count
            assert solves(board, grid_to_bits(out.grid))
            counts.add(out.count)
        assert len(counts) == 1
        assert counts == {len(solve(board).presses)}


@pytest.mark.slow
def test_symmetric_boards_pick_the_pair_with_least_to_weigh() -> None:
    """Striped boards make most pairs of classes weigh ~10^9 pairs and one ~10^7: the
    search picks that one and proves the minimum."""
    n = 20
    board = Board(n, sum(1 << (n * r + c) for r in range(0, n, 2) for c in range(n)))
    space = null_space(n)
    square = next(lat for lat in fewest.lattices(space, 22) if (lat.a, lat.b) == (2, 2))
    tables = fewest.class_tables(square, descent_start(board))
    best = int(np.count_nonzero(descent_start(board)))
    work = sorted(fewest.pairs_to_weigh(tables, a, b, best)
                  for a, b in itertools.combinations(range(4), 2))
    assert work[0] < 10**8 < work[-1]
    solution = solve(board)
    assert solution.minimal and solves(board, presses_to_bits(n, solution.presses))


@pytest.mark.slow
def test_a_press_along_a_proven_solution_is_answered_at_once() -> None:
    """The game asks again after every press: one along a proven solution needs no search
    (the minimum drops by at most one a press), one elsewhere gets a full one."""
    board = thirty()[2]
    solution = solve(board)
    assert solution.minimal
    along = board.press(*solution.presses[len(solution.presses) // 2])
    start = time.process_time()
    after = solve(along)
    assert time.process_time() - start < 0.05
    assert "one press along a proven fewest solution" in after.method
    assert after.minimal and len(after.presses) == len(solution.presses) - 1 == exact(along)
    assert set(after.presses) < set(solution.presses)
    elsewhere = along.press(*next((r, c) for r in range(30) for c in range(30)
                                  if (r, c) not in after.presses))
    again = solve(elsewhere)
    assert "one press along" not in again.method
    assert again.minimal and len(again.presses) == exact(elsewhere)


# --- bounded: time, memory, cancel --------------------------------------------------------------


@pytest.mark.slow
def test_beyond_reach_the_answer_is_bounded_and_honest() -> None:
    """40×40 (nullity 64): no exact search, a solution with a proven lower bound."""
    board = generate(40, random.Random(4))[0]
    solution = solve(board)
    count, lower = len(solution.presses), solution.lower_bound
    assert solves(board, presses_to_bits(40, solution.presses))
    assert not solution.minimal and lower is not None and 0 < lower < count
    # The 4×4 classes' bound is within ~35% of the presses found.
    assert lower > 0.6 * count
    assert solution.method.startswith(f"at most {count}, at least {lower}: fewest presses "
                                      "not proven")


@pytest.mark.slow
def test_the_time_limit_holds_on_the_biggest_boards() -> None:
    n = 1000
    _system(n)  # built once per size, outside the search's time limit
    board = generate(n, random.Random(1))[0]
    start = time.process_time()
    solution = solve_grid(board, time_limit=0.5)
    elapsed = time.process_time() - start
    assert elapsed < 2.0, elapsed
    assert solution.grid is not None and not solution.minimal
    assert solution.lower_bound is not None and solution.lower_bound < solution.count
    assert solves(board, grid_to_bits(solution.grid))


@pytest.mark.slow
def test_a_search_stopped_by_its_time_limit_says_so() -> None:
    """500×500 is proven in ~0.3 s; with 10 ms it stops after one step of the descent."""
    n = 500
    _system(n)
    board = generate(n, random.Random(2))[0]
    start = time.process_time()
    solution = solve_grid(board, time_limit=0.01)
    assert time.process_time() - start < 1.0
    assert not solution.minimal and "the 0.01 s time limit was reached" in solution.method
    assert solution.lower_bound is not None and 0 < solution.lower_bound < solution.count
    assert solves(board, grid_to_bits(solution.grid))
    proven = solve_grid(board)
    assert proven.minimal
    assert solution.lower_bound <= proven.count <= solution.count


@pytest.mark.slow
def test_the_memory_cap_refuses_the_tables() -> None:
    """With 16 MB the pair search's tables (4 MB) and its working space do not fit: the
    20×20 answer is then bounded, not proven, and still a solution."""
    board = generate(20, random.Random(9))[0]
    capped = solve(board, memory_mb=16)
    full = solve(board)
    assert full.minimal and not capped.minimal
    assert capped.lower_bound is not None
    assert capped.lower_bound <= len(full.presses) <= len(capped.presses)
    assert solves(board, presses_to_bits(20, capped.presses))


@pytest.mark.parametrize("n", [20, 30, 40])
def test_progress_never_goes_back(n: int) -> None:
    seen: list[float] = []
    solve(generate(n, random.Random(n))[0], progress=seen.append)
    assert seen[0] == 0.0 and seen[-1] == 1.0
    assert all(0.0 <= a <= b <= 1.0 for a, b in itertools.pairwise(seen))
    assert len(seen) > 3


def test_cancel_stops_the_search() -> None:
    board = generate(20, random.Random(5))[0]
    cancel = threading.Event()

    def progress(fraction: float) -> None:
        if fraction > 0.75:  # inside the search (the descent reports up to 0.75)
            cancel.set()

    with pytest.raises(Cancelled):
        solve(board, cancel, progress)


# --- the command line: --fewest-proof ----------------------------------------------------------


def test_fewest_proof_line_format() -> None:
    assert fewest_proof_line(140, 140) == "minimum 140"
    assert fewest_proof_line(0, 0) == "minimum 0"
    assert fewest_proof_line(384, 362) == "at most 384, at least 362"
    assert fewest_proof_line(7, None) == "at most 7, at least 0"


def _press_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith("row ")]


@pytest.mark.slow
def test_cli_fewest_proof_prints_the_proven_minimum(profile) -> None:
    board = generate(20, random.Random(6))[0]
    code = format_code(board)
    plain = run("solve", "button-madness", "--code", code, profile=profile)
    proof = run("solve", "button-madness", "--code", code, "--fewest-proof", profile=profile)
    assert plain.returncode == proof.returncode == 0, proof.stderr
    # The presses are the contract: unchanged, and the proof is one line after them.
    presses = _press_lines(plain.stdout)
    assert plain.stdout == "".join(line + "\n" for line in presses)
    assert proof.stdout == plain.stdout + f"minimum {len(presses)}\n"
    assert len(presses) == len(solve(board).presses)
    cells = [tuple(int(p.split()[1]) - 1 for p in line.split(", ")) for line in presses]
    assert solves(board, presses_to_bits(20, cells))


@pytest.mark.slow
def test_cli_fewest_proof_prints_bounds_when_not_proven(profile) -> None:
    board = generate(40, random.Random(4))[0]
    out = run("solve", "button-madness", "--code", format_code(board), "--fewest-proof",
              "--time-limit", "5", profile=profile)
    assert out.returncode == 0, out.stderr
    *presses, last = out.stdout.splitlines()
    assert presses == _press_lines(out.stdout)
    match = re.fullmatch(r"at most (\d+), at least (\d+)", last)
    assert match, last
    assert int(match[1]) == len(presses) and 0 < int(match[2]) < len(presses)


@pytest.mark.slow
def test_cli_fewest_proof_on_solved_and_unsolvable_boards(profile) -> None:
    solved = run("solve", "button-madness", "--code", "65535", "--fewest-proof",
                 profile=profile)
    assert solved.returncode == 0 and solved.stdout == "minimum 0\n"
    small = run("solve", "button-madness", "--code", "12345", "--fewest-proof",
                profile=profile)
    assert small.stdout.endswith(f"minimum {len(_press_lines(small.stdout))}\n")
    unsolvable = run("solve", "button-madness", "--code", f"3x3:{(1 << 9) - 2}",
                     "--fewest-proof", profile=profile)
    assert unsolvable.returncode == 1 and unsolvable.stdout == "no solution\n"


@pytest.mark.slow
def test_cli_help_states_the_limits(profile) -> None:
    out = run("solve", "button-madness", "--help", profile=profile)
    text = " ".join(out.stdout.split())
    assert f"(default {DEFAULT_TIME_LIMIT:g})" in text and "--max-memory" in text
    assert "--fewest-proof" in text and "minimum N" in text
    bad = run("solve", "button-madness", "--code", "5", "--time-limit", "0", profile=profile)
    assert bad.returncode == 2 and "--time-limit" in bad.stderr


# --- the game shows the proof or the bounds -----------------------------------------------------


def _frame_pixel(scene: ButtonMadnessScene, cell: tuple[int, int]) -> tuple[int, int]:
    """A pixel on the left side of a cell's solution frame (see engine.ui.board.draw)."""
    geom = scene.geometry()
    width = max(2, round(geom.cell_size / 10))
    rect = geom.cell_rect(*cell)
    return rect.left + width + width // 2, rect.centery


def _show_solution(app, board: Board) -> ButtonMadnessScene:
    scene = app.push(ButtonMadnessScene(app, board))
    app.step([])
    click_widget(app, "Show solution")
    run_until(app, lambda: scene.marks is not None, timeout=30)
    app.step([])
    return scene


@pytest.mark.slow
def test_the_game_marks_a_proven_fewest_solution(app) -> None:
    board = generate(20, random.Random(8))[0]
    scene = _show_solution(app, board)
    solution = scene.helper.solution
    assert solution is not None and solution.minimal
    assert solution.count == len(solve(board).presses) == solution.lower_bound
    status = scene.status_text()
    assert f"Solution: {solution.count} more presses (fewest presses: proven" in status
    marks = set(scene.solution_cells())
    assert len(marks) == solution.count and solves(board, presses_to_bits(20, marks))
    accent = app.theme.palette.accent
    marked = min(marks)
    plain = next((r, c) for r in range(20) for c in range(20) if (r, c) not in marks)
    assert app.screen.get_at(_frame_pixel(scene, marked))[:3] == accent
    assert app.screen.get_at(_frame_pixel(scene, plain))[:3] != accent


@pytest.mark.slow
def test_the_game_follows_a_press_on_a_marked_button(app) -> None:
    board = generate(20, random.Random(12))[0]
    scene = _show_solution(app, board)
    before = scene.helper.solution
    assert before is not None and before.minimal
    cell = scene.solution_cells()[0]
    click(app, *app.viewport.to_design(scene.geometry().cell_center(*cell)))
    assert scene.board == board.press(*cell)
    run_until(app, lambda: scene.marks is not None, timeout=30)
    after = scene.helper.solution
    assert after is not None and after.minimal and after.count == before.count - 1
    assert set(scene.solution_cells()) == set(
        (r, c) for r, c in zip(*np.nonzero(before.grid), strict=True)) - {cell}
    assert f"Solution: {after.count} more presses" in scene.status_text()


@pytest.mark.slow
def test_the_game_shows_both_bounds_when_not_proven(app) -> None:
    board = generate(40, random.Random(4))[0]
    scene = _show_solution(app, board)
    solution = scene.helper.solution
    assert solution is not None and not solution.minimal
    lower = solution.lower_bound
    assert lower is not None and 0 < lower < solution.count
    assert f"(at most {solution.count}, at least {lower}: fewest presses not proven" in \
        scene.status_text()
    assert solves(board, grid_to_bits(scene.marks))
    assert bits_to_grid(40, grid_to_bits(scene.marks)).sum() == solution.count
