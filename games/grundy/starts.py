"""Fair start positions for the board games: where the tokens begin.

Every token in the bottom-right corner is the classic start, but on many boards it is
lost for the first player (Rook and Knight 8×8, any even number of tokens sharing a
square): against the Perfect computer a human moving first could never win. The start
keeps the corner when it suits, else moves one token to the square nearest the corner
that does, so the game stays as long as possible. No pygame here.
"""

from __future__ import annotations

from functools import reduce
from operator import xor

from games.grundy.board import BoardConfig, Square, TokenState
from games.grundy.tables import grundy_table


def fair_start(config: BoardConfig, mover_wins: bool = True) -> TokenState:
    """The start of ``config``: every token in the bottom-right corner, except that when
    the player to move would not then have the outcome asked for (``mover_wins``: a won
    position for the first player; else a lost one, for a human who moves second) the
    last token goes to the square closest to that corner which gives it.

    Falls back to the corner when no square gives the outcome (tiny boards).
    """
    table = grundy_table(config.piece, config.rows, config.cols)
    corner = (config.rows - 1, config.cols - 1)
    squares: list[Square] = [corner] * config.tokens
    total = reduce(xor, (int(table[s]) for s in squares), 0)
    corner_start = TokenState.start(config, squares)
    if (total != 0) == mover_wins and not corner_start.is_terminal():
        return corner_start
    rest = total ^ int(table[corner])  # the other tokens' nim-sum
    # Nearest the corner first (the longest games), then bottom rows first.
    candidates = sorted(((r, c) for r in range(config.rows) for c in range(config.cols)),
                        key=lambda s: (-(s[0] + s[1]), -s[0]))
    for square in candidates:
        if ((rest ^ int(table[square])) != 0) != mover_wins:
            continue
        start = TokenState.start(config, [*squares[:-1], square])
        if not start.is_terminal():
            return start
    return corner_start


def mover_should_win(first_is_computer: bool, second_is_computer: bool) -> bool:
    """Whether the start should be won for the first player: yes, unless only the second
    seat is a human (then the human, moving second, gets the won side)."""
    return not (first_is_computer and not second_is_computer)

