"""Go to definition on a Zotero item: Zotero's own link to the item.

An item without a Better BibTeX key is cited by paperscope's generated key, which Zotero
does not know; the link names the item by Zotero's item key (`zotero://select/library/
items/KEY`), and an item of a group library by its group (`.../groups/ID/items/KEY`).
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from tests.fixtures.zotero import ZoteroFixture
from tests.tui.lsp.client import complete, end_of, eventually, open_document, start


def _library(folder: Path) -> int:
    """A user's item and a group's item, neither with a Better BibTeX key; the group's
    id (the fixture's groups are numbered 1000 + their library's id)."""
    zotero = ZoteroFixture(folder)
    zotero.item(
        "journalArticle",
        {"title": "Loom Scheduling", "date": "2020"},
        creators=[("Ada", "Byron", 0, "author")],
        key="LOOMKEY1",
    )
    group = zotero.group("Lab group")
    zotero.item(
        "journalArticle",
        {"title": "Punched Cards", "date": "2021"},
        creators=[("Charles", "Babbage", 0, "author")],
        library=group,
        key="CARDKEY2",
    )
    zotero.close()
    return 1000 + group


async def test_definition_of_a_zotero_item_is_zoteros_link_to_it(tmp_path: Path) -> None:
    data = tmp_path / "Zotero"
    group = _library(data)
    client = await start(tmp_path, [data])
    try:
        links = {}
        for word in ("loom", "punched"):
            uri = open_document(client, tmp_path / f"{word}.md", f"[@{word}", "markdown")

            async def labels(uri: str = uri, word: str = word) -> list[str]:
                position = lsp.Position(0, len(word) + 2)
                return [item.label for item in await complete(client, uri, position)]

            (key,) = await eventually(labels)
            text = f"As [@{key}] shows."
            cited = open_document(client, tmp_path / f"{word}-cited.md", text, "markdown")
            found = await client.text_document_definition_async(
                lsp.DefinitionParams(lsp.TextDocumentIdentifier(cited), end_of(text, "[@"))
            )
            assert isinstance(found, lsp.Location)
            links[word] = found.uri
        assert links == {
            "loom": "zotero://select/library/items/LOOMKEY1",
            "punched": f"zotero://select/groups/{group}/items/CARDKEY2",
        }
    finally:
        await client.shutdown_session()
