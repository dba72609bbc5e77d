"""One list of what must never reach a terminal raw, checked against Unicode itself."""

from __future__ import annotations

import sys
import unicodedata

from index.text_safety import for_terminal, is_terminal_safe, strip_controls


def test_every_format_private_use_and_surrogate_character_is_removed() -> None:
    missed = [
        hex(code)
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) in ("Cf", "Co", "Cs") and for_terminal(chr(code)) != ""
    ]
    assert missed == []


def test_controls_become_visible_symbols() -> None:
    assert for_terminal("a\x1b]0;pwned\x07b") == "a␛]0;pwned␇b"
    assert for_terminal("\x9b31m\x7f") == "\ufffd31m\u2421"
    assert for_terminal("line\nnext\tcol") == "line\nnext\tcol"
    assert for_terminal("line\r\nnext\t", one_line=True) == "line␍ next "


def test_bidi_and_tag_characters_are_removed_and_ordinary_text_kept() -> None:
    assert for_terminal("abc\u202eexe.txt\u2066\u061c") == "abcexe.txt"
    assert for_terminal("tag\U000e0041\U000e007f end") == "tag end"
    text = "Müller 张伟 Ωμέγα 🙂 قطر [bold]x[/bold]"
    assert for_terminal(text) == text and is_terminal_safe(text)


def test_machine_outputs_keep_text_but_drop_controls() -> None:
    assert strip_controls("a\x1b[31mb\x9bc\u202ed\n") == "a[31mbc\u202ed\n"


def test_at_load_escape_sequences_go_whole_and_line_breaks_keep_words_apart() -> None:
    assert strip_controls("a\x1b[31mred\x1b[0m b", at_load=True) == "ared b"
    assert strip_controls("t\x1b]52;c;UFdORUQ=\x07i\x1b]0;x\x1b\\t", at_load=True) == "tit"
    assert strip_controls("one\rtwo\x0bthree\x0cfour", at_load=True) == "one\ntwo\nthree\nfour"
    assert strip_controls("tab\tand\nnewline\x00\x9b", at_load=True) == "tab\tand\nnewline"
    text = "Müller 张伟 Ωμέγα 🙂 قطر [bold]x[/bold]"
    assert strip_controls(text, at_load=True) == text


def test_at_load_every_character_the_terminal_would_lose_is_removed() -> None:
    """The loaders keep nothing `for_terminal` removes: what is stored is what is shown."""
    kept = [
        hex(code)
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) in ("Cc", "Cf", "Co", "Cs")
        and chr(code) not in "\t\n\x0b\x0c\r"
        and strip_controls(chr(code), at_load=True) != ""
    ]
    assert kept == []
