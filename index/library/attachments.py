"""Attached files (PDFs) as the reference managers write them, turned into paths.

Pure functions, so every loader (BibTeX, RIS, CSL-JSON) can call them. The forms read:

* JabRef: `file = {Description:path/to.pdf:PDF}` with `\\:` and `\\;` escaped and entries
  separated by `;`, e.g. `:C\\:\\\\Users\\\\me\\\\a.pdf:PDF`;
* Zotero and Better BibTeX: `Full Text PDF:/home/me/Zotero/storage/AB12/a.pdf:application/pdf`,
  or bare paths `a.pdf;b.pdf`;
* Mendeley: `:home/me/Mendeley/a.pdf:pdf` (the leading `/` dropped, put back when only
  the absolute path exists) and `$\\backslash$`/`{\\_}` LaTeX escapes;
* RIS `L1`/`L4` values: paths and `file://` URLs.

A relative path resolves against the folder of the file it was read from; `~` is the
home folder. Paths are returned whether or not the file exists (the detail view marks
missing ones): a PDF on an unmounted disk is still the user's PDF.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import unquote, urlparse

__all__ = ["parse_file_field", "parse_ris_links", "resolve_attachment"]

_WINDOWS = re.compile(r"^[A-Za-z]:[\\/]")
_LATEX = (
    ("$\\backslash$", "\\"),
    ("{\\_}", "_"),
    ("\\_", "_"),
    ("{\\&}", "&"),
    ("\\&", "&"),
    ("{\\~}", "~"),
    ("\\~{}", "~"),
    ("{\\$}", "$"),
    ("\\$", "$"),
)
# A file type as the last `:` part: `PDF`, `pdf`, `application/pdf`, `text/html`.
_TYPE = re.compile(r"^(?:[A-Za-z0-9.+-]{1,20}|[a-z]+/[A-Za-z0-9.+-]+)$")


def _split(text: str, separator: str) -> list[str]:
    """`text` split at `separator` not escaped by a backslash; escapes are kept."""
    if "\\" not in text:  # nothing escaped (most fields): a 3.5 MB export has 6,000 of them
        return text.split(separator)
    parts: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text):
            current.append(text[i : i + 2])
            i += 2
            continue
        if char == separator:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        i += 1
    parts.append("".join(current))
    return parts


def _unescape(text: str) -> str:
    for escaped, plain in _LATEX:
        text = text.replace(escaped, plain)
    return re.sub(r"\\([\\:;])", r"\1", text)


def _path_of(entry: str) -> str:
    """The path in one `Description:path:Type` entry (or a bare path)."""
    parts = _split(entry, ":")
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        first, second = parts
        if len(first) == 1 and first.isalpha() and second[:1] in ("\\", "/"):
            return f"{first}:{second}"  # `C:\Users\...`, a drive letter, unescaped
        if _TYPE.match(second) and ("/" in first or "\\" in first or "." in first):
            return first  # `path:Type`
        return second  # `Description:path`
    return ":".join(parts[1:-1])  # the path may hold a drive letter's unescaped colon


def resolve_attachment(raw: str, base: Path | None) -> str | None:
    """A path as written, made absolute against `base` (the source file's folder)."""
    text = raw.strip()
    if not text:
        return None
    if text.lower().startswith("file:"):
        parsed = urlparse(text)
        text = unquote(parsed.path)
        if re.match(r"^/[A-Za-z]:/", text):  # file:///C:/Users/...
            text = text[1:]
    elif re.match(r"^[a-z][a-z0-9+.-]*://", text, re.IGNORECASE):
        return None  # a web link (or EndNote's internal-pdf://) is not a file here
    if _WINDOWS.match(text):
        return text  # cannot be resolved on this system; shown as written
    path = Path(os.path.expanduser(text))
    if not path.is_absolute():
        rooted = Path("/") / path
        # Against the folder as it is now: a relative `--corpus refs.bib` names the
        # current directory, which the app and a later run may not share.
        near = (base.absolute() / path) if base is not None else path.absolute()
        # Mendeley drops the leading slash of absolute paths on Linux and macOS.
        if not near.exists() and rooted.exists():
            return str(rooted)
        path = near
    return os.path.normpath(str(path))


def parse_file_field(value: str, base: Path | None = None) -> tuple[str, ...]:
    """Every file a BibTeX `file` field (or CSL-JSON `file`) names, in order, no repeats."""
    found: list[str] = []
    for entry in _split(value.strip(), ";"):
        if not entry.strip():
            continue
        path = resolve_attachment(_unescape(_path_of(entry.strip())), base)
        if path and path not in found:
            found.append(path)
    return tuple(found)


def parse_ris_links(values: Iterable[str], base: Path | None = None) -> tuple[str, ...]:
    """The files of RIS `L1` (file attachments) and `L4` (figures, other files) values."""
    found: list[str] = []
    for value in values:
        for part in value.split(";"):
            path = resolve_attachment(part, base)
            if path and path not in found:
                found.append(path)
    return tuple(found)
