"""The tic-tac-toe family's boards and seat set-ups, with their stored forms."""

from __future__ import annotations

import re
from typing import Any

from engine.core.i18n import N_, Phrase, _
from engine.model.descriptor import ParamSpec, Preset
from games.tictactoe.descriptor import GAME
from games.tictactoe.rules import CLASSIC, MNKConfig

MIN_SIDE, MAX_SIDE = 3, 15
# The computer's levels are declared once, in the descriptor.
LEVELS = GAME.levels


PRESETS: tuple[Preset, ...] = (
    Preset(N_("Classic 3×3"), CLASSIC),
    Preset(N_("4×4, 4 in a row"), MNKConfig(4, 4, 4)),
    Preset(N_("5×5, 4 in a row"), MNKConfig(5, 5, 4)),
    # 6 columns × 7 rows: a tall board (its statistics id and opening book say 7x6k4, the
    # rows-first form they have always had).
    Preset(N_("6×7, 4 in a row"), MNKConfig(7, 6, 4)),
    Preset(N_("Gomoku 15×15, 5 in a row"), MNKConfig(15, 15, 5)),
    Preset(N_("Three players, 4×4"), MNKConfig(4, 4, 3, players=3)),
)


def variant_id(config: MNKConfig) -> str:
    """Short id for statistics: ``3x3``, ``4x4k4``, ``15x15k5``, ``4x4-3p``.

    Unlike everything a player reads, these ids are ROWS first (``7x6k4`` is 7 rows by
    6 columns): they are the keys games were recorded under since the first release, so
    they stay as they are and every recorded game stays filed under its own board. The
    statistics screen titles them with :func:`variant_label` (columns × rows).
    """
    if config.players == 3:
        return f"{config.rows}x{config.cols}-3p"
    if config == CLASSIC:
        return "3x3"
    return f"{config.rows}x{config.cols}k{config.k}"


def variant_label(config: MNKConfig) -> str:
    """Human name of a board: a preset's label or ``8×6, 4 in a row`` (columns × rows, as
    everywhere a player reads a board's size; in the current language)."""
    for preset in PRESETS:
        if preset.params == config:
            return _(preset.label)
    return _("{cols}×{rows}, {k} in a row").format(cols=config.cols, rows=config.rows,
                                                    k=config.k)


def validate_config(rows: int, cols: int, k: int, players: int = 2) -> MNKConfig:
    """A playable board: sides 3..15, k 3..min(rows, cols); 3 players only on 4×4 k3.

    Raises ValueError with a message a player can act on.
    """
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise ValueError(Phrase(N_("rows and columns must each be {low} to {high}"),
                                low=MIN_SIDE, high=MAX_SIDE))
    if not MIN_SIDE <= k <= min(rows, cols):
        raise ValueError(Phrase(N_("k must be {low} to {high} on a {cols}×{rows} board"),
                                low=MIN_SIDE, high=min(rows, cols), cols=cols, rows=rows))
    if players == 3 and (rows, cols, k) != (4, 4, 3):
        raise ValueError(Phrase(N_("the three-player game is played on 4×4 with 3 in a row")))
    if players not in (2, 3):
        raise ValueError(Phrase(N_("2 or 3 players")))
    return MNKConfig(rows, cols, k, players)


def config_from_settings(stored: dict | None) -> MNKConfig:
    """The board remembered in settings, or the classic board if absent or invalid."""
    try:
        s = stored or {}
        return validate_config(int(s["rows"]), int(s["cols"]), int(s["k"]),
                               int(s.get("players", 2)))
    except (KeyError, TypeError, ValueError):
        return CLASSIC


class TicTacToeParams(ParamSpec):
    """Boards as parameters: presets and the game ID.

    The game ID is COLUMNS × ROWS with the k after a colon: ``6x7:k4`` is 6 columns by
    7 rows with 4 in a row, ``3x3:k3`` the classic board, ``4x4:k3:p3`` the
    three-player game. Before this form, game IDs were ROWS first with no colon
    (``7x6k4``, ``4x4k3p3``): saved games of format versions 1 and 2 and game IDs a
    player typed hold that form, so :meth:`decode` still reads it, rows first. The colon
    tells the two apart, so no stored id changes its board; square boards read the
    same either way. (An older app refuses a new ID rather than misreading it.)
    """

    type = MNKConfig
    presets = PRESETS

    def validate(self, params: MNKConfig) -> MNKConfig:
        """``params`` if it is a playable board (see :func:`validate_config`)."""
        if not isinstance(params, MNKConfig):
            raise ValueError(f"expected a board, got {params!r}")
        return validate_config(params.rows, params.cols, params.k, params.players)

    def encode(self, params: MNKConfig) -> str:
        """``6x7:k4`` (columns × rows), ``4x4:k3:p3`` for three players."""
        extra = f":p{params.players}" if params.players != 2 else ""
        return f"{params.cols}x{params.rows}:k{params.k}{extra}"

    def decode(self, text: str) -> MNKConfig:
        """A board from a game ID: ``6x7:k4`` (columns × rows), or the older rows-first
        ``7x6k4`` (the same board); ValueError saying what is wrong otherwise."""
        if not isinstance(text, str):
            raise ValueError(Phrase(N_("Invalid game ID {value}: expected COLUMNSxROWS:kK such "
                                       "as 6x7:k4 (:p3 at the end for three players)"),
                                    value=repr(text)))
        cleaned = text.strip().lower()
        match = _GAME_ID.fullmatch(cleaned)
        if match is not None:
            cols, rows, k, players = (int(g) if g else 2 for g in match.groups())
            return validate_config(rows, cols, k, players)
        match = _LEGACY_GAME_ID.fullmatch(cleaned)
        if match is not None:
            rows, cols, k, players = (int(g) if g else 2 for g in match.groups())
            return validate_config(rows, cols, k, players)
        raise ValueError(Phrase(N_("Invalid game ID {value}: expected COLUMNSxROWS:kK such "
                                   "as 6x7:k4 (:p3 at the end for three players)"),
                                value=repr(text)))

    def label(self, params: MNKConfig) -> str:
        return variant_label(params)

    def variant_id(self, params: MNKConfig) -> str:
        return variant_id(params)

    def from_settings(self, stored: Any) -> MNKConfig:
        # Settings keep the fields by name (rows, cols, k, players): no order to misread.
        return config_from_settings(stored)


# The game ID: COLUMNSxROWS:kK[:pP].
_GAME_ID = re.compile(r"([0-9]{1,2})x([0-9]{1,2}):k([0-9]{1,2})(?::p([23]))?")
# The older game ID, ROWS first and without colons (``7x6k4``, ``4x4k3p3``): still read,
# never written.
_LEGACY_GAME_ID = re.compile(r"([0-9]{1,2})x([0-9]{1,2})k([0-9]{1,2})(?:p([23]))?")
SPEC = TicTacToeParams()


def new_game(params: MNKConfig, rng: Any = None) -> Any:
    """The empty board of ``params`` (the descriptor's rules factory)."""
    from games.tictactoe.rules import TicTacToeState

    return TicTacToeState.new(params)
