"""Citation keys as a writer types them: `\\cite{a,b}`, `[@a; @b]`, `@a`, `[cite:@a;@b]`.

These are citation styles like APA or BibTeX (they are chosen, previewed and copied the same
way), but they print only keys, which is what a writer pastes while drafting. Each syntax
has its own rule for which characters a key may contain; a key the short form cannot carry
is written in the long form the syntax offers (pandoc's `@{key}`, Typst's
`#cite(label("key"))`), and where there is none (Org, LaTeX) the error says so, because a
citation that silently cites something else is worse than none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["KEY_STYLES", "KeyFormatError", "format_keys", "is_key_style", "split_key_style"]

KEY_STYLES: tuple[str, ...] = ("key", "latex", "pandoc", "typst", "org")
DEFAULT_LATEX_COMMAND = "cite"

# A LaTeX citation command: letters, optionally starred (`citep`, `autocite*`, `Textcite`).
_LATEX_COMMAND = re.compile(r"[A-Za-z]+\*?")
# Characters that end or break a `\cite{...}` argument (BibTeX keys cannot hold them either).
_LATEX_BAD = re.compile(r"[\s,{}%\\#]")
# Pandoc: a key starts with a letter, digit or `_` and holds alphanumerics, `_` and internal
# punctuation `:.#$%&-+?<>~/`; anything else (or punctuation at the end) needs `@{...}`.
_PANDOC_PLAIN = re.compile(r"[\w][\w:.#$%&\-+?<>~/]*", re.UNICODE)
_PANDOC_TRAILING = ":.#$%&-+?<>~/"
# Org cite keys: word characters and ``-.:?!`'/*@+|(){}<>&_^$#%~`` (org-element's grammar).
_ORG_KEY = re.compile(r"[\w\-.:?!`'/*@+|(){}<>&^$#%~]+", re.UNICODE)


class KeyFormatError(ValueError):
    """A key that the chosen syntax cannot express, or a LaTeX command that is not one."""


def is_key_style(style: str) -> bool:
    """True for `key`, `latex`, `latex:citep`, `pandoc`, `typst` and `org`."""
    return split_key_style(style)[0] in KEY_STYLES


def split_key_style(style: str) -> tuple[str, str | None]:
    """`"latex:citep"` -> `("latex", "citep")`; any other name -> `(name, None)`."""
    base, sep, command = style.partition(":")
    if base == "latex" and sep:
        return base, command
    return style, None


def latex_command_error(command: str) -> str | None:
    """Why `command` cannot be a citation command (None when it can), for config and CLI."""
    if _LATEX_COMMAND.fullmatch(command):
        return None
    return f"{command!r} is not a LaTeX command name (letters, optionally a final *)"


def _latex(keys: Sequence[str], command: str | None) -> str:
    command = command or DEFAULT_LATEX_COMMAND
    problem = latex_command_error(command)
    if problem:
        raise KeyFormatError(problem)
    for key in keys:
        if _LATEX_BAD.search(key):
            raise KeyFormatError(f"key {key!r} cannot be written in \\{command}{{...}}")
    return f"\\{command}{{{','.join(keys)}}}"


def _pandoc_key(key: str) -> str:
    if _PANDOC_PLAIN.fullmatch(key) and key[-1] not in _PANDOC_TRAILING:
        return f"@{key}"
    if "{" in key or "}" in key:
        raise KeyFormatError(f"key {key!r} cannot be written as a pandoc citation")
    return f"@{{{key}}}"


def _typst_label_char(char: str) -> bool:
    """Typst's `is_valid_in_label_literal`: XID_Continue, `_`, `-`, `:` and `.`."""
    return char in "_-:." or ("a" + char).isidentifier()


def _typst_key(key: str) -> str:
    """`@key` when Typst's reference syntax reads the whole key back, else `#cite(label(...))`.

    `@key` takes the label-literal characters but gives back a trailing `.` or `:` to the
    sentence ("see @smith2020."), so a key ending in one cannot be written that way.
    """
    if key and all(map(_typst_label_char, key)) and key[-1] not in ".:":
        return f"@{key}"
    escaped = key.replace("\\", "\\\\").replace('"', '\\"')
    return f'#cite(label("{escaped}"))'


def _org_key(key: str) -> str:
    if not _ORG_KEY.fullmatch(key):
        raise KeyFormatError(f"key {key!r} cannot be written as an Org citation")
    return f"@{key}"


def format_keys(keys: Sequence[str], style: str) -> str:
    """The keys in `style` (one of `KEY_STYLES`, or `latex:COMMAND`).

    `key` prints one key per line: a shell reads that with `while read` or `xargs`, and a
    list of several is never mistaken for one key with a comma in it. The other styles put
    several keys in one citation, as each syntax groups them.

    Raises:
        KeyFormatError: a key the syntax cannot hold, or a bad LaTeX command.
    """
    base, command = split_key_style(style)
    if not keys:
        return ""
    if base == "key":
        return "\n".join(keys)
    if base == "latex":
        return _latex(keys, command)
    if base == "pandoc":
        return "[" + "; ".join(_pandoc_key(key) for key in keys) + "]"
    if base == "typst":
        # Adjacent references separated by spaces form one citation group in Typst.
        return " ".join(_typst_key(key) for key in keys)
    if base == "org":
        return "[cite:" + ";".join(_org_key(key) for key in keys) + "]"
    raise KeyFormatError(f"{style!r} is not a key format")
