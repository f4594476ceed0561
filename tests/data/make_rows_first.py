"""Write the fixtures of tests/data/rows_first/ with the code from before columns × rows.

Run once with the code of commit 3caa768 (tic-tac-toe and Grundy game IDs and statistics
ids rows first, ``7x6k4`` = 7 rows by 6 columns), under a dummy video driver::

    git archive 3caa768 | tar -x -C OLD && cp tests/data/make_rows_first.py OLD/tests/data/
    SDL_VIDEODRIVER=dummy python OLD/tests/data/make_rows_first.py tests/data/rows_first

It writes, as a player's profile held them: ``profile/statistics.sqlite3`` (games played to
the end through the real scenes on non-square boards both ways round), ``profile/settings.json``
(the last boards set up: tic-tac-toe 7 rows × 6 columns, Grundy King 6 rows × 8 columns) and
one saved game per board in ``saved/`` (a game in progress, as the scene saved it).
tests/games/tictactoe/test_board_notation.py checks the current code reads them all as the
same boards. Kept for the record: running it with later code would write that code's forms.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ["LANGUAGE"] = "en"
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.model.game_settings import remember  # noqa: E402
from engine.model.registry import find_game  # noqa: E402
from engine.model.seats import Seat  # noqa: E402
from engine.storage.saved_games import encode  # noqa: E402
from tests.conftest import make_app  # noqa: E402

HUMANS = (Seat("human"), Seat("human"))
# (fixture name, game id, game ID in the rows-first form, games played to the end)
BOARDS = [
    ("tictactoe-7r6c", "tictactoe", "7x6k4", 2),
    ("tictactoe-6r7c", "tictactoe", "6x7k4", 1),
    ("grundy-king-8r6c", "grundy", "king:8x6", 1),
    ("grundy-queen-6r8c-2t", "grundy", "queen:6x8:2t", 1),
]
# The boards the settings remember last (set up with Start, as turn_scene does).
REMEMBERED = {"tictactoe": "7x6k4", "grundy": "king:6x8"}


def main(out: Path) -> None:
    profile = out / "profile"
    profile.mkdir(parents=True, exist_ok=True)
    (out / "saved").mkdir(exist_ok=True)
    app = make_app(profile)
    for name, game_id, code, finished in BOARDS:
        game = find_game(game_id)
        params = game.param_spec().decode(code)
        scene = game.open_scene(app, params, seats=HUMANS, seed=1)
        app.push(scene)
        app.step([])
        rng = random.Random(name)
        for index in range(finished + 1):
            if index:
                scene.new_game()
                app.step([])
            # Random moves to the end (recorded in the statistics), the last game only 5.
            moves = 5 if index == finished else 10_000
            for _ in range(moves):
                if scene.state.is_terminal():
                    break
                assert scene.play_move(rng.choice(sorted(scene.state.legal_moves(),
                                                         key=repr)))
                app.step([])
        (out / "saved" / f"{name}.json").write_text(encode(scene), encoding="utf-8")
        app.pop()
        app.step([])
    for game_id, code in REMEMBERED.items():
        game = find_game(game_id)
        assert remember(app.settings, game, game.param_spec().decode(code), HUMANS) is None
    app.settings.save()
    app.stats.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
