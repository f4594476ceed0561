"""A mutable k-in-a-row board for threat search: window counts, threats, pattern scores.

The Hard player on big boards (gomoku) searches this board by playing and taking
back moves (:meth:`ThreatBoard.make` / :meth:`ThreatBoard.undo`) rather than by
copying positions: in pure Python a copy of 225 cells per node costs more than the
search itself.

Everything is kept per *window* (each run of k cells along a row, column or
diagonal) and per player. A window is *alive* for a player while it holds none of
the opponent's marks; a live window with ``j`` of the player's marks is a level-j
window. Patterns fall out of the counts, broken shapes included:

* a level-(k-1) window is a **four**: its one empty cell wins;
* a level-(k-2) window is a **three** in the making: playing either of its two
  empty cells makes a four whose winning cell is the other one;
* an *open* three (``.XXX.`` with room) sits in three level-(k-2) windows, a closed
  one in one, so summing a score per live window already tells open from closed;
* a cell whose move makes two different winning cells (an open four, a double four,
  or a four with another four) is a **double threat**: one reply cannot stop both.

The board also keeps, incrementally on the lines through each move: the sum of
window scores per player (the evaluation), a per-cell value per player (what the
cell builds: used to order moves), the number of marks near each cell (candidates)
and a Zobrist hash. No pygame here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from games.tictactoe.rules import EMPTY, TicTacToeState

__all__ = ["NEAR", "ThreatBoard", "Tables", "tables"]

# Cells within this many rows and columns of a mark are candidates.
NEAR = 2


@dataclass(frozen=True)
class Tables:
    """Precomputed windows and weights for one board shape."""

    rows: int
    cols: int
    k: int
    n: int
    windows: tuple[tuple[int, ...], ...]
    cell_windows: tuple[tuple[int, ...], ...]
    neighbours: tuple[tuple[int, ...], ...]
    # Evaluation weight of a live window by the marks it holds.
    weight: tuple[int, ...]
    # Move-ordering weight of a live window through a cell by the marks it holds.
    value: tuple[int, ...]
    zobrist: tuple[tuple[int, ...], tuple[int, ...]]
    centre: int


@lru_cache(maxsize=4)  # ~0.3 MB each on 15×15
def tables(rows: int, cols: int, k: int) -> Tables:
    """The (cached) tables for a rows × cols board with k in a row."""
    n = rows * cols
    windows: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                er, ec = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= er < rows and 0 <= ec < cols:
                    w = tuple((r + dr * i) * cols + c + dc * i for i in range(k))
                    key = tuple(sorted(w))
                    if key not in seen:  # k = 1 would list a cell four times
                        seen.add(key)
                        windows.append(w)
    cell_windows = tuple(tuple(i for i, w in enumerate(windows) if c in w) for c in range(n))
    neighbours = []
    for c in range(n):
        r0, c0 = divmod(c, cols)
        neighbours.append(tuple(r * cols + cc
                                for r in range(max(0, r0 - NEAR), min(rows, r0 + NEAR + 1))
                                for cc in range(max(0, c0 - NEAR), min(cols, c0 + NEAR + 1))
                                if (r, cc) != (r0, c0)))
    # Each mark more in a live window is worth several times the last: three marks in
    # one window outweigh a cell's worth of scattered pairs.
    weight = tuple(0 if j == 0 else 6 ** (j - 1) for j in range(k + 1))
    value = tuple(1 if j == 0 else 5 ** j for j in range(k + 1))
    rng = random.Random(0x60_40_C0)  # fixed: hashes are the same in every run
    zobrist = (tuple(rng.getrandbits(63) for _ in range(n)),
               tuple(rng.getrandbits(63) for _ in range(n)))
    centre = (rows // 2) * cols + cols // 2
    return Tables(rows, cols, k, n, tuple(windows), cell_windows, tuple(neighbours),
                  weight, value, zobrist, centre)


class ThreatBoard:
    """A two-player k-in-a-row position, changed in place by :meth:`make` / :meth:`undo`.

    Players are 0 (X, first) and 1 (O). ``cell[c]`` is -1 when empty.
    """

    __slots__ = ("t", "k", "low", "cell", "cnt", "score", "level", "cv", "near", "hash",
                 "to_move", "stack", "winner", "n_empty")

    def __init__(self, rows: int, cols: int, k: int) -> None:
        t = tables(rows, cols, k)
        self.t = t
        self.k = k
        self.cell = [-1] * t.n
        nw = len(t.windows)
        self.cnt = ([0] * nw, [0] * nw)
        self.score = [0, 0]
        # level[p][j]: the windows alive for p holding j of p's marks, kept for
        # j ≥ low = max(1, k - 3) only: threes, fours and the windows one short of a
        # three are all the threat searches look at.
        self.low = max(1, k - 3)
        self.level: tuple[list[set[int]], list[set[int]]] = (
            [set() for _ in range(k + 1)], [set() for _ in range(k + 1)])
        # Every window is alive and empty: each cell starts with value[0] per window.
        base = [len(t.cell_windows[c]) * t.value[0] for c in range(t.n)]
        self.cv = (base[:], base[:])
        self.near = [0] * t.n
        self.hash = 0
        self.to_move = 0
        self.stack: list[int] = []
        self.winner: int | None = None
        self.n_empty = t.n

    @classmethod
    def from_rules(cls, state: TicTacToeState) -> ThreatBoard:
        """The board of a two-player rules state, the same player to move."""
        cfg = state.config
        if cfg.players != 2:
            raise ValueError("ThreatBoard is for two players")
        b = cls(cfg.rows, cfg.cols, cfg.k)
        xs = [c for c, v in enumerate(state.board) if v == 0]
        os_ = [c for c, v in enumerate(state.board) if v == 1]
        if not 0 <= len(xs) - len(os_) <= 1:
            raise ValueError("marks cannot arise by turns")
        # Interleave so each make() is by the right player; the order does not
        # change the counts, only the (unused) move stack.
        for i in range(len(xs)):
            b.make(xs[i])
            if i < len(os_):
                b.make(os_[i])
        if b.to_move != state.to_move and state.board.count(EMPTY):
            raise ValueError("the player to move does not follow from the counts")
        return b

    # --- moves ------------------------------------------------------------------------

    def make(self, c: int) -> None:
        """The player to move marks empty cell ``c``."""
        p = self.to_move
        q = 1 - p
        t = self.t
        self.cell[c] = p
        cp, cq = self.cnt[p], self.cnt[q]
        lp, lq = self.level[p], self.level[q]
        vp, vq = self.cv[p], self.cv[q]
        weight, value, windows, k = t.weight, t.value, t.windows, self.k
        low = self.low
        sp = self.score[p]
        sq = self.score[q]
        for w in t.cell_windows[c]:
            a = cp[w]
            cp[w] = a + 1
            b = cq[w]
            if b == 0:
                sp += weight[a + 1] - weight[a]
                if a >= low:
                    lp[a].discard(w)
                if a + 1 >= low:
                    lp[a + 1].add(w)
                d = value[a + 1] - value[a]
                if a:
                    for x in windows[w]:
                        vp[x] += d
                else:
                    # The empty window also dies for q.
                    d0 = value[0]
                    for x in windows[w]:
                        vp[x] += d
                        vq[x] -= d0
                if a + 1 == k:
                    self.winner = p
            elif a == 0:
                # The window was alive for q only; now it is dead for both.
                sq -= weight[b]
                if b >= low:
                    lq[b].discard(w)
                d = value[b]
                for x in windows[w]:
                    vq[x] -= d
        self.score[p] = sp
        self.score[q] = sq
        near = self.near
        for x in t.neighbours[c]:
            near[x] += 1
        self.hash ^= t.zobrist[p][c]
        self.to_move = q
        self.stack.append(c)
        self.n_empty -= 1

    def undo(self) -> None:
        """Take back the last move."""
        c = self.stack.pop()
        q = self.to_move
        p = 1 - q
        t = self.t
        self.cell[c] = -1
        cp, cq = self.cnt[p], self.cnt[q]
        lp, lq = self.level[p], self.level[q]
        vp, vq = self.cv[p], self.cv[q]
        weight, value, windows = t.weight, t.value, t.windows
        low = self.low
        sp = self.score[p]
        sq = self.score[q]
        for w in t.cell_windows[c]:
            a = cp[w] - 1
            cp[w] = a
            b = cq[w]
            if b == 0:
                sp -= weight[a + 1] - weight[a]
                if a + 1 >= low:
                    lp[a + 1].discard(w)
                if a >= low:
                    lp[a].add(w)
                d = value[a + 1] - value[a]
                if a:
                    for x in windows[w]:
                        vp[x] -= d
                else:
                    d0 = value[0]
                    for x in windows[w]:
                        vp[x] -= d
                        vq[x] += d0
            elif a == 0:
                sq += weight[b]
                if b >= low:
                    lq[b].add(w)
                d = value[b]
                for x in windows[w]:
                    vq[x] += d
        self.score[p] = sp
        self.score[q] = sq
        near = self.near
        for x in t.neighbours[c]:
            near[x] -= 1
        self.hash ^= t.zobrist[p][c]
        self.to_move = p
        self.winner = None  # a won position is never played on, so undoing ends the win
        self.n_empty += 1

    def push(self, c: int) -> None:
        """:meth:`make` without the per-cell values (``cv``) or the near counts.

        For searches that only read windows, levels and the score (threat search,
        alpha-beta leaves), at a third of the cost: ``cv`` then still holds the values
        of the position where the pushes began (still good enough to order moves by)
        and :meth:`candidates` is not to be used until the pushes are taken back.
        Take back with :meth:`pop`, never :meth:`undo`."""
        p = self.to_move
        q = 1 - p
        self.cell[c] = p
        cp, cq = self.cnt[p], self.cnt[q]
        lp, lq = self.level[p], self.level[q]
        weight, k, low = self.t.weight, self.k, self.low
        sp = self.score[p]
        sq = self.score[q]
        for w in self.t.cell_windows[c]:
            a = cp[w]
            cp[w] = a + 1
            b = cq[w]
            if b == 0:
                sp += weight[a + 1] - weight[a]
                if a >= low:
                    lp[a].discard(w)
                if a + 1 >= low:
                    lp[a + 1].add(w)
                    if a + 1 == k:
                        self.winner = p
            elif a == 0:
                sq -= weight[b]
                if b >= low:
                    lq[b].discard(w)
        self.score[p] = sp
        self.score[q] = sq
        self.hash ^= self.t.zobrist[p][c]
        self.to_move = q
        self.stack.append(c)
        self.n_empty -= 1

    def pop(self) -> None:
        """Take back the last :meth:`push`."""
        c = self.stack.pop()
        q = self.to_move
        p = 1 - q
        self.cell[c] = -1
        cp, cq = self.cnt[p], self.cnt[q]
        lp, lq = self.level[p], self.level[q]
        weight, low = self.t.weight, self.low
        sp = self.score[p]
        sq = self.score[q]
        for w in self.t.cell_windows[c]:
            a = cp[w] - 1
            cp[w] = a
            b = cq[w]
            if b == 0:
                sp -= weight[a + 1] - weight[a]
                if a + 1 >= low:
                    lp[a + 1].discard(w)
                if a >= low:
                    lp[a].add(w)
            elif a == 0:
                sq += weight[b]
                if b >= low:
                    lq[b].add(w)
        self.score[p] = sp
        self.score[q] = sq
        self.hash ^= self.t.zobrist[p][c]
        self.to_move = p
        self.winner = None
        self.n_empty += 1

    # --- threats ----------------------------------------------------------------------

    def empties(self, w: int) -> list[int]:
        """The empty cells of window ``w``."""
        cell = self.cell
        return [x for x in self.t.windows[w] if cell[x] < 0]

    def win_cells(self, p: int) -> set[int]:
        """Cells where ``p`` would complete k in a row (the empty cell of each four)."""
        out = set()
        cell = self.cell
        windows = self.t.windows
        for w in self.level[p][self.k - 1]:
            for x in windows[w]:
                if cell[x] < 0:
                    out.add(x)
                    break
        return out

    def four_moves(self, p: int) -> dict[int, set[int]]:
        """Every cell where ``p`` makes a four, with the winning cells the move would make.

        Two or more winning cells make a double threat (an open four, a double four).
        """
        out: dict[int, set[int]] = {}
        cell = self.cell
        windows = self.t.windows
        for w in self.level[p][self.k - 2] if self.k >= 2 else ():
            e = [x for x in windows[w] if cell[x] < 0]
            if len(e) != 2:
                continue
            a, b = e
            s = out.get(a)
            if s is None:
                out[a] = {b}
            else:
                s.add(b)
            s = out.get(b)
            if s is None:
                out[b] = {a}
            else:
                s.add(a)
        return out

    def four_moves_at(self, p: int, cells: tuple[int, ...] | list[int]) -> dict[int, set[int]]:
        """:meth:`four_moves` for ``cells`` only (those of them that make a four)."""
        out: dict[int, set[int]] = {}
        cell = self.cell
        windows = self.t.windows
        cw = self.t.cell_windows
        lvl = self.level[p][self.k - 2] if self.k >= 2 else set()
        for c in cells:
            if cell[c] >= 0:
                continue
            made = set()
            for w in cw[c]:
                if w in lvl:
                    for x in windows[w]:
                        if x != c and cell[x] < 0:
                            made.add(x)
            if made:
                out[c] = made
        return out

    def four_moves_near(self, p: int, marks: tuple[int, ...]) -> dict[int, set[int]]:
        """:meth:`four_moves` for the cells that make a four in a window through one of
        ``marks`` (with every winning cell each would make, through them or not)."""
        cell = self.cell
        windows = self.t.windows
        lvl = self.level[p][self.k - 2] if self.k >= 2 else set()
        cand = []
        cw = self.t.cell_windows
        for m in marks:
            for w in cw[m]:
                if w in lvl:
                    for x in windows[w]:
                        if cell[x] < 0:
                            cand.append(x)
        return self.four_moves_at(p, dict.fromkeys(cand)) if cand else {}

    def double_threats(self, p: int) -> dict[int, set[int]]:
        """The cells where ``p`` would make two winning cells at once (win next move
        against any single reply), with those winning cells."""
        return {c: s for c, s in self.four_moves(p).items() if len(s) >= 2}

    def three_moves(self, p: int, fours: dict[int, set[int]] | None = None) -> list[int]:
        """The cells (not fours) where ``p`` makes a double threat for its next move: an
        open three, or a three beside a four-in-waiting.

        Worked out from the windows without playing the cell: a move that is not a four
        leaves ``p``'s level-(k-2) windows as they are and lifts its level-(k-3) windows
        through the cell to level k-2, each pairing its two other empty cells; a double
        threat appears where a cell then has two different partners. ``fours``: the
        result of :meth:`four_moves`, if already known.
        """
        if self.k < 3:
            return []
        fm = self.four_moves(p) if fours is None else fours
        lvl = self.level[p][self.k - 3]
        cell = self.cell
        windows = self.t.windows
        cw = self.t.cell_windows
        cand: set[int] = set()
        for w in lvl:
            for x in windows[w]:
                if cell[x] < 0:
                    cand.add(x)
        out = []
        empty: set[int] = set()
        for c in cand:
            if c in fm:
                continue
            partners: dict[int, set[int]] = {}
            for w in cw[c]:
                if w in lvl:
                    a, b = [x for x in windows[w] if cell[x] < 0 and x != c]
                    partners.setdefault(a, set()).add(b)
                    partners.setdefault(b, set()).add(a)
            for a, s in partners.items():
                if len(s) >= 2 or len(s | fm.get(a, empty)) >= 2:
                    out.append(c)
                    break
        return out

    def three_defences(self, p: int, makers: dict[int, set[int]]) -> set[int]:
        """The cells that can stop ``p``'s double threats ``makers`` (as from
        :meth:`double_threats`): every empty cell of ``p``'s level-(k-2) windows
        through a maker. A move anywhere else leaves some maker's windows as they
        were, so that maker still makes two winning cells."""
        out: set[int] = set()
        cell = self.cell
        windows = self.t.windows
        cw = self.t.cell_windows
        lvl = self.level[p][self.k - 2]
        for m in makers:
            for w in cw[m]:
                if w in lvl:
                    for x in windows[w]:
                        if cell[x] < 0:
                            out.add(x)
        return out

    def candidates(self) -> list[int]:
        """Empty cells near a mark (the centre on an empty board), in index order."""
        cell, near = self.cell, self.near
        out = [c for c in range(self.t.n) if near[c] and cell[c] < 0]
        if not out:
            centre = self.t.centre
            out = [centre] if cell[centre] < 0 else [c for c in range(self.t.n) if cell[c] < 0]
        return out
