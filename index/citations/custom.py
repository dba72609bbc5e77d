"""The user's own CSL styles: `.csl` files from the CSL styles repository, by file name.

A style is named by a string everywhere (the config, `--style`, the style picker), so a
user's style is a `CslStyle`: a `str` that is its name and also carries its file and title.
It passes through every place a built-in style name goes; the CSL renderer reads `path`.

citeproc-py renders a subset of CSL 1.0.2, so a file is checked when it is read (it must
be XML, a CSL `<style>`, independent, with a `<bibliography>`, and parse in citeproc-py).
A file that fails gives one line naming it and why; the others are still used.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # read only with a style file: lxml costs every start ~7 ms to import
    from lxml import etree

__all__ = ["CslStyle", "StyleFileError", "read_csl_style", "read_style_folder"]

_NS = "{http://purl.org/net/xbiblio/csl}"


class CslStyle(str):
    """A user's CSL style: the string is its name (the file stem); `path` and `csl_title` ride along.

    Comparing and hashing are a string's, so `"my-journal" == CslStyle(...)` as the
    config and picker expect; caches that must tell two files apart key on `path`.
    """

    path: Path
    csl_title: str

    def __new__(cls, name: str, path: Path, title: str) -> CslStyle:
        style = super().__new__(cls, name)
        style.path = path
        style.csl_title = title
        return style

    def __reduce__(self) -> tuple[type, tuple[str, Path, str]]:
        return CslStyle, (str(self), self.path, self.csl_title)


class StyleFileError(ValueError):
    """A `.csl` file paperscope cannot use; the message is `PATH: cause`, one line."""

    def __init__(self, path: Path, cause: str) -> None:
        super().__init__(f"{path}: {cause}")
        self.path = path
        self.cause = cause


def _check(root: etree._Element, path: Path) -> str:
    """The style's title, or a StyleFileError saying what makes it unusable."""
    from lxml import etree

    if root.tag != f"{_NS}style":
        raise StyleFileError(
            path,
            f"not a CSL style (the root element is <{etree.QName(root).localname}>, "
            "not <style> in the CSL namespace)",
        )
    title = (root.findtext(f"{_NS}info/{_NS}title") or "").strip()
    parent = root.find(f"{_NS}info/{_NS}link[@rel='independent-parent']")
    if parent is not None:
        raise StyleFileError(
            path,
            "a dependent CSL style (it only points to "
            f"{parent.get('href', 'its parent')}); download that parent "
            "style's .csl file instead",
        )
    if root.find(f"{_NS}bibliography") is None:
        raise StyleFileError(
            path, "this CSL style has no <bibliography>, which is what paperscope prints"
        )
    return title


def read_csl_style(path: Path, name: str | None = None) -> CslStyle:
    """Reads and checks one `.csl` file; its name is the file stem unless `name` is given.

    Raises:
        StyleFileError: unreadable, not XML, not CSL, dependent, or rejected by citeproc-py.
    """
    try:
        data = path.read_bytes()
    except OSError as error:
        raise StyleFileError(path, f"cannot read it ({error.strerror or error})") from None
    from lxml import etree

    try:
        root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError as error:
        line = f" at line {error.lineno}" if error.lineno else ""
        raise StyleFileError(path, f"not a CSL style (XML error{line})") from None
    title = _check(root, path)
    # citeproc-py rejects what it cannot model (an unknown element, a bad attribute) when
    # it parses; finding that out now gives one line here instead of a failed copy later.
    from citeproc import CitationStylesStyle

    try:
        CitationStylesStyle(io.BytesIO(data), validate=False)
    except Exception as error:  # citeproc-py raises bare exceptions of many kinds
        raise StyleFileError(path, f"citeproc-py cannot read this style ({error})") from None
    return CslStyle(name or path.stem, path, title or path.stem)


def read_style_folder(
    folder: Path, reserved: frozenset[str] = frozenset()
) -> tuple[list[CslStyle], list[str]]:
    """Every usable `.csl` file in `folder`, by name, and one warning per file that is not.

    Args:
        folder: the user's styles folder; a missing folder is simply no styles.
        reserved: built-in style names; a file named like one is skipped (and said), so
            `apa` always means the same style in every document and on every machine.
    """
    if not folder.is_dir():
        return [], []
    styles: list[CslStyle] = []
    warnings: list[str] = []
    for path in sorted(folder.glob("*.csl")):
        if path.stem in reserved:
            warnings.append(
                f"{path}: named like the built-in style {path.stem!r}; rename the file to use it"
            )
            continue
        try:
            styles.append(read_csl_style(path))
        except StyleFileError as error:
            warnings.append(str(error))
    return styles, warnings
