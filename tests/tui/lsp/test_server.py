"""`paperscope lsp` end to end: a real client (pytest-lsp) and the server over stdio.

One server for the module, on a copy of `refs.bib` with a tag, a status and a note on
Olshausen's paper; the live-edit test edits that copy, so it runs last.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from index.facets.taxonomy import Taxonomy
from index.library.load import load_library
from tests.tui.lsp.client import complete, end_of, eventually, library_copy, open_document, start
from tui.services.annotations import Annotations
from tui.services.notes import note_path

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory, taxonomy: Taxonomy) -> Path:
    """The server's folders, the library copy, and the user's layer on one paper."""
    home = tmp_path_factory.mktemp("lsp")
    refs = library_copy(home)
    paper = next(
        p
        for p in load_library([refs], taxonomy).papers
        if (p.citation_key or "").startswith("olsh")
    )
    annotations = Annotations(home / "data" / "annotations.json")
    annotations.change_tags([paper], add=["sparse-coding"])
    annotations.set_status([paper], "read")
    note = note_path(home / "data" / "notes", paper)
    note.parent.mkdir(parents=True)
    note.write_text("Read for chapter 2: the V1 model.", encoding="utf-8")
    return home


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(home: Path) -> AsyncIterator[LanguageClient]:
    client = await start(home, [home / "refs.bib"])
    uri = open_document(client, home / "ready.tex", "\\cite{", "latex")
    # The library is opened in the server's thread: completion is empty until it is.
    assert await eventually(lambda: complete(client, uri, lsp.Position(0, 6)))
    yield client
    await client.shutdown_session()


async def _labels(client: LanguageClient, home: Path, name: str, text: str, lang: str) -> list[str]:
    """The labels offered at the `|` in `text` (else at its end)."""
    if "|" not in text:
        text += "|"
    before, after = text.split("|")
    uri = open_document(client, home / name, before + after, lang)
    return [item.label for item in await complete(client, uri, end_of(before, before))]


@pytest.mark.parametrize(
    ("name", "lang", "text", "first"),
    [
        (
            "a.tex",
            "latex",
            "\\citep[p.~3]{olshausen1996emergence, field 1987",
            "field1987relations",
        ),
        ("b.tex", "latex", "As \\textcite{attention", "vaswani2017attention"),
        ("c.tex", "latex", "\\autocite[see][12]{knuth", "knuth1984texbook"),
        ("d.md", "markdown", "As [@olshausen1996emergence; @attention", "vaswani2017attention"),
        ("e.md", "markdown", "As @sparse| and", "olshausen1996emergence"),
        ("f.qmd", "quarto", "Shown by [@sparse code", "olshausen1996emergence"),
        ("g.typ", "typst", "see @texbook", "knuth1984texbook"),
        ("h.typ", "typst", "#cite(<field", "field1987relations"),
        ("i.org", "org", "[cite:@attention", "vaswani2017attention"),
        ("j.org", "org", "[cite/t:@olshausen1996emergence;@field 1987", "field1987relations"),
    ],
)
async def test_completion_in_each_syntax(
    client: LanguageClient, home: Path, name: str, lang: str, text: str, first: str
) -> None:
    """The words after the trigger are a query; the best paper is offered first."""
    labels = await _labels(client, home, name, text, lang)
    assert labels and labels[0] == first


async def test_completion_item_shows_and_inserts_only_the_key(
    client: LanguageClient, home: Path
) -> None:
    text = "Known \\citep[p.~3]{field1987relations, sparse code"
    uri = open_document(client, home / "item.tex", text, "latex")
    item = (await complete(client, uri, end_of(text, "code")))[0]
    assert item.label == "olshausen1996emergence"
    assert (item.detail or "").startswith("Olshausen et al. 1996 · Emergence of Simple-Cell")
    edit = item.text_edit
    assert isinstance(edit, lsp.TextEdit)
    assert edit.new_text == "olshausen1996emergence"
    # Replaces the query typed after the comma, nothing before it.
    assert (edit.range.start.character, edit.range.end.character) == (39, len(text))
    resolved = await client.completion_item_resolve_async(item)
    doc = resolved.documentation
    assert isinstance(doc, lsp.MarkupContent)
    assert "Olshausen, B" in doc.value and "Nature, 381" in doc.value  # APA, the default
    assert "primary visual cortex" in doc.value  # the abstract


async def test_nothing_is_offered_outside_citations(client: LanguageClient, home: Path) -> None:
    """Nothing is offered outside citation syntax: code, comments, addresses."""
    texts = [
        ("k.md", "markdown", "```\n@olsh\n"),
        ("l.md", "markdown", "write to bob@olsh"),
        ("n.tex", "latex", "% \\cite{olsh"),
        ("o.tex", "latex", "\\citestyle{olsh"),
        ("p.typ", "typst", "// @olsh"),
        ("q.org", "org", "# [cite:@olsh"),
        ("r.org", "org", "#+begin_src python\n[cite:@olsh|\n#+end_src\n"),
        ("s.md", "markdown", "`@olsh|` is code"),
        ("t.typ", "typst", "/* @olsh| */"),
    ]
    for name, lang, text in texts:
        assert await _labels(client, home, name, text, lang) == [], text


async def test_hover_shows_the_reference_and_the_users_layer(
    client: LanguageClient, home: Path
) -> None:
    text = "As shown \\cite{olshausen1996emergence}.\n"
    uri = open_document(client, home / "hover.tex", text, "latex")
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), end_of(text, "olshausen"))
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    value = hover.contents.value
    assert "Emergence of simple-cell" in value and "Nature, 381" in value
    assert "primary visual cortex" in value
    assert "status: read" in value and "sparse" in value
    assert "chapter 2" in value  # the note
    assert "(https://doi.org/10.1038/381607a0)" in value
    outside = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(0, 2))
    )
    assert outside is None


async def test_definition_is_the_entry_in_the_bib_file(client: LanguageClient, home: Path) -> None:
    text = "See @vaswani2017attention.\n"
    uri = open_document(client, home / "def.md", text, "markdown")
    found = await client.text_document_definition_async(
        lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), end_of(text, "@vas"))
    )
    assert isinstance(found, lsp.Location)
    assert found.uri == (home / "refs.bib").resolve().as_uri()
    line = (home / "refs.bib").read_text().splitlines()[found.range.start.line]
    assert line.startswith("@inproceedings{vaswani2017attention")


async def test_unknown_key_is_a_diagnostic_with_a_replacing_code_action(
    client: LanguageClient, home: Path
) -> None:
    # `\nocite{*}` cites the whole library: no unknown key.
    text = "\\cite{olshausen1996emergenc} and \\cite{knuth1984texbook}\\nocite{*}\n"
    uri = open_document(client, home / "diag.tex", text, "latex")

    async def published() -> list[lsp.Diagnostic]:
        return list(client.diagnostics.get(uri, []))

    diagnostics = await eventually(published)
    assert len(diagnostics) == 1
    diagnostic = diagnostics[0]
    assert "unknown citation key 'olshausen1996emergenc'" in diagnostic.message
    assert "did you mean 'olshausen1996emergence'" in diagnostic.message
    assert (diagnostic.range.start.character, diagnostic.range.end.character) == (6, 27)
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            diagnostic.range,
            lsp.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    fix = next(a for a in actions or [] if a.title == "Replace with olshausen1996emergence")
    assert isinstance(fix, lsp.CodeAction) and fix.kind == lsp.CodeActionKind.QuickFix
    assert fix.edit is not None and fix.edit.changes is not None
    assert list(fix.edit.changes[uri]) == [
        lsp.TextEdit(range=diagnostic.range, new_text="olshausen1996emergence")
    ]
    # Fixed as the user types: the diagnostic goes once the typing pauses.
    fixed = text.replace("emergenc}", "emergence}")
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [lsp.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )

    async def cleared() -> bool:
        return len(client.diagnostics.get(uri, [None])) == 0

    assert await eventually(cleared)


async def test_write_the_bibliography_keeps_the_files_other_entries(
    client: LanguageClient, home: Path
) -> None:
    out = home / "out.bib"
    mine = "% my own\n@misc{mine,\n  title = {Mine},\n}\n"
    out.write_text(mine, encoding="utf-8")
    text = "\\cite{knuth1984texbook,field1987relations}\n\\addbibresource{out.bib}\n"
    uri = open_document(client, home / "bib.tex", text, "latex")
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
            lsp.CodeActionContext(diagnostics=[]),
        )
    )
    command = next(a for a in actions or [] if a.title == "Write the bibliography to out.bib")
    assert isinstance(command, lsp.Command)
    assert command.command == "paperscope.writeBibliography"
    for _ in range(2):  # twice: the second run replaces, never duplicates
        await client.workspace_execute_command_async(
            lsp.ExecuteCommandParams(command=command.command, arguments=command.arguments)
        )
    written = out.read_text(encoding="utf-8")
    assert written.startswith(mine)
    assert written.count("@book{knuth1984texbook,") == 1
    assert written.count("@article{field1987relations,") == 1
    assert "olshausen" not in written
    assert any("wrote 2 cited papers to out.bib" in m.message for m in client.messages)


async def test_an_edited_bib_file_is_served_within_seconds(
    client: LanguageClient, home: Path
) -> None:
    """Runs last: it changes the module's library. The edited entries are served first
    from the edit alone (the items say the index is being updated), then from the
    index updated in the background (they no longer say so)."""
    text = "\\cite{hubel"
    uri = open_document(client, home / "live.tex", text, "latex")
    assert "hubel1962receptive" not in [
        i.label for i in await complete(client, uri, end_of(text, text))
    ]
    bib = home / "refs.bib"
    edited = bib.read_text(encoding="utf-8").replace(
        "title = {Relations between", "title = {Zebrafish Relations between"
    )
    edited += (
        "\n@article{hubel1962receptive,\n  author = {Hubel, D. H. and Wiesel, T. N.},\n"
        "  title = {Receptive Fields of Single Neurones in the Cat's Striate Cortex},\n"
        "  year = {1962},\n}\n"
    )
    bib.write_text(edited, encoding="utf-8")

    async def offered(query: str, key: str) -> lsp.CompletionItem | None:
        document = open_document(client, home / f"{key}.tex", query, "latex")
        found = await complete(client, document, end_of(query, query))
        return next((item for item in found if item.label == key), None)

    first = await eventually(lambda: offered(text, "hubel1962receptive"), seconds=30)
    # From the edit alone: the reload (a child process) is still updating the index.
    assert first is not None and "updating the index from refs.bib" in (first.detail or "")
    assert await eventually(lambda: offered("\\cite{zebrafish", "field1987relations"))

    async def updated() -> bool:
        item = await offered("\\cite{zebrafish", "field1987relations")
        return item is not None and "updating" not in (item.detail or "")

    assert await eventually(updated, seconds=60)
    cited = "See \\cite{field1987relations}."
    cited_uri = open_document(client, home / "cited.tex", cited, "latex")
    found = await client.text_document_definition_async(
        lsp.DefinitionParams(lsp.TextDocumentIdentifier(cited_uri), end_of(cited, "{"))
    )
    line = edited.count("\n", 0, edited.index("@article{field1987relations"))
    assert isinstance(found, lsp.Location) and found.range.start.line == line
