"""Walking a computer player's parts (wrappers, blends, Perfect's fallback, Hard's search)
and giving each search a fraction of its work: the variety tests play many games quickly
(the choice among near-best moves is the same at any budget)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def parts(agent: Any) -> Iterator[Any]:
    """``agent`` and every player inside it (wrappers, blends, Perfect's fallback, the
    search a proving player falls back on)."""
    seen: set[int] = set()
    todo = [agent]
    while todo:
        part = todo.pop()
        if id(part) in seen or part is None:
            continue
        seen.add(id(part))
        yield part
        inside = vars(part) if hasattr(part, "__dict__") else {}
        todo += [inside.get(name) for name in ("inner", "strong", "weak", "search")]
        if (isinstance(getattr(type(part), "fallback", None), property)
                and getattr(part, "time_budget", 0) < float("inf")):
            todo.append(part.fallback)  # Perfect's (where it has one), built to be shrunk


def shrink(agent: Any, share: int = 100) -> Any:
    """``agent`` with every search given ``1/share`` of its work (at least 200 positions)
    and Perfect a tenth of a second; returns it."""
    for part in parts(agent):
        if getattr(part, "max_nodes", None):
            part.max_nodes = max(200, part.max_nodes // share)
        if type(part).__name__ == "PerfectAgent" and part.time_budget < 100:
            part.time_budget = part.probe = 0.1
    return agent
