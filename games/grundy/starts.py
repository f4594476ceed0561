"""Fair start positions for the board games: where the tokens begin.

Every token in the bottom-right corner is the classic start, but on many boards it is
lost for the first player (Rook and Knight 8×8, any even number of tokens sharing a
square): against the Perfect computer a human moving first could never win. The start
keeps the corner when it suits, else moves one token to the square nearest the corner
that does, so the game stays as long as possible. No pygame here.
"""

from __future__ import annotations

import random
from functools import reduce
from operator import xor
from typing import Any

from games.grundy.board import BoardConfig, Square, TokenState
from games.grundy.tables import grundy_table

# Tries at dealing a start: the tokens before the last one (every token for a piece of
# EITHER_SIDE), dealt again where the last has no square or the game would be over.
DEAL_TRIES = 64
# How strongly a dealt start favours squares far from the goal, per piece (see
# dealt_start), measured with tests/benchmarks/bench_ladder.py and the variety test
# (tests/engine/ai/test_levels_by_work.py): the King's games are short and nearly forced,
# so it needs far starts (long games) for its levels to stay about two games in three
# apart (at 4, two of its five pairs fall under 65 %), yet enough different starts for its
# Perfect–Hard games to vary (with starts won for the first player only, at 8 34 of 40
# differed, at 6 36; see EITHER_SIDE); the Queen jumps, so its
# games vary by their starts and want many of them (steeper deals repeat a third of its
# games).
DEAL_POWER = {"king": 6, "rook": 2, "queen": 2, "knight": 2}
# Pieces whose dealt starts may be lost for the first player as well as won. The King's
# won squares each have one winning move, so games between two strong levels differ only
# by their start and the losing side's choices; its lost squares with a move left (15 on
# 8×8) give more starts (King's walk Perfect–Hard, issue 32: on average 37.5 different
# games of 40, where starts won for the first player gave 36.5), and as a ladder's games
# alternate sides, each level faces both. The Queen has only 6 such squares on 8×8
# (Wythoff's pairs), which would repeat its games more (Medium–Easy: 33 different of 40).
EITHER_SIDE = ("king",)


def _nim_sum(table: Any, squares: list[Square]) -> int:
    """The tokens' nim-sum: the XOR of their squares' Grundy values in ``table``."""
    return reduce(xor, (int(table[s]) for s in squares), 0)


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
    total = _nim_sum(table, squares)
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


def dealt_start(config: BoardConfig, rng: random.Random) -> TokenState:
    """A start dealt at random for a game between two computers, won for the first player
    (for a piece of ``EITHER_SIDE``, won or lost alike): each token on a square dealt with a
    weight that grows with its distance from the goal corner (the top left), as
    ``(row + column) ** DEAL_POWER[piece]`` (far squares give long games, near ones many
    different starts), the last token where the tokens' nim-sum is not 0. Falls back to
    :func:`fair_start` where that cannot be done (tiny boards)."""
    squares_all = [(r, c) for r in range(config.rows) for c in range(config.cols)]
    weights = [(r + c) ** DEAL_POWER[config.piece] for r, c in squares_all]
    if config.piece in EITHER_SIDE:
        for _try in range(DEAL_TRIES):
            start = TokenState.start(config, rng.choices(squares_all, weights, k=config.tokens))
            if not start.is_terminal():
                return start
    table = grundy_table(config.piece, config.rows, config.cols)
    for _try in range(DEAL_TRIES):
        squares = rng.choices(squares_all, weights, k=config.tokens - 1)
        rest = _nim_sum(table, squares)
        fits = [(s, w) for s, w in zip(squares_all, weights, strict=True)
                if rest ^ int(table[s]) and w]
        if fits:
            last = rng.choices([s for s, _w in fits], [w for _s, w in fits])[0]
            start = TokenState.start(config, [*squares, last])
            if not start.is_terminal():
                return start
    return fair_start(config)


def dealt_node(graph: Any, rng: random.Random) -> Any:
    """A graph game's start dealt at random for two computers: the token on a node won for
    the first player (the graph's own start where there is none)."""
    from games.grundy.graphs import GraphState, label_outcomes

    won = [u for u, outcome in enumerate(label_outcomes(graph)) if outcome == "win"]
    return GraphState(graph, rng.choice(won)) if won else GraphState.start(graph)


def mover_should_win(first_is_computer: bool, second_is_computer: bool) -> bool:
    """Whether the start should be won for the first player: yes, unless only the second
    seat is a human (then the human, moving second, gets the won side)."""
    return not (first_is_computer and not second_is_computer)

