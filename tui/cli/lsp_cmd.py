"""`paperscope lsp`: the citation language server, on stdin and stdout (tui.lsp).

stdout belongs to the protocol alone: a stray `print`, a warning or a library writing to
file descriptor 1 would corrupt the stream the editor reads. So the protocol gets its own
copy of stdout, and descriptor 1 and `sys.stdout` are pointed at stderr, which editors
keep as the server's log.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from tui.cli.context import CliContext


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds `lsp` to the parser."""
    lsp = subparsers.add_parser(
        "lsp",
        help="run the citation language server (for editors), on stdin and stdout",
        description="Completion, hover, diagnostics, go to definition and code actions for "
        "citations in LaTeX, Markdown/Quarto, Typst and Org, from the library the other "
        "commands use (--corpus, --zotero, config). Editors start it; see the README.",
    )
    lsp.add_argument("--stdio", action="store_true", help="accepted for editors; always stdio")
    lsp.set_defaults(func=lsp_command)


def protocol_streams() -> tuple[object, object]:
    """(stdin, stdout) for the protocol, stdout now a private copy; fd 1 goes to stderr."""
    sys.stdout.flush()
    protocol_out = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return sys.stdin.buffer, protocol_out


def lsp_command(context: CliContext, args: argparse.Namespace) -> int:
    """Serves until the editor says exit."""
    stdin, stdout = protocol_streams()
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="paperscope lsp: %(message)s"
    )
    from tui.lsp.features import make_server

    server = make_server(context.corpus, context.taxonomy_file)
    server.start_io(stdin, stdout)  # type: ignore[arg-type]
    server.library.stop()
    return 0
