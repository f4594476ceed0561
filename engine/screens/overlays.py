"""Modal dialogs: yes/no confirmation and a text-entry dialog.

They are overlays (:class:`engine.screens.scene.Overlay`, which also says how a panel
fits any window); the help overlay lives there too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from engine.core.i18n import N_, _, localize, number_text
from engine.screens.scene import Overlay
from engine.ui.widgets import (
    Button,
    Label,
    draw_text_block,
)

if TYPE_CHECKING:
    from engine.runtime.app import App

# The longest text the pygame_gui entry line holds itself. It re-renders its
# whole line on every edit and every caret blink: about 2 ms at 1,000
# characters, 15 ms at 5,000 and half a second at 100,000 (measured with the
# bundled font at 20 px). Longer text is kept by the dialog and shown shortened.
EDIT_LIMIT = 1000

# Text is cleaned in slices of this size, so a huge paste is only read as far
# as the length limit needs (plus one slice).
_CLEAN_SLICE = 65_536

# Keys that move the caret; in a shortened long text they only drop the selection.
_CARET_KEYS = (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_HOME, pygame.K_END, pygame.K_UP,
               pygame.K_DOWN)


def printable(text: str) -> str:
    """``text`` without control and formatting characters (zero-width spaces and the like).

    That is every character of Unicode category C (control, format, ...) or Z
    (separators) except the plain space, which is exactly what
    :meth:`str.isprintable` rejects, so clean text is recognised at C speed.
    """
    if text.isprintable():
        return text
    return "".join(ch for ch in text if ch.isprintable())


def printable_prefix(text: str, room: int) -> tuple[str, bool]:
    """The first ``room`` characters of ``printable(text)``, and whether any were cut.

    Reads ``text`` only as far as needed, so a megabyte pasted into a short
    field costs no more than the field's length.
    """
    room = max(0, room)
    parts: list[str] = []
    kept = 0
    for start in range(0, len(text), _CLEAN_SLICE):
        if kept > room:
            break
        part = printable(text[start:start + _CLEAN_SLICE])
        parts.append(part)
        kept += len(part)
    return "".join(parts)[:room], kept > room




class ConfirmDialog(Overlay):
    """Asks a yes/no question; ``on_yes`` runs only on Yes (Enter), No/Esc cancels."""

    panel = (230.0, 250.0, 500.0, 220.0)
    help_title = N_("Confirm")
    help_text = N_("Choose Yes (Enter) to go ahead or No (Esc) to cancel.")

    def __init__(self, app: App, message: str, on_yes: Callable[[], None],
                 yes: str = N_("Yes"), no: str = N_("No")) -> None:
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
    copy and IME handled by a maintained library), styled with the bundled
    font. ``validate`` returns an error message or None; the dialog stays open
    showing the message until the text is valid or it is cancelled.

    Text reaches the line in bulk: typed text (TEXTINPUT) is collected and
    inserted once per frame, and Ctrl+V inserts the clipboard with one update,
    because pygame_gui inserts character by character and re-renders the whole
    line each time (a 100,000-character paste took 1.5 s). Invisible
    characters are dropped and at most ``max_length`` characters are kept, with
    a notice when some were cut. Text longer than :data:`EDIT_LIMIT` is held by
    the dialog and shown shortened; it can still be extended, trimmed from the
    end, selected whole (Ctrl+A), copied, cut, replaced or cleared.
    """

    panel = (190.0, 220.0, 580.0, 270.0)
    help_title = N_("Enter text")
    help_text = N_("Type, then press Enter or OK. Esc or Cancel closes without changing "
                   "anything. Ctrl+C / Ctrl+V copy and paste. Very long text is shown "
                   "shortened: typing and pasting add to its end, Backspace deletes its last "
                   "character, Ctrl+A selects all of it (then Delete clears it), Ctrl+C / "
                   "Ctrl+X copy or cut all of it.")

    def __init__(self, app: App, prompt: str, on_submit: Callable[[str], None],
                 validate: Callable[[str], str | None] | None = None, initial: str = "",
                 max_length: int = 200) -> None:
        super().__init__(app)
        self.prompt = prompt
        self.on_submit = on_submit
        self.validate = validate or (lambda _text: None)
        self.error: str | None = None
        self.notice: str | None = None  # e.g. that pasted text was cut to the limit
        self.max_length = max_length
        self._initial = printable_prefix(initial, max_length)[0]
        self._manager: Any = None
        self._entry: Any = None
        self._built_for: tuple[int, int] | None = None
        # Text longer than EDIT_LIMIT lives here (None while the entry line holds it).
        self._long: str | None = None
        self._long_selected = False  # Ctrl+A in a long text selects all of it
        # Typed text not yet inserted (see _flush), its length and whether some was dropped.
        self._pending: list[str] = []
        self._pending_len = 0
        self._pending_cut = False
        x, y, w, h = self.panel
        self.ui.add(Button((x + w - 330, y + h - 64, 140, 44), N_("OK"), self.submit, name="OK"))
        self.ui.add(Button((x + w - 170, y + h - 64, 140, 44), N_("Cancel"), self.close,
                           name="Cancel"))

    # pygame_gui is imported lazily: only this dialog needs it, and start-up stays fast.
    def _build(self) -> None:
        import pygame_gui

        size = self.app.screen.get_size()
        text = self._current()
        caret = self._entry.edit_position if self._entry is not None else len(text)
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
            },
            # The font goes on the field's own element: pygame_gui reads only colours from
            # "defaults", and a font put there left the field at its own small default
            # (about 10 px in a 48-unit box; issue 28).
            "text_entry_line": {
                "font": {"name": "noto_sans", "size": str(font_px)},  # pygame_gui's own
            },
        }
        regular, bold = self.app.theme.font_file(), self.app.theme.font_file(bold=True)
        if regular is not None and bold is not None:
            theme["text_entry_line"]["font"].update(name="dejavusans", regular_path=regular,
                                                    bold_path=bold)
        # (else pygame_gui's own font: a damaged bundled one would crash FreeType)
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
        rect = vp.map_rect(self.to_panel((x + 24, y + 96, w - 48, 48)))
        self._entry = pygame_gui.elements.UITextEntryLine(rect, self._manager)
        # The dialog enforces max_length itself; pygame_gui's own limit would
        # silently refuse a whole paste that is one character too long.
        self._entry.length_limit = None
        self._built_for = size
        self._show(text, min(caret, len(text)))
        self._entry.focus()

    def leave(self) -> None:
        super().leave()
        if self._manager is not None:
            from pygame_gui.core.utility import set_default_manager

            # pygame_gui keeps the first UIManager ever made as its module-wide default
            # (for elements made without one; ours always name theirs): a closed dialog's
            # manager, its 1024x1024 shape caches, theme and fonts (5-10 MB) must not stay.
            set_default_manager(None)

    def _current(self) -> str:
        """The text as held now, without the typed text still pending."""
        if self._long is not None:
            return self._long
        if self._entry is None:
            return self._initial
        return self._entry.get_text()

    @property
    def text(self) -> str:
        """The text typed so far (text typed this frame is inserted first)."""
        self._flush()
        return self._current()

    def set_text(self, text: str) -> None:
        """Replace the text (tests and paste buttons use this)."""
        self._ensure_built()
        self._drop_pending()
        self.error = None
        cleaned, cut = printable_prefix(text, self.max_length)
        self.notice = self._cut_message() if cut else None
        self._apply(cleaned, len(cleaned))

    def _ensure_built(self) -> None:
        if self._manager is None or self._built_for != self.app.screen.get_size():
            self._build()

    # --- editing ---------------------------------------------------------------------------

    def _cut_message(self) -> str:
        return _("The text was cut to its first {count} characters, "
                 "the most this box takes.").format(count=number_text(self.max_length))

    def _drop_pending(self) -> None:
        self._pending.clear()
        self._pending_len = 0
        self._pending_cut = False

    def _queue(self, text: str) -> None:
        """Collect typed text; a burst of thousands of TEXTINPUT events costs one insertion."""
        if self._pending_len > self.max_length:
            self._pending_cut = True  # already more than fits: keep memory bounded
            return
        self._pending.append(text)
        self._pending_len += len(text)

    def _flush(self) -> None:
        """Insert the collected typed text at the caret."""
        if not self._pending:
            return
        text, cut = "".join(self._pending), self._pending_cut
        self._drop_pending()
        self._insert(text, cut)

    def _insert(self, raw: str, cut: bool = False) -> None:
        """Insert ``raw`` (cleaned and capped) at the caret, replacing the selection."""
        self._ensure_built()
        base = self._current()
        if self._long is not None:
            low, high = (0, len(base)) if self._long_selected else (len(base), len(base))
        else:
            start, end = self._entry.select_range
            if start != end:
                low, high = min(start, end), max(start, end)
            else:
                low = high = min(self._entry.edit_position, len(base))
        new, capped = printable_prefix(raw, self.max_length - (len(base) - (high - low)))
        if cut or capped:
            self.notice = self._cut_message()
        if new:
            self._apply(base[:low] + new + base[high:], low + len(new))

    def _apply(self, text: str, caret: int) -> None:
        """Show ``text`` with the caret at ``caret``; keep the old text if it cannot be drawn."""
        self._ensure_built()
        before = self._current()
        try:
            self._show(text, caret)
            self._manager.update(0.0)
        except pygame.error:
            self._show(before, len(before))  # the last text that could be shown
            self.error = _("That character cannot be typed here.")

    def _show(self, text: str, caret: int) -> None:
        """Put ``text`` in the entry line, or its shortened form if it is long."""
        entry = self._entry
        start, end = entry.select_range
        if len(text) > EDIT_LIMIT:
            self._long = text
            self._long_selected = False
            entry.set_text(f"{text[:16]}…{text[-16:]}")
        else:
            self._long = None
            entry.set_text(text)  # one re-render, caret at the end
            entry.edit_position = caret
            entry.cursor_has_moved_recently = True  # update() moves the drawn caret
        if start != end:
            entry.select_range = [0, 0]

    def _paste(self) -> None:
        """Insert the clipboard's text at the caret in one step."""
        try:
            clip = pygame.scrap.get_text()  # pygame-ce's SDL2 clipboard, as pygame_gui uses
        except (pygame.error, AttributeError, NotImplementedError):
            self.error = _("The clipboard is not available here.")
            return
        if clip:
            self._insert(clip)

    def _long_key(self, event: pygame.event.Event) -> None:
        """Editing keys for a text too long to edit in the entry line."""
        text = self._long or ""
        command = event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
        if command and event.key == pygame.K_a:
            self._long_selected = True
            self._entry.select_range = [0, len(self._entry.get_text())]
        elif command and event.key in (pygame.K_c, pygame.K_x):
            try:
                pygame.scrap.put_text(text)
            except (pygame.error, AttributeError, NotImplementedError):
                self.error = _("The clipboard is not available here.")
                return
            if event.key == pygame.K_x:
                self._apply("", 0)
        elif event.key in (pygame.K_BACKSPACE, pygame.K_DELETE):
            if self._long_selected:
                self._apply("", 0)
            elif event.key == pygame.K_BACKSPACE:
                self._apply(text[:-1], len(text) - 1)
        elif event.key in _CARET_KEYS and self._long_selected:
            self._long_selected = False
            self._entry.select_range = [0, 0]

    # --- events ----------------------------------------------------------------------------

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
        command = pygame.KMOD_CTRL | pygame.KMOD_META
        if event.type == pygame.TEXTINPUT:
            if event.text == "v" and pygame.key.get_mods() & command:
                # pygame_gui's workaround: macOS sometimes sends no KEYDOWN for a paste.
                self._flush()
                self.error = self.notice = None
                self._paste()
                return
            # pygame_gui fails on text it cannot draw (e.g. a lone zero-width space):
            # such characters never mean anything in our inputs, so they are dropped.
            text = printable(event.text)
            if text:
                self._queue(text)
                self.error = self.notice = None
            return
        unicode = getattr(event, "unicode", "")
        typing = (event.type == pygame.KEYDOWN and unicode and unicode.isprintable()
                  and not event.mod & command)
        if event.type != pygame.KEYUP and not typing:
            # The key press that comes with each typed character changes nothing, so a
            # typing burst stays one insertion; anything else sees the text in order.
            self._flush()
        if typing and event.key != pygame.K_SPACE:  # (Space may press a focused button)
            self.error = self.notice = None
            return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.submit()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()
            return
        if self.ui.handle_event(event, self.app.viewport):
            return
        if event.type == pygame.KEYDOWN:
            self.error = self.notice = None
            if (event.key == pygame.K_v and event.mod & command
                    and not event.mod & pygame.KMOD_ALT):  # AltGr+V may type a letter
                self._paste()
                return
            if self._long is not None:
                self._long_key(event)
                return
        if self._long is not None:
            return  # the shortened text is not editable with the mouse
        if typing or (event.type == pygame.KEYUP
                      and event.key not in (pygame.K_RETURN, pygame.K_KP_ENTER)):
            # pygame_gui does nothing with these (its action keys have no printable
            # character, its shortcuts need Ctrl/Cmd) but an update per event would
            # make a typing burst cost far more than the one insertion it becomes.
            return
        before = self._entry.get_text()
        try:
            used = self._manager.process_events(event)
            self._manager.update(0.0)
        except pygame.error:
            self._entry.set_text(before)  # keep the last text that could be shown
            self.error = _("That character cannot be typed here.")
            return
        if used:
            self.error = None

    def update(self, dt: float) -> None:
        self._ensure_built()
        self._flush()
        self._manager.update(dt)

    def is_active(self) -> bool:
        return True  # the caret blinks

    def draw_body(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        self._ensure_built()
        self._flush()
        vp, theme = self.app.viewport, self.app.theme
        x, y, w, _h = self.panel
        prompt = vp.map_rect(self.to_panel((x + 24, y + 20, w - 48, 70)))
        draw_text_block(surface, _(self.prompt), theme.font(20 * vp.scale, bold=True),
                        theme.palette.text, prompt, fit=True)
        self._manager.draw_ui(surface)
        message, colour = None, theme.palette.muted
        if self.error:
            message, colour = "⚠ " + localize(self.error), theme.palette.bad
        elif self.notice:
            message, colour = "⚠ " + localize(self.notice), theme.palette.accent
        elif self._long is not None:
            message = _("{count} characters, shown shortened. Backspace deletes "
                        "the last; Ctrl+A selects all.").format(count=number_text(len(self._long)))
        if message:
            draw_text_block(surface, message, theme.font(16 * vp.scale), colour,
                            vp.map_rect(self.to_panel((x + 24, y + 150, w - 48, 44))), fit=True)

    def debug_state(self) -> dict[str, Any]:
        text = self.text
        return {"scene": "TextEntryDialog", "overlay": True, "text": text,
                "length": len(text), "shortened": self._long is not None,
                "error": self.error, "notice": self.notice}
