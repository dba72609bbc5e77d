"""Generators of hostile inputs and the checks every terminal-bound output must pass."""

from __future__ import annotations

import json
import os
import stat
import unicodedata
from pathlib import Path

GOOD_WORD = "zanzibarquux"
GOOD_BIB = (
    "@article{good2020,\n  title = {Zanzibarquux pipelines for scheduling},\n"
    "  author = {Good Author},\n  year = {2020},\n"
    f"  abstract = {{A good paper about {GOOD_WORD} pipeline scheduling.}}\n}}\n"
)
# A title that tries everything at once: an OSC 52 clipboard write, a retitle, a clear
# screen, bidi overrides, tag characters, private use, Rich markup and a Textual action.
EVIL_TEXT = (
    "Evil \x1b]52;c;UFdORUQ=\x07 \x1b]0;retitled\x07\x1b[2J title \u202eexe.txt\u202c "
    "\u2066iso\u2069 \u061c \U000e0041\U000e007f \ue000 [bold]x[/bold] "
    "[@click=app.quit]click[/] end"
)
EVIL_NAME = "evil\x1b]0;PWNED\x07\u202e.bib"


def forbidden(text: str) -> list[str]:
    """Every character in `text` no terminal-bound output may hold, by Unicode category."""
    bad = []
    for char in text:
        if char in "\n\t":
            continue
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Co", "Cs"):
            bad.append(f"U+{ord(char):04X}")
    return bad


def assert_terminal_safe(data: bytes | str) -> None:
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    assert forbidden(text) == [], forbidden(text)[:10]


def write_hostile_corpus(root: Path) -> dict[str, str]:
    """A folder of one good file and every kind of bad one; returns name -> what it is."""
    root.mkdir(parents=True, exist_ok=True)
    cases: dict[str, str] = {}

    def add(name: str, what: str, data: bytes | str) -> Path:
        path = root / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        cases[name] = what
        return path

    add("good.bib", "good", GOOD_BIB)
    add("deep100k.json", "JSON nested 100,000 deep", "[" * 100_000 + "]" * 100_000)
    add("deep1k.json", "JSON nested 1,000 deep", "[" * 1_000 + "]" * 1_000)
    add(
        "deep.jsonl",
        "a JSONL line nested 1,000 deep",
        json.dumps({"title": "Deep neighbour line", "abstract": "ok"})
        + "\n"
        + '{"a":' * 1_000
        + "1"
        + "}" * 1_000
        + "\n",
    )
    add(
        "latin1.txt",
        "Latin-1 bytes",
        "Caf\xe9 na\xefve abstract about caching.\n".encode("latin-1"),
    )
    add(
        "utf16.bib",
        "UTF-16 with BOM",
        "\ufeff"
        + GOOD_BIB.replace("good2020", "utf16")
        .replace("Zanzibarquux pipelines", "Sixteen bit pipelines")
        .replace(GOOD_WORD, "sixteenbitword"),
    )
    add("binary.txt", "binary bytes", b"\x00\x01\x02" * 1000)
    add("empty.json", "empty", b"")
    add(
        "huge-abstract.jsonl",
        "a 5 MB abstract",
        json.dumps({"title": "Huge abstract paper", "abstract": "word " * 1_000_000}) + "\n",
    )
    add(
        "many-authors.json",
        "100,000 authors",
        json.dumps(
            [
                {
                    "type": "article-journal",
                    "title": "Many authors paper",
                    "author": [{"family": f"F{i}", "given": f"G{i}"} for i in range(100_000)],
                }
            ]
        ),
    )
    add(
        "csl-types.json",
        "CSL-JSON with wrong types",
        json.dumps(
            [
                {
                    "type": "article-journal",
                    "title": 12345,
                    "author": "Smith, John",
                    "issued": "2020",
                    "DOI": ["10.1/a", "10.1/b"],
                    "abstract": "Wrong types everywhere.",
                }
            ]
        ),
    )
    add(
        EVIL_NAME,
        "a file name with escapes and bidi, holding hostile text",
        f"@article{{evil1,\n  title = {{{EVIL_TEXT}}},\n  author = {{Mal \u202eIcious}},\n"
        f"  year = {{2021}},\n  abstract = {{{EVIL_TEXT}}},\n  url = {{javascript:alert(1)}}\n}}\n"
        "@article{broken,\n  title = {no closing brace\n",
    )
    big = root / "huge.json"
    with open(big, "wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # sparse: 200 MB on paper, nothing on disk
    cases["huge.json"] = "a 200 MB file"
    os.mkfifo(root / "fifo.json")
    cases["fifo.json"] = "a FIFO"
    (root / "loop-a.bib").symlink_to(root / "loop-b.bib")
    (root / "loop-b.bib").symlink_to(root / "loop-a.bib")
    cases["loop-a.bib"] = "a symlink loop"
    (root / "sub").mkdir()
    (root / "sub" / "up").symlink_to(root)  # a folder loop: never followed
    if os.geteuid() == 0:
        os.mknod(root / "device.bib", stat.S_IFCHR | 0o600, os.makedev(1, 3))
        cases["device.bib"] = "a device node"
    return cases
