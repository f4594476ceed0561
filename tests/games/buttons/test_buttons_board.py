"""Button Madness boards (SPEC §6): presses by the rule, board codes, the generator."""

from __future__ import annotations

import random
import sys
import time
from collections import Counter

import numpy as np
import pytest

from games.buttons.board import (
    MAX_N,
    Board,
    CodeError,
    bits_to_presses,
    decimal_to_int,
    format_code,
    generate,
    int_to_decimal,
    max_code_digits,
    parse_code,
    press_effect,
    press_mask,
    presses_to_bits,
)
from games.buttons.solver import is_solvable, nullity


def rule_mask(n: int, r: int, c: int) -> int:
    """The rule as written: flip the cell and its four wrapped neighbours, counting each flip."""
    flips = Counter([(r, c), ((r + 1) % n, c), ((r - 1) % n, c), (r, (c + 1) % n),
                     (r, (c - 1) % n)])
    return sum(1 << (n * rr + cc) for (rr, cc), k in flips.items() if k % 2)


def rule_apply(n: int, bits: int, presses: list[tuple[int, int]]) -> int:
    for r, c in presses:
        bits ^= rule_mask(n, r, c)
    return bits


# --- presses ----------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 65, 100])
def test_press_mask_is_the_rule(n: int) -> None:
    cells = [(r, c) for r in range(n) for c in range(n)]
    if n > 10:
        cells = [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1), (n // 2, 1), (3, n // 3)]
    for r, c in cells:
        assert press_mask(n, r, c) == rule_mask(n, r, c) == Board.press_mask(n, r, c)


def test_tiny_boards_cancel_coinciding_flips() -> None:
    # n = 1: five flips of the one cell, an odd number: it flips.
    assert press_mask(1, 0, 0) == 1
    # n = 2: left = right and up = down neighbour, each flipped twice: only the cell changes.
    assert [press_mask(2, r, c) for r in range(2) for c in range(2)] == [1, 2, 4, 8]
    # n = 3: five distinct cells.
    assert press_mask(3, 1, 1).bit_count() == 5
    assert press_mask(3, 0, 0) == sum(1 << k for k in (0, 1, 2, 3, 6))


def test_press_is_an_involution_and_presses_commute() -> None:
    rng = random.Random(5)
    for n in (1, 2, 3, 4, 6, 9):
        board = Board(n, rng.getrandbits(n * n))
        for _ in range(20):
            r, c = rng.randrange(n), rng.randrange(n)
            assert board.press(r, c).press(r, c) == board
        presses = [(rng.randrange(n), rng.randrange(n)) for _ in range(30)]
        shuffled = presses[:]
        rng.shuffle(shuffled)
        assert board.apply(presses) == board.apply(shuffled)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 70])
def test_apply_many_presses_matches_the_rule(n: int) -> None:
    # More than 64 presses takes the numpy path (grid XOR its four rolls).
    rng = random.Random(n)
    board = Board(n, rng.getrandbits(n * n))
    for count in (0, 1, 10, 64, 65, 300):
        presses = [(rng.randrange(n), rng.randrange(n)) for _ in range(count)]
        expected = rule_apply(n, board.bits, presses)
        assert board.apply(presses).bits == expected
        assert board.apply(iter(presses)).bits == expected
        one_by_one = board
        for r, c in presses:
            one_by_one = one_by_one.press(r, c)
        assert one_by_one.bits == expected


def test_press_effect_and_press_bit_conversions() -> None:
    rng = random.Random(11)
    for n in (1, 2, 3, 4, 9, 40):
        for _ in range(5):
            bits = rng.getrandbits(n * n)
            presses = bits_to_presses(n, bits)
            assert presses == sorted(presses)
            assert presses_to_bits(n, presses) == bits
            assert press_effect(n, bits) == rule_apply(n, 0, presses)
    # A button pressed twice cancels.
    assert presses_to_bits(3, [(1, 1), (0, 2), (1, 1)]) == 1 << 2
    with pytest.raises(ValueError, match="off the 3×3 board"):
        presses_to_bits(3, [(0, 3)])
    with pytest.raises(ValueError, match="off the 4×4 board"):
        Board.solved(4).apply([(4, 0)])
    with pytest.raises(ValueError, match="off the 4×4 board"):
        Board.solved(4).apply([(0, 0)] * 70 + [(-1, 0)])


# --- boards -----------------------------------------------------------------


