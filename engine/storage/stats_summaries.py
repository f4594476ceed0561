"""What the statistics screens show: summaries read from the statistics database.

:class:`StatsSummaries` turns the rows of ``all_games``/``all_puzzles`` (the file's
results and this session's results not yet written, see
:func:`engine.storage.stats_schema.add_unsaved_tables`) into the summaries
:class:`engine.storage.stats.StatsStore` hands out. It reads through the store's
reading function, which reports a read error instead of raising. No pygame here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .stats_schema import OUTCOMES

#: The modes of a game one player plays against the computer, from either seat (Swap sides
#: moves the player to the second seat: ``computer-human``). "Match me" counts them all.
MATCH_MODES = ("human-computer", "computer-human")

# The rows of games against "Match me" (its level tag: ``match``, or ``match@0.1`` with a
# mistake rate), as an SQL condition.
MATCH_GAMES = ("mode IN ({}) AND (opponent IS 'match' OR opponent LIKE 'match@%')"
               .format(", ".join(f"'{mode}'" for mode in MATCH_MODES)))


def is_match_game(mode: str, opponent: str) -> bool:
    """Whether a game recorded with ``mode`` and ``opponent`` was against "Match me" (the
    rows :data:`MATCH_GAMES` selects)."""
    return mode in MATCH_MODES and (opponent == "match" or opponent.startswith("match@"))


#: Runs one query with its parameters and returns its rows (``[]`` on a read error).
Reader = Callable[[str, tuple[object, ...]], list[tuple]]


@dataclass(frozen=True)
class GameSummary:
    """Results of one (game, variant, mode, opponent) combination.

    Outcomes are from the point of view of the first human seat (for two
    humans: the first player).
    """

    game: str
    variant: str
    mode: str
    opponent: str
    played: int
    won: int
    lost: int
    drawn: int


@dataclass(frozen=True)
class PuzzleSummary:
    """Results of one (game, variant) puzzle: how often solved, and the best unhelped run."""

    game: str
    variant: str
    solved: int
    helped: int
    best_moves: int | None
    best_seconds: float | None


@dataclass(frozen=True)
class GameRecord:
    """One kept record of a finished game (the records table), newest first as listed.

    ``key``: ``(src, ord)`` — 0 and its id for a record in the file, 1 and its place in
    the session for one still waiting for the file (what :meth:`StatsStore.set_kept`
    takes). ``record`` is ``""`` for a game with no record line.
    """

    key: tuple[int, int]
    played_at: str
    game: str
    variant: str
    seats: str
    levels: str
    outcome: str
    record: str
    kept: bool


class StatsSummaries:
    """The summaries of the results, each one or two queries through ``read``."""

    # The summaries read the names through CAST(... AS TEXT) and skip NULLs:
    # SQLite keeps whatever type a value arrived with, so a damaged or
    # hand-edited file can hold a number or a blob where a name belongs, and
    # the screens expect text. Such a row still counts, under its text form.

    def __init__(self, read: Reader) -> None:
        self._read = read

    def game_summary(self) -> list[GameSummary]:
        """Per (game, variant, mode, opponent) counts, sorted by those keys."""
        rows = self._read(
            "SELECT CAST(game AS TEXT) AS g, CAST(variant AS TEXT) AS v, "
            "CAST(mode AS TEXT) AS m, CAST(opponent AS TEXT) AS o, COUNT(*), "
            "SUM(outcome IS 'won'), SUM(outcome IS 'lost'), SUM(outcome IS 'drawn') "
            "FROM all_games WHERE g IS NOT NULL AND v IS NOT NULL AND m IS NOT NULL "
            "AND o IS NOT NULL GROUP BY g, v, m, o ORDER BY g, v, m, o", ()
        )
        return [GameSummary(*row) for row in rows]

    def match_outcomes(self, game: str) -> list[str]:
        """The player's results in their games of ``game`` against "Match me", from
        either seat (first or second: Swap sides), in the order played: the order they
        were recorded in, not their times (a clock set wrong for a while must not reorder
        them)."""
        rows = self._read(
            f"SELECT CAST(outcome AS TEXT) FROM all_games WHERE game IS ? AND {MATCH_GAMES} "
            "ORDER BY src, ord", (game,))
        return [row[0] for row in rows if row[0] in OUTCOMES]

    def all_match_outcomes(self) -> dict[str, list[str]]:
        """``{game: outcomes}`` as :meth:`match_outcomes` gives them, for every game."""
        rows = self._read(
            "SELECT CAST(game AS TEXT), CAST(outcome AS TEXT) FROM all_games "
            f"WHERE {MATCH_GAMES} ORDER BY src, ord", ())
        outcomes: dict[str, list[str]] = {}
        for game, outcome in rows:
            if game is not None and outcome in OUTCOMES:
                outcomes.setdefault(game, []).append(outcome)
        return outcomes

    def totals_by_game(self, players_only: bool = False) -> dict[str, tuple[int, int, int, int]]:
        """``{game: (played, won, lost, drawn)}`` over all variants and modes.

        ``players_only`` leaves out games the computer played against itself (modes
        with no ``human`` seat): those are not the player's results.
        """
        # The mode is the seats' kinds joined by "-": a human seat is "-human-" once the
        # mode is framed by dashes.
        human = " AND ('-' || CAST(mode AS TEXT) || '-') LIKE '%-human-%'" if players_only else ""
        rows = self._read(
            "SELECT CAST(game AS TEXT) AS g, COUNT(*), "
            "SUM(outcome IS 'won'), SUM(outcome IS 'lost'), SUM(outcome IS 'drawn') "
            f"FROM all_games WHERE g IS NOT NULL{human} GROUP BY g ORDER BY g", ()
        )
        return {row[0]: (row[1], row[2], row[3], row[4]) for row in rows}

    def puzzle_summary(self) -> list[PuzzleSummary]:
        """Per (game, variant): solves, solves with help, and the best unhelped result."""
        rows = self._read(
            "SELECT CAST(game AS TEXT) AS g, CAST(variant AS TEXT) AS v, COUNT(*), "
            "SUM(helped IS NOT 0) FROM all_puzzles WHERE g IS NOT NULL AND v IS NOT NULL "
            "GROUP BY g, v ORDER BY g, v", ()
        )
        result = []
        for game, variant, solved, helped in rows:
            best = self.best_puzzle(game, variant)
            result.append(PuzzleSummary(game, variant, solved, helped or 0,
                                        best[0] if best else None, best[1] if best else None))
        return result

    def best_puzzle(self, game: str, variant: str) -> tuple[int, float] | None:
        """Best unhelped solution as ``(moves, seconds)``: fewest moves, then fastest."""
        # Only rows whose numbers are numbers: a damaged value must not become
        # the "best" (or reach a screen that formats it as a number).
        rows = self._read(
            "SELECT moves, seconds FROM all_puzzles "
            "WHERE game = ? AND variant = ? AND helped = 0 "
            "AND typeof(moves) = 'integer' AND moves >= 0 "
            "AND typeof(seconds) IN ('integer', 'real') AND seconds >= 0 "
            "ORDER BY moves, seconds LIMIT 1",
            (game, variant),
        )
        return (int(rows[0][0]), float(rows[0][1])) if rows else None

    def recent_records(self, limit: int) -> list[GameRecord]:
        """The newest ``limit`` kept records of every game, newest first (the order
        recorded, not the clock's)."""
        rows = self._read(
            "SELECT src, ord, CAST(played_at AS TEXT), CAST(game AS TEXT), "
            "CAST(variant AS TEXT), CAST(seats AS TEXT), CAST(levels AS TEXT), "
            "CAST(outcome AS TEXT), CAST(record AS TEXT), kept FROM all_records "
            "WHERE game IS NOT NULL ORDER BY src DESC, ord DESC LIMIT ?", (limit,))
        return [GameRecord((src, order), *(text or "" for text in texts), bool(kept))
                for src, order, *texts, kept in rows]
