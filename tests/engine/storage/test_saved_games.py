"""Games survive leaving: real clicks and keys, Back or Esc, reopening from the launcher,
a new App on the same profile, damaged saves, a full disk and two copies of the arcade."""

from __future__ import annotations

import errno
import json
import os
import re
import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from engine.midend.puzzle import PuzzleMidend
from engine.model.registry import all_games, find_game
from engine.model.seats import Seat
from engine.screens.launcher import LauncherScene
from engine.screens.loading_scene import LoadingScene
from engine.storage.saved_games import MAX_SAVE_BYTES, SAVE_VERSION, open_game
from games.buttons.board import Board, generate
from games.buttons.board import load_state as load_board
from games.buttons.board import save_state as save_board
from games.buttons.scene import ButtonMadnessScene
from games.connect4.scene import Connect4Scene
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import (
    click,
    click_widget,
    grid_centre,
    hot_seat,
    key,
    make_app,
    near,
    run_until,
)

CTRL = pygame.KMOD_LCTRL


# --- helpers ---------------------------------------------------------------------------------


def saved(profile: Path, game_id: str) -> Path:
    """Where a game's save lives in the profile."""
    return profile / "saved" / f"{game_id}.json"


def set_aside(profile: Path, game_id: str) -> list[Path]:
    """The saves of ``game_id`` moved aside as damaged."""
    folder = profile / "saved"
    return sorted(folder.glob(f"{game_id}.json.corrupt-*")) if folder.exists() else []


def cell(scene: TicTacToeScene, row: int, col: int) -> tuple[float, float]:
    """Design point of a tic-tac-toe cell's centre."""
    cfg = scene.config
    return grid_centre(tuple(scene.layout()["board"]), cfg.rows, cfg.cols, row, col)


def play(app, cells: list[tuple[int, int]]) -> None:
    """Click the cells of the tic-tac-toe game on top, one after another."""
    for r, c in cells:
        click(app, *cell(app.top, r, c))


def open_tile(app, game_id: str):
    """Click the game's tile on the launcher; the scene that opened (a big save opens
    behind the Loading screen: frames run until it is replaced)."""
    assert isinstance(app.top, LauncherScene)
    if game_id == "tictactoe":
        hot_seat(app)  # these tests click for both players (a resumed game keeps its seats)
    click_widget(app, game_id)
    app.step([])
    run_until(app, lambda: not isinstance(app.top, LoadingScene), timeout=120, pause=0)
    return app.top


def close_app(app) -> None:
    """Close the window as the player does (the QUIT event), then free the stores."""
    app.handle(pygame.event.Event(pygame.QUIT))
    assert not app.running
    app.stats.close()


def mark_pixel(app, scene: TicTacToeScene, row: int, col: int) -> bool:
    """Whether the cell's row through its centre shows the colour of its mark's player."""
    geom = scene.geometry()
    rect = geom.cell_rect(row, col)
    owner = scene.state.cell(row, col)
    colour = app.theme.palette.players[owner]
    return any(near(app.screen.get_at((x, rect.centery)), colour, 40)
               for x in range(rect.left, rect.right))


MOVES = [(1, 1), (0, 0), (2, 2), (0, 2)]


# --- resuming --------------------------------------------------------------------------------


def test_back_keeps_the_game_and_the_tile_resumes_board_seats_and_history(app, profile) -> None:
    scene = open_tile(app, "tictactoe")
    play(app, MOVES)
    rows = scene.state.to_rows()
    assert rows == ["O.O", ".X.", "..X"]
    click_widget(app, "Back")
    assert isinstance(app.top, LauncherScene)
    assert saved(profile, "tictactoe").is_file()

    resumed = open_tile(app, "tictactoe")
    assert isinstance(resumed, TicTacToeScene) and resumed is not scene
    assert resumed.state == scene.state and resumed.state.to_rows() == rows
    assert resumed.seats == scene.seats
    assert resumed.history.index == 4 and len(resumed.history) == 5
    app.step([])
    assert mark_pixel(app, resumed, 1, 1) and mark_pixel(app, resumed, 0, 2)
    assert "O to move" not in resumed.status_text() and "X to move" in resumed.status_text()
    # Undo works back to the empty board, Redo forward again.
    for _ in range(4):
        click_widget(app, "Undo")
    assert resumed.state.moves_made == 0 and not resumed.can_undo()
    key(app, pygame.K_y, CTRL)
    key(app, pygame.K_y, CTRL)
    assert resumed.state.to_rows() == ["O..", ".X.", "..."]
    # The game goes on from the resumed position with clicks.
    play(app, [(2, 0)])
    assert resumed.state.cell(2, 0) == 0 and not resumed.can_redo()


