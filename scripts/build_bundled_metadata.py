"""Build `assets/metadata.json`, the bundled corpus's sidecar, from the curated seed.

Usage: python scripts/build_bundled_metadata.py SEED_METADATA.json [OUT]

The seed (one record per distinct paper) keeps the venue as free text, such as
"EuroSys '24 (Proceedings of the Nineteenth European Conference on Computer Systems),
pp. 542-559". A citation needs it split into entry type, booktitle or journal, volume,
number, pages and publisher; this script does that split once, reviewably, so the app
only ever reads the result. It never invents a fact: a field the seed leaves null stays
null, and a publisher is filled in only when the venue text or the DOI prefix names it.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
ASSETS = REPO / "assets"
sys.path.insert(0, str(REPO))

from index.library.loaders.infer import infer_title  # noqa: E402
from index.library.loaders.sidecar import SIDECAR_FORMAT  # noqa: E402
from index.library.loaders.text import split_paragraphs  # noqa: E402
from index.library.normalize import latex_to_unicode  # noqa: E402

# DOI prefixes whose registrant is the publisher.
DOI_PUBLISHERS = {
    "10.1145": "ACM",
    "10.1109": "IEEE",
    "10.1007": "Springer",
    "10.18653": "Association for Computational Linguistics",
    "10.14778": "VLDB Endowment",
    "10.1371": "Public Library of Science",
}
# Venues whose proceedings have one well-known publisher.
VENUE_PUBLISHERS = {"ICML": "PMLR", "OSDI": "USENIX Association"}
JOURNAL_HINTS = re.compile(r"\b(?:Transactions|Journal|PLOS|Proceedings of the VLDB Endowment)\b")
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
# Titles for the two papers whose real title is unknown, each a phrase lifted from the
# abstract itself (quoted in `note`), so they are derived from the text, not invented.
INFERRED = {
    "kdd-genai-inference-workshop": (
        "KDD Workshop on Inference Optimization for Generative AI",
        'the abstract "introduc[es] the first KDD workshop on Inference Optimization for '
        'Generative AI"',
    ),
    "rt-fcma": (
        "Real-time full correlation matrix analysis (FCMA) for rtfMRI",
        'the abstract extends "full correlation matrix analysis (FCMA)" to "rtfMRI studies"'
        ' and calls it "real-time FCMA"',
    ),
}


def split_venue(venue: str | None, doi: str | None) -> dict[str, Any]:
    """Free-text venue -> entry_type, booktitle/journal, volume, number, pages, publisher."""
    fields: dict[str, Any] = {
        "entry_type": "misc",
        "booktitle": None,
        "journal": None,
        "volume": None,
        "number": None,
        "pages": None,
        "publisher": None,
    }
    if not venue:
        return fields
    pages = re.search(r"pp\.\s*([\w]+\s*[-–]\s*[\w]+)", venue)
    if pages:
        fields["pages"] = re.sub(r"\s*[-–]\s*", "-", pages.group(1))
    inner = re.search(r"\(([^()]*)\)", venue)
    head = venue.split("(")[0].strip().rstrip(",")
    if venue.lower().startswith("arxiv"):
        fields["publisher"] = None
        return fields  # a preprint is cited as misc with its arXiv id
    if "tutorial" in venue.lower() and not doi:
        return fields  # a tutorial with no proceedings record: misc, venue kept as text
    plos = re.match(r"(PLOS [\w ]+?)\s+(\d+)\((\d+)\):\s*(\S+)", venue)
    if JOURNAL_HINTS.search(venue):
        fields["entry_type"] = "article"
        if plos:
            fields.update(
                journal=plos.group(1),
                volume=plos.group(2),
                number=plos.group(3),
                pages=plos.group(4),
            )
        elif "VLDB Endowment" in venue:
            fields["journal"] = "Proceedings of the VLDB Endowment"
        elif inner and "Transactions" in venue:
            fields["journal"] = re.sub(r"\s*\(.*\)", "", venue).strip()
        else:
            fields["journal"] = head
    else:
        fields["entry_type"] = "inproceedings"
        booktitle = re.sub(r",?\s*pp\..*$", "", venue)
        if inner and len(inner.group(1)) > 15:  # "(Proceedings of ...)" beats the acronym
            booktitle = inner.group(1)
        elif inner:  # "2016 IEEE ... on Big Data (Big Data)": the long form comes first
            booktitle = head
        # Dates and the host city are not part of a proceedings title.
        booktitle = re.sub(rf",\s*(?:{_MONTHS})\b.*$", "", booktitle)
        booktitle = re.sub(r"((?:Symposium|Conference)\b.*?),\s*[A-Z][a-z]+$", r"\1", booktitle)
        booktitle = re.sub(r"^(?:lecture-style )?tutorial(?: abstract)?,\s*", "", booktitle)
        booktitle = re.sub(
            r";\s*(?:tutorial abstract|ACM International Conference "
            r"Proceeding Series)$",
            "",
            booktitle,
        )
        fields["booktitle"] = booktitle.strip()
        if "EDBT" in venue:
            fields["booktitle"] = "Advances in Database Technology - EDBT"
    volume = re.search(r"\bvol\.\s*(\d+)", venue)
    number = re.search(r"\b(?:no\.|issue)\s*(\d+)", venue)
    if volume:
        fields["volume"] = volume.group(1)
    if number:
        fields["number"] = number.group(1)
    prefix = (doi or "").split("/")[0]
    if prefix in DOI_PUBLISHERS:
        fields["publisher"] = DOI_PUBLISHERS[prefix]
    elif "USENIX" in venue:
        fields["publisher"] = "USENIX Association"
    elif re.search(r"\bIEEE\b", venue) and "ACM" not in venue:
        fields["publisher"] = "IEEE"
    elif re.search(r"\bACM\b", venue) and "IEEE" not in venue:
        fields["publisher"] = "ACM"
    else:
        acronym = re.match(r"[A-Z]+", venue)
        if acronym and acronym.group(0) in VENUE_PUBLISHERS:
            fields["publisher"] = VENUE_PUBLISHERS[acronym.group(0)]
    return fields


def corpus_file(prefix: str) -> str:
    """The bundled file name a seed prefix (`000`) stands for."""
    matches = sorted(p.name for p in ASSETS.glob(f"{prefix}_*.txt"))
    if len(matches) != 1:
        raise SystemExit(f"expected one assets/{prefix}_*.txt, found {matches}")
    return matches[0]


def author_line(record: dict[str, Any]) -> tuple[list[str], bool]:
    line = (record.get("author_line") or "").split("·")[0].strip()
    complete = not re.search(r"et al\.?$", line)
    line = re.sub(r",?\s*et al\.?$", "", line)
    return [name.strip() for name in line.split(",") if name.strip()], complete


def build(seed: list[dict[str, Any]]) -> dict[str, Any]:
    papers = []
    for record in seed:
        venue, doi = record.get("venue"), record.get("doi")
        paragraphs = [[corpus_file(prefix), index] for prefix, index in record["paragraphs"]]
        entry: dict[str, Any] = {"id": record["id"], "paragraphs": paragraphs}
        title, inferred, note = record.get("title"), False, record.get("notes") or None
        if not title:
            title, derivation = INFERRED.get(record["id"], (None, None))
            if title is None:  # a new untitled seed record: derive from its text
                file_name, index = paragraphs[0]
                text = split_paragraphs((ASSETS / file_name).read_text("utf-8"))[index].text
                title, derivation = infer_title(latex_to_unicode(text)), "its opening words"
            inferred = True
            note = f"Title unknown; derived from {derivation}. " + (note or "")
        entry.update(
            title=latex_to_unicode(title),
            title_inferred=inferred,
            short_name=record.get("short_name"),
        )
        if record.get("authors"):
            entry.update(authors=record["authors"], authors_complete=True)
        elif record.get("author_line"):
            names, complete = author_line(record)
            entry.update(authors=names, authors_complete=complete)
        else:  # nobody knows who wrote it: an empty list that does not claim completeness
            entry.update(authors=[], authors_complete=False)
        entry.update(year=record.get("year"), month=None, venue=venue)
        entry.update(split_venue(venue, doi))
        entry.update(
            doi=doi,
            arxiv=record.get("arxiv"),
            url=record.get("url"),
            related=record.get("related") or [],
            note=(note or "").strip() or None,
            confidence=record.get("confidence"),
        )
        papers.append(entry)
    return {
        "format": SIDECAR_FORMAT,
        "version": 1,
        "generated_by": "scripts/build_bundled_metadata.py from seed_metadata.json",
        "papers": papers,
    }


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    seed = json.loads(Path(argv[0]).read_text("utf-8"))
    out = Path(argv[1]) if len(argv) > 1 else ASSETS / "metadata.json"
    out.write_text(json.dumps(build(seed), ensure_ascii=False, indent=2) + "\n", "utf-8")
    print(f"wrote {out} ({len(seed)} papers)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
