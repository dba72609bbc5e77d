"""The facet state's changes after an in-place update, beside the whole file (side_files).

The saved facet state (index.search.facet_store, 23 MB at 100,000 papers) spans every
document: each value's mask, the per-document columns, the sort orders. Rewriting it
after an update of 100 papers took ~0.1-0.2 s, and hashing it for `current.json` more.
Whoosh appends an update's documents after the segments it kept, so the documents of the
whole file's leading segments that the index still has (its first `cut` documents; an
update drops a segment whose every document it deleted, an earlier update's) keep their
numbers and change only by deletions, which the live mask records. The changes are then:
the new live mask and sort orders (plain, ~1 MB at 100,000 papers), every column's
entries from document `cut` on, each mask's bits from there (`tails`), and the masks
whose bits before it changed, whole (`whole`: a value that newly ranks among a large
facet's commonest, the masks of papers without a topic or a year, which follow the live
mask), and each large facet's value counts less the whole file's (`counts`). A merge that
renumbers the whole file's documents leaves a short `cut`, and changes past
`side_files.fold_due`'s share of the library mean a whole write instead.

Folding them on open (`folded`) costs a few ms: the columns are concatenated, the masks
or-ed. The list columns and titles stay undecoded (bytes parts of the whole file and of
the changes, joined on first use by `FacetMasks`).
"""

from __future__ import annotations

import marshal
from typing import Any, NamedTuple

from index.search.facet_build import Computed, Counts
from index.search.side_files import fold_due

__all__ = ["CHANGES_FILE", "CHANGES_FORMAT", "Base", "changes_of", "folded", "folded_counts"]

CHANGES_FILE = "facets-changes.marshal"
CHANGES_FORMAT = 1
_MARSHAL_VERSION = 4
# The per-document columns the changes continue, beside `lists` and `titles` (bytes).
_COLUMNS = ("ids", "venues", "year_of")


class Base(NamedTuple):
    """The whole file an update's changes apply to: its key, its documents and masks."""

    key: list[list[Any]]
    size: int
    masks: dict[str, dict[str, int]]
    counts: Counts | None  # its value counts (index.search.facet_build.Counts)


def changes_of(
    base: Base, key: list[list[Any]], computed: Computed, papers: int
) -> dict[str, Any] | None:
    """What `computed` (the facets of the index whose key is `key`) changed of `base`, to
    be saved as the changes file; None when they cannot stand for a whole write (see the
    module)."""
    masks = computed.masks
    # The whole file's documents that kept their numbers: its leading segments that the
    # index still has, as they were (an update drops a segment whose every document it
    # deleted: an earlier update's, edited again).
    cut = 0
    for (old_id, old_count, _), (new_id, new_count, _) in zip(base.key, key):
        if old_id != new_id or old_count != new_count:
            break
        cut += old_count
    if base.counts is None or not cut or fold_due(masks.size - cut, papers):
        return None
    low = (1 << cut) - 1
    tails: dict[str, dict[str, int]] = {}
    whole: dict[str, dict[str, int]] = {}
    values: dict[str, list[str]] = {}
    for facet, current in masks.masks.items():
        before = base.masks.get(facet, {})
        tails[facet], whole[facet] = {}, {}
        for value, mask in current.items():
            old = before.get(value)
            if old is not None and mask & low == old & low:
                if mask > low:
                    tails[facet][value] = mask >> cut
            else:
                whole[facet][value] = mask
        values[facet] = list(current)
    data = masks.undecoded_lists()
    if isinstance(data, tuple) and data[1] == cut:  # the update's columns, still undecoded
        lists = data[2]
    else:
        lists = marshal.dumps(
            {facet: column[cut:] for facet, column in masks.lists.items()}, _MARSHAL_VERSION
        )
    return {
        "format": CHANGES_FORMAT,
        "base": base.key,
        "key": key,
        "cut": cut,
        "size": masks.size,
        "live": masks.live,
        **{name: getattr(masks, name)[cut:] for name in _COLUMNS},
        "titles": marshal.dumps(masks.titles[cut:], _MARSHAL_VERSION),
        "lists": lists,
        "values": values,
        "tails": tails,
        "whole": whole,
        "order_title": masks.order_title,
        "order_year": masks.order_year,
        "counts": _difference(computed.counts, base.counts),
    }


def _difference(after: Counts, before: Counts) -> Counts:
    """Per facet, each value's count in `after` less its count in `before`, where they differ."""
    out: Counts = {}
    for facet, counted in after.items():
        old = before.get(facet, {})
        changed = {value: count - old.get(value, 0) for value, count in counted.items()}
        changed = {value: change for value, change in changed.items() if change}
        changed.update((value, -count) for value, count in old.items() if value not in counted)
        out[facet] = changed
    return out


def folded(state: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any] | None:
    """The whole file's decoded `state` with `changes` folded in: the state of the index
    the changes were written for; None when they do not fit the state."""
    try:
        cut = changes["cut"]
        added = changes["size"] - cut
        if not 0 < cut <= state["size"] or added < 0:
            return None
        if not all(len(changes[name]) == added for name in _COLUMNS):
            return None
        low = (1 << cut) - 1
        masks: dict[str, dict[str, int]] = {}
        for facet, values in changes["values"].items():
            before, tails = state["masks"][facet], changes["tails"][facet]
            whole = changes["whole"][facet]
            masks[facet] = {
                value: whole[value]
                if value in whole
                else before[value] & low | tails.get(value, 0) << cut
                for value in values
            }
        return {
            "size": changes["size"],
            "live": changes["live"],
            **{name: state[name][:cut] + changes[name] for name in _COLUMNS},
            "titles": _parts(state["titles"], cut, changes["titles"]),
            "lists": _parts(state["lists"], cut, changes["lists"]),
            "masks": masks,
            "order_title": changes["order_title"],
            "order_year": changes["order_year"],
        }
    except (KeyError, TypeError, AttributeError):
        return None


def _parts(saved: Any, cut: int, more: Any) -> tuple[bytes, int, bytes]:
    """The whole file's undecoded column, how much of it is kept, and the changes'
    (joined on first use: index.search.bitsets)."""
    if not isinstance(saved, bytes) or not isinstance(more, bytes):
        raise TypeError("the columns are not marshalled parts")
    return (saved, cut, more)


def folded_counts(base: Counts, changes: dict[str, Any]) -> Counts | None:
    """The value counts of the folded state: the whole file's, changed as the changes say."""
    try:
        out = {facet: dict(counted) for facet, counted in base.items()}
        for facet, changed in changes["counts"].items():
            counted = out[facet]
            for value, change in changed.items():
                count = counted.get(value, 0) + change
                if count:
                    counted[value] = count
                else:
                    counted.pop(value, None)
        return out
    except (KeyError, TypeError, AttributeError):
        return None
