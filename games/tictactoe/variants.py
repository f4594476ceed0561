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
    Preset(N_("7×6, 4 in a row"), MNKConfig(7, 6, 4)),
    Preset(N_("Gomoku 15×15, 5 in a row"), MNKConfig(15, 15, 5)),
    Preset(N_("Three players, 4×4"), MNKConfig(4, 4, 3, players=3)),
)


def variant_id(config: MNKConfig) -> str:
    """Short id for statistics: ``3x3``, ``4x4k4``, ``15x15k5``, ``4x4-3p``."""
    if config.players == 3:
        return f"{config.rows}x{config.cols}-3p"
    if config == CLASSIC:
        return "3x3"
    return f"{config.rows}x{config.cols}k{config.k}"


def variant_label(config: MNKConfig) -> str:
    """Human name of a board: a preset's label or ``6×8, 4 in a row`` (in the current
    language)."""
    for preset in PRESETS:
        if preset.params == config:
            return _(preset.label)
    return _("{rows}×{cols}, {k} in a row").format(rows=config.rows, cols=config.cols,
                                                    k=config.k)


def validate_config(rows: int, cols: int, k: int, players: int = 2) -> MNKConfig:
    """A playable board: sides 3..15, k 3..min(rows, cols); 3 players only on 4×4 k3.

    Raises ValueError with a message a player can act on.
    """
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise ValueError(Phrase(N_("rows and columns must each be {low} to {high}"),
                                low=MIN_SIDE, high=MAX_SIDE))
    if not MIN_SIDE <= k <= min(rows, cols):
        raise ValueError(Phrase(N_("k must be {low} to {high} on a {rows}×{cols} board"),
                                low=MIN_SIDE, high=min(rows, cols), rows=rows, cols=cols))
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
    """Boards as parameters: presets, the game ID ``7x6k4`` (``4x4k3p3`` for three players)."""

    type = MNKConfig
    presets = PRESETS

    def validate(self, params: MNKConfig) -> MNKConfig:
        """``params`` if it is a playable board (see :func:`validate_config`)."""
        if not isinstance(params, MNKConfig):
            raise ValueError(f"expected a board, got {params!r}")
        return validate_config(params.rows, params.cols, params.k, params.players)

    def encode(self, params: MNKConfig) -> str:
        extra = f"p{params.players}" if params.players != 2 else ""
        return f"{params.rows}x{params.cols}k{params.k}{extra}"

    def decode(self, text: str) -> MNKConfig:
        match = _GAME_ID.fullmatch(text.strip().lower())
        if match is None:
            raise ValueError(Phrase(N_("Invalid game ID {value}: expected ROWSxCOLSkK such as "
                                       "7x6k4 (p3 at the end for three players)"),
                                    value=repr(text)))
        rows, cols, k, players = (int(g) if g else 2 for g in match.groups())
        return validate_config(rows, cols, k, players)

    def label(self, params: MNKConfig) -> str:
        return variant_label(params)

    def variant_id(self, params: MNKConfig) -> str:
        return variant_id(params)

    def from_settings(self, stored: Any) -> MNKConfig:
        return config_from_settings(stored)


_GAME_ID = re.compile(r"([0-9]{1,2})x([0-9]{1,2})k([0-9]{1,2})(?:p([23]))?")
SPEC = TicTacToeParams()


def new_game(params: MNKConfig, rng: Any = None) -> Any:
    """The empty board of ``params`` (the descriptor's rules factory)."""
    from games.tictactoe.rules import TicTacToeState

    return TicTacToeState.new(params)
