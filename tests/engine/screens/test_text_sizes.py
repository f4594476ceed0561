"""Text sizes on every screen (issue 28): no text below the minimum, siblings alike.

Each case of :mod:`tests.support.screen_cases` is opened for real at 960×720 (scale 1,
so the minimum is :data:`engine.ui.widgets.MIN_TEXT` pixels) and drawn; then

* every text a visible widget drew (a label, a caption, a stepper's label and value, a
  launcher tile's title, blurb and action) is at least MIN_TEXT design units;
* the members of each :class:`~engine.ui.widgets.SizeGroup` that are shown were drawn at
  one size ("0% mistakes" as large as "10% mistakes", "Copy" as "Enter code", the
  settings' choices, the set-up's columns), and so were the launcher tiles' titles.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.screens.launcher import LauncherTile
from engine.ui.widgets import MIN_TEXT, SizeGroup, Widget
from tests.support.screen_cases import CASES, Case, app_at

SIZE = (960, 720)


def shown_widgets(widgets: list[Widget]) -> list[Widget]:
    """The visible widgets and their visible parts (a stepper's − and +)."""
    out = []
    for widget in widgets:
        if widget.visible:
            out.append(widget)
            out += [part for part in widget.parts() if part.visible]
    return out


def name(widget: Widget) -> str:
    return str(getattr(widget, "name", None) or getattr(widget, "text", type(widget).__name__))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_no_text_below_the_minimum_and_siblings_alike(profile: Path, case: Case) -> None:
    if case.skip:
        pytest.skip(case.skip)
    with app_at(profile, SIZE) as app:
        case.open(app)
        app.step([])
        app.draw()
        scene = app.top
        assert app.viewport.scale == 1.0
        widgets = shown_widgets(scene.ui.widgets)
        drawn = [w for w in widgets if w.drawn_sizes]
        assert drawn, f"{case.name}: no widget drew text"
        for widget in drawn:
            for part, size in widget.drawn_sizes.items():
                assert size >= MIN_TEXT, (f"{case.name}: {name(widget)} ({part}) drawn at "
                                          f"{size}, below {MIN_TEXT}")
        groups: dict[int, SizeGroup] = {}
        for widget in widgets:
            for group in widget.size_groups.values():
                groups[id(group)] = group
        for group in groups.values():
            sizes = {(name(w), part): w.drawn_sizes.get(part) for w, part in group.members
                     if w.visible}
            assert len(set(sizes.values())) <= 1, f"{case.name}: siblings differ: {sizes}"
        tiles = [w for w in widgets if isinstance(w, LauncherTile)]
        if tiles:
            titles = {w.name: w.drawn_sizes["title"] for w in tiles}
            assert len(set(titles.values())) == 1, f"tile titles differ: {titles}"


def test_the_known_siblings_are_grouped(profile: Path) -> None:
    """The rows the play-test named share a size group (so the check above covers them)."""
    with app_at(profile, SIZE) as app:
        from engine.model.registry import find_game
        from games.buttons.scene import ButtonMadnessScene

        scene = app.push(find_game("tictactoe").open_scene(app))
        app.step([])
        import pygame

        from tests.conftest import click_widget, key

        key(app, pygame.K_s)
        setup = app.top
        rates = [setup.ui.find(f"{tag} mistakes") for tag in ("X", "O")]
        assert rates[0].size_groups["text"] is rates[1].size_groups["text"]
        click_widget(app, "X computer")
        click_widget(app, "O mistakes")  # "10% mistakes" beside "0% mistakes"
        app.step([])
        app.draw()
        assert [r.label for r in rates] == ["0% mistakes", "10% mistakes"]
        assert rates[0].drawn_sizes == rates[1].drawn_sizes
        app.pop()
        app.pop()
        del scene
        buttons = app.push(ButtonMadnessScene(app))
        app.step([])
        copy, enter = buttons.ui.find("Copy"), buttons.ui.find("Enter code")
        assert copy.size_groups["text"] is enter.size_groups["text"]
        app.draw()
        assert copy.drawn_sizes == enter.drawn_sizes
        assert not enter.shortened
