"""The board code shown beside the board: cached per board, big ones worked out off the frame loop.

:func:`~games.buttons.board.format_code` converts an n²-bit number to decimal: about
1.6 ms at 200×200, 5 ms at 300×300 and 100 ms at 1000×1000. Up to
:data:`CODE_INLINE_MAX_N` it is done when asked (once per board, then cached); bigger
boards have their code worked out on a background thread, one at a time, while the
screen says so. Copy pressed before a big code is ready copies it as soon as it is.

No pygame here (the clipboard is the scene's).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ai.runner import AIRunner
from games.buttons.board import Board, format_code

CODE_INLINE_MAX_N = 200
# Codes remembered (a 1000×1000 code is 301 KB): enough for undo/redo back and forth over
# a few boards without converting them again.
CODE_CACHE_SIZE = 8


def canonical_code(text: str, board: Board) -> str:
    """The code :func:`format_code` gives ``board``, read off the text it was parsed from.

    ``text`` must be a valid code of ``board`` (``parse_code(text) == board``). The
    canonical form only drops whitespace and leading zeros and spells the size ``NxN``
    (no size for 4×4), so a big entered board shows its code without the decimal
    conversion.
    """
    code = text.strip()
    number = code.split(":", 1)[1] if ":" in code else code
    number = number.lstrip("0") or "0"
    return number if board.n == 4 else f"{board.n}x{board.n}:{number}"


@dataclass(frozen=True)
class CodeNews:
    """What a frame's :meth:`BoardCodes.update` brought: a code to copy now, an error."""

    copy: str | None = None
    error: str | None = None


class BoardCodes:
    """Codes of the boards shown: :meth:`text` per board, :meth:`update` once a frame."""

    def __init__(self) -> None:
        self.worker = AIRunner()
        self._codes: list[tuple[Board, str]] = []  # most recently used last
        self._failed: Board | None = None
        self._copy_pending: Board | None = None  # Copy pressed before its code was ready

    @property
    def boards(self) -> list[Board]:
        """The boards whose codes are remembered, least recently used first."""
        return [board for board, _code in self._codes]

    def text(self, board: Board) -> str | None:
        """``board``'s code, or None while it is being worked out (or if that failed).

        Boards are immutable (a press makes a new one), so a code is cached per board.
        """
        for i, (known, code) in enumerate(self._codes):
            if known is board or known == board:
                if i != len(self._codes) - 1:
                    self._codes.append(self._codes.pop(i))
                return code
        if board.n > CODE_INLINE_MAX_N:
            return None
        code = format_code(board)
        self.remember(board, code)
        return code

    def pending(self, board: Board) -> bool:
        """Whether ``board``'s code is still being worked out off the frame loop."""
        return board != self._failed and self.text(board) is None

    def failed(self, board: Board) -> bool:
        """Whether working out ``board``'s code failed."""
        return board == self._failed

    def remember(self, board: Board, code: str) -> None:
        """Keep ``code`` as ``board``'s (e.g. the entered text, spelled canonically)."""
        self._codes = [(b, c) for b, c in self._codes if b != board][-(CODE_CACHE_SIZE - 1):]
        self._codes.append((board, code))

    def copy_when_ready(self, board: Board) -> None:
        """Copy ``board``'s code as soon as it is worked out (see :meth:`update`)."""
        self._copy_pending = board

    def board_changed(self, board: Board) -> bool:
        """The board shown is now ``board``: a copy waiting for another board is dropped.

        Returns whether one was (so the player can be told nothing was copied).
        """
        if self._copy_pending is not None and self._copy_pending != board:
            self._copy_pending = None
            return True
        return False

    def update(self, board: Board, start: bool = True) -> CodeNews:
        """Once a frame, with the board shown: collect a finished code, start the next.

        Without ``start`` the next conversion waits (unless Copy asked for it), e.g.
        while a solver works: each holds the GIL in long stretches (a 1000×1000 code's
        last multiplication ~10 ms), and the two together held up frames by up to 30 ms.
        One conversion at a time. A stale conversion is not cancelled when the board
        changes but left to finish (it cannot stop midway): starting another beside it
        would only slow both; its code is then dropped.
        """
        news = CodeNews()
        if self.worker.busy:
            result = self.worker.poll()
            if result is None:
                return news  # still converting (perhaps an older board)
            error = copy = None
            if result.error is not None:
                self._failed = result.tag
                error = f"The board code could not be worked out: {result.error}"
            elif result.tag == board:
                self.remember(result.tag, result.move)
            if self._copy_pending is not None and result.tag == self._copy_pending:
                self._copy_pending = None
                if result.error is None:
                    copy = result.move
            news = CodeNews(copy, error)
        if self.pending(board) and not self.worker.busy \
                and (start or self._copy_pending == board):
            self.worker.submit(lambda _cancel: format_code(board), tag=board)
        return news

    def cancel(self) -> None:
        """Stop waiting for a conversion (leaving the screen); forget a pending copy."""
        self.worker.cancel()
        self._copy_pending = None
