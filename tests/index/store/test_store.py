"""The index's life on disk: rebuilt exactly when its inputs change, never served broken."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from index import open_engine
from index.models import Library, Paper, SearchRequest, Source, replace
from index.search.engine import SearchEngine
from index.store import generations as store
from index.store import locks, manifest, updates
from index.store import writer as build
from index.store.generations import IndexUnavailable, library_dir, open_index
from tests.fixtures.search.generate import TAXONOMY, make_library


def file_library(folder: Path, per_file: int = 20, files: int = 3, marker: str = "") -> Library:
    """A library whose papers name real files, as loaded libraries do."""
    papers: list[Paper] = []
    names = []
    generated = make_library(per_file * files, files=files).papers
    for n in range(files):
        path = folder / f"source{n}.txt"
        if not path.exists():
            path.write_text(f"file {n}\n", encoding="utf-8")
        names.append(str(path))
    for i, paper in enumerate(generated):
        source = Path(names[i % files])
        abstract = paper.abstract + (f" {marker}" if marker and i % files == 0 else "")
        papers.append(replace(paper, abstract=abstract, sources=(Source(source.name, line=i),)))
    return Library(papers=tuple(papers), files=tuple(names))


def updates_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small test libraries are updated in place, as a large one would be."""
    monkeypatch.setattr(store, "INCREMENTAL_MIN_PAPERS", 10)
    monkeypatch.setattr(updates, "INCREMENTAL_MAX_SHARE", 0.5)


def indexed_for_updates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, per_file: int = 20
) -> tuple[Library, Path]:
    """A library of three files, indexed in the returned cache folder; the next open of
    a changed library updates that index in place."""
    updates_in_place(monkeypatch)
    library = file_library(tmp_path, per_file=per_file)
    open_engine(library, TAXONOMY, tmp_path / "cache").close()
    return library, tmp_path / "cache"


def one_file_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, marker: str
) -> tuple[Library, Path]:
    """An index of three files built in the returned cache folder, and the library with
    one file edited (`marker` added to its papers): opening it updates in place."""
    _, cache = indexed_for_updates(tmp_path, monkeypatch, per_file=40)
    changed = file_library(tmp_path, per_file=40, marker=marker)
    Path(changed.files[0]).write_text("changed\n", encoding="utf-8")
    return changed, cache


def updated_exactly_the_marked(
    engine: SearchEngine, library: Library, marker: str, removed: str = ""
) -> None:
    """The open rewrote only the papers holding `marker` (and removed what `removed`
    says), and a search finds just them."""
    marked = {p.id for p in library.papers if marker in p.abstract}
    assert len(marked) > 1
    assert engine.opened.action == f"updated {len(marked)} papers{removed}"
    result = engine.search(SearchRequest(marker, limit=100))
    assert {h.paper.id for h in result.hits} == marked


def test_built_once_then_reused(tmp_path: Path) -> None:
    library = make_library(40)
    first = open_index(library, TAXONOMY, tmp_path)
    assert first.action == "built" and first.doc_count == 40
    first.index.close()
    again = open_index(library, TAXONOMY, tmp_path)
    assert again.action == "up to date" and again.path == first.path
    again.index.close()
    forced = open_index(library, TAXONOMY, tmp_path, rebuild=True)
    assert forced.action == "rebuilt" and forced.path != first.path
    forced.index.close()


@pytest.mark.parametrize("large", [False, True])
def test_a_large_index_is_read_from_its_files_not_copied_into_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, large: bool
) -> None:
    from whoosh.filedb.structfile import BufferFile

    if large:
        monkeypatch.setattr(store, "MMAP_UP_TO_BYTES", 1000)  # this index is larger
    engine = open_engine(make_library(40), TAXONOMY, tmp_path)
    assert engine.opened.index.storage.supports_mmap is not large  # a small one is mapped
    if large:  # and then Whoosh never copies a segment file into memory
        with engine._searcher() as searcher:
            for leaf, _ in searcher.reader().leaf_readers():
                storage = leaf._storage  # the segment's compound file
                assert not isinstance(storage.open_file(next(iter(storage.list()))), BufferFile)
    assert engine.search(SearchRequest("model")).total
    engine.close()


