"""`paperscope` with no command: load the library, then run the Textual app."""

from __future__ import annotations

import sys
import threading

from index.models import Library
from tui.cli.context import CliContext
from tui.entry import resume_gc

# A load that takes longer than this (a large library read for the first time) says so,
# instead of leaving the terminal blank until the app appears; a cached load never does.
LOAD_NOTICE_AFTER = 0.3


def _load_library(context: CliContext) -> Library:
    """The context's library, with a line on stderr if reading it is slow."""
    notice = threading.Timer(
        LOAD_NOTICE_AFTER,
        lambda: print("paperscope: reading the papers (later starts use a cache)…",
                      file=sys.stderr, flush=True),
    )
    notice.daemon = True
    notice.start()
    try:
        return context.library
    finally:
        notice.cancel()


def run_app(context: CliContext) -> int:
    """Start the app on the chosen corpus; the index is opened (or built) inside the app.

    The library is loaded first, outside the app, so problems in the user's files are
    printed as plain lines on stderr where they stay readable after the app exits.
    """
    from tui.app import make_app
    from tui.config import AppSettings

    library = _load_library(context)
    app = make_app(AppSettings.from_environment(), library=library, taxonomy=context.taxonomy)
    resume_gc()  # start-up's objects frozen; the app's own garbage is collected as usual
    app.run()
    return app.return_code or 0
