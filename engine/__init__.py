"""Shared engine of Arcade of Strategy."""

import os

# pygame prints a greeting on import; command-line output must stay clean for other tools.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__version__ = "0.1.0"
