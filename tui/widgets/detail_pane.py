"""Everything known about one paper: metadata, labels with reasons, abstract, sources,
linked and similar papers, and the citation in the current style.

The pane is given a finished `PaperDetail` (built in a worker, since more-like-this and
the citation take a few milliseconds) and only lays it out.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from index.models import Paper, Snippet
from tui.messages import PaperChosen
from tui.widgets.render import Body, Labeler, clean, snippet_text

__all__ = ["PaperDetail", "DetailPane", "paper_links", "detail_body"]

EMPTY_HINT = Text.assemble(
    ("No paper selected.\n\n", "bold"),
    ("Highlight a result to read its abstract, topics and hardware with the reasons they "
     "were given, its sources, linked versions, similar papers and its citation here.", "dim"),
)


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
    # The user's layer and the source's extras: (heading, text), see tui.view.user_detail.
    extra: tuple[tuple[str, str], ...] = ()


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


def _grid() -> Table:
    """Two columns, names right-aligned: a long value wraps under itself, not under its name."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", style="bold dim", no_wrap=True)
    grid.add_column(ratio=1, overflow="fold")  # a URL or DOI is folded whole, never cut with "…"
    return grid


def _indented(text: Text, left: int = 2) -> Padding:
    return Padding(text, (0, 0, 0, left))


def detail_body(detail: PaperDetail, labeler: Labeler, match_style: str = "bold reverse") -> Group:
    """The pane's body; every document string is appended to a `Text` literally."""
    paper = detail.paper
    title = Text(clean(paper.title), "bold")
    if paper.title_inferred:
        title.append("  (title inferred)", "italic dim")
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
    grid = _grid()
    for name, value in rows:
        if value:
            grid.add_row(name, Text(value))
    parts: list[RenderableType] = [title, Text(), grid]
    for heading, facet, labels in (("Topics", "topic", paper.topics), ("Hardware", "hardware", paper.hardware)):
        parts.append(Text(f"\n{heading}", "bold"))
        if not labels:
            parts.append(_indented(Text("none", "dim")))
        for label in labels:
            parts.append(_indented(Text(clean(labeler(facet, label.value), one_line=True))))
            parts.append(_indented(Text(clean(label.reason, one_line=True), "dim italic"), 4))
    parts.append(Text("\nAbstract", "bold"))
    if detail.abstract.segments:
        parts.append(snippet_text(detail.abstract, match_style=match_style))
    else:
        parts.append(Text(clean(paper.abstract) or "no abstract", "" if paper.abstract else "dim"))
    parts.append(Text("\nSources", "bold"))
    parts.extend(_indented(Text(clean(str(source), one_line=True))) for source in paper.sources)
    if paper.note:
        parts.append(Text("\nNote", "bold"))
        parts.append(_indented(Text(clean(paper.note))))
    for heading, text in detail.extra:
        parts.append(Text(f"\n{heading}", "bold"))
        parts.append(_indented(Text(clean(text))))
    return Group(*parts)


class DetailPane(VerticalScroll, can_focus=False):
    """The paper's details; linked and similar papers are an `OptionList` to jump through."""

    detail: PaperDetail | None = None
    _marks: Container[str] = ()

    def compose(self) -> ComposeResult:
        yield Body(id="detail-body")
        yield Static("Linked versions and more like this", id="detail-similar-title",
                     classes="detail-heading detail-part")
        yield OptionList(id="detail-similar", classes="detail-part")
        yield Static("Citation", id="detail-citation-title", classes="detail-heading detail-part")
        yield Body(id="detail-citation", classes="detail-part")

    def on_mount(self) -> None:
        self.show_detail(None)

    def set_marks(self, marks: Container[str]) -> None:
        """Which paper ids carry a mark; the title says whether this paper is one of them.

        The same mark the results list shows, so the user sees what `m` did without
        leaving the pane (and, when narrow, without a results list in sight).
        """
        self._marks = marks
        self._show_mark()

    def _show_mark(self) -> None:
        marked = self.detail is not None and self.detail.paper.id in self._marks
        self.border_title = "Paper · ● marked" if marked else "Paper"
        self.set_class(marked, "-marked")

    def show_detail(self, detail: PaperDetail | None, labeler: Labeler | None = None) -> None:
        """Lay out one paper, or an empty hint when there is none."""
        self.detail = detail
        self._show_mark()
        body = self.query_one("#detail-body", Static)
        similar = self.query_one("#detail-similar", OptionList)
        similar.clear_options()
        # The headings only make sense under a paper: with none, the pane says what it is for.
        for part in self.query(".detail-part"):
            part.display = detail is not None
        if detail is None:
            body.update(EMPTY_HINT)
            self.query_one("#detail-citation", Static).update("")
            return
        body.update(detail_body(detail, labeler or (lambda facet, value: value)))
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
        # Highlighting the first similar paper above scrolls it into view once laid out,
        # which could leave a new paper shown from its end: back to the top after that.
        self.call_after_refresh(self.scroll_home, animate=False)

    @on(OptionList.OptionSelected, "#detail-similar")
    def _jump(self, event: OptionList.OptionSelected) -> None:
        """Selecting a linked or similar paper opens it."""
        event.stop()
        if event.option.id:
            self.post_message(PaperChosen(event.option.id.split(":", 1)[1]))
