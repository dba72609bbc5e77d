"""A venue's short name, for the venue facet.

Sources give the venue as free text ("EuroSys '24 (Proceedings of the Nineteenth European
Conference on Computer Systems), pp. 542-559"): as a facet value that is unreadable in a
narrow panel and never shared by two papers, so the facet counts nothing. The short name
is the text before the first parenthesis, page or volume detail, generically, without a
list of known venues; the `venue:` query field still searches the whole text.
"""

from __future__ import annotations

import re

# Where the name ends: an opening parenthesis or bracket; a comma / semicolon / colon
# followed by page, volume, issue or edition details; a bare "pp."/"vol."/"no." part.
_CUT = re.compile(
    r"\s*[(\[]"
    r"|\s*[,;:]\s*(?:pp?\.|pages?\b|vol(?:ume)?\b\.?|no\.|nos?\b|issue\b|num(?:ber)?\b|"
    r"art(?:icle)?\.?\s*(?:no\.?)?\s*\d|\d|e\d|ed\.|edition\b)"
    r"|\s+(?:pp?\.|vol\.|no\.)\s*\d"
    r"|\s+\d+\s*\(\d"  # a volume(issue): "PLOS Computational Biology 13(3): e1005209"
    r"|\s+[A-Za-z]+:\s*\d",  # an identifier: "arXiv preprint arXiv:2401.01234"
    re.IGNORECASE,
)


def short_venue(venue: str | None) -> str:
    """The venue's name without proceedings titles, pages or volumes ("" when unknown).

    >>> short_venue("EuroSys '24 (Proceedings of the Nineteenth European Conference), pp. 5-9")
    "EuroSys '24"
    """
    if not venue:
        return ""
    text = " ".join(venue.split())
    match = _CUT.search(text)
    if match and match.start() > 0:
        text = text[: match.start()]
    text = text.strip(" ,;:.-–—")
    if not text:  # the whole venue was a detail, e.g. "(preprint)": keep it as given
        return " ".join(venue.split())
    return text
