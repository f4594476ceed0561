"""The fewest-presses search's default bounds, shared by the game and the command line.

A module of its own so the command line can state them in --help without importing
numpy and the search (:mod:`games.buttons.fewest`).
"""

from __future__ import annotations

# Seconds. Every size of the size menu (up to 20×20) is proven well inside it.
DEFAULT_TIME_LIMIT = 10.0
# Megabytes of tables; the largest user is the pair search (~64 bytes per table entry).
DEFAULT_MEMORY_MB = 256
