"""Notices ("toasts"): info fades by itself, warnings stay until dismissed, repeats show
once, and the stack never covers a game's toolbar or board at any window shape."""

from __future__ import annotations

import pygame
import pytest

from engine.model.seats import Seat
from engine.screens.launcher import LauncherScene
from engine.ui.toasts import INFO_SECONDS, REPEAT_SECONDS
from games.tictactoe.rules import MNKConfig
from games.tictactoe.scene import TicTacToeScene
from tests.conftest import click, key, make_app, near

HOT_SEAT = (Seat(), Seat())
LONG = ("The settings could not be saved: permission denied on "
        "/home/player/.config/arcade-of-strategy/settings.json (it is kept as it was).")


def open_game(app, seats=HOT_SEAT) -> TicTacToeScene:
    scene = app.push(TicTacToeScene(app, MNKConfig(), seats=seats, seed=1))
    app.step([])
    return scene


def advance(app, seconds: float, dt: float = 0.1) -> None:
    """Run frames covering ``seconds`` of frame time (no sleeping: time is stepped)."""
    for _ in range(round(seconds / dt)):
        app.step([], dt)


def press(app, pos, button: int = 1) -> None:
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)])


def escape(app) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b",
                                 scancode=0)])


# --- lifetime --------------------------------------------------------------------------------


@pytest.mark.slow
def test_info_goes_by_itself_after_about_three_seconds_of_frame_time(app) -> None:
    app.notify("Code copied to the clipboard.", "info")
    advance(app, INFO_SECONDS - 0.3)
    assert app.notices == ["Code copied to the clipboard."]
    advance(app, 0.5)
    assert app.notices == []


@pytest.mark.slow
def test_warning_stays_until_dismissed(app) -> None:
    app.notify("The statistics could not be saved.", "warning")
    advance(app, 30, dt=0.5)
    assert app.notices == ["The statistics could not be saved."]


def test_default_level_is_a_warning(app) -> None:
    app.notify("Something failed.")
    assert app.toasts.items[-1].level == "warning"
    with pytest.raises(ValueError):
        app.notify("x", "shout")


@pytest.mark.slow
def test_the_same_text_within_a_few_seconds_shows_once(app, capsys) -> None:
    app.notify("Code copied to the clipboard.", "info")
    advance(app, 1.0)
    app.notify("Code copied to the clipboard.", "info")
    assert app.notices == ["Code copied to the clipboard."]
    # Repeating it keeps it up: it has not gone 3 s after the first.
    advance(app, INFO_SECONDS - 0.6)
    assert app.notices == ["Code copied to the clipboard."]
    advance(app, 1.0)
    assert app.notices == []
    # Gone, but repeated within the few seconds: still not shown again.
    app.notify("Code copied to the clipboard.", "info")
    assert app.notices == []
    # Later it is news again.
    advance(app, REPEAT_SECONDS)
    app.notify("Code copied to the clipboard.", "info")
    assert app.notices == ["Code copied to the clipboard."]
    assert capsys.readouterr().err.count("Code copied") == 2


def test_a_dismissed_warning_repeated_at_once_does_not_come_back(app) -> None:
    app.notify("The settings could not be saved.", "warning")
    app.step([])
    escape(app)
    assert app.notices == []
    app.notify("The settings could not be saved.", "warning")
    assert app.notices == []


@pytest.mark.slow
def test_frames_keep_coming_only_while_a_notice_counts_down(app) -> None:
    app.step([])
    assert not app._needs_frame()
    app.notify("Hints are available in two-player games.", "info")
    app.step([])
    assert app._needs_frame()  # it must be drawn fading and taken away on time
    advance(app, REPEAT_SECONDS + 0.2)
    assert app.notices == [] and not app._needs_frame()
    # A warning alone does not keep the loop busy once its repeat window has passed.
    app.notify("The settings could not be saved.", "warning")
    advance(app, REPEAT_SECONDS + 0.2)
    assert app.notices and not app._needs_frame()


# --- dismissing ------------------------------------------------------------------------------


