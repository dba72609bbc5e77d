"""`paperscope fulltext`: read the library's attached PDFs now, for searches from the command line.

The app reads them in the background once it shows; a user who only runs commands (or a
script before a batch of `search --json`) has no app to do it. This reads every PDF not
read yet, on every core at low priority, with its progress on stderr; each file that gives
no text is one line there (`paperscope: FILE: attachment is encrypted...`), and the text
then becomes searchable. Ctrl+C stops it and keeps what was read. `--json` prints a
summary on stdout. Problems with PDFs do not fail the command (exit 0); a library that
cannot be loaded does (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys

from index.text_safety import for_terminal
from tui.cli.context import CliContext
from tui.cli.progress import ProgressBar
from tui.services import paths


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds `fulltext` to the parser."""
    parser = subparsers.add_parser(
        "fulltext",
        help="read the attached PDFs now so searches find their text (the app does it "
        "in the background)",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON summary on stdout")
    parser.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="worker processes (default: one per core; 0 reads in this process)",
    )
    parser.set_defaults(func=read_fulltext)


def read_fulltext(context: CliContext, args: argparse.Namespace) -> int:
    """Reads every attached PDF not read yet, syncs the searchable text, says what it did."""
    from tui.services.fulltext import FulltextReading, attachment_jobs, described

    if args.jobs is not None and args.jobs < 0:
        from tui.cli.context import UserError

        raise UserError("--jobs must be 0 or more")
    library = context.library
    reading = FulltextReading(paths.cache_dir(), workers=args.jobs)
    bar = ProgressBar("reading PDFs", context.progress_stream(), unit="files")
    try:
        summary = reading.run(library.papers, progress=bar)
    finally:
        bar.finish()
    for line in reading.problems:  # file names come from the user's files: untrusted
        print(f"paperscope: {for_terminal(str(line), one_line=True)}", file=sys.stderr)
    if args.json:
        data = {
            "pdfs": len(attachment_jobs(library.papers)),
            "read": summary.read,
            "already_read": summary.stored,
            "pages": summary.pages,
            "searchable_updated": summary.synced,
            "problems": [{"path": w.path, "problem": w.message} for w in reading.problems],
        }
        json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(described(summary))
    return 0
