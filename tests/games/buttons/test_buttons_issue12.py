"""Issue 12's play-test findings on Button Madness, through the real screens and events.

1. The E shortcut leaked its "e" into the code dialog (SDL sends TEXTINPUT after the
   KEYDOWN that opened it); 3. help used had loopholes; 9. the colour-blind palette's
   texts named hues not on screen, and big boards lost their rings; 11. texts talked
   about "the source"; 16. the keyboard cursor looked like a solution mark; 5. the size
   stepper's value touched − and +, which were not disabled at the limits.
"""

from __future__ import annotations

import random
import re

import pygame
import pytest

from engine.screens.overlays import TextEntryDialog
from engine.screens.puzzle_scene import WinOverlay
from engine.screens.scene import HelpOverlay, Scene
from engine.ui.animation import FLASH
from engine.ui.widgets import Label
from games.buttons.board import Board, generate, parse_code
from games.buttons.board_render import RING_MIN_PX, luminance, tiny_colours
from games.buttons.board_view import VECTOR_LIMIT
from games.buttons.descriptor import GAME
from games.buttons.explorer_scene import THEOREMS, ExplorerScene
from games.buttons.params import SPEC, ButtonParams
from games.buttons.scene import ButtonMadnessScene
from games.buttons.timings import RIPPLE
from tests.conftest import click, click_widget, key, near, run_until

CTRL = pygame.KMOD_LCTRL
WINDOWS = [(640, 480), (960, 720), (1920, 1080), (1080, 1920)]


def button(scene: ButtonMadnessScene, row: int, col: int) -> tuple[float, float]:
    """Design point of a button's centre, from the scene's own geometry."""
    return scene.app.viewport.to_design(scene.geometry().cell_center(row, col))


def open_board(app, board: Board | str = "12345") -> ButtonMadnessScene:
    if isinstance(board, str):
        board = parse_code(board)
    scene = app.push(ButtonMadnessScene(app, board, seed=7))
    app.step([])
    return scene


def sdl_key(ch: str, keycode: int | None = None) -> list[pygame.event.Event]:
    """The events SDL sends for one typed character: KEYDOWN, TEXTINPUT, KEYUP."""
    keycode = ord(ch) if keycode is None else keycode
    return [pygame.event.Event(pygame.KEYDOWN, key=keycode, mod=0, unicode=ch, scancode=0),
            pygame.event.Event(pygame.TEXTINPUT, text=ch),
            pygame.event.Event(pygame.KEYUP, key=keycode, mod=0, unicode=ch, scancode=0)]


def sdl_type(app, text: str) -> None:
    """Type ``text`` as SDL does, all in one frame's events."""
    for ch in text:
        for event in sdl_key(ch):
            pygame.event.post(event)
    app.step()


def solve_by_clicking(app, scene: ButtonMadnessScene) -> None:
    """Click the presses of the board's solution (worked out here), then see the win."""
    from games.buttons.solver import solve

    for cell in solve(scene.board).presses:
        click(app, *button(scene, *cell))
    app.step([], dt=FLASH)


def win_text(overlay: WinOverlay) -> str:
    return " ".join(w.text for w in overlay.ui.widgets if isinstance(w, Label))


def puzzle_results(app) -> list[tuple[str, int, int]]:
    """(variant, solves, helped solves) per puzzle variant in the statistics."""
    return [(s.variant, s.solved, s.helped) for s in app.stats.puzzle_summary()]


# --- 1. a key that opens a text dialog does not type into it ------------------------------


@pytest.mark.slow
def test_the_e_shortcut_opens_an_empty_code_dialog_and_the_typed_code_loads(app) -> None:
    scene = open_board(app, "65535")
    for event in sdl_key("e", pygame.K_e):  # one frame, exactly as SDL queues them
        pygame.event.post(event)
    app.step()
    dialog = app.top
    assert isinstance(dialog, TextEntryDialog)
    assert dialog.text == "" and dialog.debug_state()["text"] == ""
    sdl_type(app, "12345")
    assert dialog.text == "12345", "no 'e' in front"
    key(app, pygame.K_RETURN)
    assert app.top is scene and dialog.error is None
    assert scene.board == parse_code("12345")


