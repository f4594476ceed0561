"""The statistics table's lines, in a player's words: what the statistics screen lists.

The store records ids (a game's id, a variant's ``8x8``, ``human-computer``, ``hard@0.1``); this
module turns them into the names the games give them through their descriptors (the game's
title, :meth:`GameDescriptor.variant_title`, :meth:`GameDescriptor.level_title`), so no
engine module names a game. Lines are grouped: a section, a game, a variant (board), then
one line per seating and computer level with its figures. Games the computer played against
itself get their own section and stay out of the player's totals.

No pygame here. The lines are in the current language (engine/core/i18n.py): the table is
built again each time the statistics screen opens.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.core.i18n import N_, _, ngettext, number_text
from engine.model.descriptor import GameDescriptor
from engine.storage.stats import GameSummary, PuzzleSummary

# Sections of the table, in order.
PLAYER, PUZZLES, COMPUTER = "player", "puzzles", "computer"
SECTION_TITLES = {PLAYER: N_("Your games"), PUZZLES: N_("Puzzles"),
                  COMPUTER: N_("Computer against computer")}
# The figure columns' heads per section: played, won, drawn, lost; computer-only games
# are counted from the first seat's side, so their columns say whose win it was.
COLUMN_HEADS = {PLAYER: (N_("P"), N_("W"), N_("D"), N_("L")),
                COMPUTER: (N_("P"), N_("1st"), N_("D"), N_("2nd")),
                PUZZLES: ("", "", "", "")}
# Indentation of each kind of line, in design units (a line's place in the hierarchy).
INDENT = {"section": 0.0, "game": 0.0, "variant": 10.0, "row": 20.0, "note": 20.0}


@dataclass(frozen=True)
class TableEntry:
    """One line of the statistics table.

    ``kind`` is "section", "game", "variant", "row" (with figures) or "note"; ``detail`` is
    the whole line with its context, for the tooltip of a line too long for its column.
    """

    kind: str
    text: str
    section: str = PLAYER
    figures: tuple[int, int, int, int] | None = None  # played, won, drawn, lost
    detail: str = ""

    @property
    def indent(self) -> float:
        """How far the line is indented (design units)."""
        return INDENT.get(self.kind, 0.0)


def is_computer_only(mode: str) -> bool:
    """Whether a recorded mode (``"computer-computer"``) has no human seat."""
    return "human" not in mode.split("-")


def readable(text: str) -> str:
    """An id made readable when no game can name it: ``"variant-3"`` → ``"Variant 3"``,
    ``"9x9"`` → ``"9×9"``."""
    words = re.sub(r"[-_:]+", " ", text).strip()
    words = re.sub(r"(?<=\d)x(?=\d)", "×", words)
    return words[:1].upper() + words[1:] if words else _("Standard")


def game_title(game: GameDescriptor | None, game_id: str) -> str:
    """The game's title, or its id made readable if no registered game has it."""
    return _(game.title) if game is not None else readable(game_id)


def variant_title(game: GameDescriptor | None, variant: str) -> str:
    """The variant's name as its game gives it (``"8×8, 4 in a row"``), else the id made
    readable."""
    named = game.variant_title(variant) if game is not None else None
    return named or readable(variant)


def level_title(game: GameDescriptor | None, tag: str) -> str:
    """A computer seat's level from its recorded tag: ``"hard@0.1"`` → ``"Hard, 10%
    mistakes"``."""
    level, _sep, rate = tag.partition("@")
    name = game.level_title(level) if game is not None else _(level.capitalize())
    try:
        mistakes = round(float(rate) * 100) if rate else 0
    except ValueError:
        mistakes = 0
    if not mistakes:
        return name
    return _("{level}, {percent}% mistakes").format(level=name, percent=mistakes)


