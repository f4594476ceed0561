"""Issue 32, item 6: tic-tac-toe's level texts are made from the recipes and budgets the
players are built from (games/tictactoe/levels.py), so the depths, positions and shares
they state are the ones the players use, on every board class, and change when a recipe
does."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest

from engine.ai.ladder import Recipe
from engine.core.i18n import localize, set_language
from engine.model.seats import Seat
from games.tictactoe import agents, levels
from games.tictactoe.ai_three import ThreePlayerAgent
from games.tictactoe.hard_search import HardSearchAgent
from games.tictactoe.levels import (
    BOARD_CLASSES,
    HARD_NODES,
    LADDER,
    LONGER,
    RECIPES,
    REFLEX_FROM,
    REFLEX_FROM_3X3,
    THREE_CLASS,
    THREE_DEPTH,
    THREE_NODES,
    THREE_PERFECT_TIMES,
    THREE_PLAYERS,
    recipe_text,
    reflex_from,
    rung_text,
    three_player_text,
)
from games.tictactoe.rules import CLASSIC, MNKConfig, TicTacToeState
from tests.support.ladder_texts import assert_translated_whole

# A board of each class (agents.board_class).
BOARDS = {"3x3": CLASSIC, "mnk": MNKConfig(5, 5, 4), "gomoku": MNKConfig(15, 15, 5)}
THREE = MNKConfig(4, 4, 3, players=3)
# Every class a rung's text names, the three-player board last.
CLASSES = {**BOARD_CLASSES, "three": THREE_CLASS}


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    yield
    set_language("en")


def _segments(text: str) -> dict[str, str]:
    """A rung's English text per board class: "3×3: …; bigger boards: …" split at its
    classes (a group "A and B: …" given to each of them)."""
    names = {name: key for key, name in CLASSES.items()}
    found: dict[str, str] = {}
    pattern = "|".join(re.escape(name) for name in names)
    for part in text.split("; "):
        head, sep, rest = part.partition(": ")
        classes = re.findall(pattern, head) if sep else []
        if classes and re.fullmatch(rf"(?:{pattern})(?:(?:, | and )(?:{pattern}))*", head):
            for name in classes:
                found[names[name]] = rest
    return found


def _stated(segment: str) -> dict[str, list[int]]:
    """The numbers a class's text states: search depths, positions a move, shares."""
    return {"depths": [int(n) for n in re.findall(r"a search (\d+) moves? deep", segment)],
            "nodes": [int(n.replace(",", "")) for n in
                      re.findall(r"([\d,]+) positions", segment)],
            "percent": [int(n) for n in re.findall(r"in (\d+) moves of 100", segment)]}


def _expected(recipe: Recipe, board_class: str) -> dict[str, list[int]]:
    """The numbers ``recipe`` plays with on ``board_class``, read from the constants (the
    strong skill's first, then the weak one's, as the text says them)."""
    strong, weak, share = recipe
    skills = [strong] + ([weak] if weak is not None and share > 0 else [])
    wanted: dict[str, list[int]] = {"depths": [], "nodes": [], "percent": []}
    for skill in skills:
        if board_class == "3x3":
            continue  # the rule player, the exact solver: no budget to state
        if skill.startswith("depth"):
            wanted["depths"].append(int(skill[5:]))
        elif skill in ("hard", "previous"):
            wanted["nodes"].append(HARD_NODES[board_class])
        elif skill == "perfect":
            wanted["nodes"].append(HARD_NODES[board_class] * LONGER[board_class])
    if len(skills) == 2:
        wanted["percent"].append(round(share * 100))
    return wanted


def test_every_rung_states_the_numbers_of_its_recipes_on_every_board_class() -> None:
    assert [rung.level for rung in LADDER] == list(RECIPES["3x3"])
    for rung in LADDER:
        segments = _segments(rung.how)
        assert set(segments) == set(CLASSES), (rung.level, rung.how)
        assert segments.pop("three") == str(three_player_text(rung.level))
        for board_class, segment in segments.items():
            recipe = RECIPES[board_class][rung.level]
            assert _stated(segment) == _expected(recipe, board_class), (
                rung.level, board_class, segment)
            assert segment.startswith(str(recipe_text(recipe, board_class)))


