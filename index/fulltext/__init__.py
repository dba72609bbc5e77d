"""The text inside the papers: attached PDFs read page by page, cached by content.

A researcher remembers a sentence from a method section, a dataset named in an
evaluation; the abstract does not have it. This package turns a paper's attachments into
page-numbered text, from the cheapest faithful source: Zotero's own extracted text when it
is current (`zotero_cache`), else the PDF read with pdfium (`extract`). Each file is read
once (`store`: keyed by the file's content), in worker processes at low priority
(`pool`), and a file that cannot be read (encrypted, damaged, not a PDF, a scan without a
text layer) is one line saying so, never an exception for the caller.

`page_index` makes the stored texts searchable: `sync_fulltext(cache_dir, papers)` keeps
a page-level index of them beside the library's (index.search.fulltext consults it). It is
imported on first use, so extraction workers never load Whoosh. This package never
imports the search or store layers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from index.fulltext.extract import Extracted, extract_pdf
from index.fulltext.pool import ExtractionPool, Job
from index.fulltext.store import FulltextStore
from index.fulltext.zotero_cache import zotero_text

if TYPE_CHECKING:
    from index.fulltext.page_index import FulltextSync, sync_fulltext

__all__ = [
    "Extracted",
    "ExtractionPool",
    "FulltextStore",
    "FulltextSync",
    "Job",
    "extract_pdf",
    "sync_fulltext",
    "zotero_text",
]


def __getattr__(name: str) -> Any:
    """`sync_fulltext` and `FulltextSync`, imported when first asked for (Whoosh)."""
    if name in ("sync_fulltext", "FulltextSync"):
        from index.fulltext import page_index

        return getattr(page_index, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
