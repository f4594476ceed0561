"""How a game declares itself to the engine: one :class:`GameDescriptor` per game.

Modelled on Simon Tatham's ``struct game`` and OpenSpiel's registered game
types. A game package ``games/<name>/`` holds a module ``descriptor.py`` whose
``DESCRIPTORS`` tuple lists its games; :mod:`engine.registry` finds those
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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.i18n import _

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


@dataclass(frozen=True, eq=False)  # identity: a descriptor is one game, hashable
class GameDescriptor:
    """Everything the engine needs to list, open, test and serve one game.

    Import paths (``"module:attribute"``):

    * ``preview``: ``draw(surface, rect, palette)``, the launcher tile's picture.
    * ``scene``: ``open(app, params=None, **options) -> Scene``; None params: the
      last played (two-player games take ``seats=`` and ``seed=`` options).
    * ``params``: a :class:`ParamSpec` instance.
    * ``rules``: ``new_game(params, rng) -> state``, the start position (a
      ``engine.rules.GameState``; a puzzle's state is a one-player GameState
      whose ``is_terminal()`` means solved).
    * ``agents``: ``make_agent(params, seat, seed) -> Agent`` for a computer seat.
    * ``hints``: ``hint_values(state, cancel, time_limit) -> {move: MoveValue}``.
    * ``help``: the rules text (a string attribute marked with ``N_``), or a function
      that returns it in the current language.
    * ``smoke``: ``smoke(app, frames) -> [names]``, extra variants for ``--smoke``.
    * ``cli``: a module with ``add_commands(subparsers)`` and/or
      ``add_<group>_parsers(subparsers)`` for the shared ``solve`` and ``analyze``.

    Every game is saved when left and resumed (:mod:`engine.saved_games`): its scene's
    ``snapshot(compact)`` and ``restore(data)`` write and replay the move log, so a game
    declares nothing for it.
    """

    id: str
    title: str
    blurb: str
    preview: str
    scene: str
    kind: str = "two-player"
    params: str | None = None
    rules: str | None = None
    agents: str | None = None
    hints: str | None = None
    help: str | None = None
    smoke: str | None = None
    cli: str | None = None
    aliases: tuple[str, ...] = ()
    # Seats: their keys in settings, and the kinds and level of a first game.
    seat_keys: tuple[str, ...] = ("1", "2")
    default_kinds: tuple[str, ...] = ("human", "computer")
    levels: tuple[str, ...] = ()
    level_labels: Mapping[str, str] = field(default_factory=dict)
    default_level: str = ""
    # The difficulty ladder (engine.ai.ladder.Rung s, weakest first): where given, it
    # names the levels, labels them and explains them at the end of the help text.
    ladder: tuple[Any, ...] = ()
    # Game IDs of variants small enough for the conformance suite to check exhaustively.
    small: tuple[str, ...] = ()
    # Launcher position (lower first; ties by title).
    order: int = 100
    # The sound effects its screens play (names from engine.audio.SOUNDS); --smoke
    # checks each one loads and is not silent, so a bundle that lost one fails.
    sounds: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.ladder:
            # The rungs, then "Match me", which plays one of them (see make_agent).
            from engine.ai.ladder import MATCH_RUNG

            rungs = (*self.ladder, MATCH_RUNG)
            object.__setattr__(self, "levels", tuple(rung.level for rung in rungs))
            object.__setattr__(self, "level_labels", {rung.level: rung.label for rung in rungs})
        if not self.id or self.id != self.id.strip().lower() or " " in self.id:
            raise ValueError(f"a game id is lower-case with no spaces, not {self.id!r}")
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.levels and self.default_level not in self.levels:
            raise ValueError(f"{self.id}: default level {self.default_level!r} is not one of "
                             f"{self.levels}")

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
        """``draw(surface, rect, palette)`` for the launcher tile's picture."""
        return load(self.preview)

    def new_game(self, params: Any = None, rng: random.Random | None = None) -> Any:
        """The start position for ``params`` (default parameters if None)."""
        if self.rules is None:
            raise LookupError(f"{self.title} declares no rules factory")
        spec = self.param_spec()
        if params is None and spec is not None:
            params = spec.default()
        return load(self.rules)(params, rng or random.Random())

    def make_agent(self, params: Any, seat: Any, seed: int | None = None,
                   match_outcomes: Sequence[str] = ()) -> Any:
        """The computer player for ``seat``; "Match me" plays the rung the player's
        ``match_outcomes`` (their results against it, in order) have reached."""
        if self.agents is None:
            raise LookupError(f"{self.title} has no computer player")
        from engine.ai.ladder import MATCH

        level = self.match_level(match_outcomes) if seat.level == MATCH else None
        if level is not None:
            seat = dataclasses.replace(seat, level=level)
        return load(self.agents)(params, seat, seed)

    def match_level(self, outcomes: Sequence[str]) -> str | None:
        """The rung "Match me" plays after ``outcomes``; None for a game with no ladder."""
        if not self.ladder:
            return None
        from engine.ai.ladder import match_level

        return match_level(tuple(rung.level for rung in self.ladder), outcomes)

    def hint_function(self) -> Any:
        """``hint_values(state, cancel, time_limit)``, or None where the game has no hints."""
        return load(self.hints) if self.hints else None

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
        if not self.ladder:
            return rules
        from engine.ai.ladder import MATCH_RUNG

        levels = "\n".join(_("{level}: {how}.").format(level=_(rung.label), how=_(rung.how))
                           for rung in (*self.ladder, MATCH_RUNG))
        heading = _("The computer levels, weakest first:")
        return f"{rules}\n\n{heading}\n{levels}"

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
        paths = (self.scene, self.preview, self.params, self.rules, self.agents, self.hints,
                 self.help, self.cli, self.smoke)
        names = [path.partition(":")[0] for path in paths if path is not None]
        return tuple(dict.fromkeys(names))
