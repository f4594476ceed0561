"""The win screen of a one-player puzzle: the result, then Play again, New, Close.

Shown by :class:`engine.puzzle_scene.PuzzleScene` after the completion flash; the words
come from the scene (:meth:`PuzzleScene.win_lines`), so each puzzle counts its moves in
its own terms ("3 presses", "12 slides").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.i18n import N_
from engine.overlays import Overlay
from engine.puzzle import Recorded, Solved
from engine.widgets import Button, Label

if TYPE_CHECKING:
    from engine.app import App
    from engine.puzzle_scene import PuzzleScene


class WinOverlay(Overlay):
    """The win screen: moves, time, help used, best result; Play again, New, Close.

    The middle button is the scene's own "new puzzle" action, under its label
    (Button Madness: Generate).
    """

    help_title = N_("Solved")
    # The scene's ``win_help_text`` replaces this on each screen (it names its New button).
    help_text = N_("Play again returns to the start of this puzzle (Undo brings the solved "
                   "position back); New game starts another; Close returns to the solved "
                   "puzzle.")
    size = (500.0, 300.0)

    def __init__(self, app: App, game: PuzzleScene, solved: Solved,
                 recorded: Recorded) -> None:
        super().__init__(app)
        self.game = game
        self.help_text = game.win_help_text
        self.moves, self.seconds, self.helped = solved.moves, solved.seconds, solved.helped
        lines = game.win_lines(solved, recorded)
        self.ui.add(Label(self._at(24, 20, -48, 50), N_("Solved!"), size=34, bold=True,
                          role="accent", align="center", fit_lines=1, min_size=20))
        self.ui.add(Label(self._at(24, 80, -48, 130), "\n\n".join(filter(None, lines)),
                          size=18, align="center", fit_lines=5, min_size=12))
        for i, (label, action) in enumerate(((N_("Play again"), self._play_again),
                                             (game.new_game_label, self._new),
                                             (N_("Close"), self.close))):
            self.ui.add(Button(self._button(i), label, action, name=label))
        self.ui.focus_index = 0

    @property
    def presses(self) -> int:
        """The moves of the solve (Button Madness's name for them)."""
        return self.moves

    @property
    def panel(self) -> tuple[float, float, float, float]:  # type: ignore[override]
        """The panel, centred in the window's design area (it fits the smallest window)."""
        area = self.app.viewport.area
        w, h = self.size
        return (area.centerx - w / 2, area.centery - h / 2, w, h)

    def _at(self, dx: float, dy: float, dw: float, h: float
            ) -> Callable[[], tuple[float, float, float, float]]:
        """A place ``dx``, ``dy`` from the panel's corner, ``dw`` narrower than it."""
        def place() -> tuple[float, float, float, float]:
            x, y, w, _h = self.panel
            return (x + dx, y + dy, w + dw, h)
        return place

    def _button(self, i: int) -> Callable[[], tuple[float, float, float, float]]:
        """The place of the ``i``-th of the three buttons along the panel's foot."""
        def place() -> tuple[float, float, float, float]:
            x, y, w, h = self.panel
            width = (w - 48 - 2 * 10) / 3
            return (x + 24 + i * (width + 10), y + h - 70, width, 46)
        return place

    def _play_again(self) -> None:
        self.close()
        self.game.restart()

    def _new(self) -> None:
        self.close()
        self.game.new_game()

    def debug_state(self) -> dict[str, Any]:
        # "presses": the name tests and --dump-state readers have used since Button Madness.
        return {"scene": "WinOverlay", "overlay": True, "presses": self.moves,
                "moves": self.moves, "helped": self.helped}
