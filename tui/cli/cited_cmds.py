"""`paperscope cited FILE...`: the bibliography of exactly the papers a manuscript cites.

The keys are read by `index.citations.manuscripts` (LaTeX, .aux, pandoc Markdown, Typst,
Org); each is looked up as the user wrote it in their .bib file (`Paper.citation_key`), then
as paperscope's generated key, then as a paper id. Unknown keys are reported the way a
compiler reports errors, `FILE:LINE: message`, so an editor can jump to them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from index.atomic import write_text_atomic
from index.citations import KeyFormatError, StyleFileError, citation_keys
from index.citations.blanking import line_of
from index.citations.export import export_only_format, export_text
from index.citations.manuscripts import (
    SYNTAXES,
    CitedKey,
    cited_keys,
    latex_inputs,
    syntax_for,
)
from index.library.lookup import PaperLookup
from index.models import Paper
from tui.cli.cite_cmds import resolve_style
from tui.cli.context import CliContext, UserError
from tui.cli.output import prepare_output


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds `cited` to the parser."""
    cited = subparsers.add_parser(
        "cited",
        help="write the bibliography of the papers a manuscript cites",
        description="Reads the citations in LaTeX (.tex, .aux), pandoc Markdown (.md), "
        "Typst (.typ) or Org (.org) files and writes the bibliography of exactly those "
        "papers, in order of first citation. Exit 1 if a key is unknown.",
    )
    cited.add_argument("files", nargs="+", type=Path, metavar="FILE", help="manuscript files")
    cited.add_argument(
        "--style",
        default="bibtex",
        metavar="NAME",
        help="citation style (see `styles`), or hayagriva for Typst (default bibtex)",
    )
    cited.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="write to FILE (atomically) instead of standard output",
    )
    cited.add_argument(
        "--mkdir",
        action="store_true",
        help="create FILE's folder if it is missing (without it, a terminal is asked "
        "and a script gets an error)",
    )
    cited.set_defaults(func=cited_command)


def _read(path: Path) -> tuple[str, str]:
    """(syntax, text) of one manuscript; a file we cannot read is a UserError."""
    syntax = syntax_for(path.name)
    if syntax is None:
        raise UserError(f"{path}: not a manuscript paperscope reads (.tex, .aux, .md, .typ, .org)")
    try:
        return syntax, path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except UnicodeDecodeError as error:
        raise UserError(f"{path}: not UTF-8 text (byte {error.start})") from None
    except OSError as error:
        raise UserError(f"{path}: cannot read ({error.strerror or error})") from None


# How deep `\input` may nest (a file that reads itself, however indirectly, is read once).
_INPUT_DEPTH = 32


def _with_inputs(
    context: CliContext, path: Path, syntax: str, text: str
) -> list[tuple[Path, str, str]]:
    """The manuscript and, for LaTeX, every file it reads in (`\\input`, `\\include`,
    `\\subfile`, `\\import`), depth first as LaTeX reads them. A file named but missing
    is one warning naming the command's file and line; the rest is read."""
    out: list[tuple[Path, str, str]] = []
    seen: set[Path] = set()

    def visit(path: Path, text: str, depth: int) -> None:
        seen.add(path.resolve())
        out.append((path, syntax, text))
        if syntax != "latex" or depth >= _INPUT_DEPTH:
            return
        line = line_of(text)
        for name, offset in latex_inputs(text):
            found = _input_file(name, path.parent, root.parent)
            if found is None:
                context.warn(f"{path}:{line(offset)}: {name!r} is read in but not found")
                continue
            if found.resolve() in seen:
                continue
            try:
                visit(found, found.read_text(encoding="utf-8"), depth + 1)
            except (OSError, UnicodeDecodeError) as error:
                reason = getattr(error, "strerror", None) or str(error)
                context.warn(f"{found}: cannot read ({reason})")

    root = path
    visit(path, text, 0)
    return out


def _input_file(name: str, here: Path, root: Path) -> Path | None:
    """The file `\\input{name}` reads: beside the including file, else beside the main
    document (where LaTeX is run), `.tex` added as LaTeX adds it."""
    for folder in dict.fromkeys((here, root)):
        for candidate in (folder / name, folder / f"{name}.tex"):
            if candidate.is_file():
                return candidate
    return None


class Cited:
    """The papers a manuscript cites, in order of first citation, each under the key it
    was first cited by (`paperscope cited`, and the language server's "write the
    bibliography", tui.lsp)."""

    def __init__(self) -> None:
        self._chosen: dict[str, Paper] = {}  # paper id -> paper, in order of first citation
        self._as_cited: dict[str, str] = {}  # paper id -> the key it was first cited by

    def add(self, key: str, paper: Paper | None) -> bool:
        """Record one citation of `key` (the paper it names, None if unknown); False when
        the key names no paper."""
        if paper is None:
            return False
        self._chosen.setdefault(paper.id, paper)
        self._as_cited.setdefault(paper.id, key)
        return True

    def add_all(self, papers: Sequence[Paper]) -> None:
        """Every paper (`\\nocite{*}`), after those cited by key, each under its own key."""
        for paper in papers:
            self._chosen.setdefault(paper.id, paper)

    @property
    def papers(self) -> list[Paper]:
        return list(self._chosen.values())

    def keys(self, generated: dict[str, str]) -> dict[str, str]:
        """Keys by paper id: the library's, and for a cited paper the key the manuscript
        uses, so LaTeX, pandoc or Typst find its entry."""
        return {**generated, **self._as_cited}


def cited_command(context: CliContext, args: argparse.Namespace) -> int:
    """Writes the cited papers' bibliography; reports unknown keys with FILE:LINE; exit 1 if any."""
    manuscripts = [
        found for path in args.files for found in _with_inputs(context, path, *_read(path))
    ]
    if args.output is not None:  # FILE is replaced each run, as a build rule wants
        created = prepare_output(args.output, force=True, mkdir=args.mkdir)
        if created:
            context.warn(created)
    style = export_only_format(args.style) or resolve_style(context, args.style)
    papers = context.library.papers
    generated = citation_keys(papers)
    # A manuscript cites the user's own keys first, then generated keys and ids.
    lookup = PaperLookup(papers, generated, keys_first=True)
    found = Cited()
    unknown: dict[str, tuple[Path, CitedKey]] = {}
    everything = False  # `\nocite{*}`: the whole library, after the papers cited by key
    for path, syntax, text in manuscripts:
        for cited in cited_keys(text, syntax):
            if cited.key == "*":
                everything = True
                continue
            if not found.add(cited.key, lookup.find(cited.key)):
                unknown.setdefault(cited.key, (path, cited))
    if everything:
        found.add_all(papers)
    for key, (path, cited) in unknown.items():
        close = lookup.suggest(key)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        print(f"{path}:{cited.line}: unknown citation key {key!r}{hint}", file=sys.stderr)
    keys = found.keys(generated)
    cited_papers = found.papers
    try:
        text = export_text(cited_papers, style, keys)
    except (KeyFormatError, StyleFileError) as error:
        raise UserError(str(error)) from None
    if args.output is None:
        sys.stdout.write(text)
    else:
        try:
            write_text_atomic(args.output, text)
        except OSError as error:
            raise UserError(f"{args.output}: cannot write ({error.strerror or error})") from None
        print(
            f"paperscope: wrote {len(cited_papers)} cited papers to {args.output}", file=sys.stderr
        )
    return 1 if unknown else 0


__all__ = ["SYNTAXES", "Cited", "cited_command", "register"]
