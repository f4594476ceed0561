"""The compiled kernel (games/connect4/c4kernel.c) against the pure-Python search and the
brute force, its limits (node budget, deadline, cancel from another thread), the loader
(engine/core/native.py), the opening book's format and its generator, and the honest
labels when there is no kernel.

The kernel is compiled once per machine into the user cache (a C compiler is part of
the README's set-up); without one these tests are skipped, and the rest of the suite
runs on the pure-Python search.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.ai.agent import Cancelled
from engine.ai.negamax import SearchTimeout
from engine.core import native
from games.connect4 import kernel
from games.connect4.book import (
    LOSS_UNKNOWN_DISTANCE,
    WIN_UNKNOWN_DISTANCE,
    BookFormatError,
    mirror_key,
    read_book,
    write_book,
)
from games.connect4.geometry import geometry
from games.connect4.rules import Connect4Config
from games.connect4.score_search import ScoreSearch
from games.connect4.solver import C4Search, exact_values, move_values
from tests.support.oracles import as_pair, brute_move_values, random_positions

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))

import make_connect4_book  # noqa: E402

pytestmark = pytest.mark.skipif(not kernel.available(), reason="no C compiler here")

# (cols, rows, lowest discs, highest discs): where the pure-Python search answers fast.
SHAPES = ((4, 4, 0, 14), (5, 4, 0, 18), (6, 5, 10, 28), (7, 6, 22, 40), (8, 7, 44, 54),
          (9, 6, 34, 52), (4, 8, 14, 30))
# The quick run's sample: the two widest boards (a second or so each) only in the full run,
# where every shape is sampled six times over.
QUICK_SHAPES = [shape if shape[:2] not in ((8, 7), (9, 6))
                else pytest.param(*shape, marks=pytest.mark.slow) for shape in SHAPES]


def _random_search(cols: int, rows: int, discs: int, rng: random.Random) -> C4Search:
    while True:
        s = C4Search.new(cols, rows)
        for _ in range(discs):
            if s.is_terminal():
                break
            s = s.play(rng.choice(s.legal_moves()))
        if not s.is_terminal():
            return s


def _compare_with_the_oracle(cols: int, rows: int, low: int, high: int, per_count: int,
                             seed: int) -> None:
    rng = random.Random(seed)
    k = kernel.kernel_for(cols, rows, table_bytes=1 << 20)
    assert k is not None
    oracle = ScoreSearch(geometry(cols, rows, 4), 100_003)
    for discs in range(low, high + 1, 2):
        for _ in range(per_count):
            s = _random_search(cols, rows, discs, rng)
            for lowest, highest in ((None, None), (-1, 1), (None, -1), (1, None), (0, 0)):
                expected = oracle.solve(s.cur, s.mask, s.n, lowest, highest)
                assert k.solve(s.cur, s.mask, s.n, lowest, highest) == expected, (s, lowest)


@pytest.mark.parametrize(("cols", "rows", "low", "high"), QUICK_SHAPES)
def test_kernel_scores_equal_the_pure_python_search(cols: int, rows: int, low: int,
                                                    high: int) -> None:
    _compare_with_the_oracle(cols, rows, low, high, 1, seed=cols * 100 + rows)


@pytest.mark.slow
@pytest.mark.parametrize(("cols", "rows", "low", "high"), SHAPES)
def test_kernel_scores_equal_the_pure_python_search_on_many(cols: int, rows: int, low: int,
                                                            high: int) -> None:
    _compare_with_the_oracle(cols, rows, low, high, 6, seed=cols * 1000 + rows)


def test_claimeven_positions_keep_their_exact_scores() -> None:
    """Positions whose columns all have an even number of empty cells (where the kernel
    bounds the mover by Allis's claimeven), on boards of even and odd height, with the
    mover or the other side holding the threats: the same scores as the oracle's."""
    rng = random.Random(30)
    checked = 0
    for cols, rows, low, high in ((5, 4, 4, 14), (6, 5, 18, 26), (4, 6, 4, 16), (5, 6, 16, 26)):
        k = kernel.kernel_for(cols, rows, table_bytes=1 << 20)
        assert k is not None
        oracle = ScoreSearch(geometry(cols, rows, 4), 100_003)
        found = 0
        while found < 12:
            s = _random_search(cols, rows, rng.randrange(low, high + 1), rng)
            heights = [bin(s.mask & s.g.col_mask[c]).count("1") for c in range(cols)]
            if any((rows - h) % 2 for h in heights):
                continue
            found += 1
            for lowest, highest in ((None, None), (-1, 1), (0, 1), (-1, 0)):
                expected = oracle.solve(s.cur, s.mask, s.n, lowest, highest)
                assert k.solve(s.cur, s.mask, s.n, lowest, highest) == expected, (s, lowest)
        checked += found
    assert checked == 48


def test_kernel_values_equal_the_brute_force() -> None:
    for cfg, low, high in ((Connect4Config(4, 4), 2, 10), (Connect4Config(5, 4), 8, 14)):
        for state in random_positions(cfg, low, high, 6, seed=3):
            got = exact_values(state)  # through the kernel
            assert {c: as_pair(v) for c, v in got.items()} == brute_move_values(state), state


def test_a_tiny_kernel_table_changes_nothing() -> None:
    k = kernel.kernel_for(6, 5, table_bytes=16)  # the smallest table: 1031 slots
    assert k is not None
    oracle = ScoreSearch(geometry(6, 5, 4), 100_003)
    rng = random.Random(2)
    for discs in (12, 16, 20):
        s = _random_search(6, 5, discs, rng)
        assert k.solve(s.cur, s.mask, s.n) == oracle.solve(s.cur, s.mask, s.n)


def test_unsupported_boards_get_no_kernel() -> None:
    assert kernel.kernel_for(9, 7) is None  # 8 × 9 = 72 bits
    assert kernel.kernel_for(7, 6, 5) is None  # five in a row
    assert kernel.supports(8, 7, 4) and not kernel.supports(9, 7, 4)
    with kernel.disabled():
        assert kernel.kernel_for(7, 6) is None
    assert kernel.kernel_for(7, 6, table_bytes=1 << 16) is not None


def test_a_node_budget_and_a_deadline_stop_the_search() -> None:
    k = kernel.kernel_for(7, 6, table_bytes=1 << 20)
    assert k is not None
    with pytest.raises(kernel.BudgetExceeded):
        k.solve(0, 0, 0, budget=10_000)
    with pytest.raises(SearchTimeout):
        k.solve(0, 0, 0, deadline=time.monotonic() + 0.05)
    with pytest.raises(SearchTimeout):
        k.solve(0, 0, 0, deadline=time.monotonic() - 1)
    # A stopped search stored nothing wrong: a later full answer is still exact.
    s = _random_search(7, 6, 30, random.Random(1))
    oracle = ScoreSearch(geometry(7, 6, 4), 100_003)
    assert k.solve(s.cur, s.mask, s.n) == oracle.solve(s.cur, s.mask, s.n)


def test_cancel_from_another_thread_stops_the_search() -> None:
    k = kernel.kernel_for(7, 6, table_bytes=1 << 20)
    assert k is not None
    cancel = threading.Event()
    outcome: list[BaseException] = []

    def run() -> None:
        try:
            k.solve(0, 0, 0, cancel=cancel)  # the empty board: far longer than this test
        except BaseException as exc:  # noqa: BLE001 - the test reads what was raised
            outcome.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(0.1)
    cancel.set()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], Cancelled)
    with pytest.raises(Cancelled):
        k.solve(0, 0, 0, cancel=cancel)  # already set: never starts


