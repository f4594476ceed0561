"""The generic negamax against plain minimax: exact values, windows, table bounds, generality."""

from __future__ import annotations

import math
import random
import threading
import time
from dataclasses import dataclass
from functools import cache

import pytest

from engine.ai.agent import Cancelled
from engine.ai.negamax import MATE_MIN, WIN, Negamax, SearchTimeout, score_to_value
from engine.model.rules import IllegalMove
from games.tictactoe.rules import EMPTY, MNKConfig, TicTacToeState
from games.tictactoe.search_state import MNKSearchState
from tests.support.oracles import reachable

# --- plain minimax: no pruning, no table tricks, obviously right -------------------------


def plain_score(state, ply: int = 0, remoteness: bool = True) -> int:
    """Root-relative negamax score by full enumeration (same scale as engine.ai.negamax)."""
    return _plain(state, ply, remoteness)


@cache
def _plain(state, ply: int, remoteness: bool) -> int:
    step = 1 if remoteness else 0
    me = state.current_player()
    best = -math.inf
    for move in state.legal_moves():
        child = state.play(move)
        if child.is_terminal():
            r = child.returns()[me]
            v = (WIN - step * (ply + 1)) if r > 0 else (-WIN + step * (ply + 1)) if r < 0 else 0
        elif child.current_player() == me:
            v = _plain(child, ply + 1, remoteness)
        else:
            v = -_plain(child, ply + 1, remoteness)
        best = max(best, v)
    return best


@dataclass(frozen=True)
class Plain3:
    """A 3×3 position offering only the GameState protocol (no hooks, no pygame)."""

    board: tuple[int, ...]
    to_move: int = 0

    @property
    def num_players(self) -> int:
        return 2

    def _winner(self) -> int | None:
        b = self.board
        for a, c, d in ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
                        (0, 4, 8), (2, 4, 6)):
            if b[a] != EMPTY and b[a] == b[c] == b[d]:
                return b[a]
        return None

    def current_player(self) -> int:
        return self.to_move

    def legal_moves(self) -> list[int]:
        if self._winner() is not None:
            return []
        return [i for i, v in enumerate(self.board) if v == EMPTY]

    def play(self, move: int) -> Plain3:
        if move not in self.legal_moves():
            raise IllegalMove(move)
        b = list(self.board)
        b[move] = self.to_move
        return Plain3(tuple(b), 1 - self.to_move)

    def is_terminal(self) -> bool:
        return not self.legal_moves()

    def returns(self) -> tuple[float, float]:
        w = self._winner()
        if w is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if w == 0 else (-1.0, 1.0)


ALL_3X3 = reachable(MNKConfig(3, 3, 3))


def test_there_are_5478_reachable_positions() -> None:
    assert len(ALL_3X3) == 5478


@pytest.mark.slow
@pytest.mark.parametrize("remoteness", [True, False])
def test_exact_scores_match_plain_minimax_on_every_3x3_position(remoteness: bool) -> None:
    hooked = Negamax(remoteness=remoteness)   # one table for all: entries meet many contexts
    for s in ALL_3X3:
        if s.is_terminal():
            continue
        expected = plain_score(Plain3(s.board, s.to_move), 0, remoteness)
        assert hooked.score(MNKSearchState.from_rules(s)) == expected, s.to_rows()
        # The hook-free path too (rules states as their own table keys).
        assert Negamax(remoteness=remoteness).score(s) == expected, s.to_rows()


def _check_fail_soft(v: int, true: int, alpha: int, beta: int) -> None:
    """Fail-soft alpha-beta: exact inside the window, a true bound outside it."""
    if true <= alpha:
        assert true <= v <= alpha
    elif true >= beta:
        assert beta <= v <= true
    else:
        assert v == true


