"""Generic AI: the agent interface, the off-frame-loop runner and simple agents."""
