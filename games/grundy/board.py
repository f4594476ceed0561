"""Rules of the board games of SPEC §5: tokens moving towards the top-left corner.

One or more tokens (king, rook, queen or knight moves, see :mod:`.tables`) stand
on a rows × cols board; the players alternately move one token of their choice;
whoever cannot move loses (normal play), so with one king or rook the player who
puts it into the top-left corner wins. Several tokens make a sum of games: the
value is the nim-sum (XOR) of the tokens' table values.

Coordinates: row 0 is the top row, column 0 the left column. A move is
``(token_index, row, col)``: token ``token_index`` goes to (row, col). Tokens are
told apart for the UI but may share a square.

No pygame here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache, reduce
from operator import xor

import numpy as np

from engine.core.i18n import N_, Phrase, _
from engine.model.rules import IllegalMove
from games.grundy.tables import (
    MAX_SIDE,
    PIECES,
    grundy_table,
    longest_play_table,
    remoteness_table,
    successors,
)

Square = tuple[int, int]
TokenMove = tuple[int, int, int]

MAX_TOKENS = 4
# Exact remoteness of a sum is a search over the multisets of squares the tokens
# can reach; it is done when a generous estimate of that count is at most this
# (about half a second in the worst case, once per board), else an upper bound.
EXACT_SUM_STATES = 50_000


@dataclass(frozen=True)
class BoardConfig:
    """Which piece, the board's size and how many tokens (each move moves one of them)."""

    piece: str
    rows: int = 8
    cols: int = 8
    tokens: int = 1

    def __post_init__(self) -> None:
        if self.piece not in PIECES:
            raise ValueError(f"unknown piece {self.piece!r}; expected one of {', '.join(PIECES)}")
        for name in ("rows", "cols"):
            n = getattr(self, name)
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_SIDE:
                raise ValueError(f"{name} must be an integer 1..{MAX_SIDE}, got {n!r}")
        if (isinstance(self.tokens, bool) or not isinstance(self.tokens, int)
                or not 1 <= self.tokens <= MAX_TOKENS):
            raise ValueError(f"tokens must be an integer 1..{MAX_TOKENS}, got {self.tokens!r}")

    def on_board(self, square: Square) -> bool:
        """Whether ``square`` (row, col) lies on the board."""
        r, c = square
        return 0 <= r < self.rows and 0 <= c < self.cols


def targets(piece: str, rows: int, cols: int, r: int, c: int) -> list[Square]:
    """Legal destination squares of one token of ``piece`` on (r, c).

    Raises ValueError for an unknown piece, a bad size or a square off the board.
    """
    return successors(piece, rows, cols, r, c)


