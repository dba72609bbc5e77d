"""The LaTeX vocabulary pylatexenc converts with: its defaults plus what bibliographies use.

pylatexenc drops a macro it does not know, so an author's own `$\\XQM$` made "In , a
quark": a macro it does not know is kept as its name instead, because the name is what a
reader recognises. Citation commands (`~\\citep{x}`), which it shows as "<cit.>", become the
bracketed keys, which at least say what was cited.
"""

from __future__ import annotations

from typing import Any

from pylatexenc.latex2text import (
    LatexNodes2Text,
    MacroTextSpec,
    get_default_latex_context_db,
)
from pylatexenc.latexwalker import LatexCharsNode, LatexGroupNode
from pylatexenc.latexwalker import get_default_latex_context_db as get_default_parsing_context_db
from pylatexenc.macrospec import MacroSpec

from index.library.math_scripts import script, scripts_in

__all__ = ["LINE_BREAKING", "Converter", "make_converter"]

_CITATIONS = (
    "cite",
    "citep",
    "citet",
    "citealp",
    "citealt",
    "citeauthor",
    "citeyear",
    "parencite",
    "textcite",
    "autocite",
    "footcite",
    "nocite",
)


# Font and spacing declarations pylatexenc does not know: they change looks, not words.
_DECLARATIONS = frozenset(
    [
        "em",
        "bf",
        "it",
        "sl",
        "sc",
        "rm",
        "tt",
        "sf",
        "up",
        "md",
        "bfseries",
        "itshape",
        "scshape",
        "slshape",
        "upshape",
        "mdseries",
        "rmfamily",
        "sffamily",
        "ttfamily",
        "normalfont",
        "tiny",
        "scriptsize",
        "footnotesize",
        "small",
        "normalsize",
        "large",
        "Large",
        "LARGE",
        "huge",
        "Huge",
        "relax",
        "protect",
        "noindent",
        "nocorr",
        "null",
        "unskip",
        "xspace",
        "ensuremath",
    ]
)


# Where a line may break, from LaTeX and biblatex (which bibliographies use in titles:
# `methodology\\hyphen independent`): the character printed, or nothing. Kept by name they
# read "methodologyhyphen independent"; the space after one ends the macro's name.
LINE_BREAKING = {
    "hyphen": "-",  # biblatex: a hyphen after which the word may break
    "nbhyphen": "-",  # biblatex: one after which it may not
    "hyphenate": "",  # biblatex: a break point inside a word, like `\\-`: prints nothing
    "slash": "/",  # LaTeX: a slash after which the line may break
    "allowbreak": "",
    "linebreak": "",
    "newline": " ",
}

# Other macros without arguments that pylatexenc does not know, with what LaTeX prints.
_SYMBOLS = {
    "par": " ",  # a paragraph break, in an abstract
    "atsign": "@",  # biblatex
}

# Wrappers neither pylatexenc's parser nor its text rules know, with what LaTeX prints:
# kept by name they read "COtextsubscript2", "mkbibquoteIntention und ...".
_WRAPPERS = {
    "textsubscript": "%s",
    "textsuperscript": "%s",
    "enquote": "\u201c%s\u201d",  # csquotes
    "mkbibquote": "\u201c%s\u201d",  # biblatex
    "mkbibemph": "%s",
    "mkbibitalic": "%s",
    "mkbibbold": "%s",
    "autocap": "%s",  # biblatex: capitalised at a sentence's start, as written elsewhere
}


def _unknown(node: Any, macroname: str, l2tobj: LatexNodes2Text) -> str:
    """An unknown macro -> its name (`\\XQM` -> "XQM"), with the space TeX swallowed after it.

    Font declarations (`{\\em x}`) and symbol macros give nothing. A macro whose arguments
    the parser knows but the text rules do not (`\\texttt{grep}`) gives its arguments'
    text: kept by name it lost them ("the texttt tool").
    """
    arguments = [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a is not None]
    if arguments:
        return str(l2tobj.nodelist_to_text(arguments))
    if macroname in _DECLARATIONS or not macroname[:1].isalpha():
        return ""
    return macroname + (" " if getattr(node, "macro_post_space", "") else "")


