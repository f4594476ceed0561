"""The saved-game format's helpers: starts, and reading saves of earlier versions.

Version 2 (written now) keeps, for every game, its parameters (the game ID), the move
log and — only where a game does not begin at the set-up's fresh start — the start
(a Button Madness board, a Grundy position set by hand), written by the game's position
codec. Resuming replays the moves through the rules, which refuse illegal ones.

Version 1 kept every position of a turn-based history; :func:`upgrade_v1` turns such a
history into a move log, finding for each consecutive pair of positions the legal move
leading from one to the other (a pair no move joins becomes a start of its own). A
puzzle's version-1 state already was a move log and reads as it is.

No pygame here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.descriptor import GameDescriptor
from engine.i18n import N_, Phrase, error_text
from engine.match import find_move
from engine.saved_data import MAX_SAVED_ENTRIES, fields, items, move_to_data


def start_encoder(game: GameDescriptor) -> Callable[[Any], Any] | None:
    """How ``game`` writes a start that is not its fresh one (None: it cannot)."""
    return game.state_to_data if game.save_state is not None else None


def start_decoder(game: GameDescriptor, params: Any) -> Callable[[Any], Any] | None:
    """How ``game`` reads back a start :func:`start_encoder` wrote, for ``params``; it
    checks everything (ValueError, saying what is wrong)."""
    if game.load_state is None:
        return None
    return lambda data: game.state_from_data(params, data)


def upgrade_v1(game: GameDescriptor, params: Any, state: Any) -> Any:
    """A version-1 scene state as version 2's: a turn-based history of positions becomes
    a move log; ValueError, saying which entry is wrong, for a position that cannot be."""
    if game.is_puzzle:
        return state  # (a puzzle's steps were moves already)
    record = fields(state, Phrase(N_("the saved game")), ("history",))
    log: list[list[Any]] = []
    before: tuple[int, Any] | None = None
    for i, item in enumerate(items(record["history"], Phrase(N_("the history")), 1,
                                   MAX_SAVED_ENTRIES)):
        serial, raw = items(item, Phrase(N_("history entry {number}"), number=i + 1), 2, 2)
        try:
            position = game.state_from_data(params, raw)
        except ValueError as exc:
            raise ValueError(Phrase(N_("history entry {number}: {error}"), number=i + 1,
                                    error=error_text(exc))) from None
        move = None
        if before is not None and before[0] == serial:
            move = find_move(before[1], position)
        log.append([serial, move_to_data(move)] if move is not None else [serial, None, raw])
        before = (serial, position)
    upgraded = {key: value for key, value in record.items() if key != "history"}
    upgraded["log"] = log
    return upgraded