def test_bad_positions_are_refused() -> None:
    k = kernel.kernel_for(7, 6, table_bytes=1 << 16)
    assert k is not None
    with pytest.raises(ValueError):
        k.solve(1, 0, 0)  # a disc of the mover's outside the mask
    with pytest.raises(ValueError):
        k.solve(0, 1, 0)  # one disc, but "no disc played"


def test_without_the_kernel_the_hints_say_what_is_an_estimate() -> None:
    state = C4Search.new(8, 7)  # no book
    with kernel.disabled():
        values = move_values(state, time_limit=0.3)
    assert set(values) == set(range(8))
    assert all(not v.exact for v in values.values())


def test_the_first_hint_on_7x6_comes_from_the_book_with_or_without_the_kernel() -> None:
    from games.connect4.book import book_for

    book = book_for(7, 6)
    if book is None or book.depth < 1:
        pytest.skip("no 7×6 opening book of depth 1 or more shipped")
    expected = {3: "win", 2: "draw", 4: "draw", 0: "loss", 1: "loss", 5: "loss", 6: "loss"}
    for off in (False, True):
        cancel = threading.Event()
        if off:
            with kernel.disabled():
                values = move_values(C4Search.new(7, 6), cancel, time_limit=0.5)
        else:
            values = move_values(C4Search.new(7, 6), cancel, time_limit=0.5)
        assert {c: v.outcome for c, v in values.items()} == expected
        assert all(v.exact for v in values.values())


def test_late_hints_are_exact_with_their_distance() -> None:
    rng = random.Random(4)
    for _ in range(3):
        s = _random_search(7, 6, 24, rng)
        values = move_values(s, time_limit=30)
        assert values and all(v.exact for v in values.values())
        assert all(v.remoteness is not None for v in values.values())
        assert values == exact_values(s)


# --- the loader ---------------------------------------------------------------------------


