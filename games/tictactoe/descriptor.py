"""Tic-tac-toe declares itself to the engine (found by engine.model.registry)."""

from engine.core.i18n import N_
from engine.model.descriptor import GameDescriptor
from games.tictactoe.levels import LADDER

GAME = GameDescriptor(
    id="tictactoe",
    title=N_("Tic-tac-toe"),
    blurb=N_("Classic 3×3, bigger boards with k in a row, gomoku and three players; "
             "human or computer in every seat, with hints."),
    preview="games.tictactoe.preview_render:draw",
    scene="games.tictactoe.scene:TicTacToeScene",
    params="games.tictactoe.variants:SPEC",
    rules="games.tictactoe.variants:new_game",
    agents="games.tictactoe.agents:make_agent",
    hints="games.tictactoe.perfect:move_values",
    notation="games.tictactoe.notation:move_text",
    help="games.tictactoe.help_text:HELP",
    smoke="games.tictactoe.scene:smoke_variants",
    cli="games.tictactoe.cli",
    aliases=("tic-tac-toe", "ttt"),
    seat_keys=("X", "O", "T"),
    ladder=LADDER,
    default_level="hard",
    small=("3x3k3", "3x4k3", "4x3k3"),
    ladder_variants=("3x3", "7x6k4", "15x15k5"),
    order=10,
    sounds=("place", "computer", "illegal", "win", "loss", "draw"),
)

DESCRIPTORS = (GAME,)
