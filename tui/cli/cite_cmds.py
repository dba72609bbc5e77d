"""`paperscope cite`, `styles` and `export`: citations and bibliography files from the shell.

`cite` prints (and with `--copy` copies) what the app's copy action would; `export` writes
the papers that match a search as a file a reference manager or LaTeX can read, atomically
and with a provenance comment where the format has comments.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from index import __version__
from index.atomic import write_text_atomic
from index.citations import (
    KeyFormatError,
    StyleFileError,
    UnknownStyleError,
    citation_keys,
    format_citation,
    style_label,
)
from index.models import Paper
from index.text_safety import for_terminal, strip_controls
from tui.cli.context import CliContext, UserError
from tui.cli.search_cmds import add_filter_arguments, request_from_args
from tui.services import paths

if TYPE_CHECKING:
    from tui.services.styles import StyleBook

EXPORT_CHOICES = ("bibtex", "biblatex", "ris", "csl-json", "hayagriva", "jsonl")
_COMMENTED = ("bibtex", "biblatex")  # formats with a comment syntax for the provenance


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds `cite`, `styles` and `export` to the parser."""
    cite = subparsers.add_parser("cite", help="print (and copy) the citation of papers")
    cite.add_argument("ids", nargs="+", metavar="ID", help="paper ids (see `list`)")
    cite.add_argument(
        "--style",
        metavar="NAME",
        help="citation style (see `styles`), latex:COMMAND, or a .csl file "
        "(default: the config's, else apa)",
    )
    cite.add_argument(
        "--copy",
        action="store_true",
        help="also copy it: system clipboard, else the terminal's (OSC 52)",
    )
    cite.add_argument("--json", action="store_true", help="style, ids and text as one JSON object")
    cite.set_defaults(func=cite_command)

    styles = subparsers.add_parser("styles", help="list the citation styles")
    styles.add_argument("--json", action="store_true", help="one JSON object a line")
    styles.set_defaults(func=styles_command)

    export = subparsers.add_parser("export", help="write matching papers as a bibliography file")
    export.add_argument(
        "query",
        nargs="*",
        metavar="QUERY",
        help="a search query (default: every paper the filters allow)",
    )
    add_filter_arguments(export)
    export.add_argument(
        "--format",
        default="bibtex",
        metavar="FORMAT",
        help=f"one of {', '.join(EXPORT_CHOICES)} (default bibtex)",
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
        "--json",
        action="store_true",
        help="what was written (papers, format, file) as JSON on stderr",
    )
    export.set_defaults(func=export_command)


def style_book(context: CliContext) -> tuple[StyleBook, str]:
    """The user's styles and the config's default style, warnings printed once."""
    from tui.services.config import load_config
    from tui.services.styles import load_style_book

    config, warnings = load_config(paths.config_file())
    book = load_style_book(paths.config_file(), config)
    for warning in (*warnings, *book.warnings):
        context.warn(warning)
    return book, config.style


def resolve_style(context: CliContext, name: str | None) -> str:
    """The style asked for, else the one in the user's config; a bad name is a UserError.

    `latex` gets the config's command; a user's style name or a `.csl` path becomes the
    `CslStyle` the formatter reads.
    """
    book, default = style_book(context)
    try:
        return book.resolve(name or default)
    except UnknownStyleError:
        raise UserError(
            f"unknown citation style {name or default!r}; choose one of: "
            + ", ".join(book.names())
            + ", latex:COMMAND or a .csl file"
        ) from None
    except (StyleFileError, KeyFormatError) as error:
        raise UserError(str(error)) from None


def _papers(context: CliContext, ids: list[str]) -> list[Paper]:
    """The papers with those ids or citation keys, in that order, each once."""

    seen: dict[str, Paper] = {}
    for name in ids:
        paper = context.find_paper(name)
        seen.setdefault(paper.id, paper)
    return list(seen.values())


def cite_command(context: CliContext, args: argparse.Namespace) -> int:
    """Prints the citation (a bibliography for several ids); `--copy` copies it and says how."""
    style = resolve_style(context, args.style)
    papers = _papers(context, args.ids)
    text = formatted(papers, style, citation_keys(context.library.papers))
    if getattr(args, "json", False):
        print(
            json.dumps(
                {"style": str(style), "ids": [p.id for p in papers], "text": text},
                ensure_ascii=False,
            )
        )
    else:
        print(for_terminal(text))
    if not args.copy:
        return 0
    from tui.services.clipboard import copy_text

    what = "citation" if len(papers) == 1 else "bibliography"
    sys.stdout.flush()
    outcome = copy_text(text, description=f"{style_label(style)} {what}", data_dir=paths.data_dir())
    print(f"paperscope: {for_terminal(outcome.message, one_line=True)}", file=sys.stderr)
    return 0 if outcome.copied else 1