def test_touching_a_source_rebuilds_and_nothing_else_does(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    library = file_library(tmp_path)
    assert open_index(library, TAXONOMY, cache).action == "built"
    assert open_index(library, TAXONOMY, cache).action == "up to date"
    os.utime(library.files[1], ns=(1, 1))  # a different mtime, same content
    assert open_index(library, TAXONOMY, cache).action == "rebuilt"
    assert open_index(library, TAXONOMY, cache).action == "up to date"


def test_taxonomy_and_schema_changes_rebuild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = make_library(30)
    assert open_index(library, TAXONOMY, tmp_path).action == "built"
    other = replace(TAXONOMY, topics=TAXONOMY.topics[:2])
    assert open_index(library, other, tmp_path).action == "rebuilt"
    monkeypatch.setattr(manifest, "SCHEMA_VERSION", manifest.SCHEMA_VERSION + 1)
    assert open_index(library, other, tmp_path).action == "rebuilt"


def test_a_killed_build_leaves_the_old_index_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = make_library(30)
    open_engine(old, TAXONOMY, tmp_path).close()
    new = make_library(31, seed=9)

    def crash(*args: object, **kwargs: object) -> dict[str, object]:
        raise KeyboardInterrupt  # the process dies half-way through the build

    real = build.document
    monkeypatch.setattr(build, "document", crash)
    with pytest.raises(KeyboardInterrupt):
        open_index(new, TAXONOMY, tmp_path)
    monkeypatch.setattr(build, "document", real)
    assert list(library_dir(tmp_path, new).glob("build-*"))  # the half-built leftovers
    engine = open_engine(old, TAXONOMY, tmp_path)
    assert engine.opened.action == "up to date"
    assert engine.search(SearchRequest("")).total == 30
    engine.close()
    engine = open_engine(new, TAXONOMY, tmp_path)  # builds, clearing the leftovers
    assert engine.size == 31 and not list(library_dir(tmp_path, new).glob("build-*"))
    engine.close()


def test_a_corrupt_index_is_detected_and_rebuilt(tmp_path: Path) -> None:
    library = make_library(30)
    opened = open_index(library, TAXONOMY, tmp_path)
    opened.index.close()
    for segment in opened.path.glob("*.seg"):
        segment.write_bytes(b"garbage")
    for toc in opened.path.glob("*.toc"):
        toc.write_bytes(toc.read_bytes()[:10])
    engine = open_engine(library, TAXONOMY, tmp_path)
    assert engine.opened.action == "rebuilt"
    assert engine.search(SearchRequest("")).total == 30
    engine.close()


def test_changed_files_are_reindexed_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, cache = indexed_for_updates(tmp_path, monkeypatch)
    changed = file_library(tmp_path, marker="wombatmarker")
    # One file gains a marker word in its papers and loses one paper.
    dropped = changed.papers[0].id
    changed = replace(changed, papers=changed.papers[1:])
    Path(changed.files[0]).write_text("changed\n", encoding="utf-8")
    engine = open_engine(changed, TAXONOMY, cache)
    updated_exactly_the_marked(engine, changed, "wombatmarker", ", removed 1 paper")
    assert engine.paper(dropped) is None
    assert engine.size == len(changed.papers)
    engine.close()
    assert open_index(changed, TAXONOMY, cache).action == "up to date"


def test_an_update_that_only_removes_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library, cache = indexed_for_updates(tmp_path, monkeypatch)
    fewer = replace(library, papers=library.papers[3:])
    Path(fewer.files[0]).write_text("changed\n", encoding="utf-8")
    engine = open_engine(fewer, TAXONOMY, cache)
    assert engine.opened.action == "removed 3 papers"
    assert engine.size == len(library.papers) - 3
    engine.close()


def test_an_in_place_update_leaves_first_keystroke_masks_to_the_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The update neither parses the short prefixes nor reads a posting for their masks:
    the file stays as the build wrote it, and the engine completes each mask for the
    update's segment the first time a search asks for it, reading that segment only."""
    from index.search import letter_masks
    from index.search import prefixes as letters
    from index.search.letter_masks import LetterMasks

    monkeypatch.setattr(letters, "LETTER_MASKS_MIN_PAPERS", 0)  # stored as for a large library
    changed, cache = one_file_changed(tmp_path, monkeypatch, "wombatmarker")
    (folder,) = (path for path in cache.glob("library-*/gen-*") if path.is_dir())
    written = (folder / letters.LETTERS_FILE).read_bytes()
    computed: list[int] = []
    real_union, real_terms = letters.union_mask, letter_masks._terms_mask

    def counted_union(reader: Any, node: Any, stored: Any = None) -> int | None:
        computed.append(reader.doc_count_all())
        return real_union(reader, node, stored)

    def counted_terms(leaf: Any, terms: Any) -> int:
        computed.append(leaf.doc_count_all())
        return real_terms(leaf, terms)

    monkeypatch.setattr(letters, "union_mask", counted_union)
    monkeypatch.setattr(letter_masks, "_terms_mask", counted_terms)
    engine = open_engine(changed, TAXONOMY, cache)
    assert engine.opened.action.startswith("updated")
    assert engine.opened.path == folder and not computed
    assert (folder / letters.LETTERS_FILE).read_bytes() == written
    with engine._searcher() as searcher:
        segments = [leaf.doc_count_all() for leaf, _ in searcher.reader().leaf_readers()]
    assert len(segments) == 2 and engine._matching.letters  # the old segment plus the update's
    requests = [SearchRequest(p, as_you_type=True) for p in ("m", "t", "w", "c", "mo")]

    def answers() -> list[tuple[object, ...]]:
        engine._results.clear()
        engine._matching.cache.clear()
        return [
            (r.total, [h.paper.id for h in r.hits], sorted(r.facets.items()))
            for r in map(engine.search, requests)
        ]

    stored = answers()
    # Completed on first use, the update's segment alone; once per prefix; through the
    # searcher the search holds (no second one opened).
    assert computed and set(computed) == {min(segments)}
    assert len(engine._searchers.pool) == 1
    served = engine._matching.letters
    assert isinstance(served, LetterMasks)
    assert answers() == stored and len(computed) == len(served._done)
    engine._matching.letters = {}
    assert answers() == stored  # what computing the match sets afresh gives
    engine.close()


def test_an_in_place_update_keeps_the_old_segments_long_lists_and_adds_the_new_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from index.search import stored_postings

    monkeypatch.setattr(stored_postings, "MIN_POSTINGS", 10)  # long lists, as in a big library
    changed, cache = one_file_changed(tmp_path, monkeypatch, "wombatmarker")
    read: list[int] = []
    real_read = stored_postings._read

    def counted_read(leaf: Any) -> Any:
        read.append(leaf.doc_count_all())
        return real_read(leaf)

    monkeypatch.setattr(stored_postings, "_read", counted_read)
    engine = open_engine(changed, TAXONOMY, cache)
    assert engine.opened.action.startswith("updated")
    with engine._searcher() as searcher:
        segments = [leaf.doc_count_all() for leaf, _ in searcher.reader().leaf_readers()]
    assert len(segments) == 2 and read == [min(segments)]  # the old segment was copied
    assert len(engine._postings._segments) == 2
    assert all(engine._postings._segments.values())
    kept, lists = _fresh_answers(engine), engine._postings
    engine._postings = engine._term_scores.stored = stored_postings.StoredPostings()
    assert _fresh_answers(engine) == kept and kept[1][0] == 40
    engine.close()
    lists.close()


def test_a_small_library_stores_no_masks_until_an_update_takes_it_past_the_threshold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from index.search import prefixes as letters

    monkeypatch.setattr(letters, "LETTER_MASKS_MIN_PAPERS", 1000)
    library, cache = indexed_for_updates(tmp_path, monkeypatch, per_file=40)
    engine = open_engine(library, TAXONOMY, cache)
    assert engine.opened.action == "up to date" and engine._matching.letters == {}
    engine.close()
    changed = file_library(tmp_path, per_file=40, marker="wombatmarker")
    Path(changed.files[0]).write_text("changed\n", encoding="utf-8")
    monkeypatch.setattr(letters, "LETTER_MASKS_MIN_PAPERS", 100)  # 120 papers are past it
    engine = open_engine(changed, TAXONOMY, cache)
    assert engine.opened.action.startswith("updated")
    with engine._searcher() as searcher:
        assert len(list(searcher.reader().leaf_readers())) == 2
    # Both segments got masks (the old one had none to keep): the same prefixes as a
    # fresh build of the changed library stores.
    fresh = open_engine(changed, TAXONOMY, tmp_path / "fresh")
    assert fresh._matching.letters and set(engine._matching.letters) == set(fresh._matching.letters)
    fresh.close()
    requests = [SearchRequest(p, as_you_type=True) for p in ("m", "t", "w", "c", "mo")]

    def answers() -> list[tuple[object, ...]]:
        engine._results.clear()
        engine._matching.cache.clear()
        return [(r.total, [h.paper.id for h in r.hits]) for r in map(engine.search, requests)]

    looked_up = answers()
    engine._matching.letters = {}
    assert answers() == looked_up
    engine.close()


def test_a_second_process_serves_the_old_index_while_one_builds(tmp_path: Path) -> None:
    library = make_library(30)
    open_index(library, TAXONOMY, tmp_path).index.close()
    newer = make_library(32, seed=11)
    folder = library_dir(tmp_path, newer)
    folder_old = library_dir(tmp_path, library)
    assert folder != folder_old  # different content, different folder
    # Same folder, stale manifest: simulate by holding the lock while the files change.
    grown = Library(papers=library.papers, files=())
    holding = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with locks.build_lock(folder_old, wait=True):
            holding.set()
            release.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    holding.wait(10)
    try:
        stale = open_index(grown, replace(TAXONOMY, topics=()), tmp_path)
        assert stale.action == "stale (being rebuilt)" and stale.doc_count == 30
        stale.index.close()
    finally:
        release.set()
        thread.join()


def test_unwritable_cache_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(IndexUnavailable) as error:
        open_index(make_library(3), TAXONOMY, blocker / "cache")
    assert "\n" not in str(error.value)


def test_whoosh_lock_error_never_reaches_the_caller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "INCREMENTAL_MIN_PAPERS", 10)
    cache = tmp_path / "cache"
    library = file_library(tmp_path)
    opened = open_index(library, TAXONOMY, cache)
    writer = opened.index.writer()  # another writer holds Whoosh's lock
    try:
        os.utime(library.files[0], ns=(5, 5))
        again = open_index(library, TAXONOMY, cache)
        assert again.action == "rebuilt" and again.doc_count == len(library.papers)
        again.index.close()
    finally:
        writer.cancel()


