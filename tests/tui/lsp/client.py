"""A `paperscope lsp` process and a pytest-lsp client talking to it, for the tests.

One server per test module (each start is an interpreter, an index build and a watch
thread): the module's fixture calls `start` and `stop`. The server runs in folders of the
test's own (cache, data, config), never the user's.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pytest_lsp import LanguageClient, make_test_lsp_client

HERE = Path(__file__).parent
REFS = HERE / "refs.bib"


def server_env(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PAPERSCOPE_CACHE_DIR": str(home / "cache"),
        "PAPERSCOPE_DATA_DIR": str(home / "data"),
        "PAPERSCOPE_CONFIG": str(home / "config" / "config.toml"),
        "PYTHONWARNINGS": "default",  # a warning printed must still not reach stdout
    }


def library_copy(home: Path) -> Path:
    """The test library, copied where the test may edit it."""
    home.mkdir(parents=True, exist_ok=True)
    target = home / "refs.bib"
    shutil.copy(REFS, target)
    return target


async def start(
    home: Path, corpus: list[Path], options: Any = None, resolve: bool = True
) -> LanguageClient:
    """A client connected to `paperscope --corpus ... lsp`, its session initialized."""
    client = make_test_lsp_client()
    arguments = [arg for path in corpus for arg in ("--corpus", str(path))]
    await client.start_io(sys.executable, "-m", "tui", *arguments, "lsp", env=server_env(home))
    markdown = [lsp.MarkupKind.Markdown, lsp.MarkupKind.PlainText]
    item = lsp.ClientCompletionItemOptions(
        documentation_format=markdown,
        resolve_support=lsp.ClientCompletionItemResolveOptions(properties=["documentation"])
        if resolve
        else None,
    )
    capabilities = lsp.ClientCapabilities(
        text_document=lsp.TextDocumentClientCapabilities(
            completion=lsp.CompletionClientCapabilities(completion_item=item),
            hover=lsp.HoverClientCapabilities(content_format=markdown),
        ),
        window=lsp.WindowClientCapabilities(
            show_message=lsp.ShowMessageRequestClientCapabilities()
        ),
    )
    await client.initialize_session(
        lsp.InitializeParams(
            capabilities=capabilities,
            initialization_options=options,
            root_uri=home.as_uri(),
        )
    )
    return client


def open_document(client: LanguageClient, path: Path, text: str, language: str) -> str:
    """Opens a document (written to disk too, for the bibliography action); its URI."""
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
        )
    )
    return uri


def end_of(text: str, marker: str) -> lsp.Position:
    """The position just after the first `marker` in `text`."""
    offset = text.index(marker) + len(marker)
    line = text.count("\n", 0, offset)
    return lsp.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


async def complete(
    client: LanguageClient, uri: str, position: lsp.Position
) -> list[lsp.CompletionItem]:
    result = await client.text_document_completion_async(
        lsp.CompletionParams(text_document=lsp.TextDocumentIdentifier(uri), position=position)
    )
    if result is None:
        return []
    return list(result.items if isinstance(result, lsp.CompletionList) else result)


async def eventually(check: Any, seconds: float = 20.0) -> Any:
    """Retries the coroutine function `check` until it returns something true."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        result = await check()
        if result or asyncio.get_running_loop().time() > deadline:
            return result
        await asyncio.sleep(0.1)
