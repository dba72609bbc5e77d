"""Known-item search: does what a person types to find a paper they know find it first?

Issue 47: a researcher looking for one paper types or pastes its DOI (bare, `doi:`, a
resolver URL copied from a sentence), its arXiv id (bare, versioned, `arXiv:`, an abs or
pdf URL), its ISBN (13 digits, hyphenated, ISBN-10) or PubMed id (`pmid:`), their
citation key (whole, a prefix, in lower case), a few title words with a
typo, the first author and the year, or an author and a title word. This draws papers at
random (seeded) from each file you name, loads each file as its own library (as a user
would open it), generates those queries and reports, per kind, the share of queries whose
paper is the first hit (success@1) and among the first five (success@5), and the median
and slowest search times.

    python benchmarks/known_item.py FILE.bib [FILE ...] [--per-file 60] [--seed 1]
        [--code BASELINE --code NEW] [--json] [--misses]

`--code` names a copy of the code to measure (a folder holding `index/` and `assets/`,
e.g. `git archive main index assets | tar -x -C SNAPSHOT`); given twice, the first is the
baseline and each file is measured by both in turn, in fresh interpreters, and the table
gives the median time's ratio.
Every search is submitted (not as you type), with the engine's caches emptied before it,
as a fresh query is. Times are wall milliseconds on a shared machine: compare runs made
together.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

GOALS = {
    "identifier": (1, 1.0),
    "isbn-pmid": (1, 1.0),
    "key": (1, 1.0),
    "title-typo": (5, 0.9),
    "author-year": (5, 0.9),
}
# Words nobody types to find a title.
_SKIP = {"a", "an", "and", "the", "of", "in", "on", "for", "to", "with", "by", "from", "at"}


def typo(word: str, rng: random.Random) -> str:
    """One edit a typist makes, never to the first letter: drop, double, swap or replace."""
    i = rng.randrange(1, len(word))
    kind = rng.choice(("drop", "swap", "replace", "insert"))
    if kind == "drop":
        return word[:i] + word[i + 1 :]
    if kind == "swap" and i < len(word) - 1 and word[i] != word[i + 1]:
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if kind == "insert":
        return word[:i] + word[i - 1] + word[i:]
    letters = [c for c in "aeiourstnl" if c != word[i]]
    return word[:i] + rng.choice(letters) + word[i + 1 :]


def title_words(title: str) -> list[str]:
    return "".join(c if c.isalnum() else " " for c in title).split()


def family(paper: Any) -> str | None:
    """The first author's family name as a person types it."""
    if paper.names:
        first = paper.names[0]
        name = first.family or first.literal
    elif paper.authors:
        name = paper.authors[0].split()[-1]
    else:
        return None
    words = [w for w in title_words(name) if len(w) > 1]
    return words[-1] if words else None


