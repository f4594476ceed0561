"""The Grundy games' rules, as the help overlays show them (one text per kind of game).

Every value or move a text states is computed here, when the text is built, with the
games' own rules (:mod:`games.grundy.heaps`): the Bachet positions of value 0 and the Nim
example's nim-sum and winning moves fill the translated template's {placeholders}, so no
example can be wrong. The computer levels come from the ladder
(:meth:`engine.model.descriptor.GameDescriptor.levels_text`). No pygame here.
"""

from engine.core.i18n import N_, _
from games.grundy.descriptor import GAME
from games.grundy.heaps import (
    BACHET_DEFAULT,
    DEFAULT_BACHET_HEAP,
    DEFAULT_NIM_HEAPS,
    HeapConfig,
    HeapState,
    heap_grundy,
)

BOARD_HELP = N_("""A token stands on a chessboard. Players take turns moving it, always towards the
top-left corner (marked ★); the player who cannot move loses. With the King, the Rook and the
Queen that means: whoever moves a token into the corner wins.

King: one square left, up, or diagonally up-left. Rook: any number of squares left or up.
Queen: rook moves, or any number of squares diagonally up-left (Wythoff's game). Knight: the
four knight jumps that bring it closer to the corner: two up and one left, one up and two
left, two up and one right, or one down and two left. Each of them lowers row + column (by 3
or by 1), so the knight always gets closer and the game must end, in a corner square from
which no such jump stays on the board.

With several tokens, a move moves exactly one of them (they may share squares). That game is
the sum of one-token games, and its value is the nim-sum (⊕, binary addition without carry)
of the tokens' values.

Click a square highlighted for the selected token to move it there. With several tokens,
click a token (or press 1–4) to select it. Place lets you put tokens anywhere to start from.

Hint (H) shows every square's Grundy value: the mex (smallest missing number) of the values
of the squares it can reach. Value 0 squares (striped) are lost for the player to move; the
moves that leave your opponent a total of 0 are framed and ticked. The winning strategy:
always move so that the nim-sum of the tokens' values is 0. Table (T) shows the whole table
as a picture.""")


HEAPS_HELP = N_("""Pebbles lie in heaps. Players take turns; a move takes pebbles from one heap.
In normal play whoever takes the last pebble wins (the player who cannot move loses); in misère Nim
whoever takes the last pebble loses.

Bachet's game: one heap (traditionally 100 pebbles); each move takes 1 to k of them
(traditionally k = 10). Nim: several heaps; a move takes any number of pebbles (at least one)
from one heap.

Click a pebble to take it and every pebble above it in its heap: the pebbles that would go are
lit up as you point, with the count. In Bachet's game a click that would take more than k is
not allowed (the pebbles are crossed out); the Take buttons take 1 to k directly. Keyboard:
←/→ choose the heap, ↑/↓ how many, Enter takes.

Winning strategy. Bachet: leave your opponent a multiple of k + 1 (with k = {k}: {zeros}).
Whatever they take, you take the rest of k + 1 and reach the next multiple; a heap of n has
Grundy value n mod (k + 1), and the multiples of k + 1 are the positions of value 0.

Nim: write the heap sizes in binary and add them without carrying (⊕, "nim-sum": each column
of bits is 1 when it holds an odd number of 1s). A heap of n has Grundy value n, and a position
has the nim-sum of its heaps. Make the nim-sum 0 after your move: there is always such a move
when it is not 0 (take from a heap that has a 1 in the nim-sum's leftmost column), and none when
it is 0. Example: heaps {heaps} have the nim-sum {sum} = {total}, not 0, so the player to move
wins; the winning moves (heap → pebbles left) are {moves}. After {move}, for instance, the
nim-sum is {after} = 0.

Misère Nim: play exactly as in Nim until your move would leave only heaps of 0 or 1 pebbles;
then leave an odd number of 1-pebble heaps, so your opponent takes the very last pebble.

Hint (H) writes each heap's Grundy value under it (value 0 striped), the arithmetic on the
status line, the nim-sum in binary at the right, and frames and ticks (✓) the pebble to click
for every winning move.""")


