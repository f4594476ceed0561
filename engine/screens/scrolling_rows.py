"""Scrolling a screen's list of rows by the wheel and the arrow and page keys.

Shared by the screens that list rows taller than the window (Statistics, Recent games).
No pygame drawing here: the screen draws its rows from :attr:`ScrollingRows.scroll`.
"""

from __future__ import annotations

from typing import Any

from engine.ui.widgets import scroll_step


class ScrollingRows:
    """A mix-in for a :class:`~engine.screens.scene.Scene` (put it first among the bases)
    whose ``scroll`` is the first row shown; the screen says how many rows it has
    (:meth:`row_count`) and how many fit (:meth:`shown_rows`)."""

    scroll: int

    def row_count(self) -> int:
        """How many rows the list holds."""
        raise NotImplementedError

    def shown_rows(self) -> int:
        """How many rows fit on screen now."""
        raise NotImplementedError

    def scroll_by(self, rows: int) -> None:
        """Scroll the list by ``rows`` (negative: up), within its rows."""
        self.scroll = max(0, min(self.scroll + rows, self.row_count() - self.shown_rows()))

    def handle_event(self, event: Any) -> None:
        """The wheel and the arrow / page keys scroll the list; the rest as any scene."""
        step = scroll_step(event, max(1, self.shown_rows() - 1))
        if step is not None:
            self.scroll_by(step)
            return
        super().handle_event(event)  # type: ignore[misc]
