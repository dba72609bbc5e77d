"""Sub- and superscripts of inline math as a reader writes them: CrO$_2$ as CrO₂.

pylatexenc gives math as its source text, so a title's chemical formula read "CrO_2" and
an exponent "10^-3" in the app, in `search`'s output and in every plain-text citation.
Unicode has sub- and superscript forms of the digits, signs, brackets and a few letters;
a script made only of those is written with them. Any other script keeps the marker and,
when it is longer than one character, brackets ("T_(eff)"), as pandoc's plain-text writer
does, so it stays unambiguous.
"""

from __future__ import annotations

__all__ = ["script", "scripts_in"]

_SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
_SUP = dict(
    zip(
        "0123456789+-=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVW",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ",
    )
)
_SUP["−"] = "⁻"  # a minus sign pylatexenc may already have made of "-"


def script(marker: str, text: str) -> str:
    """`text` as a subscript (`marker` "_") or superscript ("^"), in Unicode if it can be."""
    table = _SUB if marker == "_" else _SUP
    text = text.strip()
    if text and all(char in table for char in text):
        return "".join(table[char] for char in text)
    if len(text) <= 1:
        return marker + text
    return f"{marker}({text})"


def scripts_in(text: str) -> str:
    """Every single-character script in math text (`x_1`, `n^2`) in Unicode where it can be.

    Braced scripts (`x_{12}`) are converted from the parsed groups before the text is
    joined (`index.library.latex_context`); what is left here is a marker followed by
    one character, which is all TeX takes as the script without braces.
    """
    if "_" not in text and "^" not in text:
        return text
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char in "_^" and index + 1 < len(text) and not text[index + 1].isspace():
            out.append(script(char, text[index + 1]))
            index += 2
            continue
        out.append(char)
        index += 1
    return "".join(out)
