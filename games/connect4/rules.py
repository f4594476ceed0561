"""Rules of Connect Four: gravity k-in-a-row on a board of columns × rows.

Pure Python, no pygame. A move is a column index, 0-based from the left; the
disc falls to the lowest empty cell of that column. The first player to line
up ``k`` discs (across, up, or on either diagonal) wins; a full board with no
line is a draw.

Rows are numbered for drawing: **row 0 is the top row** and row ``rows - 1``
the bottom one, in :meth:`Connect4State.cell`, :attr:`Connect4State.win_line`
and :meth:`Connect4State.to_rows`. Internally each column is a tuple of its
discs from the bottom up, which is what gravity makes natural.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.core.phrase import N_, Phrase, error_text
from engine.model.rules import IllegalMove

__all__ = [
    "DEFAULT_K",
    "EMPTY",
    "MAX_COLS",
    "MAX_ROWS",
    "MIN_COLS",
    "MIN_K",
    "MIN_ROWS",
    "SYMBOLS",
    "Connect4Config",
    "Connect4State",
    "new_game",
]

EMPTY = -1
SYMBOLS = ("X", "O")
MIN_COLS, MAX_COLS = 4, 9
MIN_ROWS, MAX_ROWS = 4, 8
MIN_K, DEFAULT_K = 3, 4
# (up, right) steps of the four line directions, in board coordinates (row 0 = bottom).
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@dataclass(frozen=True)
class Connect4Config:
    """Board shape and rules: ``cols`` × ``rows`` (width × height), ``k`` in a row wins.

    Columns 4 to 9, rows 4 to 8, k from 3 to the shorter side (so a line fits
    every way). Raises ValueError with a message a player can act on.
    """

    cols: int = 7
    rows: int = 6
    k: int = DEFAULT_K

    def __post_init__(self) -> None:
        for name in ("cols", "rows", "k"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(Phrase(N_("{name} must be a whole number, not {value}"),
                                        name=name, value=repr(value)))
        if not MIN_COLS <= self.cols <= MAX_COLS:
            raise ValueError(Phrase(N_("columns must be {low} to {high}, not {value}"),
                                    low=MIN_COLS, high=MAX_COLS, value=self.cols))
        if not MIN_ROWS <= self.rows <= MAX_ROWS:
            raise ValueError(Phrase(N_("rows must be {low} to {high}, not {value}"),
                                    low=MIN_ROWS, high=MAX_ROWS, value=self.rows))
        longest = min(self.cols, self.rows)
        if not MIN_K <= self.k <= longest:
            raise ValueError(Phrase(
                N_("discs in a row must be {low} to {high} on a {cols}×{rows} board, not {k}"),
                low=MIN_K, high=longest, cols=self.cols, rows=self.rows, k=self.k))

    @property
    def cells(self) -> int:
        """How many cells the board has (the longest game, in plies)."""
        return self.cols * self.rows


CLASSIC = Connect4Config()


@dataclass(frozen=True)
class Connect4State:
    """An immutable position. Build one with :meth:`new`, :meth:`from_moves` or :meth:`play`.

    ``columns[c]`` holds column ``c``'s discs (player 0 or 1) from the bottom
    up. ``moves`` is the game so far (columns, 0-based). ``winner`` is the
    player who completed a line, if any; ``win_line`` the cells ``(row, col)``
    (row 0 = top) of every run of ``k`` or more through the winning disc, run
    by run, each from one end to the other, the winning disc listed once.

    Equality and hashing go by the position (board, hence the player to move,
    and winner), not by the order of the moves: transpositions are equal, so
    the state can serve as a transposition-table key.
    """

    config: Connect4Config
    columns: tuple[tuple[int, ...], ...]
    moves: tuple[int, ...] = field(default=(), compare=False)
    winner: int | None = None
    win_line: tuple[tuple[int, int], ...] = field(default=(), compare=False)

    def __hash__(self) -> int:
        # The board decides everything else that is compared (the winner, the shape
        # through the column count and heights, up to k, which one game never changes).
        return hash(self.columns)

    # --- construction -----------------------------------------------------------------

    @classmethod
    def new(cls, config: Connect4Config = CLASSIC) -> Connect4State:
        """The empty board with the first player to move."""
        return cls(config, ((),) * config.cols)

    @classmethod
    def from_moves(cls, config: Connect4Config, moves: Iterable[int]) -> Connect4State:
        """The position after playing ``moves`` (0-based columns) from the empty board.

        Raises IllegalMove at the first move that is not legal.
        """
        state = cls.new(config)
        for move in moves:
            state = state.play(move)
        return state

    # --- the engine's rules interface -------------------------------------------------

    @property
    def num_players(self) -> int:
        """Two players take turns."""
        return 2

    def current_player(self) -> int:
        """0 for the first player, 1 for the second."""
        return len(self.moves) & 1

    def legal_moves(self) -> list[int]:
        """Columns that are not full, left to right; none once the game is over."""
        if self.winner is not None:
            return []
        rows = self.config.rows
        return [c for c, discs in enumerate(self.columns) if len(discs) < rows]

    def play(self, move: int) -> Connect4State:
        """Drop the mover's disc into column ``move``."""
        cfg = self.config
        # (Phrases: a saved game's moves replayed show why one cannot be played.)
        if self.winner is not None:
            raise IllegalMove(Phrase(N_("the game is over")))
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < cfg.cols:
            raise IllegalMove(Phrase(N_("no column {move} on a board of {cols} columns"),
                                     move=repr(move), cols=cfg.cols))
        if len(self.columns[move]) >= cfg.rows:
            raise IllegalMove(Phrase(N_("column {move} is full"), move=move))
        player = len(self.moves) & 1
        columns = self.columns
        after = columns[:move] + (columns[move] + (player,),) + columns[move + 1:]
        line = _winning_runs(after, cfg, move, len(after[move]) - 1, player)
        return Connect4State(cfg, after, self.moves + (move,), player if line else None, line)

    def is_terminal(self) -> bool:
        """Over once someone has k in a row or the board is full."""
        return self.winner is not None or len(self.moves) == self.config.cells

    def returns(self) -> tuple[float, float]:
        """(1, -1) or (-1, 1) once someone won; (0, 0) for a draw or an unfinished game."""
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    # --- helpers ----------------------------------------------------------------------

    @property
    def last_move(self) -> int | None:
        """The column of the last disc dropped, None on the empty board."""
        return self.moves[-1] if self.moves else None

    @property
    def is_draw(self) -> bool:
        """Full board and no winner."""
        return self.winner is None and len(self.moves) == self.config.cells

    def height(self, col: int) -> int:
        """How many discs column ``col`` holds."""
        return len(self.columns[col])

    def cell(self, row: int, col: int) -> int:
        """Who owns a cell: EMPTY (-1), 0 or 1. Row 0 is the top row."""
        cfg = self.config
        if not (0 <= row < cfg.rows and 0 <= col < cfg.cols):
            raise IndexError(f"no cell ({row}, {col}) on a {cfg.cols}×{cfg.rows} board")
        from_bottom = cfg.rows - 1 - row
        discs = self.columns[col]
        return discs[from_bottom] if from_bottom < len(discs) else EMPTY

    def to_rows(self) -> list[str]:
        """The board as text, top row first: ``X`` first player, ``O`` second, ``.`` empty."""
        cfg = self.config
        return ["".join("." if (v := self.cell(r, c)) == EMPTY else SYMBOLS[v]
                        for c in range(cfg.cols)) for r in range(cfg.rows)]

    def __repr__(self) -> str:
        cfg = self.config
        played = "".join(str(m + 1) for m in self.moves)
        return f"Connect4State({cfg.cols}x{cfg.rows}k{cfg.k}, moves={played!r})"


