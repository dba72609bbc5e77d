"""An index updated in place answers every search as a fresh build of the same library does.

Round after round, one source file's papers are edited (new and dropped words, titles,
authors, years, venues), removed and added; after each in-place update, a set of
queries (as typed and whole, fielded, phrases, wildcards, facet selections, every sort
order) gets the same totals, the same papers, the same facet counts and the same
partial flags from the updated index as from a one-shot build of the library as it is
now. The stored side tables are in play as in a large library: long posting lists,
first-keystroke masks and a capped prefix table.

Relevance order is compared as a set: Whoosh's BM25 statistics (document frequency,
average field length) still count deleted documents until their segment is merged, so
scores of an updated index differ slightly from a fresh build's; every other order is
compared exactly.
"""

from __future__ import annotations

import string
from itertools import pairwise
from pathlib import Path

import pytest

from index import open_engine
from index.models import Library, Paper, SearchRequest, SortOrder, replace
from index.search import prefixes as letters
from index.search import stored_postings
from index.search.engine import SearchEngine
from index.search.letter_masks import LetterMasks
from index.store import updates, writer
from tests.fixtures.search.generate import TAXONOMY
from tests.index.store.test_store import file_library, updates_in_place

QUERIES = (
    "",
    "model",
    "training inference",
    "quokka",
    "zyzzyva",
    '"memory cache"',
    "q*k*",
    "title:cache",
    "author:li",
    "year:2019..2022",
    "venue:osdi",
    "cache -model",
    "zyzzyvva",  # a typo: "did you mean"
    "quoka~",  # a fuzzy word
)
TYPED = ("m", "t", "z", "zy", "tr", "mo", "ca", "author:m", "quo", "zyzz")
# The first keystrokes whose masks a build stores (index.search.prefixes.short_prefixes,
# which adds the commonest two-letter starts) and that an update leaves to the engine to
# complete for its segment (index.search.letter_masks).
STARTS = (
    tuple(string.ascii_lowercase + string.digits)
    + tuple(f"author:{letter}" for letter in string.ascii_lowercase)
    + ("th", "co", "in", "re", "de", "pr", "an", "st", "se", "ze")
)
SORTS: tuple[SortOrder, ...] = ("year", "year-asc", "title", "author")


def _requests() -> list[SearchRequest]:
    requests = [SearchRequest(q, limit=500) for q in QUERIES]
    requests += [SearchRequest(q, limit=500, as_you_type=True) for q in TYPED]
    requests += [SearchRequest("cache", sort=sort, limit=500) for sort in SORTS]
    requests += [
        SearchRequest("model", topics=frozenset({"training"}), limit=500),
        SearchRequest("", hardware=frozenset({"gpu"}), years=frozenset({2021}), limit=500),
    ]
    return requests


def _answers(engine: SearchEngine) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    for request in _requests():
        result = engine.search(request)
        ids = [hit.paper.id for hit in result.hits]
        order = sorted(ids) if request.sort == "relevance" else ids
        facets = {name: list(counts) for name, counts in result.facets.items()}
        out.append(
            (request.query, request.sort, result.total, order, facets, result.partial)
            + (result.correction,)
        )
    return out


def _typed(engine: SearchEngine) -> list[tuple[object, ...]]:
    """Each first keystroke's total, papers and partial flag, as typed."""
    out: list[tuple[object, ...]] = []
    for start in STARTS:
        result = engine.search(SearchRequest(start, limit=500, as_you_type=True))
        out.append((start, result.total, sorted(h.paper.id for h in result.hits), result.partial))
    return out


def _served_from_letters(engine: SearchEngine) -> int:
    """How many of `STARTS` parse to a node the engine has a stored mask for."""
    letters = engine._matching.letters
    with engine._searcher() as searcher:
        nodes = [
            engine._builder.parse(s, searcher.reader(), as_you_type=True).query for s in STARTS
        ]
    return sum(repr(node) in letters for node in nodes)


def _edited(library: Library, round_: int) -> Library:
    """The library with file `round_ % 3`'s papers edited, three removed, four added."""
    target = Path(library.files[round_ % len(library.files)]).name
    mine = [p for p in library.papers if p.sources[0].path == target]
    changed: dict[str, Paper] = {}
    for n, paper in enumerate(mine[3:15]):
        words = paper.abstract.split()
        changed[paper.id] = replace(
            paper,
            abstract=" ".join(words[2:] + (["zyzzyva", "quokka"] if n % 2 else ["cache"])),
            title=paper.title + (" revised" if n % 3 else ""),
            authors=paper.authors[1:] + ("Zora Li",) if n % 4 == 0 else paper.authors,
            year=(paper.year or 2000) + 1 if n % 5 == 0 else paper.year,
            venue="OSDI" if n % 6 == 0 else paper.venue,
        )
    gone = {p.id for p in mine[:3]}
    added = tuple(
        replace(paper, id=f"{paper.id}-copy{round_}", title=f"Zygote {paper.title}")
        for paper in mine[15:19]
    )
    papers = tuple(changed.get(p.id, p) for p in library.papers if p.id not in gone)
    Path(library.files[round_ % len(library.files)]).write_text(f"round {round_}\n")
    return replace(library, papers=papers + added)


