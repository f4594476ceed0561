"""Regressions for crashes found by the soak monkey (tests/support/soak.py)."""

from __future__ import annotations

from pathlib import Path

import pygame

from games.buttons.scene import ButtonMadnessScene
from tests.conftest import make_app


def test_button_madness_cursor_dropped_when_board_shrinks(profile: Path) -> None:
    # soak seed 1, input 382 (and seed 2, input 1298): the keyboard cursor at (2, 1) on a
    # 3×3 board survived "size −" and drawing it on the 2×2 board raised IndexError.
    app = make_app(profile)
    try:
        scene = app.push(ButtonMadnessScene(app, seed=3))
        while scene.board.n > 3:
            scene.change_size(-1)
        while scene.board.n < 3:
            scene.change_size(1)
        scene.pointer.cursor = (2, 1)
        scene.pointer.hover = (2, 2)
        scene.change_size(-1)
        assert scene.board.n == 2
        app.step([])  # drew the board without IndexError
        assert scene.pointer.cursor is None and scene.pointer.hover is None
        # Undo back to 3×3 and redo to 2×2 with a cursor on the big board: same.
        scene.undo()
        scene.pointer.cursor = (2, 2)
        scene.redo()
        app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0,
                                     unicode="\r", scancode=0)])
    finally:
        app.quit()
        app.stats.close()
        pygame.display.quit()


def test_font_cache_is_bounded_across_window_sizes() -> None:
    # soak seed 7, 50,000 inputs: resident memory grew 65 MB from input 10,000 on, as
    # Theme.font kept one pygame Font (~0.2 MB with glyphs) per pixel size ever drawn.
    from engine.ui.theme import FONT_CACHE_SIZE, Theme

    theme = Theme()
    recent = theme.font(20)
    for px in range(6, 300):
        theme.font(px, bold=px % 2 == 0)
        theme.font(20)  # kept while in use
    assert len(theme._fonts) <= FONT_CACHE_SIZE
    assert theme.font(20) is recent
