"""How Button Madness names its two button states in text, for the palette in use.

A button is told by its fill as well as its colour: a done button is a solid square, a
button still to turn carries a ring. Texts name both, with the palette's own word for
the colour (the colour-blind palette draws orange and blue-green, not red and green), so
no sentence relies on hue alone or names a hue that is not on screen.

On the biggest boards a button is a pixel or two and no ring fits: there the states are
told by lightness instead (see :mod:`games.buttons.board_render`), and the words say so.

No pygame here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from engine.core.i18n import _, ngettext, pgettext


class NamesColours(Protocol):
    """What is needed of a palette (engine.ui.theme.Palette): its word for a colour role."""

    def colour_name(self, role: str) -> str:
        """The word for the colour of ``role`` ("good", "bad" …)."""
        ...


@dataclass(frozen=True)
class StateWords:
    """The words for the two button states. ``done``/``todo`` are the colours' words
    ("red", "green"); ``done_look``/``todo_look`` say how they look ("solid red",
    "ringed green"), as the player sees them on this board."""

    done: str
    todo: str
    done_look: str
    todo_look: str

    def goal(self) -> str:
        """The aim, e.g. "Turn every button solid red"."""
        return _("Turn every button {look}").format(look=self.done_look)

    def left(self, count: int) -> str:
        """How many are still to turn: "3 ringed green buttons left"."""
        return ngettext("{count} {look} button left", "{count} {look} buttons left",
                        count).format(count=count, look=self.todo_look)


def state_words(palette: NamesColours, tiny: bool = False) -> StateWords:
    """The words for ``palette``; ``tiny``: buttons too small for a ring (shown by
    lightness: bright for done, dark for still to turn), in the current language."""
    return colour_words(palette.colour_name("bad"), palette.colour_name("good"), tiny)


# A colour said of a button, in its own catalogue entries ("button colour" context): a
# language whose adjectives agree with the noun writes the form that agrees with "button"
# (cs neuter "červené", so "tlačítko je světle červené"), not the colour's bare name.
BUTTON_COLOURS: dict[str, Callable[[], str]] = {
    "red": lambda: pgettext("button colour", "red"),
    "green": lambda: pgettext("button colour", "green"),
    "orange": lambda: pgettext("button colour", "orange"),
    "blue-green": lambda: pgettext("button colour", "blue-green"),
}


def button_colour(colour: str) -> str:
    """``colour`` (an English palette word) as said of a button, in the current language."""
    said = BUTTON_COLOURS.get(colour)
    return said() if said is not None else _(colour)


def colour_words(done: str, todo: str, tiny: bool = False) -> StateWords:
    """The words for colours called ``done`` and ``todo`` in English (see :func:`state_words`),
    in the current language."""
    done, todo = button_colour(done), button_colour(todo)
    if tiny:
        return StateWords(done, todo, _("bright {colour}").format(colour=done),
                          _("dark {colour}").format(colour=todo))
    return StateWords(done, todo, _("solid {colour}").format(colour=done),
                      _("ringed {colour}").format(colour=todo))


def help_text(words: StateWords) -> str:
    """The rules, for the help overlay, naming the states as ``words`` does."""
    return _("""Every button is {done_look} or {todo_look}. Pressing a button \
flips it and its four neighbours (left, right, up, down). The board is a torus: a neighbour \
past an edge is the button on the opposite edge. {goal}. The ring on \
{todo} buttons tells the two states apart by shape as well as colour; on boards so big \
that a button is a pixel or two, {done} buttons are bright and {todo} ones dark.

Order does not matter and pressing a button twice undoes it, so a solution is a set of \
buttons. Generate (G) makes a new board by pressing random buttons on an all-{done} \
board, seeded from the clock, so it can always be solved. The board's code (in the side \
panel) reproduces it: Copy puts it on the clipboard, Enter code (E) loads one. 4×4 codes \
are numbers 0-65535 (bit 4·r+c set = {done}); other sizes are written NxN:NUMBER.

Restart (R) returns to the generated or entered board; it can be undone like every press. \
Show solution (S) marks every button you still need to press with a frame and ✱, and the \
marks follow your clicks; the status bar says whether they are proven the fewest possible or, \
where that is out of reach, at most and at least how many presses are needed. Hint (H) \
reveals one button of the solution at a time. Either counts as solved with help for this \
board, even after Restart, Undo or entering its code again; a new board starts afresh. The \
clock starts with your first press and stops while another screen (help, a dialog, the \
chart) covers the board.

The last button you pressed has a frame with a dot in its corner. The keyboard cursor is \
four corner brackets. When the last button turns {done} the board flashes and the win \
screen offers Play again. Leaving keeps the board, its presses and its clock: open Button \
Madness again to carry on.

Some sizes (3, 5, 6, 9, 10, ...) have boards that cannot be solved; Which sizes? shows them \
and the rules behind them. Keyboard: arrows move the cursor, Enter presses its button, -/+ \
change the size.""").format(done_look=words.done_look, todo_look=words.todo_look,
                             goal=words.goal(), todo=words.todo, done=words.done)


def count_presses(count: int, number: bool = True) -> str:
    """A count in words: "1 press", "2 presses" (without ``number``: only the word), in the
    current language."""
    if number:
        return ngettext("{count} press", "{count} presses", count).format(count=count)
    return ngettext("press", "presses", count)
