"""Connect Four family: gravity k-in-a-row on boards from 4×4 to 9×8, with an exact solver."""
