"""Button Madness boards (SPEC §6): an n×n torus of red and green buttons.

Pressing the button in row r, column c flips it and its four neighbours
(r ± 1, c) and (r, c ± 1), wrapping round the edges. Over GF(2) a press adds
X^r Y^c (1 + X + X⁻¹ + Y + Y⁻¹), so flips that land on the same cell cancel: on a
2×2 board the left and the right neighbour are one cell flipped twice, and a
press changes only the pressed button; on a 1×1 board the five flips hit the one
cell, which flips once. Every function here follows that XOR rule.

A board is an integer: bit ``n·r + c`` is the button in row r, column c (0-based,
top-left 0, 0), a set bit meaning RED. The all-red board ``2^(n²) − 1`` is solved.
For 4×4 this is the source document's 16-bit code; 65535 is the solved board.

Board codes (a contract shared by the command line and the UI):

* a bare decimal number is a 4×4 board, 0..65535;
* ``NxN:DECIMAL`` (``x`` or ``X``, both sides equal, 1 ≤ N ≤ :data:`MAX_N`) is an
  N×N board, e.g. ``5x5:33554431`` is the solved 5×5;
* whitespace around a code is ignored, leading zeros are fine, and anything else
  (signs, non-ASCII digits, a number too large for the size, ...) raises
  :class:`CodeError` with a message saying what is wrong.

Python refuses to convert numbers longer than 4,300 digits to and from text, and
does it in quadratic time anyway; a 1000×1000 code has 301,030 digits, so the
conversions here split the number in halves (divide and conquer) instead.

A :class:`Board` is also a one-player :class:`engine.model.rules.GameState` (a move is a
``(row, column)`` pair, and ``is_terminal()`` means solved), which is what the puzzle
midend, the generic breadth-first search and the conformance tests work with.

No pygame here: rules run with no display.
"""

from __future__ import annotations

import decimal
import math
import random
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import overload

import numpy as np

from engine.core.phrase import N_, Phrase
from engine.model.rules import IllegalMove

MAX_N = 1000

# Boards up to this side keep a table of all n² press masks (64² masks of 512
# bytes at most); bigger boards compute a mask when asked (it is five bits).
_MASK_TABLE_MAX_N = 64
# Press sets longer than this are applied with numpy (five rolls of the press
# grid) instead of one mask XOR per press: XOR of a 10⁶-bit mask per press
# would be quadratic on a 1000×1000 board.
_VECTOR_PRESSES = 64
# Python's own int <-> str conversion limit is 4,300 digits; stay below it.
_CHUNK_DIGITS = 4000
_CHUNK_BITS = 12000
# Error messages quote at most this much of the user's text.
_QUOTE = 24


# --- boards -----------------------------------------------------------------


def check_size(n: object) -> int:
    """Return ``n`` if it is a supported side, else raise ValueError."""
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or not 1 <= n <= MAX_N:
        raise ValueError(f"board side must be an integer 1..{MAX_N}, got {n!r}")
    return int(n)


def press_mask(n: int, r: int, c: int) -> int:
    """The cells a press at (r, c) flips on an n×n board, as an n²-bit int.

    The five flips are XORed, so coinciding cells cancel (n = 2) or merge
    (n = 1). Boards up to 64×64 read the mask from a per-n table.
    """
    n = check_size(n)
    if not (0 <= r < n and 0 <= c < n):
        raise ValueError(f"button {(r, c)} is off the {n}×{n} board")
    if n <= _MASK_TABLE_MAX_N:
        return _mask_table(n)[n * r + c]
    return _compute_mask(n, r, c)


def _compute_mask(n: int, r: int, c: int) -> int:
    """The press mask from the rule itself (no table)."""
    mask = 0
    for rr, cc in ((r, c), ((r - 1) % n, c), ((r + 1) % n, c), (r, (c - 1) % n),
                   (r, (c + 1) % n)):
        mask ^= 1 << (n * rr + cc)
    return mask


@lru_cache(maxsize=16)
def _mask_table(n: int) -> tuple[int, ...]:
    """All n² press masks of an n×n board, row-major."""
    return tuple(_compute_mask(n, r, c) for r in range(n) for c in range(n))


