"""`paperscope search`, `facets` and `index`: the search engine from the command line.

`add_filter_arguments` and `request_from_args` are shared with every command that takes
facet filters (`export` reuses them), so `--topic/--hardware/--year` mean the same thing
everywhere.
"""

from __future__ import annotations

import argparse
import json
import sys
import typing
from dataclasses import replace
from typing import Any

from index.models import READING_STATUSES, FacetCount, SearchRequest, SearchResult, SortOrder
from index.search.syntax import parse_years
from index.search.user_layer import normalize_status
from index.text_safety import for_terminal, strip_controls
from tui.cli.context import CliContext, UserError
from tui.cli.library_cmds import paper_summary


def add_filter_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds `--topic ID`, `--hardware ID` (both repeatable) and `--year A..B`."""
    parser.add_argument(
        "--topic",
        action="append",
        default=[],
        metavar="ID",
        help="only papers with this topic (repeat for any of several)",
    )
    parser.add_argument(
        "--hardware",
        action="append",
        default=[],
        metavar="ID",
        help="only papers for this hardware; a parent like gpu includes its "
        "children (repeat for any of several)",
    )
    parser.add_argument(
        "--year",
        metavar="A..B",
        help="only papers from these years: 2021, 2020..2024, 2022.., ..2019",
    )
    parser.add_argument(
        "--tag",
        action="append",
        default=[],
        metavar="TAG",
        help="only papers with this tag of yours (repeat for any of several)",
    )
    parser.add_argument(
        "--status",
        action="append",
        default=[],
        metavar="STATUS",
        help="only papers with this reading status: unread, to-read, reading, "
        "read (repeat for any of several)",
    )


def parse_year_range(text: str) -> tuple[int | None, int | None]:
    """`2020..2024`, `2021`, `2022..` or `..2019`; a `UserError` names a bad value."""
    years = parse_years(text)
    if years is None or any(year is not None and year > 9999 for year in years):
        raise UserError(f"--year {text!r} is not a year or range like 2020..2024")
    low, high = years
    if low is not None and high is not None and low > high:
        raise UserError(f"--year {text!r}: the range is empty ({low} is after {high})")
    return low, high


def request_from_args(
    args: argparse.Namespace, query: str, context: CliContext | None = None, **options: Any
) -> SearchRequest:
    """The SearchRequest for the filter arguments; unknown facet ids are a `UserError`."""
    topics = frozenset(getattr(args, "topic", None) or ())
    hardware = frozenset(getattr(args, "hardware", None) or ())
    if context is not None:
        for flag, chosen, values in (
            ("--topic", topics, context.taxonomy.topics),
            ("--hardware", hardware, context.taxonomy.hardware),
        ):
            known = [value.id for value in values]
            for value in sorted(chosen - set(known)):
                raise UserError(
                    f"{flag} {value!r} is not a known value; known: " + ", ".join(known)
                )
    if context is not None:
        # `hw:trainium` in the query matches nothing, silently: say so, as --hardware does.
        from tui.view.facets import unknown_facet_values

        for notice in unknown_facet_values(query, context.taxonomy):
            context.warn(notice)
    year = getattr(args, "year", None)
    statuses = set()
    for status in getattr(args, "status", None) or ():
        value = normalize_status(status)
        if value is None:
            raise UserError(
                f"--status {status!r} is not a reading status; known: "
                + ", ".join(READING_STATUSES)
            )
        statuses.add(value)
    tags: frozenset[str] = frozenset()
    if getattr(args, "tag", None):  # the user's tags module is imported only when needed
        from tui.services.annotations import normalize_tag

        tags = frozenset(t for t in (normalize_tag(t) for t in args.tag) if t)
    return SearchRequest(
        query=query,
        topics=topics,
        hardware=hardware,
        year_range=parse_year_range(year) if year else None,
        tags=tags,
        statuses=frozenset(statuses),
        **options,
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds `search`, `facets` and `index` to the parser."""
    search = subparsers.add_parser("search", help="search the library (Whoosh query syntax)")
    search.add_argument(
        "query",
        nargs="*",
        metavar="QUERY",
        help='words (all must match), "phrases", prefix*, fuzzy~, -excluded, '
        "AND/OR/NOT, title: author: abstract: venue: year:2020..2024 topic: "
        "hw: doi: arxiv: tag: status: note: keyword:",
    )
    add_filter_arguments(search)
    search.add_argument(
        "--save", metavar="NAME", help="also save this search (query and filters) under NAME"
    )
    search.add_argument(
        "--saved", metavar="NAME", help="run the saved search NAME (words given too narrow it)"
    )
    search.add_argument(
        "--sort",
        choices=typing.get_args(SortOrder),
        default="relevance",
        help="relevance, year (newest first), year-asc (oldest first), title, author",
    )
    search.add_argument(
        "--limit", type=int, default=20, metavar="N", help="show at most N papers (default 20)"
    )
    search.add_argument("--json", action="store_true", help="one JSON object a line")
    search.add_argument(
        "--summary",
        action="store_true",
        help="also print the counts and top facet values on stderr",
    )
    search.set_defaults(func=search_command)

    facets = subparsers.add_parser("facets", help="facet counts for a query (or everything)")
    facets.add_argument("query", nargs="*", metavar="QUERY")
    add_filter_arguments(facets)
    facets.add_argument("--json", action="store_true", help="one JSON object a line")
    facets.set_defaults(func=facets_command)

    index = subparsers.add_parser("index", help="build or refresh the search index")
    index.add_argument("--rebuild", action="store_true", help="rebuild it from scratch")
    index.add_argument("--json", action="store_true", help="what was done, as one JSON object")
    index.set_defaults(func=index_command)


