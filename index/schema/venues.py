"""A venue's short name, for the venue facet: one value per venue.

Sources give the venue as free text ("EuroSys '24 (Proceedings of the Nineteenth European
Conference on Computer Systems), pp. 542-559"): as a facet value that is unreadable in a
narrow panel and never shared by two papers, so the facet counts nothing. The short name
is the text before the first parenthesis, page or volume detail, generically; the
`venue:` query field still searches the whole text.

Real libraries spell one venue many ways, and each spelling would be a facet value of its
own: case and spacing variants ("IEEE transactions on ..."), an undefined BibTeX macro kept
as written (`cvpr`), an arXiv journal-ref with volume and pages (`Phys.Rev.D76:013009,2007`),
`arXiv` beside `arXiv preprint`. These fold by rule (headline case, journal-ref shape, a
lone lower-case macro name upper-cased); only names no rule can see as one venue
(`nips`, `NeurIPS`, "Advances in Neural Information Processing Systems") are in a small
alias table.
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


# A journal-ref: abbreviated journal name, then volume and pages ("Phys.Rev.D76:013009,2007",
# "JHEP 0712:005,2007", "Phys. Lett. B 659:1-7,2008").
_JOURNAL_REF = re.compile(r"^(?P<name>[A-Za-z][A-Za-z.&' -]*?[A-Za-z.])\s*\d+\s*[:(,]\s*\d")
_SMALL = frozenset(
    "a an and as at by for from in of on or the to via with de der des du la le".split()
)
# Words that say a mixed-case name is English, where headline case is the convention.
_ENGLISH = frozenset({"of", "on", "the", "and", "for"})
# Publishers' and venues' acronyms, upper-cased wherever a lower-case copy appears.
_ACRONYMS = frozenset(
    "ieee acm siam usenix vldb aaai ijcai icml iclr cvpr iccv eccv acl emnlp "
    "naacl kdd osdi sosp nsdi pldi popl asplos isca micro hpca sigplan sigmod "
    "sigcomm sigir mlsys".split()
)
# Venues no spelling rule joins; matched on the folded short name.
_ALIASES = {
    "nips": "NeurIPS",
    "neurips": "NeurIPS",
    "advances in neural information processing systems": "NeurIPS",
    "arxiv": "arXiv preprint",
    "arxiv preprint": "arXiv preprint",
    "arxiv e-prints": "arXiv preprint",
    "arxiv e-print": "arXiv preprint",
    "corr": "arXiv preprint",
}


def _headline(text: str) -> str:
    """Headline case, so case variants of one name are one value.

    A word with a capital (IEEE, MLSys, EuroSys) is kept as written; a lower-case word is
    capitalised unless it is a small word inside the name. An all-capitals name of several
    words ("PROCEEDINGS OF THE IEEE") is lowered first, keeping words of up to four letters
    that look like acronyms.
    """
    words = text.split()
    if not (text.islower() or text.isupper() or _ENGLISH.intersection(words)):
        # Mixed case in another language ("Europa im Hoch- und Spätmittelalter"): its
        # lower-case words are meant so; only acronyms are made upper case.
        return " ".join(w.upper() if w in _ACRONYMS else w for w in words)
    if len(words) > 1 and text.isupper():
        words = [w if len(w) <= 4 and w.lower() not in _SMALL else w.lower() for w in words]
        words = [w.upper() if w.lower() in _ACRONYMS else w for w in words]
    out = []
    for n, word in enumerate(words):
        if word in _ACRONYMS:
            out.append(word.upper())
        elif any(ch.isupper() for ch in word) or not word[:1].isalpha() or (n and word in _SMALL):
            out.append(word)
        else:
            out.append(word[:1].upper() + word[1:])
    return " ".join(out)


def short_venue(venue: str | None) -> str:
    """The venue's name without proceedings titles, pages or volumes ("" when unknown).

    >>> short_venue("EuroSys '24 (Proceedings of the Nineteenth European Conference), pp. 5-9")
    "EuroSys '24"
    """
    if not venue:
        return ""
    text = " ".join(venue.split())
    reference = _JOURNAL_REF.match(text)
    if reference:  # "Phys.Rev.D76:013009,2007" -> "Phys. Rev. D"
        return re.sub(r"\.(?=[A-Za-z])", ". ", reference.group("name")).strip().rstrip(".")
    match = _CUT.search(text)
    if match and match.start() > 0:
        text = text[: match.start()]
    text = text.strip(" ,;:.-–—")
    if not text:  # the whole venue was a detail, e.g. "(preprint)": keep it as given
        return " ".join(venue.split())
    return _fold(text)


def _fold(text: str) -> str:
    """One spelling per venue (see the module docstring)."""
    alias = _ALIASES.get(re.sub(r"(?:\s+\d+)+$", "", text).casefold())
    if alias:  # a year stays ("NIPS 2017" -> "NeurIPS 2017"), a volume number goes
        year = re.search(r"\s((?:19|20)\d\d)$", text)
        return f"{alias} {year.group(1)}" if year and alias != "arXiv preprint" else alias
    if text.isalpha() and text.islower() and len(text) <= 8:
        return text.upper()  # an undefined BibTeX macro kept as written: `cvpr` -> CVPR
    return _headline(text)
