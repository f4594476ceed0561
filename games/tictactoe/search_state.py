"""A fast m,n,k position for searches: bitboards plus the negamax hooks.

:class:`MNKSearchState` implements the GameState protocol and the optional
hooks of :class:`engine.ai.negamax.SearchHooks`, so the one generic negamax
solves tic-tac-toe boards quickly:

* ``search_key`` — the position as one int; canonical under the board's
  symmetries (the least of its 8 or 4 images) while few marks are on the
  board, where transpositions by symmetry are common and nodes are few; plain
  deeper down, where the extra work would cost more than it saves.
* ``forced_outcome`` — a win on the next move is a win in 1 ply; two
  opposing threats the mover cannot both stop (and no win of its own) are a
  loss in 2.
* ``ordered_moves`` — a winning move alone; else the only block when the
  opponent threatens once (every other move loses at once, and the block
  cannot lose sooner); else the cells that weigh most in both players' open
  lines (below), centre-most first among equals.
* ``outcome_bounds`` — who can no longer win, so that the outcome is at most
  a draw for them (a draw outright when neither can). Two sound tests:

  - a line is out of reach when it holds an opposing mark, or needs more
    marks than its player still gets to place before the board is full;
  - the Erdős–Selfridge criterion: give each line still in reach the
    potential 2^-(cells it still needs). If the total is below 1 with the
    other player to move (below 1/2 with this player to move), the other
    player can stop every line by always taking the cell of greatest
    potential, so this player cannot complete one, whatever else happens.
    This proves a draw long before the board looks dead: the empty 4×4 board
    with 4 in a row is a draw after one ply (each first move leaves X at most
    13/16 < 1), and it cuts proving 5×5 with 4 in a row from 80 s to 0.4 s.

  The same potentials order the moves: a cell's weight is the sum over its
  open lines of 4^(marks of the line's owner) for both players (attack and
  defence), so the greedy Erdős–Selfridge defence is tried first.

Each player's marks are an int (bit ``row * cols + col``), seen from the
player to move (``me`` / ``opp`` swap every ply, as negamax does). Per player
the state also keeps ``t`` — every cell that would complete a line given that
player's marks alone — which only changes on the lines through the cell just
played, so threats cost one AND per node instead of a scan of all lines.

Two players only; three-player boards are searched elsewhere (max^n).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from operator import add

from engine.model.rules import IllegalMove
from games.tictactoe.bitboard import layout
from games.tictactoe.rules import EMPTY, MNKConfig, TicTacToeState

__all__ = ["DEFAULT_CANONICAL_MARKS", "Geometry", "MNKSearchState", "cells_of", "geometry"]

# Up to this many marks the key is canonical under symmetry. Measured with
# ``tests/benchmarks/bench_mnk.py --tune`` (proving 5×5 k4): with plain keys
# throughout it takes 1.9 s (207k nodes); canonical up to 4 marks, 0.45 s; from
# 6 to 25 marks it is flat at ~0.4 s, so 12 sits in the middle of the plateau.
DEFAULT_CANONICAL_MARKS = 12

_WIN_NOW = (1, 1)
_LOSS_IN_TWO = (-1, 2)


@dataclass(frozen=True)
class Geometry:
    """Tables for one board shape, shared by all its states."""

    rows: int
    cols: int
    k: int
    cells: int
    lines: tuple[int, ...]
    through: tuple[tuple[int, ...], ...]
    line_bits: tuple[int, ...]
    order: tuple[int, ...]
    sym_perms: tuple[tuple[int, ...], ...]
    sym_deltas: tuple[tuple[tuple[int, ...], ...], ...]
    canonical_marks: int
    potential: bool


@lru_cache(maxsize=8)  # a game and its hints use one or two; 15×15 tables are ~0.3 MB
def geometry(rows: int, cols: int, k: int, canonical_marks: int = DEFAULT_CANONICAL_MARKS,
             potential: bool = True) -> Geometry:
    """The (cached) search tables for a rows × cols board with k in a row.

    ``potential=False`` turns off the Erdős–Selfridge bound and the potential
    move ordering (static centre-first order, reach-only bound), for
    benchmarks that show what each idea is worth.
    """
    lay = layout(rows, cols, k)
    n = rows * cols
    index = {mask: i for i, mask in enumerate(lay.lines)}
    line_bits = tuple(sum(1 << index[m] for m in lay.lines_through[c]) for c in range(n))
    # Cells on more lines first (they block and build the most); ties: nearest the centre.
    cr, cc = (rows - 1) / 2, (cols - 1) / 2
    order = tuple(sorted(range(n), key=lambda c: (-len(lay.lines_through[c]),
                                                  (c // cols - cr) ** 2 + (c % cols - cc) ** 2,
                                                  c)))
    deltas = tuple(tuple(tuple(1 << (perm[c] + p * n) for perm in lay.symmetries)
                         for c in range(n)) for p in range(2))
    return Geometry(rows, cols, k, n, lay.lines, lay.lines_through, line_bits, order,
                    lay.symmetries, deltas, canonical_marks, potential)


def _threat_cells(g: Geometry, bits: int) -> int:
    """Cells that would complete a line given ``bits`` alone (from scratch)."""
    found = 0
    for mask in g.lines:
        missing = mask & ~bits
        if missing and not missing & (missing - 1):
            found |= missing
    return found


def _live_lines(g: Geometry, theirs: int) -> int:
    """Bit set of the line indices holding none of ``theirs``."""
    live = 0
    for i, mask in enumerate(g.lines):
        if not mask & theirs:
            live |= 1 << i
    return live


class MNKSearchState:
    """An immutable two-player m,n,k position built for search speed.

    Build one with :meth:`new` or :meth:`from_rules`; :meth:`to_rules` gives
    the rules state back. Moves are cell indices ``row * cols + col``.
    """

    __slots__ = ("g", "me", "opp", "empty", "t_me", "t_opp", "live_me", "live_opp",
                 "player", "n_empty", "won", "keys", "last_move")

    num_players = 2

    g: Geometry
    me: int
    opp: int
    empty: int
    t_me: int
    t_opp: int
    live_me: int
    live_opp: int
    player: int
    n_empty: int
    won: bool
    keys: tuple[int, ...] | None
    last_move: int | None

    # --- construction ---------------------------------------------------------------

    @classmethod
    def new(cls, rows: int, cols: int, k: int, canonical_marks: int = DEFAULT_CANONICAL_MARKS,
            potential: bool = True) -> MNKSearchState:
        """The empty board, first player to move (options: see :func:`geometry`)."""
        return cls.from_bits(geometry(rows, cols, k, canonical_marks, potential), 0, 0)

    @classmethod
    def from_bits(cls, g: Geometry, x: int, o: int,
                  last_move: int | None = None) -> MNKSearchState:
        """A position from the first (X) and second (O) player's bit sets.

        The player to move follows from the counts (X moves when they are equal).
        """
        nx, no = x.bit_count(), o.bit_count()
        if x & o or (x | o) >> g.cells or nx - no not in (0, 1):
            raise ValueError("marks overlap, fall off the board, or cannot arise by turns")
        player = nx - no
        me, opp = (x, o) if player == 0 else (o, x)
        s = object.__new__(cls)
        s.g = g
        s.me, s.opp = me, opp
        s.empty = ((1 << g.cells) - 1) & ~(x | o)
        s.t_me, s.t_opp = _threat_cells(g, me), _threat_cells(g, opp)
        s.live_me, s.live_opp = _live_lines(g, opp), _live_lines(g, me)
        s.player = player
        s.n_empty = s.empty.bit_count()
        # The last mover has a complete line (a finished game).
        s.won = any(mask & opp == mask for mask in g.lines)
        if any(mask & me == mask for mask in g.lines):
            raise ValueError("the player to move cannot already have a line")
        s.last_move = last_move
        s.keys = None
        if nx + no <= g.canonical_marks:
            keys = [0] * len(g.sym_perms)
            for p, bits in ((0, x), (1, o)):
                for c in range(g.cells):
                    if bits >> c & 1:
                        keys = list(map(add, keys, g.sym_deltas[p][c]))
            s.keys = tuple(keys)
        return s

    @classmethod
    def from_rules(cls, state: TicTacToeState,
                   canonical_marks: int = DEFAULT_CANONICAL_MARKS) -> MNKSearchState:
        """The search position of a two-player rules state."""
        cfg = state.config
        if cfg.players != 2:
            raise ValueError("MNKSearchState is for two players; three-player boards use max^n")
        x = o = 0
        for cell, owner in enumerate(state.board):
            if owner == 0:
                x |= 1 << cell
            elif owner == 1:
                o |= 1 << cell
        return cls.from_bits(geometry(cfg.rows, cfg.cols, cfg.k, canonical_marks), x, o,
                             state.last_move)

    def to_rules(self) -> TicTacToeState:
        """The equivalent rules state (``last_move`` kept when known)."""
        g = self.g
        x, o = self.xo()
        board = tuple(0 if x >> c & 1 else 1 if o >> c & 1 else EMPTY for c in range(g.cells))
        rows = ["".join(".XO"[v + 1] for v in board[r * g.cols:(r + 1) * g.cols])
                for r in range(g.rows)]
        state = TicTacToeState.from_rows(rows, MNKConfig(g.rows, g.cols, g.k))
        if self.last_move is not None and state.last_move != self.last_move:
            from dataclasses import replace

            state = replace(state, last_move=self.last_move)
        return state

    def xo(self) -> tuple[int, int]:
        """The first and second player's bit sets."""
        return (self.me, self.opp) if self.player == 0 else (self.opp, self.me)

    # --- GameState --------------------------------------------------------------------

    def current_player(self) -> int:
        """0 for X (first player), 1 for O."""
        return self.player

    def legal_moves(self) -> list[int]:
        """Empty cells in index order; none once someone has a line."""
        if self.won:
            return []
        empty = self.empty
        return [c for c in range(self.g.cells) if empty >> c & 1]

    def play(self, move: int) -> MNKSearchState:
        """The position after the mover marks cell ``move``."""
        bit = 1 << move
        if self.won or not self.empty & bit:
            raise IllegalMove(f"cell {move} is not a legal move here")
        g = self.g
        mine = self.me | bit
        t = self.t_me
        won = False
        for mask in g.through[move]:
            missing = mask & ~mine
            if not missing & (missing - 1):
                if missing:
                    t |= missing
                else:
                    won = True
        s = object.__new__(MNKSearchState)
        s.g = g
        s.me = self.opp
        s.opp = mine
        s.empty = self.empty ^ bit
        s.t_me = self.t_opp
        s.t_opp = t
        s.live_me = self.live_opp & ~g.line_bits[move]
        s.live_opp = self.live_me
        s.player = 1 - self.player
        s.n_empty = self.n_empty - 1
        s.won = won
        s.last_move = move
        keys = self.keys
        if keys is not None and g.cells - s.n_empty <= g.canonical_marks:
            s.keys = tuple(map(add, keys, g.sym_deltas[self.player][move]))
        else:
            s.keys = None
        return s

    def is_terminal(self) -> bool:
        """Over when the last mover completed a line or the board is full."""
        return self.won or not self.n_empty

    def returns(self) -> tuple[float, float]:
        """(1, -1) or (-1, 1) for a win, (0, 0) otherwise."""
        if not self.won:
            return (0.0, 0.0)
        return (-1.0, 1.0) if self.player == 0 else (1.0, -1.0)

    # --- search hooks -----------------------------------------------------------------

    def search_key(self) -> int:
        """X's bits | O's bits << cells; the least symmetric image while few marks."""
        keys = self.keys
        if keys is not None:
            return min(keys)
        if self.player:
            return self.opp | self.me << self.g.cells
        return self.me | self.opp << self.g.cells

    def forced_outcome(self) -> tuple[int, int] | None:
        """Win in 1 if the mover can complete a line; loss in 2 against a double threat."""
        empty = self.empty
        if self.t_me & empty:
            return _WIN_NOW
        threats = self.t_opp & empty
        if threats & (threats - 1):
            return _LOSS_IN_TWO
        return None

    def ordered_moves(self) -> list[int]:
        """Winning moves; else the only block; else all moves, weightiest first."""
        forced = self._forced_moves()
        if forced is not None:
            return forced
        if not self.g.potential:
            empty = self.empty
            return [c for c in self.g.order if empty >> c & 1]
        return self._weighted(self.empty)

    def _forced_moves(self) -> list[int] | None:
        """The winning moves if any, else the one block of a single threat, else None."""
        empty = self.empty
        wins = self.t_me & empty
        if wins:
            return cells_of(wins)
        threats = self.t_opp & empty
        if threats and not threats & (threats - 1):
            return [threats.bit_length() - 1]
        return None

    def _weighted(self, cells: int) -> list[int]:
        """``cells`` by the weight of their open lines for both players (module doc),
        heaviest first; equal weights in the centre-first order."""
        g = self.g
        me, opp = self.me, self.opp
        through = g.through
        weighted = []
        for c in g.order:
            if cells >> c & 1:
                w = 0
                for mask in through[c]:
                    if not mask & opp:
                        w += 1 << 2 * (mask & me).bit_count()
                    if not mask & me:
                        w += 1 << 2 * (mask & opp).bit_count()
                weighted.append((w, c))
        # Stable: equal weights keep the centre-first order.
        weighted.sort(key=_first, reverse=True)
        return [c for _, c in weighted]

    def outcome_bounds(self) -> tuple[int, int]:
        """At most a draw for a player who provably cannot complete a line (module doc)."""
        n = self.n_empty
        g = self.g
        if g.potential:
            # The mover makes the next move (a Maker moving first needs potential < 1/2);
            # against the opponent the mover is the Breaker moving first (< 1).
            me_limit, opp_limit = 1 << (g.k - 1), 1 << g.k
        else:
            me_limit = opp_limit = 1  # any line still in reach
        me_can = self._may_complete(self.live_me, self.me, (n + 1) >> 1, me_limit)
        opp_can = self._may_complete(self.live_opp, self.opp, n >> 1, opp_limit)
        return (-1 if opp_can else 0, 1 if me_can else 0)

    def _may_complete(self, live: int, bits: int, marks_left: int, limit: int) -> bool:
        """False when the lines in reach have total potential below ``limit`` / 2^k.

        Potentials are scaled by 2^k: a line holding ``j`` of ``bits`` counts 2^j.
        """
        if not live:
            return False
        g = self.g
        k = g.k
        if marks_left >= k and live.bit_count() >= limit:
            return True  # every live line is in reach and counts at least 1
        lines = g.lines
        total = 0
        while live:
            low = live & -live
            have = (lines[low.bit_length() - 1] & bits).bit_count()
            if k - have <= marks_left:
                total += 1 << have
                if total >= limit:
                    return True
            live ^= low
        return False

    def max_remaining_plies(self) -> int:
        """Plies left at most (a depth this deep searches to the end)."""
        return self.n_empty

    # --- win-proof hooks (engine.ai.win_proof) ------------------------------------------

    def attack_moves(self) -> list[int]:
        """The attacker's tries in a win proof: as :meth:`ordered_moves`, but only the
        cells within two steps of a mark (any cell on an empty board).

        A proof may leave attacking moves out (it only gets harder to find); the
        defender's moves are never restricted this way.
        """
        forced = self._forced_moves()
        if forced is not None:
            return forced
        taken = self.me | self.opp
        if not taken:
            return self.ordered_moves()
        return self._weighted(self.empty & _near_cells(self.g, taken))

    def quick_win(self) -> int | None:
        """Plies of a forced win by continuous threats for the mover, or None.

        See :func:`threat_sequence_win`.
        """
        return threat_sequence_win(self.g, self.me, self.opp)

    # --- opening-book hook (engine.ai.opening_book) ---------------------------------------

    def book_images(self) -> list[tuple[str, Callable[[int], int], Callable[[int], int]]]:
        """For each board symmetry: this position's code in that image (rows of ``.XO``
        joined by ``/``), the map of a cell here into the image and its inverse."""
        g = self.g
        x, o = self.xo()
        images = []
        for perm in g.sym_perms:
            cells = ["."] * g.cells
            inverse = [0] * g.cells
            for c, image in enumerate(perm):
                inverse[image] = c
                if x >> c & 1:
                    cells[image] = "X"
                elif o >> c & 1:
                    cells[image] = "O"
            code = "/".join("".join(cells[r * g.cols:(r + 1) * g.cols]) for r in range(g.rows))
            images.append((code, perm.__getitem__, inverse.__getitem__))
        return images

    def __repr__(self) -> str:
        g = self.g
        x, o = self.xo()
        rows = ["".join("X" if x >> (r * g.cols + c) & 1 else "O" if o >> (r * g.cols + c) & 1
                        else "." for c in range(g.cols)) for r in range(g.rows)]
        return f"MNKSearchState({'/'.join(rows)}, k={g.k})"