def action_width(app, game_id: str) -> int:
    """How wide the accent-coloured action line ("Play ▸" / "Resume ▸") of a full tile is
    drawn, in pixels: the columns of its bottom band holding the palette's accent."""
    app.step([])
    app.draw()
    tile = app.top.ui.find(game_id)
    assert tile.style == "full"
    rect = app.viewport.map_rect(tile.rect)
    band = range(rect.bottom - rect.height // 8, rect.bottom)
    accent = app.theme.palette.accent
    columns = [x for x in range(rect.left, rect.right)
               if any(near(app.screen.get_at((x, y)), accent, 30) for y in band)]
    assert columns, "no action line drawn"
    return columns[-1] - columns[0]


def test_a_tile_with_a_game_left_says_resume(profile) -> None:
    """Issue 28: the tiles said "Play" even when opening them resumes the game left."""
    app = make_app(profile)
    try:
        assert app.top.debug_state()["resumable"] == []
        play_width = action_width(app, "tictactoe")
        assert action_width(app, "connect4") == play_width  # both say "Play ▸"
        open_tile(app, "tictactoe")
        play(app, MOVES[:2])
        key(app, pygame.K_ESCAPE)
        assert isinstance(app.top, LauncherScene)
        assert app.top.debug_state()["resumable"] == ["tictactoe"]
        assert action_width(app, "tictactoe") > play_width  # "Resume ▸" is wider
        assert action_width(app, "connect4") == play_width
    finally:
        close_app(app)
    # A new app on the profile finds the file.
    again = make_app(profile)
    try:
        assert again.top.debug_state()["resumable"] == ["tictactoe"]
        assert action_width(again, "tictactoe") > action_width(again, "connect4")
    finally:
        close_app(again)


def test_esc_and_enter_resume_and_a_new_app_on_the_profile_resumes_too(profile) -> None:
    app = make_app(profile)
    scene = open_tile(app, "tictactoe")
    play(app, MOVES[:3])
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, LauncherScene)
    key(app, pygame.K_TAB)  # the first tile is tic-tac-toe's
    key(app, pygame.K_RETURN)
    assert isinstance(app.top, TicTacToeScene) and app.top.state == scene.state
    play(app, [MOVES[3]])
    expected = app.top.state
    close_app(app)  # the window closed with the game on screen

    again = make_app(profile)
    try:
        resumed = open_tile(again, "tictactoe")
        assert resumed.state == expected and resumed.history.index == 4
        assert not again.notices
        for _ in range(4):
            click_widget(again, "Undo")
        assert resumed.state.moves_made == 0
        click_widget(again, "Redo")
        assert resumed.state.moves_made == 1 and resumed.state.cell(1, 1) == 0
    finally:
        close_app(again)


def test_new_game_stays_undoable_after_resuming(app) -> None:
    scene = open_tile(app, "tictactoe")
    play(app, MOVES[:2])
    before = scene.state
    key(app, pygame.K_n)  # New game
    assert scene.state.moves_made == 0
    key(app, pygame.K_ESCAPE)
    resumed = open_tile(app, "tictactoe")
    assert resumed.state.moves_made == 0
    click_widget(app, "Undo")
    assert resumed.state == before, "Undo goes back past the New game"
    click_widget(app, "Redo")
    assert resumed.state.moves_made == 0


@pytest.mark.slow
def test_a_finished_game_resumes_finished_and_is_counted_once(app) -> None:
    scene = open_tile(app, "tictactoe")
    play(app, [(0, 0), (1, 0), (1, 1), (2, 0), (2, 2)])  # X wins on the diagonal
    assert scene.state.winner == 0
    assert app.stats.totals_by_game()["tictactoe"][0] == 1
    run_until(app, lambda: app.top is not scene, timeout=5)  # the result panel
    click_widget(app, "Back")
    assert isinstance(app.top, LauncherScene)

    resumed = open_tile(app, "tictactoe")
    app.step([], dt=1.0)
    assert app.top is resumed, "a resumed finished game shows its board, not its panel"
    assert resumed.state.winner == 0 and "X wins" in resumed.status_text()
    click_widget(app, "Undo")
    assert resumed.state.winner is None
    click_widget(app, "Redo")  # the same game ends again: not a second result
    assert resumed.state.winner == 0
    app.step([], dt=1.0)
    assert app.stats.totals_by_game()["tictactoe"][0] == 1


@pytest.mark.slow
def test_connect_four_resumes_its_computer_seat_which_plays_on(app) -> None:
    scene = open_tile(app, "connect4")
    assert isinstance(scene, Connect4Scene) and scene.seats[1].is_computer

    def drop(col: int) -> None:
        cfg = app.top.config
        click(app, *grid_centre(tuple(app.top.layout()["board"]), cfg.rows + 1, cfg.cols, 1,
                                col))

    drop(3)
    run_until(app, lambda: len(scene.state.moves) == 2, message="the computer answers")
    moves = scene.state.moves
    click_widget(app, "Back")

    resumed = open_tile(app, "connect4")
    assert resumed.state.moves == moves and resumed.seats == scene.seats
    assert resumed.seats[1] == Seat("computer", "medium")
    drop(0)
    run_until(app, lambda: len(resumed.state.moves) == 4, message="the computer plays on")
    assert resumed.state.moves[:3] == (*moves, 0)
    # Against the computer, Undo goes back to the human's turn, back to the start.
    click_widget(app, "Undo")
    click_widget(app, "Undo")
    assert resumed.state.moves == ()


@pytest.mark.slow
def test_pause_and_hints_resume(app) -> None:
    open_tile(app, "tictactoe")
    click_widget(app, "Setup")
    for name in ("X computer", "O computer", *("X level-", "O level-") * 3, "Start"):
        click_widget(app, name)
    cvc = app.top
    assert isinstance(cvc, TicTacToeScene) and cvc.all_computers()
    key(app, pygame.K_SPACE)  # pause before the computer's first move
    assert cvc.paused
    key(app, pygame.K_h)
    assert cvc.show_hints
    key(app, pygame.K_ESCAPE)
    resumed = open_tile(app, "tictactoe")
    assert resumed.paused and resumed.show_hints and resumed.all_computers()
    assert resumed.seats == (Seat("computer", "easy"), Seat("computer", "easy"))
    assert "Paused" in resumed.status_text()
    app.step([], dt=5.0)
    assert resumed.state.moves_made == 0, "a paused game stays paused"
    key(app, pygame.K_SPACE)
    run_until(app, lambda: resumed.state.moves_made >= 1, message="the computer resumes")


