"""`paperscope pick [QUERY]`: choose papers in the app, print their citation on stdout.

Textual draws on stderr and reads stdin; stdout only gets the result, so the command can
sit inside `$(...)`, `:r !...` in Vim or a tmux popup; there, no warning is printed on
either stream (Vim pastes both), the app shows them. Where stdin or stderr is not the
terminal (Vim sends both output streams to a file), the app is given the controlling
terminal, `/dev/tty`, as fzf does; with no terminal at all (Emacs' `shell-command`), it says
so instead of drawing into a pipe.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from tui.cli.cite_cmds import resolve_style
from tui.cli.context import CliContext, UserError, is_terminal
from tui.startup import resume_collector


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds `pick` to the parser."""
    pick = subparsers.add_parser(
        "pick",
        help="choose papers in the app and print their citation",
        description="Opens the app to search and choose; enter on a result prints the "
        "citation of the marked papers (m), or of the highlighted one, and exits 0; esc or "
        "q prints nothing and exits 1. Enter in the search bar moves to the results.",
    )
    pick.add_argument("query", nargs="*", metavar="QUERY", help="what the search starts with")
    pick.add_argument(
        "--style",
        default="key",
        metavar="NAME",
        help="citation style of the output (see `styles`; default key)",
    )
    pick.set_defaults(func=pick_command)


@contextmanager
def terminal() -> Iterator[None]:
    """Runs the block with the terminal on stdin, stdout and stderr; the real stdout after.

    stdout is pointed at the terminal too while the app runs: Textual measures the terminal
    through stdout, and anything printed by accident must not end up in the user's
    `$(...)`. It is restored before the result is written.
    """
    try:
        tty = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        if is_terminal(sys.stdin) and is_terminal(sys.stderr):
            yield
            return
        raise UserError(
            "pick needs a terminal to draw on and there is none here; run it in "
            "a terminal, a terminal buffer (Emacs vterm) or `tmux display-popup`"
        ) from None
    saved = {fd: os.dup(fd) for fd in (0, 1, 2)}
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        for fd in (0, 1, 2):
            os.dup2(tty, fd)
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, copy in saved.items():
            os.dup2(copy, fd)
            os.close(copy)
        os.close(tty)


def run(app: object) -> str | None:
    """Runs the app on the terminal; tests replace this with a headless run."""
    from tui.pick_mode import PickApp

    assert isinstance(app, PickApp)
    with terminal():
        return app.run()


def pick_command(context: CliContext, args: argparse.Namespace) -> int:
    """Prints the picked citation and exits 0; nothing and 1 when cancelled."""
    from tui.pick_mode import PickApp
    from tui.services.config import AppSettings

    # `<&-`: /dev/tty would be opened as descriptor 0 and Textual finds no sys.stdin.
    if sys.stdin is None:
        raise UserError(
            "pick: standard input is closed (<&-); run it with stdin open, "
            "from a terminal or an editor"
        )
    # Output to a program: a warning on stderr would land in the user's text (Vim's `:r !`
    # reads both streams). The app shows load problems and style warnings instead.
    context.quiet = not is_terminal(sys.stdout)
    style = resolve_style(context, args.style)
    # Exported COLUMNS and LINES win over the terminal's own size in Rich and Textual (and
    # never follow a resize); with stdout redirected they may describe another terminal.
    for name in ("COLUMNS", "LINES"):
        os.environ.pop(name, None)
    # From an editor, every start counts: a current index is served without the library
    # (as `paperscope` does, tui.cli.run_app); else its problems are printed before the app.
    engine = context.current_engine()
    app = PickApp(
        AppSettings.from_environment(),
        context.taxonomy,
        library=context.library if engine is None else None,
        engine=engine,
        owns_engine=True,
        pick_style=style,
        query=" ".join(args.query),
    )
    resume_collector()
    picked = run(app)
    if picked is None or app.return_code:
        return 1
    sys.stdout.write(picked + "\n")
    sys.stdout.flush()
    return 0
