"""Each game's remembered set-up, in one shape for every game.

Per game id the settings keep three tables: ``variants[id]``, the parameters
of the last game (their :meth:`ParamSpec.to_settings` form); ``seats[id]``,
``{seat key: "human" | "computer"}``; and ``ai_levels[id]``, ``{seat key:
level tag}`` (``hard`` or ``hard@0.1`` with a mistake rate). Files written
before this shape kept tic-tac-toe's board in ``last_board_sizes``: it is read
when ``variants`` has no entry, and dropped once the game is remembered again.

No pygame here.
"""

from __future__ import annotations

from typing import Any

from engine.model.descriptor import GameDescriptor
from engine.model.seats import Seat

LEGACY_PARAMS_KEY = "last_board_sizes"


def load_params(settings: Any, game: GameDescriptor) -> Any:
    """The parameters of the game last played (the default where none or invalid)."""
    spec = game.param_spec()
    if spec is None:
        return None
    stored = settings.get("variants").get(game.id)
    if stored is None:
        stored = settings.get(LEGACY_PARAMS_KEY).get(game.id)
    return spec.from_settings(stored)


def load_seats(settings: Any, game: GameDescriptor, players: int | None = None
               ) -> tuple[Seat, ...]:
    """The seats remembered for ``game`` (its default kinds where nothing valid is stored).

    ``players`` seats (default: one per seat key); a seat with no key is human.
    """
    count = len(game.seat_keys) if players is None else players
    stored = settings.get("seats").get(game.id)
    levels = settings.get("ai_levels").get(game.id, {})
    level_names = game.levels or ("hard",)
    default_level = game.default_level or level_names[0]
    seats = []
    for i in range(count):
        key = game.seat_keys[i] if i < len(game.seat_keys) else None
        if stored is None:
            kind = game.default_kinds[i] if i < len(game.default_kinds) else "human"
        else:
            kind = stored.get(key, "human") if key is not None else "human"
        tag = levels.get(key) if key is not None else None
        seats.append(Seat.parse(kind, tag, level_names, default_level))
    return tuple(seats)


def remember(settings: Any, game: GameDescriptor, params: Any = None,
             seats: tuple[Seat, ...] | None = None) -> str | None:
    """Store the parameters and seats as ``game``'s next defaults (not yet saved).

    Returns a warning a player can read if settings refused a value (nothing is
    changed then), else None.
    """
    spec = game.param_spec()
    try:
        tables: dict[str, dict[str, Any]] = {}
        if spec is not None and params is not None:
            tables["variants"] = {game.id: spec.to_settings(params)}
        if seats is not None:
            keys = game.seat_keys
            tables["seats"] = {game.id: {k: s.kind for k, s in zip(keys, seats, strict=False)}}
            tables["ai_levels"] = {game.id: {k: s.level_tag()
                                             for k, s in zip(keys, seats, strict=False)}}
        changed = {}
        for key, entry in tables.items():
            table = settings.get(key)
            table.update(entry)
            changed[key] = table
        legacy = settings.get(LEGACY_PARAMS_KEY)
        if "variants" in tables and game.id in legacy:
            del legacy[game.id]
            changed[LEGACY_PARAMS_KEY] = legacy
        before = {key: settings.get(key) for key in changed}
        try:
            for key, table in changed.items():
                settings.set(key, table)
        except ValueError:
            for key, table in before.items():  # all or nothing
                settings.set(key, table)
            raise
    except ValueError as exc:
        return f"Could not remember the game set-up: {exc}"
    return None