def unique_prefix(key: str, keys: list[str]) -> str:
    """The prefix of `key` a person types before the list shows one paper: at least
    two thirds of it (and four letters), longer until no other key (folded) starts so."""
    folded = key.lower()
    for end in range(max(4, len(key) * 2 // 3), len(key)):
        start = folded[:end]
        if sum(k.startswith(start) for k in keys) == 1:
            return key[:end]
    return key


def queries_for(
    paper: Any, rng: random.Random, keys: list[str], typed_right: bool = False
) -> list[tuple[str, str, str]]:
    """(group, kind, query) pairs a person might type to find `paper`; `typed_right` adds
    each one-typo title fragment as it is in the title (what the typo's search is
    compared with: the same words)."""
    found: list[tuple[str, str, str]] = []
    if paper.doi and paper.doi.startswith("10."):  # some files hold other things there
        doi = paper.doi
        found += [
            ("identifier", "doi bare", doi),
            ("identifier", "doi: prefixed", f"doi:{doi}"),
            ("identifier", "doi.org URL", f"https://doi.org/{doi}"),
            ("identifier", "dx.doi.org URL, case, stop", f"HTTP://DX.DOI.ORG/{doi.upper()}."),
        ]
    if paper.arxiv:
        arxiv = paper.arxiv
        found += [
            ("identifier", "arXiv bare", arxiv),
            ("identifier", "arXiv versioned", f"{arxiv}v2"),
            ("identifier", "arXiv: prefixed", f"arXiv:{arxiv}"),
            ("identifier", "arXiv abs URL", f"https://arxiv.org/abs/{arxiv}"),
            ("identifier", "arXiv pdf URL", f"https://arxiv.org/pdf/{arxiv}v1.pdf"),
        ]
    isbn = getattr(paper, "isbn", None)  # not on the baseline's papers
    if isbn:
        hyphenated = f"{isbn[:3]}-{isbn[3]}-{isbn[4:8]}-{isbn[8:12]}-{isbn[12]}"
        found += [
            ("isbn-pmid", "ISBN-13 digits", isbn),
            ("isbn-pmid", "ISBN-13 hyphenated", hyphenated),
        ]
        if isbn.startswith("978"):
            body = isbn[3:12]
            check = (11 - sum((10 - i) * int(c) for i, c in enumerate(body)) % 11) % 11
            found.append(("isbn-pmid", "ISBN-10", body + ("X" if check == 10 else str(check))))
    pmid = getattr(paper, "pmid", None)
    if pmid:
        found.append(("isbn-pmid", "pmid: prefixed", f"pmid:{pmid}"))
    key = paper.citation_key
    if key:
        found += [("key", "key whole", key), ("key", "key lower case", key.lower())]
        if len(key) >= 6:
            found.append(("key", "key prefix*", unique_prefix(key, keys) + "*"))
    # A lone letter (the "s" of "children's") is no word anyone types.
    words = [w for w in title_words(paper.title) if w.lower() not in _SKIP and len(w) > 1]
    if len(words) >= 2 and not paper.title_inferred:
        size = min(len(words), rng.randint(2, 4))
        start = rng.randrange(0, len(words) - size + 1)
        fragment = words[start : start + size]
        long = [i for i, w in enumerate(fragment) if len(w) >= 5 and w.isalpha()]
        if long:
            if typed_right:
                found.append(("title", "title fragment, no typo", " ".join(fragment).lower()))
            i = rng.choice(long)
            fragment[i] = typo(fragment[i], rng)
            found.append(("title-typo", "title fragment, one typo", " ".join(fragment).lower()))
    name = family(paper)
    if name and paper.year:
        found.append(("author-year", "first author + year", f"{name} {paper.year}"))
    if name and words:
        word = max(words, key=len)
        found.append(("author-word", "author + title word", f"{name} {word}".lower()))
    return found


def _handle(paper: Any, kind: str) -> str | None:
    """The identifier a query of `kind` names, folded: what papers may share."""
    lower = kind.lower()
    value = (
        paper.citation_key
        if "key" in lower
        else paper.arxiv
        if "arxiv" in lower
        else getattr(paper, "isbn", None)
        if "isbn" in lower
        else getattr(paper, "pmid", None)
        if "pmid" in lower
        else paper.doi
    )
    return value.lower() if value else None


def measure_file(path: Path, per_file: int, seed: int, work: Path) -> list[dict[str, Any]]:
    """Every generated query of `per_file` random papers of one file, with its outcome."""
    from index import load_library, load_taxonomy, open_engine
    from index.models import SearchRequest

    taxonomy = load_taxonomy()
    library = load_library([path], taxonomy)
    engine = open_engine(library, taxonomy, work / path.stem, rebuild=True)
    rng = random.Random(f"{seed}:{path.name}")
    papers = sorted(library.papers, key=lambda p: p.id)
    # Papers with identifiers are the rare ones in most files: half the draw is from them.
    with_ids = [p for p in papers if p.doi or p.arxiv]
    drawn = rng.sample(papers, min(per_file, len(papers)))
    drawn += rng.sample(with_ids, min(per_file // 2, len(with_ids)))
    keys = [p.citation_key.lower() for p in papers if p.citation_key]
    sharing: dict[tuple[str, str | None], int] = defaultdict(int)
    for other in papers:
        for kind in ("doi", "arxiv", "isbn", "pmid", "key"):
            group = {"key": "key", "isbn": "isbn-pmid", "pmid": "isbn-pmid"}.get(kind, "identifier")
            sharing[(group, _handle(other, kind))] += 1
    rows = []
    try:
        for paper in drawn:
            for group, kind, query in queries_for(paper, rng, keys):
                engine.forget_cached()
                started = time.perf_counter()
                result = engine.search(SearchRequest(query=query, limit=5, counts=True))
                elapsed = (time.perf_counter() - started) * 1000
                ids = [hit.paper.id for hit in result.hits]
                rank = ids.index(paper.id) + 1 if paper.id in ids else None
                # Papers sharing the identifier or key (a book's chapters share its DOI)
                # are as right as the one drawn: any of them first is a success.
                shared = sharing.get((group, _handle(paper, kind)), 1)
                if rank is not None and rank <= shared:
                    rank = 1
                rows.append(
                    {
                        "file": path.name,
                        "group": group,
                        "kind": kind,
                        "query": query,
                        "paper": paper.id,
                        "rank": rank,
                        "total": result.total,
                        "ms": elapsed,
                    }
                )
    finally:
        engine.close()
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per kind: queries, success@1, success@5, median and slowest ms."""
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_kind[f"{row['group']}: {row['kind']}"].append(row)
        by_kind[f"{row['group']} (all)"].append(row)
    by_kind["all"] = rows
    table = {}
    for kind in sorted(by_kind):
        found = by_kind[kind]
        times = sorted(r["ms"] for r in found)
        table[kind] = {
            "n": len(found),
            "at1": sum(r["rank"] == 1 for r in found) / len(found),
            "at5": sum(r["rank"] is not None for r in found) / len(found),
            "median_ms": statistics.median(times),
            "p95_ms": times[min(len(times) - 1, int(len(times) * 0.95))],
            "max_ms": times[-1],
        }
    return table


def measure_in_child(code: Path, path: Path, per_file: int, seed: int) -> list[dict[str, Any]]:
    """One file measured by a fresh interpreter running `code`: two copies of `index` cannot
    share a process."""
    command = [sys.executable, __file__, str(path), "--code", str(code), "--per-file"]
    command += [str(per_file), "--seed", str(seed), "--rows"]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


def print_table(tables: dict[str, dict[str, dict[str, Any]]]) -> None:
    """Per kind: each code's success@1, @5 and median; the last against the first."""
    names = list(tables)
    head = f"{'kind':40} {'n':>5}"
    for name in names:
        head += f" | {name[:22]:>22}"
    print(head + (" | median ratio" if len(names) > 1 else ""))
    print(f"{'':46}" + " | @1    @5    median".rjust(25) * len(names))
    # The baseline's papers may lack what the queries of a new kind are made from (ISBNs).
    kinds = sorted({kind for table in tables.values() for kind in table})
    for kind in kinds:
        rows = [tables[name].get(kind) for name in names]
        line = f"{kind:40} {max(row['n'] for row in rows if row):5}"
        for row in rows:
            line += (
                f" | {row['at1']:4.0%}  {row['at5']:4.0%} {row['median_ms']:6.1f}ms"
                if row
                else f" | {'-':>22}"
            )
        if len(names) > 1 and rows[0] and rows[-1]:
            line += f" | {rows[-1]['median_ms'] / max(rows[0]['median_ms'], 0.01):5.2f}"
        print(line)
    for name in names:
        p95 = tables[name]["all"]["p95_ms"]
        top = tables[name]["all"]["max_ms"]
        print(f"{name}: p95 {p95:.0f} ms, slowest {top:.0f} ms")
    table = tables[names[-1]]
    for group, (k, goal) in GOALS.items():
        row = table.get(f"{group} (all)")
        if row is not None:
            got = row["at1"] if k == 1 else row["at5"]
            print(f"goal {group} @{k} >= {goal:.0%}: {got:.1%} {'ok' if got >= goal else 'MISSED'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--per-file", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--code",
        type=Path,
        action="append",
        help="a copy of the code to measure (repeat: the first is the baseline; default this one)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rows", action="store_true", help=argparse.SUPPRESS)  # a child's
    parser.add_argument("--misses", action="store_true", help="list the last code's misses")
    args = parser.parse_args()
    codes = [code.resolve() for code in args.code or [ROOT]]
    for code in codes:
        if not (code / "index" / "__init__.py").is_file():
            parser.error(f"--code {code}: no index/ package there")
    if args.rows:  # a child: one code, rows as JSON on stdout
        sys.path.insert(0, str(codes[0]))
        with tempfile.TemporaryDirectory(prefix="known-item-") as work:
            rows = []
            for path in args.files:
                rows += measure_file(path, args.per_file, args.seed, Path(work))
        print(json.dumps(rows))
        return
    found: dict[str, list[dict[str, Any]]] = {str(code): [] for code in codes}
    for path in args.files:
        # Each file by every code in turn: the machine's load changes less between them.
        for code in codes:
            print(f"{path.name} ({code})…", file=sys.stderr)
            found[str(code)] += measure_in_child(code, path, args.per_file, args.seed)
    tables = {name: summary(rows) for name, rows in found.items()}
    if args.json:
        print(json.dumps({"summary": tables, "rows": found}, indent=1))
        return
    print_table(tables)
    if args.misses:
        for row in found[str(codes[-1])]:
            if row["rank"] != 1:
                print(
                    f"miss {row['kind']:28} rank={row['rank']} total={row['total']} "
                    f"{row['query']!r} ({row['file']}: {row['paper']})"
                )


if __name__ == "__main__":
    main()
