"""Issue 28: every fact Button Madness's help and the size explorer state is true, checked
with the engine against the plain Gauss–Jordan and rule oracles of tests/support/oracles.py
(they share no code with the solver)."""

from __future__ import annotations

import re
from itertools import product

import pytest

from games.buttons.board import Board, format_code, parse_code
from games.buttons.explorer_scene import SIZES, THEOREMS, ExplorerScene
from games.buttons.help_text import HELP
from games.buttons.solver import nullity
from tests.support.oracles import dense_solve, rule_mask

CHART = range(1, 65)  # "Each bar is one board size n (1 to 64)"


@pytest.fixture(scope="module")
def bad() -> set[int]:
    return {n for n in CHART if nullity(n)}


def test_a_press_flips_the_button_and_its_four_torus_neighbours() -> None:
    for n in (3, 4, 5, 7):
        for r, c in product(range(n), repeat=2):
            assert Board(n, 0).press(r, c).bits == rule_mask(n, r, c), (n, r, c)


def test_the_sizes_named_as_unsolvable_are_the_first_bad_sizes(bad: set[int]) -> None:
    """"Some sizes (3, 5, 6, 9, 10, ...) have boards that cannot be solved"."""
    named = [int(x) for x in re.search(r"Some sizes \(([\d, ]+), \.\.\.\)", HELP)[1].split(",")]
    assert named == sorted(bad)[: len(named)] == [3, 5, 6, 9, 10]
    for n in range(1, 11):  # and the engine agrees with the dense oracle on them
        assert (n in bad) == (dense_solve(n, (1 << n * n) - 1)[1] != []), n


def test_4x4_codes_are_as_the_help_says() -> None:
    """"4×4 codes are numbers 0-65535 (bit 4·r+c set = red)"."""
    assert "4×4 codes are numbers 0-65535 (bit 4·r+c set = red)" in HELP
    for code in (0, 1, 0b1000_0000_0000_0010, 65535):
        board = parse_code(str(code))
        assert board.n == 4 and board.bits == code and format_code(board) == str(code)
        assert all(board.red(r, c) == bool(code >> (4 * r + c) & 1)
                   for r, c in product(range(4), repeat=2))
    with pytest.raises(ValueError):
        parse_code("65536")


def test_the_explorers_theorems_hold_over_its_chart(bad: set[int]) -> None:
    """The chart's rules: every multiple of a bad n is bad; half of a bad even n is bad;
    2^k − 1 is bad except for k = 1 and 3; 2^k + 1 is bad; the examples named."""
    assert tuple(SIZES) == tuple(CHART) and "(1 to 64)" in ExplorerScene.help_text
    for m in bad:
        assert all(multiple in bad for multiple in range(2 * m, 65, m)), m
        if m % 2 == 0:
            assert m // 2 in bad, m
    for k in range(1, 7):
        assert ((2**k - 1) in bad) == (k not in (1, 3)), k
        if 2**k + 1 <= 64:
            assert 2**k + 1 in bad, k
    assert "(3, 15, 31, 63 bad; 1, 7 good)" in THEOREMS
    assert {3, 15, 31, 63} <= bad and not {1, 7} & bad
    assert "(3, 5, 9, 17, 33 …)" in THEOREMS and {3, 5, 9, 17, 33} <= bad


def test_a_solvable_board_has_two_to_the_nullity_solutions() -> None:
    """"a solvable board has 2^dim solutions": every press set of a 3×3 and a 4×4 board."""
    for n in (3, 4):
        size = n * n
        masks = [rule_mask(n, k // n, k % n) for k in range(size)]
        counts: dict[int, int] = {}
        for presses in range(1 << size):
            effect = 0
            for k in range(size):
                if presses >> k & 1:
                    effect ^= masks[k]
            counts[effect] = counts.get(effect, 0) + 1
        assert set(counts.values()) == {2 ** nullity(n)}, n
        assert len(counts) == 2 ** (size - nullity(n))  # the others cannot be solved