@dataclass(frozen=True)
class TokenState:
    """A position: where each token stands and who moves. Build the start with :meth:`start`.

    Implements the engine's GameState and the impartial ImpartialState protocol.
    """

    config: BoardConfig
    tokens: tuple[Square, ...]
    to_move: int = 0

    def __post_init__(self) -> None:
        if len(self.tokens) != self.config.tokens:
            raise ValueError(f"{self.config.tokens} token(s) expected, got {len(self.tokens)}")
        for square in self.tokens:
            if (not isinstance(square, tuple) or len(square) != 2
                    or not all(isinstance(x, int) for x in square)
                    or not self.config.on_board(square)):
                raise ValueError(f"square {square!r} (row, column) is not on the "
                                 f"{self.config.cols}×{self.config.rows} board (columns × rows)")
        if self.to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 or 1, got {self.to_move!r}")

    @classmethod
    def start(cls, config: BoardConfig, squares: list[Square] | tuple[Square, ...] | None = None,
              ) -> TokenState:
        """The opening position: by default every token in the bottom-right corner."""
        if squares is None:
            squares = [(config.rows - 1, config.cols - 1)] * config.tokens
        return cls(config, tuple((int(r), int(c)) for r, c in squares))

    # --- the engine's rules interface -------------------------------------

    @property
    def num_players(self) -> int:
        """Two players."""
        return 2

    def current_player(self) -> int:
        """Index of the player to move (0 moves first)."""
        return self.to_move

    def token_targets(self, index: int) -> list[Square]:
        """Squares token ``index`` can move to."""
        cfg = self.config
        return targets(cfg.piece, cfg.rows, cfg.cols, *self.tokens[index])

    def legal_moves(self) -> list[TokenMove]:
        """Every (token_index, row, col) a token can move to, token by token."""
        return [(i, r, c) for i in range(len(self.tokens)) for r, c in self.token_targets(i)]

    def _check_move(self, move: object) -> TokenMove:
        """The move as a tuple of ints, or IllegalMove."""
        if (not isinstance(move, tuple) or len(move) != 3
                or not all(isinstance(x, int | np.integer) for x in move)):
            raise IllegalMove(f"a move is (token_index, row, col), got {move!r}")
        index, r, c = (int(x) for x in move)
        if not 0 <= index < len(self.tokens):
            raise IllegalMove(f"no token {index}; there are {len(self.tokens)}")
        if (r, c) not in self.token_targets(index):
            raise IllegalMove(f"token {index} on {self.tokens[index]} cannot move to {(r, c)}")
        return index, r, c

    def play(self, move: TokenMove) -> TokenState:
        """Move one token; raises IllegalMove unless it is a legal destination."""
        index, r, c = self._check_move(move)
        tokens = self.tokens[:index] + ((r, c),) + self.tokens[index + 1:]
        return TokenState(self.config, tokens, 1 - self.to_move)

    def is_terminal(self) -> bool:
        """Over when no token can move."""
        return not any(self.token_targets(i) for i in range(len(self.tokens)))

    def returns(self) -> tuple[float, ...]:
        """Normal play: the player to move at the end has lost; (0, 0) while unfinished."""
        if not self.is_terminal():
            return (0.0, 0.0)
        return tuple(-1.0 if p == self.to_move else 1.0 for p in range(2))

    # --- impartial theory ----------------------------------------------------

    def _table(self) -> np.ndarray:
        cfg = self.config
        return grundy_table(cfg.piece, cfg.rows, cfg.cols)

    def token_values(self) -> tuple[int, ...]:
        """Each token's Grundy value from the table, in token order."""
        table = self._table()
        return tuple(int(table[r, c]) for r, c in self.tokens)

    def value(self) -> int:
        """The Grundy value: the nim-sum (XOR) of the tokens' values; 0 = the mover loses."""
        return reduce(xor, self.token_values(), 0)

    def nimber(self) -> int:
        """The Grundy value (:meth:`value`: normal play, no cycles, so it is the nimber)."""
        return self.value()

    def move_value(self, move: TokenMove) -> int:
        """The value after ``move`` (checked like :meth:`play`)."""
        index, r, c = self._check_move(move)
        table = self._table()
        old = int(table[self.tokens[index]])
        return self.value() ^ old ^ int(table[r, c])

    def winning_moves(self) -> list[TokenMove]:
        """The moves to a position of value 0 (none when the value is 0)."""
        table = self._table()
        total = self.value()
        out = []
        for i, square in enumerate(self.tokens):
            # Token i must go to a square of value total ⊕ (its value).
            want = total ^ int(table[square])
            out.extend((i, r, c) for r, c in self.token_targets(i) if table[r, c] == want)
        return out

    def remoteness(self) -> int:
        """Moves to the end when the winner hurries and the loser stalls (Smith's remoteness).

        One token: the exact table value. Several tokens: exact (a memoised
        search over the multisets of squares, see :func:`sum_remoteness`) when
        the board and token count are small enough (:func:`exact_sums`), else
        :func:`remoteness_bound`, an upper bound with the right parity (even
        exactly when the value is 0). The choice is made per configuration, not
        per position, so the positions of one game are always compared alike.
        """
        cfg = self.config
        if len(self.tokens) == 1:
            return int(remoteness_table(cfg.piece, cfg.rows, cfg.cols)[self.tokens[0]])
        if exact_sums(cfg):
            exact = sum_remoteness(cfg.piece, cfg.rows, cfg.cols, self.tokens, math.inf)
            assert exact is not None
            return exact
        return remoteness_bound(cfg.piece, cfg.rows, cfg.cols, self.tokens)

    def remoteness_is_exact(self) -> bool:
        """Whether :meth:`remoteness` is exact here (else it is an upper bound)."""
        return exact_sums(self.config)

    def value_explained(self) -> str:
        """The status line, e.g. ``3 ⊕ 5 ⊕ 0 = 6: the player to move wins (…)``."""
        values = self.token_values()
        total = reduce(xor, values, 0)
        if self.is_terminal():
            verdict = _("no move left: the player to move has lost")
        elif total:
            verdict = (_("the player to move wins (move to a 0)") if len(values) == 1 else
                       _("the player to move wins (move to make the nim-sum 0)"))
        else:
            verdict = _("the player to move loses (every move leaves a non-zero value)")
        if len(values) == 1:
            return _("value {value}: {verdict}").format(value=total, verdict=verdict)
        return f"{' ⊕ '.join(map(str, values))} = {total}: {verdict}"