def _winning_runs(columns: tuple[tuple[int, ...], ...], cfg: Connect4Config, col: int,
                  height: int, player: int) -> tuple[tuple[int, int], ...]:
    """Cells ``(row from top, col)`` of every run of k or more of ``player`` through
    (``height`` from the bottom, ``col``); empty when there is none.

    The common case (no line) only counts discs; cells are listed once a run is long
    enough. Plain loops, no helper calls: a search plays this state millions of times.
    """
    cols, k = cfg.cols, cfg.k
    cells: list[tuple[int, int]] = []
    for up, right in _DIRECTIONS:
        back = 0
        c, h = col - right, height - up
        while 0 <= c < cols and 0 <= h < len(columns[c]) and columns[c][h] == player:
            back += 1
            c, h = c - right, h - up
        ahead = 0
        c, h = col + right, height + up
        while 0 <= c < cols and 0 <= h < len(columns[c]) and columns[c][h] == player:
            ahead += 1
            c, h = c + right, h + up
        if back + ahead + 1 >= k:
            for step in range(-back, ahead + 1):
                cell = (cfg.rows - 1 - (height + step * up), col + step * right)
                if cell not in cells:
                    cells.append(cell)
    return tuple(cells)


def new_game(params: Connect4Config, rng: random.Random | None = None) -> Connect4State:
    """The empty board of ``params`` (the descriptor's rules factory; ``rng`` is unused)."""
    return Connect4State.new(params)


# --- saves of format version 1 (positions; read through saved_v1.py) --------------------


def load_state(config: Connect4Config, data: object) -> Connect4State:
    """A position as version-1 saves wrote it (``{"moves": [columns]}``), on ``config``'s
    board, by replaying its moves.

    ValueError, saying what is wrong, for anything that is not a game's moves: a column off
    the board, a full column, a disc dropped after the game was won.
    """
    from engine.storage.saved_data import fields, items, whole

    record = fields(data, Phrase(N_("the position")), ("moves",))
    moves = items(record["moves"], Phrase(N_("the moves")), 0, config.cells)
    columns = [whole(m, Phrase(N_("move {number}"), number=i + 1), 0, config.cols - 1)
               for i, m in enumerate(moves)]
    state = Connect4State.new(config)
    for i, column in enumerate(columns):
        try:
            state = state.play(column)
        except IllegalMove as exc:
            raise ValueError(Phrase(N_("move {number} cannot be played: {error}"),
                                    number=i + 1, error=error_text(exc))) from None
    return state
