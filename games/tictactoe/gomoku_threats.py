"""Threat-space search on a :class:`~games.tictactoe.gomoku_board.ThreatBoard`: VCF and VCT.

* **VCF** (victory by continuous fours): the attacker makes a four with every move,
  so each reply is forced (the one winning cell), until a move makes two winning
  cells at once (an open four, a double four, four-three into a four). The only
  branching is the attacker's choice, so deep sequences are cheap. If the defender's
  forced block makes a four of its own, the attacker's next four must also block it.
* **VCT** (victory by continuous threats): the attacker may also make a *three* — a
  move after which it has a double threat (a cell making two winning cells). The
  defender then has a real choice, and every reply that could matter is tried: each
  empty cell of the attacker's windows through its double-threat cells (any other
  move leaves a double threat standing, which wins) and each of the defender's own
  fours (counter-attacks). A VCT is a proof within those rules: it is returned only
  when every such reply still loses to a VCT (a VCF, at the end).

Both search under a :class:`Limits` (nodes, a deadline, a cancel event), raising
:class:`~engine.ai.negamax.SearchTimeout` or :class:`~engine.ai.agent.Cancelled`,
and remember positions already refuted in a bounded table.
"""

from __future__ import annotations

import threading
import time

from engine.ai.negamax import SearchClock, SearchTimeout
from games.tictactoe.gomoku_board import ThreatBoard

__all__ = ["DEFAULT_MAX_ENTRIES", "Limits", "ThreatSearch"]

# Refuted positions remembered per search, at most (then the table starts afresh).
DEFAULT_MAX_ENTRIES = 200_000
# From this many fours into a VCF chain, only fours building on the chain are tried.
RELEVANT_FROM = 2
# Attacker threes tried per VCT node, best first (fours are all tried).
THREE_WIDTH = 10


class Limits(SearchClock):
    """A node, time and cancel budget shared by the searches of one move: the engine's
    :class:`~engine.ai.negamax.SearchClock` with a node count and an optional cap."""

    def __init__(self, deadline: float | None = None, max_nodes: int | None = None,
                 cancel: threading.Event | None = None) -> None:
        self.set_clock(cancel, deadline, poll_interval=64)
        self.nodes = 0
        self.max_nodes = max_nodes
        self._next_poll = self.poll_interval

    def tick(self) -> None:
        """Count a node; every 64 nodes look at the cancel event, the clock and the cap."""
        self.nodes += 1
        if self.nodes < self._next_poll:
            return
        self._next_poll = self.nodes + self.poll_interval
        self.check()
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise SearchTimeout

    def sub(self, seconds: float) -> Limits:
        """A budget that ends ``seconds`` from now (or at this one's end, if sooner),
        sharing the node count."""
        end = time.monotonic() + seconds
        if self.deadline is not None:
            end = min(end, self.deadline)
        lim = Limits(end, self.max_nodes, self.cancel)
        lim.nodes = self.nodes
        lim._next_poll = self.nodes + 1
        return lim


