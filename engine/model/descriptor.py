"""How a game declares itself to the engine: one :class:`GameDescriptor` per game.

Modelled on Simon Tatham's ``struct game`` and OpenSpiel's registered game
types. A game package ``games/<name>/`` holds a module ``descriptor.py`` whose
``DESCRIPTORS`` tuple lists its games; :mod:`engine.model.registry` finds those
modules by walking the ``games`` package, so no engine file names a game.

Everything heavy is named by import path (``"module:attribute"``) and loaded
only when used, so discovering every game costs a few small imports.

No pygame here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.i18n import _, localize
from engine.model.sound_names import SOUNDS, default_sounds

KINDS = ("two-player", "multi-player", "puzzle")


def load(path: str) -> Any:
    """The object at ``"package.module:attribute"``."""
    module, _sep, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


@dataclass(frozen=True)
class Preset:
    """A named set of parameters (a menu entry)."""

    label: str
    params: Any


class ParamSpec:
    """A game's parameters: default, presets, validation, stored form and game ID.

    Parameters are a frozen dataclass whose fields are whole numbers, booleans
    or short text, and whose ``__post_init__`` raises ValueError for anything
    unplayable. Subclasses set :attr:`type` and :attr:`presets` and write
    :meth:`encode` and :meth:`decode` (the short game-ID string, as in Tatham's
    ``7x6:k4``); the stored form in settings is generic.
    """

    type: type
    presets: tuple[Preset, ...] = ()
    # (label, field, lowest, highest) of the whole-number fields a set-up screen steps.
    steppers: tuple[tuple[str, str, int, int], ...] = ()

    def default(self) -> Any:
        """The parameters of a first game."""
        return self.presets[0].params if self.presets else self.type()

    def validate(self, params: Any) -> Any:
        """``params`` if playable; ValueError (with a message a player can act on) if not."""
        if not isinstance(params, self.type):
            raise ValueError(f"expected {self.type.__name__} parameters, got {params!r}")
        return dataclasses.replace(params)  # runs __post_init__'s checks again

    def encode(self, params: Any) -> str:
        """The short game-ID text of ``params`` (decode gives them back)."""
        raise NotImplementedError

    def decode(self, text: str) -> Any:
        """Parameters from a game ID; ValueError saying what is wrong for bad text."""
        raise NotImplementedError

    def label(self, params: Any) -> str:
        """A player's name for the parameters: a preset's label, or a description (in the
        current language: preset labels are marked with N_)."""
        for preset in self.presets:
            if preset.params == params:
                return _(preset.label)
        return self.encode(params)

    def with_start(self, params: Any, start: Any) -> Any:
        """Parameters like ``params`` whose game starts at ``start`` (a position dealt or
        set by hand), where the game ID can say where a game starts; None (the default)
        where it cannot: such a game has no record (engine.model.records)."""
        return None

    def variant_id(self, params: Any) -> str:
        """The statistics id of ``params`` (by default the game ID)."""
        return self.encode(params)

    def from_variant_id(self, text: str) -> Any:
        """The parameters whose :meth:`variant_id` is ``text``; ValueError if there are none.

        The statistics screen names a recorded variant by its :meth:`label`, so it needs
        the parameters back. Tried: the presets, then the game ID ``text`` itself, then
        ``text`` with its dashes read as the game ID's colons (a common way to make an id
        of a game ID). A candidate counts only if its own variant id is ``text``, so a
        spec whose ids are not game IDs is never misnamed; override for such a spec.
        """
        for preset in self.presets:
            with contextlib.suppress(ValueError, TypeError):
                if self.variant_id(preset.params) == text:
                    return preset.params
        for game_id in dict.fromkeys((text, text.replace("-", ":"))):
            try:
                params = self.decode(game_id)
                if self.variant_id(params) == text:
                    return params
            except (ValueError, TypeError, KeyError, IndexError, NotImplementedError):
                continue
        raise ValueError(f"no parameters have the statistics id {text!r}")

    # --- the stored form: {field: whole number or text} ---------------------------------
    def to_settings(self, params: Any) -> dict[str, str | int]:
        """Parameters as settings store them (booleans as 0/1)."""
        out: dict[str, str | int] = {}
        for f in dataclasses.fields(params):
            value = getattr(params, f.name)
            out[f.name] = int(value) if isinstance(value, bool) else value
        return out

    def from_settings(self, stored: Mapping[str, Any] | None) -> Any:
        """Parameters from settings; missing fields take their defaults, and anything
        invalid gives :meth:`default` (never an error: settings may be hand-edited)."""
        if not stored:
            return self.default()
        try:
            base = self.default()
            changes = {}
            for f in dataclasses.fields(base):
                if f.name not in stored:
                    continue
                value, current = stored[f.name], getattr(base, f.name)
                if isinstance(current, bool):
                    if value not in (0, 1, True, False):
                        raise ValueError(f.name)
                    value = bool(value)
                elif isinstance(current, int) and (isinstance(value, bool)
                                                   or not isinstance(value, int)):
                    raise ValueError(f.name)
                elif isinstance(current, str) and not isinstance(value, str):
                    raise ValueError(f.name)
                changes[f.name] = value
            return dataclasses.replace(base, **changes)
        except (TypeError, ValueError):
            return self.default()


class DescriptorError(ValueError):
    """A descriptor that breaks the contract: ``game`` (its id, or its title where the id is
    itself wrong), the ``field`` at fault and what is wrong with it (``problem``)."""

    def __init__(self, game: str, field_name: str, problem: str) -> None:
        super().__init__(f"game {game!r}: field {field_name!r}: {problem}")
        self.game, self.field, self.problem = game, field_name, problem


# A game id (and an alias) as typed on the command line and used as a settings key.
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
# Names a game id may not take because the engine already uses them in the same place:
# ``build/build.py --family all`` builds every game; ``play``, ``solve``, ``analyze`` and
# ``review`` are the command line's own commands (a game's ``cli`` may add a command named
# after its id); ``--smoke`` lists what it opened by game id beside ``launcher`` and ``statistics``.
# (A sound's name is no such place: ids and sound names never meet.)
RESERVED_IDS = ("all", "play", "solve", "analyze", "review", "launcher", "statistics")
# ``package.module:attribute`` (the fields that name an object) and ``package.module``.
_DOTTED = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
OBJECT_PATH = re.compile(_DOTTED + r":[A-Za-z_][A-Za-z0-9_]*")
MODULE_PATH = re.compile(_DOTTED)
# The fields that name an object by import path; ``cli`` names a module. (A field listed
# here that a version of the descriptor lacks is simply not checked.)
OBJECT_FIELDS = ("preview", "scene", "params", "rules", "agents", "hints", "help", "smoke",
                 "solve", "notation", "deal")
REQUIRED_FIELDS = ("id", "title", "blurb", "scene")
SEAT_KINDS = ("human", "computer")


def _is_text_tuple(value: Any) -> bool:
    return isinstance(value, tuple) and all(isinstance(v, str) for v in value)


@dataclass(frozen=True, eq=False)  # identity: a descriptor is one game, hashable
class GameDescriptor:
    """Everything the engine needs to list, open, test and serve one game.

    Required: ``id``, ``title``, ``blurb`` and ``scene``; everything else is optional,
    with a default derived from ``kind`` (see :meth:`validate`, which runs when the
    descriptor is made: a mistake raises :class:`DescriptorError` naming the game and
    the field, and the registry skips that game and shows the error).

    Import paths (``"module:attribute"``):

    * ``preview``: ``draw(surface, rect, palette)``, the launcher tile's picture; None:
      the launcher draws the title's initial on a tile of its own.
    * ``scene``: ``open(app, params=None, **options) -> Scene``; None params: the
      last played (two-player games take ``seats=`` and ``seed=`` options).
    * ``params``: a :class:`ParamSpec` instance.
    * ``rules``: ``new_game(params, rng) -> state``, the start position (a
      ``engine.model.rules.GameState``; a puzzle's state is a one-player GameState
      whose ``is_terminal()`` means solved).
    * ``agents``: ``make_agent(params, seat, seed) -> Agent`` for a computer seat; None:
      every seat is human and the set-up offers no computer.
    * ``hints``: ``hint_values(state, cancel, time_limit) -> {move: MoveValue}``.
    * ``help``: the rules text (a string attribute marked with ``N_``), or a function
      that returns it in the current language.
    * ``smoke``: ``smoke(app, frames) -> [names]``, extra variants for ``--smoke``.
    * ``cli``: a module with ``add_commands(subparsers)`` and/or
      ``add_<group>_parsers(subparsers)`` for the shared ``solve`` and ``analyze``.
    * ``solve`` (puzzles): ``solve(state, cancel, progress) -> moves | None``, moves that
      played in order from ``state`` reach a solved position (None: it cannot be solved).
      ``cancel`` is a ``threading.Event`` (raise :class:`engine.ai.agent.Cancelled` once it
      is set), ``progress`` takes fractions 0..1. It is :class:`engine.midend.puzzle.PuzzleHelp`'s
      solver for the shared puzzle screen's Hint and Solve, and the conformance suite
      replays its moves on every small variant.
    * ``notation``: ``move_text(state, move) -> str``, a move of ``state`` in the game's own
      notation (a grid's cell ``b2``), for the move list and the review; None: the move's
      plain text (:meth:`move_text`).
    * ``deal``: ``deal(params, rng) -> state``, a start dealt at random for a game between
      two computers, so that their games differ where every game from the one start would
      be alike (as engines' matches start from an opening suite); None: they start at
      ``new_game``. A dealt start has a record only where the game ID can say where it
      starts (:meth:`ParamSpec.with_start`).

    Every game is saved when left and resumed (:mod:`engine.storage.saved_games`): its scene's
    ``snapshot(compact)`` and ``restore(data)`` write and replay the move log, so a game
    declares nothing for it.
    """

    id: str
    title: str
    blurb: str
    preview: str | None = None
    scene: str = ""
    kind: str = "two-player"
    params: str | None = None
    rules: str | None = None
    agents: str | None = None
    hints: str | None = None
    help: str | None = None
    smoke: str | None = None
    cli: str | None = None
    solve: str | None = None
    notation: str | None = None
    deal: str | None = None
    aliases: tuple[str, ...] = ()
    # Seats: their keys in settings, and the kinds and level of a first game. No
    # default_kinds: human against the computer where the game has agents, else humans.
    seat_keys: tuple[str, ...] = ("1", "2")
    default_kinds: tuple[str, ...] | None = None
    levels: tuple[str, ...] = ()
    level_labels: Mapping[str, str] = field(default_factory=dict)
    default_level: str = ""
    # The difficulty ladder (engine.model.levels.Rung s, weakest first): where given, it
    # names the levels, labels them and explains them at the end of the help text.
    ladder: tuple[Any, ...] = ()
    # Game IDs of variants small enough for the conformance suite to check exhaustively.
    small: tuple[str, ...] = ()
    # Variant ids the ladder is graded on (one per set of recipes at least): the variety
    # and the same-moves-under-load tests play their adjacent rungs (discovered here).
    ladder_variants: tuple[str, ...] = ()
    # Launcher position (lower first; ties by title).
    order: int = 100
    # The sound effects its screens play (names from engine.ui.audio.SOUNDS); --smoke
    # checks each one loads and is not silent, so a bundle that lost one fails. None:
    # the engine's screens' own set for the kind (engine.model.sound_names.default_sounds).
    sounds: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        self.validate()
        if self.ladder:
            # The rungs, then "Match me", which plays one of them (see make_agent).
            from engine.model.levels import MATCH_RUNG

            rungs = (*self.ladder, MATCH_RUNG)
            object.__setattr__(self, "levels", tuple(rung.level for rung in rungs))
            object.__setattr__(self, "level_labels", {rung.level: rung.label for rung in rungs})
            if not self.default_level:
                object.__setattr__(self, "default_level", self.ladder[len(self.ladder) // 2]
                                   .level)
        elif self.levels and not self.default_level:
            object.__setattr__(self, "default_level", self.levels[0])
        if self.default_kinds is None:
            computer = ("computer",) if self.agents is not None and self.kind != "puzzle" \
                else ("human",)
            kinds = (("human",) + computer * (len(self.seat_keys) - 1))[:len(self.seat_keys)]
            object.__setattr__(self, "default_kinds", kinds)
        if self.sounds is None:
            object.__setattr__(self, "sounds", default_sounds(self.kind, self.agents is not None))
        if self.levels and self.default_level not in self.levels:
            self._fail("default_level", f"{self.default_level!r} is not one of {self.levels}")

    # --- the contract --------------------------------------------------------------------
    def _fail(self, field_name: str, problem: str) -> None:
        name = self.id if isinstance(self.id, str) and self.id else repr(self.title)
        raise DescriptorError(name, field_name, problem)

    def validate(self) -> None:
        """Check every field; :class:`DescriptorError` names the first one that is wrong.

        Only the form is checked (no module named by a path is imported here: discovery
        stays a few small imports); the conformance suite opens and plays each game.
        """
        for name in REQUIRED_FIELDS:
            value = getattr(self, name)
            if not isinstance(value, str):
                self._fail(name, f"must be text, not {type(value).__name__}")
            if name != "blurb" and not value.strip():
                self._fail(name, "is required")
        if not ID_PATTERN.fullmatch(self.id):
            self._fail("id", "must be 1 to 40 lower-case letters, digits or dashes, starting "
                             f"with a letter or digit, not {self.id!r}")
        if self.id in RESERVED_IDS:
            self._fail("id", f"{self.id!r} is taken by the engine ({', '.join(RESERVED_IDS)})")
        if self.kind not in KINDS:
            self._fail("kind", f"must be one of {', '.join(KINDS)}, not {self.kind!r}")
        for name in OBJECT_FIELDS:
            value = getattr(self, name, None)
            if value is not None and (not isinstance(value, str)
                                      or not OBJECT_PATH.fullmatch(value)):
                self._fail(name, f"must be an import path 'package.module:name', not {value!r}")
        if self.cli is not None and (not isinstance(self.cli, str)
                                     or not MODULE_PATH.fullmatch(self.cli)):
            self._fail("cli", f"must be a module name 'package.module', not {self.cli!r}")
        self._check_names()
        self._check_seats()
        self._check_levels()
        if not _is_text_tuple(self.small):
            self._fail("small", f"must be a tuple of game IDs, not {self.small!r}")
        if not isinstance(self.order, int) or isinstance(self.order, bool):
            self._fail("order", f"must be a whole number, not {self.order!r}")
        if self.sounds is not None:
            if not _is_text_tuple(self.sounds):
                self._fail("sounds", f"must be a tuple of sound names, not {self.sounds!r}")
            unknown = [s for s in self.sounds if s not in SOUNDS]
            if unknown:
                self._fail("sounds", f"{', '.join(map(repr, unknown))} not among the engine's "
                                     f"sounds ({', '.join(SOUNDS)})")
            if len(set(self.sounds)) != len(self.sounds):
                self._fail("sounds", "lists a sound twice")

    def _check_names(self) -> None:
        if not _is_text_tuple(self.aliases):
            self._fail("aliases", f"must be a tuple of text, not {self.aliases!r}")
        for alias in self.aliases:
            if not ID_PATTERN.fullmatch(alias) or alias in RESERVED_IDS:
                self._fail("aliases", f"{alias!r} is not a possible game name (as 'id')")
            if alias == self.id:
                self._fail("aliases", f"{alias!r} is the game's own id")

    def _check_seats(self) -> None:
        keys = self.seat_keys
        if not _is_text_tuple(keys) or not keys or not all(keys) \
                or len(set(keys)) != len(keys):
            self._fail("seat_keys", f"must be a tuple of distinct, non-empty texts, not {keys!r}")
        kinds = self.default_kinds
        if kinds is None:
            return
        if not _is_text_tuple(kinds) or any(k not in SEAT_KINDS for k in kinds):
            self._fail("default_kinds", f"must be a tuple of 'human' or 'computer', not {kinds!r}")
        if len(kinds) > len(keys):
            self._fail("default_kinds", f"has {len(kinds)} seats, but seat_keys only "
                                        f"{len(keys)}")
        if "computer" in kinds and self.agents is None:
            self._fail("default_kinds", "seats a computer, but the game declares no agents")

    def _check_levels(self) -> None:
        if not isinstance(self.ladder, tuple):
            self._fail("ladder", f"must be a tuple of engine.ai.ladder.Rung, not {self.ladder!r}")
        for rung in self.ladder:
            if not all(isinstance(getattr(rung, a, None), str) for a in ("level", "label", "how")):
                self._fail("ladder", f"{rung!r} is not a rung (level, label, how)")
        if self.ladder and self.agents is None:
            self._fail("ladder", "is given, but the game declares no agents")
        if not _is_text_tuple(self.levels) or len(set(self.levels)) != len(self.levels):
            self._fail("levels", f"must be a tuple of distinct texts, not {self.levels!r}")
        if self.levels and self.agents is None:
            self._fail("levels", "are given, but the game declares no agents")
        labels = self.level_labels
        if not isinstance(labels, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in labels.items()):
            self._fail("level_labels", f"must map levels to texts, not {labels!r}")
        if not self.ladder and set(labels) - set(self.levels):
            self._fail("level_labels", f"labels {sorted(set(labels) - set(self.levels))} "
                                       "that are not levels")
        if not isinstance(self.default_level, str):
            self._fail("default_level", f"must be text, not {self.default_level!r}")

    # --- loading what the paths name -------------------------------------------------------
    @property
    def is_puzzle(self) -> bool:
        """Whether this is a one-player puzzle (run by the puzzle midend)."""
        return self.kind == "puzzle"

    def param_spec(self) -> ParamSpec | None:
        """The game's parameters (None: it has none)."""
        return load(self.params) if self.params else None

    def open_scene(self, app: Any, params: Any = None, **options: Any) -> Any:
        """A new scene playing this game (``params`` None: the last ones played).

        ``options`` go to the scene (two-player games take ``seats`` and ``seed``).
        """
        return load(self.scene)(app, params, **options)

    def preview_painter(self) -> Any:
        """``draw(surface, rect, palette)`` for the launcher tile's picture; None where the
        game declares none (the launcher then draws a tile of its own)."""
        return load(self.preview) if self.preview else None

    def new_game(self, params: Any = None, rng: random.Random | None = None) -> Any:
        """The start position for ``params`` (default parameters if None)."""
        if self.rules is None:
            raise LookupError(f"{self.title} declares no rules factory")
        spec = self.param_spec()
        if params is None and spec is not None:
            params = spec.default()
        return load(self.rules)(params, rng or random.Random())

    def deal_start(self, params: Any, rng: random.Random) -> Any:
        """A start for a game between two computers: one dealt by the game's ``deal``
        (their games then differ), else :meth:`new_game`'s."""
        if self.deal is None:
            return self.new_game(params, rng)
        spec = self.param_spec()
        if params is None and spec is not None:
            params = spec.default()
        return load(self.deal)(params, rng)

    def make_agent(self, params: Any, seat: Any, seed: int | None = None,
                   match_outcomes: Sequence[str] = ()) -> Any:
        """The computer player for ``seat``; "Match me" plays the rung the player's
        ``match_outcomes`` (their results against it, in order) have reached."""
        if self.agents is None:
            raise LookupError(f"{self.title} has no computer player")
        from engine.model.levels import MATCH

        level = self.match_level(match_outcomes) if seat.level == MATCH else None
        if level is not None:
            seat = dataclasses.replace(seat, level=level)
        return load(self.agents)(params, seat, seed)

    def match_level(self, outcomes: Sequence[str]) -> str | None:
        """The rung "Match me" plays after ``outcomes``; None for a game with no ladder."""
        if not self.ladder:
            return None
        from engine.model.levels import match_level

        return match_level(tuple(rung.level for rung in self.ladder), outcomes)

    def hint_function(self) -> Any:
        """``hint_values(state, cancel, time_limit)``, or None where the game has no hints."""
        return load(self.hints) if self.hints else None

    def move_text(self, state: Any, move: Any) -> str:
        """``move`` (legal in ``state``) in the game's notation; the move's plain text where
        the game declares none."""
        if self.notation:
            return str(load(self.notation)(state, move))
        if isinstance(move, tuple):
            return ".".join(str(part) for part in move)
        return str(move)

    def variant_title(self, variant_id: str) -> str | None:
        """A player's name for the recorded variant ``variant_id`` (``"Classic 8×8"``), or None
        when the game cannot tell (an id from an older version, say)."""
        spec = self.param_spec()
        if spec is None:
            return None
        try:
            return _(spec.label(spec.from_variant_id(variant_id)))
        except (ValueError, TypeError, KeyError, IndexError, NotImplementedError):
            return None

    def level_title(self, level: str) -> str:
        """A player's name for a computer level (its label, else the word capitalised), in
        the current language."""
        return _(self.level_labels.get(level) or level.capitalize())

    def help_text(self) -> str:
        """The rules, for the help overlay, in the current language."""
        if not self.help:
            return _("No help for {game} yet.").format(game=_(self.title))
        text = load(self.help)  # marked with N_, or a function that translates
        rules = text() if callable(text) else _(text)
        return self.with_levels(rules)

    def levels_text(self) -> str:
        """The computer levels, weakest first, each with what it does, generated from the
        ladder in the current language ("" without a ladder). The only place a help text
        describes the levels, so that it cannot drift from what they do."""
        if not self.ladder:
            return ""
        from engine.model.levels import MATCH_RUNG

        # A rung's text may be a Phrase made from its recipe (its numbers filled in).
        levels = "\n".join(_("{level}: {how}.").format(level=_(rung.label),
                                                      how=localize(rung.how))
                           for rung in (*self.ladder, MATCH_RUNG))
        heading = _("The computer levels, weakest first:")
        return f"{heading}\n{levels}"

    def with_levels(self, rules: str) -> str:
        """``rules`` (already in the current language) followed by :meth:`levels_text`."""
        levels = self.levels_text()
        return f"{rules}\n\n{levels}" if levels else rules

    def smoke_variants(self, app: Any, frames: Any) -> list[str]:
        """Open the game's extra variants for ``--smoke`` (none if it declares no hook)."""
        return load(self.smoke)(app, frames) if self.smoke else []

    def add_cli(self, commands: Any, groups: dict[str, Any]) -> None:
        """Let the game add its own commands, and subcommands to the shared groups."""
        if self.cli is None:
            return
        module = importlib.import_module(self.cli)
        if hasattr(module, "add_commands"):
            module.add_commands(commands)
        for group, parsers in groups.items():
            adder = getattr(module, f"add_{group}_parsers", None)
            if adder is not None:
                adder(parsers)

    def modules(self) -> tuple[str, ...]:
        """The modules this descriptor names, in order (the build lists them as hidden
        imports: its import scan cannot see string imports)."""
        paths = (self.scene, *(getattr(self, name, None) for name in OBJECT_FIELDS
                               if name != "scene"), self.cli)
        names = [path.partition(":")[0] for path in paths if path is not None]
        return tuple(dict.fromkeys(names))
