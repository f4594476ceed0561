"""Tic-tac-toe's command-line subcommands: ``solve mnk``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from engine.cli import PROG, int_in, positive_seconds

RESULTS = {1: "first player wins", 0: "draw", -1: "second player wins"}


def add_solve_parsers(puzzles: Any) -> None:
    """Add ``solve mnk --rows M --cols N --k K [--time-limit S]``."""
    mnk = puzzles.add_parser(
        "mnk", help="who wins m×n tic-tac-toe with k in a row, with best play",
        description="Solve the empty m×n board with k in a row. Prints exactly one line: "
                    "'first player wins', 'draw' or 'second player wins'.")
    mnk.add_argument("--rows", type=int_in(1, 15), required=True, metavar="M")
    mnk.add_argument("--cols", type=int_in(1, 15), required=True, metavar="N")
    mnk.add_argument("--k", type=int_in(1, 15), required=True, metavar="K")
    mnk.add_argument("--time-limit", type=positive_seconds, metavar="SECONDS",
                     help="give up (exit 1, message on stderr) after this many seconds")
    mnk.set_defaults(handler=solve_mnk_command)


def solve_mnk_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Print who wins the empty board; exit 0, or 1 when the time limit ran out."""
    if args.k > max(args.rows, args.cols):
        parser.error(f"--k must be at most the longer side ({max(args.rows, args.cols)})")
    from engine.ai.negamax import SearchTimeout
    from games.tictactoe.perfect import solve_mnk

    try:
        value = solve_mnk(args.rows, args.cols, args.k, time_limit=args.time_limit)
    except SearchTimeout:
        print(f"{PROG}: could not solve {args.rows}×{args.cols} with k={args.k} within "
              f"{args.time_limit:g} s", file=sys.stderr)
        return 1
    print(RESULTS[value])
    return 0
