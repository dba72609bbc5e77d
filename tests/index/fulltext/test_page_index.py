"""The page index follows the library's attachments: added, dropped, atomic, incremental."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

from index.fulltext import FulltextSync, sync_fulltext
from index.fulltext import page_index as page_index_module
from index.fulltext.pool import ExtractionPool, Job
from index.fulltext.store import FulltextStore
from index.models import Paper
from tests.index.fulltext.pdfs import paper_pdf, scanned_pdf


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("pdfs")
    return paper_pdf(folder), scanned_pdf(folder / "scan.pdf")


def _read(cache: Path, *paths: Path) -> None:
    """What the app's extraction does: each file's text stored by content."""
    for _ in ExtractionPool(cache, workers=0).read(Job(str(path)) for path in paths):
        pass


def _units(cache: Path) -> dict[str, int]:
    """The indexed attachments (paper and path) with their page counts, from the index."""
    ix = whoosh_index.open_dir(str(page_index_module.pages_folder(cache)))
    with ix.searcher() as searcher:
        found = {}
        for stored in searcher.documents(head="1"):
            unit = page_index_module.Unit.parse(stored["unit"])
            assert unit is not None
            found[f"{unit.paper}:{Path(unit.path).name}"] = stored["pages"]
    ix.close()
    return found


def test_sync_adds_read_attachments_and_is_cheap_when_nothing_changed(
    tmp_path: Path, pdfs: tuple[Path, Path]
) -> None:
    paper, scan = pdfs
    cache = tmp_path / "cache"
    papers = [
        Paper(id="a", title="A", attachments=(str(paper),)),
        Paper(id="b", title="B", attachments=(str(scan), str(tmp_path / "missing.pdf"))),
        Paper(id="c", title="C"),
    ]
    # Nothing read yet: nothing to index.
    assert sync_fulltext(cache, papers) == FulltextSync()
    _read(cache, paper, scan)
    done = sync_fulltext(cache, papers)
    # The scan is indexed as an attachment without text; the missing file not at all.
    assert done == FulltextSync(papers=1, pages=2, attachments=2, added=2)
    assert _units(cache) == {"a:paper.pdf": 2, "b:scan.pdf": 0}
    again = sync_fulltext(cache, papers)
    assert again == FulltextSync(papers=1, pages=2, attachments=2) and not again.changed


def test_sync_drops_removed_attachments_and_changed_files_keeps_other_libraries(
    tmp_path: Path, pdfs: tuple[Path, Path]
) -> None:
    cache = tmp_path / "cache"
    mine = tmp_path / "mine.pdf"
    mine.write_bytes(pdfs[0].read_bytes())
    _read(cache, mine)
    both = [
        Paper(id="a", title="A", attachments=(str(mine),)),
        Paper(id="b", title="B", attachments=(str(mine),)),  # one file, two papers
    ]
    assert sync_fulltext(cache, both).papers == 2
    # Another library in the same cache (b is not in it): b's pages stay, counted apart.
    assert sync_fulltext(cache, both[:1]) == FulltextSync(papers=1, pages=2, attachments=1)
    assert _units(cache) == {"a:mine.pdf": 2, "b:mine.pdf": 2}
    # An attachment removed from a paper of the library: dropped.
    assert sync_fulltext(cache, [Paper(id="a", title="A")]).removed == 1
    assert _units(cache) == {"b:mine.pdf": 2}
    # The file changes: its old text is no paper's any more, until it is read again.
    mine.write_bytes(mine.read_bytes() + b"\n% appended\n")
    assert sync_fulltext(cache, both).removed == 1
    assert _units(cache) == {}
    _read(cache, mine)
    assert sync_fulltext(cache, both).added == 2


def test_a_sync_that_fails_or_is_cancelled_leaves_the_previous_state(
    tmp_path: Path, pdfs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    paper, scan = pdfs
    cache = tmp_path / "cache"
    _read(cache, paper, scan)
    first = [Paper(id="a", title="A", attachments=(str(paper),))]
    sync_fulltext(cache, first)
    more = [*first, Paper(id="b", title="B", attachments=(str(scan),))]
    assert sync_fulltext(cache, more, cancelled=lambda: True) == FulltextSync(cancelled=True)
    assert _units(cache) == {"a:paper.pdf": 2}

    def broken(*args: object) -> int:
        raise OSError("disk full")

    monkeypatch.setattr(page_index_module, "_add_unit", broken)
    with pytest.raises(OSError):
        sync_fulltext(cache, more[1:])  # would drop a, then fails adding b
    assert _units(cache) == {"a:paper.pdf": 2}
    monkeypatch.undo()
    assert sync_fulltext(cache, more).added == 1


def test_a_text_the_store_lost_is_looked_for_again(tmp_path: Path, pdfs: tuple[Path, Path]) -> None:
    cache = tmp_path / "cache"
    _read(cache, pdfs[0])
    papers = [Paper(id="a", title="A", attachments=(str(pdfs[0]),))]
    store = FulltextStore(cache)
    digest = store.known_digest(pdfs[0])
    assert digest is not None
    text = store.get(digest)
    store.forget_all_but(set())
    store.digest_known(pdfs[0], digest)
    store.save_files()
    assert sync_fulltext(cache, papers) == FulltextSync()
    assert text is not None
    store.put(digest, text)
    assert sync_fulltext(cache, papers).added == 1


def test_syncs_from_several_threads_take_turns(tmp_path: Path, pdfs: tuple[Path, Path]) -> None:
    cache = tmp_path / "cache"
    _read(cache, pdfs[0])
    papers = [Paper(id=f"p{i}", title="T", attachments=(str(pdfs[0]),)) for i in range(6)]
    results: list[FulltextSync] = []

    def run(count: int) -> None:
        results.append(sync_fulltext(cache, papers[:count]))

    threads = [threading.Thread(target=run, args=(n,)) for n in (2, 4, 6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 3
    last = sync_fulltext(cache, papers)
    assert last.attachments == 6 and last.pages == 12
    assert len(_units(cache)) == 6
