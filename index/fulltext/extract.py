"""One PDF's text, page by page, with pdfium (pypdfium2: BSD/Apache, unlike PyMuPDF's AGPL).

What pdfium gives is close to what a reader sees; three things are mended here, each as
far as the text layer allows:

* a word hyphenated at a line's end: pdfium marks the hyphen it knows to be a break
  (`\\x02`, as PDF producers tag soft hyphens) and the word is joined ("work-/flows" is
  "workflows"); a hyphen it does not mark is kept ("finite-/state" stays "finite-state");
* ligatures and mathematical letters (ﬁ, ﬂ, 𝑎) are folded to their letters (NFKC), so
  "official" and "a" are found as typed;
* line breaks become spaces; a page's lines are one paragraph of words.

Column order is pdfium's content order, which is the reading order for the two-column
layouts LaTeX and Typst write. A file is checked before pdfium sees it: only a regular
file (a FIFO named `.pdf` would block forever), not empty, not past `MAX_BYTES`, and
starting like a PDF (a saved web page named `.pdf` is said to be HTML).
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from index.text_safety import strip_controls

__all__ = ["MAX_BYTES", "MAX_PAGES", "Extracted", "clean_page", "extract_pdf"]

# Larger files are not read: a 500 MB PDF is nearly always scanned images, and reading it
# would hold a worker for minutes. Said in one line, like any other unreadable file.
MAX_BYTES = 250 * 1024 * 1024
# Pages read at most from one file (a 3,000-page proceedings volume reads its first 2,000).
MAX_PAGES = 2000
# A PDF's header may follow some junk, but within its first kilobyte (the PDF standard).
_HEADER_WINDOW = 1024

_SOFT_BREAK = re.compile(r"\x02\s*")
_LINE_BREAK = re.compile(r"\s*[\r\n]+\s*")
_SPACES = re.compile(r"[ \t\f\v]+")


@dataclass(frozen=True)
class Extracted:
    """What one file gave: its pages' text (page 1 first), or why it gave none.

    Attributes:
        pages: each page's text, "" for a page without text; empty when unreadable.
        problem: one line saying why the file gave no text ("encrypted: a password is
            needed"), None when it was read. A scan's pages are read but hold no text:
            its problem says so and `pages` keeps their count.
        truncated: True when only the first `MAX_PAGES` pages were read.
        paged: False when the source did not say where pages end (a Zotero text cache
            without page breaks): `pages` is then one text, and no page number is known.
    """

    pages: tuple[str, ...] = ()
    problem: str | None = None
    truncated: bool = False
    paged: bool = True

    @property
    def has_text(self) -> bool:
        return any(self.pages)


def clean_page(text: str) -> str:
    """A page's raw text as words: soft hyphens joined, ligatures folded, one line."""
    text = _SOFT_BREAK.sub("", text)
    text = unicodedata.normalize("NFKC", text)
    text = _LINE_BREAK.sub(" ", text)
    text = strip_controls(text, at_load=True)
    return _SPACES.sub(" ", text).strip()


def _precheck(path: Path) -> str | None:
    """Why `path` is not worth giving to pdfium, or None. Never opens a non-regular file."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "missing: no such file"
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"
    if stat.S_ISDIR(info.st_mode):
        return "is a folder, not a PDF"
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file (a pipe or a device), not read"
    if info.st_size == 0:
        return "is empty (0 bytes)"
    if info.st_size > MAX_BYTES:
        return f"is too large to read ({info.st_size // 2**20} MB; the limit is {MAX_BYTES // 2**20} MB)"
    try:
        with open(path, "rb") as handle:
            head = handle.read(_HEADER_WINDOW)
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"
    if b"%PDF-" not in head:
        start = head.lstrip()[:15].lower()
        if start.startswith((b"<!doctype", b"<html", b"<?xml", b"<")):
            return "is not a PDF (it is a web page saved under a .pdf name)"
        return "is not a PDF (no PDF header)"
    return None


def extract_pdf(path: Path, *, max_pages: int = MAX_PAGES) -> Extracted:
    """The text of each page of the PDF at `path`, or the one-line reason there is none.

    Never raises for a bad file: encrypted, damaged, truncated, empty, huge, not a PDF,
    not a regular file are all an `Extracted` with a `problem`.
    """
    problem = _precheck(path)
    if problem is not None:
        return Extracted(problem=problem)
    import pypdfium2 as pdfium  # ~40 ms: only the extraction workers pay it

    try:
        document = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as error:
        return Extracted(problem=_pdfium_problem(str(error)))
    try:
        count = len(document)
        pages: list[str] = []
        for number in range(min(count, max_pages)):
            page = document[number]
            try:
                textpage = page.get_textpage()
                try:
                    pages.append(clean_page(textpage.get_text_bounded()))
                finally:
                    textpage.close()
            except pdfium.PdfiumError:
                pages.append("")  # one damaged page: the others still count
            finally:
                page.close()
    except pdfium.PdfiumError as error:
        return Extracted(problem=_pdfium_problem(str(error)))
    finally:
        document.close()
    truncated = count > max_pages
    if pages and not any(pages):
        return Extracted(
            pages=tuple(pages),
            problem=f"has no text layer ({count} page{'s' * (count != 1)} of images: a scan?)",
        )
    if not pages:
        return Extracted(problem="has no pages")
    return Extracted(pages=tuple(pages), truncated=truncated)


def _pdfium_problem(message: str) -> str:
    """pdfium's error as the user's problem: "Incorrect password error" is encryption."""
    lowered = message.lower()
    if "password" in lowered or "security" in lowered:
        return "is encrypted: a password is needed to read it"
    if "format" in lowered or "file" in lowered or "data" in lowered:
        return "is damaged or truncated: pdfium cannot read it"
    return f"cannot be read by pdfium ({' '.join(message.split())})"
