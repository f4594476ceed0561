"""The game review (engine.ai.review) against plain minimax over every tic-tac-toe move,
and its grades, time limit, cancel, progress and summaries on their own."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from engine.ai.agent import Cancelled
from engine.ai.review import (
    INACCURACY_STEPS,
    Review,
    grade,
    review_game,
    seat_summaries,
    summary_text,
    unavailable_reason,
    value_code,
)
from engine.model.registry import find_game
from engine.model.rules import IllegalMove
from engine.model.values import MoveValue
from tests.support.oracles import minimax, rank

TTT = find_game("tictactoe")


def _start(game_id: str = "3x3k3") -> Any:
    spec = TTT.param_spec()
    assert spec is not None
    return TTT.new_game(spec.decode(game_id), random.Random(0))


def _cached_hints() -> Any:
    """The game's own hint function, each position worked out once (exact: no limit)."""
    hints = TTT.hint_function()
    memo: dict[Any, Any] = {}

    def cached(state: Any, cancel: threading.Event, limit: float | None) -> Any:
        if state not in memo:
            memo[state] = hints(state, cancel, None)
        return memo[state]
    return cached


def _reachable(start: Any) -> list[Any]:
    seen, todo = {start}, [start]
    while todo:
        state = todo.pop()
        for move in state.legal_moves():
            after = state.play(move)
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return [s for s in seen if not s.is_terminal()]


def _brute_after(state: Any, move: Any) -> tuple[str, int]:
    """(outcome, plies to the end) for the mover after ``move``, by minimax alone."""
    outcome, plies = minimax(state.play(move))
    return {"win": "loss", "loss": "win", "draw": "draw"}[outcome], plies


def _brute_grade(state: Any, move: Any) -> str:
    """The grade by the issue's words, from minimax alone."""
    options = {m: _brute_after(state, m) for m in state.legal_moves()}
    best = max(rank(o, p) for o, p in options.values())
    outcome, plies = options[move]
    if rank(outcome, plies) == best:
        return "best"
    top = max(options.values(), key=lambda v: rank(*v))[0]
    if top == outcome:
        return "good"
    return "blunder" if (top, outcome) == ("win", "loss") else "mistake"


@pytest.mark.slow
def test_every_move_of_every_3x3_game_matches_plain_minimax() -> None:
    """Every move from every reachable position (so every move of every game): the value
    before and after for the mover, with distance, and the grade, as brute force says."""
    hints = _cached_hints()
    start = _start()
    checked = 0
    for state in _reachable(start):
        for move in state.legal_moves():
            reviewed = review_game(state, [move], hints).moves[0]
            outcome, plies = minimax(state)
            assert reviewed.before.outcome == outcome
            if outcome != "draw":
                assert reviewed.before.remoteness == plies
            after_outcome, after_plies = _brute_after(state, move)
            assert reviewed.after.outcome == after_outcome
            if after_outcome != "draw":
                assert reviewed.after.remoteness == after_plies
            assert reviewed.grade == _brute_grade(state, move), (state, move)
            assert reviewed.exact and reviewed.mover == state.current_player()
            assert move in reviewed.values
            checked += 1
    assert checked > 16_000  # every (position, move) pair of the 3×3 game


def test_whole_games_chain_each_move_after_to_the_next_before() -> None:
    """Over random whole games: move N's value after is the next mover's value before,
    seen from the other side, and the graph's point is from the first player's side."""
    hints = _cached_hints()
    rng = random.Random(5)
    for _ in range(200):
        state, moves = _start(), []
        while not state.is_terminal():
            moves.append(rng.choice(list(state.legal_moves())))
            state = state.play(moves[-1])
        review = review_game(_start(), moves, hints)
        assert review.complete and len(review.moves) == len(moves)
        assert [m.number for m in review.moves] == list(range(1, len(moves) + 1))
        for this, following in zip(review.moves, review.moves[1:], strict=False):
            flip = {"win": "loss", "loss": "win", "draw": "draw"}
            assert flip[this.after.outcome] == following.before.outcome
            if this.after.outcome != "draw":
                assert this.after.remoteness == following.before.remoteness
        last = review.moves[-1]
        returns = state.returns()
        assert last.after.outcome == ("win" if returns[last.mover] > 0 else "draw")
        point = last.first_player_after()
        assert point.sign == (1 if returns[0] > 0 else -1 if returns[0] < 0 else 0)


