"""`paperscope lsp` when things are wrong: a broken .bib, no library, an unknown setting.

Each problem is a `window/showMessage` naming its cause, and the server goes on answering.
One server per case (each is a different library); no index is built for a missing one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from tests.tui.lsp.client import complete, eventually, open_document, start

BROKEN = """@article{good2020,
  author = {Good, Ann},
  title = {A Good Paper},
  year = {2020},
}

@article{broken,
  title = {Unclosed
  year = 2021,
"""


async def _message(client: LanguageClient, *parts: str) -> lsp.ShowMessageParams | None:
    async def said() -> lsp.ShowMessageParams | None:
        return next((m for m in client.messages if all(p in m.message for p in parts)), None)

    return await eventually(said)


async def test_a_broken_bib_is_named_and_its_good_entries_served(tmp_path: Path) -> None:
    bib = tmp_path / "broken.bib"
    bib.write_text(BROKEN, encoding="utf-8")
    client = await start(tmp_path, [bib], options={"stlye": "apa", "debounce_ms": "soon"})
    try:
        uri = open_document(client, tmp_path / "a.md", "[@good", "markdown")

        async def labels() -> list[str]:
            return [i.label for i in await complete(client, uri, lsp.Position(0, 6))]

        assert await eventually(labels) == ["good2020"]
        message = await _message(client, "broken.bib:7", "malformed BibTeX entry")
        assert message is not None and message.type == lsp.MessageType.Warning
        unknown = await _message(client, "unknown setting 'stlye'")
        assert unknown is not None and unknown.type == lsp.MessageType.Error
        assert await _message(client, "debounce_ms must be a number")
    finally:
        await client.shutdown_session()


async def test_no_library_is_said_and_the_server_keeps_answering(tmp_path: Path) -> None:
    missing = tmp_path / "missing.bib"
    client = await start(tmp_path, [missing])
    try:
        message = await _message(client, "no papers could be loaded", "no such file")
        assert message is not None and message.type == lsp.MessageType.Error
        uri = open_document(client, tmp_path / "a.tex", "\\cite{x}\n\\cite{", "latex")
        assert await complete(client, uri, lsp.Position(1, 6)) == []
        hover = await client.text_document_hover_async(
            lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(0, 7))
        )
        assert hover is None
    finally:
        await client.shutdown_session()


def test_stray_output_goes_to_stderr_not_into_the_protocol() -> None:
    """Whatever prints on stdout (Python or a C library writing to fd 1) reaches stderr;
    only what the protocol writes reaches the real stdout."""
    code = (
        "import os, sys, warnings\n"
        "from tui.cli.lsp_cmd import protocol_streams\n"
        "_, out = protocol_streams()\n"
        "print('stray print')\n"
        "os.write(1, b'stray fd\\n')\n"
        "warnings.warn('stray warning')\n"
        "out.write(b'Content-Length: 2\\r\\n\\r\\n{}')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONWARNINGS": "default"},
        check=True,
    )
    assert done.stdout == b"Content-Length: 2\r\n\r\n{}"
    for stray in (b"stray print", b"stray fd", b"stray warning"):
        assert stray in done.stderr
