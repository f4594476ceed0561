"""Button Madness solver (SPEC §6) against the source's BFS, dense elimination and brute force."""

from __future__ import annotations

import itertools
import random
import threading
from collections import Counter

import numpy as np
import pytest

from engine.ai.agent import Cancelled
from games.buttons.board import Board, bits_to_presses, generate, press_effect, presses_to_bits
from games.buttons.solver import (  # the private ones: cross-checks of the two paths
    MAX_EXHAUSTIVE_NULLITY,
    Solution,
    _build_system,
    _particular,
    _ring_inverse,
    _ring_mul,
    bfs_distances_4x4,
    bfs_solve_4x4,
    build_graph_4x4,
    is_solvable,
    null_space_basis,
    nullity,
    solve,
)
from tests.support.oracles import dense_solve

FULL_4X4 = 65535


# --- independent references -----------------------------------------------------


def rule_mask(n: int, r: int, c: int) -> int:
    """The rule as written: the cell and its four wrapped neighbours, flips counted mod 2."""
    flips = Counter([(r, c), ((r + 1) % n, c), ((r - 1) % n, c), (r, (c + 1) % n),
                     (r, (c - 1) % n)])
    return sum(1 << (n * rr + cc) for (rr, cc), k in flips.items() if k % 2)




def gf2_rank(vectors: list[int]) -> int:
    """Rank of a list of bit vectors over GF(2) (xor basis by leading bit)."""
    basis: dict[int, int] = {}
    for v in vectors:
        while v:
            top = v.bit_length() - 1
            if top not in basis:
                basis[top] = v
                break
            v ^= basis[top]
    return len(basis)


def orthogonal_to_null_space(board: Board, basis: list[int]) -> bool:
    """Solvability: M is symmetric, so its image is the orthogonal complement of its kernel."""
    return all((board.green_bits & v).bit_count() % 2 == 0 for v in basis)


def check_solution(board: Board, solution: Solution) -> None:
    assert solution.presses is not None
    presses = list(solution.presses)
    assert presses == sorted(set(presses)), "row-major, no repeats"
    assert board.apply(presses).is_solved


# --- the source's BFS and the exhaustive 4×4 check -------------------------------------


@pytest.fixture(scope="module")
def distances() -> np.ndarray:
    return bfs_distances_4x4()


