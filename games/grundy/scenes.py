"""Which screen plays which Grundy game; the launcher opens the last one played."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.model.seats import Seat
from games.grundy.variants import GrundySetup

if TYPE_CHECKING:
    from engine.runtime.app import App


def scene_for(app: App, setup: GrundySetup, seats: tuple[Seat, ...] | None = None,
              seed: int | None = None) -> Any:
    """The screen for ``setup``: the chessboard, the heaps or the graph."""
    if setup.is_board:
        from games.grundy.scene_board import GrundyBoardScene

        return GrundyBoardScene(app, setup, seats, seed)
    if setup.game in ("bachet", "nim"):
        from games.grundy.scene_heaps import HeapScene

        return HeapScene(app, setup, seats, seed)
    from games.grundy.scene_graph import GraphScene

    return GraphScene(app, setup, seats, seed)


def open_scene(app: App, params: GrundySetup | None = None,
               seats: tuple[Seat, ...] | None = None, seed: int | None = None) -> Any:
    """The descriptor's entry: ``params``' screen, or the last Grundy game played (King 8×8
    the first time)."""
    from engine.model.game_settings import load_params
    from games.grundy.descriptor import GAME

    return scene_for(app, params or load_params(app.settings, GAME), seats, seed)


def smoke_variants(app: App, frames: Any) -> list[str]:
    """For --smoke: every game of the family, computer against computer, hints on."""
    from games.grundy.variants import GAMES

    opened = []
    for i, game in enumerate(GAMES):
        setup = GrundySetup(game=game, tokens=2 if game == "queen" else 1)
        seats = (Seat("computer", "perfect"), Seat("computer", "easy"))
        scene = app.push(scene_for(app, setup, seats, seed=i))
        scene.show_hints = True
        frames(3)
        app.pop()
        opened.append(setup.variant_id())
    return opened
