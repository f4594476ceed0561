"""Why a square is worth playing: the threats a move makes or stops, in a player's words.

For the square hints on boards too big to solve. Each empty square gets the
strongest of these reasons, for the player to move ("four" stands for k − 1 in
a row, "three" for k − 2, "two" for k − 3, so on 5×8 with 4 in a row a "four"
is three in a row). Every reason is a fact about the board as it stands, worked
out on the lines of k squares ("windows") through the square; a window is *open*
for a player while it holds none of the other player's marks. "Completing
squares" of a player with a mark on the square c are the empty squares that,
played by that player too, fill an open window through c (they win there).

0. ``wins now`` — an open window through it holds k − 1 of the mover's marks.
1. ``blocks their win`` — the same for the opponent: they would complete a line here.
2. ``open {four}: two ways to win`` — played, it leaves k − 1 of the mover's marks in a
   row with an empty square at each end (its only two completing squares);
   ``fork: two ways to win`` — played, it leaves two or more completing squares
   otherwise (on two lines, or broken on one).
3. ``stops their open {three}`` — the opponent, playing here, would make an open four
   as in 2: they have k − 2 marks that, with this square, lie k − 1 in a row with
   both ends empty (an open three: it needs one move to become an open four);
   ``stops them making a fork`` — they would get a fork here as in 2.
4. ``makes {four}: threatens to win`` — played, it leaves exactly one completing square.
5. ``makes an open {three}`` (k > 3) — played, one more mark o of the mover's (on a
   line through it) would make an open four holding both, which o alone would not
   give two completing squares; ``sets up a fork`` — the same with a fork instead of
   an open four (and on 3-in-a-row boards, where an "open one" means nothing).
6. ``stops them making {four}`` — the opponent, playing here, would get exactly
   one completing square (they have k − 2 marks in an open window through it).
7. ``stops them making an open {three}`` / ``stops them setting up a fork`` — the
   opponent playing here would get what 5 describes.
8. ``extends a line`` — an open window through it holds one of the mover's marks.
9. ``blocks a line`` — a window through it holds the opponent's marks and none of
   the mover's.
10. ``on n open lines`` — none of those: n counts the windows (lines of k squares)
    through it that are open to the mover.

A lower tier is stronger; a square gets its strongest reason only. It is the same
for squares the board's symmetries map onto each other. No pygame here.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.i18n import N_
from games.tictactoe.bitboard import Layout, layout, to_bits
from games.tictactoe.rules import EMPTY, TicTacToeState
from games.tictactoe.search_state import cells_of

__all__ = ["REASONS", "Threat", "square_threats"]

_WORDS = (N_("none"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"),
          N_("seven"), N_("eight"), N_("nine"), N_("ten"), N_("eleven"), N_("twelve"),
          N_("thirteen"), N_("fourteen"), N_("fifteen"))
# Every reason's wording, in English (the command line prints them so); the hint legend
# shows them translated (engine.core.i18n.translate_filled).
REASONS = (N_("wins now"), N_("blocks their win"), N_("open {four}: two ways to win"),
           N_("fork: two ways to win"), N_("stops their open {three}"),
           N_("stops them making a fork"), N_("makes {four}: threatens to win"),
           N_("makes an open {three}"), N_("sets up a fork"), N_("stops them making {four}"),
           N_("stops them making an open {three}"), N_("stops them setting up a fork"),
           N_("extends a line"), N_("blocks a line"), N_("on 1 open line"),
           N_("on {count} open lines"), N_("wins by fours (forced)"))

# What a player would get by playing a square, weakest to strongest.
_NOTHING, _TOUCH, _SETUP, _ONE_THREAT, _TWO_THREATS, _WIN = range(6)


@dataclass(frozen=True)
class Threat:
    """The strongest reason to play a square: ``tier`` (0 best, see the module) and a few
    words for the player (``"makes an open three"``)."""

    tier: int
    reason: str


def square_threats(state: TicTacToeState) -> dict[int, Threat]:
    """The :class:`Threat` of every empty square for the player to move (two players)."""
    cfg = state.config
    lay = layout(cfg.rows, cfg.cols, cfg.k)
    bits = to_bits(state)
    me = state.to_move
    mine, theirs = bits[me], bits[1 - me]
    four, three = _word(cfg.k - 1), _word(cfg.k - 2)
    out: dict[int, Threat] = {}
    for cell, owner in enumerate(state.board):
        if owner != EMPTY:
            continue
        attack, a_line = _gain(lay, cfg.cols, mine, theirs, cell)
        defence, d_line = _gain(lay, cfg.cols, theirs, mine, cell)
        lines = sum(1 for mask in lay.lines_through[cell] if not mask & theirs)
        out[cell] = _reason(attack, a_line, defence, d_line, four, three, cfg.k, lines)
    return out


def _reason(attack: int, a_line: bool, defence: int, d_line: bool, four: str, three: str,
            k: int, lines: int) -> Threat:
    """The strongest reason among what playing the square gets (``attack``) and what it
    keeps from the opponent (``defence``); ``a_line``/``d_line``: whether two threats are
    an open four, a set-up an open three; ``lines``: the open windows through it."""
    if attack == _WIN:
        return Threat(0, "wins now")
    if defence == _WIN:
        return Threat(1, "blocks their win")
    if attack == _TWO_THREATS:
        return Threat(2, f"open {four}: two ways to win" if a_line else "fork: two ways to win")
    if defence == _TWO_THREATS:
        return Threat(3, f"stops their open {three}" if d_line else "stops them making a fork")
    if attack == _ONE_THREAT:
        return Threat(4, f"makes {four}: threatens to win")
    if attack == _SETUP:
        return Threat(5, f"makes an open {three}" if a_line and k > 3 else "sets up a fork")
    if defence == _ONE_THREAT:
        return Threat(6, f"stops them making {four}")
    if defence == _SETUP:
        return Threat(7, f"stops them making an open {three}" if d_line and k > 3
                      else "stops them setting up a fork")
    if attack == _TOUCH:
        return Threat(8, "extends a line")
    if defence == _TOUCH:
        return Threat(9, "blocks a line")
    return Threat(10, f"on {lines} open lines" if lines != 1 else "on 1 open line")


def _gain(lay: Layout, cols: int, mine: int, theirs: int, cell: int) -> tuple[int, bool]:
    """What ``mine`` gets by playing ``cell`` (one of the constants above), and whether it
    is the open kind: for two threats an open four (k − 1 in a row, both ends empty), for
    a set-up an open three (one more mark makes an open four through both)."""
    bit = 1 << cell
    after = mine | bit
    touch = False
    setups: list[int] = []
    for mask in lay.lines_through[cell]:
        if mask & theirs:
            continue  # a line holding an opposing mark is dead for this player
        missing = mask & ~after
        if not missing:
            return _WIN, False
        if mask & mine:
            touch = True
        if missing.bit_count() == 2:
            setups.append(missing)  # two squares short: one of them may make a four
    wins = _threat_cells(lay, after, theirs, cell)
    if wins.bit_count() >= 2:
        return _TWO_THREATS, _open_four(cols, lay.k, after, wins, cell)
    if wins:
        return _ONE_THREAT, False
    # A set-up: one more of this player's marks in such a line (through this square)
    # would leave two winning squares, which it would not have without this square.
    found = False
    for missing in setups:
        for other in cells_of(missing):
            later = _threat_cells(lay, after, theirs, other, extra=1 << other)
            if later.bit_count() >= 2 and _threat_cells(
                    lay, mine, theirs, other, extra=1 << other).bit_count() < 2:
                if _open_four(cols, lay.k, after | 1 << other, later, cell, other):
                    return _SETUP, True
                found = True
    if found:
        return _SETUP, False
    return (_TOUCH if touch else _NOTHING), False


def _open_four(cols: int, k: int, stones: int, wins: int, *inside: int) -> bool:
    """Whether ``wins`` are exactly the two ends of k − 1 of ``stones`` in a row (an open
    four), the squares ``inside`` among them."""
    if wins.bit_count() != 2:
        return False
    a, b = cells_of(wins)
    (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
    dr, dc = rb - ra, cb - ca
    if max(abs(dr), abs(dc)) != k or (dr and dc and abs(dr) != abs(dc)):
        return False
    sr, sc = dr // k, dc // k
    run = [(ra + i * sr) * cols + ca + i * sc for i in range(1, k)]
    return all(stones >> c & 1 for c in run) and all(c in run for c in inside)


def _threat_cells(lay: Layout, mine: int, theirs: int, cell: int, extra: int = 0) -> int:
    """Squares completing a line through ``cell`` for ``mine`` (plus ``extra``) alone."""
    bits = mine | extra
    found = 0
    for mask in lay.lines_through[cell]:
        if mask & theirs:
            continue
        missing = mask & ~bits
        if missing and not missing & (missing - 1):
            found |= missing
    return found


def _word(n: int) -> str:
    """A small number in words ("four"); digits past the list."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)
