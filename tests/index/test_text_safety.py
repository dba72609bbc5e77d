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
