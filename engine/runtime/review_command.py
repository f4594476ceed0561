"""The ``review`` command: every move of a recorded game, valued and graded.

``review RECORD [--time-limit SECONDS]`` (RECORD as one argument, or ``-`` for standard
input; see :mod:`engine.model.records`) prints, on standard output (a contract other
tools read):

* a header line: ``review`` and the record as read back (``review GAME GAME-ID MOVES``);
* then one line per move: ``N MOVE BEFORE AFTER CLASS``, where N counts from 1, MOVE is
  in the game's notation, BEFORE is the value of the position for the player about to
  make move N and AFTER the value for that same player after the move, each one of
  ``win``, ``win:D``, ``draw``, ``loss``, ``loss:D`` (D: moves by both sides to the end
  with best play) or ``unknown``; CLASS is one of ``best``, ``good``, ``inaccuracy``,
  ``mistake``, ``blunder`` or ``unknown`` (:mod:`engine.ai.review`).

It exits 0. A bad record, or a game that cannot be reviewed (three players, no hints),
is a message on stderr and exit 2. ``--time-limit`` bounds the whole run: moves it could
not analyse in time say ``unknown``; without it every value is exact, however long that
takes.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["add_review_parser", "review_command", "review_lines"]


def add_review_parser(commands: Any, games: Sequence[Any], seconds: Callable[[str], float],
                      seconds_range: str, read_stdin: Callable[[str, int], str]) -> None:
    """Add ``review RECORD [--time-limit SECONDS]`` for records of ``games``; ``seconds``
    and ``seconds_range`` are the command line's type for seconds and its words, and
    ``read_stdin`` its reader of standard input (handed over: this module imports nothing
    of :mod:`engine.runtime.cli`, which imports it)."""
    parser = commands.add_parser(
        "review", help="value and grade every move of a recorded game",
        description="Review a recorded game: one line per move, 'N MOVE BEFORE AFTER "
                    "CLASS', after a header line. Values are win, win:D, draw, loss, loss:D "
                    "or unknown (D: moves by both sides to the end with best play), for the "
                    "player making move N, before and after it; CLASS is best, good, "
                    "inaccuracy, mistake, blunder or unknown. Exit 0; a bad record: a "
                    "message on stderr, exit 2.",
        epilog="A record is a game's id, its game ID and its moves in the game's notation, "
               "as one argument: review \"GAME GAME-ID MOVE MOVE\" (docs/records.md has "
               "each game's notation and examples).")
    parser.add_argument("record", metavar="RECORD",
                        help="the record as one argument, or - to read it from standard input")
    parser.add_argument("--time-limit", type=seconds, default=None, metavar="SECONDS",
                        help="bound the whole run; moves not analysed in time say unknown "
                             f"({seconds_range}); default: no limit, every value exact")
    parser.set_defaults(handler=review_command, review_games=tuple(games),
                        review_read=read_stdin)


def review_lines(record: Any, time_limit: float | None) -> list[str]:
    """The command's output lines for a read record (ValueError: it cannot be reviewed)."""
    from engine.ai.review import review_game, unavailable_reason, value_code
    from engine.model.records import record_text

    game = record.game
    hints = game.hint_function()
    reason = unavailable_reason(record.start, hints)
    if reason is not None:
        raise ValueError(reason)
    review = review_game(record.start, record.moves, hints, time_limit=time_limit,
                         move_limit=None)
    states = record.positions()
    lines = [f"review {record_text(game, record.params, record.start, record.moves)}"]
    for entry, state in zip(review.moves, states, strict=False):
        lines.append(f"{entry.number} {game.move_text(state, entry.move)} "
                     f"{value_code(entry.before)} {value_code(entry.after)} {entry.grade}")
    return lines


def review_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Print the review of ``args.record`` (see the module's notes)."""
    from engine.model.records import MAX_RECORD, RecordError, parse_record

    text = args.record
    if text == "-":
        text = args.review_read("the record", MAX_RECORD + 1)
    try:
        record = parse_record(text, args.review_games)
    except RecordError as exc:
        parser.error(f"RECORD: {exc}")
    try:
        lines = review_lines(record, args.time_limit)
    except ValueError as exc:
        parser.error(str(exc))
    for line in lines:
        print(line)
    return 0
