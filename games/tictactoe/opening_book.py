"""The m,n,k opening books: proven first moves for the presets the solver cannot settle in time.

On 6×7 (6 columns, 7 rows) with 4 in a row (a first-player win) and 5×5 with 4 in a row (a
draw) the first few positions take the solver seconds to minutes; later ones
take well under a second. The books under ``assets/books/`` hold, for every
position either side can meet in its first two moves when it plays from the
book, the proven outcome and a move that achieves it. They are made by this
module's command (the project's own solver, :func:`engine.ai.opening_book.build_book`)::

    python -m games.tictactoe.opening_book --rows 7 --cols 6 --k 4
    python -m games.tictactoe.opening_book --rows 5 --cols 5 --k 4

and a test re-proves a sample of every book.

No pygame here.
"""

from __future__ import annotations

import argparse
import logging
import sys
from functools import cache
from pathlib import Path
from typing import Any

from engine.ai.opening_book import BookError, OpeningBook, build_book, load_book, save_book
from engine.core.assets import asset_path, report_problem, shipped_problem
from engine.core.phrase import N_, Phrase
from games.tictactoe.rules import MNKConfig, TicTacToeState
from games.tictactoe.search_state import MNKSearchState

__all__ = ["BOOK_PLIES", "BOOKED", "EVERY_OPENING", "book_for", "book_name", "entry_problem",
           "main"]

#: Board shapes (rows, cols, k) that ship a book.
BOOKED = ((7, 6, 4), (5, 5, 4))

#: Plies a book covers: each side's first two moves.
BOOK_PLIES = 4

#: Board shapes whose book covers every winning opening, not just one: on 6×7 with 4 in a
#: row the first player wins from any of the 20 inner squares, and a Perfect that opened
#: on the same square (or its mirror image) in every game played few different games
#: (issue 32: 12 of 20 against Hard). Its moves after any of them are in the book too.
EVERY_OPENING = ((7, 6, 4),)

_log = logging.getLogger(__name__)


def book_name(rows: int, cols: int, k: int) -> str:
    """The game name a book records, and its file's stem: ``mnk-6x7-k4`` for 6 columns by 7
    rows (columns × rows like the game ID ``6x7:k4``, whose colon a file name cannot hold).

    Before, the stem was rows first (``mnk-7x6k4``); the books ship with the app, so they
    were renamed with it and no other name is looked up.
    """
    return f"mnk-{cols}x{rows}-k{k}"


def entry_problem(rows: int, cols: int, k: int, code: str, outcome: int, move: Any
                  ) -> str | None:
    """What is wrong with a book entry for the board (None when it makes sense); ``move``
    None checks the position alone."""
    lines = code.split("/")
    if len(lines) != rows or any(len(line) != cols or set(line) - set(".XO") for line in lines):
        return f"not a {cols}×{rows} board (columns × rows) of . X O"
    try:
        state = TicTacToeState.from_rows(lines, MNKConfig(rows, cols, k))
    except ValueError as exc:
        return str(exc)
    if state.is_terminal():
        return "the game is already over"
    if move is None:
        return None  # the position alone (a book's unproven list)
    if type(move) is not int or move not in state.legal_moves():
        return f"move {move!r} is not an empty cell"
    return None


@cache
def book_for(rows: int, cols: int, k: int) -> OpeningBook | None:
    """The shipped book for the board, validated; None where there is none or it is broken
    (logged: the players then think for themselves, nothing is guessed)."""
    if (rows, cols, k) not in BOOKED:
        return None
    name = book_name(rows, cols, k)
    try:
        path = asset_path("books", f"{name}.json")
        # A changed book (even a well-formed one) could make the hints claim a false
        # "proven win": only the very file shipped is used.
        changed = shipped_problem(path)
        if changed is not None:
            raise BookError(changed)
        return load_book(path, name,
                         lambda code, outcome, move: entry_problem(rows, cols, k, code,
                                                                   outcome, move))
    except (FileNotFoundError, BookError) as exc:
        _log.warning("opening book %s: %s", name, exc)
        report_problem(Phrase(N_("The opening book {name} cannot be used ({reason}), so the "
                                 "computer works those openings out itself."), name=f"{name}.json",
                              reason=_why(exc)))
        return None


def _why(exc: Exception) -> str:
    """Why a shipped book is not used, for the player (a Phrase)."""
    if isinstance(exc, FileNotFoundError):
        return Phrase(N_("it is missing"))
    if exc.args and isinstance(exc.args[0], Phrase):
        return exc.args[0]
    return Phrase(N_("it is damaged"))


def main(argv: list[str] | None = None) -> int:
    """Build one board's book with the solver and write it under ``assets/books/``."""
    parser = argparse.ArgumentParser(
        prog="python -m games.tictactoe.opening_book",
        description="Prove the first moves of an m,n,k board and write its opening book.")
    parser.add_argument("--rows", type=int, required=True, help="rows, 3 to 15")
    parser.add_argument("--cols", type=int, required=True, help="columns, 3 to 15")
    parser.add_argument("--k", type=int, required=True, help="marks in a row to win")
    parser.add_argument("--plies", type=int, default=BOOK_PLIES,
                        help=f"plies covered, 1 to 6 (default {BOOK_PLIES})")
    parser.add_argument("--time-limit", type=float, default=600.0,
                        help="seconds allowed per position; one not proven by then is left "
                             "out (default 600)")
    parser.add_argument("--out", type=Path, default=None,
                        help="file to write (default assets/books/mnk-CxR-kK.json)")
    parser.add_argument("--extend", action="store_true",
                        help="keep the entries of the file already there and prove only what "
                             "is missing")
    args = parser.parse_args(argv)
    try:
        MNKConfig(args.rows, args.cols, args.k)
    except ValueError as exc:
        parser.error(str(exc))
    if not 1 <= args.plies <= 6:
        parser.error("--plies must be 1 to 6")
    name = book_name(args.rows, args.cols, args.k)
    out = args.out or Path(__file__).resolve().parents[2] / "assets" / "books" / f"{name}.json"
    command = (f"python -m games.tictactoe.opening_book --rows {args.rows} --cols {args.cols}"
               f" --k {args.k} --plies {args.plies}")
    start = None
    if args.extend and out.exists():
        try:
            start = load_book(out, name, lambda code, outcome, move: entry_problem(
                args.rows, args.cols, args.k, code, outcome, move))
        except BookError as exc:
            parser.error(str(exc))
    book = build_book(MNKSearchState.new(args.rows, args.cols, args.k), args.plies,
                      time_limit=args.time_limit, game=name, command=command,
                      progress=lambda line: print(line, flush=True), start=start,
                      saved=lambda partial: save_book(partial, out),
                      openings=(args.rows, args.cols, args.k) in EVERY_OPENING)
    save_book(book, out)
    print(f"{len(book)} positions written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
