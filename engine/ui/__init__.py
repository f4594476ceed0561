"""Drawing and widgets on pygame: theme, viewport, widgets, animation, sound, boards."""
