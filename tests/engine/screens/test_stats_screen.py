"""The statistics screen a player can read (issue 12, item 17).

Games are played for real through their scenes (tic-tac-toe against the computer at two
levels, at one mouse, computer against computer; a Button Madness board solved by a
click), other families' results are recorded with the ids their own parameter specs give,
and the screen is opened from the launcher's Statistics button. The tests read the
table's lines, hover, scroll with the wheel and the keys, and check pixels of the chart.
"""

from __future__ import annotations

import re
from typing import Any

import pygame
import pytest

from engine.model.registry import all_games, find_game
from engine.model.seats import Seat
from engine.runtime.app import App
from engine.screens.launcher import LauncherScene
from engine.screens.stats_scene import StatsScene
from engine.screens.stats_table import (
    COMPUTER,
    PLAYER,
    PUZZLES,
    is_computer_only,
    level_title,
    players_title,
    readable,
)
from games.tictactoe.rules import CLASSIC
from tests.conftest import (
    click,
    click_widget,
    grid_centre,
    hover,
    key,
    make_app,
    run_until,
    stats_shown,
)


# --- playing real games -----------------------------------------------------------------
def back_to_launcher(app: App) -> None:
    """Esc until the launcher is on top (a result panel first, then the game)."""
    for _ in range(6):
        if isinstance(app.top, LauncherScene):
            return
        key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, LauncherScene), type(app.top).__name__


def open_tictactoe(app: App, *seats: Seat) -> Any:
    game = find_game("tictactoe")
    scene = app.push(game.open_scene(app, CLASSIC, seats=seats, seed=7))
    app.step([])
    return scene


def play_out_against_computer(app: App, *seats: Seat) -> None:
    """A whole game of classic tic-tac-toe: the human clicks the first empty cell each turn."""
    scene = open_tictactoe(app, *seats)
    while not scene.state.is_terminal():
        run_until(app, lambda: scene.state.is_terminal() or not scene.computer_to_move(),
                  message="the computer did not answer")
        if scene.state.is_terminal():
            break
        cell = scene.state.legal_moves()[0]
        row, col = divmod(cell, 3)
        click(app, *grid_centre(tuple(scene.layout()["board"]), 3, 3, row, col))
    run_until(app, lambda: scene.serial in scene.recorded, message="result not recorded")
    back_to_launcher(app)


def play_hot_seat(app: App) -> None:
    scene = open_tictactoe(app, Seat("human"), Seat("human"))
    for row, col in [(0, 0), (1, 0), (1, 1), (2, 0), (2, 2)]:  # X wins on the diagonal
        click(app, *grid_centre(tuple(scene.layout()["board"]), 3, 3, row, col))
    assert scene.state.is_terminal()
    back_to_launcher(app)


def watch_computers(app: App) -> None:
    scene = open_tictactoe(app, Seat("computer", "easy"), Seat("computer", "perfect"))
    run_until(app, lambda: scene.serial in scene.recorded, timeout=30,
              message="computer against computer never finished")
    back_to_launcher(app)


def solve_button_madness(app: App) -> None:
    """One press left on a 4×4 board: a real click solves it."""
    from games.buttons.board import Board

    game = find_game("button-madness")
    scene = app.push(game.open_scene(app, None, board=Board.solved(4).press(0, 0), seed=1))
    app.step([])
    cell = scene.geometry().cell_rect(0, 0)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=cell.center, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=cell.center, button=1))
    app.step()
    run_until(app, lambda: type(app.top).__name__ == "WinOverlay", timeout=5,
              message="no win screen after solving")
    back_to_launcher(app)


def grundy_ids() -> dict[str, str]:
    """Statistics ids of a few Grundy set-ups, as the family's own spec makes them."""
    from games.grundy.variants import SPEC, GrundySetup

    return {"graph": SPEC.variant_id(GrundySetup(game="graph", graph=2)),
            "rook": SPEC.variant_id(GrundySetup(game="rook", tokens=2)),
            "king": SPEC.variant_id(GrundySetup())}


def record_other_families(app: App) -> None:
    """Grundy and Connect Four results as their scenes record them (ids from the specs)."""
    from games.connect4.params import SPEC as C4
    from games.connect4.rules import Connect4Config

    ids = grundy_ids()
    stats = app.stats
    stats.record_game("grundy", ids["graph"], "human-computer", "perfect", "lost")
    stats.record_game("grundy", ids["king"], "computer-human", "easy", "won")
    stats.record_game("grundy", ids["rook"], "human-computer", "perfect@0.2", "won")
    stats.record_game("grundy", ids["king"], "computer-computer", "perfect vs easy", "won")
    stats.record_game("connect4", C4.variant_id(Connect4Config(7, 6)), "human-computer",
                      "medium", "drawn")


