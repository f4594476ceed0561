"""A closed code dialog leaves nothing of pygame_gui's behind."""

from __future__ import annotations

import gc
import weakref

import pytest

from engine.screens.overlays import TextEntryDialog


@pytest.mark.slow
def test_a_closed_text_dialog_frees_its_pygame_gui_manager(app) -> None:
    from pygame_gui.core.utility import set_default_manager

    set_default_manager(None)  # as in a fresh process: this dialog's becomes the default
    dialog = app.push(TextEntryDialog(app, "Code", lambda _text: None, initial="1234"))
    app.step([])
    assert dialog._manager is not None
    manager = weakref.ref(dialog._manager)
    dialog.close()
    app.step([])
    del dialog
    gc.collect()  # (pygame_gui's elements and manager refer to each other)
    assert manager() is None
