"""Buttons, labels and a status bar laid out in design space, all keyboard-reachable.

A :class:`WidgetGroup` owns a scene's widgets: it routes mouse events to the
widget under the pointer and keeps a keyboard focus that Tab / Shift+Tab move
and Enter / Space activate.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from engine.theme import Theme
from engine.viewport import Viewport

Rect = tuple[float, float, float, float]
# A widget's place: fixed, or worked out from the current layout each time it is needed,
# so a screen re-lays itself out for any window without rebuilding its widgets.
Place = Rect | Callable[[], Rect]


def _as_bool(flag: bool | Callable[[], bool]) -> bool:
    return flag() if callable(flag) else flag


class Widget:
    """Something drawn in a design-space rectangle."""

    focusable = False

    def __init__(self, rect: Place, visible: bool | Callable[[], bool] = True) -> None:
        self.rect = rect  # type: ignore[assignment]
        self._visible = visible

    @property
    def rect(self) -> Rect:
        """The design-space rectangle the widget occupies now."""
        place = self._place
        return tuple(place()) if callable(place) else place  # type: ignore[return-value]

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
        # Long texts shrink (down to min_size) rather than need more than fit_lines lines.
        self.fit_lines = fit_lines
        self.min_size = min_size if min_size is not None else size

    @property
    def text(self) -> str:
        """The current text."""
        return self._text() if callable(self._text) else self._text

    def draw(self, surface: pygame.Surface, vp: Viewport, theme: Theme, focused: bool) -> None:
        colour = getattr(theme.palette, self.role)
        rect = self.screen_rect(vp)
        text = self.text
        size = self.size
        while self.fit_lines and size - 2 >= self.min_size:
            lines = wrap_text(text, theme.font(size * vp.scale, self.bold), rect.width)
            if len(lines) <= self.fit_lines:
                break
            size -= 2
        draw_text_block(surface, text, theme.font(size * vp.scale, self.bold), colour, rect,
                        self.align)


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
        selected: bool | Callable[[], bool] = False,
    ) -> None:
        super().__init__(rect, visible)
        self._label = label
        self.on_click = on_click
        self._enabled = enabled
        self._selected = selected
        self.size = size
        self.hover = False
        self.pressed = False
        self.name = name or (label if isinstance(label, str) else "button")

    @property
    def label(self) -> str:
        """The current caption."""
        return self._label() if callable(self._label) else self._label

    @property
    def enabled(self) -> bool:
        """Whether the button reacts now."""
        return _as_bool(self._enabled)

    @property
    def selected(self) -> bool:
        """Whether the button shows as the chosen option of a group."""
        return _as_bool(self._selected)

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
        fill = p.button_hover if (self.hover and self.enabled) else p.button
        radius = vp.px(8)
        pygame.draw.rect(surface, fill, rect, border_radius=radius)
        if self.selected:  # a thick frame and a tick: not told by hue alone
            pygame.draw.rect(surface, p.accent, rect, vp.px(3), border_radius=radius)
        else:
            pygame.draw.rect(surface, p.panel_edge, rect, 1, border_radius=radius)
        self.draw_content(surface, rect, vp, theme)
        if focused:
            pygame.draw.rect(surface, p.focus, rect.inflate(vp.px(6), vp.px(6)), vp.px(3),
                             border_radius=radius + vp.px(3))

    def draw_content(
        self, surface: pygame.Surface, rect: pygame.Rect, vp: Viewport, theme: Theme
    ) -> None:
        """Draw the caption; subclasses draw richer content."""
        p = theme.palette
        colour = p.button_text if self.enabled else p.disabled
        label = f"✓ {self.label}" if self.selected else self.label
        draw_text_block(surface, label, theme.font(self.size * vp.scale), colour, rect, "center")


class WidgetGroup:
    """A scene's widgets, with mouse routing and a keyboard focus."""

    def __init__(self) -> None:
        self.widgets: list[Widget] = []
        self.focus_index: int | None = None

    def add(self, widget: Widget) -> Widget:
        """Add a widget (drawn in insertion order) and return it."""
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
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_TAB:
                self.move_focus(-1 if event.mod & pygame.KMOD_SHIFT else 1)
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                widget = self.focused
                if isinstance(widget, Button):
                    widget.activate()
                    return True
            return False
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
        """Draw every visible widget."""
        focused = self.focused
        for widget in self.widgets:
            if widget.visible:
                widget.draw(surface, vp, theme, widget is focused)

    def find(self, name: str) -> Button:
        """The button called ``name`` (tests and shortcuts use this)."""
        for widget in self.widgets:
            if isinstance(widget, Button) and widget.name == name:
                return widget
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


def draw_text_block(
    surface: pygame.Surface, text: str, font: pygame.font.Font, colour: tuple[int, int, int],
    rect: pygame.Rect, align: str = "left",
) -> None:
    """Draw wrapped text inside ``rect``, vertically centred; ``align`` left/center/right."""
    lines = wrap_text(text, font, rect.width)
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
