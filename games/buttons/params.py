"""Button Madness's parameters: the board side n, its game ID ``4x4`` and its start position.

:data:`SPEC` is the engine's :class:`~engine.model.descriptor.ParamSpec` for :class:`ButtonParams`.
The stored form stays ``{"n": 7}`` (what settings held before parameters were generic),
and the statistics id is ``"7x7"`` as it always was, so earlier results still count.

No pygame here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.core.i18n import N_, Phrase, error_text
from engine.model.descriptor import ParamSpec, Preset
from games.buttons.board import MAX_N, Board, CodeError, _parse_size, check_size, generate

# The size menu (− and +) goes from 2×2 to 20×20; codes load any size up to MAX_N.
MIN_MENU_N, MAX_MENU_N = 2, 20
DEFAULT_N = 4  # the board of the puzzle as first published (its codes are 0-65535)


@dataclass(frozen=True)
class ButtonParams:
    """An n×n board, 1 ≤ n ≤ :data:`~games.buttons.board.MAX_N`."""

    n: int = DEFAULT_N

    def __post_init__(self) -> None:
        try:
            check_size(self.n)
        except ValueError:
            raise ValueError(Phrase(
                N_("the board side must be a whole number from 1 to {high}, not {value}"),
                high=MAX_N, value=repr(self.n))) from None


PRESETS: tuple[Preset, ...] = (
    Preset(N_("4×4 (classic)"), ButtonParams(4)),
    *(Preset(f"{n}×{n}", ButtonParams(n)) for n in (2, 3, 5, 6, 7, 8, 10, 15, 20)),
)


class ButtonParamSpec(ParamSpec):
    """Board sides as parameters: presets and the game ID ``NxN`` (``4x4``)."""

    type = ButtonParams
    presets = PRESETS

    def encode(self, params: ButtonParams) -> str:
        """``4x4``."""
        return f"{params.n}x{params.n}"

    def decode(self, text: str) -> ButtonParams:
        """Parameters from a game ID such as ``5x5`` (spaces around ignored); ValueError
        saying what is wrong otherwise."""
        if not isinstance(text, str):
            raise ValueError(Phrase(N_("Invalid game ID {value}: expected text such as 4x4"),
                                    value=repr(text)))
        try:
            return ButtonParams(_parse_size(text.strip()))
        except CodeError as exc:
            raise ValueError(Phrase(N_("Invalid game ID: {error}"),
                                    error=error_text(exc))) from None

    def label(self, params: ButtonParams) -> str:
        """A preset's label, else ``12×12``."""
        for preset in self.presets:
            if preset.params == params:
                return preset.label
        return f"{params.n}×{params.n}"

    def variant_id(self, params: ButtonParams) -> str:
        """The statistics id, ``4x4`` (as recorded before parameters were generic)."""
        return self.encode(params)


SPEC = ButtonParamSpec()


def menu_size(n: int) -> int:
    """``n`` brought into the size menu's range (2 to 20)."""
    return max(MIN_MENU_N, min(MAX_MENU_N, n))


def new_game(params: ButtonParams, rng: random.Random) -> Board:
    """A random solvable, unsolved board of the parameters' size (see ``board.generate``)."""
    board, _presses = generate(SPEC.validate(params).n, rng)
    return board
