"""The midends, no pygame: what runs a game between the rules and a screen (Tatham's
midend). One runs every one-player puzzle, one every match between seats."""
