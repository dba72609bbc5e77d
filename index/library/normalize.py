"""Text normalisation: every string a loader reads becomes clean, literal Unicode here.

Document text is untrusted. An abstract may carry ANSI escapes, control characters or Rich
markup, and publishers mix arXiv LaTeX (`$1.45\\times$`) with Unicode (`1.45×`). The
loaders run everything through `clean_text` (and `latex_to_unicode` for LaTeX sources), so
the rest of paperscope can display, index and compare papers without caring where the
text came from. Rich markup is kept as literal text on purpose: escaping it is the
display's job, and changing it here would change what the user searches for.
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache

from index.library.latex_context import LINE_BREAKING, make_converter
from index.text_safety import strip_controls

__all__ = ["clean_text", "comparison_text", "latex_to_unicode", "words"]

_WHITESPACE = re.compile(r"\s+")
# `$...$` spans (not `\$`): arXiv abstracts keep inline math this way.
_MATH = re.compile(r"(?<!\\)\$([^$]{1,200}?)(?<!\\)\$")
# LaTeX outside math that a reader would not want to see: accents, macros, escapes.
_MACRO = re.compile(
    r"\{\\[`'^\"~=.uvHcdbrk]\s*\{?\\?[A-Za-z]\}?\}"  # {\"o}, {\'{e}}, {\i}
    r"|\\[`'^\"~=.]\{?\\?[A-Za-z]\}?"  # \"o, \"{a}
    r"|\\[uvHcdbrk](?:\{\\?[A-Za-z]\}|\s+[A-Za-z])"  # \v{c}, \c c
    r"|\\(?:ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)\b(?:\{\})?"  # \ss, \o
    r"|\\(?:textbf|textit|emph|texttt|textsc|mathrm|mathbf|mathit|text|url)\{[^{}]*\}"
    r"|\\href\{[^{}]*\}\{(?:[^{}]|\{[^{}]*\})*\}"  # \href{url}{text}
    r"|\\(?:times|ldots|dots|textregistered|texttrademark|textcopyright|S|P)\b(?:\{\})?"
    r"|\\[&%$#_{}]"
    r"|\\(?:cite[a-z]*|parencite|textcite|autocite)(?:\[[^\]]*\])*\{[^{}]*\}"  # ~\citep{x}
    r"|\{\\(?:em|it|bf|sc|tt|sl)\s+[^{}]*\}"  # {\em x}
    # a line-breaking macro with the space that ends its name
    rf"|\\(?:{'|'.join(LINE_BREAKING)})\b(?:\{{\}}| )?"
    r"|\\[A-Za-z]+(?:\{[^{}]*\})?"  # any other macro: pylatexenc keeps an unknown one's name
)
_LATEX = make_converter()
# A single-quoted phrase in LaTeX's ASCII quotes (`like this'); pylatexenc does the doubled ones.
_SINGLE_QUOTES = re.compile(r"(?<![`\\])`(?!`)([^`'\n\\]{1,200}?)(?<!\\)'(?!')")


def single_quotes(text: str) -> str:
    """`like this' -> ‘like this’ (pylatexenc converts only the doubled quotes)."""
    return _SINGLE_QUOTES.sub("\u2018\\1\u2019", text) if "`" in text else text


def _already_clean(text: str) -> bool:
    """True when `clean_text` would return the text unchanged, checked in C-speed passes.

    Most fields (and every abstract folded again for duplicate detection) are already
    clean; skipping the regexes and normalisation for them is a large share of load time.
    `isprintable` rules out every control, format, private-use and surrogate character
    and every whitespace but the plain space, so single spaces, no padding and NFC are
    all that is left to check.
    """
    return (
        text.isprintable()
        and "  " not in text
        and text[:1] != " "
        and text[-1:] != " "
        and (text.isascii() or unicodedata.is_normalized("NFC", text))
    )


def clean_text(text: str | None) -> str:
    """Untrusted text -> one line of printable Unicode with single spaces.

    Args:
        text: anything a file gave us; None becomes "".
    """
    if not text:
        return ""
    if isinstance(text, str) and _already_clean(text):
        return text
    text = unicodedata.normalize("NFC", strip_controls(str(text), at_load=True))
    return _WHITESPACE.sub(" ", text).strip()


# What pylatexenc changes in a value: macros, groups, math, ties, comments, special
# characters, dash and quote ligatures. A value without any of these converts to itself
# (tests/index/library/test_normalize.py checks that against pylatexenc).
LATEX_SYNTAX = re.compile(r"[\\{}$~%^_&#`]|--|''")


