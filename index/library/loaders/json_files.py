"""JSON and JSON Lines files: paper records, or a paperscope metadata sidecar.

A `.json` file holds one record, a list of records, or an object with the list under
`papers`/`items`/`records`; a `.jsonl`/`.ndjson` file holds one record a line. A JSON
object whose `format` is `paperscope-metadata` (or any `*.meta.json`) is a sidecar, not a
list of papers: see `index.library.loaders.sidecar`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from index.library.loaders.guards import check_csl_types
from index.library.loaders.records import record_to_paper
from index.library.loaders.sidecar import SIDECAR_FORMAT, SidecarRecord, parse_sidecar
from index.models import LoadWarning, Paper, Source

__all__ = ["load_json", "load_json_lines"]


def load_json(
    text: str, shown: str, *, sidecar: bool = False
) -> tuple[list[Paper], list[SidecarRecord], list[LoadWarning]]:
    """Papers (or sidecar records) from a `.json` file.

    Args:
        text: the decoded file.
        shown: the file as the user named it.
        sidecar: the file name says it is a sidecar (`*.meta.json`).
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return [], [], [LoadWarning(shown, f"malformed JSON: {error.msg}", error.lineno)]
    except RecursionError:
        return [], [], [LoadWarning(shown, "JSON nested too deeply to read; skipped")]
    if isinstance(data, Mapping) and (sidecar or data.get("format") == SIDECAR_FORMAT):
        records, sidecar_warnings = parse_sidecar(data, shown)
        return [], records, sidecar_warnings
    if isinstance(data, Mapping):
        for key in ("papers", "items", "records", "references"):
            if isinstance(data.get(key), list):
                data = data[key]
                break
        else:
            data = [data]
    if not isinstance(data, list):
        return [], [], [LoadWarning(shown, "JSON holds neither a record nor a list of records")]
    papers: list[Paper] = []
    warnings: list[LoadWarning] = []
    lines = _element_lines(text) if isinstance(data, list) and text.lstrip().startswith("[") else []
    for number, record in enumerate(data, start=1):
        line = lines[number - 1] if len(lines) == len(data) else None
        paper = _convert(record, shown, line, f"record {number}", warnings)
        if paper is not None:
            papers.append(paper)
    if not papers and not warnings:
        warnings.append(LoadWarning(shown, "no paper records found"))
    return papers, [], warnings


def _element_lines(text: str) -> list[int]:
    """The 1-based line where each element of a top-level JSON array starts."""
    decoder = json.JSONDecoder()
    lines: list[int] = []
    index, line, counted = text.index("[") + 1, 1, 0
    while True:
        while index < len(text) and text[index] in " \t\r\n,":
            index += 1
        if index >= len(text) or text[index] == "]":
            return lines
        line += text.count("\n", counted, index)
        counted = index
        lines.append(line)
        try:
            _, index = decoder.raw_decode(text, index)
        except (json.JSONDecodeError, RecursionError):
            return []


def load_json_lines(text: str, shown: str) -> tuple[list[Paper], list[LoadWarning]]:
    """One record a line; a bad line is reported with its number and skipped."""
    papers: list[Paper] = []
    warnings: list[LoadWarning] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as error:
            warnings.append(LoadWarning(shown, f"malformed JSON line: {error.msg}", number))
            continue
        except RecursionError:
            warnings.append(
                LoadWarning(shown, "JSON line nested too deeply to read; skipped", number)
            )
            continue
        paper = _convert(record, shown, number, "line", warnings)
        if paper is not None:
            papers.append(paper)
    if not papers and not warnings:
        warnings.append(LoadWarning(shown, "no paper records found"))
    return papers, warnings


def _convert(
    record: Any, shown: str, line: int | None, what: str, warnings: list[LoadWarning]
) -> Paper | None:
    if not isinstance(record, Mapping):
        warnings.append(LoadWarning(shown, f"{what} is not a JSON object; skipped", line))
        return None
    record = check_csl_types(record, shown, line, what, warnings)
    try:
        paper = record_to_paper(record, Source(shown, line))
    except (TypeError, ValueError, AttributeError, IndexError) as error:
        warnings.append(
            LoadWarning(shown, f"{what} has an unusable value ({error}); skipped", line)
        )
        return None
    if paper is None:
        warnings.append(
            LoadWarning(
                shown, f"{what} has no title, abstract, author, date or container; skipped", line
            )
        )
    return paper
