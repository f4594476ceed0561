"""Tic-tac-toe family: classic 3×3 and, later, m×n×k and three players."""
