"""paperscope's citations against pandoc's citeproc reading the same .bib file with the same style.

Run by hand (never in CI):

    python benchmarks/compare_pandoc.py FILE.bib [FILE.bib ...] [--limit N] [--examples K]

For each file, paperscope reads it with its own loader (`index.library.loaders.load_file`)
and renders every entry as a citation does (`index.citations.csl.render_papers`: the entry
itself where paperscope read it as written, else the CSL item built from paperscope's
reading and the entry's other facts; `--built` gives every paper as built) in the five
built-in styles through its engine; pandoc reads the same file itself (its BibLaTeX reader, as
`pandoc --citeproc --bibliography FILE.bib` does) and renders the same keys with the same
`.csl` file. Both are whole bibliographies of the same entries, compared entry by entry
(by key). Entries are equal after normalising whitespace, quotes and dashes and dropping a
numeric label (entries pandoc cannot read shift its numbering); entries that
differ only in letter case (pandoc sentence-cases English titles for APA) count as
agreeing. Printed: per style, % identical, % case-only, and the difference classes: the
words found on one side only, most frequent first, with examples.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from index.citations.csl import CSL_DIR, CSL_FILES, engine_item, render_papers  # noqa: E402
from index.citations.engine import (  # noqa: E402
    BibEntry,
    EngineError,
    EngineStyle,
    render_bibliography,
    request,
)
from index.library.loaders import load_file  # noqa: E402

_QUOTES = str.maketrans(
    {
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2018": "'",
        "\u2019": "'",
        "\u2013": "-",
        "\u2014": "-",
        "\u2011": "-",
        "\u2010": "-",
        "\u00a0": " ",
        "\u202f": " ",
    }
)


def normalise(text: str) -> str:
    """Whitespace, quotes and dashes made plain, so only wording and punctuation count."""
    text = re.sub(r"^\[\d+\]\s*", "", text.translate(_QUOTES))  # entries pandoc skipped renumber
    text = re.sub(r"-{2,}", "-", text)
    return " ".join(text.split())


def _words(text: str) -> list[str]:
    return re.findall(r"\w+|[^\w\s]", text)


def difference(ours: str, theirs: str) -> tuple[str, str]:
    """(words only pandoc has, words only paperscope has), a few each: the difference's class."""
    matcher = difflib.SequenceMatcher(None, _words(ours), _words(theirs), autojunk=False)
    mine, pandoc = [], []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            mine.extend(matcher.a[i1:i2])
            pandoc.extend(matcher.b[j1:j2])
    return " ".join(pandoc[:6]), " ".join(mine[:6])


def readable(text: str, keys: list[str], style: EngineStyle) -> tuple[str, int]:
    """The file without the entries pandoc's reader stops at (`@book(...)`), and how many.

    pandoc --citeproc fails on the whole file at such an entry; the comparison drops the
    entry (its line is in pandoc's error) and counts it, instead of comparing nothing.
    """
    dropped = 0
    for _ in range(2000):
        try:
            request([BibEntry(key, text) for key in keys[:1]], style)
            return text, dropped
        except EngineError as error:
            found = re.search(r"line (\d+)", str(error))
            if not found:
                raise
            lines = text.split("\n")
            at = min(int(found.group(1)) - 1, len(lines) - 1)
            if "unexpected '@'" in str(error) and at > 0:
                at -= 1  # "unexpected '@'": the entry before was never closed
            start = next((i for i in range(at, -1, -1) if lines[i].lstrip().startswith("@")), 0)
            end = next(
                (i for i in range(at + 1, len(lines)) if lines[i].lstrip().startswith("@")),
                len(lines),
            )
            text = "\n".join(lines[:start] + lines[end:])
            dropped += 1
    return text, dropped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--limit", type=int, default=300, help="entries per file (default 300)")
    parser.add_argument("--examples", type=int, default=3, help="examples per difference class")
    parser.add_argument("--classes", type=int, default=12, help="classes listed per style")
    parser.add_argument(
        "--built",
        action="store_true",
        help="give the engine the item built from paperscope's reading (engine_item), "
        "not the entry itself, for every paper",
    )
    args = parser.parse_args(argv)
    totals: dict[str, Counter[str]] = {style: Counter() for style in CSL_FILES}
    classes: dict[str, Counter[tuple[str, str]]] = {style: Counter() for style in CSL_FILES}
    examples: dict[tuple[str, tuple[str, str]], list[str]] = {}
    started = time.perf_counter()
    for path in args.files:
        loaded = load_file(path, str(path))
        papers = {p.citation_key: p for p in loaded.papers if p.citation_key}
        keys = list(papers)[: args.limit]
        text = path.read_text(encoding="utf-8", errors="replace")
        text, unread = readable(text, keys, EngineStyle(CSL_DIR / CSL_FILES["apa"]))
        print(
            f"{path.name}: {len(loaded.papers)} papers read, {len(keys)} compared; "
            f"{unread} entries pandoc's reader stops at, left out for pandoc",
            file=sys.stderr,
        )
        for style, file in CSL_FILES.items():
            csl = EngineStyle(CSL_DIR / file)
            if args.built:
                items = [engine_item(papers[key], key) for key in keys]
                ours = dict(render_bibliography(items, csl))
            else:  # what a citation does: the entry itself where paperscope read it as written
                ours = dict(render_papers([papers[key] for key in keys], keys, style))
            theirs = dict(request([BibEntry(key, text) for key in keys], csl))
            for key in keys:
                count = totals[style]
                count["entries"] += 1
                if key not in theirs:
                    count["pandoc has none"] += 1
                    continue
                mine, reference = normalise(ours.get(key, "")), normalise(theirs[key])
                if mine == reference:
                    count["identical"] += 1
                elif mine.casefold() == reference.casefold():
                    count["case only"] += 1
                else:
                    kind = difference(mine, reference)
                    classes[style][kind] += 1
                    shown = examples.setdefault((style, kind), [])
                    if len(shown) < args.examples:
                        shown.append(
                            f"{path.name} {key}\n      ours:   {mine}\n      pandoc: {reference}"
                        )
    print(
        f"paperscope vs pandoc 3.9 citeproc, same source and .csl ({time.perf_counter() - started:.0f} s)"
    )
    for style, count in totals.items():
        compared = count["entries"] - count["pandoc has none"]
        same = count["identical"] + count["case only"]
        print(
            f"  {style:<8} {compared} entries: identical {count['identical']} "
            f"({100 * count['identical'] / max(compared, 1):.1f}%), + case only "
            f"{count['case only']} = {100 * same / max(compared, 1):.1f}% agreeing"
        )
    for style, kinds in classes.items():
        print(f"\n{style}: difference classes (pandoc-only words | paperscope-only words)")
        for kind, number in kinds.most_common(args.classes):
            print(f"  {number:>4}  [{kind[0]}] | [{kind[1]}]")
            for example in examples[(style, kind)]:
                print(f"      {example}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
