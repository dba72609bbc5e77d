"""The shortcut for already-clean text gives exactly what full normalisation gives."""

from __future__ import annotations

import random

import pytest

import index.library.normalize as normalize
from index.library.normalize import clean_text, comparison_text, latex_to_unicode, words
from index.text_safety import strip_controls

# Characters that each take a different path: controls, format and private-use
# characters, odd spaces, combining accents (NFC), math and macros, plain text.
ALPHABET = [
    "a",
    "B",
    "7",
    " ",
    "  ",
    "\t",
    "\n",
    "\x1b[31m",
    "\x00",
    "\u00a0",
    "\u2009",
    "\u200b",
    "\u202e",
    "\ue000",
    "\u00ad",
    "e\u0301",
    "é",
    "×",
    "–",
    "$x^2$",
    "$",
    "\\",
    "\\'e",
    '{\\"o}',
    "%",
    "~",
    "ﬁ",
    "Å",
    "\u2028",
    "\x85",
    ".",
    "-",
]


def _samples(count: int) -> list[str]:
    rng = random.Random(11)
    texts = ["", " ", "plain words", " padded ", "two  spaces", "café au lait", "x\u0301"]
    texts += ["".join(rng.choices(ALPHABET, k=rng.randint(1, 12))) for _ in range(count)]
    return texts


