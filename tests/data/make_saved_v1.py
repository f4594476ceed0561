"""Write the saved-game fixtures of tests/data/saved_v1/ with the code of the day.

Run once, with the version-1 save code (before the move-log format), under a dummy video
driver: ``SDL_VIDEODRIVER=dummy python tests/data/make_saved_v1.py``. Each fixture is a
real scene's save after a few moves (some undone, a New game in some), as a player's
profile held it; tests/engine/storage/test_saved_games_v1.py checks the current code still
resumes them.
Kept for the record: running it with later code would write that code's format.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ["LANGUAGE"] = "en"
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.model.registry import find_game  # noqa: E402
from engine.model.seats import Seat  # noqa: E402
from engine.storage.saved_games import encode  # noqa: E402
from tests.conftest import make_app  # noqa: E402

OUT = Path(__file__).resolve().parent / "saved_v1"
HUMANS = (Seat("human"), Seat("human"))

# (file name, game id, game ID, seats, moves before a New game, moves after, undos)
TURN_BASED = [
    ("tictactoe-3x3k3", "tictactoe", "3x3k3", HUMANS, 5, 2, 1),
    ("tictactoe-4x4k3p3", "tictactoe", "4x4k3p3", (Seat("human"),) * 3, 4, 0, 1),
    ("tictactoe-15x15k5", "tictactoe", "15x15k5", HUMANS, 6, 0, 2),
    ("tictactoe-vs-computer", "tictactoe", "3x3k3", (Seat("human"), Seat("computer", "easy")),
     0, 0, 0),
    ("tictactoe-finished", "tictactoe", "3x3k3", HUMANS, 9, 1, 2),
    ("connect4-7x6", "connect4", "7x6", HUMANS, 9, 3, 2),
    ("grundy-king", "grundy", "king:8x8", HUMANS, 4, 1, 1),
    ("grundy-knight-2t", "grundy", "knight:8x8:2t", HUMANS, 3, 0, 0),
    ("grundy-bachet", "grundy", "bachet:100:10", HUMANS, 5, 2, 1),
    ("grundy-nim", "grundy", "nim:3.5.7", HUMANS, 4, 0, 1),
    ("grundy-graph", "grundy", "graph:0", HUMANS, 2, 1, 0),
]


def turn_based(app, name, game_id, code, seats, before, after, undos) -> None:
    """Play ``before`` moves, a New game and ``after`` moves, undo ``undos``; save."""
    game = find_game(game_id)
    params = game.param_spec().decode(code)
    scene = game.open_scene(app, params, seats=seats, seed=1)
    app.push(scene)
    rng = random.Random(name)
    for count in (before, after):
        for _ in range(count):
            if scene.state.is_terminal():
                break
            assert scene.play_move(rng.choice(sorted(scene.state.legal_moves())))
            app.step([])
        if count is before and after:
            scene.new_game()
    if name == "tictactoe-vs-computer":
        # The human moves, the computer answers, the human moves again.
        for _ in range(2):
            assert scene.play_move(sorted(scene.state.legal_moves())[0])
            while scene.computer_to_move() or scene.ai.busy:
                app.step([])
    for _ in range(undos):
        scene.undo()
    write(name, encode(scene))
    app.pop()


def buttons(app) -> None:
    """Button Madness: presses, an undo, a New game, more presses."""
    game = find_game("button-madness")
    scene = game.open_scene(app, game.param_spec().decode("4x4"))
    app.push(scene)
    scene.press(0, 0)
    scene.press(1, 2)
    scene.press(3, 3)
    scene.undo()
    scene.new_game()
    scene.press(2, 1)
    scene.press(0, 3)
    write("button-madness-4x4", encode(scene))
    app.pop()


def write(name: str, text: str) -> None:
    """Store one fixture."""
    (OUT / f"{name}.json").write_text(text + "\n", encoding="utf-8")
    print("wrote", name)


def main() -> None:
    """Write every fixture."""
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        app = make_app(Path(folder))
        for case in TURN_BASED:
            turn_based(app, *case)
        buttons(app)
        app.quit()
        app.stats.close()


if __name__ == "__main__":
    main()
