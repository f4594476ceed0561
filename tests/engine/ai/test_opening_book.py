"""Opening books: the engine's builder and lookup, and the m,n,k books the app ships.

Every claim a book makes is checked independently: on small boards against the
plain minimax of tests/games/tictactoe/test_perfect_solver.py (which tries every line of play),
on the shipped books by proving a sample again — draws by the exact sign-only
negamax, wins and losses by the win prover, whose soundness
tests/engine/ai/test_win_proof.py checks against minimax — and fifteen more of each in the slow
suite.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from engine.ai.negamax import Negamax, SearchTimeout
from engine.ai.opening_book import (
    BookError,
    OpeningBook,
    build_book,
    canonical,
    load_book,
    save_book,
)
from engine.ai.win_proof import WinProver, state_plies
from games.tictactoe import opening_book as mnk_books
from games.tictactoe.rules import MNKConfig, TicTacToeState
from games.tictactoe.search_state import MNKSearchState
from tests.support.oracles import minimax

_SIGN = {"win": 1, "draw": 0, "loss": -1}


def _rules(code: str, rows: int, cols: int, k: int) -> TicTacToeState:
    return TicTacToeState.from_rows(code.split("/"), MNKConfig(rows, cols, k))


def _value_after(state: TicTacToeState, move: int) -> int:
    """The mover's outcome after ``move`` by plain minimax."""
    child = state.play(move)
    if child.is_terminal():
        return 1 if child.winner is not None else 0
    return -_SIGN[minimax(child)[0]]


def _book_positions(root: MNKSearchState, book: OpeningBook, plies: int, side: int,
                    openings: bool = False) -> list[MNKSearchState]:
    """``side``'s positions in its first ``plies`` plies, playing the book's moves
    against every reply (the positions a book must cover); with ``openings``, the first
    mover's every opening after which the book holds the opponent's position with the
    opposite outcome, besides the book's own."""
    out, frontier = [], [root]
    for _ in range(plies):
        following = []
        for state in frontier:
            if state.is_terminal():
                continue
            if state.current_player() == side:
                out.append(state)
                entry = book.lookup(state)
                following += [state.play(entry.move)] if entry is not None else []
                if openings and state is root and entry is not None:
                    following += [state.play(m) for m in state.legal_moves()
                                  if (after := book.lookup(state.play(m))) is not None
                                  and after.outcome == -entry.outcome]
            else:
                following += [state.play(m) for m in state.legal_moves()]
        frontier = following
    return out


@pytest.mark.parametrize("rows,cols,k", [(3, 3, 3),
                                         pytest.param(4, 3, 3, marks=pytest.mark.slow)])
def test_a_built_book_holds_true_outcomes_and_moves_that_keep_them(rows, cols, k) -> None:
    root = MNKSearchState.new(rows, cols, k)
    book = build_book(root, 4, time_limit=30, game="test")
    assert len(book) > 5
    for code, (outcome, move) in book.entries.items():
        state = _rules(code, rows, cols, k)
        assert outcome == _SIGN[minimax(state)[0]], code
        assert _value_after(state, move) == outcome, (code, move)


@pytest.mark.parametrize("rows,cols,k", [  # 8 and 4 symmetries
    (3, 3, 3), pytest.param(4, 3, 3, marks=pytest.mark.slow)])
def test_lookup_maps_the_move_through_the_board_symmetry(rows, cols, k) -> None:
    """Every position of both sides' first two book moves, in whatever orientation
    play reaches it, gets a legal move that keeps the minimax outcome."""
    root = MNKSearchState.new(rows, cols, k)
    book = build_book(root, 4, time_limit=30, game="test")
    for side in (0, 1):
        positions = _book_positions(root, book, 4, side)
        assert len(positions) >= 9
        for search in positions:
            entry = book.lookup(search)
            assert entry is not None, search
            state = search.to_rules()
            assert entry.move in state.legal_moves()
            assert entry.outcome == _SIGN[minimax(state)[0]]
            assert _value_after(state, entry.move) == entry.outcome


@pytest.mark.parametrize("rows,cols,k", [(3, 3, 3), pytest.param(4, 3, 3,
                                                                 marks=pytest.mark.slow)])
