"""Pure helpers between a `SearchResult` and the facet panel and status line.

They decide what the panel lists (the taxonomy values the library has, zero counts
included, filters typed in the query shown as selected: see `filters.py`) and what the status line and an
empty result say. Kept free of widgets so they are easy to test.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence
from dataclasses import replace

from index.models import FACET_FIELDS, FacetCount, SearchResult
from tui.view.filters import typed_filters

__all__ = [
    "QUERY_FIELDS",
    "build_message",
    "build_stage",
    "completing_stage",
    "empty_message",
    "facet_query",
    "facet_view",
    "index_writing",
    "reading_again",
    "reading_pdfs",
    "status_line",
    "unknown_facet_values",
]


def facet_view(result: SearchResult, taxonomy: object) -> dict[str, tuple[FacetCount, ...]]:
    """The result's facet counts, with typed filters shown as selected.

    The engine lists every topic and hardware value some paper of the library has, at 0
    when none matches this search, so selecting one to widen an OR-selection stays
    possible; a value no paper has is left out (issue 47: a law library's panel was two
    screens of zeros). A value typed in the query (`topic:gnn`) is listed, selected, even
    then, so the panel shows every filter in force.
    """
    typed = typed_filters(result.request.query)
    view: dict[str, tuple[FacetCount, ...]] = {}
    for facet in FACET_FIELDS:
        counts = list(result.facets.get(facet, ()))
        known = {count.value for count in counts}
        for value in (
            getattr(taxonomy, {"topic": "topics"}.get(facet, facet), ())
            if facet in ("topic", "hardware")
            else ()
        ):
            if value.id not in known and value.id in typed.get(facet, {}):
                counts.append(FacetCount(facet, value.id, value.label, 0, parent=value.parent))
        selected = set(result.request.selected(facet)) | set(typed.get(facet, {}))
        view[facet] = tuple(
            replace(count, selected=True)
            if count.value in selected and not count.selected
            else count
            for count in counts
        )
    return view


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


def unknown_facet_values(query: str, taxonomy: object) -> list[str]:
    """A notice per typed `topic:`/`hw:` value the taxonomy does not know, with a suggestion.

    `hw:trainium` matches nothing, silently; this says "hw:trainium is not a hardware id
    (did you mean hw:aws-trainium?)" the way `--hardware trainium` does on the command line.
    """
    notices: list[str] = []
    for facet, values in typed_filters(query).items():
        known = [
            value.id
            for value in getattr(taxonomy, "topics" if facet == "topic" else "hardware", ())
        ]
        prefix = "topic" if facet == "topic" else "hw"
        for value in values:
            if value in known:
                continue
            near = [k for k in known if value in k] or difflib.get_close_matches(value, known, n=1)
            hint = f" (did you mean {prefix}:{near[0]}?)" if near else " (? lists the ids)"
            notices.append(
                f"{prefix}:{value} is not a {'topic' if facet == 'topic' else 'hardware'} id{hint}"
            )
    return notices


def index_writing(done: int, total: int) -> bool:
    """Every paper is in the writer (`index.store.writer.Progress`): the commit and the
    tables follow, a third of the build at 20,000 papers, with no count to show; a count
    that stopped at 99% all that time read as a hang."""
    return 0 < total <= done


def step_counted(total: int) -> bool:
    """Whether a step of the library's load has a count to show: a step of one (merging
    duplicates) has none, as the command line's notice shows it (tui.cli.progress)."""
    return total > 1


def build_stage(done: int, total: int, step: str = "") -> str:
    """How far the first start got, for the status while a sample serves: a step of the
    library's load (`step`, see `tui.messages.IndexProgress`), or the index build."""
    if step:
        name = step.capitalize()
        return f"{name} {100 * done // total}%" if step_counted(total) else name
    if index_writing(done, total):
        return "Writing the index"
    return f"Indexing {100 * done // max(1, total)}%"


def completing_stage(done: int, total: int) -> str:
    """How far the full build is while a lean index of every paper serves (index.store.
    lean): every search answers already, so it is no sample's "so far"."""
    if index_writing(done, total):
        return "Writing the full index"
    return f"Completing the index {100 * done // max(1, total)}%"


def build_message(done: int, total: int, step: str = "") -> str:
    """The status line of a first start while nothing can be searched yet (no sample)."""
    if step:
        name = step.capitalize()
        return f"{name}… {done:,} of {total:,}" if step_counted(total) else f"{name}…"
    papers = "paper" if total == 1 else "papers"  # an update may index a single one
    if index_writing(done, total):
        return f"Writing the index ({total:,} {papers})…"
    return f"Indexing… {done:,} of {total:,} {papers}"


