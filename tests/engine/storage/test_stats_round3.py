"""Statistics, issue 29 findings 3, 10 and 11: a damaged page costs only its rows, Match me
follows the order played (not the clock), a blocked repair still counts pending results.

Each test drives the real :class:`StatsStore` on a real SQLite file.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.model.registry import find_game
from engine.storage import stats as stats_module
from engine.storage import stats_rebuild, stats_recovery
from engine.storage.stats import StatsStore

OUTCOMES = ("won", "lost", "drawn")


# --- 10. Match me follows the order played ------------------------------------------


def test_match_me_follows_the_order_played_not_the_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: losses recorded while the clock ran a day ahead, then wins after it was
    corrected (L L L W W W, ending at Strong) were read W W W L L L (Medium)."""
    path = tmp_path / "statistics.sqlite3"
    today = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
    clock = iter([today + timedelta(days=1, minutes=i) for i in range(3)]
                 + [today + timedelta(minutes=i) for i in range(3, 6)])
    monkeypatch.setattr(stats_module, "now",
                        lambda: next(clock).isoformat(timespec="microseconds"))
    store = StatsStore(path)
    assert store.open() == []
    for outcome in ("lost",) * 3 + ("won",) * 3:
        assert store.record_game("connect4", "c7r6", "human-computer", "match", outcome) is None
    played = ["lost"] * 3 + ["won"] * 3
    assert store.match_outcomes("connect4") == played
    store.close()

    store = StatsStore(path)  # read back from the file
    assert store.open() == []
    assert store.match_outcomes("connect4") == played
    assert find_game("connect4").match_level(store.match_outcomes("connect4")) == "strong"
    store.close()


def test_results_waiting_for_a_busy_file_come_after_the_files_own(tmp_path: Path) -> None:
    """Results not yet written (a busy file) are the newest: they follow the file's rows
    whatever their times say."""
    path = tmp_path / "statistics.sqlite3"
    store = StatsStore(path)
    store.open()
    store.record_game("connect4", "c7r6", "human-computer", "match", "lost")
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # writes wait, reads go on
    store._require_open().execute("PRAGMA busy_timeout = 0")
    try:
        assert store.record_game("connect4", "c7r6", "human-computer", "match", "won")
        assert store.match_outcomes("connect4") == ["lost", "won"]
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    store.close()


# --- 3. a damaged page costs only its rows ---------------------------------------------


def build(path: Path, games: int = 303) -> None:
    """A genuine statistics file of ``games`` Match me results (its last page, at 303, is
    a page of the games table, as in the report)."""
    store = StatsStore(path)
    assert store.open() == []
    for i in range(games):
        assert store.record_game("connect4", "7x6", "human-computer", "match",
                                 OUTCOMES[i % 3]) is None
    store.close()


def damage_last_page(path: Path, seed: int) -> None:
    """Overwrite 2 KB of the file's last page with random bytes."""
    raw = bytearray(path.read_bytes())
    page = int.from_bytes(raw[16:18], "big") or 65536
    start = len(raw) - page
    raw[start:start + 2048] = random.Random(seed).randbytes(2048)
    path.write_bytes(bytes(raw))


def readable_rows(path: Path) -> tuple[list[tuple], int]:
    """An independent read: every games row a lookup by its id returns, and how many
    ids (of those the game gave, 1 to 303) could not be read."""
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    conn.text_factory = lambda raw: raw.decode("utf-8", "replace")
    rows = []
    try:
        for rowid in range(1, 304):
            try:
                row = conn.execute("SELECT played_at, game, variant, mode, opponent, outcome "
                                   "FROM games WHERE rowid = ?", (rowid,)).fetchone()
            except sqlite3.DatabaseError:
                continue
            if row is not None and row[-1] in OUTCOMES and all(isinstance(v, str) for v in row):
                rows.append(row)
    finally:
        conn.close()
    return rows, 303 - len(rows)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_damaged_page_keeps_every_readable_row(tmp_path: Path, seed: int) -> None:
    """Regression: 2 KB of random bytes in the last page of a 303-row file set the whole
    file aside and started an empty one; the screen said "No games of yours recorded yet"
    and Match me dropped to Medium."""
    path = tmp_path / "statistics.sqlite3"
    build(path)
    conn = sqlite3.connect(path)
    if _has_dbstat(conn):  # the damage lands on results, as reported
        assert conn.execute("SELECT name FROM dbstat ORDER BY pageno DESC LIMIT 1"
                            ).fetchone()[0] == "games"
    conn.close()
    damage_last_page(path, seed)
    expected, lost = readable_rows(path)
    assert 0 < len(expected) < 303

    store = StatsStore(path)
    warnings = store.open()
    assert store.persistent
    conn = sqlite3.connect(path)
    live = conn.execute("SELECT played_at, game, variant, mode, opponent, outcome "
                        "FROM games ORDER BY rowid").fetchall()
    conn.close()
    assert live == expected  # every readable row, in the order played
    notice = [w for w in warnings if "could not be read" in w]
    assert len(notice) == 1, warnings
    assert f"{len(expected)} results were read and kept" in notice[0]
    assert f"{lost} results could not be read" in notice[0]
    totals = store.totals_by_game()["connect4"]
    assert totals[0] == len(expected)
    assert store.match_outcomes("connect4") == [row[-1] for row in expected]
    store.close()

    # The next start adds nothing twice and says nothing again.
    store = StatsStore(path)
    assert store.open() == []
    assert store.totals_by_game()["connect4"][0] == len(expected)
    store.close()