class ThreatSearch:
    """VCF and VCT searches on one board (changed in place, restored on return)."""

    def __init__(self, board: ThreatBoard, limits: Limits,
                 max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        self.b = board
        self.lim = limits
        self.max_entries = max_entries
        self._vcf_failed: dict[int, int] = {}
        self._vct_failed: dict[int, int] = {}

    def _key(self) -> int:
        return self.b.hash * 2 + self.b.to_move

    def _remember(self, table: dict[int, int], depth: int) -> None:
        if len(table) >= self.max_entries:
            table.clear()
        table[self._key()] = depth

    # --- VCF ----------------------------------------------------------------------------

    def vcf(self, depth: int = 30) -> int | None:
        """The first move of a victory by continuous fours for the player to move
        (at most ``depth`` fours), or None when none is found."""
        b = self.b
        p = b.to_move
        wins = b.win_cells(p)
        if wins:
            return min(wins)
        return self._vcf(depth)

    def _vcf(self, depth: int, chain: tuple[int, ...] = ()) -> int | None:
        """A VCF from here (see :meth:`vcf`). ``chain``: the attacker's fours so far in
        this chain. From the third four on, only fours in a window through one of them
        are tried: a four that builds on none of them could have come earlier, and the
        chain that plays it earlier is searched too. Two unrelated fours may open a
        chain (they can meet in a final double four). This relevance rule is what keeps
        the search small on crowded boards; it can miss the rare chain of three or more
        unrelated fours whose order matters."""
        b = self.b
        p = b.to_move
        q = 1 - p
        self.lim.tick()
        mine = b.win_cells(p)
        if mine:
            return min(mine)
        theirs = b.win_cells(q)
        if len(theirs) >= 2 or depth <= 0:
            return None
        if theirs:
            (block,) = theirs
            fours = b.four_moves_at(p, (block,))
            if block not in fours:
                return None  # the forced block makes no four: the chain breaks
            moves = [block]
        else:
            fours = (b.four_moves(p) if len(chain) < RELEVANT_FROM
                     else b.four_moves_near(p, chain))
            if not fours:
                return None
            cv = b.cv[p]
            moves = sorted(fours, key=lambda c: (-len(fours[c]), -cv[c], c))
        # Restricted and full searches of a position are remembered apart.
        key = self._key() * 2 + (len(chain) >= RELEVANT_FROM)
        if self._vcf_failed.get(key, -1) >= depth:
            return None
        for c in moves:
            made = fours[c]
            if len(made) >= 2:
                return c  # two winning cells; the defender has none (blocked or never had)
            (reply,) = made
            b.push(c)
            b.push(reply)
            try:
                found = self._vcf(depth - 1, (*chain, c))
            finally:
                b.pop()
                b.pop()
            if found is not None:
                return c
        if len(self._vcf_failed) >= self.max_entries:
            self._vcf_failed.clear()
        self._vcf_failed[key] = depth
        return None

    def vcf_line(self, depth: int = 30) -> list[int]:
        """The cells of a VCF for the player to move (attacker moves and forced replies,
        in order), or [] when none is found. Used to look for the defender's answers."""
        b = self.b
        line: list[int] = []
        made = 0
        try:
            while True:
                move = self.vcf(depth)
                if move is None:
                    return []
                line.append(move)
                p = b.to_move
                b.push(move)
                made += 1
                if b.winner is not None:
                    return line
                replies = b.win_cells(p)
                if len(replies) != 1:
                    return line  # two winning cells (or a five): the end of the line
                (reply,) = replies
                line.append(reply)
                b.push(reply)
                made += 1
                depth -= 1
        finally:
            for _ in range(made):
                b.pop()

    # --- VCT ----------------------------------------------------------------------------

    def vct(self, depth: int = 3, vcf_depth: int = 12) -> int | None:
        """The first move of a victory by continuous threats (fours and threes, at most
        ``depth`` threes and fours before a VCF of at most ``vcf_depth``) for the player
        to move, or None when none is found."""
        return self._attack(depth, vcf_depth)

    def _attack(self, depth: int, vcf_depth: int) -> int | None:
        b = self.b
        p = b.to_move
        q = 1 - p
        self.lim.tick()
        mine = b.win_cells(p)
        if mine:
            return min(mine)
        theirs = b.win_cells(q)
        if len(theirs) >= 2:
            return None
        found = self._vcf(vcf_depth)
        if found is not None:
            return found
        if depth <= 0:
            return None
        key = self._key()
        if self._vct_failed.get(key, -1) >= depth:
            return None
        if theirs:
            moves = list(theirs)  # the block first; it must also keep a threat going
        else:
            moves = self._threat_moves(p)
        for c in moves:
            b.push(c)
            try:
                won = self._defend(depth - 1, vcf_depth)
            finally:
                b.pop()
            if won:
                return c
        self._remember(self._vct_failed, depth)
        return None

    def _threat_moves(self, p: int) -> list[int]:
        """The attacker's fours, then its best threes (moves that make a double threat)."""
        b = self.b
        fours = b.four_moves(p)
        cv = b.cv[p]
        out = sorted(fours, key=lambda c: (-cv[c], c))
        threes = sorted(b.three_moves(p, fours), key=lambda c: (-cv[c], c))[:THREE_WIDTH]
        return out + threes

    def _defend(self, depth: int, vcf_depth: int) -> bool:
        """Whether the attacker (who just moved) wins against every reply that matters."""
        b = self.b
        q = b.to_move
        p = 1 - q
        self.lim.tick()
        if b.win_cells(q):
            return False
        made = b.win_cells(p)
        if len(made) >= 2:
            return True
        if made:
            replies = set(made)
        else:
            dt = b.double_threats(p)
            if not dt:
                return False  # no threat: the defender is free to do anything
            replies = b.three_defences(p, dt)
            replies.update(b.four_moves(q))
        cv = b.cv[p]
        for r in sorted(replies, key=lambda c: (-cv[c], c)):
            b.push(r)
            try:
                won = self._attack(depth, vcf_depth) is not None
            finally:
                b.pop()
            if not won:
                return False
        return True
