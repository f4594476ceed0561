"""Write a new game package that plays at once, for a contributor to edit.

    python tools/new_game.py NAME                    # a two-player game in games/NAME/
    python tools/new_game.py NAME --kind puzzle      # a one-player puzzle
    python tools/new_game.py --count                 # the line counts of both (Markdown)

The package is small but complete: rules as an immutable ``GameState`` (pure Python), a
descriptor, and a scene on the engine's shared screen (``TurnBasedScene`` or
``PuzzleScene``) with drawing and click-to-move. The two-player game is a take-away game
(take one to three counters; the last counter wins) with exact hints and an Easy and a
Perfect computer from the engine's generic negamax; the puzzle is a row of lamps (a press
switches a lamp and its neighbours) with a solver for Hint and Solve. Both pass the
conformance suite (tests/games/test_conformance.py) and show in the launcher at once.

After writing into the real ``games/`` folder it refreshes what a new game changes: it
adds the Hungarian and Czech translations of its own texts (the title is kept as it is
until someone translates it) and runs ``tools/translations.py`` and
``tools/make_docs.py``. ``--folder`` writes into another games package (tests) and runs
nothing. docs/adding-a-game.md is the checklist that follows.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import io
import json
import keyword
import re
import shutil
import subprocess
import sys
import tempfile
import tokenize
from collections.abc import Sequence
from pathlib import Path
from string import Template
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
KINDS = ("two-player", "puzzle")
NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]*")
MAX_NAME = 30
MAX_TITLE = 40
# Names the engine uses for itself (engine.model.descriptor.RESERVED_IDS, read from there).
USAGE_ERROR = 2

# --- the texts a player sees, with their translations (English, Hungarian, Czech) --------
# A new game's marked texts need hu and cs entries (tests/engine/core/test_i18n.py); these
# are written into assets/locale/*/LC_MESSAGES/arcade.po with the game.
TEXTS: dict[str, tuple[str, str, str]] = {
    "take_blurb": (
        "Take one to three counters from the pile; whoever takes the last wins.",
        "Vegyél el egy–három korongot a kupacból; aki az utolsót veszi el, nyer.",
        "Vezmi z hromádky jeden až tři žetony; kdo vezme poslední, vyhrává."),
    "take_help": (
        "Two players take turns taking one, two or three counters from a pile of\n"
        "fifteen. Whoever takes the last counter wins.\n\n"
        "Mouse: click a counter to take it and every counter after it. Keyboard: ←/→\n"
        "choose a counter, Enter or Space takes.\n\n"
        "Hint (H) writes above the counters what each take leads to for the player to\n"
        "move: W n = a win in n moves, L n = a loss in n, with best play.",
        "Két játékos felváltva vesz el egy, két vagy három korongot egy tizenöt korongból "
        "álló kupacból. Aki az utolsó korongot veszi el, nyer.\n\n"
        "Egér: kattints egy korongra, és elveszed azt és az összes utána következőt. "
        "Billentyűzet: ←/→ választ korongot, az Enter vagy a Szóköz elveszi.\n\n"
        "A Tipp (H) a korongok fölé írja, mire vezet egy-egy elvétel a soron következő "
        "játékosnak: W n = győzelem n lépésben, L n = vereség n lépésben, legjobb játékkal.",
        "Dva hráči se střídají a berou jeden, dva nebo tři žetony z hromádky patnácti "
        "žetonů. Kdo vezme poslední žeton, vyhrává.\n\n"
        "Myš: klikni na žeton a vezmeš ho i všechny žetony za ním. Klávesnice: ←/→ "
        "vybírá žeton, Enter nebo mezerník ho bere.\n\n"
        "Tip (H) napíše nad žetony, kam které braní vede hráče na tahu: W n = výhra za "
        "n tahů, L n = prohra za n tahů, při nejlepší hře."),
    "take_won": (
        "{name} took the last counter and wins! New game (N) to play again.",
        "{name} vette el az utolsó korongot, és nyert! Új játék (N) az újrakezdéshez.",
        "{name} vzal poslední žeton a vyhrává! Nová hra (N) začne znovu."),
    "take_how": (
        "click a counter to take it and every counter after it.",
        "kattints egy korongra: elveszed azt és az összes utána következőt.",
        "klikni na žeton: vezmeš ho i všechny žetony za ním."),
    "lamps_blurb": (
        "Press a lamp to switch it and its neighbours; switch every lamp on.",
        "Egy lámpa megnyomása átkapcsolja azt és a szomszédait; kapcsold be mindet.",
        "Stisk lampy přepne ji i její sousedky; rozsviť všechny lampy."),
    "lamps_help": (
        "A row of six lamps, some on, some off. Pressing a lamp switches it and the\n"
        "lamps beside it (on to off, off to on). Switch every lamp on.\n\n"
        "Mouse: click a lamp to press it. Keyboard: ←/→ choose a lamp, Enter or Space\n"
        "presses it.\n\n"
        "Hint (H) frames a lamp to press, Solve (S) plays the fewest presses, Restart (R)\n"
        "goes back to the start and New game (N) deals another row.",
        "Hat lámpa egy sorban, néhány ég, néhány nem. Egy lámpa megnyomása átkapcsolja azt "
        "és a mellette lévőket (az égőt kioltja, a sötétet felkapcsolja). Kapcsold be az "
        "összes lámpát.\n\n"
        "Egér: kattints egy lámpára a megnyomásához. Billentyűzet: ←/→ választ lámpát, az "
        "Enter vagy a Szóköz megnyomja.\n\n"
        "A Tipp (H) bekeretez egy megnyomandó lámpát, a Megold (S) lejátssza a legkevesebb "
        "nyomást, az Elölről (R) visszavisz a kezdethez, az Új játék (N) új sort oszt.",
        "Šest lamp v řadě, některé svítí, jiné ne. Stisk lampy přepne ji i lampy vedle ní "
        "(rozsvícenou zhasne, zhasnutou rozsvítí). Rozsviť všechny lampy.\n\n"
        "Myš: klikni na lampu a stiskneš ji. Klávesnice: ←/→ vybírá lampu, Enter nebo "
        "mezerník ji stiskne.\n\n"
        "Tip (H) orámuje lampu ke stisknutí, Vyřešit (S) zahraje nejmenší počet stisků, "
        "Od začátku (R) vrátí začátek a Nová hra (N) rozdá novou řadu."),
}


def _literal(key: str) -> str:
    """Python source for the English text ``key`` (triple-quoted where it has lines)."""
    text = TEXTS[key][0]
    if "\n" in text:
        assert '"' not in text and "\\" not in text, key
        return f'"""{text}"""'
    return json.dumps(text, ensure_ascii=False)


# --- the files: (name, what it holds, template) --------------------------------------------
# Templates use string.Template: $pkg (the package, "games.NAME"), $cls (the class name's
# start), $game_id, $title (a Python literal), $help and $blurb (literals), $won and $how.

INIT = '''"""$title_text: a game of the collection (see descriptor.py)."""
'''

TAKE_DESCRIPTOR = '''"""$title_text: its declaration, found by engine.model.registry.

