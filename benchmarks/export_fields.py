"""How many of a library's fields each export format keeps: the measure for issue 45.

For every .bib or CSL-JSON file given, runs `paperscope export` to BibTeX, BibLaTeX, RIS,
CSL-JSON and Hayagriva, reads each written file with that format's own parser
(bibtexparser, the RIS tag lines, json, PyYAML) and counts, per fact (title, editors, place,
edition, month, multi-part pages, attached files, ...), the entries whose source states the
fact but whose export does not. Entries are matched by key. Formats' names for each fact
are in `_NAMES`; a fact a format cannot hold is listed there as `()` and counted apart.

    python benchmarks/export_fields.py FILE... [--paperscope CMD] [--json]

`--paperscope` runs another build (say a checkout of the commit before) for the baseline:
`--paperscope "python -m tui"` with PYTHONPATH set to it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

FORMATS = ("bibtex", "biblatex", "ris", "csl-json", "hayagriva")
_EXT = {"bibtex": "bib", "biblatex": "bib", "ris": "ris", "csl-json": "json", "hayagriva": "yml"}

# fact -> names in: the source .bib / BibTeX export, RIS, CSL-JSON, Hayagriva.
_NAMES: dict[str, dict[str, tuple[str, ...]]] = {
    "title": {"bib": ("title",), "ris": ("TI",), "csl": ("title",), "hay": ("title",)},
    "author": {"bib": ("author",), "ris": ("AU",), "csl": ("author",), "hay": ("author",)},
    "editor": {"bib": ("editor",), "ris": ("A2", "ED"), "csl": ("editor",), "hay": ("editor",)},
    "year": {"bib": ("year", "date"), "ris": ("PY",), "csl": ("issued",), "hay": ("date",)},
    "volume": {"bib": ("volume",), "ris": ("VL",), "csl": ("volume",), "hay": ("volume",)},
    "pages": {"bib": ("pages",), "ris": ("SP",), "csl": ("page",), "hay": ("page-range",)},
    "publisher": {
        "bib": ("publisher",),
        "ris": ("PB",),
        "csl": ("publisher",),
        "hay": ("publisher",),
    },
    "doi": {"bib": ("doi",), "ris": ("DO",), "csl": ("DOI",), "hay": ("doi",)},
    "url": {"bib": ("url",), "ris": ("UR",), "csl": ("URL",), "hay": ("url", "value")},
    "abstract": {"bib": ("abstract",), "ris": ("AB",), "csl": ("abstract",), "hay": ("abstract",)},
    "keywords": {"bib": ("keywords",), "ris": ("KW",), "csl": ("keyword",), "hay": ()},
    "file": {"bib": ("file",), "ris": ("L1",), "csl": ("file",), "hay": ()},
    "place": {
        "bib": ("address", "location"),
        "ris": ("CY",),
        "csl": ("publisher-place",),
        "hay": ("location",),
    },
    "edition": {"bib": ("edition",), "ris": ("ET",), "csl": ("edition",), "hay": ("edition",)},
    "series": {"bib": ("series",), "ris": ("T3",), "csl": ("collection-title",), "hay": ()},
    "language": {
        "bib": ("langid", "language"),
        "ris": ("LA",),
        "csl": ("language",),
        "hay": ("language",),
    },
    "isbn": {"bib": ("isbn",), "ris": ("SN",), "csl": ("ISBN",), "hay": ("isbn",)},
    "translator": {
        "bib": ("translator",),
        "ris": ("A4",),
        "csl": ("translator",),
        "hay": ("affiliated",),
    },
    "type": {"bib": ("type",), "ris": ("M3",), "csl": ("genre",), "hay": ("genre",)},
    "urldate": {"bib": ("urldate",), "ris": ("Y2",), "csl": ("accessed",), "hay": ("date",)},
    "maintitle": {"bib": ("maintitle",), "ris": (), "csl": (), "hay": ()},
}
_CSL_TO_FACT = {
    "title": "title",
    "author": "author",
    "editor": "editor",
    "issued": "year",
    "volume": "volume",
    "page": "pages",
    "publisher": "publisher",
    "DOI": "doi",
    "URL": "url",
    "abstract": "abstract",
    "keyword": "keywords",
    "publisher-place": "place",
    "edition": "edition",
    "collection-title": "series",
    "language": "language",
    "ISBN": "isbn",
    "translator": "translator",
    "genre": "type",
    "accessed": "urldate",
}


def _bib_entries(text: str) -> dict[str, dict[str, str]]:
    import bibtexparser

    library = bibtexparser.parse_string(text, parse_stack=[])
    return {
        e.key: {f.key.lower(): str(f.value) for f in e.fields if str(f.value).strip('{}" ')}
        for e in library.entries
    }


def _ris_entries(text: str) -> dict[str, dict[str, str]]:
    entries: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in text.splitlines():
        match = re.match(r"^([A-Z][A-Z0-9])  -(?: (.*))?$", line)
        if not match:
            continue
        tag, value = match.group(1), (match.group(2) or "").strip()
        if tag == "TY":
            current = {}
        elif tag == "ER":
            entries[current.get("ID", str(len(entries)))] = current
        elif value:
            current.setdefault(tag, value)
    return entries


def _flat(data: Any, into: dict[str, str]) -> dict[str, str]:
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, (dict, list)):
                into.setdefault(str(key), json.dumps(value))
                _flat(value, into)
            elif value not in (None, ""):
                into.setdefault(str(key), str(value))
    elif isinstance(data, list):
        for value in data:
            _flat(value, into)
    return into


def _read(fmt: str, text: str) -> dict[str, dict[str, str]]:
    if fmt in ("bibtex", "biblatex"):
        return _bib_entries(text)
    if fmt == "ris":
        return _ris_entries(text)
    if fmt == "csl-json":
        return {str(i.get("id")): _flat(i, {}) for i in json.loads(text or "[]")}
    import yaml

    return {str(k): _flat(v, {}) for k, v in (yaml.safe_load(text) or {}).items()}


def _source_facts(path: Path) -> dict[str, dict[str, str]]:
    """Key -> {fact: value} for the source file (.bib or CSL-JSON)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".json":
        items = json.loads(text)
        return {
            str(i.get("id")): {
                fact: json.dumps(i[name]) if not isinstance(i[name], str) else i[name]
                for name, fact in _CSL_TO_FACT.items()
                if i.get(name)
            }
            for i in items
            if isinstance(i, dict)
        }
    facts: dict[str, dict[str, str]] = {}
    for key, fields in _bib_entries(text).items():
        facts[key] = {
            fact: next(fields[n] for n in names["bib"] if n in fields)
            for fact, names in _NAMES.items()
            if any(n in fields for n in names["bib"])
        }
    return facts