def test_a_book_built_with_openings_offers_every_opening_that_keeps_the_outcome(
        rows, cols, k) -> None:
    """Built with ``openings``, a book covers every reply to each opening that keeps the
    root's minimax outcome (and no other opening), and ``proven_moves`` offers exactly
    those openings; a book built without offers only its move and its mirror images."""
    root = MNKSearchState.new(rows, cols, k)
    state = root.to_rules()
    outcome = _SIGN[minimax(state)[0]]
    best = {m for m in state.legal_moves() if _value_after(state, m) == outcome}
    book = build_book(root, 4, time_limit=30, game="test", openings=True)
    assert book.proven_moves(root) is not None
    offered_outcome, offered = book.proven_moves(root)
    assert offered_outcome == outcome and set(offered) == best
    assert offered[0] == book.lookup(root).move  # its own move first
    for move in state.legal_moves():
        covered = all(book.lookup(root.play(move).play(reply)) is not None
                      for reply in root.play(move).legal_moves())
        assert covered == (move in best), move
    plain = build_book(root, 4, time_limit=30, game="test")
    own = canonical(root.play(plain.lookup(root).move))[0]
    _outcome, few = plain.proven_moves(root)
    assert set(few) == {m for m in state.legal_moves() if canonical(root.play(m))[0] == own}


@pytest.mark.parametrize("rows,cols,k", [(3, 3, 3), pytest.param(4, 3, 3,
                                                                 marks=pytest.mark.slow)])
def test_every_proven_move_of_a_symmetric_position_keeps_the_outcome(rows, cols, k) -> None:
    """``proven_moves`` gives the book's move and its mirror images where the position is
    symmetric, each keeping the minimax outcome, and the one move ``lookup`` gives among
    them."""
    root = MNKSearchState.new(rows, cols, k)
    book = build_book(root, 4, time_limit=30, game="test")
    several = 0
    for side in (0, 1):
        for search in _book_positions(root, book, 4, side):
            outcome, moves = book.proven_moves(search)
            state = search.to_rules()
            assert book.lookup(search).move in moves and len(set(moves)) == len(moves)
            assert outcome == _SIGN[minimax(state)[0]]
            for move in moves:
                assert _value_after(state, move) == outcome, (state, move)
            several += len(moves) > 1
    assert several  # some positions of the first two moves are symmetric


def _reprove(rows: int, cols: int, k: int, code: str, outcome: int, move: int) -> None:
    """Prove a shipped entry again: draws by the exact negamax, wins and losses by the
    win prover."""
    search = MNKSearchState.from_rules(_rules(code, rows, cols, k))
    child = search.play(move)
    if outcome == 0:
        exact = Negamax(remoteness=False, time_limit=120)
        assert exact.solve(search).outcome == 0, code
        assert child.is_terminal() or exact.solve(child).outcome == 0, (code, move)
    elif outcome > 0:
        assert child.is_terminal() and child.won or WinProver(time_limit=120).defender_loses(
            child, state_plies(child)), (code, move)
    else:
        assert WinProver(time_limit=120).defender_loses(search, state_plies(search)), code


def _shipped(rows: int, cols: int, k: int) -> OpeningBook:
    book = mnk_books.book_for(rows, cols, k)
    assert book is not None, "the shipped book is missing or broken"
    return book


@pytest.mark.slow
@pytest.mark.parametrize("shape", mnk_books.BOOKED)
def test_a_sample_of_each_shipped_book_proves_again(shape) -> None:
    entries = sorted(_shipped(*shape).entries.items())
    for code, (outcome, move) in random.Random(2026).sample(entries, 3):
        _reprove(*shape, code, outcome, move)


@pytest.mark.slow
@pytest.mark.parametrize("shape", mnk_books.BOOKED)
def test_a_larger_sample_of_each_shipped_book_proves_again(shape) -> None:
    """Fifteen more entries of each book (about 15 s; proving every entry again takes
    as long as building the book, which is what its command does)."""
    entries = sorted(_shipped(*shape).entries.items())
    for code, (outcome, move) in random.Random(2027).sample(entries, 15):
        _reprove(*shape, code, outcome, move)


@pytest.mark.slow
@pytest.mark.parametrize("shape", mnk_books.BOOKED)
def test_each_shipped_book_covers_both_sides_first_two_moves(shape) -> None:
    """Every position either side meets in its first two book moves is in the book, or
    in the book's own list of positions whose proof ran out of time when it was built
    (docs/performance.md counts them); nothing in that list is in the book as well."""
    book = _shipped(*shape)
    root = MNKSearchState.new(*shape)
    assert book.game == mnk_books.book_name(*shape)
    assert f"--rows {shape[0]} --cols {shape[1]} --k {shape[2]}" in book.command
    assert not book.unproven & set(book.entries)
    for side in (0, 1):
        positions = _book_positions(root, book, mnk_books.BOOK_PLIES, side,
                                    openings=shape in mnk_books.EVERY_OPENING)
        missing = [canonical(s)[0] for s in positions if book.lookup(s) is None]
        assert set(missing) <= book.unproven, missing[:3]
    if shape == (5, 5, 4):
        assert not book.unproven  # the drawn board is covered in full