Written by tools/new_game.py; docs/adding-a-game.md says what to change and check.
"""

from engine.core.i18n import N_
from engine.model.descriptor import GameDescriptor

# The rules, as the help overlay (F1) shows them.
HELP = N_($help)

GAME = GameDescriptor(
    id="$game_id",
    title=N_($title),
    blurb=N_($blurb),
    scene="$pkg.scene:${cls}Scene",
    rules="$pkg.rules:new_game",
    agents="$pkg.ai:make_agent",
    hints="$pkg.ai:hint_values",
    help="$pkg.descriptor:HELP",
    levels=("easy", "perfect"),
    level_labels={"easy": N_("Easy"), "perfect": N_("Perfect")},
)

DESCRIPTORS = (GAME,)
'''

TAKE_RULES = '''"""$title_text: the rules.

Take one to three counters from a pile; whoever takes the last counter wins. An
immutable engine.model.rules.GameState in pure Python (no pygame): the midend, the
computer players, the hints and the conformance suite all play through it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.core.i18n import N_, Phrase
from engine.model.rules import IllegalMove

# Counters at the start, and the most a player may take at once.
START = 15
MOST = 3


@dataclass(frozen=True)
class Pile:
    """A position: the counters left and the player to move (0 moves first)."""

    left: int = START
    mover: int = 0

    @property
    def num_players(self) -> int:
        """Two players take turns."""
        return 2

    def current_player(self) -> int:
        """The player to move."""
        return self.mover

    def legal_moves(self) -> list[int]:
        """How many counters may be taken (none once the pile is empty)."""
        return list(range(1, min(MOST, self.left) + 1))

    def play(self, move: int) -> Pile:
        """The pile after taking ``move`` counters; IllegalMove if that is not allowed."""
        if move not in self.legal_moves():
            raise IllegalMove(Phrase(N_("{move} is not a legal move here"), move=repr(move)))
        return Pile(self.left - move, 1 - self.mover)

    def is_terminal(self) -> bool:
        """Whether the pile is empty."""
        return self.left == 0

    def returns(self) -> tuple[float, float]:
        """1 for whoever took the last counter, -1 for the other (0 each before the end)."""
        if self.left:
            return (0.0, 0.0)
        return (-1.0, 1.0) if self.mover == 0 else (1.0, -1.0)


