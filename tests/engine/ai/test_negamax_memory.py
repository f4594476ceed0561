"""A finished search's transposition table is freed with its Negamax, without a full gc."""

from __future__ import annotations

import gc
import weakref

from engine.ai.negamax import Negamax
from games.connect4.rules import Connect4Config, Connect4State
from games.connect4.solver import search_state


def test_a_dropped_negamax_frees_its_table_without_a_garbage_collection() -> None:
    state = search_state(Connect4State.new(Connect4Config()))
    gc.disable()  # what the app sees between full collections
    try:
        negamax = Negamax(remoteness=True, max_entries=200_000)
        negamax.move_scores(state, depth=8)
        negamax.move_scores(state, depth=8)  # the cached searcher is used again
        table = negamax.tt
        assert len(table) > 100
        gone = weakref.ref(negamax)
        del negamax
        assert gone() is None  # freed by reference counting: no cycle through it
        assert len(table) == 0  # and its table emptied, although the search closure lingers
    finally:
        gc.enable()
