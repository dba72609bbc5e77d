"""`paperscope` with no command: load the library, then run the Textual app."""

from __future__ import annotations

import asyncio
import os
import sys

from tui.cli.context import CliContext, UserError, is_terminal
from tui.services.load_warnings import summary_lines
from tui.services.processes import start_load_workers, start_worker_support, stop_load_workers
from tui.startup import resume_collector


def run_app(context: CliContext) -> int:
    """Start the app on the chosen corpus; the index is opened (or built) inside the app.

    When the index is current, the app opens it without the library (its load problems as
    the index recorded them: the app lists them, as after a load from the cache). When
    only the contents of its files changed since it was built, the app opens that index
    the same way and reads the changed files in the background (tui.library_host); their
    problems are then listed in the app. Otherwise (a first start) the app shows at once
    and reads the library itself, its progress in the status line and a big library's
    early sample searchable meanwhile; the problems in the user's files are listed in the
    app and printed as plain lines on stderr after it exits, where they stay readable.
    """
    # Without a terminal Textual would write escape codes into the file and wait for keys
    # that never come: say what to run instead, before loading anything.
    if not (is_terminal(sys.stdin) and is_terminal(sys.stdout)):
        raise UserError(
            "the app needs a terminal (stdin and stdout); for scripts use a command: "
            "paperscope list, search QUERY, show ID, cite ID (see --help)"
        )
    from index.library.inputs import library_files
    from tui.services.config import AppSettings

    settings = AppSettings.from_environment()
    # A current index is served without loading the library (at 100,000 papers: 3.5 s and
    # ~400 MB less); the papers are read from its stored fields, as the CLI's searches do.
    engine = context.current_engine()
    changed: tuple[str, ...] = ()
    if engine is None and context.corpus:
        # A file was edited since the last start (a paper added to an export): its papers
        # as they were are shown at once, the changed files read again in the app.
        engine, changed = context.outdated_engine() or (None, ())
    files = library_files(context.corpus) if engine is None and context.corpus else None
    pool = None
    if files:  # a first start: the app reads the library, its workers start meanwhile
        start_worker_support()
        pool = start_load_workers(files, context.taxonomy)
    from tui.app import make_app

    if engine is not None:
        app = make_app(
            settings, engine=engine, owns_engine=True, corpus=context.corpus, outdated=changed
        )
    elif files is not None and not files:
        # Nothing to read (a mistyped path): the load's one-line error, with no app.
        app = make_app(settings, library=context.library, taxonomy=context.taxonomy)
    else:
        app = make_app(
            settings,
            taxonomy=context.taxonomy,
            corpus=context.corpus,
            load_corpus=True,
            load_pool=pool,
        )
    # The app reads files (the library, or its PDFs: tui.fulltext_host): its workers need
    # the terminal's stderr, which the running app's capture has none of.
    if app.load_corpus or changed or app.config.fulltext:
        start_worker_support()
    app.process_ends_after_hand_off = True  # below: os._exit once the app is gone
    resume_collector()  # start-up's objects frozen; the app's own garbage is collected as usual
    try:
        # On a loop of our own, `run` returns when the app has closed, not when its worker
        # threads have (`asyncio.run` waits for them): a first start the user quit during
        # was handed to a process of its own (`PaperscopeApp.exit`, tui.first_start), and
        # this one exits at once, its unfinished load with it. Otherwise the threads are
        # waited for as before, at the interpreter's exit.
        app.run(loop=asyncio.new_event_loop())
        if app.handed_off:
            stop_load_workers()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(app.return_code or 0)
    except KeyboardInterrupt:
        if app.index_finished.is_set():
            raise
        sys.stderr.write("paperscope: stopped; the next start builds the index again\n")
        sys.stderr.flush()
        os._exit(130)  # the build thread would be waited for; its process got the ctrl+c too
    loaded = app.loaded_library
    if loaded is not None and not loaded.from_cache:  # a cached load was reported once
        for line in summary_lines(loaded.warnings):
            context.warn(line)
    if app.load_error is not None:
        raise UserError(app.load_error)
    return app.return_code or 0
