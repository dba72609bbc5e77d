"""The background reading of attached PDFs: what it reads, what it says, what it forgets."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from index.facets.taxonomy import load_taxonomy
from index.fulltext.store import FulltextStore
from index.fulltext.zotero_cache import CACHE_NAME
from index.library.load import load_library
from index.models import Library, Paper, Source
from tests.fixtures.zotero import ZoteroFixture
from tests.index.fulltext.pdfs import encrypted_pdf, paper_pdf, scanned_pdf
from tui.services.fulltext import FulltextReading, attachment_jobs, described


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return paper_pdf(tmp_path_factory.mktemp("paper"))


class Syncs:
    """A stand-in for the search side's sync: records the papers each call was given."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(
        self, cache_dir: Path, papers: Sequence[Paper], cancelled: Callable[[], bool]
    ) -> bool:
        self.calls.append([paper.id for paper in papers])
        return True


def paper(pid: str, *files: Path | str, source: str = "refs.bib") -> Paper:
    return Paper(id=pid, title=pid, attachments=tuple(map(str, files)), sources=(Source(source),))


def test_a_library_is_read_with_progress_problems_and_syncs(tmp_path: Path, pdf: Path) -> None:
    scan = scanned_pdf(tmp_path / "scan.pdf")
    locked = encrypted_pdf(tmp_path / "locked.pdf")
    web = tmp_path / "saved.pdf"
    web.write_text("<!DOCTYPE html><html>Sign in</html>")
    library = [
        paper("a", pdf, tmp_path / "notes.html"),  # only PDFs are read
        paper("b", scan, tmp_path / "missing.pdf"),  # a missing file is no problem here
        paper("c", locked, web),
        paper("d", pdf),  # shared with "a": read once
    ]
    syncs, seen = Syncs(), []
    reading = FulltextReading(tmp_path / "cache", workers=0, sync=syncs)
    summary = reading.run(library, lambda done, total: seen.append((done, total)))
    assert (summary.read, summary.stored, summary.problems) == (3, 0, 3)
    assert seen[0] == (0, 3) and seen[-1] == (3, 3)  # the web page said without a worker
    assert syncs.calls == [["a", "b", "c", "d"]]  # the whole library, once at the end
    assert [str(line) for line in reading.problems] == [
        f"{web}: attachment is not a PDF (it is a web page saved under a .pdf name); "
        "its text is not searchable",
        f"{scan}: attachment has no text layer (2 pages of images: a scan?); "
        "its text is not searchable",
        f"{locked}: attachment is encrypted: a password is needed to read it; "
        "its text is not searchable",
    ]
    assert described(summary) == "3 PDFs read now, 0 before (2 pages of text); 3 with a problem"
    # The texts are kept by content: a new session finds them stored, reads nothing.
    again, seen = FulltextReading(tmp_path / "cache", workers=0, sync=syncs), []
    summary = again.run(library, lambda done, total: seen.append((done, total)))
    assert (summary.read, summary.stored, seen) == (0, 3, [])
    assert len(again.problems) == 3


def test_a_reload_reads_only_what_changed_and_forgets_the_detached(
    tmp_path: Path, pdf: Path
) -> None:
    first, second = tmp_path / "one.pdf", tmp_path / "two.pdf"
    first.write_bytes(pdf.read_bytes())
    second.write_bytes(b"")  # empty: a problem, until it is written
    syncs = Syncs()
    reading = FulltextReading(tmp_path / "cache", workers=0, sync=syncs)
    reading.run([paper("a", first), paper("b", second)])
    assert [line.path for line in reading.problems] == [str(second)]
    # Nothing changed: nothing read, and the searchable text is already that.
    assert reading.run([paper("a", first), paper("b", second)]).read == 0
    second.write_bytes(pdf.read_bytes() + b"\n% edited\n")
    summary = reading.run([paper("a", first), paper("b", second)])
    assert (summary.read, reading.problems) == (1, ())
    # Detached: no longer among the papers' files; the sync is given the library without it.
    second.write_bytes(b"")
    reading.run([paper("a", first), paper("b", second)])
    assert reading.problems
    summary = reading.run([paper("a", first), paper("b")])
    assert (summary.read, reading.problems) == (0, ())
    assert syncs.calls[-1] == ["a", "b"]


