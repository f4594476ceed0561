"""The Grundy games declare themselves to the engine (found by engine.model.registry)."""

from engine.core.i18n import N_
from engine.model.descriptor import GameDescriptor
from games.grundy.levels import LADDER

GAME = GameDescriptor(
    id="grundy",
    title=N_("Grundy games"),
    blurb=N_("King, Rook, Queen, Knight, Nim, Bachet and games with cycles; "
             "the hint shows every position's Grundy value."),
    preview="games.grundy.preview_render:draw",
    scene="games.grundy.scenes:open_scene",
    params="games.grundy.variants:SPEC",
    rules="games.grundy.variants:new_game",
    deal="games.grundy.variants:deal",
    agents="games.grundy.agents:make_agent",
    hints="games.grundy.ai:hint_values",
    help="games.grundy.help_text:rules",
    smoke="games.grundy.scenes:smoke_variants",
    cli="games.grundy.cli",
    seat_keys=("1", "2"),
    default_kinds=("human", "computer"),
    ladder=LADDER,
    default_level="perfect",
    small=("king:4x4", "rook:4x4:2t", "queen:5x5", "knight:6x6", "bachet:13:3", "nim:1.2.3.4",
           "nim:3.5.7:misere"),
    ladder_variants=("king-8x8", "rook-8x8", "queen-8x8", "knight-8x8", "bachet-100-10",
                     "nim-3.5.7", "graph-0"),
    order=20,
    sounds=("slide", "take", "computer", "illegal", "win", "loss", "draw"),
)

DESCRIPTORS = (GAME,)
