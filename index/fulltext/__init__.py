"""The text inside the papers: attached PDFs read page by page, cached by content.

A researcher remembers a sentence from a method section, a dataset named in an
evaluation; the abstract does not have it. This package turns a paper's attachments into
page-numbered text, from the cheapest faithful source: Zotero's own extracted text when it
is current (`zotero_cache`), else the PDF read with pdfium (`extract`). Each file is read
once (`store`: keyed by the file's content), in worker processes at low priority
(`pool`), and a file that cannot be read (encrypted, damaged, not a PDF, a scan without a
text layer) is one line saying so, never an exception for the caller.

`page_index` makes the stored texts searchable: `sync_fulltext(cache_dir, papers)` keeps
a page-level index of them beside the library's (index.search.fulltext consults it); the
app runs it in a niced child process (`sync_child.sync_in_child`: its postings are minutes
of Python that would hold the GIL against the UI). The names below are imported on first
use. This package never imports the search or store
layers.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from index.fulltext.extract import Extracted, extract_pdf
    from index.fulltext.page_index import FulltextSync, sync_fulltext
    from index.fulltext.pool import ExtractionPool, Job
    from index.fulltext.store import FulltextStore
    from index.fulltext.zotero_cache import zotero_text

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

# Where each name lives: imported on first use, so a search that reads the page index
# (index.search.page_view) loads neither the worker pool (multiprocessing) nor Whoosh's
# writer, and an extraction worker no Whoosh at all.
_HOMES = {
    "Extracted": "extract",
    "extract_pdf": "extract",
    "ExtractionPool": "pool",
    "Job": "pool",
    "FulltextStore": "store",
    "FulltextSync": "page_index",
    "sync_fulltext": "page_index",
    "zotero_text": "zotero_cache",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"index.fulltext.{home}"), name)