def reading_again(files: Sequence[str]) -> str:
    """What the status leads with while changed sources are read again (the papers shown
    are from before them): "Reading refs.bib", "Reading 3 changed files"."""
    if len(files) == 1:
        return f"Reading {os.path.basename(files[0])}"
    return f"Reading {len(files):,} changed files"


def reading_pdfs(done: int, total: int, indexing: bool = False) -> str:
    """What the status leads with while attached PDFs are read: "Reading PDFs 120 of 1,800",
    and while what was read is indexed: "Reading PDFs 120 of 1,800 · indexing their text"."""
    said = f"Reading PDFs {done:,} of {total:,}"
    return f"{said} · indexing their text" if indexing else said


def status_line(
    result: SearchResult,
    correction_key: str,
    *,
    timings: bool = False,
    unknown: Sequence[str] = (),
    marked_only: bool = False,
) -> str:
    """ "12 of 4,698 papers · 2 filters", plus any notice from the engine.

    Args:
        timings: add the search time and "prefix matches capped" (the `debug` setting).
        unknown: notices about typed facet values that do not exist.
        marked_only: the results are only the marked papers.
    """
    filters = result.request.filter_count + sum(
        len(values) for values in typed_filters(result.request.query).values()
    )
    # Only what is worth the room: the pane is narrow, and "0 filters" says nothing.
    shown = f"{result.total:,} marked" if marked_only else f"{result.total:,}"
    parts = [
        f"{shown} of {_plural(result.library_size, 'paper')}",
        *([f"{result.elapsed_ms:.0f} ms"] if timings else []),
        *([_plural(filters, "filter")] if filters else []),
    ]
    if result.partial and timings:
        parts.append("prefix matches capped")
    if result.notice:
        # Before the correction: the line shows at most three rows, and what the engine
        # searched instead ("No exact match: showing results for ...") must be read from
        # its start; a long correction came first and pushed it out of sight.
        parts.append(result.notice)
    if result.correction and result.total:
        # With no hits the results pane says it in full; here it would be cut off.
        parts.append(f"{correction_key}: {result.correction!r}?")
    parts.extend(unknown)
    return " · ".join(parts)


def empty_message(result: SearchResult, correction_key: str, clear_key: str) -> str:
    """Why the results are empty and the keys that help; the results pane wraps it."""
    lines = ["No paper matches this search."]
    tips = "Try fewer words, a prefix (micro*) or a fuzzy word (sheduling~)"
    # Here, not at the top: the search package imports Whoosh, which start-up defers.
    from index.search.known_items import FUZZY_TRIED, identify

    identifiers = identify(result.request.query)
    if identifiers:
        # A pasted DOI or arXiv id: fewer words or fuzzy ones would not help.
        lines = [f"No paper in this library has the {' or '.join(map(str, identifiers))}."]
        tips = "It may not be in this library: search for words of its title"
    elif result.notice and result.notice.startswith(FUZZY_TRIED):
        lines.append(f"{result.notice}.")  # what the engine tried: fuzzy words, a key
        tips = "Try fewer words or a prefix (micro*)"
    if result.request.query.count('"') % 2:
        # A phrase still being typed: inside quotes a word only matches once typed in full,
        # so "no match" is expected here; say so calmly instead of suggesting fixes.
        lines = ["No paper has these words side by side yet."]
        tips = 'Inside quotes a word counts once typed in full: finish it, or close the quote (")'
    elif result.correction:
        lines.append(
            f"Did you mean \u201c{result.correction}\u201d? Press {correction_key} to search for it."
        )
    if result.request.filter_count:
        tips += f", or press {clear_key} to clear the filters"
    return "\n".join([*lines, tips + "."])


# facet -> the query field that selects its values (`topic:compilers`); facets without one
# (arXiv categories, saved searches) are chosen in the panel only.
QUERY_FIELDS = {
    "topic": "topic",
    "hardware": "hw",
    "year": "year",
    "venue": "venue",
    "author": "author",
    "tag": "tag",
    "status": "status",
    "keyword": "keyword",
    "collection": "collection",
}


def facet_query(facet: str, value: str) -> str | None:
    """What to type in the search bar for this value (`hw:aws-trainium`,
    `author:"Cody Hao Yu"`), or None when there is no query form ("no year", "no topic")."""
    field = QUERY_FIELDS.get(facet)
    if field is None or (facet == "year" and value == "0") or (facet, value) == ("topic", "none"):
        return None
    if facet in ("topic", "hardware", "year", "status"):
        return f"{field}:{value}"
    text = " ".join(value.replace('"', " ").split())
    if not text:
        return None
    plain = all(ch.isalnum() or ch in "-_./" for ch in text)
    return f"{field}:{text}" if plain else f'{field}:"{text}"'