GRAPH_HELP = N_("""A token stands on a node of a directed graph. Players take turns moving it along
an arrow to a neighbouring node. The player who cannot move (the token is on a node with no arrow
out) loses. The graph may have cycles, so a game could go round for ever: it is a draw when the
same position (the same node with the same player to move) occurs for the third time.

Click a node with a double ring (one an arrow leads to from the token) to move there. Keyboard: ←/→
choose among them, Enter moves.

Hint (H) labels every node with its generalised Grundy value. Without cycles this is the
ordinary Grundy value: the mex (smallest number missing) of the values of the nodes an arrow
leads to; a node with no way out has 0. With cycles the labelling goes step by step: a node
gets n when n is the mex of its already labelled successors and every unlabelled successor
has an arrow to a node labelled n (so if the opponent escapes there, you can come back to an n);
repeat while anything changes, for n = 0, then 1, then 2 and so on. The nodes left over get ∞.

Reading the labels: 0 (striped) is lost for the player to move; any other number wins, by moving
to a 0. ∞ is a draw with best play, unless an arrow leads from it to a 0 — then moving there
wins. So the first player wins exactly when some successor of the start is labelled 0. Each
value has its own fill, 0 striped as well; the legend beside the graph lists the fills this
graph shows and what each means. The hint ticks (✓) the winning moves; when there is none
it marks the moves that keep the draw ("draw"), and otherwise every move loses against best
play. The status line writes an ∞ with its K, as in Smith's notation: the numbers among the
labels its arrows lead to, as subscripts. ∞₀,₂ leads to nodes labelled 0 and 2, so it wins;
∞ alone there leads to no number.""")


def bachet_zeros(config: HeapConfig = BACHET_DEFAULT, start: int = DEFAULT_BACHET_HEAP) -> str:
    """The heaps of Grundy value 0 from ``start`` down, as the help lists them: the first
    two, an ellipsis, the last two (``99, 88, …, 11, 0``), by the game's own values."""
    zeros = [n for n in range(start, -1, -1) if heap_grundy(config, n) == 0]
    if len(zeros) <= 4:
        return ", ".join(map(str, zeros))
    return ", ".join(map(str, (*zeros[:2], "…", *zeros[-2:])))


def nim_example(heaps: tuple[int, ...] = DEFAULT_NIM_HEAPS) -> dict[str, str]:
    """The Nim example's figures for the heaps ``heaps`` (a won position), computed by the
    game's rules: the nim-sum, every winning move as ``heap → left``, and one of them with
    the nim-sum after it."""
    state = HeapState.start(HeapConfig("nim", heaps))
    moves = state.winning_moves()
    if not moves:
        raise ValueError(f"heaps {heaps} are lost for the player to move: no example")
    index, take = moves[-1]  # one of them, spelled out (the largest heap's, if it has one)
    after = state.play((index, take))
    return {
        "heaps": ", ".join(map(str, heaps)),
        "sum": " ⊕ ".join(map(str, heaps)),
        "total": str(state.value()),
        "moves": ", ".join(f"{heaps[i]} → {heaps[i] - t}" for i, t in moves),
        "move": f"{heaps[index]} → {heaps[index] - take}",
        "after": " ⊕ ".join(map(str, after.heaps)),
    }


# Said after the board and graph games' rules (games.grundy.starts deals these starts).
DEALT_HELP = N_("""A new game between two computers starts on a position dealt at random, so
that their games differ: the tokens on squares (mostly far from the corner), or the token on a
node, where the first player can win; with the King, where either the first or the second
player can win.""")


def board_rules() -> str:
    """The board games' rules and the computer levels, in the current language."""
    return GAME.with_levels(f"{_(BOARD_HELP)}\n\n{_(DEALT_HELP)}")


def heap_rules() -> str:
    """Bachet's and Nim's rules, with the examples computed, in the current language."""
    return _(HEAPS_HELP).format(k=BACHET_DEFAULT.max_take, zeros=bachet_zeros(),
                                **nim_example())


def heaps_rules() -> str:
    """:func:`heap_rules` and the computer levels (the heap screen's help)."""
    return GAME.with_levels(heap_rules())


def graph_rules() -> str:
    """The graph games' rules and the computer levels, in the current language."""
    return GAME.with_levels(f"{_(GRAPH_HELP)}\n\n{_(DEALT_HELP)}")


def rules() -> str:
    """Every kind's rules in the current language (the descriptor's help, which adds the
    levels)."""
    return "\n\n".join((_(BOARD_HELP), heap_rules(), _(GRAPH_HELP), _(DEALT_HELP)))



# Every kind's rules in English, examples filled in (tests read it).
HELP = "\n\n".join((BOARD_HELP, HEAPS_HELP.format(k=BACHET_DEFAULT.max_take, zeros=bachet_zeros(),
                                                  **nim_example()), GRAPH_HELP, DEALT_HELP))