def test_progress_counts_up_and_ends_complete(tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    open_index(make_library(250), TAXONOMY, tmp_path, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (250, 250)
    assert [d for d, _ in calls] == sorted({d for d, _ in calls})
    assert all(total == 250 for _, total in calls)


def test_the_full_count_comes_before_the_index_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(total, total) says every paper is in; the commit that follows is reported as such
    by the app and the CLI ("Writing the index"), not as a count stuck at 99%."""
    from whoosh.writing import SegmentWriter

    calls: list[tuple[int, int]] = []
    at_commit: list[list[tuple[int, int]]] = []
    real_commit = SegmentWriter.commit

    def commit(self: SegmentWriter, *args: Any, **kwargs: Any) -> Any:
        at_commit.append(list(calls))
        return real_commit(self, *args, **kwargs)

    monkeypatch.setattr(SegmentWriter, "commit", commit)
    open_index(make_library(250), TAXONOMY, tmp_path, progress=lambda d, t: calls.append((d, t)))
    assert at_commit and at_commit[0][-1] == (250, 250)
    assert calls == at_commit[0]  # nothing after: the build's return says it is done


def test_a_wildcard_finds_a_word_an_in_place_update_added(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wildcard whose start has few completions walks the lexicon, which has the update's
    words."""
    changed, cache = one_file_changed(tmp_path, monkeypatch, "quokkaberry")
    engine = open_engine(changed, TAXONOMY, cache)
    assert engine.opened.action.startswith("updated")
    result = engine.search(SearchRequest("q*k*b*"))
    assert result.total == 40 and not result.partial
    engine.close()


def test_a_prefix_of_a_word_an_in_place_update_added_finds_it_as_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One- and two-letter prefixes answer from the build-time table: the update adds its
    words to it, so typing `zy` finds the paper whose `zyzzyvaquill` just arrived, as a
    fresh build would, and the next open is still up to date."""
    changed, cache = one_file_changed(tmp_path, monkeypatch, "zyzzyvaquill")
    engine = open_engine(changed, TAXONOMY, cache)
    assert engine.opened.action.startswith("updated")
    marked = {p.id for p in changed.papers if "zyzzyvaquill" in p.abstract}
    for typed in ("zy", "z", "zyzzyvaq"):
        result = engine.search(SearchRequest(typed, as_you_type=True, limit=100))
        assert marked <= {h.paper.id for h in result.hits}, typed
    engine.close()
    fresh = open_engine(changed, TAXONOMY, tmp_path / "fresh")
    updated = open_engine(changed, TAXONOMY, cache)
    assert updated.opened.action == "up to date"
    for typed in ("zy", "z"):
        request = SearchRequest(typed, as_you_type=True, limit=100)
        want, got = fresh.search(request), updated.search(request)
        assert (got.total, {h.paper.id for h in got.hits}) == (
            want.total,
            {h.paper.id for h in want.hits},
        ), typed
    fresh.close()
    updated.close()


def test_new_loader_code_rechecks_every_paper_and_is_never_served_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same files, other loader code (an upgrade): the papers it reads may differ."""
    library, cache = indexed_for_updates(tmp_path, monkeypatch)
    assert store.open_if_current(library.files, TAXONOMY, cache) is not None
    monkeypatch.setattr(manifest, "code_fingerprint", lambda: "the next release")
    assert store.open_if_current(library.files, TAXONOMY, cache) is None
    # The new code reads a marker into one file's papers; no file changed on disk.
    reread = file_library(tmp_path, marker="wombatmarker")
    engine = open_engine(reread, TAXONOMY, cache)
    updated_exactly_the_marked(engine, reread, "wombatmarker")
    engine.close()
    opened = store.open_if_current(reread.files, TAXONOMY, cache)
    assert opened is not None
    opened.index.close()


def test_a_library_free_open_gives_the_load_problems_recorded_at_build(tmp_path: Path) -> None:
    from index.models import LoadWarning

    problems = (LoadWarning("refs.bib", "malformed entry skipped", 8), LoadWarning("a.ris", "x"))
    library = replace(file_library(tmp_path), warnings=problems)
    open_engine(library, TAXONOMY, tmp_path / "cache").close()
    opened = store.open_if_current(library.files, TAXONOMY, tmp_path / "cache")
    assert opened is not None
    assert opened.warnings == problems
    opened.index.close()


def test_a_file_saved_with_no_paper_changed_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library, cache = indexed_for_updates(tmp_path, monkeypatch)
    Path(library.files[1]).write_text("saved again\n", encoding="utf-8")
    engine = open_engine(library, TAXONOMY, cache)
    assert engine.opened.action == "no paper changed"  # it said "updated 0 papers"
    assert engine.size == len(library.papers)
    engine.close()


def test_saved_citation_keys_follow_an_in_place_update(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A paper added in place whose key collides with an indexed one: both get suffixes,
    as `citation_keys` gives them over the loaded library."""
    from index.citations import citation_keys
    from index.citations.keys import base_key

    library, cache = indexed_for_updates(tmp_path, monkeypatch)
    first = library.papers[0]
    twin = replace(first, id=first.id + "-twin", abstract=first.abstract + " wombatmarker")
    assert base_key(twin) == base_key(first)
    grown = replace(library, papers=(*library.papers, twin))
    Path(grown.files[0]).write_text("changed\n", encoding="utf-8")
    engine = open_engine(grown, TAXONOMY, cache)
    assert engine.opened.action == "updated 1 paper"
    engine.close()
    opened = store.open_if_current(grown.files, TAXONOMY, cache)
    assert opened is not None
    stored = SearchEngine(opened, None, TAXONOMY)
    expected = citation_keys(grown.papers)
    assert stored.saved_citation_keys() == expected
    assert expected[twin.id] != expected[first.id]
    stored.close()


def test_an_update_of_only_small_segments_leaves_the_long_lists_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The update's segment is too small to hold a long list: the file is not rewritten
    (nor hashed again), and the new segment's postings come from Whoosh, the same answers."""
    from index.search import stored_postings

    monkeypatch.setattr(stored_postings, "MIN_POSTINGS", 50)  # the 120-paper segment's lists
    changed, cache = one_file_changed(tmp_path, monkeypatch, "wombatmarker")
    folder = library_dir(cache, changed)
    (path,) = folder.glob(f"gen-*/{stored_postings.POSTINGS_FILE}")
    before = path.stat().st_mtime_ns, path.read_bytes()
    engine = open_engine(changed, TAXONOMY, cache)
    assert engine.opened.action.startswith("updated")
    assert (path.stat().st_mtime_ns, path.read_bytes()) == before
    kept, lists = _fresh_answers(engine), engine._postings
    assert lists  # the old segment's lists are read from the file
    engine._postings = engine._term_scores.stored = stored_postings.StoredPostings()
    assert _fresh_answers(engine) == kept and kept[1][0] == 40
    engine.close()
    lists.close()


def _fresh_answers(engine: Any) -> list[tuple[object, ...]]:
    """Three searches' totals and ranked (id, score) pairs, the engine's caches emptied
    first: what the stored posting lists must leave unchanged."""
    out: list[tuple[object, ...]] = []
    for query in ("model", "wombatmarker", "cache training"):
        engine.forget_cached()
        result = engine.search(SearchRequest(query))
        out.append((result.total, [(h.paper.id, h.score) for h in result.hits]))
    return out
