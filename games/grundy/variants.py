"""The Grundy family's games and set-ups, their stored forms and statistics ids."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

from engine.core.i18n import N_, Phrase, _, ngettext
from engine.model.descriptor import ParamSpec, Preset
from games.grundy.descriptor import GAME

LEVELS = GAME.levels  # declared once, in the descriptor
BOARD_GAMES = ("king", "rook", "queen", "knight")
GAMES = (*BOARD_GAMES, "bachet", "nim", "graph")
GAME_LABELS = {"king": N_("King"), "rook": N_("Rook"), "queen": N_("Queen"),
               "knight": N_("Knight"), "bachet": N_("Bachet"), "nim": N_("Nim"),
               "graph": N_("Graph")}
MIN_SIDE, MAX_SIDE = 3, 32
# The game ID's marker of a size written columns × rows (``king:6x8:cxr``); a size without
# it is rows first, the older form (see GrundyParams).
COLS_FIRST = "cxr"
# The game ID's last part when a game starts elsewhere than usual: ``king:8x8:@5.6`` (the
# token on row 5, column 6, from 0 at the top left), ``queen:8x8:2t:@7.7+5.4``, ``graph:0:@3``.
START = "@"
NIM_PRESETS: tuple[tuple[int, ...], ...] = ((3, 5, 7), (1, 2, 3, 4), (2, 5, 9, 11), (4, 4),
                                            (1, 3, 5, 7, 9))
SEAT_KEYS = ("1", "2")
# Nim heaps a player may type: how many heaps, and pebbles in each (all drawn at once).
NIM_MAX_HEAPS, NIM_MAX_PEBBLES = 8, 100


def parse_heaps(text: str) -> tuple[int, ...]:
    """Heap sizes typed by a player ("3 5 7", "3, 5, 7" or "3.5.7"); ValueError with a
    message the player can act on when they are not 1 to :data:`NIM_MAX_HEAPS` whole
    numbers from 1 to :data:`NIM_MAX_PEBBLES`."""
    parts = text.replace(",", " ").replace(".", " ").split()
    if not parts:
        raise ValueError(Phrase(N_("Type the heap sizes, e.g. 3 5 7.")))
    heaps = []
    for part in parts:
        if not (part.isascii() and part.isdigit()) or len(part) > 6:
            raise ValueError(Phrase(N_("“{text}” is not a whole number: type sizes like 3 5 7."),
                                    text=part[:12]))
        heaps.append(int(part))
    check_heaps(tuple(heaps))
    return tuple(heaps)


def check_heaps(heaps: tuple[int, ...]) -> None:
    """ValueError, in the player's words, unless ``heaps`` are playable Nim heaps."""
    if not 1 <= len(heaps) <= NIM_MAX_HEAPS:
        raise ValueError(Phrase(N_("Nim needs 1 to {high} heaps, not {count}."),
                                high=NIM_MAX_HEAPS, count=len(heaps)))
    if any(isinstance(h, bool) or not isinstance(h, int) for h in heaps):
        raise ValueError(Phrase(N_("Heap sizes are whole numbers.")))
    if any(not 1 <= h <= NIM_MAX_PEBBLES for h in heaps):
        raise ValueError(Phrase(N_("Each heap holds 1 to {high} pebbles."), high=NIM_MAX_PEBBLES))


