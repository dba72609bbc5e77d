"""`paperscope export`: the papers that match a search, as a file other tools read.

The format comes from `--format` (or its other name `--style`), else from the name given
to `-o` exactly as the app's export dialog decides it (`index.citations.export`): `.bib`
BibTeX, `.ris` RIS, `.json` CSL-JSON, `.yml`/`.yaml` Hayagriva, any other name the
config's citation style; standard output gets BibTeX. Every citation style is a format
too, key formats included (`--format latex:citep` writes one `\\citep{...}` of the
exported papers' keys). The file is written atomically, with a provenance comment where
the format has comments, after `tui.cli.output` has checked the path.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timezone
from pathlib import Path

from index import __version__
from index.atomic import write_text_atomic
from index.citations import KeyFormatError, StyleFileError, citation_keys
from index.citations.export import (
    FILE_FORMATS,
    export_only_format,
    export_text,
    format_for_path,
)
from index.models import Paper
from index.text_safety import for_terminal
from tui.cli.cite_cmds import resolve_style, style_book
from tui.cli.context import CliContext, UserError
from tui.cli.output import prepare_output
from tui.cli.search_cmds import add_filter_arguments, request_from_args

__all__ = ["export_command", "register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds `export` to the parser."""
    export = subparsers.add_parser(
        "export",
        help="write matching papers as a bibliography file",
        description="Writes the papers that match QUERY and the filters. The format is "
        "--format, else the one FILE's name asks for (.bib BibTeX, .ris RIS, .json CSL-JSON, "
        ".yml/.yaml Hayagriva, .jsonl JSON Lines, .md Markdown; any other name: the "
        "config's citation style), else BibTeX.",
    )
    export.add_argument(
        "query",
        nargs="*",
        metavar="QUERY",
        help="a search query (default: every paper the filters allow)",
    )
    add_filter_arguments(export)
    export.add_argument(
        "--format",
        "--style",
        dest="format",
        metavar="FORMAT",
        help=f"{', '.join(FILE_FORMATS)}, or any citation style (see `styles`): key formats "
        "such as latex:citep write the papers' keys (default: from FILE's name, else bibtex)",
    )
    export.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="write to FILE (atomically) instead of standard output",
    )
    export.add_argument("--force", action="store_true", help="replace FILE if it exists")
    export.add_argument(
        "--mkdir",
        action="store_true",
        help="create FILE's folder if it is missing (without it, a terminal is asked "
        "and a script gets an error)",
    )
    export.add_argument(
        "--json",
        action="store_true",
        help="what was written (papers, format, file) as JSON on stderr",
    )
    export.set_defaults(func=export_command)


def export_format(context: CliContext, name: str | None, output: Path | None) -> str:
    """The format to write: the one named, else the one `output`'s name asks for, else BibTeX.

    Raises:
        UserError: a name that is neither a file format nor a style (listing both).
    """
    if name is None:
        if output is None:
            return "bibtex"
        _, default = style_book(context)
        name = format_for_path(output, default)
    only = export_only_format(name)
    if only is not None:
        return only
    try:
        return resolve_style(context, name)
    except UserError as error:
        if "unknown citation style" not in str(error):
            raise
        book, _ = style_book(context)
        formats = [*FILE_FORMATS, *(s for s in book.names() if s not in FILE_FORMATS)]
        raise UserError(
            f"unknown export format {name!r}; choose one of: {', '.join(formats)}, "
            "latex:COMMAND or a .csl file"
        ) from None


def _matching(context: CliContext, args: argparse.Namespace, query: str) -> list[Paper]:
    """The papers the query and filters select: by relevance for a query, else library order."""
    papers = context.library.papers
    filtered = bool(args.topic or args.hardware or args.year)
    if not query and not filtered:
        return list(papers)
    request = request_from_args(
        args,
        query,
        context,
        limit=len(papers),
        sort="relevance" if query else "year",
        counts=False,
    )
    result = context.engine.search(request)
    if result.notice:
        context.warn(result.notice)
    if query:
        return [hit.paper for hit in result.hits]
    chosen = {hit.paper.id for hit in result.hits}
    return [paper for paper in papers if paper.id in chosen]


def _provenance(args: argparse.Namespace, query: str, count: int) -> list[str]:
    filters = [f"topic={t}" for t in args.topic] + [f"hardware={h}" for h in args.hardware]
    if args.year:
        filters.append(f"year={args.year}")
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return [
        f"Exported by paperscope {__version__} on {stamp}",
        f"query: {query or '(none)'}",
        f"filters: {'; '.join(filters) or '(none)'}",
        f"papers: {count}",
    ]


def export_command(context: CliContext, args: argparse.Namespace) -> int:
    """Writes the matching papers to `-o FILE` (atomically) or standard output."""
    fmt = export_format(context, args.format, args.output)
    if args.output is not None:  # before the search: a wrong path costs nothing
        created = prepare_output(args.output, force=args.force, mkdir=args.mkdir)
        if created:
            context.warn(created)
    query = " ".join(args.query).strip()
    papers = _matching(context, args, query)
    keys = citation_keys(context.library.papers)
    try:
        text = export_text(papers, fmt, keys, _provenance(args, query, len(papers)))
    except (KeyFormatError, StyleFileError) as error:
        raise UserError(str(error)) from None
    if not papers:
        context.warn("no paper matches: the export holds no papers")
    if args.output is None:
        sys.stdout.write(text)
    else:
        try:
            write_text_atomic(args.output, text)
        except OSError as error:
            raise UserError(
                f"{args.output}: cannot write ({error.strerror or error}); nothing exported"
            ) from None
    if getattr(args, "json", False):
        output = str(args.output) if args.output else None
        summary = {"papers": len(papers), "format": str(fmt), "output": output}
        print(json.dumps(summary), file=sys.stderr)
    else:
        where = f" to {args.output}" if args.output else ""
        noun = "paper" if len(papers) == 1 else "papers"
        message = f"paperscope: exported {len(papers)} {noun} as {fmt}{where}"
        print(for_terminal(message, one_line=True), file=sys.stderr)
    return 0