def test_the_budgets_stated_are_the_ones_the_players_get() -> None:
    """Hard's search on each board is given the positions its text says; Perfect's
    fallback LONGER[class] times as many; a depth rung's alpha-beta the depth it says."""
    for board_class in ("mnk", "gomoku"):
        config = BOARDS[board_class]
        hard = agents._skill(config, "hard", 0)
        assert isinstance(hard, HardSearchAgent) and hard.max_nodes == HARD_NODES[board_class]
        assert not hard.alpha_beta_only
        longer = agents._skill(config, "longer", 0)
        assert isinstance(longer, HardSearchAgent)
        assert longer.max_nodes == HARD_NODES[board_class] * LONGER[board_class]
        deep = agents._skill(config, "depth3", 0)
        assert isinstance(deep, HardSearchAgent) and deep.max_depth == 3
        assert agents.board_class(config) == board_class
    assert agents.board_class(CLASSIC) == "3x3"
    # The recipe the text describes is the one the player is built from.
    assert agents.RECIPES is RECIPES and agents.HARD_NODES is HARD_NODES
    assert agents.LONGER == LONGER


def test_the_reflex_is_said_from_the_rung_it_starts_at() -> None:
    """From Strong up (on 3×3 from Hard up) a win and a block in one are played at once
    (agents.make_agent wraps those rungs in a ReflexAgent); the text says so once, at
    Strong, naming 3×3's rung."""
    said = [rung.level for rung in LADDER if "takes a win and blocks a loss" in rung.how]
    assert said == [REFLEX_FROM] == [agents.LEVELS[agents.UPPER]]
    assert "(3×3: from Hard up)" in next(r.how for r in LADDER if r.level == REFLEX_FROM)
    starts = {"3x3": REFLEX_FROM_3X3, "mnk": REFLEX_FROM, "gomoku": REFLEX_FROM}
    assert starts == {"3x3": "hard", "mnk": "strong", "gomoku": "strong"}
    for board_class, config in BOARDS.items():
        first = agents.LEVELS.index(starts[board_class])
        assert reflex_from(board_class) == first
        for index, level in enumerate(agents.LEVELS):
            agent = agents.make_agent(config, Seat("computer", level), seed=0)
            assert hasattr(agent, "reflex") == (index >= first), (board_class, level)


def test_changing_a_recipe_or_a_budget_changes_the_text(monkeypatch) -> None:
    before = {rung.level: str(rung.how) for rung in LADDER}
    assert {level: str(rung_text(level)) for level in before} == before
    recipes = {board: dict(rungs) for board, rungs in RECIPES.items()}
    recipes["mnk"]["strong"] = ("depth5", "depth2", 0.4)
    monkeypatch.setattr(levels, "RECIPES", recipes)
    changed = _segments(rung_text("strong"))["mnk"]
    assert _stated(changed) == {"depths": [5, 2], "nodes": [], "percent": [40]}
    assert str(rung_text("easy")) == before["easy"]
    monkeypatch.setattr(levels, "HARD_NODES", {"mnk": 12_345, "gomoku": 6_789})
    hard = _segments(rung_text("hard"))
    assert _stated(hard["mnk"])["nodes"] == [12_345]
    assert _stated(hard["gomoku"])["nodes"] == [6_789]
    assert _stated(_segments(rung_text("perfect"))["gomoku"])["nodes"] == [6_789 * LONGER["gomoku"]]