@pytest.mark.slow
def test_salvage_reads_past_a_damaged_page_in_the_middle(tmp_path: Path) -> None:
    """A damaged leaf in the middle: the rows after it are read too."""
    path = tmp_path / "statistics.sqlite3"
    build(path, 600)
    conn = sqlite3.connect(path)
    # The leaf holding row 300 (found from the file itself, not guessed).
    page = conn.execute("SELECT pageno FROM dbstat WHERE name = 'games' AND pagetype = 'leaf' "
                        "ORDER BY pageno").fetchall() if _has_dbstat(conn) else []
    conn.close()
    if len(page) < 3:
        pytest.skip("this SQLite has no dbstat table")
    raw = bytearray(path.read_bytes())
    size = int.from_bytes(raw[16:18], "big") or 65536
    middle = page[len(page) // 2][0]
    raw[(middle - 1) * size:(middle - 1) * size + 2048] = random.Random(5).randbytes(2048)
    path.write_bytes(bytes(raw))
    salvaged = stats_recovery.salvage_aside(path)
    assert salvaged is not None
    rows, lost = salvaged
    assert 0 < lost < 600
    assert len(rows["games"]) == 600 - lost
    assert rows["games"][-1][-1] == OUTCOMES[599 % 3]  # the rows after the damage


def _has_dbstat(conn: sqlite3.Connection) -> bool:
    try:
        conn.execute("SELECT 1 FROM dbstat LIMIT 1")
    except sqlite3.Error:
        return False
    return True


# --- 11. a blocked repair still counts the results kept beside the file ------------------


def test_a_blocked_repair_counts_the_pending_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: while a repair waited for disk space, the results earlier sessions
    wrote beside the file were not counted, yet the notice said "its results are shown"."""
    path = tmp_path / "statistics.sqlite3"
    build(path, 30)
    # An earlier session's results, kept beside the file (it was busy then).
    stats_recovery.write_pending(path, {"games": [
        ("2026-11-27T12:00:00.000000+00:00", "connect4", "c7r6", "human-computer",
         "match", "won"),
        ("2026-11-27T12:01:00.000000+00:00", "connect4", "c7r6", "human-computer",
         "match", "won")]})
    raw = bytearray(path.read_bytes())
    raw[18] = 3  # a header field that needs a rebuild
    path.write_bytes(bytes(raw))

    def no_room(new: sqlite3.Connection, rows: dict) -> int:
        raise sqlite3.OperationalError("database or disk is full")

    original = stats_rebuild.copy_rows
    with monkeypatch.context() as patch:
        patch.setattr(stats_rebuild, "copy_rows",
                      lambda new, rows: original(new, rows)
                      if not new.execute("PRAGMA database_list").fetchone()[2]
                      else no_room(new, rows))
        store = StatsStore(path)
        warnings = store.open()
        assert any("its results are shown" in w for w in warnings), warnings
        assert store.totals_by_game()["connect4"][0] == 32
        assert store.match_outcomes("connect4")[-2:] == ["won", "won"]
        store.close()
    assert len(stats_recovery.pending_files(path)) == 1  # still there for the repair

    store = StatsStore(path)  # room again: repaired, the pending results added once
    store.open()
    assert store.persistent
    assert store.totals_by_game()["connect4"][0] == 32
    store.close()
    assert stats_recovery.pending_files(path) == []