def new_game(params: Any, rng: random.Random) -> Pile:
    """The start: a full pile, the first player to move (the descriptor's rules factory)."""
    return Pile()
'''

TAKE_AI = '''"""$title_text: the computer players and the hints.

The engine's generic negamax solves a game this small exactly. No pygame here.
"""

from __future__ import annotations

import threading
from typing import Any

from engine.ai.agent import Agent, EasyAgent
from engine.ai.negamax import Negamax
from engine.ai.perfect import PerfectAgent, negamax_values
from engine.model.rules import Move
from engine.model.seats import Seat
from engine.model.values import MoveValue
from $pkg.rules import Pile


def hint_values(state: Pile, cancel: threading.Event | None = None,
                time_limit: float | None = None) -> dict[Move, MoveValue]:
    """Every legal move's exact value for the player to move (W n, L n: the hints)."""
    return negamax_values(Negamax(cancel=cancel, time_limit=time_limit), state)


def _values(state: Pile, cancel: threading.Event,
            deadline: float | None) -> dict[Move, MoveValue]:
    return negamax_values(Negamax(cancel=cancel, deadline=deadline), state)


def make_agent(params: Any, seat: Seat, seed: int | None) -> Agent:
    """The computer at ``seat.level``: Easy (random, but takes a win) or Perfect."""
    if seat.level == "perfect":
        return PerfectAgent(_values, EasyAgent(seed), seed=seed, fallback_label="Easy")
    return EasyAgent(seed)
