"""The soak monkey (tests/soak.py) in the normal suite: 5,000 random inputs, one seed."""

from __future__ import annotations

from pathlib import Path

from tests.soak import FAMILY_MODULES, run_monkey

SEED = 4
EVENTS = 5_000


def test_monkey_soak(profile: Path) -> None:
    result = run_monkey(SEED, EVENTS, profile, report_every=0)
    print(result.summary())
    assert result.failure is None, result.failure
    assert result.events == EVENTS
    assert set(FAMILY_MODULES) <= result.families, result.summary()
