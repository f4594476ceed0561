"""Reading saves of format version 1, which kept positions rather than moves.

engine.storage.saved_format finds this module by its name (``games.<family>.saved_v1``) and turns
a version-1 history into a move log: each position is read by :func:`load_position`
(checked: ValueError, saying what is wrong, for anything play cannot reach), and the
legal move between consecutive positions is looked up. Nothing writes this form now.
"""

from __future__ import annotations

from games.tictactoe.rules import load_state as load_position

__all__ = ["load_position"]
