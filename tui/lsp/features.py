"""The protocol's methods, each handed to `CitationServer` (tui.lsp.server).

Kept apart from the handlers so they can be read without pygls's registration; each
function here only unpacks the request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from tui.lsp.server import WRITE_BIBLIOGRAPHY, CitationServer

__all__ = ["TRIGGERS", "make_server"]

# `\cite{`, `a,`, `@`, `#cite(<`, `[cite:@`: each starts or continues a citation.
TRIGGERS = ["{", ",", "@", "<", ":", ";"]


def make_server(corpus: list[Path] | None, taxonomy: Path | None) -> CitationServer:
    """A server on the library at `corpus` (None: the bundled corpus), not yet started."""
    server = CitationServer(corpus, taxonomy)

    @server.feature(lsp.INITIALIZE)
    def initialize(params: lsp.InitializeParams) -> None:
        server.start(params.initialization_options, params.capabilities)

    @server.feature(lsp.INITIALIZED)
    def initialized(params: lsp.InitializedParams) -> None:
        server.initialized()

    @server.feature(lsp.SHUTDOWN)
    def shutdown(params: Any) -> None:
        server.library.stop()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
        server.publish(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
        server.schedule(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: lsp.DidCloseTextDocumentParams) -> None:
        server.clear(params.text_document.uri)

    @server.feature(
        lsp.TEXT_DOCUMENT_COMPLETION,
        lsp.CompletionOptions(trigger_characters=TRIGGERS, resolve_provider=True),
    )
    def completion(params: lsp.CompletionParams) -> lsp.CompletionList | None:
        return server.complete(params.text_document.uri, params.position)

    @server.feature(lsp.COMPLETION_ITEM_RESOLVE)
    def resolve(item: lsp.CompletionItem) -> lsp.CompletionItem:
        return server.resolve(item)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(params: lsp.HoverParams) -> lsp.Hover | None:
        return server.hover(params.text_document.uri, params.position)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(params: lsp.DefinitionParams) -> lsp.Location | None:
        return server.definition(params.text_document.uri, params.position)

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]),
    )
    def code_action(params: lsp.CodeActionParams) -> list[lsp.CodeAction | lsp.Command]:
        return server.code_actions(params)

    @server.command(WRITE_BIBLIOGRAPHY)
    def write_bibliography(uri: str) -> str | None:
        return server.write_bibliography(uri)

    return server