# --- remoteness of sums ------------------------------------------------------


def _reachable_count(piece: str, rows: int, cols: int, square: Square) -> int:
    """How many squares a token on ``square`` may ever visit (an upper bound for the knight)."""
    r, c = square
    if piece != "knight":
        return (r + 1) * (c + 1)  # only up and left
    # The knight only lowers row + col: every cell on a lower-or-equal anti-diagonal.
    d = r + c
    return sum(min(rows - 1, k) - max(0, k - cols + 1) + 1
               for k in range(min(d, rows + cols - 2) + 1))


def sum_state_estimate(piece: str, rows: int, cols: int, squares: tuple[Square, ...]) -> float:
    """An upper estimate of the multisets of squares reachable by the tokens on ``squares``."""
    # Multisets of k squares out of n: C(n + k − 1, k); the product over tokens
    # of their own counts, divided by k!, is of the same order and covers tokens
    # with different reach.
    counts = [_reachable_count(piece, rows, cols, s) for s in squares]
    k = len(squares)
    return math.prod(n + k - 1 for n in counts) / math.factorial(k)


def exact_sums(config: BoardConfig) -> bool:
    """Whether remoteness is exact for every position of ``config`` (always for one token).

    True when the multisets reachable from the bottom-right corner (the most
    any position of the board can reach) are at most ``EXACT_SUM_STATES``: for
    example 2 tokens up to 17×17, 3 up to 8×8, 4 up to 5×5 (a square board).
    """
    if config.tokens == 1:
        return True
    corner = ((config.rows - 1, config.cols - 1),) * config.tokens
    return sum_state_estimate(config.piece, config.rows, config.cols, corner) <= EXACT_SUM_STATES


@lru_cache(maxsize=8)
def _sum_memo(piece: str, rows: int, cols: int) -> dict[tuple[Square, ...], int]:
    """Exact remoteness of sorted token multisets on one board, filled on demand."""
    return {}


@lru_cache(maxsize=8)
def _board_lists(piece: str, rows: int, cols: int,
                 ) -> tuple[dict[Square, int], dict[Square, list[Square]]]:
    """Each square's Grundy value and successors as plain dicts (fast for the search)."""
    table = grundy_table(piece, rows, cols).tolist()
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    return ({s: table[s[0]][s[1]] for s in squares},
            {s: successors(piece, rows, cols, *s) for s in squares})


