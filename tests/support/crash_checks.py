"""The oracle of tests/support/crash_harness.py: what the journals promised against what a
fresh start sees.

A worker (tests/support/crash_worker.py) journals a ``try`` line before each operation and an ``ok``
line, fsynced, once the store reported it done. After the kills, a fresh process opens the
profile as the app does and reports what it sees (``check``). The functions here compare
the two and return plain-language findings:

* every result journalled ``ok`` is in the statistics exactly once, with its outcome; a
  result only tried (killed before the ``ok``) is there at most once; a result whose write
  returned "not recorded" is not there; no result appears that no worker wrote;
* every setting holds its last ``ok`` value or one a worker tried after it;
* every saved game reads back as its last ``ok`` text or one a worker tried after it;
* no notice claims corruption where there was none, nothing is kept in memory only, no
  write was refused, no store raised, and no temporary file outlives the next start.

No pygame and no store: the checks read only journals, the checker's JSON and files.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crash_worker import GAME, OUTCOMES, PLAIN, PUZZLE

# Notices that say something is wrong with a file. After kills (or a race) on a healthy
# profile none of this is true, so any of it is a false alarm.
CORRUPTION_WORDS = ("corrupt", "damaged", "could not be used", "unreadable", "not valid",
                    "already exists", "changed by another program", "malformed",
                    "not a database", "kept as")
# Notices that say results or settings will not be saved: memory-only mode.
MEMORY_WORDS = ("will not be saved", "not be saved this session", "shown but not saved",
                "not saved:", "in memory")
# A rebuild that gave up the rows and started empty says so with this.
ABANDONED_WORDS = ("a new statistics file was started",)
# Files a store writes beside the real one and must not outlive the next start.
TEMP_SUFFIXES = (".tmp", ".rebuild")
# How many examples of one kind of finding to list (the count says the rest).
EXAMPLES = 3

REBUILD_GAME = "crash-rebuild"
REBUILD_PUZZLE = "crash-rebuild-puzzle"


@dataclass
class Attempt:
    """One operation a worker tried, and how it ended (``try``: killed before it said)."""

    kind: str
    tag: str
    record: dict[str, Any]
    pos: int
    owner: str
    state: str = "try"
    warning: str | None = None


@dataclass
class Ledger:
    """Everything the journals of one profile say, in the order it happened."""

    attempts: list[Attempt] = field(default_factory=list)
    by_tag: dict[str, Attempt] = field(default_factory=dict)
    opens: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    starts: int = 0
    #: Where workers killed themselves (``--die-at``): "worker-2: before os.replace(a -> b)".
    crashes: list[str] = field(default_factory=list)
    #: The disk-changing calls each worker that finished made (``open``/``done`` lines).
    calls: list[int] = field(default_factory=list)

    def of_kind(self, kind: str) -> list[Attempt]:
        """The attempts of one kind (game, puzzle, setting, save), in order."""
        return [a for a in self.attempts if a.kind == kind]

    def count(self, state: str) -> int:
        """How many attempts ended in ``state`` (ok, warn or try)."""
        return sum(a.state == state for a in self.attempts)


@dataclass
class Verdict:
    """The findings of one run, by check; a check with no findings passed."""

    where: str
    findings: dict[str, list[str]] = field(default_factory=dict)
    #: The run's profile folder: shown as <profile> in the findings, which stay short.
    profile: Path | None = None

    def check(self, name: str, problems: Iterable[str]) -> None:
        """Record check ``name`` with its ``problems`` (none: it passed)."""
        found = list(problems)
        if self.profile is not None:
            found = [text.replace(str(self.profile), "<profile>") for text in found]
        self.findings.setdefault(name, []).extend(short(text, 300) for text in found)

    @property
    def passed(self) -> int:
        """Checks with no findings."""
        return sum(not found for found in self.findings.values())

    @property
    def failed(self) -> int:
        """Checks with findings."""
        return sum(bool(found) for found in self.findings.values())

    def lines(self) -> list[str]:
        """One line per failed check: a few examples and how many more."""
        out = []
        for name, found in self.findings.items():
            if not found:
                continue
            more = f" (and {len(found) - EXAMPLES} more)" if len(found) > EXAMPLES else ""
            out.append(f"[{self.where}] {name}: " + "; ".join(found[:EXAMPLES]) + more)
        return out


def read_journal(path: Path) -> list[dict[str, Any]]:
    """The records of one journal (a missing file is an empty journal)."""
    records = []
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    for line in text.splitlines():
        with contextlib.suppress(json.JSONDecodeError):
            records.append(json.loads(line))
    return records


def load_ledger(journals: Iterable[Path]) -> Ledger:
    """Read the journals of one profile, in the order their workers ran."""
    ledger = Ledger()
    pos = 0
    for path in journals:
        owner = path.stem
        for record in read_journal(path):
            pos += 1
            kind = record.get("t")
            if kind == "start":
                ledger.starts += 1
            elif kind == "try":
                body = {k: v for k, v in record.items() if k != "t"}
                attempt = Attempt(body["k"], body["tag"], body, pos, owner)
                ledger.attempts.append(attempt)
                ledger.by_tag[attempt.tag] = attempt
            elif kind in ("ok", "warn") and record.get("tag") in ledger.by_tag:
                attempt = ledger.by_tag[record["tag"]]
                attempt.state = kind
                attempt.warning = record.get("text")
            elif kind == "open":
                ledger.opens.append((owner, record))
                if "calls" in record:
                    ledger.calls.append(int(record["calls"]))
            elif kind == "done":
                ledger.calls.append(int(record.get("calls", 0)))
            elif kind == "crash":
                ledger.crashes.append(f"{owner} {record.get('at')}")
            elif kind == "error":
                ledger.errors.append((owner, str(record.get("text", ""))))
    return ledger


def short(text: str, limit: int = 160) -> str:
    """``text`` on one line, cut to ``limit`` characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def last_line(trace: str) -> str:
    """The last line of a traceback (the exception), shortened."""
    lines = [line for line in trace.strip().splitlines() if line.strip()]
    return short(lines[-1] if lines else trace)


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def claims(notice: str, words: tuple[str, ...]) -> bool:
    """Whether ``notice`` says one of ``words`` (case-insensitive)."""
    lower = notice.lower()
    return any(word in lower for word in words)