@dataclass(frozen=True)
class GrundySetup:
    """Everything the set-up screen chooses, for any game of the family."""

    game: str = "king"
    rows: int = 8
    cols: int = 8
    tokens: int = 1
    heap: int = 100
    max_take: int = 10
    nim: int = 0  # index into NIM_PRESETS
    misere: bool = False
    graph: int = 0  # index into the built-in graphs
    nim_heaps: tuple[int, ...] = ()  # heaps typed by the player; () means the preset
    # Where a game starts, when not where the game's rules start it (a start dealt for two
    # computers, or set by hand, written in its record's game ID): a board's tokens' squares
    # as row, column, row, column … (from 0 at the top left), a graph's node as (node,);
    # () is the usual start. Never stored in settings, never part of the statistics id.
    start: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ValueError(Phrase(N_("game must be one of {choices}, not {value}"),
                                    choices=", ".join(GAMES), value=repr(self.game)))
        if not (MIN_SIDE <= self.rows <= MAX_SIDE and MIN_SIDE <= self.cols <= MAX_SIDE):
            raise ValueError(Phrase(N_("board sides must be {low} to {high}"),
                                    low=MIN_SIDE, high=MAX_SIDE))
        if not 1 <= self.tokens <= 4:
            raise ValueError(Phrase(N_("1 to 4 tokens")))
        if not 1 <= self.heap <= 1000 or not 1 <= self.max_take <= 100:
            raise ValueError(Phrase(N_("heap 1 to 1000, take 1 to 100")))
        if not 0 <= self.nim < len(NIM_PRESETS):
            raise ValueError(Phrase(N_("unknown Nim preset")))
        if self.graph < 0:
            raise ValueError(Phrase(N_("unknown graph")))
        if self.nim_heaps:
            object.__setattr__(self, "nim_heaps", tuple(self.nim_heaps))
            check_heaps(self.nim_heaps)
            if self.nim_heaps in NIM_PRESETS:
                # One set-up, one form: typed heaps equal to a preset are that preset.
                object.__setattr__(self, "nim", NIM_PRESETS.index(self.nim_heaps))
                object.__setattr__(self, "nim_heaps", ())
        if self.start:
            object.__setattr__(self, "start", tuple(self.start))
            self._check_start()

    def _check_start(self) -> None:
        """ValueError unless ``start`` is a start this set-up can have."""
        if any(isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in self.start):
            raise ValueError(Phrase(N_("a start is written in whole numbers")))
        if self.is_board:
            rows, cols = self.start[0::2], self.start[1::2]
            if (len(self.start) != 2 * self.tokens or max(rows) >= self.rows
                    or max(cols) >= self.cols):
                raise ValueError(Phrase(N_("the start must be squares on the board, one for "
                                           "each token")))
        elif self.game == "graph":
            from games.grundy.graphs import BUILTIN

            if len(self.start) != 1 or self.start[0] >= BUILTIN[self.graph % len(BUILTIN)].size:
                raise ValueError(Phrase(N_("the start must be one of the graph's nodes")))
        else:
            raise ValueError(Phrase(N_("only the board and graph games start elsewhere")))

    @property
    def heaps(self) -> tuple[int, ...]:
        """Nim's starting heaps: the typed ones, else the preset's."""
        return self.nim_heaps or NIM_PRESETS[self.nim]

    @property
    def is_board(self) -> bool:
        """Whether this is a token-on-a-chessboard game."""
        return self.game in BOARD_GAMES

    def label(self) -> str:
        """Human name, e.g. ``Queen 8×8, 2 tokens`` or ``Nim 3, 5, 7 (misère)``, in the
        current language."""
        name = _(GAME_LABELS[self.game])
        if self.is_board:
            # Columns × rows, as every board size in the arcade.
            if self.tokens > 1:
                return ngettext("{game} {cols}×{rows}, {count} token",
                                "{game} {cols}×{rows}, {count} tokens", self.tokens).format(
                    game=name, cols=self.cols, rows=self.rows, count=self.tokens)
            return f"{name} {self.cols}×{self.rows}"
        if self.game == "bachet":
            return ngettext("Bachet: {count} pebble, take 1–{most}",
                            "Bachet: {count} pebbles, take 1–{most}", self.heap).format(
                                count=self.heap, most=self.max_take)
        if self.game == "nim":
            heaps = ", ".join(map(str, self.heaps))
            if self.misere:
                return _("Nim {heaps} (misère)").format(heaps=heaps)
            return _("Nim {heaps}").format(heaps=heaps)
        from games.grundy.graphs import BUILTIN

        return _("Graph: {name}").format(name=_(BUILTIN[self.graph % len(BUILTIN)].name))

    def variant_id(self) -> str:
        """Short id for statistics: ``king-8x6``, ``queen-8x8-2t``, ``bachet-100-10``...

        A board's size here is ROWS first (``king-8x6`` is 8 rows by 6 columns), unlike
        everything a player reads: these are the keys games were recorded under since the
        first release, kept so that every recorded game stays filed under its own board.
        The statistics screen titles them with :meth:`label` (columns × rows).
        """
        if self.is_board:
            extra = f"-{self.tokens}t" if self.tokens > 1 else ""
            return f"{self.game}-{self.rows}x{self.cols}{extra}"
        if self.game == "bachet":
            return f"bachet-{self.heap}-{self.max_take}"
        if self.game == "nim":
            heaps = ".".join(map(str, self.heaps))
            return f"nim-{heaps}" + ("-misere" if self.misere else "")
        return f"graph-{self.graph}"

    @classmethod
    def from_settings(cls, stored: dict[str, Any] | None) -> GrundySetup:
        """Rebuild from settings; anything invalid gives the default King 8×8."""
        try:
            s = dict(stored or {})
            s["misere"] = bool(s.get("misere", 0))
            # Typed heaps are stored as text ("3.5.7"): settings hold text and numbers.
            s["nim_heaps"] = parse_heaps(s["nim_heaps"]) if s.get("nim_heaps") else ()
            return cls(**{k: s[k] for k in cls.__dataclass_fields__ if k in s and k != "start"})
        except (TypeError, ValueError):
            return cls()


