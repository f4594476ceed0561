"""Every screen in Hungarian and Czech shows its text whole (issue 15, item 3).

Each screen of tests/engine/screens/test_layout.py (the launcher, statistics, settings, help, every
game with its set-up, help and result screens, the Grundy table, Button Madness's win
screen, explorer and code entry) is opened in each language under the dummy video
driver, at 960×720, and drawn. Every text widget fits its text with
:func:`engine.ui.widgets.fit_text`, which wraps and shrinks before it shortens: a widget
whose text still had to be cut with "…" (``shortened``, a stepper's label or value, a
launcher tile's title or blurb) is a clipped translation. A widget shortened in English
too (a window too small for it anyway) is not the translation's fault and is left out.

Text drawn straight with ``font.render`` is checked too, on the screens that draw it: the
hint legend (engine.ui.value_overlay.draw_value_legend: title, tag and meaning rows, note) of
a tic-tac-toe 3×3 game and of Connect Four, the ranked "Best moves" legend of a gomoku
position (fitted with fit_text, which must not cut it with "…") and the result panel's
headline. Each text drawn must lie within the box the scene's layout gives it, measured
with the font it is drawn in.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pygame
import pytest

from engine.runtime.app import App
from engine.screens.launcher import LauncherTile
from engine.ui.stepper import Stepper
from engine.ui.widgets import ELLIPSIS, Widget, wrap_text
from tests.conftest import key, wait_hints
from tests.support.screen_cases import CASES, Case, app_at, finish_the_game

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


# Every screen in three languages takes ~5 s: the quick run keeps the legend and headline
# checks below; the full run (CI) checks every screen.
@pytest.mark.slow
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
    from engine.ui.widgets import Button

    with app_at(profile, SIZE) as app:
        app.top.ui.add(Button((10, 10, 40, 30), "an extremely long caption for a tiny button",
                              lambda: None, name="tiny"))
        app.step([])
        assert any("tiny" in key for key in clipped(app))


# --- text drawn with font.render: legends and the result headline ------------------------


class Recording(pygame.Surface):
    """A surface that notes where each picture (a rendered text) is blitted, unclipped."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(size, pygame.SRCALPHA)
        self.drawn: list[pygame.Rect] = []

    def blit(self, source: pygame.Surface, dest: Any, area: Any = None,
             special_flags: int = 0) -> pygame.Rect:
        where = dest.topleft if isinstance(dest, pygame.Rect | pygame.FRect) else dest
        self.drawn.append(source.get_rect(topleft=(round(where[0]), round(where[1]))))
        return super().blit(source, dest, area, special_flags)


def outside(drawn: list[pygame.Rect], box: pygame.Rect, slack: int = 1) -> list[pygame.Rect]:
    """The pictures in ``drawn`` that reach out of ``box`` (by more than ``slack`` px)."""
    room = box.inflate(2 * slack, 2 * slack)
    return [rect for rect in drawn if not room.contains(rect)]


def watch_text_blocks(monkeypatch: pytest.MonkeyPatch, *modules: Any,
                      seen: list[str] | None = None) -> list[str]:
    """Check every engine.ui.widgets.draw_text_block call of ``modules`` (wrapped, not cut):
    each line fits its rectangle's width and the lines its height. Returns the problems
    found (filled as the text is drawn); ``seen`` gets every text checked."""
    problems: list[str] = []
    for module in modules:
        real = module.draw_text_block

        def check(surface: Any, text: str, font: Any, colour: Any, rect: pygame.Rect,
                  *args: Any, _real: Any = real, **kwargs: Any) -> bool:
            if seen is not None:
                seen.append(text)
            lines = wrap_text(text, font, rect.width)
            wide = [line for line in lines if font.size(line)[0] > rect.width]
            if wide or len(lines) * font.get_linesize() > rect.height:
                problems.append(f"{text!r}: {len(lines)} lines, {wide} too wide, in "
                                f"{rect.size}")
            return _real(surface, text, font, colour, rect, *args, **kwargs)

        monkeypatch.setattr(module, "draw_text_block", check)
    return problems


def value_legend_problems(app: App, scene: Any, box: Any) -> list[str]:
    """What of ``scene``'s hint legend (draw_value_legend, with each note a hint can
    have) is drawn outside its box of the layout, in the current language."""
    from engine.ui.value_overlay import PROVEN_NOTE, REMOTENESS_NOTE, draw_value_legend

    vp, problems = app.viewport, []
    room = vp.map_rect(tuple(box))
    for note in (PROVEN_NOTE, REMOTENESS_NOTE):
        for style in ("fill", "mark"):
            canvas = Recording(app.screen.get_size())
            bottom = draw_value_legend(canvas, vp, app.theme, box.x, box.y, width=box.w,
                                       style=style, note=note)
            problems += [f"{style} legend, {note[:30]!r}: text at {rect} outside {room}"
                         for rect in outside(canvas.drawn, room)]
            if bottom > box.y + box.h + 1:
                problems.append(f"{style} legend, {note[:30]!r}: {bottom} below its box")
    return problems


