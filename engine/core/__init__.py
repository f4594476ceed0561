"""Foundations with no pygame: bundled files, translations, numbers, memory, console."""
