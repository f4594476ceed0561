"""Buttons, labels and a status bar laid out in design space, all keyboard-reachable.

A :class:`WidgetGroup` owns a scene's widgets: it routes mouse events to the
widget under the pointer and keeps a keyboard focus that Tab / Shift+Tab move
and Enter / Space activate.

Text is never clipped: a label or a caption wraps within its rectangle where
lines allow, may shrink a little where the widget allows it (never below
:data:`MIN_TEXT`), and is otherwise shortened with "…"; a shortened widget shows its
whole text in a tooltip while the pointer rests on it (drawn last, inside the window,
by :meth:`WidgetGroup.draw`). Sibling texts in a :class:`SizeGroup` (a row of choices,
a column of steppers) are all drawn at the size the tightest of them needs.

Labels and buttons translate their text when they draw (:func:`engine.core.i18n.gettext_`), so
they take English text marked with ``N_()``, or a callable; see :mod:`engine.core.i18n`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pygame

from engine.core.i18n import gettext_
from engine.ui.theme import Theme
from engine.ui.viewport import Viewport

Rect = tuple[float, float, float, float]
# A widget's place: fixed, or worked out from the current layout each time it is needed,
# so a screen re-lays itself out for any window without rebuilding its widgets.
Place = Rect | Callable[[], Rect]
# Maps a fixed place to where it is now (an overlay's panel that had to shrink, say).
Frame = Callable[[Rect], Rect]

W = TypeVar("W", bound="Widget")

ELLIPSIS = "…"
# A tooltip is at most this many design units wide (a readable line), less in a small window.
TOOLTIP_W = 420.0
# The smallest text any fitted label, caption or panel line is drawn at (design units: 14
# pixels at 960×720, scaled with the window). Shrinking to fit stops here; what still
# does not fit ends with "…" and shows whole in a tooltip (issue 28: notes at ~11 px).
MIN_TEXT = 14.0


def _as_bool(flag: bool | Callable[[], bool]) -> bool:
    return flag() if callable(flag) else flag


# What a widget asks of the fitting: the text, the box (pixels), the largest and smallest
# design sizes, bold, and at most how many lines (None: as many as the box holds).
FitRequest = tuple[str, tuple[int, int], float, float, bool, int | None]


class SizeGroup:
    """Sibling texts drawn at one size: the largest size at which every one of them fits.

    Shrink-to-fit alone gives each label its own size ("0% mistakes" larger than "10%
    mistakes", "Copy" larger than "Enter code"): a row of siblings then looks uneven
    (issue 28). A member is a widget and the part of it that holds the text ("text" for
    a Label's text or a Button's caption, "value" / "label" for a Stepper's); the
    group asks every visible member what it would need (its :meth:`Widget.fit_request`)
    and they all draw at the smallest of their own fitted sizes.
    """

    def __init__(self) -> None:
        self.members: list[tuple[Widget, str]] = []
        self._key: tuple[object, ...] | None = None
        self._size: float | None = None

    def add(self, widget: W, part: str = "text") -> W:
        """Make ``widget``'s ``part`` a member; returns the widget (to chain with
        :meth:`WidgetGroup.add`)."""
        self.members.append((widget, part))
        widget.size_groups[part] = self
        return widget

    def size(self, theme: Theme, vp: Viewport) -> float | None:
        """The shared design size now (None while no member is shown)."""
        requests = []
        for widget, part in self.members:
            if widget.visible:
                request = widget.fit_request(vp, part)
                if request is not None:
                    requests.append(request)
        key = (vp.scale, tuple(requests))
        if key != self._key:
            self._key = key
            sizes = [fit_text(theme, text, box, size, min_size, vp.scale, bold, lines)[0]
                     for text, box, size, min_size, bold, lines in requests]
            self._size = min(sizes) if sizes else None
        return self._size


class Widget:
    """Something drawn in a design-space rectangle."""

    focusable = False
    frame: Frame | None = None
    shortened = False
    full_text = ""

    def __init__(self, rect: Place, visible: bool | Callable[[], bool] = True) -> None:
        self.rect = rect  # type: ignore[assignment]
        self._visible = visible
        # Set by a WidgetGroup with a frame: fixed places are in that frame's coordinates.
        self.frame: Frame | None = None
        # Whether the last drawing had to shorten the text, the whole text, and the
        # lines drawn (tests read them).
        self.shortened = False
        self.full_text = ""
        self.drawn_lines: list[str] = []
        # The design size the text was last drawn at, per part (tests read it).
        self.drawn_sizes: dict[str, float] = {}
        # The size groups this widget's texts belong to, by part (see SizeGroup).
        self.size_groups: dict[str, SizeGroup] = {}
        self._fit_key: tuple[object, ...] | None = None
        self._fitted: tuple[float, list[str], bool] = (0.0, [], False)

    def fit_request(self, vp: Viewport, part: str = "text") -> FitRequest | None:
        """What ``part``'s text needs to be fitted now (for its :class:`SizeGroup`);
        None where the widget has no such text."""
        return None

    def group_size(self, theme: Theme, vp: Viewport, part: str = "text") -> float | None:
        """The size ``part`` shares with its siblings, or None outside a size group."""
        group = self.size_groups.get(part)
        return group.size(theme, vp) if group is not None else None

    @property
    def tooltip(self) -> str | None:
        """The text a tooltip shows over this widget: its whole text when shortened."""
        return self.full_text if self.shortened and self.full_text else None

    def fit_text(self, theme: Theme, vp: Viewport, rect: pygame.Rect, text: str, size: float,
                 min_size: float, bold: bool = False,
                 max_lines: int | None = None,
                 part: str = "text") -> tuple[pygame.font.Font, list[str]]:
        """``text`` fitted to ``rect`` (see :func:`fit_text`): the font and the lines to draw.

        In a :class:`SizeGroup` (by ``part``), at the size the group shares. Records
        :attr:`shortened`, :attr:`full_text` (for the tooltip) and :attr:`drawn_sizes`;
        the fitting is kept until the text, the rectangle or the scale changes (it
        measures word by word).
        """
        shared = self.group_size(theme, vp, part)
        if shared is not None:
            size = min_size = shared
        key = (text, rect.size, vp.scale, size, min_size, bold, max_lines)
        if key != self._fit_key:
            self._fit_key = key
            self._fitted = fit_text(theme, text, rect.size, size, min_size, vp.scale, bold,
                                    max_lines)
        used, lines, shortened = self._fitted
        self.shortened, self.full_text, self.drawn_lines = shortened, text, lines
        self.drawn_sizes[part] = used
        return theme.font(used * vp.scale, bold), lines

    @property
    def rect(self) -> Rect:
        """The design-space rectangle the widget occupies now.

        A callable place is taken as it comes; a fixed one goes through the group's
        :attr:`frame`, if it has one.
        """
        place = self._place
        if callable(place):
            return tuple(place())  # type: ignore[return-value]
        return tuple(self.frame(place)) if self.frame is not None else place

    @rect.setter
    def rect(self, place: Place) -> None:
        self._place = place

    @property
    def visible(self) -> bool:
        """Whether the widget is drawn and takes input now."""
        return _as_bool(self._visible)

    def screen_rect(self, vp: Viewport) -> pygame.Rect:
        """Where the widget is on screen."""
        return vp.map_rect(self.rect)

    def draw(self, surface: pygame.Surface, vp: Viewport, theme: Theme, focused: bool) -> None:
        """Draw the widget."""

    def handle_event(self, event: pygame.event.Event, vp: Viewport) -> bool:
        """Handle an event; return True if it was used."""
        return False

    def handle_key(self, event: pygame.event.Event) -> bool:
        """Handle a KEYDOWN while this widget has the focus; return True if it was used."""
        return False

    def parts(self) -> list[Widget]:
        """Widgets drawn and driven by this one (a stepper's − and +); none by default."""
        return []


class Label(Widget):
    """Text in a rectangle; ``text`` may be a callable for live values."""

    def __init__(
        self, rect: Place, text: str | Callable[[], str], size: float = 20, bold: bool = False,
        align: str = "left", role: str = "text", visible: bool | Callable[[], bool] = True,
        fit_lines: int | None = None, min_size: float | None = None,
    ) -> None:
        super().__init__(rect, visible)
        self._text = text
        self.size = size
        self.bold = bold
        self.align = align
        self.role = role
        # Long texts shrink (down to min_size) rather than need more than fit_lines lines
        # (or more than the rectangle holds); what still does not fit ends with "…".
        self.fit_lines = fit_lines
        self.min_size = min_size if min_size is not None else size

    @property
    def text(self) -> str:
        """The current text, in the current language."""
        return gettext_(self._text() if callable(self._text) else self._text)

    def fit_request(self, vp: Viewport, part: str = "text") -> FitRequest | None:
        return (self.text, self.screen_rect(vp).size, self.size, self.min_size, self.bold,
                self.fit_lines)

    def draw(self, surface: pygame.Surface, vp: Viewport, theme: Theme, focused: bool) -> None:
        colour = getattr(theme.palette, self.role)
        rect = self.screen_rect(vp)
        font, lines = self.fit_text(theme, vp, rect, self.text, self.size, self.min_size,
                                    self.bold, self.fit_lines)
        draw_lines(surface, lines, font, colour, rect, self.align)


# Room kept between a button's caption and its sides, and its top and bottom (design
# units): a caption never runs edge to edge.
BUTTON_PAD = 8.0
BUTTON_PAD_Y = 3.0


class Button(Widget):
    """A push button: click, or focus it and press Enter / Space.

    ``on_click`` runs on mouse release over the button after a press on it,
    the way desktop toolkits do, so dragging off cancels a mis-click.
    """

    focusable = True

    def __init__(
        self, rect: Place, label: str | Callable[[], str], on_click: Callable[[], None],
        enabled: bool | Callable[[], bool] = True, size: float = 18,
        visible: bool | Callable[[], bool] = True, name: str | None = None,
        selected: bool | Callable[[], bool] = False, max_lines: int | None = None,
    ) -> None:
        super().__init__(rect, visible)
        self._label = label
        # At most this many caption lines (None: as many as the height holds).
        self.max_lines = max_lines
        # Screen rectangle of the caption as last drawn (tests check its margins).
        self.caption_box: pygame.Rect | None = None
        self.on_click = on_click
        self._enabled = enabled
        self._selected = selected
        self.size = size
        self.hover = False
        self.pressed = False
        self.name = name or (label if isinstance(label, str) else "button")

    @property
    def label(self) -> str:
        """The current caption, in the current language."""
        return gettext_(self._label() if callable(self._label) else self._label)

    @property
    def enabled(self) -> bool:
        """Whether the button reacts now."""
        return _as_bool(self._enabled)

    @property
    def selected(self) -> bool:
        """Whether the button shows as the chosen option of a group (tinted, framed and
        ticked). A disabled button never does: a tick on a control that cannot be used
        would claim a choice that is not in force."""
        return self.enabled and _as_bool(self._selected)

    def activate(self) -> None:
        """Run the action if enabled."""
        if self.enabled:
            self.on_click()

    def handle_event(self, event: pygame.event.Event, vp: Viewport) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.screen_rect(vp).collidepoint(event.pos)
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.screen_rect(vp).collidepoint(event.pos):
                self.pressed = True
                return True
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            was_pressed, self.pressed = self.pressed, False
            if was_pressed and self.screen_rect(vp).collidepoint(event.pos):
                self.activate()
                return True
        return False

    def draw(self, surface: pygame.Surface, vp: Viewport, theme: Theme, focused: bool) -> None:
        p = theme.palette
        rect = self.screen_rect(vp)
        radius = vp.px(8)
        if not self.enabled:
            # Flat, with a thin edge: a disabled button does not look pressable.
            pygame.draw.rect(surface, p.panel, rect, border_radius=radius)
            pygame.draw.rect(surface, p.disabled, rect, 1, border_radius=radius)
        elif self.selected:
            # Chosen: a tinted fill, a bold solid frame and a tick (see draw_content),
            # never only a hue; the focus is a dashed ring outside (draw_focus).
            pygame.draw.rect(surface, p.selected, rect, border_radius=radius)
            pygame.draw.rect(surface, p.accent, rect, max(2, vp.px(3)), border_radius=radius)
        else:
            fill = p.button_hover if self.hover else p.button
            pygame.draw.rect(surface, fill, rect, border_radius=radius)
            pygame.draw.rect(surface, p.panel_edge, rect, 1, border_radius=radius)
        self.draw_content(surface, rect, vp, theme)
        if focused:
            draw_focus(surface, rect, vp, theme)

    def _caption(self, rect: pygame.Rect,
                 vp: Viewport) -> tuple[str, pygame.Rect, float, float]:
        """The caption as drawn (with ✓ when chosen), its box inside the button's screen
        ``rect``, and its largest and smallest sizes."""
        label = f"✓ {self.label}" if self.selected else self.label
        inner = rect.inflate(-2 * vp.px(BUTTON_PAD), -2 * vp.px(BUTTON_PAD_Y))
        # A caption may shrink by a fifth (not below MIN_TEXT) before it wraps or is cut.
        return label, inner, self.size, min(self.size, max(MIN_TEXT, self.size * 0.8))

    def fit_request(self, vp: Viewport, part: str = "text") -> FitRequest | None:
        label, inner, size, min_size = self._caption(self.screen_rect(vp), vp)
        return label, inner.size, size, min_size, False, self.max_lines

    def draw_content(
        self, surface: pygame.Surface, rect: pygame.Rect, vp: Viewport, theme: Theme
    ) -> None:
        """Draw the caption; subclasses draw richer content."""
        p = theme.palette
        colour = p.button_text if self.enabled else p.disabled
        label, inner, size, min_size = self._caption(rect, vp)
        font, lines = self.fit_text(theme, vp, inner, label, size, min_size,
                                    max_lines=self.max_lines)
        draw_lines(surface, lines, font, colour, inner, "center")
        width = max((font.size(line)[0] for line in lines), default=0)
        self.caption_box = pygame.Rect(0, 0, width, font.get_linesize() * len(lines))
        self.caption_box.center = inner.center


class WidgetGroup:
    """A scene's widgets, with mouse routing and a keyboard focus.

    ``frame``, where given, maps every fixed widget place to where it is now (see
    :attr:`Widget.frame`); callable places are already where they are.
    """

    def __init__(self, frame: Frame | None = None) -> None:
        self.frame = frame
        self.widgets: list[Widget] = []
        self.focus_index: int | None = None
        # Where the pointer rests (screen pixels), for tooltips; None once it clicks,
        # scrolls or a key is pressed, until it moves again.
        self.pointer: tuple[int, int] | None = None
        # The tooltip drawn last frame: its text and its screen rectangle (tests read them).
        self.tooltip: str | None = None
        self.tooltip_rect: pygame.Rect | None = None

    def add(self, widget: Widget) -> Widget:
        """Add a widget (drawn in insertion order) and return it."""
        if self.frame is not None and widget.frame is None:
            widget.frame = self.frame
        self.widgets.append(widget)
        return widget

    def focusables(self) -> list[Button]:
        """Buttons that can take the focus now, in tab order."""
        return [w for w in self.widgets
                if w.focusable and w.visible and getattr(w, "enabled", True)]  # type: ignore[misc]

    @property
    def focused(self) -> Widget | None:
        """The widget with the keyboard focus, if any."""
        items = self.focusables()
        if self.focus_index is None or not items:
            return None
        return items[self.focus_index % len(items)]

    def move_focus(self, step: int) -> None:
        """Move the focus forward (1) or back (-1), wrapping."""
        items = self.focusables()
        if not items:
            self.focus_index = None
            return
        if self.focus_index is None:
            self.focus_index = 0 if step > 0 else len(items) - 1
        else:
            self.focus_index = (self.focus_index + step) % len(items)

    def handle_event(self, event: pygame.event.Event, vp: Viewport) -> bool:
        """Offer the event to the widgets; return True if one used it."""
        if event.type == pygame.MOUSEMOTION:
            self.pointer = tuple(event.pos)  # type: ignore[assignment]
        elif event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEWHEEL, pygame.KEYDOWN):
            self.pointer = None  # acting hides the tooltip, as desktop toolkits do
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_TAB:
                self.move_focus(-1 if event.mod & pygame.KMOD_SHIFT else 1)
                return True
            widget = self.focused
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                if isinstance(widget, Button):
                    widget.activate()
                    return True
            # A focused widget with keys of its own (a stepper's arrows) gets them first.
            return widget is not None and widget.handle_key(event)
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.focus_index = None if event.type == pygame.MOUSEBUTTONDOWN else self.focus_index
        used = False
        for widget in list(self.widgets):
            if widget.visible and widget.handle_event(event, vp):
                used = True
                if event.type != pygame.MOUSEMOTION:
                    break
        return used

    def draw(self, surface: pygame.Surface, vp: Viewport, theme: Theme) -> None:
        """Draw every visible widget, then the tooltip of a shortened one under the pointer."""
        focused = self.focused
        shown = [w for w in self.widgets if w.visible]
        for widget in shown:
            widget.draw(surface, vp, theme, widget is focused)
        self.tooltip = self.tooltip_rect = None
        if self.pointer is None:
            return
        for widget in reversed(shown):  # the topmost widget under the pointer
            if widget.screen_rect(vp).collidepoint(self.pointer):
                if widget.tooltip:
                    self.tooltip = widget.tooltip
                    self.tooltip_rect = draw_tooltip(surface, widget.tooltip, self.pointer,
                                                     vp, theme)
                return

    def widget_at(self, pos: tuple[int, int], vp: Viewport) -> Widget | None:
        """The topmost visible widget at screen point ``pos``."""
        for widget in reversed(self.widgets):
            if widget.visible and widget.screen_rect(vp).collidepoint(pos):
                return widget
        return None

    def find(self, name: str) -> Button:
        """The button called ``name`` (tests and shortcuts use this), also among the
        parts of composite widgets (a stepper's ``"<name>-"`` and ``"<name>+"``)."""
        for widget in self.widgets:
            for button in (widget, *widget.parts()):
                if isinstance(button, Button) and button.name == name:
                    return button
        raise KeyError(name)


def wrap_text(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Split text into lines that fit ``width`` pixels.

    A blank line separates paragraphs (and is kept); a single newline is a soft
    break, so long texts can be written wrapped in the source.
    """
    lines: list[str] = []
    for number, block in enumerate(text.split("\n\n")):
        if number:
            lines.append("")
        paragraph = " ".join(part.strip() for part in block.split("\n"))
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if font.size(candidate)[0] <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def wrap_fitting(text: str, font: pygame.font.Font, width: int, max_lines: int) -> list[str]:
    """``text`` wrapped at spaces into at most ``max_lines`` lines ``width`` pixels wide.

    Never clipped: a word too long for a line, or a last line with more text after it,
    is shortened to end in "…" (letter by letter, unlike :func:`fit_lines`, which cuts at
    a word: the puzzle side panels and charts are drawn with this one).
    """
    lines = wrap_text(text, font, width)
    cut = len(lines) > max_lines
    lines = lines[:max_lines]
    out = []
    for i, line in enumerate(lines):
        more = cut and i == len(lines) - 1
        if more or font.size(line)[0] > width:
            while line and font.size(line + "…")[0] > width:
                line = line[:-1]
            line = line.rstrip() + "…"
        out.append(line)
    return out


def ellipsize(text: str, font: pygame.font.Font, width: int, force: bool = False) -> str:
    """``text`` cut (at a word if possible) and ended with "…" so it fits ``width`` pixels;
    unchanged if it already fits and ``force`` is false."""
    if not force and font.size(text)[0] <= width:
        return text
    words = text.rstrip(" ,;:·-").split(" ")
    while len(words) > 1 and font.size(" ".join(words) + ELLIPSIS)[0] > width:
        words.pop()
    cut = " ".join(words).rstrip(" ,;:·-")
    while cut and font.size(cut + ELLIPSIS)[0] > width:  # one long word: cut letters
        cut = cut[:-1]
    return cut + ELLIPSIS


def fit_lines(text: str, font: pygame.font.Font, width: int,
              max_lines: int) -> tuple[list[str], bool]:
    """``text`` wrapped to ``width`` pixels in at most ``max_lines`` lines, the last ending
    with "…" if some was left out (and any single word too long for a line shortened
    too); and whether it was shortened."""
    if max_lines <= 0:
        return [], bool(text)
    lines = wrap_text(text, font, width)
    shortened = len(lines) > max_lines
    lines = lines[:max_lines]
    fitted = [ellipsize(line, font, width) for line in lines]
    if shortened:
        fitted[-1] = ellipsize(lines[-1], font, width, force=True)
    return fitted, shortened or fitted != lines


def fit_text(theme: Theme, text: str, box: tuple[int, int], size: float, min_size: float,
             scale: float, bold: bool = False,
             max_lines: int | None = None) -> tuple[float, list[str], bool]:
    """Fit ``text`` into a box of ``box`` pixels: (design font size, lines, shortened).

    Tries ``size``, then 2 units smaller at a time down to ``min_size`` (neither below
    :data:`MIN_TEXT`), wrapping to as
    many lines as the box's height holds (at most ``max_lines``, at least one); at the
    first size where the whole text fits, that is the answer. Otherwise the text is
    cut at ``min_size`` and ends with "…".
    """
    width, height = box
    # Never below MIN_TEXT (a text asked for smaller is drawn at MIN_TEXT).
    size, min_size = max(size, MIN_TEXT), max(min_size, MIN_TEXT)
    sizes = [size]
    while sizes[-1] - 2 >= min_size:
        sizes.append(sizes[-1] - 2)
    if sizes[-1] > min_size:
        sizes.append(min_size)
    lines: list[str] = []
    allowed = 1
    font = theme.font(size * scale, bold)
    for tried in sizes:
        font = theme.font(tried * scale, bold)
        allowed = max(1, height // font.get_linesize())
        if max_lines:
            allowed = min(allowed, max_lines)
        lines = wrap_text(text, font, width)
        if len(lines) <= allowed and all(font.size(line)[0] <= width for line in lines):
            return tried, lines, False
    lines, shortened = fit_lines(text, font, width, allowed)
    return sizes[-1], lines, shortened


# The keyboard focus ring: this far outside the widget, dashes this long (design units).
FOCUS_GAP = 3.0
FOCUS_DASH = 7.0


def draw_focus(surface: pygame.Surface, rect: pygame.Rect, vp: Viewport, theme: Theme) -> None:
    """The keyboard focus around screen rectangle ``rect``: a dashed ring a little outside
    it, over a dark band, so it reads as focus on any button, chosen or not (a chosen
    button has a solid frame inside its edge and a tinted fill instead)."""
    p = theme.palette
    width = max(2, vp.px(2.5))
    ring = rect.inflate(2 * (vp.px(FOCUS_GAP) + width), 2 * (vp.px(FOCUS_GAP) + width))
    # A dark band under the dashes keeps them apart from a frame of the same hue.
    pygame.draw.rect(surface, p.background, ring, width, border_radius=vp.px(4))
    dash = max(3, vp.px(FOCUS_DASH))
    gap = max(2, dash // 2 + 1)
    for start, stop, along in (((ring.left, ring.top), (ring.right, ring.top), 0),
                               ((ring.left, ring.bottom - width), (ring.right, ring.bottom - width),
                                0),
                               ((ring.left, ring.top), (ring.left, ring.bottom), 1),
                               ((ring.right - width, ring.top), (ring.right - width, ring.bottom),
                                1)):
        length = (stop[along] - start[along])
        pos = 0
        while pos < length:
            seg = min(dash, length - pos)
            if along == 0:
                piece = pygame.Rect(start[0] + pos, start[1], seg, width)
            else:
                piece = pygame.Rect(start[0], start[1] + pos, width, seg)
            pygame.draw.rect(surface, p.focus, piece)
            pos += dash + gap


def draw_lines(surface: pygame.Surface, lines: list[str], font: pygame.font.Font,
               colour: tuple[int, int, int], rect: pygame.Rect, align: str = "left") -> None:
    """Draw ``lines`` as a block vertically centred in ``rect``; ``align`` left/center/right."""
    height = font.get_linesize()
    y = rect.centery - height * len(lines) / 2
    for line in lines:
        img = font.render(line, True, colour)
        if align == "center":
            pos = img.get_rect(midtop=(rect.centerx, round(y)))
        elif align == "right":
            pos = img.get_rect(topright=(rect.right, round(y)))
        else:
            pos = img.get_rect(topleft=(rect.left, round(y)))
        surface.blit(img, pos)
        y += height


def draw_tooltip(surface: pygame.Surface, text: str, pointer: tuple[int, int], vp: Viewport,
                 theme: Theme) -> pygame.Rect:
    """Draw ``text`` in a box near ``pointer``, kept inside the window; return the box."""
    p = theme.palette
    window = surface.get_rect()
    font = theme.font(15 * vp.scale)
    pad = vp.px(8)
    width = min(vp.px(TOOLTIP_W), window.width - 2 * pad - 2)
    lines = wrap_text(text, font, width - 2 * pad)
    # A word too long for any line is cut rather than drawn past the window's edge.
    lines = [ellipsize(line, font, width - 2 * pad) for line in lines]
    most = max(1, (window.height - 2 * pad) // font.get_linesize())
    if len(lines) > most:
        lines = lines[:most - 1] + [ellipsize(lines[most - 1], font, width - 2 * pad, True)]
    inner_w = max(font.size(line)[0] for line in lines)
    box = pygame.Rect(0, 0, inner_w + 2 * pad, len(lines) * font.get_linesize() + 2 * pad)
    # Below and right of the pointer (clear of the cursor); above or left where it must.
    gap = vp.px(18)
    box.topleft = (pointer[0] + vp.px(4), pointer[1] + gap)
    if box.bottom > window.bottom:
        box.bottom = pointer[1] - vp.px(6)
    box.clamp_ip(window)
    pygame.draw.rect(surface, p.panel, box, border_radius=vp.px(6))
    pygame.draw.rect(surface, p.accent, box, 1, border_radius=vp.px(6))
    y = box.y + pad
    for line in lines:
        surface.blit(font.render(line, True, p.text), (box.x + pad, y))
        y += font.get_linesize()
    return box


def draw_text_block(
    surface: pygame.Surface, text: str, font: pygame.font.Font, colour: tuple[int, int, int],
    rect: pygame.Rect, align: str = "left", fit: bool = False,
) -> bool:
    """Draw wrapped text inside ``rect``, vertically centred; ``align`` left/center/right.

    With ``fit``, no more lines than ``rect`` holds are drawn and the text is shortened
    with "…" where it does not fit. Returns whether it was shortened.
    """
    if fit:
        lines, shortened = fit_lines(text, font, rect.width,
                                     max(1, rect.height // font.get_linesize()))
    else:
        lines, shortened = wrap_text(text, font, rect.width), False
    draw_lines(surface, lines, font, colour, rect, align)
    return shortened



def scroll_step(event: pygame.event.Event, page: int) -> int | None:
    """Lines to scroll for a wheel turn or a scrolling key (arrows, Page Up/Down, Home/End),
    with ``page`` lines to a page; None for any other event."""
    if event.type == pygame.MOUSEWHEEL:
        return -event.y * 3
    if event.type == pygame.KEYDOWN:
        steps = {pygame.K_DOWN: 1, pygame.K_UP: -1, pygame.K_PAGEDOWN: page,
                 pygame.K_PAGEUP: -page, pygame.K_END: 1 << 30, pygame.K_HOME: -(1 << 30)}
        return steps.get(event.key)
    return None
