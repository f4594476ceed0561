"""Board geometry and drawing shared by every grid game."""