@pytest.mark.parametrize("function", [clean_text, latex_to_unicode, comparison_text, words])
def test_the_shortcut_changes_nothing(function, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _samples(3000)
    fast = [function(text) for text in texts]
    monkeypatch.setattr(normalize, "_already_clean", lambda text: False)
    normalize._latex.cache_clear()
    assert fast == [function(text) for text in texts]


def test_clean_text_is_idempotent_through_the_shortcut() -> None:
    for text in _samples(2000):
        once = clean_text(text)
        assert normalize._already_clean(once) or once == ""
        assert clean_text(once) == once


def test_a_bibtex_value_without_latex_syntax_is_what_pylatexenc_gives() -> None:
    # The shortcut in latex_to_unicode(full=True) skips pylatexenc for such values.
    rng = random.Random(5)
    plain = (
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?()[]/'\"-+=*<>@|"
        "éüñ×–—“”’\u00a0\t\x1b"
    )
    texts = ["Proceedings of OSDI '24", "Ann Lee and Bo Wang", "pp. 1-12", "-", "'x'"]
    texts += ["".join(rng.choices(plain, k=rng.randint(1, 40))) for _ in range(5000)]
    texts = [t for t in texts if not normalize.LATEX_SYNTAX.search(t)]
    assert len(texts) > 3000
    for text in texts:
        through_pylatexenc = normalize._latex(strip_controls(text, at_load=True))
        assert latex_to_unicode(text, full=True) == clean_text(
            through_pylatexenc.replace("\u00a0", " ")
        ), text


def _whole(text: str) -> str:
    """What latex_to_unicode(full=True) gives when pylatexenc reads the value whole."""
    protected = normalize.literal_specials(
        normalize.single_quotes(strip_controls(text, at_load=True))
    )
    converted = normalize._latex(protected)
    if "&" in converted:  # as latex_to_unicode does after either path
        converted = strip_controls(normalize.html_references(converted), at_load=True)
    return clean_text(converted.replace("\u00a0", " "))


def test_converting_piece_by_piece_equals_converting_whole() -> None:
    rng = random.Random(8)
    tokens = [
        "word",
        "Word",
        "42",
        " ",
        " ",
        ",",
        ".",
        ":",
        "(",
        ")",
        "'",
        "-",
        "é",
        "×",
        "\\%",
        "%",
        "\\&",
        "\\_",
        "\\#",
        "\\$",
        "--",
        "---",
        "----",
        "~",
        "``",
        "''",
        "{BERT}",
        "{GPU}s",
        "{a-b}",
        "{it''s}",
        "{}",
        "{{Optical Tracking}}",
        "{{ACM}}",
        "{{}}",
        "{{a-b}",
        "{x}}",
        "{it's}",
        "{a--b}",
        "{{a --- b}}",
        "{ spaced  words }",
        "{'}",
        "{-}",
        "{``}",
        '\\"{u}',
        '{\\"{o}}',
        "{\\'E}",
        "\\`a",
        "\\^{o}",
        "\\~n",
        "\\=a",
        "\\.z",
        "\\'{}",
        "\\'",
        '\\"',
        "\\'\\i",
        "{\\'e",
        "\\ldots",
        "\\ldots ",
        "\\ldots{}",
        "\\textendash",
        "\\textemdash  ",
        "\\ldotsx",
        "\\textendashé",
        "\\o",
        "\\ss",
        "\\L ",
        "\\c c",
        "{\\c c}",
        "\\v{s}",
        "\\c",
        "\\i",
        "*",
        "\n",
        "\n\n",
        "$x$",
        "$1.5\\times$",
        "$O(n)$",
        "$",
        "{",
        "}",
        "\\emph{x}",
        "\\'e",
        '{\\"o}',
        "^",
        "_",
        "&",
        "#",
        "`",
        "\\\\",
    ]
    texts = [
        "improves accuracy by 3.2\\% over {BERT}",
        "pages 1--12",
        "Proc.~of OSDI",
        "{GPU} kernels -- a study",
        "``quoted'' text",
        "cost \\$5 \\& more",
        "Accuracy in {{Optical Tracking}}: {{An Accuracy Function}} for {{ARToolKit}}",
        "{{CHI}} '15: Proceedings of the 33rd Annual {{ACM}} Conference",
    ]
    texts += ["".join(rng.choices(tokens, k=rng.randint(1, 25))) for _ in range(6000)]
    pieces = 0
    for text in texts:
        pieces += normalize._latex_by_pieces(normalize.literal_specials(text)) is not None
        assert latex_to_unicode(text, full=True) == _whole(text), text
    assert pieces > 400  # the piece path was taken often enough to count


@pytest.mark.parametrize(
    ("text", "converted"),
    [
        ("{MIT} Press", "MIT Press"),
        ("{NeuroImage}", "NeuroImage"),
        ("{{Optical Tracking}} for {{ARToolKit}}", "Optical Tracking for ARToolKit"),
        ("{GPU}s -- a study of 3.2\\% more", "GPUs – a study of 3.2% more"),
        ("{a--b} and {{it''s}}", "a–b and it”s"),
        ('B{\\"{o}}cker, R{\\"a}dle, \\\'Ecole \\^{i}le', "Böcker, Rädle, École île"),
        (
            "Fran{\\c c}ois, Ha\\v{s}ek, S\\o ren, 1\\textendash 9\\ldots",
            "François, Hašek, Søren, 1–9…",
        ),
    ],
)
def test_the_values_people_write_most_go_piece_by_piece(text: str, converted: str) -> None:
    """Braced words (Better BibTeX protects every title's case with `{{...}}`) are the
    commonest LaTeX in real exports: pylatexenc reading each whole was most of a parse."""
    assert normalize._latex_by_pieces(text) == converted
    assert _whole(text) == converted


@pytest.mark.parametrize(
    ("raw", "full", "text"),
    [
        ("In $\\XQM$, a quark", True, "In XQM, a quark"),  # an unknown macro keeps its name
        # a bare & or % is the character typed (Mendeley's exports), not LaTeX syntax
        ("Culture & Psychology", True, "Culture & Psychology"),
        ("John Wiley & Sons, Inc", True, "John Wiley & Sons, Inc"),
        ("R&D: 50% of {GPU} time", True, "R&D: 50% of GPU time"),
        # HTML character references a web import left (Mendeley); not ones that are none
        ("Dissertations &amp; Theses", True, "Dissertations & Theses"),
        (
            "the {{\\&}}ldquo;revisioning{{\\&}}rdquo; of 2.5 {\\&}mu;m",
            True,
            "the “revisioning” of 2.5 μm",
        ),
        (
            "&quot;Cancel&quot; culture&#8212;a debate &#8212 now",
            True,
            '"Cancel" culture—a debate — now',
        ),
        ("AT&T; R&D, Tom &amp Jerry, &sgr;(t)", True, "AT&T; R&D, Tom &amp Jerry, &sgr;(t)"),
        # ...nor let one smuggle a control in: html drops ESC and BEL, strip_controls RLO
        ("x&#27;[2J &#x1b;]52;c;x&#7; &#8238;exe&#8236;", True, "x[2J ]52;c;x exe"),
        ("In $\\XQM$, a quark", False, "In XQM, a quark"),
        ("the \\XQM model", False, "the XQM model"),
        ("as shown~\\citep{smith2020}.", True, "as shown [smith2020]."),
        ("see \\cite[p.~3]{a,b}", True, "see [a, b]"),
        ("a {\\em new} idea", True, "a new idea"),
        ("a {\\em new} idea", False, "a new idea"),
        ("``quoted'' and `single'", True, "\u201cquoted\u201d and \u2018single\u2019"),
        ("``quoted'' and `single'", False, "\u201cquoted\u201d and \u2018single\u2019"),
        ("Mart\\'{\\i}n", True, "Mart\u00edn"),
        ("$1/F^2$ scaling", True, "1/F² scaling"),
        # biblatex's line-breaking macros (biblatex-examples.bib: "methodologyhyphen")
        ("methodology\\hyphen independent ionic", True, "methodology-independent ionic"),
        ("non\\nbhyphen linear", True, "non-linear"),
        ("co\\hyphenate operate", True, "cooperate"),
        ("input\\slash output", True, "input/output"),
        ("the methodology\\hyphen independent way", False, "the methodology-independent way"),
        # a macro the parser knows and the text rules do not kept its name, lost its words
        ("the \\texttt{grep} tool", True, "the grep tool"),
        ("the \\texttt{grep} tool", False, "the grep tool"),
        ("\\textup{x} \\textsf{y}", True, "x y"),
        # wrappers known to neither: their words, not their names
        ("CO\\textsubscript{2} levels", True, "CO2 levels"),
        ("CO\\textsubscript{2} levels", False, "CO2 levels"),
        ("an \\enquote{odd} \\mkbibquote{word}", True, "an \u201codd\u201d \u201cword\u201d"),
        ("an \\enquote{odd} word", False, "an \u201codd\u201d word"),
        ("\\autocap{t}he end.\\par Next", True, "the end. Next"),
        ("user\\atsign host", True, "user@host"),
        # EPrints' line breaks as Mendeley exports them; in math, an upright differential
        ("global events.\\ud \\ud This article", True, "global events. This article"),
        ("global events.\\ud \\ud This article", False, "global events. This article"),
        ("is $\\int f \\ud x$", True, "is \u222b f d x"),
        # commands that print nothing give nothing, not their name or argument
        ("a result\\label{fig:1} and\\index{term} {\\color{red}more}", True, "a result and more"),
        # hyperref's link: its text and its address, not the raw command
        ("see \\href{http://x.org}{the site}.", True, "see the site <http://x.org>."),
        (
            "see \\href{http://x.org}{the \\emph{new} site}.",
            False,
            "see the new site <http://x.org>.",
        ),
    ],
)
def test_latex_people_write_becomes_readable_text(raw: str, full: bool, text: str) -> None:
    assert latex_to_unicode(raw, full=full) == text


def test_a_hostile_value_loads_as_the_text_a_reader_sees() -> None:
    """Escape sequences go whole, every invisible character goes, a lone CR separates words."""
    raw = "Evil \x1b]52;c;UFdORUQ=\x07\x1b[2J title \u202eexe\u202c \u061c tag\U000e0041 \ue000end\rnext"
    assert clean_text(raw) == "Evil title exe tag end next"
    assert latex_to_unicode(raw, full=True) == "Evil title exe tag end next"


def _scanned_words(text: str) -> list[str]:
    """`words` as one regex scan gives them: what the split-based shortcut must equal."""
    return normalize._WORD.findall(comparison_text(text).replace("-", ""))


@pytest.mark.parametrize(
    "text",
    [
        "Pipeline-Parallel training at 1.45x speed. See v1.2.3 (e.g. Fig. 2).",
        "..5 .5 a.5 1.2.3.4 1.2x.3 x1.2y.3.4 end.",
        "A 1.2.3x  case -.5 and 3.-4 .",
        "Déjà vu – 1.5× faster",  # not ASCII: the scan itself
    ],
)
def test_words_split_as_the_scan_does(text: str) -> None:
    assert words(text) == _scanned_words(text)


def test_words_split_as_the_scan_does_on_dots_digits_and_letters() -> None:
    """Dots and digits in every order (decimals, runs of dots, versions, sentence ends)."""
    rng = random.Random(7)
    for alphabet in ("aB1.9-x. Z0.5..3", "1.2.3a..b 9-.", "x1.2.3.4 .-"):
        for _ in range(4000):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
            assert words(text) == _scanned_words(text), text