def _summary(result: SearchResult, facets: bool) -> str:
    """What goes to stderr: the count with --summary, or when no row was printed (no
    match, or `--limit 0`: silence would read as a failure), then the facets and notices."""
    parts = (
        [f"{result.total:,} of {result.library_size:,} papers match ({result.elapsed_ms:.1f} ms)"]
        if facets or not result.hits
        else []
    )
    for name, counts in result.facets.items() if facets else ():
        top = sorted((c for c in counts if c.count), key=lambda c: -c.count)[:5]
        if top:
            parts.append(f"{name}: " + ", ".join(f"{c.value} {c.count}" for c in top))
    if result.notice:
        parts.append(result.notice)
    if result.partial and "Wildcards capped" not in (result.notice or ""):
        # (a capped wildcard's notice above says what was searched)
        parts.append("the last word is short: only its most frequent completions were searched")
    if result.correction:
        parts.append(f"did you mean: {result.correction}")
    return "\n".join("paperscope: " + part for part in parts)


def search_command(context: CliContext, args: argparse.Namespace) -> int:
    """Prints the ranked papers: a readable table, or JSON Lines."""
    if args.limit < 0:
        raise UserError(f"--limit {args.limit}: must be 0 or more")
    request = request_from_args(
        args, " ".join(args.query), context, sort=args.sort, limit=args.limit
    )
    if args.saved:
        request = _with_saved(context, args.saved, request)
    elif not request.query.strip() and not request.filter_count:
        raise UserError("search: give a QUERY, filters, or --saved NAME")
    if args.save:
        try:
            done = context.saved_searches.save(args.save, request)
        except ValueError as error:
            raise UserError(f"--save: {error}") from None
        if not done:
            raise UserError(context.saved_searches.save_error or "could not save the search")
    # Facet counts are printed only with --summary: without it none are counted.
    result = context.search_engine.search(replace(request, counts=args.summary))
    out = sys.stdout
    # A score means something only when ranking by relevance a query that has words.
    scored = args.sort == "relevance" and any(hit.score for hit in result.hits)
    for rank, hit in enumerate(result.hits, 1):
        paper = hit.paper
        if args.json:
            row = paper_summary(paper)
            row.update(
                score=round(hit.score, 4),
                snippet=hit.snippet.plain,
                matched_fields=list(hit.matched_fields),
            )
            if hit.page_match is not None:  # matched inside an attachment (full text)
                row["page_match"] = {
                    "path": hit.page_match.path,
                    "page": hit.page_match.page,
                    "snippet": hit.page_match.snippet.plain,
                }
            out.write(strip_controls(json.dumps(row, ensure_ascii=False)) + "\n")
        else:
            year = paper.year if paper.year is not None else "n.d."
            score = f"{hit.score:6.2f}  " if scored else ""
            out.write(
                f"{rank:>3}. {paper.id:<32} {year:<5} {score}"
                f"{for_terminal(paper.title, one_line=True)}\n"
            )
            if hit.snippet.plain:
                out.write(f"     {for_terminal(hit.snippet.marked('*', '*'), one_line=True)}\n")
            if hit.page_match is not None:
                found = hit.page_match
                where = f"p. {found.page}: " if found.page is not None else "text: "
                text = for_terminal(found.snippet.marked("*", "*"), one_line=True)
                out.write(f"     {where}{text}\n")
    summary = _summary(result, args.summary)
    if summary:
        print(for_terminal(summary), file=sys.stderr)
    return 0


