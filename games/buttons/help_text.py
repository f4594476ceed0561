"""Button Madness's rules, for the help overlay (no pygame here)."""

HELP = """Every button is red or green. Pressing a button flips it and its four neighbours
(left, right, up, down). The board is a torus: a neighbour past an edge is the button on the
opposite edge. Turn every button red. Green buttons carry a ring, so the two states differ in
shape as well as colour.

Order does not matter and pressing a button twice undoes it, so a solution is a set of
buttons. Generate (G) makes a new board by pressing random buttons on an all-red board, seeded
from the clock, so it can always be solved. The board's code (top left) reproduces it: Copy
puts it on the clipboard, Enter code (E) loads one. 4×4 codes are numbers 0-65535 (bit 4·r+c
set = red); other sizes are written NxN:NUMBER.

Restart (R) returns to the generated or entered board; it can be undone like every press.
Show solution (S) marks every button you still need to press, and the marks follow your clicks.
Hint (H) reveals one button of the solution at a time. Either counts as solved with help for
this board, even after Restart or Undo; a new board starts afresh. The clock starts with your
first press and stops while another screen (help, a dialog, the chart) covers the board.

The last button you pressed has a frame with a dot in its corner. When the last button turns
red the board flashes and the win screen offers Play again. Leaving keeps the board, its
presses and its clock: open Button Madness again to carry on.

Some sizes (3, 5, 6, 9, 10, ...) have boards that cannot be solved; Which sizes? shows them and
the theorems behind them. Keyboard: arrows and Enter press buttons, -/+ change the size."""
