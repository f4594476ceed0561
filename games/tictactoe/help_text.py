"""Tic-tac-toe's rules, as the help overlay shows them."""

from engine.core.i18n import N_

HELP = N_("""Players take turns putting their mark on an empty square: X first, then O (and △
third in the three-player game).

The first to complete a line of k marks (across, down or diagonally) wins, and the line is
highlighted. On the classic board k is 3. If the board fills up with no line, it is a draw.
In the three-player game on 4×4, any three in a row wins.

Mouse: click an empty square to play there. Keyboard: the arrow keys move the square cursor,
Enter or Space plays there; Tab reaches the buttons.

Setup (S) chooses the board (classic 3×3, bigger boards with k in a row, gomoku 15×15, three
players; a size is columns × rows, as in Connect Four: 6×7 is 6 columns wide and 7 rows tall)
and who plays each seat: a human, or the computer at one of the levels listed below. A
mistake rate makes any level blunder now and then.

Hint (H) marks every empty square with what playing there leads to for the player to move:
W = win, D = draw, L = loss, with the number of moves to the end with best play (green,
yellow and red, with the letters for colour-blind players). Where the board is too large to
solve quickly, the hint numbers the few best squares a search found instead, 1 the best, and
the list beside the board says why each one: wins now, blocks their win, a fork (two ways to
win), makes four, stops their open three… and whether it looks good, even or bad.

When the computer plays itself, Pause and Step let you follow the game move by move.

Undo (Ctrl+Z) goes back to the last position where a human was to move; Redo (Ctrl+Y)
replays, also after the game has ended. New game (N) starts over and can be undone too.

On 3×3, best play from both sides always draws. Opening in a corner gives the opponent the
most ways to go wrong: of the eight replies, only the centre holds the draw.""")