def players_title(game: GameDescriptor | None, mode: str, opponent: str) -> str:
    """Who sat where, seat by seat: ``"You vs Computer (Hard)"``, ``"Computer (Easy) vs
    You"``, ``"Hot seat, 2 players"``, or for computer-only games ``"Easy vs Perfect"``."""
    kinds = mode.split("-")
    tags = iter(opponent.split(" vs ") if opponent else ())
    computers_only = is_computer_only(mode)
    if "computer" not in kinds:
        return ngettext("Hot seat, {count} player", "Hot seat, {count} players",
                        len(kinds)).format(count=len(kinds))
    if kinds in (["human", "computer"], ["computer", "human"]):
        # One phrase for you against the computer: a language that inflects the words
        # (cs "Ty proti počítači", "Počítač proti tobě") cannot build it by joining names.
        tag = next(tags, "")
        level = level_title(game, tag) if tag else ""
        if kinds[0] == "human":
            return (_("You vs Computer ({level})").format(level=level) if level
                    else _("You vs Computer"))
        return (_("Computer ({level}) vs You").format(level=level) if level
                else _("Computer vs You"))
    names: list[str] = []
    humans = 0
    for kind in kinds:
        if kind == "computer":
            tag = next(tags, "")
            level = level_title(game, tag) if tag else ""
            if computers_only:
                names.append(level or _("Computer"))
            else:
                names.append(_("Computer ({level})").format(level=level) if level
                             else _("Computer"))
        else:
            humans += 1
            # Results are counted for the first human seat: that is "you".
            names.append(_("You") if humans == 1
                         else _("Player {number}").format(number=len(names) + 1))
    return _(" vs ").join(names)


def _outcome_words(section: str, figures: tuple[int, int, int, int]) -> str:
    played, won, drawn, lost = figures
    if section == COMPUTER:
        return _("{played} played: first seat won {won}, {drawn} drawn, "
                 "second seat won {lost}").format(played=played, won=won, drawn=drawn,
                                                  lost=lost)
    return _("{played} played: {won} won, {drawn} drawn, {lost} lost").format(
        played=played, won=won, drawn=drawn, lost=lost)


def _row_order(game: GameDescriptor | None, row: GameSummary) -> tuple[object, ...]:
    """Human-first seatings, then computer-first, then hot seat; levels weakest first."""
    kinds = row.mode.split("-")
    hot_seat = "computer" not in kinds
    first_human = kinds.index("human") if "human" in kinds else 0
    levels = game.levels if game is not None else ()
    ranks = []
    for tag in row.opponent.split(" vs ") if row.opponent else ():
        level, _sep, rate = tag.partition("@")
        ranks.append((levels.index(level) if level in levels else len(levels), level, rate))
    return (hot_seat, first_human, tuple(ranks), row.mode, row.opponent)


def _variant_order(game: GameDescriptor | None, variant: str) -> tuple[object, ...]:
    """A game's presets in menu order first, then other variants by name."""
    spec = game.param_spec() if game is not None else None
    if spec is not None:
        for index, preset in enumerate(spec.presets):
            try:
                if spec.variant_id(preset.params) == variant:
                    return (0, index, "")
            except (ValueError, TypeError):
                continue
    return (1, 0, variant_title(game, variant).casefold())


class _Names:
    """Registered games by id, with ordering for ids of games no longer registered."""

    def __init__(self, games: Sequence[GameDescriptor]) -> None:
        self.by_id = {g.id: g for g in games}
        self.order = {g.id: i for i, g in enumerate(games)}

    def game_order(self, game_id: str) -> tuple[int, str]:
        return (self.order.get(game_id, len(self.order)), game_id)


