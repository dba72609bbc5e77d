"""HTML (Zotero's notes) -> plain text, by the stdlib's `html.parser`.

A note is the user's own HTML (`<div data-schema-version="9"><p>...</p></div>`), often
pasted from web pages. Removing tags with a regex breaks on `>` inside attributes,
comments and scripts; the parser gets those right and decodes entities. Block elements
become line breaks so paragraphs and list items stay apart; scripts and styles are dropped.
Each line goes through `clean_text`, so control characters and terminal escapes in
untrusted text never reach the screen.
"""

from __future__ import annotations

from html.parser import HTMLParser

from index.library.normalize import clean_text

__all__ = ["html_to_text"]

# Elements whose start or end begins a new line of text.
_BLOCKS = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "br",
        "dd",
        "div",
        "dl",
        "dt",
        "figcaption",
        "figure",
        "footer",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "ol",
        "p",
        "pre",
        "section",
        "table",
        "tr",
        "ul",
    }
)
_HIDDEN = frozenset({"script", "style", "head", "title", "template"})


class _TextCollector(HTMLParser):
    """Collects text runs, with a line break at every block boundary."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0  # depth inside elements whose text is not shown

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag in _BLOCKS:
            self.parts.append("\n")
        elif tag in ("td", "th"):
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    """The note's text: one line per paragraph or list item, no empty lines."""
    collector = _TextCollector()
    collector.feed(markup)
    collector.close()
    lines = (clean_text(line) for line in "".join(collector.parts).split("\n"))
    return "\n".join(line for line in lines if line)
