"""The screen shown while a big saved game opens off the frame loop.

Replaying a long history (tens of thousands of moves, each checked by the rules) takes
seconds; :class:`engine.storage.saved_games.Opening` does it on a thread while this screen
says "Loading…" with the seconds passed, keeps drawing frames, and lets the player go
Back (Esc), which gives the opening up. When the game is ready it takes this screen's
place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.i18n import N_, _, number_text
from engine.model.descriptor import GameDescriptor
from engine.screens.scene import Scene
from engine.storage.saved_games import Opening
from engine.ui.widgets import Button, Label

if TYPE_CHECKING:
    from engine.runtime.app import App


class LoadingScene(Scene):
    """"Loading your … game…" while an :class:`Opening` runs; Back or Esc cancels it.

    It names the game ``family``, not ``game``: it is no game's scene (the app saves and
    lets go of the game of a scene called ``game`` when it leaves).
    """

    closes_on_escape = True
    help_title = N_("Loading")
    help_text = N_("Your saved game is long: its moves are being replayed. Back (Esc) "
                   "returns to the games; the game stays saved as it was.")

    def __init__(self, app: App, family: GameDescriptor, **options: Any) -> None:
        super().__init__(app)
        self.family = family
        self.opening = Opening(app, family, **options)
        self.elapsed = 0.0
        self._placed = False  # the game took this screen's place
        self.ui.add(Button((20, 20, 140, 44), N_("← Back"), app.pop, name="Back"))
        self.ui.add(Label((80, 300, 800, 50), self._title, size=30, bold=True,
                          align="center"))
        self.ui.add(Label((80, 360, 800, 40), self._progress, size=20, align="center"))

    def _title(self) -> str:
        return _("Loading your game of {game}…").format(game=_(self.family.title))

    def _progress(self) -> str:
        seconds = int(self.elapsed)
        dots = "." * (1 + int(self.elapsed * 2) % 3)
        progress = self.opening.progress
        if progress.total:
            return _("Replaying its moves: {done} of {total} ({seconds} s){dots}").format(
                done=number_text(progress.done), total=number_text(progress.total),
                seconds=seconds, dots=dots)
        return _("Replaying its moves ({seconds} s){dots}").format(seconds=seconds, dots=dots)

    def update(self, dt: float) -> None:
        """Count the time; once the game is ready, it takes this screen's place."""
        self.elapsed += dt
        scene = self.opening.poll()
        if scene is not None and self.app.top is self:
            self._placed = True
            self.app.replace(scene)

    def leave(self) -> None:
        """Back before the game is ready: give the opening up."""
        if not self.opening.done:
            self.opening.cancel()
        elif not self._placed:
            # Ready just as the player left: the game was never shown, nothing to save.
            self.opening.scene.leave()
            self.opening.done = False
            self.opening.cancel()

    def is_active(self) -> bool:
        """Always: frames go on while the game loads (and tell it is ready)."""
        return True

    def debug_state(self) -> dict[str, Any]:
        """For tests: the game loading and for how long."""
        return {"scene": type(self).__name__, "game": self.family.id,
                "elapsed": round(self.elapsed, 1)}