def test_classes_that_play_alike_are_named_once(monkeypatch) -> None:
    recipes = {board: dict(rungs) for board, rungs in RECIPES.items()}
    recipes["mnk"]["easy"] = recipes["gomoku"]["easy"]
    monkeypatch.setattr(levels, "RECIPES", recipes)
    text = rung_text("easy")
    assert "bigger two-player boards and gomoku-sized boards: a search 2 moves deep" in text
    assert text.count("a search 2 moves deep") == 1
    assert set(_segments(text)) == set(CLASSES)
    for board in BOARD_CLASSES:
        recipes[board]["easy"] = ("random", None, 0.0)
    monkeypatch.setattr(levels, "THREE_PLAYERS", {**THREE_PLAYERS, "easy": "random"})
    assert rung_text("easy") == "any empty square at random"


def test_the_three_player_texts_state_the_budgets_the_players_get(monkeypatch) -> None:
    """With three players, each rung's text names the player agents builds for it and
    the positions and depth that player searches with; a changed budget changes both."""
    start = TicTacToeState.new(THREE)
    for rung in LADDER:
        player = agents.make_agent(THREE, Seat("computer", rung.level), seed=0)
        text = str(three_player_text(rung.level))
        stated = _stated(text)
        if THREE_PLAYERS[rung.level] == "random":
            assert not isinstance(player, ThreePlayerAgent)
            assert text == "any empty square at random"
            assert player.choose_move(start, threading.Event()) in start.legal_moves()
            continue
        assert isinstance(player, ThreePlayerAgent)
        if rung.level in ("easy", "medium"):
            assert player.level == rung.level and stated["nodes"] == []
            continue
        nodes = THREE_NODES["strong" if rung.level == "strong" else "hard"]
        assert player.max_nodes == nodes
        if rung.level == "perfect":
            assert player.level == "perfect" and "no depth limit" in text
            assert stated["nodes"] == [nodes * THREE_PERFECT_TIMES]
        else:
            assert player.level == "hard" and f"at most {THREE_DEPTH} moves deep" in text
            assert stated["nodes"] == [nodes]
    monkeypatch.setattr(levels, "THREE_NODES", {"hard": 12_345, "strong": 678})
    assert _stated(str(three_player_text("strong")))["nodes"] == [678]
    assert _stated(str(three_player_text("perfect")))["nodes"] == [12_345 * THREE_PERFECT_TIMES]


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_the_texts_are_said_in_every_language(language: str) -> None:
    """Each text is translated whole, its numbers written the language's way."""
    assert_translated_whole(LADDER, language,
                            ("bigger two-player boards", "moves of 100", "positions", "search"))
    hard = localize(next(rung.how for rung in LADDER if rung.level == "hard"))
    assert "20 000" in hard.replace("\u00a0", " ")


def test_hard_opens_on_an_edge_square_where_its_text_says_so() -> None:
    """Hard's text on the classes of EDGE_OPENING says "opening a game on a square of the
    board's edge at random", and there Hard's first move of a game it opens is an edge
    square (several seeds give several), its reply to an opening is its search's; on the
    other classes it says nothing of it and opens as it searches."""
    from games.tictactoe.levels import EDGE_OPENING

    assert EDGE_OPENING == ("mnk",)
    hard = _segments(next(rung.how for rung in LADDER if rung.level == "hard"))
    cancel = threading.Event()
    for board_class, config in BOARDS.items():
        said = "opening a game on a square of the board's edge at random" in hard[board_class]
        assert said == (board_class in EDGE_OPENING), board_class
        start = TicTacToeState.new(config)
        edge = {cell for cell in range(config.rows * config.cols)
                if cell // config.cols in (0, config.rows - 1)
                or cell % config.cols in (0, config.cols - 1)}
        firsts = {agents.make_agent(config, Seat("computer", "hard"), seed=seed)
                  .choose_move(start, cancel) for seed in range(8)}
        if said:
            assert firsts <= edge and len(firsts) > 1, firsts
            reply = agents.make_agent(config, Seat("computer", "hard"), seed=0).choose_move(
                start.play(config.rows // 2 * config.cols + config.cols // 2), cancel)
            assert reply not in edge, reply  # a search's reply next to the centre
        else:
            assert not firsts <= edge, (board_class, firsts)
