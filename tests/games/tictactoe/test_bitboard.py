"""Bitboard masks agree with the rules' own win detection."""

from __future__ import annotations

import random

import pytest

from games.tictactoe.bitboard import layout, to_bits
from games.tictactoe.rules import MNKConfig, TicTacToeState


@pytest.mark.parametrize("rows,cols,k,expected", [
    (3, 3, 3, 8), (4, 4, 4, 10), (4, 4, 3, 24), (5, 4, 4, 17), (5, 5, 4, 28), (15, 15, 5, 572),
])
def test_line_counts(rows, cols, k, expected) -> None:
    assert len(layout(rows, cols, k).lines) == expected


def test_symmetries_are_permutations_mapping_lines_to_lines() -> None:
    for rows, cols, k in ((3, 3, 3), (4, 5, 3), (6, 6, 4)):
        lay = layout(rows, cols, k)
        assert len(lay.symmetries) == (8 if rows == cols else 4)
        lines = set(lay.lines)
        for perm in lay.symmetries:
            assert sorted(perm) == list(range(rows * cols))
            assert {lay.permute(m, perm) for m in lay.lines} == lines


@pytest.mark.slow
def test_wins_and_threats_match_the_rules_on_random_games() -> None:
    rng = random.Random(5)
    for rows, cols, k in ((3, 3, 3), (4, 4, 3), (5, 5, 4), (7, 6, 4)):
        lay = layout(rows, cols, k)
        cfg = MNKConfig(rows, cols, k)
        for _ in range(40):
            s = TicTacToeState.new(cfg)
            while not s.is_terminal():
                mine, theirs = to_bits(s)[s.to_move], to_bits(s)[1 - s.to_move]
                threats = lay.winning_cells(mine, theirs)
                for move in s.legal_moves():
                    assert bool(threats >> move & 1) == (s.play(move).winner == s.to_move)
                s = s.play(rng.choice(s.legal_moves()))
            bits = to_bits(s)
            mover = 1 - s.to_move
            assert lay.has_line(bits[mover]) == (s.winner == mover)
            assert lay.wins(bits[mover], s.last_move) == (s.winner == mover)
