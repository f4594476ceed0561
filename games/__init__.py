"""The game families of Arcade of Strategy (rules, AIs and scenes)."""
