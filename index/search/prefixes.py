"""The word being typed, made cheap: everything paperscope does for prefixes, in one place.

Searching as you type makes the unfinished last word a prefix, and short prefixes are the
expensive part of a search: a one-letter prefix expands to thousands of terms and matches
nearly every paper. This module owns each of the levers (the measurements behind them
are in docs/whoosh.md):

- the caps: a prefix of at most `SHORT_PREFIX` letters expands to its most frequent
  completions only (`prefix_cap`), and the result is marked partial;
- the expansion cache (`PrefixExpander`): completions come from the build-time table
  (index.search.tables) for one and two letters, else from the lexicon, and a longer prefix
  narrows a shorter one's expansion instead of scanning again;
- verification (`verified`): when the rest of an AND leaves few candidates, a short prefix
  is checked against their text instead of reading its completions' long posting lists;
- the letter masks: the first keystroke of every search is a one-letter prefix, and its
  match set is the union of the longest posting lists in the index (its edge n-gram and
  its most frequent abstract completions), ~65% of a 0.4 s request at 100,000 papers. That
  set depends only on the index, so the build computes it for every letter (and for the
  two-letter prefixes whose completions are the commonest words) and stores the bitmasks
  beside the index; the engine then answers those prefixes' match sets with a lookup. The
  masks are kept per Whoosh segment, with each node's terms: an in-place update adds a
  small segment (and may merge the small ones) and leaves the file as it is; the engine
  completes each mask for the segments the file lacks on first use
  (index.search.letter_masks).
"""

from __future__ import annotations

import base64
import json
import re
import string
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path

from whoosh import query as wq
from whoosh.reading import IndexReader

from index.atomic import write_text_atomic
from index.models import Paper
from index.schema.analysis import fold_word
from index.search.bitsets import bits, mask_of, posting_ids
from index.search.stored_postings import StoredPostings
from index.search.syntax import walk
from index.search.tables import TABLE_PREFIX, PrefixTable, prefix_frequencies
from index.whoosh_ext.internals import segment_id

# A prefix this short expands to at most PREFIX_CAP terms (the most frequent) per field;
# one or two letters to fewer still: their most frequent completions have the longest
# posting lists, and the result is marked partial until the word is longer anyway.
SHORT_PREFIX = 3
PREFIX_CAP = 64
LETTER_CAPS = {1: 8, 2: 24}
# How many prefix expansions one expander remembers (they only depend on the index).
EXPANSION_CACHE = 512
# An AND's other parts leaving at most this many papers (and 1/VERIFY_SHARE of the
# library) get a short prefix checked against their text instead (`verified`).
VERIFY_LIMIT = 2000
VERIFY_SHARE = 50

LETTERS_FILE = "letters.json"
# 1 stored one mask per node for the whole index; 2 had no terms (a segment added by an
# in-place update could not be completed from the file).
FORMAT = 3
# Two-letter prefixes get a stored mask when the completions they expand to (their
# `LETTER_CAPS` commonest) hold at least this many postings per paper: computing those
# match sets is what makes a second keystroke slow. At most `TWO_LETTER_MAX`, the most
# postings first. Chosen by the commonest completion alone (>= 20% of the papers, at most
# 40), the stored ones at 1,000,000 synthetic papers were common short words ("us", "up",
# "tw") while "tr" (train, transform, ...: 1.4 postings a paper) took 1.2-1.6 s a request.
TWO_LETTER_SHARE = 0.2
TWO_LETTER_MAX = 64
# A library smaller than this gets no stored masks: its one-letter requests take as long
# computed as looked up (generated libraries, a request per letter and common pair, cold
# caches: median 21 / 25 / 25 ms with masks, 21 / 24 / 27 ms without, at 1,000 / 3,000 /
# 10,000 papers), while computing them was a third of a small library's build (70-100 ms
# of the bundled 47 papers' ~0.3 s). An in-place update that takes a library past it
# stores masks for every segment then (none of them has any yet).
LETTER_MASKS_MIN_PAPERS = 5000


# Field searches whose first letter gets a stored mask too: `author:m` expands to the
# commonest names starting with it, ~0.5-0.7 s a request at 1,000,000 papers computed.
FIELD_LETTERS = ("author",)