def test_a_library_without_pdfs_costs_no_sync(tmp_path: Path) -> None:
    syncs = Syncs()
    summary = FulltextReading(tmp_path, workers=0, sync=syncs).run([paper("a")])
    assert (summary.read, syncs.calls) == (0, [])


def test_a_cancelled_run_stops_and_keeps_what_it_read(tmp_path: Path, pdf: Path) -> None:
    files = []
    for n in range(3):
        files.append(tmp_path / f"p{n}.pdf")
        files[-1].write_bytes(pdf.read_bytes() + f"\n% {n}\n".encode())
    progress: list[int] = []
    syncs = Syncs()
    reading = FulltextReading(tmp_path / "cache", workers=0, sync=syncs)
    summary = reading.run(
        [paper("a", *files)], lambda done, total: progress.append(done), lambda: progress[-1] >= 1
    )
    assert summary.cancelled and summary.read == 1 and syncs.calls == []
    store = FulltextStore(tmp_path / "cache")
    assert sum(store.known_digest(path) is not None for path in files) == 1  # kept
    assert reading.run([paper("a", *files)]).read == 2  # the rest, next time


def test_batches_sync_as_the_reading_goes(tmp_path: Path, pdf: Path) -> None:
    files = []
    for n in range(3):
        files.append(tmp_path / f"p{n}.pdf")
        files[-1].write_bytes(pdf.read_bytes() + f"\n% {n}\n".encode())
    syncs, synced = Syncs(), []
    reading = FulltextReading(tmp_path / "cache", workers=0, sync=syncs)
    reading.batch_files = 2
    reading.run([paper("a", *files)], synced=lambda: synced.append(1))
    assert len(syncs.calls) == 2 and len(synced) == 2  # after two files, and at the end


def test_zotero_items_use_zoteros_text_cache(tmp_path: Path, pdf: Path) -> None:
    z = ZoteroFixture(tmp_path / "Zotero")
    item = z.item("journalArticle", {"title": "Paging", "citationKey": "paging"})
    z.attachment(item, "storage:paging.pdf", key="ABCD2345")
    z.close()
    stored = tmp_path / "Zotero" / "storage" / "ABCD2345" / "paging.pdf"
    stored.write_bytes(pdf.read_bytes())
    cache = stored.parent / CACHE_NAME
    cache.write_text("Zotero read this page\fand this one about wombats\f", encoding="utf-8")
    later = stored.stat().st_mtime_ns + 10**9
    os.utime(cache, ns=(later, later))
    library = load_library([tmp_path / "Zotero"], load_taxonomy())
    jobs = attachment_jobs(library.papers)
    assert [(job.path, job.zotero) for job in jobs.values()] == [(str(stored), True)]
    assert attachment_jobs([paper("b", stored)])[str(stored)].zotero  # a .bib pointing there
    assert not attachment_jobs([paper("c", pdf)])[str(pdf)].zotero
    FulltextReading(tmp_path / "cache", workers=0, sync=Syncs()).run(library.papers)
    store = FulltextStore(tmp_path / "cache")
    digest = store.known_digest(stored)
    assert digest is not None
    text = store.get(digest)
    assert text is not None and text.pages == (
        "Zotero read this page",
        "and this one about wombats",
    )


