"""Oracles shared by several test modules: independent brute force and minimax that the
solvers are proven against, and the positions built for them. Nothing here shares code
with what it checks."""

from __future__ import annotations

import random
import threading
from collections import Counter, deque
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from engine.model.values import MoveValue
from games.connect4.rules import Connect4Config, Connect4State
from games.grundy.graphs import Digraph
from games.tictactoe.hard_search import HardSearchAgent
from games.tictactoe.rules import MNKConfig, TicTacToeState

RANK = {"win": 2, "draw": 1, "loss": 0}


def rank(outcome: str, plies: int) -> tuple[int, int]:
    """Larger is better for the mover: quickest win, then draw, then longest loss."""
    return (RANK[outcome], -plies if outcome == "win" else plies if outcome == "loss" else 0)


_MEMO: dict[tuple, tuple[str, int]] = {}


def minimax(state: TicTacToeState) -> tuple[str, int]:
    """(outcome for the player to move, plies to the end) by trying every line of play."""
    key = (state.config, state.board)  # the board decides the position (the mover too)
    if key not in _MEMO:
        _MEMO[key] = _minimax(state)
    return _MEMO[key]


def _minimax(state: TicTacToeState) -> tuple[str, int]:
    if state.winner is not None:
        return ("loss", 0)  # the last mover completed a line
    if state.is_terminal():
        return ("draw", 0)
    best: tuple[str, int] | None = None
    for move in state.legal_moves():
        outcome, plies = minimax(state.play(move))
        mine = ({"win": "loss", "loss": "win", "draw": "draw"}[outcome], plies + 1)
        if best is None or rank(*mine) > rank(*best):
            best = mine
    assert best is not None
    return best


def losing_replies(state: TicTacToeState, move: int) -> int:
    """How many of the opponent's replies to ``move`` lose for them, by :func:`minimax`."""
    after = state.play(move)
    return sum(minimax(after.play(reply))[0] == "win" for reply in after.legal_moves())


def move_rank(state: TicTacToeState, move: int) -> tuple[int, int]:
    """The :func:`rank` of ``move`` for the player making it, by :func:`minimax`."""
    outcome, plies = minimax(state.play(move))
    return rank({"win": "loss", "loss": "win", "draw": "draw"}[outcome], plies + 1)


def best_and_trapped(state: TicTacToeState) -> tuple[set[int], set[int], tuple[int, int]]:
    """By :func:`minimax`: the moves of the best rank for the mover; those of them that
    leave the opponent the most losing replies where the best do not win (all of them where
    they win, or where there is one); and that best rank."""
    ranks = {move: move_rank(state, move) for move in state.legal_moves()}
    top = max(ranks.values())
    best = {move for move, r in ranks.items() if r == top}
    if len(best) == 1 or top[0] == RANK["win"]:
        return best, best, top
    traps = {move: losing_replies(state, move) for move in best}
    most = max(traps.values())
    return best, {move for move in best if traps[move] == most}, top


def reachable(config: MNKConfig) -> list[TicTacToeState]:
    """Every position reachable from the empty board on a small ``config``, finished ones
    included (5,478 on 3×3), in the order a depth-first walk first meets them."""
    seen: dict[tuple[int, ...], TicTacToeState] = {}
    todo = [TicTacToeState.new(config)]
    while todo:
        state = todo.pop()
        if state.board in seen:
            continue
        seen[state.board] = state
        if not state.is_terminal():
            todo += [state.play(m) for m in state.legal_moves()]
    return list(seen.values())


def every_position(config: MNKConfig) -> list[TicTacToeState]:
    """Every position reachable on a small ``config`` that is not over (4,520 on 3×3)."""
    return [s for s in reachable(config) if not s.is_terminal()]


def rule_mask(n: int, r: int, c: int) -> int:
    """The rule as written: the cell and its four wrapped neighbours, flips counted mod 2."""
    flips = Counter([(r, c), ((r + 1) % n, c), ((r - 1) % n, c), (r, (c + 1) % n),
                     (r, (c - 1) % n)])
    return sum(1 << (n * rr + cc) for (rr, cc), k in flips.items() if k % 2)