# --- the checks ---------------------------------------------------------------------------


def check_results(ledger: Ledger, seen: dict[str, Any]) -> list[str]:
    """Every journalled result is there exactly once; nothing else is."""
    games: dict[str, list[Any]] = {}
    for row in seen.get("games", []):
        if row[0] == GAME:
            games[row[1]] = row
    puzzles: dict[str, list[Any]] = {}
    for row in seen.get("puzzles", []):
        if row[0] == PUZZLE:
            puzzles[row[1]] = row
    problems = check_plain(ledger, games.pop(PLAIN, None))
    for attempt in ledger.of_kind("game") + ledger.of_kind("puzzle"):
        if attempt.record.get("plain"):
            continue
        rows = games if attempt.kind == "game" else puzzles
        row = rows.pop(attempt.tag, None)
        count = 0 if row is None else (row[4] if attempt.kind == "game" else row[2])
        what = f"{attempt.kind} result {attempt.tag}"
        if attempt.state == "ok":
            if count == 0:
                problems.append(f"{what} was journalled as saved but is not in the statistics")
                continue
        elif attempt.state == "warn":
            if count:
                problems.append(f"{what} is in the statistics although its write said "
                                f"otherwise ({attempt.warning})")
            continue
        if count > 1:
            problems.append(f"{what} is in the statistics {count} times")
        elif count == 1 and attempt.kind == "game":
            wanted = attempt.record["outcome"]
            got = [name for name, n in zip(OUTCOMES, row[5:8], strict=True) if n]
            if got != [wanted]:
                problems.append(f"{what} was {wanted} but reads as {got}")
        elif count == 1 and bool(row[3]) != bool(attempt.record["helped"]):
            problems.append(f"{what} has the wrong 'helped' flag")
    for tag in list(games) + list(puzzles):
        problems.append(f"result {tag} is in the statistics but no worker wrote it")
    return problems


