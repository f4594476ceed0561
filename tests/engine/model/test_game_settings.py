"""Per-game settings in one shape (engine.model.game_settings), and files of the previous
version."""

from __future__ import annotations

import json
from pathlib import Path

from engine.model.game_settings import load_params, load_seats, remember
from engine.model.registry import find_game
from engine.model.seats import Seat
from engine.storage.settings import SettingsStore
from tests.conftest import make_app

# A settings file exactly as the version before descriptors wrote it: tic-tac-toe's board in
# last_board_sizes, the other games' set-ups in variants.
PREVIOUS = {
    "version": 1,
    "palette": "colourblind",
    "window_size": [1024, 768],
    "seats": {"tictactoe": {"X": "human", "O": "computer", "T": "human"},
              "grundy": {"1": "computer", "2": "human"}},
    "ai_levels": {"tictactoe": {"X": "hard", "O": "perfect@0.1", "T": "hard"},
                  "grundy": {"1": "easy@0.2", "2": "perfect"}},
    "last_board_sizes": {"tictactoe": {"rows": 7, "cols": 6, "k": 4, "players": 2}},
    "show_hints": True,
    "variants": {"grundy": {"game": "queen", "rows": 12, "cols": 9, "tokens": 2, "heap": 100,
                            "max_take": 10, "nim": 0, "misere": 0, "graph": 0},
                 "button-madness": {"n": 7}},
    "a key from a newer version": {"kept": [1, 2, 3]},
}


def store_with(profile: Path, data: dict) -> SettingsStore:
    profile.mkdir(parents=True, exist_ok=True)
    (profile / "settings.json").write_text(json.dumps(data), encoding="utf-8")
    store = SettingsStore(profile / "settings.json")
    assert store.load() == []
    return store


def test_a_previous_version_file_loads_without_losing_anything(profile: Path) -> None:
    store = store_with(profile, PREVIOUS)
    ttt, grundy = find_game("tictactoe"), find_game("grundy")
    config = load_params(store, ttt)
    assert (config.rows, config.cols, config.k, config.players) == (7, 6, 4, 2)
    assert load_seats(store, ttt, 2) == (Seat("human", "hard"), Seat("computer", "perfect", 0.1))
    setup = load_params(store, grundy)
    assert (setup.game, setup.rows, setup.cols, setup.tokens) == ("queen", 12, 9, 2)
    assert load_seats(store, grundy) == (Seat("computer", "easy", 0.2), Seat("human", "perfect"))
    assert load_params(store, find_game("button-madness")).n == 7
    # Every key, known or not, is still there as it was read; the old board is a variant.
    for key, value in PREVIOUS.items():
        if key not in ("version", "last_board_sizes", "variants"):
            assert store.get(key) == value if key in store.data else store.data[key] == value
    assert store.get("variants") == {**PREVIOUS["variants"], **PREVIOUS["last_board_sizes"]}
    assert "last_board_sizes" not in store.data


def test_remembering_moves_a_game_to_the_uniform_shape_and_keeps_the_rest(
        profile: Path) -> None:
    store = store_with(profile, PREVIOUS)
    ttt = find_game("tictactoe")
    spec = ttt.param_spec()
    assert remember(store, ttt, spec.decode("5x5k4"), (Seat(), Seat("computer", "easy"))) is None
    assert store.save() is None
    again = SettingsStore(profile / "settings.json")
    assert again.load() == []
    assert load_params(again, ttt) == spec.decode("5x5k4")
    assert again.get("variants")["tictactoe"] == {"rows": 5, "cols": 5, "k": 4, "players": 2}
    assert "last_board_sizes" not in json.loads((profile / "settings.json").read_text())
    assert again.get("variants")["grundy"] == PREVIOUS["variants"]["grundy"]
    assert again.get("seats")["grundy"] == PREVIOUS["seats"]["grundy"]
    assert again.data["a key from a newer version"] == {"kept": [1, 2, 3]}
    assert again.get("palette") == "colourblind"


def test_a_refused_value_changes_nothing(profile: Path) -> None:
    store = store_with(profile, PREVIOUS)
    ttt = find_game("tictactoe")
    before = store.data
    bad_seat = Seat("computer", "hard", 0.1)
    object.__setattr__(bad_seat, "kind", "robot")  # what the validator must refuse
    warning = remember(store, ttt, ttt.param_spec().decode("4x4k4"), (bad_seat, Seat()))
    assert warning and "Could not remember" in warning
    assert store.data == before


def test_every_game_opens_with_its_remembered_set_up(profile: Path) -> None:
    store_with(profile, PREVIOUS)
    app = make_app(profile)
    try:
        for name, check in (("tictactoe", lambda s: s.variant_id() == "7x6k4"),
                            ("grundy", lambda s: s.variant_id() == "queen-12x9-2t")):
            scene = app.push(find_game(name).open_scene(app))
            app.step([])
            assert check(scene), scene.variant_id()
            assert scene.seats[1].is_computer == (name == "tictactoe")
            app.pop()
    finally:
        app.quit()
        app.stats.close()


def test_an_old_board_never_overrides_a_newer_variant_and_junk_is_left_out(
        profile: Path) -> None:
    """The migration of the old per-game boards (engine.storage.settings)."""
    newer = {**PREVIOUS, "variants": {**PREVIOUS["variants"],
                                      "tictactoe": {"rows": 5, "cols": 5, "k": 4, "players": 2}}}
    store = store_with(profile, newer)
    assert load_params(store, find_game("tictactoe")).rows == 5
    (profile / "settings.json").write_text(json.dumps({**PREVIOUS, "last_board_sizes": "7x6"}),
                                           encoding="utf-8")
    junk = SettingsStore(profile / "settings.json")
    warnings = junk.load()
    assert any("last_board_sizes" in w for w in warnings)
    assert junk.get("variants") == PREVIOUS["variants"]
    assert junk.get("seats") == PREVIOUS["seats"]


def test_every_two_player_game_with_computer_players_opens_against_the_computer(
        profile: Path) -> None:
    """Issue 28: tic-tac-toe opened as hot seat, Connect Four against the computer. On a
    new profile every game with computer players opens human against the computer (the
    tile clicked, as a player does); a stored choice (hot seat here) is kept."""
    from engine.model.registry import all_games
    from tests.conftest import click_widget, hot_seat

    games = [g for g in all_games() if g.agents is not None and g.kind != "puzzle"]
    assert {"tictactoe", "connect4", "grundy"} <= {g.id for g in games}
    app = make_app(profile)
    try:
        for game in games:
            click_widget(app, game.id)
            scene = app.top
            assert [seat.kind for seat in scene.seats[:2]] == ["human", "computer"], game.id
            app.pop()
    finally:
        app.quit()
        app.stats.close()
    other = make_app(profile.parent / "hot-seat")  # no game left to resume there
    try:
        hot_seat(other, "tictactoe")
        click_widget(other, "tictactoe")
        assert [seat.kind for seat in other.top.seats[:2]] == ["human", "human"]
    finally:
        other.quit()
        other.stats.close()
