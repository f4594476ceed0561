"""Button Madness's rules, for the help overlay (no pygame here).

:data:`HELP` names the default palette's colours (red and green); the game screen
words its help for the palette in use (see :mod:`games.buttons.wording`).
"""

from games.buttons.wording import StateWords, help_text

HELP = help_text(StateWords("red", "green", "solid red", "ringed green"))