def open_statistics(app: App) -> StatsScene:
    click_widget(app, "Statistics")
    assert isinstance(app.top, StatsScene)
    return stats_shown(app)


def all_lines(scene: StatsScene) -> list[tuple[str, str, str, tuple[int, ...]]]:
    """Every table line as (section, kind, text, figures)."""
    return [(e.section, e.kind, e.text, tuple(e.figures or ())) for e in scene.entries]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One profile with real games of several kinds played (slow: shared by the tests)."""
    profile = tmp_path_factory.mktemp("played") / "profile"
    app = make_app(profile)
    play_out_against_computer(app, Seat("human"), Seat("computer", "easy"))
    play_out_against_computer(app, Seat("human"), Seat("computer", "perfect"))
    play_hot_seat(app)
    watch_computers(app)
    solve_button_madness(app)
    record_other_families(app)
    app.quit()
    app.stats.close()
    pygame.display.quit()
    return profile


@pytest.fixture
def played_app(played: Any) -> Any:
    app = make_app(played)
    yield app
    app.quit()
    app.stats.close()
    pygame.display.quit()


def played_app_at(played: Any, size: tuple[int, int]) -> App:
    return make_app(played, size)


# --- the rows -----------------------------------------------------------------------------
@pytest.mark.slow
def test_rows_name_game_board_seating_and_level(played_app: App) -> None:
    scene = open_statistics(played_app)
    lines = all_lines(scene)
    mine = [line for line in lines if line[0] == PLAYER]
    texts = [text for _s, _k, text, _f in mine]
    # Games, then their boards, then one line per seating and level, in that hierarchy.
    t = texts.index("Tic-tac-toe")
    assert texts[t + 1] == "Classic 3×3"
    rows = {text: figures for _s, kind, text, figures in mine[t + 2:] if kind == "row"}
    assert "You vs Computer (Easy)" in rows and "You vs Computer (Perfect)" in rows
    assert rows["Hot seat, 2 players"] == (1, 1, 0, 0)  # X won at one mouse
    # Against Perfect, classic tic-tac-toe is never won.
    assert rows["You vs Computer (Perfect)"][0] == 1 and rows["You vs Computer (Perfect)"][1] == 0
    assert rows["You vs Computer (Easy)"][0] == 1
    # Other families by the names their descriptors give.
    from games.grundy.graphs import BUILTIN

    assert "Grundy games" in texts and "Connect Four" in texts
    assert f"Graph: {BUILTIN[2].name}" in texts
    assert "Rook 8×8, 2 tokens" in texts
    assert "King 8×8" in texts and "7×6 (classic)" in texts
    assert "Computer (Easy) vs You" in texts  # the computer moved first
    assert "You vs Computer (Perfect, 20% mistakes)" in texts


@pytest.mark.slow
def test_no_internal_ids_show(played_app: App) -> None:
    scene = open_statistics(played_app)
    shown = " | ".join(text for _s, _k, text, _f in all_lines(scene))
    ids = [*grundy_ids().values(), "3x3", "7x6", "4x4", "human-computer", "computer-human",
           "human-human", "computer-computer", "perfect@0.2", "tictactoe", "connect4",
           "grundy", "button-madness"]
    for internal in ids:
        assert internal not in shown, f"{internal!r} shows in the table: {shown}"
    # No lower-case level word either (levels are shown by their labels).
    assert not re.search(r"\b(easy|medium|hard|perfect)\b", shown), shown


@pytest.mark.slow
def test_computer_only_games_are_apart_and_not_in_the_players_totals(played_app: App) -> None:
    scene = open_statistics(played_app)
    lines = all_lines(scene)
    sections = [text for _s, kind, text, _f in lines if kind == "section"]
    assert sections == ["Your games", "Puzzles", "Computer against computer"]
    start = next(i for i, line in enumerate(lines) if line[2] == "Computer against computer")
    machines = lines[start:]
    assert all(line[0] == COMPUTER for line in machines)
    assert all(line[0] != COMPUTER for line in lines[:start])
    rows = [(text, figures) for _s, kind, text, figures in machines if kind == "row"]
    assert ("Easy vs Perfect", (1,) + rows[0][1][1:]) in rows  # the game watched
    assert ("Perfect vs Easy", (1, 1, 0, 0)) in rows
    # The chart counts the player's tic-tac-toe: two against the computer and one at one
    # mouse, not the game the computer played against itself (four recorded in all).
    store = played_app.stats
    assert store.totals_by_game()["tictactoe"][0] == 4
    assert scene.debug_state()["totals"]["tictactoe"][0] == 3
    assert scene.debug_state()["totals"]["grundy"][0] == 3
    # And the bar's summary line says so.
    summaries = [w.text for w in scene.ui.widgets if getattr(w, "text", "").startswith("3 played")]
    assert len(summaries) == 2


@pytest.mark.slow
def test_puzzle_solves_are_listed_with_the_best_result(played_app: App) -> None:
    scene = open_statistics(played_app)
    lines = all_lines(scene)
    puzzles = [text for section, _k, text, _f in lines if section == PUZZLES]
    assert puzzles[:2] == ["Puzzles", "Button Madness"]
    assert any(text.startswith("4×4") for text in puzzles)
    assert any(re.fullmatch(r"Best alone: 1 move, \d+\.\d s", text) for text in puzzles)
    assert "Solved once" in puzzles
    assert scene.debug_state()["totals"]["button-madness"] == [1, 1, 0, 0]


@pytest.mark.slow
def test_each_section_names_its_columns(played_app: App) -> None:
    scene = open_statistics(played_app)
    vp, table = played_app.viewport, scene.layout()["table"]
    accent = played_app.theme.palette.accent[:3]
    key(played_app, pygame.K_END)  # the computer's section in view, below the top row
    visible = scene.visible_entries()
    slot = next(i for i, e in enumerate(visible) if e.kind == "section" and e.section == COMPUTER)
    assert slot > 0
    y = table.y + 22 + 6 + slot * 22
    heads = vp.rect(table.right - 4 * 36, y, 4 * 36, 22)
    label = vp.rect(table.x, y, table.w - 4 * 36 - 8, 22)

    def accent_pixels(rect: pygame.Rect) -> int:
        return sum(played_app.screen.get_at((x, yy))[:3] == accent
                   for x in range(rect.left, rect.right) for yy in range(rect.top, rect.bottom))

    # The heading (in the accent colour) and, in its figure columns, "P 1st D 2nd".
    assert accent_pixels(label) > 0 and accent_pixels(heads) > 0
    # A plain row's figure columns carry no accent.
    row = next(i for i, e in enumerate(visible) if e.kind == "row" and i != slot)
    plain = vp.rect(table.right - 4 * 36, table.y + 28 + row * 22, 4 * 36, 22)
    assert accent_pixels(plain) == 0


# --- scrolling, clipping, the chart ----------------------------------------------------------
def fill_many_rows(app: App, variants: int = 20) -> None:
    from games.tictactoe.rules import MNKConfig
    from games.tictactoe.variants import SPEC

    for i in range(variants):
        config = MNKConfig(4 + i % 10, 4 + i // 10, 4)
        app.stats.record_game("tictactoe", SPEC.variant_id(config), "human-computer",
                              ("easy", "hard")[i % 2], "won")


@pytest.mark.slow
def test_scrolls_with_wheel_and_keys_and_says_so_only_when_there_is_more(app: App) -> None:
    app.stats.record_game("tictactoe", "3x3", "human-computer", "easy", "won")
    scene = open_statistics(app)
    assert scene.cue_text() is None  # everything fits: no cue
    cue = app.viewport.map_rect(scene.cue_rect())
    accent = app.theme.palette.accent
    assert not any(app.screen.get_at((x, y))[:3] == accent
                   for x in range(cue.left, cue.right, 2) for y in range(cue.top, cue.bottom))
    key(app, pygame.K_ESCAPE)
    fill_many_rows(app)
    scene = open_statistics(app)
    total, shown = len(scene.entries), scene.shown_rows()
    assert total > shown
    assert scene.scroll == 0 and "scroll for more" in scene.cue_text()
    assert any(app.screen.get_at((x, y))[:3] == accent
               for x in range(cue.left, cue.right, 2) for y in range(cue.top, cue.bottom))
    first = scene.visible_entries()[0]
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    app.step()
    assert scene.scroll == 3 and scene.visible_entries()[0] is scene.entries[3]
    key(app, pygame.K_DOWN)
    assert scene.scroll == 4
    key(app, pygame.K_PAGEDOWN)
    assert scene.scroll == min(4 + shown - 1, total - shown)
    key(app, pygame.K_END)
    assert scene.scroll == total - shown
    assert scene.visible_entries()[-1] is scene.entries[-1]
    assert "scroll for more" not in scene.cue_text() and "more above" in scene.cue_text()
    key(app, pygame.K_END)  # no further than the end
    assert scene.scroll == total - shown
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    app.step()
    assert scene.scroll == total - shown - 3
    key(app, pygame.K_HOME)
    assert scene.scroll == 0 and scene.visible_entries()[0] is first


@pytest.mark.slow
@pytest.mark.parametrize("size", [(640, 480), (1920, 1080)])
def test_no_row_is_clipped_and_shortened_rows_show_whole_on_hover(played: Any,
                                                                   size: tuple[int, int]) -> None:
    app = played_app_at(played, size)
    try:
        fill_many_rows(app, 4)
        # A seating long enough to need shortening in a small window.
        app.stats.record_game("tictactoe", "4x4-3p", "human-computer-computer",
                              "perfect@0.3 vs medium@0.1", "won")
        scene = open_statistics(app)
        vp, window = app.viewport, app.screen.get_rect()
        shortened = []
        for _ in range(len(scene.entries)):
            app.step([])
            for label in [w for w in scene.ui.widgets if type(w).__name__ == "_RowLabel"
                          and w.visible]:
                rect = label.screen_rect(vp)
                assert window.contains(rect), (label.text, rect)
                font = app.theme.font(label.size * vp.scale, label.bold)
                assert len(label.drawn_lines) == 1
                line = label.drawn_lines[0]
                assert font.size(line)[0] <= rect.width, (line, rect)
                assert line == label.text or (line.endswith("…") and label.shortened)
                if label.shortened:
                    shortened.append(label)
            if scene.scroll == len(scene.entries) - scene.shown_rows():
                break
            key(app, pygame.K_DOWN)
        if size == (640, 480):
            assert shortened, "nothing long enough to shorten at 640×480"
            label = shortened[-1]
            entry = scene._slot_entry(label.slot)
            hover(app, *(label.rect[0] + 20, label.rect[1] + label.rect[3] / 2))
            assert app.top.ui.tooltip == entry.detail
            assert entry.text in app.top.ui.tooltip
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


@pytest.mark.slow
def test_the_chart_still_shows_the_players_results(played_app: App) -> None:
    scene = open_statistics(played_app)
    p = played_app.theme.palette
    vp = played_app.viewport
    index = [g.id for g in scene.games].index("tictactoe")
    top, _row_h, bar_h = scene._game_row(index)
    left = scene._bars().x + scene._label_w()
    # Tic-tac-toe: won first (solid), so the bar starts in the "good" colour.
    assert played_app.screen.get_at(vp.point(left + 3, top + bar_h / 2))[:3] == p.good[:3]
    assert "Results per game" in [getattr(w, "text", "") for w in scene.ui.widgets]


def bar_colours(app: App, scene: StatsScene, game_id: str, start: int, count: int) -> set:
    """The colours drawn in the part of ``game_id``'s bar from result ``start`` on,
    ``count`` results long (inset by two pixels, away from the part's edges)."""
    vp = app.viewport
    index = [g.id for g in scene.games].index(game_id)
    top, _row_h, bar_h = scene._game_row(index)
    bars = scene._bars()
    label_w = scene._label_w()
    most = max([t[0] for t in scene.totals.values()] + [1])
    unit = (bars.w - label_w - 8) / most
    rect = vp.rect(bars.x + label_w + start * unit, top, count * unit, bar_h).inflate(-4, -4)
    return {tuple(app.screen.get_at((x, y))[:3])
            for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)}