class GrundyParams(ParamSpec):
    """The family's set-ups as parameters; game IDs like ``king:8x8``, ``queen:8x8:2t``,
    ``bachet:100:10``, ``nim:3.5.7`` (``:misere``), ``graph:2``.

    A board that is not square is written COLUMNS × ROWS with ``:cxr`` after the size:
    ``king:6x8:cxr`` is 6 columns by 8 rows (``queen:6x8:cxr:2t`` with two tokens). Before,
    sizes were ROWS first with no marker (``king:8x6``); saved games of format versions 1
    and 2 hold that form, so :meth:`decode` still reads a size without the marker rows
    first. A square board is the same either way and is written without the marker.
    """

    type = GrundySetup
    presets = (
        Preset(N_("King 8×8"), GrundySetup()),
        Preset(N_("Rook 8×8"), GrundySetup(game="rook")),
        Preset(N_("Queen 8×8 (Wythoff)"), GrundySetup(game="queen")),
        Preset(N_("Knight 8×8"), GrundySetup(game="knight")),
        Preset(N_("Bachet: 100 pebbles, take 1–10"), GrundySetup(game="bachet")),
        Preset(N_("Nim 3, 5, 7"), GrundySetup(game="nim")),
        Preset(N_("Graph"), GrundySetup(game="graph")),
    )

    def encode(self, params: GrundySetup) -> str:
        text = self._encode_setup(params)
        if not params.start:
            return text
        if params.is_board:
            squares = zip(params.start[0::2], params.start[1::2], strict=True)
            return f"{text}:{START}" + "+".join(f"{r}.{c}" for r, c in squares)
        return f"{text}:{START}{params.start[0]}"

    @staticmethod
    def _encode_setup(params: GrundySetup) -> str:
        if params.is_board:
            extra = f":{params.tokens}t" if params.tokens > 1 else ""
            if params.rows == params.cols:
                return f"{params.game}:{params.rows}x{params.cols}{extra}"
            return f"{params.game}:{params.cols}x{params.rows}:{COLS_FIRST}{extra}"
        if params.game == "bachet":
            return f"bachet:{params.heap}:{params.max_take}"
        if params.game == "nim":
            heaps = ".".join(map(str, params.heaps))
            return f"nim:{heaps}" + (":misere" if params.misere else "")
        return f"graph:{params.graph}"

    def decode(self, text: str) -> GrundySetup:
        parts = text.strip().lower().split(":")
        try:
            if parts[-1].startswith(START):
                start = parts.pop()[len(START):]
                squares = start.split("+") if parts[0] in BOARD_GAMES else [start]
                numbers = tuple(_number(x) for square in squares for x in square.split("."))
                return dataclasses.replace(self._decode(parts), start=numbers)
            return self._decode(parts)
        except (ValueError, IndexError, KeyError):
            raise ValueError(Phrase(N_("Invalid game ID {value}: expected e.g. king:8x8, "
                                       "king:6x8:cxr (6 columns, 8 rows), queen:8x8:2t, "
                                       "bachet:100:10, nim:3.5.7, nim:3.5.7:misere or graph:0, "
                                       "with a start such as king:8x8:@5.6"),
                                    value=repr(text))) from None

    @staticmethod
    def _decode(parts: list[str]) -> GrundySetup:
        game = parts[0]
        if game in BOARD_GAMES and len(parts) in (3, 4) and parts[2] == COLS_FIRST:
            # Columns × rows, the marker after the size: ``king:6x8:cxr``.
            cols, rows = (_number(x) for x in parts[1].split("x"))
            del parts[2]
        elif game in BOARD_GAMES:
            # No marker: rows first, as every game ID was before (``king:8x6``).
            rows, cols = (_number(x) for x in parts[1].split("x"))
        if game in BOARD_GAMES and len(parts) in (2, 3):
            tokens = _number(parts[2].removesuffix("t")) if len(parts) == 3 else 1
            if len(parts) == 3 and not parts[2].endswith("t"):
                raise ValueError(parts[2])
            return GrundySetup(game=game, rows=rows, cols=cols, tokens=tokens)
        if game == "bachet" and len(parts) == 3:
            return GrundySetup(game=game, heap=_number(parts[1]), max_take=_number(parts[2]))
        if game == "nim" and len(parts) in (2, 3):
            heaps = tuple(_number(x) for x in parts[1].split("."))
            if len(parts) == 3 and parts[2] != "misere":
                raise ValueError(parts[2])
            return GrundySetup(game=game, nim_heaps=heaps, misere=len(parts) == 3)
        if game == "graph" and len(parts) == 2:
            from games.grundy.graphs import BUILTIN

            index = _number(parts[1])
            if index >= len(BUILTIN):
                raise ValueError(index)
            return GrundySetup(game=game, graph=index)
        raise ValueError(game)

    def label(self, params: GrundySetup) -> str:
        return params.label()

    def with_start(self, params: GrundySetup, start: Any) -> GrundySetup | None:
        """``params`` starting at ``start``: a board's tokens or a graph's node, the first
        player to move (a position the game ID can say); None for anything else."""
        from games.grundy.board import TokenState
        from games.grundy.graphs import GraphState

        if isinstance(start, TokenState) and params.is_board and start.to_move == 0:
            numbers = tuple(x for square in start.tokens for x in square)
        elif (isinstance(start, GraphState) and params.game == "graph" and start.to_move == 0
              and start == GraphState(start.graph, start.node)):
            numbers = (start.node,)
        else:
            return None
        try:
            return dataclasses.replace(params, start=numbers)
        except ValueError:
            return None

    def variant_id(self, params: GrundySetup) -> str:
        return params.variant_id()

    def from_settings(self, stored: Any) -> GrundySetup:
        return GrundySetup.from_settings(stored)

    def to_settings(self, params: GrundySetup) -> dict[str, str | int]:
        stored = super().to_settings(dataclasses.replace(params, start=()))
        stored["nim_heaps"] = ".".join(map(str, params.nim_heaps))
        del stored["start"]  # a game's start, not the set-up's
        return stored