def test_a_start_on_the_index_alone_decodes_its_papers_once_per_version(tmp_path: Path) -> None:
    from index import open_engine
    from tui.services.fulltext_papers import attached_papers

    taxonomy = load_taxonomy()
    library = Library(
        papers=(paper("a", tmp_path / "a.pdf", source="zotero.sqlite"), paper("b")),
        files=(),
    )
    decoded: list[int] = []

    def decode() -> tuple[Paper, ...]:
        decoded.append(1)
        return library.papers

    engine = open_engine(library, taxonomy, tmp_path / "cache")
    try:
        first = attached_papers(engine, tmp_path / "cache", decode)
        again = attached_papers(engine, tmp_path / "cache", decode)
    finally:
        engine.close()
    assert decoded == [1]  # the second start read the record
    # Those with PDFs, then the rest by id alone: a sync drops what a paper given no
    # longer has, so one whose PDF was detached must be given too.
    pdf_a = str(tmp_path / "a.pdf")
    assert [(p.id, p.attachments) for p in again] == [("a", (pdf_a,)), ("b", ())]
    assert attachment_jobs(again)[str(tmp_path / "a.pdf")].zotero  # still Zotero's
    assert [p.id for p in first] == ["a", "b"]
    grown = Library(papers=(*library.papers, paper("c", tmp_path / "c.pdf")))
    library = grown
    engine = open_engine(grown, taxonomy, tmp_path / "cache")
    try:
        found = attached_papers(engine, tmp_path / "cache", decode)
        assert [p.id for p in found] == ["a", "c", "b"]
    finally:
        engine.close()
    assert decoded == [1, 1]  # another index: decoded again
    # A session that loaded the library records it for the next start on that index.
    shrunk = Library(papers=library.papers[:1])
    engine = open_engine(shrunk, taxonomy, tmp_path / "cache")
    try:
        assert attached_papers(engine, tmp_path / "cache", decode, shrunk.papers) == shrunk.papers
        assert [p.id for p in attached_papers(engine, tmp_path / "cache", decode)] == ["a"]
    finally:
        engine.close()
    assert decoded == [1, 1]


@pytest.mark.parametrize(("workers", "in_child"), [(None, True), (2, True), (0, False)])
def test_the_app_syncs_in_a_child_unless_it_reads_in_its_own_thread(
    tmp_path: Path, workers: int | None, in_child: bool
) -> None:
    from types import SimpleNamespace

    from tui.fulltext_host import FulltextHost
    from tui.services.fulltext import sync_in_background, sync_searchable

    app = SimpleNamespace(
        config=SimpleNamespace(fulltext=True),
        settings=SimpleNamespace(cache_dir=tmp_path),
        fulltext_workers=workers,
        _fulltext=None,
        read_attachments=lambda: None,
    )
    FulltextHost.start_fulltext(app)  # type: ignore[arg-type]
    assert app._fulltext.sync is (sync_in_background if in_child else sync_searchable)


def test_the_background_sync_says_whether_the_text_changed(tmp_path: Path, pdf: Path) -> None:
    from tui.services.fulltext import sync_in_background

    reading = FulltextReading(tmp_path / "cache", workers=0, sync=sync_in_background)
    summary = reading.run([paper("a", pdf)])
    assert summary.synced and summary.pages == 2
    again = FulltextReading(tmp_path / "cache", workers=0, sync=sync_in_background)
    assert not again.run([paper("a", pdf)]).synced  # nothing changed: no child started


def test_a_failed_sync_is_one_line_and_the_next_one_clears_it(tmp_path: Path, pdf: Path) -> None:
    """A sync whose process died (or could not start) is said in Load problems; the text
    read stays stored, and a later sync that works takes the line away."""
    from index.fulltext.sync_child import SyncFailed

    failing = [True]

    def sync(cache: Path, papers: Sequence[Paper], cancelled: Callable[[], bool]) -> bool:
        if failing[0]:
            raise SyncFailed("the full-text sync process died (exit -9)")
        return True

    reading = FulltextReading(tmp_path / "cache", workers=0, sync=sync)
    summary = reading.run([paper("a", pdf)])
    assert not summary.synced and summary.read == 1
    assert [str(line) for line in reading.problems] == [
        f"{tmp_path / 'cache' / 'fulltext'}: the full-text sync process died (exit -9); "
        "the PDFs read are not searchable yet"
    ]
    failing[0] = False
    assert reading.run([paper("a", pdf)]).synced
    assert reading.problems == ()