@pytest.mark.slow
def test_the_loader_compiles_into_the_cache_atomically(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(native.CACHE_ENV, str(tmp_path / "cache"))
    source = tmp_path / "adder.c"
    source.write_text("int add(int a, int b) { return a + b; }\n")
    lib = native.load_library(source)
    assert lib is not None and lib.add(2, 3) == 5
    built = list((tmp_path / "cache").iterdir())
    assert len(built) == 1 and built[0].suffix == native.library_suffix()  # no temp file left
    assert native.load_library(source) is lib  # once per run


@pytest.mark.slow
def test_no_compiler_means_no_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(native.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(native, "compiler", lambda: None)
    source = tmp_path / "nothing.c"
    source.write_text("int nothing(void) { return 0; }\n")
    assert native.load_library(source) is None
    broken = tmp_path / "broken.c"
    broken.write_text("this is not C\n")
    monkeypatch.undo()
    monkeypatch.setenv(native.CACHE_ENV, str(tmp_path / "cache"))
    assert native.load_library(broken) is None
    monkeypatch.setenv(native.NO_NATIVE_ENV, "1")
    assert native.load_library(tmp_path / "other.c") is None


# --- the opening book ---------------------------------------------------------------------


def test_a_made_book_holds_every_position_with_its_exact_value(tmp_path: Path) -> None:
    out = tmp_path / "book.bin"
    assert make_connect4_book.main(["--cols", "5", "--rows", "4", "--depth", "3",
                                    "--table-mb", "8", "--out", str(out),
                                    "--progress", str(tmp_path / "progress.txt")]) == 0
    book = read_book(out)
    assert (book.cols, book.rows, book.depth) == (5, 4, 3)
    k = kernel.kernel_for(5, 4, table_bytes=1 << 20)
    assert k is not None
    levels = make_connect4_book.positions(5, 4, 3)
    assert len(book) == sum(len(level) for level in levels)
    for n, level in enumerate(levels):
        for cur, mask in level.values():
            assert book.value(cur, mask) == k.solve(cur, mask, n)
            # Mirror images read the same entry.
            assert book.value(mirror_key(cur, 5, 4), mirror_key(mask, 5, 4)) == \
                book.value(cur, mask)


def test_a_win_loss_book_backs_up_outcomes(tmp_path: Path) -> None:
    out = tmp_path / "wdl.bin"
    assert make_connect4_book.main(["--cols", "5", "--rows", "4", "--depth", "3", "--wdl",
                                    "--table-mb", "8", "--out", str(out),
                                    "--progress", str(tmp_path / "progress.txt")]) == 0
    book = read_book(out)
    k = kernel.kernel_for(5, 4, table_bytes=1 << 20)
    assert k is not None
    for n, level in enumerate(make_connect4_book.positions(5, 4, 3)):
        for cur, mask in level.values():
            value = book.value(cur, mask)
            exact = k.solve(cur, mask, n)
            assert value is not None and (value > 0) - (value < 0) == (exact > 0) - (exact < 0)
            assert value in (0, WIN_UNKNOWN_DISTANCE, LOSS_UNKNOWN_DISTANCE, exact)


def test_a_damaged_book_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "b.bin"
    write_book(path, 5, 4, 1, {3: 1, 1: -2})
    assert read_book(path).value(0, 0) is None
    data = path.read_bytes()
    path.write_bytes(data[:-1])
    with pytest.raises(BookFormatError):
        read_book(path)
    path.write_bytes(b"XXXX" + data[4:])
    with pytest.raises(BookFormatError):
        read_book(path)


def _decode(key: int, cols: int, rows: int) -> tuple[int, int]:
    """(cur, mask) of a position key ``cur + mask``: each column reads as its discs plus
    one bit above them."""
    h1 = rows + 1
    cur = mask = 0
    for c in range(cols):
        column = (key >> (c * h1)) & ((1 << h1) - 1)
        height = (column + 1).bit_length() - 1
        filled = (1 << height) - 1
        mask |= filled << (c * h1)
        cur |= (column - filled) << (c * h1)
    return cur, mask


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


@pytest.mark.slow
def test_shipped_books_re_prove_a_sample() -> None:
    """Every shipped Connect Four book passes its digest check, and a random sample of its
    entries is proven again: the deepest ones by the kernel (where that takes seconds, not
    hours: 7×6 from 8 discs), every sampled shallower one against its children's entries
    by one step of minimax (which is how the generator made it)."""
    from games.connect4.book import book_for

    paths = sorted((ROOT / "assets" / "books").glob("gravity-*-k4.bin"))
    assert paths, "the 6×5 and 5×4 books are shipped"
    rng = random.Random(11)
    for path in paths:
        cols, rows = (int(x) for x in path.stem.split("-")[1].split("x"))
        book = book_for(cols, rows)
        assert book is not None, f"{path.name} refused (digest or structure)"
        g = geometry(cols, rows, 4)
        k = kernel.kernel_for(cols, rows, table_bytes=64 << 20)
        assert k is not None
        deep = 0
        for i in rng.sample(range(len(book)), min(60, len(book))):
            cur, mask = _decode(book.keys[i], cols, rows)
            n = mask.bit_count()
            value = book.values[i]
            assert book.value(cur, mask) == value
            if n == book.depth and (cols * rows <= 30 or n >= 8):
                deep += 1
                if cols * rows > 30 and deep > 12:
                    continue  # 7×6: a dozen proofs of 8-disc positions (a second or so each)
                if abs(value) == WIN_UNKNOWN_DISTANCE or (value == 0 and cols * rows > 30):
                    # A win/draw/loss entry: its outcome, proven by a win/draw/loss search.
                    proven = k.solve(cur, mask, n, -1, 1, deadline=time.monotonic() + 120)
                    assert _sign(value) == proven, (path.name, cur, mask)
                else:
                    proven = k.solve(cur, mask, n, deadline=time.monotonic() + 120)
                    assert value == proven, (path.name, cur, mask)
            elif n < book.depth:
                possible = (mask + g.bottom) & g.board
                children = []
                for c in range(cols):
                    bit = possible & g.col_mask[c]
                    if not bit:
                        continue
                    if g.aligned(cur | bit):
                        children = [(cols * rows + 1 - n) // 2]
                        break
                    child = book.value(cur ^ mask, mask | bit)
                    assert child is not None
                    children.append(-child)
                best = max(children, key=lambda v: (_sign(v), v))
                assert _sign(value) == _sign(best), (path.name, cur, mask)
                if abs(value) != WIN_UNKNOWN_DISTANCE and len(children) > 1:
                    assert value == max(v for v in children if _sign(v) == _sign(value))


def test_the_generator_resumes_where_it_stopped(tmp_path: Path) -> None:
    progress = tmp_path / "progress.txt"
    out = tmp_path / "book.bin"
    args = ["--cols", "5", "--rows", "4", "--depth", "3", "--table-mb", "8", "--out", str(out),
            "--progress", str(progress)]
    assert make_connect4_book.main([*args, "--limit", "5"]) == 0
    assert not out.exists() and len(progress.read_text().splitlines()) == 5
    with open(progress, "a", encoding="ascii") as handle:
        handle.write("123")  # a line torn by a kill: ignored, solved again
    assert make_connect4_book.main(args) == 0
    fresh = tmp_path / "fresh.bin"
    assert make_connect4_book.main([*args[:-4], "--out", str(fresh), "--progress",
                                    str(tmp_path / "other.txt")]) == 0
    assert out.read_bytes() == fresh.read_bytes()


def test_a_kernel_search_lets_other_threads_run() -> None:
    """ctypes releases the GIL for the whole search: a frame loop in another thread keeps
    running while a hint is worked out (counted against the same loop running alone)."""
    k = kernel.kernel_for(7, 6, table_bytes=1 << 20)
    assert k is not None

    def spin(seconds: float) -> int:
        count = 0
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            count += 1
        return count

    alone = spin(0.2)
    counted: list[int] = []
    worker = threading.Thread(target=lambda: counted.append(spin(0.2)))
    worker.start()
    with pytest.raises(SearchTimeout):
        k.solve(0, 0, 0, deadline=time.monotonic() + 0.4)  # the empty board: never in time
    worker.join()
    # With the GIL held for the search the loop would barely have run (a few switches);
    # wide margin for a busy machine.
    assert counted[0] > alone // 20


def test_a_changed_shipped_book_is_refused_with_a_notice(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A shipped book whose digest is not the recorded one is not used (the hints search
    instead) and the player is told once."""
    from engine.core import assets
    from games.connect4 import book as book_module

    fake_root = tmp_path / "root"
    shipped = fake_root / "assets" / "books" / "gravity-5x4-k4.bin"
    shipped.parent.mkdir(parents=True)
    write_book(shipped, 5, 4, 1, {3: 1})  # well formed, but not the file that shipped
    monkeypatch.setattr(assets, "project_root", lambda: fake_root)
    monkeypatch.setattr(book_module, "project_root", lambda: fake_root)
    monkeypatch.setattr(book_module, "_books", {})
    assets.take_problems()
    assert book_module.book_for(5, 4) is None
    notices = [str(n) for n in assets.take_problems()]
    assert len(notices) == 1 and "gravity-5x4-k4.bin" in notices[0]
    # Without a book the values still come, searched.
    values = exact_values(C4Search.new(5, 4))
    assert set(values) == set(range(5)) and all(v.remoteness is not None for v in values.values())