def test_an_updated_index_answers_as_a_fresh_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    updates_in_place(monkeypatch)
    monkeypatch.setattr(letters, "LETTER_MASKS_MIN_PAPERS", 0)  # masks stored, as at 5,000+
    monkeypatch.setattr(stored_postings, "MIN_POSTINGS", 20)  # long lists stored
    monkeypatch.setattr(writer, "PREFIX_CAP", 4)  # capped table lists, as for a big lexicon
    monkeypatch.setattr(updates, "PREFIX_CAP", 4)
    library = file_library(tmp_path, per_file=40)
    open_engine(library, TAXONOMY, tmp_path / "cache").close()
    for round_ in range(3):
        library = _edited(library, round_)
        updated = open_engine(library, TAXONOMY, tmp_path / "cache")
        assert updated.opened.action.startswith("updated"), updated.opened.action
        fresh = open_engine(library, TAXONOMY, tmp_path / f"fresh{round_}")
        assert fresh.opened.action == "built"
        # The update hands its facet state to the open that follows; another open reads
        # the saved files (the facet state's changes folded in).
        reread = open_engine(library, TAXONOMY, tmp_path / "cache")
        assert reread.opened.action == "up to date"
        try:
            assert updated.size == fresh.size == reread.size == len(library.papers)
            want = _answers(fresh)
            assert _answers(updated) == want
            assert _answers(reread) == want
            # The first keystrokes: the update left its segment's masks to the engine,
            # which completes each stored one on first use, by this search.
            served = updated._matching.letters
            assert isinstance(served, LetterMasks) and served._missing
            assert _served_from_letters(updated) >= len(STARTS) // 2
            typed = _typed(fresh)
            assert _typed(updated) == typed
            assert _typed(reread) == typed
        finally:
            updated.close()
            fresh.close()
            reread.close()


