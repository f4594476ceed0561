"""Bachet's game and Nim (normal and misère) against brute force (SPEC §5)."""

from __future__ import annotations

import itertools
from functools import cache, reduce
from operator import xor

import pytest

from engine.model.rules import GameState, IllegalMove
from games.grundy.heaps import (
    BACHET_DEFAULT,
    NIM_DEFAULT,
    HeapConfig,
    HeapState,
    heap_grundy,
    heap_remoteness,
    remoteness_bound,
)
from games.grundy.impartial import ImpartialState

# --- brute force, written from the rules only ------------------------------------


def brute_mex(values: set[int]) -> int:
    m = 0
    while m in values:
        m += 1
    return m


@cache
def brute_bachet_grundy(n: int, k: int) -> int:
    """mex over the heaps reachable by taking 1..k (bottom-up to keep recursion shallow)."""
    table = [0] * (n + 1)
    for m in range(1, n + 1):
        table[m] = brute_mex({table[m - t] for t in range(1, min(m, k) + 1)})
    return table[n]


@cache
def brute_solve(heaps: tuple[int, ...], k: int | None, misere: bool) -> tuple[bool, int]:
    """(the player to move wins, remoteness) by exhaustive search over the game tree."""
    moves = [heaps[:i] + (h - t,) + heaps[i + 1:]
             for i, h in enumerate(heaps)
             for t in range(1, (h if k is None else min(h, k)) + 1)]
    if not moves:
        # Nothing left: the opponent took the last pebble.
        return misere, 0
    results = [brute_solve(tuple(sorted(m)), k, misere) for m in moves]
    lost_after = [r for win, r in results if not win]
    if lost_after:
        return True, 1 + min(lost_after)
    return False, 1 + max(r for _, r in results)


def positions(max_heaps: int, max_size: int):
    for count in range(1, max_heaps + 1):
        yield from itertools.product(range(max_size + 1), repeat=count)


# --- configuration ----------------------------------------------------------------


def test_defaults_are_the_documents_games():
    assert BACHET_DEFAULT == HeapConfig("bachet", (100,), 10)
    assert HeapConfig("bachet", (100,)).max_take == 10
    assert NIM_DEFAULT == HeapConfig("nim", (3, 5, 7))
    assert not NIM_DEFAULT.misere


