"""Each PDF is read once (kept by content), Zotero's text used when current, in workers."""

from __future__ import annotations

import gzip
import multiprocessing
import os
import time
from pathlib import Path

import pytest

from index.fulltext import pool as pool_module
from index.fulltext.extract import Extracted
from index.fulltext.pool import ExtractionPool, Job
from index.fulltext.store import FulltextStore, file_digest
from index.fulltext.zotero_cache import CACHE_NAME, zotero_text
from tests.index.fulltext.pdfs import paper_pdf


@pytest.fixture(scope="module")
def paper(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return paper_pdf(tmp_path_factory.mktemp("paper"))


def test_the_store_keeps_texts_by_content(tmp_path: Path, paper: Path) -> None:
    store = FulltextStore(tmp_path)
    digest = store.digest(paper)
    assert digest == file_digest(paper)
    read = Extracted(pages=("one", "two"), truncated=True)
    store.put(digest, read)
    assert FulltextStore(tmp_path).get(digest) == read
    # A damaged entry is a miss, never an error.
    entry = next((tmp_path / "fulltext").glob("??/*.json.gz"))
    entry.write_bytes(gzip.compress(b"{not json"))
    assert store.get(digest) is None


def test_a_changed_file_is_hashed_again(tmp_path: Path) -> None:
    store = FulltextStore(tmp_path / "cache")
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(b"%PDF-1.4 one")
    first = store.digest(pdf)
    assert store.known_digest(pdf) == first
    pdf.write_bytes(b"%PDF-1.4 two!")
    assert store.known_digest(pdf) is None
    assert store.digest(pdf) != first


def test_forget_removes_texts_no_paper_has(tmp_path: Path) -> None:
    store = FulltextStore(tmp_path)
    store.put("a" * 64, Extracted(pages=("a",)))
    store.put("b" * 64, Extracted(pages=("b",)))
    assert store.forget_all_but({"a" * 64}) == 1
    assert store.get("a" * 64) is not None and store.get("b" * 64) is None


def _zotero_item(tmp_path: Path, paper: Path, text: str) -> Path:
    item = tmp_path / "storage" / "ABCD2345"
    item.mkdir(parents=True)
    pdf = item / "Smith - 2020 - Paging.pdf"
    pdf.write_bytes(paper.read_bytes())
    cache = item / CACHE_NAME
    cache.write_text(text, encoding="utf-8")
    later = pdf.stat().st_mtime_ns + 10**9
    os.utime(cache, ns=(later, later))
    return pdf


def test_zotero_text_is_used_when_current_with_its_pages(tmp_path: Path, paper: Path) -> None:
    pdf = _zotero_item(tmp_path, paper, "Page one text\nwrapped\fPage two\f")
    assert zotero_text(pdf) == Extracted(pages=("Page one text wrapped", "Page two"))
    # Older than the PDF: Zotero read an earlier version; the PDF is read instead.
    old = pdf.stat().st_mtime_ns - 10**9
    os.utime(pdf.parent / CACHE_NAME, ns=(old, old))
    assert zotero_text(pdf) is None


def test_zotero_text_without_page_breaks_has_no_page_numbers(tmp_path: Path, paper: Path) -> None:
    pdf = _zotero_item(tmp_path, paper, "All the text\nin one block")
    assert zotero_text(pdf) == Extracted(pages=("All the text in one block",), paged=False)


def test_each_file_is_read_once(
    tmp_path: Path, paper: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[Path] = []
    real = pool_module.extract_pdf

    def counting(path: Path) -> Extracted:
        calls.append(path)
        return real(path)

    monkeypatch.setattr(pool_module, "extract_pdf", counting)
    copy = tmp_path / "renamed copy.pdf"
    copy.write_bytes(paper.read_bytes())
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"")
    jobs = [Job(str(paper)), Job(str(copy)), Job(str(bad))]
    seen: list[tuple[int, int]] = []
    pool = ExtractionPool(tmp_path / "cache", workers=0)
    results = {job.path: read for job, _, read in pool.read(jobs, lambda d, t: seen.append((d, t)))}
    assert calls == [paper]  # the copy has the same bytes: its text came from the store
    assert results[str(copy)] == results[str(paper)]
    assert results[str(bad)].problem == "is empty (0 bytes)"
    assert seen[-1] == (3, 3)
    # A second run (a new start) reads nothing: every unchanged file is known.
    again = ExtractionPool(tmp_path / "cache", workers=0)
    assert [read for _, _, read in again.read(jobs[:2])] == [results[str(paper)]] * 2
    assert calls == [paper]


def test_zotero_items_take_zotero_text(tmp_path: Path, paper: Path) -> None:
    pdf = _zotero_item(tmp_path, paper, "Zotero's own text\fpage two")
    pool = ExtractionPool(tmp_path / "cache", workers=0)
    [(_, _, read)] = list(pool.read([Job(str(pdf), zotero=True)]))
    assert read.pages == ("Zotero's own text", "page two")


def test_a_cancelled_run_keeps_what_it_read(tmp_path: Path, paper: Path) -> None:
    copies = []
    for n in range(3):
        copy = tmp_path / f"p{n}.pdf"
        copy.write_bytes(paper.read_bytes() + b"%" * (n + 1))  # distinct contents
        copies.append(Job(str(copy)))
    pool = ExtractionPool(tmp_path / "cache", workers=0)
    read: list[tuple[Job, str | None, Extracted]] = []
    for result in pool.read(copies, cancelled=lambda: len(read) >= 1):
        read.append(result)
    assert len(read) == 1
    assert ExtractionPool(tmp_path / "cache", workers=0).cached(copies[0]) is not None
    assert ExtractionPool(tmp_path / "cache", workers=0).cached(copies[1]) is None


def test_worker_processes_read_the_same_text_and_stop_when_cancelled(
    tmp_path: Path, paper: Path
) -> None:
    """The app quits half-way: the run ends without waiting for the files being read, and
    the worker processes are gone (terminated, not left to finish)."""
    jobs = []
    for n in range(6):
        copy = tmp_path / f"w{n}.pdf"
        copy.write_bytes(paper.read_bytes() + b"%" * (n + 1))
        jobs.append(Job(str(copy)))
    pool = ExtractionPool(tmp_path / "cache", workers=2)
    results: list[tuple[Job, str | None, Extracted]] = []
    for result in pool.read(jobs, cancelled=lambda: len(results) >= 2):
        results.append(result)
    assert [read.pages[0][:9] for _, _, read in results] == ["Efficient", "Efficient"]
    assert all(digest == file_digest(Path(job.path)) for job, digest, _ in results)
    deadline = time.monotonic() + 10
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert multiprocessing.active_children() == []
