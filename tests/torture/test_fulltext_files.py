"""Attached PDFs that cannot be read never stop the reading: one line each, named literally.

Encrypted, damaged, cut short, empty, past the size limit, a web page or a pipe saved
under a `.pdf` name, a scan without a text layer, and a file whose name holds escape
sequences: each is one line in "Load problems" (and in `paperscope fulltext`), the file
named with its controls neutralised, and the good PDF beside them is read.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from index.fulltext.extract import MAX_BYTES
from index.models import Library, Paper, Source
from tests.index.fulltext.pdfs import encrypted_pdf, paper_pdf, scanned_pdf
from tests.torture.hostile import assert_terminal_safe
from tests.tui.app_pilot import WIDE, all_notices, app_with, settle, top_screen
from tui.app import make_app
from tui.services.config import AppSettings
from tui.services.fulltext import FulltextReading

# A name that would retitle the terminal and reverse the line if printed raw.
EVIL_PDF = "evil\x1b]0;PWNED\x07\u202e.pdf"


def bad_pdfs(folder: Path) -> dict[str, Path]:
    """One file of each bad kind, and a good one; name -> path."""
    folder.mkdir(parents=True, exist_ok=True)
    good = paper_pdf(folder, "good.pdf")
    files = {"good": good}
    files["encrypted"] = encrypted_pdf(folder / "encrypted.pdf")
    files["scan"] = scanned_pdf(folder / "scan.pdf")
    files["corrupt"] = folder / "corrupt.pdf"
    files["corrupt"].write_bytes(b"%PDF-1.7\n" + os.urandom(2000))
    files["truncated"] = folder / "truncated.pdf"
    files["truncated"].write_bytes(good.read_bytes()[:700])
    files["empty"] = folder / "empty.pdf"
    files["empty"].write_bytes(b"")
    files["huge"] = folder / "huge.pdf"
    with open(files["huge"], "wb") as handle:  # sparse: past the limit, nothing on disk
        handle.write(b"%PDF-1.4\n")
        handle.truncate(MAX_BYTES + 1)
    files["html"] = folder / "page.pdf"
    files["html"].write_text("<!DOCTYPE html><html><body>Access denied</body></html>")
    files["fifo"] = folder / "pipe.pdf"
    os.mkfifo(files["fifo"])
    files["evil"] = folder / EVIL_PDF
    files["evil"].write_bytes(b"")
    return files


WHY = {
    "encrypted": "is encrypted",
    "scan": "has no text layer",
    "corrupt": "is damaged or truncated",
    "truncated": "is damaged or truncated",
    "empty": "is empty (0 bytes)",
    "huge": "is too large to read",
    "html": "is not a PDF (it is a web page",
    "fifo": "is not a regular file",
    "evil": "is empty (0 bytes)",
}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    return bad_pdfs(tmp_path / "pdfs")


def library_of(files: dict[str, Path]) -> tuple[Paper, ...]:
    return tuple(
        Paper(id=name, title=f"Paper {name}", attachments=(str(path),), sources=(Source("r.bib"),))
        for name, path in files.items()
    )


def test_each_bad_file_is_one_line_and_the_good_one_is_read(
    tmp_path: Path, files: dict[str, Path]
) -> None:
    reading = FulltextReading(tmp_path / "cache", workers=0, sync=lambda *_: False)
    summary = reading.run(library_of(files))
    problems = {line.path: line.message for line in reading.problems}
    assert set(problems) == {str(path) for name, path in files.items() if name != "good"}
    for name, why in WHY.items():
        assert why in problems[str(files[name])], (name, problems[str(files[name])])
    assert summary.pages == 2  # the good paper's two pages


async def test_load_problems_list_them_literally(tmp_path: Path, files: dict[str, Path]) -> None:
    app = app_with(tmp_path, library_of(files))
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert any("gave no text" in str(n.message) for n in all_notices(app))
        await app.run_action("show_load_warnings")
        await settle(pilot)
        text = str(top_screen(app).query_one("#warnings-text").render())
    assert text.count("\n") + 1 == len(WHY)  # one line each
    assert_terminal_safe(text)
    assert "evil" in text and "PWNED" in text  # named, its escapes made visible, not run
    assert "good.pdf" not in text


async def test_full_text_off_reads_nothing(tmp_path: Path, files: dict[str, Path]) -> None:
    (tmp_path / "config.toml").write_text("fulltext = false\n")
    settings = AppSettings(tmp_path / "config.toml", tmp_path / "data", tmp_path / "cache")
    app = make_app(settings, library=Library(papers=library_of(files)))
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert app.fulltext_problems == () and not (tmp_path / "cache" / "fulltext").exists()
