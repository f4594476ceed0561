"""Connect Four's opening book: the proven value of every position up to a depth.

The book holds, for every position of one board shape with at most ``depth``
discs that is not over, its value for the player to move, under the smaller
of its key and its mirror image's key (the key is Pons's ``cur + mask``: one
number per position). Values are Pons's exact scores
(:mod:`games.connect4.score_search`) where known, else the outcome alone
(:data:`WIN_UNKNOWN_DISTANCE` / :data:`LOSS_UNKNOWN_DISTANCE`; a draw's score
is always 0). ``tools/make_connect4_book.py`` makes it with the compiled
kernel: it solves every position at the book's depth and backs the values up
to the empty board by minimax (resumable; see docs/connect4-solver.md).

The file (``assets/books/gravity-<cols>x<rows>-k4.bin``) is little-endian::

    b"C4BK", version (u8 = 1), cols (u8), rows (u8), depth (u8), count (u32),
    count keys (u64, ascending), count values (i8)

It is checked against the digest recorded in :mod:`engine.core.shipped_digests`
before use (a changed file is refused with a notice: the hints then search),
and its structure is checked on load.

No pygame here.
"""

from __future__ import annotations

import struct
import threading
from array import array
from bisect import bisect_left
from pathlib import Path

from engine.core.assets import project_root, report_problem, shipped_problem
from engine.core.phrase import N_, Phrase

__all__ = [
    "LOSS_UNKNOWN_DISTANCE",
    "WIN_UNKNOWN_DISTANCE",
    "Book",
    "BookFormatError",
    "book_for",
    "book_path",
    "mirror_key",
    "read_book",
    "write_book",
]

MAGIC = b"C4BK"
VERSION = 1
_HEADER = struct.Struct("<4sBBBBI")
#: A value meaning "the mover wins; the distance was not worked out".
WIN_UNKNOWN_DISTANCE = 100
#: A value meaning "the mover loses; the distance was not worked out".
LOSS_UNKNOWN_DISTANCE = -100


class BookFormatError(ValueError):
    """A book file whose structure is wrong (cut short, bad header, unsorted keys)."""


def mirror_key(key: int, cols: int, rows: int) -> int:
    """A position key (or any bitboard) reflected left to right (columns do not carry)."""
    h1 = rows + 1
    column = (1 << h1) - 1
    out = 0
    for c in range(cols):
        out |= ((key >> (c * h1)) & column) << ((cols - 1 - c) * h1)
    return out


class Book:
    """The values of one board shape's positions up to ``depth`` discs."""

    def __init__(self, cols: int, rows: int, depth: int, keys: array, values: array) -> None:
        self.cols, self.rows, self.depth = cols, rows, depth
        self.keys = keys
        self.values = values

    def __len__(self) -> int:
        return len(self.keys)

    def value(self, cur: int, mask: int) -> int | None:
        """The stored value of the position (``cur``: the mover's discs), or None."""
        key = cur + mask
        other = mirror_key(key, self.cols, self.rows)
        key = min(key, other)
        keys = self.keys
        i = bisect_left(keys, key)
        if i < len(keys) and keys[i] == key:
            return self.values[i]
        return None


def write_book(path: Path, cols: int, rows: int, depth: int, table: dict[int, int]) -> None:
    """Write ``table`` (canonical key → value) as a book file (atomically: temp + rename)."""
    keys = array("Q", sorted(table))
    values = array("b", (table[k] for k in keys))
    if struct.pack("=H", 1) != struct.pack("<H", 1):
        keys.byteswap()
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "wb") as handle:
        handle.write(_HEADER.pack(MAGIC, VERSION, cols, rows, depth, len(keys)))
        handle.write(keys.tobytes())
        handle.write(values.tobytes())
    tmp.replace(path)


def read_book(path: Path) -> Book:
    """Read and check a book file; BookFormatError when its structure is wrong."""
    data = Path(path).read_bytes()
    if len(data) < _HEADER.size:
        raise BookFormatError("cut short")
    magic, version, cols, rows, depth, count = _HEADER.unpack_from(data)
    if magic != MAGIC or version != VERSION:
        raise BookFormatError("not a Connect Four book")
    if len(data) != _HEADER.size + 9 * count:
        raise BookFormatError("wrong length")
    keys = array("Q")
    keys.frombytes(data[_HEADER.size:_HEADER.size + 8 * count])
    if struct.pack("=H", 1) != struct.pack("<H", 1):
        keys.byteswap()
    values = array("b")
    values.frombytes(data[_HEADER.size + 8 * count:])
    if any(keys[i] >= keys[i + 1] for i in range(count - 1)):
        raise BookFormatError("keys out of order")
    return Book(cols, rows, depth, keys, values)


def book_path(cols: int, rows: int) -> Path:
    """Where the shipped book of a board shape lives (it may not exist)."""
    return project_root() / "assets" / "books" / f"gravity-{cols}x{rows}-k4.bin"


_lock = threading.Lock()
_books: dict[tuple[int, int], Book | None] = {}


def book_for(cols: int, rows: int, k: int = 4) -> Book | None:
    """The shipped book of the board (loaded once, digest-checked), or None.

    None when there is no book for it, or the file was changed or damaged: then a
    notice is kept for the player (:func:`engine.core.assets.report_problem`) and
    the caller searches instead.
    """
    if k != 4:
        return None
    with _lock:
        shape = (cols, rows)
        if shape in _books:
            return _books[shape]
        book = None
        path = book_path(cols, rows)
        if path.is_file():
            problem = shipped_problem(path)
            if problem is None:
                try:
                    book = read_book(path)
                except (OSError, BookFormatError) as exc:
                    problem = str(exc)
                if book is not None and (book.cols, book.rows) != shape:
                    book, problem = None, "wrong board"
            if problem is not None:
                report_problem(Phrase(N_("The Connect Four opening book {name} was not used "
                                         "({reason}); the hints search instead."),
                                      name=path.name, reason=problem))
        _books[shape] = book
        return book
