"""Pure helpers between a `SearchResult` and the facet panel and status line.

They decide what the panel lists (every taxonomy value, zero counts included, filters
typed in the query shown as selected: see `filters.py`) and what the status line and an
empty result say. Kept free of widgets so they are easy to test.
"""

from __future__ import annotations

from dataclasses import replace

from index.models import FacetCount, SearchResult
from tui.view.filters import REQUEST_FIELDS, typed_filters

__all__ = ["facet_view", "status_line", "empty_message"]

def facet_view(result: SearchResult, taxonomy: object) -> dict[str, tuple[FacetCount, ...]]:
    """The result's facet counts, with every taxonomy value listed and typed filters selected.

    The engine may leave out values nobody matched; the panel still lists them (count 0)
    so selecting one to widen an OR-selection stays possible.
    """
    typed = typed_filters(result.request.query)
    view: dict[str, tuple[FacetCount, ...]] = {}
    for facet in REQUEST_FIELDS:
        counts = list(result.facets.get(facet, ()))
        known = {count.value for count in counts}
        for value in getattr(taxonomy, {"topic": "topics"}.get(facet, facet), ()) if facet in ("topic", "hardware") else ():
            if value.id not in known:
                counts.append(FacetCount(facet, value.id, value.label, 0, parent=value.parent))
        chosen = getattr(result.request, REQUEST_FIELDS[facet])
        selected = {str(v) for v in chosen} | set(typed.get(facet, {}))
        view[facet] = tuple(
            replace(count, selected=True) if count.value in selected and not count.selected else count
            for count in counts
        )
    return view


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def status_line(result: SearchResult, correction_key: str, *, timings: bool = True) -> str:
    """"12 of 47 papers · 3 ms · 2 filters", plus any notice from the engine."""
    filters = result.request.filter_count + sum(
        len(values) for values in typed_filters(result.request.query).values()
    )
    # Only what is worth the room: the pane is narrow, and "0 filters" says nothing.
    parts = [f"{result.total} of {_plural(result.library_size, 'paper')}",
             *([f"{result.elapsed_ms:.0f} ms"] if timings else []),
             *([_plural(filters, "filter")] if filters else [])]
    if result.partial:
        parts.append("prefix matches capped")
    if result.correction and result.total:
        # With no hits the results pane says it in full; here it would be cut off.
        parts.append(f"{correction_key}: {result.correction!r}?")
    if result.notice:
        parts.append(result.notice)
    return " · ".join(parts)


def empty_message(result: SearchResult, correction_key: str, clear_key: str) -> str:
    """Why the results are empty and the keys that help; the results pane wraps it."""
    lines = ["No paper matches this search."]
    tips = "Try fewer words, a prefix (micro*) or a fuzzy word (sheduling~)"
    if result.request.query.count('"') % 2:
        # A phrase still being typed: inside quotes a word only matches once typed in full,
        # so "no match" is expected here; say so calmly instead of suggesting fixes.
        lines = ["No paper has these words side by side yet."]
        tips = 'Inside quotes a word counts once typed in full: finish it, or close the quote (")'
    elif result.correction:
        lines.append(f"Did you mean \u201c{result.correction}\u201d? Press {correction_key} to search for it.")
    if result.request.filter_count:
        tips += f", or press {clear_key} to clear the filters"
    return "\n".join([*lines, tips + "."])
