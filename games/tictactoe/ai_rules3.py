"""The rule-based player of seed 001 (SPEC §1) for classic 3×3 tic-tac-toe, repaired.

The data layout follows the document: the board's 8 lines ("piškvorky"), each
knowing its cells, each cell knowing its lines, and the lines sorted into four
groups by state as seen by the player to move: *empty*, *mine* (only my marks
and blanks), *theirs*, and *blocked* (both players' marks).

The player applies the first rule that fits, in the document's order:

1. complete one of my lines that has two marks (win);
2. block an opponent line that has two marks;
3. take an empty cell where two of my one-mark lines cross (a fork);
4. if two opponent one-mark lines cross on an empty cell (they threaten a fork):
   a. put a second mark in one of my one-mark lines, forcing them to block;
   b. otherwise take the crossing cell;
5. take the centre;
6. take the corner opposite one of the opponent's corners;
7. take a free corner;
8. take a free edge.

Before these, a small opening book plays the first two moves as the document
advises: open in a corner; answer a corner with the centre, the centre with a
corner, an edge with the centre, a corner next to it or the opposite edge.

**How rule 4a was made safe.** As written, 4a may pick a forcing move whose
forced reply is itself a fork for the opponent. Example: X corner, O centre,
X opposite corner (X: 0, 8; O: 4). X threatens forks on both free corners, so
rule 4 fires for O. Forcing with a corner (O at 2) makes X block at 6, and X's
block then threatens both 3 and 7: X wins.

Here a forcing move *m* (my second mark in a one-mark line of mine) is kept
only if it is *safe*. After *m* the opponent's reply is forced to the single
cell *f* that completes my line (they cannot win instead: rule 2 did not fire,
so they had no two-mark line, and *m* only adds my mark). *m* is safe when,
with *m* and *f* on the board,

* the opponent has fewer than two winning cells (otherwise I can block only
  one: the counter-example above), **and**
* the opponent has no fork cell left, i.e. no empty cell where two of their
  one-mark lines cross. Checking only the first condition is not enough:
  after X edge 1, O corner 0, X edge 5, forcing with O at 3 makes X block
  at 6, which is no double threat, but it leaves X fork cells at 2, 4, 7
  and 8 and no safe way for O to stop them all. (O at 6 instead forces X
  to 3, and O wins.)

When no forcing move is safe, 4a does not fit and 4b takes the crossing cell.
The test suite proves by exhaustive play, from both seats, over every
opponent reply and every tie option this player may choose, that with this
repair it never loses, and that the unrepaired 4a (``repaired=False``) does.

Ties (several cells satisfying the rule that fired) are broken at random;
:func:`rule_candidates` lists them all, which is what the exhaustive test walks.

No pygame here.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from engine.ai.agent import Cancelled
from engine.model.rules import GameState, Move
from games.tictactoe.rules import CLASSIC, EMPTY, TicTacToeState

__all__ = [
    "CENTRE",
    "CORNERS",
    "EDGES",
    "LINES",
    "LINES_THROUGH",
    "RULE_TEXT",
    "LineGroups",
    "RuleAgent",
    "classify_lines",
    "rule_candidates",
]

# Cells are numbered row * 3 + col:   0 1 2 / 3 4 5 / 6 7 8
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),             # diagonals
)
# Each cell knows the lines through it (indices into LINES).
LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, line in enumerate(LINES) if cell in line) for cell in range(9))
CENTRE = 4
CORNERS = (0, 2, 6, 8)
EDGES = (1, 3, 5, 7)
OPPOSITE = {0: 8, 8: 0, 2: 6, 6: 2, 1: 7, 7: 1, 3: 5, 5: 3}
ADJACENT_CORNERS = {1: (0, 2), 3: (0, 6), 5: (2, 8), 7: (6, 8)}

RULE_TEXT = {
    "book": "opening book",
    "1": "win: complete my line of two",
    "2": "block the opponent's line of two",
    "3": "fork: take the crossing of two of my lines",
    "4a": "the opponent threatens a fork: force them to block (safely)",
    "4b": "the opponent threatens a fork: take the crossing",
    "5": "take the centre",
    "6": "take the corner opposite the opponent's",
    "7": "take a free corner",
    "8": "take a free edge",
}


@dataclass(frozen=True)
class LineGroups:
    """The 8 lines (indices into LINES) grouped by state for the player to move."""

    empty: tuple[int, ...]
    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    blocked: tuple[int, ...]


def classify_lines(board: tuple[int, ...], me: int) -> LineGroups:
    """Sort the 8 lines into empty / mine / theirs / blocked as seen by ``me``."""
    groups: dict[str, list[int]] = {"empty": [], "mine": [], "theirs": [], "blocked": []}
    for index, line in enumerate(LINES):
        owners = {board[c] for c in line} - {EMPTY}
        if not owners:
            groups["empty"].append(index)
        elif owners == {me}:
            groups["mine"].append(index)
        elif me in owners:
            groups["blocked"].append(index)
        else:
            groups["theirs"].append(index)
    return LineGroups(*(tuple(groups[g]) for g in ("empty", "mine", "theirs", "blocked")))


def _marks(board: tuple[int, ...], line: int) -> int:
    return sum(1 for c in LINES[line] if board[c] != EMPTY)


def _blanks(board: tuple[int, ...], line: int) -> list[int]:
    return [c for c in LINES[line] if board[c] == EMPTY]


def _completions(board: tuple[int, ...], player: int) -> set[int]:
    """Empty cells where ``player`` would complete a line (their winning cells)."""
    found = set()
    for line in LINES:
        if sum(1 for c in line if board[c] == player) == 2:
            found.update(c for c in line if board[c] == EMPTY)
    return found


def _crossings(board: tuple[int, ...], lines: tuple[int, ...]) -> list[int]:
    """Empty cells where two or more of ``lines`` (each with one mark) cross."""
    count = [0] * 9
    for line in lines:
        if _marks(board, line) == 1:
            for c in _blanks(board, line):
                count[c] += 1
    return [c for c in range(9) if count[c] >= 2]


def _opening(board: tuple[int, ...]) -> list[int]:
    """The document's first two moves, or [] once the book is left."""
    filled = [c for c in range(9) if board[c] != EMPTY]
    if not filled:
        return list(CORNERS)  # fewest good replies for the opponent: only the centre
    if len(filled) == 1:
        theirs = filled[0]
        if theirs in CORNERS:
            return [CENTRE]
        if theirs == CENTRE:
            return list(CORNERS)
        return [CENTRE, *ADJACENT_CORNERS[theirs], OPPOSITE[theirs]]
    return []