def test_esc_dismisses_the_newest_warning_first_and_stays_out_of_the_game(app) -> None:
    scene = open_game(app)
    app.notify("First warning.", "warning")
    app.notify("Second warning.", "warning")
    app.notify("Just so you know.", "info")
    app.step([])
    escape(app)
    assert app.notices == ["First warning.", "Just so you know."]
    assert app.top is scene  # Esc did not also leave the game
    escape(app)
    assert app.notices == ["Just so you know."] and app.top is scene
    # No warning left: Esc reaches the game (Back to the launcher) as before.
    escape(app)
    assert isinstance(app.top, LauncherScene)


def test_a_click_on_a_notice_dismisses_it_and_nothing_under_it(app) -> None:
    # On the launcher the stack sits in the bottom-right corner, over the Quit button.
    app.notify(LONG, "warning")
    app.step([])
    (_toast, rect), = app.toasts.placed
    quit_rect = app.viewport.map_rect(app.top.ui.find("Quit").rect)
    assert rect.colliderect(quit_rect)
    spot = rect.clip(quit_rect).center
    press(app, spot)
    assert app.notices == [] and app.running  # the click stopped at the notice
    press(app, spot)
    assert not app.running  # now the button is reachable


def test_an_info_notice_can_be_clicked_away_too(app) -> None:
    app.notify("Code copied to the clipboard.", "info")
    app.step([])
    (_toast, rect), = app.toasts.placed
    press(app, rect.center)
    assert app.notices == []


# --- look ------------------------------------------------------------------------------------


def test_info_and_warning_differ_in_frame_and_icon_shape(app) -> None:
    p = app.theme.palette
    app.settings.set("reduce_motion", True)  # full opacity at once
    app.notify("Saved.", "info")
    app.step([])
    (_info, info_rect), = app.toasts.placed
    app.toasts.items.clear()
    app.notify("Not saved.", "warning")
    app.step([])
    (_warn, warn_rect), = app.toasts.placed
    scale = app.viewport.scale
    # The frame: a thick "bad" border on warnings, a thin neutral one on info.
    inset = max(1, round(2 * scale))
    assert near(app.screen.get_at((warn_rect.x + inset, warn_rect.centery)), p.bad)
    app.toasts.items.clear()
    app.notify("Saved again.", "info")
    app.step([])
    (_info, info_rect), = app.toasts.placed
    assert near(app.screen.get_at((info_rect.x + inset, info_rect.centery)), p.panel)
    assert not near(app.screen.get_at((info_rect.x, info_rect.centery)), p.bad, 30)
    # The icon: a circle (info) leaves its box's corners empty; a triangle (warning) fills
    # its bottom corners.
    pad, icon = round(10 * scale), round(22 * scale)
    corner = (info_rect.x + pad + 1, info_rect.y + pad + icon - 2)
    assert near(app.screen.get_at(corner), p.panel)
    app.toasts.items.clear()
    app.notify("Not saved again.", "warning")
    app.step([])
    (_warn, warn_rect), = app.toasts.placed
    corner = (warn_rect.x + pad + 1, warn_rect.y + pad + icon - 2)
    assert near(app.screen.get_at(corner), p.bad, 40)


@pytest.mark.slow
def test_info_fades_out_unless_motion_is_reduced(app) -> None:
    app.notify("Code copied to the clipboard.", "info")
    advance(app, INFO_SECONDS - 0.1, dt=0.05)
    toast = app.toasts.items[0]
    assert app.toasts.alpha(toast) < 128
    app.settings.set("reduce_motion", True)
    assert app.toasts.alpha(toast) == 255


def test_notices_are_in_the_dumped_state(app) -> None:
    app.notify("Code copied to the clipboard.", "info")
    assert app.debug_state()["notices"] == ["Code copied to the clipboard."]


def test_startup_problems_are_warnings(profile) -> None:
    profile.mkdir(parents=True)
    (profile / "settings.json").write_bytes(b"{not json")
    app = make_app(profile)
    try:
        assert app.toasts.items and all(t.level == "warning" for t in app.toasts.items)
    finally:
        app.quit()
        app.stats.close()