# Pieces of LaTeX whose text does not depend on what is around them: escaped specials, an
# accent on one letter (`{\"o}`, `\'{e}`, `{\c c}`: names), a symbol with the spaces a
# control word swallows (`\ldots `, `\textendash`, `\o`; not before any letter, `é` too,
# which would extend the name), dash runs, ties, quote ligatures, a brace group of plain
# text (or a double one, as Zotero and Better BibTeX protect case: `{{ARToolKit}}`),
# simple inline math. A value that is plain text plus such pieces is converted piece by
# piece: pylatexenc reads a value character by character (~4 ms for an abstract with one
# `\%`), a piece in microseconds, and the common pieces come from the cache. Anything else
# (other macros, deeper groups, unescaped specials) goes to pylatexenc whole. Tested
# equal to that.
_ISLAND = re.compile(
    r"""
    \\[%&_#$]
    | (?P<accent>\{)?
      (?: \\[`'"^~=.] (?:[A-Za-z]|\{[A-Za-z]\}) | \\[cvuHkr] (?:\s+[A-Za-z]|\s*\{[A-Za-z]\}) )
      (?(accent)\})
    | \\(?:ldots|dots|ss|aa|AA|ae|AE|oe|OE|o|O|l|L
        |text(?:endash|emdash|exclamdown|questiondown|copyright|registered|trademark|degree|euro|bullet)
      )(?![^\W\d_])\s*
    | -{2,} | ~ | `` | ''
    | (?P<group>\{)? \{[^{}\\$%~^_&\#`]*\} (?(group)\})
    | \$[^$\\{}%]+\$
    """,
    re.VERBOSE,
)


# An HTML character reference, as web imports leave them in BibTeX values (Mendeley:
# `Dissertations &amp; Theses`, `&quot;Cancel&quot;`, `&#8212`): a named one with its `;`
# (`AT&T;` is none), a numeric one with or without.
_HTML_REFERENCE = re.compile(
    r"&(?:#[0-9]{1,7};?|#[xX][0-9a-fA-F]{1,6};?|[A-Za-z][A-Za-z0-9]{1,31};)"
)


def html_references(text: str) -> str:
    """`text` with each HTML character reference as its character (`&amp;` -> `&`); an
    unknown name (`&sgr;`, an SGML one from old ACM records) stays as written."""
    return _HTML_REFERENCE.sub(lambda match: html.unescape(match.group()), text)


# A bare `%` or `&` in a BibTeX value (one no backslash escapes).
_BARE_SPECIAL = re.compile(r"(?<!\\)([%&])")


def literal_specials(text: str) -> str:
    """`text` with each bare `%` and `&` escaped: in a BibTeX value they are the characters
    the user typed (Mendeley exports `journal = {Culture & Psychology}`, `John Wiley & Sons`;
    Zotero imports them as typed), not a comment's start or a table's column break, which
    pylatexenc made of them (the rest of the value dropped; `Culture Psychology`)."""
    return _BARE_SPECIAL.sub(r"\\\1", text)


def _latex_by_pieces(text: str) -> str | None:
    """`text` converted piece by piece (see `_ISLAND`), or None if it needs pylatexenc whole."""
    pieces = []
    last = 0
    for match in _ISLAND.finditer(text):
        plain = text[last : match.start()]
        if LATEX_SYNTAX.search(plain):
            return None
        pieces += [plain, _piece(match.group())]
        last = match.end()
    if LATEX_SYNTAX.search(text[last:]):
        return None
    return "".join(pieces) + text[last:]


def _piece(fragment: str) -> str:
    """One `_ISLAND` piece as text. A brace group of plain text is its text: a title in
    Better BibTeX's `{{...}}` is unique, and pylatexenc took ~0.3 ms to read each one."""
    if fragment[0] == "{" and not any(mark in fragment for mark in ("\\", "--", "''")):
        return fragment.strip("{}")
    return _latex(fragment)


@lru_cache(maxsize=4096)
def _latex(fragment: str) -> str:
    try:
        return _LATEX.latex_to_text(fragment)
    except Exception:  # pylatexenc is lenient, but a parse error must never stop a load
        return fragment


def _math(match: re.Match[str]) -> str:
    converted = _latex("$" + match.group(1) + "$").strip()
    return converted.replace("\u00a0", " ")


