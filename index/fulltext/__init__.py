"""The text inside the papers: attached PDFs read page by page, cached by content.

A researcher remembers a sentence from a method section, a dataset named in an
evaluation; the abstract does not have it. This package turns a paper's attachments into
page-numbered text, from the cheapest faithful source: Zotero's own extracted text when it
is current (`zotero_cache`), else the PDF read with pdfium (`extract`). Each file is read
once (`store`: keyed by the file's content), in worker processes at low priority
(`pool`), and a file that cannot be read (encrypted, damaged, not a PDF, a scan without a
text layer) is one line saying so, never an exception for the caller.

It never imports the search or store layers: what it gives is plain values (`PageText`)
for whoever indexes them.
"""

from __future__ import annotations

from index.fulltext.extract import Extracted, extract_pdf
from index.fulltext.pool import ExtractionPool, Job
from index.fulltext.store import FulltextStore
from index.fulltext.zotero_cache import zotero_text

__all__ = ["Extracted", "ExtractionPool", "FulltextStore", "Job", "extract_pdf", "zotero_text"]
