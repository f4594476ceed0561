"""The settings overlay: sound on/off, volume, reduce motion, the colour palette and the
language.

Modal, like the dialogs in :mod:`engine.screens.overlays`; every change is saved at once
(``app.settings.set`` + ``app.save_settings()``), so there is no OK/Cancel: Esc
or Close just closes it. It lays itself out in the window's design area
(``app.viewport.area``), centred, at any window size from 640×480 up.

Keys: Tab / Shift+Tab move between the buttons, Enter or Space press one,
+ / − change the volume, Esc closes. A new language shows at once, on this screen and
the one beneath (widgets translate their text when they draw: see engine/core/i18n.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from engine.core.i18n import CHOICES as LANGUAGE_CHOICES
from engine.core.i18n import N_, choice_label
from engine.screens.scene import Overlay
from engine.storage.settings import VOLUME_MAX, VOLUME_MIN
from engine.ui.stepper import VALUE_GAP, Stepper
from engine.ui.theme import PALETTES
from engine.ui.widgets import Button, Label, SizeGroup

if TYPE_CHECKING:
    from engine.runtime.app import App

# Panel size in design units (smaller only if the window's area is: it never is above
# 640×480, whose area is 800×600).
PANEL_W, PANEL_H = 620.0, 500.0
MARGIN = 20.0  # between the panel and the window's edge, at least
PAD = 28.0  # inside the panel
TITLE_H = 50.0
LABEL_W = 165.0  # the column of row names
ROW_H = 64.0
CONTROL_H = 44.0
GAP = 12.0
STEP_W = 48.0  # the − and + buttons
NUMBER_W = 64.0  # the volume in percent
CLOSE_W = 140.0
VOLUME_STEP = 10
# The effect played to let the player hear a new volume (or that sound is back on).
PREVIEW_SOUND = "place"

ROWS = ("sound", "volume", "motion", "palette", "language")
ROW_NAMES = {"sound": N_("Sound effects"), "volume": N_("Volume"), "motion": N_("Reduce motion"),
             "palette": N_("Colours"), "language": N_("Language")}


def settings_layout(area: pygame.FRect) -> dict[str, pygame.FRect]:
    """Named design-unit rectangles of the overlay, centred in ``area``.

    ``panel``; ``title``; for each row in :data:`ROWS` ``<row>_label`` and
    ``<row>_controls`` (where its buttons go); ``close`` and ``hint`` at the bottom.
    """
    w = min(PANEL_W, area.w - 2 * MARGIN)
    h = min(PANEL_H, area.h - 2 * MARGIN)
    panel = pygame.FRect(0, 0, w, h)
    panel.center = area.center
    left, right = panel.x + PAD, panel.right - PAD
    rects = {"panel": panel, "title": pygame.FRect(left, panel.y + PAD, right - left, TITLE_H)}
    y = panel.y + PAD + TITLE_H + 8
    for row in ROWS:
        rects[f"{row}_label"] = pygame.FRect(left, y, LABEL_W, ROW_H)
        rects[f"{row}_controls"] = pygame.FRect(left + LABEL_W, y + (ROW_H - CONTROL_H) / 2,
                                                right - left - LABEL_W, CONTROL_H)
        y += ROW_H
    close = pygame.FRect(right - CLOSE_W, panel.bottom - PAD - CONTROL_H, CLOSE_W, CONTROL_H)
    rects["close"] = close
    rects["hint"] = pygame.FRect(left, close.y, close.x - GAP - left, CONTROL_H)
    return rects


def split(rect: pygame.FRect, count: int, index: int) -> pygame.FRect:
    """Part ``index`` of ``count`` equal parts of ``rect`` side by side, GAP apart."""
    width = (rect.w - GAP * (count - 1)) / count
    return pygame.FRect(rect.x + index * (width + GAP), rect.y, width, rect.h)


def volume_parts(controls: pygame.FRect) -> dict[str, pygame.FRect]:
    """The volume row: the level ``bar``, then the ``stepper`` (−, the percentage, +)."""
    stepper_w = 2 * STEP_W + NUMBER_W + 2 * VALUE_GAP
    stepper = pygame.FRect(controls.right - stepper_w, controls.y, stepper_w, controls.h)
    bar_h = controls.h * 0.45
    bar = pygame.FRect(controls.x, controls.centery - bar_h / 2,
                       stepper.x - GAP - controls.x, bar_h)
    return {"bar": bar, "stepper": stepper}


def stepped(volume: int, step: int) -> int:
    """The volume one step (``+1`` or ``-1``) from ``volume`` on the grid of tens, clamped.

    A hand-edited 75 goes to 80 or 70, not to 85 or 65.
    """
    if step > 0:
        target = (volume // VOLUME_STEP + 1) * VOLUME_STEP
    else:
        target = (-(-volume // VOLUME_STEP) - 1) * VOLUME_STEP
    return max(VOLUME_MIN, min(VOLUME_MAX, target))


class SettingsOverlay(Overlay):
    """Sound on/off, volume − / +, reduce motion on/off, the palette and the language;
    saved at once."""

    help_title = N_("Settings")
    help_text = N_(
        "Sound effects: On plays a short sound for moves, wins, losses and mistakes; Off "
        "keeps the game silent.\n\n"
        "Volume: − and + (or the − and + keys; ← and → while it has the focus) change it "
        "in steps of 10; you hear the new level at once.\n\n"
        "Reduce motion: On makes pieces appear and move without animation.\n\n"
        "Colours: the colour-blind-safe palette uses colours told apart with every common "
        "colour-vision deficiency; players are also told apart by shape.\n\n"
        "Language: System follows the computer's language; English, Magyar and Čeština "
        "choose one.\n\n"
        "Every change is saved straight away. Esc or Close closes this window.")

    def __init__(self, app: App) -> None:
        super().__init__(app)
        ui = self.ui
        ui.add(Label(lambda: self._rect("title"), N_("Settings"), size=28, bold=True,
                     role="accent"))
        for row in ROWS:
            ui.add(Label(lambda row=row: self._rect(f"{row}_label"), ROW_NAMES[row], size=20))
        # Buttons are added in reading order, which is the Tab order. Every choice is one
        # line, and all of them are drawn at one size (issue 28: "✓ System" wrapped while
        # its neighbours did not).
        choices = ((N_("On"), True), (N_("Off"), False))
        same = SizeGroup()
        for index, (label, on) in enumerate(choices):
            ui.add(same.add(Button(lambda i=index: self._part("sound", 2, i), label,
                                   lambda on=on: self.set_sound(on), name=f"Sound {label.lower()}",
                                   selected=lambda on=on: self.app.audio.enabled == on, size=16,
                                   max_lines=1)))
        # One Tab stop: − is disabled at 0 and + at 100 without the focus moving on.
        ui.add(Stepper(lambda: self._volume_part("stepper"), lambda: f"{self._volume()}%",
                       self.change_volume,
                       lambda sign: self._volume() > VOLUME_MIN if sign < 0
                       else self._volume() < VOLUME_MAX,
                       name="volume", size=20, button_w=STEP_W))
        for index, (label, on) in enumerate(choices):
            ui.add(same.add(Button(lambda i=index: self._part("motion", 2, i), label,
                                   lambda on=on: self.set_reduce_motion(on),
                                   name=f"Reduce motion {label.lower()}",
                                   selected=lambda on=on: self._reduce_motion() == on, size=16,
                                   max_lines=1)))
        names = list(PALETTES)
        for index, name in enumerate(names):
            ui.add(same.add(Button(lambda i=index: self._part("palette", len(names), i),
                                   PALETTES[name].label, lambda name=name: self.set_palette(name),
                                   name=f"Palette {name}", size=16, max_lines=1,
                                   selected=lambda name=name: self.app.theme.palette.name == name)))
        languages = LANGUAGE_CHOICES
        for index, code in enumerate(languages):
            ui.add(same.add(Button(lambda i=index: self._part("language", len(languages), i),
                                   lambda code=code: choice_label(code),
                                   lambda code=code: self.set_language(code),
                                   name=f"Language {code}", size=16, max_lines=1,
                                   selected=lambda code=code: self._language() == code)))
        ui.add(Label(lambda: self._rect("hint"), N_("Changes are saved at once · Esc closes"),
                     size=15, role="muted"))
        ui.add(Button(lambda: self._rect("close"), N_("Close"), self.close, name="Close"))

    # --- layout ----------------------------------------------------------------------------
    def layout(self) -> dict[str, pygame.FRect]:
        """The overlay's rectangles for the current window (see :func:`settings_layout`)."""
        return settings_layout(self.app.viewport.area)

    @property
    def panel(self) -> tuple[float, float, float, float]:  # type: ignore[override]
        """The panel, centred in the window's design area (read by Overlay.draw)."""
        return tuple(self.layout()["panel"])  # type: ignore[return-value]

    def _rect(self, name: str) -> tuple[float, float, float, float]:
        return tuple(self.layout()[name])  # type: ignore[return-value]

    def _part(self, row: str, count: int, index: int) -> tuple[float, float, float, float]:
        return tuple(split(self.layout()[f"{row}_controls"], count, index))  # type: ignore

    def _volume_part(self, name: str) -> tuple[float, float, float, float]:
        return tuple(volume_parts(self.layout()["volume_controls"])[name])  # type: ignore

    # --- the settings ----------------------------------------------------------------------
    def _volume(self) -> int:
        return int(self.app.settings.get("volume"))

    def _reduce_motion(self) -> bool:
        return bool(self.app.settings.get("reduce_motion"))

    def _language(self) -> str:
        return str(self.app.settings.get("language"))

    def _save(self, key: str, value: Any) -> None:
        if self.app.settings.get(key) == value:
            return  # pressing the chosen option again changes (and writes) nothing
        self.app.settings.set(key, value)
        self.app.save_settings()

    def set_sound(self, on: bool) -> None:
        """Switch sound effects on (with a sound to show it) or off (silencing any playing)."""
        was = self.app.audio.enabled
        self._save("sound", on)
        if on and not was:
            self.app.audio.play(PREVIEW_SOUND)
        elif not on:
            self.app.audio.stop()

    def change_volume(self, step: int) -> None:
        """One step down (``-1``) or up (``+1``); plays a sound at the new volume."""
        volume = stepped(self._volume(), step)
        if volume == self._volume():
            return
        self._save("volume", volume)
        self.app.audio.play(PREVIEW_SOUND)  # heard at the new volume (if sound is on)

    def set_reduce_motion(self, on: bool) -> None:
        """Animations on (False) or finishing at once (True)."""
        self._save("reduce_motion", on)

    def set_language(self, choice: str) -> None:
        """Speak ``choice`` ("system" or a language code) from the next frame on (saved)."""
        if self._language() != choice:
            self.app.set_language(choice)

    def set_palette(self, name: str) -> None:
        """Switch to palette ``name`` (the app saves it)."""
        if self.app.theme.palette.name != name:
            self.app.set_palette(name)

    # --- events and drawing ----------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                self.change_volume(-1)
                return
            if event.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                self.change_volume(1)  # (= is + without Shift on most layouts)
                return
        super().handle_event(event)

    def draw_body(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        vp, theme = self.app.viewport, self.app.theme
        p = theme.palette
        parts = volume_parts(self.layout()["volume_controls"])
        on = self.app.audio.enabled
        volume = self._volume()
        bar = vp.map_rect(parts["bar"])
        radius = max(1, bar.height // 2)
        pygame.draw.rect(surface, p.board, bar, border_radius=radius)
        filled = bar.copy()
        filled.width = round(bar.width * volume / VOLUME_MAX)
        if filled.width > 0:
            # Muted, the bar keeps its level but greys out: the volume is kept for later.
            pygame.draw.rect(surface, p.accent if on else p.disabled, filled,
                             border_radius=radius)
        for tick in range(1, VOLUME_MAX // VOLUME_STEP):
            x = bar.x + round(bar.width * tick / (VOLUME_MAX // VOLUME_STEP))
            pygame.draw.line(surface, p.panel_edge, (x, bar.bottom - vp.px(4)),
                             (x, bar.bottom - 1))
        pygame.draw.rect(surface, p.panel_edge, bar, 1, border_radius=radius)

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "SettingsOverlay", "overlay": True,
                "sound": self.app.audio.enabled, "volume": self._volume(),
                "reduce_motion": self._reduce_motion(), "palette": self.app.theme.palette.name}
