"""One number chooser for every screen: a label, −, the value, +.

A :class:`Stepper` is one widget in a :class:`~engine.ui.widgets.WidgetGroup`: one Tab
stop, so stepping to a limit never moves the keyboard focus elsewhere. Its − and +
are real :class:`~engine.ui.widgets.Button` parts named ``"<name>-"`` and ``"<name>+"``
(``group.find`` finds them, so tests and shortcuts click them like any button); −
is disabled at the lowest value and + at the highest, and a click on a disabled
part changes nothing.

The value is centred between − and + with a clear gap on both sides; a value too
long for that room shrinks, then ends with "…" and shows whole in a tooltip. The
label, where there is one, takes ``label_w`` design units at the left.

Keys while it has the focus: ← ↓ − lower the value, → ↑ + raise it, Home / End
go to the lowest / highest value.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from engine.core.i18n import _
from engine.ui.theme import Theme
from engine.ui.viewport import Viewport
from engine.ui.widgets import Button, FitRequest, Place, Widget, draw_focus, draw_lines

# Room between the value and each of − and + (design units): the value never
# touches them, whatever its length.
VALUE_GAP = 8.0
# Room between the label and −.
LABEL_GAP = 6.0
DOWN_KEYS = (pygame.K_LEFT, pygame.K_DOWN, pygame.K_MINUS, pygame.K_KP_MINUS)
UP_KEYS = (pygame.K_RIGHT, pygame.K_UP, pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
# Home / End step at most this many times (a stepper over 1..1000 reaches either end).
MAX_JUMP = 10_000

Bound = int | Callable[[], int]


def _bound(value: Bound) -> int:
    return value() if callable(value) else value


def _flag(flag: bool | Callable[[], bool]) -> bool:
    return flag() if callable(flag) else flag


class Stepper(Widget):
    """Label, −, value, + in one rectangle; see the module's notes.

    ``text()`` is the value as shown; ``on_step(sign)`` steps it down (-1) or up
    (+1); ``can_step(sign)`` says whether that step is possible now (− and + are
    disabled where it is not). :func:`int_stepper` builds one over an integer.
    ``button_w`` is the width of − and + (default: the stepper's height, square).
    """

    focusable = True

    def __init__(
        self, rect: Place, text: Callable[[], str], on_step: Callable[[int], None],
        can_step: Callable[[int], bool] = lambda sign: True, *, name: str,
        label: str | Callable[[], str] = "", label_w: float = 0.0, size: float = 18,
        min_size: float = 12, label_size: float = 16, button_w: float | None = None,
        enabled: bool | Callable[[], bool] = True, visible: bool | Callable[[], bool] = True,
    ) -> None:
        super().__init__(rect, visible)
        self._text = text
        self.on_step = on_step
        self.can_step = can_step
        self.name = name
        self._label = label
        self.label_w = label_w if label else 0.0
        self.size, self.min_size, self.label_size = size, min_size, label_size
        self.button_w = button_w
        self._enabled = enabled
        # The parts are Buttons placed by this widget (callable places: never framed twice).
        self.minus = Button(lambda: self.part("minus"), "−", lambda: self.step(-1), size=22,
                            enabled=lambda: self._can(-1), name=f"{name}-")
        self.plus = Button(lambda: self.part("plus"), "+", lambda: self.step(1), size=22,
                           enabled=lambda: self._can(1), name=f"{name}+")
        # Screen rectangle of the value's text as last drawn (tests check its gaps).
        self.value_drawn: pygame.Rect | None = None
        self._label_fit = Widget((0, 0, 0, 0))
        self._value_fit = Widget((0, 0, 0, 0))

    # --- state -----------------------------------------------------------------------------
    @property
    def text(self) -> str:
        """The value as shown now, in the current language."""
        return _(self._text())

    @property
    def label(self) -> str:
        """The label's text ("" for none), in the current language (marked with N_)."""
        return _(self._label() if callable(self._label) else self._label)

    @property
    def enabled(self) -> bool:
        """Whether the stepper takes input (and the focus): it can step at least one way."""
        return _flag(self._enabled) and (self.can_step(-1) or self.can_step(1))

    def _can(self, sign: int) -> bool:
        return _flag(self._enabled) and self.can_step(sign)

    def step(self, sign: int) -> None:
        """Step down (-1) or up (+1) if that is possible now."""
        if self._can(sign):
            self.on_step(sign)

    def parts(self) -> list[Button]:
        """The − and + buttons (what :meth:`WidgetGroup.find` looks into)."""
        return [self.minus, self.plus]

    # --- layout (design units) -----------------------------------------------------------
    def part(self, name: str) -> tuple[float, float, float, float]:
        """Design rectangle of ``"label"``, ``"minus"``, ``"value"`` or ``"plus"``."""
        x, y, w, h = self.rect
        label_w = min(self.label_w, max(0.0, w - 2 * h))
        bw = self.button_w if self.button_w is not None else h
        left = x + (label_w + LABEL_GAP if label_w else 0.0)
        bw = max(0.0, min(bw, (x + w - left) / 3))
        rects = {
            "label": (x, y, label_w, h),
            "minus": (left, y, bw, h),
            "value": (left + bw + VALUE_GAP, y, max(0.0, x + w - left - 2 * bw - 2 * VALUE_GAP),
                      h),
            "plus": (x + w - bw, y, bw, h),
        }
        return rects[name]

    @property
    def tooltip(self) -> str | None:
        """The label and value in full where either had to be shortened."""
        if self._label_fit.shortened or self._value_fit.shortened:
            return f"{self.label}: {self.text}" if self.label else self.text
        return None

    # --- input ---------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, vp: Viewport) -> bool:
        used = False
        for button in (self.minus, self.plus):
            # Every part sees pointer motion (hover) and releases (to end a press).
            if button.handle_event(event, vp):
                used = True
                if event.type != pygame.MOUSEMOTION:
                    break
        if event.type == pygame.MOUSEBUTTONDOWN and not used:
            # A click on the label or the value is still a click on this widget.
            return self.screen_rect(vp).collidepoint(event.pos)
        return used

    def handle_key(self, event: pygame.event.Event) -> bool:
        """A key while focused: arrows and − / + step, Home / End jump to a limit."""
        if event.key in DOWN_KEYS:
            self.step(-1)
        elif event.key in UP_KEYS:
            self.step(1)
        elif event.key in (pygame.K_HOME, pygame.K_END):
            sign = -1 if event.key == pygame.K_HOME else 1
            for _step in range(MAX_JUMP):
                if not self._can(sign):
                    break
                before = self.text
                self.on_step(sign)
                if self.text == before:
                    break  # a step that changes nothing would loop for ever
        else:
            return False
        return True

    # --- drawing -------------------------------------------------------------------------
    def fit_request(self, vp: Viewport, part: str = "text") -> FitRequest | None:
        """The value's ("value") or the label's ("label") text and box, for a SizeGroup
        (steppers in a column share one size for their values, and one for their labels)."""
        if part == "label":
            if not self.label_w:
                return None
            return (self.label, vp.map_rect(self.part("label")).size, self.label_size,
                    min(self.label_size, 12), False, 2)
        return (self.text, vp.map_rect(self.part("value")).size, self.size,
                min(self.size, self.min_size), True, 1)

    def _fit(self, helper: Widget, part: str, theme: Theme,
             vp: Viewport) -> tuple[pygame.font.Font, list[str]]:
        """Fit ``part`` with ``helper`` (which keeps its fitting), at the group's size if any."""
        request = self.fit_request(vp, part)
        assert request is not None
        text, _box, size, min_size, bold, lines = request
        shared = self.group_size(theme, vp, part)
        if shared is not None:
            size = min_size = shared
        rect = vp.map_rect(self.part(part))
        font, fitted = helper.fit_text(theme, vp, rect, text, size, min_size, bold, lines)
        self.drawn_sizes[part] = helper.drawn_sizes["text"]
        return font, fitted

    def draw(self, surface: pygame.Surface, vp: Viewport, theme: Theme, focused: bool) -> None:
        p = theme.palette
        if self.label_w:
            rect = vp.map_rect(self.part("label"))
            font, lines = self._fit(self._label_fit, "label", theme, vp)
            draw_lines(surface, lines, font, p.text if self.enabled else p.muted, rect)
        self.minus.draw(surface, vp, theme, False)
        self.plus.draw(surface, vp, theme, False)
        rect = vp.map_rect(self.part("value"))
        font, lines = self._fit(self._value_fit, "value", theme, vp)
        self.shortened = self._label_fit.shortened or self._value_fit.shortened
        self.full_text = self.tooltip or ""
        colour = p.text if _flag(self._enabled) else p.muted
        self.value_drawn = None
        if lines and lines[0]:
            image = font.render(lines[0], True, colour)
            self.value_drawn = surface.blit(image, image.get_rect(center=rect.center))
        if focused:
            left, top, _w, height = self.part("minus")
            right = self.part("plus")
            draw_focus(surface, vp.map_rect((left, top, right[0] + right[2] - left, height)),
                       vp, theme)


def int_stepper(
    rect: Place, get: Callable[[], int], set_value: Callable[[int], None], low: Bound,
    high: Bound, *, name: str, step: int = 1, show: Callable[[int], str] = str,
    **options: object,
) -> Stepper:
    """A :class:`Stepper` over an integer from ``get()``, stored with ``set_value(v)``.

    A step moves ``step`` (clamped to [low, high]; either bound may be a callable read
    each time); − is disabled at ``low``, + at ``high``. ``show`` formats the value;
    ``options`` go to :class:`Stepper` (label, label_w, size, enabled, visible ...).
    """

    def can(sign: int) -> bool:
        value = get()
        return value > _bound(low) if sign < 0 else value < _bound(high)

    def on_step(sign: int) -> None:
        set_value(max(_bound(low), min(_bound(high), get() + sign * step)))

    return Stepper(rect, lambda: show(get()), on_step, can, name=name,
                   **options)  # type: ignore[arg-type]
