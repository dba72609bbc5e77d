"""The `file` field as JabRef, Zotero / Better BibTeX and Mendeley write it, and RIS links."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.library.attachments import parse_file_field, parse_ris_links
from index.library.loaders.bibtex import load_bibtex


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        # JabRef: empty description, a relative path, the type
        (":papers/attention.pdf:PDF", ["{base}/papers/attention.pdf"]),
        # JabRef on Windows: escaped drive colon and backslashes
        (r":C\:\\Users\\me\\Documents\\a.pdf:PDF", [r"C:\Users\me\Documents\a.pdf"]),
        # Zotero / Better BibTeX: a description, an absolute path, a MIME type
        (
            "Full Text PDF:/home/me/Zotero/storage/AB12CD/paper.pdf:application/pdf",
            ["/home/me/Zotero/storage/AB12CD/paper.pdf"],
        ),
        # Zotero's own export: several files, relative to the .bib
        (
            "Full Text:files/12/a.pdf:application/pdf;Snapshot:files/13/b.html:text/html",
            ["{base}/files/12/a.pdf", "{base}/files/13/b.html"],
        ),
        # Bare paths separated by semicolons
        ("a.pdf;/abs/b.pdf", ["{base}/a.pdf", "/abs/b.pdf"]),
        # An escaped colon and semicolon inside a file name
        (r":notes\: part 1\; draft.pdf:PDF", ["{base}/notes: part 1; draft.pdf"]),
        # Mendeley's LaTeX escapes
        (
            r":C$\backslash$:/Users/me/Mendeley/my{\_}paper.pdf:pdf",
            ["C:/Users/me/Mendeley/my_paper.pdf"],
        ),
        # A description with a path and no type
        ("Preprint:preprint.pdf", ["{base}/preprint.pdf"]),
        # path:Type
        ("sub/x.pdf:PDF", ["{base}/sub/x.pdf"]),
        # Windows drive written without escapes
        (r"C:\papers\x.pdf", [r"C:\papers\x.pdf"]),
        # a web link is no file; repeats are dropped
        ("Online:https\\://example.org/x.pdf:URL;a.pdf;a.pdf", ["{base}/a.pdf"]),
    ],
)
def test_file_field_forms(tmp_path: Path, value: str, expected: list[str]) -> None:
    wanted = [e.replace("{base}", str(tmp_path)) for e in expected]
    assert list(parse_file_field(value, tmp_path)) == wanted


def test_mendeley_drops_the_leading_slash(tmp_path: Path) -> None:
    pdf = tmp_path / "Mendeley" / "a.pdf"
    pdf.parent.mkdir()
    pdf.write_bytes(b"%PDF")
    value = ":" + str(pdf).lstrip("/") + ":pdf"
    assert parse_file_field(value, tmp_path / "elsewhere") == (str(pdf),)


def test_ris_links(tmp_path: Path) -> None:
    values = [
        "file:///home/me/a%20b.pdf",
        "internal-pdf://0123/x.pdf",
        "rel/c.pdf",
        "https://example.org/fig.png",
        "file:///C:/Users/me/d.pdf",
    ]
    assert parse_ris_links(values, tmp_path) == (
        "/home/me/a b.pdf",
        f"{tmp_path}/rel/c.pdf",
        "C:/Users/me/d.pdf",
    )


def test_bibtex_loader_reads_file_relative_to_the_bib(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    text = "@article{a, title={T}, file={:pdfs/a.pdf:PDF;Full Text:/abs/b.pdf:application/pdf}}\n"
    papers, _ = load_bibtex(text, str(bib))
    assert papers[0].attachments == (f"{tmp_path}/pdfs/a.pdf", "/abs/b.pdf")


def test_csl_json_file_field(tmp_path: Path) -> None:
    from index.library.loaders.records import record_to_paper
    from index.models import Source

    record = {
        "id": "k",
        "type": "article-journal",
        "title": "T",
        "issued": {"date-parts": [[2020]]},
        "file": "x/a.pdf",
    }
    paper = record_to_paper(record, Source(str(tmp_path / "lib.json")))
    assert paper is not None and paper.attachments == (f"{tmp_path}/x/a.pdf",)