@pytest.mark.slow
def test_button_madness_resumes_board_presses_undo_timer_and_help(profile) -> None:
    app = make_app(profile)
    scene = open_tile(app, "button-madness")
    assert isinstance(scene, ButtonMadnessScene)
    presses = [(0, 0), (1, 2)]
    if scene.board.press(0, 0).press(1, 2).is_solved:  # (a board those two presses solve)
        presses = [(0, 0), (2, 3)]
    start = scene.board

    def press(r: int, c: int) -> None:
        click(app, *app.viewport.to_design(scene.geometry().cell_center(r, c)))

    for r, c in presses:
        press(r, c)
        time.sleep(0.15)
        app.step([])
    board, elapsed = scene.board, scene.puzzle.elapsed
    assert scene.presses() == 2 and elapsed >= 0.15
    click_widget(app, "Show solution")
    assert scene.show_solution and scene.helped
    key(app, pygame.K_ESCAPE)
    left_at = scene.puzzle.elapsed
    time.sleep(0.4)  # off screen: the clock must not run

    reopened = time.monotonic()
    resumed = open_tile(app, "button-madness")
    scene = resumed
    assert resumed.board == board and resumed.presses() == 2
    assert resumed.show_solution and resumed.helped
    # The clock went on from where it stopped, and ran at most while the tile opened.
    ran = resumed.puzzle.elapsed - left_at
    assert -0.05 < ran <= time.monotonic() - reopened + 0.01, "the clock paused off screen"
    time.sleep(0.2)
    app.step([])
    # (The save is made as the screen leaves, a few milliseconds before its clock stops.)
    assert resumed.puzzle.elapsed >= left_at + 0.15, "the clock runs again on screen"
    click_widget(app, "Undo")
    click_widget(app, "Undo")
    assert resumed.board == start and resumed.presses() == 0
    click_widget(app, "Redo")
    assert resumed.presses() == 1
    # The marks of the shown solution are drawn (the solver runs again for the board).
    run_until(app, lambda: resumed.marks is not None, message="the solution comes back")
    shown, read_at = resumed.puzzle.elapsed, time.monotonic()
    close_app(app)
    time.sleep(0.3)  # the arcade is closed: the clock must not run

    again = make_app(profile)
    try:
        scene = open_tile(again, "button-madness")
        assert scene.board == resumed.board and scene.presses() == 1
        assert scene.show_solution and scene.helped
        # Saved as the window closed (the clock ran until then), resumed from there.
        ran = scene.puzzle.elapsed - shown
        assert -0.001 <= ran <= time.monotonic() - read_at - 0.3 + 0.01
        click_widget(again, "Undo")
        assert scene.board == start
        click_widget(again, "Redo")
        click_widget(again, "Redo")
        assert scene.board == board and not scene.can_redo()
    finally:
        close_app(again)