def test_a_puzzle_solved_with_help_has_its_own_pattern_not_the_draws(app: App) -> None:
    """Issue 28: Button Madness "with help" was drawn with the "drawn" stripes (and the
    key said "drawn / with help"); it has a dotted pattern and a key entry of its own."""
    from games.connect4.params import SPEC as C4
    from games.connect4.rules import Connect4Config

    app.stats.record_game("connect4", C4.variant_id(Connect4Config(7, 6)), "human-computer",
                          "medium", "drawn")
    app.stats.record_puzzle("button-madness", "4", 7, 12.5, False)
    app.stats.record_puzzle("button-madness", "4", 9, 20.0, True)
    scene = open_statistics(app)
    state = scene.debug_state()
    assert state["totals"]["button-madness"] == [2, 1, 0, 0]  # no draws in a puzzle
    assert state["helped"] == {"button-madness": 1}
    assert "2 solved · 1 alone · 1 with help" in [getattr(w, "text", "")
                                                   for w in scene.ui.widgets]
    p = app.theme.palette
    drawn = bar_colours(app, scene, "connect4", 0, 1)
    assert p.neutral[:3] in drawn  # the draw's stripes
    helped = bar_colours(app, scene, "button-madness", 1, 1)
    assert p.good[:3] in helped and p.panel[:3] in helped
    assert p.neutral[:3] not in helped
    # The key: one box per pattern, the dotted one unlike the striped one.
    styles = [style for style, _box in scene.key_boxes]
    assert styles == ["solid", "striped", "dotted", "hollow"]
    boxes = dict(scene.key_boxes)

    def pixels(box: pygame.Rect) -> list:
        return [tuple(app.screen.get_at((box.x + x, box.y + y))[:3])
                for x in range(box.w) for y in range(box.h)]

    assert pixels(boxes["dotted"]) != pixels(boxes["striped"])
    assert p.neutral[:3] not in pixels(boxes["dotted"])


