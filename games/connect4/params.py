"""Connect Four's parameters: board presets, the game ID ``7x6`` and statistics ids.

The parameters are :class:`~games.connect4.rules.Connect4Config` itself
(columns × rows, k in a row); :data:`SPEC` is the engine's
:class:`~engine.model.descriptor.ParamSpec` for them. No pygame here.
"""

from __future__ import annotations

import re

from engine.core.i18n import N_, Phrase, _, error_text
from engine.model.descriptor import ParamSpec, Preset
from games.connect4.rules import DEFAULT_K, MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS, Connect4Config

__all__ = ["PRESETS", "SPEC", "Connect4ParamSpec", "Connect4Params"]

Connect4Params = Connect4Config

PRESETS: tuple[Preset, ...] = (
    Preset(N_("7×6 (classic)"), Connect4Config(7, 6)),
    Preset("6×5", Connect4Config(6, 5)),
    Preset("5×4", Connect4Config(5, 4)),
    Preset("8×7", Connect4Config(8, 7)),
    Preset("9×7", Connect4Config(9, 7)),
)

# COLSxROWS, then kK only when k is not 4 (the game ID stays short for the usual game).
_GAME_ID = re.compile(r"([0-9]+)x([0-9]+)(?:k([0-9]+))?")


class Connect4ParamSpec(ParamSpec):
    """Boards as parameters: presets and the game ID ``COLSxROWS`` (``7x6``, ``8x7k5``)."""

    type = Connect4Config
    presets = PRESETS
    # (label, field, lowest, highest): the set-up screen's steppers.
    steppers = ((N_("Columns"), "cols", MIN_COLS, MAX_COLS),
                (N_("Rows"), "rows", MIN_ROWS, MAX_ROWS))

    def encode(self, params: Connect4Config) -> str:
        """``7x6``; ``7x6k5`` when k is not 4."""
        extra = f"k{params.k}" if params.k != DEFAULT_K else ""
        return f"{params.cols}x{params.rows}{extra}"

    def decode(self, text: str) -> Connect4Config:
        """Parameters from a game ID such as ``7x6`` or ``8x7k5`` (case and spaces around
        ignored); ValueError saying what is wrong otherwise."""
        if not isinstance(text, str):
            raise ValueError(Phrase(N_("Invalid game ID {value}: expected text such as 7x6"),
                                    value=repr(text)))
        match = _GAME_ID.fullmatch(text.strip().lower())
        if match is None:
            raise ValueError(Phrase(N_("Invalid game ID {value}: expected COLUMNSxROWS such as "
                                       "7x6 (add k5 for five in a row)"), value=repr(text)))
        cols, rows = int(match[1]), int(match[2])
        k = int(match[3]) if match[3] is not None else DEFAULT_K
        try:
            return Connect4Config(cols, rows, k)
        except ValueError as exc:
            raise ValueError(Phrase(N_("Invalid game ID {value}: {error}"), value=repr(text),
                                    error=error_text(exc))) from None

    def label(self, params: Connect4Config) -> str:
        """A preset's label, else ``8×5`` (``8×5, 5 in a row`` when k is not 4), in the
        current language."""
        for preset in self.presets:
            if preset.params == params:
                return _(preset.label)
        if params.k != DEFAULT_K:
            return _("{cols}×{rows}, {k} in a row").format(cols=params.cols, rows=params.rows,
                                                            k=params.k)
        return f"{params.cols}×{params.rows}"

    def variant_id(self, params: Connect4Config) -> str:
        """The statistics id: the game ID (``7x6``)."""
        return self.encode(params)


SPEC = Connect4ParamSpec()