@pytest.mark.slow
def test_windows_and_table_bounds_are_sound_on_every_3x3_position() -> None:
    """Random windows, one shared table: stored bounds are reused under other windows."""
    rng = random.Random(7)
    interesting = [0, 1, -1, WIN - 5, WIN - 6, WIN - 7, -(WIN - 6), -(WIN - 8), MATE_MIN, -MATE_MIN]
    for remoteness in (True, False):
        nm = Negamax(remoteness=remoteness)
        for s in ALL_3X3:
            if s.is_terminal():
                continue
            true = plain_score(Plain3(s.board, s.to_move), 0, remoteness)
            search = MNKSearchState.from_rules(s)
            for _ in range(3):
                a, b = sorted(rng.sample(interesting, 2))
                if a == b:
                    continue
                _check_fail_soft(nm.score(search, alpha=a, beta=b), true, a, b)
            assert nm.score(search) == true


def test_move_scores_and_values_match_plain_minimax() -> None:
    rng = random.Random(3)
    sample = rng.sample([s for s in ALL_3X3 if not s.is_terminal()], 300)
    for s in sample:
        nm = Negamax()
        search = MNKSearchState.from_rules(s)
        scores = nm.move_scores(search)
        values = Negamax().move_values(search)
        assert set(scores) == set(values) == set(s.legal_moves())
        for m in s.legal_moves():
            child = s.play(m)
            if child.is_terminal():
                true = WIN - 1 if child.winner == s.to_move else 0
            else:
                true = -plain_score(Plain3(child.board, child.to_move), 1)
            assert scores[m] == true
            assert values[m] == score_to_value(true)
        move, best = nm.best_move(search)
        assert best == max(scores.values()) == scores[move]


# --- a different game: the 1-2-3 subtraction game, with an extra-turn variant ---------


@dataclass(frozen=True)
class Subtraction:
    """Take 1..3 from a heap; who cannot move loses. With ``bonus``, taking 2 moves again."""

    heap: int
    player: int = 0
    bonus: bool = False

    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        return self.player

    def legal_moves(self) -> list[int]:
        return [t for t in (1, 2, 3) if t <= self.heap]

    def play(self, take: int) -> Subtraction:
        if take not in self.legal_moves():
            raise IllegalMove(take)
        again = self.bonus and take == 2
        return Subtraction(self.heap - take, self.player if again else 1 - self.player,
                           self.bonus)

    def is_terminal(self) -> bool:
        return self.heap == 0

    def returns(self) -> tuple[float, float]:
        # The player to move at an empty heap cannot move: they lose.
        return (-1.0, 1.0) if self.player == 0 else (1.0, -1.0)


