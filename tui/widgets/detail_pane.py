"""Everything known about one paper, abstract first: read by keys, like a pager.

Order: title, authors, venue and year, the abstract, then identifiers, labels with the
reasons they were given, sources, the citation and the linked and similar papers. The
pane itself takes the focus and scrolls (`j/k`, `space/b`, `g/G`, ...), with a scrollbar
and "↓ more" in its border while there is more below; the similar list is a separate stop
reached with `tab`, so reading keys never move an invisible highlight in it.

The pane is given a finished `PaperDetail` (built in a worker, since more-like-this and
the citation take a few milliseconds) and only lays it out. Opening a linked or similar
paper is a step the pane remembers ("similar to X"), which esc undoes (`step_back`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Container, Iterator, Sized
from pathlib import PurePath

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.padding import Padding
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from index.author_lists import author_list
from index.models import Paper, Source, replace
from tui.messages import PaperChosen
from tui.services.papers import PaperDetail
from tui.widgets.borders import set_border_subtitle, set_border_title
from tui.widgets.key_list import KeyList
from tui.widgets.render import Body, Labeler, clean, page_match_text, snippet_text

__all__ = ["DetailPane", "detail_body", "paper_links", "venue_line"]

EMPTY_HINT = Text.assemble(
    ("No paper selected.\n\n", "bold"),
    (
        "Highlight a result to read its abstract, topics and hardware with the reasons they "
        "were given, its sources, linked versions, similar papers and its citation here.",
        "dim",
    ),
)
MORE = "↓ more"
RELATIONS = {"linked": "a linked version of", "similar": "similar to"}


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


def venue_line(paper: Paper) -> str:
    """ "Venue · pp. 542-559 · 2024": the pages once, even when the venue text has them too."""
    venue = clean(paper.venue, one_line=True).strip() if paper.venue else ""
    pages = clean(paper.pages, one_line=True).strip() if paper.pages else ""
    if pages:
        # "EuroSys '24 (...), pp. 542-559" with pages "542-559": keep the pages in one place.
        dashes = re.escape(pages).replace(r"\-", "-").replace("-", "[-–—]+")
        venue = re.sub(rf",?\s*pp?\.\s*{dashes}\s*", " ", venue).strip().rstrip(",")
        venue = re.sub(r"\s{2,}", " ", venue).replace(" )", ")")
    parts = [venue, f"pp. {pages}" if pages else "", str(paper.year) if paper.year else ""]
    return " · ".join(part for part in parts if part)


class _Identifiers:
    """Name and value on one line when they fit, else the value alone on the next line.

    A DOI, arXiv id or URL is copied from the terminal by hand: it must never be wrapped
    in the middle (Rich folds a word longer than the column). At the full width of the
    pane a value fits, so only a name that would push it over moves out of the way.
    """

    def __init__(self, rows: list[tuple[str, str]]) -> None:
        self.rows = rows

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[RenderableType]:
        width = options.max_width
        name_width = max((len(name) for name, _ in self.rows), default=0)
        for name, value in self.rows:
            if name_width + 1 + cell_len(value) <= width:
                line = Text(name.rjust(name_width), "bold dim", no_wrap=True)
                yield Text.assemble(line, " ", value, no_wrap=True)
            else:
                yield Text(name, "bold dim")
                yield Text(value, overflow="fold")


def detail_body(detail: PaperDetail, labeler: Labeler, match_style: str = "bold reverse") -> Group:
    """The pane's body, abstract first; every document string is appended to a `Text` literally.

    The paper's curation `note` is for the corpus's maintainers (`paperscope show` prints
    it); it is not shown here.
    """
    paper = detail.paper
    title = Text(clean(paper.title), "bold")
    if paper.title_inferred:
        title.append("  (title inferred)", "italic dim")
    authors = author_list(
        paper, unknown="authors unknown", each=lambda name: clean(name, one_line=True)
    )
    parts: list[RenderableType] = [title, Text(authors)]
    where = venue_line(paper)
    if where:
        parts.append(Text(where, "dim"))
    parts.append(Text())
    if detail.abstract.segments:
        parts.append(snippet_text(detail.abstract, match_style=match_style))
    else:
        parts.append(Text(clean(paper.abstract) or "no abstract", "" if paper.abstract else "dim"))
    if detail.page_match is not None:  # where the query was found in the attachments
        parts.append(Text("\nFound in the full text", "bold"))
        found = page_match_text(detail.page_match, label_style="dim", match_style=match_style)
        parts.append(Padding(found, (0, 0, 0, 2)))
        file_name = PurePath(detail.page_match.path).name  # a whole path wraps the pane
        parts.append(Padding(Text(clean(f"in {file_name}", one_line=True), "dim"), (0, 0, 0, 2)))
    ids = [
        (name, clean(value, one_line=True).strip())
        for name, value in (
            # The user's own key (what their documents cite); paperscope's id without one.
            ("Key", paper.citation_key),
            ("Id", None if paper.citation_key else paper.id),
            ("DOI", paper.doi),
            ("arXiv", paper.arxiv),
            ("ISBN", paper.isbn),
            ("PMID", paper.pmid),
            ("URL", paper.url),
        )
        if value
    ]
    parts += [Text("\nIdentifiers", "bold"), Padding(_Identifiers(ids), (0, 0, 0, 2))]
    for heading, facet, labels in (
        ("Topics", "topic", paper.topics),
        ("Hardware", "hardware", paper.hardware),
    ):
        parts.append(Text(f"\n{heading}", "bold"))
        if not labels:
            none = "none" if detail.tagged else "once the library is tagged"
            parts.append(Padding(Text(none, "dim"), (0, 0, 0, 2)))
        for label in labels:
            name = Text(clean(labeler(facet, label.value), one_line=True))
            name.append(f"  {'topic' if facet == 'topic' else 'hw'}:{label.value}", "dim")
            parts.append(Padding(name, (0, 0, 0, 2)))
            parts.append(
                Padding(Text(clean(label.reason, one_line=True), "dim italic"), (0, 0, 0, 4))
            )
    parts.append(Text("\nSources", "bold"))
    parts.extend(Padding(source_text(source), (0, 0, 0, 2)) for source in paper.sources)
    for heading, text in detail.extra:
        parts.append(Text(f"\n{heading}", "bold"))
        parts.append(Padding(Text(clean(text)), (0, 0, 0, 2)))
    return Group(*parts)


def _similar_prompt(tag: str, paper: Paper) -> Text:
    """One row of the linked and similar papers: `linked  Title (2021)`."""
    prompt = Text(f"{tag:<8}", style="dim")
    prompt.append(clean(paper.title, one_line=True))
    if paper.year:
        prompt.append(f" ({paper.year})", "dim")
    return prompt


def source_text(source: Source) -> Text:
    """The file's name and line, its folder below: "refs.bib:50469", "in /home/me/lib".

    As one "path:line" a narrow pane broke a long path anywhere, the line number too
    ("cdl.bib:50" and "469" on the next line).
    """
    folder, name = os.path.split(source.path)
    text = Text(clean(str(replace(source, path=name or source.path)), one_line=True))
    if folder and name:
        text.append("\n")
        text.append(f"in {clean(folder, one_line=True)}", "dim")
    return text


class DetailPane(VerticalScroll, can_focus=True):
    """The paper's details as a pager; linked and similar papers are an `OptionList` after it.

    Attributes:
        detail: the paper on show (None: the empty hint).
        trail: the papers this one was reached from, with how (`linked`/`similar`), oldest
            first; esc (the screen's `step_back`) goes back along it.
    """

    BINDINGS = [
        Binding(
            "down,j",
            "read_down",
            "Scroll",
            show=False,
            id="detail.down",
            tooltip="Scroll down a line",
        ),
        Binding(
            "up,k", "read_up", "Scroll up", show=False, id="detail.up", tooltip="Scroll up a line"
        ),
        Binding(
            "space,pagedown",
            "read_page_down",
            "Page",
            id="detail.page_down",
            key_display="space",
            tooltip="Scroll down a page",
        ),
        Binding(
            "b,pageup",
            "read_page_up",
            "Page up",
            show=False,
            id="detail.page_up",
            tooltip="Scroll up a page",
        ),
        Binding(
            "g,home", "read_home", "Top", show=False, id="detail.top", tooltip="Back to the title"
        ),
        Binding("G,end", "read_end", "End", show=False, id="detail.end", tooltip="To the end"),
        Binding(
            "tab",
            "similar",
            "Similar",
            id="detail.similar",
            tooltip="Move to the linked and similar papers (enter opens one)",
        ),
    ]

    detail: PaperDetail | None = None
    _marks: Container[str] = ()

    def __init__(self, *, id: str | None = None, count_marks: bool = False) -> None:
        """Args:
        count_marks: the bottom border counts the marked papers (full screen, where no
            results list shows the count).
        """
        super().__init__(id=id)
        self.count_marks = count_marks
        self.trail: list[tuple[str, PaperDetail]] = []

    def compose(self) -> ComposeResult:
        yield Static(id="detail-trail", classes="detail-part")
        yield Body(id="detail-body")
        yield Static("Citation", id="detail-citation-title", classes="detail-heading detail-part")
        yield Body(id="detail-citation", classes="detail-part")
        yield Static(
            "Linked versions and more like this  (tab, then enter opens one)",
            id="detail-similar-title",
            classes="detail-heading detail-part",
        )
        yield KeyList(id="detail-similar", classes="detail-part")

    def on_mount(self) -> None:
        self.show_detail(None)
        self.watch(self, "scroll_y", self._show_more, init=False)
        self.watch(self, "virtual_size", self._show_more, init=False)

    def set_marks(self, marks: Container[str]) -> None:
        """Which paper ids carry a mark; the title says whether this paper is one of them.

        The same mark the results list shows, so the user sees what `m` did without
        leaving the pane (and, when narrow, without a results list in sight).
        """
        self._marks = marks
        self._show_mark()
        self._show_more()

    def _show_mark(self) -> None:
        marked = self.detail is not None and self.detail.paper.id in self._marks
        set_border_title(self, "Paper · ● marked" if marked else "Paper")
        self.set_class(marked, "-marked")

    def _show_more(self) -> None:
        """ "↓ more" in the bottom border while the pane can scroll further down; full
        screen (`count_marks`), the number of marked papers before it, as the results show."""
        parts = []
        if self.count_marks:
            count = len(self._marks) if isinstance(self._marks, Sized) else 0
            parts.append(f"● {count:,} marked" if count else "no marks")
        if self.scroll_y < self.max_scroll_y:
            parts.append(MORE)
        set_border_subtitle(self, " · ".join(parts))

    # -- reading by keys ------------------------------------------------------------------

    def action_read_down(self) -> None:
        """Scroll one line down."""
        self.scroll_relative(y=1, animate=False)

    def action_read_up(self) -> None:
        """Scroll one line up."""
        self.scroll_relative(y=-1, animate=False)

    def action_read_page_down(self) -> None:
        """Scroll a page down, keeping one line of the last page for context."""
        self.scroll_relative(y=max(1, self.scrollable_content_region.height - 1), animate=False)

    def action_read_page_up(self) -> None:
        """Scroll a page up."""
        self.scroll_relative(y=-max(1, self.scrollable_content_region.height - 1), animate=False)

    def action_read_home(self) -> None:
        """Back to the title."""
        self.scroll_home(animate=False)

    def action_read_end(self) -> None:
        """To the end (the similar papers)."""
        self.scroll_end(animate=False)

    def action_similar(self) -> None:
        """Move to the linked and similar papers, the pane's second stop."""
        similar = self.query_one("#detail-similar", OptionList)
        if self.detail is not None and similar.display:
            similar.focus()
        else:
            self.screen.focus_next()

    # -- showing a paper ------------------------------------------------------------------

    def show_detail(self, detail: PaperDetail | None, labeler: Labeler | None = None) -> None:
        """Lay out one paper (from its title), or an empty hint when there is none."""
        self.detail = detail
        self._show_mark()
        body = self.query_one("#detail-body", Static)
        similar = self.query_one("#detail-similar", OptionList)
        # Cleared first, while the parts may still be hidden: cleared with `set_options`
        # after they were shown, the full-screen paper opened scrolled to its end in about
        # one run in two of the detail snapshot with four tests at once (Python 3.13).
        similar.clear_options()
        # The headings only make sense under a paper: with none, the pane says what it is for.
        for part in self.query(".detail-part"):
            part.display = detail is not None
        if detail is None:
            self.trail.clear()
            body.update(EMPTY_HINT)
            self.query_one("#detail-citation", Static).update("")
            return
        self._show_trail()
        body.update(detail_body(detail, labeler or (lambda facet, value: value)))
        # One `add_options` call: each `add_option` measured the list's lines again, and this
        # runs on every move of the results' cursor (1.15 -> 0.93 ms a paper shown).
        options = [
            Option(_similar_prompt(tag, paper), id=f"{tag}:{paper.id}")
            for tag, papers in (("linked", detail.related), ("similar", detail.similar))
            for paper in papers
        ]
        similar.add_options(options or [Option(Text("none", style="dim"), disabled=True)])
        if options:
            similar.highlighted = 0  # so tab, enter opens the first one straight away
        citation = Text(f"{detail.style_label}\n", style="dim") if detail.style_label else Text()
        citation.append(clean(detail.citation))
        self.query_one("#detail-citation", Static).update(citation)
        self.scroll_home(animate=False)
        self.call_after_refresh(self._show_more)

    def _show_trail(self) -> None:
        trail = self.query_one("#detail-trail", Static)
        trail.display = bool(self.trail)
        if self.trail:
            relation, origin = self.trail[-1]
            text = Text(f"← {RELATIONS.get(relation, relation)} ", "dim")
            text.append(clean(origin.paper.title, one_line=True), "italic")
            text.append("  (esc goes back)", "dim")
            trail.update(text)

    def step_from(self, relation: str) -> None:
        """The next paper shown is reached from this one (`relation`: linked or similar)."""
        if self.detail is not None:
            self.trail.append((relation, self.detail))

    def step_back(self, labeler: Labeler | None = None) -> bool:
        """Show the paper the current one was reached from; False when there is none."""
        if not self.trail:
            return False
        _, previous = self.trail.pop()
        self.show_detail(previous, labeler)
        self.focus()
        return True

    @on(OptionList.OptionSelected, "#detail-similar")
    def _jump(self, event: OptionList.OptionSelected) -> None:
        """Selecting a linked or similar paper opens it, as a step esc undoes."""
        event.stop()
        if event.option.id:
            relation, paper_id = event.option.id.split(":", 1)
            self.step_from(relation)
            self.post_message(PaperChosen(paper_id, step=True))