@pytest.mark.slow
def test_letters_typed_after_the_dialog_opened_still_arrive(app) -> None:
    """Only the opening key's own text is dropped: an "e" typed in the dialog stays."""
    open_board(app, "65535")
    for event in sdl_key("e", pygame.K_e):
        pygame.event.post(event)
    app.step()
    dialog = app.top
    sdl_type(app, "ee")
    assert dialog.text == "ee"
    # A paste-like TEXTINPUT with no KEYDOWN before it (IME, tests) arrives too.
    app.step([pygame.event.Event(pygame.TEXTINPUT, text="e")])
    assert dialog.text == "eee"


@pytest.mark.slow
def test_the_enter_code_button_still_opens_the_dialog_and_loads(app) -> None:
    scene = open_board(app, "65535")
    click_widget(app, "Enter code")
    dialog = app.top
    assert isinstance(dialog, TextEntryDialog) and dialog.text == ""
    sdl_type(app, "12345")
    key(app, pygame.K_RETURN)
    assert app.top is scene and scene.board == parse_code("12345")


class _OpensDialogOnAnyKey(Scene):
    """A screen whose every letter key opens a text dialog (as any game's shortcut may)."""

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.unicode.isalnum():
            self.app.push(TextEntryDialog(self.app, "Name", lambda _text: None))


@pytest.mark.parametrize("ch", ["a", "n", "x", "1"])
def test_no_key_that_opens_a_text_dialog_leaks_into_it(app, ch: str) -> None:
    app.push(_OpensDialogOnAnyKey(app))
    app.step([])
    app.step(sdl_key(ch))
    assert isinstance(app.top, TextEntryDialog) and app.top.text == ""
    app.step(sdl_key("z"))
    assert app.top.text == "z"


# --- 3. help used stays used ------------------------------------------------------------


@pytest.mark.slow
def test_solution_shown_then_restart_is_recorded_and_announced_as_helped(app) -> None:
    scene = open_board(app, "12345")
    click_widget(app, "Show solution")
    run_until(app, lambda: scene.marks_drawn())
    click_widget(app, "Show solution")  # hidden again
    click(app, *button(scene, 3, 3))
    click_widget(app, "Restart")
    assert scene.board == parse_code("12345") and scene.presses() == 0 and scene.helped
    solve_by_clicking(app, scene)
    overlay = app.top
    assert isinstance(overlay, WinOverlay) and overlay.helped
    assert "Solved with help" in win_text(overlay)
    assert puzzle_results(app) == [("4x4", 1, 1)]
    assert app.stats.best_puzzle(GAME.id, "4x4") is None


@pytest.mark.slow
def test_a_hint_then_play_again_still_counts_as_helped(app) -> None:
    scene = open_board(app, "12345")
    key(app, pygame.K_h)
    run_until(app, lambda: len(scene.hinted) == 1)
    solve_by_clicking(app, scene)
    assert isinstance(app.top, WinOverlay) and app.top.helped
    click_widget(app, "Play again")  # a new attempt on the same board
    assert app.top is scene and scene.presses() == 0 and scene.helped
    solve_by_clicking(app, scene)
    assert isinstance(app.top, WinOverlay) and "Solved with help" in win_text(app.top)
    assert puzzle_results(app) == [("4x4", 2, 2)]


@pytest.mark.slow
def test_entering_the_code_of_a_helped_board_again_keeps_it_helped(app) -> None:
    """The loophole beside Restart: note the code, see the solution, Generate, enter the
    code again, and solve the "new" board."""
    scene = open_board(app, "12345")
    key(app, pygame.K_s)
    run_until(app, lambda: scene.marks is not None)
    key(app, pygame.K_s)
    key(app, pygame.K_g)
    assert scene.board != parse_code("12345") and not scene.helped
    click_widget(app, "Enter code")
    sdl_type(app, "12345")
    key(app, pygame.K_RETURN)
    assert app.top is scene and scene.board == parse_code("12345")
    assert scene.helped, "the same board entered again is not a fresh puzzle"
    solve_by_clicking(app, scene)
    assert isinstance(app.top, WinOverlay) and app.top.helped
    assert puzzle_results(app) == [("4x4", 1, 1)]
    # Another board is a fresh start: its solve is recorded as done alone.
    click_widget(app, "Close")
    click_widget(app, "Enter code")
    sdl_type(app, "4x4:65534")
    key(app, pygame.K_RETURN)
    assert not scene.helped