'''

TAKE_SCENE = '''"""$title_text: the screen.

The pile as a row of counters under a row for the hints; a click takes the counter
clicked and every counter after it. Seats, the computer, hints, undo, results and saving
come from TurnBasedScene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from engine.core.i18n import _
from engine.model.seats import Seat
from engine.screens.turn_scene import TurnBasedScene
from engine.ui.board.draw import outline_cell
from engine.ui.board.geometry import BoardGeometry
from engine.ui.board.pointer import GridPointer
from engine.ui.value_overlay import draw_values
from $pkg.descriptor import GAME
from $pkg.rules import MOST, START, Pile

if TYPE_CHECKING:
    from engine.runtime.app import App


class ${cls}Scene(TurnBasedScene):
    """Row 0: the hints; row 1: the counters, the last one on the right."""

    def __init__(self, app: App, params: Any = None, seats: tuple[Seat, ...] | None = None,
                 seed: int | None = None) -> None:
        super().__init__(app, GAME, params, Pile(), seats, seed)
        self.pointer = GridPointer()

    def fresh_state(self) -> Pile:
        return Pile()

    def board_aspect(self) -> float:
        return START / 2

    def geometry(self) -> BoardGeometry:
        """The two rows of cells in the board's area of this frame's window."""
        return BoardGeometry(2, START, self.area("board"))

    def board_event(self, event: pygame.event.Event) -> None:
        """A click (or Enter on the keyboard cursor) in a column takes that counter and
        every counter after it."""
        self.pointer.handle(event, self.geometry(),
                            lambda _row, col: self.play_move(self.state.left - col),
                            lambda: (1, max(self.state.left - 1, 0)))

    def draw_board(self, surface: pygame.Surface) -> None:
        p = self.app.theme.palette
        geom = self.geometry()
        state = self.state
        for col in range(state.left):
            rect = geom.cell_rect(1, col)
            takeable = state.left - col <= MOST
            colour = p.players[state.mover] if takeable else p.muted
            pygame.draw.circle(surface, colour, rect.center, rect.width * 0.4)
        if self.show_hints and self.hints and not state.is_terminal():
            draw_values(surface, geom, [((0, state.left - take), value)
                                        for take, value in self.hints.items()], self.app.theme)
        if self.pointer.cursor is not None:
            outline_cell(surface, geom, self.pointer.cursor, p.focus)
        self.draw_player_cards(surface)

    def draw_player_badge(self, surface: pygame.Surface, rect: pygame.Rect, player: int) -> None:
        colour = self.app.theme.palette.players[player]
        pygame.draw.circle(surface, colour, rect.center, min(rect.size) * 0.4)

    def status_text(self) -> str:
        state = self.state
        if state.is_terminal():
            won = _($won)
            return won.format(name=self.player_name(1 - state.mover))  # took the last
        return self.turn_text(_($how))
'''

LAMPS_DESCRIPTOR = '''"""$title_text: its declaration, found by engine.model.registry.

Written by tools/new_game.py; docs/adding-a-game.md says what to change and check.
"""

from engine.core.i18n import N_
from engine.model.descriptor import GameDescriptor

# The rules, as the help overlay (F1) shows them.
HELP = N_($help)

GAME = GameDescriptor(
    id="$game_id",
    title=N_($title),
    blurb=N_($blurb),
    kind="puzzle",
    scene="$pkg.scene:${cls}Scene",
    rules="$pkg.rules:new_game",
    solve="$pkg.rules:solve",
    help="$pkg.descriptor:HELP",
)

DESCRIPTORS = (GAME,)
'''

LAMPS_RULES = '''"""$title_text: the rules.

A row of lamps; pressing one switches it and its neighbours; solved when every lamp is
on. A one-player engine.model.rules.GameState in pure Python (no pygame) whose
is_terminal() means solved, and the solver that Hint and Solve use.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from engine.ai.agent import Cancelled
from engine.core.i18n import N_, Phrase
from engine.model.rules import IllegalMove

# Lamps in the row (with 6 every start can be solved; with 5 or 8 some cannot).
SIZE = 6


@dataclass(frozen=True)
class Lamps:
    """A position: which lamps are on, left to right."""

    lamps: tuple[bool, ...]

    @property
    def num_players(self) -> int:
        """One player: a puzzle."""
        return 1

    def current_player(self) -> int:
        """Always the one player."""
        return 0

    def legal_moves(self) -> list[int]:
        """Any lamp may be pressed."""
        return list(range(len(self.lamps)))

    def play(self, move: int) -> Lamps:
        """The row after pressing lamp ``move``: it and its neighbours switch."""
        if move not in self.legal_moves():
            raise IllegalMove(Phrase(N_("{move} is not a legal move here"), move=repr(move)))
        return Lamps(tuple(on != (abs(i - move) <= 1) for i, on in enumerate(self.lamps)))

    def is_terminal(self) -> bool:
        """Solved: every lamp is on."""
        return all(self.lamps)

    def returns(self) -> tuple[float]:
        """1 once solved, else 0."""
        return (1.0 if self.is_terminal() else 0.0,)


def new_game(params: Any, rng: random.Random) -> Lamps:
    """A random row of lamps, not all on (the descriptor's rules factory)."""
    while True:
        start = Lamps(tuple(rng.random() < 0.5 for _ in range(SIZE)))
        if not start.is_terminal():
            return start