def dense_solve(n: int, green: int) -> tuple[int | None, list[int]]:
    """Plain Gauss-Jordan on the n²×n² press matrix: (a solution or None, a null-space basis).

    Row k of the augmented matrix: bit j set when press j flips cell k, bit n² = green_k.
    """
    size = n * n
    masks = [rule_mask(n, k // n, k % n) for k in range(size)]
    rows = [sum((masks[j] >> k & 1) << j for j in range(size)) | (green >> k & 1) << size
            for k in range(size)]
    pivots: list[int] = []
    for col in range(size):
        rank = len(pivots)
        pivot = next((i for i in range(rank, size) if rows[i] >> col & 1), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for i in range(size):
            if i != rank and rows[i] >> col & 1:
                rows[i] ^= rows[rank]
        pivots.append(col)
    rank = len(pivots)
    kernel = []
    for free in sorted(set(range(size)) - set(pivots)):
        kernel.append(1 << free | sum((rows[i] >> free & 1) << pivots[i] for i in range(rank)))
    if any(rows[i] >> size & 1 for i in range(rank, size)):
        return None, kernel
    return sum((rows[i] >> size & 1) << pivots[i] for i in range(rank)), kernel


Columns = tuple[tuple[int, ...], ...]


@cache
def brute_force(cols: int, rows: int, k: int) -> Callable[[Columns, int], tuple[int, int]]:
    """``value(columns, player)``: (outcome, plies) for ``player`` to move, memoised."""

    def completes(columns: Columns, col: int, height: int, player: int) -> bool:
        for dc, dh in ((1, 0), (0, 1), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                c, h = col + sign * dc, height + sign * dh
                while 0 <= c < cols and 0 <= h < len(columns[c]) and columns[c][h] == player:
                    count += 1
                    c, h = c + sign * dc, h + sign * dh
            if count >= k:
                return True
        return False

    def rank(value: tuple[int, int]) -> tuple[int, int]:
        outcome, plies = value
        return (outcome, -plies if outcome > 0 else plies if outcome < 0 else 0)

    @cache
    def value(columns: Columns, player: int) -> tuple[int, int]:
        best: tuple[int, int] | None = None
        for col in range(cols):
            height = len(columns[col])
            if height == rows:
                continue
            after = columns[:col] + (columns[col] + (player,),) + columns[col + 1:]
            if completes(after, col, height, player):
                v = (1, 1)
            elif all(len(c) == rows for c in after):
                v = (0, 1)
            else:
                outcome, plies = value(after, 1 - player)
                v = (-outcome, plies + 1)
            if best is None or rank(v) > rank(best):
                best = v
        assert best is not None, "no move in a position that is not over"
        return best

    return value


def brute_move_values(state: Connect4State) -> dict[int, tuple[int, int]]:
    """Every legal move's (outcome, plies) for the mover, by the reference."""
    cfg = state.config
    value = brute_force(cfg.cols, cfg.rows, cfg.k)
    out = {}
    player = state.current_player()
    for col in range(cfg.cols):
        if len(state.columns[col]) == cfg.rows:
            continue
        after = state.columns[:col] + (state.columns[col] + (player,),) + state.columns[col + 1:]
        child = Connect4State.from_moves(cfg, state.moves + (col,))
        if child.winner is not None:
            out[col] = (1, 1)
        elif child.is_terminal():
            out[col] = (0, 1)
        else:
            outcome, plies = value(after, 1 - player)
            out[col] = (-outcome, plies + 1)
    return out


def as_pair(value: MoveValue) -> tuple[int, int | None]:
    return (value.sign, value.remoteness)


def sensible_game(cfg: Connect4Config, plies: int, rng: random.Random) -> Connect4State:
    """Random play that neither wins at once nor hands the opponent a win at once (when
    it can help it), stopped after ``plies`` moves or at the end: positions still in play."""
    state = Connect4State.new(cfg)
    while len(state.moves) < plies and not state.is_terminal():
        quiet = []
        for col in state.legal_moves():
            after = state.play(col)
            if after.is_terminal():
                continue
            if any(after.play(reply).winner is not None for reply in after.legal_moves()):
                continue
            quiet.append(col)
        state = state.play(rng.choice(quiet or state.legal_moves()))
    return state


def random_positions(cfg: Connect4Config, low: int, high: int, count: int,
                     seed: int) -> list[Connect4State]:
    """``count`` unfinished positions with ``low`` to ``high`` discs (sensible play)."""
    rng = random.Random(seed)
    out: list[Connect4State] = []
    while len(out) < count:
        state = sensible_game(cfg, rng.randint(low, high), rng)
        if not state.is_terminal() and len(state.moves) >= low:
            out.append(state)
    return out


def random_play(cfg: Connect4Config, plies: int, rng: random.Random) -> Connect4State:
    """Uniformly random moves: ``plies`` of them, or fewer if the game ends first."""
    state = Connect4State.new(cfg)
    while len(state.moves) < plies and not state.is_terminal():
        state = state.play(rng.choice(state.legal_moves()))
    return state


def retrograde(graph: Digraph) -> list[str]:
    """Independent outcomes for the player to move: win, loss or draw (never decided)."""
    n = graph.size
    preds: list[list[int]] = [[] for _ in range(n)]
    for u, succ in enumerate(graph.edges):
        for v in succ:
            preds[v].append(u)
    outcome = ["loss" if not graph.edges[u] else "" for u in range(n)]
    left = [len(graph.edges[u]) for u in range(n)]
    queue = deque(u for u in range(n) if outcome[u])
    while queue:
        v = queue.popleft()
        for u in preds[v]:
            if outcome[u]:
                continue
            if outcome[v] == "loss":
                outcome[u] = "win"
                queue.append(u)
            else:
                left[u] -= 1
                if left[u] == 0:
                    outcome[u] = "loss"
                    queue.append(u)
    return [o or "draw" for o in outcome]


def random_cyclic_digraphs(count: int, seed: int) -> list[Digraph]:
    """``count`` random graphs of 4 to 12 nodes, each with a cycle (loops allowed)."""
    rng = random.Random(seed)
    out: list[Digraph] = []
    while len(out) < count:
        n = rng.randint(4, 12)
        p = rng.uniform(0.1, 0.45)
        edges = tuple(tuple(v for v in range(n) if rng.random() < (p if v != u else p / 4))
                      for u in range(n))
        layout = tuple(((i + 0.5) / n, 0.5) for i in range(n))
        graph = Digraph("random", tuple(f"v{i}" for i in range(n)), edges, layout)
        if graph.has_cycle():
            out.append(graph)
    return out


def labels_by_sums(graph: Digraph) -> list[int | tuple[str, frozenset[int]]]:
    """Every node's generalised Sprague–Grundy label from its sums with nim heaps alone.

    Smith's theory of sums: the token game at u plus a Nim heap of n is lost for the
    player to move exactly when γ(u) = n (finite), and with γ(u) = ∞(K) it is won
    when n ∈ K and drawn otherwise. So, by plain retrograde analysis of u + *n on the
    product game (token moves along the arrows, heap moves to any smaller heap), a
    node's label is the n whose sum is lost, and where there is none it is
    ``("∞", K)`` with K the n whose sum is won. No labelling algorithm, no mex and no
    successor's label is used. Labels and K's members are at most the node count.
    """
    n = graph.size
    top = n + 1  # heaps 0..top; every finite label (≤ out-degree) is below it
    def moves(u: int, h: int) -> list[tuple[int, int]]:
        return [(v, h) for v in graph.edges[u]] + [(u, k) for k in range(h)]
    states = [(u, h) for u in range(n) for h in range(top + 1)]
    preds: dict[tuple[int, int], list[tuple[int, int]]] = {s: [] for s in states}
    left = {}
    for s in states:
        succ = moves(*s)
        left[s] = len(succ)
        for t in succ:
            preds[t].append(s)
    outcome = {s: "loss" for s in states if not left[s]}
    queue = deque(outcome)
    while queue:
        t = queue.popleft()
        for s in preds[t]:
            if s in outcome:
                continue
            if outcome[t] == "loss":
                outcome[s] = "win"
                queue.append(s)
            else:
                left[s] -= 1
                if not left[s]:
                    outcome[s] = "loss"
                    queue.append(s)
    labels: list[int | tuple[str, frozenset[int]]] = []
    for u in range(n):
        lost = [h for h in range(top + 1) if outcome.get((u, h)) == "loss"]
        assert len(lost) <= 1, (u, lost)  # the theory: at most one heap balances a node
        if lost:
            labels.append(lost[0])
        else:
            won = frozenset(h for h in range(top + 1) if outcome.get((u, h)) == "win")
            assert top not in won, u  # K holds successors' labels, all below top
            labels.append(("∞", won))
    return labels


GOMOKU = MNKConfig(15, 15, 5)


def _state(marks: dict[tuple[int, int], str], config: MNKConfig = GOMOKU) -> TicTacToeState:
    grid = [["."] * config.cols for _ in range(config.rows)]
    for (r, c), ch in marks.items():
        grid[r][c] = ch
    return TicTacToeState.from_rows(["".join(row) for row in grid], config)


def _winning_squares(state: TicTacToeState, player: int) -> set[int]:
    """Empty squares where ``player`` would complete five, by the rules."""
    probe = TicTacToeState(state.config, state.board, player, state.last_move, None, (), None)
    return {m for m in probe.legal_moves() if probe.play(m).winner == player}


# X to move. Row 5 holds a closed three (O at its left end), column 5 another (O
# below it) and row 4, right of column 5, a third (O at its right end). X at (5,5)
# makes a four (O must take (5,6)); then X at (4,5) makes two fours at once: the
# column (win at (3,5)) and row 4 (win at (4,4)). Far O marks balance the counts.
_VCF_TWO = {
    (5, 1): "O", (5, 2): "X", (5, 3): "X", (5, 4): "X",
    (8, 5): "O", (7, 5): "X", (6, 5): "X",
    (4, 9): "O", (4, 6): "X", (4, 7): "X", (4, 8): "X",
    (0, 14): "O", (14, 0): "O", (14, 14): "O", (0, 10): "O", (10, 14): "O",
}


def _transformed(marks: dict[tuple[int, int], str], n: int, turn: int,
                 flip: bool) -> dict[tuple[int, int], str]:
    """``marks`` under a rotation by ``turn`` quarter turns, then a mirror if ``flip``."""
    out = {}
    for (r, c), ch in marks.items():
        for _ in range(turn):
            r, c = c, n - 1 - r
        if flip:
            c = n - 1 - c
        out[(r, c)] = ch
    return out


def _play_out_as_vcf(state: TicTacToeState, agent: HardSearchAgent, limit: int = 12) -> None:
    """Let ``agent`` attack and the defender block the one winning square each time:
    every attacking move must leave the defender exactly one square to block (a four)
    until a move leaves two (or completes five). Fails otherwise."""
    attacker = state.to_move
    cancel = threading.Event()
    for _ in range(limit):
        move = agent.choose_move(state, cancel)
        state = state.play(move)
        if state.winner == attacker:
            return
        threats = _winning_squares(state, attacker)
        assert threats, f"move {divmod(move, 15)} made no four: not a VCF"
        # The defender has no five of its own to play instead.
        assert not _winning_squares(state, 1 - attacker)
        state = state.play(min(threats))
        if len(threats) >= 2:
            final = agent.choose_move(state, cancel)
            assert state.play(final).winner == attacker
            return
    pytest.fail("no win within the move limit")


class Options:
    """Stands in for an agent's random generator: records what it chose among (tests read
    a player's real options this way)."""

    def __init__(self) -> None:
        self.seen: list[Any] | None = None

    def choice(self, moves: Any) -> Any:
        self.seen = list(moves)
        return self.seen[0]
