"""`paperscope cite` and `styles`: citations from the shell, in the styles the app offers.

`cite` prints (and with `--copy` copies) what the app's copy action would; the style
resolution here (`resolve_style`, `style_book`) is shared by `export`, `cited` and `pick`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from index.citations import (
    KeyFormatError,
    StyleFileError,
    UnknownStyleError,
    citation_keys,
    format_citation,
    style_label,
)
from index.models import Paper
from index.text_safety import for_terminal
from tui.cli.context import CliContext, UserError
from tui.services import paths

if TYPE_CHECKING:
    from tui.services.styles import StyleBook


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds `cite` and `styles` to the parser."""
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


def style_book(context: CliContext, *, all_warnings: bool = False) -> tuple[StyleBook, str]:
    """The user's styles and the config's default style.

    A style file's problem is printed by the first command that meets it, not by every
    command after (`not_yet_reported`); `all_warnings` prints them all (`styles`).
    """
    from tui.services.config import load_config
    from tui.services.styles import load_style_book, not_yet_reported

    config, warnings = load_config(paths.config_file())
    book = load_style_book(paths.config_file(), config)
    record = paths.cache_dir() / "reported-style-warnings.json"
    # A quiet command (`pick` into a program) prints nothing: nothing counts as said, so
    # the app it opens still names the style's problem once.
    fresh = [] if context.quiet else not_yet_reported(book.warnings, record)
    for warning in (*warnings, *(book.warnings if all_warnings else fresh)):
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
    from index.citations.export import export_label

    book, _ = style_book(context, all_warnings=True)
    # Hayagriva (Typst's bibliography file) is a style for `cited -o` and `export` only.
    hayagriva = ("hayagriva", f"{export_label('hayagriva')}: for cited -o and export only")
    for style, label in [*book.choices(), hayagriva]:
        if getattr(args, "json", False):
            print(json.dumps({"style": style, "label": label}, ensure_ascii=False))
        else:
            print(f"{style:<10} {label}")
    return 0