# --- 9. colour-blind palette: words and marks -----------------------------------------------

HUES = re.compile(r"(?<!blue-)\b(red|green)\b")


@pytest.fixture
def colourblind(app):
    app.set_palette("colourblind")
    return app


@pytest.mark.slow
def test_colourblind_texts_name_the_colours_on_screen_and_the_shapes(colourblind) -> None:
    app = colourblind
    scene = open_board(app, "12345")
    status = scene.status_text()
    assert "ringed blue-green buttons left" in status and not HUES.search(status)
    legend = scene.legend_texts()
    assert legend[:2] == ["solid orange: done", "ringed blue-green: to turn"]
    assert not any(HUES.search(text) for text in legend)
    key(app, pygame.K_F1)
    assert isinstance(app.top, HelpOverlay)
    assert "solid orange or ringed blue-green" in app.top.text
    assert "Turn every button solid orange" in app.top.text and not HUES.search(app.top.text)
    key(app, pygame.K_ESCAPE)
    solve_by_clicking(app, scene)
    text = win_text(app.top)
    assert "All orange in" in text and not HUES.search(text)


def test_the_default_palette_says_red_and_green_with_their_shapes(app) -> None:
    scene = open_board(app, "12345")
    assert scene.status_text().startswith("10 ringed green buttons left")
    assert scene.legend_texts()[:2] == ["solid red: done", "ringed green: to turn"]


def legend_swatch(scene: ButtonMadnessScene, row: int) -> pygame.Rect:
    """Screen rectangle of a legend row's swatch (as _draw_legend places it)."""
    from games.buttons.scene_layout import LEGEND_ROW_H

    vp = scene.app.viewport
    legend = scene.area("legend")
    step, side = round(LEGEND_ROW_H * vp.scale), vp.px(22)
    return pygame.Rect(legend.x + vp.px(2), legend.y + row * step + (step - side) // 2,
                       side, side)


def ring_line(rect: pygame.Rect) -> list[tuple[int, int]]:
    """Pixels from the centre of ``rect`` out to where a ring would be (0.3 of its width)."""
    return [(rect.centerx + dx, rect.centery) for dx in range(round(rect.width * 0.3) + 1)]


@pytest.mark.parametrize("palette", ["default", "colourblind"])
def test_the_legend_draws_solid_and_ringed_swatches(app, palette: str) -> None:
    app.set_palette(palette)
    scene = open_board(app, "12345")
    p = app.theme.palette
    solid, ringed = legend_swatch(scene, 0), legend_swatch(scene, 1)
    assert all(app.screen.get_at(px)[:3] == p.bad for px in ring_line(solid))
    assert app.screen.get_at(ringed.center)[:3] == p.good
    assert any(near(app.screen.get_at(px), p.background, 30) for px in ring_line(ringed))


def test_a_64_board_keeps_its_rings(colourblind) -> None:
    """64×64 and up are one picture: green buttons still carry their ring there."""
    app = colourblind
    board, _ = generate(64, random.Random(5))
    scene = open_board(app, board)
    geom = scene.geometry()
    assert board.n > VECTOR_LIMIT and geom.cell_size >= RING_MIN_PX
    p = app.theme.palette
    green = next((r, c) for r in range(64) for c in range(64) if not board.red(r, c))
    red = next((r, c) for r in range(64) for c in range(64) if board.red(r, c))

    def colours(cell: tuple[int, int]) -> set[tuple[int, int, int]]:
        rect = geom.cell_rect(*cell)
        return {tuple(app.screen.get_at((x, y))[:3]) for x in range(rect.left, rect.right)
                for y in range(rect.top, rect.bottom)}

    assert colours(green) == {p.good, p.background}, "a ring of background on green"
    assert colours(red) == {p.bad}, "red stays solid"
    assert scene.legend_texts()[:2] == ["solid orange: done", "ringed blue-green: to turn"]
    # A press repaints the buttons in place, rings included: (0, 0) flips (63, 0) and
    # (0, 63) round the torus, far from the last-press marker and the cursor.
    click(app, *button(scene, 0, 0))
    app.step([], dt=RIPPLE)
    flipped = scene.board
    assert flipped.red(63, 0) != board.red(63, 0)
    for cell in ((63, 0), (0, 63)):
        want = {p.bad} if flipped.red(*cell) else {p.good, p.background}
        assert colours(cell) == want, cell