def read_start(data: Any) -> Lamps:
    """A saved start: a list of SIZE 0s and 1s; ValueError for anything else."""
    if not isinstance(data, list) or len(data) != SIZE or any(b not in (0, 1) for b in data):
        raise ValueError(Phrase(N_("a start this puzzle does not have")))
    return Lamps(tuple(bit == 1 for bit in data))


def solve(state: Lamps, cancel: threading.Event,
          progress: Callable[[float], None]) -> list[int] | None:
    """The fewest presses that switch every lamp on (None: there are none).

    A lamp pressed twice changes nothing and the order does not matter, so every set of
    lamps is tried, smallest first (2**SIZE sets; a big puzzle needs a real solver).
    """
    for count in range(len(state.lamps) + 1):
        progress(count / (len(state.lamps) + 1))
        for presses in combinations(range(len(state.lamps)), count):
            if cancel.is_set():
                raise Cancelled
            end = state
            for lamp in presses:
                end = end.play(lamp)
            if end.is_terminal():
                return list(presses)
    return None
'''

LAMPS_SCENE = '''"""$title_text: the screen.

The lamps in a row; a click presses one. The toolbar, moves, clock, Hint, Solve, the win
screen and saving come from PuzzleScene.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from engine.midend.puzzle import PuzzleMidend
from engine.screens.puzzle_scene import PuzzleScene
from engine.ui.board.draw import outline_cell
from engine.ui.board.geometry import BoardGeometry
from engine.ui.board.pointer import GridPointer
from $pkg.descriptor import GAME
from $pkg.rules import SIZE, Lamps, read_start

if TYPE_CHECKING:
    from engine.runtime.app import App


class ${cls}Scene(PuzzleScene):
    """Lit lamps are discs, dark ones rings (not told by colour alone)."""

    game = GAME
    title = GAME.title

    def __init__(self, app: App, params: Any = None) -> None:
        super().__init__(app, PuzzleMidend(GAME.new_game(params)), params=params)
        self.pointer = GridPointer()

    def start_codec(self) -> tuple[Callable[[Lamps], Any], Callable[[Any], Lamps]]:
        """Starts are drawn at random, so a save writes its start: the lamps as 0 and 1."""
        return (lambda start: [int(on) for on in start.lamps]), read_start

    def geometry(self) -> BoardGeometry:
        """The row of lamps in the board's area of this frame's window."""
        return BoardGeometry(1, SIZE, self.area("board"))

    def board_event(self, event: pygame.event.Event) -> None:
        """A click (or Enter on the keyboard cursor) presses a lamp."""
        self.pointer.handle(event, self.geometry(), lambda _row, col: self.play(col),
                            lambda: (0, 0))

    def draw_board(self, surface: pygame.Surface) -> None:
        p = self.app.theme.palette
        geom = self.geometry()
        for col, on in enumerate(self.state.lamps):
            rect = geom.cell_rect(0, col)
            colour = p.win_line if self.flash_on() else p.good if on else p.muted
            pygame.draw.circle(surface, colour, rect.center, rect.width * 0.4, 0 if on else 4)
        for col in self.hinted:
            outline_cell(surface, geom, (0, col), p.accent, 5)
        if self.pointer.cursor is not None:
            outline_cell(surface, geom, self.pointer.cursor, p.focus)
'''

# Per kind: (file, what it holds, template), in the order the checklist names them.
FILES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "two-player": (
        ("__init__.py", "the package", INIT),
        ("descriptor.py", "the declaration the registry finds, and the help text",
         TAKE_DESCRIPTOR),
        ("rules.py", "the rules: an immutable `GameState` (pure Python)", TAKE_RULES),
        ("ai.py", "hints and the Easy and Perfect players (the engine's negamax)", TAKE_AI),
        ("scene.py", "drawing and click to move on `TurnBasedScene`", TAKE_SCENE),
    ),
    "puzzle": (
        ("__init__.py", "the package", INIT),
        ("descriptor.py", "the declaration the registry finds, and the help text",
         LAMPS_DESCRIPTOR),
        ("rules.py", "the rules: a one-player `GameState`, its solver", LAMPS_RULES),
        ("scene.py", "drawing and click to move on `PuzzleScene`", LAMPS_SCENE),
    ),
}
# The texts each kind's files mark for translation (keys of TEXTS), besides the title.
KIND_TEXTS = {"two-player": ("take_blurb", "take_help", "take_won", "take_how"),
              "puzzle": ("lamps_blurb", "lamps_help")}
# Every file the scaffold may write: --force replaces only a folder holding nothing else.
SCAFFOLD_FILES = {name for files in FILES.values() for name, _what, _t in files}


class UsageError(Exception):
    """A name, title or folder the scaffold refuses (exit status 2, nothing written)."""


def class_name(name: str) -> str:
    """``take_away`` -> ``TakeAway`` (the scene class is this plus ``Scene``)."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


