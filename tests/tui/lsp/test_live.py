"""A server started on an index its library has moved past: the index as built is served
at once (the items say it is being updated), and the library read again in a process of
its own is served when done.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lsprotocol import types as lsp

from tests.tui.lsp.client import complete, eventually, library_copy, open_document, server_env
from tests.tui.lsp.client import start as start_server


async def test_an_index_older_than_its_library_is_served_until_read_again(
    tmp_path: Path,
) -> None:
    refs = library_copy(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "tui", "--corpus", str(refs), "index"],
        env=server_env(tmp_path),
        check=True,
        capture_output=True,
    )
    text = refs.read_text(encoding="utf-8")
    refs.write_text(text.replace("{Attention Is All", "{Retention Is All"), encoding="utf-8")
    client = await start_server(tmp_path, [refs])
    try:
        query = "\\cite{vaswani"
        uri = open_document(client, tmp_path / "a.tex", query, "latex")

        async def item() -> lsp.CompletionItem | None:
            found = await complete(client, uri, lsp.Position(0, len(query)))
            return next((i for i in found if i.label == "vaswani2017attention"), None)

        first = await eventually(item)
        assert first is not None and first.detail is not None
        assert "Attention Is All" in first.detail
        assert "updating the index from refs.bib" in first.detail

        async def updated() -> bool:
            now = await item()
            return now is not None and (now.detail or "").endswith("Retention Is All You Need")

        assert await eventually(updated, seconds=60)
    finally:
        await client.shutdown_session()