def test_empty_statistics_say_so(app: App) -> None:
    scene = open_statistics(app)
    assert [(e.kind, e.text) for e in scene.entries] == [
        ("section", "Your games"), ("note", "No games of yours recorded yet.")]
    assert scene.cue_text() is None


# --- names from descriptors -------------------------------------------------------------
def test_every_preset_of_every_game_is_named_by_its_label() -> None:
    for game in all_games():
        spec = game.param_spec()
        if spec is None:
            continue
        for preset in spec.presets:
            assert game.variant_title(spec.variant_id(preset.params)) == spec.label(
                preset.params), (game.id, preset.label)


def test_unknown_ids_are_made_readable_not_shown_raw() -> None:
    game = find_game("tictactoe")
    assert game.variant_title("variant-3") is None
    assert readable("variant-3") == "Variant 3" and readable("9x9") == "9×9"
    assert level_title(game, "hard@0.1") == "Hard, 10% mistakes"
    assert level_title(None, "wild") == "Wild"
    assert players_title(game, "computer-computer", "easy vs perfect") == "Easy vs Perfect"
    assert players_title(game, "human-human-human", "") == "Hot seat, 3 players"
    assert players_title(game, "human-human-computer", "hard") == \
        "You vs Player 2 vs Computer (Hard)"
    assert is_computer_only("computer-computer-computer")
    assert not is_computer_only("computer-human")


