"""A PDF's text page by page, and every kind of bad file as one line, never an exception."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from index.fulltext import extract
from index.fulltext.extract import clean_page, extract_pdf
from tests.index.fulltext.pdfs import encrypted_pdf, paper_pdf, scanned_pdf


@pytest.fixture(scope="module")
def paper(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return paper_pdf(tmp_path_factory.mktemp("paper"))


def test_pages_are_numbered_and_read_in_column_order(paper: Path) -> None:
    read = extract_pdf(paper)
    assert read.problem is None and read.paged and not read.truncated
    assert len(read.pages) == 2
    first, second = read.pages
    assert first.startswith("Efficient finite-state fixtures The KV cache is paged")
    # Column one before column two, and page two's text on page two only.
    assert first.index("KV cache") < first.index("marker sentence about quokkas")
    assert second.startswith("On page two, the theorem of Pythagoras")
    assert "Pythagoras" not in first


def test_hyphenated_words_are_joined_and_ligatures_folded(paper: Path) -> None:
    text = extract_pdf(paper).pages[0]
    # Typst breaks "workflows" at a line's end; pdfium marks that hyphen as a break.
    assert "workflows" in text and "work-flows" not in text
    assert "finite-state" in text  # a real hyphen stays
    for word in ("Efficient", "Official", "offloading", "fluffy"):  # ﬃ, ﬁ, ﬄ, ﬀ ligatures
        assert word in text
    assert "\n" not in text and "  " not in text


def test_clean_page_folds_what_pdfium_gives() -> None:
    raw = "The ﬁrst work\x02\r\nflow in 𝑎\r\nline\r\n\r\nnext \x1b[31mred"
    assert clean_page(raw) == "The first workflow in a line next red"


def test_a_scan_is_reported_as_having_no_text_layer(tmp_path: Path) -> None:
    read = extract_pdf(scanned_pdf(tmp_path / "scan.pdf"))
    assert read.problem == "has no text layer (2 pages of images: a scan?)"
    assert read.pages == ("", "") and not read.has_text


def test_an_encrypted_file_says_a_password_is_needed(tmp_path: Path) -> None:
    read = extract_pdf(encrypted_pdf(tmp_path / "locked.pdf"))
    assert read.problem == "is encrypted: a password is needed to read it"
    assert read.pages == ()


def test_a_truncated_file_is_damaged_not_an_error(paper: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.pdf"
    data = paper.read_bytes()
    cut.write_bytes(data[: len(data) // 3])
    read = extract_pdf(cut)
    assert read.problem == "is damaged or truncated: pdfium cannot read it"
    assert read.pages == ()


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda p: p.write_bytes(b""), "is empty (0 bytes)"),
        (
            lambda p: p.write_text("<!DOCTYPE html><html><body>Sign in</body></html>"),
            "is not a PDF (it is a web page saved under a .pdf name)",
        ),
        (lambda p: p.write_bytes(b"PK\x03\x04 a zip file"), "is not a PDF (no PDF header)"),
        (lambda p: p.mkdir(), "is a folder, not a PDF"),
        (lambda p: None, "missing: no such file"),
    ],
)
def test_files_that_are_no_pdf_are_one_line(tmp_path: Path, make, problem: str) -> None:
    path = tmp_path / "x.pdf"
    make(path)
    assert extract_pdf(path).problem == problem


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_named_pdf_is_never_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)  # opening it to read would block until a writer came: never opened
    assert extract_pdf(fifo).problem == "is not a regular file (a pipe or a device), not read"


def test_a_huge_file_is_not_read(paper: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extract, "MAX_BYTES", 1024)
    problem = extract_pdf(paper).problem
    assert problem is not None and problem.startswith("is too large to read (")


def test_only_the_first_pages_of_a_long_file_are_read(paper: Path) -> None:
    read = extract_pdf(paper, max_pages=1)
    assert len(read.pages) == 1 and read.truncated and read.problem is None


def test_a_file_name_with_escapes_is_read_and_never_in_the_message(
    paper: Path, tmp_path: Path
) -> None:
    hostile = tmp_path / "evil\x1b]0;owned\x07.pdf"
    hostile.write_bytes(paper.read_bytes())
    assert extract_pdf(hostile).pages[0].startswith("Efficient")
    empty = tmp_path / "empty\x1b[2J.pdf"
    empty.write_bytes(b"")
    assert "\x1b" not in (extract_pdf(empty).problem or "")
