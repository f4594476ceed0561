"""Impartial games on a directed graph, cycles allowed (SPEC §5, the document's §3.4).

A token stands on a node; the players alternately move it along an edge; the
player who cannot move (the token is on a node with no successors) loses. With
cycles a play can go on for ever, so besides wins and losses there are draws.

The theory is Smith's (1966) generalised Sprague–Grundy function γ, computed by
Fraenkel & Yesha's algorithm (see :func:`generalized_grundy_with_counter`):
every node gets a number or ∞. Reading it:

* γ = 0: the player to move loses (P-position);
* γ = n > 0: the player to move wins, by moving to a 0;
* γ = ∞(K), K the set of finite values among the successors: a win when
  0 ∈ K (move to the 0), otherwise a draw with best play (D-position).

So "what stays unlabelled (∞) is a draw", as SPEC §5 sums it up, is only true
when no successor is labelled 0. The document's own closing sentence has it
right: the player to move wins iff some successor is labelled 0, loses iff
the position is labelled 0, and every other case is a draw.
:meth:`GraphState.value` follows that.

As a played game a cycle has to end: the game is drawn when the same node with
the same player to move occurs for the third time (see :class:`GraphState`).

No pygame here.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache

from engine.core.i18n import N_, Phrase, _
from engine.model.rules import IllegalMove
from engine.model.values import Infinite, nimber_text

WIN, LOSS, DRAW = "win", "loss", "draw"
# The same (node, player to move) for the third time ends the game in a draw.
REPETITIONS_FOR_DRAW = 3
MAX_NODES = 64


@dataclass(frozen=True)
class Digraph:
    """A game graph: node ``labels``, successor lists ``edges`` and a drawing ``layout``.

    ``edges[u]`` are the nodes the token may move to from ``u`` (no duplicates;
    a loop u → u is allowed: a "pass"). ``layout[u]`` is the node's position in
    the unit square (x right, y down) for drawing. ``start`` is where the token
    begins; ``description`` is shown to the player.
    """

    name: str
    labels: tuple[str, ...]
    edges: tuple[tuple[int, ...], ...]
    layout: tuple[tuple[float, float], ...]
    start: int = 0
    description: str = ""

    def __post_init__(self) -> None:
        n = len(self.labels)
        if not 1 <= n <= MAX_NODES:
            raise ValueError(f"a graph has 1..{MAX_NODES} nodes, got {n}")
        if len(self.edges) != n or len(self.layout) != n:
            raise ValueError(f"{n} labels but {len(self.edges)} successor lists and "
                             f"{len(self.layout)} positions")
        for u, succ in enumerate(self.edges):
            if any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n
                   for v in succ):
                raise ValueError(f"node {u} has a successor that is not a node 0..{n - 1}: "
                                 f"{succ!r}")
            if len(set(succ)) != len(succ):
                raise ValueError(f"node {u} lists a successor twice: {succ!r}")
        for u, (x, y) in enumerate(self.layout):
            if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
                raise ValueError(f"node {u} is drawn at {(x, y)}, outside the unit square")
        if (isinstance(self.start, bool) or not isinstance(self.start, int)
                or not 0 <= self.start < n):
            raise ValueError(f"start must be a node 0..{n - 1}, got {self.start!r}")

    @property
    def size(self) -> int:
        """Number of nodes."""
        return len(self.labels)

    def predecessors(self) -> tuple[tuple[int, ...], ...]:
        """For each node, the nodes with an edge into it."""
        return _predecessors(self)

    def has_cycle(self) -> bool:
        """Whether some play can return to a node (so draws are possible in principle)."""
        state = [0] * self.size  # 0 new, 1 on the current path, 2 done
        for root in range(self.size):
            if state[root]:
                continue
            stack = [(root, iter(self.edges[root]))]
            state[root] = 1
            while stack:
                u, it = stack[-1]
                v = next(it, None)
                if v is None:
                    state[u] = 2
                    stack.pop()
                elif state[v] == 1:
                    return True
                elif state[v] == 0:
                    state[v] = 1
                    stack.append((v, iter(self.edges[v])))
        return False


@lru_cache(maxsize=256)
def _predecessors(graph: Digraph) -> tuple[tuple[int, ...], ...]:
    preds: list[list[int]] = [[] for _u in range(graph.size)]
    for u, succ in enumerate(graph.edges):
        for v in succ:
            preds[v].append(u)
    return tuple(tuple(p) for p in preds)


def mex(values: set[int] | frozenset[int]) -> int:
    """The minimal excludant: the least non-negative integer not in ``values``."""
    m = 0
    while m in values:
        m += 1
    return m


# --- the generalised Sprague–Grundy function ------------------------------------


@lru_cache(maxsize=256)
def generalized_grundy_with_counter(
        graph: Digraph) -> tuple[tuple[int | None, ...], tuple[int | None, ...]]:
    """γ of every node (None = ∞) and the counter: the order in which finite labels were given.

    Fraenkel & Yesha's algorithm for Smith's generalised Sprague–Grundy function:

    for i = 0, 1, 2, …:
      1. as long as possible, label i an unlabelled node u such that
         (a) no successor of u is labelled i, and
         (b) every successor of u that is unlabelled or labelled ∞ has a
             successor labelled i;
         each such label also gets the next counter value;
      2. label ∞ every unlabelled node with no successor labelled i;
    until no node is unlabelled.

    A node still unlabelled in round i has successors labelled 0, …, i − 1
    (else step 2 of an earlier round made it ∞), so with (a) its label is the
    mex of its successors' finite labels. (b) makes the moves "up" reversible:
    from any successor whose label is bigger (or ∞) the opponent can come back
    down to i — with a smaller counter, which is what keeps the winner's
    strategy from going round a cycle for ever. Terminal nodes get 0 in round 0.

    The document (§3.4) states the same two conditions with n = the mex of the
    already labelled successors, labelling nodes in any order, and then fills
    "the rest" with the ordinary rule when all successors are labelled. We
    follow the standard round-by-round form; on every graph we tried the
    document's any-order version gives the same labels (the order of labelling
    acts as the counter; see the tests), and its "fill the rest" step never
    applies (a node whose successors are all labelled meets (a) and (b) for the
    mex). The nodes left over are ∞, which is a *draw* only if no successor is
    labelled 0 (see :func:`label_outcomes`).
    """
    n = graph.size
    label: list[int | None] = [None] * n
    counter: list[int | None] = [None] * n
    unlabelled = set(range(n))
    next_count = 0
    i = 0
    while unlabelled:
        changed = True
        while changed:
            changed = False
            for u in sorted(unlabelled):
                succ = graph.edges[u]
                if any(label[v] == i for v in succ):
                    continue  # (a) fails
                if all(any(label[w] == i for w in graph.edges[v])
                       for v in succ if label[v] is None):  # unlabelled or ∞
                    label[u] = i
                    counter[u] = next_count
                    next_count += 1
                    unlabelled.discard(u)
                    changed = True
        for u in list(unlabelled):
            if not any(label[v] == i for v in graph.edges[u]):
                unlabelled.discard(u)
        i += 1
    return tuple(label), tuple(counter)


def generalized_grundy(graph: Digraph) -> tuple[int | None, ...]:
    """Smith's generalised Sprague–Grundy value of every node; None stands for ∞.

    On an acyclic graph it is the ordinary Grundy function (mex of the
    successors' values). See :func:`generalized_grundy_with_counter` for the
    algorithm and :func:`label_outcomes` for reading the ∞ labels.
    """
    return generalized_grundy_with_counter(graph)[0]


def infinity_set(graph: Digraph, node: int) -> frozenset[int]:
    """K of a node labelled ∞(K): the finite labels among its successors."""
    labels = generalized_grundy(graph)
    return frozenset(v for s in graph.edges[node] if (v := labels[s]) is not None)


@lru_cache(maxsize=256)
def label_outcomes(graph: Digraph) -> tuple[str, ...]:
    """'win', 'loss' or 'draw' for the player to move at each node, read off γ.

    γ = 0: loss; finite γ > 0: win; ∞(K): win if 0 ∈ K, else draw.
    """
    labels = generalized_grundy(graph)
    out = []
    for u, g in enumerate(labels):
        if g == 0:
            out.append(LOSS)
        elif g is not None or 0 in infinity_set(graph, u):
            out.append(WIN)
        else:
            out.append(DRAW)
    return tuple(out)


# --- retrograde analysis (the independent check) ---------------------------------


@lru_cache(maxsize=256)
def _retrograde(graph: Digraph) -> tuple[tuple[str, ...], tuple[int | None, ...]]:
    """Outcomes and remoteness by retrograde analysis from the terminal nodes.

    Terminal nodes are lost. Working backwards in breadth-first order: a node
    with a lost successor is won (1 + the remoteness of the first, i.e.
    nearest, lost successor found); a node all of whose successors are won is
    lost (1 + that of the last, i.e. furthest, one). Nodes never reached are
    draws. The queue holds remoteness d then d + 1, so "first" and "last" are
    the minimum and maximum.
    """
    n = graph.size
    preds = graph.predecessors()
    outcome: list[str | None] = [None] * n
    remote: list[int | None] = [None] * n
    undecided_succ = [len(graph.edges[u]) for u in range(n)]
    queue: deque[int] = deque()
    for u in range(n):
        if not graph.edges[u]:
            outcome[u], remote[u] = LOSS, 0
            queue.append(u)
    while queue:
        v = queue.popleft()
        rv = remote[v]
        assert rv is not None
        for u in preds[v]:
            if outcome[u] is not None:
                continue
            if outcome[v] == LOSS:
                outcome[u], remote[u] = WIN, rv + 1
                queue.append(u)
            else:
                undecided_succ[u] -= 1
                if undecided_succ[u] == 0:
                    outcome[u], remote[u] = LOSS, rv + 1
                    queue.append(u)
    return tuple(o or DRAW for o in outcome), tuple(remote)


def retrograde_outcomes(graph: Digraph) -> tuple[str, ...]:
    """'win', 'loss' or 'draw' for the player to move at each node, by retrograde analysis.

    Independent of the Grundy labelling (used to check it in the tests).
    """
    return _retrograde(graph)[0]


def graph_remoteness(graph: Digraph) -> tuple[int | None, ...]:
    """Moves to the end from each node, the winner hurrying and the loser stalling; None: draw."""
    return _retrograde(graph)[1]


# --- built-in graphs -----------------------------------------------------------


# p_i q_j drawn at row i, column j. A move may skip nodes of its row or column, so the
# middle row is pulled right and the rows zigzag: no arrow passes through a node.
_HEAP_SUM_X = (0.04, 0.32, 0.60, 0.86)
_HEAP_SUM_Y = (0.14, 0.50, 0.86)
_HEAP_SUM_ZIGZAG = (0.0, 0.13, -0.13, 0.0)  # added to y, by column
_HEAP_SUM_PULL = (0.0, 0.12, 0.0)  # added to x, by row
HEAP_SUM_HEAPS = (2, 3)


def _heap_sum_graph() -> Digraph:
    """Two heaps of 2 and 3 pebbles as one graph (acyclic): piqj has i pebbles in the first
    heap and j in the second. (The source's Figure 3.4 draws two heaps of 2, whose start
    p2q2 is lost for the first player; 2 and 3 gives the first player a win to find.)"""
    first, second = HEAP_SUM_HEAPS
    labels, edges, layout = [], [], []
    width = second + 1
    for i in range(first + 1):
        for j in range(second + 1):
            labels.append(f"p{i}q{j}")
            edges.append(tuple([a * width + j for a in range(i)]
                               + [i * width + b for b in range(j)]))
            y = min(1.0, max(0.0, _HEAP_SUM_Y[i] + _HEAP_SUM_ZIGZAG[j]))
            layout.append((_HEAP_SUM_X[j] + _HEAP_SUM_PULL[i], y))
    return Digraph(
        name=N_("Two heaps (2 and 3)"),
        labels=tuple(labels), edges=tuple(edges), layout=tuple(layout), start=len(labels) - 1,
        description=N_("Nim with two heaps of 2 and 3 pebbles, drawn as a graph: piqj means i "
                       "pebbles in the first heap and j in the second; an arrow takes pebbles "
                       "from one heap. No cycles, so the labels are ordinary Grundy values, "
                       "i ⊕ j. Whoever leaves two equal heaps wins: the other player's every "
                       "move can be copied on the other heap."))


def _named(name: str, start: str, description: str,
           nodes: tuple[tuple[str, str, tuple[float, float]], ...]) -> Digraph:
    """A graph from (label, successor labels separated by spaces, position) rows."""
    index = {label: i for i, (label, _u, _u) in enumerate(nodes)}
    return Digraph(
        name=name,
        labels=tuple(label for label, _u, _u in nodes),
        edges=tuple(tuple(index[s] for s in succ.split()) for _u, succ, _u in nodes),
        layout=tuple(pos for _u, _u, pos in nodes),
        start=index[start],
        description=description)


DUGO = _named(
    N_("Dugó"), "P",
    N_("A bigger graph with cycles but no draws. C is the only node without moves, so it is 0. "
       "D leads to B and E, which both lead to C; E and H lie on cycles with D, yet every node "
       "still gets an ordinary value: C = D = K = J = N = 0, A = E = G = I = M = 1, and "
       "B = F = H = L = P = 2. From the start P, move to a 0 and keep doing so."),
    (
        ("A", "B D", (0.18, 0.52)),
        ("B", "C E", (0.30, 0.74)),
        ("C", "", (0.50, 0.92)),
        ("D", "B E", (0.50, 0.58)),
        ("E", "C H", (0.70, 0.74)),
        ("F", "A D", (0.10, 0.30)),
        ("G", "D", (0.60, 0.38)),
        ("H", "D G", (0.85, 0.52)),
        ("I", "F J", (0.12, 0.08)),
        ("J", "F G", (0.36, 0.28)),
        ("K", "G", (0.80, 0.32)),
        ("L", "I J G", (0.40, 0.10)),
        ("M", "K L", (0.60, 0.20)),
        ("N", "L M", (0.85, 0.06)),
        ("P", "M N", (0.95, 0.24)),
    ))

WHIRLPOOL = _named(
    N_("Whirlpool"), "Start",
    N_("A river with cycles and draws. Whoever is stuck on the Shore loses. The three whirlpool "
       "nodes W1 → W2 → W3 → W1 have no way out: once there, nobody can win (∞, a draw), and "
       "the Rapids are a draw too. The Start and the Eddy are labelled ∞ as well, yet they are "
       "wins: one move reaches a 0 (the Pool, the Shore). The Pool (0) and the Weir (1) lie on "
       "the cycle Eddy ⇄ Pool and still have ordinary values."),
    (
        ("Start", "Rapids Weir Pool", (0.12, 0.12)),
        ("Rapids", "Eddy W3", (0.45, 0.15)),
        ("Weir", "Pool Eddy", (0.06, 0.46)),
        ("Eddy", "Shore Pool Jetty W1", (0.50, 0.52)),
        ("Pool", "Eddy", (0.25, 0.80)),
        ("Jetty", "Shore", (0.78, 0.78)),
        ("Shore", "", (0.52, 0.90)),
        ("W1", "W2", (0.88, 0.50)),
        ("W2", "W3", (0.68, 0.35)),
        ("W3", "W1", (0.85, 0.12)),
    ))

ROUNDABOUT = _named(
    N_("Roundabout"), "Gate",
    N_("A one-way ring North → East → South → West → North with exits Home from East and West; "
       "whoever is Home (no moves) has lost. The ring is a cycle, yet no position is a draw: "
       "North and South are 0 (every move lets the opponent go Home), East and West are 1, "
       "and the Gate is 2."),
    (
        ("Gate", "North West", (0.12, 0.12)),
        ("North", "East", (0.50, 0.15)),
        ("East", "South Home", (0.85, 0.50)),
        ("South", "West", (0.50, 0.85)),
        ("West", "North Home", (0.15, 0.50)),
        ("Home", "", (0.50, 0.50)),
    ))

TWO_HEAPS = _heap_sum_graph()

# Simplest first (index 0 is the set-up's default): acyclic, cycles with draws, a
# cycle without draws, then Dugó (the source's §3.4 example, rebuilt from its text: C is
# the only node without moves; D → B, E; B, E → C; G → D; K → G; E → C, H; H → G, D; the
# other moves are our own).
BUILTIN: tuple[Digraph, ...] = (TWO_HEAPS, WHIRLPOOL, ROUNDABOUT, DUGO)


# --- the game ---------------------------------------------------------------------


@dataclass(frozen=True)
class GraphState:
    """The token on ``node`` with ``to_move`` to play. Build the start with :meth:`start`.

    Implements the engine's GameState and the impartial ImpartialState protocol.
    A move is the index of a successor node. The player to move on a node
    with no successors has lost. ``visits[2 * node + player]`` counts how often
    the token has stood on ``node`` with ``player`` to move; when that reaches
    three (the third occurrence of the same position) the game ends in a draw,
    ``returns() == (0, 0)``, which is what a cycle would otherwise do for ever.
    Built with ``visits=()`` it counts the current position once.
    """

    graph: Digraph
    node: int
    to_move: int = 0
    visits: tuple[int, ...] = field(default=())

    def __post_init__(self) -> None:
        if isinstance(self.node, bool) or not isinstance(self.node, int) or not (
                0 <= self.node < self.graph.size):
            raise ValueError(f"node must be 0..{self.graph.size - 1}, got {self.node!r}")
        if self.to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 or 1, got {self.to_move!r}")
        if not self.visits:
            counts = [0] * (2 * self.graph.size)
            counts[2 * self.node + self.to_move] = 1
            object.__setattr__(self, "visits", tuple(counts))
        elif len(self.visits) != 2 * self.graph.size:
            raise ValueError(f"visits needs 2 counts per node ({2 * self.graph.size})")

    @classmethod
    def start(cls, graph: Digraph) -> GraphState:
        """The token on the graph's start node, player 0 to move."""
        return cls(graph, graph.start)

    # --- the engine's rules interface -------------------------------------

    @property
    def num_players(self) -> int:
        """Two players."""
        return 2

    def current_player(self) -> int:
        """Index of the player to move (0 moves first)."""
        return self.to_move

    @property
    def repetitions(self) -> int:
        """How many times the current position (node, player to move) has occurred."""
        return self.visits[2 * self.node + self.to_move]

    def drawn_by_repetition(self) -> bool:
        """Whether the game has ended in a draw by the third repetition."""
        return self.repetitions >= REPETITIONS_FOR_DRAW

    def legal_moves(self) -> list[int]:
        """The successor nodes of the token's node; none once the game is over."""
        if self.drawn_by_repetition():
            return []
        return list(self.graph.edges[self.node])

    def play(self, move: int) -> GraphState:
        """Move the token to successor ``move``; IllegalMove unless it is one."""
        if self.is_terminal():
            raise IllegalMove("the game is over")
        if isinstance(move, bool) or not isinstance(move, int) or (
                move not in self.graph.edges[self.node]):
            raise IllegalMove(f"{move!r} is not a successor of node {self.node} "
                              f"({self.graph.labels[self.node]})")
        player = 1 - self.to_move
        counts = list(self.visits)
        counts[2 * move + player] += 1
        return GraphState(self.graph, move, player, tuple(counts))

    def is_terminal(self) -> bool:
        """Over on a node with no successors, or at the third repetition of a position."""
        return not self.graph.edges[self.node] or self.drawn_by_repetition()

    def returns(self) -> tuple[float, ...]:
        """(0, 0) while unfinished or drawn; else −1 for the player stuck without a move."""
        if not self.is_terminal() or self.drawn_by_repetition():
            return (0.0, 0.0)
        return tuple(-1.0 if p == self.to_move else 1.0 for p in range(2))

    # --- impartial theory ----------------------------------------------------

    def grundy(self) -> int | None:
        """The node's generalised Sprague–Grundy value γ; None for ∞."""
        return generalized_grundy(self.graph)[self.node]

    def nimber(self) -> int | Infinite | None:
        """The node's label as the theory writes it: γ when finite, else ∞(K) with K the
        finite labels among its successors (:func:`infinity_set`) — what the graph's hint
        draws on the node. None once the game has ended in a draw by repetition: a
        finished game is no node of the labelled game (its outcome is a draw, whatever
        the node's label)."""
        if self.drawn_by_repetition():
            return None
        g = self.grundy()
        return Infinite(infinity_set(self.graph, self.node)) if g is None else g

    def outcome(self) -> str:
        """'win', 'loss' or 'draw' for the player to move, with best play from here."""
        if self.drawn_by_repetition():
            return DRAW
        return label_outcomes(self.graph)[self.node]

    def value(self) -> int | None:
        """γ of the node when finite; None (∞) for a draw; 1 for a won ∞ node.

        Following the ImpartialState convention (0 ⟺ the mover loses, None ⟺ a
        draw), a node labelled ∞(K) with 0 ∈ K — the mover wins by moving to
        the 0 — has no finite Grundy value and reports 1, like a won misère
        position; :meth:`grundy` gives the true label. A game drawn by
        repetition is None. The labels describe the node: they ignore the
        repetition count, which matters only once a position has already
        occurred twice (see :meth:`move_value`).
        """
        if self.drawn_by_repetition():
            return None
        g = self.grundy()
        if g is not None:
            return g
        return 1 if self.outcome() == WIN else None

    def move_value(self, move: int) -> int | None:
        """The value after ``move`` (checked like :meth:`play`): None if it draws by repetition."""
        return self.play(move).value()

    def winning_moves(self) -> list[int]:
        """The moves to a node the opponent loses from (value 0)."""
        return [m for m in self.legal_moves() if self.move_value(m) == 0]

    def remoteness(self) -> int | None:
        """Moves to the end with best play (winner hurrying, loser stalling); None if drawn.

        By retrograde analysis of the graph (:func:`graph_remoteness`); for the
        finitely labelled nodes this is Smith's remoteness.
        """
        if self.drawn_by_repetition():
            return None
        return graph_remoteness(self.graph)[self.node]

    def value_explained(self) -> str:
        """The status line, e.g. ``value 2 (mex of 0, 1): the player to move wins …`` or
        ``value ∞₀,₂: no Grundy number, but …``."""
        if self.drawn_by_repetition():
            return _("position repeated {count} times: the game is drawn").format(
                count=REPETITIONS_FOR_DRAW)
        if not self.graph.edges[self.node]:
            return _("value 0: no move left, the player to move has lost")
        g = self.grundy()
        finite = sorted(infinity_set(self.graph, self.node))
        shown = ", ".join(map(str, finite)) if finite else _("nothing")
        if g == 0:
            labels = generalized_grundy(self.graph)
            if any(labels[v] is None for v in self.graph.edges[self.node]):
                return _("value 0: the player to move loses with best play (every move goes "
                         "to a non-zero value, or to ∞ from where the opponent can come back "
                         "to a 0)")
            return _("value 0: the player to move loses with best play (every move goes to a "
                     "non-zero value)")
        if g is not None:
            return _("value {value} (mex of {shown}): the player to move wins by moving to "
                     "a 0").format(value=g, shown=shown)
        # Smith's notation: K (the successors' finite values) as subscripts, ∞₀,₂.
        ks = nimber_text(Infinite(finite))[1:]
        if 0 in finite:
            return _("value ∞{set}: no Grundy number, but a successor has value 0: "
                     "the player to move wins by moving there").format(set=ks)
        return _("value ∞{set}: a draw with best play (neither player can force a "
                 "win)").format(set=ks)


# --- saved games (through games.grundy.variants' save_state and load_state) ----------------


def save_state(state: GraphState) -> dict[str, object]:
    """A position as JSON: the token's node, the player to move and the visit counts."""
    return {"node": state.node, "to_move": state.to_move, "visits": list(state.visits)}


def load_state(graph: Digraph, data: object) -> GraphState:
    """The position :func:`save_state` wrote, on ``graph``.

    ValueError, saying what is wrong, unless the node is one of the graph's, every visit
    count is 0 to the repetitions that end the game, and both the start (first player to
    move) and the position now have been visited.
    """
    from engine.storage.saved_data import fields, items, whole

    record = fields(data, Phrase(N_("the position")), ("node", "to_move", "visits"))
    node = whole(record["node"], Phrase(N_("the token's node")), 0, graph.size - 1)
    to_move = whole(record["to_move"], Phrase(N_("the player to move")), 0, 1)
    counts = items(record["visits"], Phrase(N_("the visit counts")), 2 * graph.size,
                   2 * graph.size)
    visits = tuple(whole(v, Phrase(N_("visit count {number}"), number=i + 1), 0,
                         REPETITIONS_FOR_DRAW)
                   for i, v in enumerate(counts))
    here = 2 * node + to_move
    if not visits[here]:
        raise ValueError(Phrase(N_("the position on the board was never visited")))
    if any(v >= REPETITIONS_FOR_DRAW for i, v in enumerate(visits) if i != here):
        raise ValueError(Phrase(N_("a position occurred {count} times, yet play went on"),
                                count=REPETITIONS_FOR_DRAW))
    if not visits[2 * graph.start]:
        raise ValueError(Phrase(N_("the start position was never visited")))
    return GraphState(graph, node, to_move, visits)