def short_prefixes(table: PrefixTable, size: int) -> list[str]:
    """Every letter and digit, each letter after `FIELD_LETTERS`' names, and the two-letter
    prefixes of the commonest words; none for a library of fewer than
    `LETTER_MASKS_MIN_PAPERS` papers."""
    if size < LETTER_MASKS_MIN_PAPERS:
        return []
    twos = []
    for prefix, completions in table.get("abstract", {}).items():
        if len(prefix) != 2:
            continue
        searched = [count for term, count in completions[: LETTER_CAPS[2]] if term]
        postings = sum(count for count in searched if isinstance(count, int))
        if postings >= TWO_LETTER_SHARE * size:
            twos.append((-postings, prefix))
    return (
        list(string.ascii_lowercase + string.digits)
        + [f"{field}:{letter}" for field in FIELD_LETTERS for letter in string.ascii_lowercase]
        + [p for _, p in sorted(twos)][:TWO_LETTER_MAX]
    )


def _term_leaves(q: wq.Query) -> Iterator[wq.Term] | None:
    """The terms of a pure union (Or / ConstantScore / Term), or None for anything else."""
    nodes = list(walk(q))
    if not all(
        type(node) is wq.Term or isinstance(node, (wq.Or, wq.ConstantScoreQuery)) for node in nodes
    ):
        return None
    return (node for node in nodes if type(node) is wq.Term)


def union_mask(
    reader: IndexReader, q: wq.Query, stored: StoredPostings | None = None
) -> int | None:
    """The documents matching a pure union of terms (deleted ones included)."""
    terms = _term_leaves(q)
    if terms is None:
        return None
    size = reader.doc_count_all()
    mask = 0
    for term in terms:
        mask |= mask_of(posting_ids(reader, term.fieldname, term.text, stored), size)
    return mask


def write_letters(
    folder: Path,
    reader: IndexReader,
    nodes: dict[str, wq.Query],
    stored: StoredPostings | None = None,
) -> None:
    """Stores the masks of `nodes` (each short prefix's parsed query) for every segment,
    and each node's terms (index.search.letter_masks completes a segment added later).

    Masks the file in `folder` already has for a segment are kept: a mask is a fact
    about the node and the segment (deleted documents included), whatever index or
    update wrote it. Only segments and nodes the file lacks have their postings read
    (from `stored` where it holds them).
    """
    known = read_letters_file(folder)[0]
    wanted = {repr(node): node for node in nodes.values() if _term_leaves(node) is not None}
    segments: dict[str, dict[str, str]] = {}
    for leaf, _offset in reader.leaf_readers():
        segment = segment_id(leaf)
        if segment is None:  # Whoosh's stock paths: masks are computed at search time
            return
        kept = known.get(segment, {})
        masks = {key: kept[key] for key in wanted if key in kept}
        for key, node in wanted.items():
            if key in masks:
                continue
            mask = union_mask(leaf, node, stored)
            if mask is not None:
                data = mask.to_bytes((mask.bit_length() + 7) // 8, "little")
                masks[key] = base64.b64encode(data).decode("ascii")
        segments[segment] = masks
    terms = {
        key: [[term.fieldname, str(term.text)] for term in _term_leaves(node) or ()]
        for key, node in wanted.items()
    }
    write_text_atomic(
        Path(folder) / LETTERS_FILE,
        json.dumps({"format": FORMAT, "terms": terms, "segments": segments}),
    )


def read_letters_file(
    folder: Path,
) -> tuple[dict[str, dict[str, str]], dict[str, list[tuple[str, str]]] | None]:
    """The stored masks by segment id, then node repr (base64), and each node's terms
    (None: a format 2 file, which has none); ({}, None) if missing or damaged."""
    try:
        data = json.loads((Path(folder) / LETTERS_FILE).read_text(encoding="utf-8"))
        segments = data["segments"] if data.get("format") in (2, FORMAT) else {}
        raw = data.get("terms") if data.get("format") == FORMAT else None
        if not isinstance(segments, dict) or not all(
            isinstance(masks, dict) for masks in segments.values()
        ):
            return {}, None
        terms = None
        if isinstance(raw, dict):
            terms = {
                str(key): [(str(field), str(text)) for field, text in pairs]
                for key, pairs in raw.items()
            }
        return segments, terms
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}, None