def latex_to_unicode(text: str | None, *, full: bool = False) -> str:
    """LaTeX to readable Unicode, then `clean_text`.

    Inline math (`$1.45\\times$` -> `1.45×`, `$\\mathrm{SAM^{Med}}$` -> `SAM^Med`) and
    accent macros are always converted. With `full` (BibTeX fields, where the whole value
    is LaTeX) braces and every macro go too; without it, the rest of the text is left
    alone, because in a plain abstract `%` or `~` are just characters (`1.00x~1.46x`).

    Args:
        text: the raw value.
        full: treat the whole value as LaTeX source.
    """
    if not text:
        return ""
    if (
        not full
        and isinstance(text, str)
        and "$" not in text
        and "\\" not in text
        and "`" not in text
        and _already_clean(text)
    ):
        return text  # no math, no macros, nothing to clean
    text = strip_controls(str(text), at_load=True)
    if full and not LATEX_SYNTAX.search(text):
        converted = text  # most BibTeX values: nothing pylatexenc would change, at 1/1000 the cost
    elif full:
        protected = literal_specials(single_quotes(text))
        by_pieces = _latex_by_pieces(protected)
        converted = by_pieces if by_pieces is not None else _latex(protected)
        if "&" in converted:
            # HTML references a web import left, bare (Mendeley's `&quot;`) or escaped
            # (Better BibTeX's `{\&}ldquo;`). One may name a control (`&#8238;`): gone too.
            converted = strip_controls(html_references(converted), at_load=True)
    else:
        converted = _MATH.sub(_math, text)
        if "\\" in converted or "{\\" in converted:
            converted = _MACRO.sub(lambda m: _latex(m.group(0)), converted)
        if "``" in converted:
            converted = converted.replace("``", "\u201c").replace("''", "\u201d")
        converted = single_quotes(converted)
    return clean_text(converted.replace("\u00a0", " "))


_FOLD_MAP = str.maketrans(
    {
        "×": "x",
        "χ": "x",
        "–": "-",
        "—": "-",
        "’": "'",
        "‘": "'",
        "“": '"',
        "”": '"',
        "®": "",
        "™": "",
    }
)
_WORD = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?")


def comparison_text(text: str) -> str:
    """A comparison key: lower case, no accents, typographic variants made plain.

    Two copies of one abstract (publisher Unicode vs arXiv LaTeX, curly vs straight
    quotes, `×` vs `x`) fold to nearly the same string, which is what duplicate detection
    needs; the folded text is never shown.
    """
    return _folded(latex_to_unicode(text))


def _folded(text: str) -> str:
    text = text.translate(_FOLD_MAP).lower()
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


# `words` of ASCII text without the `_WORD` scan, which cost ~70% of it (a match object's
# worth of work per word). A word is a run of letters and digits, with a decimal part
# (`1.45`) when a dot and digits follow the run; so after lower-casing, dropping hyphens
# and turning every other character into a space, a text whose dots are all followed by
# no digit splits at spaces and dots. A text with decimals first has every dot that
# `_WORD` skips made a space: runs of dots, a dot after a space or at the start, the dot
# after a decimal part (`1.2.3` is `1.2` and `3`), and every dot then followed by no
# digit; and a space goes after a decimal part followed by a letter (`1.45x` is `1.45`
# and `x`). Tested equal to the `_WORD` scan (tests/index/library/test_normalize.py).
_ASCII_WORDS = str.maketrans(
    {
        chr(c): (
            None if chr(c) == "-" else chr(c).lower() if chr(c).isalnum() or chr(c) == "." else " "
        )
        for c in range(128)
    }
)
_DECIMAL = re.compile(r"\.[0-9]")
_DOTS = re.compile(r"\.\.+")
_DECIMAL_THEN_DOT = re.compile(r"(\.[0-9]+)\.")
_DECIMAL_THEN_LETTER = re.compile(r"(\.[0-9]+)(?=[a-z])")
_NOT_DECIMAL = re.compile(r"\.(?![0-9])")


def words(text: str) -> list[str]:
    """The folded words of a text, hyphens dropped (`pipeline-parallel` = `pipelineparallel`)."""
    converted = latex_to_unicode(text)
    if not converted.isascii():
        return _WORD.findall(_folded(converted).replace("-", ""))
    plain = converted.translate(_ASCII_WORDS)
    if _DECIMAL.search(plain) is None:
        return plain.replace(".", " ").split()
    plain = _DOTS.sub(" ", plain).replace(" .", " ").lstrip(".")
    plain = _DECIMAL_THEN_LETTER.sub(r"\1 ", _DECIMAL_THEN_DOT.sub(r"\1 ", plain))
    return _NOT_DECIMAL.sub(" ", plain).split()
