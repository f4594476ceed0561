"""Benchmarks are run by hand (``python tests/benchmarks/bench_*.py``), never collected."""

collect_ignore_glob = ["*.py"]