def prefix_cap(prefix: str) -> int | None:
    """How many completions a prefix this long may expand to (None: all of them)."""
    return LETTER_CAPS.get(len(prefix), PREFIX_CAP) if len(prefix) <= SHORT_PREFIX else None


class PrefixExpander:
    """A field's terms that start with a prefix, capped while short, remembered per index.

    Args:
        table: the build-time table of one- and two-letter completions (may be empty:
            an older index, or an unreadable file; then the lexicon is walked).
    """

    def __init__(self, table: PrefixTable | None = None) -> None:
        self.table = table or {}
        self._expansions: OrderedDict[tuple[str, str], list[tuple[str, int]]] = OrderedDict()

    def forget(self) -> None:
        """Drop the remembered expansions (the next prefix walks the lexicon again)."""
        self._expansions.clear()

    def expand(self, reader: IndexReader, fieldname: str, prefix: str) -> tuple[list[str], bool]:
        """The completions to search for, and whether they were capped (a partial result)."""
        listed = self.commonest(fieldname, prefix)
        if listed is not None:
            commonest, complete = listed
            limit = prefix_cap(prefix) or len(commonest)
            return commonest[:limit], not complete or len(commonest) > limit
        partial = False
        terms = sorted(  # as the table is
            self.completions(reader, fieldname, prefix), key=lambda item: (-item[1], item[0])
        )
        cap = prefix_cap(prefix)
        if cap is not None and len(terms) > cap:
            partial = True
            terms = terms[:cap]
        return [text for text, _ in terms], partial

    def commonest(self, fieldname: str, prefix: str) -> tuple[list[str], bool] | None:
        """The build-time table's completions of `prefix`, commonest first, and whether
        they are all of them; None when the table does not cover the prefix or field."""
        if len(prefix) > TABLE_PREFIX or fieldname not in self.table:
            return None
        listed = self.table[fieldname].get(prefix) or []
        complete = not (listed and listed[-1][0] == "")  # the table kept only the top ones
        return [str(term) for term, _ in (listed if complete else listed[:-1])], complete

    def completions(
        self, reader: IndexReader, fieldname: str, prefix: str
    ) -> list[tuple[str, int]]:
        """Every term of the field starting with `prefix`, with its document frequency.

        Remembered: one expander per open index, whose lexicon cannot change.
        """
        key = (fieldname, prefix)
        terms = self._expansions.get(key)
        if terms is None:
            terms = self._narrowed(key)
            if terms is None:
                terms = prefix_frequencies(reader, fieldname, prefix)
            self._expansions[key] = terms
            while len(self._expansions) > EXPANSION_CACHE:
                self._expansions.popitem(last=False)
        else:
            self._expansions.move_to_end(key)
        return terms

    def _narrowed(self, key: tuple[str, str]) -> list[tuple[str, int]] | None:
        """A shorter prefix's expansion, filtered: typing one more letter costs no scan."""
        fieldname, prefix = key
        for cut in range(len(prefix) - 1, 0, -1):
            shorter = self._expansions.get((fieldname, prefix[:cut]))
            if shorter is not None:
                return [item for item in shorter if item[0].startswith(prefix)]
        return None


def worth_verifying(prefix: str, candidates: int, library_size: int) -> bool:
    """Whether checking candidates' text beats reading a short prefix's posting lists."""
    return len(prefix) <= 2 and candidates <= min(VERIFY_LIMIT, library_size // VERIFY_SHARE)


def verified(
    mask: int, prefix: str, fields: tuple[str, ...], paper_at: Callable[[int], Paper], size: int
) -> int:
    """The documents of `mask` with a word starting with `prefix` in one of `fields`."""
    pattern = re.compile(r"(?<!\w)" + re.escape(prefix), re.IGNORECASE)
    keep = []
    for docnum in bits(mask):
        paper = paper_at(docnum)
        text = " ".join(
            filter(
                None,
                (
                    paper.title if "title" in fields else "",
                    paper.short_name if "short_name" in fields else "",
                    " ".join(paper.authors) if "authors" in fields else "",
                    paper.abstract if "abstract" in fields else "",
                    paper.venue if "venue" in fields else "",
                ),
            )
        )
        if pattern.search(text) or (not text.isascii() and pattern.search(fold_word(text))):
            keep.append(docnum)
    return mask_of(keep, size)