def _number(text: str) -> int:
    """A whole number written with ASCII digits only (no sign, no spaces)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 6:
        raise ValueError(text)
    return int(text)


SPEC = GrundyParams()


def new_game(params: GrundySetup, rng: Any = None) -> Any:
    """The start position of ``params``: tokens, heaps or a graph (the rules factory); a
    board's tokens start where the first player can win (see games.grundy.starts), or
    where ``params.start`` says."""
    if params.is_board:
        from games.grundy.board import BoardConfig, TokenState
        from games.grundy.starts import fair_start

        config = BoardConfig(params.game, params.rows, params.cols, params.tokens)
        if params.start:
            return TokenState.start(config, list(zip(params.start[0::2], params.start[1::2],
                                                     strict=True)))
        return fair_start(config)
    if params.game in ("bachet", "nim"):
        from games.grundy.heaps import HeapState

        return HeapState.start(heap_config(params))
    from games.grundy.graphs import BUILTIN, GraphState

    graph = BUILTIN[params.graph % len(BUILTIN)]
    return GraphState(graph, params.start[0]) if params.start else GraphState.start(graph)


def deal(params: GrundySetup, rng: random.Random) -> Any:
    """A start dealt for two computers (the descriptor's ``deal``), so that their games
    differ: a board's tokens on squares dealt at random where the first player wins (see
    games.grundy.starts.dealt_start), a graph's token on a node dealt so; heaps, whose
    games differ anyway, and a start the game ID names, as :func:`new_game` gives them."""
    if params.start or params.game in ("bachet", "nim"):
        return new_game(params)
    if params.is_board:
        from games.grundy.board import BoardConfig
        from games.grundy.starts import dealt_start

        return dealt_start(BoardConfig(params.game, params.rows, params.cols, params.tokens),
                           rng)
    from games.grundy.graphs import BUILTIN
    from games.grundy.starts import dealt_node

    return dealt_node(BUILTIN[params.graph % len(BUILTIN)], rng)


def heap_config(params: GrundySetup) -> Any:
    """The heaps of a Bachet or Nim set-up."""
    from games.grundy.heaps import HeapConfig

    if params.game == "bachet":
        return HeapConfig("bachet", (params.heap,), params.max_take)
    return HeapConfig("nim", params.heaps, None, params.misere)


def save_state(state: Any) -> dict[str, Any]:
    """A position of any game of the family as JSON: how the family's screens save a start
    set by hand (their ``start_codec``); version-1 saves wrote every position so."""
    from games.grundy import board, graphs, heaps

    if isinstance(state, board.TokenState):
        return board.save_state(state)
    if isinstance(state, heaps.HeapState):
        return heaps.save_state(state)
    return graphs.save_state(state)


def load_state(params: GrundySetup, data: object) -> Any:
    """The position :func:`save_state` wrote, in a game of ``params`` (a saved start, or a
    version-1 save's position: games.grundy.saved_v1); ValueError, saying what is wrong,
    for anything else."""
    if params.is_board:
        from games.grundy.board import BoardConfig
        from games.grundy.board import load_state as load_tokens

        return load_tokens(BoardConfig(params.game, params.rows, params.cols, params.tokens),
                           data)
    if params.game in ("bachet", "nim"):
        from games.grundy.heaps import load_state as load_heaps

        return load_heaps(heap_config(params), data)
    from games.grundy.graphs import BUILTIN
    from games.grundy.graphs import load_state as load_graph

    return load_graph(BUILTIN[params.graph % len(BUILTIN)], data)