def default_title(name: str) -> str:
    """``take_away`` -> ``Take Away``."""
    return " ".join(part.capitalize() for part in name.split("_") if part)


def render(kind: str, name: str, title: str, package: str = "games") -> dict[str, str]:
    """The files of a new ``kind`` game ``name`` in the games package ``package``:
    {file name: text}."""
    keys = dict(zip(("blurb", "help", "won", "how"), KIND_TEXTS[kind], strict=False))
    values = {"pkg": f"{package}.{name}", "cls": class_name(name),
              "game_id": name.replace("_", "-"), "title_text": title,
              "title": json.dumps(title, ensure_ascii=False),
              **{slot: _literal(key) for slot, key in keys.items()}}
    return {file: Template(template).substitute(values) for file, _what, template in FILES[kind]}


def _importable(path: Path) -> None:
    """Put ``path`` first on ``sys.path`` unless it is there already."""
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))


def _engine_names() -> tuple[str, ...]:
    _importable(ROOT)
    from engine.model.descriptor import RESERVED_IDS

    return RESERVED_IDS


def _taken(folder: Path, name: str) -> dict[str, str]:
    """{id or alias: game} of the games in the package ``folder`` and in the real games
    package, except the one in ``folder/name`` itself (being replaced)."""
    _importable(ROOT)
    from engine.model.registry import discover_all

    taken: dict[str, str] = {}
    for package in dict.fromkeys([folder.name, "games"]):
        if package != "games" and not (folder / "__init__.py").exists():
            continue
        added = str(folder.parent) not in sys.path
        _importable(folder.parent)
        try:
            games = discover_all(package).games
        finally:
            if added:
                sys.path.remove(str(folder.parent))
        for game in games:
            if package == folder.name and game.scene.startswith(f"{package}.{name}."):
                continue
            taken.update(dict.fromkeys((game.id, *game.aliases), game.id))
    return taken


def check_request(name: str, title: str, folder: Path, force: bool) -> None:
    """UsageError, saying what is wrong, for a name, title or folder the scaffold refuses."""
    if not NAME_PATTERN.fullmatch(name) or keyword.iskeyword(name) or len(name) > MAX_NAME \
            or "__" in name or name.endswith("_"):
        raise UsageError(f"{name!r} is not a possible game name: use 1 to {MAX_NAME} lower-case "
                         "letters, digits and single underscores, starting with a letter "
                         "(a Python package name such as take_away)")
    game_id = name.replace("_", "-")
    if game_id in _engine_names():
        raise UsageError(f"{name!r} is a name the engine uses itself "
                         f"({', '.join(_engine_names())}): choose another")
    if not title.strip() or len(title) > MAX_TITLE or not title.isprintable():
        raise UsageError(f"the title must be one line of 1 to {MAX_TITLE} characters, "
                         f"not {title!r}")
    target = folder / name
    if target.exists() and not force:
        raise UsageError(f"{target} exists already: choose another name, or --force to "
                         "replace a package this tool wrote")
    if target.exists():
        extra = sorted(p.name for p in target.iterdir()
                       if p.name not in SCAFFOLD_FILES and p.name != "__pycache__")
        if extra:
            raise UsageError(f"{target} holds files this tool never writes "
                             f"({', '.join(extra)}): --force replaces only a scaffold")
    taken = _taken(folder, name)
    for candidate in dict.fromkeys((game_id, name)):
        if candidate in taken:
            raise UsageError(f"{candidate!r} is already a name of the game {taken[candidate]}: "
                             "choose another")


