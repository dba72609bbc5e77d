"""`paperscope lsp`: citations as a language server, for LaTeX, Markdown, Typst and Org.

Built on pygls; every feature is a thin handler over what the commands already do: the
engine's as-you-type search for completion (tui.lsp.library), the manuscript scanner of
`paperscope cited` for where citations are (tui.lsp.cursor), `format_citation` in the
user's style and the app's detail rows for the popups (tui.lsp.render), `cited -o` for
the bibliography file (tui.lsp.bibliography). Handlers run on the protocol's event loop
and never wait for the library: it is opened and reloaded in its own thread.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from index import __version__
from index.citations import KeyFormatError
from index.citations.manuscripts import key_offsets, syntax_for
from index.models import Paper
from tui.lsp.bibliography import BibliographyError, bibliography_file, write_bibliography
from tui.lsp.cursor import citation_at, key_at, key_text, offset_of
from tui.lsp.library import LiveLibrary, Served
from tui.lsp.render import completion_detail, documentation, hover_text, zotero_link
from tui.lsp.settings import Settings, read_settings

__all__ = ["WRITE_BIBLIOGRAPHY", "CitationServer"]

WRITE_BIBLIOGRAPHY = "paperscope.writeBibliography"
COMPLETION_LIMIT = 20  # items per completion: a menu, not a search page
# The editors' language ids for the four syntaxes (else the file's extension decides).
_LANGUAGES = {
    "tex": "latex",
    "latex": "latex",
    "plaintex": "latex",
    "context": "latex",
    "markdown": "markdown",
    "quarto": "markdown",
    "rmd": "markdown",
    "pandoc": "markdown",
    "typst": "typst",
    "org": "org",
}


def _position(text: str, offset: int) -> lsp.Position:
    line = text.count("\n", 0, offset)
    return lsp.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


def _range(text: str, start: int, end: int) -> lsp.Range:
    return lsp.Range(start=_position(text, start), end=_position(text, end))


def _path_of(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


def _diagnostics(served: Served, text: str, syntax: str) -> list[lsp.Diagnostic]:
    """An unknown-key warning for each cited key the library does not know."""
    diagnostics = []
    for key, start in key_offsets(text, syntax):
        if key == "*" or served.knows(key):  # `\nocite{*}`: the whole library
            continue
        close = served.suggest(key)
        hint = f"; did you mean {', '.join(repr(k) for k in close)}?" if close else ""
        diagnostics.append(
            lsp.Diagnostic(
                range=_range(text, start, start + len(key)),
                message=f"unknown citation key {key!r}{hint}",
                severity=lsp.DiagnosticSeverity.Warning,
                source="paperscope",
                data={"suggestions": close},
            )
        )
    return diagnostics


class CitationServer(LanguageServer):
    """The language server: the served library, the user's settings, pending diagnostics."""

    def __init__(self, corpus: list[Path] | None, taxonomy: Path | None) -> None:
        super().__init__("paperscope", __version__)
        self.library = LiveLibrary(corpus, taxonomy, self.tell)
        self.library.on_served = self._library_served
        self.settings = Settings()
        self.resolve_support = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self._pending: dict[str, asyncio.TimerHandle] = {}
        self._early: list[tuple[str, bool]] = []  # said before the client was initialized
        # One thread works out diagnostics, so a document's publishes stay in order.
        self._diagnosing = ThreadPoolExecutor(1, thread_name_prefix="paperscope-diagnostics")
        self._ready = False

    # -- telling the user -----------------------------------------------------------------

    def tell(self, message: str, error: bool) -> None:
        """A `window/showMessage`, from any thread; queued until the client is ready."""
        if not self._ready or self.loop is None:
            self._early.append((message, error))
            return
        kind = lsp.MessageType.Error if error else lsp.MessageType.Warning
        params = lsp.ShowMessageParams(type=kind, message=message)
        self.loop.call_soon_threadsafe(self.window_show_message, params)

    def info(self, message: str) -> None:
        self.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Info, message=message))

    def start(self, settings: Any, client: lsp.ClientCapabilities) -> None:
        """At `initialize`: the settings read, the client's abilities noted."""
        self.loop = asyncio.get_running_loop()
        self.settings, problems, warnings = read_settings(settings)
        self._early.extend((problem, True) for problem in problems)
        self._early.extend((warning, False) for warning in warnings)
        item = client.text_document and client.text_document.completion
        options = item.completion_item if item else None
        self.resolve_support = bool(options and options.resolve_support)

    def initialized(self) -> None:
        """The client listens now: say what went wrong so far, and open the library."""
        self._ready = True
        for message, error in self._early:
            self.tell(message, error)
        self._early.clear()
        self.library.start()

    # -- documents ------------------------------------------------------------------------

    def syntax_of(self, uri: str) -> str | None:
        document = self.workspace.get_text_document(uri)
        syntax = _LANGUAGES.get((document.language_id or "").lower())
        found = syntax or syntax_for(_path_of(uri).name)
        return found if found in ("latex", "markdown", "typst", "org") else None

    def _library_served(self) -> None:
        """Another engine is served: diagnostics of every open document follow it."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._publish_all)

    def _publish_all(self) -> None:
        for uri in list(self.workspace.text_documents):
            self.publish(uri)

    def schedule(self, uri: str) -> None:
        """Diagnostics once the typing pauses (`debounce_ms`), not on every keystroke."""
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        loop = asyncio.get_running_loop()
        self._pending[uri] = loop.call_later(self.settings.debounce, self.publish, uri)

    def publish(self, uri: str) -> None:
        """Unknown keys in the document, each with the closest keys: worked out in the
        diagnostics thread (suggesting among 100,000 keys is not instant), published unless
        the document changed meanwhile (a later publish follows that change)."""
        self._pending.pop(uri, None)
        served = self.library.served
        syntax = self.syntax_of(uri) if uri in self.workspace.text_documents else None
        if served is None or syntax is None:
            return
        document = self.workspace.get_text_document(uri)
        text, version = document.source, document.version
        loop = asyncio.get_running_loop()
        found = loop.run_in_executor(self._diagnosing, _diagnostics, served, text, syntax)

        def send(future: asyncio.Future[list[lsp.Diagnostic]]) -> None:
            if future.cancelled() or future.exception() is not None:
                return
            now = self.workspace.text_documents.get(uri)
            if now is None or now.version != version:
                return
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, diagnostics=future.result())
            )

        found.add_done_callback(send)

    def clear(self, uri: str) -> None:
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )

    # -- features -------------------------------------------------------------------------

    def complete(self, uri: str, position: lsp.Position) -> lsp.CompletionList | None:
        """The library's papers for the query typed in the citation at the cursor."""
        syntax = self.syntax_of(uri)
        if syntax is None:
            return None
        text = self.workspace.get_text_document(uri).source
        offset = offset_of(text, position.line, position.character)
        spot = citation_at(text, offset, syntax)
        if spot is None:
            return None
        found = self.library.search(spot.query, COMPLETION_LIMIT)
        if found is None:
            return lsp.CompletionList(is_incomplete=True, items=[])
        served, papers = found
        status = self.library.status
        items = []
        for rank, paper in enumerate(papers):
            key = served.key_of(paper)
            try:
                written, start = key_text(key, spot)
            except KeyFormatError:
                continue  # a key this syntax cannot hold is offered nowhere
            detail = completion_detail(paper)
            item = lsp.CompletionItem(
                label=key,
                kind=lsp.CompletionItemKind.Reference,
                detail=detail + (f" ({status})" if status else ""),
                label_details=lsp.CompletionItemLabelDetails(description=detail),
                sort_text=f"{rank:04d}",
                # The typed query is not a prefix of the key: every item matches it.
                filter_text=text[start:offset],
                text_edit=lsp.TextEdit(range=_range(text, start, offset), new_text=written),
                data={"id": paper.id, "key": key},
            )
            if not self.resolve_support:
                item.documentation = self._documentation(paper, key)
            items.append(item)
        # Incomplete: each keystroke is a new query, ranked again, not a filter of this list.
        return lsp.CompletionList(is_incomplete=True, items=items)

    def _documentation(self, paper: Paper, key: str) -> lsp.MarkupContent:
        text = documentation(paper, self.settings.style, key, self.library.status)
        return lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text)

    def resolve(self, item: lsp.CompletionItem) -> lsp.CompletionItem:
        """The documentation of the item the user is looking at, formatted only then."""
        served = self.library.served
        data = item.data if isinstance(item.data, dict) else {}
        paper = served.paper(str(data.get("id"))) if served is not None else None
        if paper is not None:
            item.documentation = self._documentation(paper, str(data.get("key")))
        return item

    def _cited(self, uri: str, position: lsp.Position) -> tuple[str, Any, Served, Paper] | None:
        """(text, the key spot, served, paper) for the cited key under the cursor."""
        syntax = self.syntax_of(uri)
        served = self.library.served
        if syntax is None or served is None:
            return None
        text = self.workspace.get_text_document(uri).source
        spot = key_at(text, offset_of(text, position.line, position.character), syntax)
        paper = served.find(spot.key) if spot is not None else None
        if spot is None or paper is None:
            return None
        return text, spot, served, paper

    def hover(self, uri: str, position: lsp.Position) -> lsp.Hover | None:
        """The cited paper: reference, abstract, the user's tags, status, note, links."""
        found = self._cited(uri, position)
        if found is None:
            return None
        text, spot, _, paper = found
        from tui.services.annotations import Annotations
        from tui.services.layer import notes_dir

        data = self.settings.data_dir()
        value = hover_text(
            paper,
            self.settings.style,
            spot.key,
            Annotations(data / "annotations.json"),
            notes_dir(data),
        )
        return lsp.Hover(
            contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=value),
            range=_range(text, spot.start, spot.end),
        )

    def definition(self, uri: str, position: lsp.Position) -> lsp.Location | None:
        """The entry in the user's file (BibTeX, CSL-JSON, RIS line); Zotero's item link."""
        found = self._cited(uri, position)
        if found is None or not found[3].sources:
            return None
        paper = found[3]
        source = paper.sources[0]
        start = lsp.Position(line=max((source.line or 1) - 1, 0), character=0)
        where = lsp.Range(start=start, end=start)
        if Path(source.path).name.startswith("zotero.sqlite") or source.path.endswith(".sqlite"):
            link = zotero_link(paper)
            return lsp.Location(uri=link, range=where) if link is not None else None
        path = Path(source.path).expanduser()
        if not path.is_file():
            return None
        return lsp.Location(uri=path.resolve().as_uri(), range=where)

    def code_actions(self, params: lsp.CodeActionParams) -> list[lsp.CodeAction | lsp.Command]:
        """A suggestion for each unknown key; "write the bibliography" when the document
        names its bibliography file."""
        uri = params.text_document.uri
        actions: list[lsp.CodeAction | lsp.Command] = []
        for diagnostic in params.context.diagnostics:
            data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
            if diagnostic.source != "paperscope":
                continue
            for suggestion in data.get("suggestions") or []:
                edit = lsp.TextEdit(range=diagnostic.range, new_text=str(suggestion))
                actions.append(
                    lsp.CodeAction(
                        title=f"Replace with {suggestion}",
                        kind=lsp.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        edit=lsp.WorkspaceEdit(changes={uri: [edit]}),
                    )
                )
        syntax = self.syntax_of(uri)
        if syntax is not None:
            text = self.workspace.get_text_document(uri).source
            target = bibliography_file(text, syntax, _path_of(uri))
            if target is not None:
                # A bare command (the server writes the file): every client runs one, and
                # a CodeAction around it reads back as a Command in lsprotocol's clients.
                title = f"Write the bibliography to {target.name}"
                actions.append(
                    lsp.Command(title=title, command=WRITE_BIBLIOGRAPHY, arguments=[uri])
                )
        return actions

    def write_bibliography(self, uri: str) -> str | None:
        """The cited papers into the document's bibliography file; says what it did."""
        syntax = self.syntax_of(uri)
        served = self.library.served
        if syntax is None:
            self.tell("paperscope: not a LaTeX, Markdown, Typst or Org document", True)
            return None
        if served is None:
            self.tell(f"paperscope: no library yet ({self.library.status})", True)
            return None
        text = self.workspace.get_text_document(uri).source
        target = bibliography_file(text, syntax, _path_of(uri))
        if target is None:
            self.tell("paperscope: this document names no bibliography file", True)
            return None
        try:
            count, unknown = write_bibliography(
                target, text, syntax, served.find, served.keys, served.every_paper
            )
        except BibliographyError as error:
            self.tell(f"paperscope: {error}", True)
            return None
        left = f"; unknown, left out: {', '.join(unknown)}" if unknown else ""
        message = f"paperscope: wrote {count} cited papers to {target.name}{left}"
        self.info(message)
        return str(target)
