"""Connect Four's command-line subcommand: ``solve connect4``.

``solve connect4 --cols C --rows R [--moves MOVES] [--time-limit SECONDS]``
prints exactly one line on stdout and exits:

* 0 with ``first player wins``, ``draw`` or ``second player wins``: the result
  with perfect play from the position after MOVES (one 1-based column digit
  per move, from the empty board), in absolute terms; a sequence that ends
  the game prints how it ended;
* 1 with one line ``arcade: could not solve …`` on stderr (nothing on stdout) when
  the time limit (default 60 s) runs out: a failure goes to stderr, as for every
  command (``solve mnk`` too), so stdout only ever holds an answer;
* 2 with argparse's usage and a message on stderr (nothing on stdout) for bad
  input: sizes out of range, a character that is not a column of the board, a
  move into a full column or after the game has ended.

``--scores`` prints instead one line per column, left to right: ``C win N``,
``C draw``, ``C loss N`` or ``C full`` (C the 1-based column, as in MOVES): what
dropping a disc there leads to for the player to move, with N the plies by both
sides to the end with best play (this move included), or ``?`` where the time
limit allowed the outcome alone. Same exit codes and stderr lines (a finished game
prints how it ended, as without it).

``--max-table ENTRIES`` caps the search's memory (default: the search's
bounded default, stated in --help).
"""

from __future__ import annotations

import argparse
from typing import Any

from engine.core.console import say
from engine.runtime.cli import (
    PROG,
    SECONDS_RANGE,
    add_table_option,
    int_in,
    positive_seconds,
    stated_range,
)
from games.connect4.rules import (
    DEFAULT_K,
    MAX_COLS,
    MAX_ROWS,
    MIN_COLS,
    MIN_K,
    MIN_ROWS,
    Connect4Config,
    Connect4State,
)

__all__ = ["DEFAULT_TIME_LIMIT", "RESULTS", "add_solve_parsers", "parse_moves",
           "solve_connect4_command"]

RESULTS = {1: "first player wins", 0: "draw", -1: "second player wins"}
DEFAULT_TIME_LIMIT = 60.0


def add_solve_parsers(puzzles: Any) -> None:
    """Add ``solve connect4 --cols C --rows R [--moves MOVES] [--time-limit S] [--scores]``."""
    parser = puzzles.add_parser(
        "connect4", help="who wins a Connect Four position, with best play",
        description="Solve a Connect Four position: the empty board, or the position after "
                    "MOVES. Prints exactly one line: 'first player wins', 'draw' or 'second "
                    "player wins' (exit 0); or, when the time limit runs out, a line starting "
                    "'could not solve' on stderr, exit 1. Bad input: a message on stderr, "
                    "exit 2.")
    cols, rows = int_in(MIN_COLS, MAX_COLS), int_in(MIN_ROWS, MAX_ROWS)
    # The shorter side is checked after parsing (Connect4Config); it is never more than this.
    k = int_in(MIN_K, min(MAX_COLS, MAX_ROWS), upper="the shorter side")
    parser.add_argument("--cols", type=cols, required=True, metavar="C",
                        help=f"columns, {stated_range(cols)}")
    parser.add_argument("--rows", type=rows, required=True, metavar="R",
                        help=f"rows, {stated_range(rows)}")
    parser.add_argument("--k", type=k, default=DEFAULT_K, metavar="K",
                        help=f"discs in a row to win (default {DEFAULT_K}; {stated_range(k)})")
    parser.add_argument("--moves", default="", metavar="MOVES",
                        help="the columns played so far from the empty board, one digit "
                             "1..C per move, e.g. 4453 (default: the empty board)")
    parser.add_argument("--time-limit", type=positive_seconds, default=DEFAULT_TIME_LIMIT,
                        metavar="SECONDS",
                        help=f"give up after this many seconds (default {DEFAULT_TIME_LIMIT:g}): "
                             f"says 'could not solve …' on stderr and exits 1; {SECONDS_RANGE}")
    parser.add_argument("--scores", action="store_true",
                        help="print one line per column instead, in column order: 'C win "
                             "N', 'C draw', 'C loss N' or 'C full', the outcome for the "
                             "player to move of dropping a disc in column C, N the moves by "
                             "both sides to the end with best play ('?' where not known)")
    add_table_option(parser)
    parser.set_defaults(handler=solve_connect4_command)


def parse_moves(config: Connect4Config, text: str) -> Connect4State:
    """The position after ``text`` (1-based column digits); ValueError saying which move
    is wrong and why.

    Only the ASCII digits 1-9 are columns (as everywhere on the command line, see
    :mod:`engine.core.numbers`): ``str.isdigit`` would also take "٣" or "３".
    """
    state = Connect4State.new(config)
    for number, ch in enumerate(text, start=1):
        if not ("1" <= ch <= "9" and int(ch) <= config.cols):
            raise ValueError(f"move {number} is {ch!r}, not a column 1 to {config.cols}")
        if state.is_terminal():
            raise ValueError(f"move {number} ({ch}) comes after the game has ended "
                             f"({_ended(state)})")
        col = int(ch) - 1
        if state.height(col) >= config.rows:
            raise ValueError(f"move {number} drops a disc into column {ch}, which is full")
        state = state.play(col)
    return state


def _ended(state: Connect4State) -> str:
    if state.winner is None:
        return "the board is full"
    return RESULTS[1 if state.winner == 0 else -1].replace("wins", "won")


def solve_connect4_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Print the result with best play (exit 0), or ``could not solve …`` (exit 1)."""
    try:
        config = Connect4Config(args.cols, args.rows, args.k)
    except ValueError as exc:
        parser.error(str(exc))
    try:
        state = parse_moves(config, args.moves)
    except ValueError as exc:
        parser.error(f"--moves: {exc}")
    if state.is_terminal():
        print(RESULTS[0 if state.winner is None else 1 if state.winner == 0 else -1])
        return 0
    from engine.ai.negamax import SearchTimeout
    from games.connect4.solver import column_values, solve_position

    try:
        if args.scores:
            values = column_values(state, time_limit=args.time_limit,
                                   max_entries=args.max_table)
        else:
            value = solve_position(state, time_limit=args.time_limit,
                                   max_entries=args.max_table)
    except SearchTimeout:
        where = f"after {args.moves}" if args.moves else "from the empty board"
        say(f"{PROG}: could not solve {args.cols}×{args.rows} (columns × rows) {where} within "
            f"{args.time_limit:g} s")
        return 1
    if args.scores:
        for col in range(config.cols):
            print(f"{col + 1} {_score_text(values.get(col))}")
        return 0
    # solve_position answers for the player to move; the first player moves at even plies.
    first = value if state.current_player() == 0 else -value
    print(RESULTS[first])
    return 0


def _score_text(value: Any) -> str:
    """``win N``, ``draw``, ``loss N`` (``?`` for an unknown N) or ``full`` (no value)."""
    if value is None:
        return "full"
    if value.outcome == "draw":
        return "draw"
    plies = "?" if value.remoteness is None else str(value.remoteness)
    return f"{value.outcome} {plies}"
