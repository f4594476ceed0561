"""Breadth-first search for one-player puzzles: a shortest list of moves to a goal.

The source documents' method for one-player games: search the graph of positions
breadth first from the start, so the first goal reached is one of the nearest
and no position is looked at twice (the search cannot loop). It suits small
puzzles only, since it keeps every position it has seen: ``max_states`` bounds
that, and the search raises :class:`SearchLimit` rather than eat the machine's
memory.

Written against the one-player :class:`engine.model.rules.GameState` interface by
default (``legal_moves``, ``play``, ``is_terminal`` meaning solved); every part
can be replaced, so a puzzle held as a plain int with a move table searches just
as well.

No pygame here.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from engine.ai.agent import Cancelled
from engine.model.rules import Move

S = TypeVar("S")

DEFAULT_MAX_STATES = 1_000_000
# The cancel event is looked at once per this many expanded states: often enough to
# stop within milliseconds, rarely enough to cost nothing.
_CANCEL_EVERY = 1024


class SearchLimit(RuntimeError):
    """The search met more positions than it was allowed to keep, without reaching a goal."""


def bfs_solve(
    start: S,
    *,
    moves: Callable[[S], Iterable[Move]] = lambda s: s.legal_moves(),
    play: Callable[[S, Move], S] = lambda s, m: s.play(m),
    is_goal: Callable[[S], bool] = lambda s: s.is_terminal(),
    key: Callable[[S], Hashable] | None = None,
    successors: Callable[[S], Iterable[tuple[Move, S]]] | None = None,
    max_states: int = DEFAULT_MAX_STATES,
    cancel: threading.Event | None = None,
) -> list[Move] | None:
    """A shortest list of moves from ``start`` to a goal position, or None if none is reachable.

    ``moves(s)`` lists the moves in ``s`` (tried in that order), ``play(s, m)`` is the
    position after one, ``is_goal(s)`` tells a solved position, and ``key(s)`` a hashable
    identity: positions with equal keys are the same position (None: the position itself,
    which must then be hashable). ``successors(s)``, if given, replaces ``moves`` and
    ``play``: it yields ``(move, position after it)`` pairs, e.g. ``enumerate`` of a row of
    a precomputed move table. A start that is already a goal gives ``[]``. Among the
    shortest solutions the one found first in move order is returned: the goal is tested
    as positions are generated, level by level.

    Raises :class:`SearchLimit` once more than ``max_states`` distinct positions have been
    seen without reaching a goal, and :class:`engine.ai.agent.Cancelled` if ``cancel`` is
    set during the search.
    """
    if max_states < 1:
        raise ValueError(f"max_states must be at least 1, not {max_states!r}")
    if is_goal(start):
        return []
    start_key = start if key is None else key(start)
    # key -> (parent's key, the move from the parent); the start has no parent.
    parents: dict[Hashable, tuple[Any, Move] | None] = {start_key: None}
    queue: deque[tuple[Hashable, S]] = deque([(start_key, start)])
    expand = successors if successors is not None else (
        lambda state: ((move, play(state, move)) for move in moves(state)))
    expanded = 0
    while queue:
        here_key, here = queue.popleft()
        expanded += 1
        if cancel is not None and expanded % _CANCEL_EVERY == 0 and cancel.is_set():
            raise Cancelled
        for move, after in expand(here):
            # No call when the position is its own key: one call per edge is a third of
            # the time on a small puzzle's million edges.
            after_key = after if key is None else key(after)
            if after_key in parents:
                continue
            parents[after_key] = (here_key, move)
            if is_goal(after):
                return _path(parents, after_key)
            if len(parents) > max_states:
                raise SearchLimit(f"breadth-first search gave up after {max_states:,} positions "
                                  "without reaching a goal: the puzzle is too big for it")
            queue.append((after_key, after))
    return None


def _path(parents: dict[Hashable, tuple[Any, Move] | None], goal: Hashable) -> list[Move]:
    """The moves from the start to ``goal``, read back along the parent links."""
    path: list[Move] = []
    link = parents[goal]
    while link is not None:
        parent, move = link
        path.append(move)
        link = parents[parent]
    path.reverse()
    return path