def test_subtraction_game_values_are_the_known_mod_4_rule() -> None:
    nm = Negamax()
    for heap in range(1, 40):
        value = nm.solve(Subtraction(heap))
        assert value.outcome == (-1 if heap % 4 == 0 else 1)
        # Remoteness: the winner needs ceil-style 2·(heap // 4) + 1 plies, the loser resists
        # 2·(heap // 4) plies (each round removes exactly 4).
        assert value.plies == (2 * (heap // 4) + 1 if heap % 4 else 2 * (heap // 4))
        assert value.score == plain_score(Subtraction(heap))


def test_extra_turns_are_handled_generically() -> None:
    nm = Negamax()
    signs = Negamax(remoteness=False)
    for heap in range(1, 30):
        s = Subtraction(heap, bonus=True)
        assert nm.score(s) == plain_score(s)
        assert signs.score(s) == plain_score(s, 0, False)


def test_refuses_games_that_are_not_two_player() -> None:
    three = TicTacToeState.new(MNKConfig(4, 4, 3, players=3))
    with pytest.raises(ValueError, match="two-player"):
        Negamax().solve(three)
    with pytest.raises(ValueError):
        Negamax().move_scores(three)
    with pytest.raises(ValueError):
        Negamax().iterative_deepening(three, 2)


# --- depth-limited search ---------------------------------------------------------------


@dataclass(frozen=True)
class Counted3(Plain3):
    """Plain3 plus a heuristic: open lines for the mover minus the opponent's."""

    def play(self, move: int) -> Counted3:
        p = super().play(move)
        return Counted3(p.board, p.to_move)

    def heuristic(self) -> int:
        b = self.board
        score = 0
        for line in ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
                     (0, 4, 8), (2, 4, 6)):
            owners = {b[i] for i in line} - {EMPTY}
            if owners == {self.to_move}:
                score += 1
            elif owners == {1 - self.to_move}:
                score -= 1
        return score


def plain_depth(state: Counted3, depth: int, ply: int = 0) -> int:
    """Depth-limited negamax by enumeration (heuristic at depth 0)."""
    if depth == 0:
        return state.heuristic()
    best = -math.inf
    for move in state.legal_moves():
        child = state.play(move)
        if child.is_terminal():
            r = child.returns()[state.to_move]
            v = (WIN - ply - 1) if r > 0 else (-WIN + ply + 1) if r < 0 else 0
        else:
            v = -plain_depth(child, depth - 1, ply + 1)
        best = max(best, v)
    return best


@pytest.mark.slow
def test_depth_limited_scores_match_plain_depth_limited_minimax() -> None:
    rng = random.Random(11)
    sample = rng.sample([s for s in ALL_3X3 if not s.is_terminal()], 150)
    for s in sample:
        c = Counted3(s.board, s.to_move)
        for depth in (1, 2, 3):
            assert Negamax().score(c, depth=depth) == plain_depth(c, depth), (s.to_rows(), depth)


@pytest.mark.slow
def test_iterative_deepening_returns_values_for_all_root_moves() -> None:
    c = Counted3((EMPTY,) * 9)
    result = Negamax(time_limit=5).iterative_deepening(c, max_depth=9, all_values=True)
    assert result.depth == 9 and set(result.values) == set(range(9))
    assert all(v == 0 for v in result.values.values())  # every opening draws
    assert result.score == 0
    # A forced win stops the deepening early with the mate score.
    win = Counted3((0, 0, EMPTY, 1, 1, EMPTY, EMPTY, EMPTY, EMPTY), 0)
    result = Negamax(time_limit=5).iterative_deepening(win)
    assert result.move == 2 and result.score == WIN - 1


def test_a_heuristic_is_required_only_for_depth_limited_search() -> None:
    with pytest.raises(ValueError, match="heuristic"):
        Negamax().score(Plain3((EMPTY,) * 9), depth=2)


# --- stopping ----------------------------------------------------------------------------


@pytest.mark.slow
def test_deadline_raises_search_timeout_and_counts_nodes() -> None:
    big = MNKSearchState.new(6, 6, 4)
    nm = Negamax(time_limit=0.1)
    start = time.process_time()
    with pytest.raises(SearchTimeout):
        nm.solve(big)
    assert time.process_time() - start < 1.0
    assert nm.nodes > 100


@pytest.mark.slow
def test_cancel_event_raises_cancelled_promptly() -> None:
    cancel = threading.Event()
    timer = threading.Timer(0.1, cancel.set)
    timer.start()
    start = time.process_time()
    with pytest.raises(Cancelled):
        Negamax(cancel=cancel).solve(MNKSearchState.new(6, 6, 4))
    assert time.process_time() - start < 1.0
    timer.cancel()


@pytest.mark.slow
def test_iterative_deepening_keeps_the_last_completed_depth_at_the_deadline() -> None:
    from games.tictactoe.hard_search import HeuristicMNKState

    s = HeuristicMNKState.from_rules(TicTacToeState.new(MNKConfig(9, 9, 5)).play(40).play(41))
    start = time.process_time()
    result = Negamax(time_limit=0.2).iterative_deepening(s, max_depth=50)
    assert time.process_time() - start < 0.6
    assert 1 <= result.depth < 50 and result.move in s.legal_moves()


@pytest.mark.slow
def test_search_modules_do_not_import_pygame() -> None:
    import subprocess
    import sys
    from pathlib import Path

    modules = ["engine.ai.negamax", "games.tictactoe.search_state", "games.tictactoe.perfect",
               "games.tictactoe.hard_search"]
    code = (f"import sys\nfor m in {modules!r}:\n    __import__(m)\n"
            "print(any(m == 'pygame' or m.startswith('pygame.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[3], timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
