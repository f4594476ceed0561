"""Frozen reference players for the benchmarks (never offered to players)."""
