"""The Grundy family's command line: ``grundy PIECE --cols C --rows R``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from engine.runtime.cli import int_in, stated_range

PIECES = ("king", "rook", "queen", "knight")
#: The largest board side ``grundy`` prints a table for.
MAX_SIDE = 4096


def add_commands(commands: Any) -> None:
    """Add ``grundy PIECE --cols C --rows R``: print the piece's Grundy table (the board is
    said C×R, columns × rows, as everywhere in the arcade; the flags' order is free)."""
    grundy = commands.add_parser(
        "grundy", help="print the Grundy table of a piece on a C×R board (C columns, R rows)",
        description="Print the Grundy value of every square: R lines of C space-separated "
                    "integers, the first line being the top row (the target corner's row) and "
                    "the first column the left column.")
    grundy.add_argument("piece", metavar="PIECE", choices=PIECES,
                        help="one of: " + ", ".join(PIECES))
    side = int_in(1, MAX_SIDE)
    # Columns first, so the help reads columns × rows like every board size in the arcade.
    grundy.add_argument("--cols", type=side, required=True, metavar="C",
                        help=f"columns (the board's width), {stated_range(side)}")
    grundy.add_argument("--rows", type=side, required=True, metavar="R",
                        help=f"rows (the board's height), {stated_range(side)}")
    grundy.set_defaults(handler=grundy_command)


def grundy_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Print the table (R lines of C integers); exit 0."""
    from games.grundy.tables import grundy_table

    table = grundy_table(args.piece, args.rows, args.cols)
    out = sys.stdout
    for row in table:
        out.write(" ".join(map(str, row.tolist())))
        out.write("\n")
    return 0