def test_the_book_records_what_it_could_not_prove_and_a_longer_build_fills_it_in(
        tmp_path, monkeypatch) -> None:
    """A position whose proof runs out of time goes on the unproven list (saved with the
    book); extending the book with more time proves it and takes it off the list."""
    from engine.ai import opening_book as engine_books

    real = engine_books.proven_choice
    root = MNKSearchState.new(3, 3, 3)
    slow = canonical(root.play(4))[0]  # the second player's answer to the centre

    def flaky(state, **kwargs):
        if canonical(state)[0] == slow and kwargs["deadline"] - time.monotonic() < 5:
            raise SearchTimeout
        return real(state, **kwargs)

    monkeypatch.setattr(engine_books, "proven_choice", flaky)
    path = tmp_path / "book.json"
    first = build_book(root, 2, time_limit=1, game="g",
                       saved=lambda b: save_book(b, path))
    assert first.unproven == {slow} and slow not in first.entries
    assert load_book(path, "g", _valid).unproven == {slow}
    again = build_book(root, 2, time_limit=30, game="g", start=load_book(path, "g", _valid))
    assert not again.unproven and again.entries[slow][0] == 0
    assert set(first.entries) < set(again.entries)


def test_the_published_outcomes_head_each_book() -> None:
    """7×6 with 4 in a row is a first-player win, 5×5 a draw (Uiterwijk, IEEE CoG 2019)."""
    assert _shipped(7, 6, 4).lookup(MNKSearchState.new(7, 6, 4)).outcome == 1
    assert _shipped(5, 5, 4).lookup(MNKSearchState.new(5, 5, 4)).outcome == 0


def _write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


def _valid(code: str, outcome: int, move: object) -> str | None:
    return mnk_books.entry_problem(3, 3, 3, code, outcome, move)


@pytest.mark.parametrize("data,words", [
    ("{not json", "cannot be read"),
    ({"format": 2, "game": "g", "entries": {}}, "not a format 1 book"),
    ({"format": 1, "game": "other", "entries": {}}, "is for 'other'"),
    ({"format": 1, "game": "g", "entries": []}, "no entries"),
    ({"format": 1, "game": "g", "entries": {".../.../...": [2, 4]}}, "not [outcome, move]"),
    ({"format": 1, "game": "g", "entries": {".../.../...": [True, 4]}}, "not [outcome, move]"),
    ({"format": 1, "game": "g", "entries": {"X../.../...": [1, 0]}}, "not an empty cell"),
    ({"format": 1, "game": "g", "entries": {"XX./.../...": [1, 2]}}, "cannot arise"),
    ({"format": 1, "game": "g", "entries": {"XXX/OO./...": [1, 8]}}, "already over"),
    ({"format": 1, "game": "g", "entries": {"..../..../....": [1, 0]}}, "not a 3×3 board"),
    ({"format": 1, "game": "g", "entries": {}, "unproven": "X../.../..."}, "not a list"),
    ({"format": 1, "game": "g", "entries": {}, "unproven": ["XX./.../..."]}, "cannot arise"),
])
def test_a_bad_book_is_refused_with_a_clear_message(tmp_path, data, words) -> None:
    path = _write(tmp_path / "book.json", data)
    with pytest.raises(BookError, match="book") as info:
        load_book(path, "g", _valid)
    assert words in str(info.value) and str(path) in str(info.value)


def test_a_book_saves_atomically_and_loads_back(tmp_path) -> None:
    book = build_book(MNKSearchState.new(3, 3, 3), 2, game="g", command="made here")
    path = tmp_path / "sub" / "book.json"
    save_book(book, path)
    assert [p.name for p in path.parent.iterdir()] == ["book.json"]  # no temporary left
    again = load_book(path, "g", _valid)
    assert again.entries == book.entries and again.command == "made here"


def test_a_broken_shipped_book_is_reported_and_not_used(tmp_path, monkeypatch, caplog) -> None:
    import engine.core.assets as assets_module

    broken = _write(tmp_path / "broken.json", "{")
    monkeypatch.setattr(mnk_books, "asset_path", lambda *parts: broken)
    mnk_books.book_for.cache_clear()
    try:
        assert mnk_books.book_for(7, 6, 4) is None
        assert "cannot be read" in caplog.text
    finally:
        mnk_books.book_for.cache_clear()
        # The notice is for the player: taken here, so that it is not left for the next
        # test's window in this process to show over its board.
        problems = assets_module.take_problems()
    assert any("mnk-6x7-k4.json" in str(p) for p in problems), problems
    assert mnk_books.book_for(3, 3, 3) is None  # no book for boards the solver settles


def test_the_book_command_refuses_bad_options(capsys) -> None:
    for argv in (["--rows", "7", "--cols", "6", "--k", "9"],
                 ["--rows", "7", "--cols", "6", "--k", "4", "--plies", "0"]):
        with pytest.raises(SystemExit) as info:
            mnk_books.main(argv)
        assert info.value.code == 2
    assert "usage: python -m games.tictactoe.opening_book" in capsys.readouterr().err