def test_the_hint_legends_fit_their_boxes_in_every_language(
        profile: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tic-tac-toe 3×3 with hints on (the real legend, drawn by the scene) and Connect
    Four's legend box: title, rows and note inside the box, in en, hu and cs."""
    import engine.ui.value_overlay as value_overlay
    from engine.model.registry import find_game
    from engine.model.seats import Seat
    from games.tictactoe.rules import MNKConfig
    from games.tictactoe.scene import TicTacToeScene

    blocks = watch_text_blocks(monkeypatch, value_overlay)
    problems: list[str] = []
    with app_at(profile, SIZE) as app:
        scene = app.push(TicTacToeScene(app, MNKConfig(), (Seat(), Seat())))
        key(app, pygame.K_h)
        wait_hints(app, scene)
        assert scene.candidates() is None, "3×3 hints are exact values: the value legend"
        connect4 = find_game("connect4")
        other = connect4.open_scene(app, None, seats=(Seat(), Seat()))
        for language in LANGUAGES:
            app.set_language(language)
            before = len(blocks)
            box = scene.layout()["legend"]
            canvas = Recording(app.screen.get_size())
            scene._draw_hint_legend(canvas)  # the scene's own call, its own note
            assert canvas.drawn, "the legend was drawn"
            problems += [f"{language}: tic-tac-toe legend text at {rect} outside its box"
                         for rect in outside(canvas.drawn, app.viewport.map_rect(tuple(box)))]
            problems += [f"{language}: tic-tac-toe {p}" for p in
                         value_legend_problems(app, scene, box)]
            problems += [f"{language}: Connect Four {p}" for p in
                         value_legend_problems(app, other, other.layout()["legend"])]
            problems += [f"{language}: note {p}" for p in blocks[before:]]
        other.leave()
    assert not problems, "legend text out of its box:\n" + "\n".join(problems)


@pytest.mark.slow
def test_the_ranked_legend_is_never_cut_in_any_language(
        profile: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A gomoku position's ranked hint ("Best moves", the real one), then every reason
    four rows at a time (the most a hint ranks) with a long outlook, the first row proven
    or not: fit_text never has to end a row or the note with "…" in any language, and
    every text lies within the legend's box."""
    import games.tictactoe.scene as ttt_scene
    from engine.model.seats import Seat
    from engine.model.values import MoveValue
    from games.tictactoe.advice import Candidate
    from games.tictactoe.rules import MNKConfig, TicTacToeState
    from games.tictactoe.threats import REASONS

    fitted: list[tuple[str, bool]] = []
    real = ttt_scene.fit_text

    def fit(theme: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        used, lines, shortened = real(theme, text, *args, **kwargs)
        fitted.append((text, shortened))
        return used, lines, shortened

    monkeypatch.setattr(ttt_scene, "fit_text", fit)
    grid = [["."] * 15 for _ in range(15)]
    for (r, c), mark in {(7, 4): "X", (7, 5): "X", (7, 6): "X", (7, 7): "X", (7, 3): "O",
                         (0, 0): "O", (0, 14): "O", (14, 0): "O"}.items():
        grid[r][c] = mark
    gomoku = MNKConfig(15, 15, 5)
    cut: dict[str, list[tuple[str, bool]]] = {}
    problems: list[str] = []
    with app_at(profile, SIZE) as app:
        scene = app.push(ttt_scene.TicTacToeScene(app, gomoku, (Seat(), Seat())))
        scene._push(TicTacToeState.from_rows(["".join(row) for row in grid], gomoku))
        key(app, pygame.K_h)
        wait_hints(app, scene)
        ranked = scene.candidates()
        assert ranked, "a gomoku position has a ranked hint"
        fields = {"four": "four", "three": "three", "count": 4}
        every = [Candidate(rank, (rank,), MoveValue("win", None, exact=False,
                                                    note=reason.format(**fields)), outlook)
                 for rank, (reason, outlook) in enumerate(
                     zip(REASONS, ("looks like a win in 9", "looks like a loss in 8")
                         * len(REASONS),
                         strict=False), 1)]
        box = scene.layout()["legend"]
        room = app.viewport.map_rect(tuple(box))
        for language in LANGUAGES:
            app.set_language(language)
            fitted.clear()
            for group in (ranked, *(every[i:i + 4] for i in range(0, len(every), 4))):
                for proven in (False, True):
                    rows = [Candidate(c.rank, c.cells, MoveValue(
                        c.value.outcome, c.value.remoteness, exact=proven and c.rank == 1,
                        note=c.value.note), c.outlook) for c in group]
                    canvas = Recording(app.screen.get_size())
                    scene._draw_ranked_legend(canvas, box, rows)
                    problems += [f"{language}: text at {rect} outside {room}"
                                 for rect in outside(canvas.drawn, room)]
            cut[language] = list(fitted)
        problems += [f"{language}: cut with …: {text!r}"
                     for language in LANGUAGES for text, short in cut[language] if short]
    assert not problems, "ranked legend:\n" + "\n".join(sorted(set(problems)))


def test_the_result_headline_fits_its_panel_in_every_language(
        profile: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished game's result panel, with every headline it can have (draw, you win,
    the computer wins, X wins, X (computer, each level) wins) in en, hu and cs: one line
    in the headline's box, the detail line in its own."""
    import engine.screens.result_overlay as result_overlay
    from engine.model.registry import all_games
    from engine.model.seats import Seat
    from tests.support.screen_cases import open_game

    seen: list[str] = []
    blocks = watch_text_blocks(monkeypatch, result_overlay, seen=seen)
    problems: list[str] = []
    with app_at(profile, SIZE) as app:
        for game in (g for g in all_games() if not g.is_puzzle):
            open_game(game.id, "hvh")(app)
            finish_the_game(app)
            overlay = app.top
            scene = overlay.scene
            level = game.levels[-1] if game.levels else "easy"
            seatings = [(Seat(), Seat()), (Seat(), Seat("computer", level)),
                        (Seat("computer", level), Seat()),
                        *((Seat("computer", lv), Seat("computer", lv)) for lv in game.levels)]
            for language in LANGUAGES:
                app.set_language(language)
                for seats in seatings:
                    for returns in ((1, -1), (-1, 1), (0, 0)):
                        fake = SimpleNamespace(seats=seats, player_name=scene.player_name)
                        state = SimpleNamespace(returns=lambda r=returns: r)
                        overlay.headline, overlay.tone = result_overlay.result_headline(
                            fake, state)
                        before = len(blocks)
                        canvas = Recording(app.screen.get_size())
                        overlay.draw_body(canvas, app.viewport.map_rect(
                            tuple(overlay.panel_rect())))
                        problems += [f"{language}: {game.id}: {p}" for p in blocks[before:]]
            app.pop()  # the panel
            app.pop()  # the game
    assert {"Draw", "Döntetlen", "You win", "X wins"} <= set(seen), "the headlines were drawn"
    assert not problems, "result headline:\n" + "\n".join(sorted(set(problems)))


def test_the_text_checks_see_text_out_of_its_box(profile: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A headline too long for the panel, and a blit reaching out of a box, are reported."""
    import engine.screens.result_overlay as result_overlay

    blocks = watch_text_blocks(monkeypatch, result_overlay)
    with app_at(profile, SIZE) as app:
        panel = pygame.Rect(0, 0, 200, 100)
        result_overlay.draw_text_block(Recording((300, 200)), "a headline " * 20,
                                       app.theme.font(34), (0, 0, 0), panel)
        assert blocks
        canvas = Recording((300, 200))
        canvas.blit(app.theme.font(14).render("wide words", True, (0, 0, 0)), (190, 10))
        assert outside(canvas.drawn, panel)


@pytest.mark.parametrize("size", [(640, 480), (960, 720), (1920, 1080), (1080, 1920)])
def test_the_player_cards_text_fits_its_card_in_every_language(profile: Path,
                                                               size: tuple[int, int]) -> None:
    """Issue 28, item 6: a Grundy game names its players "Player 1" ("1. játékos",
    "Hráč 1"); the name, "Human"/"Computer" and the turn line are drawn inside the card at
    every window size the layout tests use (test_layout.SIZES), in every language."""
    from tests.support.screen_cases import open_game

    problems: list[str] = []
    with app_at(profile, size) as app:
        open_game("grundy", "hvc")(app)
        scene = app.top
        for language in LANGUAGES:
            app.set_language(language)
            app.step([])
            canvas = Recording(app.screen.get_size())
            scene.draw_player_cards(canvas)
            cards = [app.viewport.map_rect(tuple(scene.layout()[f"card{i}"]))
                     for i in range(len(scene.seats))]
            # Everything blitted but the glow round the mover's card (it holds a card).
            texts = [r for r in canvas.drawn if not any(r.contains(c) for c in cards)]
            assert texts, "the cards drew their text"
            problems += [f"{language} {size}: text at {r} outside every card {cards}"
                         for r in texts if not any(c.contains(r) for c in cards)]
            # The name ends where the card does (less its margin), shrunk rather than cut.
            for i in range(len(cards)):
                name, _size = scene.card_name_fit(i, scene.layout()[f"card{i}"].w)
                assert name == scene.player_name(i), f"{language} {size}: {name!r} cut"
    assert not problems, "\n".join(problems)