def _with_saved(context: CliContext, name: str, given: SearchRequest) -> SearchRequest:
    """The saved search `name`, narrowed by what was given on the command line too.

    Raises:
        UserError: no search has that name (exit 2, naming it and the saved ones).
    """
    store = context.saved_searches
    saved = store.get(name)
    if saved is None:
        known = ", ".join(store.names)
        raise UserError(
            f"no saved search named {name!r}"
            + (f"; saved: {known}" if known else "; there are no saved searches")
        )
    query = " ".join(part for part in (saved.query, given.query) if part.strip())
    union = {
        attribute: getattr(saved, attribute) | getattr(given, attribute)
        for attribute in ("topics", "hardware", "tags", "statuses")
    }
    return replace(
        saved,
        query=query,
        sort=given.sort if given.sort != "relevance" else saved.sort,
        limit=given.limit,
        year_range=given.year_range or saved.year_range,
        **union,
    )


def _facet_row(count: FacetCount) -> dict[str, Any]:
    return {
        "facet": count.facet,
        "value": count.value,
        "label": count.label,
        "count": count.count,
        "selected": count.selected,
        "parent": count.parent,
    }


def facets_command(context: CliContext, args: argparse.Namespace) -> int:
    """Prints every facet value with its count for the query (all papers without one)."""
    request = request_from_args(args, " ".join(args.query), context, limit=0)
    result = context.search_engine.search(request)
    out = sys.stdout
    every = [count for counts in result.facets.values() for count in counts]
    count_width = max((len(f"{c.count:,}") for c in every), default=1)
    for name, counts in result.facets.items():
        # Each section is aligned on its own: one long venue must not push the topics apart.
        value_width = max(
            (len(for_terminal(c.value, one_line=True)) + (2 if c.parent else 0) for c in counts),
            default=8,
        )
        if not args.json:
            out.write(f"{name}\n")
        for count in counts:
            if args.json:
                out.write(strip_controls(json.dumps(_facet_row(count), ensure_ascii=False)) + "\n")
            else:
                # Values and labels come from the user's files: made safe one by one, so the
                # padding that aligns the columns is kept.
                shown = for_terminal(count.value, one_line=True)
                value = ("  " if count.parent else "") + shown
                mark = "*" if count.selected else " "
                label = for_terminal(count.label, one_line=True)
                label = f"  {label}" if count.label != count.value else ""
                out.write(f"  {mark}{value:<{value_width}}  {count.count:>{count_width},}{label}\n")
    print(
        for_terminal(
            f"paperscope: {result.total} papers match ({result.elapsed_ms:.1f} ms)"
            + (f"; {result.notice}" if result.notice else ""),
            one_line=True,
        ),
        file=sys.stderr,
    )
    return 0


def index_command(context: CliContext, args: argparse.Namespace) -> int:
    """Builds or refreshes the index and says what it did."""
    engine = context.open_engine(rebuild=args.rebuild)
    opened = engine.opened
    if getattr(args, "json", False):
        print(
            json.dumps(
                {
                    "action": opened.action,
                    "papers": opened.doc_count,
                    "seconds": round(opened.seconds, 3),
                    "path": str(opened.path),
                }
            )
        )
        return 0
    print(
        for_terminal(
            f"{opened.action}: {opened.doc_count} papers in {opened.seconds:.2f} s ({opened.path})"
        )
    )
    engine.close()
    return 0
