"""Modal overlays: help, yes/no confirmation and a text-entry dialog."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from engine.scene import Scene
from engine.widgets import Button, Label, draw_text_block, wrap_text

if TYPE_CHECKING:
    from engine.app import App


def printable(text: str) -> str:
    """``text`` without control and formatting characters (zero-width spaces and the like)."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] not in "CZ" or ch == " ")


class Overlay(Scene):
    """A dimmed backdrop with a centred panel; Esc closes it."""

    overlay = True
    panel = (180.0, 110.0, 600.0, 500.0)

    def close(self) -> None:
        """Pop this overlay."""
        if self.app.top is self:
            self.app.pop()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()
            return
        self.ui.handle_event(event, self.app.viewport)

    def draw(self, surface: pygame.Surface) -> None:
        p = self.app.theme.palette
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill(p.shade)
        surface.blit(shade, (0, 0))
        vp = self.app.viewport
        rect = vp.map_rect(self.panel)
        pygame.draw.rect(surface, p.panel, rect, border_radius=vp.px(12))
        pygame.draw.rect(surface, p.panel_edge, rect, vp.px(2), border_radius=vp.px(12))
        self.draw_body(surface, rect)
        self.ui.draw(surface, vp, self.app.theme)

    def draw_body(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """Draw the panel's content (besides widgets)."""

    def debug_state(self) -> dict[str, Any]:
        return {"scene": type(self).__name__, "overlay": True}


class HelpOverlay(Overlay):
    """Shows a title and wrapped text; scrolls with the wheel or arrow keys."""

    help_title = "Help"
    help_text = "Esc, F1 or Close shuts this help. Scroll with the mouse wheel or arrow keys."
    panel = (110.0, 40.0, 740.0, 640.0)

    def __init__(self, app: App, title: str, text: str) -> None:
        super().__init__(app)
        self.title = title
        self.text = text
        self.scroll = 0
        x, y, w, h = self.panel
        self.ui.add(Button((x + w - 140, y + h - 56, 120, 40), "Close", self.close, name="Close"))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.close()
            return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - event.y * 3)
            return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_DOWN, pygame.K_PAGEDOWN):
            self.scroll += 1 if event.key == pygame.K_DOWN else 10
            return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_UP, pygame.K_PAGEUP):
            self.scroll = max(0, self.scroll - (1 if event.key == pygame.K_UP else 10))
            return
        super().handle_event(event)

    def draw_body(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        vp, theme = self.app.viewport, self.app.theme
        pad = vp.px(24)
        title_font = theme.font(28 * vp.scale, bold=True)
        surface.blit(title_font.render(self.title, True, theme.palette.accent),
                     (rect.x + pad, rect.y + pad))
        font = theme.font(17 * vp.scale)
        body = pygame.Rect(rect.x + pad, rect.y + pad + title_font.get_linesize() + vp.px(10),
                           rect.width - 2 * pad, rect.height - 3 * pad - vp.px(90))
        lines = wrap_text(self.text, font, body.width)
        visible = max(1, body.height // font.get_linesize())
        self.scroll = min(self.scroll, max(0, len(lines) - visible))
        y = body.y
        for line in lines[self.scroll:self.scroll + visible]:
            surface.blit(font.render(line, True, theme.palette.text), (body.x, y))
            y += font.get_linesize()
        if len(lines) > visible:
            more = theme.font(14 * vp.scale).render(
                f"lines {self.scroll + 1}–{min(len(lines), self.scroll + visible)} of {len(lines)}"
                " · scroll for more", True, theme.palette.muted)
            surface.blit(more, (body.x, rect.bottom - pad - more.get_height()))

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "HelpOverlay", "overlay": True, "title": self.title}


class ConfirmDialog(Overlay):
    """Asks a yes/no question; ``on_yes`` runs only on Yes (Enter), No/Esc cancels."""

    panel = (230.0, 250.0, 500.0, 220.0)
    help_title = "Confirm"
    help_text = "Choose Yes (Enter) to go ahead or No (Esc) to cancel."

    def __init__(self, app: App, message: str, on_yes: Callable[[], None],
                 yes: str = "Yes", no: str = "No") -> None:
        super().__init__(app)
        self.message = message
        self.on_yes = on_yes
        x, y, w, h = self.panel
        self.ui.add(Label((x + 24, y + 20, w - 48, h - 100), message, size=20, align="center"))
        self.ui.add(Button((x + w / 2 - 170, y + h - 70, 150, 44), yes, self._yes, name="Yes"))
        self.ui.add(Button((x + w / 2 + 20, y + h - 70, 150, 44), no, self.close, name="No"))
        self.ui.focus_index = 0

    def _yes(self) -> None:
        self.close()
        self.on_yes()


class TextEntryDialog(Overlay):
    """Asks for one line of text, validated before anything changes.

    The entry line itself is pygame_gui's UITextEntryLine (cursor, selection,
    clipboard and IME handled by a maintained library), styled with the
    bundled font. ``validate`` returns an error message or None; the dialog
    stays open showing the message until the text is valid or it is cancelled.
    """

    panel = (190.0, 220.0, 580.0, 270.0)
    help_title = "Enter text"
    help_text = ("Type, then press Enter or OK. Esc or Cancel closes without changing anything. "
                 "Ctrl+C / Ctrl+V copy and paste.")

    def __init__(self, app: App, prompt: str, on_submit: Callable[[str], None],
                 validate: Callable[[str], str | None] | None = None, initial: str = "",
                 max_length: int = 200) -> None:
        super().__init__(app)
        self.prompt = prompt
        self.on_submit = on_submit
        self.validate = validate or (lambda _text: None)
        self.error: str | None = None
        self.max_length = max_length
        self._initial = initial
        self._manager: Any = None
        self._entry: Any = None
        self._built_for: tuple[int, int] | None = None
        x, y, w, h = self.panel
        self.ui.add(Button((x + w - 330, y + h - 64, 140, 44), "OK", self.submit, name="OK"))
        self.ui.add(Button((x + w - 170, y + h - 64, 140, 44), "Cancel", self.close,
                           name="Cancel"))

    # pygame_gui is imported lazily: only this dialog needs it, and start-up stays fast.
    def _build(self) -> None:
        import pygame_gui

        from engine.assets import asset_path

        size = self.app.screen.get_size()
        text = self._entry.get_text() if self._entry is not None else self._initial
        vp = self.app.viewport
        font_px = max(8, round(20 * vp.scale))
        theme = {
            "defaults": {
                "colours": {
                    "dark_bg": "#{:02x}{:02x}{:02x}".format(*self.app.theme.palette.board),
                    "normal_text": "#{:02x}{:02x}{:02x}".format(*self.app.theme.palette.text),
                    "normal_border": "#{:02x}{:02x}{:02x}".format(
                        *self.app.theme.palette.panel_edge),
                    "selected_bg": "#{:02x}{:02x}{:02x}".format(*self.app.theme.palette.hover),
                },
                "font": {"name": "dejavusans", "size": str(font_px),
                         "regular_path": str(asset_path("fonts", "DejaVuSans.ttf")),
                         "bold_path": str(asset_path("fonts", "DejaVuSans-Bold.ttf"))},
            }
        }
        import json
        import tempfile

        # pygame_gui reads themes from files or package resources; a per-dialog
        # temporary file keeps our palette and bundled font in charge.
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(theme, handle)
            theme_path = handle.name
        try:
            self._manager = pygame_gui.UIManager(size, theme_path)
        finally:
            import os

            os.unlink(theme_path)
        x, y, w, _h = self.panel
        rect = vp.rect(x + 24, y + 96, w - 48, 48)
        self._entry = pygame_gui.elements.UITextEntryLine(rect, self._manager)
        self._entry.length_limit = self.max_length
        self._entry.set_text(text[: self.max_length])
        self._entry.focus()
        self._built_for = size

    @property
    def text(self) -> str:
        """The text typed so far."""
        if self._entry is None:
            return self._initial
        return self._entry.get_text()

    def set_text(self, text: str) -> None:
        """Replace the text (tests and paste buttons use this)."""
        self._ensure_built()
        self._entry.set_text(printable(text)[: self.max_length])

    def _ensure_built(self) -> None:
        if self._manager is None or self._built_for != self.app.screen.get_size():
            self._build()

    def submit(self) -> None:
        """Validate; on success close and hand the text over, else show the error."""
        text = self.text
        error = self.validate(text)
        if error:
            self.error = error
            return
        self.close()
        self.on_submit(text)

    def handle_event(self, event: pygame.event.Event) -> None:
        self._ensure_built()
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.submit()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()
            return
        if self.ui.handle_event(event, self.app.viewport):
            return
        if event.type == pygame.TEXTINPUT:
            # pygame_gui fails on text it cannot draw (e.g. a lone zero-width space):
            # such characters never mean anything in our inputs, so they are dropped.
            text = printable(event.text)
            if not text:
                return
            event = pygame.event.Event(pygame.TEXTINPUT, text=text)
        before = self._entry.get_text()
        try:
            used = self._manager.process_events(event)
            self._manager.update(0.0)
        except pygame.error:
            self._entry.set_text(before)  # keep the last text that could be shown
            self.error = "That character cannot be typed here."
            return
        if used or event.type in (pygame.TEXTINPUT, pygame.KEYDOWN):
            self.error = None

    def update(self, dt: float) -> None:
        self._ensure_built()
        self._manager.update(dt)

    def is_active(self) -> bool:
        return True  # the caret blinks

    def draw_body(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        self._ensure_built()
        vp, theme = self.app.viewport, self.app.theme
        x, y, w, _h = self.panel
        draw_text_block(surface, self.prompt, theme.font(20 * vp.scale, bold=True),
                        theme.palette.text, vp.rect(x + 24, y + 20, w - 48, 70))
        self._manager.draw_ui(surface)
        if self.error:
            draw_text_block(surface, "⚠ " + self.error, theme.font(16 * vp.scale),
                            theme.palette.bad, vp.rect(x + 24, y + 150, w - 48, 44))

    def debug_state(self) -> dict[str, Any]:
        return {"scene": "TextEntryDialog", "overlay": True, "text": self.text,
                "error": self.error}
