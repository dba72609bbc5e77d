"""A .bib export that copies the user's entries instead of rebuilding them.

A paper read from a .bib file is written back as that file has it, the way citar and
JabRef copy entries: the user's key, entry type, every field with its own name and its
own value text (macros, `#`, braces, LaTeX as typed), then the `@string` definitions the
copied entries use and the `crossref`/`xdata` parents they name, so the new file compiles
on its own and gives BibTeX and biber exactly what the original gave them. Parents come
after the entries that name them: BibTeX only resolves a `crossref` to a later entry.
Papers with no BibTeX record (CSL-JSON, RIS, Zotero, plain text) are written by
`bibtex.bib_entry`, interleaved in the order given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from index.models import Paper, SourceRecord

__all__ = ["bib_record", "copied_bibliography"]


def bib_record(paper: Paper) -> SourceRecord | None:
    """The first BibTeX record of `paper`, or None when no .bib file gave it."""
    return next((record for record in paper.records if record.format == "bibtex"), None)


def _with_key(record: SourceRecord, key: str) -> str:
    if record.key == key:
        return record.bibtex()
    from dataclasses import replace

    return replace(record, key=key).bibtex()


def _parents(record: SourceRecord, seen: set[str], out: list[SourceRecord]) -> None:
    for parent in record.parents:
        folded = parent.key.casefold()
        if folded in seen:
            continue
        seen.add(folded)
        out.append(parent)
        _parents(parent, seen, out)


def copied_bibliography(
    papers: Iterable[Paper], keys: dict[str, str], rebuild: Callable[[Paper, str], str]
) -> str:
    """The .bib text: @strings, then the entries (copied or rebuilt), then the parents.

    Args:
        papers: in the order they are written.
        keys: citation keys by paper id (the user's own key for a paper from a .bib
            file, unless two files use one key; the key a manuscript cites it by).
        rebuild: writes a paper with no BibTeX record (`bibtex.bib_entry` in a dialect).
    """
    strings: dict[str, tuple[str, str]] = {}
    entries: list[str] = []
    used: set[str] = set()
    parents: list[SourceRecord] = []
    seen_parents: set[str] = set()
    copied: list[SourceRecord] = []
    for paper in papers:
        record = bib_record(paper)
        if record is None:
            key = keys[paper.id]
            used.add(key.casefold())
            entries.append(rebuild(paper, key))
            continue
        key = keys[paper.id]
        used.add(key.casefold())
        copied.append(record)
        entries.append(_with_key(record, key))
        _parents(record, seen_parents, parents)
    # A parent that is also an exported paper is written once, as that paper.
    parents = [p for p in parents if p.key.casefold() not in used]
    for record in [*copied, *parents]:
        for name, value in record.strings:
            strings.setdefault(name.casefold(), (name, value))
    head = [f"@string{{{name} = {value}}}" for name, value in strings.values()]
    blocks = entries + [parent.bibtex() for parent in parents]
    text = "\n\n".join(blocks)
    return ("\n".join(head) + "\n\n" + text) if head else text
