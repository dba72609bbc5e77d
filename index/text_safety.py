"""Untrusted text on its way out: to a person's terminal, or into a machine output.

Titles, authors, abstracts, URLs and even file names come from documents the user did not
write. Two outputs, two rules:

* `for_terminal` is for everything a person reads (the app, plain CLI output, warnings on
  stderr, notifications, the clipboard fallback dialog). C0 and C1 control characters
  become visible symbols (ESC shows as `␛`, BEL as `␇`, a C1 control as `�`), so no escape
  sequence can act on the terminal and the user still sees that the file holds one.
  Characters that are invisible by design and can disguise text are *removed*: the bidi
  controls (U+061C, U+200E/F, U+202A-202E, U+2066-2069), every other format character
  (Unicode category Cf: zero-width spaces and joiners, soft hyphens, tag characters
  U+E0000-E007F), private-use characters and lone surrogates (which cannot even be
  encoded). A placeholder for each would litter names written with zero-width joiners;
  removing them shows the text in its true logical order, which is what a reader needs.
* `strip_controls` is for machine outputs (`--json`, exports, the clipboard): the text stays
  as the document has it, except that C0/C1 controls (tab and newline kept) are dropped, so
  nothing pasted or written can carry an escape sequence.
* `strip_controls(text, at_load=True)` is what the loaders keep of a document's text
  (index.library.normalize): whole escape sequences go (`ESC [31m red` becomes `red`, not
  `[31mred`), line breaks of every kind become newlines (the loaders fold whitespace), and
  the invisible characters above are removed too, so what is stored, searched and exported
  is the text a reader sees.

One module, so there is one list of what is dangerous: the loaders, the app's renderer,
the citations and the clipboard all use these functions.
"""

from __future__ import annotations

import re

__all__ = ["for_terminal", "is_terminal_safe", "strip_controls"]

# C0 and C1 controls except tab and newline (carriage return included: it rewrites a line).
_CONTROL_CLASS = "\x00-\x08\x0b-\x1f\x7f-\x9f"
# Every Cf (format) character of Unicode 15, bidi controls among them, then private use
# and surrogates. `tests/index/test_text_safety.py` checks this list against `unicodedata`.
_INVISIBLE_CLASS = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
    "\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd\ud800-\udfff"
)
# Whole terminal escape sequences: CSI (`ESC [ ... m`), OSC (`ESC ] ... BEL` or `ESC \\`)
# and the two-byte ones, so their parameters go with the ESC.
_SEQUENCE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
# Line breaks that are controls too (vertical tab, form feed, carriage return).
_BREAK = re.compile("[\x0b\x0c\r]")
_CONTROL = re.compile(f"[{_CONTROL_CLASS}]")
_INVISIBLE = re.compile(f"[{_INVISIBLE_CLASS}]")
_UNSAFE = re.compile(f"[{_CONTROL_CLASS}{_INVISIBLE_CLASS}]")
_SPACE = re.compile(r"\s+")


def _visible(match: re.Match[str]) -> str:
    code = ord(match[0])
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode "control pictures": ␛, ␇, ...
    if code == 0x7F:
        return "\u2421"  # ␡
    if code <= 0x9F:
        return "\ufffd"  # C1 controls have no pictures
    return ""  # bidi, format, private use, surrogates: removed


def for_terminal(text: str, *, one_line: bool = False) -> str:
    """`text` made safe to show a person: controls visible, invisible characters removed.

    Args:
        text: any string that came from a document, a file name or the user's environment.
        one_line: also fold newlines and tabs (and runs of whitespace) into single spaces,
            for list rows and one-line messages. Runs are not stripped at the ends: a
            highlighted word between two segments keeps the spaces around it.
    """
    if not text.isprintable():  # fast path: printable text holds nothing unsafe
        text = _UNSAFE.sub(_visible, text)
    if one_line:
        text = _SPACE.sub(" ", text)
    return text


def strip_controls(text: str, *, at_load: bool = False) -> str:
    """`text` without C0/C1 control characters (tab and newline kept), for machine outputs.

    Args:
        text: untrusted text.
        at_load: the stricter rule for text as it is read from a document: escape
            sequences removed whole, CR, VT and FF turned into newlines (so words on either
            side stay apart), and bidi, format, private-use and surrogate characters removed.
    """
    if not at_load:
        return _CONTROL.sub("", text)
    if text.isprintable():  # fast path: nothing to strip
        return text
    if "\x1b" in text:
        text = _SEQUENCE.sub("", text)
    return _UNSAFE.sub("", _BREAK.sub("\n", text))


def is_terminal_safe(text: str) -> bool:
    """True when `text` holds no control, bidi, format or private-use character (tab and
    newline aside)."""
    return _UNSAFE.search(text) is None
