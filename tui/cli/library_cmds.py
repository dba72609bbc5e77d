"""`paperscope list` and `paperscope show`: the library as loaded, one paper or all."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import textwrap
from typing import Any

from index.author_lists import author_list
from index.models import Paper
from index.text_safety import for_terminal, strip_controls
from tui.cli.context import CliContext


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds `list` and `show` to the parser."""
    list_parser = subparsers.add_parser("list", help="list every paper in the library")
    list_parser.add_argument("--json", action="store_true", help="one JSON object a line")
    list_parser.set_defaults(func=list_papers)

    show_parser = subparsers.add_parser("show", help="everything known about one paper")
    show_parser.add_argument("id", metavar="ID", help="the paper's id (see `list`)")
    show_parser.add_argument("--json", action="store_true", help="one JSON object")
    show_parser.set_defaults(func=show_paper)


def paper_summary(paper: Paper) -> dict[str, Any]:
    """The JSON keys every command that lists papers shares (`list --json`, `search --json`)."""
    return {
        "id": paper.id,
        "title": paper.title,
        "title_inferred": paper.title_inferred,
        "short_name": paper.short_name,
        "authors": list(paper.authors),
        "authors_complete": paper.authors_complete,
        "year": paper.year,
        "venue": paper.venue,
        "doi": paper.doi,
        "arxiv": paper.arxiv,
        "url": paper.url,
        "topics": list(paper.topic_ids),
        "hardware": list(paper.hardware_ids),
        "sources": [str(source) for source in paper.sources],
    }


def paper_details(paper: Paper) -> dict[str, Any]:
    """`paper_summary` plus every other known field and the reason for each label."""
    details = paper.to_dict()
    details.update(paper_summary(paper))
    details["topic_reasons"] = {label.value: label.reason for label in paper.topics}
    details["hardware_reasons"] = {label.value: label.reason for label in paper.hardware}
    details.pop("topics_labels", None)
    return details


def list_papers(context: CliContext, args: argparse.Namespace) -> int:
    """Prints every paper: a readable line each, or JSON Lines."""
    out = sys.stdout
    # The app's first screen: newest first, then by title (papers without a year last).
    papers = sorted(
        context.library.papers, key=lambda p: (p.year is None, -(p.year or 0), p.title.casefold())
    )
    for paper in papers:
        if args.json:
            out.write(strip_controls(json.dumps(paper_summary(paper), ensure_ascii=False)) + "\n")
        else:
            year = paper.year if paper.year is not None else "n.d."
            marker = " [title inferred]" if paper.title_inferred else ""
            title = for_terminal(paper.title, one_line=True)
            out.write(f"{paper.id:<34} {year}  {title}{marker}\n")
    return 0


def show_paper(context: CliContext, args: argparse.Namespace) -> int:
    """Prints one paper with every field, the sources and the reason for each label."""
    paper = context.find_paper(args.id)
    if args.json:
        print(strip_controls(json.dumps(paper_details(paper), ensure_ascii=False, indent=2)))
        return 0
    lines = [paper.title + ("  [title inferred]" if paper.title_inferred else "")]
    lines.append("  " + author_list(paper, unknown="(authors unknown)"))
    rows = [
        ("id", paper.id),
        ("short name", paper.short_name),
        ("year", paper.year),
        ("month", paper.month),
        ("venue", paper.venue),
        ("type", paper.entry_type),
        ("booktitle", paper.booktitle),
        ("journal", paper.journal),
        ("volume", paper.volume),
        ("number", paper.number),
        ("pages", paper.pages),
        ("publisher", paper.publisher),
        ("doi", paper.doi),
        ("arxiv", paper.arxiv),
        ("url", paper.url),
        ("bibtex key", paper.citation_key),
        ("keywords", ", ".join(paper.keywords) or None),
        ("collections", ", ".join(paper.collections) or None),
        ("files", "; ".join(paper.attachments) or None),
        ("related", ", ".join(paper.related) or None),
        ("note", paper.note),
        # the user's own layer (tui.services.annotations)
        ("your tags", ", ".join(context.annotations.tags_of(paper)) or None),
        ("status", context.annotations.status_of(paper)),
    ]
    width = shutil.get_terminal_size((100, 24)).columns
    lines += [f"{name:>11}: {value}" for name, value in rows if value not in (None, "")]
    for note in paper.source_notes:  # the source's own notes (Zotero's child notes)
        first, *rest = note.splitlines() or [""]
        lines.append(f"{'notes':>11}: {first}")
        lines += [f"{'':>13}{line}" for line in rest]
    for title, labels in (("topics", paper.topics), ("hardware", paper.hardware)):
        lines.append(f"{title:>11}: " + (", ".join(label.value for label in labels) or "(none)"))
        lines += [f"{'':>13}{label.value}: {label.reason}" for label in labels]
    lines.append(f"{'sources':>11}: " + "; ".join(str(source) for source in paper.sources))
    if paper.merge_reasons:  # why several records became this one paper
        lines.append(f"{'merged':>11}: " + paper.merge_reasons[0])
        lines += [f"{'':>13}{reason}" for reason in paper.merge_reasons[1:]]
    lines.append("")
    lines += (
        textwrap.wrap(
            paper.abstract, max(40, width - 1), break_long_words=False, break_on_hyphens=False
        )
        if paper.abstract
        else ["(no abstract)"]
    )
    print(for_terminal("\n".join(lines)))
    return 0