def _kept(fact: str, source: str, fmt: str, entry: dict[str, str]) -> bool:
    family = {"bibtex": "bib", "biblatex": "bib", "ris": "ris", "csl-json": "csl"}.get(fmt, "hay")
    names = _NAMES[fact][family]
    value = next((entry[n] for n in names if n in entry), None)
    if value is None:
        return False
    if fact == "pages" and "," in source:  # a multi-part range keeps every part
        return "," in value
    return True


def measure(path: Path, command: list[str], env: dict[str, str]) -> dict[str, dict[str, int]]:
    source = _source_facts(path)
    lost: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as work:
        run_env = {
            **env,
            "PAPERSCOPE_DATA_DIR": f"{work}/data",
            "PAPERSCOPE_CACHE_DIR": f"{work}/cache",
            "PAPERSCOPE_CONFIG": f"{work}/config.toml",
        }
        for fmt in FORMATS:
            out = Path(work) / f"{fmt}.{_EXT[fmt]}"
            subprocess.run(
                [*command, "--corpus", str(path), "export", "--format", fmt, "-o", str(out)],
                env=run_env,
                check=True,
                capture_output=True,
            )
            written = _read(fmt, out.read_text(encoding="utf-8"))
            counts: dict[str, int] = {"entries": 0, "missing_entries": 0}
            for key, facts in source.items():
                entry = written.get(key)
                if entry is None:
                    counts["missing_entries"] += 1
                    continue
                counts["entries"] += 1
                for fact, value in facts.items():
                    counts.setdefault(f"{fact}", 0)
                    if not _kept(fact, value, fmt, entry):
                        counts[fact] += 1
            lost[fmt] = counts
    return lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--paperscope", default="paperscope", help="the command to run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    command = shlex.split(args.paperscope)
    results = {str(p): measure(p, command, dict(os.environ)) for p in args.files}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for path, per_format in results.items():
        print(path)
        for fmt, counts in per_format.items():
            lost = {
                k: v for k, v in counts.items() if v and k not in ("entries", "missing_entries")
            }
            total = sum(lost.values())
            print(
                f"  {fmt:<10} {counts['entries']} entries ({counts['missing_entries']} not "
                f"matched by key): {total} facts lost  {lost}"
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
