"""What the editor shows of a paper: the completion line, its documentation, the hover.

Markdown for the editor's popup. The paper's text comes from the user's files (untrusted):
it is shown literally, every Markdown character escaped, never interpreted as markup or
links; only the links made here (DOI, URL, attached files) are links.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from index.citations import format_citation
from index.citations.fields import paper_names
from index.models import Paper
from index.text_safety import strip_controls
from tui.services.annotations import Annotations
from tui.view.user_detail import user_rows

__all__ = ["completion_detail", "documentation", "hover_text", "literal", "zotero_link"]

# What Markdown reads as markup within a paragraph (a line's start is escaped apart).
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~&])")
_LINE_START = re.compile(r"^([ \t]*(?:\d+)?)([-+=.)])", re.MULTILINE)


def literal(text: str) -> str:
    """`text` shown as itself in Markdown (every markup character escaped)."""
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", strip_controls(text))
    return _LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), escaped)


def _first_author(paper: Paper) -> str:
    names = paper_names(paper)
    if not names:
        return "Unknown"
    first = names[0]
    family = first.literal or first.family or str(first)
    return family + (" et al." if len(names) > 1 or not paper.authors_complete else "")


def completion_detail(paper: Paper) -> str:
    """ "First author Year · Title", the line beside a key in the completion menu."""
    year = str(paper.year) if paper.year is not None else "n.d."
    return strip_controls(f"{_first_author(paper)} {year} · {paper.title}")


def _citation(paper: Paper, style: str, key: str) -> str:
    """The paper in the user's style (`format_citation`), or why it cannot be."""
    try:
        return format_citation([paper], style, keys={paper.id: key})
    except Exception as error:  # a user's CSL style citeproc-py fails on: said, not raised
        return f"(no citation in this style: {error})"


def documentation(paper: Paper, style: str, key: str, status: str | None = None) -> str:
    """A completion item's documentation: the citation in the user's style, the abstract,
    and (when the index served is being updated) a line saying so."""
    parts = [literal(_citation(paper, style, key))]
    if paper.abstract:
        parts.append(literal(paper.abstract))
    if status:
        parts.append(f"*{literal(status)}*")
    return "\n\n".join(parts)


def _links(paper: Paper) -> list[str]:
    links = []
    if paper.doi:
        links.append(f"[doi:{literal(paper.doi)}](https://doi.org/{_url_part(paper.doi)})")
    if paper.url:
        links.append(f"[{literal(paper.url)}]({_url_part(paper.url, safe=True)})")
    for attachment in paper.attachments:
        if os.path.exists(attachment):
            uri = Path(attachment).resolve().as_uri()
            links.append(f"[{literal(os.path.basename(attachment))}]({uri})")
    return links


def _url_part(text: str, safe: bool = False) -> str:
    """A link target: no space, parenthesis or angle bracket may end the link early."""
    from urllib.parse import quote

    return quote(text, safe=":/?#&=@%+~,;!$'*" if safe else "/:")


def zotero_link(paper: Paper) -> str | None:
    """Zotero's link that selects the item: by Zotero's own item key (every item has one,
    with or without Better BibTeX), in its group library when it is in one; else by
    Better BibTeX's citation key (a paper whose record was not kept)."""
    for record in paper.records:
        if record.format == "zotero" and record.key.isalnum():
            group = (record.get("groupID") or "").strip()
            if group.isdigit():
                return f"zotero://select/groups/{group}/items/{record.key}"
            return f"zotero://select/library/items/{record.key}"
    if paper.citation_key:
        return f"zotero://select/items/@{_url_part(paper.citation_key)}"
    return None


def hover_text(
    paper: Paper, style: str, key: str, annotations: Annotations, notes: Path | None
) -> str:
    """The hover on a cited key: reference, abstract, the user's tags, status and note,
    and the DOI, URL and attached files as links."""
    parts = [f"**{literal(key)}**", literal(_citation(paper, style, key))]
    if paper.abstract:
        parts.append(literal(paper.abstract))
    for heading, text in user_rows(paper, annotations, notes):
        if heading == "Files":
            continue  # as links below
        parts.append(f"**{literal(heading)}:** {literal(text)}")
    links = _links(paper)
    if links:
        parts.append(" · ".join(links))
    return "\n\n".join(parts)