@lru_cache(maxsize=8)
def _neighbourhoods(g: Geometry) -> tuple[int, ...]:
    """Per cell, the cells at most two rows and two columns away (itself included)."""
    out = []
    for cell in range(g.cells):
        r, c = divmod(cell, g.cols)
        bits = 0
        for rr in range(max(0, r - 2), min(g.rows, r + 3)):
            for cc in range(max(0, c - 2), min(g.cols, c + 3)):
                bits |= 1 << (rr * g.cols + cc)
        out.append(bits)
    return tuple(out)


def _near_cells(g: Geometry, taken: int) -> int:
    """Cells within two steps of a cell of ``taken``."""
    hoods = _neighbourhoods(g)
    near = 0
    while taken:
        low = taken & -taken
        near |= hoods[low.bit_length() - 1]
        taken ^= low
    return near


#: Line scans a threat-sequence search may make before it gives up (no proof): about 400
#: positions on 8×8 with k = 4, fewer on bigger boards, so that one call stays near a
#: few milliseconds and the proof search's deadline checks come often enough.
THREAT_SEARCH_LINES = 60_000


def threat_sequence_win(g: Geometry, me: int, opp: int,
                        max_nodes: int | None = None) -> int | None:
    """Plies of a win for ``me`` (to move) made only of threats, or None.

    A threat here is a move that leaves a line one mark short with its last
    cell empty: the opponent must take that cell at once (or lose), unless it
    can complete a line itself first. The search tries every move that makes
    a threat; two threats at once win outright (the opponent stops one). A
    threat that does not also stop an opposing threat is not tried when the
    opponent threatens. Each step is forced, so a win found is a proof; not
    finding one (also past ``max_nodes`` positions, by default
    :data:`THREAT_SEARCH_LINES` over the number of lines) proves nothing.
    """
    lines = g.lines
    memo: dict[tuple[int, int], int | None] = {}
    budget = [max(16, THREAT_SEARCH_LINES // len(lines)) if max_nodes is None else max_nodes]
    completions = layout(g.rows, g.cols, g.k).winning_cells  # (a, b): cells completing a line of a

    def makers(a: int, b: int) -> int:
        """Cells that leave a line of ``a`` (free of ``b``) one mark short."""
        found = 0
        for mask in lines:
            if not mask & b:
                missing = mask & ~a
                rest = missing & (missing - 1)
                if rest and not rest & (rest - 1):
                    found |= missing
        return found

    def search(a: int, b: int) -> int | None:
        key = (a, b)
        if key in memo:
            return memo[key]
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if completions(a, b):
            return 1
        theirs = completions(b, a)
        result = None
        if not theirs & (theirs - 1):
            tries = makers(a, b)
            if theirs:
                tries &= theirs
            while tries and result is None:
                low = tries & -tries
                tries ^= low
                a2 = a | low
                mine = completions(a2, b)
                if mine & (mine - 1):
                    result = 3
                elif mine:
                    deeper = search(a2, b | mine)
                    if deeper is not None:
                        result = deeper + 2
        memo[key] = result
        return result

    return search(me, opp)


def _first(pair: tuple[int, int]) -> int:
    return pair[0]


def cells_of(bits: int) -> list[int]:
    """The set bits of ``bits`` as cell indices, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out