def test_code_copied_is_info_and_a_missing_hint_is_info(app) -> None:
    from games.buttons.board import Board
    from games.buttons.scene import ButtonMadnessScene

    scene = app.push(ButtonMadnessScene(app, Board.solved(4).press(0, 0), seed=1))
    app.step([])
    key(app, pygame.K_c)
    assert app.notices[-1] == "Code copied to the clipboard."
    assert app.toasts.items[-1].level == "info"
    app.pop()
    assert app.top is not scene
    three = app.push(TicTacToeScene(app, MNKConfig(4, 4, 3, players=3), seed=1))
    app.step([])
    key(app, pygame.K_h)
    assert three.show_hints is False
    assert app.toasts.items[-1].level == "info" and "two-player" in app.notices[-1]


# --- where -----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(640, 480), (960, 720), (1920, 1080), (1080, 1920)])
@pytest.mark.parametrize("computers", [False, True])
def test_notices_never_cover_the_toolbar_the_board_or_the_status_bar(profile, size,
                                                                    computers) -> None:
    app = make_app(profile, size)
    try:
        seats = (Seat("computer", "easy"),) * 2 if computers else (Seat(), Seat())
        scene = open_game(app, seats)
        if computers:
            scene.toggle_pause()  # keep the position still
        app.notify(LONG, "warning")
        app.notify("The hint could not be worked out: out of memory.", "warning")
        app.notify("Code copied to the clipboard.", "info")
        app.notify("Hints are available in two-player games.", "info")
        app.step([])
        placed = app.toasts.placed
        assert placed, "nothing drawn"
        toolbar, board = scene.area("toolbar"), scene.area("board")
        status = scene.area("status_bar")
        window = app.screen.get_rect()
        for toast, rect in placed:
            assert not rect.colliderect(toolbar), (toast.text, rect, toolbar)
            assert not rect.colliderect(board), (toast.text, rect, board)
            assert not rect.colliderect(status), (toast.text, rect, status)
            assert window.contains(rect), (toast.text, rect)
        # The newest is always the one shown at the bottom.
        newest = max(placed, key=lambda item: item[1].bottom)
        assert newest[0].text == "Hints are available in two-player games."
        # What does not fit waits, counted, and shows when room is made.
        assert len(placed) + app.toasts.hidden == 4
        while app.notices:
            toast, rect = max(app.toasts.placed, key=lambda item: item[1].bottom)
            press(app, rect.center)
            assert toast.text not in app.notices
            for _toast, rect in app.toasts.placed:
                assert not rect.colliderect(board) and not rect.colliderect(toolbar)
                assert not rect.colliderect(status)
        # Under an overlay (help) the game's board is still kept clear.
        app.notify("The statistics could not be saved: the disk is full.", "warning")
        key(app, pygame.K_F1)
        (_toast, rect), = app.toasts.placed
        assert not rect.colliderect(board) and not rect.colliderect(toolbar)
        assert not rect.colliderect(status)
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


def test_a_long_word_is_broken_rather_than_run_off_the_notice(app) -> None:
    app.notify("The clipboard is not available here; the code is 12x12:" + "7" * 50, "warning")
    app.step([])
    (_toast, rect), = app.toasts.placed
    assert app.screen.get_rect().contains(rect)
    # Nothing but the toast's own frame at its right edge: text stopped inside it.
    right = [app.screen.get_at((rect.right - 2, y))[:3] for y in range(rect.y + 4, rect.bottom - 4)]
    assert all(near(c, app.theme.palette.panel_edge, 60) or near(c, app.theme.palette.bad, 60)
               for c in right)


def test_click_helper_reaches_scene_when_no_notice(app) -> None:
    """Sanity: with nothing showing, clicks go to the screen as before."""
    assert app.notices == []
    quit_button = app.top.ui.find("Quit")
    x, y, w, h = quit_button.rect
    click(app, x + w / 2, y + h / 2)
    assert not app.running