def _fixed(values: dict[Any, MoveValue]) -> Any:
    return lambda state, cancel, limit: {m: values.get(m, MoveValue("draw", exact=False))
                                         for m in state.legal_moves()}


def test_grades_on_estimates_are_inaccuracies_never_mistakes() -> None:
    win, draw, loss = (MoveValue(o, exact=False) for o in ("win", "draw", "loss"))
    assert INACCURACY_STEPS == 1
    assert grade(win, win, best=True) == "best"
    assert grade(win, draw, best=False) == "inaccuracy"
    assert grade(win, loss, best=False) == "inaccuracy"
    assert grade(MoveValue("win", 3), MoveValue("loss", 2, exact=False), best=False) == \
        "inaccuracy"
    assert grade(MoveValue("win", 3), MoveValue("win", 5), best=False) == "good"
    assert grade(MoveValue("win", 3), MoveValue("draw"), best=False) == "mistake"
    assert grade(MoveValue("draw"), MoveValue("loss", 4), best=False) == "mistake"
    assert grade(MoveValue("win", 3), MoveValue("loss", 4), best=False) == "blunder"
    assert grade(MoveValue("unknown", exact=False), draw, best=False) == "unknown"


def test_the_time_limit_leaves_the_first_moves_unknown_and_says_so() -> None:
    now = [0.0]

    def slow(state: Any, cancel: threading.Event, limit: float | None) -> Any:
        assert limit is not None and limit > 0
        now[0] += 1.0  # each position costs a second of the fake clock
        return {m: MoveValue("draw") for m in state.legal_moves()}

    review = review_game(_start(), [4, 0, 8], slow, time_limit=1.5, clock=lambda: now[0])
    assert not review.complete
    assert [m.grade for m in review.moves] == ["unknown", "best", "best"]
    assert value_code(review.moves[0].before) == "unknown"


def test_progress_cancel_and_failures() -> None:
    seen: list[tuple[int, int]] = []
    review_game(_start(), [4, 0, 8], _cached_hints(), progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        review_game(_start(), [4, 0], _cached_hints(), cancel=cancel)

    def broken(state: Any, cancel: threading.Event, limit: float | None) -> Any:
        raise RuntimeError("no")
    review = review_game(_start(), [4], broken)
    assert review.moves[0].grade == "unknown" and not review.complete
    with pytest.raises(IllegalMove, match="move 2"):
        review_game(_start(), [4, 4], _cached_hints())


def test_three_players_are_refused_clearly() -> None:
    three = None
    spec = TTT.param_spec()
    assert spec is not None
    for preset in spec.presets:
        if preset.params.players == 3:
            three = TTT.new_game(preset.params, random.Random(0))
            break
    assert three is not None
    reason = unavailable_reason(three, TTT.hint_function())
    assert reason is not None and "three or more players" in reason
    with pytest.raises(ValueError, match="two-player"):
        review_game(three, [], TTT.hint_function())
    assert unavailable_reason(_start(), TTT.hint_function()) is None
    assert "no hints" in (unavailable_reason(_start(), None) or "")


def test_value_codes_follow_the_command_lines_contract() -> None:
    assert value_code(MoveValue("win", 7)) == "win:7"
    assert value_code(MoveValue("loss", 0)) == "loss:0"
    assert value_code(MoveValue("win")) == "win"
    assert value_code(MoveValue("draw", 9)) == "draw"
    assert value_code(MoveValue("win", 3, exact=False)) == "unknown"


def test_summary_names_the_slips_and_the_won_position() -> None:
    hints = _cached_hints()
    # O's edge reply loses a drawn game (2); X then wins in 5 (3) but lets it go to a draw
    # (5) and then to a loss (7); O lets that win go for a draw (8).
    review = review_game(_start(), [4, 1, 0, 8, 2, 6, 3, 5], hints)
    assert isinstance(review, Review)
    x, o = seat_summaries(review, [0, 1])
    assert [m.number for m in o.turns] == [2, 8] and o.counts["mistake"] == 2
    assert summary_text(o) == ("2 best moves, 2 mistakes: move 2 gave away a draw; "
                               "move 8 gave away a win for a draw; move 8 was winning in 1 move")
    assert x.winning_from == (3, 5)
    assert summary_text(x) == ("2 best moves, 2 mistakes: move 5 gave away a win for a draw; "
                               "move 7 gave away a draw; move 3 was winning in 5 moves")