def bits_to_grid(n: int, bits: int) -> np.ndarray:
    """An n²-bit board (or press set) as an n×n bool array; True where the bit is set."""
    raw = np.frombuffer(bits.to_bytes((n * n + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=n * n, bitorder="little").reshape(n, n).view(bool)


def grid_to_bits(grid: np.ndarray) -> int:
    """The inverse of :func:`bits_to_grid`: bit n·r + c is ``grid[r, c]``."""
    packed = np.packbits(np.asarray(grid, dtype=bool).ravel(), bitorder="little")
    return int.from_bytes(packed.tobytes(), "little")


def press_effect(n: int, press_bits: int) -> int:
    """The cells a set of presses (an n²-bit int) flips, with the XOR rule.

    Each press flips its cell and the four neighbours, so the effect is the
    press grid XOR its four one-step rolls (np.roll wraps like the torus, and
    the XOR makes coinciding neighbours cancel on small boards).
    """
    n = check_size(n)
    if press_bits.bit_count() <= _VECTOR_PRESSES:
        flips = 0
        rest = press_bits
        while rest:
            low = rest & -rest
            flips ^= press_mask(n, *divmod(low.bit_length() - 1, n))
            rest ^= low
        return flips
    grid = bits_to_grid(n, press_bits)
    effect = (grid ^ np.roll(grid, 1, 0) ^ np.roll(grid, -1, 0) ^ np.roll(grid, 1, 1)
              ^ np.roll(grid, -1, 1))
    return grid_to_bits(effect)


def presses_to_bits(n: int, presses: Iterable[tuple[int, int]]) -> int:
    """A list of presses as an n²-bit int; a button pressed twice cancels."""
    n = check_size(n)
    cells = np.asarray(list(presses), dtype=np.int64).reshape(-1, 2)
    if cells.size == 0:
        return 0
    if cells.min() < 0 or cells.max() >= n:
        bad = next((int(r), int(c)) for r, c in cells if not (0 <= r < n and 0 <= c < n))
        raise ValueError(f"button {bad} is off the {n}×{n} board")
    parity = np.bincount(cells[:, 0] * n + cells[:, 1], minlength=n * n) & 1
    return grid_to_bits(parity.astype(bool))


def bits_to_presses(n: int, press_bits: int) -> list[tuple[int, int]]:
    """The set bits of an n²-bit press set as (row, column) pairs, row-major."""
    if press_bits.bit_count() <= _VECTOR_PRESSES:
        out = []
        rest = press_bits
        while rest:
            low = rest & -rest
            out.append(divmod(low.bit_length() - 1, n))
            rest ^= low
        return out
    rows, cols = np.nonzero(bits_to_grid(n, press_bits))
    return list(zip(rows.tolist(), cols.tolist(), strict=True))


class Cells(Sequence[tuple[int, int]]):
    """Every button of an n×n board as ``(row, column)``, row-major, listed lazily.

    A board's legal moves: a million tuples for 1000×1000 would be ~100 MB, so they are
    made only when read, and ``in`` is a range check.
    """

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n * self.n

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, int]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, int] | list[tuple[int, int]]:
        if isinstance(index, slice):
            return [divmod(i, self.n) for i in range(len(self))[index]]
        i = range(len(self))[index]  # IndexError and negative indices as for a list
        return divmod(i, self.n)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        n = self.n
        return ((r, c) for r in range(n) for c in range(n))

    def __contains__(self, move: object) -> bool:
        return _is_cell(move, self.n)

    def __repr__(self) -> str:
        return f"Cells({self.n})"


def _is_cell(move: object, n: int) -> bool:
    """Whether ``move`` is a (row, column) pair of whole numbers on an n×n board."""
    if not isinstance(move, tuple) or len(move) != 2:
        return False
    return all(isinstance(v, int | np.integer) and not isinstance(v, bool) and 0 <= v < n
               for v in move)