def test_source_graph_has_16_edges_per_board_that_undo_themselves() -> None:
    graph = build_graph_4x4()
    assert graph.shape == (1 << 16, 16)
    states = np.arange(1 << 16)
    for edge in range(16):
        assert np.array_equal(graph[graph[:, edge], edge], states)  # a press twice undoes it
        assert graph[0, edge] == rule_mask(4, edge // 4, edge % 4)


@pytest.mark.slow
def test_every_4x4_board_matches_the_bfs_oracle(distances: np.ndarray) -> None:
    assert nullity(4) == 0 and distances.min() == 0  # 4 is good: every board is reachable
    masks = [rule_mask(4, r, c) for r in range(4) for c in range(4)]
    for code in range(1 << 16):
        solution = solve(Board(4, code))
        presses = solution.presses
        assert presses is not None and solution.minimal
        bits = code
        for r, c in presses:
            bits ^= masks[4 * r + c]
        assert bits == FULL_4X4, code
        assert len(presses) == distances[code], code


@pytest.mark.slow
def test_bfs_solver_gives_shortest_click_lists(distances: np.ndarray) -> None:
    rng = random.Random(2)
    codes = [FULL_4X4, 0, 65534, *(rng.randrange(1 << 16) for _ in range(4))]
    for code in codes:
        clicks = bfs_solve_4x4(Board(4, code))
        assert len(clicks) == distances[code]
        assert Board(4, code).apply(clicks).is_solved
        # With a unique solution set, the shortest path presses exactly that set.
        assert sorted(clicks) == list(solve(Board(4, code)).presses)
    with pytest.raises(ValueError):
        bfs_solve_4x4(Board(5, 0))


# --- null spaces -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def nullities() -> dict[int, int]:
    return {n: nullity(n) for n in range(1, 41)}


@pytest.mark.slow
def test_nullity_theorems(nullities: dict[int, int]) -> None:
    bad = {n for n, d in nullities.items() if d}
    for m in bad:
        for multiple in range(2 * m, 41, m):
            assert multiple in bad, f"{multiple} is a multiple of bad {m}"
        if m % 2 == 0:
            assert m // 2 in bad, f"half of bad {m}"
    for k in range(1, 9):
        assert (nullity(2**k - 1) > 0) == (k not in (1, 3)), f"2^{k} − 1"
        assert nullity(2**k + 1) > 0, f"2^{k} + 1"
    # Every power of two is good (1 is good, and m good makes 2m good).
    assert all(nullity(2**k) == 0 for k in range(10))
    assert bad & set(range(1, 13)) == {3, 5, 6, 9, 10, 12}


def test_nullity_agrees_with_dense_rank(nullities: dict[int, int]) -> None:
    for n in range(1, 13):
        masks = [rule_mask(n, r, c) for r in range(n) for c in range(n)]
        assert nullities[n] == n * n - gf2_rank(masks), n


@pytest.mark.parametrize("n", [*range(1, 41), 63, 100,
                               pytest.param(255, marks=pytest.mark.slow)])  # full run only
def test_null_space_basis_is_a_basis_of_do_nothing_press_sets(n: int) -> None:
    basis = null_space_basis(n)
    assert len(basis) == nullity(n)
    assert gf2_rank(basis) == len(basis)
    for v in basis:
        assert v and press_effect(n, v) == 0


# --- the two ways of solving the wrap-round system ----------------------------------------


def test_ring_arithmetic() -> None:
    rng = random.Random(9)
    for n in (3, 5, 8, 31, 64):
        modulus = (1 << n) | 1
        for _ in range(20):
            a = rng.getrandbits(n)
            inv = _ring_inverse(a, n)
            if inv is None:
                continue
            assert _ring_mul(a, inv, n) == 1
        # 1 + S divides Sⁿ − 1, so it is never a unit; 1 always is.
        assert _ring_inverse(0b11, n) is None and _ring_inverse(0, n) is None
        assert _ring_inverse(1, n) == 1
        # S·S^(n−1) = Sⁿ = 1.
        assert _ring_mul(0b10, 1 << (n - 1), n) == 1 and _ring_inverse(0b10, n) == 1 << (n - 1)
        assert modulus.bit_length() == n + 1


@pytest.mark.parametrize("n", [3, 4, 7, 8, 11, 16, 21, 23, 64, 65])
def test_ring_inverse_and_elimination_agree(n: int) -> None:
    # Good n take the ring inverse; forcing the elimination must give the same
    # (unique) solutions, and a bad n must never get an inverse.
    algebraic = _build_system(n, None, None)
    eliminated = _build_system(n, None, None, algebraic=False)
    assert (algebraic.inverse is not None) == (nullity(n) == 0) == (eliminated.nullity == 0)
    rng = random.Random(n)
    for _ in range(5):
        board = Board(n, rng.getrandbits(n * n))
        assert _particular(board, algebraic) == _particular(board, eliminated)


# --- random boards on many sizes ------------------------------------------------------------


SIZES = [*range(1, 65), 100, 257, 500]
# Sizes whose solve takes a tenth of a second or more (500 takes several seconds): marked
# slow, so the quick run (python -m pytest -m "not slow") keeps only the fast sizes.
SLOW_SIZES = {20, 24, 30, 31, 33, 34, 40, 48, 51, 60, 62, 63, 100, 257, 500}


@pytest.mark.parametrize("n", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_SIZES else n
                               for n in SIZES])
def test_random_boards(n: int) -> None:
    rng = random.Random(1000 + n)
    basis = null_space_basis(n)
    d = len(basis)
    generated = [generate(n, rng)[0] for _ in range(3 if n <= 64 else 1)]
    uniform = [Board(n, rng.getrandbits(n * n)) for _ in range(3 if n <= 64 else 1)]
    for board in [*generated, *uniform, Board.solved(n), Board(n, 0)]:
        solution = solve(board)
        assert solution.nullity == d
        solvable = orthogonal_to_null_space(board, basis)
        assert is_solvable(board) == solvable
        if board in generated or board.is_solved:
            assert solvable
        if not solvable:
            assert solution.presses is None and not solution.minimal
            assert solution.method.startswith("unsolvable")
            continue
        check_solution(board, solution)
        if board.is_solved:
            assert solution.presses == () and solution.minimal
        if d == 0:
            assert solution.minimal and solution.method == "unique solution"
        elif d <= MAX_EXHAUSTIVE_NULLITY:
            assert solution.minimal and solution.method.startswith("fewest presses: exhaustive")
        elif not board.is_solved:
            # Beyond 2^20: proven by the search (games.buttons.fewest), or bounded.
            count, lower = len(solution.presses), solution.lower_bound
            if solution.minimal:
                assert lower == count and solution.method.startswith("fewest presses: proven")
            else:
                assert lower is not None and 0 <= lower < count
                assert solution.method.startswith(f"at most {count}, at least {lower}:")


@pytest.mark.parametrize("n", range(1, 9))
def test_solvability_agrees_with_dense_elimination(n: int) -> None:
    rng = random.Random(n)
    for _ in range(12):
        board = Board(n, rng.getrandbits(n * n))
        dense, kernel = dense_solve(n, board.green_bits)
        assert len(kernel) == nullity(n)
        solution = solve(board)
        assert (solution.presses is None) == (dense is None)
        if dense is not None:
            # Both are solutions, so they differ by a null-space vector.
            diff = dense ^ presses_to_bits(n, solution.presses)
            assert press_effect(n, diff) == 0


