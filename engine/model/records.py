"""A game as one line of text, to share: ``GAME GAME-ID MOVE MOVE …`` (docs/records.md).

A **record** is the game's id, its game ID (the parameters as
:meth:`~engine.model.descriptor.ParamSpec.encode` writes them; ``-`` for a game without
parameters) and the moves, each in the game's notation
(:meth:`~engine.model.descriptor.GameDescriptor.move_text`), separated by spaces. Where
every move of the game is written as one character (columns numbered 1 to 9, say), the
moves may be run together, as in Pons' move strings: ``4453`` is ``4 4 5 3``, and that is
how they are written.

Reading a record checks everything and says what is wrong and where
(:class:`RecordError`): an unknown game, a game ID its game does not take, a move that is
not legal in its position (with the legal ones), a move after the end. A move is read
by matching its text with the texts of the legal moves of its position, so every game's
notation reads back with no code of its own. Only games that start where their
parameters say can be written: a position dealt or set by hand has a record where the
game ID can say where it starts (:meth:`~engine.model.descriptor.ParamSpec.with_start`),
else none.

No pygame here.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.i18n import N_, Phrase, localize
from engine.model.descriptor import GameDescriptor
from engine.model.rules import Move

__all__ = ["MAX_RECORD", "NO_PARAMS", "Record", "RecordError", "parse_record", "record_text"]

# A record longer than this is refused before it is read (no game has that many moves).
MAX_RECORD = 100_000
# The game ID written for a game without parameters.
NO_PARAMS = "-"


class RecordError(ValueError):
    """A record that cannot be read: ``where`` names the part (``"word 3"``), the message
    says what is wrong there. Both are :class:`~engine.core.phrase.Phrase` s: ``str()`` is
    English (the command line), :meth:`text` the player's language (the screens)."""

    def __init__(self, message: Phrase, where: Phrase | str = "") -> None:
        super().__init__(f"{where}: {message}" if where else str(message))
        self.message, self.where = message, where

    def text(self) -> str:
        """What is wrong, and where, in the current language."""
        message = localize(self.message)
        return f"{localize(self.where)}: {message}" if self.where else message


def _word(index: int, move: int | None = None) -> Phrase:
    """"word 3", or "word 3, move 4" where one word holds several moves."""
    if move is None:
        return Phrase(N_("word {number}"), number=index)
    return Phrase(N_("word {number}, move {move}"), number=index, move=move)


@dataclass(frozen=True)
class Record:
    """A read record: the game, its parameters, its start and the moves played."""

    game: GameDescriptor
    params: Any
    start: Any
    moves: tuple[Move, ...]

    def positions(self) -> list[Any]:
        """The start and the position after each move."""
        states = [self.start]
        for move in self.moves:
            states.append(states[-1].play(move))
        return states


def _start(game: GameDescriptor, params: Any) -> Any:
    # The start a game's parameters give (where new_game deals at random, both deals
    # must agree: see _starts_at).
    return game.new_game(params, random.Random(0))


def _starts_at(game: GameDescriptor, params: Any, start: Any) -> bool:
    """Whether every game of ``params`` starts at ``start`` (two deals agree with it)."""
    return start == _start(game, params) == game.new_game(params, random.Random(1))


def record_text(game: GameDescriptor, params: Any, start: Any, moves: Sequence[Move]) -> str:
    """The one-line record of ``moves`` played from ``start`` in ``game`` with ``params``.

    A start that is not the one those parameters give (a position dealt or set by hand)
    is written into the game ID where its :class:`ParamSpec` can say it
    (``with_start``); ValueError where it cannot, or a move is not legal.
    """
    spec = game.param_spec()
    if not _starts_at(game, params, start):
        params = spec.with_start(params, start) if spec is not None else None
        if params is None or not _starts_at(game, params, start):
            raise ValueError(f"this {game.id} game does not start where its game ID says: "
                             "it has no record")
    game_id = spec.encode(params) if spec is not None else NO_PARAMS
    texts = []
    state = start
    for number, move in enumerate(moves, 1):
        if state.is_terminal() or move not in state.legal_moves():
            raise ValueError(f"move {number} ({move!r}) is not legal there")
        texts.append(game.move_text(state, move))
        state = state.play(move)
    if texts and all(len(text) == 1 for text in texts) and _single(game, start):
        return f"{game.id} {game_id} {''.join(texts)}"
    return " ".join([game.id, game_id, *texts])