@pytest.mark.slow
def test_every_game_resumes_from_its_tile(app, profile) -> None:
    """Whatever the game, its tile reopens the game left: same position and history."""
    for game in all_games():
        scene = open_tile(app, game.id)
        for _ in range(3):
            if hasattr(scene, "play_move"):
                legal = list(scene.state.legal_moves())
                if scene.state.is_terminal() or scene.computer_to_move():
                    break
                scene.play_move(legal[len(legal) // 2])
            else:
                scene.press(0, 0)
        state = scene.state if hasattr(scene, "play_move") else scene.board
        index = scene.history.index
        key(app, pygame.K_ESCAPE)
        while not isinstance(app.top, LauncherScene):
            key(app, pygame.K_ESCAPE)
        resumed = open_tile(app, game.id)
        now = resumed.state if hasattr(resumed, "play_move") else resumed.board
        assert now == state and resumed.history.index == index, game.id
        assert saved(profile, game.id).is_file()
        key(app, pygame.K_ESCAPE)
    assert not [n for n in app.notices if "could not" in n.lower()], app.notices


# --- damaged saves ---------------------------------------------------------------------------


def a_real_save(profile: Path) -> dict:
    """A save of a tic-tac-toe game (X in the centre, O in a corner), as JSON."""
    app = make_app(profile)
    open_tile(app, "tictactoe")
    play(app, MOVES[:2])
    close_app(app)
    return json.loads(saved(profile, "tictactoe").read_text())


def damaged(kind: str, good: dict) -> bytes:
    """A damaged version of a good save."""
    text = json.dumps(good)
    if kind == "garbage":
        return b"\x00\xffthis is not a saved game\x80"
    if kind == "truncated":
        return text[:len(text) // 2].encode()
    if kind == "not an object":
        return b"[1, 2, 3]"
    if kind == "deeply nested":
        return b"[" * 100_000 + b"]" * 100_000
    bad = json.loads(text)
    state = bad["state"]
    if kind == "wrong types":
        state["log"][1][1] = {"rows": [1, 2, 3]}
    elif kind == "seats of the wrong kind":
        state["seats"] = ["human", "human"]
    elif kind == "a taken square":
        state["log"][-1][1] = state["log"][1][1]
    elif kind == "a move off the board":
        state["log"][-1][1] = 99
    elif kind == "play after a win":
        state["log"] = [[0], [0, 0], [0, 3], [0, 1], [0, 4], [0, 2], [0, 5]]
    elif kind == "index out of range":
        state["index"] = 99
    elif kind == "another version":
        bad["version"] = SAVE_VERSION + 1
    elif kind == "params no longer valid":
        bad["params"] = "99x99k3"
    elif kind == "another game":
        bad["game"] = "connect4"
    elif kind == "NaN":
        assert '"paused": false' in text
        return text.replace('"paused": false', '"paused": NaN').encode()
    elif kind == "a huge number":
        state["next_serial"] = "HUGE"
        return json.dumps(bad).replace('"HUGE"', "9" * 5000).encode()
    else:
        raise AssertionError(kind)
    return json.dumps(bad).encode()


DAMAGE = ["garbage", "truncated", "not an object", "deeply nested", "wrong types",
          "seats of the wrong kind", "a taken square", "a move off the board",
          "play after a win", "index out of range", "another version",
          "params no longer valid", "another game", "NaN", "a huge number"]


# The deeply nested save takes seconds to refuse (the decoder's own depth): full run only.
@pytest.mark.parametrize("kind", [pytest.param(kind, marks=pytest.mark.slow)
                                  if kind == "deeply nested" else kind for kind in DAMAGE])
def test_a_damaged_save_is_set_aside_with_a_notice_and_a_new_game_starts(
        profile: Path, kind: str) -> None:
    good = a_real_save(profile)
    bad = damaged(kind, good)
    path = saved(profile, "tictactoe")
    path.write_bytes(bad)
    app = make_app(profile)
    try:
        scene = open_tile(app, "tictactoe")
        assert isinstance(scene, TicTacToeScene)
        assert scene.state.moves_made == 0 and len(scene.history) == 1, "a new game"
        notices = [n for n in app.notices if "could not be resumed" in n]
        assert len(notices) == 1, app.notices
        aside = set_aside(profile, "tictactoe")
        assert len(aside) == 1 and aside[0].read_bytes() == bad, "kept aside, unchanged"
        assert str(aside[0]) in notices[0]
        assert not path.exists()
        # The new game is played and saved normally; the damaged file stays aside.
        play(app, [(0, 1)])
        click_widget(app, "Back")  # (Esc would first dismiss the notice)
        assert json.loads(path.read_text())["state"]["index"] == 1
        assert set_aside(profile, "tictactoe") == aside and aside[0].read_bytes() == bad
    finally:
        close_app(app)


def test_the_message_says_what_is_wrong(profile: Path) -> None:
    good = a_real_save(profile)
    saved(profile, "tictactoe").write_bytes(damaged("a taken square", good))
    app = make_app(profile)
    try:
        open_tile(app, "tictactoe")
        # The move log is replayed through the rules: the taken square is refused.
        assert any("history entry 3: 4 is not a legal move here" in n
                   for n in app.notices), app.notices
    finally:
        close_app(app)


# (game, a game ID it cannot read, the words of its error in Czech)
UNREADABLE_IDS = [
    ("tictactoe", "7x", "očekává se SLOUPCExŘÁDKY:kK"),
    ("connect4", "99x6", "sloupců musí být"),
    ("grundy", "chess:8x8", "očekává se např. king:8x8"),
]


@pytest.mark.parametrize(("game_id", "params", "words"), UNREADABLE_IDS)
def test_a_save_whose_game_id_cannot_be_read_is_told_in_czech(
        profile: Path, game_id: str, params: str, words: str) -> None:
    """The game ID's error, made in English by the game's parameters, is said in the
    player's language in the notice, with the notice around it: nothing left in English."""
    from engine.core.i18n import set_language

    app = make_app(profile)
    open_tile(app, game_id)
    close_app(app)
    path = saved(profile, game_id)
    data = json.loads(path.read_text())
    data["params"] = params
    path.write_text(json.dumps(data))
    app = make_app(profile)
    try:
        app.set_language("cs")
        open_tile(app, game_id)
        notices = [n for n in app.notices if "nešlo pokračovat" in n]
        assert len(notices) == 1, app.notices
        notice = notices[0]
        assert "jeho parametry jsou neplatné: Neplatné ID hry " + repr(params) in notice
        assert words in notice, notice
        english = notice.replace(str(set_aside(profile, game_id)[0]), "")
        for word in ("Invalid", "game ID", "expected", "must", "parameters", "could not",
                     "resumed", "starts"):
            assert word not in english, (word, notice)
    finally:
        close_app(app)
        set_language("en")


def a_real_nim_save(profile: Path) -> dict:
    """A save of a Nim game (heaps 1, 2, 3, 4; two pebbles taken from the last), as JSON."""
    app = make_app(profile)
    game = find_game("grundy")
    app.push(game.open_scene(app, game.param_spec().decode("nim:1.2.3.4")))
    assert app.top.play_move((3, 2))
    close_app(app)
    return json.loads(saved(profile, "grundy").read_text())


def _set(path: tuple, value: object) -> Callable[[dict], None]:
    """A change of a save: the value at ``path`` (keys and indexes) becomes ``value``."""
    def change(data: dict) -> None:
        *inner, last = path
        for step in inner:
            data = data[step]
        data[last] = value
    return change


# A save damaged in a way a player may meet, and why it cannot be resumed: in English (the
# command line's words), in Hungarian and in Czech (the notice's words).
NEWER = SAVE_VERSION + 1
DAMAGE_TOLD = {
    "invalid JSON": (
        "tictactoe", b'{"format": ',
        "it is not valid JSON (line 1, column 12)",
        "érvénytelen JSON (1. sor, 12. oszlop)",
        "není to platný JSON (řádek 1, sloupec 12)"),
    "a version that is not a number": (  # said "saved-game version True" (issue 29, 12)
        "tictactoe", _set(("version",), True),
        "its saved-game version is not a whole number",
        "a mentett játék verziója nem egész szám",
        "verze uložené hry není celé číslo"),
    "a number of 5,000 digits": (  # said Python's "…set_int_max_str_digits()…"
        "tictactoe", b'{"format": "arcade-of-strategy saved game", "version": ' + b"9" * 5000
        + b', "game": "tictactoe", "params": null, "state": {}}',
        "it holds a number with too many digits to be a saved game",
        "túl sok számjegyű számot tartalmaz, így nem lehet mentett játék",
        "obsahuje číslo s příliš mnoha číslicemi, takže nemůže být uloženou hrou"),
    "a newer version": (
        "tictactoe", _set(("version",), NEWER),
        f"it was saved by a newer version of the arcade (saved-game version {NEWER}; this "
        f"one reads {SAVE_VERSION})",
        f"a játéktár egy újabb változata mentette (mentett játék {NEWER}. verzió; ez a "
        f"változat ezt a verziót olvassa: {SAVE_VERSION})",
        f"uložila jej novější verze arkády (verze uložené hry {NEWER}; tato verze čte verzi "
        f"{SAVE_VERSION})"),
    "another game": (
        "tictactoe", _set(("game",), "connect4"),
        "it holds another game, 'connect4'",
        "egy másik játékot tartalmaz: 'connect4'",
        "obsahuje jinou hru: 'connect4'"),
    "a take that is not a whole number": (
        "grundy", _set(("state", "log", 1, 1, 1), 2.5),
        "history entry 2: 2.5 is not a move",
        "az előzmények 2. bejegyzése: 2.5 nem lépés",
        "záznam historie 2: 2.5 není tah"),
    "an illegal move": (
        "tictactoe", _set(("state", "log", 1, 1), 9),
        "history entry 2: 9 is not a legal move here",
        "az előzmények 2. bejegyzése: 9 itt nem szabályos lépés",
        "záznam historie 2: 9 tu není platný tah"),
    "a wrongly typed flag": (
        "tictactoe", _set(("state", "paused"), "no"),
        "the pause flag: expected true or false, found 'no'",
        "a szünetet jelző érték: true vagy false kellene, de 'no' szerepel",
        "příznak pauzy: má být true nebo false, ale je 'no'"),
    "an unknown level": (
        "tictactoe", _set(("state", "seats", 1, "level"), "godlike"),
        "seat 2's level: expected one of beginner, easy, medium, strong, hard, perfect, match, "
        "found 'godlike'",
        "2. játékos szintje: ezek egyike (beginner, easy, medium, strong, hard, perfect, "
        "match) kellene, de 'godlike' szerepel",
        "úroveň hráče 2: má být jedna z hodnot beginner, easy, medium, strong, hard, perfect, "
        "match, ale je 'godlike'"),
}
# Words the same in every language: the format's and the file's own.
UNTRANSLATED = {"JSON", "UTF", "true", "false", "null", "text"}


def template_words(problem: object) -> set[str]:
    """The English words of a Phrase's templates, its own and its values' (not the data)."""
    from engine.core.phrase import Phrase

    if not isinstance(problem, Phrase):
        return set()
    words = set(re.findall(r"[A-Za-z]{3,}", re.sub(r"{\w*}", " ", problem.template)))
    for value in problem.values.values():
        words |= template_words(value)
    return words - UNTRANSLATED


@pytest.mark.parametrize("kind", list(DAMAGE_TOLD))
def test_why_a_save_cannot_be_resumed_is_told_in_hungarian_and_czech(
        profile: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """The reason, made in English as the save is read, is said in the player's language in
    the notice: the catalogue's translation, with no English word of its templates left
    (data stays: the JSON decoder's words, a value from the file)."""
    from engine.core.i18n import localize, set_language
    from engine.storage.saved_games import SavedGames

    game_id, damage, english, *said = DAMAGE_TOLD[kind]
    good = a_real_nim_save(profile) if game_id == "grundy" else a_real_save(profile)
    if isinstance(damage, bytes):
        bad = damage
    else:
        damage(good)
        bad = json.dumps(good).encode()
    told: list[object] = []
    discard = SavedGames.discard
    monkeypatch.setattr(SavedGames, "discard", lambda self, game, title, found, problem: (
        told.append(problem) or discard(self, game, title, found, problem)))
    for lang, words, translation in zip(("hu", "cs"), ("nem sikerült folytatni",
                                                      "nešlo pokračovat"), said, strict=True):
        saved(profile, game_id).write_bytes(bad)
        app = make_app(profile)
        try:
            app.set_language(lang)
            open_tile(app, game_id)
            notices = [n for n in app.notices if words in n]
            assert len(notices) == 1, app.notices
            problem = told.pop()
            assert problem == english, "the English text is the command line's"
            assert localize(problem) == translation
            notice = notices[0]
            assert f"({translation})" in notice and english not in notice, notice
            for path in set_aside(profile, game_id):  # (a path is data: any words)
                notice = notice.replace(str(path), "")
            left = {word for word in template_words(problem)
                    if re.search(rf"\b{word}\b", notice, re.IGNORECASE)}
            assert not left, (left, notice)
        finally:
            close_app(app)
            set_language("en")


def test_a_huge_file_is_set_aside_unread(profile: Path, monkeypatch) -> None:
    import engine.storage.saved_games as saved_games

    path = saved(profile, "tictactoe")
    path.parent.mkdir(parents=True)
    with open(path, "wb") as handle:
        handle.truncate(MAX_SAVE_BYTES + 1)  # sparse: costs no disk
    opened: list[str] = []
    real_open = open

    def watch(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(saved_games, "open", watch, raising=False)
    app = make_app(profile)
    try:
        scene = open_tile(app, "tictactoe")
        assert scene.state.moves_made == 0
        assert str(path) not in opened, "the size is checked before anything is read"
        assert any("bytes" in n and "could not be resumed" in n for n in app.notices)
        assert len(set_aside(profile, "tictactoe")) == 1
    finally:
        close_app(app)


def test_a_folder_in_the_place_of_a_save_is_set_aside(profile: Path) -> None:
    path = saved(profile, "connect4")
    path.mkdir(parents=True)
    app = make_app(profile)
    try:
        scene = open_tile(app, "connect4")
        assert isinstance(scene, Connect4Scene) and scene.state.moves == ()
        assert any("not a file" in n for n in app.notices)
        assert [p.is_dir() for p in set_aside(profile, "connect4")] == [True]
    finally:
        close_app(app)


@pytest.mark.slow
def test_an_unreadable_save_is_left_alone_and_not_written_over(profile: Path,
                                                              monkeypatch) -> None:
    import engine.storage.saved_games as saved_games

    a_real_save(profile)
    path = saved(profile, "tictactoe")
    content = path.read_bytes()
    real_open = os.open

    def refuse(file, *args, **kwargs):
        # chmod 000 would do, except that root (CI containers) reads any file. The store
        # opens a save with os.open (O_NONBLOCK: a link turned into a pipe must not hang).
        if isinstance(file, (str, os.PathLike)) and Path(file) == path:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(saved_games.os, "open", refuse)
    try:
        app = make_app(profile)
        try:
            scene = open_tile(app, "tictactoe")
            assert scene.state.moves_made == 0
            assert any("could not be read" in n for n in app.notices), app.notices
            play(app, [(0, 1)])
            click_widget(app, "Back")
            assert not set_aside(profile, "tictactoe"), "not corruption: nothing moved aside"
            # The game left is still resumed from memory while the arcade runs.
            assert open_tile(app, "tictactoe").state.cell(0, 1) == 0
        finally:
            close_app(app)
    finally:
        monkeypatch.undo()
    assert path.read_bytes() == content, "the unreadable file was not written over"


# --- writing problems and several copies -----------------------------------------------------


def test_a_full_disk_is_a_warning_and_the_game_stays_in_memory(profile, monkeypatch) -> None:
    import engine.storage.saved_games as saved_games

    app = make_app(profile)
    try:
        scene = open_tile(app, "tictactoe")
        play(app, MOVES[:1])
        key(app, pygame.K_ESCAPE)
        on_disk = saved(profile, "tictactoe").read_bytes()  # a first save went through

        def full(path, text):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

        monkeypatch.setattr(saved_games, "atomic_write_text", full)
        scene = open_tile(app, "tictactoe")
        play(app, MOVES[1:3])
        expected = scene.state
        click_widget(app, "Back")
        warnings = [n for n in app.notices if "could not be saved" in n]
        assert len(warnings) == 1 and os.strerror(errno.ENOSPC) in warnings[0]
        assert "kept until the arcade is closed" in warnings[0]
        assert saved(profile, "tictactoe").read_bytes() == on_disk, "the old save untouched"
        assert not set_aside(profile, "tictactoe"), "a full disk is not corruption"
        resumed = open_tile(app, "tictactoe")
        assert resumed.state == expected, "resumed from memory"
        assert not [n for n in app.notices if "could not be resumed" in n]
        monkeypatch.undo()
        click_widget(app, "Back")  # space again: the save goes through
        assert json.loads(saved(profile, "tictactoe").read_text())["state"]["index"] == 3
    finally:
        close_app(app)


def test_two_copies_on_one_game_the_second_is_told_and_the_first_game_is_kept(
        profile: Path) -> None:
    """Regression (issue 29 finding 7): copy A played, copy B played less, both left, and
    B's game silently replaced A's. Now the game is held by the copy that opened it first:
    B shows A's game, says its own moves will not be saved, and A's moves all stay."""
    first, second = make_app(profile), make_app(profile)
    try:
        a = open_tile(first, "tictactoe")
        play(first, [(0, 0), (1, 1), (2, 2)])
        first.game_saves.writer.drain()  # (its writer thread: within milliseconds)
        b = open_tile(second, "tictactoe")
        assert b.state == a.state, "the second copy shows the first copy's game (its journal)"
        assert any("open in another copy" in notice for notice in second.notices)
        play(second, [(0, 1)])
        # The first copy leaves first: the second, told its moves are not saved, still
        # never writes over the first's game, even now that the game is free.
        key(first, pygame.K_ESCAPE)
        play(second, [(0, 2)])
        second.game_saves.writer.drain()
        key(second, pygame.K_ESCAPE)  # (the first Esc dismisses the notice)
        if not isinstance(second.top, LauncherScene):
            key(second, pygame.K_ESCAPE)
        kept = json.loads(saved(profile, "tictactoe").read_text())
        assert kept["state"]["index"] == 3, "the first copy's three moves are kept"
        assert not list((profile / "saved").glob(".*tmp")), "no temporary files left"
        # Both left: the game is free again, and either copy resumes the first's game.
        again = open_tile(second, "tictactoe")
        assert again.state == a.state != b.state
        assert not [n for n in second.notices[1:] if "open in another copy" in n]
    finally:
        close_app(first)
        close_app(second)


def test_setup_with_new_parameters_replaces_the_game_and_the_new_one_is_kept(app) -> None:
    scene = open_tile(app, "connect4")
    small = scene.game.param_spec().decode("5x4")
    scene.restart(small, (Seat(), Seat()))
    assert app.top.config == small
    click(app, *grid_centre(tuple(app.top.layout()["board"]), 5, 5, 1, 2))
    key(app, pygame.K_ESCAPE)
    resumed = open_tile(app, "connect4")
    assert resumed.config == small and resumed.state.moves == (2,)
    assert resumed.seats == (Seat(), Seat())


# --- the midend on its own -------------------------------------------------------------------


def midend_with_history() -> PuzzleMidend[Board]:
    import random

    clock = iter(range(1000)).__next__
    rng = random.Random(3)
    midend: PuzzleMidend[Board] = PuzzleMidend(generate(4, rng)[0], inverse=Board.play,
                                               clock=lambda: float(clock()))
    for cell_ in ((0, 0), (1, 1), (2, 2)):
        midend.play(cell_)
    midend.mark_helped()
    midend.restart()
    midend.play((3, 3))
    midend.new_puzzle(generate(5, rng)[0])
    midend.play((4, 4))
    midend.undo()
    return midend


def test_the_midend_round_trips_puzzles_attempts_clocks_and_help() -> None:
    midend = midend_with_history()
    midend.pause()  # (its fake clock ticks at every reading)
    data = json.loads(json.dumps(midend.snapshot(save_board)))
    copy: PuzzleMidend[Board] = PuzzleMidend(Board.solved(2), inverse=Board.play)
    copy.restore(data, lambda d: load_board(None, d))
    assert copy.state == midend.state and copy.moves == midend.moves
    assert copy.paused and copy.elapsed == pytest.approx(midend.elapsed)
    walk = []
    while midend.undo():
        assert copy.undo()
        walk.append((midend.state == copy.state, midend.helped == copy.helped,
                     midend.moves == copy.moves))
    assert not copy.can_undo and all(all(step) for step in walk)
    while midend.redo():
        assert copy.redo() and copy.state == midend.state
    assert not copy.can_redo


@pytest.mark.parametrize("change", [
    lambda d: d["steps"].append([0, [9, 9]]),  # off the board
    lambda d: d["steps"].append([1, None]),  # an attempt started twice
    lambda d: d["steps"].insert(1, [2, [0, 0]]),  # a move outside its attempt
    lambda d: d.update(index=-1),
    lambda d: d["attempts"][0].update(elapsed=float("inf")),
    lambda d: d["attempts"][0].update(elapsed=True),
    lambda d: d["puzzles"][0].update(start={"n": 4, "red": "-ff"}),
    lambda d: d["puzzles"][0].update(start={"n": 4, "red": "fffff"}),
    lambda d: d["steps"][1].__setitem__(1, [True, 0]),
    lambda d: d.pop("puzzles"),
])
def test_the_midend_refuses_bad_data_and_changes_nothing(change) -> None:
    midend = midend_with_history()
    data = json.loads(json.dumps(midend.snapshot(save_board)))
    change(data)
    target = midend_with_history()
    state, index = target.state, target.history.index
    with pytest.raises(ValueError):
        target.restore(data, lambda d: load_board(None, d))
    assert target.state == state and target.history.index == index


def test_opening_a_game_without_a_save_is_a_new_game(app) -> None:
    scene = app.push(open_game(app, find_game("tictactoe")))
    assert isinstance(scene, TicTacToeScene) and len(scene.history) == 1
    assert not app.notices


# --- positions no play can reach -----------------------------------------------------------


@pytest.mark.parametrize("game_id, variant, data, words", [
    ("tictactoe", "3x3k3", {"rows": ["XX.", "...", "..."], "last": None}, "taking turns"),
    ("tictactoe", "3x3k3", {"rows": ["XXX", "OOO", "..."], "last": None}, "moved after"),
    ("tictactoe", "3x3k3", {"rows": ["XXX", "OO.", "..O"], "last": 8}, "after the game"),
    ("tictactoe", "3x3k3", {"rows": ["T..", "...", "..."], "last": None}, "a cell is one of"),
    ("tictactoe", "3x3k3", {"rows": ["X..", "..."], "last": None}, "3 to 3 items"),
    ("tictactoe", "3x3k3", {"rows": ["X...", "...", "..."], "last": None}, "row 1"),
    ("connect4", "4x4", {"moves": [0, 0, 0, 0, 0]}, "full"),
    ("connect4", "4x4", {"moves": [0, 1, 0, 1, 0, 1, 0, 2]}, "over"),
    ("connect4", "4x4", {"moves": [4]}, "move 1"),
    ("grundy", "nim:1.2.3.4", {"heaps": [1, 2, 3, 5], "to_move": 0}, "heap 4"),
    ("grundy", "nim:1.2.3.4", {"heaps": [1, 2, 3, 4], "to_move": 1}, "must be to move"),
    ("grundy", "king:4x4", {"tokens": [[4, 0]], "to_move": 0}, "row"),
    ("grundy", "rook:4x4:2t", {"tokens": [[0, 0]], "to_move": 0}, "2 to 2 items"),
    ("grundy", "graph:1", {"node": 0, "to_move": 0, "visits": [0] * 20}, "never visited"),
    ("grundy", "graph:1", {"node": 0, "to_move": 0, "visits": [3] * 20}, "3 times"),
    ("button-madness", "2x2", {"n": 2, "red": "1f"}, "at most 1"),
    ("button-madness", "4x4", {"n": 4, "red": "0x1f"}, "hexadecimal"),
])
def test_positions_play_cannot_reach_are_refused(game_id: str, variant: str, data: dict,
                                                 words: str) -> None:
    """Positions as version-1 saves (and Button Madness's puzzle starts) wrote them."""
    from engine.storage.saved_format import read_v1_position

    game = find_game(game_id)
    params = game.param_spec().decode(variant)
    with pytest.raises(ValueError, match=words):
        if game.is_puzzle:
            load_board(params, data)
        else:
            read_v1_position(game, params, data)


def test_a_scene_refuses_a_bad_snapshot_and_changes_nothing(app) -> None:
    scene = open_tile(app, "tictactoe")
    play(app, MOVES[:3])
    good = scene.snapshot()
    history, seats = scene.history, scene.seats
    for bad in ({**good, "seats": [{"kind": "robot", "level": "hard", "mistakes": 0}] * 2},
                {**good, "log": good["log"] + [[0, good["log"][1][1]]]},  # a taken square
                {**good, "recorded": [10**6]}, {**good, "next_serial": 0},
                {**good, "index": 0, "next_serial": 2,  # serials going backwards
                 "log": [[1], [0, good["log"][1][1]]]}):
        with pytest.raises(ValueError):
            scene.restore(bad)
        assert scene.history is history and scene.seats == seats
    assert scene.state.moves_made == 3


def test_a_history_too_big_to_save_keeps_the_game_on_screen(app, monkeypatch) -> None:
    import engine.storage.saved_games as saved_games

    scene = open_tile(app, "tictactoe")
    play(app, MOVES)
    key(app, pygame.K_n)  # a new game: the first stays in the history, undoable
    play(app, [(2, 1)])
    whole = len(saved_games.encode(scene))
    compact = len(saved_games.encode(scene, compact=True))
    assert compact < whole
    monkeypatch.setattr(saved_games, "MAX_SAVE_BYTES", (whole + compact) // 2)
    click_widget(app, "Back")
    assert not app.notices
    resumed = open_tile(app, "tictactoe")
    assert resumed.state == scene.state and resumed.history.index == 1
    click_widget(app, "Undo")
    assert resumed.state.moves_made == 0 and not resumed.can_undo(), \
        "the earlier game was left out to fit; the one on screen is whole"


def test_a_perfect_seat_playing_as_hard_still_says_so_after_a_resume(app, monkeypatch) -> None:
    """Issue 28: a Perfect player that could not solve the board says "plays as Hard" on
    its card; after leaving and resuming the game the note was gone until it thought
    again. The save keeps it."""
    import games.tictactoe.agents as agents
    import games.tictactoe.levels as levels
    from games.tictactoe.rules import MNKConfig

    # Short budgets: gomoku is out of reach for a proof either way. The node budgets live
    # with the recipes in levels.py (agents reads them there, as the level texts do).
    monkeypatch.setattr(agents, "PERFECT_BUDGET", 0.05)
    monkeypatch.setattr(levels, "HARD_NODES", {"mnk": 500, "gomoku": 500})
    seats = (Seat(), Seat("computer", "perfect"))
    scene = app.push(TicTacToeScene(app, MNKConfig(15, 15, 5), seats=seats, seed=1))
    app.step([])
    play(app, [(7, 7)])
    run_until(app, lambda: scene.state.moves_made == 2, message="Perfect answers")
    assert "plays as Hard here" in scene.seat_level_text(1)
    click_widget(app, "Back")
    assert isinstance(app.top, LauncherScene)
    resumed = open_tile(app, "tictactoe")
    assert isinstance(resumed, TicTacToeScene) and resumed is not scene
    assert resumed.seats == seats and resumed.state.moves_made == 2
    assert "plays as Hard here" in resumed.seat_level_text(1)
    # As drawn on the card: the level line's label says it.
    app.step([])
    texts = [getattr(w, "text", "") for w in resumed.ui.widgets]
    assert any("plays as Hard here" in str(t) for t in texts), texts
def test_a_symlinked_save_is_followed_like_the_settings_and_stays_a_link(
        profile: Path, tmp_path: Path) -> None:
    """Issue 29, finding 12: a save that is a link to a file elsewhere was set aside as "not
    a file" while a linked settings file is used; now both are followed, and written back
    through the link."""
    good = a_real_save(profile)
    path = saved(profile, "tictactoe")
    elsewhere = tmp_path / "elsewhere" / "tictactoe.json"
    elsewhere.parent.mkdir()
    elsewhere.write_text(json.dumps(good))
    path.unlink()
    path.symlink_to(elsewhere)
    app = make_app(profile)
    try:
        scene = open_tile(app, "tictactoe")
        assert scene.state.moves_made == 2, app.notices  # resumed through the link
        assert not any("not a file" in n for n in app.notices)
        play(app, [MOVES[2]])
    finally:
        close_app(app)
    assert path.is_symlink() and os.readlink(path) == str(elsewhere)
    assert json.loads(elsewhere.read_text()) != good  # the third move was saved there
    assert set_aside(profile, "tictactoe") == []


def test_a_link_to_a_folder_in_the_place_of_a_save_is_set_aside(profile: Path,
                                                                 tmp_path: Path) -> None:
    target = tmp_path / "a folder"
    target.mkdir()
    path = saved(profile, "connect4")
    path.parent.mkdir(parents=True)
    path.symlink_to(target)
    app = make_app(profile)
    try:
        open_tile(app, "connect4")
        assert any("not a file" in n for n in app.notices)
    finally:
        close_app(app)
    assert target.is_dir()  # what the link pointed at is never touched
    assert [p.is_symlink() for p in set_aside(profile, "connect4")] == [True]


def test_notices_name_the_game_without_a_doubled_game_or_python_words(
        profile: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29, finding 12: "Your Grundy games game", and a fault while saving shown as
    Python's own text ("ZeroDivisionError: …"); the details go to stderr only."""
    path = saved(profile, "grundy")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x00\xffnot a save")
    app = make_app(profile)
    try:
        scene = open_tile(app, "grundy")
        told = [n for n in app.notices if "could not be resumed" in n]
        assert told and "Your saved game of Grundy games" in told[0], app.notices
        assert not any("games game" in n for n in app.notices)

        def broken(compact: bool = False) -> None:
            raise ZeroDivisionError("division by zero")

        monkeypatch.setattr(scene, "snapshot", broken)
        app.pop()  # leaving saves the game
        notices = [n for n in app.notices if "could not be saved" in n]
        assert notices == ["Your game of Grundy games could not be saved (a fault in the "
                           "arcade)."], app.notices
    finally:
        close_app(app)
