"""The application: the window and frame loop, the command line, the smoke run."""