def formatted(papers: list[Paper], style: str, keys: dict[str, str]) -> str:
    """`format_citation`, with a key a format cannot hold or a broken style as a UserError."""
    try:
        return format_citation(papers, style, keys=keys)
    except (KeyFormatError, StyleFileError) as error:
        raise UserError(str(error)) from None


def styles_command(context: CliContext, args: argparse.Namespace) -> int:
    """Prints every style name (what `--style` takes) and what it is, the user's own too."""
    book, _ = style_book(context)
    for style, label in book.choices():
        if getattr(args, "json", False):
            print(json.dumps({"style": style, "label": label}, ensure_ascii=False))
        else:
            print(f"{style:<10} {label}")
    return 0


def _matching(context: CliContext, args: argparse.Namespace, query: str) -> list[Paper]:
    """The papers the query and filters select: by relevance for a query, else library order."""
    papers = context.library.papers
    filtered = bool(args.topic or args.hardware or args.year)
    if not query and not filtered:
        return list(papers)
    request = request_from_args(
        args, query, context, limit=len(papers), sort="relevance" if query else "year"
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


def export_text(papers: list[Paper], fmt: str, keys: dict[str, str], provenance: list[str]) -> str:
    """The file's text: entries in `fmt`, after a `%` comment header where BibTeX allows one."""
    if fmt == "jsonl":
        body = "".join(
            strip_controls(json.dumps(p.to_dict(), ensure_ascii=False)) + "\n" for p in papers
        )
        return body
    if fmt == "hayagriva":
        from index.citations.hayagriva import hayagriva_yaml

        header = "".join(f"# {line}\n" for line in provenance)
        return header + hayagriva_yaml(papers, keys)
    empty = "[]" if fmt == "csl-json" else ""
    body = format_citation(papers, fmt, keys=keys) if papers else empty
    header = "".join(f"% {line}\n" for line in provenance) + "\n" if fmt in _COMMENTED else ""
    return header + body + ("\n" if body else "")


def export_command(context: CliContext, args: argparse.Namespace) -> int:
    """Writes the matching papers to `-o FILE` (atomically) or standard output."""
    if args.format not in EXPORT_CHOICES:
        raise UserError(
            f"unknown export format {args.format!r}; choose one of: " + ", ".join(EXPORT_CHOICES)
        )
    query = " ".join(args.query).strip()
    papers = _matching(context, args, query)
    keys = citation_keys(context.library.papers)
    text = export_text(papers, args.format, keys, _provenance(args, query, len(papers)))
    if not papers:
        context.warn("no paper matches: the export holds no papers")
    if args.output is None:
        sys.stdout.write(text)
    else:
        if args.output.is_dir():
            raise UserError(f"{args.output}: is a folder; give a file name")
        folder = args.output.parent
        if not folder.is_dir():
            # The app's export dialog offers to create a missing folder; a command cannot
            # ask, so it creates it (as the dialog's second enter does) and says so.
            if folder.exists():
                raise UserError(f"{folder}: is a file, not a folder")
            folder.mkdir(parents=True, exist_ok=True)
            context.warn(f"created the folder {folder}")
        if args.output.exists() and not args.force:
            raise UserError(f"{args.output} exists; add --force to replace it")
        try:
            write_text_atomic(args.output, text)
        except OSError as error:
            raise UserError(
                f"{args.output}: cannot write ({error.strerror or error}); nothing exported"
            ) from None
    where = f" to {args.output}" if args.output else ""
    if getattr(args, "json", False):
        print(
            json.dumps(
                {
                    "papers": len(papers),
                    "format": args.format,
                    "output": str(args.output) if args.output else None,
                }
            ),
            file=sys.stderr,
        )
    else:
        print(
            for_terminal(
                f"paperscope: exported {len(papers)} papers as {args.format}{where}", one_line=True
            ),
            file=sys.stderr,
        )
    return 0
