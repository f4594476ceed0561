"""Colours and fonts. Two palettes: the default and a colour-blind-safe one.

State is never told by hue alone: marks differ in shape, highlighted lines are
drawn thicker and outlined, and hint cells carry text as well as colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from engine.core.assets import asset_path, font_problem, report_problem, shipped_problem
from engine.core.i18n import N_, Phrase

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class Palette:
    """Every colour the engine draws with."""

    name: str
    label: str
    background: Colour
    panel: Colour
    panel_edge: Colour
    text: Colour
    muted: Colour
    accent: Colour
    grid: Colour
    board: Colour
    hover: Colour
    focus: Colour
    button: Colour
    button_hover: Colour
    button_text: Colour
    disabled: Colour
    # A chosen option's fill (with a bold accent border and a ✓); keyboard focus is a
    # dashed ring outside the widget instead, so the two differ in shape, not only hue.
    selected: Colour
    players: tuple[Colour, Colour, Colour]
    win_line: Colour
    good: Colour
    neutral: Colour
    bad: Colour
    shade: tuple[int, int, int, int]
    # Words for the colours a player is told about, by role ("good", "bad", "accent" …),
    # so texts name what this palette shows ("orange", not "red").
    colour_names: tuple[tuple[str, str], ...] = ()

    def colour_name(self, role: str) -> str:
        """The word for the colour of ``role`` (a field name) in this palette."""
        return dict(self.colour_names).get(role, role)


DEFAULT = Palette(
    name="default",
    label=N_("Default"),
    background=(28, 32, 44),
    panel=(44, 50, 66),
    panel_edge=(84, 94, 120),
    text=(236, 239, 244),
    muted=(160, 168, 186),
    accent=(255, 196, 64),
    grid=(120, 132, 160),
    board=(36, 41, 56),
    hover=(64, 74, 98),
    focus=(255, 196, 64),
    button=(62, 70, 94),
    button_hover=(84, 96, 128),
    button_text=(236, 239, 244),
    disabled=(96, 102, 118),
    selected=(100, 88, 60),
    players=((236, 84, 84), (80, 160, 240), (120, 210, 110)),
    win_line=(255, 214, 90),
    good=(70, 190, 110),
    neutral=(230, 200, 70),
    bad=(220, 80, 80),
    shade=(0, 0, 0, 170),
    colour_names=(("good", N_("green")), ("bad", N_("red")), ("neutral", N_("yellow")),
                  ("accent", N_("yellow")), ("focus", N_("yellow"))),
)

# Okabe & Ito's palette: distinguishable with every common colour-vision deficiency.
COLOURBLIND = Palette(
    name="colourblind",
    label=N_("Colour-blind safe"),
    background=(24, 24, 28),
    panel=(44, 44, 52),
    panel_edge=(110, 110, 124),
    text=(245, 245, 245),
    muted=(170, 170, 180),
    accent=(240, 228, 66),
    grid=(150, 150, 165),
    board=(34, 34, 40),
    hover=(70, 70, 84),
    focus=(240, 228, 66),
    button=(66, 66, 80),
    button_hover=(92, 92, 110),
    button_text=(245, 245, 245),
    disabled=(100, 100, 110),
    selected=(92, 90, 50),
    players=((230, 159, 0), (86, 180, 233), (204, 121, 167)),
    win_line=(240, 228, 66),
    good=(0, 158, 115),
    neutral=(240, 228, 66),
    bad=(213, 94, 0),
    shade=(0, 0, 0, 180),
    colour_names=(("good", N_("blue-green")), ("bad", N_("orange")), ("neutral", N_("yellow")),
                  ("accent", N_("yellow")), ("focus", N_("yellow"))),
)

PALETTES: dict[str, Palette] = {p.name: p for p in (DEFAULT, COLOURBLIND)}

FONT_REGULAR = ("fonts", "DejaVuSans.ttf")
FONT_BOLD = ("fonts", "DejaVuSans-Bold.ttf")
# Fonts kept per Theme. A frame uses at most 15 (measured over the soak's scenes);
# 32 holds two window sizes' worth. Each costs ~0.2 MB, so more only holds sizes
# of windows long gone (64 made the soak's memory creep by 7 MB).
FONT_CACHE_SIZE = 32


def _report_font(name: str, reason: str) -> None:
    """Tell the player (through the app's notices) that a bundled font is not used."""
    report_problem(Phrase(N_("The font file {name} cannot be used ({reason}), so a plainer "
                             "font is shown instead."), name=name, reason=reason))


class Theme:
    """The active palette plus a cache of bundled fonts by pixel size."""

    def __init__(self, palette: str = "default") -> None:
        self.palette = PALETTES.get(palette, DEFAULT)
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        # Font file name -> why it is not used (None: sound), and its path when it is.
        self._font_checks: dict[str, str | None] = {}
        self._font_paths: dict[str, str | None] = {}

    def set_palette(self, name: str) -> None:
        """Switch palette by name; unknown names raise ValueError."""
        if name not in PALETTES:
            raise ValueError(f"unknown palette {name!r}; choose one of {', '.join(PALETTES)}")
        self.palette = PALETTES[name]

    def font_file(self, bold: bool = False) -> str | None:
        """The bundled font's path, or None when it must not be opened (missing, damaged,
        changed): checked once per file, before FreeType ever sees it, since a damaged
        font crashes pygame beyond any Python ``except``."""
        parts = FONT_BOLD if bold else FONT_REGULAR
        name = parts[-1]
        if name not in self._font_checks:
            try:
                path = asset_path(*parts)
                reason = shipped_problem(path) or font_problem(path)
            except OSError as exc:
                path, reason = None, exc.strerror or str(exc)
            self._font_checks[name] = reason
            self._font_paths[name] = None if reason is not None else str(path)
            if reason is not None:
                _report_font(name, reason)
        return self._font_paths[name]

    def _open_font(self, px: int, bold: bool) -> pygame.font.Font:
        """The bundled font at ``px`` pixels, or pygame's own when it cannot be used."""
        path = self.font_file(bold)
        if path is not None:
            try:
                return pygame.font.Font(path, px)
            except (OSError, pygame.error) as exc:
                name = (FONT_BOLD if bold else FONT_REGULAR)[-1]
                self._font_checks[name] = str(exc)
                self._font_paths[name] = None
                _report_font(name, str(exc))
        font = pygame.font.Font(None, px)  # pygame's own (freesansbold), always there
        font.bold = bold
        return font

    def font(self, size: float, bold: bool = False) -> pygame.font.Font:
        """Return the bundled font at ``size`` pixels (at least 6), cached."""
        px = max(6, round(size))
        key = (px, bold)
        font = self._fonts.pop(key, None)
        if font is None:
            if not pygame.font.get_init():
                pygame.font.init()
            font = self._open_font(px, bold)
            # Every window size brings its own pixel sizes: keep only the most recently
            # used fonts, or resizing grows memory by ~0.2 MB per size ever shown.
            while len(self._fonts) >= FONT_CACHE_SIZE:
                del self._fonts[next(iter(self._fonts))]
        self._fonts[key] = font  # (re)inserted last: the dict's order is least recent first
        return font