def check_plain(ledger: Ledger, row: list[Any] | None) -> list[str]:
    """The untagged wins number at least those journalled, at most those also tried."""
    plain = [a for a in ledger.of_kind("game") if a.record.get("plain")]
    done = sum(a.state == "ok" for a in plain)
    tried = sum(a.state == "try" for a in plain)
    count = 0 if row is None else row[4]
    if count < done:
        return [f"{done - count} of {done} plain wins journalled as saved are not in the "
                "statistics"]
    if count > done + tried:
        return [f"{count} plain wins are in the statistics, but only {done} were journalled "
                f"and {tried} more tried"]
    if row is not None and row[5] != count:
        return [f"plain wins read back as {row[5:8]} (won, lost, drawn), not {count} won"]
    return []


def check_latest(attempts: list[Attempt], on_disk: Any, what: str, default: Any,
                 shared: bool = False) -> list[str]:
    """``on_disk`` is the last ``ok`` value of ``attempts`` or one tried after it.

    ``shared``: several copies wrote this at once; any complete value one of them tried
    will do, but something must be there once any of them succeeded.
    """
    if not attempts:
        return []
    want = _canon(on_disk)
    matching = [a for a in attempts if _canon(a.record["value"]) == want]
    done = [a for a in attempts if a.state == "ok"]
    if shared:
        if done and on_disk is None:
            return [f"{what} is missing, though {len(done)} writes were journalled as done"]
        if on_disk is not None and not matching:
            return [f"{what} holds something no copy wrote"]
        return []
    if not done:
        if on_disk != default and not matching:
            return [f"{what} holds {short(str(on_disk), 60)}, which no worker wrote"]
        return []
    last = done[-1]
    if any(a.pos >= last.pos for a in matching):
        return []
    if matching:
        return [f"{what} went back to the earlier value of {matching[-1].tag}; the last save "
                f"journalled as done was {last.tag}"]
    shown = "nothing" if on_disk is None else short(str(on_disk), 60)
    return [f"{what} holds {shown}; the last save journalled as done was {last.tag}"]


def check_settings(ledger: Ledger, seen: dict[str, Any],
                   defaults: dict[str, Any] | None = None) -> list[str]:
    """Every changed setting holds its last journalled value (or a later one)."""
    values = seen.get("settings") or {}
    problems = []
    keys = dict.fromkeys(a.record["key"] for a in ledger.of_kind("setting"))
    for key in keys:
        attempts = [a for a in ledger.of_kind("setting") if a.record["key"] == key]
        problems += check_latest(attempts, values.get(key), f"setting {key!r}",
                                 (defaults or {}).get(key))
    return problems


def check_saves(ledger: Ledger, seen: dict[str, Any], shared: tuple[str, ...] = ()) -> list[str]:
    """Every saved game reads back as its last journalled text (or a later one)."""
    found = seen.get("saves") or {}
    problems = []
    ids = dict.fromkeys(a.record["id"] for a in ledger.of_kind("save"))
    for game_id in ids:
        got = found.get(game_id) or {}
        for key in ("problem", "notice"):
            if got.get(key):
                problems.append(f"saved game {game_id}: {short(got[key])}")
        attempts = []
        for a in ledger.of_kind("save"):
            if a.record["id"] == game_id:
                attempts.append(Attempt(a.kind, a.tag, {**a.record, "value": a.record["sha"]},
                                        a.pos, a.owner, a.state, a.warning))
        problems += check_latest(attempts, got.get("sha"), f"saved game {game_id}", None,
                                 shared=game_id in shared)
    return problems


def check_notices(ledger: Ledger, seen: dict[str, Any], words: tuple[str, ...]) -> list[str]:
    """No start (a worker's or the final one) told the player something from ``words``."""
    problems = []
    for owner, record in ledger.opens:
        problems += [f"{owner} was told: {n}" for n in record.get("notices", [])
                     if claims(n, words)]
    problems += [f"the next start was told: {n}" for n in seen.get("notices", [])
                 if claims(n, words)]
    problems += [f"reading the statistics failed: {n}"
                 for n in seen.get("read_warnings", [])]
    return problems


def check_memory(ledger: Ledger, seen: dict[str, Any]) -> list[str]:
    """Nothing fell back to memory-only statistics or settings."""
    problems = [f"{owner} kept statistics in memory only" for owner, record in ledger.opens
                if not record.get("persistent", False)]
    if "persistent" in seen and not seen["persistent"]:
        problems.append("the next start kept statistics in memory only")
    return problems + check_notices(ledger, seen, MEMORY_WORDS)