@pytest.mark.parametrize("step", ["add_words", "write_facet_masks", "update_paper_keys"])
def test_an_update_killed_after_its_commit_never_serves_a_half_written_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    """Killed between Whoosh's commit and its side tables (before the facet state's
    changes are written, or after), an update leaves files that differ from the
    generation's recorded checksums: the next open does not serve them
    (index.store.integrity) but builds afresh, and answers as a fresh build does."""
    updates_in_place(monkeypatch)
    monkeypatch.setattr(letters, "LETTER_MASKS_MIN_PAPERS", 0)
    monkeypatch.setattr(writer, "PREFIX_CAP", 4)
    monkeypatch.setattr(updates, "PREFIX_CAP", 4)
    library = file_library(tmp_path, per_file=40)
    open_engine(library, TAXONOMY, tmp_path / "cache").close()
    library = _edited(library, 0)

    def killed(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(updates, step, killed)
        with pytest.raises(KeyboardInterrupt):
            open_engine(library, TAXONOMY, tmp_path / "cache")
    updated = open_engine(library, TAXONOMY, tmp_path / "cache")
    assert updated.opened.action == "rebuilt"
    fresh = open_engine(library, TAXONOMY, tmp_path / "fresh")
    try:
        for got, want in zip(_answers(updated), _answers(fresh)):
            assert got == want, got[:2]
    finally:
        updated.close()
        fresh.close()


def test_the_saved_keys_patched_by_updates_are_a_fresh_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's layer without the library: rows, citation keys and every identity's and
    note name's papers as a fresh build saves them, round after round: patched whole when
    papers come and go, as a file of changed rows beside the saved keys when they only
    change (several rounds of it, read by a fresh open too), folded in when it grows past
    its share of the library."""
    from index.search import side_files
    from index.search.key_lookup import note_stem
    from index.search.paper_keys import CHANGES_FILE, read_saved_keys

    def saved(engine: SearchEngine) -> tuple[object, ...]:
        with engine._searcher() as searcher:
            keys = read_saved_keys(engine.opened.path, searcher.reader())
        assert keys is not None
        rows, lookup = keys.rows(), keys.lookup()
        assert rows is not None and lookup is not None
        found = {
            (identity, tuple(sorted(lookup.papers_with(identity))))
            for row in rows
            for identity in row.identities
        }
        named = {
            tuple(sorted(lookup.papers_named(note_stem(row.citation_key, row.id)))) for row in rows
        }
        return rows, keys.citation_keys(), found, named, keys.collections

    def unpatched(folder: Path) -> None:
        raise AssertionError("the keys were written whole, not patched")

    updates_in_place(monkeypatch)
    monkeypatch.setattr(side_files, "FOLD_ROWS", 20)
    library = file_library(tmp_path, per_file=40)
    open_engine(library, TAXONOMY, tmp_path / "cache").close()
    monkeypatch.setattr(updates, "saved_keys", unpatched)  # what a whole write reads
    changes = []
    for round_ in range(6):
        if round_ in (0, 1):
            library = _edited(library, round_)
        else:  # abstracts, keywords, titles' last words: base citation keys and order kept
            papers = tuple(
                replace(
                    p,
                    abstract=f"{p.abstract} wombat{round_}",
                    keywords=(f"kw{round_}",),
                    title=f"{p.title} revised{round_}" if round_ % 2 else p.title,
                )
                if n % 23 == round_ or (round_ == 4 and n % 23 == 3)
                else p
                for n, p in enumerate(library.papers)
            )
            library = replace(library, papers=papers)
            for name in library.files:
                Path(name).write_text(f"abstracts {round_}\n")
        updated = open_engine(library, TAXONOMY, tmp_path / "cache")
        fresh = open_engine(library, TAXONOMY, tmp_path / f"fresh{round_}")
        assert updated.opened.action.startswith("updated")
        changes.append((updated.opened.path / CHANGES_FILE).exists())
        try:
            assert saved(updated) == saved(fresh)
        finally:
            updated.close()
            fresh.close()
    # Whole writes, then changed rows (5-6 papers a round, some twice) until past 20 of them.
    assert changes == [False, False, True, True, True, False]
    reopened = open_engine(library, TAXONOMY, tmp_path / "cache")
    fresh = open_engine(library, TAXONOMY, tmp_path / "fresh5")
    try:
        assert reopened.opened.action == "up to date"
        assert saved(reopened) == saved(fresh)
    finally:
        reopened.close()
        fresh.close()


def test_many_updates_keep_few_segments_and_answer_as_a_fresh_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Update after update of other papers: Whoosh's policy merges the small segments
    (their live papers indexed again from the stored ones) and a segment whose papers
    were all edited again is dropped, so the segments stay few; the answers are a
    fresh build's throughout."""
    updates_in_place(monkeypatch)
    monkeypatch.setattr(letters, "LETTER_MASKS_MIN_PAPERS", 0)  # masks of many segments
    library = file_library(tmp_path, per_file=40)
    open_engine(library, TAXONOMY, tmp_path / "cache").close()
    counts = []
    for round_ in range(12):
        # Other papers each round (an eleventh of the library), then the first ones again.
        papers = tuple(
            replace(p, abstract=f"{p.abstract} round{round_}word") if n % 11 == round_ % 11 else p
            for n, p in enumerate(library.papers)
        )
        library = replace(library, papers=papers)
        for name in library.files:
            Path(name).write_text(f"round {round_}\n")
        updated = open_engine(library, TAXONOMY, tmp_path / "cache")
        assert updated.opened.action.startswith("updated"), updated.opened.action
        with updated._searcher() as searcher:
            counts.append(len(list(searcher.reader().leaf_readers())))
        updated.close()
    fresh = open_engine(library, TAXONOMY, tmp_path / "fresh")
    updated = open_engine(library, TAXONOMY, tmp_path / "cache")
    try:
        assert updated.opened.action == "up to date"
        merged = [n for n, (was, now) in enumerate(pairwise(counts)) if now < was]
        assert merged and max(counts) <= 10, counts
        for got, want in zip(_answers(updated), _answers(fresh)):
            assert got == want, got[:2]
        assert _typed(updated) == _typed(fresh)
    finally:
        updated.close()
        fresh.close()


def test_a_removed_paper_that_cannot_be_read_back_means_a_fresh_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The update counts a removed document's words out from its stored paper; one that
    does not read back (damaged) leaves the index as it was and the library is built
    afresh, never an exception to the caller."""
    updates_in_place(monkeypatch)
    library = file_library(tmp_path, per_file=40)
    open_engine(library, TAXONOMY, tmp_path / "cache").close()
    library = _edited(library, 0)

    def unreadable(*args: object) -> None:
        raise ValueError("not JSON")

    monkeypatch.setattr(updates, "stored_paper", unreadable)
    engine = open_engine(library, TAXONOMY, tmp_path / "cache")
    try:
        assert engine.opened.action == "rebuilt" and engine.size == len(library.papers)
    finally:
        engine.close()


@pytest.mark.parametrize("duplicates", [False, True])
def test_the_indexed_papers_are_found_as_a_walk_of_every_document_finds_them(
    duplicates: bool,
) -> None:
    """Each wanted paper's first live document, the gone papers' and later duplicates'
    documents to delete, and how many were gone: the quick path and the walk agree."""
    ids = [f"p{n % 40 if duplicates else n}" for n in range(60)]
    deleted = list(range(0, 60, 7))
    wanted = {f"p{n}" for n in range(5, 70)}
    indexed, doomed, removed = updates._indexed(ids, deleted, wanted)
    walked: dict[str, int] = {}
    for docnum, paper_id in enumerate(ids):
        if docnum not in deleted and paper_id in wanted:
            walked.setdefault(paper_id, docnum)
    live = [d for d in range(60) if d not in deleted]
    assert indexed == walked
    assert doomed == {d for d in live if walked.get(ids[d]) != d}
    assert removed == sum(ids[d] not in wanted for d in live)