@dataclass(frozen=True)
class Board:
    """An n×n Button Madness board: bit n·r + c of ``bits`` set means that button is red."""

    n: int
    bits: int

    def __post_init__(self) -> None:
        check_size(self.n)
        if isinstance(self.bits, bool) or not isinstance(self.bits, int):
            raise ValueError(f"board bits must be an int, got {self.bits!r}")
        if self.bits < 0 or self.bits >> (self.n * self.n):
            raise ValueError(f"bits out of range for a {self.n}×{self.n} board")

    press_mask = staticmethod(press_mask)

    @classmethod
    def solved(cls, n: int) -> Board:
        """The all-red n×n board."""
        n = check_size(n)
        return cls(n, (1 << (n * n)) - 1)

    @classmethod
    def from_grid(cls, grid: np.ndarray) -> Board:
        """A board from an n×n bool array (True = red)."""
        grid = np.asarray(grid, dtype=bool)
        if grid.ndim != 2 or grid.shape[0] != grid.shape[1]:
            raise ValueError(f"expected a square grid, got shape {grid.shape}")
        return cls(grid.shape[0], grid_to_bits(grid))

    def to_grid(self) -> np.ndarray:
        """The board as an n×n bool array (True = red)."""
        return bits_to_grid(self.n, self.bits)

    @property
    def is_solved(self) -> bool:
        """True when every button is red."""
        return self.bits == (1 << (self.n * self.n)) - 1

    @property
    def green_count(self) -> int:
        """How many buttons are green."""
        return self.n * self.n - self.bits.bit_count()

    @property
    def green_bits(self) -> int:
        """The green buttons as an n²-bit int (the cells a solution must flip)."""
        return self.bits ^ ((1 << (self.n * self.n)) - 1)

    def red(self, r: int, c: int) -> bool:
        """True if the button in row r, column c is red."""
        if not (0 <= r < self.n and 0 <= c < self.n):
            raise ValueError(f"button {(r, c)} is off the {self.n}×{self.n} board")
        return bool(self.bits >> (self.n * r + c) & 1)

    def press(self, r: int, c: int) -> Board:
        """The board after pressing the button in row r, column c."""
        return Board(self.n, self.bits ^ press_mask(self.n, r, c))

    def apply(self, presses: Iterable[tuple[int, int]]) -> Board:
        """The board after a sequence of presses (order is irrelevant; pairs cancel)."""
        cells = presses if isinstance(presses, list | tuple) else list(presses)
        if len(cells) <= _VECTOR_PRESSES:
            bits = self.bits
            for r, c in cells:
                bits ^= press_mask(self.n, r, c)
            return Board(self.n, bits)
        return Board(self.n, self.bits ^ press_effect(self.n, presses_to_bits(self.n, cells)))

    # --- the one-player GameState interface (engine.model.rules) --------------------------
    @property
    def num_players(self) -> int:
        """One: a puzzle."""
        return 1

    def current_player(self) -> int:
        """Always the one player, 0."""
        return 0

    def legal_moves(self) -> Cells:
        """Every button, solved or not: pressing on after a win is allowed (and undoable)."""
        return Cells(self.n)

    def play(self, move: tuple[int, int]) -> Board:
        """The board after pressing ``move`` = (row, column); IllegalMove if it is off the board.

        A press undoes itself, so ``play`` is also its own inverse (the midend's history
        keeps only the pressed cell).
        """
        if not _is_cell(move, self.n):
            raise IllegalMove(f"{move!r} is not a button of the {self.n}×{self.n} board")
        return self.press(int(move[0]), int(move[1]))

    def is_terminal(self) -> bool:
        """Solved: every button red."""
        return self.is_solved

    def returns(self) -> tuple[float, ...]:
        """(1.0,) once solved, (0.0,) before."""
        return (1.0,) if self.is_solved else (0.0,)


# --- generation -------------------------------------------------------------


def generate(n: int, rng: random.Random) -> tuple[Board, list[tuple[int, int]]]:
    """A random solvable, unsolved n×n board and the presses that made it from all red.

    Each button is pressed with probability ½, starting from the solved board,
    so the board is always solvable (by the same presses). A press set in the
    null space leaves the board solved; then it draws again. Every n has press
    sets that change something (a single press does), so this ends: on n = 1
    each draw succeeds with probability ½, on larger n almost surely at once.
    """
    n = check_size(n)
    solved = Board.solved(n)
    while True:
        press_bits = rng.getrandbits(n * n)
        board = Board(n, solved.bits ^ press_effect(n, press_bits))
        if not board.is_solved:
            return board, bits_to_presses(n, press_bits)


# --- codes ------------------------------------------------------------------


class CodeError(ValueError):
    """A board code that cannot be read; the message says what is wrong."""


def _quote(text: str) -> str:
    """The user's text for an error message, shortened if long."""
    if len(text) <= _QUOTE:
        return repr(text)
    return Phrase(N_("{text}… ({count} characters)"), text=repr(text[:_QUOTE]), count=len(text))


# See _multiply.
_PIECE_DIGITS = 40_000
_DEC_CONTEXT = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX,
                               Emin=decimal.MIN_EMIN, traps=[decimal.Inexact])


