"""Button Madness declares itself to the engine (found by engine.model.registry)."""

from engine.core.i18n import N_
from engine.model.descriptor import GameDescriptor

GAME = GameDescriptor(
    id="button-madness",
    title=N_("Button Madness"),
    blurb=N_("Lights Out on a torus: each press flips a button and its four neighbours "
             "between solid and ringed. Make every button solid."),
    kind="puzzle",
    preview="games.buttons.preview_render:draw",
    scene="games.buttons.scene:open_scene",
    params="games.buttons.params:SPEC",
    rules="games.buttons.params:new_game",
    help="games.buttons.help_text:rules",
    smoke="games.buttons.scene:smoke_variants",
    cli="games.buttons.cli",
    solve="games.buttons.solver:solve_moves",
    aliases=("buttons", "lights-out"),
    small=("2x2", "3x3", "4x4"),
    order=30,
    sounds=("flip", "solved", "illegal"),
)

DESCRIPTORS = (GAME,)
