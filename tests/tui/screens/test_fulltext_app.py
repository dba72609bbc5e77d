"""The app reading its PDFs (status line, searches after a batch) and `O` at the matched page."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from index.facets.taxonomy import Taxonomy
from index.models import PageMatch, Paper, Snippet, Source
from tests.index.fulltext.pdfs import encrypted_pdf, paper_pdf
from tests.torture.test_open_file import fake_opener
from tests.tui.app_pilot import WIDE, all_notices, app_with, settle, top_screen
from tests.tui.conftest import clipboard
from tests.tui.screens.test_app_reload import start, wait_for
from tui import fulltext_host
from tui.screens.detail import DetailScreen
from tui.services.fulltext import FulltextReading
from tui.widgets.status_line import StatusLine

__all__ = ["clipboard"]


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return paper_pdf(tmp_path_factory.mktemp("paper"))


def copies(pdf: Path, folder: Path, count: int) -> list[Path]:
    """`count` distinct files with the paper's text (distinct bytes: each is read)."""
    made = []
    for n in range(count):
        made.append(folder / f"p{n}.pdf")
        made[-1].write_bytes(pdf.read_bytes() + f"\n% copy {n}\n".encode())
    return made


def status(app: Any) -> str:
    return str(app.main_screen.query_one(StatusLine).render())


async def test_the_status_says_how_far_the_reading_is_then_goes_quiet(
    tmp_path: Path, pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fulltext_host, "PROGRESS_EVERY", 0.0)
    files = copies(pdf, tmp_path, 3)
    papers = [
        Paper(id=f"p{n}", title=f"Paper {n}", attachments=(str(f),)) for n, f in enumerate(files)
    ]
    release, syncs = threading.Event(), []

    def sync(cache: Path, library: Sequence[Paper], cancelled: Callable[[], bool]) -> bool:
        syncs.append(len(library))
        release.wait(30)  # the first batch's sync holds the reading here
        return True

    app = app_with(tmp_path, papers)
    app._fulltext = FulltextReading(tmp_path / "cache", workers=0, sync=sync)
    app._fulltext.batch_files = 1
    searches: list[str] = []
    async with app.run_test(size=WIDE) as pilot:
        for _ in range(400):
            await pilot.pause(0.01)
            if syncs:
                break
        await pilot.pause(0.05)
        assert syncs == [3]  # the whole library, after the first file
        # The batch's sync holds: what was read is being indexed, and the status says so.
        assert status(app).startswith("Reading PDFs 1 of 3 · indexing their text · "), status(app)
        screen = app.main_screen
        monkeypatch.setattr(screen, "start_search", lambda: searches.append(screen.request.query))
        screen.request = replace(screen.request, query="quokkas")
        await pilot.pause()
        searches.clear()
        release.set()
        await settle(pilot)
        assert "Reading PDFs" not in status(app), status(app)
    # A sync after each file (none more at the end); each one that changed searched again.
    assert syncs == [3, 3, 3] and searches == ["quokkas"] * 3


async def test_o_opens_the_pdf_at_the_matched_page_in_the_default_viewer(
    tmp_path: Path, pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The detail of a result that matched on page 2: zathura, the desktop's default, is
    started with `--page=2` (a fake zathura on PATH records its command line)."""
    bin_dir = desktop(tmp_path, monkeypatch)
    fake_opener(bin_dir, "xdg-mime", "echo org.pwmt.zathura-pdf-mupdf.desktop")
    fake_opener(bin_dir, "zathura", "exit 0")
    fake_opener(bin_dir, "xdg-open", "exit 0")
    notices = await open_matched(tmp_path, pdf, monkeypatch, page=2)
    calls = (bin_dir / "calls").read_text().splitlines()
    assert calls == ["query default application/pdf", f"--page=2 {pdf}"]
    assert f"Opened {pdf.name} at page 2" in notices, notices


@pytest.mark.parametrize(
    ("viewer", "argv"),
    [
        ("evince", "--page-index=2 {pdf}"),
        ("okular", "--page 2 {pdf}"),
        ("mupdf", "{pdf} 2"),
        ("sioyek --new-window", "--new-window --page 2 {pdf}"),
    ],
)
async def test_o_uses_the_configured_viewers_page_option(
    tmp_path: Path, pdf: Path, monkeypatch: pytest.MonkeyPatch, viewer: str, argv: str
) -> None:
    bin_dir = desktop(tmp_path, monkeypatch)
    fake_opener(bin_dir, viewer.split()[0], "exit 0")
    (tmp_path / "config.toml").write_text(f'pdf_viewer = "{viewer}"\n')
    await open_matched(tmp_path, pdf, monkeypatch, page=2)
    assert (bin_dir / "calls").read_text().splitlines() == [argv.format(pdf=pdf)]


async def test_o_without_a_page_viewer_opens_as_before(
    tmp_path: Path, pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default viewer takes no page (or none is known): the desktop's opener, as ever."""
    bin_dir = desktop(tmp_path, monkeypatch)
    fake_opener(bin_dir, "xdg-mime", "echo org.gnome.Papers.desktop")
    fake_opener(bin_dir, "xdg-open", "exit 0")
    notices = await open_matched(tmp_path, pdf, monkeypatch, page=2)
    assert (bin_dir / "calls").read_text().splitlines()[-1] == str(pdf)
    assert f"Opened {pdf.name}" in notices, notices


def desktop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A display, no SSH, and only the fake programs of `tmp_path/bin` on PATH."""
    for name in ("SSH_TTY", "SSH_CONNECTION", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")  # sh, sleep and echo
    return bin_dir


async def open_matched(
    tmp_path: Path, pdf: Path, monkeypatch: pytest.MonkeyPatch, page: int
) -> list[str]:
    """Enter on a result that matched on `page` of `pdf`, then `O`; the notices given."""
    paper = Paper(
        id="kv", title="Paged KV cache", attachments=(str(pdf),), sources=(Source("r.bib"),)
    )
    # The search side's `Hit.page_match`, as the detail screen keeps it for its paper.
    match = PageMatch(path=str(pdf), page=page, snippet=Snippet())
    monkeypatch.setattr(DetailScreen, "page_match_of", lambda self, pid: match, raising=False)
    app = app_with(tmp_path, [paper])
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(top_screen(app), DetailScreen)
        await pilot.press("O")
        await settle(pilot)
        return [str(n.message) for n in all_notices(app)]


async def test_a_reload_reads_a_new_pdf_and_forgets_a_detached_one(
    tmp_path: Path, pdf: Path, taxonomy: Taxonomy
) -> None:
    locked = encrypted_pdf(tmp_path / "locked.pdf")

    def entry(key: str, path: Path) -> str:
        return f"@article{{{key},\n  title = {{{key}}},\n  year = {{2021}},\n  file = {{:{path}:PDF}}\n}}\n"

    bib = tmp_path / "refs.bib"
    bib.write_text(entry("kv", pdf), encoding="utf-8")
    app = start(bib, taxonomy)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert not app.fulltext_problems
        bib.write_text(entry("kv", pdf) + entry("locked", locked), encoding="utf-8")
        await wait_for(pilot, lambda: len(app.fulltext_problems) == 1)
        [problem] = app.fulltext_problems
        assert problem.path == str(locked)
        assert str(problem) in [str(w) for w in app.load_warnings]
        bib.write_text(entry("kv", pdf), encoding="utf-8")
        await wait_for(pilot, lambda: not app.fulltext_problems)