def int_to_decimal(value: int) -> str:
    """``str(value)`` for a non-negative int of any size, in sub-quadratic time.

    Splits the binary number in halves and joins them in decimal arithmetic
    (hi · 2^w + lo), whose big multiplications are fast; small pieces use str().
    """
    if value < 0:
        raise ValueError("negative value")
    if value.bit_length() <= _CHUNK_BITS:
        return str(value)

    def convert(v: int, width: int) -> decimal.Decimal:
        if width <= _CHUNK_BITS:
            return decimal.Decimal(str(v))
        half = width // 2
        high = convert(v >> half, width - half)
        low = convert(v & ((1 << half) - 1), half)
        return _DEC_CONTEXT.add(_multiply(high, _power_of_two(half)), low)

    return format(convert(value, value.bit_length()), "f")


def _multiply(a: decimal.Decimal, b: decimal.Decimal) -> decimal.Decimal:
    """a · b for non-negative integers, as a sum of products of at most _PIECE_DIGITS
    digits each.

    One multiplication of two 150,000-digit numbers (a 1000×1000 code's last step) is a
    single ~10 ms C call holding the GIL, which stalls the frame loop while the code is
    worked out on a thread; pieces of 40,000 digits take ~4 ms each (and ~1.5 times as
    long in all).
    """
    digits_a, digits_b = a.adjusted() + 1, b.adjusted() + 1
    if max(digits_a, digits_b) <= _PIECE_DIGITS:
        return _DEC_CONTEXT.multiply(a, b)
    if digits_a < digits_b:
        a, b, digits_a = b, a, digits_b
    k = digits_a // 2
    high = a.scaleb(-k, _DEC_CONTEXT).to_integral_value(decimal.ROUND_DOWN, _DEC_CONTEXT)
    low = _DEC_CONTEXT.subtract(a, high.scaleb(k, _DEC_CONTEXT))
    return _DEC_CONTEXT.add(_multiply(high, b).scaleb(k, _DEC_CONTEXT), _multiply(low, b))


@lru_cache(maxsize=64)
def _power_of_two(exponent: int) -> decimal.Decimal:
    """2^exponent in decimal, kept: a board's code after each press needs the same powers,
    and 2^500,000 alone takes ~7 ms (a 1000×1000 board's code is worked out on a thread,
    and this long C call would hold up the frame loop meanwhile)."""
    return _DEC_CONTEXT.power(decimal.Decimal(2), exponent)


def decimal_to_int(digits: str) -> int:
    """``int(digits)`` for an ASCII digit string of any length, in sub-quadratic time.

    Splits the string in halves: hi · 10^k + lo, with Python's Karatsuba
    multiplication; pieces below Python's 4,300-digit limit use int().
    """
    powers: dict[int, int] = {}

    def convert(s: str) -> int:
        if len(s) <= _CHUNK_DIGITS:
            return int(s)
        k = len(s) // 2
        if k not in powers:
            powers[k] = 10**k
        return convert(s[:-k]) * powers[k] + convert(s[-k:])

    return convert(digits)


@lru_cache(maxsize=64)
def max_code_digits(n: int) -> int:
    """How many decimal digits the largest n×n code (2^(n²) − 1) has."""
    k = n * n
    # 2^k is never a power of ten (k ≥ 1), so 2^k − 1 has as many digits as 2^k:
    # floor(k·log10 2) + 1, checked exactly against powers of ten.
    digits = int(k * math.log10(2)) + 1
    top = 1 << k
    while 10 ** (digits - 1) > top:
        digits -= 1
    while 10**digits <= top:
        digits += 1
    return digits


def _describe_max(n: int) -> str:
    """The largest n×n code, written out when short."""
    if n * n <= 96:
        return str((1 << (n * n)) - 1)
    return Phrase(N_("2^{bits} − 1, a {digits}-digit number"), bits=n * n,
                  digits=max_code_digits(n))