@pytest.mark.parametrize("kwargs, fragment", [
    ({"kind": "chess", "heaps": (3,)}, "kind"),
    ({"kind": "nim", "heaps": ()}, "1 to 8 heaps"),
    ({"kind": "nim", "heaps": (1,) * 9}, "1 to 8 heaps"),
    ({"kind": "nim", "heaps": (3, 1001)}, "0..1000"),
    ({"kind": "nim", "heaps": (3, -1)}, "0..1000"),
    ({"kind": "nim", "heaps": (3, 2.5)}, "integers"),
    ({"kind": "nim", "heaps": (True, 2)}, "integers"),
    ({"kind": "nim", "heaps": (3, 4), "max_take": 2}, "max_take must be None"),
    ({"kind": "bachet", "heaps": (3, 4)}, "exactly one heap"),
    ({"kind": "bachet", "heaps": (30,), "max_take": 0}, "1..100"),
    ({"kind": "bachet", "heaps": (30,), "max_take": 101}, "1..100"),
    ({"kind": "nim", "heaps": (3,), "misere": "yes"}, "misere"),
])
def test_config_validation(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        HeapConfig(**kwargs)


def test_states_implement_both_protocols():
    for cfg in (BACHET_DEFAULT, NIM_DEFAULT, HeapConfig("nim", (1, 2), misere=True)):
        state = HeapState.start(cfg)
        assert isinstance(state, GameState)
        assert isinstance(state, ImpartialState)
        assert state.heaps == cfg.heaps and state.to_move == 0 and state.num_players == 2


def test_play_validates_moves():
    state = HeapState.start(HeapConfig("nim", (3, 0, 2)))
    assert state.legal_moves() == [(0, 1), (0, 2), (0, 3), (2, 1), (2, 2)]
    for bad in [(1, 1), (0, 4), (0, 0), (3, 1), (-1, 1), (0,), "x", (0, 1.0), (0, True)]:
        with pytest.raises(IllegalMove):
            state.play(bad)
    after = state.play((0, 3))
    assert after.heaps == (0, 0, 2) and after.to_move == 1
    assert state.heaps == (3, 0, 2)  # immutable
    end = after.play((2, 2))
    assert end.is_terminal() and end.legal_moves() == []
    with pytest.raises(IllegalMove):
        end.play((2, 1))
    bachet = HeapState.start(HeapConfig("bachet", (20,), 3))
    assert bachet.legal_moves() == [(0, 1), (0, 2), (0, 3)]
    with pytest.raises(IllegalMove):
        bachet.play((0, 4))


def test_returns_normal_and_misere():
    normal = HeapState(HeapConfig("nim", (1, 1)), (0, 0), to_move=1)
    assert normal.returns() == (1.0, -1.0)  # player 0 took the last pebble and wins
    misere = HeapState(HeapConfig("nim", (1, 1), misere=True), (0, 0), to_move=1)
    assert misere.returns() == (-1.0, 1.0)  # ... and loses in misère
    assert HeapState.start(NIM_DEFAULT).returns() == (0.0, 0.0)


# --- Bachet -------------------------------------------------------------------------


@pytest.mark.parametrize("k", [1, 2, 3, 5, 10, 17])
def test_bachet_value_is_n_mod_k_plus_1_and_matches_brute_force(k):
    cfg = HeapConfig("bachet", (200,), k)
    for n in range(201):
        state = HeapState(cfg, (n,))
        assert heap_grundy(cfg, n) == n % (k + 1) == brute_bachet_grundy(n, k)
        assert state.value() == brute_bachet_grundy(n, k)
        # Losing positions are exactly the multiples of k + 1.
        assert (state.value() == 0) == (n % (k + 1) == 0)


def test_bachet_documents_example():
    state = HeapState.start(BACHET_DEFAULT)
    assert state.value() == 100 % 11 == 1
    assert state.value_explained().startswith("100 mod 11 = 1: the player to move wins")
    assert state.winning_moves() == [(0, 1)]  # leave 99, a multiple of 11
    lost = [n for n in range(101) if HeapState(BACHET_DEFAULT, (n,)).value() == 0]
    assert lost == list(range(0, 101, 11))
    assert "loses" in HeapState(BACHET_DEFAULT, (99,)).value_explained()


@pytest.mark.parametrize("k", [1, 3, 10])
def test_bachet_outcome_and_remoteness_against_brute_force(k):
    for misere in (False, True):
        cfg = HeapConfig("bachet", (60,), k, misere)
        for n in range(61):
            state = HeapState(cfg, (n,))
            win, remote = brute_solve((n,), k, misere)
            assert (state.value() != 0) == win, (k, misere, n)
            assert state.remoteness() == remote, (k, misere, n)
            for move in state.winning_moves():
                assert not brute_solve(state.play(move).heaps, k, misere)[0]
            assert bool(state.winning_moves()) == (win and n > 0)


@pytest.mark.slow
def test_bachet_1000_remoteness_is_exact_and_fast():
    cfg = HeapConfig("bachet", (1000,), 100)
    state = HeapState.start(cfg)
    assert state.remoteness_is_exact()
    # Bachet: each round of two moves removes exactly k + 1 with best play.
    assert state.remoteness() == 2 * (1000 // 101) + 1
    assert HeapState(cfg, (909,)).remoteness() == 18


# --- Nim ------------------------------------------------------------------------------


def test_nim_documents_worked_example():
    cfg = HeapConfig("nim", (3, 5))
    state = HeapState.start(cfg)
    assert 3 ^ 5 == 6 == state.value()
    assert state.value_explained().startswith("3 ⊕ 5 = 6: the player to move wins")
    default = HeapState.start(NIM_DEFAULT)
    assert default.value_explained().startswith("3 ⊕ 5 ⊕ 7 = 1: the player to move wins")


@pytest.mark.slow
@pytest.mark.parametrize("misere", [False, True])
def test_nim_classification_every_position_up_to_4_heaps_of_5(misere):
    """value() == 0 exactly for brute-force losses, and winning moves lead to losses."""
    for heaps in positions(4, 5):
        cfg = HeapConfig("nim", heaps, misere=misere)
        state = HeapState(cfg, heaps)
        win, _ = brute_solve(tuple(sorted(heaps)), None, misere)
        assert (state.value() != 0) == win, (heaps, misere)
        if not misere:
            assert state.value() == reduce(xor, heaps, 0)
        else:
            assert state.value() in (0, 1)
        moves = state.winning_moves()
        assert bool(moves) == (win and any(heaps))
        for move in moves:
            after = state.play(move)
            assert after.value() == 0 == state.move_value(move)
            assert not brute_solve(tuple(sorted(after.heaps)), None, misere)[0]


@pytest.mark.parametrize("misere", [False, True])
def test_nim_remoteness_exact_up_to_3_heaps_of_5(misere):
    for heaps in positions(3, 5):
        state = HeapState(HeapConfig("nim", heaps, misere=misere), heaps)
        assert state.remoteness_is_exact()
        assert state.remoteness() == brute_solve(tuple(sorted(heaps)), None, misere)[1], heaps


def test_nim_single_heap_remoteness_closed_form():
    for misere in (False, True):
        for n in range(1, 12):
            state = HeapState(HeapConfig("nim", (n,), misere=misere), (n,))
            assert state.remoteness() == brute_solve((n,), None, misere)[1]
    assert HeapState.start(HeapConfig("nim", (1000,))).remoteness() == 1


def test_misere_nim_rule_in_words_and_examples():
    cfg = HeapConfig("nim", (1, 1, 1), misere=True)
    three_ones = HeapState.start(cfg)
    assert three_ones.value() == 0  # odd number of 1-heaps: the mover takes the last
    assert "odd" in three_ones.value_explained() and "loses" in three_ones.value_explained()
    # (2, 1, 1): normal Nim would take the whole 2 (nim-sum 0), leaving two 1-heaps —
    # an even number, which wins for the opponent in misère. The misère move takes one
    # pebble from the 2 and leaves three 1-heaps.
    state = HeapState(HeapConfig("nim", (2, 1, 1), misere=True), (2, 1, 1))
    assert state.winning_moves() == [(0, 1)]
    assert "as in Nim" in state.value_explained() and "odd" in state.value_explained()
    assert "misère" in HeapState.start(HeapConfig("nim", (3, 5, 7), misere=True)).value_explained()


def test_misere_terminal_is_a_win_for_the_player_to_move():
    end = HeapState(HeapConfig("nim", (2,), misere=True), (0,))
    assert end.is_terminal() and end.value() == 1 and end.remoteness() == 0
    assert "wins" in end.value_explained()
    end = HeapState(HeapConfig("nim", (2,)), (0,))
    assert end.value() == 0 and "lost" in end.value_explained()


def test_big_nim_gets_a_bound_of_the_right_parity():
    cfg = HeapConfig("nim", (1000, 999, 998, 997, 5, 4, 3, 2))
    for misere in (False, True):
        c = HeapConfig(cfg.kind, cfg.heaps, misere=misere)
        state = HeapState.start(c)
        assert not state.remoteness_is_exact()
        r = state.remoteness()
        assert r <= sum(cfg.heaps)
        lost = state.value() == 0
        # Normal play: wins odd, losses even; misère the other way round.
        assert (r % 2 == 1) == (lost == misere)
    # The bound agrees in parity with the exact value where both exist.
    for heaps in positions(3, 4):
        for misere in (False, True):
            c = HeapConfig("nim", heaps, misere=misere)
            exact = heap_remoteness(c, heaps)
            bound = remoteness_bound(c, heaps, HeapState(c, heaps).value() == 0)
            assert exact is not None and exact <= bound and exact % 2 == bound % 2


def test_nim_presets_remoteness_is_exact():
    for heaps in [(3, 5, 7), (1, 2, 3, 4), (2, 5, 9, 11), (4, 4), (1, 3, 5, 7, 9)]:
        for misere in (False, True):
            state = HeapState.start(HeapConfig("nim", heaps, misere=misere))
            assert state.remoteness_is_exact(), heaps
            r = state.remoteness()
            assert r % 2 == (1 if (state.value() != 0) != misere else 0)
