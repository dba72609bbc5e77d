"""Zotero's own extracted text: `storage/<KEY>/.zotero-ft-cache`, beside the attachment.

Zotero extracts every PDF it indexes into this file; reading it costs a file read instead
of a PDF parse. It is used when it is current (written after the PDF last changed). Page
breaks are form feeds where the extractor wrote them (pdftotext does); without any, the
text is one unpaged block: found, shown without a page number.
"""

from __future__ import annotations

import os
from pathlib import Path

from index.fulltext.extract import Extracted, clean_page

__all__ = ["CACHE_NAME", "zotero_text"]

CACHE_NAME = ".zotero-ft-cache"
# Larger caches are not Zotero's usual output (it caps indexed characters): read the PDF.
_MAX_CACHE_BYTES = 64 * 1024 * 1024


def zotero_text(attachment: Path) -> Extracted | None:
    """The text Zotero cached for `attachment`, or None when there is no current cache."""
    cache = attachment.parent / CACHE_NAME
    try:
        cached, original = os.stat(cache), os.stat(attachment)
    except OSError:
        return None
    if cached.st_mtime_ns < original.st_mtime_ns or cached.st_size > _MAX_CACHE_BYTES:
        return None  # stale (the PDF changed after Zotero read it), or not Zotero's
    try:
        text = cache.read_text("utf-8", errors="replace")
    except OSError:
        return None
    if "\f" in text:
        pages = [clean_page(page) for page in text.split("\f")]
        while pages and not pages[-1]:  # pdftotext ends the last page with a form feed
            pages.pop()
        return Extracted(pages=tuple(pages)) if any(pages) else None
    page = clean_page(text)
    return Extracted(pages=(page,), paged=False) if page else None
