"""Standard streams that can never fail the program.

Standard error may be closed (``2>&-``), full (``2>/dev/full``) or a pipe
nobody reads any more. A message about something else must not turn into a
crash or a traceback of its own, so every line the program prints on stderr
goes through :func:`say`. :func:`discard` points a stream that failed at the
null device, so that what is still in its buffer cannot fail again when the
interpreter flushes it on exit (which would print "Exception ignored …" and
change the exit code to 120).
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

__all__ = ["discard", "say"]


def discard(stream: TextIO | None) -> None:
    """Send whatever ``stream`` still holds, and all it is given later, to the null device.

    Only for a stream that has already failed. Does nothing for a stream without a
    file descriptor (e.g. a test's capture) and never raises.
    """
    if stream is None:
        return
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError, AttributeError):
        return
    try:
        os.dup2(null, fd)
    except OSError:
        pass
    finally:
        os.close(null)


def say(message: str) -> None:
    """Print ``message`` and a line break on stderr; never raises.

    When stderr cannot take it the message is dropped: there is nowhere left
    to report that.
    """
    stream = sys.stderr
    if stream is None:  # Python sets it to None when the process starts with fd 2 closed
        return
    try:
        stream.write(message + "\n")
        stream.flush()
    except (OSError, ValueError):  # full, broken or closed stream
        # Python's stderr writes through (nothing stays buffered to fail again at exit),
        # so the stream is left as it is: a later message may yet get through.
        pass
