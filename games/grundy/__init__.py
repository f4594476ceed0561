"""Grundy games: impartial games on a chessboard, heaps and graphs, with their theory."""
