"""Everything known about one paper: metadata, labels with reasons, abstract, sources,
linked and similar papers, and the citation in the current style.

The pane is given a finished `PaperDetail` (built in a worker, since more-like-this and
the citation take a few milliseconds) and only lays it out.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from index.models import Paper, Snippet
from tui.messages import PaperChosen
from tui.widgets.render import Labeler, clean, snippet_text

__all__ = ["PaperDetail", "DetailPane", "paper_links", "detail_text"]


@dataclass(frozen=True)
class PaperDetail:
    """What the detail pane shows, computed off the UI thread."""

    paper: Paper
    abstract: Snippet  # the full abstract with the query's words highlighted
    related: tuple[Paper, ...] = ()  # linked versions of the same work
    similar: tuple[Paper, ...] = ()  # more like this
    citation: str = ""
    style_label: str = ""
    terms: tuple[str, ...] = ()  # the query's words, to rebuild the detail in another style


def paper_links(paper: Paper) -> list[str]:
    """The paper's web addresses, best first (DOI, arXiv, URL), for the open-link key."""
    links: list[str] = []
    if paper.doi:
        links.append(f"https://doi.org/{paper.doi}")
    if paper.arxiv:
        links.append(f"https://arxiv.org/abs/{paper.arxiv}")
    if paper.url:
        links.append(paper.url)
    return links


def detail_text(detail: PaperDetail, labeler: Labeler, match_style: str = "bold reverse") -> Text:
    """The pane's body as one `Text`; every document string is appended literally."""
    paper = detail.paper
    text = Text()
    text.append(clean(paper.title), "bold")
    if paper.title_inferred:
        text.append("  (title inferred)", "italic dim")
    text.append("\n\n")
    authors = ", ".join(clean(a, one_line=True) for a in paper.authors) or "authors unknown"
    if paper.authors and not paper.authors_complete:
        authors += ", et al."
    rows = [
        ("Authors", authors),
        ("Venue", clean(paper.venue, one_line=True) if paper.venue else None),
        ("Year", str(paper.year) if paper.year else None),
        ("Pages", clean(paper.pages, one_line=True) if paper.pages else None),
        ("DOI", clean(paper.doi, one_line=True) if paper.doi else None),
        ("arXiv", clean(paper.arxiv, one_line=True) if paper.arxiv else None),
        ("URL", clean(paper.url, one_line=True) if paper.url else None),
        ("Id", paper.id),
    ]
    for name, value in rows:
        if value:
            text.append(f"{name:>8}  ", "bold dim")
            text.append(value + "\n")
    for title, facet, labels in (("Topics", "topic", paper.topics), ("Hardware", "hardware", paper.hardware)):
        text.append(f"\n{title}\n", "bold")
        if not labels:
            text.append("  none\n", "dim")
        for label in labels:
            text.append("  " + clean(labeler(facet, label.value), one_line=True))
            text.append("  " + clean(label.reason, one_line=True) + "\n", "dim italic")
    text.append("\nAbstract\n", "bold")
    if detail.abstract.segments:
        text.append_text(snippet_text(detail.abstract, match_style=match_style))
    else:
        text.append(clean(paper.abstract) or "no abstract", "" if paper.abstract else "dim")
    text.append("\n\nSources\n", "bold")
    for source in paper.sources:
        text.append("  " + clean(str(source), one_line=True) + "\n")
    if paper.note:
        text.append("\nNote  ", "bold")
        text.append(clean(paper.note) + "\n")
    return text


class DetailPane(VerticalScroll, can_focus=False):
    """The paper's details; linked and similar papers are an `OptionList` to jump through."""

    detail: PaperDetail | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="detail-body")
        yield Static("Linked versions and more like this", id="detail-similar-title", classes="detail-heading")
        yield OptionList(id="detail-similar")
        yield Static("Citation", id="detail-citation-title", classes="detail-heading")
        yield Static(id="detail-citation")

    def on_mount(self) -> None:
        self.border_title = "Paper"
        self.show_detail(None)

    def show_detail(self, detail: PaperDetail | None, labeler: Labeler | None = None) -> None:
        """Lay out one paper, or an empty hint when there is none."""
        self.detail = detail
        body = self.query_one("#detail-body", Static)
        similar = self.query_one("#detail-similar", OptionList)
        similar.clear_options()
        if detail is None:
            body.update(Text("No paper selected.", style="dim"))
            self.query_one("#detail-citation", Static).update("")
            return
        body.update(detail_text(detail, labeler or (lambda facet, value: value)))
        for tag, papers in (("linked", detail.related), ("similar", detail.similar)):
            for paper in papers:
                prompt = Text(f"{tag:<8}", style="dim")
                prompt.append(clean(paper.title, one_line=True))
                if paper.year:
                    prompt.append(f" ({paper.year})", "dim")
                similar.add_option(Option(prompt, id=f"{tag}:{paper.id}"))
        if similar.option_count:
            similar.highlighted = 0  # so enter opens the first one straight away
        else:
            similar.add_option(Option(Text("none", style="dim"), disabled=True))
        citation = Text(f"{detail.style_label}\n", style="dim") if detail.style_label else Text()
        citation.append(clean(detail.citation))
        self.query_one("#detail-citation", Static).update(citation)
        self.scroll_home(animate=False)

    @on(OptionList.OptionSelected, "#detail-similar")
    def _jump(self, event: OptionList.OptionSelected) -> None:
        """Selecting a linked or similar paper opens it."""
        event.stop()
        if event.option.id:
            self.post_message(PaperChosen(event.option.id.split(":", 1)[1]))
