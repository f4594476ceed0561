"""Opening books: proven choices for the first moves, worked out once by the project's solver.

Where a position is too young for the solver to settle within a move's budget
(the empty 7×6 board with 4 in a row takes seconds), :class:`OpeningBook`
holds the answer worked out ahead of time by :func:`build_book`, which asks
:func:`engine.ai.win_proof.proven_choice` of every position the book must
cover. Only proven facts go in: each entry is a position's outcome for its
mover (+1, 0, -1) and a move that achieves it.

A game opts in with one hook on its search state, ``book_images()``: for
each symmetry of the board, the position's code under that symmetry (a
string) and two functions: one maps a move here into that image, the other
maps a move of the image back here.
The book stores each position once, under its least code.

A book file is JSON::

    {"format": 1, "game": "...", "command": "how it was made",
     "entries": {"<code>": [outcome, move], ...},
     "unproven": ["<code>", ...]}

``unproven`` (optional) lists the positions the book should cover but whose
proof ran out of time when it was built: the book says so rather than hide
the gap, and a later build with more time tries them again.

:func:`load_book` validates every entry before the book is used: a file that
does not parse or holds a bad entry is refused with a clear message (the
caller then plays without a book; nothing is guessed).

No pygame here.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.ai.negamax import SearchTimeout
from engine.ai.win_proof import proven_choice
from engine.model.rules import GameState, Move

__all__ = ["BOOK_FORMAT", "BookEntry", "BookError", "OpeningBook", "build_book", "load_book",
           "save_book"]

BOOK_FORMAT = 1


class BookError(ValueError):
    """A book file that cannot be used (unreadable, malformed, or wrong for the game)."""


@dataclass(frozen=True)
class BookEntry:
    """A proven outcome for the mover (+1, 0, -1) and a move (here) that achieves it."""

    outcome: int
    move: Move


class OpeningBook:
    """Proven choices keyed by a position's least symmetric code.

    ``game`` names what the book is for (say ``"mnk-6x7-k4"``); ``entries``
    maps a code to ``(outcome, move in that code's image)``.
    """

    def __init__(self, game: str, entries: dict[str, tuple[int, Any]] | None = None,
                 command: str = "", unproven: set[str] | None = None) -> None:
        self.game = game
        self.entries: dict[str, tuple[int, Any]] = dict(entries or {})
        self.command = command
        # Codes of positions the book should cover whose proof ran out of time.
        self.unproven: set[str] = set(unproven or ())

    def __len__(self) -> int:
        return len(self.entries)

    def _held_images(self, state: GameState) -> Iterator[BookEntry]:
        """The book's entry for each image of ``state`` it holds, in the order of
        ``state.book_images()``, its move mapped back onto ``state`` (none where the
        state has no images)."""
        images = getattr(state, "book_images", None)
        if not callable(images):
            return
        for code, _, from_image in images():
            found = self.entries.get(code)
            if found is not None:
                yield BookEntry(found[0], from_image(found[1]))

    def lookup(self, state: GameState) -> BookEntry | None:
        """The book's proven choice for ``state``, its move mapped onto ``state``; or None."""
        return next(self._held_images(state), None)

    def proven_moves(self, state: GameState) -> tuple[int, list[Move]] | None:
        """The book's proven outcome for ``state`` and every move here that achieves it by
        the book, its own move first; or None.

        Those are its move mapped back from each image of ``state`` the book holds (a
        symmetric position has several: the book's move and its mirror images, each as
        good) and, where the position is not lost, every other move after which the book
        holds the opponent's position with the opposite outcome and every position after
        the opponent's reply (a book built with ``openings``): a player may choose any of
        them and still play its next move from the book.
        """
        held = list(self._held_images(state))
        if not held:
            return None
        moves: list[Move] = []
        for entry in held:
            if entry.move not in moves:
                moves.append(entry.move)
        outcome = held[-1].outcome
        if outcome >= 0:
            moves += [move for move in state.legal_moves()
                      if move not in moves and self._covers(state.play(move), -outcome)]
        return outcome, moves

    def _covers(self, state: GameState, outcome: int) -> bool:
        """Whether the book holds ``state`` with ``outcome`` for its mover, and every
        position after each of its moves where the game goes on."""
        entry = self.lookup(state)
        if entry is None or entry.outcome != outcome or state.is_terminal():
            return False
        for move in state.legal_moves():
            after = state.play(move)
            if not after.is_terminal() and self.lookup(after) is None:
                return False
        return True

    def add(self, state: GameState, outcome: int, move: Move) -> None:
        """Record ``state``'s proven ``outcome`` and ``move`` under its least code."""
        code, to_image = canonical(state)
        self.entries[code] = (outcome, to_image(move))
        self.unproven.discard(code)


def canonical(state: GameState) -> tuple[str, Callable[[Move], Move]]:
    """``state``'s least code and the function that maps a move here into that image."""
    code, to_image, _ = min(state.book_images(), key=lambda image: image[0])  # type: ignore[attr-defined]
    return code, to_image


def build_book(root: GameState, plies: int, *, time_limit: float = 600.0,
               cancel: threading.Event | None = None, game: str = "", command: str = "",
               progress: Callable[[str], None] | None = None,
               start: OpeningBook | None = None,
               saved: Callable[[OpeningBook], None] | None = None,
               openings: bool = False) -> OpeningBook:
    """Prove a choice for every position either side may meet in its first ``plies`` moves
    when it plays from the book and the other side plays anything.

    A side's own positions are expanded only by the book's move; the other
    side's by every legal move. With ``openings``, the first mover's root is expanded by
    every opening the book proves as good as its move (each first move's position is
    proven, as the second mover's book needs anyway), so that a player may open with any
    of them and still play from the book (:meth:`OpeningBook.proven_moves`). Each position
    gets :func:`proven_choice` with ``time_limit`` seconds; one not proven by then is left
    out (a book holds only proofs), and so is what would follow it. ``start``: a book to
    extend (its entries are kept and not proven again). ``saved`` is called with the book
    after each new entry, so that a long build keeps its work.
    """
    book = OpeningBook(game, dict(start.entries) if start is not None else None,
                       command=command, unproven=start.unproven if start is not None else None)

    failed: set[str] = set()  # positions this build could not prove: not tried again

    def prove(state: GameState) -> BookEntry | None:
        return _prove(book, state, time_limit, cancel, progress, saved, failed)

    for side in range(root.num_players):
        frontier = [root]
        for ply in range(plies):
            following: dict[str, GameState] = {}
            for state in frontier:
                if state.is_terminal():
                    continue
                if state.current_player() == side:
                    entry = prove(state)
                    if entry is None:
                        continue  # not proven in time: left out, with what follows it
                    children = [state.play(entry.move)] if ply + 1 < plies else []
                    if openings and ply == 0 and ply + 1 < plies:
                        children += _as_good(state, entry.outcome, prove)
                else:
                    children = [state.play(m) for m in state.legal_moves()] if ply + 1 < plies \
                        else []
                for child in children:
                    following.setdefault(canonical(child)[0], child)
            frontier = list(following.values())
    return book


def _as_good(state: GameState, outcome: int,
             prove: Callable[[GameState], BookEntry | None]) -> list[GameState]:
    """The positions after every move of ``state`` (proven ``outcome`` for its mover) that
    ``prove`` shows are as good as the book's own move (the opponent's opposite outcome)."""
    out = []
    for move in state.legal_moves():
        child = state.play(move)
        entry = None if child.is_terminal() else prove(child)
        if entry is not None and entry.outcome == -outcome:
            out.append(child)
    return out


def _prove(book: OpeningBook, state: GameState, time_limit: float,
           cancel: threading.Event | None, progress: Callable[[str], None] | None,
           saved: Callable[[OpeningBook], None] | None, failed: set[str]) -> BookEntry | None:
    """The book's entry for ``state`` (its move mapped onto ``state``), proving it first if
    need be (None: not proven, now or earlier in this build: ``failed`` holds those)."""
    known = book.lookup(state)
    if known is not None:
        return known
    start = time.monotonic()
    code = canonical(state)[0]
    if code in failed:
        return None
    try:
        choice = proven_choice(state, deadline=start + time_limit, cancel=cancel)
    except SearchTimeout:
        failed.add(code)
        book.unproven.add(code)
        if saved is not None:
            saved(book)
        if progress is not None:
            progress(f"    -  {code}  not proven in {time_limit:g} s: left out")
        return None
    book.add(state, choice.outcome, choice.moves[0])
    if saved is not None:
        saved(book)
    if progress is not None:
        progress(f"{len(book):5d}  {code}  outcome {choice.outcome:+d}  "
                 f"{time.monotonic() - start:6.2f} s")
    return BookEntry(choice.outcome, choice.moves[0])


def save_book(book: OpeningBook, path: Path) -> None:
    """Write ``book`` to ``path`` as JSON, atomically (a temporary file renamed over it)."""
    data = {"format": BOOK_FORMAT, "game": book.game, "command": book.command,
            "entries": {code: [outcome, move]
                        for code, (outcome, move) in sorted(book.entries.items())},
            "unproven": sorted(book.unproven)}
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=0, separators=(",", ":"))
            out.write("\n")
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def load_book(path: Path, game: str, valid: Callable[[str, int, Any], str | None]
              ) -> OpeningBook:
    """Read and validate the book at ``path`` for ``game``.

    ``valid(code, outcome, move)`` returns None for an entry that makes sense
    for the game (a well-formed position with the mover to move, the move
    legal there; ``move`` None: the position alone, for the unproven list),
    else what is wrong. Raises :class:`BookError` naming the
    file and the first problem.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BookError(f"opening book {path} cannot be read: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != BOOK_FORMAT:
        raise BookError(f"opening book {path}: not a format {BOOK_FORMAT} book")
    if data.get("game") != game:
        raise BookError(f"opening book {path} is for {data.get('game')!r}, not {game!r}")
    entries = data.get("entries")
    if not isinstance(entries, dict):
        raise BookError(f"opening book {path}: no entries")
    checked: dict[str, tuple[int, Any]] = {}
    for code, entry in entries.items():
        if (not isinstance(entry, list) or len(entry) != 2 or type(entry[0]) is not int
                or entry[0] not in (-1, 0, 1)):
            raise BookError(f"opening book {path}: entry {code!r} is not [outcome, move]")
        problem = valid(code, entry[0], entry[1])
        if problem is not None:
            raise BookError(f"opening book {path}: entry {code!r}: {problem}")
        checked[code] = (entry[0], entry[1])
    unproven = data.get("unproven", [])
    if not isinstance(unproven, list) or not all(isinstance(c, str) for c in unproven):
        raise BookError(f"opening book {path}: 'unproven' is not a list of positions")
    for code in unproven:
        problem = valid(code, 0, None)
        if problem is not None:
            raise BookError(f"opening book {path}: unproven {code!r}: {problem}")
    return OpeningBook(game, checked, str(data.get("command", "")), set(unproven))
