"""What every citation format needs to know about a paper, decided once.

The writers (BibTeX, RIS, CSL-JSON, Markdown) must agree on what a paper *is* (a
conference paper, a journal article, a preprint) and on how an unknown fact is shown, or
the same paper would be cited differently depending on the format the user picked.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from index.models import Name, Paper

# Lowercase name parts that belong to the family name ("Ludwig van Beethoven").
_PARTICLES = frozenset(
    {
        "van",
        "von",
        "der",
        "den",
        "de",
        "del",
        "della",
        "di",
        "da",
        "du",
        "la",
        "le",
        "dos",
        "das",
        "ter",
        "ten",
        "bin",
        "al",
    }
)
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
_ARXIV_VENUE = re.compile(r"^\s*arxiv\b", re.IGNORECASE)
# A word cut short with a period ("J.", "Chem.", "Softw."): the sign of an abbreviated name.
_ABBREVIATED_WORD = re.compile(r"[^\W\d_]\.(?=\s|$)")
_PROCEEDINGS_TYPES = frozenset({"inproceedings", "conference", "proceedings"})
_JOURNAL_TYPES = frozenset({"article"})

INFERRED_TITLE_NOTE = "Title inferred from the abstract; no published title is known"
INCOMPLETE_AUTHORS_NOTE = "Author list incomplete"


@dataclass(frozen=True)
class PersonName:
    """A name split the way citation styles need it ("Given Family" is all we store)."""

    given: str
    family: str
    particle: str = ""
    suffix: str = ""

    @property
    def family_full(self) -> str:
        """The family name with its particle, as BibTeX wants it ("van Beethoven")."""
        return f"{self.particle} {self.family}".strip()


def split_name(full: str) -> PersonName:
    """Splits "Given [particle] Family [Jr.]" into parts.

    The last capitalised word is the family name; lowercase words just before it are a
    particle. A single word (a mononym or an organisation) is all family name.
    """
    words = full.split()
    if not words:
        return PersonName(given="", family="")
    suffix = ""
    if len(words) > 2 and words[-1].lower().rstrip(",") in _SUFFIXES:
        suffix = words.pop().rstrip(",")
        words[-1] = words[-1].rstrip(",")
    family = words.pop()
    particle: list[str] = []
    while words and words[-1].lower() in _PARTICLES and words[-1].islower():
        particle.insert(0, words.pop())
    return PersonName(
        given=" ".join(words), family=family, particle=" ".join(particle), suffix=suffix
    )


def paper_names(paper: Paper) -> tuple[Name, ...]:
    """The authors in their parts: as the source gave them, or split from display strings.

    Loaders that know the parts (BibTeX, CSL-JSON, RIS) fill `Paper.names`; those writers
    must never split "Food and Drug Administration" or "de la Cruz Ortiz" again. Only for
    papers with display strings alone (plain text, old JSON) is `split_name` the fallback,
    and a one-word name is then kept whole as a literal.
    """
    if paper.names and len(paper.names) == len(paper.authors):
        return paper.names
    names = []
    for full in paper.authors:
        split = split_name(full)
        if not split.given:
            names.append(Name(literal=split.family))
        else:
            names.append(
                Name(
                    family=split.family,
                    given=split.given,
                    particle=split.particle,
                    suffix=split.suffix,
                )
            )
    return tuple(names)


def is_preprint(paper: Paper) -> bool:
    """True for a paper known only as an arXiv (or similar) preprint, with no venue yet."""
    if paper.entry_type in _PROCEEDINGS_TYPES and paper.booktitle:
        return False
    if paper.journal and not _ARXIV_VENUE.match(paper.journal):
        return False
    if paper.booktitle:
        return False
    if paper.venue:  # a named venue that is not arXiv (a tutorial, a talk) is not a preprint
        return bool(_ARXIV_VENUE.match(paper.venue))
    return bool(paper.arxiv)


def kind(paper: Paper) -> str:
    """What the paper is: "conference", "journal", "preprint", "tutorial", "book",
    "chapter", "thesis", "report" or "misc"."""
    entry = paper.entry_type.lower()
    if is_preprint(paper):
        return "preprint"
    if (
        entry == "misc"
        and not (paper.booktitle or paper.journal)
        and paper.venue
        and "tutorial" in paper.venue.lower()
    ):
        return "tutorial"
    if entry in _PROCEEDINGS_TYPES or (entry == "misc" and paper.booktitle):
        return "conference"
    if entry in _JOURNAL_TYPES or (entry == "misc" and paper.journal):
        return "journal"
    if entry == "inbook" and paper.booktitle:  # BibLaTeX's: a titled part of a book
        return "chapter"
    if entry in ("book", "inbook"):
        return "book"
    if entry in ("incollection",):
        return "chapter"
    if entry in ("phdthesis", "mastersthesis", "thesis"):
        return "thesis"
    if entry in ("techreport", "report"):
        return "report"
    return "misc"


def venue_name(venue: str) -> str:
    """The venue without the sentence's full stop a reference manager left at its end.

    Papers3 and Mendeley store "Human-Computer Interaction International." and
    "... System Sciences, 2003."; a style then adds its own punctuation and prints
    "International., pp. 718" or "2003., 2003". The period stays where the name is written
    abbreviated ("J. Chem. Phys.", "Proc. ACM Softw. Eng."), and where the last word is
    short enough to be an abbreviation itself ("Nature Phys."): a doubt keeps it.
    """
    name = venue.rstrip()
    if not name.endswith(".") or name.endswith(".."):
        return name
    body = name[:-1].rstrip()
    words = body.split()
    if body[-1:].isdigit():
        return body
    if words and not _ABBREVIATED_WORD.search(body) and (len(words) == 1 or len(words[-1]) >= 6):
        return body
    return name


def container(paper: Paper) -> str | None:
    """The proceedings or journal the paper appeared in, when it is known."""
    if kind(paper) in ("preprint", "tutorial", "misc"):
        return None
    if paper.booktitle or paper.journal:
        return venue_name(paper.booktitle or paper.journal or "")
    if kind(paper) in ("conference", "journal") and paper.venue:
        return venue_name(paper.venue)
    return None


def how_published(paper: Paper) -> str | None:
    """Where a paper with no proceedings or journal was presented ("KDD 2024 (tutorial)")."""
    if kind(paper) in ("tutorial", "misc") and paper.venue:
        return venue_name(paper.venue)
    return None


def cited_title(paper: Paper) -> str:
    """The title to cite: an inferred one is bracketed, as APA marks a description.

    Square brackets are the style guides' way to say "this is a description, not the
    work's own title", so no reader mistakes a derived title for the real one.
    """
    title = " ".join(paper.title.split()) or paper.id
    if paper.title_inferred and not (title.startswith("[") and title.endswith("]")):
        return f"[{title}]"
    return title


def page_range(paper: Paper) -> tuple[str | None, str | None]:
    """First and last page ("542-559" or "542--559" -> ("542", "559"))."""
    if not paper.pages:
        return None, None
    parts = [p.strip() for p in re.split(r"\s*(?:--|-|\u2013|\u2014)\s*", paper.pages) if p.strip()]
    if len(parts) >= 2:
        return parts[0], parts[-1]
    return parts[0] if parts else None, None


def doi_url(doi: str) -> str:
    """A resolvable link for a DOI, whatever form it was stored in."""
    doi = re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", "", doi.strip(), flags=re.I)
    return f"https://doi.org/{doi}"


def arxiv_url(arxiv: str) -> str:
    return f"https://arxiv.org/abs/{arxiv.strip()}"


def best_link(paper: Paper) -> str | None:
    """The link a reader should follow: the DOI, else the arXiv page, else the URL."""
    if paper.doi:
        return doi_url(paper.doi)
    if paper.arxiv:
        return arxiv_url(paper.arxiv)
    return paper.url or None


def ascii_fold(text: str) -> str:
    """Letters without accents ("Kübler" -> "Kubler"), for keys that must be ASCII."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def notes(paper: Paper) -> list[str]:
    """The honest remarks a citation carries: an inferred title, a cut author list."""
    remarks = []
    if paper.title_inferred:
        remarks.append(INFERRED_TITLE_NOTE)
    if paper.authors and not paper.authors_complete:
        remarks.append(INCOMPLETE_AUTHORS_NOTE)
    return remarks