def test_board_basics() -> None:
    solved = Board.solved(4)
    assert solved.bits == 65535 and solved.is_solved and solved.green_count == 0
    assert Board.solved(5).bits == 33554431
    board = Board(4, 0b1000_0000_0000_0101)
    assert not board.is_solved
    assert board.green_count == 13
    assert board.red(0, 0) and not board.red(0, 1) and board.red(0, 2) and board.red(3, 3)
    assert board.green_bits == 65535 ^ board.bits
    with pytest.raises(ValueError):
        board.red(4, 0)
    grid = board.to_grid()
    assert grid.shape == (4, 4) and grid.dtype == bool
    assert grid[0, 0] and grid[3, 3] and grid.sum() == 3
    assert Board.from_grid(grid) == board
    big = Board(300, random.Random(1).getrandbits(300 * 300))
    assert Board.from_grid(big.to_grid()) == big


@pytest.mark.parametrize("n, bits", [(0, 0), (MAX_N + 1, 0), (4, -1), (4, 65536), (2, 16),
                                     (True, 1), (4, 1.5), (4.0, 1)])
def test_board_rejects_bad_values(n: object, bits: object) -> None:
    with pytest.raises(ValueError):
        Board(n, bits)  # type: ignore[arg-type]


# --- decimal conversion of big numbers ---------------------------------------


def test_decimal_conversion_beyond_pythons_digit_limit() -> None:
    rng = random.Random(3)
    for bits in (1, 10, 1000, 13000, 40000):
        v = rng.getrandbits(bits)
        s = int_to_decimal(v)
        if len(s) < 4000:
            assert s == str(v) and decimal_to_int(s) == v
        assert decimal_to_int(s) == v
    # Independent values: powers of ten, and 10^k − 1, far past 4,300 digits.
    for k in (4299, 4300, 9001, 30000):
        assert int_to_decimal(10**k) == "1" + "0" * k
        assert int_to_decimal(10**k - 1) == "9" * k
        assert decimal_to_int("1" + "0" * k) == 10**k
        assert decimal_to_int("0" * 5000 + "7") == 7
    assert int_to_decimal(0) == "0"


@pytest.mark.slow
def test_decimal_conversion_past_the_multiplication_pieces() -> None:
    """Numbers whose halves exceed _PIECE_DIGITS (their product is summed from pieces),
    checked against Python's own conversion with its digit limit lifted."""
    from games.buttons.board import _PIECE_DIGITS

    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        rng = random.Random(4)
        for bits in (300_000, 1_000_000):
            v = rng.getrandbits(bits) | 1 << (bits - 1)
            text = int_to_decimal(v)
            assert len(text) > 2 * _PIECE_DIGITS and text == str(v)
        k = 3 * _PIECE_DIGITS + 17
        assert int_to_decimal(10**k) == "1" + "0" * k
        assert int_to_decimal(10**k - 1) == "9" * k
    finally:
        sys.set_int_max_str_digits(limit)


@pytest.mark.slow
def test_max_code_digits() -> None:
    for n in range(1, 60):
        assert max_code_digits(n) == len(str((1 << (n * n)) - 1))
    for n in (200, 1000):
        assert max_code_digits(n) == len(int_to_decimal((1 << (n * n)) - 1))
    assert max_code_digits(1000) == 301030


# --- codes --------------------------------------------------------------------


def test_contract_examples() -> None:
    assert parse_code("65535") == Board.solved(4)
    assert parse_code("65535").is_solved
    assert parse_code("5x5:33554431") == Board.solved(5)
    assert parse_code("5X5:33554431").is_solved
    assert parse_code("0") == Board(4, 0)
    assert parse_code("12345") == Board(4, 12345)
    assert parse_code(" \t 00065535 \n") == Board.solved(4)
    assert parse_code("4x4:7") == Board(4, 7)
    assert parse_code("1x1:1").is_solved and parse_code("1x1:0") == Board(1, 0)
    assert format_code(Board.solved(4)) == "65535"
    assert format_code(Board.solved(5)) == "5x5:33554431"
    assert format_code(Board(4, 0)) == "0"
    assert format_code(Board(3, 5)) == "3x3:5"


@pytest.mark.slow
def test_codes_round_trip() -> None:
    rng = random.Random(8)
    for n in [*range(1, 21), 31, 64, 100, 257, 1000]:
        for _ in range(3 if n < 100 else 1):
            board = Board(n, rng.getrandbits(n * n))
            code = format_code(board)
            assert parse_code(code) == board
            assert parse_code(f"  {code}  ") == board
        assert parse_code(format_code(Board.solved(n))).is_solved
        assert parse_code(format_code(Board(n, 0))) == Board(n, 0)


