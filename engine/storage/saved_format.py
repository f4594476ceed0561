"""Reading saves of earlier versions of the saved-game format.

Version 2 (written now) keeps, for every game, its parameters (the game ID), the move
log and — only where a game does not begin at the set-up's fresh start — the start
(a generated puzzle board, a position set by hand), written by the screen that
made it. Resuming replays the moves through the rules, which refuse illegal ones.

Version 1 kept every position of a turn-based history; :func:`upgrade_v1` turns such a
history into a move log, finding for each consecutive pair of positions the legal move
leading from one to the other (a pair no move joins becomes a start of its own, kept in
version 1's words: the screen's start reader falls back on the game's version-1 reader,
``games/<family>/saved_v1.py``). A puzzle's version-1 state already was a move log and
reads as it is.

No pygame here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from engine.core.i18n import N_, Phrase, error_text
from engine.midend.match import find_move
from engine.model.descriptor import GameDescriptor
from engine.storage.saved_data import MAX_SAVED_ENTRIES, fields, items, move_to_data


def v1_positions(game: GameDescriptor) -> Callable[[Any, Any], Any] | None:
    """``load_position(params, data)`` of ``game``'s version-1 reader, found by convention
    in the module ``saved_v1`` beside its scene (None: the game has none)."""
    package = game.scene.partition(":")[0].rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.saved_v1")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.saved_v1":
            raise
        return None
    return module.load_position


def read_v1_position(game: GameDescriptor, params: Any, data: Any) -> Any:
    """The position a version-1 save wrote as ``data``, for ``params``.

    ValueError, with a message a player can read, for anything that is not such a
    position: also when a hostile file trips a check the reader did not make itself.
    """
    load = v1_positions(game)
    if load is None:
        raise ValueError(Phrase(N_("it was saved by another version of the arcade (saved-game "
                                   "version {version}; this one reads {known})"),
                                version=1, known=2))
    try:
        return load(params, data)
    except (TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
        # (The notice names the game already.)
        raise ValueError(Phrase(N_("not a position of this game ({error})"),
                                error=f"{type(exc).__name__}: {str(exc)[:80]}")) from None


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
            position = read_v1_position(game, params, raw)
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
