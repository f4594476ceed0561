"""Rules of m×n tic-tac-toe with k in a row, for two or three players.

Pure Python, no pygame. A move is a cell index ``row * cols + col``. Win
detection is incremental and independent of the board's size:

* when k equals the side of a square board, the per-player counters of SPEC §3
  (n rows, n columns, the main and the anti-diagonal: 2n + 2 counters per
  player) are bumped by each move, and a counter reaching n is a win;
* otherwise the four lines through the last move are scanned, at most k − 1
  cells each way.

A draw is a full board with no winner: n² moves (the source document's "n" is a
slip).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.phrase import N_, Phrase
from engine.model.rules import IllegalMove

EMPTY = -1
SYMBOLS = ("X", "O", "△")
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@dataclass(frozen=True)
class MNKConfig:
    """Board shape and rules: ``rows`` × ``cols``, ``k`` in a row wins."""

    rows: int = 3
    cols: int = 3
    k: int = 3
    players: int = 2

    def __post_init__(self) -> None:
        if not (1 <= self.rows <= 64 and 1 <= self.cols <= 64):
            raise ValueError(f"board size must be 1..64 each way, got {self.cols}×{self.rows} "
                             "(columns × rows)")
        if not (1 <= self.k <= max(self.rows, self.cols)):
            raise ValueError(f"k must be 1..{max(self.rows, self.cols)}, got {self.k}")
        if self.players not in (2, 3):
            raise ValueError(f"2 or 3 players, got {self.players}")


CLASSIC = MNKConfig(3, 3, 3, 2)


@dataclass(frozen=True)
class TicTacToeState:
    """An immutable position. Build the start with :meth:`new`."""

    config: MNKConfig
    board: tuple[int, ...]
    to_move: int = 0
    last_move: int | None = None
    winner: int | None = None
    win_line: tuple[int, ...] = field(default=())
    # SPEC §3 counters, one tuple of 2n + 2 per player; None where k is not the side.
    counters: tuple[tuple[int, ...], ...] | None = field(default=None, compare=False)

    @classmethod
    def new(cls, config: MNKConfig = CLASSIC) -> TicTacToeState:
        """The empty board with the first player to move."""
        counters = None
        if uses_counters(config):
            counters = ((0,) * (2 * config.rows + 2),) * config.players
        return cls(config, (EMPTY,) * (config.rows * config.cols), counters=counters)

    @classmethod
    def from_rows(cls, rows: list[str], config: MNKConfig | None = None) -> TicTacToeState:
        """Build a position from text rows such as ``["XO.", ".X.", "..O"]``.

        The player to move is inferred from the counts of marks (players take
        turns from the first). Used by tests and by board codes.
        """
        cfg = config or MNKConfig(len(rows), len(rows[0]), min(3, len(rows), len(rows[0])))
        symbols = {"X": 0, "O": 1, "T": 2, "△": 2, ".": EMPTY, "_": EMPTY, " ": EMPTY}
        cells: list[int] = []
        for line in rows:
            if len(line) != cfg.cols:
                raise ValueError(Phrase(N_("row {row} should have {cols} cells"),
                                        row=repr(line), cols=cfg.cols))
            cells.extend(symbols[ch] for ch in line)
        if len(cells) != cfg.rows * cfg.cols:
            raise ValueError(Phrase(N_("wrong number of rows")))
        counts = [cells.count(p) for p in range(cfg.players)]
        total = sum(counts)
        to_move = total % cfg.players
        expected = [total // cfg.players + (1 if p < total % cfg.players else 0)
                    for p in range(cfg.players)]
        if counts != expected:
            raise ValueError(Phrase(N_("mark counts {counts} cannot arise from players taking "
                                       "turns"), counts=counts))
        counters = None
        if uses_counters(cfg):
            counters = tuple(
                tuple(_counts_for(cells, cfg.rows, p)) for p in range(cfg.players))
        state = cls(cfg, tuple(cells), to_move, counters=counters)
        # Find any completed line so the position knows it is over.
        for index, owner in enumerate(cells):
            if owner != EMPTY:
                line = state._line_through(index, owner)
                if line:
                    return cls(cfg, tuple(cells), to_move, None, owner, line, counters)
        return state

    # --- the engine's rules interface -------------------------------------

    @property
    def num_players(self) -> int:
        """How many players take turns."""
        return self.config.players

    def current_player(self) -> int:
        """Index of the player to move (0 = X)."""
        return self.to_move

    def legal_moves(self) -> list[int]:
        """Empty cells in row-major order; none once the game is over."""
        if self.winner is not None:
            return []
        return [i for i, v in enumerate(self.board) if v == EMPTY]

    def play(self, move: int) -> TicTacToeState:
        """Place the mover's mark on cell ``move``."""
        if self.winner is not None:
            raise IllegalMove("the game is over")
        if not isinstance(move, int) or not (0 <= move < len(self.board)):
            raise IllegalMove(f"no cell {move!r} on a {self.config.cols}×{self.config.rows} board")
        if self.board[move] != EMPTY:
            raise IllegalMove(f"cell {move} is taken")
        board = list(self.board)
        board[move] = self.to_move
        board_t = tuple(board)
        next_player = (self.to_move + 1) % self.num_players
        if self.counters is not None:
            counters, line = self._bump_counters(move)
            return TicTacToeState(self.config, board_t, next_player, move,
                                  self.to_move if line else None, line, counters)
        after = TicTacToeState(self.config, board_t, next_player, move)
        line = after._line_through(move, self.to_move)
        if line:
            return TicTacToeState(after.config, after.board, after.to_move, move, self.to_move,
                                  line)
        return after

    def _bump_counters(self, move: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """SPEC §3: count the move on its row, column and diagonals; n in one is a win."""
        assert self.counters is not None
        n = self.config.rows
        r, c = divmod(move, n)
        mine = list(self.counters[self.to_move])
        touched = [r, n + c]
        if r == c:
            touched.append(2 * n)
        if r + c == n - 1:
            touched.append(2 * n + 1)
        line: tuple[int, ...] = ()
        for index in touched:
            mine[index] += 1
            if mine[index] == n and not line:
                line = _counter_line(index, n)
        counters = tuple(tuple(mine) if p == self.to_move else self.counters[p]
                         for p in range(self.num_players))
        return counters, line

    def is_terminal(self) -> bool:
        """Over when someone has k in a row or the board is full."""
        return self.winner is not None or EMPTY not in self.board

    def returns(self) -> tuple[float, ...]:
        """1 for the winner and −1 for the others; all 0 for a draw or unfinished game."""
        if self.winner is None:
            return (0.0,) * self.num_players
        return tuple(1.0 if p == self.winner else -1.0 for p in range(self.num_players))

    # --- helpers ------------------------------------------------------------

    @property
    def is_draw(self) -> bool:
        """Full board and no winner."""
        return self.winner is None and EMPTY not in self.board

    @property
    def moves_made(self) -> int:
        """Number of marks on the board."""
        return sum(1 for v in self.board if v != EMPTY)

    def cell(self, row: int, col: int) -> int:
        """Owner of a cell (EMPTY, 0, 1 or 2)."""
        return self.board[row * self.config.cols + col]

    def _line_through(self, index: int, player: int) -> tuple[int, ...]:
        """The run of ``player``'s marks through ``index`` if it is k or longer."""
        rows, cols, k = self.config.rows, self.config.cols, self.config.k
        r0, c0 = divmod(index, cols)
        for dr, dc in DIRECTIONS:
            run = [index]
            for sign in (1, -1):
                r, c = r0 + sign * dr, c0 + sign * dc
                # Never more than k − 1 steps: the cost is independent of board size.
                for _ in range(k - 1):
                    if not (0 <= r < rows and 0 <= c < cols):
                        break
                    i = r * cols + c
                    if self.board[i] != player:
                        break
                    run.append(i)
                    r, c = r + sign * dr, c + sign * dc
            if len(run) >= k:
                return tuple(sorted(run))
        return ()

    def counter_array(self, player: int) -> tuple[int, ...]:
        """SPEC §3's counters of ``player`` (rows, columns, main, anti-diagonal)."""
        if self.counters is None:
            raise ValueError("counters are kept only when k equals the side of a square board")
        return self.counters[player]

    def to_rows(self) -> list[str]:
        """The board as text rows (X, O, T for the third player, . for empty)."""
        chars = {EMPTY: ".", 0: "X", 1: "O", 2: "T"}
        cols = self.config.cols
        return ["".join(chars[v] for v in self.board[r * cols:(r + 1) * cols])
                for r in range(self.config.rows)]


def uses_counters(config: MNKConfig) -> bool:
    """Whether SPEC §3's counters decide wins: a square board with k equal to its side."""
    return config.rows == config.cols == config.k


def _counter_line(index: int, n: int) -> tuple[int, ...]:
    """The cells of counter ``index``: row, column, main or anti-diagonal."""
    if index < n:
        return tuple(index * n + c for c in range(n))
    if index < 2 * n:
        return tuple(r * n + (index - n) for r in range(n))
    if index == 2 * n:
        return tuple(i * n + i for i in range(n))
    return tuple(sorted(i * n + (n - 1 - i) for i in range(n)))


def _counts_for(cells: list[int], n: int, player: int) -> list[int]:
    """Counters of ``player`` for a whole board (used when building from text)."""
    counts = [0] * (2 * n + 2)
    for index, owner in enumerate(cells):
        if owner == player:
            r, c = divmod(index, n)
            counts[r] += 1
            counts[n + c] += 1
            if r == c:
                counts[2 * n] += 1
            if r + c == n - 1:
                counts[2 * n + 1] += 1
    return counts


# --- saves of format version 1 (positions; read through saved_v1.py) --------------------


def load_state(config: MNKConfig, data: object) -> TicTacToeState:
    """A position as version-1 saves wrote it (``{"rows": [...], "last": cell}``), on
    ``config``'s board.

    ValueError, saying what is wrong, for anything play cannot lead to: another size,
    unknown marks, marks out of turn (three more X than O), a last move that is not the
    mark of the player who moved last, a move after the game was won, two winners.
    """
    from engine.storage.saved_data import fields, items, show, text, whole

    record = fields(data, Phrase(N_("the position")), ("rows", "last"))
    rows = items(record["rows"], Phrase(N_("the board's rows")), config.rows, config.rows)
    allowed = "XOT." if config.players == 3 else "XO."
    for r, row in enumerate(rows):
        line = text(row, Phrase(N_("row {number}"), number=r + 1), config.cols)
        if len(line) != config.cols:
            raise ValueError(Phrase(N_("row {number} has {count} cells; the board has {cols}"),
                                    number=r + 1, count=len(line), cols=config.cols))
        unknown = sorted(set(line) - set(allowed))
        if unknown:
            raise ValueError(Phrase(N_("row {number} holds {mark}; a cell is one of {marks}"),
                                    number=r + 1, mark=show(unknown[0]),
                                    marks=", ".join(allowed)))
    last = record["last"]
    if last is None:  # the empty board, or a position set up from text
        state = TicTacToeState.from_rows(rows, config)  # checks that marks took turns
        _check_one_winner(state)
        return state
    cell = whole(last, Phrase(N_("the last move")), 0, config.rows * config.cols - 1)
    marks = {"X": 0, "O": 1, "T": 2, ".": EMPTY}
    board = [marks[ch] for row in rows for ch in row]
    counts = [board.count(p) for p in range(config.players)]
    total = sum(counts)
    if counts != [total // config.players + (p < total % config.players)
                  for p in range(config.players)]:
        raise ValueError(Phrase(N_("mark counts {counts} cannot arise from players taking "
                                   "turns"), counts=counts))
    mover = (total - 1) % config.players
    if board[cell] != mover:
        raise ValueError(Phrase(N_("the last move, cell {cell}, is not {mark}'s mark, whose "
                                   "turn it was"), cell=cell, mark=SYMBOLS[mover]))
    r, c = divmod(cell, config.cols)
    before = list(rows)
    before[r] = rows[r][:c] + "." + rows[r][c + 1:]
    # Checked by substring search, not cell by cell: a saved gomoku game is 225 boards.
    if _any_line(before, config.k):
        raise ValueError(Phrase(N_("a mark was placed after the game was won")))
    board[cell] = EMPTY
    counters = None
    if uses_counters(config):
        counters = tuple(tuple(_counts_for(board, config.rows, p)) for p in range(config.players))
    # Replayed, the last move gives the winner and winning line exactly as play did.
    return TicTacToeState(config, tuple(board), mover, counters=counters).play(cell)


def _any_line(rows: list[str], k: int) -> bool:
    """Whether any player has ``k`` in a row on a board of text rows.

    Substring search over every line: the rows, the columns, and the columns of the
    board with row r shifted r cells right (↙ diagonals) or left (↘ diagonals).
    """
    height = len(rows)
    right = [" " * r + row + " " * (height - 1 - r) for r, row in enumerate(rows)]
    left = [" " * (height - 1 - r) + row + " " * r for r, row in enumerate(rows)]
    lines = "|".join([*rows, *map("".join, zip(*rows, strict=True)),
                      *map("".join, zip(*right, strict=True)),
                      *map("".join, zip(*left, strict=True))])
    return any(mark * k in lines for mark in "XOT")


def _check_one_winner(state: TicTacToeState) -> None:
    """ValueError unless at most one player has a line, and it is the one who moved last."""
    cfg = state.config
    if state.winner is not None and state.winner != (state.to_move - 1) % cfg.players:
        raise ValueError(Phrase(N_("{mark} has {k} in a row, yet another player moved after "
                                   "that"), mark=SYMBOLS[state.winner], k=cfg.k))
    for index, owner in enumerate(state.board):
        if owner not in (EMPTY, state.winner) and state._line_through(index, owner):
            raise ValueError(Phrase(N_("{mark} has {k} in a row, and the game ends at the "
                                       "first line"), mark=SYMBOLS[owner], k=cfg.k))