@pytest.mark.parametrize("palette", ["default", "colourblind"])
def test_buttons_of_a_pixel_or_two_differ_strongly_in_lightness(app, palette: str) -> None:
    app.set_palette(palette)
    board, _ = generate(250, random.Random(3))
    scene = open_board(app, board)
    assert scene.geometry().cell_size < RING_MIN_PX and scene.tiny_buttons()
    p = app.theme.palette
    dark, bright = tiny_colours(p.good, p.bad, p.background)
    # WCAG contrast between the two states: at least 3:1 (p.good vs p.bad is ~1.1:1 in
    # the colour-blind palette, which is why hue alone would not do).
    contrast = (luminance(bright) + 0.05) / (luminance(dark) + 0.05)
    assert contrast >= 3.0
    geom = scene.geometry()
    red = next((r, c) for r in range(0, 250, 7) for c in range(0, 250, 7)
               if board.red(r, c) and geom.cell_rect(r, c).width >= 1)
    green = next((r, c) for r in range(0, 250, 7) for c in range(0, 250, 7)
                 if not board.red(r, c) and geom.cell_rect(r, c).width >= 1)
    assert app.screen.get_at(geom.cell_rect(*red).topleft)[:3] == bright
    assert app.screen.get_at(geom.cell_rect(*green).topleft)[:3] == dark
    words = [p.colour_name("bad"), p.colour_name("good")]
    assert scene.legend_texts()[:2] == [f"bright {words[0]}: done", f"dark {words[1]}: to turn"]
    assert scene.status_text().startswith(f"{board.green_count} dark {words[1]} buttons left")
    swatch = legend_swatch(scene, 1)
    assert app.screen.get_at(swatch.center)[:3] == dark


# --- 11. player-facing text in the player's words ----------------------------------------

SOURCE_TALK = re.compile(r"\b(source|document|Figure|paper)\b", re.IGNORECASE)


@pytest.mark.slow
def test_no_player_facing_text_talks_about_the_source(app) -> None:
    scene = open_board(app, "12345")
    texts = [preset.label for preset in SPEC.presets]
    texts += [GAME.blurb, GAME.help_text(), scene.help_text, scene.status_text(), THEOREMS,
              ExplorerScene.help_text, WinOverlay.help_text, *scene.legend_texts()]
    for text in texts:
        assert not SOURCE_TALK.search(text), text
    assert SPEC.label(ButtonParams(4)) == "4×4 (classic)"
    click_widget(app, "Which sizes?")
    assert isinstance(app.top, ExplorerScene)
    app.step([])


# --- 16. cursor, solution mark and last press differ in shape ----------------------------


def edge_middles(rect: pygame.Rect, inset: int) -> list[tuple[int, int]]:
    return [(rect.x + inset, rect.centery), (rect.right - 1 - inset, rect.centery),
            (rect.centerx, rect.y + inset), (rect.centerx, rect.bottom - 1 - inset)]


