"""The CSL-JSON export: items read from CSL-JSON copied, the others converted in full.

An item read from a CSL-JSON file is written back as the file has it (every variable, its
type, its names and dates to the day, its id). A paper from another source is converted
by `csljson.csl_item`, and whatever that mapping leaves out but a source record gives is
added here (keywords, place, edition, series, language, translators, ISBN/ISSN, the access
date, the day of the date, editors of any work, every part of a multi-part page range,
attached files as JabRef's `file` member, which paperscope's reader takes back).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from index.citations.bibtex import file_field
from index.citations.csljson import csl_item, csl_name
from index.citations.record_facts import edited_volume, facts
from index.models import Paper

__all__ = ["csl_export", "full_csl_item"]


def full_csl_item(paper: Paper, key: str) -> dict[str, Any]:
    """The item for `paper`: its CSL-JSON record as read, else converted with every fact."""
    record = next((r for r in paper.records if r.format == "csl-json"), None)
    if record is not None:
        return record.item()
    item = csl_item(paper, key)
    extra = facts(paper)
    added: dict[str, Any] = {
        "keyword": ", ".join(paper.keywords) or None,
        "publisher-place": extra.place,
        "edition": extra.edition,
        "collection-title": extra.series,
        "language": extra.language,
        "genre": extra.genre,
        "ISBN": extra.isbn,
        "ISSN": extra.issn,
        "translator": [csl_name(n) for n in extra.translators] or None,
        "editor": [csl_name(n) for n in paper.editors] or None,
        "file": file_field(paper.attachments),
    }
    if extra.urldate and len(parts := extra.urldate.split("-")) >= 1 and parts[0].isdigit():
        added["accessed"] = {"date-parts": [[int(p) for p in parts[:3] if p.isdigit()]]}
    for name, value in added.items():
        if value and name not in item:
            item[name] = value
    if paper.pages and "," in paper.pages:  # "431-456, 791-823", not 431-823
        item["page"] = paper.pages
    issued = item.get("issued", {}).get("date-parts")
    if extra.day and issued and len(issued[0]) == 2:
        issued[0].append(extra.day)
    edited = edited_volume(paper)
    if edited:  # an edited volume: its editors are not its authors
        item.pop("author", None)
    return item


def csl_export(papers: Sequence[Paper], keys: dict[str, str]) -> str:
    """A CSL-JSON array (always an array, even for one paper)."""
    items = [full_csl_item(paper, keys[paper.id]) for paper in papers]
    return json.dumps(items, ensure_ascii=False, indent=2)
