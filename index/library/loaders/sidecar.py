"""The metadata sidecar: curated facts for papers whose text lives in plain-text files.

A plain abstract list has no titles, venues or DOIs. A sidecar adds them without touching
the text file, and says which paragraphs are the same paper. The bundled corpus ships one
(`assets/metadata.json`); users can write their own, either as `NAME.meta.json` beside
`NAME.txt` (picked up automatically) or as any JSON file with the `format` key below.

Format (every key but `paragraphs` optional; null or missing means "not known")::

    {
      "format": "paperscope-metadata",
      "version": 1,
      "papers": [
        {
          "id": "dynapipe",                    # the paper's id in paperscope
          "paragraphs": [["abstracts.txt", 2], ["more.txt", 8]],  # file (relative to
                                               #   the sidecar's folder), 0-based paragraph;
                                               #   in NAME.meta.json a bare 2 means NAME.txt
          "title": "...", "title_inferred": false, "short_name": "DynaPipe",
          "authors": ["Given Family", ...], "authors_complete": true,
          "year": 2024, "month": 4, "venue": "EuroSys '24",
          "entry_type": "inproceedings", "booktitle": "...", "journal": null,
          "volume": null, "number": null, "pages": "542-559", "publisher": "ACM",
          "doi": "10.1145/...", "arxiv": "2311.10418", "url": "https://...",
          "keywords": ["training"], "related": ["other-id"], "note": "curated remark"
        }
      ]
    }

When `authors` is missing the author line in the text file is kept (as incomplete if it
said "et al."). Values are cleaned like any other untrusted text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from index.library.identifiers import bare_doi
from index.library.loaders.records import as_strings
from index.library.normalize import clean_text, latex_to_unicode
from index.models import LoadWarning

__all__ = ["SIDECAR_FORMAT", "SidecarRecord", "parse_sidecar"]

SIDECAR_FORMAT = "paperscope-metadata"
_TEXT_FIELDS = (
    "title",
    "short_name",
    "venue",
    "entry_type",
    "booktitle",
    "journal",
    "volume",
    "number",
    "pages",
    "publisher",
    "doi",
    "arxiv",
    "url",
    "note",
)


@dataclass(frozen=True)
class SidecarRecord:
    """One curated paper: its id, the facts to set, and the paragraphs it covers.

    Attributes:
        id: the curated id.
        facts: `Paper` field values to apply (only keys the sidecar actually knew).
        paragraphs: (file name relative to the sidecar or None for "the txt beside me",
            0-based paragraph index).
        sidecar: the sidecar file as shown to the user, for warnings.
    """

    id: str
    facts: dict[str, Any] = field(default_factory=dict)
    paragraphs: tuple[tuple[str | None, int], ...] = ()
    sidecar: str = ""


def _facts(entry: Mapping[str, Any]) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    for name in _TEXT_FIELDS:
        value = entry.get(name)
        if value is not None and not isinstance(value, (list, dict)):
            text = latex_to_unicode(str(value)) if name == "title" else clean_text(str(value))
            if text and name == "doi":
                text = bare_doi(text) or ""  # stored bare, as every loader stores it
            if text:
                facts[name] = text
    if isinstance(entry.get("authors"), list):
        facts["authors"] = as_strings(entry["authors"])
        facts["authors_complete"] = entry.get("authors_complete", True) is not False
    for name in ("year", "month"):
        if isinstance(entry.get(name), int) and not isinstance(entry.get(name), bool):
            facts[name] = entry[name]
    if "title" in facts:
        facts["title_inferred"] = entry.get("title_inferred") is True
    keywords = sum((as_strings(entry.get(k)) for k in ("keywords", "topics", "hardware")), ())
    if keywords:
        facts["keywords"] = tuple(dict.fromkeys(keywords))
    if entry.get("related"):
        facts["related"] = as_strings(entry["related"])
    return facts


def parse_sidecar(
    data: Mapping[str, Any], shown: str
) -> tuple[list[SidecarRecord], list[LoadWarning]]:
    """The records of a sidecar; a record without an id or paragraphs is reported and skipped."""
    warnings: list[LoadWarning] = []
    entries = data.get("papers")
    if not isinstance(entries, list):
        return [], [LoadWarning(shown, "metadata sidecar has no `papers` list")]
    records: list[SidecarRecord] = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, Mapping):
            warnings.append(LoadWarning(shown, f"sidecar record {number} is not an object"))
            continue
        refs: list[tuple[str | None, int]] = []
        for ref in entry.get("paragraphs") or []:
            if isinstance(ref, int) and not isinstance(ref, bool):
                refs.append((None, ref))
            elif (
                isinstance(ref, list)
                and len(ref) == 2
                and isinstance(ref[0], str)
                and isinstance(ref[1], int)
            ):
                refs.append((ref[0], ref[1]))
            else:
                warnings.append(
                    LoadWarning(
                        shown,
                        f"sidecar record {number}: paragraph reference {ref!r} is not "
                        "[file, index] or index; ignored",
                    )
                )
        paper_id = clean_text(str(entry.get("id") or ""))
        if not paper_id or not refs:
            warnings.append(
                LoadWarning(
                    shown, f"sidecar record {number} needs an `id` and `paragraphs`; skipped"
                )
            )
            continue
        records.append(SidecarRecord(paper_id, _facts(entry), tuple(refs), shown))
    return records, warnings
