"""Tic-tac-toe's command-line subcommands: ``solve mnk``."""

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

RESULTS = {1: "first player wins", 0: "draw", -1: "second player wins"}
#: Seconds before ``solve mnk`` gives up. Without a limit an unsolvable size (4×15, k = 4)
#: ran for ever; a player who wants longer says so with --time-limit.
DEFAULT_TIME_LIMIT = 120.0
#: The longest side ``solve mnk`` takes (and so the longest row to win).
MAX_SIDE = 15


def add_solve_parsers(puzzles: Any) -> None:
    """Add ``solve mnk --cols N --rows M --k K [--time-limit S] [--max-table ENTRIES]``.

    Sizes are said columns × rows, as everywhere in the arcade (``--cols 6 --rows 7`` is
    the tall 6×7 board); the flags are named, so their order on a command line is free.
    """
    mnk = puzzles.add_parser(
        "mnk", help="who wins tic-tac-toe on an N×M board (N columns, M rows) with k in a "
                    "row, with best play",
        description="Solve the empty board of N columns × M rows with k in a row. Prints "
                    "exactly one line: "
                    "'first player wins', 'draw' or 'second player wins' (exit 0). When the "
                    "time limit runs out: a line starting 'could not solve' on stderr, exit 1. "
                    "Bad input: a message on stderr, exit 2.")
    side = int_in(1, MAX_SIDE)
    k = int_in(1, MAX_SIDE, upper="the longer side")  # the longer side: checked after parsing
    # Columns first, so the help reads columns × rows like every board size in the arcade.
    mnk.add_argument("--cols", type=side, required=True, metavar="N",
                     help=f"columns (the board's width), {stated_range(side)}")
    mnk.add_argument("--rows", type=side, required=True, metavar="M",
                     help=f"rows (the board's height), {stated_range(side)}")
    mnk.add_argument("--k", type=k, required=True, metavar="K",
                     help=f"marks in a row to win, {stated_range(k)}")
    mnk.add_argument("--time-limit", type=positive_seconds, default=DEFAULT_TIME_LIMIT,
                     metavar="SECONDS",
                     help=f"give up after this many seconds (default {DEFAULT_TIME_LIMIT:g}): "
                          f"exit 1, message on stderr; {SECONDS_RANGE}")
    add_table_option(mnk)
    mnk.set_defaults(handler=solve_mnk_command)


def solve_mnk_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Print who wins the empty board; exit 0, or 1 when the time limit ran out."""
    if args.k > max(args.rows, args.cols):
        parser.error(f"--k must be at most the longer side ({max(args.rows, args.cols)})")
    from engine.ai.negamax import SearchTimeout
    from games.tictactoe.perfect import solve_mnk

    try:
        value = solve_mnk(args.rows, args.cols, args.k, time_limit=args.time_limit,
                          max_entries=args.max_table)
    except SearchTimeout:
        say(f"{PROG}: could not solve {args.cols}×{args.rows} (columns × rows) with k={args.k} "
            f"within {args.time_limit:g} s")
        return 1
    print(RESULTS[value])
    return 0
