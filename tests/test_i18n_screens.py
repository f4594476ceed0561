"""Every screen in Hungarian and Czech shows its text whole (issue 15, item 3).

Each screen of tests/test_layout.py (the launcher, statistics, settings, help, every
game with its set-up, help and result screens, the Grundy table, Button Madness's win
screen, explorer and code entry) is opened in each language under the dummy video
driver, at 960×720, and drawn. Every text widget fits its text with
:func:`engine.widgets.fit_text`, which wraps and shrinks before it shortens: a widget
whose text still had to be cut with "…" (``shortened``, a stepper's label or value, a
launcher tile's title or blurb) is a clipped translation. A widget shortened in English
too (a window too small for it anyway) is not the translation's fault and is left out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.app import App
from engine.launcher import LauncherTile
from engine.stepper import Stepper
from engine.widgets import ELLIPSIS, Widget
from tests.test_layout import CASES, Case, app_at

SIZE = (960, 720)
LANGUAGES = ("en", "hu", "cs")


def _name(widget: Widget) -> str:
    return getattr(widget, "name", None) or type(widget).__name__


def clipped(app: App) -> dict[str, str]:
    """The text widgets of the screen on top whose text is cut short, by name: their
    whole text."""
    out: dict[str, str] = {}
    for widget in app.top.ui.widgets:
        if not widget.visible:
            continue
        for part in (widget, *widget.parts()):
            key = f"{type(part).__name__} {_name(part)} @{tuple(round(v) for v in part.rect)}"
            if isinstance(part, LauncherTile):
                fitted = list(part._text_cache.values())
                if part.shortened or any(title.endswith(ELLIPSIS) for _s, title, _l, _c
                                         in fitted):
                    out[key] = f"{part.family.title}: {part.family.blurb}"
            elif isinstance(part, Stepper):
                if part.tooltip:
                    out[key] = part.tooltip
            elif part.shortened:
                out[key] = part.full_text
    return out


def screen(profile: Path, case: Case, language: str) -> dict[str, str]:
    """Open ``case`` with the app speaking ``language`` and return what is clipped."""
    with app_at(profile, SIZE) as app:
        app.set_language(language)
        case.open(app)
        app.step([])
        app.step([])  # a second frame: widgets placed by the first one are fitted too
        return clipped(app)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name.replace(" ", "-"))
def test_every_screen_shows_its_text_whole_in_every_language(
        profile: Path, tmp_path: Path, case: Case) -> None:
    if case.skip:
        pytest.skip(case.skip)
    english = screen(tmp_path / "en", case, "en")
    problems = []
    for language in LANGUAGES[1:]:
        cut = screen(tmp_path / language, case, language)
        problems += [f"{language}: {key}: {text!r}" for key, text in cut.items()
                     if key not in english]
    assert not problems, f"{case.name}: text cut short\n" + "\n".join(problems)


def test_the_check_sees_a_clipped_translation(profile: Path) -> None:
    """A caption far too long for its button is reported."""
    from engine.widgets import Button

    with app_at(profile, SIZE) as app:
        app.top.ui.add(Button((10, 10, 40, 30), "an extremely long caption for a tiny button",
                              lambda: None, name="tiny"))
        app.step([])
        assert any("tiny" in key for key in clipped(app))
