"""A build in a fresh process (index.store.child) writes the index an in-place build writes."""

from __future__ import annotations

import json
import os
import signal
import threading
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

from index.models import Paper, replace
from index.search.spelling import WORDS_FILE
from index.search.tables import TABLE_FILE
from index.store import writer as build
from index.store.child import BuildFailed, BuildProcess, build_in_child
from index.store.generations import open_index
from index.store.writer import build_into
from tests.fixtures.search.generate import TAXONOMY, make_library


def papers() -> tuple[Paper, ...]:
    """Generated papers, one with characters a byte stream could mangle."""
    generated = make_library(260).papers
    odd = replace(
        generated[0],
        title='Stärk\u2028naïve 𝔾PU "quoted"\nline',
        abstract=generated[0].abstract + " caf\u00e9 \ud800x",
    )
    return (odd, *generated[1:])


def by_paper(folder: Path) -> dict[str, list[object]]:
    """Every posting and stored value, keyed by paper id (docnums differ between builds:
    two writer processes each write a segment)."""
    ix = whoosh_index.open_dir(str(folder))
    out: dict[str, list[object]] = {}
    with ix.reader() as reader:
        ids = reader.column_reader("id")
        digests = reader.column_reader("digest")
        for docnum in reader.all_doc_ids():
            out[ids[docnum]] = [reader.stored_fields(docnum), digests[docnum]]
        for fieldname, text in reader.all_terms():
            postings = reader.postings(fieldname, text)
            while postings.is_active():
                out[ids[postings.id()]].append(
                    (fieldname, text, postings.weight(), postings.value())
                )
                postings.next()
    ix.close()
    for values in out.values():
        values[2:] = sorted(values[2:], key=repr)
    return out


def test_child_build_writes_the_same_index(tmp_path: Path) -> None:
    library = papers()
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    build_into(here, library, None)
    calls: list[tuple[int, int]] = []
    peak = build_in_child(there, library, lambda d, t: calls.append((d, t)), procs=2)
    assert peak is not None and peak["self_mb"] > 0
    assert calls[-1] == (len(library), len(library))
    assert [d for d, _ in calls] == sorted({d for d, _ in calls})
    assert by_paper(there) == by_paper(here)
    for name in (WORDS_FILE, TABLE_FILE):
        assert json.loads((there / name).read_text()) == json.loads((here / name).read_text())


def test_large_libraries_build_in_a_child_and_report_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build, "PARALLEL_MIN_PAPERS", 50)
    opened = open_index(make_library(120), TAXONOMY, tmp_path)
    assert opened.action == "built" and opened.doc_count == 120
    assert opened.build_peak_mb is not None and opened.build_peak_mb > 0
    opened.index.close()


def test_a_failed_child_build_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(BuildFailed) as error:
        build_in_child(tmp_path / "missing" / "folder", papers()[:5], None, procs=1)
    assert "\n" not in str(error.value) and "exit 1" in str(error.value)


def test_a_process_started_ahead_builds_the_same_index(tmp_path: Path) -> None:
    """The early sample's build process is started while the files are read."""
    library = papers()[:40]
    ahead, fresh = tmp_path / "ahead", tmp_path / "fresh"
    ahead.mkdir()
    fresh.mkdir()
    process = BuildProcess()
    assert not process.encoded.is_set()
    process.build(ahead, library, None, 1, compressed=False)
    assert process.encoded.is_set()
    build_in_child(fresh, library, None, 1, compressed=False)
    assert by_paper(ahead) == by_paper(fresh)
    with pytest.raises(BuildFailed, match="used or closed already"):
        process.build(tmp_path, library, None, 1)


def test_a_process_never_given_a_build_ends_quietly(tmp_path: Path) -> None:
    """A load that gave no sample after all closes the process it started for one."""
    process = BuildProcess()
    process.close()
    assert process._child.returncode == 0
    assert process.encoded.is_set()  # nobody waits for a sample that never comes
    process.close()  # twice is harmless


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs POSIX job control")
def test_a_small_build_is_encoded_before_the_child_reads_it(tmp_path: Path) -> None:
    """The load waits for that (tui.first_start), not for the child's pace: here the child
    is stopped, so only what fits in the pipe is read before it goes on."""
    library = make_library(400).papers  # ~0.2 MB pickled: more than a pipe holds
    process = BuildProcess()
    (tmp_path / "index").mkdir()
    os.kill(process._child.pid, signal.SIGSTOP)
    try:
        building = threading.Thread(
            target=process.build, args=(tmp_path / "index", library, None, 1), daemon=True
        )
        building.start()
        assert process.encoded.wait(10)
        assert building.is_alive()  # the child has not read it all
    finally:
        os.kill(process._child.pid, signal.SIGCONT)
    building.join(60)
    assert not building.is_alive()
    assert whoosh_index.open_dir(str(tmp_path / "index")).doc_count() == len(library)
