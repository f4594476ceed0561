"""Grundy and remoteness tables of the board pieces (SPEC §5): the document, brute force."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from games.grundy.tables import (
    PIECES,
    compute_grundy_table,
    compute_longest_play_table,
    compute_remoteness_table,
    grundy_table,
    mex,
    mex_table_reference,
    recurrence_table,
    remoteness_reference,
    remoteness_table,
    successors,
    zero_squares,
)

# Seed 002, figure 3.1 ("Király játék Grundy – táblája"), typed in from the document.
DOCUMENT_KING = """
0 1 0 1 0 1 0 1
1 2 3 2 3 2 3 2
0 3 0 1 0 1 0 1
1 2 1 2 3 2 3 2
0 3 0 3 0 1 0 1
1 2 1 2 1 2 3 2
0 3 0 3 0 3 0 1
1 2 1 2 1 2 1 2
"""

# Seed 002, figure 3.5 ("Bástya játék Grundy – táblája"), typed in from the document.
DOCUMENT_ROOK = """
0 1 2 3 4 5 6 7
1 0 3 2 5 4 7 6
2 3 0 1 6 7 4 5
3 2 1 0 7 6 5 4
4 5 6 7 0 1 2 3
5 4 7 6 1 0 3 2
6 7 4 5 2 3 0 1
7 6 5 4 3 2 1 0
"""

# Pieces whose moves never increase the row or the column: the table of a
# smaller board is the top-left corner of a bigger one. Not the knight: its
# (+1, −2) step goes down a row and (−2, +1) right a column.
CORNER_PIECES = ("king", "rook", "queen")
SIDE = 20


def parse(text: str) -> np.ndarray:
    return np.array([[int(x) for x in line.split()] for line in text.strip().splitlines()])


@pytest.fixture(scope="module")
def reference_20() -> dict[str, np.ndarray]:
    """The plain mex recursion on 20×20, once per corner piece."""
    return {piece: mex_table_reference(piece, SIDE, SIDE) for piece in CORNER_PIECES}


def test_king_table_is_the_documents() -> None:
    assert np.array_equal(grundy_table("king", 8, 8), parse(DOCUMENT_KING))
    assert np.array_equal(mex_table_reference("king", 8, 8), parse(DOCUMENT_KING))


def test_rook_table_is_the_documents_and_the_nim_sum() -> None:
    doc = parse(DOCUMENT_ROOK)
    assert np.array_equal(grundy_table("rook", 8, 8), doc)
    assert np.array_equal(mex_table_reference("rook", 8, 8), doc)
    assert all(doc[i, j] == i ^ j for i in range(8) for j in range(8))
    # The document's worked nim-sum: 3 ⊕ 5 = 6 is row 3, column 5 of the rook table.
    assert doc[3, 5] == 6


@pytest.mark.parametrize("piece", [p if p != "queen" else pytest.param(p, marks=pytest.mark.slow)
                                   for p in CORNER_PIECES])
def test_every_board_up_to_20_matches_the_mex_recursion(
        piece: str, reference_20: dict[str, np.ndarray]) -> None:
    ref = reference_20[piece]
    for rows in range(1, SIDE + 1):
        for cols in range(1, SIDE + 1):
            table = compute_grundy_table(piece, rows, cols)
            assert table.shape == (rows, cols)
            assert np.array_equal(table, ref[:rows, :cols]), (piece, rows, cols)


@pytest.mark.slow
def test_knight_every_board_up_to_20_matches_the_mex_recursion() -> None:
    for rows in range(1, SIDE + 1):
        for cols in range(1, SIDE + 1):
            ref = mex_table_reference("knight", rows, cols)
            assert np.array_equal(compute_grundy_table("knight", rows, cols), ref), (rows, cols)


def test_knight_table_really_depends_on_the_board_height() -> None:
    # Guard for the test above: a corner slice would not have been enough.
    big = mex_table_reference("knight", 6, 6)
    assert not np.array_equal(mex_table_reference("knight", 2, 6), big[:2, :])
    assert not np.array_equal(mex_table_reference("knight", 6, 2), big[:, :2])


def test_reference_is_the_mex_definition_on_a_hand_case() -> None:
    assert mex(set()) == 0 and mex({0, 1, 3}) == 2 and mex({1, 2}) == 0
    # Rook on (1, 2): successors (1, 1), (1, 0), (0, 2) with values 0, 1, 2 → mex 3.
    assert sorted(successors("rook", 4, 4, 1, 2)) == [(0, 2), (1, 0), (1, 1)]
    assert mex_table_reference("rook", 4, 4)[1, 2] == 3


@pytest.mark.slow
def test_rook_is_the_nim_sum_on_large_boards() -> None:
    rows, cols = 1024, 768
    table = grundy_table("rook", rows, cols)
    # The closed form against the independent bitset mex recurrence ...
    assert np.array_equal(table, recurrence_table("rook", rows, cols))
    # ... and the nim-sum on a huge board, cell by cell where it is cheap to ask.
    rng = random.Random(5)
    huge = grundy_table("rook", 4096, 4096)
    for _ in range(2000):
        i, j = rng.randrange(4096), rng.randrange(4096)
        assert huge[i, j] == i ^ j


def test_king_closed_form_holds_on_every_board() -> None:
    # Whether a cell obeys the mex rule under the closed form depends only on its
    # type (which successors exist, and their parities and order); a type seen
    # on 6×6 behaves alike everywhere, and every type of a big board is seen
    # there, so the checks up to 20×20 prove the closed form for every size.
    def cell_type(i: int, j: int) -> tuple:
        return (i % 2, j % 2, max(-2, min(2, i - j)), i == 0, j == 0)

    small = {cell_type(i, j) for i in range(6) for j in range(6)}
    assert small == {cell_type(i, j) for i in range(60) for j in range(60)}
    table = grundy_table("king", 6, 6)
    for i in range(6):
        for j in range(6):
            assert table[i, j] == mex({int(table[q]) for q in successors("king", 6, 6, i, j)})


def test_king_closed_form_against_the_recurrence_on_a_large_board() -> None:
    rows, cols = 700, 900
    assert np.array_equal(grundy_table("king", rows, cols), recurrence_table("king", rows, cols))


@pytest.mark.parametrize("piece", PIECES)
def test_large_tables_satisfy_the_mex_rule_at_random_cells(piece: str) -> None:
    # Local consistency everywhere is what defines the Grundy function; check it
    # at random cells of a big board straight from the rules.
    rows, cols = (1500, 1300) if piece in ("king", "rook") else (400, 300)
    table = grundy_table(piece, rows, cols)
    rng = random.Random(piece)
    for _ in range(300):
        r, c = rng.randrange(rows), rng.randrange(cols)
        assert table[r, c] == mex({int(table[q]) for q in successors(piece, rows, cols, r, c)})


def wythoff_pairs(limit: int) -> set[tuple[int, int]]:
    """(⌊kφ⌋, ⌊kφ²⌋) and mirrors below ``limit``, in exact integer arithmetic."""
    out = set()
    k = 0
    while True:
        a = (k + math.isqrt(5 * k * k)) // 2  # ⌊k(1 + √5)/2⌋, exactly
        b = a + k  # ⌊kφ²⌋ = ⌊kφ⌋ + k
        if a >= limit:
            return out
        if b < limit:
            out.update({(a, b), (b, a)})
        k += 1


@pytest.mark.slow
def test_queen_zeros_are_the_wythoff_pairs() -> None:
    assert wythoff_pairs(20) >= {(0, 0), (1, 2), (2, 1), (3, 5), (4, 7), (6, 10), (8, 13)}
    n = 1024
    zeros = set(zero_squares("queen", n, n))
    assert zeros == wythoff_pairs(n)
    # A rectangle too: the zeros are the pairs that fit.
    rect = set(zip(*np.nonzero(compute_grundy_table("queen", 300, 1000) == 0), strict=True))
    assert {(int(a), int(b)) for a, b in rect} == {
        (a, b) for a, b in wythoff_pairs(1000) if a < 300}


@pytest.mark.slow
def test_queen_1024_corner_matches_the_plain_recursion() -> None:
    big = grundy_table("queen", 1024, 1024)
    assert np.array_equal(big[:64, :64], mex_table_reference("queen", 64, 64))


def test_tables_are_cached_read_only_int_arrays() -> None:
    a = grundy_table("queen", 12, 9)
    assert a is grundy_table("queen", 12, 9)
    assert a.dtype == np.int32 and a.shape == (12, 9)
    with pytest.raises(ValueError):
        a[0, 0] = 5
    r = remoteness_table("queen", 12, 9)
    assert r is remoteness_table("queen", 12, 9) and not r.flags.writeable


@pytest.mark.parametrize("args", [("bishop", 8, 8), ("king", 0, 8), ("rook", 8, 4097),
                                  ("queen", 2.5, 3)])
def test_bad_arguments(args: tuple) -> None:
    with pytest.raises(ValueError):
        grundy_table(*args)


# --- remoteness --------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("piece", CORNER_PIECES)
def test_remoteness_matches_the_plain_recursion(piece: str) -> None:
    ref = remoteness_reference(piece, 16, 16)
    for rows in range(1, 17):
        for cols in range(1, 17):
            assert np.array_equal(compute_remoteness_table(piece, rows, cols),
                                  ref[:rows, :cols]), (rows, cols)


@pytest.mark.slow
def test_knight_remoteness_matches_the_plain_recursion() -> None:
    for rows in range(1, 13):
        for cols in range(1, 13):
            assert np.array_equal(compute_remoteness_table("knight", rows, cols),
                                  remoteness_reference("knight", rows, cols)), (rows, cols)


@pytest.mark.parametrize("piece", PIECES)
def test_remoteness_parity_tells_the_outcome_on_64(piece: str) -> None:
    rem = remoteness_table(piece, 64, 64)
    g = grundy_table(piece, 64, 64)
    # Even exactly on the lost cells; positive wherever a move exists.
    assert np.array_equal(rem % 2 == 0, g == 0)
    for r, c in [(0, 0), (63, 63), (5, 40), (63, 0)]:
        assert (rem[r, c] == 0) == (not successors(piece, 64, 64, r, c))


def test_rook_remoteness_by_hand() -> None:
    # From (3, 3) (lost) the loser stalls: (3, 3)→(2, 3)→(2, 2)→(1, 2)→(1, 1)→(0, 1)→(0, 0).
    rem = remoteness_table("rook", 8, 8)
    assert rem[3, 3] == 6 and rem[2, 5] == 5 and rem[0, 7] == 1


@pytest.mark.parametrize("piece", PIECES)
def test_longest_play_matches_brute_force(piece: str) -> None:
    rows, cols = 9, 11
    memo: dict[tuple[int, int], int] = {}

    def longest(cell: tuple[int, int]) -> int:
        if cell not in memo:
            nexts = successors(piece, rows, cols, *cell)
            memo[cell] = 1 + max(map(longest, nexts)) if nexts else 0
        return memo[cell]

    table = compute_longest_play_table(piece, rows, cols)
    assert all(table[r, c] == longest((r, c)) for r in range(rows) for c in range(cols))
