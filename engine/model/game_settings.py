"""Each game's remembered set-up, in one shape for every game.

Per game id the settings keep three tables: ``variants[id]``, the parameters
of the last game (their :meth:`ParamSpec.to_settings` form); ``seats[id]``,
``{seat key: "human" | "computer"}``; and ``ai_levels[id]``, ``{seat key:
level tag}`` (``hard`` or ``hard@0.1`` with a mistake rate). An older file's
per-game boards are read into ``variants`` by the settings store itself
(:data:`engine.storage.settings.LEGACY_VARIANTS_KEY`), so every game's parameters
are found in one place.

No pygame here.
"""

from __future__ import annotations

from typing import Any

from engine.model.descriptor import GameDescriptor
from engine.model.seats import Seat


def load_params(settings: Any, game: GameDescriptor) -> Any:
    """The parameters of the game last played (the default where none or invalid)."""
    spec = game.param_spec()
    if spec is None:
        return None
    return spec.from_settings(settings.get("variants").get(game.id))


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
            kinds = game.default_kinds or ()
            kind = kinds[i] if i < len(kinds) else "human"
        else:
            kind = stored.get(key, "human") if key is not None else "human"
        if game.agents is None:
            kind = "human"  # a game with no computer player (a stored choice is stale)
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
