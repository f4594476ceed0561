"""Every reason a ranked hint gives is true of the board (issue 28, item 2).

:func:`games.tictactoe.threats.square_threats` is checked against an independent
pattern counter written here on grid coordinates (no bitboards, no windows masks):
on hand-built positions, one for each reason it can give, and on random positions
of the 3-, 4- and 5-in-a-row boards, every empty square's reason is the one the
definitions (the module's docstring) give. The classifier and the counter must
agree exactly: a reason is given when, and only when, its pattern is on the board
and no stronger one is.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games.tictactoe.rules import EMPTY, MNKConfig, TicTacToeState
from games.tictactoe.threats import REASONS, square_threats

Square = tuple[int, int]
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
GOMOKU = MNKConfig(15, 15, 5)
NUMBER = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


class Grid:
    """A position as a dict of squares (row, col) → 0, 1 or None."""

    def __init__(self, state: TicTacToeState) -> None:
        cfg = state.config
        self.rows, self.cols, self.k = cfg.rows, cfg.cols, cfg.k
        self.at: dict[Square, int | None] = {
            (r, c): (None if state.board[r * cfg.cols + c] == EMPTY
                     else state.board[r * cfg.cols + c])
            for r in range(cfg.rows) for c in range(cfg.cols)}

    def with_marks(self, player: int, *squares: Square) -> Grid:
        new = object.__new__(Grid)
        new.rows, new.cols, new.k = self.rows, self.cols, self.k
        new.at = dict(self.at)
        for sq in squares:
            new.at[sq] = player
        return new

    def segments(self, square: Square) -> Iterator[list[Square]]:
        """Every k squares in a row on the board that include ``square``."""
        r, c = square
        for dr, dc in DIRECTIONS:
            for back in range(self.k):
                seg = [(r + (i - back) * dr, c + (i - back) * dc) for i in range(self.k)]
                if all(sq in self.at for sq in seg):
                    yield seg

    def open_segments(self, square: Square, player: int) -> list[list[Square]]:
        return [seg for seg in self.segments(square)
                if all(self.at[sq] in (None, player) for sq in seg)]


def completing(grid: Grid, player: int, square: Square) -> set[Square]:
    """Empty squares that, played by ``player``, fill k in a row together with ``square``
    (which holds ``player``'s mark)."""
    out = set()
    for seg in grid.open_segments(square, player):
        empty = [sq for sq in seg if grid.at[sq] is None]
        if len(empty) == 1:
            out.add(empty[0])
    return out


def open_four(grid: Grid, player: int, ends: set[Square], *inside: Square) -> bool:
    """Whether ``ends`` are the two empty ends of k − 1 of ``player``'s marks in a row
    that include ``inside``."""
    if len(ends) != 2:
        return False
    a, b = sorted(ends)
    for dr, dc in DIRECTIONS:
        for sign in (1, -1):
            run = [(a[0] + i * dr * sign, a[1] + i * dc * sign) for i in range(1, grid.k)]
            after = (a[0] + grid.k * dr * sign, a[1] + grid.k * dc * sign)
            if after == b and all(grid.at.get(sq) == player for sq in run):
                return all(sq in run for sq in inside)
    return False


def gain(grid: Grid, player: int, square: Square) -> tuple[str, bool]:
    """What ``player`` gets by playing the empty ``square``: ("win" | "two" | "one" |
    "setup" | "touch" | "nothing", whether it is the open kind)."""
    k = grid.k
    for seg in grid.open_segments(square, player):
        if sum(grid.at[sq] == player for sq in seg) == k - 1:
            return "win", False
    after = grid.with_marks(player, square)
    wins = completing(after, player, square)
    if len(wins) >= 2:
        return "two", open_four(after, player, wins, square)
    if wins:
        return "one", False
    found = opened = False
    r, c = square
    for other in grid.at:
        if grid.at[other] is not None or other == square:
            continue
        if max(abs(other[0] - r), abs(other[1] - c)) >= k:
            continue  # too far to share k in a row with the square
        both = after.with_marks(player, other)
        later = completing(both, player, other)
        alone = completing(grid.with_marks(player, other), player, other)
        if len(later) >= 2 and len(alone) < 2:
            found = True
            opened = opened or open_four(both, player, later, square, other)
    if found:
        return "setup", opened
    if any(any(grid.at[sq] == player for sq in seg)
           for seg in grid.open_segments(square, player)):
        return "touch", False
    return "nothing", False


def expected_reason(grid: Grid, me: int, square: Square) -> str:
    """The reason the module's definitions give ``square`` (for ``me`` to move)."""
    k = grid.k
    four, three = NUMBER.get(k - 1, str(k - 1)), NUMBER.get(k - 2, str(k - 2))
    a, a_open = gain(grid, me, square)
    d, d_open = gain(grid, 1 - me, square)
    if a == "win":
        return "wins now"
    if d == "win":
        return "blocks their win"
    if a == "two":
        return f"open {four}: two ways to win" if a_open else "fork: two ways to win"
    if d == "two":
        return f"stops their open {three}" if d_open else "stops them making a fork"
    if a == "one":
        return f"makes {four}: threatens to win"
    if a == "setup":
        return f"makes an open {three}" if a_open and k > 3 else "sets up a fork"
    if d == "one":
        return f"stops them making {four}"
    if d == "setup":
        return (f"stops them making an open {three}" if d_open and k > 3
                else "stops them setting up a fork")
    if a == "touch":
        return "extends a line"
    if d == "touch":
        return "blocks a line"
    lines = len(grid.open_segments(square, me))
    return "on 1 open line" if lines == 1 else f"on {lines} open lines"


def position(marks: dict[Square, str], config: MNKConfig = GOMOKU
             ) -> TicTacToeState:
    grid = [["."] * config.cols for _ in range(config.rows)]
    for (r, c), mark in marks.items():
        grid[r][c] = mark
    return TicTacToeState.from_rows(["".join(row) for row in grid], config)


def far(mark: str, count: int) -> dict[Square, str]:
    """``count`` marks in the corners of 15×15, out of reach of the centre's lines."""
    return dict.fromkeys([(0, 0), (0, 14), (14, 0), (14, 14), (0, 7), (14, 7)][:count], mark)


def row(mark: str, *cols: int, r: int = 7) -> dict[Square, str]:
    return {(r, c): mark for c in cols}


def col(mark: str, *rows: int, c: int = 7) -> dict[Square, str]:
    return {(r, c): mark for r in rows}


# (marks, square, the reason). X moves where the counts are equal, O where X has one more.
HAND_BUILT = [
    ({**row("X", 3, 4, 5, 6), **far("O", 4)}, (7, 7), "wins now"),
    ({**row("O", 3, 4, 5, 6), **far("X", 4)}, (7, 7), "blocks their win"),
    ({**row("X", 4, 5, 6), **far("O", 3)}, (7, 7), "open four: two ways to win"),
    ({**row("X", 4, 5, 6), **col("X", 4, 5, 6), (7, 3): "O", (3, 7): "O", **far("O", 4)},
     (7, 7), "fork: two ways to win"),
    # O has three in a row with both ends open: that is their open three.
    ({**row("O", 4, 5, 6), **far("X", 3)}, (7, 7), "stops their open three"),
    ({**row("O", 4, 5, 6), **col("O", 4, 5, 6), (7, 3): "X", (3, 7): "X", **far("X", 4)},
     (7, 7), "stops them making a fork"),
    ({**row("X", 4, 5, 6), (7, 3): "O", **far("O", 2)}, (7, 7), "makes four: threatens to win"),
    ({**row("X", 5, 6), **far("O", 2)}, (7, 7), "makes an open three"),
    ({**row("X", 4, 5), **col("X", 4, 5, 6), (7, 3): "O", (3, 7): "O", **far("O", 3)},
     (7, 6), "sets up a fork"),
    # O's three is closed at one end: X stops a four, not an open three.
    ({**row("O", 4, 5, 6), (7, 3): "X", **far("X", 2)}, (7, 7), "stops them making four"),
    # O has two stones: X stops them making an open three (they have none yet).
    ({**row("O", 5, 6), **far("X", 2)}, (7, 7), "stops them making an open three"),
    ({**row("O", 4, 5), **col("O", 4, 5, 6), (7, 3): "X", (3, 7): "X", **far("X", 3)},
     (7, 6), "stops them setting up a fork"),
    ({(7, 7): "X", **far("O", 1)}, (7, 8), "extends a line"),
    ({(7, 7): "O", (0, 0): "X"}, (7, 8), "blocks a line"),
    ({(0, 0): "X", (14, 14): "O"}, (7, 7), "on 20 open lines"),
]
# On 5×5 with 5 in a row: the corner's column and diagonal are dead for both.
ONE_LINE = ({(1, 0): "O", (2, 0): "X", (1, 1): "O", (2, 2): "X"}, (0, 0), "on 1 open line")


def _template_of(reason: str) -> str:
    """The REASONS template ``reason`` is made from (the one saying most of it itself,
    as the legend reads it: "stops them making {four}" also matches "... an open three")."""
    import re

    found = [template for template in REASONS if re.fullmatch(
        re.escape(template).replace(r"\{four\}", r"\w+").replace(r"\{three\}", r"\w+")
        .replace(r"\{count\}", r"\d+"), reason)]
    assert found, f"{reason!r} is none of REASONS"
    return max(found, key=lambda t: len(re.sub(r"{\w+}", "", t)))


@pytest.mark.parametrize(("marks", "square", "reason"),
                         [*HAND_BUILT, (*ONE_LINE[:2], ONE_LINE[2])],
                         ids=[case[2] for case in [*HAND_BUILT, ONE_LINE]])
def test_each_reason_on_a_hand_built_position(marks, square, reason) -> None:
    """The classifier and the independent counter both give the reason the position was
    built for."""
    config = MNKConfig(5, 5, 5) if (marks, square, reason) == ONE_LINE else MNKConfig(15, 15, 5)
    state = position(marks, config)
    cell = square[0] * config.cols + square[1]
    assert expected_reason(Grid(state), state.to_move, square) == reason
    assert square_threats(state)[cell].reason == reason


def test_the_hand_built_positions_cover_every_reason_of_the_classifier() -> None:
    """Every template in REASONS but the threat search's own ("wins by fours (forced)", a
    forced line checked move by move in test_gomoku_hints) has a hand-built position."""
    covered = {_template_of(reason) for _m, _s, reason in [*HAND_BUILT, ONE_LINE]}
    assert covered | {"wins by fours (forced)"} == set(REASONS)


def test_an_opponents_two_is_not_called_an_open_three() -> None:
    """The issue's first case: O has two stones; no square says "stops their open three",
    and the squares beside them say what they stop (O making an open three)."""
    state = position({**row("O", 5, 6), **far("X", 2)})
    threats = square_threats(state)
    assert all(t.reason != "stops their open three" for t in threats.values())
    assert threats[7 * 15 + 4].reason == threats[7 * 15 + 7].reason == (
        "stops them making an open three")


def test_an_open_three_is_not_called_an_open_four() -> None:
    """The issue's second case: against O's open three the blocks say "stops their open
    three", never that they block an open four O does not have."""
    state = position({**row("O", 4, 5, 6), **far("X", 3)})
    threats = square_threats(state)
    assert threats[7 * 15 + 3].reason == threats[7 * 15 + 7].reason == "stops their open three"
    assert not any("four" in t.reason and "their" in t.reason for t in threats.values())


def random_positions(config: MNKConfig, count: int, seed: int) -> Iterator[TicTacToeState]:
    """Positions from moves near the marks already played (lines form), none finished."""
    rng = random.Random(seed)
    for _ in range(count):
        state = TicTacToeState.new(config)
        for _move in range(rng.randint(2, min(14, config.rows * config.cols - 2))):
            played = [i for i, v in enumerate(state.board) if v != EMPTY]
            near = [m for m in state.legal_moves() if not played or any(
                max(abs(m // config.cols - p // config.cols),
                    abs(m % config.cols - p % config.cols)) <= 1 for p in played)]
            options = [m for m in near if state.play(m).winner is None]
            if not options:
                break
            state = state.play(rng.choice(options))
        yield state


# The big boards take seconds each: they run in the full suite, the small ones in both.
@pytest.mark.parametrize("config", [
    pytest.param(MNKConfig(9, 9, 5), marks=pytest.mark.slow),
    pytest.param(MNKConfig(7, 7, 4), marks=pytest.mark.slow),
    pytest.param(MNKConfig(5, 8, 4), marks=pytest.mark.slow),
    MNKConfig(4, 5, 3), MNKConfig(3, 3, 3)],
                         ids=lambda c: f"{c.rows}x{c.cols}k{c.k}")
def test_every_square_of_random_positions_gets_the_defined_reason(config) -> None:
    """On every empty square of random positions the classifier's reason is exactly the
    one the independent counter finds (so each reason is given when, and only when, its
    pattern is on the board and no stronger one is)."""
    seen = set()
    count = 8 if config.k == 5 else 25  # the counter is slow on roomy boards
    for state in random_positions(config, count, seed=config.rows * 100 + config.k):
        grid = Grid(state)
        threats = square_threats(state)
        for cell, threat in threats.items():
            square = divmod(cell, config.cols)
            assert threat.reason == expected_reason(grid, state.to_move, square), (
                state.to_rows(), square)
            seen.add(_template_of(threat.reason))
    assert len(seen) >= 6, seen  # the positions are not all quiet
