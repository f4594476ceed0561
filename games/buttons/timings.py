"""How long Button Madness's own movements take (the engine keeps the shared lengths)."""

# Seconds a press takes to spread to its four neighbours (a ring; see the scene).
RIPPLE = 0.35