@pytest.mark.slow
def test_large_figures_stay_in_their_columns(profile: Any) -> None:
    app = make_app(profile, (640, 480))
    try:
        conn = app.stats._conn
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO games (played_at, game, variant, mode, opponent, outcome) "
            "VALUES ('', 'tictactoe', '3x3', 'human-computer', 'easy', 'won')",
            [()] * 12345)
        conn.execute("COMMIT")
        scene = open_statistics(app)
        slot = next(i for i, e in enumerate(scene.visible_entries()) if e.kind == "row")
        assert scene.visible_entries()[slot].figures == (12345, 12345, 0, 0)
        vp, table = app.viewport, scene.layout()["table"]
        y = table.y + 28 + slot * 22
        background = app.theme.palette.background[:3]
        for column in range(4):
            # The gap at the right of each column stays empty: no number runs into it.
            gap = vp.rect(table.right - (4 - column) * 36 + 30 + 1, y, 4, 22)
            assert all(app.screen.get_at((x, yy))[:3] == background
                       for x in range(gap.left, gap.right) for yy in range(gap.top, gap.bottom))
        # The numbers are drawn (not left out to fit): text pixels in the P column.
        p_cell = vp.rect(table.right - 4 * 36, y, 30, 22)
        assert any(app.screen.get_at((x, yy))[:3] != background
                   for x in range(p_cell.left, p_cell.right)
                   for yy in range(p_cell.top, p_cell.bottom))
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


def test_you_against_the_computer_is_said_in_the_right_case() -> None:
    """Issue 28, item 7: Czech "Ty proti Počítač" (a join of nominatives) is "Ty proti
    počítači"; the computer first: "Počítač proti tobě"; other seatings are joined with a
    dash, each name in the nominative."""
    from engine.core.i18n import set_language

    game = find_game("tictactoe")
    assert players_title(game, "human-computer", "") == "You vs Computer"
    assert players_title(game, "computer-human", "hard") == "Computer (Hard) vs You"
    try:
        set_language("cs")
        assert players_title(game, "human-computer", "") == "Ty proti počítači"
        assert players_title(game, "human-computer", "hard") == "Ty proti počítači (Těžká)"
        assert players_title(game, "computer-human", "easy") == "Počítač (Snadná) proti tobě"
        assert players_title(game, "computer-computer", "easy vs perfect") == \
            "Snadná – Dokonalá"
        assert players_title(game, "human-human-human", "") == "U jednoho počítače, 3 hráči"
        set_language("hu")
        assert players_title(game, "human-computer", "") == "Te – Gép"
    finally:
        set_language("en")
