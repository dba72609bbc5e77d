"""The page index synced in a child process: the same result, and a cancel that is quick and
leaves the old index or the new one, never half of one."""

from __future__ import annotations

import fcntl
import time
from pathlib import Path

import pytest

from index.fulltext import sync_child as sync_child_module
from index.fulltext import sync_fulltext
from index.fulltext.extract import Extracted
from index.fulltext.page_index import open_page_index, pages_folder
from index.fulltext.store import FulltextStore
from index.fulltext.sync_child import SyncFailed, sync_in_child
from index.models import Paper


def _library(folder: Path, cache: Path, papers: int, pages: int) -> list[Paper]:
    """`papers` papers with one attachment each of `pages` pages, stored as if read."""
    store = FulltextStore(cache)
    out = []
    for number in range(papers):
        path = folder / f"{number}.pdf"
        path.write_bytes(f"%PDF-1.4 {number}\n".encode())
        text = tuple(
            f"paper{number} page{page} "
            + " ".join(f"w{(number * 7 + page + i) % 997}" for i in range(300))
            for page in range(pages)
        )
        store.put(store.digest(path), Extracted(pages=text))
        out.append(Paper(id=f"p{number}", title="", attachments=(str(path),)))
    store.save_files()
    return out


def _pages(cache: Path) -> int:
    ix = open_page_index(cache)
    if ix is None:
        return 0
    try:
        with ix.searcher() as searcher:
            return sum(1 for stored in searcher.all_stored_fields() if stored.get("page", -1) >= 0)
    finally:
        ix.close()


def test_child_sync_gives_what_the_sync_in_process_gives(tmp_path: Path) -> None:
    papers = _library(tmp_path, tmp_path / "cache", papers=3, pages=2)
    done = sync_in_child(tmp_path / "cache", papers)
    assert (done.papers, done.pages, done.attachments, done.added) == (3, 6, 3, 3)
    assert _pages(tmp_path / "cache") == 6
    # Nothing changed: answered from the record, without a child.
    assert sync_fulltext(tmp_path / "cache", papers) == sync_in_child(tmp_path / "cache", papers)


def test_nothing_to_do_starts_no_child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    papers = _library(tmp_path, tmp_path / "cache", papers=1, pages=1)
    sync_fulltext(tmp_path / "cache", papers)

    def no_child(*args: object, **kwargs: object) -> None:
        raise AssertionError("a child was started")

    monkeypatch.setattr(sync_child_module, "get_context", no_child)
    assert sync_in_child(tmp_path / "cache", papers).pages == 1


def _writing(cache: Path) -> bool:
    """Whether a Whoosh writer holds the page index's write lock (a sync is writing)."""
    with open(pages_folder(cache) / "MAIN_WRITELOCK", "a+") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        return False


def test_cancel_mid_sync_returns_at_once_and_keeps_the_old_index(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    old = _library(tmp_path, cache, papers=2, pages=2)
    sync_fulltext(cache, old)
    (tmp_path / "more").mkdir()
    more = old + _library(tmp_path / "more", cache, papers=30, pages=20)
    asked: list[float] = []

    def cancelled() -> bool:
        if not asked and _writing(cache):
            asked.append(time.monotonic())
        return bool(asked)  # from the moment the child is seen writing

    result = sync_in_child(cache, more, cancelled=cancelled)
    assert result.cancelled and asked
    assert time.monotonic() - asked[0] < 1.0
    # The old index, searchable, and no writer left; the next sync gives the new one.
    assert _pages(cache) == 4 and not _writing(cache)
    done = sync_in_child(cache, more)
    assert (done.pages, done.added) == (4 + 30 * 20, 30)
    assert _pages(cache) == 4 + 30 * 20


def test_a_failing_child_is_one_line(tmp_path: Path) -> None:
    papers = _library(tmp_path, tmp_path / "cache", papers=1, pages=1)
    (tmp_path / "cache" / "fulltext" / "pages-1").mkdir(parents=True)
    (tmp_path / "cache" / "fulltext" / "pages-1.lock").mkdir()  # cannot be opened
    with pytest.raises(SyncFailed, match=r"^the full-text sync failed: \w+") as error:
        sync_in_child(tmp_path / "cache", papers)
    assert "\n" not in str(error.value)
