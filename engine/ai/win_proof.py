"""Proving a forced win: a depth-bounded AND/OR search for every two-player game.

Plain alpha-beta must also refute every attacking try that does not win, and
on a board with room to spare (m,n,k boards from 7×7 with 4 in a row) those
refutations run to the end of the game: 7×7 does not finish in ten minutes.
A proof of a *win* needs far less. :class:`WinProver` asks one question of a
position — can the player to move (the attacker) force a win within ``d``
plies? — and answers it by iterative deepening over ``d``:

* at the attacker's turns one winning move is enough, and the attacker may be
  offered only some of its moves (the ``attack_moves`` hook: say, the cells
  near the marks already played). Leaving out attacking moves can only make
  a proof harder to find, never wrong;
* at the defender's turns *every* move must lose (``ordered_moves``, which
  may leave out only moves that provably lose at once, such as anything but
  the one block of a threat);
* a position may prove itself without search (``quick_win``: a short sound
  proof such as a chain of threats each with a single answer) or be decided
  at once (``forced_outcome``).

A "win" found is therefore a proof: every line of play the defender can
choose was searched to a won end, under the game's own rules. A position that
is not proven within ``d`` plies is remembered as such for that ``d`` only.
Nothing here can prove a draw; the caller pairs this with an exact search
(:class:`engine.ai.negamax.Negamax`) for that.

Like the negamax, the search has a deadline (:class:`SearchTimeout`), a
cancel event (:class:`Cancelled`) and a bounded table (``max_entries``).

No pygame here.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from engine.ai.negamax import DEFAULT_MAX_ENTRIES, SearchClock, SearchTimeout
from engine.model.rules import GameState, Move

__all__ = ["DEEPENING_STEP", "ProvenChoice", "WinProver", "proven_choice", "solve_outcome"]

#: Plies added per deepening iteration. Measured on the empty 7×7 board with 4 in a row
#: (a win in 11 plies): two plies at a time took 10.6 s, nearly all of it in the failing
#: 9-ply iteration; asking for 11 at once took 1.9 s. A failing iteration costs far more
#: than a deeper successful one, so the search deepens by two moves each.
DEEPENING_STEP = 4

# Table entries: a proven win is stored as PROVEN (whatever the depth); a failure as the
# number of plies it was searched to (a failure at d says nothing about d + 2).
PROVEN = -1


class WinProver(SearchClock):
    """Proves wins for the player to move; see the module docstring.

    ``cancel``, ``deadline`` / ``time_limit`` and ``max_entries`` work as for
    :class:`engine.ai.negamax.Negamax`. The table persists across calls on one
    instance (make a new one when the game changes).
    """

    def __init__(self, *, cancel: threading.Event | None = None,
                 deadline: float | None = None, time_limit: float | None = None,
                 max_entries: int | None = None, poll_interval: int = 16) -> None:
        self.set_clock(cancel, deadline, time_limit, poll_interval)
        self.max_entries = DEFAULT_MAX_ENTRIES if max_entries is None else max_entries
        self.nodes = 0
        self.depth_reached = 0
        self.tt: dict[Hashable, tuple[int, Move | None]] = {}
        self._searchers: dict[type, tuple[Callable[..., bool], Callable[..., bool]]] = {}
        self._counter = [0]
        weakref.finalize(self, self.tt.clear)

    def proves_win(self, state: GameState, max_plies: int, start_plies: int = 3) -> bool:
        """Whether the player to move can force a win within ``max_plies`` plies.

        Deepens :data:`DEEPENING_STEP` plies at a time from ``start_plies`` (odd
        depths only: the attacker's turns), the last iteration at ``max_plies``;
        True is a proof, False means no proof within ``max_plies`` (the position
        may still be won). Raises SearchTimeout at the deadline.
        """
        if state.num_players != 2:
            raise ValueError("win proofs are for two-player games")
        if state.is_terminal():
            return False
        search = self._search_for(type(state))[0]
        last = max_plies if max_plies % 2 else max_plies - 1
        depth = min(start_plies if start_plies % 2 else start_plies + 1, last)
        while depth >= 1:
            self._counter[0] = 0
            try:
                found = search(state, depth)
            finally:
                self.nodes += self._counter[0]
            self.depth_reached = depth
            if found:
                return True
            if depth >= last:
                return False
            depth = min(depth + DEEPENING_STEP, last)
        return False

    def winning_move(self, state: GameState, max_plies: int) -> Move | None:
        """A move of the player to move that provably wins within ``max_plies`` plies, or
        None when no win is proven (raises SearchTimeout at the deadline)."""
        if not self.proves_win(state, max_plies):
            return None
        depth = self.depth_reached
        defender = self._search_for(type(state))[1]
        me = state.current_player()
        attack = getattr(state, "attack_moves", None)
        for move in (attack() if callable(attack) else state.legal_moves()):
            child = state.play(move)
            if child.is_terminal():
                if child.returns()[me] > 0:
                    return move
                continue
            if child.current_player() != me and defender(child, depth - 1, me):
                return move
        # The proof came from a shortcut at the root (a threat sequence that begins with a
        # move outside the tries): search every move.
        for move in state.legal_moves():
            child = state.play(move)
            if child.is_terminal():
                if child.returns()[me] > 0:
                    return move
                continue
            if child.current_player() != me and defender(child, state_plies(child), me):
                return move
        return None

    def defender_loses(self, state: GameState, max_plies: int) -> bool:
        """Whether every move of the player to move leads to a position its opponent
        provably wins within ``max_plies - 1`` plies (True: the mover loses)."""
        if state.is_terminal():
            return False
        me = state.current_player()
        for move in state.legal_moves():
            child = state.play(move)
            if child.is_terminal():
                if child.returns()[me] >= 0:
                    return False
                continue
            if child.current_player() == me or not self.proves_win(child, max_plies - 1):
                return False
        return True

    # --- internals ----------------------------------------------------------------------

    def _search_for(self, cls: type) -> tuple[Callable[..., bool], Callable[..., bool]]:
        search = self._searchers.get(cls)
        if search is None:
            search = self._searchers[cls] = self._make_search(cls)
        return search

    def _make_search(self, cls: type) -> tuple[Callable[..., bool], Callable[..., bool]]:
        """The recursive AND/OR search for one state class (hooks bound once)."""
        forced = getattr(cls, "forced_outcome", None)
        key_of = getattr(cls, "search_key", None)
        ordered = getattr(cls, "ordered_moves", None) or cls.legal_moves
        defence = getattr(cls, "defence_moves", None) or ordered
        attack = getattr(cls, "attack_moves", None) or ordered
        quick = getattr(cls, "quick_win", None)
        play = cls.play
        is_terminal = cls.is_terminal
        current = cls.current_player
        returns = cls.returns
        tt = self.tt
        counter = self._counter
        mask = self.poll_interval - 1
        max_entries = self.max_entries
        check = self.weak_check()
        def store(key: Any, value: int, move: Move | None) -> None:
            if len(tt) < max_entries or key in tt:
                tt[key] = (value, move)

        def attacker(state: Any, depth: int) -> bool:
            """The mover forces a win within ``depth`` plies (depth odd, >= 1)."""
            counter[0] += 1
            if not counter[0] & mask:
                check()
            if forced is not None:
                known = forced(state)
                if known is not None:
                    outcome, plies = known
                    return outcome > 0 and plies <= depth
            key = key_of(state) if key_of is not None else state
            entry = tt.get(key)
            first = None
            if entry is not None:
                if entry[0] == PROVEN:
                    return True
                if entry[0] >= depth:
                    return False
                first = entry[1]
            if quick is not None:
                plies = quick(state)
                if plies is not None and plies <= depth:
                    store(key, PROVEN, None)
                    return True
            if depth < 3:
                store(key, depth, first)
                return False
            me = current(state)
            moves = attack(state)
            if first is not None and moves and moves[0] != first and first in moves:
                moves = [first, *(m for m in moves if m != first)]
            for move in moves:
                child = play(state, move)
                if is_terminal(child):
                    if returns(child)[me] > 0:
                        store(key, PROVEN, move)
                        return True
                    continue
                if defender(child, depth - 1, me):
                    store(key, PROVEN, move)
                    return True
            store(key, depth, None)
            return False

        def defender(state: Any, depth: int, attacker_id: int) -> bool:
            """Every move of the mover loses to ``attacker_id`` within ``depth`` plies."""
            counter[0] += 1
            if not counter[0] & mask:
                check()
            if forced is not None:
                known = forced(state)
                if known is not None:
                    outcome, plies = known
                    return outcome < 0 and plies <= depth
            for move in defence(state):
                child = play(state, move)
                if is_terminal(child):
                    if returns(child)[attacker_id] > 0:
                        continue
                    return False
                if current(child) != attacker_id or not attacker(child, depth - 1):
                    return False
            return True

        return attacker, defender


def state_plies(state: GameState) -> int:
    """Plies left at most in ``state`` (its ``max_remaining_plies`` hook, else 10,000)."""
    remaining = getattr(state, "max_remaining_plies", None)
    return remaining() if callable(remaining) else 10_000


def solve_outcome(state: GameState, *, deadline: float | None = None,
                  cancel: threading.Event | None = None, max_entries: int | None = None,
                  first_slice: float = 1.0) -> int:
    """The exact outcome of ``state`` for its mover: +1 win, 0 draw, -1 loss.

    Two searches take turns, each resuming with its table from where it
    stopped: the exact sign-only negamax (which proves draws and losses, and
    small wins) for ``first_slice`` seconds, then :class:`WinProver` for the
    mover (which proves wins that the negamax would take far longer to
    confirm) for three times as long, and again with both slices doubled.
    Whichever proves the value first answers. (Where the negamax can finish,
    as on 5×5 with 4 in a row, it does so in its first second; the roomy
    boards it cannot finish are the prover's, so the prover gets the larger
    share.) Raises SearchTimeout at ``deadline`` and Cancelled when
    ``cancel`` is set; each table is capped at ``max_entries``.
    """
    from engine.ai.negamax import Negamax

    exact = Negamax(remoteness=False, cancel=cancel, max_entries=max_entries)
    prover = WinProver(cancel=cancel, max_entries=max_entries)
    return _take_turns(state, exact, prover, deadline, first_slice, ask_loss=False)[0]


def _take_turns(state: GameState, exact: Any, prover: WinProver, deadline: float | None,
                first_slice: float, ask_loss: bool) -> tuple[int, str]:
    """Ask ``exact`` (a sign-only negamax) and ``prover`` about ``state`` in turns until one
    proves its outcome: (outcome, "exact" | "win" | "loss").

    Slices: ``first_slice`` seconds for the negamax, three times that for each prover
    question, all doubled each round; every search resumes with its table. A prover
    question that searched to the end without a proof is dropped.
    """
    horizon = state_plies(state)
    questions = ["exact", "win", "loss"] if ask_loss else ["exact", "win"]
    slice_ = first_slice
    while True:
        for question in list(questions):
            now = time.monotonic()
            if deadline is not None and now > deadline:
                raise SearchTimeout
            stop = now + slice_ * (1 if question == "exact" else 3)
            search: SearchClock = exact if question == "exact" else prover
            search.deadline = stop if deadline is None else min(stop, deadline)
            try:
                if question == "exact":
                    return exact.solve(state).outcome, question
                if question == "win" and prover.proves_win(state, horizon):
                    return 1, question
                if question == "loss" and prover.defender_loses(state, horizon):
                    return -1, question
                questions.remove(question)
            except SearchTimeout:
                if deadline is not None and time.monotonic() > deadline:
                    raise
        slice_ *= 2


@dataclass(frozen=True)
class ProvenChoice:
    """A position's proven outcome for its mover and moves that achieve it.

    ``outcome``: +1 win, 0 draw, -1 loss. ``moves``: one winning move, one
    drawing move, or for a loss every legal move (all lose), the likeliest to
    hold out first (the game's ``ordered_moves``). Distances are not worked out.
    """

    outcome: int
    moves: tuple[Move, ...]


def proven_choice(state: GameState, *, deadline: float | None = None,
                  cancel: threading.Event | None = None, max_entries: int | None = None,
                  first_slice: float = 0.1) -> ProvenChoice:
    """The exact outcome of ``state`` for its mover and a move that keeps it (proven).

    Far cheaper than every move's value: three searches take turns on the one
    position, each resuming with its table — the sign-only negamax (draws and
    small positions), :class:`WinProver` for the mover (wins), and the prover
    for the opponent after each of the mover's moves (the mover's loss) —
    with slices of ``first_slice`` seconds, three times as long for the two
    provers, all doubled each round. Then one move that achieves the outcome
    is found (for a loss every move does). Raises SearchTimeout at
    ``deadline`` and Cancelled when ``cancel`` is set; each table is capped at
    ``max_entries``.
    """
    from engine.ai.negamax import Negamax

    if state.is_terminal():
        raise ValueError("no move to choose: the game is over")
    exact = Negamax(remoteness=False, cancel=cancel, max_entries=max_entries)
    prover = WinProver(cancel=cancel, max_entries=max_entries)
    outcome, proved_by = _take_turns(state, exact, prover, deadline, first_slice,
                                     ask_loss=True)
    exact.deadline = prover.deadline = deadline
    ordered = getattr(state, "ordered_moves", None)
    moves = list(ordered() if callable(ordered) else state.legal_moves())
    if outcome < 0:
        # The ordering hook may leave out moves that lose at once; a loss lists every move.
        listed = set(moves)
        return ProvenChoice(-1, (*moves, *(m for m in state.legal_moves() if m not in listed)))
    if proved_by == "win":
        move = prover.winning_move(state, state_plies(state))
        if move is not None:
            return ProvenChoice(1, (move,))
    me = state.current_player()
    for move in moves:
        child = state.play(move)
        if child.is_terminal():
            if (child.returns()[me] > 0) - (child.returns()[me] < 0) == outcome:
                return ProvenChoice(outcome, (move,))
            continue
        value = exact.solve(child).outcome
        if child.current_player() != me:
            value = -value
        if value == outcome:
            return ProvenChoice(outcome, (move,))
    raise AssertionError("a proven outcome has a move that achieves it")