@pytest.mark.slow
def test_cursor_mark_and_last_press_are_told_apart_by_shape(app) -> None:
    scene = open_board(app, "12345")
    p = app.theme.palette
    key(app, pygame.K_s)
    run_until(app, lambda: scene.marks_drawn())
    app.step([])
    marks = scene.solution_cells()
    plain = next((r, c) for r in range(4) for c in range(4) if (r, c) not in marks)
    geom = scene.geometry()
    # A solution mark: a frame along the inside of the cell, mid-edges included.
    mark = geom.cell_rect(*marks[0])
    frame_w = max(2, round(geom.cell_size / 10))
    assert all(near(app.screen.get_at(px), p.accent, 2)
               for px in edge_middles(mark, frame_w + frame_w // 2))
    # The keyboard cursor on a plain cell: corner brackets outside it in the text colour,
    # nothing at the middles of its edges (not a frame), no yellow.
    scene.pointer.cursor = plain
    app.step([])
    cell = geom.cell_rect(*plain)
    width = max(2, round(cell.width / 12))
    corners = [(cell.x - width // 2 - 1, cell.y - width // 2 - 1),
               (cell.right + width // 2, cell.bottom + width // 2)]
    assert all(near(app.screen.get_at(px), p.text, 2) for px in corners)
    assert not any(near(app.screen.get_at(px), p.accent, 40) or
                   near(app.screen.get_at(px), p.text, 40)
                   for px in edge_middles(cell, 1))
    # The cursor on a marked cell keeps both: the mark's frame and the brackets.
    scene.pointer.cursor = marks[0]
    app.step([])
    assert all(near(app.screen.get_at(px), p.accent, 2)
               for px in edge_middles(mark, frame_w + frame_w // 2))
    width = max(2, round(mark.width / 12))
    assert near(app.screen.get_at((mark.x - width // 2 - 1, mark.y - width // 2 - 1)), p.text, 2)
    # The legend shows all three.
    assert scene.legend_texts()[2:] == ["✱ in a frame: press this", "last press",
                                        "keyboard cursor"]
    cursor_swatch = legend_swatch(scene, 4)
    w = max(2, round(cursor_swatch.width / 12))
    assert near(app.screen.get_at((cursor_swatch.x - w // 2 - 1, cursor_swatch.y - w // 2 - 1)),
                p.text, 2)


def test_the_cursor_shows_on_a_big_board_of_tiny_buttons(app) -> None:
    scene = open_board(app, Board.solved(300))
    key(app, pygame.K_RIGHT)
    cursor = scene.pointer.cursor
    assert cursor is not None
    cx, cy = (round(v) for v in scene.geometry().cell_center(*cursor))
    text = app.theme.palette.text
    box = [(cx + dx, cy + dy) for dx in range(-10, 11) for dy in range(-10, 11)]
    assert sum(near(app.screen.get_at(px), text, 2) for px in box) >= 16


# --- 5. the size stepper ------------------------------------------------------------------


@pytest.mark.parametrize("size", WINDOWS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("n", [2, 20])
def test_the_size_value_keeps_clear_of_minus_and_plus(sized, size, n: int) -> None:
    app = sized(size)
    scene = open_board(app, Board.solved(n).press(0, 0))
    stepper = next(w for w in scene.ui.widgets if getattr(w, "name", "") == "size"
                   and hasattr(w, "value_drawn"))
    value = stepper.value_drawn
    assert value is not None
    vp = app.viewport
    minus = scene.ui.find("size-").screen_rect(vp)
    plus = scene.ui.find("size+").screen_rect(vp)
    gap = max(3, vp.px(6))
    assert value.left >= minus.right + gap and value.right <= plus.left - gap
    # The value is drawn: pixels of the text colour inside it.
    p = app.theme.palette
    assert any(near(app.screen.get_at((x, value.centery)), p.text, 30)
               for x in range(value.left, value.right))


@pytest.mark.slow
def test_minus_and_plus_are_disabled_at_the_limits(app) -> None:
    scene = open_board(app, Board.solved(2).press(0, 0))
    minus, plus = scene.ui.find("size-"), scene.ui.find("size+")
    assert not minus.enabled and plus.enabled
    played = app.audio.played
    click_widget(app, "size-")
    assert scene.board.n == 2 and played[-1:] == ["illegal"]
    for _ in range(18):
        click_widget(app, "size+")
    assert scene.board.n == 20 and not plus.enabled and minus.enabled
    click_widget(app, "size+")
    assert scene.board.n == 20 and played[-1:] == ["illegal"]
    # A disabled button looks it: its face differs from the enabled one's.
    vp = app.viewport
    face_off = app.screen.get_at(plus.screen_rect(vp).move(3, 0).midleft)
    face_on = app.screen.get_at(minus.screen_rect(vp).move(3, 0).midleft)
    assert face_off != face_on
    click_widget(app, "size-")
    assert scene.board.n == 19 and plus.enabled