def check_writes(ledger: Ledger) -> list[str]:
    """No write was refused (a warning returned) and no store raised."""
    problems = [f"{a.kind} write {a.tag} returned a warning: {a.warning}"
                for a in ledger.attempts if a.state == "warn"]
    problems += [f"{owner} raised: {last_line(text)}" for owner, text in ledger.errors]
    return problems


def leftovers(profile: Path) -> list[str]:
    """Temporary files (a store's ``.tmp``, ``.rebuild`` or a live database's journal)."""
    found = []
    for path in sorted(profile.rglob("*")):
        name = path.name
        stale = name.endswith(TEMP_SUFFIXES) or ".rebuild" in name
        if name.endswith("-journal") and ".corrupt-" not in name:
            stale = True  # a hot journal the next start should have rolled back
        if stale:
            found.append(str(path.relative_to(profile)))
    return found


def check_leftovers(profile: Path) -> list[str]:
    """No temporary file outlives the next start."""
    return [f"{name} was left behind after the next start" for name in leftovers(profile)]


def set_aside_files(folder: Path, name: str = "statistics.sqlite3") -> list[Path]:
    """The set-aside copies of the database ``name`` (not their side files)."""
    return sorted(p for p in folder.glob(f"{name}.corrupt-*")
                  if not p.name.endswith(("-journal", "-wal", "-shm")))


def rows_in(path: Path, game: str) -> int:
    """How many game rows of ``game`` the database file ``path`` holds (0 if unreadable)."""
    with contextlib.suppress(sqlite3.Error):
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return int(conn.execute("SELECT count(*) FROM games NOT INDEXED WHERE game = ?",
                                    (game,)).fetchone()[0])
        finally:
            conn.close()
    return 0


def rebuild_counts(rows: int) -> tuple[int, int, int]:
    """How the damaged database's ``rows`` divide: (distinct games, alike games, puzzles).

    A tenth are puzzles, each distinct; one in two hundred are games alike in every column
    (a rebuild or a merge must neither drop nor add one of those); the rest are distinct
    games.
    """
    puzzles = rows // 10
    alike = max(1, rows // 200)
    return rows - puzzles - alike, alike, puzzles


def check_rebuilt_rows(seen: dict[str, Any], rows: int, profile: Path) -> list[str]:
    """Every row of the damaged database is in the live one, exactly once."""
    distinct, alike, puzzles_wanted = rebuild_counts(rows)
    games = {row[1]: row for row in seen.get("games", []) if row[0] == REBUILD_GAME}
    puzzles = {row[1]: row for row in seen.get("puzzles", []) if row[0] == REBUILD_PUZZLE}
    missing = doubled = wrong = 0
    for i in range(distinct):
        row = games.pop(f"r{i:07d}", None)
        if row is None:
            missing += 1
        elif row[4] != 1:
            doubled += 1
        elif row[5 + i % 3] != 1:
            wrong += 1
    same = games.pop(PLAIN, None)
    count = 0 if same is None else same[4]
    missing += max(0, alike - count)
    doubled += max(0, count - alike)
    for i in range(puzzles_wanted):
        row = puzzles.pop(f"p{i:07d}", None)
        if row is None:
            missing += 1
        elif row[2] != 1:
            doubled += 1
        elif row[3] != i % 2:
            wrong += 1
    problems = []
    if missing:
        kept = {p.name: rows_in(p, REBUILD_GAME) for p in set_aside_files(profile)}
        where = ", ".join(f"{n:,} game rows in {name}" for name, n in kept.items() if n)
        problems.append(f"{missing:,} of {rows:,} rows are not in the live statistics"
                        + (f" (set-aside files hold {where})" if where else ""))
    if doubled:
        problems.append(f"{doubled:,} rows are in the live statistics more than once")
    if wrong:
        problems.append(f"{wrong:,} rows read back with other values")
    if games or puzzles:
        problems.append(f"{len(games) + len(puzzles):,} rows appeared that were never written")
    return problems


def check_set_aside(profile: Path, rebuilds: int) -> list[str]:
    """At most one set-aside copy of the database per start that rebuilt it."""
    kept = set_aside_files(profile)
    if len(kept) > rebuilds:
        return [f"{len(kept)} set-aside copies of the database after {rebuilds} starts: "
                + ", ".join(p.name for p in kept[:4])]
    return []