def sum_remoteness(piece: str, rows: int, cols: int, squares: tuple[Square, ...] | list[Square],
                   budget: float = EXACT_SUM_STATES) -> int | None:
    """Exact Smith remoteness of tokens on ``squares`` (a sum of games), or None if too big.

    The position only depends on the multiset of squares (the tokens move alike),
    so the search is memoised on the sorted squares. A lost position (nim-sum 0)
    scores 1 + the largest remoteness of its successors, a won one 1 + the
    smallest over its successors of nim-sum 0; a won position never needs its
    other successors, which keeps the search small. Returns None when
    :func:`sum_state_estimate` exceeds ``budget``.
    """
    key = tuple(sorted(squares))
    memo = _sum_memo(piece, rows, cols)
    if key in memo:
        return memo[key]
    if sum_state_estimate(piece, rows, cols, key) > budget:
        return None
    if len(memo) > 8 * budget:
        memo.clear()  # bound the memory of a long session on one board
    g, succ = _board_lists(piece, rows, cols)

    def nim_sum(ms: tuple[Square, ...]) -> int:
        return reduce(xor, (g[s] for s in ms), 0)

    def children(ms: tuple[Square, ...], total: int, lost: bool) -> set[tuple[Square, ...]]:
        out = set()
        for k, square in enumerate(ms):
            if k and ms[k - 1] == square:
                continue  # the same square twice gives the same successors
            rest = ms[:k] + ms[k + 1:]
            # From a won position only the moves to nim-sum 0 count: the token
            # must land on a square of value total ⊕ g(square).
            want = total ^ g[square]
            for t in succ[square]:
                if lost or g[t] == want:
                    out.add(tuple(sorted(rest + (t,))))
        return out

    # Iterative post-order search: play can be k · (rows + cols) moves deep.
    stack = [key]
    while stack:
        ms = stack[-1]
        if ms in memo:
            stack.pop()
            continue
        total = nim_sum(ms)
        lost = total == 0
        kids = children(ms, total, lost)
        missing = [q for q in kids if q not in memo]
        if missing:
            stack.extend(missing)
            continue
        if not kids:
            memo[ms] = 0  # terminal (a won position always has a 0 successor)
        elif lost:
            memo[ms] = 1 + max(memo[q] for q in kids)
        else:
            memo[ms] = 1 + min(memo[q] for q in kids)
        stack.pop()
    return memo[key]


def remoteness_bound(piece: str, rows: int, cols: int,
                     squares: tuple[Square, ...] | list[Square]) -> int:
    """An upper bound on the remoteness of a sum, for boards too big for :func:`sum_remoteness`.

    Every play ends within the sum of the tokens' longest plays
    (:func:`~games.grundy.tables.longest_play_table`), the remoteness's play
    included; the remoteness is even exactly when the nim-sum is 0, so a bound
    of the other parity is lowered by one. As a ranking of moves it picked the
    exactly best move more often than the sum of the tokens' own remoteness in
    a comparison on 9×9 boards with 2–3 tokens.
    """
    longest = longest_play_table(piece, rows, cols)
    gt = grundy_table(piece, rows, cols)
    bound = sum(int(longest[s]) for s in squares)
    lost = reduce(xor, (int(gt[s]) for s in squares), 0) == 0
    if (bound % 2 == 0) != lost:
        bound -= 1
    return bound


# --- saved games (through games.grundy.variants' save_state and load_state) ----------------


def save_state(state: TokenState) -> dict[str, object]:
    """A position as JSON: each token's square as [row, column], and the player to move."""
    return {"tokens": [list(square) for square in state.tokens], "to_move": state.to_move}


def load_state(config: BoardConfig, data: object) -> TokenState:
    """The position :func:`save_state` wrote, on ``config``'s board.

    ValueError, saying what is wrong, unless there is one square on the board per token
    (tokens may be placed by hand on any square, so no square is out of reach).
    """
    from engine.storage.saved_data import fields, items, whole

    record = fields(data, Phrase(N_("the position")), ("tokens", "to_move"))
    squares = items(record["tokens"], Phrase(N_("the tokens")), config.tokens, config.tokens)
    tokens = []
    for i, square in enumerate(squares):
        row, col = items(square, Phrase(N_("token {number}'s square"), number=i + 1), 2, 2)
        tokens.append((whole(row, Phrase(N_("token {number}'s row"), number=i + 1), 0,
                             config.rows - 1),
                       whole(col, Phrase(N_("token {number}'s column"), number=i + 1), 0,
                             config.cols - 1)))
    to_move = whole(record["to_move"], Phrase(N_("the player to move")), 0, 1)
    return TokenState(config, tuple(tokens), to_move)
