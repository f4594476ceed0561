"""Connect Four declares itself to the engine (found by engine.model.registry)."""

from engine.core.i18n import N_
from engine.model.descriptor import GameDescriptor
from games.connect4.levels import LADDER

GAME = GameDescriptor(
    id="connect4",
    title=N_("Connect Four"),
    blurb=N_("Drop discs into columns and line up four; boards from 4×4 to 9×8, "
             "an exact solver behind Perfect and the hints."),
    preview="games.connect4.preview_render:draw",
    scene="games.connect4.scene:Connect4Scene",
    params="games.connect4.params:SPEC",
    rules="games.connect4.rules:new_game",
    agents="games.connect4.agents:make_agent",
    hints="games.connect4.solver:move_values",
    notation="games.connect4.notation:move_text",
    help="games.connect4.help_text:HELP",
    smoke="games.connect4.scene:smoke_variants",
    cli="games.connect4.cli",
    aliases=("connect-four", "c4"),
    seat_keys=("X", "O"),
    default_kinds=("human", "computer"),
    ladder=LADDER,
    default_level="medium",
    small=("4x4", "5x4"),
    ladder_variants=("7x6",),
    order=15,
    sounds=("drop", "computer", "illegal", "win", "loss", "draw"),
)

DESCRIPTORS = (GAME,)
