"""Why a square is worth playing: the threats a move makes or stops, in a player's words.

For the square hints on boards too big to solve. Each empty square gets the
strongest of these, for the player to move ("four" stands for k − 1 in a row,
"three" for k − 2, so on 5×8 with 4 in a row a "four" is three in a row):

0. wins now — it completes a line;
1. blocks their win — the opponent would complete a line there;
2. open four / fork — it leaves two squares that each win next move (on one
   line, or on two), which one reply cannot both stop;
3. blocks their open four / fork — the opponent would get that here;
4. makes four — one square then wins (a threat the opponent must answer);
5. makes an open three — next move it can make an open four or a fork;
6. stops their four; 7. stops their open three;
8. extends a line — it joins its own marks in a line still open;
9. blocks a line — it stands in an opponent's open line;
10. on n open lines — room to build (n counts the lines through it still open to the
    player to move).

A lower tier is stronger. Everything is worked out on the lines (k-windows)
through the square, so it is the same for squares the board's symmetries map
onto each other. No pygame here.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.i18n import N_
from games.tictactoe.bitboard import Layout, layout, to_bits
from games.tictactoe.rules import EMPTY, TicTacToeState
from games.tictactoe.search_state import cells_of

__all__ = ["Threat", "square_threats"]

_WORDS = (N_("none"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"),
          N_("seven"), N_("eight"), N_("nine"), N_("ten"), N_("eleven"), N_("twelve"),
          N_("thirteen"), N_("fourteen"), N_("fifteen"))
# Every reason's wording, in English (the command line prints them so); the hint legend
# shows them translated (engine.core.i18n.translate_filled).
REASONS = (N_("wins now"), N_("blocks their win"), N_("open {four}: two ways to win"),
           N_("fork: two ways to win"), N_("blocks their open {four}"), N_("blocks their fork"),
           N_("makes {four}: threatens to win"), N_("makes an open {three}"),
           N_("sets up a fork"), N_("stops their {four}"), N_("stops their open {three}"),
           N_("stops their fork"), N_("extends a line"), N_("blocks a line"),
           N_("on 1 open line"), N_("on {count} open lines"), N_("wins by fours (forced)"))

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
    keeps from the opponent (``defence``); ``lines``: the open lines through it."""
    if attack == _WIN:
        return Threat(0, "wins now")
    if defence == _WIN:
        return Threat(1, "blocks their win")
    if attack == _TWO_THREATS:
        return Threat(2, f"open {four}: two ways to win" if a_line else "fork: two ways to win")
    if defence == _TWO_THREATS:
        return Threat(3, f"blocks their open {four}" if d_line else "blocks their fork")
    if attack == _ONE_THREAT:
        return Threat(4, f"makes {four}: threatens to win")
    if attack == _SETUP:
        return Threat(5, f"makes an open {three}" if k > 3 else "sets up a fork")
    if defence == _ONE_THREAT:
        return Threat(6, f"stops their {four}")
    if defence == _SETUP:
        return Threat(7, f"stops their open {three}" if k > 3 else "stops their fork")
    if attack == _TOUCH:
        return Threat(8, "extends a line")
    if defence == _TOUCH:
        return Threat(9, "blocks a line")
    return Threat(10, f"on {lines} open lines" if lines != 1 else "on 1 open line")


def _gain(lay: Layout, cols: int, mine: int, theirs: int, cell: int) -> tuple[int, bool]:
    """What ``mine`` gets by playing ``cell`` (one of the constants above), and for two
    threats whether both lie on one line (an open four rather than a fork)."""
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
        return _TWO_THREATS, _on_one_line(cols, cell, wins)
    if wins:
        return _ONE_THREAT, False
    # A set-up: one more of this player's marks in such a line (through this square)
    # would leave two winning squares, which it would not have without this square.
    for missing in setups:
        for other in cells_of(missing):
            later = _threat_cells(lay, after, theirs, other, extra=1 << other)
            if later.bit_count() >= 2 and _threat_cells(
                    lay, mine, theirs, other, extra=1 << other).bit_count() < 2:
                return _SETUP, False
    return (_TOUCH if touch else _NOTHING), False


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


def _on_one_line(cols: int, cell: int, wins: int) -> bool:
    """Whether every square of ``wins`` lies on one straight line with ``cell``."""
    r0, c0 = divmod(cell, cols)
    directions = set()
    for other in cells_of(wins):
        dr, dc = divmod(other, cols)[0] - r0, other % cols - c0
        step = max(abs(dr), abs(dc))
        dr, dc = dr // step, dc // step
        if (dr, dc) < (0, 0):
            dr, dc = -dr, -dc  # the same line either way along it
        directions.add((dr, dc))
    return len(directions) == 1


def _word(n: int) -> str:
    """A small number in words ("four"); digits past the list."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)
