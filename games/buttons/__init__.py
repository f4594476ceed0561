"""Button Madness: Lights Out on a torus (SPEC §6)."""
