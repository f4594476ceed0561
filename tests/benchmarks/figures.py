"""Figures the benchmarks share: percentiles by nearest rank, and result files.

A benchmark that takes ``--json FILE`` runs inside :func:`recording`, which writes the
Markdown tables it printed to FILE as a result file (see tools/make_docs.py): copy it to
``docs/results/<benchmark>.json`` (keeping the table names the docs use) and run
``python tools/make_docs.py``.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import inspect
import io
import json
import math
import os
import platform
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO, TypeVar


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0 < q ≤ 1) of ``values`` by nearest rank; NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


# --- result files: what docs/performance.md's tables are made from -----------------------

def machine_note() -> str:
    """This machine in a few words: system, cores, Python, load average."""
    load = f", load {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    return (f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}{load}")


def command_line(script: str) -> str:
    """The command that ran ``script`` (a path under tests/benchmarks/), without --json FILE."""
    args = list(sys.argv[1:])
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--json":
            skip = True
        elif not arg.startswith("--json="):
            kept.append(arg)
    return " ".join(["python", f"tests/benchmarks/{Path(script).name}", *kept])


def markdown_tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    """Every Markdown table in ``text``: (columns, rows), cells stripped."""
    tables: list[tuple[list[str], list[list[str]]]] = []
    block: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            block.append(line.strip())
            continue
        if len(block) >= 2 and set(block[1]) <= set("|-: "):
            cells = [[c.strip() for c in row[1:-1].split("|")] for row in block]
            tables.append((cells[0], cells[2:]))
        block = []
    return tables


class _Tee(io.TextIOBase):
    """Writes to the real stream and keeps a copy."""

    def __init__(self, real: TextIO) -> None:
        self.real, self.copy = real, io.StringIO()

    def write(self, text: str) -> int:
        self.copy.write(text)
        return self.real.write(text)

    def flush(self) -> None:
        self.real.flush()


@contextlib.contextmanager
def recording(path: str | None, script: str, names: Sequence[str] = (),
              update: bool = False) -> Iterator[None]:
    """Inside: what is printed goes out as usual; at the end, with ``path``, the Markdown
    tables printed are written to ``path`` as a result file (tables named by ``names`` in
    order, the rest by their number), dated today, with this machine and command.
    ``update``: the file's other tables are kept (each keeps its own date and command)."""
    if path is None:
        yield
        return
    tee = _Tee(sys.stdout)
    sys.stdout = tee  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout = tee.real
        printed = markdown_tables(tee.copy.getvalue())
        if printed:  # nothing for --help or a usage error
            _write(path, script, names, printed, update)


def _write(path: str, script: str, names: Sequence[str],
           printed: list[tuple[list[str], list[list[str]]]], update: bool = False) -> None:
    today = datetime.date.today().isoformat()
    tables = {}
    if update and Path(path).is_file():
        tables = dict(json.loads(Path(path).read_text(encoding="utf-8"))["tables"])
    for i, (columns, rows) in enumerate(printed):
        name = names[i] if i < len(names) else str(i + 1)
        tables[name] = {"date": today, "machine": machine_note(),
                        "command": command_line(script), "columns": columns, "rows": rows}
    result = {"benchmark": Path(script).stem,
              "source": f"written by {command_line(script)} --json FILE", "tables": tables}
    Path(path).write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n",
                          encoding="utf-8")


JSON_HELP = "also write the tables printed to FILE as a result file (docs/results/)"


def json_option(argv: Sequence[str]) -> str | None:
    """The FILE of ``--json FILE`` (or ``--json=FILE``) in ``argv``, if any."""
    for i, arg in enumerate(argv):
        if arg == "--json" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--json="):
            return arg.split("=", 1)[1]
    return None


Main = TypeVar("Main", bound=Callable[..., Any])


def records(*names: str, update: bool = False) -> Callable[[Main], Main]:
    """Decorate a benchmark's ``main`` (whose parser takes ``--json FILE``, help
    :data:`JSON_HELP`): with ``--json FILE`` on the command line, the Markdown tables it
    prints are written to FILE, named ``names`` in order (``update``: FILE's other tables
    kept)."""
    def wrap(main: Main) -> Main:
        @functools.wraps(main)
        def run(*args: Any, **kwargs: Any) -> Any:
            with recording(json_option(sys.argv[1:]), inspect.getfile(main), names, update):
                return main(*args, **kwargs)
        return run  # type: ignore[return-value]
    return wrap