def _single(game: GameDescriptor, start: Any) -> bool:
    """Whether every move of the start is written as one character (moves run together)."""
    moves = start.legal_moves()
    return bool(moves) and all(len(game.move_text(start, m)) == 1 for m in moves)


def parse_record(text: str, games: Sequence[GameDescriptor] | None = None) -> Record:
    """Read a record; :class:`RecordError` says what is wrong and where."""
    from engine.model.registry import all_games

    if len(text) > MAX_RECORD:
        raise RecordError(Phrase(N_("a record is at most {most} characters; this one has "
                                    "{count}"), most=MAX_RECORD, count=len(text)))
    words = text.split()
    if not words:
        raise RecordError(Phrase(N_("the record is empty: it starts with a game's id, then "
                                    "its game ID and its moves, as 'GAME GAME-ID MOVE MOVE'")))
    known = games if games is not None else all_games()
    name = words[0].lower()
    game = next((g for g in known if name == g.id or name in g.aliases), None)
    if game is None:
        raise RecordError(Phrase(N_("no game is called '{name}' (games: {games})"),
                                 name=words[0][:40], games=", ".join(g.id for g in known)),
                          _word(1))
    if game.kind == "puzzle":
        raise RecordError(Phrase(N_("{game} is a puzzle: records are of games between "
                                    "players"), game=game.id), _word(1))
    if len(words) < 2:
        raise RecordError(Phrase(N_("the game ID is missing after '{name}'"), name=words[0]),
                          _word(2))
    spec = game.param_spec()
    if spec is None:
        if words[1] != NO_PARAMS:
            raise RecordError(Phrase(N_("{game} has no game ID: write '{none}'"),
                                     game=game.id, none=NO_PARAMS), _word(2))
        params = None
    else:
        try:
            params = spec.decode(words[1])
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            raise RecordError(Phrase(N_("'{text}' is not a game ID of {game}: {error}"),
                                     text=words[1][:40], game=game.id, error=str(exc)),
                              _word(2)) from None
    start = _start(game, params)
    state = start
    moves: list[Move] = []
    for index, word in enumerate(words[2:], 3):
        pieces = [word]
        if not _legal_text(game, state, word) and len(word) > 1 and _single(game, start):
            pieces = list(word)  # moves run together, one character each
        for piece in pieces:
            where = _word(index) if len(pieces) == 1 else _word(index, len(moves) + 1)
            if state.is_terminal():
                raise RecordError(Phrase(N_("move {number} ({move}) comes after the end of "
                                            "the game"), number=len(moves) + 1,
                                         move=piece[:40]), where)
            move = _legal_text(game, state, piece)
            if move is None:
                legal = [game.move_text(state, m) for m in state.legal_moves()]
                shown = ", ".join(legal[:12]) + (", …" if len(legal) > 12 else "")
                raise RecordError(Phrase(N_("move {number} ({move}) is not a legal move "
                                            "there; legal: {legal}"), number=len(moves) + 1,
                                         move=piece[:40], legal=shown), where)
            moves.append(move)
            state = state.play(move)
    return Record(game, params, start, tuple(moves))


def _legal_text(game: GameDescriptor, state: Any, text: str) -> Move | None:
    """The legal move of ``state`` written ``text`` (None: none is)."""
    if state.is_terminal():
        return None
    folded = text.lower()
    for move in state.legal_moves():
        if game.move_text(state, move).lower() == folded:
            return move
    return None
