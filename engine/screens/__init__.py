"""The screens (scenes): launcher, game screens, overlays, settings, statistics."""
