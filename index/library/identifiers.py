"""DOIs, arXiv ids and years as every loader stores them, whatever form the source used.

A DOI arrives bare, as a resolver URL (`https://doi.org/10...`, `http://dx.doi.org/...`) or
with a `doi:` prefix; it is stored bare, so `doi:` queries, links and duplicate detection
see one value. An arXiv id hides in `eprint`, `arxiv`, a `journal = {arXiv}` entry's
`volume` or `number` (`abs/2401.00001`, `arXiv:2401.00001`), or an arXiv URL. A year is the
first plausible four-digit year in the text (`January 1978`, `Autumn 2001`, `2020-05-01`);
a bare `6` is no year.
"""

from __future__ import annotations

import re

__all__ = [
    "bare_doi",
    "find_arxiv",
    "find_isbn",
    "find_month",
    "find_pmid",
    "find_year",
    "isbn_key",
    "normal_url",
    "volume_and_doi",
]

_DOI_PREFIX = re.compile(r"^\s*(?:https?://(?:dx\.)?doi\.org/|doi:\s*|doi\s+)", re.IGNORECASE)
_DOI = re.compile(r"10\.\d{4,9}/\S+")
ARXIV_ID = re.compile(
    r"(?<![\w.])(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?![\w])", re.IGNORECASE
)
_ARXIV_HINT = re.compile(r"arxiv", re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2}|21[0-9]{2})(?!\d)")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_FULL = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH_NAMES = {
    **{name: n for n, name in enumerate(_MONTHS, 1)},
    **{name: n for n, name in enumerate(_FULL, 1)},
    "sept": 9,
}
_ISO_MONTH = re.compile(r"(?<!\d)\d{4}-(\d{2})(?:-\d{2})?(?!\d)")
_ISBN = re.compile(r"(?:97[89])?\d{9}[\dX]", re.IGNORECASE)


def bare_doi(value: str | None) -> str | None:
    """`https://doi.org/10.1/x`, `doi:10.1/x` -> `10.1/x`; None when there is no DOI."""
    if not value:
        return None
    text = _DOI_PREFIX.sub("", value.strip()).strip()
    if not text.startswith("10."):
        found = _DOI.search(text)
        if found is None:
            return text or None
        text = found.group()
    return text.rstrip(".,;") or None


def volume_and_doi(volume: str | None, doi: str | None) -> tuple[str | None, str | None]:
    """The record's volume and bare DOI, with a DOI typed into `volume` moved to the DOI.

    Some reference managers' users keep a preprint's or a dataset's DOI in `volume`
    (`Volume = {10.1101/615203}` in a bioRxiv entry): cited as is, it reads "bioRxiv, vol.
    10.1101/615203". A volume that is nothing but a DOI is no volume: it becomes the DOI
    when the record has none, and is dropped when it repeats the record's DOI. A volume
    that merely contains one, or a different DOI beside the record's own, stays as given.
    """
    if not volume:
        return volume, doi
    text = _DOI_PREFIX.sub("", volume.strip()).strip().rstrip(".,;")
    if not _DOI.fullmatch(text):
        return volume, doi
    if doi is None:
        return None, text
    if doi.lower() == text.lower():
        return None, doi
    return volume, doi


def find_arxiv(
    *,
    eprint: str | None = None,
    archive: str | None = None,
    journal: str | None = None,
    volume: str | None = None,
    number: str | None = None,
    url: str | None = None,
) -> str | None:
    """The arXiv id a record gives, from the first field that holds one, without version.

    `eprint` counts when it is an arXiv-shaped id (or `archive`, BibTeX's `archiveprefix`
    or `eprinttype`, says arXiv); `volume` and `number` only for a `journal = {arXiv}`
    record, where publishers' exports put it (`abs/2401.00001`).
    """
    candidates: list[str | None] = []
    if eprint and (
        archive is None
        or _ARXIV_HINT.search(archive)
        or ARXIV_ID.fullmatch(eprint.strip().removeprefix("arXiv:").removeprefix("arxiv:"))
    ):
        candidates.append(eprint)
    if journal and _ARXIV_HINT.search(journal):
        candidates += [journal, volume, number]
    if url and "arxiv.org/" in url:
        candidates.append(url.split("arxiv.org/", 1)[1])
    for candidate in candidates:
        found = ARXIV_ID.search(candidate or "")
        if found:
            return found.group(1)
    return None


def find_year(*values: str | None) -> int | None:
    """The first four-digit year in the first value that has one."""
    for value in values:
        found = _YEAR.search(value or "")
        if found:
            return int(found.group(1))
    return None


def find_month(*values: str | None) -> int | None:
    """A month from `11`, `nov`, `November`, `January 1978` or an ISO date `2020-05`."""
    for value in values:
        text = (value or "").strip().lower()
        if not text:
            continue
        if text.isdigit() and 1 <= int(text) <= 12:
            return int(text)
        iso = _ISO_MONTH.search(text)
        if iso and 1 <= int(iso.group(1)) <= 12:
            return int(iso.group(1))
        for word in re.findall(r"[a-z]+", text):
            if word in _MONTH_NAMES:
                return _MONTH_NAMES[word]
    return None


def normal_url(url: str) -> str:
    """A URL as compared: no scheme, no `www.`, no trailing slash, lower case."""
    text = re.sub(r"^https?://(?:www\.)?", "", url.strip(), flags=re.IGNORECASE)
    return text.rstrip("/").lower()


def _isbn13(digits: str) -> str | None:
    """The ISBN-13 of a valid ISBN-10 or ISBN-13 (digits only), else None."""
    digits = digits.upper()
    if len(digits) == 10:
        if "X" in digits[:9]:
            return None
        total = sum((10 - i) * (10 if c == "X" else int(c)) for i, c in enumerate(digits))
        if total % 11:
            return None
        digits = "978" + digits[:9]
    elif "X" in digits or len(digits) != 13:
        return None
    else:
        if sum((3 if i % 2 else 1) * int(c) for i, c in enumerate(digits)) % 10:
            return None
        digits = digits[:12]
    check = (10 - sum((3 if i % 2 else 1) * int(c) for i, c in enumerate(digits)) % 10) % 10
    return digits + str(check)


def find_isbn(value: str | None) -> str | None:
    """The first valid ISBN among a field's values (`978-0-..., 0-306-...`), as ISBN-13."""
    for part in re.split(r"[,;]|\s(?=\d{3})", value or ""):
        key = isbn_key(re.sub(r"(?i)^\s*isbn(?:-1[03])?:?", "", part).strip())
        if key is not None:
            return key
    return None


def find_pmid(value: str | None) -> str | None:
    """A PubMed id (digits, `PMID: 123` or `pmid:123`), or None."""
    found = re.fullmatch(r"\s*(?:pmid:?\s*)?(\d{1,9})\s*", value or "", re.IGNORECASE)
    return found.group(1) if found else None


def isbn_key(value: str) -> str | None:
    """An ISBN as indexed: its ISBN-13 digits (an ISBN-10 converted), or None."""
    digits = re.sub(r"[\s-]", "", value)
    return _isbn13(digits) if _ISBN.fullmatch(digits) else None