def write_game(kind: str, name: str, title: str, folder: Path = GAMES,
               force: bool = False) -> list[Path]:
    """Check the request, then write the package ``folder/name``; the files written.

    ``folder`` is a games package (made, with an empty ``__init__.py``, if missing).
    """
    if kind not in KINDS:
        raise UsageError(f"--kind must be one of {', '.join(KINDS)}, not {kind!r}")
    folder = folder.resolve()
    check_request(name, title, folder, force)
    if not folder.exists():
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("", encoding="utf-8")
    target = folder / name
    if target.exists():
        shutil.rmtree(target)
    target.mkdir()
    written = []
    for file, text in render(kind, name, title, folder.name).items():
        (target / file).write_text(text, encoding="utf-8")
        written.append(target / file)
    return written


# --- line counts -----------------------------------------------------------------------------

def count_lines(text: str) -> tuple[int, int]:
    """(non-blank lines, code lines) of Python source: code lines are lines holding a
    token that is not a comment, and not inside a docstring, as ``tokenize`` and ``ast``
    see them."""
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                docstrings.update(range(body[0].lineno, (body[0].end_lineno or 0) + 1))
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENCODING, tokenize.ENDMARKER}
    code: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type not in skip:
            code.update(row for row in range(token.start[0], token.end[0] + 1)
                        if row not in docstrings)
    return sum(1 for line in text.splitlines() if line.strip()), len(code)