def rule_candidates(state: TicTacToeState, *, repaired: bool = True) -> tuple[list[int], str]:
    """Every cell the first fitting rule allows, and that rule's id (a key of RULE_TEXT).

    ``repaired=False`` gives the document's rule 4a as written (any forcing
    move), kept only so tests can show it loses; players use the repaired one.
    Raises ValueError unless ``state`` is classic two-player 3×3 and not over.
    """
    _require_classic(state)
    if state.is_terminal():
        raise ValueError("no legal move: the game is over")
    board, me = state.board, state.to_move
    them = 1 - me

    book = _opening(board)
    if book:
        return book, "book"

    groups = classify_lines(board, me)
    # 1. a line of mine with two marks: complete it.
    wins = sorted({c for li in groups.mine if _marks(board, li) == 2 for c in _blanks(board, li)})
    if wins:
        return wins, "1"
    # 2. an opponent line with two marks: block it.
    blocks = sorted({c for li in groups.theirs if _marks(board, li) == 2
                     for c in _blanks(board, li)})
    if blocks:
        return blocks, "2"
    # 3. two of my one-mark lines cross on an empty cell: a fork.
    forks = _crossings(board, groups.mine)
    if forks:
        return forks, "3"
    # 4. two opponent one-mark lines cross on an empty cell.
    threats = _crossings(board, groups.theirs)
    if threats:
        forcing = []
        for li in groups.mine:  # every mine line has one mark here (rule 1 did not fire)
            for move in _blanks(board, li):
                forced = next(c for c in _blanks(board, li) if c != move)
                if repaired and not _safe_force(board, me, them, move, forced):
                    continue
                forcing.append(move)
        if forcing:
            return sorted(set(forcing)), "4a"
        return threats, "4b"
    # 5. the centre.
    if board[CENTRE] == EMPTY:
        return [CENTRE], "5"
    # 6. the corner opposite an opponent's corner.
    opposite = sorted({OPPOSITE[c] for c in CORNERS
                       if board[c] == them and board[OPPOSITE[c]] == EMPTY})
    if opposite:
        return opposite, "6"
    # 7. a free corner; 8. a free edge.
    corners = [c for c in CORNERS if board[c] == EMPTY]
    if corners:
        return corners, "7"
    return [c for c in EDGES if board[c] == EMPTY], "8"


def _safe_force(board: tuple[int, ...], me: int, them: int, move: int, forced: int) -> bool:
    """Whether forcing with ``move`` is safe (see the module docstring).

    After my ``move`` the opponent must block at ``forced``. That block must
    leave them neither two winning cells (I could stop only one) nor a cell
    where two of their one-mark lines cross (a fork they can still set up
    while I am busy answering their block).
    """
    after = list(board)
    after[move] = me
    after[forced] = them
    after_t = tuple(after)
    if len(_completions(after_t, them)) >= 2:
        return False
    return not _crossings(after_t, classify_lines(after_t, them).mine)


def _require_classic(state: GameState) -> None:
    if not isinstance(state, TicTacToeState) or state.config != CLASSIC:
        raise ValueError("the rule-based player knows only classic two-player 3×3 tic-tac-toe")


class RuleAgent:
    """Seed 001's rule-based player ("hard") with rule 4a repaired; never loses on 3×3.

    Raises ValueError for any board other than classic two-player 3×3: the
    document notes that its rules do not carry over to larger boards.
    """

    name = "hard"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_with_reason(self, state: TicTacToeState) -> tuple[int, str]:
        """The move and the id of the rule that chose it (see RULE_TEXT)."""
        cells, rule = rule_candidates(state)
        return self._rng.choice(cells), rule

    def choose_move(self, state: GameState, cancel: threading.Event) -> Move:
        """A move by the first rule that fits (cancellable, though it is instant)."""
        if cancel.is_set():
            raise Cancelled
        _require_classic(state)
        assert isinstance(state, TicTacToeState)
        return self.choose_with_reason(state)[0]
