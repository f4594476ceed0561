"""Button Madness on the command line: ``solve button-madness`` and ``analyze button-madness``.

``solve button-madness --code CODE`` prints the presses, one per line as "row R, column C"
(a contract: unchanged by the options below). ``--fewest-proof`` adds one line after them:
``minimum N`` when no solution has fewer presses (proven), else ``at most N, at least M``
with M a proven lower bound. ``--time-limit SECONDS`` and ``--max-memory MB`` bound the
fewest-presses search (defaults in --help); running out of time is not an error: the best
solution found is printed, exit 0.
"""

from __future__ import annotations

import argparse
from typing import Any

from engine.core.numbers import RULE, parse_whole
from engine.runtime.cli import (
    SECONDS_RANGE,
    int_in,
    positive_seconds,
    read_stdin,
    stated_range,
    states_range,
)
from games.buttons.search_limits import DEFAULT_MEMORY_MB, DEFAULT_TIME_LIMIT

# A 1000×1000 code is "1000x1000:" and at most 301,030 digits: reading stops a bit past
# that, so a huge or endless standard input costs bounded time and memory.
MAX_CODE_CHARS = 400_000


# The memory cap's range, in MB: below 16 not even a small table fits.
MIN_MEMORY_MB, MAX_MEMORY_MB = 16, 65536
# The largest size ``analyze`` takes: games.buttons.board.MAX_N (not imported here: numpy).
MAX_SIZE = 1000


def add_solve_parsers(puzzles: Any) -> None:
    """Add ``solve button-madness --code CODE [--fewest-proof] [--time-limit S]
    [--max-memory MB]`` (CODE ``-`` reads standard input)."""
    solve = puzzles.add_parser(
        "button-madness", help="the presses that solve a Button Madness board",
        description="Print the presses that make every button red, one per line as "
                    "'row R, column C' (1-based, row-major order); nothing for a solved board. "
                    "An unsolvable board prints 'no solution' and exits 1. The presses are "
                    "the fewest when the search for them finishes within the time limit; "
                    "otherwise the fewest found.")
    solve.add_argument("--code", required=True, metavar="CODE",
                       help="a 4×4 code 0-65535, or NxN:DECIMAL; '-' reads it from stdin")
    solve.add_argument("--fewest-proof", action="store_true",
                       help="after the presses, print one line: 'minimum N' when no solution "
                            "has fewer presses (proven), else 'at most N, at least M' (M a "
                            "proven lower bound)")
    solve.add_argument("--time-limit", type=positive_seconds, default=DEFAULT_TIME_LIMIT,
                       metavar="SECONDS",
                       help=f"stop searching for the fewest presses after this many seconds "
                            f"(default {DEFAULT_TIME_LIMIT:g}); the best found is printed; "
                            f"{SECONDS_RANGE}")
    memory = int_in(MIN_MEMORY_MB, MAX_MEMORY_MB)
    solve.add_argument("--max-memory", type=memory, default=DEFAULT_MEMORY_MB, metavar="MB",
                       help=f"the search's tables take at most about this many megabytes "
                            f"(default {DEFAULT_MEMORY_MB}; {stated_range(memory)}); tables "
                            "that would not fit are not built")
    solve.set_defaults(handler=solve_command)


def add_analyze_parsers(analyses: Any) -> None:
    """Add ``analyze button-madness --sizes A-B``: one ``n nullity`` line per size."""
    analyze = analyses.add_parser(
        "button-madness", help="null-space dimension of each board size",
        description="Print one line 'n nullity' per size n: the number of independent press "
                    "patterns that change nothing (0: every board has exactly one solution).")
    analyze.add_argument("--sizes", required=True, metavar="A-B", type=_sizes,
                         help=f"a size or a range, e.g. 4 or 1-64 ({stated_range(_sizes)})")
    analyze.set_defaults(handler=analyze_command)


def _sizes(text: str) -> range:
    low, sep, high = text.partition("-")
    try:
        a = parse_whole(low)
        b = parse_whole(high) if sep else a
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a size or a range like 1-64 ({RULE}), got {text!r}") from None
    if not 1 <= a <= b <= MAX_SIZE:
        raise argparse.ArgumentTypeError(
            f"sizes must satisfy 1 <= A <= B <= {MAX_SIZE}, got {text!r}")
    return range(a, b + 1)


states_range(_sizes, 1, MAX_SIZE)


def solve_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Print the presses; exit 0, 1 for an unsolvable board, 2 for a bad code."""
    from games.buttons.board import MAX_N, CodeError, max_code_digits, parse_code
    from games.buttons.solver import solve

    text = args.code
    if text == "-":
        text = read_stdin("the code", MAX_CODE_CHARS + 1)
        if len(text) > MAX_CODE_CHARS:
            longest = len(f"{MAX_N}x{MAX_N}:") + max_code_digits(MAX_N)
            parser.error(f"the code read from standard input is longer than {MAX_CODE_CHARS} "
                         f"characters: the largest board's ({MAX_N}x{MAX_N}) codes have at "
                         f"most {longest}")
    try:
        board = parse_code(text)
    except CodeError as exc:
        parser.error(f"invalid code: {exc}")
    solution = solve(board, time_limit=args.time_limit, memory_mb=args.max_memory)
    if solution.presses is None:
        print("no solution")
        return 1
    print("".join(f"row {r + 1}, column {c + 1}\n" for r, c in solution.presses), end="")
    if args.fewest_proof:
        print(fewest_proof_line(len(solution.presses), solution.lower_bound))
    return 0


def fewest_proof_line(count: int, lower_bound: int | None) -> str:
    """``--fewest-proof``'s line: "minimum N" when the bound meets the count, else
    "at most N, at least M"."""
    lower = 0 if lower_bound is None else lower_bound
    if lower >= count:
        return f"minimum {count}"
    return f"at most {count}, at least {lower}"


def analyze_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Print ``n nullity`` for each size."""
    from games.buttons.solver import nullity

    for n in args.sizes:
        print(f"{n} {nullity(n)}", flush=True)
    return 0