def line_counts() -> dict[str, list[tuple[str, str, int, int]]]:
    """Per kind, (file, what it holds, non-blank, code) of a game written by the scaffold
    into a temporary folder."""
    out: dict[str, list[tuple[str, str, int, int]]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for kind in KINDS:
            name = "two" if kind == "two-player" else "one"
            folder = Path(scratch) / f"count_{name}"
            folder.mkdir()
            (folder / "__init__.py").write_text("", encoding="utf-8")
            write_game(kind, f"sample_{name}", "Sample", folder)
            what = {file: text for file, text, _t in FILES[kind]}
            out[kind] = [(file, what[file], *count_lines(
                (folder / f"sample_{name}" / file).read_text(encoding="utf-8")))
                for file in what]
    return out


def count_table() -> str:
    """Markdown: the line counts of both kinds (docs/adding-a-game.md's generated block)."""
    lines = ["| kind | file | what it holds | non-blank | code |",
             "| --- | --- | --- | --- | --- |"]
    for kind, rows in line_counts().items():
        for file, what, blank, code in rows:
            lines.append(f"| {kind} | `{file}` | {what} | {blank} | {code} |")
        lines.append(f"| **{kind}** | **all {len(rows)} files** | | "
                     f"**{sum(r[2] for r in rows)}** | **{sum(r[3] for r in rows)}** |")
    return "\n".join(lines) + "\n"


# --- after writing: translations and the generated docs ----------------------------------------

def _tool(name: str) -> ModuleType:
    """tools/NAME.py, imported from its file (tools/ is no package)."""
    spec = importlib.util.spec_from_file_location(f"arcade_tool_{name}",
                                                  ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


def texts_of(kind: str, title: str) -> dict[str, dict[str, str]]:
    """{msgid: {language: translation}} of a new ``kind`` game's marked texts; the title
    is its own translation until someone writes one."""
    table = {TEXTS[key][0]: {"hu": TEXTS[key][1], "cs": TEXTS[key][2]}
             for key in KIND_TEXTS[kind]}
    return {title: {"hu": title, "cs": title}, **table}


def add_translations(root: Path, kind: str, title: str) -> list[str]:
    """Extract and update the catalogues of ``root`` (tools/translations.py), fill in the
    new game's texts where a language lacks them, then compile; the report's lines."""
    from babel.messages.pofile import read_po, write_po

    translations = _tool("translations")
    translations.run(root)  # extract, update (the new texts arrive empty), compile
    table = texts_of(kind, title)
    for lang in translations.languages(root):
        path = translations.locale_dir(root) / lang / "LC_MESSAGES" / "arcade.po"
        with open(path, "rb") as handle:
            catalogue = read_po(handle, locale=lang)
        for message in catalogue:
            if message.id in table and not message.string and lang in table[message.id]:
                message.string = table[message.id][lang]
        with open(path, "wb") as handle:
            write_po(handle, catalogue, width=100, omit_header=False)
    return translations.run(root).lines()


def refresh(root: Path, kind: str, title: str) -> int:
    """Run the generators a new game needs on ``root``; 0 if all is up to date."""
    status = 0
    print("Translations (tools/translations.py):")
    lines = add_translations(root, kind, title)
    for line in lines:
        print(f"  {line}")
    if any(": missing: " in line or ": fuzzy: " in line for line in lines):
        status = 1
    docs = subprocess.run([sys.executable, str(root / "tools" / "make_docs.py")],
                          capture_output=True, text=True, cwd=root)
    print("Generated docs (tools/make_docs.py): "
          + (docs.stderr.strip().replace("\n", "; ") or "nothing to change"))
    return status or docs.returncode


def next_steps(kind: str, name: str, title: str, folder: Path, refreshed: bool) -> str:
    """What the contributor does next."""
    where = folder / name
    steps = [f"Wrote {where}: open it with  python main.py play {name.replace('_', '-')}",
             "Next:",
             f"  1. edit the rules ({where / 'rules.py'}) and the drawing ({where / 'scene.py'})"
             ", and the texts in descriptor.py;",
             "  2. run its checks:  python -m pytest tests/games/test_conformance.py -q "
             f"-m \"not slow\" -k {name.replace('_', '-')}"]
    if refreshed:
        steps.append(f"  3. translate the title {title!r} (kept as it is) and every text you "
                     "change in assets/locale/{hu,cs}/LC_MESSAGES/arcade.po, then run  "
                     "python tools/translations.py")
    else:
        steps.append("  3. (another games folder: no translations or docs were refreshed)")
    steps.append("The whole checklist: docs/adding-a-game.md")
    return "\n".join(steps)


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="tools/new_game.py",
        description="Write a small, complete game package games/NAME/ that plays, passes the "
                    "conformance suite and shows in the launcher at once; then edit its "
                    "rules and drawing (docs/adding-a-game.md).")
    parser.add_argument("name", nargs="?", metavar="NAME",
                        help="the package name: lower-case letters, digits and underscores "
                             "(the game id is the same with dashes)")
    parser.add_argument("--kind", choices=KINDS, default="two-player",
                        help="two-player (a take-away game with hints and a computer) or "
                             "puzzle (a row of lamps with a solver); default: two-player")
    parser.add_argument("--title", help="the title on the launcher (default: from NAME)")
    parser.add_argument("--folder", type=Path, default=GAMES,
                        help="the games package to write into (default: games/); another "
                             "folder gets no translations or docs refreshed")
    parser.add_argument("--force", action="store_true",
                        help="replace games/NAME/ if this tool wrote it (its files are "
                             "deleted first)")
    parser.add_argument("--count", action="store_true",
                        help="print the line counts of a game of each kind (Markdown) and exit")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: see the module docstring. Exit 2 for a refused request."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.count:
        print(count_table(), end="")
        return 0
    if args.name is None:
        parser.error("NAME is required (or --count)")
    title = default_title(args.name) if args.title is None else args.title
    try:
        write_game(args.kind, args.name, title, args.folder, args.force)
    except UsageError as exc:
        print(f"tools/new_game.py: {exc}", file=sys.stderr)
        return USAGE_ERROR
    folder = args.folder.resolve()
    real = folder == GAMES.resolve()
    status = refresh(ROOT, args.kind, title) if real else 0
    print(next_steps(args.kind, args.name, title, folder, real))
    return status


if __name__ == "__main__":
    sys.exit(main())