def _ud(node: Any) -> str:
    """`\\ud`: in text, a line break that EPrints repositories export as `\\ud` (a carriage
    return whose `\\u000d` lost its digits; Mendeley keeps it: "events.\\ud \\ud This
    article"); in math, the upright differential many papers define it as (`\\ud x`)."""
    return "d" if getattr(node.parsing_state, "in_math_mode", False) else " "


def _citation(node: Any, l2tobj: LatexNodes2Text) -> str:
    """`\\citep[p.~3]{a,b}` -> "[a, b]": the keys, the last argument."""
    arguments = [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a is not None]
    if not arguments:
        return ""
    keys = l2tobj.nodelist_to_text([arguments[-1]]).strip()
    return "[" + ", ".join(k.strip() for k in keys.split(",") if k.strip()) + "]"


class Converter:
    """pylatexenc's LaTeX-to-text conversion with paperscope's vocabulary.

    A macro needs two entries: one for the parser (which braces are its arguments) and one
    for the text rules (what it prints); pylatexenc keeps them in separate contexts.
    """

    def __init__(self) -> None:
        text_rules = get_default_latex_context_db()
        text_rules.add_context_category(
            "paperscope-bibliography",
            prepend=True,
            macros=[MacroTextSpec(name, simplify_repl=_citation) for name in _CITATIONS]
            # LaTeX prints the ASCII circumflex; pylatexenc gives U+02C6, so `$1/F^2$`
            # written back as `1/F\\textasciicircum{}2` would not read back as `1/F^2`.
            + [MacroTextSpec("textasciicircum", "^")]
            + [MacroTextSpec(name, text) for name, text in (LINE_BREAKING | _SYMBOLS).items()]
            + [MacroTextSpec(name, text) for name, text in _WRAPPERS.items()]
            + [MacroTextSpec("ud", simplify_repl=_ud)]
            # Commands that print nothing, arguments and all (a cross-reference's target,
            # an index entry, a colour switch).
            + [MacroTextSpec(name, discard=True) for name in ("label", "index", "color")],
        )
        text_rules.set_unknown_macro_spec(MacroTextSpec("", simplify_repl=_unknown))
        self._text = _MathScripts(
            latex_context=text_rules, math_mode="text", strict_latex_spaces=False
        )
        self._parsing = get_default_parsing_context_db()
        self._parsing.add_context_category(
            "paperscope-bibliography",
            prepend=True,
            macros=[MacroSpec(name, "{") for name in _WRAPPERS]
            # hyperref: pylatexenc's text rule reads two arguments its parser never gave
            # it, fails, and the value was kept raw ("\\href{http://x.org}{site}").
            + [MacroSpec("href", "{{"), MacroSpec("index", "{")],
        )

    def latex_to_text(self, latex: str) -> str:
        """`latex` as the text a reader sees (inline math too; unknown macros by name)."""
        return str(self._text.latex_to_text(latex, latex_context=self._parsing))


class _MathScripts(LatexNodes2Text):
    """pylatexenc's text, with math's sub- and superscripts as a reader writes them.

    `CrO$_2$` is "CrO₂" and `$10^{-3}$` "10⁻³" (`index.library.math_scripts`), not the
    source's "CrO_2" and "10^-3"; also inside a macro's argument (`$\\mathrm{SAM^{Med}}$`).
    """

    _math_depth = 0  # > 0 while converting math: only there do `_` and `^` mean scripts

    def math_node_to_text(self, node: Any) -> str:
        self._math_depth += 1
        try:
            return str(super().math_node_to_text(node))
        finally:
            self._math_depth -= 1

    def nodelist_to_text(self, nodelist: Any) -> str:
        if not self._math_depth:
            return str(super().nodelist_to_text(nodelist))
        done: list[str] = []  # converted: runs of nodes, and the braced scripts after them
        run: list[Any] = []  # nodes since the last braced script, converted together
        for node in nodelist or ():
            if node.isNodeType(LatexGroupNode) and run and run[-1].isNodeType(LatexCharsNode):
                text = str(super().nodelist_to_text(run))
                if text.endswith(("_", "^")):
                    done.append(scripts_in(text[:-1]))
                    done.append(script(text[-1], self.nodelist_to_text(node.nodelist)))
                    run = []
                    continue
            run.append(node)
        done.append(scripts_in(str(super().nodelist_to_text(run))))
        return "".join(done)


def make_converter() -> Converter:
    """The converter `normalize` uses: inline math as text, unknown macros kept by name."""
    return Converter()
