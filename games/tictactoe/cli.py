"""Tic-tac-toe's command-line subcommands: ``solve mnk``."""

from __future__ import annotations

import argparse
from typing import Any

from engine.cli import PROG, add_table_option, int_in, positive_seconds
from engine.console import say

RESULTS = {1: "first player wins", 0: "draw", -1: "second player wins"}
#: Seconds before ``solve mnk`` gives up. Without a limit an unsolvable size (4×15, k = 4)
#: ran for ever; a player who wants longer says so with --time-limit.
DEFAULT_TIME_LIMIT = 120.0


def add_solve_parsers(puzzles: Any) -> None:
    """Add ``solve mnk --rows M --cols N --k K [--time-limit S] [--max-table ENTRIES]``."""
    mnk = puzzles.add_parser(
        "mnk", help="who wins m×n tic-tac-toe with k in a row, with best play",
        description="Solve the empty m×n board with k in a row. Prints exactly one line: "
                    "'first player wins', 'draw' or 'second player wins' (exit 0). When the "
                    "time limit runs out: a line starting 'could not solve' on stderr, exit 1. "
                    "Bad input: a message on stderr, exit 2.")
    mnk.add_argument("--rows", type=int_in(1, 15), required=True, metavar="M",
                     help="rows, 1 to 15")
    mnk.add_argument("--cols", type=int_in(1, 15), required=True, metavar="N",
                     help="columns, 1 to 15")
    mnk.add_argument("--k", type=int_in(1, 15), required=True, metavar="K",
                     help="marks in a row to win, 1 to the longer side")
    mnk.add_argument("--time-limit", type=positive_seconds, default=DEFAULT_TIME_LIMIT,
                     metavar="SECONDS",
                     help=f"give up after this many seconds (default {DEFAULT_TIME_LIMIT:g}): "
                          "exit 1, message on stderr")
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
        say(f"{PROG}: could not solve {args.rows}×{args.cols} with k={args.k} within "
            f"{args.time_limit:g} s")
        return 1
    print(RESULTS[value])
    return 0