def _parse_size(text: str) -> int:
    """The n of an ``NxN`` size prefix."""
    for sep in ("x", "X"):
        if text.count(sep) == 1:
            left, right = text.split(sep)
            break
    else:
        raise CodeError(Phrase(N_("{text} is not a board size: expected NxN such as 5x5"),
                               text=_quote(text)))
    for side in (left, right):
        if not side or not side.isascii() or not side.isdigit():
            raise CodeError(Phrase(
                N_("{text} is not a board size: expected NxN such as 5x5 (ASCII digits)"),
                text=_quote(text)))
    # Sides longer than four digits are out of range anyway; don't convert them.
    if len(left.lstrip("0")) > 4 or len(right.lstrip("0")) > 4:
        raise CodeError(Phrase(N_("size {text} is not supported: n must be 1..{high}"),
                               text=_quote(text), high=MAX_N))
    rows, cols = int(left), int(right)
    if rows != cols:
        raise CodeError(Phrase(N_("{rows}x{cols} is not square: boards are n×n, such as 5x5"),
                               rows=rows, cols=cols))
    if not 1 <= rows <= MAX_N:
        raise CodeError(Phrase(N_("size {text} is not supported: n must be 1..{high}"),
                               text=f"{rows}x{cols}", high=MAX_N))
    return rows


def parse_code(text: str) -> Board:
    """Read a board code: a bare decimal (4×4) or ``NxN:DECIMAL``; see the module doc.

    Raises :class:`CodeError` naming the problem. Too-long numbers are rejected
    by their length before any conversion, so huge inputs fail fast.
    """
    if not isinstance(text, str):
        raise CodeError(Phrase(N_("a code is text, got {kind}"), kind=type(text).__name__))
    code = text.strip()
    if not code:
        raise CodeError(Phrase(N_("empty code: expected a number such as 65535 (4×4) "
                                  "or NxN:number such as 5x5:33554431")))
    if ":" in code:
        size_text, number = code.split(":", 1)
        n = _parse_size(size_text)
        if not number:
            raise CodeError(Phrase(N_("missing the number after {text}"),
                                   text=repr(size_text + ":")))
    else:
        if "x" in code or "X" in code:
            raise CodeError(Phrase(N_("{text}: a sized code needs a colon, such as 5x5:33554431"),
                                   text=_quote(code)))
        n, number = 4, code
    if number[0] in "+-":
        raise CodeError(Phrase(
            N_("{text} has a sign: a code is a plain number, digits 0-9 only"),
            text=_quote(number)))
    if not number.isascii() or not number.isdigit():
        raise CodeError(Phrase(
            N_("{text} is not a number: only the ASCII digits 0-9 are allowed"),
            text=_quote(number)))
    significant = number.lstrip("0") or "0"
    limit = max_code_digits(n)
    shown = significant if len(significant) <= _QUOTE else Phrase(
        N_("a {digits}-digit number"), digits=len(significant))
    too_large = Phrase(N_("{number} is too large for a {n}×{n} board (at most {most})"),
                       number=shown, n=n, most=_describe_max(n))
    if len(significant) > limit:
        raise CodeError(too_large)
    value = decimal_to_int(significant)
    if value >> (n * n):
        raise CodeError(too_large)
    return Board(n, value)


def format_code(board: Board) -> str:
    """The code of a board: a bare decimal for 4×4, else ``NxN:DECIMAL``."""
    number = int_to_decimal(board.bits)
    return number if board.n == 4 else f"{board.n}x{board.n}:{number}"


# --- saved games: the puzzle starts the screen's snapshot writes (boards are generated) -----


def save_state(board: Board) -> dict[str, object]:
    """A board as JSON: its side and its red buttons as a hexadecimal number.

    Hexadecimal, not decimal: converting is linear (a 1000×1000 board's decimal code
    takes divide and conquer), and the text is a fifth shorter.
    """
    return {"n": board.n, "red": format(board.bits, "x")}


_HEX = re.compile(r"[0-9a-f]+")


def load_state(params: object, data: object) -> Board:
    """The board :func:`save_state` wrote; ValueError saying what is wrong for anything else.

    Any side from 1 to :data:`MAX_N` (a board from a code need not be the menu's size),
    so ``params`` is not used.
    """
    from engine.storage.saved_data import fields, text, whole

    record = fields(data, Phrase(N_("the board")), ("n", "red"))
    n = whole(record["n"], Phrase(N_("the board side")), 1, MAX_N)
    red = text(record["red"], Phrase(N_("the text of the red buttons")), (n * n + 3) // 4)
    # int(…, 16) would also take signs, spaces, underscores and "0x": none are saved.
    if not _HEX.fullmatch(red):
        raise ValueError(Phrase(N_("the red buttons must be written in hexadecimal digits "
                                   "0-9, a-f")))
    bits = int(red, 16)
    if bits >> (n * n):  # the last digit can hold bits past the board's buttons
        raise ValueError(Phrase(N_("a red button lies off the {n}×{n} board"), n=n))
    return Board(n, bits)
