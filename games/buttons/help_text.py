"""Button Madness's rules, for the help overlay (no pygame here).

:data:`HELP` names the default palette's colours (red and green), in English;
:func:`rules` is the same in the current language (the descriptor's help). The game
screen words its help for the palette in use (see :mod:`games.buttons.wording`).
"""

from games.buttons.wording import StateWords, colour_words, help_text

HELP = help_text(StateWords("red", "green", "solid red", "ringed green"))


def rules() -> str:
    """The rules in the current language, naming the default palette's colours."""
    return help_text(colour_words("red", "green"))
