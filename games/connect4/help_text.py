"""Connect Four's rules, as the help overlay shows them."""

from engine.core.i18n import N_

HELP = N_("""Two players take turns dropping a disc into a column: the disc falls to the lowest
empty cell. X (a cross on each disc) moves first, then O (a ring). The first to line up four
discs (across, up or diagonally) wins, and the line is highlighted. A full board with no
line is a draw.

Mouse: click anywhere in a column to drop a disc there. Keyboard: ←/→ choose the column
(or press its number, 1–9), Enter, Space or ↓ drops.

Setup (S) chooses the board (4 to 9 columns, 4 to 8 rows; the classic 7×6 first) and who
plays each seat: a human, or the computer at one of the levels listed below. A mistake rate
makes any level blunder now and then.

Hint (H) writes above every column what dropping there leads to for the player to move:
W n = a win in n moves, D = a draw, L n = a loss in n (counting both sides' moves), with
best play; W or L without a number is proven, but its distance was not worked out in time.
~ marks an estimate from a bounded search where the position is too deep to solve in time.

Undo (Ctrl+Z) goes back to the last position where a human was to move; Redo (Ctrl+Y)
replays. New game (N) starts over and can be undone too.

With perfect play the first player wins the classic 7×6 board by starting in the middle
column (Allis and Allen, 1988).""")