def _game_rows(names: _Names, rows: Iterable[GameSummary], section: str,
               rungs: Mapping[str, str] | None = None) -> list[TableEntry]:
    """The section's lines: each game (with the rung "Match me" plays at now, from
    ``rungs``, where given), its variants and one line per seating and level."""
    entries: list[TableEntry] = []
    by_game: dict[str, list[GameSummary]] = {}
    for row in rows:
        by_game.setdefault(row.game, []).append(row)
    for game_id in sorted(by_game, key=names.game_order):
        game = names.by_id.get(game_id)
        title = game_title(game, game_id)
        entries.append(TableEntry("game", title, section, detail=title))
        if rungs and game_id in rungs:
            rung = _("Match me plays at {level} now").format(level=rungs[game_id])
            entries.append(TableEntry("note", rung, section, detail=f"{title}: {rung}."))
        by_variant: dict[str, list[GameSummary]] = {}
        for row in by_game[game_id]:
            by_variant.setdefault(row.variant, []).append(row)
        for variant in sorted(by_variant, key=lambda v, g=game: _variant_order(g, v)):
            board = variant_title(game, variant)
            entries.append(TableEntry("variant", board, section, detail=f"{title}: {board}"))
            for row in sorted(by_variant[variant], key=lambda r, g=game: _row_order(g, r)):
                who = players_title(game, row.mode, row.opponent)
                figures = (row.played, row.won, row.drawn, row.lost)
                entries.append(TableEntry(
                    "row", who, section, figures,
                    f"{title}, {board}: {who}. {_outcome_words(section, figures)}."))
    return entries


def _puzzle_rows(names: _Names, puzzles: Iterable[PuzzleSummary]) -> list[TableEntry]:
    """Each puzzle's variants: the best result without help and how often it was solved."""
    entries: list[TableEntry] = []
    by_game: dict[str, list[PuzzleSummary]] = {}
    for row in puzzles:
        by_game.setdefault(row.game, []).append(row)
    for game_id in sorted(by_game, key=names.game_order):
        game = names.by_id.get(game_id)
        title = game_title(game, game_id)
        entries.append(TableEntry("game", title, PUZZLES, detail=title))
        for row in sorted(by_game[game_id], key=lambda r, g=game: _variant_order(g, r.variant)):
            board = variant_title(game, row.variant)
            context = f"{title}, {board}"
            entries.append(TableEntry("variant", board, PUZZLES, detail=context))
            if row.best_moves is not None and row.best_seconds is not None:
                best = ngettext("Best alone: {count} move, {seconds} s",
                                "Best alone: {count} moves, {seconds} s",
                                row.best_moves).format(count=row.best_moves,
                                                       seconds=number_text(row.best_seconds, 1))
            else:
                best = _("Solved only with help so far")
            times = (_("Solved once") if row.solved == 1
                     else _("Solved {count} times").format(count=row.solved))
            helped = _(", {count} with help").format(count=row.helped) if row.helped else ""
            solved = f"{times}{helped}"
            entries.append(TableEntry("row", best, PUZZLES, detail=f"{context}: {best}."))
            entries.append(TableEntry("row", solved, PUZZLES, detail=f"{context}: {solved}."))
    return entries


def build_entries(games: Sequence[GameDescriptor], rows: Iterable[GameSummary],
                  puzzles: Iterable[PuzzleSummary],
                  rungs: Mapping[str, str] | None = None) -> list[TableEntry]:
    """Every line of the table: the player's games (each with the level "Match me" plays
    at now, ``rungs[game id]``, already in words), the puzzles, then computer-only
    games."""
    names = _Names(games)
    rows = list(rows)
    puzzles = list(puzzles)
    mine = [r for r in rows if not is_computer_only(r.mode)]
    machines = [r for r in rows if is_computer_only(r.mode)]
    entries = [TableEntry("section", _(SECTION_TITLES[PLAYER]), PLAYER,
                          detail=_(SECTION_TITLES[PLAYER]))]
    if mine:
        entries += _game_rows(names, mine, PLAYER, rungs)
    else:
        note = _("No games of yours recorded yet.")
        entries.append(TableEntry("note", note, PLAYER, detail=note))
    if puzzles:
        entries.append(TableEntry("section", _(SECTION_TITLES[PUZZLES]), PUZZLES,
                                  detail=_(SECTION_TITLES[PUZZLES])))
        entries += _puzzle_rows(names, puzzles)
    if machines:
        title = _(SECTION_TITLES[COMPUTER])
        note = _("Not counted in your results; wins are by seat.")
        entries.append(TableEntry("section", title, COMPUTER, detail=title))
        entries.append(TableEntry("note", note, COMPUTER, detail=note))
        entries += _game_rows(names, machines, COMPUTER)
    return entries
