"""Arcade of Strategy: start the launcher, or run a command (see --help)."""

import sys

from engine.runtime.cli import main

if __name__ == "__main__":
    sys.exit(main())