@pytest.mark.parametrize("text, message", [
    ("abc", "'abc' is not a number: only the ASCII digits 0-9"),
    ("-1", "'-1' has a sign"),
    ("+5", "'+5' has a sign"),
    ("65536", "65536 is too large for a 4×4 board (at most 65535)"),
    ("4x4:65536", "65536 is too large for a 4×4 board (at most 65535)"),
    ("2x2:16", "16 is too large for a 2×2 board (at most 15)"),
    ("4x5:1", "4x5 is not square"),
    ("0x0:0", "size 0x0 is not supported: n must be 1..1000"),
    ("1001x1001:0", "size 1001x1001 is not supported: n must be 1..1000"),
    ("99999999999x99999999999:0", "is not supported: n must be 1..1000"),
    ("5x5:", "missing the number after '5x5:'"),
    ("5x5:12a", "'12a' is not a number"),
    ("5x5:-3", "'-3' has a sign"),
    ("5x5: 3", "' 3' is not a number"),
    ("5x5:1:2", "'1:2' is not a number"),
    ("", "empty code"),
    ("   \t\n ", "empty code"),
    ("١٢٣", "'١٢٣' is not a number: only the ASCII digits 0-9"),
    ("5x5:١٢", "only the ASCII digits 0-9"),
    ("٥x٥:1", "is not a board size"),
    ("5x5", "needs a colon"),
    ("x5:3", "'x5' is not a board size"),
    ("5xx5:3", "is not a board size"),
    (":3", "'' is not a board size"),
    ("12 34", "'12 34' is not a number"),
    ("1e5", "'1e5' is not a number"),
    ("0x10", "needs a colon"),
])
def test_rejections_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(CodeError) as info:
        parse_code(text)
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.slow
def test_huge_numbers_are_rejected_by_length_fast() -> None:
    for text, expect in [("9" * 100_000, "a 100000-digit number is too large for a 4×4 board"),
                         ("1" * 10_000_000, "a 10000000-digit number is too large"),
                         ("3x3:" + "5" * 100_000, "(at most 511)"),
                         ("1000x1000:" + "1" * 301_031, "2^1000000 − 1, a 301030-digit number")]:
        start = time.process_time()
        with pytest.raises(CodeError) as info:
            parse_code(text)
        assert time.process_time() - start < 0.5
        assert expect in str(info.value)
        assert len(str(info.value)) < 200
    # Same length as the largest 1000×1000 code but larger: found by value, still quick.
    start = time.process_time()
    with pytest.raises(CodeError, match="too large for a 1000×1000 board"):
        parse_code("1000x1000:" + "9" * 301_030)
    assert time.process_time() - start < 1.0
    # Leading zeros don't count towards the length.
    assert parse_code("0" * 200_000 + "65535").is_solved


def test_messages_quote_long_text_briefly() -> None:
    with pytest.raises(CodeError) as info:
        parse_code("7" * 50_000 + "z")
    assert len(str(info.value)) < 120 and "50001 characters" in str(info.value)


# --- generator ------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 10, 31])
def test_generator_boards_are_solvable_and_unsolved(n: int) -> None:
    seen = set()
    for seed in range(60 if n < 10 else 15):
        board, presses = generate(n, random.Random(seed))
        assert board.n == n and not board.is_solved
        assert board.apply(presses).is_solved  # the presses that made it undo it
        assert is_solvable(board)
        assert presses == sorted(set(presses))
        seen.add(board.bits)
    if n == 1:
        assert seen == {0}
    elif n >= 3:
        assert len(seen) > 10


@pytest.mark.slow
def test_generator_on_big_and_bad_sizes() -> None:
    for n in (100, 255):
        assert nullity(n) > 0
        board, presses = generate(n, random.Random(n))
        assert not board.is_solved and board.apply(presses).is_solved and is_solvable(board)


def test_generator_retries_press_sets_in_the_null_space() -> None:
    class Scripted(random.Random):
        """Draws a null-space press set first (3×3 has nullity 4), then nothing, then one."""

        def __init__(self) -> None:
            super().__init__(0)
            self.draws = [0b000_111_111, 0, 1]

        def getrandbits(self, k: int) -> int:
            return self.draws.pop(0)

    # Pressing the top two rows of a 3×3 flips every cell twice: nothing changes.
    assert rule_apply(3, 0, bits_to_presses(3, 0b000_111_111)) == 0
    board, presses = generate(3, Scripted())
    assert presses == [(0, 0)] and board == Board.solved(3).press(0, 0)


def test_generator_rejects_bad_sizes() -> None:
    for n in (0, MAX_N + 1, -3):
        with pytest.raises(ValueError):
            generate(n, random.Random(0))


def test_grid_helpers_are_consistent_with_bits() -> None:
    board = Board(3, 0b100_010_001)
    assert np.array_equal(board.to_grid(), np.eye(3, dtype=bool))