def test_every_board_of_the_smallest_sizes() -> None:
    for n in (1, 2, 3):
        basis = null_space_basis(n)
        for bits in range(1 << (n * n)):
            board = Board(n, bits)
            solution = solve(board)
            if orthogonal_to_null_space(board, basis):
                check_solution(board, solution)
            else:
                assert solution.presses is None
    # n = 1 and 2: a press flips only its own button, so press exactly the green ones.
    assert solve(Board(2, 0b0110)).presses == ((0, 0), (1, 1))
    assert solve(Board(1, 0)).presses == ((0, 0),)


# --- fewest presses ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 5, 6])
def test_fewest_presses_against_brute_force(n: int) -> None:
    size = n * n
    if n == 3:
        # All 512 press sets: the ones that change nothing are the null space.
        null_space = [p for p in range(1 << size) if press_effect(n, p) == 0]
    else:
        _, kernel = dense_solve(n, 0)
        null_space = [0]
        for v in kernel:
            null_space += [u ^ v for u in null_space]
    assert len(null_space) == 2 ** nullity(n)
    rng = random.Random(n)
    for _ in range(25):
        board, _ = generate(n, rng)
        particular, _ = dense_solve(n, board.green_bits)
        assert particular is not None
        fewest = min((particular ^ v).bit_count() for v in null_space)
        solution = solve(board)
        check_solution(board, solution)
        assert solution.minimal and len(solution.presses) == fewest


@pytest.mark.slow
def test_fewest_presses_on_a_16_dimensional_null_space() -> None:
    n = 10
    assert nullity(n) == 16
    basis = null_space_basis(n)
    combos = np.zeros(1, dtype=object)
    for v in basis:
        combos = np.concatenate((combos, combos ^ v))
    rng = random.Random(7)
    for _ in range(3):
        board, presses = generate(n, rng)
        p = presses_to_bits(n, presses)
        fewest = min(int(p ^ v).bit_count() for v in combos)
        solution = solve(board)
        check_solution(board, solution)
        assert len(solution.presses) == fewest and solution.minimal
        assert solution.method == "fewest presses: exhaustive over 2^16 null-space combinations"


@pytest.mark.slow
@pytest.mark.parametrize("n", [31, 65])
def test_heuristic_is_a_local_minimum_below_the_plain_solution(n: int) -> None:
    # n = 31 and 65: nullity 40 and 56, beyond the exhaustive limit. Block descent
    # starts from the plain solution (free unknowns 0) and stops when no block of
    # basis vectors improves, so no single basis vector (nor a pair inside one
    # block) lowers the count.
    d = nullity(n)
    assert d > MAX_EXHAUSTIVE_NULLITY
    basis = null_space_basis(n)
    for seed in range(3):
        board, _ = generate(n, random.Random(seed))
        solution = solve(board)
        check_solution(board, solution)
        assert not solution.minimal and solution.method.startswith("at most")
        found = presses_to_bits(n, solution.presses)
        plain = _particular(board, _build_system(n, None, None))
        assert plain is not None
        assert found.bit_count() <= sum(row.bit_count() for row in plain)
        assert all((found ^ v).bit_count() >= found.bit_count() for v in basis)
        assert all((found ^ basis[i] ^ basis[i + 1]).bit_count() >= found.bit_count()
                   for i in range(0, 16, 2))


# --- cancel and progress -----------------------------------------------------------------------


@pytest.mark.slow
def test_cancel_before_and_during_the_search() -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        solve(Board.solved(4), cancel=cancel)

    # Cancel from the progress callback while the system of a fresh n is being reduced.
    n = 333
    cancel = threading.Event()
    seen: list[float] = []

    def progress(fraction: float) -> None:
        seen.append(fraction)
        if fraction > 0.2:
            cancel.set()

    board = generate(n, random.Random(0))[0]
    with pytest.raises(Cancelled):
        solve(board, cancel=cancel, progress=progress)
    assert 0.2 < seen[-1] < 0.6  # stopped inside the elimination, not at its end
    # Nothing half-built was kept: a fresh solve works.
    solution = solve(board)
    check_solution(board, solution)


@pytest.mark.slow
def test_progress_runs_from_0_to_1() -> None:
    for n in (7, 31, 410):
        seen: list[float] = []
        board = generate(n, random.Random(n))[0]
        solve(board, progress=seen.append)
        assert seen[0] == 0.0 and seen[-1] == 1.0
        assert all(0.0 <= a <= b <= 1.0 for a, b in itertools.pairwise(seen))


def test_solution_is_plain_data() -> None:
    solution = solve(Board(4, 0))
    assert solution == Solution(solution.presses, True, "unique solution", 0,
                                len(solution.presses))
    assert bits_to_presses(4, presses_to_bits(4, solution.presses)) == list(solution.presses)
    with pytest.raises(AttributeError):
        solution.minimal = False  # type: ignore[misc]
